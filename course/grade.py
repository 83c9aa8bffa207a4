"""Autograde a class: every submission under ``DIR/submitted/<student>/<assignment>/``.

    python -m course.grade DIR [--timeout SECONDS] [--build-root build/course]

Writes, in ``DIR``:

- ``grades.csv``: nbgrader's CSV export, one row per student and assignment (a student whose
  submission could not be graded still gets a row, with score 0);
- ``feedback/<student>/<assignment>/*.html``: nbgrader's feedback (each test's verdict; a wrong
  answer shows the exercise's hint);
- ``grading_report.csv``: what went wrong per submission, in words (not valid JSON, empty
  folder, a read-only or test cell edited or deleted, a cell that timed out or raised);
- ``autograded/``, ``gradebook.db``: nbgrader's own (the manually graded cells are graded from
  here with nbgrader's formgrader, then ``python -m course.grade DIR --export-only``).

``DIR`` is an nbgrader course directory. If it lacks an assignment's source notebook, the one of
``make assignments`` (``build/course/source/``) is copied in and ``generate_assignment`` records
it in ``DIR/gradebook.db`` (the same source gives the same checksums as the release students
got). One bad submission never stops the batch.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import pathlib
import re
import shutil
import sys
import time
import warnings

import nbformat

from course import _nbg
from course.assignments import ASSIGNMENTS

REPORT_FIELDS = ["student_id", "assignment", "graded", "score", "max_score", "problems"]


@dataclasses.dataclass
class Outcome:
    student_id: str
    assignment: str
    graded: bool = False
    score: float = 0.0
    max_score: float = 0.0
    problems: list = dataclasses.field(default_factory=list)
    seconds: float = 0.0  # time nbgrader took to autograde it


def _students_and_assignments(course: pathlib.Path):
    submitted = course / "submitted"
    if not submitted.is_dir():
        raise FileNotFoundError(f"no submitted/ folder in {course}: submissions go in "
                                f"{submitted}/<student>/<assignment>/")
    students = sorted(p.name for p in submitted.iterdir() if p.is_dir())
    found = sorted({a.name for s in students for a in (submitted / s).iterdir() if a.is_dir()})
    return students, found


def _ensure_assignments(course: pathlib.Path, names, build_root: pathlib.Path, grader) -> None:
    from nbgrader.api import Gradebook, MissingEntry

    from course.build import write_sources

    for name in names:
        source = course / "source" / name
        if not source.is_dir():
            built = build_root / "source" / name
            if built.is_dir():
                shutil.copytree(built, source)
            else:
                write_sources(course, [name])
        with Gradebook(grader.coursedir.db_url, grader.coursedir.course_id) as gb:
            try:
                known = bool(gb.find_assignment(name).notebooks)
            except MissingEntry:
                known = False
        if not known:
            result = grader.generate_assignment(name, force=True, create=True)
            if not result["success"]:
                raise RuntimeError(f"generate_assignment {name} failed:\n{result.get('error')}")


# Student code that names what the hidden tests use could tamper with them (the tests run in the
# student's kernel: nbgrader has no sandbox). Not a proof of cheating, a reason to look.
TAMPERING = re.compile(r"genviz\.exercises|\bExercise\b|\bFeedback\b|_verdict|_WrongAnswer|"
                       r"\.check\b|__builtins__|sys\.modules")


def preflight(folder: pathlib.Path, assignment: str) -> tuple[bool, list[str]]:
    """Can nbgrader grade this folder, and what is wrong with it (before grading)?"""
    from nbgrader.utils import compute_checksum

    expected = folder / f"{assignment}.ipynb"
    if not folder.is_dir() or not any(folder.iterdir()):
        return False, ["empty submission folder"]
    if not expected.exists():
        others = sorted(p.name for p in folder.glob("*.ipynb"))
        return False, [f"no {expected.name} in the submission (found: {', '.join(others) or 'no notebook'})"]
    try:
        nb = nbformat.read(expected, as_version=4)
    except Exception as err:  # nbformat raises several kinds for broken files
        return False, [f"{expected.name} is not a valid notebook ({type(err).__name__}: "
                       f"{str(err).splitlines()[0][:120]})"]
    problems = []
    seen = set()
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        grade_id = meta.get("grade_id")
        if cell.get("cell_type") == "code" and not meta.get("locked") \
                and TAMPERING.search(cell.get("source", "")):
            problems.append(f"{grade_id or 'a cell'} refers to the grading machinery "
                            f"({TAMPERING.search(cell['source']).group(0)!r}): check it by hand")
        if not grade_id:
            continue
        seen.add(grade_id)
        if (meta.get("locked") or meta.get("grade")) and not meta.get("solution") \
                and "checksum" in meta and compute_checksum(cell) != meta["checksum"]:
            problems.append(f"read-only cell {grade_id} was edited (graded with the original)")
    return True, problems + [f"cell {gid} was deleted (put back by the grader)"
                             for gid in _graded_ids(assignment) if gid not in seen]


def _graded_ids(assignment: str) -> list[str]:
    a = ASSIGNMENTS[assignment]
    n = len(a.questions)
    return [f"test_q{i}" for i in range(1, n + 1)] + [
        f"working_q{k}" for k in range(n + 1, n + 1 + len(a.working))]


def _execution_problems(autograded: pathlib.Path) -> list[str]:
    """Cells of the graded notebook that timed out or raised (test failures are not listed:
    they are the grade)."""
    if not autograded.exists():
        return []
    nb = nbformat.read(autograded, as_version=4)
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        meta = cell.metadata.get("nbgrader", {})
        where = meta.get("grade_id") or f"cell {index}"
        for out in cell.get("outputs", []):
            if out.get("output_type") != "error":
                continue
            if out.get("ename") in ("CellTimeoutError", "KeyboardInterrupt"):
                problems.append(f"{where} did not finish within the time limit (interrupted)")
            elif not meta.get("grade"):
                problems.append(f"{where} raised {out.get('ename')}: {out.get('evalue', '')[:80]}")
    return problems


def prepare(course, timeout=None, build_root=_nbg.DEFAULT_ROOT):
    """Record the assignments and every student of ``course`` in its gradebook.

    Returns (grader API, student ids, assignments to grade, unknown assignment folders)."""
    from nbgrader.api import Gradebook

    course = pathlib.Path(course).resolve()
    students, found = _students_and_assignments(course)
    unknown = [a for a in found if a not in ASSIGNMENTS]
    grader = _nbg.api(course, timeout)
    _ensure_assignments(course, [a for a in found if a in ASSIGNMENTS], pathlib.Path(build_root),
                        grader)
    with Gradebook(grader.coursedir.db_url, grader.coursedir.course_id) as gb:
        known = {s.id for s in gb.students}
        for student in students:
            if student not in known:
                gb.update_or_create_student(student)
        names = [a.name for a in gb.assignments if a.name in ASSIGNMENTS]
    return grader, students, names, unknown


def _worker(args):
    course, timeout, build_root, feedback, part = args
    return grade(course, timeout=timeout, build_root=build_root, feedback=feedback,
                 students=part, write=False)


def grade_parallel(course, jobs: int, *, timeout=None, build_root=_nbg.DEFAULT_ROOT,
                   feedback: bool = True) -> list[Outcome]:
    """:func:`grade` with ``jobs`` processes, each grading every jobs-th student (nbgrader grades
    one submission at a time; the processes share the gradebook, whose writes are short)."""
    import multiprocessing

    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    course = pathlib.Path(course).resolve()
    _, students, _, _ = prepare(course, timeout, build_root)
    parts = [students[k::jobs] for k in range(jobs) if students[k::jobs]]
    with multiprocessing.get_context("spawn").Pool(len(parts)) as pool:
        results = pool.map(_worker, [(course, timeout, str(build_root), feedback, p)
                                     for p in parts])
    order = {s: i for i, s in enumerate(students)}
    outcomes = sorted((o for r in results for o in r), key=lambda o: (order[o.student_id],
                                                                      o.assignment))
    export(course)
    write_report(course, outcomes)
    return outcomes


def grade(course, *, timeout: int | None = None, build_root=_nbg.DEFAULT_ROOT,
          feedback: bool = True, students=None, write: bool = True) -> list[Outcome]:
    """Autograde every submission of ``course``; write grades.csv, feedback and the report.

    ``students`` limits the grading to those students (e.g. one worker of several sharing the
    gradebook); ``write=False`` skips grades.csv and the report (run :func:`export` once when
    all workers are done)."""
    with warnings.catch_warnings():
        # SQLAlchemy noise from nbgrader's gradebook; cells nbgrader puts back carry no id
        warnings.filterwarnings("ignore", module="nbgrader")
        warnings.filterwarnings("ignore", message="Cell is missing an id field")
        return _grade(course, timeout=timeout, build_root=build_root, feedback=feedback,
                      students=students, write=write)


def _grade(course, *, timeout, build_root, feedback, students, write):
    from nbgrader.api import Gradebook, MissingEntry

    course = pathlib.Path(course).resolve()
    selected = None if students is None else set(students)
    if students is not None and not isinstance(students, (list, tuple)):
        raise TypeError(f"students must be a list of student ids, got {type(students).__name__}")
    grader, students, names, unknown = prepare(course, timeout, build_root)

    outcomes = []
    for student in (students if selected is None else [s for s in students if s in selected]):
        for name in unknown:
            if (course / "submitted" / student / name).is_dir():
                outcomes.append(Outcome(student, name, problems=[f"unknown assignment {name!r}"]))
        for name in names:
            folder = course / "submitted" / student / name
            outcome = Outcome(student, name)
            outcomes.append(outcome)
            if not folder.is_dir():
                outcome.problems.append("nothing submitted")
                continue
            ok, outcome.problems = preflight(folder, name)
            if not ok:
                continue
            start = time.perf_counter()
            result = grader.autograde(name, student, force=True, create=True)
            outcome.seconds = time.perf_counter() - start
            if not result["success"]:
                last = (result.get("error") or "").strip().splitlines()[-1:] or ["unknown error"]
                outcome.problems.append(f"nbgrader could not grade it: {last[0][:160]}")
                continue
            outcome.graded = True
            for problem in _execution_problems(
                    course / "autograded" / student / name / f"{name}.ipynb"):
                if problem not in outcome.problems:
                    outcome.problems.append(problem)
            if feedback:
                result = grader.generate_feedback(name, student, force=True)
                if not result["success"]:
                    outcome.problems.append("feedback could not be generated")

    with Gradebook(grader.coursedir.db_url, grader.coursedir.course_id) as gb:
        for outcome in outcomes:
            if outcome.assignment not in names:
                continue
            outcome.max_score = gb.find_assignment(outcome.assignment).max_score
            try:
                outcome.score = gb.find_submission(outcome.assignment, outcome.student_id).score
            except MissingEntry:
                outcome.score = 0.0
    if write:
        export(course, grader)
        write_report(course, outcomes)
    return outcomes


def write_report(course, outcomes) -> pathlib.Path:
    """``course/grading_report.csv``: per submission, graded or not, score and problems."""
    dest = pathlib.Path(course) / "grading_report.csv"
    with open(dest, "w", newline="") as fh:
        writer = csv.DictWriter(fh, REPORT_FIELDS)
        writer.writeheader()
        for o in outcomes:
            writer.writerow({"student_id": o.student_id, "assignment": o.assignment,
                             "graded": o.graded, "score": o.score, "max_score": o.max_score,
                             "problems": "; ".join(o.problems)})
    return dest


def export(course, grader=None) -> pathlib.Path:
    """nbgrader's CSV export of the gradebook to ``course/grades.csv``."""
    from nbgrader.api import Gradebook
    from nbgrader.plugins import CsvExportPlugin

    course = pathlib.Path(course).resolve()
    grader = grader or _nbg.api(course)
    dest = course / "grades.csv"
    plugin = CsvExportPlugin(to=str(dest), parent=grader)
    with Gradebook(grader.coursedir.db_url, grader.coursedir.course_id) as gb:
        plugin.export(gb)
    return dest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("course", help="course directory with submitted/<student>/<assignment>/")
    parser.add_argument("--timeout", type=int, default=None,
                        help="seconds one cell may run (default: course/nbgrader_config.py)")
    parser.add_argument("--build-root", default=str(_nbg.DEFAULT_ROOT),
                        help="where `make assignments` wrote source/ (default build/course)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="grade with this many processes (default 1)")
    parser.add_argument("--no-feedback", action="store_true")
    parser.add_argument("--export-only", action="store_true",
                        help="only re-export grades.csv (e.g. after manual grading)")
    args = parser.parse_args(argv)
    if args.export_only:
        print(f"wrote {export(args.course)}")
        return 0
    if args.jobs > 1:
        outcomes = grade_parallel(args.course, args.jobs, timeout=args.timeout,
                                  build_root=args.build_root, feedback=not args.no_feedback)
    else:
        outcomes = grade(args.course, timeout=args.timeout, build_root=args.build_root,
                         feedback=not args.no_feedback)
    course = pathlib.Path(args.course)
    for o in outcomes:
        flag = "graded" if o.graded else "NOT GRADED"
        print(f"{o.student_id:20s} {o.assignment:22s} {o.score:5.1f}/{o.max_score:<5.1f} {flag}"
              + (f"  ({'; '.join(o.problems)})" if o.problems else ""))
    print(f"wrote {course / 'grades.csv'}, {course / 'grading_report.csv'} and "
          f"{course / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
