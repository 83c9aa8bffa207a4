"""Exercises for notebooks 06 (naive Bayes by counting) and 08 (continuous features)."""

from __future__ import annotations

import re

import numpy as np

from genviz._validation import check_scalar, check_vector
from genviz.exercises import Choice, Exercise, Observation, Prediction
from genviz.exercises.naive_bayes_practice import (  # re-exported: the notebooks' builders
    alpha_for_posterior, bimodal_sensor, full_joint_of_a_small_table,
    gaussian_nb_as_gaussian_derivation, logsumexp_shift_derivation, rare_symptom,
    rho_for_gda_advantage, silverman_on_two_modes, smoothing_can_flip)
from genviz.exercises.naive_bayes_practice import _day, _fit, _posterior  # one table, one way
from genviz.exercises.naive_bayes_transfer import (  # the analogous situations (#40 item 3)
    _correlation_transfer, _narrow_bins_transfer, _smallest_alpha_transfer,
    _unseen_value_transfer, _wide_kde_transfer)
from genviz.studies.naive_bayes_experiments import discretization, nb_vs_gda
from genviz.naive_bayes import KDENB, GaussianNB, discretize

__all__ = ["conditional_by_counting", "posterior_of_query", "decision_of_query",
           "living_area_bin", "gaussian_nb_parameters",
           "predict_smallest_alpha", "predict_unseen_value", "smoothing_can_flip",
           "predict_narrow_bins", "predict_correlation",
           "predict_wide_kde", "duplicated_feature",
           "alpha_for_posterior", "logsumexp_shift_derivation", "rare_symptom",
           "full_joint_of_a_small_table", "rho_for_gda_advantage",
           "gaussian_nb_as_gaussian_derivation", "bimodal_sensor", "silverman_on_two_modes"]


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
        objective="06.3" if alpha else "06.1",
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
        objective="06.2",
    )


def decision_of_query(X, y, feature_names, query, alpha=0.0) -> Exercise:
    """The predicted label of ``query`` (a string)."""
    nb = _fit(X, y, feature_names, alpha)
    e = nb.explain(query)
    decision = str(e["decision"])
    zero = [c for c, j in zip(e["classes"], e["joint"]) if j == 0]
    why = ("" if not zero else
           f" A value of the query never occurs with {', '.join(map(str, zero))} in the "
           f"table: one zero factor makes the whole product zero, whatever the other factors.")
    return Exercise(
        f"With alpha = {alpha:g}, which label does naive Bayes predict for {tuple(query)}?",
        decision,
        hint="Compare the unnormalised scores P(y) prod_j P(x_j | y); normalising does not "
             "change which one is larger.",
        solution=(r"Scores $P(y)\prod_j P(x_j \mid y)$: "
                  + ", ".join(f"{c}: ${s:.5f}$" for c, s in zip(e["classes"], e["joint"]))
                  + f"; the larger wins: naive Bayes answers **{decision}**." + why),
        claims=([r"one zero factor makes the whole product[^.]{0,60}zero"] if zero else
                [rf"(?#phrase)naive bayes (answers|predicts) {decision.lower()}\b"]),
        objective="06.3" if zero else "06.2",  # a zero factor is smoothing's topic
    )


