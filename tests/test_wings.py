"""The house rules outside genviz/: each wing's modules sit on floors, import only their own
floor or below (imports inside functions counted), and form no circle (issue #41, item 2).

genviz/'s layers are checked by tests/test_project.py with scripts/module_report.py; the wings
use its import graph (``module_report.source_graph``: relative imports resolved, imports in
functions and ``if`` blocks read, and a file loaded by path with ``spec_from_file_location``).
A new module of a wing fails here until it is given a floor in ``FLOORS`` (this file) and a line
in its wing's design document (ARCHITECTURE.md, "Wings").

The poll service's files (deploy/poll/) are scripts, not a package: the hub runs
``python genviz_poll.py`` (its folder is then ``sys.path[0]``), genviz_poll.py loads lecture.py
beside it by path, and the hub configs and tests load each file by path. So their module names
are their file names, top-level (``genviz_poll``, ``lecture``), as ``WING_ROOTS`` says.
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
        "course.reasons": 3,      # why a question earned nothing: provenance, what code did
        "course.build": 4,        # sources and releases written to disk
        "course.report": 4,       # the report, the feedback pages, grades.csv, the terminal
        "course.intake": 4,       # reading a submission: listing, bounds, the merge
        "course.grade": 5, "course.handin": 5,  # grading; a submission made from a release
        "course.hostile": 6,      # the hostile corpus
        "course.submissions": 7,  # simulated classes: handin and hostile under one name
    },
    "genviz_updates": {
        "genviz_updates": 0, "genviz_updates.pairing": 0, "genviz_updates.notebooks": 0,
        "genviz_updates.rebuild": 0,
        "genviz_updates.seen": 1, "genviz_updates.driver": 1, "genviz_updates.textsave": 1,
        "genviz_updates.notices": 2,
        "genviz_updates.kernel": 3, "genviz_updates.puller": 3,
        "genviz_updates.server": 4, "genviz_updates.__main__": 4,
    },
    "deploy/poll": {
        # the ground: the hub's settings for the service (it names genviz_poll.py as the command
        # the hub runs, never imports it), the lecture page's routes (handed the store by the
        # service), the bundle builder (run on its own; its genviz imports are outside the wing)
        "hub_config": 0, "lecture": 0, "lecture_bundle": 0,
        "genviz_poll": 1,  # the service: loads lecture.py beside it for the page's routes
    },
}

#: wing -> the folder its module names are read from (the repository root unless named here)
WING_ROOTS = {"deploy/poll": ROOT / "deploy" / "poll"}


def wing_sources(wing: str) -> dict:
    """module -> (source, is_package) for every ``.py`` file of the wing's folder, named from
    its ``WING_ROOTS`` folder: what ``MR.source_graph`` reads."""
    return MR.sources(sorted((ROOT / wing).rglob("*.py")), WING_ROOTS.get(wing, ROOT))


def floor_violations(graph: dict, floors: dict) -> list[str]:
    """Every import of a module on a higher floor, and every module without a floor."""
    found = [f"{m}: no floor (give it one in tests/test_wings.py FLOORS)"
             for m in sorted(graph) if m not in floors]
    for m, targets in sorted(graph.items()):
        for t in targets:
            if m in floors and t in floors and floors[t] > floors[m]:
                found.append(f"{m} (floor {floors[m]}) imports {t} (floor {floors[t]})")
    return found


@pytest.mark.parametrize("wing", sorted(FLOORS))
def test_every_module_of_the_wing_is_on_a_floor_and_imports_none_above(wing):
    graph = MR.source_graph(wing_sources(wing))
    assert floor_violations(graph, FLOORS[wing]) == []
    assert set(FLOORS[wing]) == set(graph), "FLOORS names a module that is gone"


@pytest.mark.parametrize("wing", sorted(FLOORS))
def test_the_wing_has_no_import_circle_even_through_functions(wing):
    assert MR.cycles(MR.source_graph(wing_sources(wing))) == []


def test_a_planted_import_inside_a_function_is_caught_as_upward_and_as_a_circle():
    """The circle that was: course/assignments.py imported course.build inside functions, and
    course.build imports course.assignments at its top."""
    sources = wing_sources("course")
    text, is_package = sources["course.assignments"]
    sources["course.assignments"] = (
        text + "\n\ndef _planted():\n    from course.build import notebook\n    return notebook\n",
        is_package)
    graph = MR.source_graph(sources)
    assert floor_violations(graph, FLOORS["course"]) == [
        "course.assignments (floor 2) imports course.build (floor 4)"]
    assert ["course.assignments", "course.build", "course.assignments"] in MR.cycles(graph)


def test_the_poll_service_loading_lecture_py_by_path_is_an_edge_of_its_wing():
    """genviz_poll.py loads lecture.py with ``spec_from_file_location`` (inside a function):
    the graph must see it, or the poll wing's floors would check nothing."""
    graph = MR.source_graph(wing_sources("deploy/poll"))
    assert graph == {"genviz_poll": ["lecture"], "hub_config": [], "lecture": [],
                     "lecture_bundle": []}


@pytest.mark.parametrize("planted", [
    # the wing's own way: a sibling file loaded by path
    pytest.param("def _planted():\n    import importlib.util, os\n    return importlib.util."
                 "spec_from_file_location('p', os.path.join(os.path.dirname(__file__), "
                 "'genviz_poll.py'))\n", id="loaded-by-path"),
    # a plain import of the sibling, as `python lecture.py` would resolve it (sys.path[0])
    pytest.param("def _planted():\n    import genviz_poll\n    return genviz_poll\n",
                 id="imported-by-name"),
])
def test_an_upward_import_planted_in_the_poll_wing_is_caught_as_upward_and_as_a_circle(planted):
    sources = wing_sources("deploy/poll")
    text, is_package = sources["lecture"]
    sources["lecture"] = (text + "\n\n" + planted, is_package)
    graph = MR.source_graph(sources)
    assert floor_violations(graph, FLOORS["deploy/poll"]) == [
        "lecture (floor 0) imports genviz_poll (floor 1)"]
    assert MR.cycles(graph) == [["genviz_poll", "lecture", "genviz_poll"]]


def test_a_relative_import_and_a_module_without_a_floor_are_caught():
    graph = MR.source_graph({"genviz_updates.notebooks": ("from .server import main\n", False),
                             "genviz_updates.server": ("", False),
                             "genviz_updates.extra": ("", False)})
    assert floor_violations(graph, FLOORS["genviz_updates"]) == [
        "genviz_updates.extra: no floor (give it one in tests/test_wings.py FLOORS)",
        "genviz_updates.notebooks (floor 0) imports genviz_updates.server (floor 4)"]


#: files of the wings held to the 450-line rule (genviz/ has its own test in test_project.py)
LONG_FILE_GLOBS = ["course/*.py", "genviz_updates/*.py", "deploy/poll/**/*.py",
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
    # the rule reads the wings (files known to be long)
    assert {"course.grade", "deploy/poll/genviz_poll.py"} <= set(long)
    unexplained = {k: n for k, n in long.items() if f"`{k}`" not in section}
    assert not unexplained, (f"{unexplained}: split them or say why in ARCHITECTURE.md, "
                             "'Large modules'")
