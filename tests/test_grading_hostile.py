"""The hostile corpus (course/submissions.py: HOSTILE), graded in the sandbox.

A class of one honest student (alice, right answers) and one student per hostile kind, all on
``a03_gda``, graded with two processes and a 10 s per-cell limit. Every hostile submission gets
0 auto-graded points (less what its answers earn by chance on a question with few possible
answers, by the Exercises' own check) and a report row that says why; alice gets full marks;
no process started by a submission survives (checked by PID: no process on the machine carries
the corpus's marker, no process is left in a sandbox's PID namespace); the gradebook, the
source, the releases, alice's submission and the course secret are unchanged after the
sandbox runs (checked by hash), and the gradebook holds only what the grader wrote.
"""

import hashlib
import os
import pathlib
import re
import subprocess
import sys
import time

import pytest
from grading_sandbox import need_sandbox

from course import build as B
from course import grade as G
from course import gradebook as GB
from course import submissions as S
from course.assignments import ASSIGNMENTS, variant
from course.sandbox import Limits, _processes_in
from course.variants import load_secret

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    need_sandbox()

A = "a03_gda"
AUTO = sum(q.points for q in ASSIGNMENTS[A].questions)


def _student(k, hostile) -> str:
    return f"h{k:02d}-{hostile.kind.replace('_', '-')}"[:64]


STUDENTS = {_student(k, h): h for k, h in enumerate(S.HOSTILE)}


