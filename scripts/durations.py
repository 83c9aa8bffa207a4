#!/usr/bin/env python
"""The order in which `make test` hands its files to the workers.

**What `make test` uses (measured 2026-12-01):** the collection order, except that the notebooks
come first and the consumers of their records last (below); the conftest passes no seconds, so
:func:`order` keeps the collection order otherwise. The longest-first order this module was
written for never applied until that day (xdist's workers see ``--dist`` as "no", and the
conftest returned early: ``conftest.given_dist``); once it applied, two whole runs back to back
on the quiet 2-core machine, cold records and warm grids, took 9:09 (937 CPU-s) longest first
against 8:09 (800 CPU-s) in collection order: the long files -- trial hubs, grading sandboxes,
randomized update runs -- started together and slowed each other on two cores, where the
collection order spreads them among short files. The rule and table below stay (the table is
each file's measured time; ``order(files, seconds)`` is what another machine may try).

`make test` runs the suite on every core with pytest-xdist, one file to a worker at a time
(``--dist loadfile``: a notebook's nbval cells share one kernel, and a module's fixtures are
built once). The run ends when the last worker finishes its last file, so a long file handed
out last keeps one core busy while the other waits: in a run with the files in xdist's default
order (most tests first), the files of a few long tests (a whole class graded in the sandbox,
a trial hub started) came last. Handing out the longest files first (the longest-processing-
time rule) leaves only short files for the end.

``tests/durations.json`` holds each file's seconds (setup, call and teardown of all its tests)
from a run of the whole suite; the repository-wide ``conftest.py`` orders the collection by it
(:func:`order`), and `make test` tells xdist to keep that order (``--no-loadscope-reorder``). A
file not in the table yet (a new test file) is placed as a file of median length. The table
needs no care for correctness: a stale one only costs time.

One rule comes before the length: **the notebooks before their consumers.** nbval's run of a
notebook also writes the records that ``tests/test_offline_controls.py``, ``test_practice.py`` and
``test_teaching.py`` read (``tests/nbval_records.py``); a consumer that starts before a notebook's
nbval run runs the notebook itself (in nbclient) and nbval's run saves nothing, so each notebook
would execute twice. So the notebooks are handed out **first** and the consumers (the conftest
passes them as ``after_notebooks``) **last** (:func:`order`); the other files in between, longest
first. Handing a consumer out right after the last notebook was not enough: xdist queues files
on a worker before it runs them, so in a whole run (2026-12-01) a consumer started on one
worker while notebooks still waited in another's queue, ran every notebook itself (128 s), and
nbval's runs then recorded nothing. A consumer that still meets a notebook running waits for its
lock, then reads its records (never the reverse: no cycle). Refresh the table after adding a
slow file::

    pytest -n auto --dist loadfile --junitxml=build/junit.xml ...   (or `make test` with
    PYTEST_ADDOPTS=--junitxml=build/junit.xml)
    python scripts/durations.py build/junit.xml --write

The same report of a `make test-fast` run feeds the inner loop: ``tests/slow_tests.json`` lists
the tests (node ids) that took at least :data:`SLOW_SECONDS` there, and the repository-wide
``conftest.py`` marks them ``slow`` (:func:`mark_slow`), so `make test-fast` (``-m "not slow"``)
leaves out what is measured slow, not only what someone remembered to mark. `make test` still
runs every test. Refresh it from the inner loop's own run, which is what it describes (a test
that shares a module fixture with a slow test pays for the fixture when that test is left
out)::

    make test-fast PYTEST_ADDOPTS=--junitxml=build/junit-fast.xml
    python scripts/durations.py build/junit-fast.xml --write-slow

Listed tests are not run by the inner loop, so they are never measured again and stay listed;
a test whose file is gone is dropped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "tests" / "durations.json"
SLOW_TABLE = ROOT / "tests" / "slow_tests.json"
# a test of the inner loop taking this long or longer (setup, call and teardown) is marked slow
SLOW_SECONDS = 0.25


def file_of(nodeid: str) -> str:
    """The file part of a pytest node id (``tests/test_x.py::test_y[1]`` -> ``tests/test_x.py``)."""
    if not isinstance(nodeid, str) or not nodeid:
        raise ValueError(f"nodeid must be a non-empty string, got {nodeid!r}")
    return nodeid.split("::", 1)[0]


def junit_file_seconds(xml_text: str) -> dict[str, float]:
    """Seconds per file from a JUnit XML report of pytest (``--junitxml``; each test case's
    ``time`` is its setup, call and teardown), rounded to 0.1 s."""
    root = _parse(xml_text)
    out: dict[str, float] = {}
    for case in root.iter("testcase"):
        name = case.get("file") or _file_from_classname(case.get("classname", ""))
        if not name:
            continue
        out[name] = out.get(name, 0.0) + float(case.get("time") or 0.0)
    return {k: round(v, 1) for k, v in sorted(out.items())}


def junit_test_seconds(xml_text: str) -> dict[str, float]:
    """Seconds per test from a JUnit XML report of pytest, keyed by pytest node id
    (``tests/test_x.py::TestClass::test_y[1]``, doctests ``genviz/x.py::genviz.x.f``); test
    cases of notebooks (nbval) are left out. Not rounded."""
    root = _parse(xml_text)
    out: dict[str, float] = {}
    for case in root.iter("testcase"):
        nodeid = _nodeid(case.get("classname", ""), case.get("name", ""))
        if nodeid:
            out[nodeid] = out.get(nodeid, 0.0) + float(case.get("time") or 0.0)
    return out


def _parse(xml_text: str):
    if not isinstance(xml_text, str):
        raise TypeError(f"xml_text must be the report's text, got {type(xml_text).__name__}")
    try:
        return ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise ValueError(f"xml_text is not a JUnit XML report: {exc}") from None


def _nodeid(classname: str, name: str) -> str:
    """The node id of a JUnit test case (``classname``: the module's dotted path, then the
    classes), or "" for a notebook's cell or a module not in the repository."""
    if not name or ".ipynb" in classname:
        return ""
    path = _file_from_classname(classname)
    if not path:
        return ""
    module = path[:-len(".py")].replace("/", ".")
    classes = [c for c in classname[len(module):].split(".") if c]
    return "::".join([path, *classes, name])


