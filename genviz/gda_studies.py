"""The GDA explorers' studies (notebooks 03 and 04): GDA fitted to a sample beside the true
boundary, shared against separate covariances, the posterior two ways, and one GDA-vs-logistic
trial (samples, Bayes error, logistic regression with its separable-data fallback). The views in
:mod:`genviz.plots.gda` and :mod:`genviz.plots.gda_vs_logistic` only draw these results; the
learning-curve experiment is in :mod:`genviz.experiments`."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.gda import GDA
from genviz.gda import logistic_params
from genviz.logistic import LogisticRegression, SeparableDataError, sigmoid
from genviz.synthetic import DataModel

__all__ = ["GDAFit", "fit_gda_sample", "GDACovarianceFit", "gda_covariance_fits",
           "PosteriorTwoWays", "posterior_two_ways", "GDAvsLogisticTrial",
           "gda_vs_logistic_trial"]



class GDAFit(NamedTuple):
    """Result of :func:`fit_gda_sample`: GDA (shared Σ) fitted to a sample, beside the truth."""

    model: GDA  #: the fitted GDA
    theta: np.ndarray  #: fitted logistic parameters (GDA.logistic_params)
    theta0: float
    theta_true: np.ndarray  #: the same from the true parameters (genviz.gda.logistic_params)
    theta0_true: float
    scores: np.ndarray  #: each point's fitted log-odds ``theta^T x + theta0``
    training_error: float  #: share of the sample GDA misclassifies


def fit_gda_sample(X, y, *, true_phi, true_means, true_cov) -> GDAFit:
    """Fit GDA with a shared covariance to ``(X, y)`` and put its boundary beside the true one.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels 0/1, at least one of each (2 for a shared Σ of full rank).
    true_phi : float in (0, 1)
    true_means : array_like of shape (2, d)
        ``mu_0`` and ``mu_1`` of the model the sample came from.
    true_cov : array_like of shape (d, d)

    Returns
    -------
    GDAFit

    Examples
    --------
    >>> from genviz.samplers import GDAFitSampler
    >>> mu, cov = np.array([[-1.0, 0.0], [1.0, 0.0]]), np.eye(2)
    >>> X, y = GDAFitSampler(seed=0).points(1000, mu[0], mu[1], cov, 0.5)
    >>> f = fit_gda_sample(X, y, true_phi=0.5, true_means=mu, true_cov=cov)
    >>> f.theta_true.tolist(), bool(np.allclose(f.theta, f.theta_true, atol=0.25))
    ([2.0, 0.0], True)
    """
    true_phi = check_scalar(true_phi, "true_phi", low=0.0, high=1.0, low_open=True,
                            high_open=True)
    means = np.asarray(true_means, dtype=float)
    gda = GDA().fit(X, y)
    theta, theta0 = gda.logistic_params()
    theta_true, theta0_true = logistic_params(true_phi, means[0], means[1], true_cov)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    return GDAFit(gda, np.asarray(theta, dtype=float), float(theta0),
                  np.asarray(theta_true, dtype=float), float(theta0_true), X @ theta + theta0,
                  float(np.mean(gda.predict(X) != y)))


class GDACovarianceFit(NamedTuple):
    """One GDA of :func:`gda_covariance_fits`."""

    shared_cov: bool
    model: GDA
    training_error: float


def gda_covariance_fits(X, y, shared=(True, False)) -> tuple:
    """GDA with a shared covariance and/or one per class, fitted to the same data, with their
    training errors (a line against a quadric boundary, notebook 03).

    Examples
    --------
    >>> X = [[0.0, 0.0], [1.0, 0.2], [0.1, 1.0], [3.0, 3.0], [4.0, 3.1], [3.2, 4.0]]
    >>> [(f.shared_cov, f.training_error) for f in gda_covariance_fits(X, [0, 0, 0, 1, 1, 1])]
    [(True, 0.0), (False, 0.0)]
    """
    y = np.asarray(y)
    out = []
    for flag in shared:
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"shared must hold booleans, got {flag!r}")
        model = GDA(shared_cov=bool(flag)).fit(X, y)
        out.append(GDACovarianceFit(bool(flag), model,
                                    float(np.mean(model.predict(np.asarray(X, float)) != y))))
    return tuple(out)


class PosteriorTwoWays(NamedTuple):
    """Result of :func:`posterior_two_ways`."""

    bayes: np.ndarray  #: ``p(y=1|x)`` by Bayes' rule (``predict_proba``)
    logistic: np.ndarray  #: ``sigmoid(theta^T x + theta0)`` with GDA's logistic parameters
    max_abs_difference: float


def posterior_two_ways(model, X) -> PosteriorTwoWays:
    """CS229's claim checked on points: a fitted shared-Σ GDA's posterior by Bayes' rule equals
    the sigmoid of a linear function (:meth:`genviz.gda.GDA.logistic_params`).

    Examples
    --------
    >>> g = GDA().fit([[0.0, 0.0], [1.0, 0.5], [0.2, 1.0], [3.0, 3.0], [4.0, 3.5], [3.0, 4.0]],
    ...               [0, 0, 0, 1, 1, 1])
    >>> r = posterior_two_ways(g, [[0.0, 0.0], [2.0, 2.0]])
    >>> bool(r.max_abs_difference < 1e-12)
    True
    """
    X = np.asarray(X, dtype=float)
    theta, theta0 = model.logistic_params()
    bayes = model.predict_proba(X)[:, 1]
    logistic = sigmoid(X @ theta + theta0)
    return PosteriorTwoWays(bayes, logistic, float(np.max(np.abs(bayes - logistic))))


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
