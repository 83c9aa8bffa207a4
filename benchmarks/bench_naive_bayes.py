"""Naive Bayes explorers against the naive new-figure-per-update approach; estimator timings
against scikit-learn (same data, same run)."""

import functools

import matplotlib.pyplot as plt
import numpy as np
import scipy.sparse as sp
from scipy.stats import gaussian_kde

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz import datasets
from genviz.gaussian import cov_from_params, ellipse_points
from genviz.gda import GDA
from genviz.naive_bayes import (BernoulliNB, CategoricalNB, GaussianNB, KDENB, MultinomialNB,
                                discretize)
from genviz.widgets.naive_bayes import (categorical_nb_explorer, discretize_explorer,
                                        kde_nb_explorer, nb_vs_gda_explorer)

TENNIS = datasets.play_tennis()
PENGUINS = datasets.penguins()
FLIPPER = PENGUINS.X[:, 2]
_rng = np.random.default_rng(0)
X1D = np.concatenate([_rng.normal(0, 1, 150), _rng.normal(-3, 0.6, 75), _rng.normal(3, 0.6, 75)])
Y1D = np.repeat(["one", "two"], 150)


# ----------------------------------------------------------------------------- naive versions
def naive_categorical(alpha, Outlook, Temperature, Humidity, Wind):
    """New figure per update: count the tables in a loop, draw every bar chart from scratch."""
    X, y = TENNIS.X, TENNIS.y
    classes = sorted(set(y))
    query = [Outlook, Temperature, Humidity, Wind]
    fig, axes = plt.subplots(2, 3, figsize=(9.9, 6.2))
    scores = []
    for k, c in enumerate(classes):
        rows = X[y == c]
        score = len(rows) / len(y)
        for j in range(X.shape[1]):
            values = sorted(set(X[:, j]))
            probs = [(np.sum(rows[:, j] == v) + alpha) / (len(rows) + alpha * len(values))
                     for v in values]
            axes.ravel()[j].bar(np.arange(len(values)) + 0.4 * k, probs, 0.4)
            axes.ravel()[j].set_xticks(np.arange(len(values)), values)
            score *= probs[values.index(query[j])]
        scores.append(score)
    total = sum(scores)
    axes.ravel()[4].bar(range(len(classes)), [s / total if total else 0 for s in scores])
    axes.ravel()[5].set_visible(False)
    fig.tight_layout()
    naive_png(fig)


def naive_discretize(width, origin, alpha):
    lo, hi = FLIPPER.min() - 3.3, FLIPPER.max() + 3.3
    edges = np.arange(origin + np.ceil((lo - origin) / width) * width, hi, width)
    edges = edges[(edges > lo) & (edges < hi)]
    nb = CategoricalNB(alpha=alpha).fit(discretize(FLIPPER, edges)[:, None], PENGUINS.y,
                                        categories=[range(1, edges.size + 2)])
    grid = np.linspace(lo, hi, 800)
    gb = discretize(grid, edges)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9.5, 6.2), sharex=True)
    widths = np.diff(np.concatenate([[lo], edges, [hi]]))
    table = np.exp(nb.feature_log_prob_[0])
    post = nb.predict_proba(gb[:, None])
    g = GaussianNB().fit(FLIPPER[:, None], PENGUINS.y)
    for k in range(3):
        a1.plot(grid, table[k, gb - 1] / widths[gb - 1])
        a2.plot(grid, post[:, k])
        a2.plot(grid, g.predict_proba(grid[:, None])[:, k], "--")
    for e in edges:
        a1.axvline(e, ls=":")
    fig.tight_layout()
    naive_png(fig)


_Z = np.random.default_rng(0).standard_normal((240, 2))
_ZT = np.random.default_rng(1).standard_normal((4000, 2))
_XS = np.linspace(-4, 4, 121)
_G = np.column_stack([a.ravel() for a in np.meshgrid(_XS, _XS)])


def naive_nb_vs_gda(rho):
    L = np.linalg.cholesky(cov_from_params(1.0, 1.0, rho))
    y = np.repeat([0, 1], 120)
    X = _Z @ L.T + np.array([[-0.75, 0.0], [0.75, 0.0]])[y]
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 5.0))
    for ax, model in zip(axes, (GaussianNB().fit(X, y), GDA().fit(X, y))):
        for k in (0, 1):
            ax.scatter(*X[y == k].T, s=9)
            cov = (np.diag(model.var_[k]) if isinstance(model, GaussianNB)
                   else model.covariance_)
            mean = model.theta_[k] if isinstance(model, GaussianNB) else model.means_[k]
            for level in (1, 2):
                ax.plot(*ellipse_points(mean, cov, level).T)
        ax.contour(_XS, _XS, model.predict_proba(_G)[:, 1].reshape(121, 121), levels=[0.5])
        ax.set_aspect("equal")
    fig.tight_layout()
    naive_png(fig)


def naive_kde(bandwidth):
    grid = np.linspace(X1D.min() - 0.6, X1D.max() + 0.6, 500)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(9.5, 6.2), sharex=True)
    dens = []
    for c in ("one", "two"):
        data = X1D[Y1D == c]
        d = gaussian_kde(data, bw_method=bandwidth / data.std(ddof=1))(grid)
        dens.append(d)
        a1.plot(grid, d)
        a1.plot(data, np.zeros_like(data), "|")
    post = np.array(dens) / np.sum(dens, axis=0)
    for k in range(2):
        a2.plot(grid, post[k])
    fig.tight_layout()
    naive_png(fig)


# ----------------------------------------------------------------------------- explorer cases
CAT_MOVES = sweep_moves({"alpha": np.round(np.linspace(0, 2, 8), 2),
                         "Outlook": ["Sunny", "Overcast", "Rain"],
                         "Humidity": ["High", "Normal"]}, n_total=60)
