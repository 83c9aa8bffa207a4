"""The learning-curve view and explorer of notebook 10 (genviz.plots.learning_curves,
genviz.widgets.learning_curves). Oracle: the curves' own arrays (means and standard errors over
repetitions computed here with numpy, the leader from the paired differences) and what the
figure draws."""

from __future__ import annotations

import numpy as np
import pytest

from explorer_testing import make_explorer, sweep_explorer
from genviz.nb_vs_logistic import NBvsLogisticCurves
from genviz.plots.learning_curves import LearningCurveView
from genviz.widgets.learning_curves import learning_curve_explorer, learning_curve_readout


def _curves():
    sizes = np.array([10, 100, 1000])
    nb = np.array([[0.20, 0.10, 0.08], [0.24, 0.11, 0.08], [0.22, 0.12, 0.08]])
    lr = np.array([[0.30, 0.11, 0.05], [0.32, 0.10, 0.05], [0.31, 0.12, 0.05]])
    return NBvsLogisticCurves(sizes, nb, lr, 50, 400)


def test_the_state_is_the_curves_at_the_marked_size():
    c = _curves()
    view = LearningCurveView(c, 10)
    s = view.state
    assert s["n"] == 10 and s["sizes"] == [10, 100, 1000]
    assert s["gen_error"] == pytest.approx(0.22) and s["lr_error"] == pytest.approx(0.31)
    assert s["gen_se"] == pytest.approx(np.std([0.20, 0.24, 0.22], ddof=1) / np.sqrt(3))
    assert s["gap"] == pytest.approx(-0.09) and s["leader"] == "nb"
    view.update(n=100)
    assert view.state["leader"] == "tie" and view.state["gap"] == pytest.approx(0.0)
    view.update(n=1000)
    assert view.state["leader"] == "lr" and view.state["lr_se"] == pytest.approx(0.0, abs=1e-12)
    # what is drawn: the marker's x and both errors at n
    x, y = view._dots.get_data()
    assert list(x) == [1000, 1000] and np.allclose(y, [0.08, 0.05])
    assert LearningCurveView(c).state["n"] == 1000  # default: the largest size


def test_the_readout_says_who_is_ahead():
    view = LearningCurveView(_curves(), 10)
    text = learning_curve_readout(view.state)
    assert "n = 10" in text and "0.2200" in text and "0.3100" in text
    assert "naive Bayes ahead (by more than 2 s.e.)" in text and "-0.0900" in text


@pytest.mark.parametrize("n", [11, 10.0, "10", True])
def test_a_size_not_on_the_curves_is_refused(n):
    view = LearningCurveView(_curves(), 10)
    with pytest.raises(ValueError, match="n must be one of the curves' sizes"):
        view.update(n=n)


def test_bad_curves_are_refused():
    with pytest.raises(TypeError, match="curves must be NBvsLogisticCurves"):
        LearningCurveView({"sizes": [1, 2]})


def test_the_explorer_sweeps_every_size_and_its_slider_lists_them():
    explorer = learning_curve_explorer(_curves(), 100)
    assert list(explorer.controls["n"].options) == [10, 100, 1000]
    assert sweep_explorer(explorer) == 3
    explorer.controls["n"].value = 1000
    assert "logistic regression ahead" in explorer.readout.value


def test_the_registry_builds_it_as_notebook_10_does():
    explorer = make_explorer("learning_curve_explorer")
    assert explorer.view.state["n"] == explorer.view.sizes[-1]
    assert sweep_explorer(explorer) == len(explorer.view.sizes)
