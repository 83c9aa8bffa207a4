"""What the GDA-against-logistic-regression figures show (CS229 part IV, 1.3; Ng & Jordan
2001; notebook 04), computed: one training and test set from a data model with GDA's, logistic
regression's and the Bayes-optimal boundaries and test errors (:class:`GDAvsLogisticStudy`,
built on :func:`gda_vs_logistic_trial`), and the learning-curve experiment
(:func:`learning_curves`, :func:`crossing_size`) with its figure's means and standard errors
(:func:`learning_curve_figure_study`). :mod:`genviz.plots.gda_vs_logistic` paints them; the
data models are :class:`genviz.synthetic.DataModel`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_rng, check_scalar
from genviz.gaussian import cov_from_params
from genviz.gda import GDA
from genviz.grids import grid_2d
from genviz.logistic import LogisticRegression, SeparableDataError
from genviz.studies._base import Result, Study
from genviz.studies.gda import Boundary, boundary
from genviz.synthetic import FAMILIES, DataModel

__all__ = ["GDAvsLogisticTrial", "gda_vs_logistic_trial", "LearningCurves", "learning_curves",
           "crossing_size", "GDAvsLogisticStatic", "GDAvsLogisticResult", "GDAvsLogisticStudy",
           "CurveStats", "LearningCurveFigureResult", "learning_curve_figure_study", "BOXES"]


# -- one trial: samples, the Bayes error, logistic regression with its fallback ----------------
class GDAvsLogisticTrial:
    """One training set and one test set from a :class:`~genviz.synthetic.DataModel`, the
    Bayes-optimal test error and logistic regression fitted to the training set; GDA is fitted
    on demand (:meth:`gda`, shared or separate covariances).

    Logistic regression is unregularised; if the training set is linearly separable (no
    maximum-likelihood estimate) it is refitted with ``l2 = 1e-3`` (``lr_l2`` says so).
    Built by :func:`gda_vs_logistic_trial`.

    Attributes
    ----------
    data_model : DataModel
    X, y : the training set
    X_test, y_test : the test set
    bayes_error : float
        Test error of the Bayes-optimal rule (``data_model.log_odds > 0``).
    lr : LogisticRegression
    lr_l2 : float
        0, or the ridge used because the data were separable.
    """

    def __init__(self, data_model, X, y, X_test, y_test):
        self.data_model = data_model
        self.X, self.y, self.X_test, self.y_test = X, y, X_test, y_test
        self.bayes_error = float(np.mean((data_model.log_odds(X_test) > 0) != y_test))
        self.lr_l2 = 0.0
        try:
            self.lr = LogisticRegression().fit(X, y)
        except SeparableDataError:
            self.lr_l2 = 1e-3
            self.lr = LogisticRegression(l2=self.lr_l2).fit(X, y)
        self.lr_error = self.test_error(self.lr)

    def test_error(self, model) -> float:
        """Share of the test set ``model`` misclassifies."""
        return float(np.mean(model.predict(self.X_test) != self.y_test))

    def gda(self, gda_cov="shared") -> GDA:
        """GDA fitted to the training set, ``gda_cov`` ``"shared"`` or ``"separate"``."""
        if gda_cov not in ("shared", "separate"):
            raise ValueError(f"gda_cov must be 'shared' or 'separate', got {gda_cov!r}")
        return GDA(shared_cov=gda_cov == "shared").fit(self.X, self.y)


def gda_vs_logistic_trial(data_model, n, *, n_test=4000, seed=0) -> GDAvsLogisticTrial:
    """Draw ``n`` training points (seed ``seed``) and ``n_test`` test points (seed
    ``seed + 1``) from ``data_model`` and fit logistic regression (:class:`GDAvsLogisticTrial`).

    Raises
    ------
    ValueError
        The training sample has fewer than 2 points in a class (raise ``n`` or move ``phi``
        towards 0.5); bad ``n``, ``n_test`` or ``seed``.

    Examples
    --------
    >>> from genviz.synthetic import DataModel
    >>> m = DataModel("gaussian", [-1.0, 0.0], [1.0, 0.0], np.eye(2))
    >>> t = gda_vs_logistic_trial(m, 200, n_test=2000, seed=0)
    >>> bool(abs(t.test_error(t.gda()) - t.bayes_error) < 0.03), t.lr_l2
    (True, 0.0)
    """
    if not isinstance(data_model, DataModel):
        raise TypeError(f"data_model must be a DataModel, got {type(data_model).__name__}")
    n = check_int(n, "n", low=4)
    n_test = check_int(n_test, "n_test", low=1)
    seed = check_int(seed, "seed", low=0)
    X, y = data_model.sample(n, np.random.default_rng(seed))
    if min(y.sum(), len(y) - y.sum()) < 2:
        raise ValueError("the sample has fewer than 2 points in a class: raise n or move "
                         "phi towards 0.5")
    Xt, yt = data_model.sample(n_test, np.random.default_rng(seed + 1))
    return GDAvsLogisticTrial(data_model, X, y, Xt, yt)


# -- the learning-curve experiment ----------------------------------------------------------------
class LearningCurves(NamedTuple):
    """Result of :func:`learning_curves`.

    Attributes
    ----------
    sizes : ndarray of shape (n_sizes,), dtype=int
        Training-set sizes.
    gda_errors : ndarray of shape (n_reps, n_sizes)
        Test error of GDA per repetition and size.
    lr_errors : ndarray of shape (n_reps, n_sizes)
        Test error of logistic regression likewise.
    bayes_error : float
        Error of the Bayes-optimal classifier.
    n_test : int
        Size of the test set (unused when the errors are exact).
    """

    sizes: np.ndarray
    gda_errors: np.ndarray
    lr_errors: np.ndarray
    bayes_error: float
    n_test: int

    def mean_se(self, which: str):
        """(mean, standard error) over repetitions of ``"gda"`` or ``"lr"`` errors."""
        e = {"gda": self.gda_errors, "lr": self.lr_errors}[which]
        return e.mean(axis=0), e.std(axis=0, ddof=1) / np.sqrt(e.shape[0])


def _valid_training_set(model, n, gen):
    """Draw until each class has at least two points (a GDA needs a covariance per class)."""
    for _ in range(1000):
        X, y = model.sample(n, gen)
        if min(y.sum(), n - y.sum()) >= 2:
            return X, y
    raise ValueError(f"could not draw {n} points with both classes present; raise n or move "
                     f"phi away from 0 and 1")


def learning_curves(model: DataModel, sizes, n_reps: int, rng, *, n_test: int = 20000,
                    l2: float = 1e-3, progress=None) -> LearningCurves:
    """Test error against training-set size for GDA (shared Sigma) and logistic regression.

    For each repetition one training sequence of ``max(sizes)`` points is drawn and its first
    ``n`` points used for each size (nested sets, as when data arrive over time); both learners
    are scored by their exact error rate when the family allows it (``gaussian`` and ``poisson``
    in 2-D: :meth:`DataModel.linear_error`), else on one test set of ``n_test`` points (both
    learners are linear, so the test set is scored by one matrix product). Logistic regression carries a tiny ridge
    ``l2`` because small samples are often linearly separable (no unregularised MLE).

    Parameters
    ----------
    model : DataModel
    sizes : sequence of int
        Training-set sizes (each >= 4), increasing.
    n_reps : int
        Repetitions to average over (>= 2, for error bars).
    rng : numpy.random.Generator or int
    n_test : int
        Size of the test set.
    l2 : float
        Logistic regression's ridge (scikit-learn's ``C = 1 / l2``).
    progress : callable(done, total), optional
        Called after each repetition (e.g. to advance a progress bar).

    Returns
    -------
    LearningCurves

    Examples
    --------
    >>> m = DataModel("gaussian", [0.0, 0.0], [1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]])
    >>> lc = learning_curves(m, [10, 100], n_reps=3, rng=0, n_test=1000)
    >>> lc.gda_errors.shape
    (3, 2)
    """
    if not isinstance(model, DataModel):
        raise TypeError(f"model must be a DataModel, got {type(model).__name__}")
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or sizes.size == 0 or sizes.dtype.kind not in "iu":
        raise ValueError(f"sizes must be a non-empty 1-D sequence of integers, got {sizes!r}")
    if sizes.min() < 4 or np.any(np.diff(sizes) <= 0):
        raise ValueError(f"sizes must be increasing and each >= 4, got {sizes.tolist()}")
    n_reps = check_int(n_reps, "n_reps", low=2)
    n_test = check_int(n_test, "n_test", low=1)
    gen = check_rng(rng)
    X_test, y_test = model.sample(n_test, gen)
    exact = model.linear_bayes() is not None and model.d == 2

    def error(theta, theta0):
        if exact:
            return model.linear_error(theta, theta0)
        return float(np.mean(((X_test @ theta + theta0) > 0) != y_test))

    bayes = error(*model.linear_bayes()) if exact else \
        float(np.mean((model.log_odds(X_test) > 0) != y_test))
    gda_err = np.empty((n_reps, sizes.size))
    lr_err = np.empty((n_reps, sizes.size))
    for r in range(n_reps):
        X, y = model.sample(int(sizes[-1]), gen)
        lr = LogisticRegression(l2=l2, warm_start=True)  # each size starts from the last fit
        for j, n in enumerate(sizes):
            Xn, yn = X[:n], y[:n]
            if min(yn.sum(), n - yn.sum()) < 2:  # rare at tiny n: redraw this prefix
                Xn, yn = _valid_training_set(model, int(n), gen)
            gda_err[r, j] = error(*GDA().fit(Xn, yn).logistic_params())
            lr.fit(Xn, yn)
            lr_err[r, j] = error(lr.coef_, lr.intercept_)
        if progress is not None:
            progress(r + 1, n_reps)
    return LearningCurves(sizes, gda_err, lr_err, bayes, n_test)


def crossing_size(curves: LearningCurves, z: float = 2.0):
    """The smallest size from which logistic regression is clearly better than GDA.

    "Clearly better" at a size: the mean over repetitions of the paired difference
    ``gda_error - lr_error`` exceeds ``z`` standard errors. Returns the smallest size from which
    this holds at every larger size too, or None when it does not hold at the largest size
    (for example on Gaussian data, where both converge to the same boundary).

    Examples
    --------
    >>> g = np.array([[.20, .10, .10], [.22, .11, .10], [.21, .10, .11]])
    >>> lc = LearningCurves(np.array([10, 100, 1000]), g, g - [[-.01, .01, .02]], 0.05, 100)
    >>> crossing_size(lc)
    100
    """
    z = check_scalar(z, "z", low=0.0)
    diff = curves.gda_errors - curves.lr_errors
    se = diff.std(axis=0, ddof=1) / np.sqrt(diff.shape[0])
    better = diff.mean(axis=0) > z * se
    if not better[-1]:
        return None
    j = len(better) - 1
    while j > 0 and better[j - 1]:
        j -= 1
    return int(curves.sizes[j])


# -- the explorer: both learners' boundaries on five data families --------------------------------
#: The window of each data family.
BOXES = {"gaussian": (-5.0, 5.0, -5.0, 5.0), "gaussian_diff_cov": (-5.0, 5.0, -5.0, 5.0),
         "heavy_tailed": (-5.0, 5.0, -5.0, 5.0), "poisson": (-1.0, 25.0, -1.0, 25.0),
         "outliers": (-14.0, 14.0, -14.0, 14.0)}

_DATA = ("mu0x", "mu0y", "mu1x", "mu1y", "sigma1", "sigma2", "rho", "phi", "n", "family")


class GDAvsLogisticStatic(Result):
    """What the comparison view draws once.

    Attributes
    ----------
    n_test : int
        Size of the test set.
    data_params : tuple of str
        The parameters that redraw the data (the others only refit GDA).
    """

    n_test: int
    data_params: tuple


class GDAvsLogisticResult(Result):
    """One training set, both learners and the Bayes-optimal rule.

    Attributes
    ----------
    errors : dict
        ``"gda"``, ``"lr"``, ``"bayes"`` -> test error.
    theta_gda : tuple or None
        GDA's ``(theta, theta0)`` when its boundary is a line (shared covariance), else None.
    theta_lr : tuple
        Logistic regression's ``(coef, intercept)``.
    lr_l2 : float
        0, or the ridge used because the sample is linearly separable.
    separable : bool
        Whether it is.
    n_train : int
    n_test : int
    family : str
    gda_cov : str
        ``"shared"`` or ``"separate"``.
    X : ndarray of shape (n, 2)
        The training set; ``y`` its labels.
    y : ndarray of shape (n,), dtype=int
    class_points : tuple of two ndarrays of shape (n_k, 2)
    box : tuple of float
        The family's window.
    grid_x : ndarray of shape (n_grid,)
        The grid of curved boundaries along x1; ``grid_y`` along x2.
    grid_y : ndarray of shape (n_grid,)
    bayes : Boundary
        The Bayes-optimal boundary (a line when the log-odds are linear).
    lr : Boundary
        Logistic regression's (a line).
    gda : Boundary
        GDA's (a line for a shared covariance, a quadric for separate ones).
    """

    errors: dict
    theta_gda: object
    theta_lr: tuple
    lr_l2: float
    separable: bool
    n_train: int
    n_test: int
    family: str
    gda_cov: str
    X: np.ndarray
    y: np.ndarray
    class_points: tuple
    box: tuple
    grid_x: np.ndarray
    grid_y: np.ndarray
    bayes: Boundary
    lr: Boundary
    gda: Boundary


class GDAvsLogisticStudy(Study):
    """Training data from a :class:`~genviz.synthetic.DataModel` with GDA's, logistic
    regression's and the Bayes-optimal boundaries, and their test errors.

    The data parameters (class means, ``sigma1``, ``sigma2``, ``rho``, ``phi``, ``n``,
    ``family``) redraw the training and test sets with a fixed seed
    (:func:`gda_vs_logistic_trial`: logistic regression with its separable-data fallback);
    ``gda_cov`` (``"shared"`` or ``"separate"``) only refits GDA. The last trial is kept, so
    toggling ``gda_cov`` draws nothing new.

    Parameters
    ----------
    n_test : int >= 10
    n_grid : int >= 10
        Grid nodes per axis for curved boundaries.
    seed : int >= 0

    Examples
    --------
    >>> r = GDAvsLogisticStudy(n_test=500)(n=100)
    >>> sorted(r.errors), r.gda.linear, r.n_train
    (['bayes', 'gda', 'lr'], True, 100)
    """

    def __init__(self, *, n_test=4000, n_grid=90, seed=0):
        self.n_test = check_int(n_test, "n_test", low=10)
        self.n_grid = check_int(n_grid, "n_grid", low=10)
        self.seed = check_int(seed, "seed", low=0)
        self._last = (None, None)

    def static(self) -> GDAvsLogisticStatic:
        return GDAvsLogisticStatic(self.n_test, _DATA)

    def _trial(self, key, p, grid, box):
        """The trial of one data setting, with its Bayes and logistic boundaries (kept)."""
        if self._last[0] != key:
            cov = cov_from_params(p["sigma1"], p["sigma2"], p["rho"])
            model = DataModel(p["family"], [p["mu0x"], p["mu0y"]], [p["mu1x"], p["mu1y"]], cov,
                              phi=p["phi"])
            trial = gda_vs_logistic_trial(model, p["n"], n_test=self.n_test, seed=self.seed)
            lin = model.linear_bayes()
            bayes = (boundary(box, linear=lin) if lin
                     else boundary(box, values=model.log_odds(grid.points).reshape(grid.shape)))
            lr = boundary(box, linear=(trial.lr.coef_, trial.lr.intercept_))
            self._last = (key, (trial, bayes, lr))
        return self._last[1]

    def __call__(self, *, mu0x=-1.0, mu0y=-0.5, mu1x=1.0, mu1y=0.5, sigma1=1.0, sigma2=1.0,
                 rho=0.3, phi=0.5, n=200, family="gaussian", gda_cov="shared"
                 ) -> GDAvsLogisticResult:
        for name, v in (("mu0x", mu0x), ("mu0y", mu0y), ("mu1x", mu1x), ("mu1y", mu1y)):
            check_scalar(v, name)
        check_scalar(phi, "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        n = check_int(n, "n", low=4)
        if family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, got {family!r}")
        if gda_cov not in ("shared", "separate"):
            raise ValueError(f"gda_cov must be 'shared' or 'separate', got {gda_cov!r}")
        p = dict(mu0x=mu0x, mu0y=mu0y, mu1x=mu1x, mu1y=mu1y, sigma1=sigma1, sigma2=sigma2,
                 rho=rho, phi=phi, n=n, family=family)
        box = BOXES[family]
        grid = grid_2d(box, self.n_grid)
        trial, bayes, lr = self._trial(tuple(p[k] for k in _DATA), p, grid, box)
        gda = trial.gda(gda_cov)
        lin = gda.logistic_params() if gda.shared_cov else None
        gda_boundary = (boundary(box, linear=lin) if lin
                        else boundary(box, values=gda.decision_function(grid.points)
                                      .reshape(grid.shape)))
        return GDAvsLogisticResult(
            errors={"gda": trial.test_error(gda), "lr": trial.lr_error,
                    "bayes": trial.bayes_error},
            theta_gda=lin, theta_lr=(trial.lr.coef_.copy(), trial.lr.intercept_),
            lr_l2=trial.lr_l2, separable=trial.lr_l2 > 0, n_train=len(trial.y),
            n_test=self.n_test, family=family, gda_cov=gda_cov, X=trial.X, y=trial.y,
            class_points=tuple(trial.X[trial.y == k] for k in (0, 1)), box=box,
            grid_x=grid.xs, grid_y=grid.ys, bayes=bayes, lr=lr, gda=gda_boundary)


# -- the learning-curve figure -------------------------------------------------------------------
class CurveStats(Result):
    """One learning curve of :func:`learning_curve_figure_study`.

    Attributes
    ----------
    sizes : ndarray of shape (n_sizes,), dtype=int
    gda_mean : ndarray of shape (n_sizes,)
        GDA's test error averaged over repetitions; ``gda_se`` its standard error.
    gda_se : ndarray of shape (n_sizes,)
    lr_mean : ndarray of shape (n_sizes,)
        Logistic regression's likewise.
    lr_se : ndarray of shape (n_sizes,)
    bayes_error : float
    """

    sizes: np.ndarray
    gda_mean: np.ndarray
    gda_se: np.ndarray
    lr_mean: np.ndarray
    lr_se: np.ndarray
    bayes_error: float


class LearningCurveFigureResult(Result):
    """Result of :func:`learning_curve_figure_study`.

    Attributes
    ----------
    curves : tuple of CurveStats
    titles : list of str
    """

    curves: tuple
    titles: list


def learning_curve_figure_study(curves, titles) -> LearningCurveFigureResult:
    """Mean and standard error over repetitions of each :class:`LearningCurves` (one panel
    each, titled by ``titles``).

    Examples
    --------
    >>> g = np.array([[0.2, 0.1], [0.4, 0.1]])
    >>> lc = LearningCurves(np.array([10, 100]), g, g, 0.05, 100)
    >>> learning_curve_figure_study([lc], ["a"]).curves[0].gda_se.tolist()
    [0.1, 0.0]
    """
    curves = list(curves)
    if len(titles) != len(curves):
        raise ValueError(f"titles has {len(titles)} entries but curves has {len(curves)}")
    out = []
    for lc in curves:
        (gm, gs), (lm, ls) = lc.mean_se("gda"), lc.mean_se("lr")
        out.append(CurveStats(lc.sizes, gm, gs, lm, ls, lc.bayes_error))
    return LearningCurveFigureResult(tuple(out), list(titles))
