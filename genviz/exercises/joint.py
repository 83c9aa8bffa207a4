"""Exercises for notebook 01 (probability, joint tables, learning a joint)."""

from __future__ import annotations

import math

from genviz.exercises import Exercise

__all__ = ["marginal_probability", "posterior_by_bayes", "parameter_count",
           "dataset_log_likelihood"]


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
