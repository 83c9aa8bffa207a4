"""Exercises for notebook 01 (probability, joint tables, learning a joint)."""

from __future__ import annotations

import math

import numpy as np

from genviz.exercises import Choice, Exercise, Prediction
from genviz.joint import JointTable, dimensionality_curve

__all__ = ["marginal_probability", "posterior_by_bayes", "parameter_count",
           "dataset_log_likelihood", "predict_empty_cells", "independence_concept",
           "explorer_empty_fraction"]


def _explorer_curve(records, names, n, seed):
    """The curve the dimensionality explorer shows for ``n`` records: its subset is the first
    ``n`` of a seeded permutation (``genviz.plots.joint.DimensionalityView``)."""
    records = np.asarray(records, dtype=object)
    order = np.random.default_rng(seed).permutation(len(records))
    return dimensionality_curve(records[order[:n]], names)


def _fmt(assignment: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in assignment.items())


def marginal_probability(table, assignment: dict) -> Exercise:
    """``P(assignment)`` by summing the matching rows of the table."""
    return Exercise(
        f"From the joint table, what is P({_fmt(assignment)})?",
        table.prob(assignment),
        hint="Marginalise: add the probabilities of every row that agrees with the assignment "
             "(whatever the other variables are). Check which rows you add.",
        solution=r"Marginalise: $P(B) = \sum_{v} P(B \wedge A = v)$ — add the probabilities of "
                 r"every row that agrees with the assignment, whatever the other variables are "
                 r"(`table.prob(...)` does the sum).",
    )


def posterior_by_bayes(table, hypothesis: dict, evidence: dict) -> Exercise:
    """``P(H | E)`` from ``P(E | H) P(H) / P(E)``."""
    r = table.bayes(hypothesis, evidence)
    return Exercise(
        f"Use Bayes' rule: what is P({_fmt(hypothesis)} | {_fmt(evidence)})?",
        r.posterior,
        hint="P(H | E) = P(E | H) P(H) / P(E); each part is a sum of table rows, or take "
             "P(H, E) / P(E) directly.",
        solution=(rf"$P(E \mid H) = {r.likelihood:.4g}$, $P(H) = {r.prior:.4g}$, "
                  rf"$P(E) = {r.evidence:.4g}$, so $P(H \mid E) = \dfrac{{P(E \mid H)\,P(H)}}"
                  rf"{{P(E)}} = \dfrac{{{r.likelihood:.4g} \times {r.prior:.4g}}}{{{r.evidence:.4g}}}"
                  rf" = {r.posterior:.4g}$."),
    )


def parameter_count(cardinalities: dict) -> Exercise:
    """Free parameters of the full joint table over variables with these numbers of values."""
    cells = math.prod(cardinalities.values())
    times = r" \times "
    return Exercise(
        f"How many free parameters has the full joint table over {cardinalities} "
        f"(variable: number of values)?",
        cells - 1,
        hint="One probability per row of the truth table (the product of the numbers of values), "
             "but they must sum to 1.",
        solution=(f"${times.join(map(str, cardinalities.values()))} = {cells}$ cells, minus 1 "
                  rf"because the probabilities must sum to 1: ${cells} - 1 = {cells - 1}$."),
    )


def dataset_log_likelihood(table, records) -> Exercise:
    """``sum_i log P(x_i)`` of a few records under the table (natural log)."""
    return Exercise(
        f"What is the log-likelihood (natural log) of these {len(records)} records under the "
        f"table?",
        table.log_likelihood(records),
        hint="Records are independent: log P(dataset) = sum_i log P(x_i). Look up each record's "
             "row; a zero-probability record makes the sum -inf.",
        solution=(r"Records are i.i.d., so $\log \hat P(\text{dataset}) = \sum_i \log \hat P(x_i)$: "
                  r"look up each record's probability and add the natural logs "
                  r"(`table.log_likelihood(records)`)."),
    )


