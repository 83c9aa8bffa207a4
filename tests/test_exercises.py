"""Exercises: every check is tried with a right and a wrong answer; nothing leaks the answer."""

import numpy as np
import pytest

from genviz.exercises import Exercise
from genviz.exercises import gaussian as gx
from genviz.widgets import solution_toggle
from exercise_testing import assert_right_and_wrong


def test_generic_behaviour():
    ex = Exercise("q", 0.25, hint="h", solution="s")
    assert ex.check(...).correct is None and "Not answered" in str(ex.check(...))
    assert ex.check(None).correct is None
    assert ex.check(0.2501).correct is True  # learners round
    wrong = ex.check(0.3)
    assert wrong.correct is False and "Hint: h" in str(wrong) and "0.25" not in str(wrong)
    assert "single number" in str(ex.check([0.25, 0.25]))
    assert "Expected a number" in str(ex.check("a quarter"))
    assert "0.25" in str(ex.solution())


def test_arrays_strings_bools_and_labels():
    arr = Exercise("q", [[1.0, 0.5], [0.5, 1.0]], hint="h", solution="s")
    assert arr.check(np.array([[1, 0.5], [0.5, 1]])).correct
    assert "shape (2, 2), got shape (2,)" in str(arr.check([1.0, 0.5]))
    text = Exercise("q", "Yes", hint="h", solution="s")
    assert text.check("  yes ").correct and not text.check("no").correct
    assert not text.check(1).correct
    flag = Exercise("q", True, hint="h", solution="s")
    assert flag.check(True).correct and not flag.check(False).correct and not flag.check(1.0).correct
    labels = Exercise("q", ["spam", "ham"], hint="h", solution="s")
    assert labels.check(["Spam", "ham"]).correct and not labels.check(["ham", "spam"]).correct
    assert "Expected 2 labels" in str(labels.check(["spam"]))


def test_bad_construction():
    with pytest.raises(ValueError, match="hint must be a non-empty string"):
        Exercise("q", 1.0, hint="", solution="s")
    with pytest.raises(ValueError, match="rtol and atol must be >= 0"):
        Exercise("q", 1.0, hint="h", solution="s", rtol=-1)


def test_html_feedback():
    ex = Exercise("q", 1.0, hint="h", solution="s")
    assert "&#10004;" in ex.check(1.0)._repr_html_()
    assert "&#10008;" in ex.check(2.0)._repr_html_()


def test_solution_toggle_hides_until_pressed():
    ex = Exercise("q", 0.25, hint="h", solution="worked")
    box = solution_toggle(ex)
    button, html = box.children
    assert html.value == ""
    button.value = True
    assert "worked" in html.value and "0.25" in html.value
    button.value = False
    assert html.value == ""


@pytest.mark.parametrize("make, right, wrong", [
    (lambda: gx.peak_height(1.0, 1.0, 0.0), 1 / (2 * np.pi), 1 / np.pi),
    (lambda: gx.peak_height(2.0, 0.5, 0.6), 1 / (2 * np.pi * 0.8), 1 / (2 * np.pi)),
    (lambda: gx.major_axis_angle([[1, 0.8], [0.8, 1]]), 45.0, -45.0),
    (lambda: gx.major_axis_angle([[3, 0.8], [0.8, 1]]), 19.33, 38.7),
    (lambda: gx.mass_inside(1), 0.3935, 0.6827),
])
def test_gaussian_exercises(make, right, wrong):
    assert_right_and_wrong(make(), right, wrong)
