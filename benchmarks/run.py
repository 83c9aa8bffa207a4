#!/usr/bin/env python
"""Run every benchmark: ``make bench`` (or ``python benchmarks/run.py [name-filter]``).

Writes a Markdown table to stdout and to benchmarks/results.md. Timings are measurements to
report, never assertions (ARCHITECTURE.md, "Targets").
"""

from __future__ import annotations

import datetime
import importlib
import os
import pathlib
import platform
import subprocess
import sys

import matplotlib

matplotlib.use("module://ipympl.backend_nbagg")  # the interactive path of the notebooks

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import ExplorerCase, TimingCase, time_case, time_explorer  # noqa: E402


def import_time() -> TimingCase:
    def fn():
        subprocess.run([sys.executable, "-c", "import genviz"], check=True)

    def bare():
        subprocess.run([sys.executable, "-c", "pass"], check=True)

    return TimingCase("`python -c 'import genviz'` (process incl. interpreter start)", fn,
                      bare, baseline_name="bare interpreter", repeats=10)


def main(argv):
    pattern = argv[1] if len(argv) > 1 else ""
    cases = [import_time()]
    for path in sorted(HERE.glob("bench_*.py")):
        cases += importlib.import_module(path.stem).CASES
    cases = [c for c in cases if pattern in c.name]
    explorer_rows, timing_rows = [], []
    for case in cases:
        print(f"... {case.name}", file=sys.stderr, flush=True)
        if isinstance(case, ExplorerCase):
            explorer_rows.append(time_explorer(case))
        else:
            timing_rows.append(time_case(case))

    lines = [f"# Benchmarks ({datetime.date.today()}, {platform.python_implementation()} "
             f"{platform.python_version()}, {os.cpu_count()} cores, matplotlib "
             f"{matplotlib.__version__})", ""]
    if explorer_rows:
        lines += ["## Explorer updates (kernel side: update + redraw + PNG diff shipped by ipympl)",
                  "",
                  "| explorer | view | median ms | p95 ms | blit/full | naive median ms | naive p95 ms | naive / ours |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in explorer_rows:
            o, n = r["ours"], r["naive"]
            lines.append(f"| {r['case']} | {r['kind']} | {o['median']:.1f} | {o['p95']:.1f} | "
                         f"{r['modes']['blit']}/{r['modes']['full']} | {n['median']:.1f} | "
                         f"{n['p95']:.1f} | {r['ratio']:.1f}x |")
        lines.append("")
    if timing_rows:
        lines += ["## Computations", "",
                  "| what | median ms | p95 ms | baseline | baseline median ms | baseline / ours |",
                  "|---|---|---|---|---|---|"]
        for r in timing_rows:
            o, n = r["ours"], r["naive"]
            base = (f"{r['baseline_name']} | {n['median']:.1f} | {r['ratio']:.1f}x"
                    if n else "— | — | —")
            lines.append(f"| {r['case']} | {o['median']:.1f} | {o['p95']:.1f} | {base} |")
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if not pattern:
        (HERE / "results.md").write_text(text)


if __name__ == "__main__":
    main(sys.argv)
