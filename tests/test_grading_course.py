"""course/ end to end: releases per student hold no answer, and a class is graded in the sandbox.

One module fixture builds every assignment (sources, gradebook records, the releases of a
two-student roster: ~20 s); the class test grades ``a03_gda`` for a class whose students hand
in every honest kind of submission (right, wrong, misspelt, raising, looping, edited, deleted,
widget-using, the unanswered release, the solved variant of ``make solution``, a classmate's
answers, the self-study answers, no student id, not JSON, empty, not on the roster) with two
grading processes and a 5 s per-cell limit. tests/test_grading_hostile.py grades the hostile
corpus.
"""

import csv
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import nbformat
import numpy as np
import pytest
from grading_sandbox import need_sandbox

from course import build as B
from course import cells as C
from course import grade as G
from course import gradebook as GB
from course import submissions as S
from course.assignments import ASSIGNMENTS, variant
from course.sandbox import Limits, Sandbox, SandboxUnavailable
from course.variants import load_secret

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    need_sandbox()

ROOT = pathlib.Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")
ROSTER = ["alice", "bob"]
A = "a03_gda"


@pytest.fixture(scope="module")
def secret_file(tmp_path_factory):
    # A fixed secret: the class's variants (and so every chance coincidence a check could
    # trip on) are the same on every run. tests/test_grading.py covers make_secret itself.
    path = tmp_path_factory.mktemp("secret") / "course-secret"
    path.write_text(bytes(range(100, 132)).hex() + "\n")
    path.chmod(0o600)
    return path


@pytest.fixture(scope="module")
def secret(secret_file):
    return load_secret(secret_file)


@pytest.fixture(scope="module")
def course_root(tmp_path_factory, secret):
    root = tmp_path_factory.mktemp("course")
    B.build(root, None, ROSTER, secret)
    return root


def references(name, student, secret):
    """[(reference, rtol, atol)] of every question of ``student``'s variant."""
    return [(C.reference(ex), ex.rtol, ex.atol) for ex in variant(ASSIGNMENTS[name], student,
                                                                  secret)[1]]


def _distinctive(value) -> bool:
    """A number a leak check can recognise: 3 or more significant digits, not an integer
    (0.5, 4, 71 or 1663 appear in prompts and data by themselves; their presence proves
    nothing, and they are the kind of answer a learner can guess anyway)."""
    value = float(value)
    if not np.isfinite(value) or value == round(value):
        return False
    digits = f"{abs(value):.10g}".split("e")[0].replace(".", "").strip("0")
    return len(digits) >= 3


def _scalars(ref):
    kind, _ = C.answer_kind(ref)
    if kind in ("number", "array"):
        return [float(v) for v in np.ravel(np.asarray(ref, dtype=float))]
    return []


def leaks(text: str, refs) -> list:
    """Reference values found in ``text`` at the precision the checker accepts."""
    numbers = np.array([float(t) for t in NUMBER.findall(text)] or [np.nan])
    found = []
    for ref, rtol, atol in refs:
        for r in filter(_distinctive, _scalars(ref)):
            hit = np.abs(numbers - r) <= atol + rtol * abs(r)
            if hit.any():
                found.append((r, numbers[hit][:3].tolist()))
    return found


def notebook_text(path) -> str:
    """The notebook file's text without nbformat's random cell ids (a cell id such as
    ``"33b19f9d"`` holds no content, and its digits made the leak check fail at random)."""
    nb = json.loads(pathlib.Path(path).read_text())
    for cell in nb["cells"]:
        cell.pop("id", None)
    return json.dumps(nb, indent=1, ensure_ascii=False)


