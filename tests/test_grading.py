"""course/: graded assignments generated from genviz.exercises (fast checks: no sandbox run).

The oracle of a question's verdict is the Exercise itself: the notebook's own builder call on
the (student's) data, checked with its own ``check``. tests/test_grading_course.py builds a
course and grades a class in the sandbox; tests/test_grading_hostile.py grades the hostile
corpus.
"""

import ast
import dataclasses
import json
import math
import pathlib

import nbformat
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from course import build as B
from course import cells as C
from course import grade as G
from course.assignments import ASSIGNMENTS, WORDINGS, build_exercises, setup_namespace, variant
from course.plain import LIMITS, NotPlain, check_answer, decode
from course.variants import (Draw, check_student_id, fingerprint, load_secret, make_secret,
                             permute_choice, render, seed)

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMES = list(ASSIGNMENTS)
SECRET = bytes(range(32))


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
    """The builder calls of the notebook's answer, choice and derivation boxes (not its
    predictions):
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
                    and node.func.id in ("answer_box", "choice_box", "derivation_box")):
                for arg in node.args:
                    if isinstance(arg, ast.Name) and arg.id in assigned:
                        items.append(assigned[arg.id])
                items += _builder_calls(node, boxes=("answer_box", "choice_box", "derivation_box"))
    return items


def _call(a, q) -> str:
    """A question's call with the notebook's own values put in."""
    return ast.unparse(ast.parse(a.call_code(q), mode="eval").body)


@pytest.mark.parametrize("name", NAMES)
def test_assignment_asks_the_notebooks_own_questions_on_its_own_data(name):
    """With the defaults put in, every data statement of the setup and every builder call is the
    notebook's (one source of truth: change the notebook's data or call and this fails until the
    spec follows); each variant then changes only the named values."""
    a = ASSIGNMENTS[name]
    statements, values = _notebook_code(name)
    for stmt in _statements(a.setup_code()):
        if stmt.startswith(("import ", "from ")):
            continue
        assert stmt in statements, f"{name}: setup statement not in {a.notebook}: {stmt}"
    for q in a.questions:
        assert _call(a, q) in values, f"{name}: {a.call_code(q)} is not called in {a.notebook}"
    assert f"from genviz.exercises import {a.exercises.rsplit('.', 1)[1]} as exercises" in statements
    # every named value is used, and only names with a default are drawn
    code = a.setup + "\n".join(q.call for q in a.questions)
    for key in a.defaults:
        assert key in code, f"{name}: {key} has a default but appears nowhere"
    assert set(a.draw(Draw(1))) <= set(a.defaults)


def test_the_notebook_check_fails_on_a_changed_call():
    """The check above can fail: a call the notebook does not make is caught, and so is a
    setup line whose data differ, and so is a default that is not the notebook's value."""
    statements, values = _notebook_code("a02_gaussian")
    assert "exercises.major_axis_angle([[2, -0.6], [-0.6, 1]])" in values
    assert "exercises.major_axis_angle([[2, 0.6], [0.6, 1]])" not in values
    assert "exercises.valid_covariance([[1, 2], [2, 1]])" in values  # inside choice_box(...)
    assert "exercises.valid_covariance([[1, 2], [2, 2]])" not in values
    a = ASSIGNMENTS["a02_gaussian"]
    other = {**a.defaults, "AXIS_COV": [[2, 0.6], [0.6, 1]]}
    changed = ast.unparse(ast.parse(render(a.questions[0].call, other), mode="eval").body)
    assert changed not in values
    statements, _ = _notebook_code("a04_gda_vs_logistic")
    same, other = _statements("curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=1)\n"
                              "curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=2)")
    assert same in statements and other not in statements


@pytest.mark.parametrize("name", NAMES)
def test_every_self_check_item_is_asked_or_left_out_with_a_reason(name):
    """Each answer box and choice box of the notebook is a graded question or is listed in
    ``left_out`` with its reason: a new exercise in a notebook does not go silently ungraded.
    The graded ones are computations and concept choices (nothing answered with the explorer:
    the graded notebook has none), and a notebook with a concept choice has one graded."""
    a = ASSIGNMENTS[name]
    items = {ast.unparse(ast.parse(c, mode="eval").body) for c in _self_check_items(name)}
    asked = {_call(a, q) for q in a.questions}
    left = {ast.unparse(ast.parse(c, mode="eval").body): why for c, why in a.left_out}
    assert items, name
    assert items == asked | set(left), (name, items ^ (asked | set(left)))
    assert not asked & set(left) and all(why.strip() for why in left.values())
    exercises = build_exercises(a)
    assert {ex.kind for ex in exercises} <= {"compute", "concept"}, name
    # two computations at least (issue #40: fewer, deeper boxes -- a computation another one
    # contains, such as 01's marginal P(alarm) inside its Bayes item, is no item of its own),
    # three graded questions with the concept choice (the next test)
    assert sum(ex.kind == "compute" for ex in exercises) >= 2, name
    assert any(C.is_choice(ex) for ex in exercises), name


