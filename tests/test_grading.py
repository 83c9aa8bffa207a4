"""course/: graded assignments generated from genviz.exercises (fast checks, no nbgrader run).

The oracle of a hidden test's verdict is the Exercise itself: the notebook's own builder call on
the notebook's own data, checked with its own ``check``. tests/test_grading_course.py builds the
releases with nbgrader and autogrades a generated class.
"""

import ast
import math
import pathlib

import nbformat
import numpy as np
import pytest
from hypothesis import given, strategies as st

from course import build as B
from course.assignments import ASSIGNMENTS, build_exercises, setup_namespace

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMES = list(ASSIGNMENTS)


class _DropProgress(ast.NodeTransformer):
    """Remove ``progress=`` arguments (a progress bar's callback: it changes no data)."""

    def visit_Call(self, node):
        self.generic_visit(node)
        node.keywords = [k for k in node.keywords if k.arg != "progress"]
        return node


def _parse(source: str) -> list:
    lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    return _DropProgress().visit(ast.parse("\n".join(lines))).body


def _statements(source: str) -> list[str]:
    return [ast.unparse(node) for node in _parse(source)]


def _builder_calls(node, boxes=None) -> list[str]:
    """The ``exercises.name(...)`` calls in ``node``; with ``boxes``, only those passed to one of
    these functions (``answer_box(ex1)`` counts through ``ex1 = exercises...``)."""
    def is_builder(n):
        return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "exercises")
    if boxes is None:
        return [ast.unparse(n) for n in ast.walk(node) if is_builder(n)]
    found = []
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in boxes:
            found += [ast.unparse(a) for a in n.args if is_builder(a)]
    return found


def _notebook_cells(name: str) -> list:
    nb = nbformat.read(ROOT / "notebooks" / ASSIGNMENTS[name].notebook, as_version=4)
    return [ast.Module(body=_parse(c.source), type_ignores=[])
            for c in nb.cells if c.cell_type == "code"]


def _notebook_code(name: str) -> tuple[set, set]:
    """(every statement, every expression assigned or evaluated, and every builder call) of the
    notebook's code cells."""
    statements, values = set(), set()
    for cell in _notebook_cells(name):
        for node in cell.body:
            statements.add(ast.unparse(node))
            if isinstance(node, (ast.Assign, ast.Expr)):
                values.add(ast.unparse(node.value))
            values.update(_builder_calls(node))
    return statements, values


def _self_check_items(name: str) -> list[str]:
    """The builder calls of the notebook's answer boxes and choice boxes (not its predictions):
    ``answer_box(ex1)`` after ``ex1 = exercises.f(...)`` or ``choice_box(exercises.g(...))``."""
    items = []
    for cell in _notebook_cells(name):
        assigned = {}
        for node in cell.body:
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and _builder_calls(node.value)):
                assigned[node.targets[0].id] = ast.unparse(node.value)
        for node in ast.walk(cell):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("answer_box", "choice_box")):
                for arg in node.args:
                    if isinstance(arg, ast.Name) and arg.id in assigned:
                        items.append(assigned[arg.id])
                items += _builder_calls(node, boxes=("answer_box", "choice_box"))
    return items


@pytest.mark.parametrize("name", NAMES)
def test_assignment_asks_the_notebooks_own_questions_on_its_own_data(name):
    """Every data statement of the setup and every builder call is the notebook's (one source of
    truth: change the notebook's data or call and this fails until the spec follows)."""
    a = ASSIGNMENTS[name]
    statements, values = _notebook_code(name)
    for stmt in _statements(a.setup):
        if stmt.startswith(("import ", "from ")):
            continue
        assert stmt in statements, f"{name}: setup statement not in {a.notebook}: {stmt}"
    for q in a.questions:
        assert ast.unparse(ast.parse(q.call, mode="eval").body) in values, \
            f"{name}: {q.call} is not called in {a.notebook}"
    assert f"from genviz.exercises import {a.exercises.rsplit('.', 1)[1]} as exercises" in statements