def test_releases_hold_no_reference_value(course_root, secret):
    checked = dict.fromkeys(ASSIGNMENTS, 0)
    for student in ROSTER:
        for name in ASSIGNMENTS:
            refs = references(name, student, secret)
            release = course_root / "release" / student / name / f"{name}.ipynb"
            text = notebook_text(release)
            assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
            assert "_Exercise" not in text and "genviz.exercises" not in text
            assert leaks(text, refs) == [], (student, name, leaks(text, refs))
            checked[name] += sum(len(list(filter(_distinctive, _scalars(r)))) for r, _, _ in refs)
            nb = nbformat.read(release, as_version=4)
            assert nb.metadata["genviz"]["student"] == student
            for cell in nb.cells:
                meta = cell.metadata["nbgrader"]
                if meta["solution"] and cell.cell_type == "code":
                    assert cell.source == f"{meta['grade_id']} = ..."
                elif meta["solution"]:
                    assert cell.source == C.STUB
    # the check is not vacuous: every assignment's releases are searched for a distinctive
    # reference value, 38 over the class (a05 after issue #40 dropped Silverman's h: alice's
    # two numbers have fewer than three significant digits, too plain to search for; bob's not)
    assert min(checked.values()) >= 1 and sum(checked.values()) >= 30, checked


def test_the_leak_check_finds_the_answers_where_they_are(course_root, secret, tmp_path):
    """The same search finds the default answers in the instructor's source and a student's
    answers in their solved variant: the check above can fail."""
    for name in ASSIGNMENTS:
        refs = references(name, None, None)
        n = sum(len(list(filter(_distinctive, _scalars(r)))) for r, _, _ in refs)
        text = notebook_text(course_root / "source" / name / f"{name}.ipynb")
        assert len(leaks(text, refs)) == n, name
    path = B.write_solution(tmp_path, "alice", A, secret)
    refs = references(A, "alice", secret)
    assert len(leaks(notebook_text(path), refs)) == sum(
        len(list(filter(_distinctive, _scalars(r)))) for r, _, _ in refs)


def test_cell_ids_are_not_content_but_sources_are(tmp_path):
    refs = [(19.329904127045047, 5e-3, 0.5)]
    cell = {"cell_type": "markdown", "id": "33b19f9d", "metadata": {}, "source": "Angle?"}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "probe.ipynb"
    path.write_text(json.dumps(nb))
    assert leaks(path.read_text(), refs) != []           # the raw file matched at random
    assert leaks(notebook_text(path), refs) == []
    cell["source"] = "Angle, about 19 degrees?"
    path.write_text(json.dumps(nb))
    assert leaks(notebook_text(path), refs) != []


KERNEL_PROBE = r"""
import gc, json, sys
import nbformat
import numpy as np

namespaces = []
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    ns = {"__name__": "__main__"}
    for cell in nb.cells:  # the setup and the unanswered answer cells, as a student runs them
        meta = cell.metadata["nbgrader"]
        if cell.cell_type == "code" and not meta["grade"]:
            exec(cell.source, ns)
    namespaces.append(ns)
loaded = sorted(m for m in sys.modules if m.startswith("genviz"))
exercise_objects = [type(o).__name__ for o in gc.get_objects()
                    if str(getattr(type(o), "__module__", "")).startswith("genviz.exercises")]
constants = []
for name in loaded:
    for key, value in vars(sys.modules[name]).items():
        if isinstance(value, (float, np.floating)) or (
                isinstance(value, np.ndarray) and value.size < 100 and value.dtype.kind == "f"):
            constants.append([name + "." + key, np.ravel(value).tolist()])
for ns in namespaces:
    for key, value in ns.items():
        if isinstance(value, (float, np.floating)):
            constants.append(["<notebook>." + key, [float(value)]])
print(json.dumps({"loaded": loaded, "exercise_objects": exercise_objects,
                  "constants": constants}))
"""


def test_student_kernel_holds_no_exercise_and_no_answer(course_root, secret):
    """After running what a student runs (setup and answer stubs of every one of alice's
    releases, in one fresh interpreter): no genviz.exercises module is loaded, no Exercise
    exists, and no float constant of genviz or of the notebook's namespace is one of alice's
    answers. (All of genviz is reachable: a student computes every answer with it.)"""
    releases = [str(course_root / "release" / "alice" / n / f"{n}.ipynb") for n in ASSIGNMENTS]
    out = subprocess.run([sys.executable, "-c", KERNEL_PROBE, *releases],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "MPLBACKEND": "Agg"})
    assert out.returncode == 0, out.stderr[-3000:]
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert "genviz.datasets" in probe["loaded"]  # the probe ran the setups
    assert not [m for m in probe["loaded"] if m.startswith(("genviz.exercises", "genviz.widgets"))]
    assert probe["exercise_objects"] == []
    flat = [r for name in ASSIGNMENTS for r in references(name, "alice", secret)]
    for where, values in probe["constants"]:
        assert leaks(" ".join(repr(v) for v in values), flat) == [], where


