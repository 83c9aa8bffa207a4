"""The lecture notes' worked numbers and the notebooks' claims about them, asserted from values
genviz COMPUTES (not from the text of a notebook).

Each test names the item of the notes (and the notebook that reproduces it). Where a notebook
states a relation ("rises from 0.474 to 0.5", "shifts the log-odds by about +0.95"), the test
computes both sides and asserts the relation, so a change in the library that would make the
prose false fails here.
"""

import numpy as np
import pytest
from scipy import stats

from genviz import datasets
from genviz.gaussian import mahalanobis, mvn_pdf, sample_mvn
from genviz.joint import JointTable
from genviz.kde import claw_pdf, kde_pdf, rule_of_thumb, sample_claw, select_bandwidth
from genviz.projections import random_projection
from genviz.naive_bayes import BernoulliNB, CategoricalNB, discretize


# --- DS5220: the alarm domain (notebook 01) ------------------------------------------------------

@pytest.fixture(scope="module")
def alarm():
    return JointTable(
        {"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
         "Earthquake": ["earthquake", "no earthquake"]},
        [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])


def test_alarm_marginals_as_on_the_slides(alarm):
    assert alarm.prob(Alarm="alarm") == pytest.approx(0.19)
    # The slide sums the theft row and calls it P(no theft); the right value is 0.9.
    assert alarm.prob(Theft="theft") == pytest.approx(0.1)
    assert alarm.prob(Theft="no theft") == pytest.approx(0.9)
    two = alarm.marginal("Theft", "Alarm")
    assert [two.prob(Theft=t, Alarm=a) for t in ("theft", "no theft")
            for a in ("alarm", "no alarm")] == pytest.approx([0.09, 0.01, 0.1, 0.8])


def test_an_earthquake_does_not_explain_the_alarm_away_in_this_table(alarm):
    """01 says: P(theft | alarm) = 0.474 rises to P(theft | alarm, earthquake) = 0.5, because
    theft and earthquake are positively dependent here (0.35 against 0.1)."""
    given_alarm = alarm.conditional({"Theft": "theft"}, {"Alarm": "alarm"})
    given_both = alarm.conditional({"Theft": "theft"},
                                   {"Alarm": "alarm", "Earthquake": "earthquake"})
    given_alarm_no_eq = alarm.conditional({"Theft": "theft"},
                                          {"Alarm": "alarm", "Earthquake": "no earthquake"})
    assert round(given_alarm, 3) == 0.474 and given_both == pytest.approx(0.5)
    assert given_alarm < given_both  # it rises: no explaining away
    assert round(given_alarm_no_eq, 3) == 0.471
    p_theft = alarm.prob(Theft="theft")
    p_theft_eq = alarm.conditional({"Theft": "theft"}, {"Earthquake": "earthquake"})
    assert round(p_theft_eq, 2) == 0.35 and p_theft_eq > p_theft  # positively dependent
    assert alarm.independence_gap("Theft", "Earthquake") > 0


# --- CS229 §1.1: the Gaussian (notebook 02) ----------------------------------------------------

def test_the_density_needs_a_positive_definite_covariance():
    """02: semi-definite is not enough; a singular Sigma has no density and is refused."""
    with pytest.raises(ValueError, match="singular"):
        mvn_pdf(np.zeros((1, 2)), np.zeros(2), [[1.0, 1.0], [1.0, 1.0]])
    assert np.all(np.linalg.eigvalsh([[1.0, 1.0], [1.0, 1.0]]) >= -1e-12)  # it is PSD


@pytest.mark.parametrize("k", [1, 2, 3])
def test_mass_inside_the_k_sigma_ellipse_is_the_chi2_cdf(k):
    """02: 1 - exp(-k^2/2) is the chi^2_2 CDF at k^2 (not its tail), and the samples agree."""
    assert 1 - np.exp(-k ** 2 / 2) == pytest.approx(stats.chi2.cdf(k ** 2, 2), rel=1e-12)
    rng = np.random.default_rng(0)
    mu, cov = np.array([-1.0, -1.5]), np.array([[3.0, 0.8], [0.8, 1.0]])
    X = sample_mvn(100_000, mu, cov, rng)
    assert np.mean(mahalanobis(X, mu, cov) <= k) == pytest.approx(stats.chi2.cdf(k ** 2, 2),
                                                                  abs=0.005)


