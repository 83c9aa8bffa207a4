"""The practice builders of issue #30 (investigations, derivations, open questions, retrieval
items; genviz.exercises.*): each right option or reference value against an independent oracle —
scipy, scikit-learn, a closed form, or the explorer's own state (what the learner reads) — and
each item's kind and objective."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import linprog
from scipy.special import logsumexp
from scipy.stats import multivariate_normal, norm

from genviz import datasets
from genviz.exercises import gaussian as gx
from genviz.exercises import gda as gdx
from genviz.exercises import joint as jx
from genviz.exercises import kde as kx
from genviz.exercises import knn as nnx
from genviz.exercises import naive_bayes as nbx
from genviz.exercises import nb_vs_logistic as cx
from genviz.exercises import nb_vs_logistic_practice as cvx
from genviz.exercises import spam as sx
from genviz.exercises.gda_practice import EXPLORER_START, FIT_EXPLORER_PHIS, VS_EXPLORER_RHOS
from genviz.exercises.kde_practice import EXPLORER_LOG_HS
from genviz.exercises.naive_bayes_practice import QUERY_ALPHAS
from genviz.exercises.observation import Observation
from genviz.nb_vs_logistic import NBvsLogisticCurves
from genviz.widgets.joint import dimensionality_explorer

CARS = datasets.auto_mpg()
TENNIS = datasets.play_tennis()


def right(item):
    return item.options[item.correct[0]]


def _is_open(q, objective, good, poor):
    """An open question: its kind, objective and claims, and its key points on two answers."""
    assert q.kind == "open" and q.objective == objective
    from genviz.exercises import matching_claims
    assert q.claims and all(matching_claims([c], q.model_answer) for c in q.claims)
    assert len(q.mentioned(good)) == len(q.key_points), q.mentioned(good)
    assert len(q.mentioned(poor)) < len(q.key_points)


# -- notebook 01 ---------------------------------------------------------------------------------

def test_fewest_records_to_fill_counts_distinct_combinations():
    ex = jx.fewest_records_to_fill(CARS.records, CARS.record_names, 4, 25)
    order = np.random.default_rng(0).permutation(len(CARS.records))

    def filled(n):  # independent: distinct 4-tuples among the explorer's first n records
        return len({tuple(r) for r in CARS.records[order[:n], :4].tolist()})
    n = ex._answer  # the fewest on the explorer's slider (10 ... 392, about 10 % a step)
    positions = dimensionality_explorer(CARS.records, CARS.record_names).controls["n"].options
    below = positions[positions.index(n) - 1]
    assert ex.kind == "investigation" and ex.objective == "01.4"
    assert filled(n) >= 25 > filled(below)
    assert f"the slider's position below, {below} records, fills {filled(below)}" in ex._solution
    with pytest.raises(ValueError, match="ask for fewer"):
        jx.fewest_records_to_fill(CARS.records, CARS.record_names, 4, 91)


def test_the_training_log_likelihood_is_a_sum_over_cells():
    train = CARS.records[np.random.default_rng(4).permutation(392)[:196], :3]
    q = jx.training_log_likelihood_derivation(train, CARS.record_names[:3])
    counts = Counter(tuple(r) for r in train.tolist())
    by_hand = sum(math.log(counts[tuple(r)] / len(train)) for r in train.tolist())
    assert by_hand == pytest.approx(sum(c * math.log(c / len(train)) for c in counts.values()))
    from genviz.exercises.derivation import read_formula
    c = np.array(list(counts.values()), dtype=float)
    cell = read_formula(q.steps[0].key, q.symbols)({"c": c, "N": float(len(train))})
    assert cell.sum() == pytest.approx(by_hand)
    assert q.check(["c log(c) - c log(N)", "c/N*(log c - log N)"]).correct
    assert not q.check_step(0, "log(c/N)").correct
    assert q.kind == "derivation" and q.objective == "01.3"


def test_the_clinic_question():
    _is_open(jx.clinic_joint_table(), "01.4",
             "No: 8192 cells for 500 patients, most never seen so 0/0; use naive Bayes instead.",
             "It works fine.")
    assert "8192" in jx.clinic_joint_table().model_answer and 2 ** 13 == 8192


# -- notebook 02 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("ratio", [1.5, 2.0, 3.0])
def test_rho_for_peak_ratio_is_the_first_slider_step_past_the_closed_form(ratio):
    ex = gx.rho_for_peak_ratio(ratio)
    exact = math.sqrt(1 - 1 / ratio**2)  # peak ∝ 1/sqrt(1 - rho^2)
    grid = np.round(np.arange(0, 0.951, 0.05), 2)
    assert ex._answer == grid[grid >= exact - 1e-12][0]
    peak = multivariate_normal([0, 0], [[1, ex._answer], [ex._answer, 1]]).pdf([0, 0])
    assert peak >= ratio * multivariate_normal([0, 0], np.eye(2)).pdf([0, 0])
    assert ex.kind == "investigation" and ex.objective == "02.5"


def test_the_peak_derivation_s_steps_are_scipys_determinant_and_density_at_the_mean():
    q = gx.peak_formula_derivation()
    assert q.kind == "derivation" and q.objective == "02.2" and len(q.steps) == 2
    # the oracle: scipy's density at the mean and numpy's determinant, typed as a learner would
    for s1, s2, r in [(1.3, 0.7, -0.6), (0.8, 1.9, 0.85), (1.0, 1.0, 0.0)]:
        cov = [[s1**2, r * s1 * s2], [r * s1 * s2, s2**2]]
        det = np.linalg.det(cov)
        peak = multivariate_normal([0, 0], cov).pdf([0, 0])
        assert det == pytest.approx(s1**2 * s2**2 * (1 - r**2))
        assert peak == pytest.approx(1 / (2 * np.pi * np.sqrt(det)))
    assert q.check_step(0, "σ₁²σ₂² − (ρσ₁σ₂)²").correct
    assert q.check_step(1, "(2 π s1 s2)^-1 / sqrt(1 - rho^2)").correct
    assert q.check(["s1^2 s2^2 (1 - rho^2)", "1/(2pi sqrt(s1^2 s2^2 (1-rho^2)))"]).correct
    slip = q.check_step(1, "1/(2*pi*s1*s2*(1 - rho**2))")
    assert slip.correct is False and "square root" in slip.message
    assert q.check_step(1, "1/(2*pi*s1*s2)").correct is False


def test_a_change_of_units_keeps_rho_and_turns_the_ellipses():
    S = np.array([[0.01, 0.5 * 0.1 * 10], [0.5 * 0.1 * 10, 100.0]])  # metres, kilograms
    D = np.diag([100.0, 1.0])
    T = D @ S @ D  # centimetres
    rho = lambda M: M[0, 1] / np.sqrt(M[0, 0] * M[1, 1])  # noqa: E731
    angle = lambda M: np.degrees(np.arctan2(*np.linalg.eigh(M)[1][::-1, -1]))  # noqa: E731
    assert rho(T) == pytest.approx(rho(S)) and abs(angle(T) - angle(S)) > 10
    assert np.linalg.det(T) == pytest.approx(1e4 * np.linalg.det(S))
    _is_open(gx.change_of_units(), "02.3",
             "rho is unchanged, the covariance scales by 100 and variance by 10 000, the axis "
             "direction changes and the peak falls by 100",
             "everything gets bigger")


@pytest.mark.parametrize("rho, independent", [(0.0, True), (0.5, False)])
def test_independence_of_the_coordinates_as_scipy_sees_it(rho, independent):
    q = gx.uncorrelated_gaussian_independence(rho)
    x = np.array([[0.3, -1.2], [1.0, 0.4]])
    joint = multivariate_normal([0, 0], [[1, rho], [rho, 1]]).pdf(x)
    assert np.allclose(joint, norm.pdf(x[:, 0]) * norm.pdf(x[:, 1])) is independent
    assert right(q).startswith("yes") is independent and q.objective == "01.2"


# -- notebook 03 ---------------------------------------------------------------------------------

def test_the_qda_quadratic_term_from_scipys_log_densities():
    S0, S1 = np.array([[1, 0.5], [0.5, 0.6]]), np.array([[2, -0.5], [-0.5, 1]])
    q = gdx.qda_quadratic_term(S0, S1)
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    f = multivariate_normal([1.5, 1.0], S1).logpdf(X) - multivariate_normal([0, 0], S0).logpdf(X)
    # least squares fit of x'Ax + b'x + c: the quadratic coefficients
    design = np.column_stack([X[:, 0]**2, 2 * X[:, 0] * X[:, 1], X[:, 1]**2, X, np.ones(30)])
    a11, a12, a22 = np.linalg.lstsq(design, f, rcond=None)[0][:3]
    A = np.array([[a11, a12], [a12, a22]])
    assert np.allclose(A, (np.linalg.inv(S0) - np.linalg.inv(S1)) / 2)
    assert q.kind == "derivation" and q.objective == "03.4"
    # one feature: scipy's 1-D log-densities fitted by a quadratic are the two keys
    from genviz.exercises.derivation import read_formula
    x = np.linspace(-2, 2, 9)
    f1 = norm.logpdf(x, 0.4, 1.7) - norm.logpdf(x, -0.3, 0.8)
    a, b, _ = np.polyfit(x, f1, 2)
    env = {"s0": 0.8, "s1": 1.7, "m0": -0.3, "m1": 0.4}
    assert [float(read_formula(st.key, q.symbols)(env)) for st in q.steps] == \
        pytest.approx([a, b])
    assert not q.check_step(0, "1/(2 s1^2) - 1/(2 s0^2)").correct


def test_phi_for_the_boundary_through_the_origin_is_where_the_readout_s_theta0_is_smallest():
    from genviz.plots.gda import GDAFitView
    ex = gdx.phi_for_boundary_through_origin((-1.0, -0.5), (1.5, 1.0), 1.0, 0.8, 0.4)
    readout = {p: abs(GDAFitView(phi=float(p)).state["theta0_true"]) for p in FIT_EXPLORER_PHIS}
    assert ex._answer == min(readout, key=readout.get) and ex.objective == "03.3"
    S = np.array([[1.0, 0.32], [0.32, 0.64]])
    m0, m1 = np.array([-1.0, -0.5]), np.array([1.5, 1.0])
    c = 0.5 * m0 @ np.linalg.solve(S, m0) - 0.5 * m1 @ np.linalg.solve(S, m1)
    assert abs(ex._answer - 1 / (1 + np.exp(c))) <= 0.025  # closed form, to the slider's step


def test_the_zoo_question_and_the_shared_peak():
    _is_open(gdx.zoo_new_species(), "03.1",
             "Only the generative model: it has p(x), which is tiny for the giraffe, while "
             "logistic regression only gives p(y|x) and is confident",
             "both can")
    X = np.array([[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]], dtype=float)
    y = np.array([0, 0, 1, 1, 1, 0])
    mu = [X[y == k].mean(axis=0) for k in (0, 1)]
    R = X - np.array([mu[k] for k in y])
    S = R.T @ R / len(y)
    assert multivariate_normal(mu[0], S).pdf(mu[0]) == pytest.approx(
        multivariate_normal(mu[1], S).pdf(mu[1]))
    q = gdx.shared_sigma_same_peak(X, y)
    assert right(q).startswith("the same") and q.objective == "02.2"


# -- notebook 04 ---------------------------------------------------------------------------------

def test_newtons_hessian_by_second_differences_of_the_loss():
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 1.0]])
    y = np.array([0, 1, 0, 1])
    q = gdx.newton_hessian_derivation(X, y)
    Xa = np.column_stack([np.ones(4), X])

    def J(w):
        z = Xa @ w
        return np.sum(np.logaddexp(0, z) - y * z)
    e, H = 1e-4, np.empty((3, 3))
    for i, j in itertools.product(range(3), repeat=2):
        E = np.eye(3) * e
        H[i, j] = (J(E[i] + E[j]) - J(E[i] - E[j]) - J(-E[i] + E[j]) + J(-E[i] - E[j])) / (4 * e * e)
    assert np.allclose(H, (Xa.T * 0.25) @ Xa, atol=1e-5)  # p = 1/2 at w = 0
    assert q.kind == "derivation" and q.objective == "04.1"
    # the learner's per-example entry, summed over the examples, is the loss's Hessian at 0
    from genviz.exercises.derivation import read_formula
    entry = read_formula(q.steps[1].key, q.symbols)
    summed = entry({"p": 0.5, "y": y, "xj": Xa.T[:, None, :], "xk": Xa.T[None, :, :]}).sum(-1)
    assert np.allclose(summed, H, atol=1e-5)


def test_newtons_hessian_refuses_a_slip_and_a_bad_point():
    """A slip that equals the Hessian at one point (diag((p - y)^2) at w = 0, p = 1/2, labels
    0/1) is told apart: the formulas are compared over the symbols' ranges, not at one point."""
    X = np.array([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 1.0]])
    y = np.array([0, 1, 0, 1])
    q = gdx.newton_hessian_derivation(X, y, at=np.zeros(3))
    slip = q.check_step(1, "(p - y)^2 xj xk")
    assert slip.correct is False and "constant" in slip.message
    assert q.check(["σ(1-σ)".replace("σ", "p"), "xk xj p - p^2 xj xk"]).correct
    for bad in ([0.1, 0.2], [0.1, np.nan, 0.2]):
        with pytest.raises(ValueError, match="at must be 3 finite weights"):
            gdx.newton_hessian_derivation(X, y, at=bad)


