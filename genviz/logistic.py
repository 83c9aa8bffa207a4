r"""Logistic regression fitted by Newton's method (iteratively reweighted least squares).

The model of CS229 is :math:`p(y = 1 \mid x) = \sigma(\theta^T x + \theta_0)` with
:math:`\sigma(z) = 1 / (1 + e^{-z})`. The fit minimises the negative log-likelihood plus an
optional ridge on :math:`\theta` (never on the intercept :math:`\theta_0`):

.. math::

    J(\theta, \theta_0) = \sum_i \left[\log(1 + e^{z_i}) - y^{(i)} z_i\right]
        + \tfrac{\lambda}{2}\lVert\theta\rVert^2, \qquad z_i = \theta^T x^{(i)} + \theta_0 .

Newton's step solves :math:`H s = \nabla J` with :math:`H = \tilde X^T W \tilde X + \lambda
\tilde I` and :math:`W = \mathrm{diag}(p_i(1-p_i))`: a weighted least-squares problem (hence
IRLS). Convergence is quadratic, so the iteration runs to machine precision in a handful of
steps. ``lambda = l2`` corresponds to scikit-learn's ``C = 1 / l2``.

Without regularisation the maximum-likelihood estimate does not exist when the classes are
linearly separable (the likelihood keeps growing as :math:`\lVert\theta\rVert \to \infty`); the
fit then raises :class:`SeparableDataError` instead of returning a meaningless large vector.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.optimize import linprog
from scipy.special import expit

from genviz._estimator import BaseEstimator, ClassifierMixin
from genviz._validation import check_features, check_int, check_labels, check_points, check_scalar

__all__ = ["LogisticRegression", "SeparableDataError", "is_linearly_separable", "sigmoid"]


class SeparableDataError(ValueError):
    """The classes are linearly separable, so the unregularised MLE does not exist."""


def sigmoid(z) -> np.ndarray:
    r"""The logistic function :math:`\sigma(z) = 1 / (1 + e^{-z})`, overflow-free.

    Examples
    --------
    >>> sigmoid([0.0, 1000.0, -1000.0])
    array([0.5, 1. , 0. ])
    """
    return expit(np.asarray(z, dtype=np.float64))


def _loss(Xa, y, w, ridge):
    z = Xa @ w
    return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * (ridge * w) @ w)


def is_linearly_separable(X, y) -> bool:
    """Whether a hyperplane puts every class-1 point on one side and every class-0 point on the
    other, ties allowed (complete or quasi-complete separation), found by a linear program.

    Then the unregularised logistic MLE does not exist. Solves: maximise
    :math:`\\sum_i s_i z_i` subject to :math:`s_i z_i \\ge 0`, :math:`|w| \\le 1`, with
    :math:`s_i = \\pm 1` and :math:`z_i = w^T(1, x_i)`; the optimum is positive exactly when the
    data are separable.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels 0 and 1.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_linearly_separable([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    True
    >>> is_linearly_separable([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    False
    """
    X = check_points(X, "X")
    y = check_labels(y, X.shape[0], binary=True)
    X = _standardise(X)[0]
    Xa = np.column_stack([np.ones(X.shape[0]), X])
    scale = np.maximum(np.abs(Xa).max(axis=0), 1e-300)
    A = (2 * y - 1)[:, None] * (Xa / scale)  # rows s_i (1, x_i), columns rescaled
    res = linprog(-A.sum(axis=0), A_ub=-A, b_ub=np.zeros(len(y)),
                  bounds=[(-1.0, 1.0)] * Xa.shape[1], method="highs")
    return bool(res.status == 0 and -res.fun > 1e-9 * len(y))


def _standardise(X):
    """``(X - centre) / scale`` per feature, with the centre and scale used.

    Logistic regression is affine-equivariant: fitting standardised features and mapping the
    coefficients back gives the same model in exact arithmetic. Doing it makes the fit
    independent of units (features of size 1e155 overflowed the Hessian, features around 1e7
    lost the intercept to cancellation). The scale is the largest absolute deviation from the
    centre (never overflows, unlike a standard deviation of 1e155-sized values); it is a power
    of two, so scaling is exact. A constant feature keeps scale 1 (and is then reported
    collinear with the intercept).
    """
    centre = np.median(X, axis=0)
    with np.errstate(over="ignore"):
        dev = np.max(np.abs(X - centre), axis=0)
    if not np.all(np.isfinite(dev)):
        j = int(np.flatnonzero(~np.isfinite(dev))[0])
        raise ValueError(f"X feature {j} spans more than the float64 range (values of both "
                         f"signs near 1e308); rescale it")
    scale = np.where(dev > 0, np.ldexp(1.0, np.frexp(np.where(dev > 0, dev, 1.0))[1]), 1.0)
    return (X - centre) / scale, centre, scale


class LogisticRegression(ClassifierMixin, BaseEstimator):
    r"""Binary logistic regression by Newton's method, optional L2 penalty.

    Binary only, as in the notes (labels 0 and 1): more classes are refused with a clear
    error. For K classes use GDA, naive Bayes or k-NN, or wrap this model in scikit-learn's
    ``OneVsRestClassifier``.

    Parameters
    ----------
    l2 : float, default 0.0
        Ridge :math:`\lambda` on :math:`\theta` (not on the intercept); scikit-learn's
        ``C = 1 / l2``. With ``l2 = 0`` separable data raise :class:`SeparableDataError`.
    max_iter : int, default 100
        Newton iterations allowed (about 5-15 are used).
    warm_start : bool, default False
        Start Newton's method from the previous fit's solution (as in scikit-learn), which
        saves iterations when refitting on similar data (e.g. growing training sets).

    Attributes
    ----------
    coef_ : ndarray of shape (d,)
        :math:`\theta` (scikit-learn stores it as shape (1, d)).
    intercept_ : float
        :math:`\theta_0`.
    classes_ : ndarray ``[0, 1]``
    n_iter_ : int
        Newton steps taken.
    grad_norm_ : float
        Max-norm of the gradient at the solution (about 1e-12 relative: machine precision).
    n_features_in_ : int
        The number of features ``d`` seen in ``fit``.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([0, 1, 0, 1, 1])
    >>> lr = LogisticRegression().fit(X, y)
    >>> round(float(lr.coef_[0]), 6), round(lr.intercept_, 6)
    (1.090426, -1.558161)
    >>> lr.predict([[0.0], [4.0]])
    array([0, 1])
    """

    _tags = {"classifier_tags.multi_class": False}

    def __init__(self, l2: float = 0.0, max_iter: int = 100, warm_start: bool = False):
        self.l2 = l2
        self.max_iter = max_iter
        self.warm_start = warm_start

    def fit(self, X, y) -> "LogisticRegression":
        """Fit :math:`\\theta, \\theta_0` by Newton's method with a backtracking line search.

        Parameters
        ----------
        X : array_like of shape (n, d)
        y : array_like of shape (n,)
            Labels 0 and 1 (both present).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            NaN/inf, mismatched lengths, labels other than 0/1, a single class, or collinear
            features without ``l2``.
        SeparableDataError
            (a ValueError) if ``l2 == 0`` and the classes are linearly separable.
        """
        l2, max_iter = self._validate_params()
        X = check_points(X, "X")
        y = check_labels(y, X.shape[0], binary=True)
        if y.min() == y.max():
            raise ValueError(f"y has only one class ({int(y[0])}); logistic regression needs "
                             f"both labels 0 and 1 in the training data")
        n, d = X.shape
        X_orig = X
        X, centre, scale = _standardise(X)
        Xa = np.column_stack([np.ones(n), X])
        # The penalty l2/2 |theta|^2 on the original coefficients theta = w / scale.
        with np.errstate(under="ignore", over="ignore"):
            ridge = np.r_[0.0, np.minimum(l2 / scale / scale, 1e300)] if l2 > 0 \
                else np.zeros(d + 1)
        w = np.zeros(d + 1)
        w[0] = np.log(y.mean() / (1 - y.mean()))  # the best intercept-only model
        if self.warm_start and getattr(self, "coef_", np.empty(0)).shape == (d,):
            w = np.r_[self.intercept_ + self.coef_ @ centre, self.coef_ * scale]
        loss = _loss(Xa, y, w, ridge)
        converged = False
        for it in range(1, max_iter + 1):
            z = Xa @ w
            if l2 == 0.0 and np.all((2 * y - 1) * z > 0):
                self._separable()
            p = expit(z)
            grad = Xa.T @ (p - y) + ridge * w
            H = (Xa.T * (p * (1 - p))) @ Xa + np.diag(ridge)
            try:
                # one Cholesky factorisation: it raises if H is not positive definite, and
                # solves with two triangular systems
                step = cho_solve(cho_factor(H, check_finite=False), grad, check_finite=False)
            except (LinAlgError, np.linalg.LinAlgError):
                if l2 == 0.0 and is_linearly_separable(X_orig, y):
                    self._separable()
                raise ValueError("the Hessian X^T W X is singular: the features are collinear "
                                 "(or constant); remove a redundant feature or pass l2 > 0") \
                    from None
            t = 1.0
            slack = 1e-12 * max(1.0, abs(loss))  # rounding noise in the loss near the optimum
            while True:
                w_new = w - t * step
                new_loss = _loss(Xa, y, w_new, ridge)
                if new_loss <= loss + 1e-4 * t * (grad @ -step) + slack or t < 1e-10:
                    break
                t *= 0.5
            small = np.max(np.abs(step)) <= 1e-9 * (1.0 + np.max(np.abs(w)))
            if t < 1e-10:  # no decrease possible: at the minimum to working precision
                converged = True
                break
            w, loss = w_new, new_loss
            if small:  # quadratic convergence: this last step reached machine precision
                converged = True
                break
        if not converged:
            if l2 == 0.0 and is_linearly_separable(X_orig, y):
                self._separable()
            raise ValueError(f"Newton's method did not converge in max_iter={max_iter} steps; "
                             f"increase max_iter or pass l2 > 0")
        p = expit(Xa @ w)
        if l2 == 0.0 and np.any(np.abs(p - y) < 1e-10) and is_linearly_separable(X_orig, y):
            self._separable()  # quasi-complete separation: probabilities saturated at 0 or 1
        self._centre, self._scale, self._w = centre, scale, w.copy()
        self.coef_ = w[1:] / scale
        self.intercept_ = float(w[0] - self.coef_ @ centre)
        # gradient of J in the original coordinates (theta0, theta), as documented
        with np.errstate(over="ignore"):
            g = np.r_[np.sum(p - y), X_orig.T @ (p - y) + l2 * self.coef_]
        self.grad_norm_ = float(np.max(np.abs(g)))
        self.n_features_in_ = d
        self.classes_ = np.array([0, 1])
        self.n_iter_ = it
        return self

    def _validate_params(self):
        if not isinstance(self.warm_start, (bool, np.bool_)):
            raise TypeError(f"warm_start must be True or False, got {self.warm_start!r}")
        return (check_scalar(self.l2, "l2", low=0.0),
                check_int(self.max_iter, "max_iter", low=1))

    @staticmethod
    def _separable():
        raise SeparableDataError(
            "the training data are linearly separable (a hyperplane classifies every point "
            "correctly), so the unregularised maximum-likelihood estimate does not exist: the "
            "likelihood keeps increasing as ||theta|| grows. Pass l2 > 0, e.g. "
            "LogisticRegression(l2=1e-2), or add training data")

    def decision_function(self, X) -> np.ndarray:
        """The log-odds :math:`\\theta^T x + \\theta_0` of each row, shape (n,).

        Examples
        --------
        >>> lr = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
        >>> np.round(lr.decision_function([[1.5]]), 6) + 0.0  # the data are symmetric about 1.5
        array([0.])
        """
        X = check_features(self, X)
        # In the standardised coordinates of the fit: units and offsets cancel exactly.
        return ((X - self._centre) / self._scale) @ self._w[1:] + self._w[0]

    def predict_log_proba(self, X) -> np.ndarray:
        """``[log(1 - p), log p]`` per row, computed without overflow; (n, 2).

        Examples
        --------
        >>> lr = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
        >>> np.isfinite(lr.predict_log_proba([[1e6]])).all()
        np.True_
        """
        z = self.decision_function(X)
        return np.column_stack([-np.logaddexp(0.0, z), -np.logaddexp(0.0, -z)])

    def predict_proba(self, X) -> np.ndarray:
        """``[1 - p, p]`` with :math:`p = \\sigma(\\theta^T x + \\theta_0)`: ``exp(predict_log_proba)``.

        Examples
        --------
        >>> lr = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
        >>> np.round(lr.predict_proba([[1.5]]), 6)
        array([[0.5, 0.5]])
        """
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """Label 1 where :math:`\\theta^T x + \\theta_0 > 0`, else 0.

        Examples
        --------
        >>> LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 0]).predict([[0.0]])
        array([0])
        """
        return (self.decision_function(X) > 0).astype(int)
