"""Exercises for notebook 09 (nearest neighbours and random projections)."""

from __future__ import annotations

import re

import numpy as np

from genviz._validation import check_int, check_points, check_scalar, check_vector
from genviz.exercises import Choice, Exercise, Observation, OpenQuestion, Prediction
from genviz.exercises.derivation import Derivation, Step, Symbol
from genviz.exercises.knn_transfer import (_noise_and_k_transfer, _projection_spread_transfer,
                                          _regression_k_transfer)
from genviz.kde import kde_pdf
from genviz.knn import KNNClassifier, KNNRegressor
from genviz.projections import projection_ratios
from genviz.synthetic import flip_labels, regression_truth

__all__ = ["majority_vote", "knn_regression_value", "distance_computations",
           "predict_noise_and_k", "predict_regression_k", "predict_projection_spread",
           "k_equals_m", "dimension_for_spread",
           "knn_average_variance_derivation", "knn_or_a_class_model", "k_like_a_bandwidth"]


def majority_vote(X, y, query, k) -> Exercise:
    """Which class does k-NN give the query? (Algorithm 1.2 by hand on a few points.)"""
    X = check_points(X, "X")
    q = check_vector(query, "query", d=X.shape[1])
    clf = KNNClassifier(k).fit(X, y)
    label = clf.predict(q[None, :])[0]
    dist, ind = clf.kneighbors(q[None, :])
    return Exercise(
        f"With k = {k}, which label does the k-nearest-neighbour classifier give the query "
        f"x = {q.tolist()}? (Answer with the label.)",
        label.item() if hasattr(label, "item") else label,
        hint="Compute the Euclidean distance from x to every point, keep the k smallest, and "
             "count the labels among them; equal votes go to the smaller label.",
        solution=(f"The {k} nearest points are rows "
                  f"{', '.join(str(int(i)) for i in ind[0])} at distances "
                  f"{', '.join(f'${v:.3f}$' for v in dist[0])}; their labels are "
                  f"{', '.join(str(v) for v in np.asarray(y)[ind[0]])}, and the majority is "
                  f"**{label}**."),
        claims=[rf"(?#phrase)the majority is \W*{re.escape(str(label).lower())}\b"],
        objective="09.1",
    )


def knn_regression_value(x, y, x0, k) -> Exercise:
    """The k-NN regression estimate at x0: the average of the k nearest y values."""
    x = check_vector(x, "x")
    reg = KNNRegressor(k).fit(x[:, None], y)
    value = float(reg.predict([[float(x0)]])[0])
    _, ind = reg.kneighbors([[float(x0)]])
    return Exercise(
        f"What is the {k}-nearest-neighbour regression estimate at x = {x0}?",
        value,
        hint="Find the k data points whose x is closest to x0 and average their y values "
             "(not their x values).",
        solution=(f"The {k} nearest $x_i$ are "
                  f"{', '.join(f'${v:.3f}$' for v in x[np.sort(ind[0])])}; the average of their "
                  rf"$y_i$ is $\hat y({x0}) = {value:.4f}$."),
        objective="09.1",
    )



def distance_computations(n_train, n_queries, n_features, d) -> Exercise:
    """How many times fewer multiply-adds does brute-force k-NN need after projecting to d?"""
    ratio = n_features / d
    return Exercise(
        f"Brute-force k-NN compares each of {n_queries} queries with {n_train} training points "
        f"in {n_features} dimensions. After a random projection to d = {d} dimensions, by what "
        f"factor does the number of multiply-adds in the distance computations shrink "
        f"(ignore the cost of projecting)?",
        ratio,
        hint="Each distance costs one multiply-add per coordinate; the numbers of queries and "
             "training points do not change.",
        solution=(rf"${n_queries} \times {n_train} \times {n_features}$ multiply-adds against "
                  rf"${n_queries} \times {n_train} \times {d}$: the factor is "
                  rf"${n_features}/{d} = {ratio:g}$."),
        claims=[rf"the factor is {n_features} ?/ ?{d} ?= ?{ratio:g}\b"], objective="09.4",
    )