# -- a graded class -----------------------------------------------------------------------------

def _coinciding(name, student, answers: dict, secret) -> float:
    """Points a submission of ``answers`` (question -> cell source ``answer_qN = literal``)
    earns on ``student``'s variant by chance, by the Exercises' own check (the oracle for
    questions with few possible answers: a label, a letter)."""
    a = ASSIGNMENTS[name]
    _, exercises = variant(a, student, secret)
    points = 0.0
    for i, (q, ex) in enumerate(zip(a.questions, exercises), 1):
        ns = {"np": np}
        exec(answers[i], ns)  # noqa: S102 (our generated answers)
        value = ns[f"answer_q{i}"]
        value = np.asarray(value).tolist() if not isinstance(value, str) else value
        points += q.points * bool(ex.check(value).correct)
    return points


CLASS = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "ivan", "kim", "lee",
         "mia", "nora", "oscar"]


@pytest.fixture(scope="module")
def graded_class(course_root, secret, tmp_path_factory):
    course = tmp_path_factory.mktemp("class")
    shutil.copytree(course_root / "source", course / "source")
    rel = {s: S.release(A, s, secret) for s in CLASS}
    right = {s: S.right_answers(A, s, secret) for s in CLASS}
    S.write(course, "alice", A, S.fill(rel["alice"], right["alice"],
                                       working="Solve theta^T x + theta0 = 0."))
    S.write(course, "bob", A, S.fill(rel["bob"], S.wrong_answers(A, "bob", secret)))
    S.write(course, "carol", A, S.fill(rel["carol"], right["carol"] | {
        # never ends (it waits: the cell limit interrupts it all the same, where a spinning
        # loop burned the 5 s in CPU; the hostile corpus's infinite_loop is the spinning one)
        1: "import time\nwhile True:\n    time.sleep(0.05)",
        2: "answer_q2 = [1.0, 2.0]\nraise RuntimeError('oops')"}))    # raises
    nb = S.fill(rel["dave"], S.wrong_answers(A, "dave", secret) | {
        1: right["dave"][1],
        3: right["dave"][3].replace("answer_q3", "answer_ql")})       # misspelt
    nb.cells = [c for c in nb.cells if c.metadata["nbgrader"]["grade_id"] != "test_q1"]
    S.cell_of(nb, "test_q2").source = "print('all good')"           # edited test, wrong answer
    S.write(course, "dave", A, nb)
    (course / "submitted" / "erin" / A).mkdir(parents=True)           # empty folder
    broken = course / "submitted" / "frank" / A
    broken.mkdir(parents=True)
    (broken / f"{A}.ipynb").write_text('{"cells": [{"cell_type": "code", "source": "answer_q1 = ')
    nb = S.fill(rel["gina"], right["gina"])
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        "%matplotlib widget\nimport ipywidgets, matplotlib.pyplot as plt\n"
        "fig, ax = plt.subplots(); ax.plot([0, 1]); plt.show()\n"
        "slider = ipywidgets.FloatSlider(); slider.observe(print, 'value'); slider"))
    S.write(course, "gina", A, nb)
    (course / "submitted" / "hank").mkdir()                           # no assignment folder
    S.write(course, "ivan", A, S.fill(rel["ivan"], S.wrong_answers(A, "ivan", secret) | {1: (
        "import genviz.exercises as g\n"
        "g.Exercise.check = lambda self, value: g.Feedback(True, 'Correct!')\n"
        "answer_q1 = 0.0")}))                                          # patches the checker
    S.write(course, "kim", A, rel["kim"])                             # the release, unanswered
    solved = B.write_solution(course / "office-hours", "lee", A, secret)
    S.write(course, "lee", A, nbformat.read(solved, as_version=4))    # `make solution`'s file
    # a classmate's right answers: one whose answers coincide with none of mia's by chance (a
    # question with few possible answers, such as phi = k/n or a letter, can coincide)
    classmate = next(c for c in CLASS if c != "mia" and _coinciding(A, "mia", right[c], secret) == 0)
    S.write(course, "mia", A, S.fill(rel["mia"], right[classmate]))
    S.write(course, "nora", A, S.fill(rel["nora"], S.right_answers(A)))  # the self-study's
    nb = S.fill(rel["oscar"], right["oscar"])
    del nb.metadata["genviz"]                                          # no student id
    S.write(course, "oscar", A, nb)
    S.write(course, "zed", A, S.fill(S.release(A, "zed", secret), S.right_answers(A, "zed",
                                                                                   secret)))
    outcomes = {o.student_id: o for o in G.grade(course, secret=secret, jobs=2,
                                                 limits=Limits(cell_seconds=5),
                                                 roster=CLASS)}
    return course, outcomes, right, classmate