def test_the_sample_becomes_separable_at_the_answer_by_a_linear_program():
    """Oracle: a linear program (scipy's HiGHS) says the explorer's sample at n = 200 is strictly
    separable at the answer and not one slider step above it; the Mahalanobis distances in the
    solution by closed form; ρ's grid positions are the explorer's slider; bad inputs named."""
    from genviz.gaussian import cov_from_params
    from genviz.synthetic import DataModel
    from genviz.widgets.gda import gda_vs_logistic_explorer
    ex = gdx.rho_for_separable_sample()
    p = EXPLORER_START

    def separable(rho):  # strictly separable: find w, b with s_i (w.x_i + b) >= 1
        model = DataModel("gaussian", [p["mu0x"], p["mu0y"]], [p["mu1x"], p["mu1y"]],
                          cov_from_params(p["sigma1"], p["sigma2"], rho), phi=p["phi"])
        X, y = model.sample(200, np.random.default_rng(0))
        s = 2 * y - 1
        A = -s[:, None] * np.column_stack([X, np.ones(len(y))])
        return linprog(np.zeros(3), A_ub=A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 3,
                       method="highs").status == 0
    assert ex._answer == -0.85
    assert separable(ex._answer) and not separable(round(ex._answer + 0.05, 2))
    assert ex.kind == "investigation" and ex.objective == "04.1"
    # Delta mu = (2, 1), unit variances: d^2 = (5 - 4 rho) / (1 - rho^2)
    for rho in (0.3, -0.85):
        assert f"{np.sqrt((5 - 4 * rho) / (1 - rho ** 2)):.2f}" in ex._solution
    e = gda_vs_logistic_explorer()
    try:
        slider = e.controls["rho"]  # gridded: the search needs no kernel
        assert slider.grid and slider.value == p["rho"]
        assert np.allclose(VS_EXPLORER_RHOS,
                           np.round(np.arange(slider._min, slider._max + 1e-9, slider._step), 2))
    finally:
        e.close()
    with pytest.raises(ValueError, match="rho"):
        gdx.rho_for_separable_sample(rho=1.5)
    with pytest.raises(ValueError, match="n"):
        gdx.rho_for_separable_sample(n=2)
    with pytest.raises(ValueError, match="no ρ on the slider"):
        gdx.rho_for_separable_sample(n=500, sigma1=2.0)


