"""Exercises through the answer widget, as a learner uses them (no code edited):
type into the box, press Check, read the feedback. Every exercise of every notebook is tried
right and wrong; the feedback never contains the answer; solutions are typeset maths and print
numbers as numbers (no numpy reprs).
"""

import math
import re

import numpy as np
import pytest

from genviz import datasets
from genviz.exercises import Exercise, format_number, parse_answer
from genviz.exercises import gaussian as gx
from genviz.exercises import gda as gdx
from genviz.exercises import joint as jx
from genviz.exercises import kde as kx
from genviz.exercises import knn as knx
from genviz.exercises import naive_bayes as nbx
from genviz.exercises import spam as sx
from genviz.joint import JointTable
from genviz.naive_bayes import MultinomialNB
from genviz.studies.gda_vs_logistic_curves import LearningCurves
from genviz.text import bag_of_words, build_vocabulary
from genviz.widgets.exercises import AnswerBox, answer_box


def _alarm():
    return JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                       "Earthquake": ["earthquake", "no earthquake"]},
                      [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])


def _every_exercise():
    alarm = _alarm()
    X_ex = np.array([[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]], dtype=float)
    y_ex = np.array([0, 0, 1, 1, 1, 0])
    lc = LearningCurves(np.array([10, 100]), np.array([[.2, .1], [.22, .12]]),
                        np.array([[.21, .09], [.23, .1]]), 0.05, 100)
    five = np.array([-1.0, -0.2, 0.1, 0.3, 1.4])
    t, tennis = datasets.enjoy_sport(), datasets.play_tennis()
    docs, labels = ["free money now", "free offer", "meeting today", "lunch meeting"], \
        np.array(["spam", "spam", "ham", "ham"])
    vocab = build_vocabulary(docs)
    X_docs = bag_of_words(docs, vocab)
    multi = MultinomialNB().fit(X_docs, labels)
    X_small = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 2.0]])
    y_small = np.array(["red", "blue", "blue", "red", "red"])
    rng = np.random.default_rng(0)
    x_r = rng.uniform(0, 10, 50)
    y_r = np.sin(x_r)
    return {
        "joint.bayes": jx.posterior_by_bayes(alarm, {"Earthquake": "earthquake"},
                                             {"Alarm": "alarm"}),
        "joint.params": jx.parameter_count({"mpg": 2, "modelyear": 3, "maker": 3,
                                            "cylinders": 5}),
        "joint.loglik": jx.dataset_log_likelihood(
            alarm, np.array([["alarm", "theft", "earthquake"],
                             ["no alarm", "no theft", "no earthquake"]])),
        "gaussian.peak": gx.peak_height(2.0, 0.5, -0.3),
        "gaussian.angle": gx.major_axis_angle([[3, 0.8], [0.8, 1]]),
        "gaussian.mass": gx.mass_inside(2),
        "gda.sigma": gdx.sigma_by_hand(X_ex, y_ex),
        "gda.boundary": gdx.boundary_point(X_ex, y_ex, 3.0),
        "gda.theta": gdx.theta_from_params(0.5, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]]),
        "gda.theta0": gdx.theta0_from_params(0.25, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]]),
        "gda.poisson": gdx.poisson_theta([2.43, 4.0], [10.9, 6.6]),
        "gda.better": gdx.better_learner(lc, 100),
        "kde.by_hand": kx.kde_by_hand(five, 0.0, 1.0, "box"),
        "kde.histogram": kx.histogram_height(five, 1.0, 0.0, 0.2),
        "kde.cv": kx.cv_selected_bandwidth(np.r_[five, five + 0.05, five * 2],
                                           np.geomspace(0.01, 1, 30), "lscv"),
        "nb.counting": nbx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast",
                                                   "same", "yes"),
        "nb.laplace": nbx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast",
                                                  "same", "yes", alpha=1),
        "nb.posterior": nbx.posterior_of_query(tennis.X, tennis.y, tennis.feature_names,
                                               ["Rain", "Mild", "High", "Weak"], "Yes"),
        "nb.decision": nbx.decision_of_query(tennis.X, tennis.y, tennis.feature_names,
                                             ["Overcast", "Hot", "High", "Weak"]),
        "nb.bin": nbx.living_area_bin(1250),
        "nb.gaussian": nbx.gaussian_nb_parameters(np.array([1.0, 2.0, 4.0, 10.0, 11.0]),
                                                  np.array(["a", "a", "a", "b", "b"]), "a"),
        "spam.phi": sx.laplace_phi(X_docs, labels, vocab, word="free", label="spam"),
        "spam.offset": sx.smola_offset(labels[:3], c=100.0),
        "spam.log_odds": sx.email_log_odds(multi, vocab, "free meeting"),
        "spam.flagged": sx.flagged_ham(multi, X_docs, labels, log10_c=0.0),
        "knn.vote": knx.majority_vote(X_small, y_small, [0.4, 0.5], k=3),
        "knn.regression": knx.knn_regression_value(x_r, y_r, 5.0, k=7),
        "knn.cost": knx.distance_computations(1400, 397, 64, 16),
    }


EXERCISES = _every_exercise()


def wrong_text(ex):
    """A plausible wrong answer, typed as a learner would."""
    answer = ex._answer
    if isinstance(answer, str):
        return "zzz"
    if isinstance(answer, (list, tuple)) and answer and isinstance(answer[0], str):
        return ", ".join(reversed(answer)) if len(set(answer)) > 1 else "zzz"
    arr = np.asarray(answer, dtype=float)
    bad = np.where(np.isfinite(arr), arr * 1.5 + 1.0, 0.0)
    if arr.ndim == 0:
        return format_number(bad)
    return repr(bad.tolist())


