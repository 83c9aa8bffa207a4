"""One update protocol for every view (ARCHITECTURE.md, "The view/explorer pattern"): each
view declares the parameters ``update`` takes, and an unknown name is refused the same way
everywhere -- a TypeError naming it and listing the valid ones.

Every ``View`` subclass is discovered by scanning ``genviz.plots``; each is built as its
explorer builds it (``tests/explorer_testing.py``).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re

import pytest

import genviz.plots
from explorer_testing import explorer_cases, make_explorer
from genviz.plots._base import View


def view_classes() -> dict:
    found = {}
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        module = importlib.import_module(f"genviz.plots.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, View) and obj is not View and obj.__module__ == module.__name__:
                found[obj.__name__] = obj
    return found


#: view class name -> the explorer _explorer_of_each_view built for it, not moved since: that
#: view's test below takes it (once) rather than building the same case a second time
_UNUSED: dict = {}


@functools.lru_cache(maxsize=None)
def _explorer_of_each_view() -> dict:
    """One explorer case per view class (the first case that builds it)."""
    out = {}
    for case in explorer_cases():
        e = make_explorer(case)
        name = type(e.view).__name__
        if name in out:
            e.close()
        else:
            out[name] = case
            _UNUSED[name] = e
    return out


def test_every_view_has_an_explorer_to_build_it():
    missing = set(view_classes()) - set(_explorer_of_each_view())
    assert not missing, f"views no explorer builds (extend tests/explorer_testing.py): {missing}"


@pytest.mark.parametrize("name", sorted(view_classes()))
def test_unknown_parameter_is_refused_with_one_clear_error(name):
    case = _explorer_of_each_view()[name]
    e = _UNUSED.pop(name, None) or make_explorer(case)
    try:
        view = e.view
        valid = view.parameter_names()
        assert valid, f"{name} declares no parameters (its study's)"
        assert set(e.controls) <= set(valid), "every control is a declared parameter"
        before = dict(view.state)
        with pytest.raises(TypeError) as info:
            view.update(no_such_parameter=1.0)
        msg = str(info.value)
        assert f"{name}.update() got unknown parameter(s) 'no_such_parameter'" in msg
        assert msg.endswith("valid parameters: " + ", ".join(valid))
        assert view.state.keys() == before.keys()  # refused before anything changed
        # a valid name with a misspelt one beside it: refused too, nothing half-applied
        with pytest.raises(TypeError, match=re.escape("'no_such_parameter'")):
            view.update(**{valid[0]: e.controls[valid[0]].value if valid[0] in e.controls
                           else None}, no_such_parameter=1)
    finally:
        e.close()


def test_every_view_names_its_study():
    """The update protocol is the study's: no view keeps a parameter list or an ``update`` of
    its own (View's former no-study path -- PARAMS, a wrapped ``update`` -- is gone)."""
    for name, cls in view_classes().items():
        assert getattr(cls, "_study_type", None) is not None, f"{name} names no study"
        assert "update" not in cls.__dict__ and "PARAMS" not in cls.__dict__, name


def test_old_behaviours_are_gone():
    """Before: the histogram and KDE views ignored a mistyped name silently, the 2-D KDE view
    raised Python's own error, the categorical view a ValueError."""
    import numpy as np

    from genviz.plots.kde import HistogramView, KDE2DView

    h = HistogramView(np.linspace(0.0, 1.0, 20))
    k = KDE2DView(np.random.default_rng(0).normal(size=(30, 2)))
    try:
        for view, typo in ((h, "widht"), (k, "scael")):
            with pytest.raises(TypeError, match=f"unknown parameter\\(s\\) '{typo}'"):
                view.update(**{typo: 0.5})
    finally:
        h.close()
        k.close()