def test_the_loan_question_and_the_midpoint():
    _is_open(gdx.loan_model_choice(), "04.3",
             "Skewed, non-Gaussian features bias GDA, so logistic regression is more robust; "
             "but with few examples GDA is efficient if I log-transform, compare on held-out data",
             "GDA.")
    mu0, mu1, S = np.array([0.0, 0.0]), np.array([1.5, 0.0]), np.array([[1, 0.8], [0.8, 1]])
    m = (mu0 + mu1) / 2
    assert multivariate_normal(mu1, S).logpdf(m) == pytest.approx(
        multivariate_normal(mu0, S).logpdf(m))
    q = gdx.midpoint_boundary(mu0, mu1, S)
    assert right(q).startswith("at the midpoint") and q.objective == "03.3"


# -- notebook 05 ---------------------------------------------------------------------------------

def test_the_ise_optimal_bandwidth_on_the_slider():
    from scipy.stats import gaussian_kde
    from genviz.kde import claw_pdf, sample_claw
    ex = kx.ise_optimal_bandwidth(1000)
    x, t = sample_claw(1000, 0), np.linspace(-3, 3, 400)  # the explorer's sample and window
    hs = 10.0 ** EXPLORER_LOG_HS
    ise = [np.trapezoid((gaussian_kde(x, bw_method=h / x.std(ddof=1))(t) - claw_pdf(t)) ** 2, t)
           for h in hs]
    assert ex._answer == pytest.approx(hs[int(np.argmin(ise))], abs=1e-12)
    assert ex.kind == "investigation" and ex.objective == "05.3"


def test_leaving_x_i_out_makes_the_lscv_term_unbiased_by_monte_carlo():
    q = kx.lscv_leave_one_out_derivation(reps=200)
    assert q.kind == "derivation" and q.objective == "05.3"
    assert q.check(["((n-1) g + K(0)/h)/n", "K(0)/(n*h) + T - T/n"]).correct
    assert q.check_step(1, "T").correct is False and "own bump" in q.check_step(1, "T").message
    # an independent Monte Carlo with scipy: N(0, 1) samples, n = 20, h = 0.3
    rng = np.random.default_rng(5)
    n, h, out, keep, target = 20, 0.3, [], [], []
    for _ in range(2000):
        x = rng.normal(size=n)
        K = norm.pdf((x[:, None] - x[None, :]) / h) / h
        out.append(((K.sum(1) - np.diag(K)) / (n - 1)).mean())
        keep.append((K.sum(1) / n).mean())
        target.append(np.mean(norm.pdf(x, scale=np.sqrt(1 + h * h))))  # int f_hat f exactly
    se = np.std(out) / np.sqrt(len(out))
    assert abs(np.mean(out) - np.mean(target)) < 4 * se
    assert np.mean(keep) - np.mean(target) > 10 * se
    # step 1's key, read as a learner's formula, is scipy's leave-in term on every sample
    from genviz.exercises.derivation import read_formula
    key = read_formula(q.steps[0].key, q.symbols)
    assert np.allclose(key({"n": n, "h": h, "K0": norm.pdf(0), "g": np.array(out)}), keep)