def test_the_notebook_check_fails_on_a_changed_call():
    """The check above can fail: a call the notebook does not make is caught, and so is a
    setup line whose data differ (dropping ``progress=`` hides nothing else)."""
    statements, values = _notebook_code("a02_gaussian")
    assert "exercises.peak_height(2.0, 0.5, -0.3)" in values
    assert "exercises.peak_height(2.0, 0.5, 0.3)" not in values
    assert "exercises.valid_covariance([[1, 2], [2, 1]])" in values  # inside choice_box(...)
    assert "exercises.valid_covariance([[1, 2], [2, 2]])" not in values
    statements, _ = _notebook_code("a04_gda_vs_logistic")
    same, other = _statements("curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=1)\n"
                              "curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=2)")
    assert same in statements and other not in statements


@pytest.mark.parametrize("name", NAMES)
def test_every_self_check_item_is_asked_or_left_out_with_a_reason(name):
    """Each answer box and choice box of the notebook is a graded question or is listed in
    ``left_out`` with its reason: a new exercise in a notebook does not go silently ungraded.
    The graded ones are computations and concept choices (no explorer item: the graded
    notebook has no explorer), and a notebook with a concept choice has one graded."""
    a = ASSIGNMENTS[name]
    items = {ast.unparse(ast.parse(c, mode="eval").body) for c in _self_check_items(name)}
    asked = {ast.unparse(ast.parse(q.call, mode="eval").body) for q in a.questions}
    left = {ast.unparse(ast.parse(c, mode="eval").body): why for c, why in a.left_out}
    assert items, name
    assert items == asked | set(left), (name, items ^ (asked | set(left)))
    assert not asked & set(left) and all(why.strip() for why in left.values())
    exercises = build_exercises(a)
    assert {ex.kind for ex in exercises} <= {"compute", "concept"}, name
    assert sum(ex.kind == "compute" for ex in exercises) >= 3, name
    assert any(B.is_choice(ex) for ex in exercises), name


def test_the_self_check_inventory_sees_a_missing_item():
    """The check above can fail: drop a question and the notebook's item is unaccounted for."""
    a = ASSIGNMENTS["a05_density"]
    items = set(_self_check_items("a05_density"))
    asked = {q.call for q in a.questions[:-1]} | {c for c, _ in a.left_out}
    assert "exercises.more_smoothing_with_fewer_points()" in items - asked
    assert "exercises.cv_bandwidth_in_explorer(300)" in items
    assert not any("predict_" in c for c in items)  # predictions are not self-check items


@pytest.mark.parametrize("name", NAMES)
def test_every_assignment_has_three_graded_questions_and_a_manual_one(name):
    a = ASSIGNMENTS[name]
    nb = B.source_notebook(a)
    meta = [c.metadata["nbgrader"] for c in nb.cells]
    auto = [m for m in meta if m["grade"] and not m["solution"]]
    manual = [m for m in meta if m["grade"] and m["solution"]]
    answers = [m for m in meta if m["solution"] and not m["grade"]]
    assert len(auto) == len(answers) == len(a.questions) >= 3
    assert len(manual) == len(a.working) >= 1
    assert all(m["points"] > 0 and m["locked"] for m in auto)
    ids = [m["grade_id"] for m in meta]
    assert len(ids) == len(set(ids))
    # the setup cell is the setup, read-only; the release imports no exercise builder
    setup = nb.cells[1]
    assert setup.source == a.setup.rstrip() and setup.metadata["nbgrader"]["locked"]
    assert "genviz.exercises" not in a.setup and "genviz.widgets" not in a.setup


def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata["nbgrader"]["grade_id"] == grade_id)


def _passes(code: str, value, name: str) -> bool:
    namespace = {name: value, "np": np}
    try:
        exec(code, namespace)  # noqa: S102 (our generated test code)
    except AssertionError:
        return False
    return True


