"""Time to grade a class: N generated submissions of one assignment, in the sandbox
(course/grade.py), against the earlier path (nbgrader's autograde, no sandbox) in the same run.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_grading.py [--students 20 100]
        [--jobs 1 2] [--old-commit 8d2e737] [--assignment a03_gda] [--out benchmarks/grading-run.md]

The class: generated submissions (course/submissions.py) of each student's own release, a mix of
right answers (60%), wrong answers (30%) and a cell that raises (10%): what a real class hands
in, minus infinite loops (each would cost the per-cell limit). For each class size and number of
jobs it grades the whole class from scratch (read, sandbox run, check, gradebook, feedback,
grades.csv, report) and records the wall time, the median and p95 of the sandbox run per
submission, the peak memory of the grading process and of its largest child (a worker, a
sandbox's kernel: ru_maxrss), and the machine's load (uptime) before and after.

**The earlier path** is the repository's ``course/`` package as of ``--old-commit`` (default
8d2e737, the last commit before the sandbox: nbgrader ``generate_assignment`` + ``autograde`` +
feedback + export), taken from git with ``git archive`` into a temporary folder and run in a
subprocess on the same class size, the same mix and the same machine, in the same run; the
ratio of the two is the cost of the sandbox. Needs git and the repository's history.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import pathlib
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if "--course-from" in sys.argv:  # another commit's course/ package (the "today" path), with
    # genviz as the environment installs it (that commit's sandbox binds only that one)
    sys.path.insert(0, sys.argv[sys.argv.index("--course-from") + 1])
else:
    sys.path.insert(0, str(ROOT))

from course import build as B  # noqa: E402
from course import grade as G  # noqa: E402
from course import submissions as S  # noqa: E402


def _answers(k: int, assignment: str, student: str, secret):
    if k % 10 < 6:
        return S.right_answers(assignment, student, secret)
    if k % 10 < 9:
        return S.wrong_answers(assignment, student, secret)
    return S.right_answers(assignment, student, secret) | {2: "raise ValueError('not done')"}


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def _sandbox_peaks(outcomes) -> dict:
    """The sandboxes' peak memory (each run's cgroup: all its processes together), in MB:
    median and largest; None where the run kept none (no cgroup, or an older course/)."""
    peaks = [p / 2**20 for p in (getattr(o, "peak_bytes", None) for o in outcomes) if p]
    return {"sandbox_peak_median_mb": statistics.median(peaks) if peaks else None,
            "sandbox_peak_max_mb": max(peaks) if peaks else None,
            "peak_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "peak_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def _mb(x) -> str:
    return "-" if x is None else f"{x:.0f}"


def run_new(n: int, assignment: str, jobs: int) -> dict:
    """The sandboxed path on a fresh course of n students."""
    secret = bytes(range(32))
    with tempfile.TemporaryDirectory(prefix="genviz-grading-") as tmp:
        course = pathlib.Path(tmp) / "class"
        students = [f"student{k:03d}" for k in range(n)]
        start = time.perf_counter()
        B.build(course, [assignment], students, secret)
        build_seconds = time.perf_counter() - start
        for k, s in enumerate(students):
            S.write(course, s, assignment, S.fill(
                course / "release" / s / assignment / f"{assignment}.ipynb",
                _answers(k, assignment, s, secret), working="My working."))
        load_before = _uptime()
        start = time.perf_counter()
        outcomes = G.grade(course, secret=secret, jobs=jobs)
        total = time.perf_counter() - start
        load_after = _uptime()
        rows = (course / "grades.csv").read_text().strip().splitlines()[1:]
    seconds = [o.seconds for o in outcomes if o.graded]
    return {"path": "sandbox", "jobs": jobs, "n": n, "graded": sum(o.graded for o in outcomes),
            "rows": len(rows), "right": sum(o.score == 9 for o in outcomes),
            "total": total, "build": build_seconds, "per_submission_wall": total / n,
            "median": statistics.median(seconds), "p95": _p95(seconds),
            "load_before": load_before, "load_after": load_after, **_sandbox_peaks(outcomes)}


OLD_SCRIPT = r"""
import json, pathlib, statistics, sys, tempfile, time, subprocess
sys.path.insert(0, sys.argv[1])
from course import build as B, grade as G, submissions as S
n, assignment, jobs = int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
root = pathlib.Path(tempfile.mkdtemp(prefix="genviz-old-"))
t = time.perf_counter()
B.build(root / "build", [assignment])
build = time.perf_counter() - t
release = root / "build" / "release" / assignment / f"{assignment}.ipynb"
right, wrong = S.right_answers(assignment), S.wrong_answers(assignment)
course = root / "class"
for k in range(n):
    answers = right if k % 10 < 6 else wrong if k % 10 < 9 else right | {2: "raise ValueError('not done')"}
    S.write(course, f"student{k:03d}", assignment, S.fill(release, answers, working="My working."))