def test_the_self_check_inventory_sees_a_missing_item():
    """The check above can fail: drop a question and the notebook's item is unaccounted for."""
    a = ASSIGNMENTS["a05_density"]
    items = set(_self_check_items("a05_density"))
    asked = {q.call for q in a.questions[:-1]} | {c for c, _ in a.left_out}
    assert "exercises.more_smoothing_with_fewer_points()" in items - asked
    assert "exercises.ise_optimal_bandwidth(1000)" in items  # a left-out item is an item too
    assert not any("predict_" in c for c in items)  # predictions are not self-check items


@pytest.mark.parametrize("name", NAMES)
def test_every_assignment_has_three_graded_questions_and_a_manual_one(name):
    a = ASSIGNMENTS[name]
    nb = B.source_notebook(a)
    meta = [c.metadata["nbgrader"] for c in nb.cells if "nbgrader" in c.metadata]
    auto = [m for m in meta if m["grade"] and not m["solution"]]
    manual = [m for m in meta if m["grade"] and m["solution"]]
    answers = [m for m in meta if m["solution"] and not m["grade"]]
    assert len(auto) == len(answers) == len(a.questions) >= 3
    assert len(manual) == len(a.working) >= 1
    assert all(m["points"] > 0 and m["locked"] for m in auto)
    ids = [m["grade_id"] for m in meta]
    assert len(ids) == len(set(ids))
    # the setup cell is the setup, read-only; the release imports no exercise builder
    setup = _cell(nb, "setup")
    assert setup.source == a.setup_code().rstrip() and setup.metadata["nbgrader"]["locked"]
    assert "genviz.exercises" not in a.setup and "genviz.widgets" not in a.setup


# -- variants -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_two_students_get_different_variants_and_neither_is_the_notebooks(name):
    """Each student's values differ from a classmate's and from the notebook's; every numeric
    answer differs from the self-study answer beyond the tolerance (the oracle: the notebook's
    own Exercise, whose check would accept its own answer), and the same student always gets
    the same variant (the grader recomputes it)."""
    a = ASSIGNMENTS[name]
    own = build_exercises(a)
    va, ea = variant(a, "alice", SECRET)
    vb, eb = variant(a, "bob", SECRET)
    assert va.params != vb.params and va.params != a.defaults and vb.params != a.defaults
    again, ea2 = variant(a, "alice", SECRET)
    assert again == va
    for x, y, z in zip(ea, ea2, own):
        if C.is_choice(x):
            # the same options, in the student's order and (course.assignments.WORDINGS) words
            words = WORDINGS.get(z.id, {})
            assert x.options == y.options and len(x.options) == len(z.options)
            assert sorted(next(o for o in z.options if t == o or t in words.get(o, ()))
                          for t in x.options) == sorted(z.options)
            continue
        assert C.literal(C.reference(x)) == C.literal(C.reference(y))
        ref = C.reference(z)
        if isinstance(ref, str):
            continue  # a word or a label: few possible answers, may coincide
        assert not x.check(ref).correct, (name, x.prompt)
    # another secret, another variant
    assert variant(a, "alice", bytes(range(1, 33)))[0].params != va.params


