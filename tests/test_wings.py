"""The house rules outside genviz/: each wing's modules sit on floors, import only their own
floor or below (imports inside functions counted), and form no circle (issue #41, item 2).

genviz/'s layers are checked by tests/test_project.py with scripts/module_report.py; the wings
reuse its import reader (relative imports resolved, imports in functions and ``if`` blocks read).
A new module of a wing fails here until it is given a floor in ``FLOORS`` (this file) and a line
in its wing's section of ARCHITECTURE.md.
"""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("module_report", ROOT / "scripts" / "module_report.py")
MR = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(MR)

#: wing -> module -> floor (0 = the ground: imports nothing of its wing)
FLOORS = {
    "course": {
        # the ground: nbgrader's paths, the sandbox's runner, plain-data answers, what a
        # grader's terminal may show, the per-student draws
        "course": 0, "course._nbg": 0, "course._runner": 0, "course.nbgrader_config": 0,
        "course.plain": 0, "course.shown": 0, "course.variants": 0,
        "course.cells": 1,        # an assignment's cells, rendered from its Exercises
        "course.sandbox": 1,      # bubblewrap around one student's notebook
        "course.assignments": 2,  # the assignments, their questions and variants
        "course.gradebook": 3,    # nbgrader's gradebook
        "course.build": 4,        # sources and releases written to disk
        "course.grade": 5, "course.submissions": 5,  # grading; simulated classes
    },
    "genviz_updates": {
        "genviz_updates": 0, "genviz_updates.notebooks": 0, "genviz_updates.rebuild": 0,
        "genviz_updates.seen": 1, "genviz_updates.driver": 1,
        "genviz_updates.notices": 2,
        "genviz_updates.kernel": 3, "genviz_updates.puller": 3,
        "genviz_updates.server": 4, "genviz_updates.__main__": 4,
    },
}


def wing_modules(wing: str, root: pathlib.Path = ROOT) -> dict:
    """module name -> path, for every ``.py`` file of the wing's package."""
    return {MR.module_name(p, root): p for p in sorted((root / wing).rglob("*.py"))}


def wing_graph(sources: dict, wing: str) -> dict:
    """module -> the modules of its wing it imports (anywhere in the file), from ``sources``
    (module -> (source text, is_package))."""
    own = set(sources)
    out = {}
    for name, (source, is_package) in sources.items():
        targets = set()
        for _, imp in MR.imports_of(source, name, is_package=is_package):
            if imp.split(".")[0] != wing:
                continue
            while imp and imp not in own:
                imp = imp.rpartition(".")[0]
            if imp and imp != name:
                targets.add(imp)
        out[name] = sorted(targets)
    return out


def floor_violations(graph: dict, floors: dict) -> list[str]:
    """Every import of a module on a higher floor, and every module without a floor."""
    found = [f"{m}: no floor (give it one in tests/test_wings.py FLOORS)"
             for m in sorted(graph) if m not in floors]
    for m, targets in sorted(graph.items()):
        for t in targets:
            if m in floors and t in floors and floors[t] > floors[m]:
                found.append(f"{m} (floor {floors[m]}) imports {t} (floor {floors[t]})")
    return found


def _sources(wing):
    return {name: (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for name, path in wing_modules(wing).items()}


@pytest.mark.parametrize("wing", sorted(FLOORS))
def test_every_module_of_the_wing_is_on_a_floor_and_imports_none_above(wing):
    graph = wing_graph(_sources(wing), wing)
    assert floor_violations(graph, FLOORS[wing]) == []
    assert set(FLOORS[wing]) == set(graph), "FLOORS names a module that is gone"


@pytest.mark.parametrize("wing", sorted(FLOORS))
def test_the_wing_has_no_import_circle_even_through_functions(wing):
    assert MR.cycles(wing_graph(_sources(wing), wing)) == []


def test_a_planted_import_inside_a_function_is_caught_as_upward_and_as_a_circle():
    """The circle that was: course/assignments.py imported course.build inside functions, and
    course.build imports course.assignments at its top."""
    sources = _sources("course")
    text, is_package = sources["course.assignments"]
    sources["course.assignments"] = (
        text + "\n\ndef _planted():\n    from course.build import notebook\n    return notebook\n",
        is_package)
    graph = wing_graph(sources, "course")
    assert floor_violations(graph, FLOORS["course"]) == [
        "course.assignments (floor 2) imports course.build (floor 4)"]
    assert ["course.assignments", "course.build", "course.assignments"] in MR.cycles(graph)


def test_a_relative_import_and_a_module_without_a_floor_are_caught():
    graph = wing_graph({"genviz_updates.notebooks": ("from .server import main\n", False),
                        "genviz_updates.server": ("", False),
                        "genviz_updates.extra": ("", False)}, "genviz_updates")
    assert floor_violations(graph, FLOORS["genviz_updates"]) == [
        "genviz_updates.extra: no floor (give it one in tests/test_wings.py FLOORS)",
        "genviz_updates.notebooks (floor 0) imports genviz_updates.server (floor 4)"]


#: files of the wings held to the 450-line rule (genviz/ has its own test in test_project.py)
LONG_FILE_GLOBS = ["course/*.py", "genviz_updates/*.py", "deploy/poll/*.py",
                   "genviz/widgets/static/*.js", "scripts/*.py"]


def _long_files(limit=450) -> dict:
    out = {}
    for pattern in LONG_FILE_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > limit:
                rel = path.relative_to(ROOT)
                key = (MR.module_name(path, ROOT) if rel.parts[0] in FLOORS
                       else rel.as_posix())
                out[key] = n
    return out


def test_no_file_of_a_wing_over_450_lines_unless_architecture_md_says_why():
    section = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").split(
        "\n## Large modules\n")[1].split("\n## ")[0]
    long = _long_files()
    assert "course.grade" in long  # the rule reads the wings (a file known to be long)
    unexplained = {k: n for k, n in long.items() if f"`{k}`" not in section}
    assert not unexplained, (f"{unexplained}: split them or say why in ARCHITECTURE.md, "
                             "'Large modules'")
