"""The analogous situations (issue #40 item 3) that end the predictions of notebook 09
(:mod:`genviz.exercises.knn`): each prediction's idea in another setting, as a
:class:`~genviz.exercises.Choice` of kind ``"transfer"`` whose right option and numbers are
computed with the model layer. Apart from the predictions so that module stays under ~450 lines.
"""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice
from genviz.exercises.choice import _transfer
from genviz.knn import KNNRegressor, vote_counts
from genviz.knn import majority_vote as vote_winner
from genviz.projections import projection_ratios

__all__ = []  # private helpers only: the predictions of genviz.exercises.knn use them


def _wrong_vote_probability(k, p) -> float:
    """The probability that genviz's vote of ``k`` neighbours (:func:`genviz.knn.vote_counts`,
    :func:`genviz.knn.majority_vote`) gives the wrong class when each neighbour's label is
    wrong independently with probability ``p``: every pattern of wrong labels, weighted."""
    wrong = (np.arange(2 ** k)[:, None] >> np.arange(k)) & 1  # every pattern: 1 = a wrong label
    n_wrong = wrong.sum(axis=1)
    weight = p ** n_wrong * (1 - p) ** (k - n_wrong)
    outvoted = vote_winner(vote_counts(wrong, 2)) == 1
    return float(weight[outvoted].sum())


def _noise_and_k_transfer(p=0.1, k=9) -> Choice:
    """The analogous situation after the label-noise cycle: an e-mail client that files by the
    nearest filed message or by a vote of ``k``, with a share ``p`` of the filed messages in the
    wrong folder; how often each is wrong, computed with genviz's vote
    (:func:`_wrong_vote_probability`)."""
    one, vote = _wrong_vote_probability(1, p), _wrong_vote_probability(k, p)
    return _transfer(
        "09-noise-and-k", 1,
        f"An e-mail client files a new message in the folder of the most similar filed message, "
        f"or by a vote of the {k} most similar. {p:.0%} of the filed messages were put in the "
        f"wrong folder, at random. A new message's {k} most similar messages all belong in "
        f"'invoices'. How often does each rule file it wrongly?",
        [(f"both about {one:.0%}: every filed message is wrong as often",
          "Each filed message is wrong as often, but does one wrong message decide "
          "the vote?"),
         (f"nearest {one:.0%}, vote about {vote:.2%}: almost never", None),
         (f"nearest {one:.0%}, vote about {one / k:.1%}: a {k}th of it",
          "Averaging would divide it by the number of neighbours; a majority must "
          "be outvoted."),
         (f"nearest {one:.0%}, vote more often: {k} chances of a wrong label",
          "More neighbours bring more wrong labels, but do they outnumber the right "
          "ones?")],
        explanation=(f"The nearest message is in the wrong folder with probability {p:g}, and "
                     f"then the rule copies the mistake: {one:.0%}. The vote is wrong only when "
                     f"{k // 2 + 1} or more of the {k} messages are misfiled, which happens "
                     f"with probability {vote:.5f} (every pattern of misfiled messages weighed "
                     f"with genviz's vote): {one / vote:.0f} times less often. Mistakes that "
                     f"are rare and independent almost never make a majority."),
        claims=[rf"wrong only when {k // 2 + 1} or more"])


def _regression_k_transfer(windows=(1, 15, 181), *, days=730, noise=3.0, seed=0) -> Choice:
    """The analogous situation after the regression cycle: daily temperatures of two years
    smoothed by a moving average, which is k-NN regression on the day number; the error
    against the seasonal curve computed with :class:`genviz.knn.KNNRegressor` for each window."""
    t = np.arange(days, dtype=float)
    season = 10.0 - 8.0 * np.cos(2 * np.pi * t / 365.0)
    temps = season + np.random.default_rng(seed).normal(0.0, noise, days)
    mse = [float(np.mean((KNNRegressor(w).fit(t[:, None], temps).predict(t[:, None])
                          - season) ** 2)) for w in windows]
    if not mse[0] > mse[1] < mse[2]:
        raise RuntimeError(f"the errors {mse} have no minimum in between: change the windows")
    return _transfer(
        "09-regression-k", 1,
        f"A weather station smooths {days // 365} years of daily temperatures (a seasonal "
        f"curve plus day-to-day weather) with a moving average over the {windows[0]}, "
        f"{windows[1]} or {windows[2]} nearest days. Which average is closest to the seasonal "
        f"curve?",
        [(f"the {windows[2]}-day one: the more days, the less weather",
          f"Over {windows[2]} days the average reaches from summer into winter."),
         (f"the {windows[1]}-day one; both others are further off", None),
         (f"the {windows[0]}-day one: each day's own reading",
          "One day's reading carries all of that day's weather.")],
        explanation=(f"A moving average over the nearest days is k-NN regression on the day "
                     f"number. Its mean squared error against the seasonal curve (genviz's "
                     f"k-NN regressor on a seeded series): {mse[0]:.2f} over {windows[0]} day, "
                     f"{mse[1]:.2f} over {windows[1]} days, {mse[2]:.2f} over {windows[2]} "
                     f"days. One day copies that day's weather; a half-year window averages "
                     f"summer with winter and flattens the seasons; a couple of weeks average "
                     f"the weather away and still follow the seasons."),
        claims=[r"half-year window averages summer with winter"])


def _projection_spread_transfer(d=4, factors=(4, 8, 16, 64), *, m=30, n_features=300,
                                 seed=0) -> Choice:
    """The analogous situation after the projection cycle: cutting the spread of the distance
    ratios to a quarter; the factor is the one whose spread ratio is nearest 1/4, from
    :func:`genviz.projections.projection_ratios` on seeded random points."""
    # the points from another seed than the projection's: the same seed would make the
    # projection's rows the points themselves
    X = np.random.default_rng(seed + 1).normal(size=(m, n_features))
    study = projection_ratios(X, d * max(factors), seed)
    spread = {dd: float(study.stats[dd - 1]["std"]) for dd in (d, *[d * f for f in factors])}
    best = min(factors, key=lambda f: abs(np.log(spread[d] / spread[d * f]) - np.log(4)))
    if best != 16:
        raise RuntimeError(f"the spread is nearest a quarter at {best} times d, not at the "
                           f"16 times that 1/sqrt(d) says: change the points")
    right = factors.index(best)
    reasons = ["Four times the dimensions halves the spread; a quarter is two halvings.",
               "The spread falls like one over the square root of d: what does 8 give?",
               "The spread falls like one over the square root of d: square the factor.",
               "That cuts the spread to an eighth: the square root of 64 is 8."]
    return _transfer(
        "09-projection-spread", right,
        f"A music service projects {n_features}-dimensional song features to d = {d}; the "
        f"ratios of projected to true distances spread with standard deviation "
        f"{spread[d]:.2f}. To cut that spread to a quarter, by what factor must d grow?",
        [(f"{f} times (d = {d * f})", None if i == right else reasons[i])
         for i, f in enumerate(factors)],
        explanation=(rf"The spread shrinks like $1/\sqrt{{d}}$, so a quarter of it takes "
                     rf"$4^2 = 16$ times as many dimensions: at $d = {d * best}$ the "
                     rf"standard deviation is {spread[d * best]:.3f}, "
                     rf"{spread[d] / spread[d * best]:.1f} times smaller than at $d = {d}$ "
                     rf"(genviz's projections of {m} random points). Each halving of the "
                     rf"spread costs a factor 4 in d: quartering it costs 16."),
        claims=[r"quartering it costs 16"])
