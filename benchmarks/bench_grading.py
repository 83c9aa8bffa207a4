"""Time to autograde a class: N generated submissions of one assignment (course/grade.py).

    PYTHONPATH=. python benchmarks/bench_grading.py [--students 100] [--assignment a03_gda]
        [--jobs 1 2] [--out benchmarks/grading.md]

The class: generated submissions (course/submissions.py) of the released notebook, a mix of
right answers (60%), wrong answers (30%) and a cell that raises (10%): what a real class hands
in, minus infinite loops (each would cost the per-cell limit). For each number of jobs it grades
the whole class from scratch (autograde + feedback + export) and records the wall time, the
median and p95 autograde time per submission (one nbgrader autograde call: kernel start, run,
save), the peak memory of the grading process and of its kernels (ru_maxrss), and the machine's
load (uptime) before and after: other work on the machine slows every kernel start.
"""

from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course import build as B  # noqa: E402
from course import grade as G  # noqa: E402
from course import submissions as S  # noqa: E402


def make_class(course: pathlib.Path, release: pathlib.Path, assignment: str, n: int) -> None:
    right, wrong = S.right_answers(assignment), S.wrong_answers(assignment)
    for k in range(n):
        if k % 10 < 6:
            answers = right
        elif k % 10 < 9:
            answers = wrong
        else:
            answers = right | {2: "raise ValueError('not done')"}
        S.write(course, f"student{k:03d}", assignment,
                S.fill(release, answers, working="My working."))


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(n: int, assignment: str, jobs: int, build_root: pathlib.Path) -> dict:
    release = build_root / "release" / assignment / f"{assignment}.ipynb"
    with tempfile.TemporaryDirectory(prefix="genviz-grading-") as tmp:
        course = pathlib.Path(tmp) / "class"
        make_class(course, release, assignment, n)
        load_before = _uptime()
        start = time.perf_counter()
        if jobs == 1:
            outcomes = G.grade(course, build_root=build_root)
        else:
            outcomes = G.grade_parallel(course, jobs, build_root=build_root)
        total = time.perf_counter() - start
        load_after = _uptime()
        rows = (course / "grades.csv").read_text().strip().splitlines()[1:]
    seconds = sorted(o.seconds for o in outcomes if o.graded)
    return {
        "jobs": jobs, "n": n, "graded": sum(o.graded for o in outcomes), "rows": len(rows),
        "problems": sum(bool(o.problems) for o in outcomes), "total": total,
        "per_submission_wall": total / n,
        "median": statistics.median(seconds),
        "p95": seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))],
        "load_before": load_before, "load_after": load_after,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--assignment", default="a03_gda")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "grading.md"))
    args = parser.parse_args(argv)
    build_root = pathlib.Path(tempfile.mkdtemp(prefix="genviz-course-"))
    try:
        B.build(build_root, [args.assignment])
        results = []
        for jobs in args.jobs:
            r = run(args.students, args.assignment, jobs, build_root)
            print(r, flush=True)
            results.append(r)
    finally:
        shutil.rmtree(build_root, ignore_errors=True)
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    lines = [
        "# Autograding a class (`benchmarks/bench_grading.py`)",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), Python "
        f"{platform.python_version()}, nbgrader {__import__('nbgrader').__version__}: "
        f"{args.students} generated submissions of `{args.assignment}` (60% right, 30% wrong, "
        "10% with a cell that raises), graded from scratch by `course.grade` (nbgrader autograde "
        "+ feedback HTML + CSV export). Per submission = one `autograde` call (a fresh kernel "
        "runs the whole notebook: setup, answers, tests).",
        "",
        "| jobs | graded | rows in grades.csv | total (s) | wall per submission (s) | "
        "autograde median (s) | autograde p95 (s) |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['jobs']} | {r['graded']}/{r['n']} | {r['rows']} | {r['total']:.0f} | "
                     f"{r['per_submission_wall']:.2f} | {r['median']:.2f} | {r['p95']:.2f} |")
    if len(results) > 1:
        base = results[0]["total"]
        lines += ["", "Speed-up of the whole class against jobs = "
                  f"{results[0]['jobs']}: " + ", ".join(
                      f"jobs {r['jobs']} {base / r['total']:.2f}x" for r in results[1:]) + "."]
    lines += [
        "",
        f"Peak memory: grading process {self_mb:.0f} MB, largest child (a kernel or a worker) "
        f"{kids_mb:.0f} MB (ru_maxrss).",
        "",
        "Machine load (`uptime`) before and after each run — other work on this shared machine "
        "slows every kernel start, so compare runs only at similar load:",
        "",
    ]
    for r in results:
        lines += [f"- jobs {r['jobs']}: before `{r['load_before']}`; after `{r['load_after']}`"]
    lines += [
        "",
        "nbgrader grades one submission at a time; `course.grade --jobs N` (`make grade "
        "JOBS=N`) runs N processes on one gradebook, each grading every N-th student. With a "
        "kernel per submission the work is CPU-bound: on 2 cores expect at best ~2x.",
        "",
    ]
    pathlib.Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
