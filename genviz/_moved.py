"""Deprecated aliases: names that moved to another module, still found at their old home.

A module whose names moved out sets ``__getattr__ = moved_names(__name__, {name: new_home})``.
The old spelling (``from genviz.knn import two_class_data``) then still works -- a student's
notebook pulled before the move keeps running, because nbgitpuller never overwrites a notebook
the student edited -- but warns with the new home, and the new home is imported only when an
old name is used: the old module does not import it, so no import cycle is possible.
"""

from __future__ import annotations

import importlib
import warnings

__all__ = ["moved_names"]


def moved_names(module: str, moved: dict):
    """A module ``__getattr__`` resolving each name of ``moved`` (name -> its module now).

    Examples
    --------
    >>> import warnings
    >>> getattr_ = moved_names("genviz.old", {"check_int": "genviz._validation"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     f = getattr_("check_int")
    >>> f.__module__, caught[0].category.__name__
    ('genviz._validation', 'DeprecationWarning')
    >>> str(caught[0].message)
    'genviz.old.check_int moved to genviz._validation; import it from there (the old name will be removed)'
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'genviz.old' has no attribute 'nothing'
    """
    moved = dict(moved)

    def __getattr__(name):
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home = moved[name]
        warnings.warn(f"{module}.{name} moved to {home}; import it from there "
                      f"(the old name will be removed)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    __getattr__.moved = moved  # read by tests/test_project.py
    return __getattr__
