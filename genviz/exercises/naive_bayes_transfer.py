"""The analogous situations (issue #40 item 3) that end the predictions of notebooks 06 and 08
(:mod:`genviz.exercises.naive_bayes`): each prediction's idea in another setting, as a
:class:`~genviz.exercises.Choice` of kind ``"transfer"`` whose right option and numbers are
computed with the model layer. Apart from the predictions so that module stays under ~450 lines.
"""

from __future__ import annotations

import numpy as np

from genviz import datasets
from genviz.exercises import Choice
from genviz.exercises.choice import _transfer
from genviz.naive_bayes import KDENB, CategoricalNB, discretize, leave_one_out_predict
from genviz.studies.naive_bayes_experiments import discretization, nb_vs_gda

__all__ = []  # private helpers only: the predictions of genviz.exercises.naive_bayes use them


# -- notebook 06 -------------------------------------------------------------------------------
def _zero_count_table():
    """Two classes of 10 rows over three features with values x and y: the query (x, x, x) has
    two values never seen with class A and one never seen with class B, each of them seen in 5
    rows of the other class."""
    a = [["y", "y", "x"]] * 5 + [["y", "y", "y"]] * 5
    b = [["x", "x", "y"]] * 5 + [["y", "y", "y"]] * 5
    return np.array(a + b, dtype=object), np.array(["A"] * 10 + ["B"] * 10)


def _smallest_alpha_transfer(alpha=0.01) -> Choice:
    """After 06-smallest-alpha: a tiny pseudo-count on another table, where the two classes miss
    different numbers of values (the posterior computed with :class:`CategoricalNB`)."""
    X, y = _zero_count_table()
    nb = CategoricalNB(alpha=alpha).fit(X, y)
    e = nb.explain(["x", "x", "x"])
    p = float(e["posterior"][e["classes"].index("B")])
    a, b = (float(s) for s in e["joint"])
    table = nb.conditional_table(0)  # feature 1: rows A, B; columns x, y
    empty, seen = float(table[0, 0]), float(table[1, 0])  # x never with A, 5 times with B
    answer = 0 if p > 0.9 else 3 if abs(p - 0.5) < 0.1 else 1
    return _transfer(
        "06-smallest-alpha", answer,
        f"A two-class naive Bayes learned from 10 rows per class meets a query whose three "
        f"values were each seen in 5 rows of one class and never in the other: two never with "
        f"class A, one never with class B. With the tiny pseudo-count α = {alpha:g}, what is "
        f"the posterior?",
        [(f"P(B | x) ≈ {p:.3f}, since B has fewer zero counts than A", None),
         ("Still 0/0: the query was never seen, so no α can help",
          "Naive Bayes never needs the whole query to have been seen: every value "
          "gets a small probability in every class once α > 0."),
         ("Still 0/0: below α = 1/2 an empty cell stays empty",
          f"Is (0 + α)/(10 + 2α) zero at α = {alpha:g}?"),
         (f"P(B | x) ≈ 0.5: α = {alpha:g} is too small to favour a class",
          "The estimates are tiny, but not equal: count the empty cells each class "
          "has to multiply in.")],
        explanation=(rf"With $\alpha = {alpha:g}$ a value never seen with a class gets "
                     rf"$\alpha/(10 + 2\alpha) = {empty:.5f}$, one seen in 5 of its 10 rows "
                     rf"$(5 + \alpha)/(10 + 2\alpha) = {seen:.4f}$. Class A carries two empty "
                     rf"cells, class B one, so B's score is ${b / a:.0f}$ times A's and "
                     rf"$P(B \mid x) = {p:.3f}$: with a tiny α the class with fewer zero counts "
                     r"takes almost all of the posterior, whatever its other values say."),
        claims=[r"fewer zero counts takes almost all"])


def _fraud_table(signs):
    """20 fraudulent and 20 normal transactions: ``signs`` warning signs, each present in 18 of
    the fraudulent and 2 of the normal ones, and the country, "Q" in 3 normal ones only."""
    fraud = [["yes" if i < 18 else "no"] * signs + ["home"] for i in range(20)]
    normal = [["yes" if i < 2 else "no"] * signs + ["Q" if i < 3 else "home"] for i in range(20)]
    return np.array(fraud + normal, dtype=object), np.array(["fraud"] * 20 + ["normal"] * 20)