@pytest.mark.parametrize("s", [1.0, 0.6, 2.0])
def test_peak_heights_of_the_scaled_gaussians(s):
    """02: the peak of N(0, sI) in 2-D is 1/(2 pi s)."""
    assert mvn_pdf(np.zeros((1, 2)), np.zeros(2), s * np.eye(2))[0] == pytest.approx(
        1 / (2 * np.pi * s))


# --- DS5220: bandwidth selection on the claw (notebook 05) ------------------------------------

@pytest.fixture(scope="module")
def claw():
    return sample_claw(1000, np.random.default_rng(0))  # the notebook's draw


def test_the_slides_h_is_the_lscv_choice_and_likelihood_cv_picks_larger(claw):
    """05: the four panels are drawn at the LSCV h ~ 0.05 (the slides' value); the
    leave-one-out likelihood picks a larger h (0.079)."""
    h_lscv = select_bandwidth(claw, "lscv")
    h_loo = select_bandwidth(claw, "loo-likelihood")
    assert round(h_lscv, 2) == 0.05
    assert round(h_loo, 3) == 0.079 and h_loo > h_lscv
    # "just right" beats h/10 and 10h in integrated squared error
    t = np.linspace(-4, 4, 4001)
    ise = {f: np.trapezoid((kde_pdf(t, claw, f * h_lscv) - claw_pdf(t)) ** 2, t)
           for f in (0.1, 1.0, 10.0)}
    assert ise[1.0] < ise[0.1] and ise[1.0] < ise[10.0]


def test_scotts_rule_is_scipys_factor_times_s(claw):
    """05 states which Scott: s n^(-1/5) (scipy's factor), 6 % below 1.06 s n^(-1/5)."""
    from scipy.stats import gaussian_kde

    s = np.std(claw, ddof=1)
    h = rule_of_thumb(claw, "scott")
    assert h == pytest.approx(s * claw.size ** -0.2)
    assert h == pytest.approx(gaussian_kde(claw).factor * s)
    assert 1.06 * s * claw.size ** -0.2 / h == pytest.approx(1.06)


# --- DS5220: EnjoySport by counting (notebook 06) ---------------------------------------------

def test_enjoysport_counts_and_the_stated_choices():
    t = datasets.enjoy_sport()
    nb = CategoricalNB(alpha=0).fit(t.X, t.y, feature_names=t.feature_names)
    yes, no = list(nb.classes_).index("yes"), list(nb.classes_).index("no")
    sky, humid = nb.conditional_table("Sky"), nb.conditional_table("Humid")
    sunny = list(nb.categories_[0]).index("sunny")
    high = list(nb.categories_[2]).index("high")
    assert np.exp(nb.class_log_prior_[yes]) == pytest.approx(3 / 4)
    assert sky[yes, sunny] == 1 and sky[no, sunny] == 0
    assert humid[yes, high] == pytest.approx(2 / 3) and humid[no, high] == 1
    # |values(X_j)| from the rows seen (2 for Sky) unless the values are listed (3 with cloudy)
    nb1 = CategoricalNB(alpha=1).fit(t.X, t.y, feature_names=t.feature_names)
    assert nb1.conditional_table("Sky")[yes, sunny] == pytest.approx(4 / 5)
    cats = [["sunny", "rainy", "cloudy"]] + [sorted(set(c)) for c in t.X[:, 1:].T]
    nb3 = CategoricalNB(alpha=1).fit(t.X, t.y, feature_names=t.feature_names, categories=cats)
    assert nb3.conditional_table("Sky")[yes, list(nb3.categories_[0]).index("sunny")] == \
        pytest.approx(4 / 6)
    # the prior is not smoothed
    assert np.exp(nb1.class_log_prior_) == pytest.approx([0.25, 0.75])


