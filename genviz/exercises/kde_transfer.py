"""The analogous situations (issue #40 item 3) that end the predictions of notebook 05
(:mod:`genviz.exercises.kde`): each prediction's idea in another setting, as a
:class:`~genviz.exercises.Choice` of kind ``"transfer"`` whose right option and numbers are
computed with the model layer. Apart from the predictions so that module stays under ~450 lines.
"""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice
from genviz.exercises.choice import _transfer
from genviz.exercises.kde_practice import _best_h
from genviz.kde import histogram, kde_pdf

__all__ = []  # private helpers only: the predictions of genviz.exercises.kde use them


def _bin_origin_transfer(*, seed=0) -> Choice:
    """The analogous situation after the histogram's cycle: a café's arrivals with a lunch rush,
    counted in hourly bins from the full hour and from the half hour (the tallest bar's count
    computed with :func:`genviz.kde.histogram` on a seeded day)."""
    gen = np.random.default_rng(seed)
    times = np.concatenate([gen.uniform(8.0, 20.0, 150), gen.normal(12.5, 0.12, 60)])
    (_, full), (_, half) = histogram(times, 1.0, 0.0), histogram(times, 1.0, 0.5)
    top_full, top_half = (int(round(h.max() * times.size)) for h in (full, half))
    if not top_half < 0.8 * top_full:
        raise RuntimeError(f"the half-hour bins do not split the rush ({top_full} -> {top_half} "
                           f"customers in the tallest bar): change the day")
    return _transfer(
        "05-bin-origin", 2,
        f"A café counts its {times.size} customers of one day in one-hour bins from 8:00 to "
        f"20:00; most of a lunch rush arrives between 12:15 and 12:45. The bins are moved to "
        f"start at the half hour (8:30, 9:30, ...). What happens to the rush's bar?",
        [("it moves half an hour later and keeps its height",
          "The edges move; the customers' arrival times do not."),
         ("nothing: the same customers in bins of the same width",
          "Same width, same customers, but each customer is counted in the bin "
          "that holds the arrival: which bins hold the rush now?"),
         ("the rush is split into two bars, each much lower", None),
         ("it gets taller: the new edges centre the rush in its bin",
          "Where is 12:30 now: inside a bin or on an edge?")],
        explanation=(f"From the full hour the whole rush falls in 12:00–13:00: the tallest bar "
                     f"counts {top_full} customers. From the half hour, 12:30 is an edge, so "
                     f"the rush is split between 11:30–12:30 and 12:30–13:30 and the tallest "
                     f"bar counts only {top_half} (genviz's histogram of this day). The same "
                     f"day reads as a sharp lunch peak or as a busy two hours, depending only "
                     f"on where the hours are cut."),
        claims=[r"rush is split (between|into) two"])


def _tiny_bandwidth_transfer(delays=(0.0, 4.0, 7.0, 12.0, 15.0, 18.0, 25.0, 31.0, 40.0, 55.0),
                              h=0.1, new=2.0) -> Choice:
    """The analogous situation after the tiny-bandwidth cycle: a KDE of ten flights' delays
    with a tiny h, asked about a delay between the sample's (the density there computed with
    :func:`genviz.kde.kde_pdf`)."""
    delays = np.asarray(delays, dtype=float)
    at_new = float(kde_pdf([new], delays, h)[0])
    at_sample = float(kde_pdf(delays[:1], delays, h)[0])
    gap = float(np.min(np.abs(delays - new)))
    if not at_new < 1e-6 * at_sample:
        raise RuntimeError(f"the estimate at {new:g} is not practically 0 ({at_new:.3g}): "
                           f"choose a delay further from the sample")
    return _transfer(
        "05-tiny-bandwidth", 2,
        f"A KDE is fitted to the delays of {delays.size} flights (in minutes: "
        f"{', '.join(f'{d:g}' for d in delays)}) with h = {h:g} min. A new flight is "
        f"{new:g} minutes late. What density does the estimate give that delay?",
        [("about what the true density of delays gives there",
          f"With a tiny h the estimate sees only the {delays.size} delays: is any "
          f"of them near {new:g} minutes?"),
         ("a large one: the tiny bandwidth makes every bump tall",
          "Every bump is tall at its own delay: how far does a bump reach?"),
         ("practically 0: the new flight looks impossible to it", None),
         (f"about 1/{delays.size}: each bump keeps its share of the area",
          "Each bump's area is 1/n, but it sits on its own delay: what is left "
          "between them?")],
        explanation=(f"The nearest delay in the sample is {gap:g} minutes away, "
                     f"{gap / h:g} bandwidths: every bump is a spike {h:g} min wide and "
                     f"adds essentially nothing there. genviz's estimate is {at_new:.0e} at "
                     f"{new:g} min (against {at_sample:.2f} at a sample delay), so the new "
                     f"flight is practically 0 for the estimate, and one such flight sends a "
                     f"test set's log-likelihood towards minus infinity: the estimate knows the "
                     f"{delays.size} delays, not the delays flights have."),
        claims=[r"new flight is practically (0|zero)"])


