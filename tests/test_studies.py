"""The studies as a whole (ARCHITECTURE.md, "Studies and painters"): every result type is a
frozen dataclass read both ways with each field documented and each field checked by a test of
its module; every live view's study declares its parameters; one naming scheme."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import pathlib
import pkgutil
import re

import numpy as np
import pytest

import genviz.plots
import genviz.studies
from genviz.plots._base import View
from genviz.studies import Result, Study
from genviz.studies._base import nice_ceil

ROOT = pathlib.Path(__file__).resolve().parents[1]


def study_modules() -> list:
    return [importlib.import_module(f"genviz.studies.{info.name}")
            for info in pkgutil.iter_modules(genviz.studies.__path__)
            if not info.name.startswith("_")]


def result_types() -> list:
    out = []
    for module in study_modules():
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Result) and obj is not Result and obj.__module__ == module.__name__:
                out.append(obj)
    return sorted(out, key=lambda c: (c.__module__, c.__name__))


def view_classes() -> list:
    out = []
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        module = importlib.import_module(f"genviz.plots.{info.name}")
        out += [c for _, c in inspect.getmembers(module, inspect.isclass)
                if issubclass(c, View) and c is not View and c.__module__ == module.__name__]
    return sorted(set(out), key=lambda c: c.__name__)


# -- Result -------------------------------------------------------------------------------------
class _Peak(Result):
    """Attributes
    ----------
    x : float
    height : float
    """

    x: float
    height: float


def test_a_result_reads_both_ways_and_is_frozen():
    r = _Peak(0.5, np.float64(2.0))
    assert r.height == r["height"] == 2.0 and r.get("x") == 0.5 and r.get("w", 7) == 7
    assert list(r) == list(r.keys()) == ["x", "height"] and len(r) == 2
    assert dict(r) == {"x": 0.5, "height": 2.0} and "x" in r and "w" not in r
    assert list(r.items()) == [("x", 0.5), ("height", 2.0)] and list(r.values()) == [0.5, 2.0]
    assert r.keys() == {"x": 1, "height": 2}.keys()  # compares as a dict's keys
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.x = 1.0
    with pytest.raises(KeyError, match="_Peak has no field 'w'; its fields: x, height"):
        r["w"]
    arrays = _Peak(np.zeros(2), np.ones(2))
    assert list(arrays.keys()) == ["x", "height"]  # eq=False: arrays never compared


def test_nice_ceil_against_brute_force():
    steps = sorted(m * 10.0 ** e for e in range(-4, 5) for m in (1, 2, 5))
    for x in np.geomspace(1.3e-4, 9e3, 200):
        assert nice_ceil(x) == pytest.approx(min(s for s in steps if s >= x * (1 - 1e-12)))
    assert nice_ceil(0.0) == pytest.approx(1e-9) and nice_ceil(-3.0) == pytest.approx(1e-9)


# -- every result type --------------------------------------------------------------------------
RESULTS = result_types()


def test_there_are_results_to_check():
    assert len(RESULTS) >= 40


@pytest.mark.parametrize("cls", RESULTS, ids=lambda c: c.__name__)
def test_result_type_is_a_frozen_dataclass_with_every_field_documented(cls):
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    assert not cls.__dataclass_params__.eq, "eq=False: fields are arrays"
    doc = inspect.getdoc(cls) or ""
    assert "Attributes\n----------" in doc, f"{cls.__name__} documents no Attributes"
    section = doc.split("Attributes\n----------", 1)[1]
    documented = set()
    for line in section.splitlines():
        m = re.match(r"^([\w, ]+) :", line)
        if m:
            documented |= {n.strip() for n in m.group(1).split(",")}
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in documented]
    assert not missing, f"{cls.__name__}: fields not in its Attributes: {missing}"


def _study_tests_text(module_name: str) -> str:
    """The text of the tests of one study module (tests/test_studies_<name>.py, or a topic's one
    test file tests/test_<name>.py), plus the tests of the views that paint it
    (tests/test_views_*.py), where results are also read."""
    leaf = module_name.rsplit(".", 1)[1]
    base = leaf.split("_")[0]
    files = sorted(ROOT.glob(f"tests/test_studies_{leaf}.py")) + \
        sorted(ROOT.glob(f"tests/test_studies_{base}*.py")) + \
        sorted(ROOT.glob(f"tests/test_{leaf}.py"))  # a new topic's one test file
    return "\n".join(p.read_text() for p in dict.fromkeys(files))


@pytest.mark.parametrize("cls", RESULTS, ids=lambda c: c.__name__)
def test_every_field_is_read_by_a_test_of_its_module(cls):
    """Each field appears, as ``.field`` or ``["field"]``, in the tests of its study module
    (tests/test_studies_<module>.py), which check it against an oracle."""
    text = _study_tests_text(cls.__module__)
    assert text, (f"no tests/test_studies_*.py or tests/test_<topic>.py for {cls.__module__} "
                  "(ARCHITECTURE.md, 'How to add a topic', step 3: test every field)")
    unread = [f.name for f in dataclasses.fields(cls)
              if not re.search(rf"(\.{f.name}\b|\[[\"']{f.name}[\"']\])", text)]
    assert not unread, f"{cls.__module__}.{cls.__name__}: no test reads {unread}"


def test_the_field_coverage_check_can_fail():
    assert re.search(r"(\.peak\b|\[[\"']peak[\"']\])", "r.peak_x") is None
    assert re.search(r"(\.peak\b|\[[\"']peak[\"']\])", "state['peak']")


# -- every view's study ---------------------------------------------------------------------------
@pytest.mark.parametrize("view", view_classes(), ids=lambda c: c.__name__)
def test_every_view_names_a_study_with_the_naming_scheme(view):
    study = view._study_type
    assert issubclass(study, Study)
    assert study.__module__.startswith("genviz.studies."), study.__module__
    painter = view.__module__.rsplit(".", 1)[1]
    home = study.__module__.rsplit(".", 1)[1]
    assert home == painter or home.startswith(painter + "_"), (
        f"{view.__name__} ({view.__module__}) draws {study.__module__}.{study.__name__}: a "
        f"study lives in genviz.studies.<painter module>[_<part>]")
    assert study.__name__ == view.__name__.removesuffix("View") + "Study" or \
        study.__name__ == "BandwidthStudy" and view.__name__ == "BandwidthView"
    assert "update" not in vars(view) and "paint" in vars(view)


def test_study_defaults_and_names_come_from_the_call_signature():
    class S(Study):
        def __call__(self, *, a=1.0, b="x"):
            return _Peak(a, 0.0)

    s = S()
    assert s.parameter_names() == ("a", "b") and s.defaults() == {"a": 1.0, "b": "x"}
    assert s.static() is None and s.close() is None
    with pytest.raises(TypeError):
        s(c=1)


def test_every_study_module_mirrors_a_painter_module():
    painters = {p.stem for p in (ROOT / "genviz" / "plots").glob("*.py")
                if not p.stem.startswith("_") and p.stem != "style"}
    for module in study_modules():
        leaf = module.__name__.rsplit(".", 1)[1]
        assert any(leaf == p or leaf.startswith(p + "_") for p in painters), leaf


def test_every_static_figure_has_its_study():
    """``x_figure`` in genviz.plots.<m> is bound to ``x_figure_study`` of genviz.studies.<m>[_*]."""
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        if info.name.startswith("_") or info.name == "style":  # the view infrastructure
            continue
        module = importlib.import_module(f"genviz.plots.{info.name}")
        tree = ast.parse(inspect.getsource(module))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_figure") \
                    and not node.name.startswith("_") and node.name in getattr(module, "__all__", []):
                study = getattr(module, node.name + "_study", None)
                assert study is not None, f"{module.__name__}.{node.name} has no {node.name}_study"
                assert study.__module__.startswith(f"genviz.studies.{info.name}")