def test_the_capstone_experiment_is_run_once_for_the_class():
    """a10: the sweep (about 15 s) is the same for every student -- no named value in the setup,
    so the setup's code, and the grader's cached namespace, are one for the class -- and each
    student reads another setting or size of it: a lead the notebook's (3000 words, presence,
    n = 1280) does not answer, computed from the same arrays (the oracle: the paired
    differences of the student's own column)."""
    from course.assignments import _setup_namespace

    a = ASSIGNMENTS["a10_capstone"]
    ns = setup_namespace(a)
    seen = set()
    for k in range(8):
        var, exercises = variant(a, f"s{k:03d}", SECRET)
        assert a.setup_code(var.params) == a.setup_code()
        p = var.params
        c = ns["sweep"][(p["LEAD_D"], p["LEAD_KIND"])]
        j = list(ns["sweep"].sizes).index(p["LEAD_N"])
        diff = c.nb_errors[:, j] - c.lr_errors[:, j]
        z = diff.mean() / (diff.std(ddof=1) / np.sqrt(diff.size))
        assert exercises[1].check(float(z)).correct
        seen.add((p["LEAD_D"], p["LEAD_KIND"], p["LEAD_N"]))
    assert len(seen) >= 5
    assert _setup_namespace.cache_info().currsize >= 1
    # a lead within 0.1 of 0 is redrawn (it could match a test error left in the kernel);
    # oracle: scipy's paired t statistic on the same columns
    from scipy.stats import ttest_rel

    refused = []
    for (d, kind), c in ns["sweep"].curves.items():
        for j, n in enumerate(ns["sweep"].sizes[:-1]):
            z = ttest_rel(c.nb_errors[:, j], c.lr_errors[:, j]).statistic
            ok = a.accept({**a.defaults, "LEAD_D": d, "LEAD_KIND": kind, "LEAD_N": int(n)})
            assert ok == (abs(z) >= 0.1), (d, kind, n, z)
            refused += [] if ok else [(d, kind, int(n))]
    assert 0 < len(refused) <= 4
    # the planted fault: a named value in the setup gives each student their own setup
    planted = dataclasses.replace(a, setup=a.setup.replace("SWEEP_REPS = 5", "SWEEP_REPS = N_REPS"))
    assert planted.setup_code({**a.defaults, "N_REPS": 7}) != planted.setup_code()


def test_variant_prompts_show_the_students_values():
    a = ASSIGNMENTS["a02_gaussian"]
    var, exercises = variant(a, "alice", SECRET)
    p = var.params
    assert f"Sigma = {np.asarray(p['AXIS_COV'], dtype=float).tolist()}" in exercises[0].prompt
    nb = C.notebook(a, var, exercises)
    assert f"**This notebook is for `alice`**" in nb.cells[0].source
    assert nb.metadata["genviz"]["student"] == "alice"


def test_choice_options_are_shuffled_per_student_and_keep_their_own_check():
    """The permuted Choice is the same question: for every option, the verdict and the reason
    shown are those of the same option text in the notebook's order."""
    a = ASSIGNMENTS["a03_gda"]
    q = len(a.questions) - 1  # the concept choice, the last question
    own = build_exercises(a)[q]
    assert C.is_choice(own)
    orders = set()
    for student in ["alice", "bob", "carol", "dave", "erin", "frank"]:
        var, exercises = variant(a, student, SECRET)
        moved = exercises[q]
        orders.add(tuple(var.orders[q]))
        for k, option in enumerate(moved.options):
            j = var.orders[q][k]  # the option shown k-th is the notebook's j-th, maybe reworded
            assert option == own.options[j] or option in WORDINGS[own.id][own.options[j]]
            assert moved.check(moved.label(k)).correct == own.check(own.label(j)).correct
            assert moved.check(moved.label(k)).message == own.check(own.label(j)).message
    assert len(orders) > 1


@given(st.permutations(range(4)))
def test_permute_choice_moves_the_right_option_with_its_text(order):
    from genviz.exercises import Choice

    q = Choice("q?", ["w", "x", "y", "z"], "y", explanation="e", reasons={"w": "no w"})
    p = permute_choice(q, order)
    assert p.options[p.correct[0]] == "y" and p.reasons[p.options.index("w")] == "no w"
    with pytest.raises(ValueError, match="permutation"):
        permute_choice(q, [0, 0, 1, 2])


@given(st.integers(0, 2**128), st.integers(1, 30))
def test_draw_is_reproducible_and_stays_on_its_grid(s, n):
    a, b = Draw(s), Draw(s)
    xs = [a.grid(0.5, 3.0, 0.1) for _ in range(n)]
    assert xs == [b.grid(0.5, 3.0, 0.1) for _ in range(n)]
    assert all(0.5 <= x <= 3.0 and abs(x * 10 - round(x * 10)) < 1e-9 for x in xs)
    assert all(1 <= a.integer(1, 6) <= 6 for _ in range(n))
    assert sorted(a.permutation(n)) == list(range(n))


def test_draw_is_the_same_as_when_the_releases_were_made():
    """The stream is random.Random(seed).random(): Python keeps it stable across versions, so a
    regrade next year recomputes the same variants (these values were recorded once)."""
    d = Draw(seed(SECRET, "a03_gda", "alice"))
    assert [d.integer(0, 9) for _ in range(8)] == [6, 7, 1, 1, 9, 7, 3, 4]


