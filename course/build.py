"""Build the graded assignments: ``python -m course.build [--root build/course]
[--roster students.txt] [ASSIGNMENT ...]`` (``make assignments ROSTER=students.txt``).

For every assignment of :mod:`course.assignments` this writes, under ``ROOT``:

- ``source/<assignment>/<assignment>.ipynb``: the instructor's reference, on the notebook's own
  data (the self-study variant), with the answers and the worked solutions;
- ``release/<student>/<assignment>/<assignment>.ipynb`` for every student of the roster: what
  that student gets, on **their own variant** (their data and parameters, their order of the
  options; :mod:`course.variants`), the student id in the notebook's metadata;
- ``gradebook.db``: the assignment's graded cells and points (nbgrader's gradebook, for the
  Formgrader and the CSV export).

``python -m course.build --solution STUDENT ASSIGNMENT`` (``make solution STUDENT=ID
ASSIGNMENT=A``) writes ``solutions/<student>/<assignment>/<assignment>.ipynb``: that student's
variant, solved (for office hours, and for the tests).

A notebook has, per question: the Exercise's prompt (a read-only Markdown cell), an answer
cell ``answer_qN = ...`` and a read-only cell that checks the answer's *form* only (a number,
a vector of the right length, a letter); the value is checked when the notebook is graded,
outside the student's kernel (course/grade.py), by the same Exercise rebuilt there. Derivations
are manually graded Markdown cells. No notebook a student gets holds an answer, a hidden test or
anything of the grader: the release imports only genviz's data and model functions.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import nbformat

from course import _nbg
from course.assignments import ASSIGNMENTS, Assignment, variant
from course.cells import notebook, reference
from course.variants import check_student_id, fingerprint, load_secret, make_secret, secret_path


def source_notebook(assignment: Assignment, exercises=None):
    """The instructor's reference: the notebook's own data, solved."""
    var, built = variant(assignment, None, None)
    return notebook(assignment, var, built if exercises is None else exercises, solved=True)


def student_notebook(assignment: Assignment, student: str, secret: bytes, *,
                     solved: bool = False):
    """(notebook, variant, exercises) of ``student``: the release, or with ``solved`` the
    solved variant."""
    check_student_id(student)
    var, exercises = variant(assignment, student, secret)
    nb = notebook(assignment, var, exercises, solved=solved,
                  tag=fingerprint(secret, assignment.name, student))
    return nb, var, exercises


# -- files ----------------------------------------------------------------------------------------

def _names(names) -> list[str]:
    names = list(names or ASSIGNMENTS)
    unknown = sorted(set(names) - set(ASSIGNMENTS))
    if unknown:
        raise ValueError(f"unknown assignments {unknown}; the assignments are {list(ASSIGNMENTS)}")
    return names


def _write(nb, path: pathlib.Path) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


def write_sources(root, names=None) -> list[pathlib.Path]:
    """Write ``root/source/<name>/<name>.ipynb`` for each assignment; return the paths."""
    root = pathlib.Path(root)
    return [_write(source_notebook(ASSIGNMENTS[n]), root / "source" / n / f"{n}.ipynb")
            for n in _names(names)]


def write_releases(root, students, secret: bytes, names=None) -> list[pathlib.Path]:
    """Each student's release: ``root/release/<student>/<name>/<name>.ipynb``."""
    root = pathlib.Path(root)
    paths = []
    for student in students:
        for n in _names(names):
            nb, _, _ = student_notebook(ASSIGNMENTS[n], student, secret)
            paths.append(_write(nb, root / "release" / student / n / f"{n}.ipynb"))
    return paths


def write_solution(root, student: str, name: str, secret: bytes) -> pathlib.Path:
    """``root/solutions/<student>/<name>/<name>.ipynb``: the student's variant, solved."""
    (name,) = _names([name])
    nb, _, _ = student_notebook(ASSIGNMENTS[name], student, secret, solved=True)
    return _write(nb, pathlib.Path(root) / "solutions" / student / name / f"{name}.ipynb")


def read_roster(path) -> list[str]:
    """Student ids, one a line (blank lines and ``#`` comments ignored); each id checked."""
    ids = []
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            ids.append(check_student_id(line))
    if len(set(ids)) != len(ids):
        raise ValueError(f"the roster {path} names a student twice")
    return ids


def build(root=_nbg.DEFAULT_ROOT, names=None, students=(), secret: bytes | None = None):
    """Sources, gradebook records and (for ``students``) releases of the given assignments."""
    from course.gradebook import record_assignments

    names = _names(names)
    students = [check_student_id(s) for s in students]
    if students and secret is None:
        raise ValueError("releasing to students needs the course secret (secret=...)")
    write_sources(root, names)
    record_assignments(root, names)
    if students:
        write_releases(root, students, secret, names)
    return pathlib.Path(root) / "release"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(_nbg.DEFAULT_ROOT),
                        help="the course directory (default: build/course)")
    parser.add_argument("--roster", help="student ids, one a line: write each one's release")
    parser.add_argument("--secret", help=f"the course secret (default: {secret_path()})")
    parser.add_argument("--solution", nargs=2, metavar=("STUDENT", "ASSIGNMENT"),
                        help="write that student's solved variant to ROOT/solutions/")
    parser.add_argument("assignments", nargs="*", help=f"default: all of {list(ASSIGNMENTS)}")
    args = parser.parse_args(argv)
    if args.solution:
        student, name = args.solution
        path = write_solution(args.root, student, name, load_secret(args.secret))
        print(f"wrote {path}")
        return 0
    students = read_roster(args.roster) if args.roster else []
    secret = None
    if students:
        made = not secret_path(args.secret).exists()
        where = make_secret(args.secret)
        if made:
            print(f"created the course secret {where}: keep it (and back it up) until every "
                  "submission is graded; without it the variants cannot be recomputed")
        secret = load_secret(args.secret)
    root = pathlib.Path(args.root)
    build(root, args.assignments or None, students, secret)
    names = args.assignments or list(ASSIGNMENTS)
    print(f"wrote {root / 'source'}/<assignment>/ and {root / 'gradebook.db'} "
          f"({len(names)} assignments)")
    if students:
        print(f"released {len(names)} assignments to {len(students)} students: "
              f"{root / 'release'}/<student>/<assignment>/")
    else:
        print("no roster: no releases written (make assignments ROSTER=students.txt, one "
              "student id a line)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