def _probes(ex):
    """Values near and far from the reference (in and out of the tolerance), of the right form
    (a Choice: every option's letter, as written and as ``(A)``; a wrong one last)."""
    if B.is_choice(ex):
        letters = [ex.label(i) for i in range(len(ex.options))]
        wrong = next(x for i, x in enumerate(letters) if i not in ex.correct)
        return letters + [f"({x.upper()})" for x in letters] + [wrong]
    ref = B.reference(ex)
    kind, _ = B.answer_kind(ref)
    if kind == "text":
        return [ref, ref.upper(), f"  {ref} ", ref + "x", "nothing"]
    if kind == "yes/no":
        return [bool(ref), not ref]
    if kind == "labels":
        return [list(ref), [a.upper() for a in ref], list(reversed(ref)) + ["x"]]
    arr = np.asarray(ref, dtype=float)
    scale = ex.atol + ex.rtol * np.abs(arr)
    return [arr, arr + 0.4 * scale, arr - 0.4 * scale, arr + 3 * scale + 1e-6,
            arr * 1.5 + 1.0, np.zeros_like(arr)]


@pytest.mark.parametrize("name", NAMES)
def test_hidden_test_verdict_is_the_exercise_check(name):
    """The grade cell (public + hidden tests) passes exactly when the notebook's Exercise says
    Correct: same reference, same tolerance rule, for values in and out of the tolerance."""
    a = ASSIGNMENTS[name]
    exercises = build_exercises(a)
    nb = B.source_notebook(a, exercises)
    for i, ex in enumerate(exercises, 1):
        code = _cell(nb, f"test_q{i}").source
        for value in _probes(ex):
            assert _passes(code, value, f"answer_q{i}") == bool(ex.check(value).correct), \
                (name, i, value)
        # the wrong answer's message is the exercise's own feedback (its hint; a Choice's
        # reason for the option picked)
        hidden = code[code.index("### BEGIN HIDDEN TESTS"):]
        wrong = _probes(ex)[-1]
        namespace = {f"answer_q{i}": wrong}
        with pytest.raises(AssertionError) as err:
            exec(hidden, namespace)  # noqa: S102
        assert str(err.value) == str(ex.check(wrong))
        assert "Hint" in str(err.value) or B.is_choice(ex)
        assert err.value._render_traceback_() == [f"_WrongAnswer: {err.value}"]


def test_hidden_test_with_another_tolerance_would_be_caught():
    """The probes above tell tolerances apart: an Exercise with rtol 10x larger disagrees."""
    from genviz.exercises import Exercise

    ex = build_exercises(ASSIGNMENTS["a02_gaussian"])[1]
    loose = Exercise("q", B.reference(ex), hint="h", solution="s", rtol=10 * ex.rtol)
    assert any(bool(loose.check(v).correct) != bool(ex.check(v).correct) for v in _probes(ex))


@pytest.mark.parametrize("name", ["a03_gda", "a09_knn", "a06_naive_bayes"])
def test_public_test_checks_the_form_never_the_value(name):
    a = ASSIGNMENTS[name]
    exercises = build_exercises(a)
    nb = B.source_notebook(a, exercises)
    for i, ex in enumerate(exercises, 1):
        code = _cell(nb, f"test_q{i}").source
        public = code[:code.index("### BEGIN HIDDEN TESTS")]  # what the student's kernel runs
        var = f"answer_q{i}"
        for value in _probes(ex):  # right form, right or wrong value: passes
            assert _passes(public, value, var)
        with pytest.raises(AssertionError, match="is still"):
            exec(public, {var: ...})  # noqa: S102
        with pytest.raises(AssertionError, match="not defined"):
            exec(public, {})  # noqa: S102
        kind, _ = B.answer_kind(B.reference(ex))
        bad = [1.0, 2.0, 3.0] if kind in ("number", "array", "text", "labels") else "yes"
        assert not _passes(public, bad, var)