def _cv_transfer(n_from=100, n_to=1000, *, method="lscv", seed=1) -> Choice:
    """The analogous situation after the bandwidth cycle: a two-humped sample grows tenfold;
    the bandwidths cross-validation selects are computed on the explorer's grid
    (:func:`_best_h`) for seeded samples of both sizes."""
    def sample(n):
        gen = np.random.default_rng(seed)
        return np.concatenate([gen.normal(0.0, 1.0, n // 2), gen.normal(3.0, 0.5, n - n // 2)])

    few, many = _best_h(sample(n_from), method), _best_h(sample(n_to), method)
    ratio, k = few / many, n_to / n_from
    if not 1.15 < ratio < k / 2:
        raise RuntimeError(f"cross-validation's h shrinks {ratio:.2f} times for {k:g} times "
                           f"the data: change the samples")
    name = "least-squares" if method == "lscv" else "likelihood"
    return _transfer(
        "05-cv-fewer-points", 0,
        f"A geyser's eruption durations form two humps (short and long eruptions). "
        f"{name.capitalize()} cross-validation picks a bandwidth for the first {n_from} "
        f"eruptions; later it is run again on {n_to}. What does it pick then?",
        [(f"a smaller h, about {ratio:.1f} times smaller", None),
         ("a larger h: there are more points to cover",
          "More eruptions fill the humps more densely: do the bumps need to reach "
          "as far?"),
         ("the same h: the density has not changed",
          "The best h depends on the sample size, not only on the density."),
         (f"a smaller h, about {k:g} times smaller",
          "The noise falls slowly with n, so the best h shrinks slowly too: nowhere "
          "near as fast as n grows.")],
        explanation=(f"With {k:g} times as many eruptions the estimate at a given h is less "
                     f"noisy, so the balance of noise and blur sits at less smoothing: "
                     f"{name} cross-validation picks h = {few:.3f} for {n_from} eruptions and "
                     f"h = {many:.3f} for {n_to}, {ratio:.1f} times smaller (genviz, on the "
                     f"explorer's grid of h). The shrinking is slow, nowhere near {k:g} times: "
                     f"more data buy only a modestly smaller bandwidth."),
        claims=[r"more data buy only a modestly smaller bandwidth"])


def _2d_peak_transfer(h_from=1.0, h_to=2.0, *, n=1000, spread=7.0, seed=0) -> Choice:
    """The analogous situation after the 2-D peak's cycle: a 1-D KDE of adults' heights, its
    bandwidth doubled; the peak ratio computed with :func:`genviz.kde.kde_pdf` on a seeded
    sample."""
    heights = np.random.default_rng(seed).normal(170.0, spread, n)
    xs = np.linspace(140.0, 200.0, 601)
    ratio = float(kde_pdf(xs, heights, h_to).max() / kde_pdf(xs, heights, h_from).max())
    k = h_to / h_from
    if not (ratio < 1 and min(abs(np.log(ratio * k)), abs(np.log(ratio * k ** 2))) > 0.2):
        raise RuntimeError(f"the peak keeps {ratio:.0%} of its height, near a distractor: "
                           f"change the situation")
    return _transfer(
        "05-2d-peak", 1,
        f"A KDE of {n} adults' heights (spread about {spread:g} cm) uses h = {h_from:g} cm. "
        f"The bandwidth is raised to h = {h_to:g} cm. What happens to the peak of the "
        f"estimate?",
        [(f"it falls to about 1/{k:g}: every bump is {k:g} times lower",
          "That is one bump alone: how many people's bumps add up at the peak?"),
         (f"it keeps about {ratio:.0%} of its height, barely lower", None),
         ("it rises: the wider bumps overlap more",
          "Every bump gets lower: can a sum of lower bumps rise everywhere?"),
         (f"it falls to about 1/{k ** 2:g}, as a 2-D bump would",
          "In one dimension a bump widens in one direction only, and it is not "
          "alone either.")],
        explanation=(f"Each bump does get {k:g} times lower, but the heights spread over far "
                     f"more than a bandwidth: near the peak hundreds of people are within a few "
                     f"centimetres, and with wider bumps people further away add to it. The "
                     f"estimate is close to the heights' own density at both bandwidths, so "
                     f"the peak keeps about {ratio:.0%} of its height (genviz's KDE of a seeded "
                     f"sample); only a detail narrower than the bandwidth would be flattened."),
        claims=[r"heights spread over (far )?more than a bandwidth"])
