r"""Two-class data-generating models for comparing GDA with logistic regression.

:class:`DataModel` draws labelled samples (:math:`y \sim \mathrm{Bernoulli}(\phi)`, then
:math:`x \mid y`) from one of five families and knows its own Bayes-optimal log-odds
:math:`\log p(y=1\mid x) / p(y=0\mid x)`, so an experiment can compare learned boundaries and
test errors with the best possible ones.

========================  =====================================================================
``family``                :math:`x \mid y`
========================  =====================================================================
``"gaussian"``            :math:`\mathcal N(\mu_y, \Sigma)`: GDA's own assumption (linear Bayes
                          boundary).
``"gaussian_diff_cov"``   :math:`\mathcal N(\mu_0, \Sigma)` and :math:`\mathcal N(\mu_1,
                          \Sigma_1)` with :math:`\Sigma_1` = Sigma turned by 90 degrees and
                          doubled (quadratic Bayes boundary).
``"heavy_tailed"``        multivariate Student t with ``df`` = 3 degrees of freedom, location
                          :math:`\mu_y`, scale :math:`\Sigma`.
``"poisson"``             independent counts :math:`x_j \sim \mathrm{Poisson}(\lambda_{y j})`,
                          :math:`\lambda_{yj} = 4 e^{\mu_{yj}/2}` (the notes' example:
                          :math:`p(y \mid x)` is exactly logistic; ``cov`` is not used).
``"outliers"``            as ``"gaussian"``, but a fraction ``outlier_frac`` = 10% of class 1
                          lies in a far cluster :math:`\mathcal N(\mu_1 + 10 u, \tfrac14 I)`,
                          ``u`` the unit vector along :math:`\mu_1 - \mu_0` (beyond class 1).
========================  =====================================================================

:func:`learning_curves` runs the Ng & Jordan (2001) experiment: test error against training-set
size for GDA and logistic regression, averaged over repetitions.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import NamedTuple

import numpy as np
from scipy.special import ndtr
from scipy.stats import poisson

from genviz._validation import check_int, check_rng, check_scalar, check_vector
from genviz.gaussian import factorize_cov, mahalanobis, mvn_logpdf
from genviz.gda import GDA
from genviz.logistic import LogisticRegression

__all__ = ["FAMILIES", "DataModel", "LearningCurves", "learning_curves", "crossing_size"]

FAMILIES = ("gaussian", "gaussian_diff_cov", "heavy_tailed", "poisson", "outliers")
_DF = 3.0
_OUT_DIST = 10.0
_OUT_ANGLE = 0.0


@dataclasses.dataclass(frozen=True)
class DataModel:
    """A two-class data-generating model (see the module docstring for the families).

    Parameters
    ----------
    family : str
        One of :data:`FAMILIES`.
    mu0, mu1 : (2,) or (d,) array_like
        Class locations.
    cov : (d, d) array_like
        Shared covariance (scale matrix for ``heavy_tailed``).
    phi : float
        :math:`P(y = 1)`, in (0, 1).
    outlier_frac : float
        Fraction of class 1 in the outlier cluster (``family="outliers"``).

    Examples
    --------
    >>> m = DataModel("gaussian", [0.0, 0.0], [2.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], phi=0.5)
    >>> X, y = m.sample(4, rng=0)
    >>> X.shape, y.tolist()
    ((4, 2), [0, 1, 1, 1])
    >>> m.linear_bayes()  # theta = Sigma^-1 (mu1 - mu0), theta0
    (array([2., 0.]), -2.0)
    """

    family: str
    mu0: np.ndarray
    mu1: np.ndarray
    cov: np.ndarray
    phi: float = 0.5
    outlier_frac: float = 0.1

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, got {self.family!r}")
        mu0 = check_vector(self.mu0, "mu0")
        object.__setattr__(self, "mu0", mu0)
        object.__setattr__(self, "mu1", check_vector(self.mu1, "mu1", d=mu0.shape[0]))
        object.__setattr__(self, "cov", factorize_cov(self.cov, "cov").cov)
        if self.cov.shape[0] != mu0.shape[0]:
            raise ValueError(f"cov is {self.cov.shape[0]}x{self.cov.shape[0]} but the means "
                             f"have length {mu0.shape[0]}")
        object.__setattr__(self, "phi", check_scalar(self.phi, "phi", low=0.0, high=1.0,
                                                     low_open=True, high_open=True))
        object.__setattr__(self, "outlier_frac", check_scalar(
            self.outlier_frac, "outlier_frac", low=0.0, high=1.0, high_open=True))
        if self.family == "outliers" and mu0.shape[0] != 2:
            raise ValueError("the outliers family is defined in 2-D")

    # -- derived parameters --------------------------------------------------------------------
    @property
    def d(self) -> int:
        return self.mu0.shape[0]

    @property
    def cov1(self) -> np.ndarray:
        """Covariance (scale) of class 1: ``cov``, or for ``gaussian_diff_cov`` the rotated and
        doubled matrix."""
        if self.family != "gaussian_diff_cov":
            return self.cov
        R = np.eye(self.d)[::-1].copy()
        R[0] *= -1.0  # a quarter turn in the first two coordinates
        return 2.0 * R @ self.cov @ R.T

    @property
    def rates(self) -> np.ndarray:
        """Poisson rates, (2, d): ``4 exp(mu_y / 2)``."""
        return 4.0 * np.exp(np.vstack([self.mu0, self.mu1]) / 2.0)

    @property
    def outlier_center(self) -> np.ndarray:
        delta = self.mu1 - self.mu0
        norm = np.linalg.norm(delta)
        u = delta / norm if norm > 0 else np.array([1.0, 0.0])
        c, s = np.cos(_OUT_ANGLE), np.sin(_OUT_ANGLE)
        return self.mu1 + _OUT_DIST * np.array([c * u[0] - s * u[1], s * u[0] + c * u[1]])

    # -- sampling ------------------------------------------------------------------------------
    def sample(self, n, rng):
        """``n`` labelled points: ``(X, y)`` with ``X`` (n, d) and ``y`` (n,) in {0, 1}.

        The draws are made in a fixed order (labels, then standard normals), so with the same
        seed the points move continuously as the means and covariance change.

        Parameters
        ----------
        n : int
        rng : numpy.random.Generator or int

        Examples
        --------
        >>> X, y = DataModel("poisson", [0.0, 0.0], [1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]]).sample(3, 0)
        >>> X.dtype, y.tolist()
        (dtype('float64'), [0, 1, 1])
        """
        n = check_int(n, "n", low=0)
        gen = check_rng(rng)
        y = (gen.random(n) < self.phi).astype(int)
        if self.family == "poisson":
            return gen.poisson(self.rates[y]).astype(float), y
        z = gen.standard_normal((n, self.d))
        L0 = np.linalg.cholesky(self.cov)
        L1 = np.linalg.cholesky(self.cov1)
        X = np.where(y[:, None] == 1, z @ L1.T, z @ L0.T)
        if self.family == "heavy_tailed":
            X /= np.sqrt(gen.chisquare(_DF, n) / _DF)[:, None]
        X += np.where(y[:, None] == 1, self.mu1, self.mu0)
        if self.family == "outliers":
            out = (gen.random(n) < self.outlier_frac) & (y == 1)
            X[out] = self.outlier_center + 0.5 * z[out]
        return X, y

    # -- the Bayes-optimal classifier ----------------------------------------------------------
    def log_odds(self, X) -> np.ndarray:
        r"""Bayes-optimal :math:`\log p(y=1\mid x) - \log p(y=0\mid x)` at each row of ``X``.

        Examples
        --------
        >>> m = DataModel("gaussian", [0.0], [2.0], [[1.0]], phi=0.5)
        >>> m.log_odds([[0.0], [1.0]])  # 2x - 2
        array([-2.,  0.])
        """
        X = np.asarray(X, dtype=float)
        prior = np.log(self.phi / (1 - self.phi))
        if self.family == "poisson":
            lam = self.rates
            return X @ np.log(lam[1] / lam[0]) - (lam[1] - lam[0]).sum() + prior
        if self.family == "heavy_tailed":
            m0 = mahalanobis(X, self.mu0, self.cov) ** 2
            m1 = mahalanobis(X, self.mu1, self.cov) ** 2
            return -0.5 * (_DF + self.d) * (np.log1p(m1 / _DF) - np.log1p(m0 / _DF)) + prior
        f0, f1, fo = self._factors
        l0 = mvn_logpdf(X, self.mu0, f0)
        l1 = mvn_logpdf(X, self.mu1, f1)
        if self.family == "outliers" and self.outlier_frac > 0:
            lo = mvn_logpdf(X, self.outlier_center, fo)
            l1 = np.logaddexp(l1 + np.log1p(-self.outlier_frac), lo + np.log(self.outlier_frac))
        return l1 - l0 + prior

    @functools.cached_property
    def _factors(self):
        """Covariance factors of class 0, class 1 and the outlier cluster (computed once)."""
        return (factorize_cov(self.cov), factorize_cov(self.cov1),
                factorize_cov(0.25 * np.eye(self.d)))

    @functools.cached_property
    def _lattice(self):
        """Counts 0..top and the joint Poisson pmf tables of both classes (computed once)."""
        lam = self.rates
        k = np.arange(int(poisson.isf(1e-12, lam.max())) + 2)
        pmf = [[poisson.pmf(k, lam[c, j]) for j in range(2)] for c in range(2)]
        return k, np.outer(*pmf[0]), np.outer(*pmf[1])

    def linear_bayes(self):
        """``(theta, theta0)`` when the Bayes boundary is linear (gaussian, poisson), else None."""
        if self.family == "gaussian":
            return GDA.from_params([1 - self.phi, self.phi], [self.mu0, self.mu1],
                                   self.cov).logistic_params()
        if self.family == "poisson":
            lam = self.rates
            return (np.log(lam[1] / lam[0]),
                    float(-(lam[1] - lam[0]).sum() + np.log(self.phi / (1 - self.phi))))
        return None

    def linear_error(self, theta, theta0):
        r"""Exact error rate of the rule "predict 1 where :math:`\theta^T x + \theta_0 > 0`".

        Closed form for ``gaussian`` (:math:`z = \theta^T x + \theta_0` is normal in each
        class); an exact sum over the count lattice for ``poisson`` (up to a count with tail
        mass below 1e-12); None for the other families (use a test set).

        Examples
        --------
        >>> m = DataModel("gaussian", [0.0], [2.0], [[1.0]])
        >>> round(m.linear_error([1.0], -1.0), 6)  # Phi(-1), the Bayes error
        0.158655
        """
        theta = check_vector(theta, "theta", d=self.d)
        theta0 = check_scalar(theta0, "theta0")
        if self.family == "gaussian":
            s = np.sqrt(theta @ self.cov @ theta)
            if s == 0.0:
                return self.phi if theta0 <= 0 else 1.0 - self.phi
            z0 = (theta @ self.mu0 + theta0) / s
            z1 = (theta @ self.mu1 + theta0) / s
            return float((1 - self.phi) * ndtr(z0) + self.phi * ndtr(-z1))
        if self.family == "poisson" and self.d == 2:
            k, p0, p1 = self._lattice
            positive = (theta[0] * k[:, None] + theta[1] * k[None, :] + theta0) > 0
            return float((1 - self.phi) * p0[positive].sum() + self.phi * p1[~positive].sum())
        return None


class LearningCurves(NamedTuple):
    """Result of :func:`learning_curves`: errors have shape (n_reps, len(sizes))."""

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
