r"""Two-class data-generating models for comparing GDA with logistic regression.

:class:`DataModel` draws labelled samples (:math:`y \sim \mathrm{Bernoulli}(\phi)`, then
:math:`x \mid y`) from one of five families and knows its own Bayes-optimal log-odds
:math:`\log p(y=1\mid x) / p(y=0\mid x)`, so an experiment can compare learned boundaries and
test errors with the best possible ones.

========================  =====================================================================
``family``                distribution of :math:`x` given :math:`y`
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

:func:`correlated_classes` draws the naive-Bayes-vs-GDA data of notebook 08 (two classes
sharing a correlated covariance). The k-NN figures' data (Smola & Vishwanathan, Figs. 1.18 and 1.19) are here too:
:func:`two_class_data` (two classes, each a mixture of Gaussian blobs), :func:`regression_data`
and its true mean :func:`regression_truth`, and :func:`flip_labels` (seeded, nested label
noise). The claw density of the KDE topic (``claw_pdf``, ``sample_claw``) stays in
:mod:`genviz.kde` beside the estimator it tests; the real data sets are in :mod:`genviz.datasets`.

This module only *generates* data. The learning-curve experiment that fits models to it
(``learning_curves``, ``crossing_size``, ``LearningCurves``) is in
:mod:`genviz.studies.gda_vs_logistic_curves`; their old names here (``learning_curves`` etc.)
still resolve, with a ``DeprecationWarning`` (:mod:`genviz._moved`; this module never imports
the studies).
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
from scipy.special import ndtr
from scipy.stats import poisson

from genviz._moved import moved_names
from genviz._validation import check_array, check_int, check_rng, check_scalar, check_vector
from genviz.gaussian import cov_from_params, factorize_cov, mahalanobis, mvn_logpdf
from genviz.gda import GDA

__all__ = ["FAMILIES", "DataModel", "correlated_classes", "two_class_data", "regression_data",
           "regression_truth", "flip_labels"]

__getattr__ = moved_names(__name__)  # deprecated aliases (genviz._moved.MOVED), until REMOVED_IN

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
    mu0 : array_like of shape (d,)
        Location of class 0.
    mu1 : array_like of shape (d,)
        Location of class 1.
    cov : array_like of shape (d, d)
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


def correlated_classes(n_per_class, rho, rng, *, sep=1.5):
    r"""Two equally large classes sharing :math:`\Sigma = [[1, \rho], [\rho, 1]]`, means
    :math:`(\mp sep/2, 0)`: they differ along :math:`x_1` only (notebook 08).

    Gaussian naive Bayes ignores the correlation (its boundary is vertical), GDA uses it. The
    standard normals are drawn first, in a fixed order, then transformed, so with the same seed
    the points move continuously as ``rho`` changes.

    Parameters
    ----------
    n_per_class : int
        Points per class (>= 1).
    rho : float
        Correlation, in (-1, 1).
    rng : numpy.random.Generator or int
    sep : float
        Distance between the class means (>= 0).

    Returns
    -------
    X : ndarray of shape (2 * n_per_class, 2)
    y : ndarray of shape (2 * n_per_class,), dtype=int
        ``n_per_class`` zeros, then as many ones.

    Examples
    --------
    >>> X, y = correlated_classes(2, 0.5, rng=0)
    >>> X.shape, y.tolist()
    ((4, 2), [0, 0, 1, 1])
    """
    n = check_int(n_per_class, "n_per_class", low=1)
    rho = check_scalar(rho, "rho", low=-1.0, high=1.0, low_open=True, high_open=True)
    sep = check_scalar(sep, "sep", low=0.0)
    z = check_rng(rng).standard_normal((2 * n, 2))
    y = np.repeat([0, 1], n)
    L = np.linalg.cholesky(cov_from_params(1.0, 1.0, rho))
    mu = np.array([[-0.5, 0.0], [0.5, 0.0]]) * sep
    return z @ L.T + mu[y], y


# -- the k-NN figures' data ------------------------------------------------------------------
_CLASS_CENTRES = (((-1.5, 1.0), (1.0, -1.5)), ((1.2, 1.2), (-1.0, -1.6), (-1.8, -0.4)))


def two_class_data(n, rng):
    """Two classes in the plane, each a mixture of Gaussian blobs (a curved true boundary).

    Class 0 has blobs at (-1.5, 1) and (1, -1.5), class 1 at (1.2, 1.2), (-1, -1.6) and
    (-1.8, -0.4), each with covariance 0.45 I; labels alternate so the classes have n/2 points.

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), dtype=int

    Examples
    --------
    >>> X, y = two_class_data(6, rng=0)
    >>> X.shape, y.tolist()
    ((6, 2), [0, 1, 0, 1, 0, 1])
    """
    n = check_int(n, "n", low=2)
    rng = check_rng(rng)
    y = np.arange(n) % 2
    X = np.empty((n, 2))
    for c, centres in enumerate(_CLASS_CENTRES):
        idx = np.flatnonzero(y == c)
        blob = rng.integers(0, len(centres), size=idx.size)
        X[idx] = np.asarray(centres)[blob] + np.sqrt(0.45) * rng.standard_normal((idx.size, 2))
    return X, y


def regression_data(n, rng, *, noise=0.3):
    """Points (x, y) from a joint distribution as in the notes' Figure 1.19.

    ``x ~ Uniform(0, 10)``, ``y = sin(x) + x/5 + noise * N(0, 1)``.

    Returns
    -------
    x : ndarray of shape (n,)
        Sorted.
    y : ndarray of shape (n,)

    Examples
    --------
    >>> x, y = regression_data(5, rng=0)
    >>> bool(np.all(np.diff(x) >= 0)), y.shape
    (True, (5,))
    """
    n = check_int(n, "n", low=1)
    noise = check_scalar(noise, "noise", low=0.0)
    rng = check_rng(rng)
    x = np.sort(rng.uniform(0.0, 10.0, size=n))
    return x, regression_truth(x) + noise * rng.standard_normal(n)


def regression_truth(x):
    """The mean of y given x in :func:`regression_data`: ``sin(x) + x/5``."""
    x = check_array(x, "x")
    return np.sin(x) + x / 5.0


def flip_labels(y_codes, fraction, n_classes, rng) -> tuple[np.ndarray, np.ndarray]:
    """Label noise: change the class of ``round(fraction * n)`` seeded, randomly chosen points.

    With the same seed the flipped sets are nested (raising ``fraction`` adds points), because the
    order in which points are flipped is one seeded permutation.

    Parameters
    ----------
    y_codes : array_like of shape (n,), dtype=int
    fraction : float in [0, 1]
    n_classes : int >= 2
    rng : numpy Generator or int seed

    Returns
    -------
    y_noisy : ndarray of shape (n,), dtype=int
    flipped : ndarray of shape (n,), dtype=bool

    Examples
    --------
    >>> y, flipped = flip_labels([0, 0, 1, 1], 0.5, 2, rng=0)
    >>> int(flipped.sum()), int((y != [0, 0, 1, 1]).sum())
    (2, 2)
    """
    y = np.asarray(y_codes)
    if y.ndim != 1 or not np.issubdtype(y.dtype, np.integer):
        raise ValueError(f"y_codes must be a 1-D integer array, got dtype {y.dtype}, shape {y.shape}")
    fraction = check_scalar(fraction, "fraction", low=0.0, high=1.0)
    n_classes = check_int(n_classes, "n_classes", low=2)
    rng = check_rng(rng)
    order = rng.permutation(y.shape[0])
    shift = rng.integers(1, n_classes, size=y.shape[0])
    flipped = np.zeros(y.shape[0], dtype=bool)
    flipped[order[:int(round(fraction * y.shape[0]))]] = True
    return np.where(flipped, (y + shift) % n_classes, y), flipped
