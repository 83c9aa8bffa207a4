"""What the course-update notice costs a student's kernel after 1, 10 and 30 merges.

    .venv/bin/python benchmarks/bench_updates.py [--merges 1 10 30] [--out benchmarks/updates.md]

One student, one course notebook; before every pull the course fixes the exercise cell the
student edited and adds a cell, the student edits their cell again; each pull is nbgitpuller's
flow with genviz_updates' drivers and record (``SafePuller``). After 1, 10 and 30 merges it
times, in the same run:

- **new, first check**: what a kernel pays at its first cell (or the first cell after a
  click): ``Watcher(notebook).check()`` -- find the clone, stat and read the record, word the
  notice;
- **new, every other cell**: ``check()`` while the record is unchanged (one ``os.stat``);
- **old**: ``newer_cells`` + ``update_notice`` of genviz/course_updates.py as it was on
  main at 8d2e737 (read from git history), which walked every nbgitpuller merge;
- **record**: ``record_update`` for the latest merge, paid once per click, on the server.

Median and p95 of repeated runs; the machine's load is written beside them (figures measured
under load are upper bounds).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from genviz_updates.driver import git_config_env  # noqa: E402
from genviz_updates.notices import Watcher, record_update  # noqa: E402
from genviz_updates.puller import SafePuller  # noqa: E402

OLD_COMMIT = "8d2e737"
NB = "notebooks/lesson.ipynb"


def old_module():
    """genviz/course_updates.py as it was before issue #33 (from git history)."""
    text = subprocess.run(["git", "show", f"{OLD_COMMIT}:genviz/course_updates.py"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    path = pathlib.Path(tempfile.mkdtemp()) / "old_course_updates.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("old_course_updates", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def git(cwd, *args):
    return subprocess.run(["git", "-c", "user.name=I", "-c", "user.email=i@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def lesson(k):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Lesson")]
    nb.cells += [nbformat.v4.new_code_cell(f"x{i} = {i}\nprint(x{i})") for i in range(20)]
    nb.cells[3].source = f"answer = None  # exercise, course version {k}"
    nb.cells += [nbformat.v4.new_markdown_cell(f"Added in update {j}.") for j in range(k)]
    for i, cell in enumerate(nb.cells):
        cell.id = f"c{i}"
    return nb


def _told(student):
    return any((student / ".git" / "genviz-updates-told").iterdir())


def timed(fn, repeat):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def stats(xs):
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, nargs="+", default=[1, 10, 30])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "updates.md"))
    args = parser.parse_args(argv)
    os.environ.update(git_config_env(os.environ))
    old = old_module()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="bench-updates-"))
    bare, work, student = tmp / "c.git", tmp / "work", tmp / "student"
    url = f"file://{bare}"
    git(tmp, "init", "--bare", str(bare))
    git(tmp, "init", str(work))
    (work / "notebooks").mkdir()
    (work / ".gitattributes").write_text((ROOT / ".gitattributes").read_text())
    nbformat.write(lesson(0), work / NB)
    git(work, "add", "-A")
    git(work, "commit", "-m", "0")
    git(work, "push", url, "HEAD:main")
    load_before = os.getloadavg()
    rows = []
    done = 0

    def pull():
        return list(SafePuller(url, str(student), branch="main", depth=1).pull())

    pull()
    for target in sorted(args.merges):
        while done < target:
            done += 1
            nb = nbformat.read(student / NB, as_version=4)
            nb.cells[3].source = f"answer = {done}  # my try {done}"
            nbformat.write(nb, student / NB)
            nbformat.write(lesson(done), work / NB)
            git(work, "commit", "-am", str(done))
            git(work, "push", url, "HEAD:main")
            pull()
        repeat_old = 3 if target >= 30 else 10
        old_t = timed(lambda: old.update_notice(old.newer_cells(student / NB)), repeat_old)
        first = timed(lambda: Watcher(student / NB, started=0).check(), 50)
        w = Watcher(student / NB, started=0)
        w.check()
        steady = timed(w.check, 2000)
        before = git(student, "rev-parse", "HEAD^1").strip()
        rec = timed(lambda: record_update(student, before, "origin/main"), 5)
        # the notice is real: the student's exercise cell is kept and named
        assert "did not reach your copy" in Watcher(student / NB, started=time.time() - 1e9,
                                                    ).check() or _told(student)
        rows.append((target, stats(old_t), stats(first), stats(steady), stats(rec)))
        print(f"{target:>3} merges: old {stats(old_t)[0]*1e3:.0f} ms, new first "
              f"{stats(first)[0]*1e3:.2f} ms, per cell {stats(steady)[0]*1e6:.1f} us, "
              f"record {stats(rec)[0]*1e3:.0f} ms", flush=True)
    load_after = os.getloadavg()
    write(args.out, rows, load_before, load_after)


def write(out, rows, load_before, load_after):
    ms = lambda s: f"{s[0]*1e3:.2f} / {s[1]*1e3:.2f}"  # noqa: E731
    lines = [
        "# Course-update notice: cost after 1, 10 and 30 merges",
        "",
        f"`.venv/bin/python benchmarks/bench_updates.py` on {datetime.date.today()}, "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after (other work on the machine: figures are upper bounds).",
        "",
        "Median / p95 in milliseconds. *old*: genviz.course_updates as on main at 8d2e737 "
        "(walks every nbgitpuller merge, before the student's first cell); *first check*: a "
        "kernel's first cell, or its first cell after a click (reads the one record file); "
        "*every other cell*: the record unchanged (one stat); *record*: written once per "
        "click, on the server.",
        "",
        "| merges | old | new: first check | new: every other cell | old / new first | record (per click) |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for n, o, f, s, r in rows:
        lines.append(f"| {n} | {ms(o)} | {ms(f)} | {s[0]*1e3:.4f} / {s[1]*1e3:.4f} | "
                     f"{o[0] / f[0]:.0f}x | {ms(r)} |")
    lines += ["", "The new check does not grow with the number of merges: it reads one small "
              "file whose size depends on what is outstanding, not on the history."]
    pathlib.Path(out).write_text("\n".join(lines) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
