"""The predictions and conceptual items of notebooks 01-04 (genviz.exercises.joint/gaussian/gda),
and their number items through the answer box: each right option or reference value is checked
against an independent oracle — the explorer's own state (what the learner will read), scipy, or
a closed form — and the wrong options' reasons never name the right option."""

import html

import numpy as np
import pytest
from scipy.stats import multivariate_normal

from genviz.datasets import auto_mpg
from genviz.exercises import Choice, Prediction
from genviz.exercises import gaussian as gx
from genviz.exercises import gda as gdx
from genviz.exercises import joint as jx
from genviz.plots.gaussian import GaussianView
from genviz.plots.gda import GDAFitView
from genviz.plots.gda_vs_logistic import GDAvsLogisticView
from genviz.plots.joint import DimensionalityView
from genviz.studies.gda_vs_logistic_curves import LearningCurves

CARS = auto_mpg()


def right(item) -> str:
    """The right option's text (the options are shown in an order drawn from the item's id)."""
    return item.options[item.correct[0]]


def _reasons_hide_the_answer(item):
    for i, reason in enumerate(item.reasons):
        if reason and i not in item.correct:
            for j in item.correct:
                assert item.options[j].lower() not in reason.lower(), (reason, item.options[j])


def test_peak_prediction_matches_the_explorer_readout():
    p = gx.predict_peak_with_rho(0.5, 0.9)
    assert isinstance(p, Prediction) and p.kind == "prediction" and p.id == "02-peak-with-rho"
    view = GaussianView(0, 0, 1, 1, 0.5)
    before = view.state["peak"]
    view.update(rho=0.9)
    after = view.state["peak"]
    assert after > before and "taller" in right(p)
    # the observation: what the readout shows at rho = 0.9, read from the view's own state
    assert p.observation.setting == {"sigma1": 1.0, "sigma2": 1.0, "rho": 0.9}
    assert p.observation.reference(view.state) == after
    assert np.isclose(p.observation.reference(), after)
    assert p.observation.check_reading(f"{after:.4f}", state=view.state,
                                       values={"sigma1": 1.0, "sigma2": 1.0, "rho": 0.9})
    # the oracle: scipy's density at the mean
    assert np.isclose(after, multivariate_normal([0, 0], [[1, 0.9], [0.9, 1]]).pdf([0, 0]))
    assert right(gx.predict_peak_with_rho(0.9, 0.5)) == "it stays at μ and gets lower"
    assert right(gx.predict_peak_with_rho(0.5, -0.5)) == "it stays at μ with the same height"
    _reasons_hide_the_answer(p)


def test_valid_covariance_follows_the_eigenvalues():
    bad = gx.valid_covariance([[1, 2], [2, 1]])
    assert isinstance(bad, Choice) and right(bad).startswith("no: it is not positive definite")
    assert np.linalg.eigvalsh([[1, 2], [2, 1]]).min() < 0  # eigenvalues 3 and -1
    good = gx.valid_covariance([[4, 1.5], [1.5, 1]])
    assert right(good).startswith("yes") and np.all(np.linalg.eigvalsh([[4, 1.5], [1.5, 1]]) > 0)
    wrong = next(o for o in bad.options if o.startswith("yes"))
    assert "Not quite" in str(bad.check(wrong)) and "Hint" in str(bad.check(wrong))


def test_empty_share_prediction_matches_the_explorer():
    p = jx.predict_empty_share(CARS.records, CARS.record_names, d=4)
    full = DimensionalityView(CARS.records, CARS.record_names, d=4)
    empty = full.state["empty_at_d"]
    assert full.state["cells_at_d"] == 90 and empty > 0.4 and right(p) == "more than 40 %"
    # independent count: distinct (mpg, year, maker, cylinders) combinations among the records
    distinct = len({tuple(r) for r in CARS.records[:, :4].tolist()})
    assert np.isclose(1 - distinct / 90, empty)
    assert np.isclose(p.observation.reference(full.state), 100 * empty)
    assert np.isclose(p.observation._answer, 100 * empty)
    assert p.observation.check_reading(f"{100 * empty:.1f} %", state=full.state,
                                       values={"d": 4, "n": 392}).correct
    # the options' bands: records thrown at random into 90 cells would leave about 1 % empty
    assert (1 - 1 / 90) ** 392 < 0.1
    _reasons_hide_the_answer(p)


def test_independence_concept_counter_example():
    q = jx.independence_concept()
    assert right(q).startswith("not necessarily") and q.kind == "concept"
    assert "0.160" in q.explanation  # P(A=1,B=1) - P(A=1)P(B=1) = 0.41 - 0.25 = 0.16
    _reasons_hide_the_answer(q)


START = dict(mu0=(-1.0, -0.5), mu1=(1.5, 1.0), sigma1=1.0, sigma2=0.8, rho=0.4)


