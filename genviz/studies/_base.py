"""What every study returns and how a view asks it: :class:`Result` and :class:`Study`.

A **study** is the model-layer half of a figure: parameters in, a typed result out. A
**result** is a frozen dataclass holding every number the figure and its readout show, each
field documented in the class's ``Attributes``; it is read both ways, ``result.peak`` and
``result["peak"]`` (as scipy's ``OptimizeResult`` is), so readouts and exercises that read a
view's ``state["peak"]`` keep working. A result holds data only (numbers, strings, arrays and
containers of them, other results): never an estimator, so a painter given a result cannot
reach a model (``tests/test_views_only_draw.py`` checks both).
"""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np

__all__ = ["Result", "Study", "nice_ceil"]


def nice_ceil(x: float) -> float:
    """The next of 1, 2, 5, 10, 20, 50, ... at or above ``x``: an axis limit that moves only
    when the data outgrow it.

    >>> float(nice_ceil(0.23)), float(nice_ceil(7.0)), float(nice_ceil(10.0))
    (0.5, 10.0, 10.0)
    """
    x = max(float(x), 1e-9)
    base = 10.0 ** np.floor(np.log10(x))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * base >= x * (1 - 1e-12):
            return m * base
    return 10.0 * base  # pragma: no cover


@dataclasses.dataclass(frozen=True, eq=False)
class Result:
    """Base of every study result: a frozen dataclass whose fields also read as ``r["name"]``.

    A subclass only declares its fields (annotations, in the order of its ``Attributes``);
    it is made a frozen dataclass (``eq=False``: fields are arrays) when it is defined.

    Examples
    --------
    >>> class Peak(Result):
    ...     '''Attributes
    ...     ----------
    ...     x : float
    ...     height : float
    ...     '''
    ...     x: float
    ...     height: float
    >>> r = Peak(0.5, 2.0)
    >>> r.height, r["height"], list(r), dict(r)
    (2.0, 2.0, ['x', 'height'], {'x': 0.5, 'height': 2.0})
    >>> r["width"]
    Traceback (most recent call last):
    ...
    KeyError: "Peak has no field 'width'; its fields: x, height"
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True, eq=False)(cls)

    def _as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def keys(self):
        """The field names, in order (a ``dict_keys``, as a dict's)."""
        return self._as_dict().keys()

    def values(self):
        return self._as_dict().values()

    def items(self):
        return self._as_dict().items()

    def get(self, key, default=None):
        return getattr(self, key) if key in self.keys() else default

    def __getitem__(self, key):
        if key not in self.keys():
            raise KeyError(f"{type(self).__name__} has no field {key!r}; its fields: "
                           f"{', '.join(self.keys())}")
        return getattr(self, key)

    def __contains__(self, key) -> bool:
        return key in self.keys()

    def __iter__(self):
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())


class Study:
    """Base of a live view's study: ``study(**params)`` is a :class:`Result`.

    A subclass takes its data and fixed settings in ``__init__`` (validated there; expensive
    structure computed once or cached), and defines ``__call__`` with keyword-only parameters
    and their defaults -- the names the view's sliders set. :meth:`parameter_names` and
    :meth:`defaults` read that signature (a study whose names depend on its data overrides
    both). :meth:`static` is the result of what the figure draws once (the truth curve, the
    data). Bad values raise ``ValueError``/``TypeError`` naming the parameter.
    """

    def __call__(self, **params) -> Result:  # pragma: no cover - abstract
        raise NotImplementedError

    def _keywords(self):
        return [p for p in inspect.signature(self.__call__).parameters.values()
                if p.kind == p.KEYWORD_ONLY]

    def parameter_names(self) -> tuple:
        """The names ``__call__`` takes."""
        return tuple(p.name for p in self._keywords())

    def defaults(self) -> dict:
        """Each parameter's default value."""
        return {p.name: p.default for p in self._keywords()}

    def static(self):
        """What the figure draws once (a :class:`Result`), or None."""
        return None

    def close(self) -> None:
        """Release what the study holds (background work); nothing by default."""