def test_seed_and_fingerprint_depend_on_secret_assignment_and_student():
    base = seed(SECRET, "a03_gda", "alice")
    assert base != seed(SECRET, "a03_gda", "bob") != seed(SECRET, "a02_gaussian", "alice")
    assert base != seed(bytes(range(1, 33)), "a03_gda", "alice")
    assert base != seed(SECRET, "a03_gda", "alice", attempt=1)
    tag = fingerprint(SECRET, "a03_gda", "alice")
    assert len(tag) == 16 and tag != fingerprint(SECRET, "a03_gda", "bob")
    with pytest.raises(ValueError, match="16 bytes"):
        seed(b"short", "a03_gda", "alice")


@pytest.mark.parametrize("bad", ["", ".hidden", "../alice", "a/b", "a b", "x" * 65, "é", None, 3])
def test_bad_student_ids_are_refused_by_name(bad):
    with pytest.raises(ValueError, match="student id"):
        check_student_id(bad)


def test_good_student_ids():
    for good in ["alice", "s1234567", "jane.doe@uni.edu", "a-b_c+d"]:
        assert check_student_id(good) == good


def test_the_secret_file_is_made_private_and_read_back(tmp_path, monkeypatch):
    path = tmp_path / "cfg" / "course-secret"
    monkeypatch.setenv("GENVIZ_COURSE_SECRET_FILE", str(path))
    with pytest.raises(FileNotFoundError, match="make assignments"):
        load_secret()
    assert make_secret() == path and path.stat().st_mode & 0o777 == 0o600
    secret = load_secret()
    assert len(secret) == 32 and make_secret() == path and load_secret() == secret
    path.write_text("not hex")
    with pytest.raises(ValueError, match="hex"):
        load_secret()


def test_render_replaces_names_only_where_they_are_names():
    code = "x = f(N, obj.N, 'N')  # N stays in a comment\nN_OTHER = N"
    assert render(code, {"N": 3}) == "x = f(3, obj.N, 'N')  # N stays in a comment\nN_OTHER = 3"
    assert render("y = [A,\n     B]", {"A": [1.5], "B": {"k": "v"}}) == "y = [[1.5],\n     {'k': 'v'}]"


# -- plain data -----------------------------------------------------------------------------------

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4), max_leaves=20)


@given(PLAIN)
def test_plain_answers_survive_the_strict_decoder(value):
    """Oracle: the standard library's json round-trip."""
    text = json.dumps({"a": value})
    assert decode(text) == json.loads(text)
    try:
        assert check_answer(decode(text)["a"]) == value
    except NotPlain as err:  # only for nesting deeper than the limit
        assert "nested" in str(err)


@pytest.mark.parametrize("text, why", [
    ('[NaN]', "NaN"), ('[Infinity]', "Infinity"), ('[-Infinity]', "Infinity"),
    ('{"a": 1, "a": 2}', "repeated key"), ("[" * 40 + "]" * 40, "nested"),
    ("[1e999]", "overflows"), ("[" + "9" * 40 + "]", "digits"), ("{'a': 1}", "not valid JSON"),
    ("", "not valid JSON")])
def test_the_decoder_refuses_what_is_not_plain_json(text, why):
    with pytest.raises(NotPlain, match=why):
        decode(text)


def test_the_decoder_refuses_too_much_and_non_utf8():
    with pytest.raises(NotPlain, match="limit"):
        decode(b"[" + b"1," * LIMITS["output_bytes"] + b"1]")
    with pytest.raises(NotPlain, match="UTF-8"):
        decode(b'["\xff"]')
    with pytest.raises(NotPlain, match="text"):
        decode(3)


class _F(float):
    pass


@pytest.mark.parametrize("value, why", [
    (_F(1.0), "_F"), ({"a": 1}, "mapping"), (float("nan"), "NaN"), (math.inf, "infinite"),
    ([0.0] * (LIMITS["numbers"] + 1), "limit"), ("x" * (LIMITS["string"] + 1), "longer"),
    ([[[[[1.0]]]]], "nested"), (np.float64(1.0), "float64"), (10 ** 40, "large"),
    ((1.0, 2.0), "tuple")])
def test_check_answer_refuses_anything_but_plain_data(value, why):
    with pytest.raises(NotPlain, match=why):
        check_answer(value)


# -- checking outside: the grader's verdict is the Exercise's own ---------------------------------

def _plain(value):
    return json.loads(json.dumps(np.asarray(value).tolist() if not isinstance(value, str)
                                 else value))