@pytest.mark.parametrize("phi_to, towards", [(0.2, "towards μ₁"), (0.8, "towards μ₀")])
def test_boundary_prediction_matches_the_true_boundary(phi_to, towards):
    p = gdx.predict_boundary_with_phi(0.5, phi_to, **START)
    assert right(p).startswith(towards)
    # oracle: the log-odds at the half-way point falls (boundary moves towards mu1) when phi falls
    view = GDAFitView(phi=phi_to)
    mid = (np.array(START["mu0"]) + START["mu1"]) / 2
    score = view.state["theta_true"] @ mid + view.state["theta0_true"]
    assert (score < 0) == (towards == "towards μ₁")
    # the observation: the true theta0 the readout shows at phi_to
    assert np.isclose(p.observation.reference(view.state), view.state["theta0_true"])
    assert np.isclose(p.observation._answer, view.state["theta0_true"])
    assert p.observation.setting["phi"] == phi_to


def test_duplicated_data_changes_nothing():
    X = np.array([[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]], dtype=float)
    y = np.array([0, 0, 1, 1, 1, 0])
    q = gdx.duplicated_data_concept(X, y)
    assert right(q) == "none of them"
    assert q.check("only Σ (it divides by n, and n doubles)").correct is False
    _reasons_hide_the_answer(q)


def test_outliers_prediction_matches_the_explorer():
    p = gdx.predict_outliers()
    clean, dirty = GDAvsLogisticView(), GDAvsLogisticView(family="outliers")
    grow = {k: dirty.state["errors"][k] - clean.state["errors"][k] for k in ("gda", "lr")}
    assert right(p) == ("GDA's" if grow["gda"] > grow["lr"] + 0.01 else
                        "logistic regression's" if grow["lr"] > grow["gda"] + 0.01 else
                        "about the same: both learners see the same outliers")
    gap = dirty.state["errors"]["gda"] - dirty.state["errors"]["lr"]
    assert np.isclose(p.observation.reference(dirty.state), gap)
    assert np.isclose(p.observation._answer, gap)
    # the explanation never states the outcome's numbers
    assert f"{clean.state['errors']['gda']:.4f}" not in p.explanation
    assert f"{gap:.4f}" not in p.explanation


def test_poisson_bias_concept_reads_the_curves():
    sizes = np.array([10, 1000])
    stuck = LearningCurves(sizes, np.array([[.07, .0435], [.068, .0434]] * 10),
                           np.array([[.065, .033], [.064, .0331]] * 10), 0.0328, 20)
    gone = LearningCurves(sizes, np.array([[.07, .0328], [.068, .0328]] * 10),
                          np.array([[.065, .033], [.064, .0331]] * 10), 0.0328, 20)
    assert right(gdx.poisson_bias_concept(stuck)).startswith("no: its Gaussian model is wrong")
    assert right(gdx.poisson_bias_concept(gone)).startswith("yes: every estimate converges")
    assert len(gdx.poisson_bias_concept(stuck).options) >= 3


@pytest.mark.parametrize("make", [
    lambda: gx.valid_covariance(), lambda: jx.independence_concept(),
    lambda: gdx.duplicated_data_concept(np.array([[0, 1], [1, 0], [2, 2], [4, 3.0]]),
                                        np.array([0, 0, 1, 1]))])
def test_every_item_renders_statically_with_the_answer_folded(make):
    from genviz.widgets.exercises import choice_box
    item = make()
    page = choice_box(item)._repr_mimebundle_()["text/html"]
    before, _, folded = page.partition("<details>")
    assert item.explanation[:40] not in before
    assert folded.startswith("<summary>Answer</summary>") and "<details open" not in page
    assert f"<b>{html.escape(item.answer_text())}.</b>" in folded and "<b>(" not in before


@pytest.mark.parametrize("make", [
    lambda: gx.predict_peak_with_rho(), lambda: gdx.predict_outliers(),
    lambda: gdx.predict_boundary_with_phi(0.5, 0.8, **START),
    lambda: jx.predict_empty_share(CARS.records, CARS.record_names)])
def test_every_prediction_renders_statically_question_then_observation_then_folded(make):
    from genviz.widgets.exercises import observation_box, prediction_box
    item = make()
    question = prediction_box(item, lecture=False)._repr_mimebundle_()["text/html"]
    assert item.explanation[:40] not in question and "<details" not in question
    page = observation_box(item)._repr_mimebundle_()["text/html"]
    before, _, folded = page.partition("<details>")
    assert item.observation.prompt[:30] in before and item.explanation[:40] not in before
    assert folded.startswith("<summary>What happens, and why</summary>")
    assert html.escape(item.options[item.correct[0]]) in folded


@pytest.mark.parametrize("make", [
    lambda: gx.mass_inside(1.5),
    lambda: gx.major_axis_angle([[2, -0.6], [-0.6, 1]]),
    lambda: gdx.boundary_point([[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]],
                               [0, 0, 1, 1, 1, 0], 3.0)])
def test_number_items_through_the_answer_box(make):
    """As a learner uses them: the solution's answer typed in is right; a wrong one gets the
    hint and not the answer; the solution stays folded until asked."""
    from genviz.widgets.exercises import answer_box
    ex = make()
    box = answer_box(ex)
    box.text.value = ex.solution().answer
    assert box.last.correct is True
    box.text.value = str(float(ex.solution().answer) * 1.3 + 0.1)
    assert box.last.correct is False and "Hint:" in box.feedback.value
    assert ex.solution().answer not in box.feedback.value
    toggle, shown = box.solution.children
    assert shown.value == ""
