"""Naive Bayes exercises: a right and a wrong answer each; the answers are the worked numbers."""

from genviz import datasets
from genviz.exercises import naive_bayes as nx


def test_counting_exercises_on_enjoy_sport():
    t = datasets.enjoy_sport()
    ex = nx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast", "same", "yes")
    assert ex.check(2 / 3).correct and not ex.check(0.5).correct
    assert "0.66" not in str(ex.check(0.5))
    ex = nx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast", "same", "yes", alpha=1)
    assert ex.check(3 / 5).correct and not ex.check(2 / 3).correct

def test_query_exercises_on_play_tennis():
    t = datasets.play_tennis()
    q = ["Sunny", "Cool", "High", "Strong"]
    ex = nx.posterior_of_query(t.X, t.y, t.feature_names, q, "No", alpha=0.0)
    assert ex.check(0.795).correct and not ex.check(0.205).correct
    ex = nx.decision_of_query(t.X, t.y, t.feature_names, ["Overcast", "Hot", "High", "Weak"])
    assert ex.check("Yes").correct and not ex.check("No").correct
    assert ex.objective == "06.3" and "zero factor" in ex.solution().text  # smoothing's topic
    # notebook 06's Exercise 4: no zero factor, a close call. By hand (Mitchell's counts):
    # Yes 9/14 * 3/9 * 2/9 * 6/9 * 3/9 = 0.01058, No 5/14 * 2/5 * 2/5 * 1/5 * 3/5 = 0.00686
    ex = nx.decision_of_query(t.X, t.y, t.feature_names, ["Rain", "Hot", "Normal", "Strong"])
    assert ex.check("Yes").correct and not ex.check("No").correct
    assert ex.objective == "06.2" and "0.01058" in ex.solution().text
    assert "0.00686" in ex.solution().text and "zero factor" not in ex.solution().text

def test_continuous_exercises():
    ex = nx.living_area_bin(890)
    assert ex.check(3).correct and not ex.check(2).correct
    assert nx.living_area_bin(1600).check(5).correct
    p = datasets.penguins()
    x = p.X[:, 2]
    ex = nx.gaussian_nb_parameters(x, p.y, "Gentoo")
    g = x[p.y == "Gentoo"]
    assert ex.check([g.mean(), g.var()]).correct
    assert not ex.check([g.mean(), g.var(ddof=1) * 1.05]).correct


# -- notebooks 06 and 08: predictions and conceptual items ---------------------------------------
import numpy as np  # noqa: E402
import pytest  # noqa: E402

ODD_DAY = ["sunny", "cold", "high", "strong", "warm", "change"]


def test_predict_smallest_alpha():
    t = datasets.enjoy_sport()
    # by hand: no "no" day was sunny and no "yes" day was cold, so both scores are 0 at alpha = 0
    rows = [dict(zip(t.feature_names, r)) for r in t.X]
    assert not any(r["Sky"] == "sunny" for r, y in zip(rows, t.y) if y == "no")
    assert not any(r["Temp"] == "cold" for r, y in zip(rows, t.y) if y == "yes")
    p = nx.predict_smallest_alpha(t.X, t.y, t.feature_names, ODD_DAY)
    assert p.kind == "prediction" and p.check("Any α > 0, however small.").correct
    assert not p.check("α = 1 (Laplace's add-one) or more.").correct
    # the observation: P(yes | x) one slider step up, by scikit-learn's CategoricalNB
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    from sklearn.preprocessing import OrdinalEncoder
    enc = OrdinalEncoder().fit(t.X)
    sm = SkCategoricalNB(alpha=0.05, force_alpha=True).fit(enc.transform(t.X), t.y)
    assert p.observation._answer == pytest.approx(
        sm.predict_proba(enc.transform(np.array([ODD_DAY])))[0, list(sm.classes_).index("yes")])
    with pytest.raises(ValueError, match="alpha_step"):
        nx.predict_smallest_alpha(t.X, t.y, t.feature_names, ODD_DAY, alpha_step=0.0)


def test_predict_unseen_value():
    t = datasets.play_tennis()
    assert "Overcast" not in t.X[t.y == "No", 0]  # by hand: no "No" day was overcast
    p = nx.predict_unseen_value(t.X, t.y, t.feature_names, ["Overcast", "Cool", "High", "Strong"], "No")
    assert p.check("Exactly 0.").correct and not p.check("Undefined (0/0).").correct
    p = nx.predict_unseen_value(t.X, t.y, t.feature_names, ["Sunny", "Cool", "High", "Strong"], "No")
    assert p.check("Between 0 and 1.").correct  # Mitchell's 0.795
    with pytest.raises(ValueError, match="label"):
        nx.predict_unseen_value(t.X, t.y, t.feature_names, ["Sunny", "Cool", "High", "Strong"], "Maybe")


