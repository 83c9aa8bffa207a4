"""The hostile corpus (course/submissions.py: HOSTILE), graded in the sandbox.

A class of one honest student (alice, right answers) and one student per hostile kind, all on
``a03_gda``, graded with two processes and a 10 s per-cell limit. Every hostile submission gets
0 auto-graded points (less what its answers earn by chance on a question with few possible
answers, by the Exercises' own check) and a report row that says why; alice gets full marks;
no process started by a submission survives (checked by PID: no process on the machine carries
the corpus's marker, no process is left in a sandbox's PID namespace); the gradebook, the
source, the releases, every submission (each student's own included) and the course secret
are unchanged after the sandbox runs (checked by hash), and the gradebook holds only what the
grader wrote.
"""

import csv
import hashlib
import json
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
RIGHT = ["r1-right", "r2-right"]        # honest classmates beside alice: full marks
BLANK = ["b1-blank", "b2-blank"]        # handed in the release untouched: 0, graded
ODD = os.fsdecode(S.ODD_FOLDER)         # a folder name that is not UTF-8 (a row of its own)


def _key_users() -> dict:
    """uid -> number of kernel keys, from /proc/key-users."""
    out = {}
    for line in pathlib.Path("/proc/key-users").read_text().splitlines():
        uid, rest = line.split(":", 1)
        out[int(uid)] = int(rest.split()[0])
    return out


