#!/usr/bin/env python
"""Run the benchmarks: ``make bench`` (all of them) or ``python benchmarks/run.py FILTER``.

Writes a Markdown table to stdout and to benchmarks/results.md. ``FILTER`` keeps the cases whose
name contains it, or all the cases of ``benchmarks/bench_FILTER.py`` (``run.py kde``); a filtered
run replaces only those rows of results.md (a new case is added at the end of its table) and
leaves the others as they were. Timings are measurements to report, never assertions
(ARCHITECTURE.md, "Targets").
"""

from __future__ import annotations

import ast
import datetime
import importlib
import os
import pathlib
import platform
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import ExplorerCase, LazyCase, TimingCase, time_case, time_explorer  # noqa: E402

SECTIONS = {  # key -> (heading, table header)
    "explorer": ("## Explorer updates (kernel path: update + recorded frame + readout; "
                 "blit/full: background PNG re-sent)",
                 "| explorer | view | median ms | p95 ms | blit/full | naive median ms | naive p95 ms | naive / ours |\n"
                 "|---|---|---|---|---|---|---|---|"),
    "timing": ("## Computations",
               "| what | median ms | p95 ms | baseline | baseline median ms | baseline / ours |\n"
               "|---|---|---|---|---|---|"),
}


def import_time() -> TimingCase:
    def fn():
        subprocess.run([sys.executable, "-c", "import genviz"], check=True)

    def bare():
        subprocess.run([sys.executable, "-c", "pass"], check=True)

    return TimingCase("`python -c 'import genviz'` (process incl. interpreter start)", fn,
                      bare, baseline_name="bare interpreter", repeats=10)


def is_case_module(source: str) -> bool:
    """Whether a ``bench_*.py`` file is a set of cases for this runner: it defines ``CASES``
    at module level. Others are benchmarks with their own command line (``bench_class.py``:
    ``make bench-class``; ``bench_grading.py``: ``python benchmarks/bench_grading.py``), run on
    their own and never imported here."""
    for node in ast.parse(source).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
        if any(isinstance(t, ast.Name) and t.id == "CASES" for t in targets):
            return True
    return False


def literal_texts(source: str) -> set:
    """Every string constant of a bench file's source but its docstrings, and each literal part
    of its f-strings: the text a case name can be made of, read without importing the file."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings}


def case_files(pattern: str = "") -> dict:
    """``{topic: path}`` of the ``bench_<topic>.py`` files that define ``CASES`` and may hold a
    case ``pattern`` selects, found without importing any of them: every one for an empty
    pattern; else ``bench_<pattern>.py`` itself, or the files with a literal text (a case name,
    or a literal part of one) containing ``pattern``. A pattern across a computed part of a
    name (the kB of the frames cases) is matched by its literal parts only: use a shorter one."""
    found = {}
    for path in sorted(HERE.glob("bench_*.py")):
        source = path.read_text()
        if not is_case_module(source):
            continue
        topic = path.stem.removeprefix("bench_")
        if (not pattern or pattern == topic
                or any(pattern in text for text in literal_texts(source))):
            found[topic] = path
    return found


def bench_cases(pattern: str = "") -> list:
    """``[(topic, case), ...]`` of the ``bench_<topic>.py`` files :func:`case_files` names for
    ``pattern`` (every file defining ``CASES`` for an empty one); no other bench file is
    imported."""
    cases = []
    for topic, path in case_files(pattern).items():
        cases += [(topic, c) for c in importlib.import_module(path.stem).CASES]
    return cases


def select(cases: list, pattern: str) -> list:
    """The cases of ``[(topic, case), ...]`` whose name contains ``pattern`` or whose bench file
    is ``bench_<pattern>.py``; all of them for an empty pattern."""
    return [c for topic, c in cases if not pattern or pattern in c.name or pattern == topic]


def _row_name(line: str) -> str:
    return line.split("|")[1].strip()


def merge_results(old: str, rows: dict, *, note: str) -> str:
    """``old`` (results.md) with the rows of ``rows`` (section key -> table lines) replacing the
    rows of the same case name; new names go at the end of their table; ``note`` is put (or
    replaced) under the title. Every other line is kept."""
    lines = old.splitlines() or [_title()]
    for i in reversed(range(len(lines))):  # the previous partial-run note and its blank line
        if lines[i].startswith("_Partial run"):
            del lines[i - 1:i + 1]
    if note:
        lines[1:1] = ["", f"_Partial run: {note}._"]
    for key, new in rows.items():
        if not new:
            continue
        heading, header = SECTIONS[key]
        if heading not in lines:
            lines += ([""] if lines[-1] else []) + [heading, "", *header.splitlines(), ""]
        start = lines.index(heading)
        table = start + 1
        while table < len(lines) and not lines[table].startswith("|"):
            table += 1
        end = table
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        by_name = {_row_name(r): r for r in new}
        body = [by_name.pop(_row_name(line), line) for line in lines[table + 2:end]]
        lines[table + 2:end] = body + list(by_name.values())
    return "\n".join(lines).rstrip("\n") + "\n"


def _title() -> str:
    import matplotlib

    return (f"# Benchmarks ({datetime.date.today()}, {platform.python_implementation()} "
            f"{platform.python_version()}, {os.cpu_count()} cores, matplotlib "
            f"{matplotlib.__version__})")


def main(argv):
    import matplotlib

    matplotlib.use("module://ipympl.backend_nbagg")  # the interactive path of the notebooks
    pattern = argv[1] if len(argv) > 1 else ""
    cases = [("import", import_time())] + bench_cases(pattern)
    rows = {"explorer": [], "timing": []}
    for case in select(cases, pattern):
        print(f"... {case.name}", file=sys.stderr, flush=True)
        if isinstance(case, LazyCase):
            case = case.build()  # its data and explorers, only now that it runs
        if isinstance(case, ExplorerCase):
            r = time_explorer(case)
            o, n = r["ours"], r["naive"]
            rows["explorer"].append(
                f"| {r['case']} | {r['kind']} | {o['median']:.1f} | {o['p95']:.1f} | "
                f"{r['modes']['blit']}/{r['modes']['full']} | {n['median']:.1f} | "
                f"{n['p95']:.1f} | {r['ratio']:.1f}x |")
        else:
            r = time_case(case)
            o, n = r["ours"], r["naive"]
            base = (f"{r['baseline_name']} | {n['median']:.1f} | {r['ratio']:.1f}x"
                    if n else "— | — | —")
            rows["timing"].append(f"| {r['case']} | {o['median']:.1f} | {o['p95']:.1f} | {base} |")
    results = HERE / "results.md"
    if pattern:
        text = merge_results(results.read_text() if results.exists() else "", rows,
                             note=f"rows matching `{pattern}` re-measured {datetime.date.today()}")
    else:
        text = merge_results(_title() + "\n", rows, note="")
    print(text)
    results.write_text(text)


if __name__ == "__main__":
    main(sys.argv)