# -- predictions before the explorers, a conceptual item, an item read off an explorer ---------
def _noisy_accuracy(X, y, X_test, y_test, k, noise, seed=0) -> float:
    """Test accuracy of k-NN trained on labels with a fraction ``noise`` flipped, exactly as the
    classification explorer flips them (:func:`genviz.synthetic.flip_labels`, seed 0)."""
    X = check_points(X, "X")
    k = check_int(k, "k", low=1, high=X.shape[0])
    noise = check_scalar(noise, "noise", low=0.0, high=1.0)
    codes = np.asarray(y)
    if codes.shape != (X.shape[0],) or not np.issubdtype(codes.dtype, np.integer):
        raise ValueError(f"y must hold one integer class code per row of X, got dtype "
                         f"{codes.dtype}, shape {codes.shape}")
    y_noisy, _ = flip_labels(codes, noise, 2, rng=seed)
    return float(np.mean(KNNClassifier(k).fit(X, y_noisy).predict(X_test) == np.asarray(y_test)))


def predict_noise_and_k(X, y, X_test, y_test, noise=0.2, k_small=1, k_large=15) -> Prediction:
    """Before the classification explorer: with label noise, is 1-NN or 15-NN more accurate?
    The observation: both test accuracies the readout shows (1-NN's and ``k_large``-NN's), on
    clean labels and with ``noise`` flipped: which of the two lost accuracy to the noise."""
    a, b = (_noisy_accuracy(X, y, X_test, y_test, k, noise) for k in (k_small, k_large))
    answer = 2 if abs(a - b) < 0.01 else (0 if a > b else 1)
    return Prediction(
        f"Flip {noise:.0%} of the training labels. Which classifier is more accurate on the "
        f"(clean) test points: $k = {k_small}$ or $k = {k_large}$?",
        [f"k = {k_small}", f"k = {k_large}", "About the same"], answer,
        id="09-noise-and-k",
        explanation=(f"With k = {k_small} a single neighbour decides, so the estimate is as noisy "
                     f"as the labels: every flipped point owns a small island of the wrong "
                     f"class, and every test point near it is misclassified. With k = {k_large} a "
                     "flipped point is one vote among many: the majority of its neighbours still "
                     "carries the right label, so the islands vanish and the accuracy comes back. "
                     "A majority vote resists label noise: the notes' reason for pooling "
                     "neighbours."),
        reasons={0: "Following the data closely also means following its mistakes.",
                 2: "The two differ a lot in how much one wrong label can do."},
        claims=[r"single neighbour decides[^.]{0,60}noisy",
                r"(majority )?vote[^.]{0,30}resists label noise",
                r"(pool|pooling)[^.]{0,30}neighbours"],
        transfer=_noise_and_k_transfer(),
        observation=Observation(
            f"Compare the test accuracies of 1-NN and of {k_large}-NN on clean labels "
            f"(noise = 0) with the same two accuracies at noise = {noise:g}: record both pairs. "
            f"Which of the two classifiers lost more to the flipped labels?",
            [_noisy_accuracy(X, y, X_test, y_test, 1, noise), b],
            setting={"k": k_large, "noise": noise}, before={"noise": 0.0},
            expected_before=[_noisy_accuracy(X, y, X_test, y_test, 1, 0.0),
                             _noisy_accuracy(X, y, X_test, y_test, k_large, 0.0)],
            parts=("1-NN", f"{k_large}-NN"), mention=["noise", "k"],
            read=lambda state: [state["test_accuracy_1nn"], state["test_accuracy"]],
            what="the test accuracies",
            hint="the readout gives 1-NN's and k-NN's test accuracy (3 decimals each); type "
                 "them as 1-NN's, then k-NN's, separated by a comma.", atol=6e-4))