@pytest.mark.parametrize("name", EXERCISES)
def test_right_and_wrong_through_the_widget(name):
    ex = EXERCISES[name]
    box = answer_box(ex)
    assert isinstance(box, AnswerBox)
    assert box.text.placeholder == ex.answer_format
    # nothing typed
    box.button.click()
    assert box.last.correct is None and "type your answer in the box" in box.feedback.value
    # the right answer, typed the way the solution prints it
    right = ex.solution().answer
    assert "np." not in right and "array(" not in right and "float64" not in right
    box.text.value = right          # committing the text checks it ...
    assert box.last.correct is True, (name, right, box.feedback.value)
    box.button.click()              # ... and so does the button
    assert box.last.correct is True and "Correct" in box.feedback.value
    # a wrong answer: a hint, never the answer
    box.text.value = wrong_text(ex)
    box.button.click()
    assert box.last.correct is False, (name, box.text.value)
    assert "Hint:" in box.feedback.value
    message = str(box.last)
    if not isinstance(ex._answer, str) and len(right) > 1:
        assert not re.search(rf"(?<![\d.]){re.escape(right)}(?![\d])", message), message
    # the solution stays hidden until asked, then shows typeset maths
    toggle, html = box.solution.children
    assert html.value == ""
    toggle.value = True
    assert html.value and ("$" in html.value or "<b>" in html.value)
    assert right.split(",")[0].strip("[") in html.value or ex._answer in (True, False)
    toggle.value = False
    assert html.value == ""


@pytest.mark.parametrize("name", EXERCISES)
def test_solutions_are_maths_and_print_numbers_as_numbers(name):
    sol = EXERCISES[name].solution()
    md = sol._repr_markdown_()
    assert "**Answer:**" in md
    for bad in ("np.float64", "array(", "dtype", "\n [", "e+0"):
        assert bad not in md, (name, bad, md)
    if not isinstance(EXERCISES[name]._answer, str):
        assert sol.latex.startswith("$") or sol.latex in ("yes", "no") \
            or isinstance(EXERCISES[name]._answer, (list, tuple))


def test_prompts_and_messages_never_ask_to_edit_code():
    for ex in EXERCISES.values():
        assert "replace" not in ex.prompt.lower() and "run the cell" not in ex.prompt.lower()
    ex = Exercise("q", 1.0, hint="h", solution="s")
    assert "run the cell" not in str(ex.check(...))


@pytest.mark.parametrize("text, like, value", [
    ("0.25", 0.0, 0.25), ("3/4", 0.0, 0.75), (" -log(0.5) ", 0.0, math.log(2)),
    ("2^10", 0.0, 1024.0), ("1e-3", 0.0, 0.001), ("-inf", 0.0, -math.inf),
    ("−1.5", 0.0, -1.5), ("sqrt(2)/2", 0.0, math.sqrt(2) / 2),
    ("[1, 2.5]", [0, 0], [1.0, 2.5]), ("1, 2.5", [0, 0], [1.0, 2.5]), ("1 2.5", [0, 0], [1.0, 2.5]),
    ("(1, 2)", [0, 0], [1.0, 2.0]),
    ("[[1, 0.5], [0.5, 1]]", [[0, 0], [0, 0]], [[1.0, 0.5], [0.5, 1.0]]),
    ("1, 0.5; 0.5, 1", [[0, 0], [0, 0]], [[1.0, 0.5], [0.5, 1.0]]),
    ("yes", True, True), ("False", True, False), (" 'Yes' ", "No", "Yes"),
    ("spam, ham", ["a", "b"], ["spam", "ham"]),
])
def test_parse_answer(text, like, value):
    got = parse_answer(text, like)
    if isinstance(value, float) and math.isinf(value):
        assert got == value
    elif isinstance(value, (str, bool)) or (isinstance(value, list) and isinstance(value[0], str)):
        assert got == value
    else:
        np.testing.assert_allclose(got, value)


@pytest.mark.parametrize("text, like", [
    ("__import__('os')", 0.0), ("open('x')", 0.0), ("a quarter", 0.0), ("1 +", 0.0),
    ("[1, 2]", 0.0), ("maybe", True), ("lambda: 1", 0.0), ("(1).real", 0.0),
])
def test_parse_answer_refuses_what_it_cannot_read(text, like):
    with pytest.raises(ValueError) as err:
        parse_answer(text, like)
    assert "type" in str(err.value)


def test_unreadable_text_gets_a_message_not_an_exception():
    ex = Exercise("q", 0.25, hint="h", solution="s")
    fb = ex.check_text("a quarter")
    assert fb.correct is False and "Could not read 'a quarter' as a number" in str(fb)
    assert "0.25" not in str(fb)
    assert ex.check_text("  ").correct is None
    vec = Exercise("q", [1.0, 2.0], hint="h", solution="s")
    assert "vector of 2 numbers" in vec.answer_format
    assert "shape (2,), got shape (3,)" in str(vec.check_text("1, 2, 3"))


def test_format_number():
    assert format_number(np.float64(0.25)) == "0.25"
    assert format_number(np.int64(3)) == "3"
    assert format_number(-np.inf) == "-inf"
    assert format_number(1.23456789e-5) == "1.23457e-05"
    assert re.fullmatch(r"\$-?[\d.]+ \\times 10\^\{-5\}\$",
                        Exercise("q", 1.5e-5, hint="h", solution="s").solution().latex)