def _unseen_value_transfer(signs=5, more=50) -> Choice:
    """After 06-unseen-value: a transaction with every warning sign of fraud but a country never
    seen among the frauds (α = 0). Computed: P(fraud | x) with ``signs`` to ``signs + more``
    signs, and the odds of the signs alone."""
    posteriors = []
    for k in range(signs, signs + more + 1):
        X, y = _fraud_table(k)
        e = CategoricalNB(alpha=0.0).fit(X, y).explain(["yes"] * k + ["Q"])
        posteriors.append(float(e["posterior"][e["classes"].index("fraud")]))
    X, y = _fraud_table(signs)
    e = CategoricalNB(alpha=0.0).fit(X[:, :signs], y).explain(["yes"] * signs)
    odds = float(e["joint"][e["classes"].index("fraud")] / e["joint"][e["classes"].index("normal")])
    ratio = odds ** (1 / signs)
    answer = 0 if max(posteriors) == 0.0 else 1 if posteriors[0] > 0.5 else 2
    return _transfer(
        "06-unseen-value", answer,
        f"A bank's naive Bayes (α = 0) learned from 20 fraudulent and 20 normal transactions. "
        f"A new one shows {signs} warning signs, each seen in 18 of the frauds and 2 of the "
        f"normal ones, and comes from a country seen in 3 normal transactions and no fraud. "
        f"How many more such warning signs would make fraud the more probable label?",
        [("No number of them: the country keeps fraud's score at 0", None),
         ("None are needed: fraud is already far more probable",
          "What is fraud's score when one of its factors is 0 over 20?"),
         (f"One more: each sign multiplies the odds by {ratio:.0f}",
          "Multiplying the odds of a score that is exactly 0 leaves 0."),
         ("About ten more, to outweigh a country seen 3 times in 20",
          "A count of 0 is not outweighed by any finite evidence: 0 times anything "
          "is 0.")],
        explanation=(f"The {signs} signs alone give odds of {odds:.0f} to 1 for fraud. But "
                     r"$P(\text{country} \mid \text{fraud})$ is the count 0 over 20, and the "
                     r"product $P(y)\prod_j P(x_j \mid y)$ stays 0 for fraud: $P(\text{fraud} "
                     rf"\mid x) = 0$ with {signs} signs and with {signs + more}. No number of "
                     r"such signs can lift it; only smoothing ($\alpha > 0$) gives the country "
                     r"a small probability among frauds, and the fraud goes through until then."),
        claims=[r"no number of such signs can lift"])


# -- notebook 08 -------------------------------------------------------------------------------
def _binned_accuracies(x, y, width):
    """(number of bins, training accuracy, leave-one-out accuracy) of naive Bayes on the bin
    index (α = 1), as notebook 08 computes them."""
    d = discretization(x, y, width=width)
    bins = discretize(x, d.edges)[:, None]
    loo = leave_one_out_predict(CategoricalNB(alpha=1.0), bins, y,
                                categories=[range(1, d.n_bins + 1)])
    return d.n_bins, float(d.accuracy_binned), float(np.mean(loo == np.asarray(y)))


def _narrow_bins_transfer(wide=5.0, narrow=0.1) -> Choice:
    """After 08-narrow-bins: another feature, the penguins' bill length, cut into very narrow
    bins (training and leave-one-out accuracy computed as the notebook does)."""
    p = datasets.penguins()
    x = p.X[:, p.feature_names.index("bill_length_mm")]
    _, train_w, loo_w = _binned_accuracies(x, p.y, wide)
    n, train_n, loo_n = _binned_accuracies(x, p.y, narrow)
    answer = (3 if train_n < train_w else 0 if loo_n < loo_w - 0.005 else
              1 if loo_n > loo_w + 0.005 else 2)
    return _transfer(
        "08-narrow-bins", answer,
        f"Another feature, the penguins' bill length: its bins are narrowed from {wide:g} mm to "
        f"{narrow:g} mm ({n} bins, most holding one or two penguins). What happens to the "
        f"training accuracy and to the leave-one-out accuracy of naive Bayes (α = 1)?",
        [("Training accuracy rises, leave-one-out accuracy falls.", None),
         ("Both rise: finer bins follow each species more closely.",
          "Each narrow bin is counted from one or two penguins: does it predict a "
          "penguin that was not counted?"),
         ("Training accuracy rises, leave-one-out stays where it was.",
          "Where does a held-out penguin land when it was the only one in its bin?"),
         ("Both fall: with so many bins most are nearly empty.",
          "Every training penguin's bin holds a count of its own species.")],
        explanation=(f"The training accuracy goes from {train_w:.3f} to {train_n:.3f}, the "
                     f"leave-one-out accuracy from {loo_w:.3f} down to {loo_n:.3f}. A penguin "
                     f"alone in its bin leaves that bin empty once it is held out: it is "
                     f"classified by the prior and α only, as if it had not been measured. "
                     f"Bins this narrow do worse than wide ones on new penguins."),
        claims=[r"alone in its bin[^.]{0,60}empty"])