def update_slow(table: dict[str, float], measured: dict[str, float],
                threshold: float = SLOW_SECONDS, root: Path = ROOT) -> dict[str, float]:
    """The slow list after a run: ``table`` with every test of ``measured`` (node id -> seconds)
    put in (>= ``threshold``, rounded to 0.01 s) or taken out (below it); tests not measured
    keep their entry unless their file is gone from ``root``."""
    threshold = float(threshold)
    if not threshold > 0:
        raise ValueError(f"threshold must be > 0 seconds, got {threshold!r}")
    out = {k: v for k, v in table.items() if (root / file_of(k)).is_file()}
    for nodeid, s in measured.items():
        if s >= threshold:
            out[nodeid] = round(float(s), 2)
        else:
            out.pop(nodeid, None)
    return dict(sorted(out.items()))


def mark_slow(items: list, slow: dict[str, float], marker) -> int:
    """Add ``marker`` (``pytest.mark.slow``) to every item whose node id is in ``slow``; the
    number marked."""
    n = 0
    for item in items:
        if item.nodeid in slow:
            item.add_marker(marker)
            n += 1
    return n


def _file_from_classname(classname: str) -> str:
    """pytest's JUnit ``classname``: the module's dotted path (``tests.test_x`` or
    ``tests.test_x.TestClass``), or the notebook's path for nbval cells."""
    if ".ipynb" in classname:
        return classname.split(".ipynb", 1)[0].replace(".", "/") + ".ipynb" \
            if "/" not in classname else classname.split("::", 1)[0]
    parts = classname.split(".")
    for k in range(len(parts), 0, -1):
        candidate = "/".join(parts[:k]) + ".py"
        if (ROOT / candidate).is_file():
            return candidate
    return ""


def order(files: list[str], seconds: dict[str, float], after_notebooks=()) -> list[str]:
    """``files`` (each once, in collection order) sorted longest first by ``seconds``; a file
    without a figure counts as the median of the known ones; ties keep collection order. When
    there are notebooks (``.ipynb``) and ``after_notebooks`` names files: the notebooks first,
    the files named last, each group longest first."""
    if len(set(files)) != len(files):
        raise ValueError("files must not repeat a file")
    known = [float(seconds[f]) for f in files if f in seconds]
    default = statistics.median(known) if known else 0.0
    rank = {f: k for k, f in enumerate(files)}
    out = sorted(files, key=lambda f: (-float(seconds.get(f, default)), rank[f]))
    notebooks = [f for f in out if f.endswith(".ipynb")]
    consumers = [f for f in out if f in set(after_notebooks)]
    if not notebooks or not after_notebooks:
        return out
    return notebooks + [f for f in out if f not in set(notebooks + consumers)] + consumers


def order_items(items: list, seconds: dict[str, float], after_notebooks=()) -> None:
    """Reorder pytest ``items`` in place: files by :func:`order` (``after_notebooks`` too),
    items within a file kept."""
    by_file: dict[str, list] = {}
    for item in items:
        by_file.setdefault(file_of(item.nodeid), []).append(item)
    items[:] = [item for f in order(list(by_file), seconds, after_notebooks)
                for item in by_file[f]]


def read_table(path: Path = TABLE) -> dict[str, float]:
    """The stored table ({} when there is none or it cannot be read: the order is only speed)."""
    try:
        table = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {k: float(v) for k, v in table.items()
            if isinstance(k, str) and isinstance(v, (int, float))}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("junit", type=Path, help="a JUnit XML report of a whole-suite run")
    parser.add_argument("--write", action="store_true", help=f"write {TABLE.relative_to(ROOT)}")
    parser.add_argument("--write-slow", action="store_true",
                        help=f"update {SLOW_TABLE.relative_to(ROOT)} from a `make test-fast` run")
    args = parser.parse_args(argv)
    xml_text = args.junit.read_text()
    if args.write_slow:
        measured = junit_test_seconds(xml_text)
        before = read_table(SLOW_TABLE)
        after = update_slow(before, measured)
        kept = sum(s for k, s in measured.items() if k not in after)
        SLOW_TABLE.write_text(json.dumps(after, indent=0, sort_keys=True) + "\n")
        print(f"wrote {SLOW_TABLE.relative_to(ROOT)}: {len(after)} slow tests "
              f"(was {len(before)}); the {len(measured) - len(set(measured) & set(after))} "
              f"others of this run took {kept:.0f} s in all")
        return 0
    seconds = junit_file_seconds(xml_text)
    total = sum(seconds.values())
    for name, s in sorted(seconds.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{s:8.1f} s  {name}")
    print(f"{len(seconds)} files, {total:.0f} s of tests in all")
    if args.write:
        TABLE.write_text(json.dumps(seconds, indent=0, sort_keys=True) + "\n")
        print(f"wrote {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