def _probes(ex):
    """Values near and far from the reference (in and out of the tolerance), of the right form
    (a Choice: every option's letter, as written and as ``(A)``; a wrong one last)."""
    if C.is_choice(ex):
        letters = [ex.label(i) for i in range(len(ex.options))]
        wrong = next(x for i, x in enumerate(letters) if i not in ex.correct)
        return letters + [f"({x.upper()})" for x in letters] + [wrong]
    ref = C.reference(ex)
    kind, _ = C.answer_kind(ref)
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
def test_the_graders_verdict_is_the_exercise_check(name):
    """For a student's variant, the grader's verdict on a plain answer (as it leaves the sandbox:
    JSON) is the student's Exercise's own check — same reference, tolerance, hint — and the
    points are the question's."""
    a = ASSIGNMENTS[name]
    _, exercises = variant(a, "alice", SECRET)
    for i, ex in enumerate(exercises, 1):
        for value in _probes(ex):
            outcome = G.Outcome("alice", name)
            G.check_answers(exercises, {f"answer_q{k}": {"value": _plain(value) if k == i
                                                           else None}
                                        for k in range(1, len(exercises) + 1)}, outcome, a)
            want = ex.check(_plain(value))
            assert (outcome.verdicts[f"q{i}"] == "right") == bool(want.correct), (name, i, value)
            assert outcome.feedback[f"q{i}"] == want.message
            assert outcome.earned[f"test_q{i}"] == (a.questions[i - 1].points if want.correct
                                                   else 0)
        wrong = _probes(ex)[-1]
        assert "Hint" in ex.check(_plain(wrong)).message or C.is_choice(ex)


def test_a_check_with_another_tolerance_would_be_caught():
    """The probes above tell tolerances apart: an Exercise with rtol 10x larger disagrees."""
    from genviz.exercises import Exercise

    ex = build_exercises(ASSIGNMENTS["a02_gaussian"])[1]  # mass_inside: checked by rtol
    loose = Exercise("q", C.reference(ex), hint="h", solution="s", rtol=10 * ex.rtol)
    assert any(bool(loose.check(v).correct) != bool(ex.check(v).correct) for v in _probes(ex))


def test_check_answers_says_why_an_answer_earns_nothing():
    a = ASSIGNMENTS["a03_gda"]
    _, exercises = variant(a, "alice", SECRET)
    outcome = G.Outcome("alice", "a03_gda")
    G.check_answers(exercises, {"answer_q1": {"missing": True},
                                "answer_q2": {"refused": "a float subclass (F)"},
                                "answer_q3": {"value": [[1.0, 2.0], {"a": 1}]}}, outcome, a)
    assert outcome.verdicts == {"q1": "not defined", "q2": "not plain data",
                                "q3": "not plain data"}
    text = " ".join(outcome.problems)
    assert "answer q2 is not plain data (a float subclass (F))" in text
    assert "answer q3 is not plain data (a mapping is not a plain answer)" in text
    assert set(outcome.earned.values()) == {0.0}
    outcome = G.Outcome("alice", "a03_gda")
    G.check_answers(exercises, {"answer_q1": {"value": None},
                                "answer_q2": {"value": [[1.0, 2.0], {"a": 1}]}}, outcome, a)
    assert outcome.verdicts == {"q1": "not answered", "q2": "not plain data", "q3": "not read"}
    assert "answer q3 was not reported" in " ".join(outcome.problems)
    assert set(outcome.earned.values()) == {0.0}
    outcome = G.Outcome("alice", "a03_gda")
    G.check_answers(exercises, None, outcome, a)
    assert set(outcome.verdicts.values()) == {"not read"}


# -- forms, releases ------------------------------------------------------------------------------

def _cell(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def _passes(code: str, value, name: str) -> bool:
    namespace = {name: value, "np": np}
    try:
        exec(code, namespace)  # noqa: S102 (our generated test code)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("name", ["a03_gda", "a09_knn", "a06_naive_bayes", "a10_capstone"])
def test_form_check_checks_the_form_never_the_value(name):
    a = ASSIGNMENTS[name]
    var, exercises = variant(a, "alice", SECRET)
    nb = C.notebook(a, var, exercises)
    for i, ex in enumerate(exercises, 1):
        code = _cell(nb, f"test_q{i}").source
        assert "HIDDEN" not in code and "check(" not in code
        var_name = f"answer_q{i}"
        for value in _probes(ex):  # right form, right or wrong value: passes
            assert _passes(code, value, var_name)
        with pytest.raises(AssertionError, match="is still"):
            exec(code, {var_name: ...})  # noqa: S102
        with pytest.raises(AssertionError, match="not defined"):
            exec(code, {})  # noqa: S102
        kind, _ = C.answer_kind(C.reference(ex))
        bad = [1.0, 2.0, 3.0] if kind in ("number", "array", "text", "labels") else "yes"
        assert not _passes(code, bad, var_name)


@given(st.floats(allow_nan=False) | st.integers(-10**6, 10**6) | st.text(max_size=20)
       | st.booleans() | st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1,
                                   max_size=4))
