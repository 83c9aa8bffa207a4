"""k-NN explorers against the naive new-figure-per-update approach; k-NN search timings."""

import matplotlib.pyplot as plt
import numpy as np

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz import datasets
from genviz.knn import KNNClassifier, KNNRegressor, SortedNeighbors, kneighbors
from genviz.projections import distance_ratios, random_projection
from genviz.synthetic import regression_data, two_class_data
from genviz.widgets.knn import (knn_classification_explorer, knn_regression_explorer,
                                projection_explorer)

X2, Y2 = two_class_data(200, rng=0)
XT, YT = two_class_data(2000, rng=1)
XR, YR = regression_data(100, rng=0)
DIGITS, DIGIT_Y = datasets.optical_digits()
XP = DIGITS[:300]
_XS = np.linspace(-4, 4, 121)
_G = np.column_stack([a.ravel() for a in np.meshgrid(_XS, _XS)])


def naive_classification(k, noise, qx, qy):
    """A typical ``interact`` callback: refit, predict the grid from scratch, new figure."""
    y = Y2.copy()
    flip = np.random.default_rng(0).permutation(len(y))[:int(round(noise * len(y)))]
    y[flip] = 1 - y[flip]
    fig, axes = plt.subplots(1, 3, figsize=(9.2, 3.7), sharey=True)
    for ax, kk in zip(axes, (1, k, k)):
        clf = KNNClassifier(kk).fit(X2, y)
        Z = clf.predict_proba(_G)[:, 1] if ax is axes[1] else clf.predict(_G)
        ax.imshow(Z.reshape(121, 121), origin="lower", extent=(-4, 4, -4, 4))
        ax.scatter(X2[:, 0], X2[:, 1], c=y, s=14)
    _, ind = kneighbors([[qx, qy]], X2, k)
    axes[2].plot(X2[ind[0], 0], X2[ind[0], 1], "o", mfc="none")
    KNNClassifier(k).fit(X2, y).predict(XT)
    naive_png(fig)


def naive_regression(k):
    grid = np.linspace(-0.2, 10.2, 600)[:, None]
    fig, axes = plt.subplots(1, 3, figsize=(9.2, 2.9), sharey=True)
    for ax, kk in zip(axes, (None, 1, k)):
        ax.scatter(XR, YR, s=10)
        if kk:
            ax.plot(grid[:, 0], KNNRegressor(kk).fit(XR[:, None], YR).predict(grid))
    naive_png(fig)


def naive_projection(d, eps):
    R = random_projection(d, XP.shape[1], rng=0, scaling="jl")
    r = distance_ratios(XP, XP @ R.T)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9.2, 3.5))
    ax.hist(r, bins=60, range=(0, 2))
    ax.axvline(1 - eps)
    ax.axvline(1 + eps)
    ax2.axvline(d)
    naive_png(fig)


_NB = SortedNeighbors(_G, X2, 31)
_X_TR, _Y_TR, _X_TE = DIGITS[:1400], DIGIT_Y[:1400], DIGITS[1400:]


def _sklearn_digits():
    from sklearn.neighbors import KNeighborsClassifier
    KNeighborsClassifier(5, algorithm="brute").fit(_X_TR, _Y_TR).predict(_X_TE)


def _loop_digits():
    """Algorithm 1.2 literally: one query at a time, a distance loop in numpy per query."""
    for q in _X_TE[:40]:
        d = np.sqrt(((_X_TR - q) ** 2).sum(axis=1))
        np.bincount(_Y_TR[np.argsort(d, kind="stable")[:5]]).argmax()


_R16 = random_projection(16, 64, rng=0, scaling="jl")
_P_TR, _P_TE = _X_TR @ _R16.T, _X_TE @ _R16.T

CASES = [
    ExplorerCase("knn_classification_explorer (k, noise, query)",
                 lambda: knn_classification_explorer(),
                 sweep_moves({"k": [1, 3, 7, 15, 25, 31], "noise": [0.0, 0.1, 0.2, 0.3, 0.45],
                              "qx": [-2.0, -1.0, 0.0, 1.0, 2.0]}, n_total=60),
                 naive_classification),
    ExplorerCase("knn_regression_explorer (k)", lambda: knn_regression_explorer(),
                 sweep_moves({"k": list(range(1, 41, 3))}, n_total=60), naive_regression),
    ExplorerCase("knn projection_explorer (digits, 300 points: d, eps)",
                 lambda: projection_explorer(XP),
                 sweep_moves({"d": [2, 4, 8, 16, 32, 64], "eps": [0.1, 0.3, 0.5, 0.7]},
                             n_total=60), naive_projection),
    TimingCase("knn grid votes for a new k (121² grid, 200 points): sorted once vs refit+predict",
               lambda: _NB.counts(Y2, 2, 15),
               lambda: KNNClassifier(15).fit(X2, Y2).vote_counts(_G), baseline_name="refit"),
    TimingCase("knn predict, digits 397 queries × 1400 × 64: genviz vs sklearn brute",
               lambda: KNNClassifier(5).fit(_X_TR, _Y_TR).predict(_X_TE), _sklearn_digits,
               baseline_name="sklearn brute", repeats=10),
    TimingCase("knn predict, digits: 40 queries vectorised vs per-query loop (Alg. 1.2)",
               lambda: KNNClassifier(5).fit(_X_TR, _Y_TR).predict(_X_TE[:40]), _loop_digits,
               baseline_name="per-query loop", repeats=10),
    TimingCase("knn predict, digits projected to d=16 vs original 64 dims",
               lambda: KNNClassifier(5).fit(_P_TR, _Y_TR).predict(_P_TE),
               lambda: KNNClassifier(5).fit(_X_TR, _Y_TR).predict(_X_TE),
               baseline_name="64 dims", repeats=10),
]