def living_area_bin(area, edges=(400, 800, 1200, 1600)) -> Exercise:
    """Which discrete value the notes' binning gives a living area."""
    b = int(discretize([area], edges)[0])
    edges = [float(e) for e in edges]
    lo = f"< {edges[0]:g}" if b == 1 else f"{edges[b - 2]:g}"
    hi = "" if b > len(edges) else f"{edges[b - 1]:g}"
    span = lo if b == 1 else (f"{lo}–{hi}" if hi else f"> {lo}")
    on_edge = bool(np.any(np.isclose(edges, area)))
    return Exercise(
        "With the notes' bins (< 400, 400-800, 800-1200, 1200-1600, > 1600 square feet -> "
        "1..5), which value x_j does a house of "
        + (f"exactly {area:g} square feet get? The notes' table is ambiguous there; call "
           f"genviz's `discretize` to find its convention."
           if on_edge else f"{area:g} square feet get?"),
        b,
        hint="Count how many bin edges are at or below the area, then add 1.",
        solution=(f"{area:g} is at or above {int(np.sum(np.asarray(edges) <= area))} of the "
                  f"edges {', '.join(f'{e:g}' for e in edges)}: it is in the bin {span}: "
                  f"{b}, so $x_j = {b}$."),
        atol=0.0, rtol=0.0, objective="08.1",
        claims=[rf"{re.escape(lo)}(\s*[–-]\s*{re.escape(hi)})?\s*:\s*{b}\b" if b > 1 else
                rf"< ?{edges[0]:g}\s*:\s*1\b"]
        # on an edge the key is the convention: any edge with the value of the bin above it
        + ([r"(" + "|".join(rf"{e:g}\W+{i + 2}\b" for i, e in enumerate(edges)) + ")"]
           if on_edge else []),
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
        objective="08.2",
    )



# -- notebook 06: predictions before the explorers, a conceptual item ---------------------------
def _query_setting(feature_names, query) -> dict:
    """The query builder's dropdowns (one per attribute, named as the attribute) at ``query``."""
    return {str(f): str(v) for f, v in zip(feature_names, query)}


def _posterior_of(label):
    """A reader of the query builder's state: P(y = label | x) from its ``explain``."""
    def read(state):
        return _posterior(state["explain"], label)
    return read


def _posterior_observation(prompt, p, alpha, feature_names, query, label, *, hint):
    """The query builder at ``alpha`` and ``query``: the observation of P(y = label | x), ``p``,
    read from the readout's last row (3 decimals)."""
    return Observation(prompt, p, setting={"alpha": alpha, **_query_setting(feature_names, query)},
                       labels={"alpha": "α"}, read=_posterior_of(label), what=f"P({label} | x)",
                       hint=hint, atol=6e-4)


def predict_smallest_alpha(X, y, feature_names, query, alpha_step=0.05,
                           label=None) -> Prediction:
    """Before the EnjoySport explorer: which alpha first makes the 0/0 posterior defined.

    Computed: the posterior at ``alpha = 0`` and at the slider's first step ``alpha_step``. The
    observation: P(y = ``label`` | x) at ``alpha_step`` (``label``: the last class, by default).

    Examples
    --------
    >>> from genviz import datasets
    >>> t = datasets.enjoy_sport()
    >>> p = predict_smallest_alpha(t.X, t.y, t.feature_names,
    ...                            ["sunny", "cold", "high", "strong", "warm", "change"])
    >>> p.options[p.correct[0]][:10]
    'Any α > 0,'
    """
    alpha_step = check_scalar(alpha_step, "alpha_step", low=0.0, low_open=True)
    at_zero = _fit(X, y, feature_names, 0.0).explain(query)
    at_step = _fit(X, y, feature_names, alpha_step).explain(query)
    label = at_step["classes"][-1] if label is None else label
    options = ["Any α > 0, however small.", "α = 1 (Laplace's add-one) or more.",
               "None: the posterior stays 0/0 because the day was never seen.",
               "α ≥ 0.5: half a count is the least that fills an empty cell."]
    if at_zero["posterior"] is None and at_step["posterior"] is not None:
        answer = 0
    else:
        answer = 1 if at_zero["posterior"] is None else 2
    p_step = _posterior(at_step, label)
    return Prediction(
        f"At $\\alpha = 0$ the day {_day(query)} scores 0 for both classes, so its posterior is "
        "$0/0$. Which $\\alpha$ makes the posterior defined again?",
        options, answer, id="06-smallest-alpha",
        explanation=(r"With any pseudo-count $\alpha > 0$ every estimate "
                     r"$(c_v + \alpha)/(N_k + \alpha|\text{values}|)$ is positive, so both scores "
                     r"are positive and the posterior is defined. How much it moves depends on "
                     r"$\alpha$: watch every table flatten towards uniform as $\alpha$ grows."),
        reasons={1: "Laplace's 1 is one choice of pseudo-count; what matters is that no "
                    "estimate is 0.",
                 2: "Naive Bayes never needs the whole day to have been seen, only each value "
                    "with each class; smoothing gives the unseen pairs a small probability.",
                 3: "Is (0 + α)/(N + α|values|) zero for a smaller α?"},
        claims=[r"any (pseudo-count )?α > 0[^.]{0,80}(positive|defined|never 0)"],
        transfer=_smallest_alpha_transfer(),
        observation=_posterior_observation(
            f"Raise α one step above its start, to {alpha_step:g} (the query "
            f"{_day(query)}): is the posterior defined now? Record P(y = {label} | x).",
            p_step, alpha_step, feature_names, query, label,
            hint=f"read the row P(y | x) of the readout, column y = {label} (3 decimals)."))


