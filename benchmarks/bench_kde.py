"""Density estimation: the CV sweep against brute force and scikit-learn; explorer updates.

The CV sweep (n = 1000 claw draws, 100 bandwidths) is compared with
* the exact vectorised O(n^2)-per-bandwidth sweep (``cv_curve_bruteforce``), all 100 bandwidths;
* a literal leave-one-out loop (re-fit without x_i, evaluate at x_i) on 5 of the 100 bandwidths:
  multiply its time by 20 for the full grid (cost is linear in the number of bandwidths);
* scikit-learn's ``GridSearchCV(KernelDensity(), {"bandwidth": ...}, cv=LeaveOneOut())`` on 2 of
  the 100 bandwidths: multiply by 50 (1000 fits and scores per bandwidth; linear in the grid).
"""

import matplotlib.pyplot as plt
import numpy as np

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz.datasets import auto_mpg
from genviz.joint import dimensionality_curve
from genviz.kde import (claw_pdf, cv_curve, cv_curve_bruteforce, histogram, kde2d_grid, kde_pdf,
                        kernel_pdf, rule_of_thumb, sample_claw)
from genviz.widgets.joint import dimensionality_explorer
from genviz.widgets.kde import (bandwidth_explorer, histogram_explorer, kde2d_explorer,
                                kde_explorer)

X = sample_claw(1000, 0)
HS = np.geomspace(0.005, 1.5, 100)
CARS = auto_mpg()
_T = np.linspace(-3, 3, 400)


def literal_loop(hs):
    for h in hs:
        np.mean([np.log(kde_pdf([X[i]], np.delete(X, i), h)[0]) for i in range(X.size)])


def grid_search(hs):
    from sklearn.model_selection import GridSearchCV, LeaveOneOut
    from sklearn.neighbors import KernelDensity
    GridSearchCV(KernelDensity(kernel="gaussian"), {"bandwidth": list(hs)},
                 cv=LeaveOneOut(), n_jobs=1).fit(X[:, None])


def naive_histogram(width, origin):
    d = X[:200]
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    edges = origin + width * np.arange(np.floor((d.min() - origin) / width),
                                       np.floor((d.max() - origin) / width) + 2)
    ax.hist(d, bins=edges, density=True)
    ax.plot(_T, claw_pdf(_T), "k")
    ax.plot(d, np.zeros_like(d), "|")
    naive_png(fig)


def naive_kde(h, kernel):
    d = X[:20]
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    bumps = kernel_pdf((_T[None, :] - d[:, None]) / h, kernel) / (h * d.size)
    for b in bumps:
        ax.plot(_T, b, color="orange", lw=1)
    ax.plot(_T, bumps.sum(axis=0), lw=2.4)
    ax.plot(_T, claw_pdf(_T), "k--")
    naive_png(fig)


def naive_bandwidth(n, h):
    d = sample_claw(n, 0)
    loo, ls = cv_curve(d, HS, "loo-likelihood"), cv_curve(d, HS, "lscv")
    fig, (ax, cax) = plt.subplots(1, 2, figsize=(11.0, 4.0))
    ax.plot(_T, claw_pdf(_T), "k--")
    ax.plot(_T, kde_pdf(_T, d, h))
    cax.semilogx(HS, loo)
    cax.twinx().semilogx(HS, ls)
    cax.axvline(h)
    cax.axvline(rule_of_thumb(d, "silverman"), ls=":")
    naive_png(fig)


W_MPG = CARS.X[:, [4, 0]]
_XS = np.linspace(W_MPG[:, 0].min() - 400, W_MPG[:, 0].max() + 400, 120)
_YS = np.linspace(W_MPG[:, 1].min() - 4, W_MPG[:, 1].max() + 4, 120)
_H0 = np.array([rule_of_thumb(W_MPG[:, k], "scott") for k in range(2)])


def naive_kde2d(scale):
    Z = kde2d_grid(_XS, _YS, W_MPG, scale * _H0)
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ax.imshow(Z, origin="lower", aspect="auto", extent=(_XS[0], _XS[-1], _YS[0], _YS[-1]))
    ax.contour(_XS, _YS, Z, levels=Z.max() * np.array([0.1, 0.3, 0.5, 0.7, 0.9]))
    ax.scatter(W_MPG[:, 0], W_MPG[:, 1], s=6)
    naive_png(fig)


