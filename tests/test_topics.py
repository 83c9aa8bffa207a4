"""Adding a topic checks itself: each step of ARCHITECTURE.md "How to add a topic" that a new
topic forgets fails a test here (or in the test it names) that says which step.

A topic is one declaration, a ``Topic`` in genviz/topics.py (issue #41, item 1). The files in
notebooks/ are checked against the declarations; the lists a reader sees -- README.md's table,
the site's table of contents (docs/index.md), the start-here notebook's reading order, its map's
counts and its listing -- are generated from them by ``scripts/topics.py --write`` and checked
to be up to date; the explorers, the benchmark cases and rows, the map's sections, the
objectives, the practice kinds and the assignments are checked against them.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pathlib
import re

import pytest

from explorer_testing import explorer_factories
from file_modules import load_file
from genviz import topics
from test_practice import objectives as practice_objectives

ROOT = pathlib.Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
STEPS = "ARCHITECTURE.md, 'How to add a topic'"
NOTEBOOK_NAME = re.compile(r"(\d\d)_([a-z0-9_]+)\.ipynb")
TOPICS_SCRIPT = load_file(ROOT / "scripts" / "topics.py", "topics_script")


def step(n: int, what: str) -> str:
    return f"({STEPS}, step {n}: {what})"


def notebook_files() -> list[str]:
    """Every notebook in notebooks/, by name (hidden files and checkpoints aside)."""
    return sorted(p.name for p in NB_DIR.glob("*.ipynb") if not p.name.startswith("."))


# -- step 5: the notebook and every list of notebooks ------------------------------------------
def test_notebooks_are_numbered_00_01_02_without_gaps():
    names = notebook_files()
    bad = [n for n in names if not NOTEBOOK_NAME.fullmatch(n)]
    assert not bad, f"notebooks must be named NN_topic.ipynb: {bad} " + step(5, "the notebook")
    numbers = [int(NOTEBOOK_NAME.fullmatch(n).group(1)) for n in names]
    assert numbers == list(range(len(names))), (
        f"notebook numbers {numbers} should run 00, 01, ... without gaps or repeats "
        + step(5, "the notebook"))


def _declared() -> list[str]:
    """The notebook files genviz/topics.py declares, in order (the start page first)."""
    return [t.file for t in topics.all_notebooks()]


def test_every_notebook_is_declared_in_genviz_topics_in_order():
    files, declared = notebook_files(), _declared()
    assert declared == files, (
        f"notebooks/ has {sorted(set(files) - set(declared))} not declared, genviz/topics.py "
        f"declares {sorted(set(declared) - set(files))} with no file (order: {declared} vs "
        f"{files}): add a Topic(...) for it to TOPICS in genviz/topics.py " + step(1, "declare it"))


def test_the_generated_lists_are_up_to_date():
    """README.md's table, docs/index.md's toctree and 00_start_here's reading order, map counts
    and listing are written from TOPICS by scripts/topics.py."""
    stale = TOPICS_SCRIPT.stale()
    assert not stale, (f"{stale} differ from genviz/topics.py: run `python scripts/topics.py "
                       "--write` " + step(5, "generate the lists of notebooks"))


def _stem(topic) -> str:
    return topic.notebook


def test_a_new_notebook_fails_the_declaration_and_a_new_topic_the_generated_lists(
        tmp_path, monkeypatch):
    """A notebook numbered next and declared nowhere fails the declaration check; declared (a
    Topic appended to TOPICS), it fails the generated-lists check until --write, which makes
    README.md, docs/index.md and 00_start_here list it, with the map's counts recomputed."""
    fake = tmp_path / "notebooks"
    fake.mkdir()
    for name in notebook_files():
        (fake / name).write_text((NB_DIR / name).read_text())
    n = topics.next_number()
    planted = f"{n:02d}_planted_topic"
    (fake / f"{planted}.ipynb").write_text((NB_DIR / notebook_files()[1]).read_text())
    monkeypatch.setitem(globals(), "NB_DIR", fake)
    test_notebooks_are_numbered_00_01_02_without_gaps()
    with pytest.raises(AssertionError, match="step 1"):
        test_every_notebook_is_declared_in_genviz_topics_in_order()
    new = topics.Topic(planted, "A planted topic", "a planted summary", "what it teaches",
                       notes=topics.BEYOND_THE_NOTES, objectives=2)
    monkeypatch.setattr(topics, "TOPICS", (*topics.TOPICS, new))
    monkeypatch.setattr(TOPICS_SCRIPT, "TOPICS", topics.TOPICS)
    test_every_notebook_is_declared_in_genviz_topics_in_order()
    (tmp_path / "docs").mkdir()
    for rel in (TOPICS_SCRIPT.README, TOPICS_SCRIPT.INDEX, TOPICS_SCRIPT.START_HERE):
        (tmp_path / rel).write_text((ROOT / rel).read_text())
    monkeypatch.setattr(TOPICS_SCRIPT, "ROOT", tmp_path)
    with pytest.raises(AssertionError, match="scripts/topics.py --write.*step 5"):
        test_the_generated_lists_are_up_to_date()
    last_before = f"notebooks/{topics.TOPICS[-2].file}"
    assert TOPICS_SCRIPT.write() == [TOPICS_SCRIPT.README, TOPICS_SCRIPT.INDEX,
                                     TOPICS_SCRIPT.START_HERE, last_before,
                                     f"notebooks/{planted}.ipynb"]
    test_the_generated_lists_are_up_to_date()
    # the notebook that was last now leads to the planted one (by --write, not by hand), and
    # the planted one (a copy of 01, whose summary links 02) leads back to the start page
    before = _summary_text(tmp_path / last_before)
    assert f"Next: [notebook {n}]({planted}.ipynb), *A planted topic*: what it teaches." in before
    assert "That is the last notebook" not in before
    assert _summary_text(tmp_path / "notebooks" / f"{planted}.ipynb").endswith(TOPICS_SCRIPT.LAST)
    assert f"| `{planted}` | a planted summary |" in (tmp_path / "README.md").read_text()
    assert f"notebooks/{planted}\n```" in (tmp_path / "docs" / "index.md").read_text()
    start = (tmp_path / TOPICS_SCRIPT.START_HERE).read_text()
    assert f"| {n} | [A planted topic]({planted}.ipynb) | what it teaches |" in start
    beyond = re.search(r"Beyond the notes \(no row in the map\): ((?:\[\d\d\]\([^)]*\)(?:, )?)+)\.",
                       start)
    assert beyond and f"[{n:02d}]({planted}.ipynb)" in beyond.group(1), "no Beyond-the-notes link"
    assert f"{len(topics.TOPICS)} topic notebooks:" in start