def _report(course):
    with open(course / "grading_report.csv") as fh:
        return {r["student_id"]: r for r in csv.DictReader(fh)}


def _points():
    return {f"test_q{i}": float(q.points) for i, q in enumerate(ASSIGNMENTS[A].questions, 1)}


AUTO = sum(q.points for q in ASSIGNMENTS[A].questions)


def test_every_student_gets_one_row_with_nbgraders_columns(graded_class, secret):
    course, outcomes, right, classmate = graded_class
    with open(course / "grades.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["assignment", "duedate", "timestamp", "student_id", "last_name",
                             "first_name", "email", "raw_score", "late_submission_penalty",
                             "score", "max_score"]
    assert sorted(r["student_id"] for r in rows) == sorted(s for s in CLASS)
    assert sorted(outcomes) == sorted(CLASS + ["zed"])
    assert {r["assignment"] for r in rows} == {A}
    score = {r["student_id"]: float(r["score"]) for r in rows}
    assert float(rows[0]["max_score"]) == AUTO + 2 * len(ASSIGNMENTS[A].working)
    chance = _coinciding(A, "nora", S.right_answers(A), secret)
    assert score == {"alice": AUTO, "bob": 0, "carol": 1, "dave": 2, "erin": 0, "frank": 0,
                     "gina": AUTO, "hank": 0, "ivan": 0, "kim": 0, "lee": AUTO, "mia": 0,
                     "nora": chance, "oscar": AUTO}
    assert chance <= 1  # of the self-study answers only the choice's letter can coincide
    assert set(_report(course)) == set(CLASS) | {"zed"}
    # the new gradebook's schema version (course.gradebook reads the head of nbgrader's
    # migrations in-process) is the one nbgrader itself asks the `alembic heads` program for
    from nbgrader.api import get_alembic_version
    from sqlalchemy import text

    with GB.open_gradebook(course) as gb:
        (version,) = gb.db.execute(text("SELECT version_num FROM alembic_version")).one()
    assert version == get_alembic_version()


def test_right_answers_get_full_marks_and_wrong_ones_the_hint(graded_class, secret):
    """Numbers, vectors, matrices and the multiple-choice item: full marks when right; when
    wrong, 0 and the exercise's own feedback (its hint; the Choice's reason for the option)."""
    course, outcomes, _, _ = graded_class
    assert outcomes["alice"].earned == _points() and outcomes["alice"].problems == []
    assert set(outcomes["bob"].verdicts.values()) == {"wrong"}
    page = (course / "feedback" / "bob" / A / f"{A}.html").read_text()
    _, exercises = variant(ASSIGNMENTS[A], "bob", secret)
    wrong = S.wrong_answers(A, "bob", secret)
    for i, ex in enumerate(exercises, 1):
        if C.is_choice(ex):
            message = str(ex.check(eval(wrong[i].rsplit(" = ", 1)[1])))  # noqa: S307
        else:
            message = ex.hint
        import html
        assert html.escape(message) in page, (i, message)
    assert (course / "feedback" / "alice" / A / f"{A}.html").exists()


def test_misspelt_raising_and_looping_answers_fail_alone(graded_class):
    course, outcomes, _, _ = graded_class
    """carol's first answer never ends and her second raises: her third still earns its point;
    dave's misspelt third answer is "not defined" (his first, right, still earns)."""
    assert outcomes["carol"].earned == {"test_q1": 0, "test_q2": 0, "test_q3": 1}
    problems = " ".join(outcomes["carol"].problems)
    assert re.search(r"cell \d+ \(answer_q1\) exceeded the time limit \(5 s\)", problems)
    assert re.search(r"cell \d+ \(answer_q2\) raised RuntimeError: oops", problems)
    assert outcomes["dave"].verdicts["q3"] == "not defined"


