"""What the GDA-against-logistic-regression figures show (CS229 part IV, 1.3; Ng & Jordan
2001; notebook 04), computed: one training and test set from a data model with GDA's, logistic
regression's and the Bayes-optimal boundaries and test errors (:class:`GDAvsLogisticStudy`,
built on :func:`gda_vs_logistic_trial`). The learning-curve experiment and its figure are in
:mod:`genviz.studies.gda_vs_logistic_curves`; :mod:`genviz.plots.gda_vs_logistic` paints
them; the data models are :class:`genviz.synthetic.DataModel`."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.gaussian import cov_from_params
from genviz.gda import GDA
from genviz.grids import grid_2d
from genviz.logistic import LogisticRegression, SeparableDataError
from genviz.studies._base import Result, Study
from genviz.studies.gda_fits import Boundary, boundary
from genviz.synthetic import FAMILIES, DataModel

__all__ = ["GDAvsLogisticTrial", "gda_vs_logistic_trial", "GDAvsLogisticStatic",
           "GDAvsLogisticResult", "GDAvsLogisticStudy", "BOXES"]


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