def _summary_text(path) -> str:
    return _summary_text_of(pathlib.Path(path).read_text())


def _nb(*markdown) -> str:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": m} for m in markdown]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5},
                      indent=1, ensure_ascii=False) + "\n"


def test_a_notebook_gets_a_way_out_only_where_it_has_none():
    nxt = topics.Topic("11_prior_shift", "Prior shift", "s", "moving the prior")
    closing = TOPICS_SCRIPT._closing
    hand = _nb("# T", "## Summary\n\n* a\n\nNext: [notebook 11](11_prior_shift.ipynb) goes on.")
    assert closing(hand, nxt) == hand  # a hand-written link is kept as written
    was_last = _nb("# T", "## Summary\n\n* a\n\n" + TOPICS_SCRIPT.LAST)
    out = _summary_text_of(closing(was_last, nxt))
    assert out == ("## Summary\n\n* a\n\nNext: [notebook 11](11_prior_shift.ipynb), "
                   "*Prior shift*: moving the prior.")
    new_last = _nb("# T", "## Summary\n\n* a")
    assert _summary_text_of(closing(new_last, None)) == "## Summary\n\n* a\n\n" + TOPICS_SCRIPT.LAST
    assert closing(closing(new_last, None), None) == closing(new_last, None)  # once only
    appendix = _nb("## Summary\n\n* a", "## Appendix\n\nmore")
    cells = json.loads(closing(appendix, nxt))["cells"]
    assert "11_prior_shift.ipynb" in "".join(cells[0]["source"])  # the summary, not the appendix
    assert "".join(cells[1]["source"]) == "## Appendix\n\nmore"
    no_summary = _nb("# T", "text")
    assert closing(no_summary, nxt) == no_summary  # test_teaching names a missing summary