def test_the_noise_factor_and_the_histogram_bins():
    q = kx.more_smoothing_with_fewer_points()
    assert "√5" in right(q) and q.kind == "concept" and q.objective == "05.3"
    e = kx.empty_histogram_bins(1000, 10, 0.9)
    d = next(d for d in range(1, 10) if 1 - 1000 / 10**d >= 0.9)
    assert right(e) == f"d = {d}" and e.objective == "01.4"
    _is_open(kx.compare_on_training_data(), "05.4",
             "The training score grows as bins narrow, it over-fits; compare on a held-out test "
             "set, where an empty bin gives minus infinity", "fine")


# -- notebook 06 ---------------------------------------------------------------------------------

def test_alpha_for_the_posterior_with_scikit_learns_categorical_nb():
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    from sklearn.preprocessing import OrdinalEncoder
    query = ["Overcast", "Cool", "High", "Strong"]
    ex = nbx.alpha_for_posterior(TENNIS.X, TENNIS.y, TENNIS.feature_names, query, "No", 0.2)
    enc = OrdinalEncoder().fit(TENNIS.X)
    X, q = enc.transform(TENNIS.X), enc.transform([query])

    def p_no(alpha):
        m = SkCategoricalNB(alpha=alpha, force_alpha=True).fit(X, TENNIS.y)
        return m.predict_proba(q)[0, list(m.classes_).index("No")]
    assert p_no(ex._answer) >= 0.2 > p_no(ex._answer - 0.05) and ex._answer in QUERY_ALPHAS
    assert ex.kind == "investigation" and ex.objective == "06.3"


def test_logsumexp_shift_and_the_full_joint():
    s = np.array([-2158.1, -2245.9])
    assert np.exp(s).sum() == 0.0 and logsumexp(s) == pytest.approx(s.max() + math.log1p(
        math.exp(s.min() - s.max())))
    q = nbx.logsumexp_shift_derivation()
    assert q.kind == "derivation" and q.objective == "06.4"
    # the learner's two formulas at the scores' difference are scipy's posterior and log-sum
    d = s[0] - s[1]
    assert q.check(["exp(-d)^0/(1 + e^(-d))", "log(exp(0) + exp(-d))"]).correct
    from genviz.exercises.derivation import read_formula
    post, tail = (read_formula(step.key, q.symbols)({"d": d}) for step in q.steps)
    assert post == pytest.approx(math.exp(s[0] - logsumexp(s)))
    assert tail == pytest.approx(logsumexp(s) - s.max())
    f = nbx.full_joint_of_a_small_table(TENNIS.X, TENNIS.y)
    cells = math.prod(len(set(c)) for c in np.column_stack([TENNIS.X, TENNIS.y]).T)
    assert right(f).startswith(f"{cells} cells, at most {len(TENNIS.y)} filled")
    _is_open(nbx.rare_symptom(), "06.3",
             "P(symptom|sick) = 0 so the score is zero; Laplace smoothing fixes it, but "
             "alpha = 100 swamps the 40 patients", "it is fine")


# -- notebook 07 ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def spam_small():
    from genviz.naive_bayes import BernoulliNB, MultinomialNB
    from genviz.text import bag_of_words, build_vocabulary
    c = datasets.spam_assassin()
    keep = np.arange(0, len(c.text), 6)
    text, y = c.text[keep], c.label[keep]
    vocab = build_vocabulary(text, min_count=3, stop_words="english")
    X = bag_of_words(text, vocab)
    return X, y, MultinomialNB().fit(X, y), BernoulliNB().fit(X, y)


def test_the_threshold_for_ten_flagged_ham_with_scikit_learn(spam_small):
    from sklearn.naive_bayes import MultinomialNB as SkMNB
    X, y, multi, _ = spam_small
    ex = sx.log10_c_for_flagged_ham(multi, X, y, 10)
    sk = SkMNB(alpha=1.0).fit(X, y)
    jl = sk.predict_joint_log_proba(X)
    score = jl[:, list(sk.classes_).index("spam")] - jl[:, list(sk.classes_).index("ham")]

    def flagged(t):
        return int(np.sum((y == "ham") & (score > t * np.log(10))))
    assert flagged(ex._answer) <= 10 < flagged(ex._answer - 0.5)
    assert ex.kind == "investigation" and ex.objective == "07.4"


def test_the_bernoulli_weight_with_scikit_learn(spam_small):
    from sklearn.naive_bayes import BernoulliNB as SkBNB
    X, y, _, bern = spam_small
    q = sx.bernoulli_weight_derivation(bern)
    sk = SkBNB(alpha=1.0).fit((X > 0).astype(float), y)
    p0, p1 = np.exp(sk.feature_log_prob_)
    w = np.log(p1 * (1 - p0) / (p0 * (1 - p1)))
    x = (X[:5] > 0).toarray().astype(float)
    jl = sk.predict_joint_log_proba(x)
    b = np.log((1 - p1) / (1 - p0)).sum() + sk.class_log_prior_[1] - sk.class_log_prior_[0]
    assert np.allclose(jl[:, 1] - jl[:, 0], x @ w + b)
    assert q.kind == "derivation" and q.objective == "07.3"
    from genviz.exercises.derivation import read_formula
    weight, share = (read_formula(step.key, q.symbols)({"p1": p1, "p0": p0}) for step in q.steps)
    assert np.allclose(weight, w, rtol=1e-6)
    assert np.isclose(share.sum() + sk.class_log_prior_[1] - sk.class_log_prior_[0], b)
    assert not q.check_step(0, "log(φ1/φ0)").correct
    _is_open(sx.french_emails(), "07.1",
             "French words are not in the dictionary and count for nothing, so the prior decides; "
             "retrain with labelled French emails", "it works")
    g = sx.generative_or_discriminative()
    assert right(g).startswith("both are generative; their discriminative partner")
    assert g.objective == "03.1"