def predict_unseen_value(X, y, feature_names, query, label, alpha=0.0) -> Prediction:
    """Before the query builder: ``P(y = label | query)`` when a value of the query never
    occurs with ``label`` in the table (computed with :meth:`CategoricalNB.explain`). The
    observation: that posterior in the query builder."""
    nb = _fit(X, y, feature_names, alpha)
    if label not in nb.classes_.tolist():
        raise ValueError(f"label {label!r} is not a class of y; pick one of {nb.classes_.tolist()}")
    e = nb.explain(query)
    p = _posterior(e, label)
    answer = 3 if e["posterior"] is None else 0 if p == 0.0 else 2 if p == 1.0 else 1
    options = ["Exactly 0.", "Between 0 and 1.", "Exactly 1.", "Undefined (0/0)."]
    return Prediction(
        f"With $\\alpha = {alpha:g}$, set the query to {_day(query)}. What is "
        f"$P(\\text{{{label}}} \\mid x)$?",
        options, answer, id="06-unseen-value",
        explanation=("A value that never occurred with a class in the table gets the estimate "
                     "0 for that class, and one zero factor makes the whole product "
                     r"$P(y)\prod_j P(x_j \mid y)$ zero, whatever the other attributes say. "
                     "The other class still has a positive score, so the posterior is defined "
                     "and all of it goes to the other class."),
        reasons={1: "Without smoothing, one factor of the product is an exact 0.",
                 2: "Look at which class never had this value.",
                 3: "0/0 needs every class's score to be 0; one class still scores above 0."},
        claims=[r"one zero factor makes the whole product[^.]{0,60}zero"],
        transfer=_unseen_value_transfer(),
        observation=_posterior_observation(
            f"Set the query to {_day(query)} with α = {alpha:g}: which class gets the "
            f"probability, and how much is left for {label}? Record P({label} | x).",
            p, alpha, feature_names, query, label,
            hint=f"set every dropdown, then read the row P(y | x), column y = {label}."))