def _summary_text_of(text) -> str:
    cells = json.loads(text)["cells"]
    return "".join([c for c in cells if c["cell_type"] == "markdown"][-1]["source"])


def test_the_map_counts_are_counted_from_its_rows():
    rows = [["CS229 §1", "an item", "[01](01_x.ipynb)", "A"],
            ["CS229 §1", "another (partly: half)", "[01](01_x.ipynb)", "B"],
            ["Smola", "a third", "—", "not reproduced: no data"]]
    assert TOPICS_SCRIPT.item_counts(rows) == (3, 1, 1, 1)
    cells = json.loads((NB_DIR / "00_start_here.ipynb").read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells)
    total, full, partly, missing = TOPICS_SCRIPT.item_counts(TOPICS_SCRIPT.map_rows(cells))
    assert f"**{total} items: {full} reproduced, {partly} partly, {missing} not reproduced.**" in text


def _start_here_markdown() -> str:
    nb = json.loads((NB_DIR / "00_start_here.ipynb").read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def _map_sections() -> dict[str, set]:
    """notebook file -> the sections the start-here map's rows point at in it."""
    cells = json.loads((NB_DIR / "00_start_here.ipynb").read_text())["cells"]
    out: dict[str, set] = {}
    for _, _, link, section in TOPICS_SCRIPT.map_rows(cells):
        m = re.search(r"\((\d\d_[a-z0-9_]+\.ipynb)\)", link)
        if m:
            out.setdefault(m.group(1), set()).add(section)
    return out


@pytest.mark.parametrize("topic", topics.TOPICS, ids=_stem)
def test_the_map_points_at_the_sections_each_topic_declares(topic):
    mapped = _map_sections().get(topic.file, set())
    if topic.notes == topics.BEYOND_THE_NOTES:
        assert not mapped, (f"{topic.file} is declared beyond the notes but the map has rows "
                            f"for it ({sorted(mapped)}): declare its sections as notes=(...) in "
                            "genviz/topics.py " + step(5, "the map"))
        return
    assert isinstance(topic.notes, tuple) and topic.notes, (
        f"{topic.file}: notes= must name the sections the map points at, or be "
        "BEYOND_THE_NOTES " + step(1, "declare it"))
    assert mapped == set(topic.notes), (
        f"{topic.file}: the start-here map points at {sorted(mapped - set(topic.notes))} not "
        f"declared, and genviz/topics.py declares {sorted(set(topic.notes) - mapped)} with no "
        "row: add the rows to the map in notebooks/00_start_here.ipynb (then `python "
        "scripts/topics.py --write` recounts it) or fix notes=(...) " + step(5, "the map"))


@pytest.mark.parametrize("topic", topics.TOPICS, ids=_stem)
def test_each_topic_lists_the_objectives_it_declares(topic):
    found = len(practice_objectives(NB_DIR / topic.file))
    assert found == topic.objectives >= 2, (
        f"{topic.file} lists {found} objectives after 'You will be able to'; genviz/topics.py "
        f"declares {topic.objectives} (at least 2) " + step(5, "the notebook's objectives"))


@pytest.mark.parametrize("topic", topics.TOPICS, ids=_stem)
def test_each_topic_declares_the_practice_kinds_every_topic_asks(topic):
    need = set(topics.REQUIRED_PRACTICE) | ({"retrieval"} if topic.number > 1 else set())
    unknown = set(topic.practice) - set(topics.PRACTICE)
    assert not unknown, f"{topic.file}: unknown practice kinds {sorted(unknown)} " + step(
        1, "declare it")
    assert need <= set(topic.practice), (
        f"{topic.file} declares practice {topic.practice}; every topic asks {sorted(need)} "
        "(tests/test_practice.py checks the notebook's items) " + step(5, "the practice items"))


def assignment_problems(declared, assignments: dict, ungraded: dict) -> list[str]:
    """A topic is graded (``assignment=`` names its assignment in
    course.assignments.ASSIGNMENTS, of its notebook) or ungraded (its notebook in UNGRADED and
    not graded: a declaration that says "ungraded" for a graded notebook is stale); and every
    assignment and every UNGRADED entry belongs to a declared topic."""
    graded = {a.notebook: key for key, a in assignments.items()}
    files = {t.file for t in declared}
    problems = []
    for t in declared:
        if t.assignment:
            if graded.get(t.file) != t.assignment:
                problems.append(f"{t.file} declares assignment={t.assignment!r}; "
                                f"course/assignments.py has {graded.get(t.file)!r} for it")
        elif t.file in graded:
            problems.append(f"{t.file} is graded by {graded[t.file]!r} in course/assignments.py; "
                            "genviz/topics.py declares it ungraded (name it in assignment=)")
        elif t.file not in ungraded:
            problems.append(f"{t.file} has no assignment in course/assignments.py (ASSIGNMENTS) "
                            "and no reason in its UNGRADED")
        if not t.assignment and not t.ungraded:
            problems.append(f"{t.file} declares neither assignment= nor ungraded= in "
                            "genviz/topics.py")
    problems += [f"course/assignments.py grades {nb}, which no topic declares"
                 for nb in sorted(set(graded) - files)]
    problems += [f"UNGRADED names {nb}, which no topic declares"
                 for nb in sorted(set(ungraded) - files)]
    return [p + " " + step(5, "its graded assignment") for p in problems]


def ungraded_problems(declared) -> list[str]:
    """An ungraded topic says why in at least 12 words (course.assignments.UNGRADED is built
    from these reasons; the course's pages and the instructor read them)."""
    return [f"{t.file}: its ungraded= reason has {len(t.ungraded.split())} words, at least 12 "
            f"needed in genviz/topics.py " + step(5, "its graded assignment")
            for t in declared if t.ungraded and len(t.ungraded.split()) < 12]


def test_an_ungraded_topic_says_why_in_twelve_words():
    assert ungraded_problems(topics.TOPICS) == []
    short = topics.Topic("11_x", "X", "x", ungraded="a demonstration")
    full = topics.Topic("11_x", "X", "x", ungraded="a demonstration run once in the lecture, "
                        "whose numbers the class reads together and nobody computes")
    assert ungraded_problems([full]) == []
    [problem] = ungraded_problems([short])
    assert "11_x.ipynb" in problem and "2 words" in problem and "step 5" in problem


def test_the_course_takes_its_ungraded_notebooks_from_the_declarations(monkeypatch):
    """The course's UNGRADED is the declared reasons (whatever topics are ungraded: it held
    ``== {}`` once, and failed, naming no step, when a topic was added ungraded), and a topic
    declared ungraded (planted) is in it with its reason, read by a fresh copy of
    course/assignments.py."""
    from course.assignments import UNGRADED

    declared = {t.file: t.ungraded for t in topics.TOPICS if t.ungraded}
    assert UNGRADED == declared, (
        "course/assignments.py's UNGRADED is not built from the declarations' ungraded= "
        + step(5, "its graded assignment"))
    reason = ("a demonstration run once in the lecture, whose numbers the class reads together "
              "and nobody computes")
    planted = topics.Topic(f"{topics.next_number():02d}_planted_demo", "Planted", "s",
                           ungraded=reason)
    monkeypatch.setattr(topics, "TOPICS", (*topics.TOPICS, planted))
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("_planted_assignments",
                                                  ROOT / "course" / "assignments.py")
    fresh = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, fresh)  # its dataclasses look themselves up
    spec.loader.exec_module(fresh)
    assert fresh.UNGRADED == {**declared, planted.file: reason}