@given(st.floats(allow_nan=False) | st.integers(-10**6, 10**6) | st.text(max_size=20)
       | st.booleans() | st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1,
                                   max_size=4))
def test_literal_rebuilds_the_answer_exactly(answer):
    rebuilt = eval(B.literal(answer), {"inf": math.inf})  # noqa: S307
    if isinstance(answer, (str, bool)):
        assert rebuilt == answer and type(rebuilt) is type(answer)
    else:
        np.testing.assert_array_equal(np.asarray(rebuilt, dtype=float),
                                      np.asarray(answer, dtype=float))


def test_literal_of_labels_and_matrices():
    assert eval(B.literal(["spam", "ham"])) == ["spam", "ham"]  # noqa: S307
    m = np.array([[4.0, -0.3], [-0.3, 0.25]]) / 3
    np.testing.assert_array_equal(eval(B.literal(m)), m)  # noqa: S307


def test_setup_runs_and_builds_the_notebook_data():
    ns = setup_namespace(ASSIGNMENTS["a03_gda"])
    assert ns["X_ex"].shape == (6, 2) and ns["y_ex"].tolist() == [0, 0, 1, 1, 1, 0]


def test_build_rejects_unknown_assignments(tmp_path):
    with pytest.raises(ValueError, match="nope"):
        B.build(tmp_path, ["nope"])


def test_grade_needs_a_submitted_folder(tmp_path):
    from course import grade

    with pytest.raises(FileNotFoundError, match="submitted"):
        grade.grade(tmp_path)


def test_preflight_names_each_broken_submission(tmp_path):
    from course import grade

    folder = tmp_path / "a03_gda"
    folder.mkdir()
    assert grade.preflight(folder, "a03_gda") == (False, ["empty submission folder"])
    (folder / "renamed.ipynb").write_text("{}")
    ok, problems = grade.preflight(folder, "a03_gda")
    assert not ok and "no a03_gda.ipynb" in problems[0] and "renamed.ipynb" in problems[0]
    (folder / "a03_gda.ipynb").write_text('{"cells": [')
    ok, problems = grade.preflight(folder, "a03_gda")
    assert not ok and "not a valid notebook" in problems[0]


def test_choice_items_are_graded_by_their_own_check():
    """Multiple-choice items (genviz.exercises.choice): options listed, a letter expected, the
    hidden test is the Choice's own check."""
    from course.assignments import Assignment, Question
    from genviz.exercises import choice

    item = choice.Choice("Which way does the peak move when |rho| grows?",
                         ["up", "down", "it stays"], "up", explanation="|Sigma| shrinks.",
                         reasons={"down": "Look at |Sigma| = s1^2 s2^2 (1 - rho^2)."})
    spec = Assignment(name="t", notebook="x.ipynb", title="T", exercises="genviz.exercises.choice",
                      setup="", questions=(Question("item"),))
    nb = B.source_notebook(spec, [item])
    assert "- (a) up\n- (b) down\n- (c) it stays" in _cell(nb, "question_q1").source
    code = _cell(nb, "test_q1").source
    for value in ["a", "b", "c", "(a)", "A"]:
        assert _passes(code, value, "answer_q1") == bool(item.check(value).correct), value
    public = code[:code.index("### BEGIN HIDDEN TESTS")]
    assert all(_passes(public, v, "answer_q1") for v in "abc")
    assert not _passes(public, "d", "answer_q1") and not _passes(public, 0, "answer_q1")
    namespace = {"answer_q1": "b"}
    with pytest.raises(AssertionError, match="1 - rho"):
        exec(code[code.index("### BEGIN HIDDEN TESTS"):], namespace)  # noqa: S102
    assert "'a'" in _cell(nb, "answer_q1").source  # the source's solution is the right letter


def test_grade_rejects_bad_arguments(tmp_path):
    from course import grade

    with pytest.raises(ValueError, match="jobs"):
        grade.grade_parallel(tmp_path, 0)
    with pytest.raises(TypeError, match="students"):
        grade.grade(tmp_path, students="alice")
