"""Exercises for notebook 05 (density estimation: histograms, KDE, bandwidth selection)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Exercise
from genviz.kde import cv_curve, histogram_pdf, kde_pdf, rule_of_thumb

__all__ = ["kde_by_hand", "histogram_height", "silverman_bandwidth", "cv_selected_bandwidth"]


def kde_by_hand(data, x0, h, kernel="box") -> Exercise:
    """The KDE at one point, from the formula ``(1/(n h)) sum_i K((x0 - x_i)/h)``."""
    value = float(kde_pdf([x0], data, h, kernel)[0])
    return Exercise(
        f"With the {kernel} kernel, h = {h} and data {list(np.round(data, 3))}, what is "
        f"f_hat({x0})?",
        value,
        hint="Count (or weigh) the points x_i with (x0 - x_i)/h inside the kernel's support, then "
             "divide by n h. The slides' box kernel is 1 on [-1/2, 1/2).",
        solution=(rf"$\hat f(x_0) = \dfrac{{1}}{{nh}} \sum_{{i=1}}^n K\!\left(\dfrac{{x_0 - x_i}}"
                  rf"{{h}}\right) = {value:.4g}$ (with $n = {len(data)}$, $h = {h}$)."),
    )


def histogram_height(data, width, origin, x0) -> Exercise:
    """The histogram density at ``x0``: count in x0's bin / (n * width)."""
    return Exercise(
        f"For bins of width {width} starting at {origin}, what is the histogram density at "
        f"x = {x0}?",
        float(histogram_pdf([x0], data, width, origin)[0]),
        hint="Find the bin [origin + k w, origin + (k+1) w) that holds x, count the data in it, "
             "divide by n w (so the bars' area is 1).",
        solution=(r"The bin of $x$ is $k = \lfloor (x - \text{origin})/w \rfloor$; the density is "
                  r"$\dfrac{\text{count in bin } k}{n\,w}$, so the bars have total area 1."),
    )


def silverman_bandwidth(data) -> Exercise:
    """Silverman's rule of thumb from the sample's spread."""
    return Exercise(
        "What bandwidth does Silverman's rule of thumb give for this sample?",
        rule_of_thumb(data, "silverman"),
        hint="h = 0.9 min(s, IQR/1.34) n^(-1/5), with s the sample standard deviation (ddof=1) "
             "and IQR = q75 - q25 (np.percentile).",
        solution=(r"$h = 0.9\,\min(s, \mathrm{IQR}/1.34)\, n^{-1/5}$ with $s$ the sample standard "
                  r"deviation (`ddof=1`) and $\mathrm{IQR} = q_{75} - q_{25}$."),
    )


def cv_selected_bandwidth(data, hs, method="loo-likelihood") -> Exercise:
    """The grid bandwidth a CV criterion selects."""
    hs = np.asarray(hs, dtype=float)
    scores = cv_curve(data, hs, method)
    best = float(hs[np.argmax(scores) if method == "loo-likelihood" else np.argmin(scores)])
    better = "largest" if method == "loo-likelihood" else "smallest"
    return Exercise(
        f"Over the grid hs, which bandwidth does {method} cross-validation select?",
        best,
        hint=f"cv_curve(data, hs, '{method}') gives one score per h; take the h with the "
             f"{better} score ({'higher' if better == 'largest' else 'lower'} is better).",
        solution=(f"Score every $h$ of the grid (`cv_curve(data, hs, '{method}')`) and take the one "
                  f"with the {better} score: $h = {best:.4g}$. With fewer points the estimate is typically "
                  f"noisier, so cross-validation asks for more smoothing (a larger $h$)."),
    )