def predict_regression_k(x, y, ks=(1, 7, 40)) -> Prediction:
    """Before the regression explorer: the error against E[y|x] as k grows (computed with
    :class:`genviz.knn.KNNRegressor` on a fine grid). The observation records the error at all
    three k (the explorer's, on its own grid): its readout shows 1-NN's error beside the
    current k's, so the reading at ``ks[1]`` and at ``ks[2]`` holds the whole curve: falling,
    rising, or a U."""
    x = check_vector(x, "x")
    if len(ks) != 3 or not all(isinstance(k, (int, np.integer)) and 1 <= k <= x.size for k in ks):
        raise ValueError(f"ks must be three neighbour counts between 1 and {x.size}, got {ks!r}")
    grid = np.linspace(x.min(), x.max(), 1001)
    mse = [float(np.mean((KNNRegressor(k).fit(x[:, None], y).predict(grid[:, None])
                          - regression_truth(grid)) ** 2)) for k in ks]
    if mse[0] > mse[1] < mse[2]:
        answer = 1
    else:
        answer = 0 if mse[0] > mse[1] > mse[2] else 2
    return Prediction(
        f"Move $k$ from {ks[0]} through {ks[1]} to {ks[2]}. How does the error of the estimate "
        "against the true mean $E[y \\mid x]$ behave?",
        ["It keeps falling: more neighbours, less noise.",
         "It falls, then rises again.", "It keeps rising."], answer, id="09-regression-k",
        explanation=("Few neighbours: the estimate follows the noise of single points (high "
                     "variance). Many neighbours: it averages over a wide stretch of $x$ and "
                     "flattens the bumps of the true curve (high bias). The error is smallest in "
                     "between."),
        reasons={0: f"With k = {ks[2]} the average reaches over a large part of the data.",
                 2: "One neighbour copies the noise of a single point."},
        claims=[r"smallest in between", r"many neighbours[^.]{0,60}(bias|flattens)"],
        transfer=_regression_k_transfer(),
        observation=Observation(
            f"Record the error against the true mean at k = {ks[1]} and at k = {ks[2]}, each "
            f"with the {ks[0]}-NN error the readout shows beside it. Where along k is the error "
            f"smallest: at an end, or in between?",
            [_explorer_mse(x, y, ks[0]), _explorer_mse(x, y, ks[2])], setting={"k": ks[2]},
            before={"k": ks[1]}, expected_before=[_explorer_mse(x, y, ks[0]),
                                                  _explorer_mse(x, y, ks[1])],
            parts=(f"{ks[0]}-NN", "k-NN"),
            read=lambda state: [state["mse_1"], state["mse_k"]],
            what="the MSE against the true mean",
            hint="the readout gives the MSE vs the true mean of 1-NN and of the current k "
                 "(4 decimals each); type 1-NN's, then k-NN's, separated by a comma.",
            atol=6e-5))


def _explorer_mse(x, y, k, n_grid=600) -> float:
    """The regression explorer's readout (genviz.plots.knn.KNNRegressionView): the MSE against
    the true mean on its grid over the data's range padded by 2 % (600 points)."""
    lo, hi = float(x.min()), float(x.max())
    pad = 0.02 * (hi - lo) if hi > lo else 1.0
    grid = np.linspace(lo - pad, hi + pad, n_grid)
    fit = KNNRegressor(k).fit(x[:, None], y).predict(grid[:, None])
    return float(np.mean((fit - regression_truth(grid)) ** 2))


