"""course/ with nbgrader: the releases hold no answer, and a generated class is graded.

One module fixture builds every assignment with ``nbgrader generate_assignment`` (~40 s) into a
temporary course directory; the class test grades one assignment for a class whose students
hand in every kind of submission (right, wrong, misspelt, raising, looping, edited, deleted,
widget-using, tampering, not JSON, empty) with two grading processes and an 8 s per-cell limit (~40 s on an idle machine).
"""

import csv
import json
import os
import pathlib
import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest

from course import build as B
from course import grade as G
from course import submissions as S
from course.assignments import ASSIGNMENTS, build_exercises

pytestmark = pytest.mark.slow
ROOT = pathlib.Path(__file__).resolve().parents[1]
NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


@pytest.fixture(scope="module")
def course_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("course")
    B.build(root)
    return root


@pytest.fixture(scope="module")
def references():
    """assignment -> [(reference, rtol, atol)] for every question."""
    return {name: [(B.reference(ex), ex.rtol, ex.atol) for ex in build_exercises(a)]
            for name, a in ASSIGNMENTS.items()}


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
    kind, _ = B.answer_kind(ref)
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
    """The notebook file's text without nbformat's cell ids.

    A cell id (nbformat 4.5) is a random token such as ``"33b19f9d"``, drawn anew at every build:
    it holds no content, and the digits in it made the leak check fail at random (``19`` in that
    id is within the tolerance of a 19.33-degree answer). Everything else is searched: sources,
    outputs, metadata."""
    nb = json.loads(pathlib.Path(path).read_text())
    for cell in nb["cells"]:
        cell.pop("id", None)
    return json.dumps(nb, indent=1, ensure_ascii=False)