def test_literal_rebuilds_the_answer_exactly(answer):
    rebuilt = eval(C.literal(answer), {"inf": math.inf})  # noqa: S307
    if isinstance(answer, (str, bool)):
        assert rebuilt == answer and type(rebuilt) is type(answer)
    else:
        np.testing.assert_array_equal(np.asarray(rebuilt, dtype=float),
                                      np.asarray(answer, dtype=float))


def test_literal_of_labels_and_matrices():
    assert eval(C.literal(["spam", "ham"])) == ["spam", "ham"]  # noqa: S307
    m = np.array([[4.0, -0.3], [-0.3, 0.25]]) / 3
    np.testing.assert_array_equal(eval(C.literal(m)), m)  # noqa: S307


def test_setup_runs_and_builds_the_notebook_data():
    ns = setup_namespace(ASSIGNMENTS["a03_gda"])
    assert ns["X_ex"].shape == (6, 2) and ns["y_ex"].tolist() == [0, 0, 1, 1, 1, 0]
    var, _ = variant(ASSIGNMENTS["a03_gda"], "alice", SECRET)
    ns = setup_namespace(ASSIGNMENTS["a03_gda"], var.params)
    assert ns["X_ex"].tolist() == var.params["X_EX"] and ns["y_ex"].tolist() == var.params["Y_EX"]


def test_build_rejects_unknown_assignments_and_bad_students(tmp_path):
    with pytest.raises(ValueError, match="nope"):
        B.build(tmp_path, ["nope"])
    with pytest.raises(ValueError, match="student id"):
        B.build(tmp_path, ["a03_gda"], ["../x"], SECRET)
    with pytest.raises(ValueError, match="secret"):
        B.build(tmp_path, ["a03_gda"], ["alice"], None)


def test_roster_is_read_and_checked(tmp_path):
    roster = tmp_path / "students.txt"
    roster.write_text("# class of 2026\nalice\n\nbob  # late\n")
    assert B.read_roster(roster) == ["alice", "bob"]
    roster.write_text("alice\nalice\n")
    with pytest.raises(ValueError, match="twice"):
        B.read_roster(roster)
    roster.write_text("alice\nbad id\n")
    with pytest.raises(ValueError, match="student id"):
        B.read_roster(roster)


# -- reading a submission, merging it with the student's release ----------------------------------

def test_grade_needs_a_submitted_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="submitted"):
        G.grade(tmp_path, secret=SECRET)


def test_read_submission_names_each_broken_submission(tmp_path):
    folder = tmp_path / "a03_gda"
    assert G.read_submission(folder, "a03_gda") == (None, ["nothing submitted"])
    folder.mkdir()
    assert G.read_submission(folder, "a03_gda") == (None, ["empty submission folder"])
    (folder / "renamed.ipynb").write_text("{}")
    nb, problems = G.read_submission(folder, "a03_gda")
    assert nb is None and "no a03_gda.ipynb" in problems[0] and "renamed.ipynb" in problems[0]
    (folder / "a03_gda.ipynb").write_text('{"cells": [')
    nb, problems = G.read_submission(folder, "a03_gda")
    assert nb is None and "not a valid notebook" in problems[0]
    (folder / "a03_gda.ipynb").unlink()
    (folder / "a03_gda.ipynb").symlink_to(folder / "renamed.ipynb")
    nb, problems = G.read_submission(folder, "a03_gda")
    assert nb is None and "symbolic link" in problems[0]


def test_merge_puts_the_course_cells_back():
    a = ASSIGNMENTS["a03_gda"]
    release, _, _ = B.student_notebook(a, "alice", SECRET)
    nb = nbformat.reads(nbformat.writes(release), as_version=4)
    _cell(nb, "setup").source = "X_ex = 'my own data'"
    _cell(nb, "answer_q1").source = "answer_q1 = 0.5"
    nb.cells = [c for c in nb.cells if c.metadata["nbgrader"]["grade_id"] not in
                ("test_q2", "answer_q3")]
    nb.cells.insert(3, nbformat.v4.new_code_cell("print('mine')"))
    cells, problems = G.merge(nb, release)
    by_id = {gid: src for _, src, gid in cells if gid}
    assert by_id["setup"] == _cell(release, "setup").source
    assert by_id["answer_q1"] == "answer_q1 = 0.5"
    assert by_id["answer_q3"] == _cell(release, "answer_q3").source
    assert [g for _, _, g in cells if g] == [_cell(release, g).metadata["nbgrader"]["grade_id"]
                                             for g in [c.metadata["nbgrader"]["grade_id"]
                                                       for c in release.cells]]
    assert ("code", "print('mine')", None) in cells
    assert problems == ["read-only cell setup was edited (graded with the original)",
                        "cell test_q2 was deleted (put back by the grader)",
                        "cell answer_q3 was deleted (put back unanswered)"]