def predict_projection_spread(X, d=4, factors=(2, 4, 16), seed=0) -> Prediction:
    """Before the projection explorer: by what factor d must grow to halve the spread of the
    distance ratios (computed with the explorer's projections). The observation: the spread at
    ``d`` and at ``d`` times the right factor (both in the readout), compared by their ratio
    (one half: that factor halves it)."""
    X = check_points(X, "X")
    d = check_int(d, "d", low=1)
    study = projection_ratios(X, d * max(factors), seed)  # the explorer's projections
    spread = {dd: float(study.stats[dd - 1]["std"]) for dd in (d, *[d * f for f in factors])}
    best = min(factors, key=lambda f: abs(np.log(spread[d] / spread[d * f]) - np.log(2)))
    return Prediction(
        f"At $d = {d}$ the distance ratios have some spread (standard deviation). To halve it, "
        "by what factor must $d$ grow?",
        [f"{f}" for f in factors], factors.index(best), id="09-projection-spread",
        explanation=(r"A projected squared distance is a sum of $d$ independent terms, so its "
                     r"relative spread shrinks like $1/\sqrt{d}$ (the ratio is about "
                     r"$\sqrt{\chi^2_d/d}$, of standard deviation $\approx 1/\sqrt{2d}$). Halving "
                     r"it takes four times as many dimensions."),
        reasons={0: "The spread falls like one over the square root of d, not like 1/d."},
        claims=[r"shrinks like 1/ ?(sqrt|√) ?d", r"four times as many dimensions"],
        transfer=_projection_spread_transfer(),
        observation=Observation(
            f"Compare the ratios' std at d = {d} with their std at d = {d * best}: record both. "
            f"What fraction of the spread is left?",
            spread[d * best], setting={"d": d * best}, before={"d": d},
            expected_before=spread[d], compare="ratio",
            read=lambda state: float(state["stats"]["std"]), what="the std of the ratios",
            hint="the readout gives the std of the ratios (3 decimals).", atol=6e-4))