def _hashes(course: pathlib.Path, secret_file: pathlib.Path) -> dict:
    """SHA-256 of every file that grading must not change: the gradebook, the course's source
    and releases, alice's submission, the secret."""
    files = [course / "gradebook.db", secret_file,
             course / "submitted" / "alice" / A / f"{A}.ipynb"]
    for top in ("source", "release"):
        files += sorted(p for p in (course / top).rglob("*") if p.is_file())
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _marked_processes() -> list[int]:
    """PIDs of processes on this machine whose command line carries the corpus's marker."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                with open(f"/proc/{entry.name}/cmdline", "rb") as fh:
                    if S.MARKER.encode() in fh.read():
                        found.append(int(entry.name))
            except OSError:
                pass
    return found


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    secret_file = tmp / "course-secret"
    secret_file.write_text("5a" * 32 + "\n")  # a fixed secret: the same variants every run
    secret = load_secret(secret_file)
    course = tmp / "course"
    B.build(course, [A], ["alice", *STUDENTS], secret)
    right = S.right_answers(A, "alice", secret)
    S.write(course, "alice", A, S.fill(S.release(A, "alice", secret), right,
                                       working="My working."))
    ctx = S.Context(course=course.resolve(), assignment=A, classmate="alice",
                    classmate_answers=right, secret_file=secret_file.resolve())
    for student, hostile in STUDENTS.items():
        S.write_hostile(course, student, hostile, ctx, secret)
    before = _hashes(course, secret_file)
    assert _marked_processes() == []
    start = time.monotonic()
    outcomes = G.run_all(course, secret=secret, jobs=2, limits=Limits(cell_seconds=10))
    seconds = time.monotonic() - start
    time.sleep(4)  # a daemon would be writing by now (it waits 3 s)
    after_runs = _hashes(course, secret_file)
    survivors = _marked_processes()
    GB.write_outcomes(course, outcomes)
    GB.export(course)
    G.write_report(course, outcomes)
    return {"course": course, "secret": secret, "secret_file": secret_file, "ctx": ctx,
            "outcomes": {o.student_id: o for o in outcomes}, "before": before,
            "after_runs": after_runs, "survivors": survivors, "seconds": seconds,
            "after_all": _hashes(course, secret_file)}


def _row(outcome) -> str:
    return "; ".join(f"{q} {v}" for q, v in outcome.verdicts.items()) + " | " + "; ".join(
        outcome.problems)


def _by_chance(student, answers: dict, secret) -> set:
    """The questions a classmate's answers get right on ``student``'s variant by chance, by the
    student's own Exercises (the oracle): a question with few possible answers (phi = k/n, a
    label, a letter) can coincide."""
    import numpy as np

    _, exercises = variant(ASSIGNMENTS[A], student, secret)
    right = set()
    for i, ex in enumerate(exercises, 1):
        ns = {"np": np}
        exec(answers[i], ns)  # noqa: S102 (our generated answers)
        value = ns[f"answer_q{i}"]
        if ex.check(value if isinstance(value, str) else np.asarray(value).tolist()).correct:
            right.add(f"q{i}")
    return right


@pytest.mark.parametrize("student", list(STUDENTS))
def test_every_hostile_submission_gets_no_points_and_a_row_that_says_why(hostile_class, student):
    hostile = STUDENTS[student]
    outcome = hostile_class["outcomes"][student]
    row = _row(outcome)
    assert re.search(hostile.expect, row), (hostile.kind, row)
    chance = set()
    if hostile.answers == "classmate":
        chance = _by_chance(student, hostile_class["ctx"].classmate_answers,
                            hostile_class["secret"])
    elif hostile.answers == "self-study":
        chance = _by_chance(student, S.right_answers(A), hostile_class["secret"])
        assert chance <= {"q5"}  # a numeric self-study answer never fits a variant
    right = {q for q, v in outcome.verdicts.items() if v == "right"}
    assert right == chance, row
    points = {f"q{i}": q.points for i, q in enumerate(ASSIGNMENTS[A].questions, 1)}
    assert outcome.score == sum(points[q] for q in chance), row


def test_the_honest_student_gets_full_marks(hostile_class):
    alice = hostile_class["outcomes"]["alice"]
    # (a classmate made a hard link to her notebook: both rows say so, for a person to look)
    assert alice.score == AUTO and alice.problems == [
        f"{A}.ipynb has 2 hard links (another name for the same file elsewhere): graded, check "
        "by hand"]


def test_no_process_survives_grading(hostile_class):
    """No process carrying the marker (the daemons, the double-forked one, the exec'd kernel)
    is left on the machine, and the grader found none left in any sandbox."""
    assert hostile_class["survivors"] == []
    assert _marked_processes() == []
    assert not any("still running" in p for o in hostile_class["outcomes"].values()
                   for p in o.problems)


def test_the_process_checks_can_fail():
    """Planted: a process carrying the marker outside any sandbox is found by the scan, and a
    namespace scan finds the processes of a namespace (ours: this process)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", S.MARKER])
    try:
        time.sleep(0.5)
        assert proc.pid in _marked_processes()
    finally:
        proc.kill()
        proc.wait()
    assert os.getpid() in _processes_in(os.readlink("/proc/self/ns/pid"), wait=0)


def test_nothing_of_the_course_changes_while_student_code_runs(hostile_class):
    """By hash: the gradebook, the source, every release, alice's submission and the secret are
    the same after every hostile notebook ran (and the daemons had time to act)."""
    assert hostile_class["after_runs"] == hostile_class["before"]
    # after the grader wrote the gradebook, only the gradebook changed
    changed = {k for k in hostile_class["before"]
               if hostile_class["after_all"][k] != hostile_class["before"][k]}
    assert changed == {str(hostile_class["course"] / "gradebook.db")}


def test_the_hash_check_can_fail(hostile_class, tmp_path):
    """Planted: a byte appended to a file changes its hash in the check above."""
    copy = tmp_path / "c"
    (copy / "submitted" / "alice" / A).mkdir(parents=True)
    (copy / "source").mkdir()
    (copy / "release").mkdir()
    nb = copy / "submitted" / "alice" / A / f"{A}.ipynb"
    nb.write_text("{}")
    (copy / "gradebook.db").write_text("db")
    before = _hashes(copy, hostile_class["secret_file"])
    with open(nb, "a") as fh:
        fh.write(" ")
    assert _hashes(copy, hostile_class["secret_file"]) != before


def test_the_gradebook_holds_what_the_grader_wrote(hostile_class):
    """Every hostile student's auto-graded cells hold exactly what their run earned, no hand
    score (no daemon wrote 99), and alice's row is hers."""
    course = hostile_class["course"]
    outcomes = hostile_class["outcomes"]
    with GB.open_gradebook(course) as gb:
        for student, outcome in outcomes.items():
            if not outcome.known_student or not outcome.submitted:
                continue
            try:
                sub = gb.find_submission_notebook(A, A, student)
            except Exception:
                assert not outcome.graded
                continue
            for grade in sub.grades:
                assert grade.manual_score is None, (student, grade.name)
                if grade.name.startswith("test_q"):
                    assert grade.auto_score == outcome.earned.get(grade.name, 0.0)
        assert gb.find_submission(A, "alice").score == AUTO


def test_report_and_feedback_neutralise_markup(hostile_class):
    course = hostile_class["course"]
    student = next(s for s, h in STUDENTS.items() if h.kind == "markup_in_report")
    page = (course / "feedback" / student / A / f"{A}.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
    report = (course / "grading_report.csv").read_text()
    assert "<script>" in report  # the report is text, quoted by csv; no cell starts with =
    for line in report.splitlines():
        assert not any(cell.startswith("=") for cell in line.split(","))


def test_without_the_sandbox_the_same_attack_reads_the_secret(hostile_class, tmp_path):
    """Planted: with --unsafe, the environment_secret submission reads the course secret (its
    cell no longer raises): the sandbox is what stops it, and the row says there was none."""
    course = tmp_path / "unsafe"
    secret = hostile_class["secret"]
    hostile = next(h for h in S.HOSTILE if h.kind == "environment_secret")
    ctx = hostile_class["ctx"]
    S.write_hostile(course, "mallory", hostile, ctx, secret)
    (outcome,) = G.run_all(course, secret=secret, unsafe=True, limits=Limits(cell_seconds=4))
    row = _row(outcome)
    assert not re.search(hostile.expect, row) and G.UNSAFE in row
    assert outcome.verdicts["q1"] == "wrong"  # the secret's text, handed in as an answer