load_before = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
t = time.perf_counter()
if jobs == 1:
    outcomes = G.grade(course, build_root=root / "build")
else:
    outcomes = G.grade_parallel(course, jobs, build_root=root / "build")
total = time.perf_counter() - t
load_after = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
rows = (course / "grades.csv").read_text().strip().splitlines()[1:]
seconds = sorted(o.seconds for o in outcomes if o.graded)
print(json.dumps({"path": "nbgrader autograde", "jobs": jobs, "n": n,
                  "graded": sum(o.graded for o in outcomes), "rows": len(rows),
                  "right": sum(o.score == 9 for o in outcomes), "total": total, "build": build,
                  "per_submission_wall": total / n, "median": statistics.median(seconds),
                  "p95": seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))],
                  "load_before": load_before, "load_after": load_after}))
"""


def _course_of(commit: str, folder: str) -> None:
    """The repository's course/ package as of ``commit``, unpacked into ``folder``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "course"],
                             capture_output=True, check=True).stdout
    tar = pathlib.Path(folder) / "course.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as fh:
        fh.extractall(folder, filter="data")


def run_old(n: int, assignment: str, jobs: int, commit: str) -> dict:
    """The earlier path: course/ of ``commit`` (git archive), in a subprocess."""
    with tempfile.TemporaryDirectory(prefix="genviz-old-course-") as tmp:
        _course_of(commit, tmp)
        env = {**os.environ, "PATH": f"{pathlib.Path(sys.executable).parent}:{os.environ['PATH']}"}
        out = subprocess.run([sys.executable, "-c", OLD_SCRIPT, tmp, str(n), assignment,
                              str(jobs)], capture_output=True, text=True, env=env, cwd=tmp)
        if out.returncode != 0:
            raise RuntimeError(f"the earlier path failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


def run_today(n: int, assignment: str, jobs: int, commit: str) -> dict:
    """The sandboxed path as of ``commit`` (course/ by git archive), in a subprocess running
    this same script's run_new: the same class, the same machine, the same run."""
    with tempfile.TemporaryDirectory(prefix="genviz-today-course-") as tmp:
        _course_of(commit, tmp)
        # that commit's sandbox imports genviz as the environment installs it
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        out = subprocess.run([sys.executable, __file__, "--one", str(n), str(jobs),
                              "--assignment", assignment, "--course-from", tmp],
                             capture_output=True, text=True, env=env)
        if out.returncode != 0:
            raise RuntimeError(f"the path of {commit} failed:\n{out.stderr[-3000:]}")
        result = json.loads(out.stdout.strip().splitlines()[-1])
        result["path"] = f"sandbox as of {commit}"
        return result


def run_hostile(jobs: int, right: int = 4, blank: int = 2) -> dict:
    """The hostile corpus (course/submissions.py: HOSTILE, one student per kind) graded among
    ``right`` honest and ``blank`` untouched submissions of a03_gda: wall time, rows, and
    whether the honest ones got full marks and every hostile one a row."""
    secret = bytes(range(32))
    assignment = "a03_gda"
    with tempfile.TemporaryDirectory(prefix="genviz-hostile-") as tmp:
        course = pathlib.Path(tmp) / "class"
        secret_file = pathlib.Path(tmp) / "secret"
        secret_file.write_text(secret.hex() + "\n")
        hostile = {f"h{k:02d}": h for k, h in enumerate(S.HOSTILE)}
        honest = [f"r{k}" for k in range(right)]
        blanks = [f"b{k}" for k in range(blank)]
        B.build(course, [assignment], [*hostile, *honest, *blanks], secret)
        for s in honest:
            S.write(course, s, assignment, S.fill(S.release(assignment, s, secret),
                                                  S.right_answers(assignment, s, secret)))
        for s in blanks:
            S.write(course, s, assignment, S.release(assignment, s, secret))
        ctx = S.Context(course=course.resolve(), assignment=assignment, classmate="r0",
                        classmate_answers=S.right_answers(assignment, "r0", secret),
                        secret_file=secret_file.resolve())
        for s, h in hostile.items():
            S.write_hostile(course, s, h, ctx, secret)
        load_before = _uptime()
        start = time.perf_counter()
        outcomes = G.grade(course, secret=secret, jobs=jobs,
                           limits=G.Limits(cell_seconds=10))
        total = time.perf_counter() - start
        load_after = _uptime()
    by = {o.student_id: o for o in outcomes}
    seconds = [o.seconds for o in outcomes if o.graded]
    return {"path": "hostile class", "jobs": jobs, "n": len(outcomes),
            "graded": sum(o.graded for o in outcomes), "rows": len(outcomes),
            "right": sum(by[s].score == 9 for s in honest), "total": total,
            "hostile_rows": sum(1 for s in hostile if s in by and by[s].problems),
            "hostile_points": sum(by[s].score for s in hostile if s in by),
            "per_submission_wall": total / len(outcomes), "median": statistics.median(seconds),
            "p95": _p95(seconds), "build": 0.0, "load_before": load_before,
            "load_after": load_after, "right_of": right, "kinds": len(hostile),
            **_sandbox_peaks(outcomes)}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--one" in argv:  # one sandboxed run, as JSON (run_today's subprocess)
        k = argv.index("--one")
        assignment = argv[argv.index("--assignment") + 1] if "--assignment" in argv else "a03_gda"
        print(json.dumps(run_new(int(argv[k + 1]), assignment, int(argv[k + 2]))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[20, 100])
    parser.add_argument("--assignment", default="a03_gda")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--old-commit", default="8d2e737")
    parser.add_argument("--no-old", action="store_true", help="skip the earlier path")
    parser.add_argument("--today-commit", help="also grade each class with the sandboxed path "
                        "of this commit (course/ by git archive): the cost of a change")
    parser.add_argument("--new-first", action="store_true",
                        help="grade with this tree's path first (the other order: a load that "
                        "rises or falls during the run favours one side)")
    parser.add_argument("--hostile", action="store_true",
                        help="also grade the hostile corpus among honest and blank submissions")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "grading-run.md"))
    args = parser.parse_args(argv)
    if args.assignment != "a03_gda":
        print("note: the 'right' column counts submissions with 9 points (a03_gda's auto points)")
    results = []
    for n in args.students:
        for jobs in args.jobs:
            runs = []
            if not args.no_old:
                runs.append(lambda: run_old(n, args.assignment, jobs, args.old_commit))
            if args.today_commit:
                runs.append(lambda: run_today(n, args.assignment, jobs, args.today_commit))
            runs.append(lambda: run_new(n, args.assignment, jobs))
            for run in (runs[::-1] if args.new_first else runs):
                r = run()
                print(r, flush=True)
                results.append(r)
    hostile = []
    if args.hostile:
        for jobs in args.jobs:
            r = run_hostile(jobs)
            print(r, flush=True)
            hostile.append(r)
    self_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    lines = [
        "# Grading a class (`benchmarks/bench_grading.py`)",
        "",
        f"Measured {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC on "
        f"{os.cpu_count()} cores ({platform.processor() or platform.machine()}), Python "
        f"{platform.python_version()}: generated submissions of `{args.assignment}` (60% right, "
        "30% wrong, 10% with a cell that raises), graded from scratch. *sandbox*: `course.grade` "
        "(each notebook run by a Jupyter kernel in a bubblewrap sandbox, answers checked "
        "outside, gradebook, feedback, CSV); *nbgrader autograde*: the earlier path, "
        f"`course/` of commit {args.old_commit} (nbgrader autograde in the grader's process "
        "tree + feedback HTML + CSV), same class, same machine, same run. Per-submission "
        "columns: the sandbox run (read + kernel start + cells + answers) or nbgrader's "
        "autograde call.",
        "",
        "| path | students | jobs | graded | rows | full marks | total (s) | wall per submission "
        "(s) | per-submission median (s) | p95 (s) | sandbox peak, median / largest (MB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        lines.append(f"| {r['path']} | {r['n']} | {r['jobs']} | {r['graded']}/{r['n']} | "
                     f"{r['rows']} | {r['right']} | {r['total']:.0f} | "
                     f"{r['per_submission_wall']:.2f} | {r['median']:.2f} | {r['p95']:.2f} | "
                     f"{_mb(r.get('sandbox_peak_median_mb'))} / "
                     f"{_mb(r.get('sandbox_peak_max_mb'))} |")
    ratios = []
    for n in args.students:
        for jobs in args.jobs:
            pair = [r for r in results if r["n"] == n and r["jobs"] == jobs]
            new = next(r for r in pair if r["path"] == "sandbox")
            for old in pair:
                if old["path"] != "sandbox":
                    ratios.append(f"{n} students, jobs {jobs}, against {old['path']}: "
                                  f"{new['total'] / old['total']:.2f}x")
    if ratios:
        lines += ["", "Sandbox time / the other path's time: " + "; ".join(ratios) + "."]
    if hostile:
        lines += ["", "The hostile corpus (one submission per kind of `course/submissions.py`'s "
                  "HOSTILE) among 4 right and 2 blank submissions of `a03_gda`, 10 s per cell:",
                  "", "| jobs | rows | graded | right ones with full marks | hostile rows with a "
                  "reason | hostile points | total (s) | median run (s) | p95 (s) | peak memory "
                  "of the grader / largest child (MB) | sandbox peak, median / largest (MB) |",
                  "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in hostile:
            lines.append(f"| {r['jobs']} | {r['rows']} | {r['graded']} | {r['right']}/4 | "
                         f"{r['hostile_rows']}/{len(S.HOSTILE)} | {r['hostile_points']:g} | "
                         f"{r['total']:.0f} | {r['median']:.2f} | {r['p95']:.2f} | "
                         f"{r['peak_self_mb']:.0f} / {r['peak_children_mb']:.0f} | "
                         f"{_mb(r['sandbox_peak_median_mb'])} / "
                         f"{_mb(r['sandbox_peak_max_mb'])} |")
    lines += [
        "",
        f"Peak memory: this process {self_mb:.0f} MB, largest child (a grading worker, a "
        f"sandbox's kernel, the earlier path's process) {kids_mb:.0f} MB (ru_maxrss).",
        "",
        "Machine load (`uptime`) before and after each run (other work on a shared machine "
        "slows every kernel start: compare runs only at similar load):",
        "",
    ]
    for r in results + hostile:
        lines.append(f"- {r['path']}, {r['n']} students, jobs {r['jobs']}: before "
                     f"`{r['load_before']}`; after `{r['load_after']}`")
    lines.append("")
    pathlib.Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