DISC_MOVES = sweep_moves({"width": [4.0, 6.0, 8.0, 10.0, 14.0, 20.0],
                          "origin": [0.0, 2.0, 4.0, 6.0]}, n_total=60)
RHO_MOVES = sweep_moves({"rho": np.round(np.linspace(-0.9, 0.9, 13), 2)}, n_total=60)
H_MOVES = sweep_moves({"bandwidth": np.round(np.geomspace(0.05, 2.0, 12), 3)}, n_total=60)


def _cat():
    return categorical_nb_explorer(TENNIS.X, TENNIS.y, TENNIS.feature_names, alpha=1.0,
                                   query=["Sunny", "Cool", "High", "Strong"])


CASES = [
    ExplorerCase("categorical_nb_explorer (PlayTennis, 4 tables + posterior)", _cat, CAT_MOVES,
                 lambda **v: naive_categorical(**{"Temperature": "Cool", "Wind": "Strong",
                                                  **v}), kind="2-D"),
    ExplorerCase("discretize_explorer (penguin flipper length)",
                 lambda: discretize_explorer(FLIPPER, PENGUINS.y, width=10.0), DISC_MOVES,
                 lambda **v: naive_discretize(**{"alpha": 1.0, **v}), kind="2-D"),
    ExplorerCase("nb_vs_gda_explorer", lambda: nb_vs_gda_explorer(0.8), RHO_MOVES,
                 naive_nb_vs_gda, kind="2-D"),
    ExplorerCase("kde_nb_explorer (300 points)", lambda: kde_nb_explorer(X1D, Y1D, bandwidth=0.3),
                 H_MOVES, naive_kde, kind="2-D"),
]


# ----------------------------------------------------------------------------- computations
def _sk():
    from sklearn import naive_bayes as skl
    from sklearn.preprocessing import OrdinalEncoder
    return skl, OrdinalEncoder


def _categorical_ours():
    nb = CategoricalNB(alpha=1.0).fit(TENNIS.X, TENNIS.y)
    nb.predict_proba(TENNIS.X)


def _categorical_sklearn():
    skl, OrdinalEncoder = _sk()
    enc = OrdinalEncoder().fit(TENNIS.X)
    Xe = enc.transform(TENNIS.X)
    skl.CategoricalNB(alpha=1.0, force_alpha=True).fit(Xe, TENNIS.y).predict_proba(
        enc.transform(TENNIS.X))


def _gaussian_ours():
    GaussianNB().fit(PENGUINS.X, PENGUINS.y).predict_proba(PENGUINS.X)


def _gaussian_sklearn():
    _sk()[0].GaussianNB().fit(PENGUINS.X, PENGUINS.y).predict_proba(PENGUINS.X)


_XG = np.column_stack([a.ravel() for a in np.meshgrid(np.linspace(30, 60, 60),
                                                      np.linspace(13, 22, 60))])


def _kde_ours():
    KDENB(bandwidth="silverman").fit(PENGUINS.X[:, :2], PENGUINS.y).predict_proba(_XG)


def _kde_scipy():
    """The same model with scipy's gaussian_kde per class and feature (same bandwidths)."""
    X, y = PENGUINS.X[:, :2], PENGUINS.y
    nb = KDENB(bandwidth="silverman").fit(X, y)
    logp = np.zeros((len(_XG), 3))
    for k, c in enumerate(nb.classes_):
        for j in range(2):
            data = X[y == c, j]
            logp[:, k] += gaussian_kde(data, bw_method=nb.bandwidth_[k, j] / data.std(ddof=1)
                                       ).logpdf(_XG[:, j])


@functools.lru_cache(maxsize=1)
def _docs():
    """A sparse 6000 x 20000 count matrix and its labels, made on first use (seconds of work
    that importing this file must not do: ``run.py NAME`` imports it for any of its cases)."""
    cr = np.random.default_rng(3)
    docs = sp.random(6000, 20000, density=0.004, format="csr", random_state=3,
                     data_rvs=lambda n: cr.integers(1, 4, n).astype(float))
    return docs, np.where(cr.random(6000) < 0.3, "spam", "ham")


def _text(ours, theirs):
    def fn():
        docs, labels = _docs()
        ours().fit(docs, labels).predict_proba(docs)

    def base():
        docs, labels = _docs()
        theirs().fit(docs, labels).predict_proba(docs)
    return fn, base


_mn = _text(MultinomialNB, lambda: _sk()[0].MultinomialNB(force_alpha=True))
_bn = _text(BernoulliNB, lambda: _sk()[0].BernoulliNB(force_alpha=True))

CASES += [
    TimingCase("CategoricalNB fit + predict_proba, PlayTennis (strings)", _categorical_ours,
               _categorical_sklearn, baseline_name="sklearn OrdinalEncoder + CategoricalNB",
               repeats=50),
    TimingCase("GaussianNB fit + predict_proba, penguins (342 x 4)", _gaussian_ours,
               _gaussian_sklearn, baseline_name="sklearn GaussianNB", repeats=50),
    TimingCase("KDENB fit + predict_proba, penguins 2 features, 3600-point grid", _kde_ours,
               _kde_scipy, baseline_name="scipy gaussian_kde per class and feature", repeats=5),
    TimingCase("MultinomialNB fit + predict_proba, sparse 6000 x 20000", _mn[0], _mn[1],
               baseline_name="sklearn MultinomialNB", repeats=10),
    TimingCase("BernoulliNB fit + predict_proba, sparse 6000 x 20000", _bn[0], _bn[1],
               baseline_name="sklearn BernoulliNB", repeats=10),
]