# --- CS229 §2: discretising (notebook 08) -----------------------------------------------------

def test_living_area_890_gets_bin_3():
    assert discretize([890], [400, 800, 1200, 1600]).tolist() == [3]


# --- CS229 §2.1: the unseen word with Laplace smoothing (notebook 07) -------------------------

@pytest.fixture(scope="module")
def spam():
    from genviz.model_selection import stratified_split
    from genviz.text import bag_of_words, build_vocabulary

    c = datasets.spam_assassin()
    train, _ = stratified_split(c.label, test_size=0.3, rng=0)
    vocab = build_vocabulary(c.text[train], min_count=2, stop_words="english",
                             extra_words=["neurips"])
    X = bag_of_words(c.text[train], vocab)
    email = bag_of_words(["Our NeurIPS paper was accepted, see you at the conference"], vocab)
    without = bag_of_words(["Our paper was accepted, see you at the conference"], vocab)
    return dict(X=X, y=c.label[train], vocab=vocab, email=email, without=without)


def test_an_unseen_word_shifts_the_log_odds_towards_the_smaller_class(spam):
    """07: with 1/(2 + m_y) the two estimates differ (0.000348 vs 0.000898) and the word moves
    the log-odds by about +0.95 towards spam; the decision for this email stays ham."""
    lap = BernoulliNB(alpha=1.0).fit(spam["X"], spam["y"])
    j = spam["vocab"].index["neurips"]
    phi = np.exp(lap.feature_log_prob_[:, j])
    m = lap.class_count_
    assert list(lap.classes_) == ["ham", "spam"]
    np.testing.assert_allclose(phi, 1 / (2 + m))
    assert np.round(phi, 6).tolist() == [0.000348, 0.000898] and phi[1] > phi[0]
    shift = lap.decision_function(spam["email"])[0] - lap.decision_function(spam["without"])[0]
    assert round(shift, 2) == 0.95
    assert shift == pytest.approx(np.log(phi[1] / phi[0]) - np.log((1 - phi[1]) / (1 - phi[0])))
    assert shift == pytest.approx(np.log((2 + m[0]) / (2 + m[1])), abs=2e-3)
    assert lap.predict(spam["email"])[0] == "ham"
    # without smoothing the same email is 0/0
    ml = BernoulliNB(alpha=0.0).fit(spam["X"], spam["y"])
    assert np.all(np.isneginf(ml.predict_joint_log_proba(spam["email"])))


# --- Smola §1.3.2: the scale of the random projection (notebook 09) --------------------------

def test_the_notes_projection_has_entries_with_sd_n_to_the_minus_half():
    """09 reads the notes' 'n^(-1/2) variance' as s.d. n^(-1/2): entries N(0, 1/n), so the
    distance ratios concentrate at sqrt(d/n)."""
    n, d = 2000, 200
    R = random_projection(d, n, rng=1, scaling="notes")
    assert R.shape == (d, n)
    assert np.var(R) == pytest.approx(1 / n, rel=0.02)
    P = np.random.default_rng(0).normal(size=(50, n))
    ratio = np.linalg.norm((P[1:] - P[0]) @ R.T, axis=1) / np.linalg.norm(P[1:] - P[0], axis=1)
    assert np.mean(ratio) == pytest.approx(np.sqrt(d / n), rel=0.02)


# --- DS5220: the auto-mpg numbers (notebook 01) -----------------------------------------------

def test_the_slides_mpg_numbers_agree_with_each_other():
    assert np.log(3.4e-203) == pytest.approx(-466.19, abs=0.02)
    assert 54 / 196 == pytest.approx(0.27551, abs=5e-6)
    # -614.6157 vs -466.1905: e^148.4 ~ 3e64 times less likely
    assert np.exp(-466.1905 + 614.6157) == pytest.approx(3e64, rel=0.1)