def test_the_declared_assignments_are_the_courses():
    from course.assignments import ASSIGNMENTS, UNGRADED

    assert assignment_problems(topics.TOPICS, ASSIGNMENTS, UNGRADED) == []


def test_the_assignment_check_fails_on_each_mismatch():
    class A:
        notebook = "11_x.ipynb"

    graded = topics.Topic("11_x", "X", "x", assignment="a11_x")
    free = topics.Topic("11_x", "X", "x", ungraded="a demonstration")
    assert assignment_problems([graded], {"a11_x": A}, {}) == []
    assert assignment_problems([free], {}, {"11_x.ipynb": "why"}) == []
    assert "declares it ungraded" in assignment_problems([free], {"a11_x": A}, {})[0]  # stale
    assert "has None for it" in assignment_problems([graded], {}, {})[0]
    assert "no reason in its UNGRADED" in assignment_problems([free], {}, {})[0]
    assert "neither" in assignment_problems([topics.Topic("11_x", "X", "x")], {}, {})[-1]
    assert "which no topic declares" in assignment_problems([], {"a11_x": A}, {})[0]
    assert all("step 5" in p for p in assignment_problems([graded], {}, {"12_y.ipynb": "w"}))


# -- step 2 and 3: every module is tested --------------------------------------------------------
def _imported_by_tests() -> set:
    names = set()
    for path in (ROOT / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def _topic_modules(sub: str = "") -> list[str]:
    """Public one-topic modules: genviz.<name> (or genviz.<sub>.<name>), not private."""
    base = ROOT / "genviz" / sub if sub else ROOT / "genviz"
    out = [p.stem for p in base.glob("*.py") if not p.stem.startswith("_")]
    out += [p.name for p in base.iterdir() if (p / "__init__.py").is_file()
            and not p.name.startswith("_") and not sub and p.name not in ("plots", "widgets", "exercises")]
    prefix = f"genviz.{sub}." if sub else "genviz."
    return sorted(prefix + n for n in out)


@pytest.mark.parametrize("sub, n, what", [("", 2, "tests against an oracle, tests/test_<topic>.py"),
                                          ("plots", 3, "the view's tests, tests/test_views_<topic>.py"),
                                          ("exercises", 2, "tests of the exercises")])
def test_every_topic_module_is_imported_by_a_test(sub, n, what):
    tested = _imported_by_tests()
    missing = [m for m in _topic_modules(sub) if m not in tested]
    assert not missing, f"no test imports {missing} " + step(n, what)


# -- step 4: every explorer is swept and built as its notebook builds it ------------------------
def _test_sources() -> dict:
    return {p.name: p.read_text() for p in (ROOT / "tests").glob("test_*.py")}


def test_every_explorer_is_swept_by_a_test():
    swept = [src for src in _test_sources().values() if "sweep_explorer(" in src]
    missing = [n for n in explorer_factories() if not any(f"{n}(" in s for s in swept)]
    assert not missing, (f"no test calls sweep_explorer on {missing} "
                         + step(4, "test it with tests/explorer_testing.py's sweep_explorer"))
    # (every explorer also needs a case in tests/explorer_testing.py: test_layout says so)


def _explorer_calls(path: pathlib.Path, factories) -> set:
    """The explorer factories a notebook's code cells call."""
    cells = json.loads(path.read_text())["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    return {n for n in re.findall(r"\b(\w+_explorer)\(", code) if n in factories}


def explorer_problems(declared, factories, calls: dict) -> list[str]:
    """Each factory declared by exactly one topic, each declared explorer a factory that its
    notebook calls, and each factory a topic notebook calls declared by that topic."""
    out, owner = [], {}
    where = step(4, "explorers=(...) in genviz/topics.py")
    for t in declared:
        for name in t.explorers:
            if name in owner:
                out.append(f"{name} is declared by {owner[name]} and {t.file} " + where)
            owner[name] = t.file
            if name not in factories:
                out.append(f"{t.file} declares {name}, which no genviz.widgets module exports "
                           "with @explorer_factory " + where)
            elif name not in calls.get(t.file, set()):
                out.append(f"{t.file} declares {name} but does not call it " + where)
        for name in sorted(calls.get(t.file, set()) - set(t.explorers)):
            if name not in owner and not any(name in u.explorers for u in declared):
                out.append(f"{t.file} calls {name}, which no topic declares " + where)
    out += [f"{name} (genviz.widgets) belongs to no topic: add it to its topic's explorers "
            + where for name in sorted(set(factories) - set(owner))]
    return out


def test_every_explorer_is_declared_by_the_topic_that_introduces_it():
    factories = explorer_factories()
    calls = {t.file: _explorer_calls(NB_DIR / t.file, factories) for t in topics.TOPICS}
    assert explorer_problems(topics.TOPICS, factories, calls) == []


def test_the_explorer_check_fails_on_an_undeclared_or_uncalled_explorer():
    t = topics.Topic("11_x", "X", "x", explorers=("mean_explorer",))
    factories = {"mean_explorer": None, "other_explorer": None}
    calls = {"11_x.ipynb": {"mean_explorer", "other_explorer"}}
    problems = explorer_problems([t], factories, calls)
    assert len(problems) == 2 and all("step 4" in p for p in problems)
    assert "calls other_explorer" in problems[0] and "belongs to no topic" in problems[1]
    assert "does not call it" in explorer_problems([t], factories, {})[0]
    assert "no genviz.widgets module" in explorer_problems([t], {}, calls)[0]


# -- step 6: a benchmark case, and its row in benchmarks/results.md -----------------------------
#: explorers without a benchmark case yet, each with why
NOT_BENCHMARKED = {
    "gda_fit_explorer": "no case yet (found by this test, issue 20): add one to bench_gda.py",
}


def _has_row(case: str, results: str) -> bool:
    """Whether a row of results.md is the case's: its first cell is the name, or the name with
    what a run adds inside its last parentheses (``...; grid 54 states, 0.03 MB)``)."""
    cells = re.findall(r"^\| ([^|]*?) \|", results, re.M)
    return any(c == case or (case.endswith(")") and c.startswith(case[:-1] + "; ")
                             and c.endswith(")")) for c in cells)


def benchmark_problems(declared, bench_texts: dict, results: str) -> list[str]:
    """What is missing for the declared topics' benchmarks: each explorer (not in
    NOT_BENCHMARKED) named by one of its topic's declared cases, each case a literal name in a
    benchmarks/bench_*.py file, each with a row of benchmarks/results.md (whose first cell is the
    name; what a run adds to the name inside its last parentheses after a ``;`` is read past)."""
    out = []
    for t in declared:
        for name in t.explorers:
            if name not in NOT_BENCHMARKED and not any(re.search(rf"\b{name}\b", b)
                                                       for b in t.benchmarks):
                out.append(f"{t.file}: no declared benchmark case names {name}: add its case to "
                           f"benchmarks/bench_<topic>.py and its name to benchmarks=(...) in "
                           f"genviz/topics.py " + step(6, "a case in benchmarks/bench_<topic>.py"))
        for case in t.benchmarks:
            if not any(f'"{case}"' in src for src in bench_texts.values()):
                out.append(f"{t.file}: no benchmarks/bench_*.py has a case named {case!r} "
                           + step(6, "a case in benchmarks/bench_<topic>.py"))
            elif not _has_row(case, results):
                out.append(f"benchmarks/results.md has no row for {case!r}: run `python "
                           f"benchmarks/run.py <topic>` " + step(6, "update results.md"))
    return out


def test_every_explorer_has_a_benchmark_case_and_a_measured_row():
    benches = {p.name: p.read_text() for p in (ROOT / "benchmarks").glob("bench_*.py")}
    results = (ROOT / "benchmarks" / "results.md").read_text()
    problems = benchmark_problems(topics.TOPICS, benches, results)
    assert not problems, "\n".join(problems)
    stale = sorted(set(NOT_BENCHMARKED) - set(explorer_factories()))
    assert not stale, f"NOT_BENCHMARKED names explorers that no longer exist: {stale}"


def test_the_benchmark_check_fails_on_a_missing_case_or_row():
    t = topics.Topic("11_x", "X", "x", explorers=("mean_explorer",), benchmarks=("mean_explorer (mu)",))
    case = 'CASES = [ExplorerCase("mean_explorer (mu)", ...)]'
    row = "| mean_explorer (mu) | 2-D | 3.0 |"
    assert benchmark_problems([t], {"bench_x.py": case}, row) == []
    assert "step 6" in benchmark_problems([t], {}, row)[0]
    assert "results.md has no row" in benchmark_problems([t], {"bench_x.py": case}, "")[0]
    bare = dataclasses.replace(t, benchmarks=())
    assert "names mean_explorer" in benchmark_problems([bare], {}, "")[0]


# -- benchmarks/run.py <filter> updates only the filtered rows of results.md --------------------
def _run_module():
    return load_file(ROOT / "benchmarks" / "run.py", "bench_run")


OLD_RESULTS = """# Benchmarks (2026-01-01, CPython 3.11.7, 2 cores, matplotlib 3.11.2)

## Explorer updates (kernel path: update + recorded frame + readout; blit/full: background PNG re-sent)

| explorer | view | median ms | p95 ms | blit/full | naive median ms | naive p95 ms | naive / ours |
|---|---|---|---|---|---|---|---|
| gaussian_explorer(surface=False) | 2-D | 14.5 | 17.7 | 60/0 | 75.2 | 86.4 | 5.2x |
| kde_explorer (h, kernel; 20 bumps) | 2-D | 6.4 | 9.4 | 60/0 | 70.7 | 86.7 | 11.1x |

## Computations

| what | median ms | p95 ms | baseline | baseline median ms | baseline / ours |
|---|---|---|---|---|---|
| `python -c 'import genviz'` (process incl. interpreter start) | 29.8 | 35.4 | bare interpreter | 29.1 | 1.0x |
"""


def test_a_filtered_run_replaces_its_rows_and_keeps_the_others():
    run = _run_module()
    new = {"explorer": ["| kde_explorer (h, kernel; 20 bumps) | 2-D | 5.0 | 8.0 | 60/0 | 70.0 | 80.0 | 14.0x |",
                        "| mean_explorer (mu) | 2-D | 3.0 | 4.0 | 60/0 | 60.0 | 70.0 | 20.0x |"],
           "timing": []}
    text = run.merge_results(OLD_RESULTS, new, note="rows matching `kde`, `mean` re-measured")
    lines = text.splitlines()
    assert "| gaussian_explorer(surface=False) | 2-D | 14.5 | 17.7 | 60/0 | 75.2 | 86.4 | 5.2x |" in lines
    assert "| kde_explorer (h, kernel; 20 bumps) | 2-D | 5.0 | 8.0 | 60/0 | 70.0 | 80.0 | 14.0x |" in lines
    assert not any(line.startswith("| kde_explorer") and "6.4" in line for line in lines)
    # a new case goes at the end of its table, before the next section
    i = lines.index("| mean_explorer (mu) | 2-D | 3.0 | 4.0 | 60/0 | 60.0 | 70.0 | 20.0x |")
    assert lines[i - 1].startswith("| kde_explorer") and lines[i + 1] == ""
    assert "`python -c 'import genviz'`" in text and "rows matching `kde`" in text
    assert lines[0] == OLD_RESULTS.splitlines()[0]
    # into an empty file: the tables are created
    fresh = run.merge_results("", new, note="")
    assert "| mean_explorer (mu) |" in fresh and "## Explorer updates" in fresh


def test_the_filter_selects_by_case_name_or_by_the_topic_of_the_bench_file():
    run = _run_module()

    class Case:
        def __init__(self, name):
            self.name = name

    cases = [("gaussian", Case("gaussian_explorer(surface=False)")),
             ("kde", Case("KDE LOO-likelihood CV sweep")), ("knn", Case("knn_regression_explorer"))]
    assert [c.name for c in run.select(cases, "kde")] == ["KDE LOO-likelihood CV sweep"]
    assert [c.name for c in run.select(cases, "regression")] == ["knn_regression_explorer"]
    assert len(run.select(cases, "")) == 3
