"""Exercises for notebook 05 (density estimation: histograms, KDE, bandwidth selection)."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_points, check_scalar, check_vector
from genviz.exercises import Choice, Exercise, Observation, Prediction
from genviz.exercises.kde_transfer import (_2d_peak_transfer, _bin_origin_transfer, _cv_transfer,
                                          _tiny_bandwidth_transfer)
from genviz.exercises.kde_practice import (_best_h, compare_on_training_data, empty_histogram_bins,
                                           ise_optimal_bandwidth, lscv_leave_one_out_derivation)
from genviz.kde import (cv_curve, histogram, histogram_pdf, kde2d_grid, kde_pdf, rule_of_thumb,
                        sample_claw)

__all__ = ["kde_by_hand", "histogram_height", "cv_selected_bandwidth",
           "predict_bin_origin", "predict_tiny_bandwidth", "predict_cv_with_fewer_points",
           "predict_2d_peak", "more_smoothing_with_fewer_points",
           "ise_optimal_bandwidth", "lscv_leave_one_out_derivation",
           "compare_on_training_data", "empty_histogram_bins"]


def kde_by_hand(data, x0, h, kernel="box") -> Exercise:
    """The KDE at one point, from the formula ``(1/(n h)) sum_i K((x0 - x_i)/h)``."""
    value = float(kde_pdf([x0], data, h, kernel)[0])
    shown = [float(v) for v in np.round(np.asarray(data, dtype=float), 3)]
    return Exercise(
        f"With the {kernel} kernel, h = {h} and data {shown}, what is f_hat({x0})?",
        value,
        hint="Count (or weigh) the points x_i with (x0 - x_i)/h inside the kernel's support, then "
             "divide by n h. The slides' box kernel is 1 on [-1/2, 1/2).",
        solution=(rf"$\hat f(x_0) = \dfrac{{1}}{{nh}} \sum_{{i=1}}^n K\!\left(\dfrac{{x_0 - x_i}}"
                  rf"{{h}}\right)$ with $n = {len(shown)}$, $h = {h}$: so "
                  rf"$\hat f({x0:g}) = {value:.4g}$."),
        claims=[rf"hat f ?\( ?{x0:g} ?\) ?= ?{value:.4g}\b"], objective="05.2",
    )


def histogram_height(data, width, origin, x0) -> Exercise:
    """The histogram density at ``x0``: count in x0's bin / (n * width)."""
    value = float(histogram_pdf([x0], data, width, origin)[0])
    return Exercise(
        f"For bins of width {width} starting at {origin}, what is the histogram density at "
        f"x = {x0}?",
        value,
        hint="Find the bin [origin + k w, origin + (k+1) w) that holds x, count the data in it, "
             "divide by n w (so the bars' area is 1).",
        solution=(r"The bin of $x$ is $k = \lfloor (x - \text{origin})/w \rfloor$; the density is "
                  r"$\dfrac{\text{count in bin } k}{n\,w}$, so the bars have total area 1: "
                  rf"the histogram's density at $x = {x0:g}$ is ${value:.4g}$."),
        claims=[rf"density at x ?= ?{x0:g} is {value:.4g}\b"], objective="05.1",
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


# -- predictions before the explorers, a conceptual item, an item read off an explorer ---------
def predict_bin_origin(data, width, shift) -> Prediction:
    """Before the histogram explorer: what moving the bins' origin by ``shift`` does.

    The right option is computed: the bars' heights (as a sorted list) either change or only
    move sideways. The observation: the tallest bar at origin 0 and at ``shift`` (a pair: the
    sorted heights are the same, so the tallest bar is too, when the bars only slide).

    Examples
    --------
    >>> p = predict_bin_origin([0.1, 0.2, 0.6, 1.4], 1.0, 0.5)
    >>> p.options[p.correct[0]][:15]
    'The bar heights'
    """
    shift = check_scalar(shift, "shift")
    _, before = histogram(data, width, 0.0)
    _, after = histogram(data, width, shift)
    changes = not np.array_equal(np.sort(before[before > 0]), np.sort(after[after > 0]))
    options = ["Nothing changes: it is the same data with the same bin width.",
               "The bars only slide sideways; their heights stay the same.",
               "The bar heights change: peaks can appear or vanish."]
    return Prediction(
        f"Keep the bin width at {width:g} and move the origin from 0 to {shift:g}. What happens "
        "to the histogram?",
        options, 2 if changes else 1, id="05-bin-origin",
        explanation=("Each point is counted in the bin that holds it. Moving every edge "
                     "regroups the points: a cluster that sat in one bin is split between two, "
                     "or two halves of neighbouring bins are joined, so the counts and the bar "
                     "heights change. Two histograms of the same data with the same width can "
                     "tell different stories: the bin origin changes what the histogram shows, "
                     "a choice the data do not make for you."),
        reasons={0: "The data and the width are the same, but the edges are not.",
                 1: "The edges move, but the points do not move with them."},
        claims=[r"(same data|same width|same points)[^.]{0,60}different stor",
                r"moving (every|the) edges? regroups",
                r"origin[^.]{0,40}change\w* what (it|the histogram) shows"],
        transfer=_bin_origin_transfer(),
        observation=Observation(
            f"Compare the tallest bar at origin 0 with the tallest bar at origin {shift:g} "
            f"(bin width {width:g}): record both. Did the bars only slide, or did their "
            f"heights change?",
            float(after.max()), setting={"width": width, "origin": shift},
            before={"origin": 0.0}, expected_before=float(before.max()), compare="pair",
            labels={"width": "bin width"},
            read=lambda state: float(np.max(state["density"])),
            what="the tallest bar", hint="the readout gives the tallest bar (3 decimals).",
            atol=6e-4))


def predict_tiny_bandwidth(data, h_small=1e-3, h_observe=0.05,
                           x_range=(-3.0, 3.0), h_start=0.3) -> Prediction:
    """Before the KDE explorer: as h -> 0, what the sum of bumps becomes and its area.

    The area and the peak at ``h_small`` are computed with :func:`genviz.kde.kde_pdf` (on a grid
    fine enough to resolve the bumps), so the right option is what the estimator does. The
    observation reads both halves of the claim, the peak of the estimate (spikes: it grows) and
    its area (it stays), at the explorer's start ``h_start`` and at ``h_observe`` (its smallest
    h), on the explorer's window (:class:`genviz.plots.kde.KDEView`: 500 points over
    ``x_range``).

    Examples
    --------
    >>> p = predict_tiny_bandwidth([0.0, 1.0, 3.0])
    >>> p.options[p.correct[0]][:18]
    'Spikes at the data'
    """
    data = check_vector(data, "data")
    if data.size == 0:
        raise ValueError("data is empty; pass at least one observation")
    h_small = check_scalar(h_small, "h_small", low=0.0, low_open=True)
    h_observe = check_scalar(h_observe, "h_observe", low=0.0, low_open=True)
    h_start = check_scalar(h_start, "h_start", low=0.0, low_open=True)
    if h_start == h_observe:
        raise ValueError(f"h_start must differ from h_observe ({h_observe:g}): the observation "
                         f"reads the change between them")
    grid = np.concatenate([np.linspace(xi - 8 * h_small, xi + 8 * h_small, 401) for xi in data])
    grid = np.unique(grid)
    f = kde_pdf(grid, data, h_small)
    area = float(np.trapezoid(f, grid))
    # a spike at every point: at each x_i at least its own bump's peak, 1 / (n h sqrt(2 pi))
    spikes = kde_pdf(data, data, h_small).min() >= 0.99 / (data.size * h_small * np.sqrt(2 * np.pi))
    options = ["A flat line: the area goes to 0.",
               "Spikes at the data; the total area stays 1.",
               "Spikes whose total area grows without bound.",
               "The true density the data came from."]
    return Prediction(
        "Shrink $h$ towards 0. What does the sum of the bumps become, and what is its area?",
        options, 1 if (abs(area - 1) < 0.01 and spikes) else 0, id="05-tiny-bandwidth",
        explanation=(r"Each bump $\frac{1}{nh}K\left(\frac{x - x_i}{h}\right)$ has area $1/n$ "
                     r"whatever $h$ is; as $h \to 0$ it gets narrower and taller, so $\hat f$ "
                     r"becomes $n$ spikes at the data and keeps its total area: the estimate "
                     r"memorises the sample (over-fitting), which is the opposite of the true "
                     r"density."),
        reasons={0: "The height of each bump is 1/(nh): it grows as h shrinks.",
                 2: "Narrower and taller: width times height stays the same.",
                 3: "With h -> 0 the estimate sees only the sample, not where it came from."},
        claims=[r"narrower and taller[^.]{0,80}(spikes|area)",
                r"(h ?→ ?0|h shrinks|shrink h|small(er)? (h|bandwidth))[^.]{0,60}spike"],
        transfer=_tiny_bandwidth_transfer(),
        observation=Observation(
            f"Compare the estimate at h = {h_start:g} with the estimate at h = {h_observe:g}, "
            f"the smallest h: record its peak and its area at both. Which of the two moved?",
            [_window_peak(data, h_observe, x_range), _window_area(data, h_observe, x_range)],
            setting={"h": h_observe}, before={"h": h_start},
            expected_before=[_window_peak(data, h_start, x_range),
                             _window_area(data, h_start, x_range)],
            parts=("peak f̂", "area ∫ f̂"),
            read=lambda state: [state["peak"], state["integral"]],
            what="the estimate's peak and area",
            hint="type the peak f̂ and the area ∫ f̂ over the window as the readout gives them "
                 "(3 decimals), separated by a comma.", atol=6e-4))


def _window_peak(data, h, x_range=(-3.0, 3.0)) -> float:
    """The peak the KDE explorer's readout shows: the largest value on its 500-point window."""
    x = np.linspace(x_range[0], x_range[1], 500)
    return float(kde_pdf(x, data, h).max())


def _window_area(data, h, x_range=(-3.0, 3.0)) -> float:
    """The area the KDE explorer's readout shows: the trapezoid rule on its 500-point window."""
    x = np.linspace(x_range[0], x_range[1], 500)
    return float(np.trapezoid(kde_pdf(x, data, h), x))


def predict_cv_with_fewer_points(n_from=1000, n_to=200, *, method="lscv", seed=0) -> Prediction:
    """Before the bandwidth explorer: where the cross-validated h goes when n shrinks.

    Computed on the explorer's own samples (``sample_claw(n, seed)``) and bandwidth grid. The
    observation: the selected h at ``n_from`` and at ``n_to`` (their ratio: above 1, a larger
    h).

    Examples
    --------
    >>> p = predict_cv_with_fewer_points(1000, 200)
    >>> p.options[p.correct[0]]
    'It moves to a larger h.'
    """
    n_from, n_to = check_int(n_from, "n_from", low=2), check_int(n_to, "n_to", low=2)
    big, small = (_best_h(sample_claw(n, seed), method) for n in (n_from, n_to))
    options = ["It moves to a larger h.", "It moves to a smaller h.", "It stays where it is."]
    ratio = small / big
    answer = 2 if abs(np.log(ratio)) < 0.06 else (0 if ratio > 1 else 1)
    name = "least-squares" if method == "lscv" else "likelihood"
    key, line = ("h_lscv", "LSCV") if method == "lscv" else ("h_loo", "LOO log-lik.")
    return Prediction(
        f"In the explorer, move $n$ from {n_from} down to {n_to}. Where does the bandwidth that "
        f"{name} cross-validation selects go?",
        options, answer, id="05-cv-fewer-points",
        explanation=("With fewer points each bump has to cover more ground, and the estimate at "
                     "a small h is noisier (its variance grows as n shrinks), so the best "
                     "trade-off between noise and blur moves to more smoothing: a larger h. "
                     "With more data, h can shrink and the claws come out. The rules of thumb say "
                     "the same: Scott's $h = s\\,n^{-1/5}$ grows as n shrinks."),
        reasons={1: "A smaller h gives a spikier estimate; with fewer points the spikes are "
                    "further apart.",
                 2: "The best h depends on the sample size, not only on the true density."},
        claims=[r"(fewer points|n shrinks)[^.]{0,120}(larger h|more smoothing)",
                r"n ?\^ ?-1/5"],
        transfer=_cv_transfer(method=method),
        observation=Observation(
            f"Compare the bandwidth {name} cross-validation selects at n = {n_from} with the one "
            f"it selects at n = {n_to}: record both. Which way did it move, and by how much?",
            small, setting={"n": n_to}, before={"n": n_from}, expected_before=big,
            compare="ratio", read=key, what=f"the best h ({line})",
            hint=f"release the n slider at each value, then read the best h of the {line} "
                 f"curve (4 decimals).", atol=6e-5))


def predict_2d_peak(X, scale_from=1.0, scale_to=3.0, n_grid=100) -> Prediction:
    """Before the 2-D KDE explorer: how far the peak falls when both bandwidths grow.

    The peaks are computed on the explorer's grid with :func:`genviz.kde.kde2d_grid` at Scott's
    bandwidths times each scale (:class:`genviz.plots.kde.KDE2DView`'s grid). The naive answer
    divides one bump's height by the product of the two scale factors; the density is a sum of
    many bumps, and wider bumps overlap more. The observation: the peak at both scales (their
    ratio decides among the options).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(0, 1, (200, 2))
    >>> p = predict_2d_peak(X, 1.0, 3.0)
    >>> p.options[p.correct[0]][:10]
    'It falls, '
    """
    X = check_points(X, "X", d=2)
    scale_from = check_scalar(scale_from, "scale_from", low=0.0, low_open=True)
    scale_to = check_scalar(scale_to, "scale_to", low=0.0, low_open=True)
    h0 = np.array([rule_of_thumb(X[:, k], "scott") for k in range(2)])
    lo, hi = X.min(axis=0) - 0.1 * np.ptp(X, axis=0), X.max(axis=0) + 0.1 * np.ptp(X, axis=0)
    xs, ys = np.linspace(lo[0], hi[0], n_grid), np.linspace(lo[1], hi[1], n_grid)
    before, after = (float(kde2d_grid(xs, ys, X, s * h0).max()) for s in (scale_from, scale_to))
    k = scale_to / scale_from
    ratio = after / before
    options = ["It rises: the hills merge and add up.",
               f"It falls to about 1/{k ** 2:g} of its height: every bump is {k:g} times wider "
               f"in both directions.",
               f"It falls to about 1/{k:g} of its height.",
               f"It falls, but keeps clearly more than 1/{k:g} of its height."]
    if ratio > 1:
        answer = 0
    elif ratio < 1.5 / k ** 2:
        answer = 1
    elif ratio < 1.2 / k:
        answer = 2
    else:
        answer = 3
    return Prediction(
        f"The explorer starts with both bandwidths at Scott's rule (h / Scott = "
        f"{scale_from:g}). Raise h / Scott to {scale_to:g}, so both bandwidths grow "
        f"{k:g} times. What happens to the peak of the density?",
        options, answer, id="05-2d-peak",
        explanation=("One bump does get lower by the product of the two factors: its volume "
                     "stays 1/n while its base grows in both directions. But the density at a "
                     "point is a sum over every car's bump, and wider bumps reach further: more "
                     "cars contribute to the height at the peak. Where the cars are spread over "
                     "a region wider than a bandwidth, the density there hardly depends on the "
                     "bandwidth; only a hill narrower than the bandwidth is flattened."),
        reasons={0: "Every bump gets lower; can a sum of lower bumps be higher everywhere?",
                 1: "That is one bump alone: what do the other cars' bumps add at the peak?",
                 2: "The peak is a sum of many bumps: what do the other cars' bumps add?"},
        # the mechanism, in words found in any sentence about a KDE: read as phrases
        claims=[r"(?#phrase)more (cars|points|records) contribute",
                r"(?#phrase)density at a point is a sum"],
        transfer=_2d_peak_transfer(),
        observation=Observation(
            f"Compare the peak density at h / Scott = {scale_from:g} with the peak at "
            f"h / Scott = {scale_to:g}: record both. What fraction of its height did the peak "
            f"keep?",
            after, setting={"scale": scale_to}, before={"scale": scale_from},
            expected_before=before, compare="ratio", labels={"scale": "h / Scott"}, read="peak",
            what="the peak density", hint="the readout gives the peak density (3 significant "
                                          "digits, e.g. 2.5e-05).", rtol=5e-3))


def more_smoothing_with_fewer_points(n_big=1000, n_small=200, *, h=0.05, reps=200,
                                     seed=0) -> Choice:
    """Conceptual: cross-validation selects a larger h for a smaller sample; by how much does
    the estimate's noise grow when n shrinks at a fixed h? The right option is the one nearest
    to a Monte Carlo ratio of the standard deviations of f_hat(0) over claw samples of both
    sizes (the formula says sqrt(n_big / n_small))."""
    gen = np.random.default_rng(seed)
    sd = {n: float(np.std([kde_pdf([0.0], sample_claw(n, gen), h)[0] for _ in range(reps)]))
          for n in (n_big, n_small)}
    ratio = sd[n_small] / sd[n_big]
    k = n_big / n_small
    candidates = {f"about {k:g}": k, f"about √{k:g} ≈ {np.sqrt(k):.1f}": np.sqrt(k),
                  f"about 1/{k:g}: fewer points, less noise": 1 / k,
                  "1: at the same h the noise does not change": 1.0}
    right = int(np.argmin([abs(np.log(ratio / v)) for v in candidates.values()]))
    return Choice(
        f"Cross-validation picks a larger bandwidth for {n_small} claw draws than for {n_big}. "
        f"Here is why, in numbers: at a fixed $h$ the noise of the estimate, the standard "
        f"deviation of $\\hat f(x)$, is about $\\sqrt{{f(x)\\int K^2/(nh)}}$. By what factor "
        f"does it grow from n = {n_big} to n = {n_small}, at the same h?",
        list(candidates), right, id="05-more-smoothing", objective="05.3",
        explanation=(f"The noise falls like $1/\\sqrt{{nh}}$, so at the same $h$ it grows by "
                     f"$\\sqrt{{{n_big}/{n_small}}} = {np.sqrt(k):.2f}$ (simulated on {reps} "
                     f"claw samples of each size: {ratio:.2f}), while the blur (the bias, about "
                     f"$h^2$) does not depend on $n$. The balance of noise and blur then sits at "
                     f"a larger $h$: raising $h$ buys the noise back at the price of some blur. "
                     f"Cross-validation finds that balance from the data alone."),
        reasons={0: "The variance falls like 1/(nh); the standard deviation is its square root.",
                 2: "Fewer points means fewer bumps to average: more noise, not less.",
                 3: "h is the same, but each bump now carries 1/n of a smaller n."},
        claims=[r"grows by (\$)?sqrt", r"noise falls like 1 ?/ ?sqrt"],
        hint="Variance of an average of n independent terms: σ²/n. Then take the square root.")