def test_release_holds_no_reference_value(course_root, references):
    checked = 0
    for name, refs in references.items():
        release = course_root / "release" / name / f"{name}.ipynb"
        text = notebook_text(release)
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
        assert "_Exercise" not in text and "genviz.exercises" not in text
        assert leaks(text, refs) == [], name
        n = sum(len(list(filter(_distinctive, _scalars(r)))) for r, _, _ in refs)
        assert n >= 1, name  # every assignment has a value the check can recognise
        checked += n
        # the answer cells are stubs, the manual answers empty
        nb = nbformat.read(release, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata["nbgrader"]
            if meta["solution"] and cell.cell_type == "code":
                assert cell.source.startswith(f"{meta['grade_id']} = ...\n")
            elif meta["solution"]:
                assert cell.source == "YOUR ANSWER HERE"
    assert checked >= 20  # the check is not vacuous (24 values; integers and 0.5 do not count)


def test_cell_ids_are_not_content_but_sources_are():
    """A reference's digits inside a random cell id are no leak; the same number in a cell's
    source, outputs or metadata is one (the check above is not blind to them)."""
    refs = [(19.329904127045047, 5e-3, 0.5)]
    cell = {"cell_type": "markdown", "id": "33b19f9d", "metadata": {}, "source": "Angle?"}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / f"leak_probe_{os.getpid()}.ipynb"
    try:
        path.write_text(json.dumps(nb))
        assert leaks(path.read_text(), refs) != []           # the raw file matched at random
        assert leaks(notebook_text(path), refs) == []
        for where in ("source", "metadata"):
            cell[where] = "Angle, about 19 degrees?" if where == "source" else {"a": 19.3}
            path.write_text(json.dumps(nb))
            assert leaks(notebook_text(path), refs) != [], where
    finally:
        path.unlink(missing_ok=True)


def test_the_leak_check_finds_the_answers_in_the_source(course_root, references):
    """The same search on the instructor's source notebooks (which hold the answers) finds them:
    the check above can fail."""
    for name, refs in references.items():
        text = notebook_text(course_root / "source" / name / f"{name}.ipynb")
        n = sum(len(list(filter(_distinctive, _scalars(r)))) for r, _, _ in refs)
        assert len(leaks(text, refs)) == n, name
        # ... and rounded to the checker's precision, too
        rounded = " ".join(f"{r:.4g}" for r in
                           (v for ref, _, _ in refs for v in _scalars(ref)) if _distinctive(r))
        assert len(leaks(rounded, refs)) == n, name


KERNEL_PROBE = r"""
import gc, json, sys, types
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


def test_student_kernel_holds_no_exercise_and_no_answer(course_root, references):
    """After running what a student runs (setup and answer stubs of every release, in one fresh
    interpreter): no genviz.exercises module is loaded, no Exercise exists, and no float
    constant of genviz or of the notebook's namespace equals a reference value.

    What the kernel can reach: all of genviz (a student can compute every answer with it: that
    is the exercise), the data, nothing stored that *is* an answer."""
    releases = [str(course_root / "release" / n / f"{n}.ipynb") for n in ASSIGNMENTS]
    out = subprocess.run([sys.executable, "-c", KERNEL_PROBE, *releases],
                         capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "MPLBACKEND": "Agg"})
    assert out.returncode == 0, out.stderr[-3000:]
    probe = json.loads(out.stdout.strip().splitlines()[-1])
    assert "genviz.datasets" in probe["loaded"]  # the probe ran the setups
    assert not [m for m in probe["loaded"] if m.startswith(("genviz.exercises", "genviz.widgets"))]
    assert probe["exercise_objects"] == []
    flat = [(r, rtol, atol) for name in ASSIGNMENTS for r, rtol, atol in references[name]]
    for where, values in probe["constants"]:
        assert leaks(" ".join(repr(v) for v in values), flat) == [], where


# -- a generated class ----------------------------------------------------------------------------

A = "a03_gda"


@pytest.fixture(scope="module")
def graded_class(course_root, tmp_path_factory):
    course = tmp_path_factory.mktemp("class")
    release = course_root / "release" / A / f"{A}.ipynb"
    right, wrong = S.right_answers(A), S.wrong_answers(A)
    S.write(course, "alice", A, S.fill(release, right, working="Solve theta^T x + theta0 = 0."))
    S.write(course, "bob", A, S.fill(release, wrong))
    S.write(course, "carol", A, S.fill(release, right | {
        1: right[1].replace("answer_q1", "answer_ql"),      # misspelt
        2: "answer_q2 = [1.0, 2.0]\nraise RuntimeError('oops')",  # raises
        3: "while True:\n    pass"}))                         # never ends
    nb = S.fill(release, wrong | {1: right[1]})
    nb.cells = [c for c in nb.cells if c.metadata["nbgrader"]["grade_id"] != "test_q1"]
    _cell(nb, "test_q2").source = "print('all good')"       # edited test, wrong answer
    S.write(course, "dave", A, nb)
    (course / "submitted" / "erin" / A).mkdir(parents=True)  # empty folder
    (course / "submitted" / "erin" / A / f"{A}.ipynb").parent.mkdir(exist_ok=True)
    broken = course / "submitted" / "frank" / A
    broken.mkdir(parents=True)
    (broken / f"{A}.ipynb").write_text('{"cells": [{"cell_type": "code", "source": "answer_q1 = ')
    nb = S.fill(release, right)
    nb.cells.insert(2, nbformat.v4.new_code_cell(
        "%matplotlib widget\nimport ipywidgets, matplotlib.pyplot as plt\n"
        "fig, ax = plt.subplots(); ax.plot([0, 1]); plt.show()\n"
        "slider = ipywidgets.FloatSlider(); slider.observe(print, 'value'); slider"))
    S.write(course, "gina", A, nb)
    (course / "submitted" / "hank").mkdir()                  # a student with no folder at all
    S.write(course, "ivan", A, S.fill(release, wrong | {1: (     # tampers with the checker
        "import genviz.exercises as g\n"
        "g.Exercise.check = lambda self, value: g.Feedback(True, 'Correct!')\n"
        "answer_q1 = 0.0")}))
    # two processes sharing the gradebook (course.grade --jobs 2); each runs course.grade.grade
    outcomes = {o.student_id: o for o in G.grade_parallel(course, 2, timeout=8,
                                                          build_root=course_root)}
    return course, outcomes


def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata["nbgrader"]["grade_id"] == grade_id)


def _question_scores(course, student):
    nb = nbformat.read(course / "autograded" / student / A / f"{A}.ipynb", as_version=4)
    scores = {}
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade") and not meta.get("solution"):
            failed = any(o.output_type == "error" for o in cell.get("outputs", []))
            scores[meta["grade_id"]] = 0 if failed else meta["points"]
    return scores


def test_every_student_gets_one_row_with_nbgraders_columns(graded_class):
    course, outcomes = graded_class
    with open(course / "grades.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["assignment", "duedate", "timestamp", "student_id", "last_name",
                             "first_name", "email", "raw_score", "late_submission_penalty",
                             "score", "max_score"]
    assert sorted(r["student_id"] for r in rows) == sorted(outcomes) == [
        "alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "ivan"]
    assert {r["assignment"] for r in rows} == {A}
    score = {r["student_id"]: float(r["score"]) for r in rows}
    auto = sum(q.points for q in ASSIGNMENTS[A].questions)
    assert float(rows[0]["max_score"]) == auto + 2 * len(ASSIGNMENTS[A].working)
    assert score == {"alice": auto, "bob": 0, "carol": 3, "dave": 2, "erin": 0, "frank": 0,
                     "gina": auto, "hank": 0, "ivan": _patched_check_score()}


def _points():
    return {f"test_q{i}": q.points for i, q in enumerate(ASSIGNMENTS[A].questions, 1)}


def test_right_answers_get_full_marks_and_wrong_ones_the_hint(graded_class):
    """Numbers, vectors, matrices and the multiple-choice item: full marks when right; when
    wrong, 0 and the exercise's own feedback (its hint; the Choice's reason for the option)."""
    course, _ = graded_class
    assert _question_scores(course, "alice") == _points()
    assert any(B.is_choice(ex) for ex in build_exercises(ASSIGNMENTS[A]))
    assert set(_question_scores(course, "bob").values()) == {0}
    html = (course / "feedback" / "bob" / A / f"{A}.html").read_text()
    wrong = S.wrong_answers(A)
    for i, ex in enumerate(build_exercises(ASSIGNMENTS[A]), 1):
        if B.is_choice(ex):
            message = str(ex.check(eval(wrong[i].rsplit(" = ", 1)[1])))  # noqa: S307
        else:
            message = ex.hint
        assert message.replace("'", "&#39;") in html or message in html, (i, message)
    assert "BEGIN HIDDEN" not in html and "_Exercise" not in html and "_verdict" not in html
    assert (course / "feedback" / "alice" / A / f"{A}.html").exists()


def test_misspelt_raising_and_looping_answers_fail_alone(graded_class):
    course, outcomes = graded_class
    assert _question_scores(course, "carol") == {"test_q1": 0, "test_q2": 0, "test_q3": 0,
                                                 "test_q4": 2, "test_q5": 1}
    problems = " ".join(outcomes["carol"].problems)
    assert "answer_q2 raised RuntimeError" in problems
    assert "answer_q3 did not finish within the time limit" in problems


def test_edited_and_deleted_test_cells_are_restored_and_reported(graded_class):
    course, outcomes = graded_class
    assert _question_scores(course, "dave") == {"test_q1": 2, "test_q2": 0, "test_q3": 0,
                                                "test_q4": 0, "test_q5": 0}
    assert "read-only cell test_q2 was edited" in " ".join(outcomes["dave"].problems)
    assert "cell test_q1 was deleted" in " ".join(outcomes["dave"].problems)
    with open(course / "grading_report.csv") as fh:
        report = {r["student_id"]: r for r in csv.DictReader(fh)}
    assert "edited" in report["dave"]["problems"] and report["dave"]["graded"] == "True"


def test_broken_and_missing_submissions_get_a_zero_row_and_a_reason(graded_class):
    _, outcomes = graded_class
    assert outcomes["erin"].problems == ["empty submission folder"]
    assert "not a valid notebook" in outcomes["frank"].problems[0]
    assert outcomes["hank"].problems == ["nothing submitted"]
    assert not any(outcomes[s].graded for s in ("erin", "frank", "hank"))


def test_widgets_do_not_hang_grading(graded_class):
    course, outcomes = graded_class
    assert outcomes["gina"].graded and outcomes["gina"].problems == []
    assert _question_scores(course, "gina") == _points()


def _patched_check_score():
    """Ivan's score: every question checked by the patched ``Exercise.check``; his (wrong)
    choice is checked by ``Choice.check``, which overrides it, and scores 0."""
    return sum(q.points for q, ex in zip(ASSIGNMENTS[A].questions, build_exercises(ASSIGNMENTS[A]))
               if not B.is_choice(ex))


def test_code_that_names_the_checker_is_flagged(graded_class):
    """The tests run in the student's kernel (nbgrader has no sandbox): a student who patches
    Exercise.check gets full marks, and the report says to look at the submission."""
    _, outcomes = graded_class
    assert outcomes["ivan"].score == _patched_check_score() > 0
    assert "answer_q1 refers to the grading machinery" in outcomes["ivan"].problems[0]
    assert not any("grading machinery" in " ".join(o.problems)
                   for s, o in outcomes.items() if s != "ivan")