def naive_dimensionality(d, n):
    c = dimensionality_curve(CARS.records[np.random.default_rng(0).permutation(392)[:n]],
                             CARS.record_names)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11.0, 4.0))
    ax.semilogy(c["d"], c["cells"], "o-")
    ax.semilogy(c["d"], c["occupied"], "s-")
    ax.plot(c["d"], np.full(8, n), "--")
    ax.plot([d], [c["cells"][d - 1]], "o", ms=14, mfc="none")
    ax2.plot(c["d"], c["empty_fraction"], "o-")
    ax2.plot([d], [c["empty_fraction"][d - 1]], "o", ms=14, mfc="none")
    naive_png(fig)


CASES = [
    TimingCase("KDE LOO-likelihood CV sweep, n=1000, 100 h (cv_curve)",
               lambda: cv_curve(X, HS, "loo-likelihood"),
               lambda: cv_curve_bruteforce(X, HS, "loo-likelihood"),
               baseline_name="exact O(n^2) vectorised sweep", repeats=10, baseline_repeats=3),
    TimingCase("KDE least-squares CV sweep, n=1000, 100 h (cv_curve)",
               lambda: cv_curve(X, HS, "lscv"),
               lambda: cv_curve_bruteforce(X, HS, "lscv"),
               baseline_name="exact O(n^2) vectorised sweep", repeats=10, baseline_repeats=3),
    TimingCase("KDE LOO-likelihood CV sweep vs literal LOO loop (baseline: 5 of 100 h, x20 for all)",
               lambda: cv_curve(X, HS, "loo-likelihood"), lambda: literal_loop(HS[::20]),
               baseline_name="literal leave-one-out loop, 5 h", repeats=10, baseline_repeats=1),
    TimingCase("KDE LOO-likelihood CV sweep vs sklearn (baseline: 2 of 100 h, x50 for all)",
               lambda: cv_curve(X, HS, "loo-likelihood"), lambda: grid_search(HS[[40, 60]]),
               baseline_name="GridSearchCV(KernelDensity, LeaveOneOut), 2 h", repeats=10,
               baseline_repeats=1),
    ExplorerCase("histogram_explorer (width, origin)",
                 lambda: histogram_explorer(X[:200], true_pdf=claw_pdf, x_range=(-3, 3)),
                 sweep_moves({"width": np.round(np.linspace(0.05, 1.0, 10), 2),
                              "origin": np.round(np.linspace(0.0, 1.0, 10), 2)}, 60),
                 naive_histogram),
    ExplorerCase("kde_explorer (h, kernel; 20 bumps)",
                 lambda: kde_explorer(X[:20], true_pdf=claw_pdf, x_range=(-3, 3), ymax=0.9),
                 sweep_moves({"h": np.round(np.linspace(0.05, 1.5, 10), 2),
                              "kernel": ["gaussian", "box", "epanechnikov", "triangular"]}, 60),
                 naive_kde),
    ExplorerCase("bandwidth_explorer (h moves; n=1000)", lambda: bandwidth_explorer(),
                 sweep_moves({"h": np.round(np.geomspace(0.006, 0.9, 12), 4)}, 60),
                 naive_bandwidth),
    ExplorerCase("bandwidth_explorer (n moves: resample + both CV sweeps)",
                 lambda: bandwidth_explorer(),
                 sweep_moves({"n": [500, 1000, 1500, 2000]}, 50), naive_bandwidth),
    ExplorerCase("kde2d_explorer (auto mpg weight vs mpg)",
                 lambda: kde2d_explorer(W_MPG, labels=("weight (lbs)", "mpg")),
                 sweep_moves({"scale": np.round(np.linspace(0.2, 3.0, 12), 2)}, 60), naive_kde2d),
    ExplorerCase("dimensionality_explorer (d, n)",
                 lambda: dimensionality_explorer(CARS.records, CARS.record_names),
                 sweep_moves({"d": list(range(1, 9)), "n": [50, 100, 200, 392]}, 60),
                 naive_dimensionality),
]