def test_a_working_cell_turned_into_code_is_not_run():
    a = ASSIGNMENTS["a03_gda"]
    release, _, _ = B.student_notebook(a, "alice", SECRET)
    nb = nbformat.reads(nbformat.writes(release), as_version=4)
    working = _cell(nb, "working_q4")
    nb.cells[nb.cells.index(working)] = nbformat.v4.new_code_cell(
        "import os; os._exit(1)", metadata=working.metadata)
    cells, _ = G.merge(nb, release)
    assert ("markdown", "import os; os._exit(1)", "working_q4") in cells


# -- what a run means, in words -------------------------------------------------------------------

CELLS = [("code", "setup", "setup"), ("code", "a", "answer_q1"), ("code", "b", None)]


class _Result:
    def __init__(self, events, ended="ok", exit_code=0, garbage=0, leftover=()):
        self.events, self.ended, self.exit_code = events, ended, exit_code
        self.garbage, self.leftover = garbage, list(leftover)


@pytest.mark.parametrize("events, words", [
    ([{"event": "cell", "index": 2, "status": "died", "exit": ["exit", 3]}],
     "the kernel died (os._exit or a crash) in cell 2 (answer_q1): it exited with status 3"),
    ([{"event": "cell", "index": 3, "status": "died", "exit": ["signal", 11]}],
     "the kernel died (os._exit or a crash) in cell 3: signal 11 (SIGSEGV)"),
    ([{"event": "cell", "index": 2, "status": "died", "exit": ["signal", 24]}],
     "a sandbox limit was hit (CPU time) in cell 2 (answer_q1)"),
    ([{"event": "cell", "index": 2, "status": "timeout"}],
     "cell 2 (answer_q1) exceeded the time limit (60 s)"),
    ([{"event": "cell", "index": 2, "status": "output", "limit": "output"}],
     "a sandbox limit was hit (output: more than 2 MB printed) in cell 2 (answer_q1)"),
    ([{"event": "cell", "index": 3, "status": "error", "ename": "MemoryError", "evalue": ""}],
     "a sandbox limit was hit (memory) in cell 3"),
    ([{"event": "cell", "index": 3, "status": "error", "ename": "BlockingIOError",
       "evalue": "[Errno 11] Resource temporarily unavailable"}],
     "a sandbox limit was hit (processes) in cell 3"),
    ([{"event": "cell", "index": 3, "status": "error", "ename": "OSError",
       "evalue": "[Errno 27] File too large"}], "a sandbox limit was hit (disk) in cell 3"),
    ([{"event": "cell", "index": 1, "status": "error", "ename": "NameError", "evalue": "x"}],
     "the setup cell raised NameError: x"),
    ([{"event": "cell", "index": 9, "status": "ok"}], "a cell that does not exist"),
    ([{"event": "no-answers", "status": "ok"}], "the answers could not be read"),
    ([], "the sandbox ended without a result (exit status 0)"),
])
def test_a_run_is_reported_in_words(events, words):
    _, problems = G.describe_run(_Result(events), CELLS, G.Limits())
    assert any(words in p for p in problems), problems


def test_limits_of_the_whole_run_are_reported_in_words():
    limits = G.Limits(cell_seconds=5)
    _, problems = G.describe_run(_Result([], ended="wall"), CELLS, limits)
    assert problems[0].startswith("the notebook exceeded the total time limit")
    _, problems = G.describe_run(_Result([], ended="output"), CELLS, limits)
    assert "a sandbox limit was hit (output: the sandbox wrote more than 4 MB)" in problems
    done = [{"event": "answers", "answers": {}}, {"event": "answers", "answers": {"x": 1}},
            {"event": "done"}]
    answers, problems = G.describe_run(_Result(done, garbage=2), CELLS, limits)
    assert answers == {}
    assert "the sandbox reported the answers twice (the first report was used)" in problems
    assert "the sandbox printed 2 lines that are not the runner's (ignored)" in problems


def test_report_cells_are_one_line_and_never_a_formula(tmp_path):
    o = G.Outcome("alice", "a03_gda", problems=["=HYPERLINK(\"x\")\nsecond line"])
    G.write_report(tmp_path, [o])
    text = (tmp_path / "grading_report.csv").read_text()
    assert "'=HYPERLINK" in text and "second line" in text and "\nsecond" not in text


