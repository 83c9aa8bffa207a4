"""Exercises for notebooks 06 (naive Bayes by counting) and 08 (continuous features)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Exercise
from genviz.naive_bayes import CategoricalNB, GaussianNB, discretize

__all__ = ["conditional_by_counting", "posterior_of_query", "decision_of_query",
           "living_area_bin", "gaussian_nb_parameters", "parameter_count"]


def _fit(X, y, feature_names, alpha):
    return CategoricalNB(alpha=alpha).fit(X, y, feature_names=list(feature_names))


def conditional_by_counting(X, y, feature_names, feature, value, label, alpha=0.0) -> Exercise:
    """``P(feature = value | y = label)`` counted from the table, with Laplace ``alpha``."""
    nb = _fit(X, y, feature_names, alpha)
    j = list(feature_names).index(feature)
    p = nb.conditional_table(j)[nb.classes_.tolist().index(label),
                                nb.categories_[j].tolist().index(value)]
    rule = ("count the rows with y = {label} and {feature} = {value}, divide by the rows with "
            "y = {label}").format(label=label, feature=feature, value=value)
    if alpha:
        rule += f"; then add alpha = {alpha:g} on top and alpha times the number of values below"
    return Exercise(
        f"From the table, what is P({feature} = {value} | y = {label})"
        + (f" with Laplace smoothing alpha = {alpha:g}?" if alpha else " (no smoothing)?"),
        float(p),
        hint=rule[0].upper() + rule[1:] + ".",
        solution=(rf"$P(\text{{{feature}}} = \text{{{value}}} \mid y = \text{{{label}}}) = "
                  rf"\dfrac{{c_v + \alpha}}{{N_k + \alpha\,|\text{{values}}|}} = {float(p):.4f}$ "
                  rf"with $\alpha = {alpha:g}$: $c_v$ counts the class-{label} rows with {feature} = "
                  rf"{value}, $N_k$ all class-{label} rows."),
    )


def posterior_of_query(X, y, feature_names, query, label, alpha=1.0) -> Exercise:
    """The normalised posterior ``P(y = label | x = query)``."""
    nb = _fit(X, y, feature_names, alpha)
    e = nb.explain(query)
    k = e["classes"].index(label)
    return Exercise(
        f"With alpha = {alpha:g}, what is P(y = {label} | x = {tuple(query)})?",
        float(e["posterior"][k]),
        hint="Multiply P(y) by the four factors P(x_j | y) for every class, then divide the "
             "score of this class by the sum of the scores (the normaliser).",
        solution=(r"Scores $P(y)\prod_j P(x_j \mid y)$: " + ", ".join(
            f"{c}: ${s:.5f}$" for c, s in zip(e["classes"], e["joint"]))
            + rf"; normalised, $P(y = \text{{{label}}} \mid x) = {e['posterior'][k]:.4f}$."),
    )


def decision_of_query(X, y, feature_names, query, alpha=0.0) -> Exercise:
    """The predicted label of ``query`` (a string)."""
    nb = _fit(X, y, feature_names, alpha)
    e = nb.explain(query)
    return Exercise(
        f"With alpha = {alpha:g}, which label does naive Bayes predict for {tuple(query)}?",
        str(e["decision"]),
        hint="Compare the unnormalised scores P(y) prod_j P(x_j | y); normalising does not "
             "change which one is larger.",
        solution=(r"Scores $P(y)\prod_j P(x_j \mid y)$: "
                  + ", ".join(f"{c}: ${s:.5f}$" for c, s in zip(e["classes"], e["joint"]))
                  + f"; the larger wins: **{e['decision']}**."),
    )


def living_area_bin(area, edges=(400, 800, 1200, 1600)) -> Exercise:
    """Which discrete value the notes' binning gives a living area."""
    b = int(discretize([area], edges)[0])
    return Exercise(
        f"With the notes' bins (< 400, 400-800, 800-1200, 1200-1600, > 1600 square feet -> "
        f"1..5), which value x_j does a house of {area:g} square feet get?",
        b,
        hint="Count how many bin edges are at or below the area, then add 1.",
        solution=(f"{area:g} is at or above {int(np.sum(np.asarray(edges) <= area))} of the "
                  f"edges {', '.join(f'{e:g}' for e in edges)}, so $x_j = {b}$."),
        atol=0.0, rtol=0.0,
    )


def gaussian_nb_parameters(x, y, label) -> Exercise:
    """Gaussian naive Bayes' mean and variance of a feature ``x`` for class ``label``."""
    nb = GaussianNB(var_smoothing=0.0).fit(np.asarray(x, dtype=float)[:, None], y)
    k = nb.classes_.tolist().index(label)
    mean, var = float(nb.theta_[k, 0]), float(nb.var_[k, 0])
    return Exercise(
        f"What are the mean and the (maximum-likelihood) variance of this feature for class "
        f"{label}? Answer [mean, variance].",
        [mean, var],
        hint="Take only the rows of that class; the maximum-likelihood variance divides by "
             "their number N_k, not N_k - 1 (np.var, not np.var(ddof=1)).",
        solution=(rf"$\mu = \frac{{1}}{{N_k}}\sum_{{i: y_i = k}} x_i = {mean:.3f}$ and "
                  rf"$\sigma^2 = \frac{{1}}{{N_k}}\sum_{{i: y_i = k}} (x_i - \mu)^2 = {var:.3f}$ "
                  r"(divide by $N_k$, not $N_k - 1$)."),
    )


def parameter_count(n_features, n_classes) -> Exercise:
    """Free parameters of Gaussian naive Bayes: a mean and a variance per feature and class,
    plus K - 1 class priors."""
    d, K = int(n_features), int(n_classes)
    count = 2 * d * K + (K - 1)
    return Exercise(
        f"How many free parameters does Gaussian naive Bayes have with d = {d} features and "
        f"K = {K} classes?",
        count,
        hint="Each class has one mean and one variance per feature; the K priors sum to 1.",
        solution=(rf"$2dK + (K - 1) = 2 \cdot {d} \cdot {K} + {K - 1} = {count}$ (GDA with a shared "
                  rf"full covariance has $dK + d(d+1)/2 + K - 1 = "
                  rf"{d * K + d * (d + 1) // 2 + K - 1}$)."),
        atol=0.0, rtol=0.0,
    )