def _correlation_transfer(rho=-0.95) -> Choice:
    """After 08-correlation: the same classes with a negative correlation (both test accuracies
    computed with :func:`~genviz.studies.naive_bayes_experiments.nb_vs_gda`)."""
    r0, r = nb_vs_gda(0.0), nb_vs_gda(rho)
    gda, nb = r.accuracy_gda - r0.accuracy_gda, r.accuracy_nb - r0.accuracy_nb
    answer = (1 if gda < -0.02 else 3 if gda > 0.02 and nb > 0.02 else
              0 if gda > 0.02 else 2)
    return _transfer(
        "08-correlation", answer,
        f"The same two classes, differing only in $x_1$, but now the noise of $x_2$ goes "
        f"against that of $x_1$: $\\rho = {rho:g}$. What happens to the test accuracies, "
        f"compared with $\\rho = 0$?",
        [("GDA's rises, as for ρ > 0; naive Bayes' stays about the same.", None),
         ("GDA's falls: the shared noise now works against the class signal.",
          "Does knowing x₂ tell less about the noise of x₁ when ρ is negative?"),
         ("Both stay: a negative correlation carries no information.",
          "|ρ| says how much x₂ knows about the noise of x₁; the sign only says "
          "which way."),
         ("Both rise: with ρ < 0 the two features disagree, which helps.",
          "x₂ has the same mean in both classes: on its own it says nothing.")],
        explanation=(f"At $\\rho = {rho:g}$ GDA reaches {r.accuracy_gda:.3f} (against "
                     f"{r0.accuracy_gda:.3f} at $\\rho = 0$), naive Bayes {r.accuracy_nb:.3f}. "
                     r"The sign of $\rho$ only says which way the noise of $x_2$ moves with "
                     r"that of $x_1$: knowing $x_2$ still tells how much of $x_1$ is noise, so "
                     r"GDA subtracts it whatever its sign, with the boundary tilted the other "
                     r"way. Naive Bayes still uses $x_1$ alone."),
        claims=[r"whatever (its|the) sign"])


def _two_unimodal_classes(rng, n):
    """``n`` points per class: "one" ~ N(-1, 1), "two" ~ N(1, 1)."""
    x = np.concatenate([rng.normal(-1.0, 1.0, n), rng.normal(1.0, 1.0, n)])
    return x, np.repeat(["one", "two"], n)


def _wide_kde_transfer(h_from=0.3, h_to=3.0, seed=3) -> Choice:
    """After 08-wide-kde: the same bandwidths on two classes of one hump each (KDE naive
    Bayes' test accuracy computed with :class:`KDENB`)."""
    rng = np.random.default_rng(seed)
    x, y = _two_unimodal_classes(rng, 150)
    x_test, y_test = _two_unimodal_classes(rng, 1000)
    a_from, a_to = (float(np.mean(KDENB(bandwidth=h).fit(x[:, None], y).predict(x_test[:, None])
                                  == y_test)) for h in (h_from, h_to))
    answer = 0 if abs(a_to - a_from) < 0.01 else (2 if a_to > a_from else 1)
    return _transfer(
        "08-wide-kde", answer,
        f"Two other classes, each a single hump: one around −1, the other around +1 (both "
        f"with standard deviation 1, 150 training points each). Raise the bandwidth of KDE "
        f"naive Bayes from h = {h_from:g} to h = {h_to:g}: what happens to its test accuracy?",
        [("About the same: a wide kernel keeps each class's one hump.", None),
         ("It falls: a wide kernel blurs the two classes into each other.",
          "Both classes widen alike: where do their densities cross?"),
         ("It rises: smoother densities generalise better to new points.",
          "Smoothing helps only while the shape is kept; here the shape has nothing "
          "to lose."),
         (f"It falls to about 0.5: at h = {h_to:g} the two humps coincide.",
          "Wider humps with different centres still cross between the centres.")],
        explanation=(f"The test accuracy goes from {a_from:.3f} at $h = {h_from:g}$ to "
                     f"{a_to:.3f} at $h = {h_to:g}$. A wide kernel turns each class into one "
                     f"broad hump around its mean: with one hump per class there is no second "
                     f"mode to lose, and the two humps still cross near the middle between "
                     f"the means, where the boundary was. What cost accuracy in the explorer "
                     f"was the shape lost, not the smoothing."),
        claims=[r"no second mode to lose"])