# -- notebook 08 ---------------------------------------------------------------------------------

def test_gda_s_lead_with_scikit_learn():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB as SkGNB
    from genviz.studies.naive_bayes_experiments import nb_vs_gda
    ex = nbx.rho_for_gda_advantage(0.10)

    def gap(rho):
        r = nb_vs_gda(rho)
        lda = LinearDiscriminantAnalysis().fit(r.X, r.y).score(r.X_test, r.y_test)
        return lda - SkGNB(var_smoothing=0).fit(r.X, r.y).score(r.X_test, r.y_test)
    assert gap(ex._answer) >= 0.10 - 1e-9 > gap(round(ex._answer + 0.05, 2))
    assert ex.kind == "investigation" and ex.objective == "08.3"


def test_gaussian_nb_is_a_diagonal_gaussian_and_silverman_on_two_modes():
    q = nbx.gaussian_nb_as_gaussian_derivation()
    mu, sd, x = np.array([0.3, -1.0]), np.array([0.5, 2.0]), np.array([[0.1, 0.2], [1.0, -3.0]])
    assert np.allclose(multivariate_normal(mu, np.diag(sd**2)).pdf(x),
                       norm.pdf(x, mu, sd).prod(axis=1))
    assert q.kind == "derivation" and q.objective == "08.2"
    from genviz.exercises.derivation import read_formula
    u = x - mu
    Q, det = (read_formula(step.key, q.symbols)({"u1": u[:, 0], "u2": u[:, 1], "s1": sd[0],
                                                  "s2": sd[1]}) for step in q.steps)
    assert np.allclose(np.exp(-Q / 2) / (2 * np.pi * np.sqrt(det)),
                       multivariate_normal(mu, np.diag(sd**2)).pdf(x))
    assert not q.check_step(0, "(u1 + u2)^2/(s1 s2)").correct
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.normal(-3, 0.6, 75), rng.normal(3, 0.6, 75)])
    s, iqr = x.std(ddof=1), np.subtract(*np.percentile(x, [75, 25]))
    h_rule = 0.9 * min(s, iqr / 1.34) * len(x) ** -0.2
    hs = np.geomspace(0.05, 3, 200)  # LSCV by its closed form for the Gaussian kernel

    def lscv(h):
        d = x[:, None] - x[None, :]
        n = len(x)
        return (norm.pdf(d, scale=np.sqrt(2) * h).sum() / n**2
                - 2 * (norm.pdf(d, scale=h).sum() - n * norm.pdf(0, scale=h)) / (n * (n - 1)))
    h_cv = hs[int(np.argmin([lscv(h) for h in hs]))]
    assert h_rule > 2 * h_cv
    r = nbx.silverman_on_two_modes(x, np.repeat("two", 150), "two")
    assert right(r).startswith("Silverman's") and r.objective == "05.3"
    _is_open(nbx.bimodal_sensor(), "08.4",
             "One Gaussian cannot follow two peaks; a KDE per class follows them, decided by "
             "leave-one-out on held-out parts", "use a Gaussian")


# -- notebook 09 ---------------------------------------------------------------------------------

def test_the_projection_dimension_from_the_explorer_s_state():
    from genviz.plots.knn import ProjectionView
    X = datasets.optical_digits()[0][:120]
    ex = nnx.dimension_for_spread(X, 0.15)
    std = {d: ProjectionView(X, d=d).state["stats"]["std"] for d in (ex._answer - 1, ex._answer)}
    assert std[ex._answer] <= 0.15 < std[ex._answer - 1]
    assert ex.kind == "investigation" and ex.objective == "09.4"


def test_knn_variance_and_k_like_a_bandwidth_with_scikit_learn():
    from sklearn.neighbors import KNeighborsRegressor
    from scipy.stats import gaussian_kde
    q = nnx.knn_average_variance_derivation(k=7, sigma=0.3)
    assert q.kind == "derivation" and q.objective == "09.2"
    # the oracle: scikit-learn's k-NN regressor on pure noise (f = 0), at one query point
    rng = np.random.default_rng(3)
    X0 = np.arange(40.0)[:, None]
    preds = [KNeighborsRegressor(7).fit(X0, rng.normal(0, 0.3, 40)).predict([[20.0]])[0]
             for _ in range(4000)]
    from genviz.exercises.derivation import read_formula
    key = float(read_formula(q.steps[-1].key, q.symbols)({"k": 7.0, "sigma": 0.3}))
    assert np.var(preds) == pytest.approx(key, rel=0.08)
    assert q.check(["7 σ^2 * k/7", "(sigma/k)^2 * k"]).correct
    from genviz.synthetic import regression_data
    x, y = regression_data(100, rng=0)
    grid = np.linspace(x.min(), x.max(), 400)

    def wiggle(f):
        return np.abs(np.diff(f)).sum()
    knn = [wiggle(KNeighborsRegressor(k).fit(x[:, None], y).predict(grid[:, None])) for k in (1, 30)]
    kde = [wiggle(gaussian_kde(x, bw_method=h / x.std(ddof=1))(grid)) for h in (0.05, 1.0)]
    assert knn[1] < knn[0] and kde[1] < kde[0]
    r = nnx.k_like_a_bandwidth(x, y)
    assert right(r).startswith("a larger k, like a larger h") and r.objective == "05.3"
    _is_open(nnx.knn_or_a_class_model(), "09.3",
             "(a) GDA: Gaussian classes, few parameters. (b) k-NN: no model, a Gaussian would be "
             "biased; but k-NN must store every point and is slow", "whatever")


# -- notebook 10 ---------------------------------------------------------------------------------

def _curves(nb_small=0.20, lr_small=0.30):
    sizes = np.array([10, 100, 1000, 4000])
    nb = np.array([[nb_small, 0.10, 0.070, 0.065], [nb_small + 0.01, 0.11, 0.071, 0.065]])
    lr = np.array([[lr_small, 0.10, 0.050, 0.045], [lr_small + 0.02, 0.12, 0.051, 0.045]])
    return NBvsLogisticCurves(sizes, nb, lr, 300, 1000)


