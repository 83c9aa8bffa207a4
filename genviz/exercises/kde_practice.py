"""Practice that climbs for notebook 05: an investigation with the bandwidth explorer, a
derivation (why least-squares CV leaves each point out), an open transfer question and a
retrieval item. Re-exported by :mod:`genviz.exercises.kde` (the notebook calls them as
``exercises.<name>``)."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.studies.kde_bandwidth import BandwidthStudy
from genviz.exercises import Choice, Exercise, OpenQuestion
from genviz.exercises.derivation import Derivation, Step, Symbol
from genviz.kde import claw_pdf, cv_curve, kde_pdf, kernel_pdf, sample_claw

__all__ = ["ise_optimal_bandwidth", "lscv_leave_one_out_derivation", "compare_on_training_data",
           "empty_histogram_bins", "EXPLORER_LOG_HS"]

#: the bandwidth explorer's h slider: 10**x for x from -2.3 to 0 in steps of 0.02
EXPLORER_LOG_HS = np.round(np.arange(-2.3, 1e-9, 0.02), 2)


#: the bandwidth explorer's grid of h (genviz.plots.kde.BandwidthView); here so that the
#: predictions (genviz.exercises.kde) and their analogous situations share the search
EXPLORER_HS = np.geomspace(0.005, 1.5, 100)


def _best_h(data, method, hs=EXPLORER_HS) -> float:
    scores = cv_curve(data, hs, method)
    return float(hs[np.argmax(scores) if method == "loo-likelihood" else np.argmin(scores)])


def ise_optimal_bandwidth(n=1000, *, seed=0) -> Exercise:
    """Investigation with the bandwidth explorer: the h on its slider whose KDE has the smallest
    integrated squared error against the true claw, at ``n`` draws. Computed with the explorer's
    own study (:class:`genviz.studies.kde_bandwidth.BandwidthStudy`: the same sample and the same
    integral) at every position of the h slider.

    Examples
    --------
    >>> ex = ise_optimal_bandwidth(1000)
    >>> ex.kind, round(ex._answer, 4)
    ('investigation', 0.0457)
    """
    n = check_int(n, "n", low=2)
    study = BandwidthStudy(seed=seed)
    sweeps = study.sweeps(n)
    hs = 10.0 ** EXPLORER_LOG_HS
    ise = np.array([study.at(sweeps, h).ise for h in hs])
    j = int(np.argmin(ise))
    h, lscv = float(hs[j]), sweeps.h_lscv
    return Exercise(
        f"Investigate with the bandwidth explorer at n = {n}: which h on the slider gives the "
        f"smallest integrated squared error ∫(f̂ − f)² (the readout's last line)? Compare it "
        f"with the h least-squares cross-validation picks.",
        h,
        hint="Move h in small steps (arrow keys) and watch the last line of the readout fall, "
             "then rise again; the best h is where it turns. Read h with 4 decimals from the "
             "readout's first line.",
        solution=(rf"The integrated squared error is smallest at $h = {h:.4f}$ (${ise[j]:.5f}$; "
                  rf"the slider's neighbours give ${ise[j - 1]:.5f}$ and ${ise[j + 1]:.5f}$). "
                  rf"Least-squares CV chose $h = {lscv:.4f}$ from the data alone: it estimates "
                  rf"this error up to a constant, without knowing $f$, and lands close to the "
                  rf"best $h$, which only someone who knows $f$ can compute."),
        kind="investigation", rtol=0.0, atol=6e-4, objective="05.3")


def _leave_in_and_out(n, h, reps, seed):
    """Monte Carlo over claw samples of size ``n``: the means of the leave-one-out term
    (1/n) sum_i f_{-i}(x_i), of the same term with x_i left in, and of the integral of f_hat f."""
    gen = np.random.default_rng(seed)
    grid = np.linspace(-4.0, 4.0, 2001)
    f = claw_pdf(grid)
    out, keep, target = [], [], []
    for _ in range(reps):
        x = sample_claw(n, gen)
        k = kernel_pdf((x[:, None] - x[None, :]) / h) / h
        out.append(float((k.sum(axis=1) - np.diag(k)).mean() / (n - 1)))
        keep.append(float(k.sum(axis=1).mean() / n))
        target.append(float(np.trapezoid(kde_pdf(grid, x, h) * f, grid)))
    return np.mean(out), np.mean(keep), np.mean(target), np.std(out) / np.sqrt(reps)


#: the symbols of the leave-one-out derivation, as notebook 05 writes them
_LOO_SYMBOLS = {"n": Symbol("n", 3, 500, integer=True), "h": Symbol("h", 0.05, 1.0),
                "K0": Symbol("K(0)", 0.2, 1.0, spellings=("K(0)", "k0")),
                "g": Symbol("f̂₋ᵢ(xᵢ)", 0.01, 1.0, spellings=("f_loo", "floo")),
                "T": Symbol("T", 0.01, 1.0)}


def lscv_leave_one_out_derivation(n=30, h=0.2, *, reps=300, seed=0) -> Derivation:
    r"""Derivation, written: why least-squares CV uses :math:`\hat f_{-i}(x_i)`, not
    :math:`\hat f(x_i)`, to estimate :math:`\int \hat f f` (the step that makes it unbiased).

    Step 1, :math:`\hat f(x_i)` through :math:`\hat f_{-i}(x_i)`, is checked here against
    :func:`genviz.kde.kde_pdf` on a claw sample; step 2, the mean of the leave-in term, against
    a Monte Carlo over claw samples (the leave-one-out mean matches :math:`E\int \hat f f`
    within its standard error, the leave-in mean exceeds it by about :math:`K(0)/(nh)`).

    Examples
    --------
    >>> q = lscv_leave_one_out_derivation(reps=60)
    >>> print(q.check_step(0, "(n-1)/n * g + K0/(n h)"))
    Correct!
    """
    n, reps = check_int(n, "n", low=3), check_int(reps, "reps", low=10)
    h = check_scalar(h, "h", low=0.0, low_open=True)
    out, keep, target, se = _leave_in_and_out(n, h, reps, seed)
    k0 = float(kernel_pdf(0.0))
    # the leave-one-out term has expectation E int f_hat_{n-1} f, the target E int f_hat_n f:
    # equal, because f_hat's expectation does not depend on n; the leave-in term is too large
    if not (abs(out - target) < 4 * se + 1e-3 and abs(keep - (k0 / (n * h) + (n - 1) / n
                                                            * target)) < 4 * se + 1e-3):
        raise RuntimeError("the leave-one-out Monte Carlo disagrees with the derivation")
    _check_split(n, h, k0, seed)
    steps = [
        Step(r"Write $\hat f(x_i) = \frac{1}{nh}\sum_j K\big(\frac{x_i - x_j}{h}\big)$ "
             r"through $g = \hat f_{-i}(x_i) = \frac{1}{(n-1)h}\sum_{j \ne i} "
             r"K\big(\frac{x_i - x_j}{h}\big)$, $n$, $h$ and $K(0)$.",
             "(n - 1)/n*g + K0/(n*h)", r"\hat f(x_i) = \tfrac{n-1}{n}\hat f_{-i}(x_i) + "
                                       r"\tfrac{K(0)}{nh}",
             mistakes={"g + K0/(n*h)": "The other n − 1 bumps are divided by n here, not by "
                                       "n − 1: rescale g.",
                       "(n - 1)/n*g": "The sum over j includes j = i: x_i's own bump, "
                                      "K(0)/h, divided by n."}),
        Step(r"Take expectations: $x_i$ is a fresh draw, independent of the points that build "
             r"$\hat f_{-i}$, so $E\,\hat f_{-i}(x_i) = T = E\int \hat f f$. What is "
             r"$E\,\hat f(x_i)$, through $T$, $n$, $h$ and $K(0)$?",
             "K0/(n*h) + (n - 1)/n*T", r"E\,\hat f(x_i) = \tfrac{K(0)}{nh} + "
                                       r"\tfrac{n-1}{n}\,T",
             mistakes={"T": "That is the leave-one-out term's mean; x_i's own bump does not "
                            "average away.",
                       "T + K0/(n*h)": "The other bumps carry the factor (n − 1)/n of step 1."}),
    ]
    return Derivation(
        r"LSCV estimates $\int \hat f f$, the part of $\int (\hat f - f)^2$ that depends on "
        r"$h$ and on the unknown $f$, by $\frac1n\sum_i \hat f_{-i}(x_i)$. Show why $x_i$ "
        r"must be left out of the estimate evaluated at $x_i$: what would the term's mean be "
        r"with $x_i$ left in?", steps, symbols=_LOO_SYMBOLS, id="05-lscv-leave-one-out",
        objective="05.3",
        explanation=(r"$\hat f(x_i) = \frac{1}{nh}\big(K(0) + \sum_{j\ne i} K(\cdot)\big) = "
                     r"\frac{K(0)}{nh} + \frac{n-1}{n}\hat f_{-i}(x_i)$. "
                     r"$E\,\hat f_{-i}(x_i) = E\int \hat f_{-i}(x)\,f(x)\,dx$ because $x_i$ is a "
                     r"fresh draw from $f$, independent of the $n-1$ points that build "
                     r"$\hat f_{-i}$ (and $E \hat f$ does not depend on the sample size). "
                     r"Averaging over $i$ gives an unbiased estimate of $E\int \hat f f$, so "
                     r"$\mathrm{LSCV}(h) + \int f^2$ is unbiased for the expected error. With "
                     r"$x_i$ left in, $\hat f(x_i)$ contains $x_i$'s own bump $K(0)/(nh)$, and "
                     r"the term is too large: its mean is $K(0)/(nh) + \frac{n-1}{n} "
                     r"E\int\hat f f$, a bias that grows as $h$ shrinks, so CV would pick "
                     r"ever smaller bandwidths. A Monte Carlo over "
                     rf"{reps} claw samples ($n = {n}$, $h = {h:g}$): leave-one-out "
                     rf"${out:.4f}$, target ${target:.4f}$ (standard error ${se:.4f}$), "
                     rf"leave-in ${keep:.4f}$, too large by ${keep - target:.4f}$ (the formula: "
                     rf"${k0 / (n * h) - target / n:.4f}$)."),
        claims=[r"fresh draw[^.]{0,40}independent", r"own bump k ?\(0\) ?/ ?\(nh\)"],
        hint="What does x_i contribute to f̂(x_i) itself, whatever the other points are?")


def _check_split(n, h, k0, seed) -> None:
    """Step 1's key against the library's KDE at each point of a claw sample (else a bug)."""
    x = sample_claw(n, np.random.default_rng(seed))
    f_in = kde_pdf(x, x, h)
    f_out = np.array([kde_pdf(x[i:i + 1], np.delete(x, i), h)[0] for i in range(n)])
    if not np.allclose(f_in, (n - 1) / n * f_out + k0 / (n * h), rtol=1e-10):
        raise RuntimeError("the leave-one-out split disagrees with genviz.kde.kde_pdf")


def compare_on_training_data() -> OpenQuestion:
    """Open transfer question: comparing density estimators on the data they were fitted to."""
    return OpenQuestion(
        "A colleague models customers' waiting times. She compares a histogram with bins of "
        "0.1 minutes and a KDE with h = 0.01 minutes by their log-likelihood on the *same* "
        "data she fitted them to, and picks the one that scores higher. What is wrong, and "
        "how should she compare them?",
        (r"The training log-likelihood rewards memorising: as the bins narrow or $h$ shrinks, "
         r"$\hat f$ becomes spikes at the data points and their log-likelihood grows without "
         r"bound, so the narrowest estimate always wins. Compare on data the estimators have "
         r"not seen: the log-likelihood of a held-out test set (or leave-one-out "
         r"cross-validation, which is the same idea point by point). On held-out data a "
         r"histogram with an empty bin scores $-\infty$ at a test point in it, and an h that "
         r"is too small is punished."),
        key_points={"the training score rewards over-fitting (spikes)":
                        r"over.?fit|memori|spike|grows|narrow|too small",
                    "use held-out data or cross-validation":
                        r"held.out|test|unseen|new data|cross.valid|leave.one.out",
                    "an empty histogram bin gives minus infinity": r"-?∞|infinit|empty bin|zero"},
        claims=[r"training log.likelihood rewards memoris"], objective="05.4")


def empty_histogram_bins(n=1000, bins_per_axis=10, share=0.9) -> Choice:
    """Retrieval of notebook 01 (the curse of dimensionality): for which number of dimensions
    must at least ``share`` of a histogram's bins be empty, whatever the data? (At most ``n``
    bins can hold a point; the first such ``d`` is computed.)

    Examples
    --------
    >>> q = empty_histogram_bins(1000, 10, 0.9)
    >>> q.options[q.correct[0]]
    'd = 4'
    """
    n, m = check_int(n, "n", low=1), check_int(bins_per_axis, "bins_per_axis", low=2)
    share = check_scalar(share, "share", low=0.0, high=1.0)
    d = 1
    while 1 - n / m**d < share:
        d += 1
    choices = [d - 1, d, d + 1, d + 2] if d >= 2 else [1, 2, 3, 4]
    options = [f"d = {k}" for k in choices]
    return Choice(
        f"Notebook 1: a full joint table has one cell per combination of values. A "
        f"d-dimensional histogram with {m} bins per axis is such a table. With n = {n} points, "
        f"from which d on must at least {share:.0%} of its bins be empty, however the points "
        f"lie?",
        options, choices.index(d), id="05-empty-histogram-bins", objective="01.4",
        explanation=(rf"The histogram has ${m}^d$ bins and {n} points fill at most {n} of "
                     rf"them, so at least $1 - {n}/{m}^d$ are empty. That reaches "
                     rf"{share:.0%} when ${m}^d \ge {n / (1 - share):.0f}$: from $d = {d}$ on "
                     rf"(${m}^{d} = {m**d}$ bins). The same count as notebook 1's joint "
                     rf"tables: every added variable multiplies the cells, while the data stay "
                     rf"the same."),
        reasons={i: ("Count the bins and how many the points can reach at most."
                     if k < d else "A smaller d already has enough bins.")
                 for i, k in enumerate(choices) if k != d},
        claims=[rf"from d ?= ?{d} on \(", rf"at least 1 ?- ?{n} ?/ ?{m} ?\^ ?d"],
        hint=f"Each point fills at most one bin: how many bins are there, and how many can "
             f"{n} points fill?")