def test_feedback_escapes_everything(tmp_path):
    a = ASSIGNMENTS["a03_gda"]
    _, exercises = variant(a, "alice", SECRET)
    o = G.Outcome("alice", "a03_gda", submitted=True,
                  problems=["cell 4 raised ValueError: <script>alert(1)</script>"],
                  feedback={"q1": "<img src=x onerror=alert(1)>"})
    page = G.write_feedback(tmp_path, o, exercises).read_text()
    assert "<script>" not in page and "<img" not in page and "&lt;script&gt;" in page


def test_grade_rejects_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="jobs"):
        G.run_all(tmp_path, secret=SECRET, jobs=0)
    with pytest.raises(TypeError, match="students"):
        G.run_all(tmp_path, secret=SECRET, students="alice")
    with pytest.raises(TypeError, match="unsafe"):
        G.Sandbox(unsafe="yes")


@settings(max_examples=30)
@given(st.lists(st.sampled_from(["alice", "bob", "a.b", "x" * 64]), max_size=3, unique=True))
def test_plan_gives_every_student_a_row(tmp_path_factory, names):
    course = tmp_path_factory.mktemp("plan")
    for n in names:
        (course / "submitted" / n / "a03_gda").mkdir(parents=True)
    (course / "submitted" / "bad id" / "a03_gda").mkdir(parents=True)
    jobs, decided, found = G.plan(course, roster=["alice", "carol"])
    rows = {(s, a) for s, a in jobs} | {(o.student_id, o.assignment) for o in decided}
    assert found == ["a03_gda"]
    assert {s for s, _ in rows} == set(names) | {"bad id", "alice", "carol"}
    why = {o.student_id: " ".join(o.problems) for o in decided}
    assert "not valid" in why["bad id"]
    assert all("not on the roster" in why[n] for n in names if n not in ("alice", "carol"))


@pytest.mark.parametrize("name", NAMES)
def test_the_self_study_transfer_check_can_fail(name):
    """A variant whose numeric answer equals the notebook's is redrawn: the check catches the
    notebook's own variant (so the test above that no answer transfers is not vacuous)."""
    from course.assignments import _self_study_transfers

    assert _self_study_transfers(ASSIGNMENTS[name], build_exercises(ASSIGNMENTS[name]))


def test_student_markup_is_inert_in_the_formgraders_notebook():
    """One fenced block, the student's text in it as it was (the renderers' test:
    tests/test_grading_safety.py)."""
    assert G._inert("<script>x</script> [a](JavaScript:alert(1)) $a<b$") == \
        "```text\n<script>x</script> [a](JavaScript:alert(1)) $a<b$\n```\n"


def test_a_release_that_prints_a_passing_number_is_caught():
    """The rule behind redrawing: a numeric answer printed in the release (here planted in
    the intro of a03_gda's release) is seen; without the plant the variant's release is clean."""
    from course.assignments import _release_gives_away

    a = ASSIGNMENTS["a03_gda"]
    var, exercises = variant(a, "alice", SECRET)
    assert not _release_gives_away(a, var, exercises)
    numeric = next(ex for ex in exercises
                   if not C.is_choice(ex) and not isinstance(C.reference(ex), str))
    r = float(np.ravel(np.asarray(C.reference(numeric), dtype=float))[0])
    planted = dataclasses.replace(a, title=f"{a.title} (see {r * (1 + numeric.rtol / 2):.6g})")
    assert _release_gives_away(planted, var, exercises)


@pytest.mark.parametrize("name", NAMES)
def test_no_release_prints_a_value_that_passes_its_own_questions(name):
    """Over 25 students (fixed secret, so reproducible): no number in a student's release text
    is within the checker's tolerance of any distinctive element of their answers. The oracle is
    the release's own text scanned independently of the rule above."""
    import json
    import re as _re

    a = ASSIGNMENTS[name]
    for k in range(25):
        student = f"s{k:03d}"
        nb, _, exercises = B.student_notebook(a, student, SECRET)
        text = json.dumps([c.source for c in nb.cells])
        numbers = np.array([float(t) for t in _re.findall(
            r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", text)])
        for ex in exercises:
            if C.is_choice(ex) or isinstance(C.reference(ex), str):
                continue
            try:
                values = np.ravel(np.asarray(C.reference(ex), dtype=float))
            except (TypeError, ValueError):
                continue
            for v in values:
                if not np.isfinite(v) or v == round(v) or len(
                        f"{abs(v):.10g}".split("e")[0].replace(".", "").strip("0")) < 3:
                    continue
                hit = np.abs(numbers - v) <= ex.atol + ex.rtol * abs(v)
                assert not hit.any(), (name, student, v, numbers[hit][:3])