def test_smoothing_can_flip_against_scikit_learn():
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB
    from sklearn.preprocessing import OrdinalEncoder

    t = datasets.play_tennis()
    enc = OrdinalEncoder().fit(t.X)
    query = np.array([["Sunny", "Cool", "High", "Weak"]])
    decisions = [SkCategoricalNB(alpha=a, force_alpha=True).fit(enc.transform(t.X), t.y)
                 .predict(enc.transform(query))[0] for a in (1e-10, 2.0)]
    assert decisions == ["No", "Yes"]  # smoothing flips this day
    c = nx.smoothing_can_flip(t.X, t.y, t.feature_names)
    yes, no = (next(o for o in c.options if o.startswith(w)) for w in ("Yes", "No"))
    assert c.kind == "concept" and c.check(yes).correct and not c.check(no).correct
    assert len(c.options) >= 3
    assert "⟨Sunny, Cool, High, Weak⟩" in c.explanation and r"\alpha = 2$" in c.explanation
    assert all("Yes" not in (r or "") for i, r in enumerate(c.reasons) if i not in c.correct)
    # with one value per feature nothing can flip: the answer is computed, not fixed
    same = np.array([["a", "x"], ["a", "x"], ["a", "x"]])
    c1 = nx.smoothing_can_flip(same, np.array(["p", "p", "q"]), ["f", "g"])
    assert c1.options[c1.correct[0]].startswith("No")
    with pytest.raises(ValueError, match="alphas"):
        nx.smoothing_can_flip(t.X, t.y, t.feature_names, alphas=(0.0,))


def test_predict_narrow_bins_against_scikit_learn():
    from sklearn.naive_bayes import CategoricalNB as SkCategoricalNB

    from genviz.studies.naive_bayes_experiments import discretization
    from genviz.naive_bayes import discretize

    p = datasets.penguins()
    flipper = p.X[:, 2]
    acc = {}
    for w in (20.0, 2.0):
        d = discretization(flipper, p.y, width=w)
        bins = discretize(flipper, d.edges)[:, None] - 1
        sk = SkCategoricalNB(alpha=1.0, min_categories=d.n_bins).fit(bins, p.y)
        acc[w] = np.mean(sk.predict(bins) == p.y)
    assert acc[2.0] > acc[20.0]
    pr = nx.predict_narrow_bins(flipper, p.y, 20, 2)
    assert pr.check("It rises.").correct and not pr.check("It falls.").correct
    with pytest.raises(ValueError, match="narrow"):
        nx.predict_narrow_bins(flipper, p.y, 20, 0)


def test_predict_correlation_against_scikit_learn():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB

    from genviz.studies.naive_bayes_experiments import nb_vs_gda

    acc = {}
    for rho in (0.0, 0.95):
        r = nb_vs_gda(rho)
        acc[rho] = [np.mean(m.fit(r.X, r.y).predict(r.X_test) == r.y_test)
                    for m in (SkGaussianNB(), LinearDiscriminantAnalysis())]
    assert acc[0.95][1] - acc[0.0][1] > 0.1 and abs(acc[0.95][0] - acc[0.0][0]) < 0.02
    pr = nx.predict_correlation()
    assert pr.check("GDA's rises; naive Bayes' stays about the same.").correct
    assert not pr.check("Both rise.").correct
    r, r0 = nb_vs_gda(0.95), nb_vs_gda(0.0)
    # both accuracies, before (rho = 0) and after (rho = 0.95): what decides the claim
    assert pr.observation._answer == pytest.approx([r.accuracy_gda, r.accuracy_nb])
    assert pr.observation.expected_before == pytest.approx([r0.accuracy_gda, r0.accuracy_nb])
    assert pr.observation.before == {"rho": 0.0}
    assert pr.observation._answer == pytest.approx([acc[0.95][1], acc[0.95][0]], abs=0.02)


def _two_classes(n, rng):
    one = rng.normal(0.0, 1.0, n)
    two = np.concatenate([rng.normal(-3.0, 0.6, n // 2), rng.normal(3.0, 0.6, n - n // 2)])
    return np.concatenate([one, two]), np.repeat(["one", "two"], n)


def test_predict_wide_kde_against_scikit_learn_kernel_density():
    from sklearn.neighbors import KernelDensity

    rng = np.random.default_rng(7)
    x, y = _two_classes(150, rng)
    xt, yt = _two_classes(1000, rng)

    def acc(h):
        logp = np.column_stack([
            KernelDensity(bandwidth=h).fit(x[y == c, None]).score_samples(xt[:, None])
            + np.log(np.mean(y == c)) for c in ("one", "two")])
        return np.mean(np.array(["one", "two"])[logp.argmax(axis=1)] == yt)

    assert acc(3.0) < acc(0.3) - 0.01
    pr = nx.predict_wide_kde(x, y, xt, yt, 0.3, 3.0)
    assert pr.check("It falls, to about Gaussian naive Bayes' level or below.").correct
    assert not pr.check("It rises: smoother densities generalise better to new points.").correct
    assert pr.observation._answer == pytest.approx(acc(3.0), abs=1e-9)
    with pytest.raises(ValueError, match="x_train"):
        nx.predict_wide_kde(x[:, None], y, xt, yt, 0.3, 3.0)


def test_duplicated_feature_against_scikit_learn():
    from sklearn.naive_bayes import GaussianNB as SkGaussianNB

    p = datasets.penguins()
    x = p.X[:, 2]
    once = SkGaussianNB().fit(x[:, None], p.y).predict_proba(x[:, None]).max(axis=1).mean()
    twice = SkGaussianNB().fit(np.c_[x, x], p.y).predict_proba(np.c_[x, x]).max(axis=1).mean()
    assert twice > once
    c = nx.duplicated_feature(x, p.y)
    assert c.kind == "concept"
    assert c.check("They get more extreme, nearer 0 or 1.").correct
    assert not c.check("Nothing: naive Bayes sees that one column is a copy.").correct
    with pytest.raises(ValueError, match="x"):
        nx.duplicated_feature(np.c_[x, x], p.y)