def _hashes(course: pathlib.Path, secret_file: pathlib.Path) -> dict:
    """SHA-256 of every file that grading must not change: the gradebook, the course's source
    and releases, every file of every submission (each student's own included: a submission
    is graded as it was handed in), the secret. Links are not followed (a submission's link
    to a course file is the course file's, hashed as such)."""
    files = [course / "gradebook.db", secret_file]
    for top in ("source", "release", "submitted"):
        files += sorted(p for p in (course / top).rglob("*") if p.is_file() and not p.is_symlink())
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
    B.build(course, [A], ["alice", *STUDENTS, *RIGHT, *BLANK], secret)
    right = S.right_answers(A, "alice", secret)
    S.write(course, "alice", A, S.fill(S.release(A, "alice", secret), right,
                                       working="My working."))
    for student in RIGHT:
        S.write(course, student, A, S.fill(S.release(A, student, secret),
                                           S.right_answers(A, student, secret)))
    for student in BLANK:
        S.write(course, student, A, S.release(A, student, secret))
    odd = os.fsencode(course / "submitted") + b"/" + S.ODD_FOLDER + b"/" + A.encode()
    os.makedirs(odd)
    with open(odd + b"/" + A.encode() + b".ipynb", "w") as fh:
        fh.write("{}")
    ctx = S.Context(course=course.resolve(), assignment=A, classmate="alice",
                    classmate_answers=right, secret_file=secret_file.resolve())
    for student, hostile in STUDENTS.items():
        S.write_hostile(course, student, hostile, ctx, secret)
    before = _hashes(course, secret_file)
    assert _marked_processes() == []
    keys_before = _key_users()
    start = time.monotonic()
    outcomes = G.run_all(course, secret=secret, jobs=2, limits=Limits(cell_seconds=10))
    seconds = time.monotonic() - start
    time.sleep(4)  # a daemon would be writing by now (it waits 3 s)
    after_runs = _hashes(course, secret_file)
    survivors = _marked_processes()
    GB.write_outcomes(course, outcomes)
    GB.export(course)
    G.write_report(course, outcomes)
    return {"keys_before": keys_before, "keys_after": _key_users(),
            "terminal": G.terminal_lines(outcomes), "course": course, "secret": secret, "secret_file": secret_file, "ctx": ctx,
            # a student's row for a03 (last: the row of another assignment they handed in)
            "outcomes": {o.student_id: o for o in outcomes}, "rows": len(outcomes),
            "before": before,
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
        assert chance <= {"q3"}  # a numeric self-study answer never fits a variant
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
    """By hash: the gradebook, the source, every release, every submission and the secret are
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


def test_every_student_has_a_row_and_honest_ones_full_marks(hostile_class):
    """The class graded to the end: a row for every folder (the hostile ones, the honest and
    blank ones, the folder whose name is not UTF-8); right answers full marks, blank 0."""
    outcomes = hostile_class["outcomes"]
    assert set(outcomes) == {"alice", *STUDENTS, *RIGHT, *BLANK, ODD}
    for student in RIGHT:
        assert outcomes[student].graded and outcomes[student].score == AUTO, _row(
            outcomes[student])
    for student in BLANK:
        o = outcomes[student]
        assert o.graded and o.score == 0 and set(o.verdicts.values()) == {"not answered"}, _row(o)
    assert "is not valid" in _row(outcomes[ODD]) and not outcomes[ODD].graded
    assert not any("could not be graded" in p for o in outcomes.values() for p in o.problems)
    rows = (hostile_class["course"] / "grading_report.csv").read_text(encoding="utf-8")
    assert rows.count("\n") == hostile_class["rows"] + 1


def _of_the_kind(text: str, keep: str = "") -> set:
    """Controls, format (bidi, zero-width) characters, surrogates, line and paragraph
    separators: shown escaped wherever a submission's text is written."""
    import unicodedata

    return {c for c in text if unicodedata.category(c) in {"Cc", "Cf", "Cs", "Zl", "Zp"}
            and c not in keep}


def test_nothing_a_student_wrote_reaches_the_terminal_or_the_report_as_control(hostile_class):
    text = "\n".join(hostile_class["terminal"])
    text.encode("utf-8")
    assert _of_the_kind(text, keep="\n") == set()
    assert "\\x1b]52" in text and "\\u061c\\u200b" in text  # shown, escaped
    with open(hostile_class["course"] / "grading_report.csv", newline="",
              encoding="utf-8") as fh:
        assert all(_of_the_kind(v) == set() for row in csv.reader(fh) for v in row)
    for page in (hostile_class["course"] / "feedback").rglob("*.html"):
        body = page.read_text(encoding="utf-8")
        assert _of_the_kind(body, keep="\n") == set(), page
    for nb in (hostile_class["course"] / "autograded").rglob("*.ipynb"):
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            assert _of_the_kind("".join(cell["source"]), keep="\n\t") == set(), nb


def test_no_kernel_key_is_left_and_none_was_made(hostile_class):
    """/proc/key-users before and after the class: no new user holds a key, no user holds more
    keys (the sandbox refuses add_key, request_key and keyctl: the keyring kind's row says so)."""
    before, after = hostile_class["keys_before"], hostile_class["keys_after"]
    new = {uid: n for uid, n in after.items() if uid >= 1_500_000_000 and uid not in before}
    assert new == {}


def test_the_key_check_can_fail(tmp_path):
    """Planted: a throw-away user that stores a key shows up in /proc/key-users; clear_keys
    (what the sandbox does after each run) then leaves no entry for it, not even its empty
    keyrings."""
    if os.geteuid() != 0 or not os.path.exists("/usr/bin/setpriv"):
        pytest.skip("needs root (setpriv to a throw-away uid)")
    if os.uname().machine != "x86_64":
        pytest.skip("the planted key uses x86-64's system call numbers")
    from course.sandbox import _uid_in_use, clear_keys

    uid = next(u for u in range(1_499_000_000, 1_499_001_000) if not _uid_in_use(u))
    code = ("import ctypes; ctypes.CDLL(None).syscall(248, b'user', b'planted', b'1', 1, "
            "ctypes.c_int(-4))")
    as_uid = ["/usr/bin/setpriv", "--reuid", str(uid), "--regid", str(uid), "--clear-groups",
              "/usr/bin/python3", "-c"]
    subprocess.run(as_uid + [code], check=True)
    try:
        assert _key_users().get(uid, 0) >= 1
    finally:
        assert clear_keys(uid) == 0
    assert uid not in _key_users()


def test_the_hand_in_time_is_the_courses(hostile_class):
    """The forged timestamp.txt (2020-01-01) sets neither the gradebook's time nor the report's."""
    course = hostile_class["course"]
    student = next(s for s, h in STUDENTS.items() if h.kind == "forged_timestamp")
    with GB.open_gradebook(course) as gb:
        when = gb.find_submission(A, student).timestamp
    assert when is not None and when.year != 2020
    assert "collection time" in hostile_class["outcomes"][student].handed_in


def test_the_hostile_working_is_one_fenced_block_in_the_autograded_notebook(hostile_class):
    import nbformat

    course = hostile_class["course"]
    student = next(s for s, h in STUDENTS.items() if h.kind == "hostile_markdown")
    nb = nbformat.read(course / "autograded" / student / A / f"{A}.ipynb", as_version=4)
    working = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get(
        "grade_id", "").startswith("working_q")]
    assert working and all(c.source.startswith("```") and "beacon.invalid" in c.source
                           for c in working[:1])


def test_a_classmates_answer_is_named_in_the_report_and_not_in_the_feedback(hostile_class):
    """The classmate_answers row names alice (whose variant's right answers they are) in the
    instructor's report; the student's own feedback says the same without her name."""
    course = hostile_class["course"]
    student = next(s for s, h in STUDENTS.items() if h.kind == "classmate_answers")
    report = (course / "grading_report.csv").read_text(encoding="utf-8")
    row = next(line for line in report.splitlines() if line.startswith(student))
    assert "q2: the right answer of another student's variant (alice)" in row, row
    page = (course / "feedback" / student / A / f"{A}.html").read_text(encoding="utf-8")
    assert "q2: the right answer of another student&#x27;s variant</li>" in page
    assert "alice" not in page
