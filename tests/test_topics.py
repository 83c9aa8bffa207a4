"""Adding a topic checks itself: each step of ARCHITECTURE.md "How to add a topic" that a new
topic forgets fails a test here (or in the test it names) that says which step.

The lists a reader sees -- the notebooks in README.md's table, in the site's table of contents
(docs/index.md) and in the start-here notebook's reading order -- are checked against the files
in notebooks/, so a notebook 10 cannot slip past them.
"""

from __future__ import annotations

import ast
import json
import pathlib
import re

import pytest

from explorer_testing import explorer_factories
from file_modules import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
STEPS = "ARCHITECTURE.md, 'How to add a topic'"
NOTEBOOK_NAME = re.compile(r"(\d\d)_([a-z0-9_]+)\.ipynb")


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


def readme_notebooks() -> list[str]:
    """The first column of README.md's notebook table (`| notebook | topic |`)."""
    text = (ROOT / "README.md").read_text()
    table = text.split("| notebook | topic |")[1].split("\n\n")[0]
    return re.findall(r"^\| `([^`]+)` \|", table, re.M)


def toc_notebooks() -> list[str]:
    """The entries of the site's "Notebooks" table of contents in docs/index.md."""
    text = (ROOT / "docs" / "index.md").read_text()
    block = re.search(r"```\{toctree\}\n(?::[^\n]*\n)*?:caption: Notebooks\n(.*?)```", text, re.S)
    assert block, "docs/index.md has no toctree captioned 'Notebooks'"
    return [line.strip().removeprefix("notebooks/") for line in block.group(1).splitlines()
            if line.strip() and not line.startswith(":")]


def test_readme_lists_every_notebook_in_order():
    stems = [n.removesuffix(".ipynb") for n in notebook_files()]
    assert readme_notebooks() == stems, (
        "README.md's notebook table differs from notebooks/: add a row `| `NN_topic` | what it "
        "teaches |` " + step(5, "README.md's notebook table"))


def test_the_sites_table_of_contents_lists_every_notebook_in_order():
    stems = [n.removesuffix(".ipynb") for n in notebook_files()]
    assert toc_notebooks() == stems, (
        "the 'Notebooks' toctree of docs/index.md differs from notebooks/: add "
        "`notebooks/NN_topic` " + step(5, "the site's table of contents, docs/index.md"))


def _start_here_markdown() -> str:
    nb = json.loads((NB_DIR / "00_start_here.ipynb").read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_the_start_here_reading_order_links_every_topic_notebook():
    """(tests/test_start_here.py checks that each also reproduces a row of the map.)"""
    text = _start_here_markdown()
    missing = [n for n in notebook_files()[1:] if f"]({n})" not in text]
    assert not missing, (f"00_start_here does not link {missing} in its reading order "
                         + step(5, "the start-here notebook's reading order and map"))


def test_the_list_checks_catch_a_new_notebook(tmp_path, monkeypatch):
    """A notebook numbered next (10 today, the issue's example) and listed nowhere fails each
    list check."""
    fake = tmp_path / "notebooks"
    fake.mkdir()
    for name in notebook_files():
        (fake / name).write_text((NB_DIR / name).read_text())
    n = len(notebook_files())
    (fake / f"{n:02d}_planted_topic.ipynb").write_text((NB_DIR / notebook_files()[1]).read_text())
    monkeypatch.setitem(globals(), "NB_DIR", fake)
    test_notebooks_are_numbered_00_01_02_without_gaps()
    for check in (test_readme_lists_every_notebook_in_order,
                  test_the_sites_table_of_contents_lists_every_notebook_in_order,
                  test_the_start_here_reading_order_links_every_topic_notebook):
        with pytest.raises(AssertionError, match="step 5"):
            check()
    (fake / f"{n + 2:02d}_gap.ipynb").write_text("{}")
    with pytest.raises(AssertionError, match="without gaps"):
        test_notebooks_are_numbered_00_01_02_without_gaps()


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


# -- step 6: a benchmark case, and its row in benchmarks/results.md -----------------------------
#: explorers without a benchmark case yet, each with why
NOT_BENCHMARKED = {
    "gda_fit_explorer": "no case yet (found by this test, issue 20): add one to bench_gda.py",
}


def test_every_explorer_has_a_benchmark_case_and_a_measured_row():
    benches = {p.name: p.read_text() for p in (ROOT / "benchmarks").glob("bench_*.py")}
    results = (ROOT / "benchmarks" / "results.md").read_text()
    no_case, no_row = [], []
    for name in explorer_factories():
        if name in NOT_BENCHMARKED:
            continue
        if not any(f"{name}(" in src for src in benches.values()):
            no_case.append(name)
        elif not re.search(rf"^\| [^|]*\b{name}\b", results, re.M):
            no_row.append(name)
    assert not no_case, (f"no benchmark case builds {no_case} "
                         + step(6, "a case in benchmarks/bench_<topic>.py"))
    assert not no_row, (f"benchmarks/results.md has no row for {no_row}: run "
                        "`python benchmarks/run.py <topic>` " + step(6, "update results.md"))
    stale = sorted(set(NOT_BENCHMARKED) - set(explorer_factories()))
    assert not stale, f"NOT_BENCHMARKED names explorers that no longer exist: {stale}"


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