# -- notebook 08: predictions before the explorers, a conceptual item --------------------------
def predict_narrow_bins(x, y, wide, narrow) -> Prediction:
    """Before the discretisation explorer: training accuracy as the bins narrow (computed with
    :func:`genviz.studies.naive_bayes_experiments.discretization`). The observation: the
    training accuracy on the bins at ``narrow``."""
    wide = check_scalar(wide, "wide", low=0.0, low_open=True)
    narrow = check_scalar(narrow, "narrow", low=0.0, low_open=True)
    a_wide = discretization(x, y, width=wide).accuracy_binned
    a_narrow = discretization(x, y, width=narrow).accuracy_binned
    answer = 2 if abs(a_narrow - a_wide) < 0.005 else (0 if a_narrow > a_wide else 1)
    return Prediction(
        f"Narrow the bins from {wide:g} to {narrow:g}. What happens to the training accuracy of "
        "naive Bayes on the bin index?",
        ["It rises.", "It falls.", "It stays about the same."], answer, id="08-narrow-bins",
        explanation=("Narrow bins let the counted table follow every bump of the training data: "
                     "more of the training points fall in bins where their own species is "
                     "counted most, so the training accuracy rises. That is memorising, not "
                     "learning: with few points per bin the estimates are noisy, and on points "
                     "not used for counting (leave-one-out, below) the gain disappears."),
        reasons={1: "Each narrow bin is scored on the very points it was counted from.",
                 2: "More bins means more free parameters fitted to the same training points."},
        claims=[r"narrow bins[^.]{0,60}(follow|fit)[^.]{0,60}training"],
        transfer=_narrow_bins_transfer(),
        observation=Observation(
            f"Compare the training accuracy on the bins at bin width {wide:g} with the one at "
            f"{narrow:g} (first edge 0, α = 1): record both.",
            float(a_narrow), setting={"width": narrow, "origin": 0.0, "alpha": 1.0},
            before={"width": wide}, expected_before=float(a_wide),
            labels={"width": "bin width", "origin": "first edge", "alpha": "α"},
            read="accuracy_binned", what="the training accuracy on the bins",
            hint="read the readout's line 'training accuracy, bins' (3 decimals).", atol=6e-4))


def predict_correlation(rho_from=0.0, rho_to=0.95) -> Prediction:
    """Before the naive Bayes vs GDA explorer: how both test accuracies move as rho grows
    (computed with :func:`genviz.studies.naive_bayes_experiments.nb_vs_gda`). The observation:
    how much higher GDA's test accuracy is than naive Bayes' at ``rho_to``."""
    a, b = nb_vs_gda(rho_from), nb_vs_gda(rho_to)
    gda_up = b.accuracy_gda - a.accuracy_gda > 0.02
    nb_up = b.accuracy_nb - a.accuracy_nb > 0.02
    answer = {(True, True): 0, (True, False): 1, (False, True): 2, (False, False): 3}[(gda_up, nb_up)]
    return Prediction(
        f"Move $\\rho$ from {rho_from:g} to {rho_to:g} (the classes differ only in $x_1$). What "
        "happens to the test accuracies?",
        ["Both rise.", "GDA's rises; naive Bayes' stays about the same.",
         "Naive Bayes' rises; GDA's stays about the same.", "Neither changes much."], answer,
        id="08-correlation",
        explanation=("GDA models the correlation: knowing $x_2$ tells it how much of $x_1$ is "
                     "shared noise, so it can subtract it (explaining away) and its boundary "
                     "tilts. Naive Bayes assumes $x_1$ and $x_2$ independent given the class; "
                     "$x_2$ has the same mean in both classes, so it ignores $x_2$ and uses only "
                     "$x_1$, whose overlap does not change with $\\rho$. At $\\rho = 0$ the two "
                     "models agree."),
        reasons={0: "x2 alone says nothing about the class: its mean is the same in both.",
                 2: "Naive Bayes cannot use a correlation it assumes away.",
                 3: "One of the two models can use the correlation."},
        claims=[r"gda models the correlation"],
        transfer=_correlation_transfer(-rho_to),
        observation=Observation(
            f"Compare both test accuracies, GDA's and naive Bayes', at ρ = {rho_from:g} with "
            f"both at ρ = {rho_to:g}: record both pairs, GDA's first.",
            [float(b.accuracy_gda), float(b.accuracy_nb)], setting={"rho": rho_to},
            labels={"rho": "ρ"},
            read=lambda state: (state["accuracy_gda"], state["accuracy_nb"]),
            before={"rho": rho_from},
            expected_before=[float(a.accuracy_gda), float(a.accuracy_nb)],
            parts=("GDA", "naive Bayes"), what="the test accuracies",
            hint="read the readout's GDA and naive Bayes accuracies (3 decimals each) and "
                 "type them as 0.900, 0.800.", atol=6e-4))