def k_equals_m(X, y) -> Choice:
    """Conceptual: what k-NN predicts when k is the whole training set (computed)."""
    X = check_points(X, "X")
    m = X.shape[0]
    labels, counts = np.unique(np.asarray(y), return_counts=True)
    queries = X[:: max(1, m // 20)] + 0.01
    pred = KNNClassifier(m).fit(X, y).predict(queries)
    constant = np.all(pred == labels[np.argmax(counts)])
    return Choice(
        "What does k-NN predict when $k$ equals the number of training points $m$?",
        ["The label of the query's nearest point.",
         "The majority class, everywhere.",
         "A smooth boundary that fits best."], 1 if constant else 0,
        id="09-k-equals-m",
        claims=([r"(most common|majority) (label|class)[^.]{0,40}(wins )?everywhere",
                 r"k = m is all bias"] if constant else [r"label of the nearest"]),
        explanation=("With $k = m$ every query's neighbourhood is the whole training set, so "
                     "every vote is the same: the most common label wins everywhere. k trades "
                     "variance (small k) for bias (large k); $k = m$ is all bias."),
        reasons={0: "That is k = 1.",
                 2: "Every query sees the same m neighbours, so every vote is the same."},
        objective="09.2")


# -- practice that climbs: an investigation, a derivation, an open question, a retrieval --------

def dimension_for_spread(X, spread=0.1, *, seed=0, d_max=None) -> Exercise:
    """Investigation with the projection explorer: the smallest target dimension ``d`` on its
    slider at which the standard deviation of the distance ratios is at most ``spread`` (the
    explorer's own projections, :func:`genviz.projections.projection_ratios`, at every d).

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(40, 64))
    >>> dimension_for_spread(X, 0.2).kind
    'investigation'
    """
    X = check_points(X, "X")
    spread = check_scalar(spread, "spread", low=0.0, low_open=True)
    study = projection_ratios(X, X.shape[1] if d_max is None else d_max, seed)
    stds = np.array([s["std"] for s in study.stats])
    ok = np.flatnonzero(stds <= spread)
    if ok.size == 0:
        raise ValueError(f"no d up to {len(stds)} brings the spread down to {spread:g}; ask "
                         f"for more")
    d = int(study.dims[ok[0]])
    return Exercise(
        f"Investigate with the projection explorer: what is the smallest d at which the "
        f"distance ratios' standard deviation (the readout's 'std') is at most {spread:g}?",
        d,
        hint="Raise d step by step (arrow keys) and watch 'ratio mean ..., std ...'. The "
             "spread falls roughly like 1/√(2d): estimate where to look first.",
        solution=(rf"The std first drops to {spread:g} or below at $d = {d}$ "
                  rf"(${stds[ok[0]]:.3f}$; at $d = {d - 1}$ it is ${stds[ok[0] - 1]:.3f}$). The "
                  rf"rule of thumb $1/\sqrt{{2d}} \le {spread:g}$ gives $d \ge "
                  rf"{1 / (2 * spread**2):.0f}$: these ratios are about a tenth of a standard "
                  rf"deviation away from 1 only with some fifty dimensions, close to the "
                  rf"original 64."),
        kind="investigation", atol=0.5, rtol=0.0, objective="09.4")


def knn_average_variance_derivation(k=7, sigma=0.3, *, reps=20000, seed=0) -> Derivation:
    r"""Derivation, written: the noise of a k-NN regression estimate. With labels
    :math:`y_i = f(x_i) + \varepsilon_i`, independent noise of variance :math:`\sigma^2`, the
    variance of the sum and then of the average of the :math:`k` neighbours' noise. The result
    is checked here against a simulation (within 5 % at the default ``reps``).

    Examples
    --------
    >>> q = knn_average_variance_derivation()
    >>> print(q.check_step(1, "σ²/k"))
    Correct!
    """
    k = check_int(k, "k", low=2)
    sigma = check_scalar(sigma, "sigma", low=0.0, low_open=True)
    reps = check_int(reps, "reps", low=100)
    gen = np.random.default_rng(seed)
    var = float(np.var(gen.normal(0.0, sigma, (reps, k)).mean(axis=1)))
    if abs(var / (sigma**2 / k) - 1) > 6 * np.sqrt(2 / reps):
        raise RuntimeError("the simulated variance disagrees with sigma^2/k")
    symbols = {"k": Symbol("k", 2, 60, integer=True),
               "sigma": Symbol("σ", 0.05, 3.0, spellings=("s",))}
    steps = [
        Step(r"The variance of the **sum** $\sum_{i \in I} \varepsilon_i$ of the $k$ "
             r"neighbours' noise terms, through $k$ and $\sigma$.",
             "k*sigma^2", r"\mathrm{Var}\big(\textstyle\sum_{i\in I}\varepsilon_i\big) = "
                          r"k\sigma^2",
             mistakes={"k^2*sigma^2": "That would hold if the k terms were one and the same; "
                                      "independent terms' variances add.",
                       "sigma^2": "Each term brings its own σ²: they add up."}),
        Step(r"The variance of their **average** $\frac1k\sum_{i \in I}\varepsilon_i$.",
             "sigma^2/k", r"\mathrm{Var}\big(\tfrac1k\textstyle\sum_{i\in I}\varepsilon_i\big)"
                          r" = \sigma^2/k",
             mistakes={"sigma^2/sqrt(k)": "Dividing by k divides the variance by k², not by "
                                          "k: that would be the standard deviation's rate.",
                       "sigma^2": "Averaging independent noise reduces it.",
                       "sigma/sqrt(k)": "That is the standard deviation; the question asks "
                                        "for the variance."}),
    ]
    return Derivation(
        r"k-NN regression averages the labels of the $k$ nearest points. Each label is "
        r"$y_i = f(x_i) + \varepsilon_i$ with independent noise of variance $\sigma^2$. "
        r"Derive the variance of the average of the $k$ noise terms (the part of the "
        r"estimate that follows the noise).", steps, symbols=symbols,
        id="09-knn-average-variance", objective="09.2",
        explanation=(rf"$\mathrm{{Var}}\big(\frac1k\sum_{{i\in I}}\varepsilon_i\big) = "
                     rf"\frac{{1}}{{k^2}}\sum_{{i \in I}}\mathrm{{Var}}(\varepsilon_i) = "
                     rf"\frac{{k\sigma^2}}{{k^2}} = \sigma^2/k$ (independent terms: variances "
                     rf"add). Simulated with $k = {k}$, $\sigma = {sigma:g}$: ${var:.5f}$, "
                     rf"against $\sigma^2/k = {sigma**2 / k:.5f}$. So the noise shrinks like "
                     rf"$1/k$, while the bias grows: the neighbours spread further from $x$, "
                     rf"where $f$ differs. That is the trade-off $k$ controls."),
        claims=[r"noise shrinks like 1 ?/ ?k", r"frac ?k ?σ ?\^ ?2 ?k ?\^ ?2"],
        hint="Var(a Z) = a² Var(Z), and variances of independent terms add.")


def knn_or_a_class_model() -> OpenQuestion:
    """Open transfer question: k-NN or a generative classifier?"""
    return OpenQuestion(
        "Two tasks. (a) 150 patients, two blood values each, and the two classes look like "
        "two Gaussian clouds. (b) 50,000 labelled points in 2-D whose classes form irregular, "
        "twisting regions. For each: k-NN, or a generative classifier such as GDA or naive "
        "Bayes? Why?",
        (r"(a) GDA: its model (Gaussian classes) is about right, it needs only a mean per "
         r"class and one covariance, estimated well from 150 points, and it gives $p(y\mid "
         r"x)$. k-NN would work too but is noisier with so few points and must keep them all. "
         r"(b) k-NN: one Gaussian per class is the wrong model for twisting regions (a biased "
         r"boundary that more data cannot fix), while k-NN follows any boundary given enough "
         r"points, and 50,000 is plenty. Its price is storing every point and comparing each "
         r"query with all of them, $O(mn)$ per query; choose $k$ by cross-validation."),
        key_points={"Gaussian classes, few points: GDA (right model, few parameters)":
                        r"gda|gaussian|generative|naive bayes",
                    "irregular classes, many points: k-NN (no model needed)":
                        r"k.?nn|neighbou?r",
                    "a wrong class model keeps a bias; k-NN costs memory and time":
                        r"bias|wrong model|memory|store|O ?\(|cost|slow"},
        claims=[r"one gaussian per class is the wrong model for twisting regions"],
        objective="09.3")


def k_like_a_bandwidth(x, y, ks=(1, 30), hs=(0.05, 1.0)) -> Choice:
    """Retrieval of notebook 05 (the bandwidth trades noise for blur): what k does in k-NN
    regression compared with h in a KDE. Decided numerically: the total variation (wiggliness)
    of the k-NN estimate at the two ``ks`` and of the KDE of ``x`` at the two ``hs``."""
    x = check_vector(x, "x")
    grid = np.linspace(x.min(), x.max(), 400)

    def wiggle(f):
        return float(np.sum(np.abs(np.diff(f))))

    knn = [wiggle(KNNRegressor(k).fit(x[:, None], y).predict(grid[:, None])) for k in ks]
    kde = [wiggle(kde_pdf(grid, x, h)) for h in hs]
    same_way = (knn[1] < knn[0]) and (kde[1] < kde[0])
    options = ["a larger k, like a larger h, smooths more: less noise, more blur (bias)",
               "a larger k, like a smaller h, follows the data more closely",
               "k and h have nothing in common: one counts points, the other measures distance"]
    return Choice(
        "Notebook 5: the bandwidth h of a KDE trades noise for blur. How does the number of "
        "neighbours k of k-NN regression compare with h?",
        options, 0 if same_way else 1, id="09-k-like-bandwidth", objective="05.3",
        explanation=(rf"Both average over a neighbourhood of $x$: the KDE weighs the points "
                     rf"within about $h$, k-NN the $k$ nearest. A larger neighbourhood averages "
                     rf"more noise away and blurs more. Measured as total variation on "
                     rf"{len(grid)} points: k-NN {knn[0]:.1f} at $k = {ks[0]}$ and {knn[1]:.1f} "
                     rf"at $k = {ks[1]}$; the KDE {kde[0]:.1f} at $h = {hs[0]:g}$ and "
                     rf"{kde[1]:.1f} at $h = {hs[1]:g}$. k-NN's neighbourhood adapts: it is "
                     rf"narrow where the points are dense and wide where they are sparse."),
        reasons={1: "More neighbours means a wider average, not a closer fit.",
                 2: "A count of neighbours sets a distance too: the distance to the k-th one."},
        claims=[r"larger neighbourhood averages more noise away", r"(larger|more) (k|neighbours)[^.]{0,60}(smooth|averag)"],
        hint="What does each estimate average over, and what happens when that region grows?")