def test_the_capstone_items_read_the_curves():
    c = _curves()
    p = cx.predict_small_and_large(c)
    assert right(p) == "naive Bayes at n = 10, logistic regression at n = 4000"
    assert isinstance(p.observation, Observation)
    # both halves of the claim: the difference at the smallest and at the largest size
    assert p.observation.reference(stage="before") == pytest.approx(0.205 - 0.31)
    assert p.observation.reference() == pytest.approx(0.065 - 0.045)
    assert right(cx.predict_small_and_large(_curves(0.40, 0.30))).startswith(
        "logistic regression at n = 10")
    inv = cx.smallest_n_logistic_ahead(c)
    nb, lr = c.nb_errors.mean(0), c.lr_errors.mean(0)
    first = next(m for j, m in enumerate(c.sizes) if all(lr[j:] < nb[j:]))
    assert inv._answer == first == 1000 and inv.kind == "investigation"
    assert right(cx.bias_or_variance(c)).startswith("a bias of naive Bayes")
    assert cx.fits_in_the_experiment(9, 10)._answer == 2 * (8 * 10 + 1)
    _is_open(cx.deploy_schedule(), "10.4",
             "Naive Bayes first, with few emails; switch to logistic regression later with "
             "hundreds, compared on held-out emails", "logistic")


def test_the_presence_nb_weight_with_scikit_learn():
    from sklearn.naive_bayes import MultinomialNB as SkMNB
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.poisson(0.4, (60, 30)))
    y = np.where(rng.random(60) < 0.4, "spam", "ham")
    q = cx.presence_nb_weight_derivation(X, y, 20)
    from genviz.nb_vs_logistic import presence_features
    F, _, _ = presence_features(X, X[:1], 20)
    sk = SkMNB(alpha=1.0).fit(F, (y == "spam").astype(int))
    w = sk.feature_log_prob_[1] - sk.feature_log_prob_[0]
    jl = sk.predict_joint_log_proba(F[:5])
    assert np.allclose(jl[:, 1] - jl[:, 0] - F[:5] @ w, jl[0, 1] - jl[0, 0] - F[0] @ w)
    from genviz.exercises.derivation import read_formula
    p0, p1 = np.exp(sk.feature_log_prob_)
    assert np.allclose(read_formula(q.steps[0].key, q.symbols)({"p1": p1, "p0": p0}), w)
    assert q.check_step(0, "log(p1) - log(p0)").correct
    assert q.kind == "derivation" and q.objective == "10.2"
    # step 2, logistic regression's stationarity: scikit-learn's fit (C = 1/lambda, intercept
    # not penalised) makes the e-mails' terms sum to lambda times its weights
    from sklearn.linear_model import LogisticRegression as SkLR
    t = (y == "spam").astype(float)
    sk_lr = SkLR(C=1.0, tol=1e-10, max_iter=10000).fit(F, t)
    p = sk_lr.predict_proba(F)[:, 1]
    terms = read_formula(q.steps[1].key, q.symbols)({"y": t[:, None], "p": p[:, None], "xj": F})
    assert np.allclose(terms.sum(axis=0), sk_lr.coef_[0], atol=1e-5)
    assert q.check_step(1, "(y - p)*x_j").correct and not q.check_step(1, "(p - y)*xj").correct
    with pytest.raises(ValueError, match="l2"):
        cx.presence_nb_weight_derivation(X, y, 20, l2=0)


def _sweep(cross_small=1000, cross_large=4000):
    """Two vocabulary sizes whose crossings are known: logistic regression clearly ahead from
    ``cross_small`` (d = 30) and ``cross_large`` (d = 3000); counts cross one size later."""
    from genviz.studies.learning_curves_vocabulary import VocabularyCurves
    sizes = np.array([10, 100, 1000, 4000])

    def curves(cross):
        ahead = sizes >= cross
        nb = np.array([[0.20, 0.10, 0.070, 0.065], [0.21, 0.11, 0.071, 0.065]])
        lr = np.where(ahead, nb - 0.02, nb + 0.02)
        return NBvsLogisticCurves(sizes, nb, lr, 30, 1000)

    later = {10: 100, 100: 1000, 1000: 4000, 4000: 4000}
    return VocabularyCurves(sizes, (30, 3000), ("presence", "counts"),
                            {(30, "presence"): curves(cross_small),
                             (3000, "presence"): curves(cross_large),
                             (30, "counts"): curves(later[cross_small]),
                             (3000, "counts"): curves(later[cross_large])}, 1.0, 1.0)


def _settling_sweep(nb_settles, lr_settles):
    """A sweep (d = 30 and 3000, presence) whose learners settle where planted: naive Bayes
    from ``nb_settles[i]`` at the i-th vocabulary size, logistic regression from
    ``lr_settles[i]`` (the error 0.05 from there on, 0.05 more per size before)."""
    from genviz.studies.learning_curves_vocabulary import VocabularyCurves
    sizes = np.array([10, 100, 1000, 4000])

    def errors(settle):
        mean = 0.05 + 0.05 * np.maximum(0, np.searchsorted(sizes, settle) - np.arange(4))
        return np.vstack([mean, mean])

    curves = {(d, "presence"): NBvsLogisticCurves(sizes, errors(nb), errors(lr) - 0.01, 30, 1000)
              for d, nb, lr in zip((30, 3000), nb_settles, lr_settles)}
    return VocabularyCurves(sizes, (30, 3000), ("presence",), curves, 1.0, 1.0)