def predict_empty_cells(records, names, d=3, n_to=50, *, seed=0) -> Prediction:
    """Before the dimensionality explorer: with d variables fixed, what do fewer records do to
    the share of empty cells? (Computed from the explorer's own subsets.)"""
    full = _explorer_curve(records, names, len(records), seed)["empty_fraction"][d - 1]
    few = _explorer_curve(records, names, n_to, seed)["empty_fraction"][d - 1]
    right = 0 if few > full else 1 if few < full else 2
    return Prediction(
        f"The explorer below starts with d = {d} variables and all {len(records)} records. "
        f"Keep d = {d} and drag the records n down to {n_to}. The share of empty cells (cells "
        f"no record falls in, which the learned table calls impossible)...",
        ["rises", "falls", "stays the same: the table has as many cells as before"],
        right,
        explanation=(f"The table still has the same cells, but fewer records fall in them: "
                     f"at d = {d} the empty share goes from {100 * full:.1f} % with all "
                     f"{len(records)} records to {100 * few:.1f} % with {n_to}. A table "
                     f"learned by counting needs many records per cell; fewer records, or more "
                     f"cells (raise d), both leave cells empty."),
        reasons=[None, "Every record fills at most one cell: can removing records fill more "
                       "cells?", "The number of cells is the same, but is the number of "
                             "occupied cells?"],
    )


def independence_concept(p_high=0.9) -> Choice:
    """If A and B are independent given C, are they independent? (A counter-example table is
    built and measured with genviz.)"""
    # C a fair coin; given C, A and B are independent Bernoulli(p) with p depending on C
    probs = []
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                p = p_high if c else 1 - p_high
                probs.append(0.5 * (p if a else 1 - p) * (p if b else 1 - p))
    table = JointTable({"A": [0, 1], "B": [0, 1], "C": [0, 1]}, probs)
    given = table.independence_gap("A", "B", given="C")
    gap = table.independence_gap("A", "B")
    return Choice(
        "Naive Bayes assumes that features are independent given the class. If A ⊥ B | C (A and "
        "B independent given C), are A and B independent?",
        ["yes, always: conditioning can only remove dependence",
         "not necessarily: conditional independence and independence are different properties",
         "only when C has two values"],
        1,
        explanation=(rf"A counter-example: a fair coin $C$; given $C$, $A$ and $B$ are "
                     rf"independent coins that land 1 with probability {p_high} if $C = 1$ and "
                     rf"{1 - p_high:.1f} if $C = 0$. The gap $\max|P(A,B\mid C) - "
                     rf"P(A\mid C)P(B\mid C)|$ is {given:.2g}, but without $C$ the gap is "
                     rf"{gap:.3f}: $A = 1$ makes $C = 1$ likely, hence $B = 1$. (The reverse fails "
                     rf"too: two independent causes of an alarm become dependent once you know "
                     rf"it rang.)"),
        reasons=["Conditioning can also remove independence: two causes of one alarm.",
                 "Both directions fail: each property can hold without the other.",
                 "The number of values of C plays no role: think of a hidden common cause."],
        hint="Think of C as a hidden common cause of A and B.",
    )


def explorer_empty_fraction(records, names, d, n, *, seed=0) -> Exercise:
    """Read, in the dimensionality explorer, the share of empty cells at (d, n) (kind
    "explorer")."""
    curve = _explorer_curve(records, names, n, seed)
    empty = float(curve["empty_fraction"][d - 1])
    cells = int(curve["cells"][d - 1])
    occupied = int(curve["occupied"][d - 1])
    return Exercise(
        f"In the explorer, set d = {d} variables and n = {n} records. What fraction of the "
        f"cells is empty (a number between 0 and 1)?",
        empty,
        hint="Set both sliders (click one, then use the arrow keys) and read the readout's "
             "'empty cells' line; it is a percentage, so divide by 100.",
        solution=(f"With d = {d} the table has {cells} cells; the {n} records fall in "
                  f"{occupied} of them, so {cells - occupied} of {cells} are empty: "
                  f"${cells - occupied}/{cells} = {empty:.4f}$."),
        kind="explorer", rtol=2e-3, atol=6e-4,
    )