def test_edited_and_deleted_test_cells_are_restored_and_reported(graded_class):
    course, outcomes, _, _ = graded_class
    assert outcomes["dave"].earned == {"test_q1": 2, "test_q2": 0, "test_q3": 0}
    problems = " ".join(outcomes["dave"].problems)
    assert "read-only cell test_q2 was edited" in problems
    assert "cell test_q1 was deleted" in problems
    assert _report(course)["dave"]["graded"] == "True"


def test_broken_and_missing_submissions_get_a_zero_row_and_a_reason(graded_class):
    _, outcomes, _, _ = graded_class
    assert outcomes["erin"].problems == ["empty submission folder"]
    assert "not a valid notebook" in outcomes["frank"].problems[0]
    assert outcomes["hank"].problems == ["nothing submitted"]
    assert not any(outcomes[s].graded for s in ("erin", "frank", "hank"))
    assert outcomes["zed"].problems == ["student id 'zed' is not on the roster: not graded"]


def test_widgets_do_not_hang_grading(graded_class):
    _, outcomes, _, _ = graded_class
    assert outcomes["gina"].graded and outcomes["gina"].problems == []
    assert outcomes["gina"].earned == _points()


def test_patching_the_checker_in_the_kernel_changes_nothing(graded_class):
    """The checker is not in the student's kernel: patching genviz's Exercise.check there
    changes no verdict (before, it gave full marks)."""
    _, outcomes, _, _ = graded_class
    assert outcomes["ivan"].score == 0 and outcomes["ivan"].verdicts["q1"] == "wrong"


def test_the_release_gets_0_and_the_solved_variant_full_marks(graded_class):
    _, outcomes, _, _ = graded_class
    assert set(outcomes["kim"].verdicts.values()) == {"not answered"}
    assert outcomes["kim"].score == 0 and outcomes["kim"].graded
    assert outcomes["lee"].earned == _points() and outcomes["lee"].problems == []


def test_a_classmates_answers_and_the_self_study_answers_get_nothing(graded_class, secret):
    """A classmate's right answers are wrong on mia's variant (all of them: that classmate was
    chosen so that none coincides by chance); the self-study answers are wrong on every
    numeric question (a variant is redrawn until they are)."""
    _, outcomes, right, classmate = graded_class
    assert set(outcomes["mia"].verdicts.values()) == {"wrong"}
    assert _coinciding(A, classmate, right[classmate], secret) == AUTO  # right for the classmate
    verdicts = outcomes["nora"].verdicts
    numeric = range(1, len(ASSIGNMENTS[A].questions))  # all but the last, the concept choice
    assert all(verdicts[f"q{i}"] == "wrong" for i in numeric), verdicts
    # and their rows say where each wrong numeric answer came from (course/reasons.py)
    for i in numeric:
        q = f"q{i}"
        assert f"{q}: the self-study notebook's answer, not your variant's" in \
            outcomes["nora"].problems, outcomes["nora"].problems
        named = [p for p in outcomes["mia"].problems
                 if p.startswith(f"{q}: the right answer of another student's variant (")]
        assert len(named) == 1 and (classmate in named[0] or " more)" in named[0]), \
            outcomes["mia"].problems
    assert not any("another student's variant" in p or "self-study" in p
                   for p in outcomes["alice"].problems)  # a right answer has no provenance line


def test_a_notebook_without_a_student_id_is_graded_on_the_folders_variant(graded_class):
    _, outcomes, _, _ = graded_class
    assert outcomes["oscar"].earned == _points()
    assert outcomes["oscar"].problems == [
        "the notebook carries no student id (not a release made for oscar?): graded on "
        "oscar's variant"]