def test_the_investigation_items_read_the_sweep():
    """Oracle: the crossings planted in the hand-built sweep, and the rule 'far less than
    d's growth' = below its square root on the doubling grid."""
    p = cx.predict_crossing_with_d(_sweep())
    assert right(p) == "to a larger n, by far less than 100 times"
    obs = p.observation
    assert obs.stages == ("before", "after") and obs.compare == "ratio"
    assert obs.reference(stage="before") == 1000 / 30 and obs.reference() == 4000 / 3000
    assert obs.setting == {"d": 3000, "features": "presence"}
    assert right(cx.predict_crossing_with_d(_sweep(1000, 1000))) == "nowhere: it stays at the same n"
    assert right(cx.predict_crossing_with_d(_sweep(1000, 100))).startswith("to a smaller n")
    assert right(cx.predict_crossing_with_d(_sweep(10, 4000))).startswith("to a larger n, about")
    counts = cx.crossing_with_counts(_sweep(), sizes=(30, 3000))
    assert counts._answer == [4000 / 30, 4000 / 3000] and counts.kind == "investigation"
    claim = cx.log_d_claim(_settling_sweep((100, 1000), (1000, 4000)))
    assert right(claim).startswith("naive Bayes settles first") and claim.objective == "10.5"
    assert "n = 100 (d = 30) and n = 1000 (d = 3000)" in claim.explanation
    assert right(cx.log_d_claim(_settling_sweep((100, 1000), (100, 4000)))).startswith(
        "logistic regression settles as early")
    assert right(cx.log_d_claim(_settling_sweep((1000, 4000), (1000, 4000)))).startswith(
        "both settle")
    # 1705 test e-mails: two standard errors of 0.0246 are 0.0075
    full = cx.full_dictionary(0.0246, 0.0258, 0.0223, 0.0446, 1705)
    assert right(full).startswith("only on the same features")
    assert right(cx.full_dictionary(0.05, 0.03, 0.02, 0.04, 1705)).startswith("always")
    assert right(cx.full_dictionary(0.03, 0.03, 0.03, 0.03, 1705)).startswith("never here")
    assert right(cx.top_features_encode()).startswith("where the corpus came from")


def test_the_lead_in_standard_errors_is_the_paired_t_statistic():
    """Oracle: scipy's paired t-test on the repetitions' errors (its statistic is the mean
    difference over its standard error); the verdict in the solution is the readout's rule."""
    from scipy.stats import ttest_rel

    assert cx.lead_in_standard_errors is cvx.lead_in_standard_errors  # re-exported
    sweep = _sweep()
    rng = np.random.default_rng(3)
    c = sweep.curves[(3000, "counts")]
    noisy = c._replace(nb_errors=c.nb_errors + rng.normal(0, 0.01, c.nb_errors.shape))
    sweep.curves[(3000, "counts")] = noisy
    checked = 0
    for (d, kind), cur in sweep.curves.items():
        for j, n in enumerate(sweep.sizes[:-1]):
            if np.ptp(cur.nb_errors[:, j] - cur.lr_errors[:, j]) == 0:
                continue  # the hand-built curves: every repetition alike
            ex = cx.lead_in_standard_errors(sweep, d, kind, int(n))
            want = ttest_rel(cur.nb_errors[:, j], cur.lr_errors[:, j]).statistic
            assert ex._answer == pytest.approx(want, rel=1e-12)
            assert ex.kind == "compute" and ex.objective == "10.3"
            assert f"d = {d} words ({kind})" in ex.prompt and f"n = {n} " in ex.prompt
            assert ex.check(round(want, 2)).correct and not ex.check(want + 0.05).correct
            verdict = ("logistic regression is clearly ahead" if want > 2 else
                       "naive Bayes is clearly ahead" if want < -2 else "neither is clearly ahead")
            assert verdict in ex._solution
            checked += 1
    assert checked == 3  # the noisy setting's three smaller sizes