def predict_wide_kde(x_train, y_train, x_test, y_test, h_from, h_to) -> Prediction:
    """Before the KDE naive Bayes explorer: its test accuracy when h grows (computed with
    :class:`genviz.naive_bayes.KDENB` and :class:`GaussianNB`, as the view does). The
    observation: KDE naive Bayes' accuracy at ``h_to``."""
    x_train, x_test = check_vector(x_train, "x_train"), check_vector(x_test, "x_test")

    def acc(model):
        model.fit(x_train[:, None], y_train)
        return float(np.mean(model.predict(x_test[:, None]) == np.asarray(y_test)))

    a_from, a_to = acc(KDENB(bandwidth=h_from)), acc(KDENB(bandwidth=h_to))
    answer = 2 if abs(a_to - a_from) < 0.01 else (0 if a_to > a_from else 1)
    return Prediction(
        f"Raise the bandwidth $h$ from {h_from:g} to {h_to:g}. What happens to the test accuracy "
        "of KDE naive Bayes?",
        ["It rises: smoother densities generalise better to new points.",
         "It falls, to about Gaussian naive Bayes' level or below.", "It stays about the same."],
        answer, id="08-wide-kde",
        explanation=("A very wide kernel blurs each class into one broad hump: class \"two\" "
                     "loses its two separate modes and is smeared over the middle, as the single "
                     "Gaussian does. The classes' densities then overlap where they did not, and "
                     "the accuracy drops to where Gaussian naive Bayes is."),
        reasons={0: "Smoother is better only up to the point where the shape is lost.",
                 2: "The class densities' shape changes a lot between these bandwidths."},
        claims=[r"wide kernel blurs[^.]{0,60}(one broad hump|modes)"],
        transfer=_wide_kde_transfer(h_from, h_to),
        observation=Observation(
            f"Compare the test accuracy of KDE naive Bayes at h = {h_from:g} with the one at "
            f"h = {h_to:g}: record both.",
            a_to, setting={"bandwidth": h_to}, labels={"bandwidth": "h"}, read="accuracy_kde",
            before={"bandwidth": h_from}, expected_before=a_from,
            what="the accuracy of KDE naive Bayes",
            hint="read the readout's line 'accuracy, KDE naive Bayes' (3 decimals).",
            atol=6e-4))


def duplicated_feature(x, y) -> Choice:
    """Conceptual: Gaussian naive Bayes given the same feature twice (computed: the mean
    largest posterior with the feature once and twice)."""
    x = check_vector(x, "x")
    once = GaussianNB().fit(x[:, None], y).predict_proba(x[:, None]).max(axis=1).mean()
    twice = GaussianNB().fit(np.c_[x, x], y).predict_proba(np.c_[x, x]).max(axis=1).mean()
    answer = 1 if twice > once + 1e-9 else (2 if twice < once - 1e-9 else 0)
    return Choice(
        "We give Gaussian naive Bayes the same measurement twice (two identical columns). "
        "What happens to its posteriors?",
        ["Nothing: naive Bayes sees that one column is a copy.",
         "They get more extreme, nearer 0 or 1.",
         "They get less extreme, nearer the prior."], answer,
        id="08-duplicated-feature",
        claims=([r"double counted", r"likelihood ratio is squared"]
                if answer == 1 else [r"sees that one column is a copy"]),
        explanation=(r"Naive Bayes multiplies one factor per feature, so with a copy it computes "
                     r"$P(y)\,p(x \mid y)^2$: the likelihood ratio is squared and the posterior "
                     r"pushed towards 0 or 1 (and the prior weighs relatively less). Correlated "
                     r"features are double counted the same way, in part."),
        reasons={0: "Naive Bayes assumes features independent given the class; it cannot see "
                    "that two are copies.",
                 2: "Each factor adds evidence in the same direction."}, objective="08.3")


