"""GDA-vs-logistic explorer against the naive new-figure-per-update approach; fits and learning
curves against scikit-learn."""

import warnings

import matplotlib.pyplot as plt
import numpy as np

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz.gaussian import cov_from_params
from genviz.gda import GDA
from genviz.logistic import LogisticRegression
from genviz.studies.gda_vs_logistic_curves import learning_curves
from genviz.synthetic import DataModel
from genviz.widgets.gda import gda_vs_logistic_explorer

MOVES = sweep_moves({
    "mu1x": np.round(np.linspace(0.0, 2.0, 8), 2),
    "rho": np.round(np.linspace(-0.6, 0.8, 8), 2),
    "n": [100, 200, 400, 800],
    "gda_cov": ["separate", "shared"],
}, n_total=60)
MOVES_FAMILY = sweep_moves({
    "mu1x": np.round(np.linspace(0.0, 2.0, 8), 2),
    "gda_cov": ["separate", "shared"],
    "sigma2": np.round(np.linspace(0.5, 1.5, 6), 2),
}, n_total=60)


def naive_gda(mu0x, mu0y, mu1x, mu1y, sigma1, sigma2, rho, phi, n, family, gda_cov):
    """What an ``interact`` callback would do: sample, fit, evaluate on a grid, contour it all
    in a new figure, encode a PNG."""
    model = DataModel(family, [mu0x, mu0y], [mu1x, mu1y], cov_from_params(sigma1, sigma2, rho),
                      phi=phi)
    X, y = model.sample(n, np.random.default_rng(0))
    Xt, yt = model.sample(4000, np.random.default_rng(1))
    gda = GDA(shared_cov=gda_cov == "shared").fit(X, y)
    try:
        lr = LogisticRegression().fit(X, y)
    except ValueError:
        lr = LogisticRegression(l2=1e-3).fit(X, y)
    xs = np.linspace(-5, 5, 90) if family != "poisson" else np.linspace(-1, 25, 90)
    G = np.column_stack([a.ravel() for a in np.meshgrid(xs, xs)])
    fig = plt.figure(figsize=(5.4, 4.8))  # as GDAvsLogisticView
    ax = fig.add_subplot()
    ax.scatter(*X[y == 0].T, marker="o", facecolors="none", edgecolors="C0")
    ax.scatter(*X[y == 1].T, marker="x", color="C1")
    for Z, c in ((gda.decision_function(G), "g"), (lr.decision_function(G), "m"),
                 (model.log_odds(G), "k")):
        ax.contour(xs, xs, Z.reshape(90, 90), levels=[0], colors=c)
    ax.set_title(f"GDA {np.mean(gda.predict(Xt) != yt):.1%}, "
                 f"logistic {np.mean(lr.predict(Xt) != yt):.1%}")
    naive_png(fig)


SIZES = [10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000]
GAUSS = DataModel("gaussian", [0.0, 0.0], [1.5, 0.0], [[1.0, 0.8], [0.8, 1.0]])
X5000, Y5000 = GAUSS.sample(5000, 0)


def sklearn_learning_curves():
    """The same experiment with scikit-learn's LDA and LogisticRegression and a test set."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression as SkLR

    gen = np.random.default_rng(0)
    Xt, yt = GAUSS.sample(20000, gen)
    for _ in range(10):
        X, y = GAUSS.sample(SIZES[-1], gen)
        for n in SIZES:
            if min(y[:n].sum(), n - y[:n].sum()) < 2:
                continue
            LinearDiscriminantAnalysis(solver="lsqr").fit(X[:n], y[:n]).score(Xt, yt)
            SkLR(C=1e3).fit(X[:n], y[:n]).score(Xt, yt)


def sklearn_logistic():
    from sklearn.linear_model import LogisticRegression as SkLR

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        SkLR(C=np.inf, tol=1e-12, max_iter=10_000).fit(X5000, Y5000)


CASES = [
    ExplorerCase("gda_vs_logistic_explorer (gaussian)",
                 lambda: gda_vs_logistic_explorer(), MOVES, naive_gda, kind="2-D"),
    ExplorerCase("gda_vs_logistic_explorer (outliers, quadric Bayes boundary)",
                 lambda: gda_vs_logistic_explorer(family="outliers"), MOVES_FAMILY, naive_gda,
                 kind="2-D"),
    TimingCase("LogisticRegression().fit, n = 5000, d = 2 (to 1e-12)",
               lambda: LogisticRegression().fit(X5000, Y5000), sklearn_logistic,
               baseline_name="sklearn lbfgs, tol 1e-12"),
    TimingCase("learning_curves: 10 sizes 10..5000 x 10 reps (gaussian, exact errors)",
               lambda: learning_curves(GAUSS, SIZES, 10, rng=0), sklearn_learning_curves,
               baseline_name="sklearn LDA + LR, 20000-point test set", repeats=3,
               baseline_repeats=1),
]