def test_the_autograded_notebook_holds_sources_and_the_graders_verdicts(graded_class):
    """What the Formgrader shows: the student's sources, and under each form check the
    grader's verdict (nothing the sandbox printed)."""
    course, _, _, _ = graded_class
    nb = nbformat.read(course / "autograded" / "bob" / A / f"{A}.ipynb", as_version=4)
    outputs = {c.metadata.get("nbgrader", {}).get("grade_id"): c.get("outputs", [])
               for c in nb.cells if c.cell_type == "code"}
    assert all(not out for gid, out in outputs.items() if not (gid or "").startswith("test_q"))
    text = outputs["test_q1"][0]["text"]
    assert text.startswith("Graded outside the notebook: wrong (0 points). Not quite. Hint:")
    assert nb.metadata["genviz"]["student"] == "bob"


def test_regrades_keep_only_what_the_run_earned_and_what_a_person_graded(graded_class, secret,
                                                                         tmp_path):
    """A person's score on a hand-graded cell stays while its text is the one graded; a score
    set on an auto-graded cell is cleared; a submission that earns nothing scores 0."""
    source, _, _, _ = graded_class
    course = tmp_path / "regrade"
    shutil.copytree(source, course, ignore=shutil.ignore_patterns("feedback"))
    with GB.open_gradebook(course) as gb:
        gb.find_grade("working_q4", A, A, "alice").manual_score = 2.0
        gb.find_grade("test_q1", A, A, "bob").manual_score = 2.0
        gb.db.commit()
        assert gb.find_submission(A, "alice").score == AUTO + 2
        assert gb.find_submission(A, "bob").score == 2
    out = {o.student_id: o for o in G.grade(course, secret=secret, students=["alice", "bob"],
                                            limits=Limits(cell_seconds=5))}
    assert out["alice"].score == AUTO + 2          # the person's 2 points stay
    assert out["bob"].score == 0
    assert any("a score set by hand on test_q1 (2.0) was cleared" in p
               for p in out["bob"].problems)
    # alice changes her working: the person's score no longer applies
    nb = nbformat.read(course / "submitted" / "alice" / A / f"{A}.ipynb", as_version=4)
    S.cell_of(nb, "working_q4").source = "Another text."
    S.write(course, "alice", A, nb)
    out = {o.student_id: o for o in G.grade(course, secret=secret, students=["alice"],
                                            limits=Limits(cell_seconds=5))}
    assert out["alice"].score == AUTO
    assert any("hand-graded score of working_q4 was cleared" in p for p in out["alice"].problems)
    # ... and hands in the empty release: nothing is kept
    S.write(course, "alice", A, S.release(A, "alice", secret))
    out = {o.student_id: o for o in G.grade(course, secret=secret, students=["alice"],
                                            limits=Limits(cell_seconds=5))}
    assert out["alice"].score == 0
    with GB.open_gradebook(course) as gb:
        grades = {g.name: (g.auto_score, g.manual_score)
                  for g in gb.find_submission_notebook(A, A, "alice").grades}
    assert grades["working_q4"] == (None, None) and grades["test_q1"] == (0.0, None)


def test_unsafe_grading_says_so_on_every_row(course_root, secret, tmp_path):
    course = tmp_path / "unsafe"
    S.write(course, "alice", A, S.fill(S.release(A, "alice", secret),
                                       S.right_answers(A, "alice", secret)))
    (course / "submitted" / "erin" / A).mkdir(parents=True)
    out = G.grade(course, secret=secret, unsafe=True, limits=Limits(cell_seconds=5))
    assert [o.problems[0] for o in out] == [G.UNSAFE, G.UNSAFE]
    assert out[0].earned == _points()
    assert G.UNSAFE in (course / "grading_report.csv").read_text()


def test_grading_refuses_to_start_without_a_sandbox(tmp_path, secret_file, monkeypatch, capsys):
    with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap"):
        Sandbox(bwrap=str(tmp_path / "no-bwrap")).probe()
    course = tmp_path / "class"
    (course / "submitted" / "alice" / A).mkdir(parents=True)
    monkeypatch.setenv("GENVIZ_BWRAP", str(tmp_path / "no-bwrap"))
    assert G.main([str(course), "--secret", str(secret_file)]) == 2
    err = capsys.readouterr().err
    assert "grading did not start" in err and "--unsafe" in err and "bubblewrap" in err
    assert not (course / "grades.csv").exists() and not (course / "gradebook.db").exists()
    # a broken bwrap (it cannot start Python) is refused too
    fake = tmp_path / "fake-bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(SandboxUnavailable, match="uid map"):
        Sandbox(bwrap=str(fake)).probe()


