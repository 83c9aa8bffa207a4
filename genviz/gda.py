r"""Gaussian discriminant analysis (CS229 part IV, sections 1.2-1.3).

The generative model with :math:`K` classes is :math:`y \sim \mathrm{Categorical}(\pi)` (for two
classes :math:`y \sim \mathrm{Bernoulli}(\phi)`) and :math:`x \mid y = k \sim \mathcal N(\mu_k,
\Sigma)` with one shared covariance matrix, or :math:`\Sigma_k` per class (``shared_cov=False``,
the quadratic variant often called QDA). The maximum-likelihood estimates are those of the notes:

.. math::

    \phi = \frac1n \sum_i 1\{y^{(i)} = 1\}, \qquad
    \mu_k = \frac{\sum_i 1\{y^{(i)} = k\} x^{(i)}}{\sum_i 1\{y^{(i)} = k\}}, \qquad
    \Sigma = \frac1n \sum_i (x^{(i)} - \mu_{y^{(i)}})(x^{(i)} - \mu_{y^{(i)}})^T

(:math:`\Sigma_k` divides by :math:`n_k`). Prediction uses Bayes' rule in log space; with two
classes and a shared :math:`\Sigma` the posterior is exactly a logistic function,
:math:`p(y=1 \mid x) = 1 / (1 + \exp(-(\theta^T x + \theta_0)))`, with
:math:`\theta = \Sigma^{-1}(\mu_1 - \mu_0)` and
:math:`\theta_0 = \tfrac12 \mu_0^T\Sigma^{-1}\mu_0 - \tfrac12 \mu_1^T\Sigma^{-1}\mu_1
+ \log\frac{\phi}{1-\phi}` (:func:`logistic_params`).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from genviz._estimator import BaseEstimator, ClassifierMixin
from genviz._validation import (check_array, check_features, check_fitted, check_labels,
                                check_points, check_scalar, check_vector)
from genviz.gaussian import factorize_cov, mvn_logpdf

__all__ = ["GDA", "logistic_params", "quadratic_params", "check_labels"]


def _factor(cov, what: str):
    try:
        return factorize_cov(cov, what)
    except ValueError as exc:
        raise ValueError(f"{exc}. In GDA this means the features are collinear or there are "
                         f"too few points per class: pass GDA(reg=1e-6) (adds reg * I to the "
                         f"estimated covariance) or remove a redundant feature") from None


def logistic_params(phi, mu0, mu1, cov):
    r"""The logistic-regression parameters that a two-class, shared-:math:`\Sigma` GDA implies.

    .. math::

        \theta = \Sigma^{-1}(\mu_1 - \mu_0), \qquad
        \theta_0 = \tfrac12 \mu_0^T\Sigma^{-1}\mu_0 - \tfrac12 \mu_1^T\Sigma^{-1}\mu_1
                   + \log\frac{\phi}{1-\phi},

    so that :math:`p(y=1 \mid x) = \sigma(\theta^T x + \theta_0)`.

    Parameters
    ----------
    phi : float
        :math:`P(y = 1)`, strictly between 0 and 1.
    mu0, mu1 : array_like of shape (d,)
        Class means.
    cov : array_like of shape (d, d)
        The shared covariance matrix (positive definite).

    Returns
    -------
    theta : ndarray of shape (d,)
    theta0 : float

    Raises
    ------
    ValueError
        If ``phi`` is not in (0, 1), the means differ in length, or ``cov`` is invalid/singular.

    Examples
    --------
    >>> theta, theta0 = logistic_params(0.5, [0.0, 0.0], [2.0, 0.0], [[1.0, 0.0], [0.0, 1.0]])
    >>> theta, theta0
    (array([2., 0.]), -2.0)
    """
    phi = check_scalar(phi, "phi", low=0.0, high=1.0, low_open=True, high_open=True)
    m0 = check_vector(mu0, "mu0")
    m1 = check_vector(mu1, "mu1", d=m0.shape[0])
    f = factorize_cov(cov, "cov")
    if f.d != m0.shape[0]:
        raise ValueError(f"cov is {f.d}x{f.d} but the means have length {m0.shape[0]}")
    prec = f.whiten @ f.whiten.T  # Sigma^{-1}
    theta = prec @ (m1 - m0)
    theta0 = 0.5 * (m0 @ prec @ m0 - m1 @ prec @ m1) + np.log(phi / (1.0 - phi))
    return theta, float(theta0)


def quadratic_params(phi, mu0, mu1, cov0, cov1):
    r"""Log-odds of a two-class GDA with separate covariances as a quadric.

    :math:`\log\frac{p(y=1\mid x)}{p(y=0\mid x)} = x^T A x + b^T x + c` with
    :math:`A = \tfrac12(\Sigma_0^{-1} - \Sigma_1^{-1})`,
    :math:`b = \Sigma_1^{-1}\mu_1 - \Sigma_0^{-1}\mu_0` and
    :math:`c = \tfrac12(\mu_0^T\Sigma_0^{-1}\mu_0 - \mu_1^T\Sigma_1^{-1}\mu_1
    + \log|\Sigma_0| - \log|\Sigma_1|) + \log\frac{\phi}{1-\phi}`.
    With :math:`\Sigma_0 = \Sigma_1`, ``A`` is zero and ``(b, c)`` is :func:`logistic_params`.

    Returns
    -------
    A : ndarray of shape (d, d)
    b : ndarray of shape (d,)
    c : float

    Examples
    --------
    >>> A, b, c = quadratic_params(0.5, [0.0], [0.0], [[1.0]], [[4.0]])
    >>> A, b, round(c, 6)  # log-odds 3x^2/8 - log 2
    (array([[0.375]]), array([0.]), -0.693147)
    """
    phi = check_scalar(phi, "phi", low=0.0, high=1.0, low_open=True, high_open=True)
    m0 = check_vector(mu0, "mu0")
    m1 = check_vector(mu1, "mu1", d=m0.shape[0])
    f0 = factorize_cov(cov0, "cov0")
    f1 = factorize_cov(cov1, "cov1")
    if f0.d != m0.shape[0] or f1.d != m0.shape[0]:
        raise ValueError(f"cov0 and cov1 must be {m0.shape[0]}x{m0.shape[0]} to match the means")
    p0 = f0.whiten @ f0.whiten.T
    p1 = f1.whiten @ f1.whiten.T
    A = 0.5 * (p0 - p1)
    b = p1 @ m1 - p0 @ m0
    c = 0.5 * (m0 @ p0 @ m0 - m1 @ p1 @ m1 + f0.logdet - f1.logdet) + np.log(phi / (1 - phi))
    return A, b, float(c)


class GDA(ClassifierMixin, BaseEstimator):
    r"""Gaussian discriminant analysis: class-conditional Gaussians and Bayes' rule.

    Parameters
    ----------
    shared_cov : bool, default True
        One covariance matrix for all classes (the CS229 model: a linear boundary). ``False``
        fits one per class (a quadratic boundary).
    reg : float, default 0.0
        Ridge added to the diagonal of every estimated covariance (``Sigma + reg * I``); use it
        when the features are collinear or a class has too few points.

    Attributes
    ----------
    classes_ : ndarray of shape (K,)
        The labels, sorted.
    class_prior_ : ndarray of shape (K,)
        Fractions of training points per class.
    phi_ : float
        For two classes, ``class_prior_[1]`` (:math:`\phi = P(y = 1)`).
    means_ : ndarray of shape (K, d)
        Class means :math:`\mu_k`.
    covariance_ : ndarray of shape (d, d) or (K, d, d)
        :math:`\Sigma` (divides by n) or each :math:`\Sigma_k` (divides by :math:`n_k`).
    n_features_in_ : int
        The number of features ``d`` seen in ``fit``.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [4.0, 4.0], [6.0, 4.0], [4.0, 6.0]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> gda = GDA().fit(X, y)
    >>> gda.phi_
    0.5
    >>> gda.means_
    array([[0.66666667, 0.66666667],
           [4.66666667, 4.66666667]])
    >>> gda.predict([[1.0, 1.0], [5.0, 5.0]])
    array([0, 1])
    """

    def __init__(self, shared_cov: bool = True, reg: float = 0.0):
        self.shared_cov = shared_cov
        self.reg = reg

    # -- fitting -------------------------------------------------------------------------------
    def fit(self, X, y) -> "GDA":
        """Maximum-likelihood estimates of the priors, means and covariance(s).

        Parameters
        ----------
        X : array_like of shape (n, d)
        y : array_like of shape (n,)
            Labels (at least two classes, each with at least two points).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For NaN/inf in ``X``, mismatched lengths, a single class, a class with one point,
            or a singular covariance estimate without ``reg``.
        """
        reg = self._validate_params()
        X = check_points(X, "X")
        y = check_labels(y, X.shape[0], continuous=False)
        classes, idx, counts = np.unique(y, return_inverse=True, return_counts=True)
        idx = idx.reshape(-1)
        if len(classes) < 2:
            raise ValueError(f"y has only one class ({classes[0].item()!r}); a classifier needs at "
                             f"least two classes in the training data")
        if counts.min() < 2:
            lone = classes[int(np.argmin(counts))].item()
            raise ValueError(f"class {lone!r} has only 1 training point: its covariance cannot "
                             f"be estimated (a point has no spread); give every class at least "
                             f"2 points")
        n, d = X.shape
        K = len(classes)
        onehot = np.zeros((n, K))
        onehot[np.arange(n), idx] = 1.0
        means = (onehot.T @ X) / counts[:, None]
        R = X - means[idx]  # residuals x_i - mu_{y_i}
        if self.shared_cov:
            cov = (R.T @ R) / n + reg * np.eye(d)
            factors = [_factor(cov, "covariance_ (the estimated shared Sigma)")] * K
        else:
            cov = np.stack([(R[idx == k].T @ R[idx == k]) / counts[k] for k in range(K)])
            cov += reg * np.eye(d)
            factors = [_factor(cov[k], f"covariance_[{k}] (the estimated Sigma of class "
                                       f"{classes[k].item()!r})") for k in range(K)]
        self._set(classes, counts / n, means, cov, factors)
        return self

    def _validate_params(self) -> float:
        if not isinstance(self.shared_cov, (bool, np.bool_)):
            raise TypeError(f"shared_cov must be True or False, got {self.shared_cov!r}")
        return check_scalar(self.reg, "reg", low=0.0)

    @classmethod
    def from_params(cls, class_prior, means, covariance, classes=None) -> "GDA":
        """A GDA with given (e.g. true) parameters, ready to predict: the Bayes-optimal classifier.

        Parameters
        ----------
        class_prior : array_like of shape (K,)
            Positive, summing to 1.
        means : array_like of shape (K, d)
        covariance : array_like of shape (d, d) or (K, d, d)
            Shared or per-class covariance matrices.
        classes : array_like of shape (K,), optional
            Labels; default ``0 .. K-1``.

        Returns
        -------
        GDA

        Examples
        --------
        >>> bayes = GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]])
        >>> bayes.predict_proba([[1.0]])
        array([[0.5, 0.5]])
        """
        prior = check_vector(class_prior, "class_prior")
        if np.any(prior <= 0) or abs(prior.sum() - 1.0) > 1e-9:
            raise ValueError(f"class_prior must be positive and sum to 1, got {prior.tolist()}")
        K = prior.shape[0]
        means = check_array(means, "means", ndim=2)
        if means.shape[0] != K:
            raise ValueError(f"means has {means.shape[0]} rows but class_prior has {K} entries")
        d = means.shape[1]
        cov = check_array(covariance, "covariance")
        shared = cov.ndim == 2
        if cov.shape not in ((d, d), (K, d, d)):
            raise ValueError(f"covariance must have shape ({d}, {d}) or ({K}, {d}, {d}), got "
                             f"{cov.shape}")
        factors = ([factorize_cov(cov, "covariance")] * K if shared
                   else [factorize_cov(cov[k], f"covariance[{k}]") for k in range(K)])
        model = cls(shared_cov=shared)
        labels = np.arange(K) if classes is None else check_labels(classes, K, "classes")
        if len(np.unique(labels)) != K:
            raise ValueError(f"classes must be {K} distinct labels, got {labels.tolist()!r}")
        model._set(labels, prior, means, cov, factors)
        return model

    def _set(self, classes, prior, means, cov, factors):
        self.classes_ = classes
        self.class_prior_ = prior
        self.means_ = means
        self.covariance_ = cov
        self._factors = factors
        self.n_features_in_ = means.shape[1]
        if len(classes) == 2:
            self.phi_ = float(prior[1])
        elif hasattr(self, "phi_"):
            del self.phi_

    # -- prediction ----------------------------------------------------------------------------
    def _check_X(self, X):
        return check_features(self, X)

    def predict_joint_log_proba(self, X) -> np.ndarray:
        r""":math:`\log p(x \mid y = k) + \log p(y = k)` for each row and class.

        The same method name as every genviz classifier's (scikit-learn's too). Far from every
        class mean the true value is below -1.8e308 and this returns ``-inf``; the posterior
        (:meth:`predict_log_proba`) is still exact there, since it is computed from differences.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes), columns in ``classes_`` order.

        Raises
        ------
        NotFittedError
            If the model is not fitted (a ValueError).
        ValueError
            If ``X`` has the wrong width or NaN/inf.

        Examples
        --------
        >>> g = GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]])
        >>> np.round(g.predict_joint_log_proba([[0.0]]), 4)  # log N(0; mu_k, 1) + log 0.5
        array([[-1.6121, -3.6121]])
        """
        X = self._check_X(X)
        with np.errstate(over="ignore"):
            return np.column_stack([mvn_logpdf(X, m, f) + np.log(p) for m, f, p in
                                    zip(self.means_, self._factors, self.class_prior_)])

    def _log_odds(self, X) -> np.ndarray:
        r"""``log p(x, y=k) - log p(x, y=classes_[0])`` (n, K), finite-precision safe.

        With whitened deviations :math:`z_k = (x - \mu_k) W_k`, the difference of squared
        Mahalanobis distances is :math:`(z_k - z_0) \cdot (z_k + z_0)`. For a shared covariance
        :math:`z_k - z_0 = (\mu_0 - \mu_k) W` is a constant (no cancellation: the log-odds are
        exactly linear in x, as the notes derive). Rows are scaled by a power of two ``s`` so
        no intermediate overflows; only the final product may (to +-inf: probability 0 or 1).
        """
        X = self._check_X(X)
        mu = self.means_
        top = max(float(np.max(np.abs(mu))), 1.0)
        row_max = np.maximum(np.max(np.abs(X), axis=1), top)
        e = np.frexp(row_max)[1]  # row_max < 2^e
        U = np.ldexp(X, -e[:, None])
        const = np.array([np.log(p) - 0.5 * f.logdet
                          for p, f in zip(self.class_prior_, self._factors)])
        out = np.zeros((X.shape[0], mu.shape[0]))
        f0 = self._factors[0]
        m0 = np.ldexp(mu[0][None, :], -e[:, None])
        with np.errstate(over="ignore", invalid="ignore"):
            for k in range(1, mu.shape[0]):
                fk = self._factors[k]
                mk = np.ldexp(mu[k][None, :], -e[:, None])
                if fk is f0:
                    diff = (mu[0] - mu[k]) @ f0.whiten
                    q = (((2.0 * U - mk - m0) @ f0.whiten) @ diff) * np.ldexp(1.0, e)
                else:
                    a = (U - mk) @ fk.whiten
                    b = (U - m0) @ f0.whiten
                    q = np.ldexp(np.einsum("ij,ij->i", a - b, a + b), 2 * e)
                out[:, k] = const[k] - const[0] - 0.5 * q
        bad = np.flatnonzero(np.isnan(out).any(axis=1))
        if bad.size:
            raise ValueError(f"X row(s) {bad[:10].tolist()} are too extreme to evaluate the "
                             f"posterior in float64; rescale the data")
        return out

    def predict_log_proba(self, X) -> np.ndarray:
        r"""Log-posterior :math:`\log p(y = k \mid x)`, (n_samples, n_classes).

        Computed from log-odds in log space and normalised with ``logsumexp``: every row is
        finite or ``-inf`` and ``exp`` of it sums to 1 for any finite ``X``, however far away.

        Examples
        --------
        >>> g = GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]])
        >>> np.round(g.predict_log_proba([[1.0]]), 6)
        array([[-0.693147, -0.693147]])
        >>> g.predict_proba([[1e200]])  # far away: the logistic posterior, saturated
        array([[0., 1.]])
        """
        delta = np.clip(self._log_odds(X), -1e300, 1e300)  # +-inf -> huge: no inf - inf
        return delta - logsumexp(delta, axis=1, keepdims=True)

    def predict_proba(self, X) -> np.ndarray:
        r"""Posterior :math:`p(y = k \mid x)` in ``classes_`` order: ``exp(predict_log_proba)``.

        Examples
        --------
        >>> g = GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]])
        >>> np.round(g.predict_proba([[2.0]]), 4)  # sigmoid(2 * 2 - 2)
        array([[0.1192, 0.8808]])
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        r"""The most probable class, :math:`\arg\max_k p(x \mid y=k) p(y=k)` (``classes_[argmax]``).

        Examples
        --------
        >>> GDA.from_params([0.9, 0.1], [[0.0], [2.0]], [[1.0]]).predict([[1.5], [2.5]])
        array([0, 1])
        """
        log_post = self.predict_log_proba(X)  # checks fitted first
        return self.classes_[np.argmax(log_post, axis=1)]

    def decision_function(self, X) -> np.ndarray:
        r"""Two classes: the log-odds :math:`\log p(y_1 \mid x) - \log p(y_0 \mid x)`, (n,).
        K classes: (n, K) log-odds against ``classes_[0]`` (the largest is the prediction).

        Examples
        --------
        >>> GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]]).decision_function([[0.0], [1.0]])
        array([-2.,  0.])
        """
        odds = self._log_odds(X)  # checks fitted first
        return odds[:, 1] if odds.shape[1] == 2 else odds

    def _require_binary(self, what):
        check_fitted(self, "means_")
        if len(self.classes_) != 2:
            raise ValueError(f"{what} needs exactly two classes; this model has "
                             f"{len(self.classes_)}")

    def logistic_params(self):
        r"""(theta, theta0) with :math:`p(y=1\mid x) = \sigma(\theta^T x + \theta_0)`.

        Only for two classes and a shared covariance (the posterior is then logistic).

        Returns
        -------
        theta : ndarray of shape (d,)
        theta0 : float

        Raises
        ------
        ValueError
            If not fitted, with more than two classes, or with ``shared_cov=False``.

        Examples
        --------
        >>> GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]]).logistic_params()
        (array([2.]), -2.0)
        """
        self._require_binary("logistic_params")
        if not self.shared_cov:
            raise ValueError("logistic_params needs shared_cov=True: with separate covariances "
                             "the log-odds are quadratic (use quadratic_params)")
        return logistic_params(self.phi_, self.means_[0], self.means_[1], self._factors[0])

    def quadratic_params(self):
        """(A, b, c) with log-odds ``x^T A x + b^T x + c`` (two classes; any covariance)."""
        self._require_binary("quadratic_params")
        covs = (self.covariance_, self.covariance_) if self.covariance_.ndim == 2 \
            else tuple(self.covariance_)
        return quadratic_params(self.phi_, self.means_[0], self.means_[1], *covs)