@pytest.mark.parametrize("call, error, match", [
    (lambda: cx.predict_small_and_large("curves"), TypeError, "curves must be NBvsLogisticCurves"),
    (lambda: cx.fits_in_the_experiment(0, 3), ValueError, "n_sizes must be >= 1"),
    (lambda: cx.predict_crossing_with_d("sweep"), TypeError, "sweep must be VocabularyCurves"),
    (lambda: cx.predict_crossing_with_d(_sweep(), small=300), ValueError,
     "small must be one of the sweep's vocabulary sizes"),
    (lambda: cx.log_d_claim(_sweep(), large=17530), ValueError, "large must be one of"),
    (lambda: cx.crossing_with_counts(_sweep(), sizes=(30, 300)), ValueError,
     "sizes must be vocabulary sizes"),
    (lambda: cx.lead_in_standard_errors("sweep", 30, "counts", 10), TypeError,
     "sweep must be VocabularyCurves"),
    (lambda: cx.lead_in_standard_errors(_sweep(), 300, "counts", 10), ValueError,
     "must be a setting of the sweep"),
    (lambda: cx.lead_in_standard_errors(_sweep(), 30, "words", 10), ValueError,
     "must be a setting of the sweep"),
    (lambda: cx.lead_in_standard_errors(_sweep(), 30, "counts", 50), ValueError,
     "n must be one of the sweep's sizes"),
    (lambda: cx.lead_in_standard_errors(_sweep(), 30, "counts", 4000), ValueError,
     "standard error 0"),
    (lambda: cx.full_dictionary(1.5, 0.1, 0.1, 0.1, 100), ValueError, "nb_error"),
    (lambda: cx.full_dictionary(0.1, 0.1, 0.1, 0.1, 0), ValueError, "n_test"),
    (lambda: gx.rho_for_peak_ratio(100.0), ValueError, "ask for a smaller ratio"),
    (lambda: nbx.rho_for_gda_advantage(0.1, side="up"), ValueError, "side must be"),
    (lambda: nbx.rho_for_gda_advantage(2.0), ValueError, "gap must be <= 1"),
    (lambda: kx.empty_histogram_bins(100, 1), ValueError, "bins_per_axis must be >= 2"),
    (lambda: nnx.dimension_for_spread(np.random.default_rng(0).normal(size=(20, 5)), -1.0),
     ValueError, "spread must be > 0"),
    (lambda: nnx.knn_average_variance_derivation(k=1), ValueError, "k must be >= 2"),
])
def test_bad_input_to_the_practice_builders(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _regularised_sweep(cross, strong_cross, heavy_cross):
    """The hand-built sweep of ``_sweep`` with λ in (1, 100) and α in (1, 10); at (3000,
    presence) logistic regression clearly ahead from ``cross`` at the default, from
    ``strong_cross`` at λ = 100 and from ``heavy_cross`` at α = 10 (None: never)."""
    base = _sweep(1000, cross)
    sizes = base.sizes
    nb = base.curves[(3000, "presence")].nb_errors

    def curves(at):
        ahead = sizes >= (np.inf if at is None else at)
        return NBvsLogisticCurves(sizes, nb, np.where(ahead, nb - 0.02, nb + 0.02), 30, 1000)

    every = {}
    for (d, kind), c in base.curves.items():
        for a in (1.0, 10.0):
            for lam in (1.0, 100.0):
                every[(d, kind, a, lam)] = c
    every[(3000, "presence", 1.0, 100.0)] = curves(strong_cross)
    every[(3000, "presence", 10.0, 1.0)] = curves(heavy_cross)
    every[(3000, "presence", 10.0, 100.0)] = curves(None)
    return base._replace(alphas=(1.0, 10.0), l2s=(1.0, 100.0), by_setting=every)


@pytest.mark.parametrize("strong, heavy, starts", [
    (None, 100, "λ to a larger n, α to a smaller n"), (4000, 100, "λ to a larger n, α to a"),
    (100, 4000, "λ to a smaller n, α to a larger n"), (4000, None, "both to a larger n"),
    (100, 10, "both to a smaller n"), (1000, 1000, "neither moves")])
def test_the_regularisation_choice_reads_the_crossings_of_the_sweep(strong, heavy, starts):
    """Oracle: the crossings planted in the hand-built sweep (the default's at n = 1000)."""
    item = cx.crossing_with_regularisation(_regularised_sweep(1000, strong, heavy))
    assert right(item).startswith(starts)
    assert item.kind == "investigation" and item.objective == "10.5"
    assert item.id == "10-crossing-with-regularisation" and len(item.options) == 5
    assert "λ from 1 to 100" in item.prompt and "α from 1 to 10" in item.prompt
    lengths = [len(o) for o in item.options]
    assert max(lengths) - min(lengths) <= 6  # no option stands out by its length
    from genviz.exercises import matching_claims
    assert matching_claims(item.claims, item.explanation)


def test_the_regularisation_choice_is_the_crossings_recomputed_by_scalar_sweeps():
    """Oracle: the same data swept once per value (the scalar calls) and the crossing read
    with crossing_size; 'no crossing in range' counts as a larger n."""
    from explorer_testing import _spam
    from genviz.studies.gda_vs_logistic_curves import crossing_size
    from genviz.studies.learning_curves_vocabulary import vocabulary_curves

    X_train, y_train, X_test, y_test, _, _ = _spam()
    kw = dict(vocabularies=(30, 100), rng=0)
    sizes = [10, 20, 40, 80, 160, X_train.shape[0]]
    grid = vocabulary_curves(X_train, y_train, X_test, y_test, sizes, 3, alpha=(1.0, 100.0),
                             l2=(1.0, 100.0), **kw)
    one = {(a, lam): vocabulary_curves(X_train, y_train, X_test, y_test, sizes, 3, alpha=a,
                                       l2=lam, **kw)
           for a, lam in ((1.0, 1.0), (1.0, 100.0), (100.0, 1.0))}

    def where(a, lam, d, kind):
        n = crossing_size(one[(a, lam)][(d, kind)])
        return math.inf if n is None else n

    checked = 0
    for d in (30, 100):
        for kind in ("presence", "counts"):
            base = where(1.0, 1.0, d, kind)
            moved = tuple(int(np.sign(where(a, lam, d, kind) - base))
                          if where(a, lam, d, kind) != base else 0
                          for a, lam in ((1.0, 100.0), (100.0, 1.0)))
            words = {(1, -1): "λ to a larger n, α to a smaller n", (1, 1): "both to a larger",
                     (-1, -1): "both to a smaller", (-1, 1): "λ to a smaller n, α to a larger",
                     (0, 0): "neither moves"}
            if moved not in words:
                with pytest.raises(ValueError, match="choose a stronger l2 or alpha"):
                    cx.crossing_with_regularisation(grid, d, kind)
                continue
            assert right(cx.crossing_with_regularisation(grid, d, kind)).startswith(words[moved])
            checked += 1
    assert checked >= 2  # on this sample: d = 30 and 100 (presence) move both ways


@pytest.mark.parametrize("call, match", [
    (lambda s: cx.crossing_with_regularisation("sweep"), "sweep must be VocabularyCurves"),
    (lambda s: cx.crossing_with_regularisation(s, d=300), "must be a setting of the sweep"),
    (lambda s: cx.crossing_with_regularisation(s, l2=1.0), "l2 must be one of the sweep's "
                                                           "values \\[1.0, 100.0\\] above"),
    (lambda s: cx.crossing_with_regularisation(s, alpha=3.0), "alpha must be one of"),
    (lambda s: cx.crossing_with_regularisation(s, l2=True), "l2 must be one of"),
    (lambda s: cx.crossing_with_regularisation(_sweep()), "l2 must be one of the sweep's"),
    (lambda s: cx.crossing_with_regularisation(_regularised_sweep(1000, 1000, 100)),
     "one of them does not move it"),
])
def test_the_regularisation_choice_refuses_bad_input_naming_the_argument(call, match):
    with pytest.raises((TypeError, ValueError), match=match):
        call(_regularised_sweep(1000, 4000, 100))


def test_the_crossing_observation_names_lambda_and_alpha_when_the_explorer_has_them():
    """A reading at another λ or α is another setting: the observation pins them (at the
    sweep's default) when the sweep has their drop-downs, and names no control it lacks."""
    obs = cx.predict_crossing_with_d(_regularised_sweep(4000, None, 100)).observation
    assert obs.setting == {"d": 3000, "features": "presence", "l2": 1.0, "alpha": 1.0}
    assert cx.predict_crossing_with_d(_sweep()).observation.setting == {
        "d": 3000, "features": "presence"}


@pytest.mark.parametrize("strong, heavy, says", [
    (None, 100, "the crossing moves right"), (100, 4000, "moved to a smaller n with λ and to a "
                                                        "larger n with α"),
    (1000, 1000, "moved nowhere with λ and nowhere with α")])
def test_the_regularisation_explanation_says_what_the_sweep_showed(strong, heavy, says):
    """The explanation never claims the usual directions where the planted sweep moved the
    crossing otherwise (λ right and α left only where that is what was read)."""
    text = cx.crossing_with_regularisation(_regularised_sweep(1000, strong, heavy)).explanation
    assert says in text
    usual = "the crossing moves right" in text and "the crossing moves left" in text
    assert usual == (says == "the crossing moves right")