def test_make_solution_writes_the_students_solved_variant(course_root, secret_file, tmp_path):
    env = {**os.environ, "GENVIZ_COURSE_SECRET_FILE": str(secret_file)}
    out = subprocess.run(["make", "-s", "solution", "STUDENT=alice", f"ASSIGNMENT={A}",
                          f"COURSE_ROOT={tmp_path}"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    path = tmp_path / "solutions" / "alice" / A / f"{A}.ipynb"
    nb = nbformat.read(path, as_version=4)
    assert nb.metadata["genviz"]["student"] == "alice"
    assert S.cell_of(nb, "answer_q1").source != "answer_q1 = ..."
    out = subprocess.run(["make", "-s", "solution", "STUDENT=alice"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "usage: make solution" in out.stdout


def test_every_assignment_gives_its_solved_variant_full_marks(course_root, secret, tmp_path):
    """For each of the nine assignments, bob's solved variant (`make solution`) run in the
    sandbox gets every auto-graded point: the limits suit every assignment (the spam corpus,
    the learning curves), and every kind of answer leaves the sandbox as plain data."""
    course = tmp_path / "all"
    for name in ASSIGNMENTS:
        path = B.write_solution(course / "office-hours", "bob", name, secret)
        S.write(course, "bob", name, nbformat.read(path, as_version=4))
    # one grading process, this one: it has every setup of bob's variants already (the
    # course_root fixture built them; a10's sweep is ~10 CPU-s), where a worker would compute
    # them again. Grading with two processes is checked by graded_class and the hostile class.
    outcomes = G.grade(course, secret=secret, jobs=1, limits=Limits(cell_seconds=60))
    for o in outcomes:
        a = ASSIGNMENTS[o.assignment]
        assert set(o.verdicts.values()) == {"right"}, (o.assignment, o.verdicts, o.problems)
        assert o.score == sum(q.points for q in a.questions) and o.problems == []


def test_nbgraders_own_autograde_is_refused(course_root, secret, tmp_path):
    """The Formgrader's Autograde button (nbgrader autograde with the course's configuration)
    runs no student code and writes no score: course/nbgrader_config.py refuses it."""
    from course import _nbg

    course = tmp_path / "fg"
    marker = tmp_path / "student-code-ran"
    S.write(course, "alice", A, S.fill(S.release(A, "alice", secret), {
        1: f"open({str(marker)!r}, 'w').write('x')\nanswer_q1 = 0.5"}))
    G.grade(course, secret=secret, limits=Limits(cell_seconds=5))
    with GB.open_gradebook(course) as gb:
        before = [(g.name, g.auto_score, g.manual_score)
                  for g in gb.find_submission_notebook(A, A, "alice").grades]
    result = _nbg.api(course).autograde(A, "alice", force=True, create=True)
    assert not result["success"] and "autograde is disabled" in result["log"]
    assert not marker.exists()
    with GB.open_gradebook(course) as gb:
        assert before == [(g.name, g.auto_score, g.manual_score)
                          for g in gb.find_submission_notebook(A, A, "alice").grades]


def test_the_wall_limit_ends_the_whole_sandbox():
    """A notebook that ignores the interrupt inside a long cell, with a child process, is ended
    at the run's wall limit: nothing of the sandbox is left (by PID: no process of its user id,
    none in its PID namespace)."""
    sandbox = Sandbox()
    # (the loop sleeps: the wall limit comes before the cell's, so the kernel is never even
    # interrupted, and a loop that spins would only burn 10 CPU-s until the same end)
    job = {"cells": [{"index": 1, "source": (
        "import signal, subprocess, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "subprocess.Popen(['sleep', '600'])\nwhile True:\n    time.sleep(0.1)")}],
           "answers": ["answer_q1"], "notebook_name": "a.ipynb", "notebook_text": "{}"}
    result = sandbox.run(job, Limits(cell_seconds=60, wall_seconds=10))
    assert result.ended == "wall" and result.leftover == []
    if os.geteuid() == 0:  # the sandbox ran as a throw-away user id: none of its processes
        uid = sandbox._uid()
        time.sleep(0.5)
        assert [p for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == uid] == []


def _uid_of(pid):
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None
