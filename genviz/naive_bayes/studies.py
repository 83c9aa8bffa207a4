"""Studies the naive Bayes explorers draw: models fitted along one hyperparameter, the spam
filter's threshold curves per smoothing ``alpha``, KDE against Gaussian naive Bayes.

Each is a small object that fits (and caches) what a slider asks for; the views in
:mod:`genviz.plots.naive_bayes` and :mod:`genviz.plots.spam` only draw its results.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar, check_vector
from genviz.model_selection import ThresholdCurves
from genviz.naive_bayes.continuous import KDENB, GaussianNB
from genviz.naive_bayes.text import BernoulliNB, MultinomialNB

__all__ = ["FitPath", "TEXT_MODELS", "ThresholdFit", "ThresholdStudy", "KDEvsGaussianNB"]

#: The two text event models, by the names the spam explorers use.
TEXT_MODELS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB}


class FitPath:
    """One estimator fitted for each value of one hyperparameter, each fit made once.

    ``path(value)`` is ``estimator(**{param: value}, **params).fit(X, y, **fit_params)``,
    kept (the ``max_cached`` most recent values) so that a slider coming back to a value
    costs no fit.

    Parameters
    ----------
    estimator : class
        An estimator class whose ``__init__`` takes ``param``.
    param : str
        The hyperparameter that varies.
    X, y : training data
    params : dict, optional
        Further hyperparameters, fixed.
    max_cached : int >= 1
    **fit_params
        Passed to ``fit`` (e.g. ``feature_names``).

    Raises
    ------
    TypeError
        ``estimator`` is not a class, or ``param`` not a string.

    Examples
    --------
    >>> from genviz.naive_bayes import CategoricalNB
    >>> path = FitPath(CategoricalNB, "alpha", [["a"], ["b"], ["a"]], [0, 1, 1])
    >>> path(1.0).alpha, path(1.0) is path(1.0), path(0.0).alpha
    (1.0, True, 0.0)
    """

    def __init__(self, estimator, param, X, y, *, params=None, max_cached=64, **fit_params):
        if not isinstance(estimator, type):
            raise TypeError(f"estimator must be an estimator class, got {estimator!r}")
        if not isinstance(param, str):
            raise TypeError(f"param must be a hyperparameter name, got {param!r}")
        self.estimator, self.param = estimator, param
        self.X, self.y = X, y
        self.params = dict(params or {})
        self.max_cached = check_int(max_cached, "max_cached", low=1)
        self.fit_params = fit_params
        self._fits: dict = {}

    def __call__(self, value):
        key = round(float(value), 12) if isinstance(value, (int, float, np.number)) else value
        if key not in self._fits:
            model = self.estimator(**{self.param: value}, **self.params)
            self._fits[key] = model.fit(self.X, self.y, **self.fit_params)
            while len(self._fits) > self.max_cached:
                self._fits.pop(next(iter(self._fits)))
        return self._fits[key]


class ThresholdFit(NamedTuple):
    """One fitted text model, its test log-odds and their threshold curves."""

    model: object  #: the fitted MultinomialNB or BernoulliNB
    scores: np.ndarray  #: ``decision_function`` of the test documents
    curves: ThresholdCurves  #: ROC and precision-recall over every threshold


class ThresholdStudy:
    """Smola's threshold ``c`` on both text event models: for a smoothing ``alpha``, each model
    fitted on the training documents, the test documents' log-odds and their ROC and
    precision-recall curves over every threshold (:class:`~genviz.model_selection.ThresholdCurves`).
    Computed once per ``alpha`` (:meth:`at`); an operating point is then a bisection
    (``study.at(alpha)[name].curves.at(log_c)``).

    Parameters
    ----------
    X_train, X_test : (n, V) count matrices (dense or scipy.sparse), same vocabulary
    y_train, y_test : label arrays ("ham"/"spam")
    positive : the label that counts as detected

    Raises
    ------
    ValueError
        From :meth:`at`: ``alpha <= 0``; the test labels lack a class (from ThresholdCurves).

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    >>> y = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    >>> fits = ThresholdStudy(X, y, X, y).at(1.0)
    >>> sorted(fits), fits["multinomial"].curves.auc
    (['bernoulli', 'multinomial'], 1.0)
    """

    MODELS = TEXT_MODELS

    def __init__(self, X_train, y_train, X_test, y_test, *, positive="spam"):
        self.X_train, self.y_train = X_train, np.asarray(y_train)
        self.X_test, self.y_test = X_test, np.asarray(y_test)
        self.positive = positive
        self._fits: dict = {}

    def at(self, alpha) -> dict:
        """``{model name: ThresholdFit}`` for smoothing ``alpha`` (> 0), computed once."""
        alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
        key = round(alpha, 12)
        if key not in self._fits:
            out = {}
            for name, cls in self.MODELS.items():
                model = cls(alpha=alpha).fit(self.X_train, self.y_train)
                scores = model.decision_function(self.X_test)
                out[name] = ThresholdFit(model, scores,
                                         ThresholdCurves(scores, self.y_test, positive=self.positive))
            self._fits[key] = out
        return self._fits[key]


class KDEvsGaussianNB:
    """Naive Bayes on one continuous feature with a KDE per class (bandwidth ``h``) against
    Gaussian naive Bayes, scored on test data (the training data when none is given).

    Attributes
    ----------
    gaussian : GaussianNB
        Fitted once.
    accuracy_gaussian : float
        Its accuracy on the test data.

    Examples
    --------
    >>> x, y = [0.0, 0.2, 0.4, 3.0, 3.2, 3.4], ["a", "a", "a", "b", "b", "b"]
    >>> s = KDEvsGaussianNB(x, y)
    >>> s.accuracy_gaussian, s.kde(0.3).accuracy
    (1.0, 1.0)
    """

    class KDEFit(NamedTuple):
        model: KDENB  #: KDE naive Bayes fitted at the bandwidth
        accuracy: float  #: its accuracy on the test data

    def __init__(self, x, y, x_test=None, y_test=None):
        self.x = check_vector(x, "x")
        self.y = np.asarray(y)
        if self.y.shape != self.x.shape:
            raise ValueError(f"y must have one label per value of x ({self.x.size}), got shape "
                             f"{self.y.shape}")
        self.x_test = self.x if x_test is None else check_vector(x_test, "x_test")
        self.y_test = self.y if y_test is None else np.asarray(y_test)
        self.gaussian = GaussianNB().fit(self.x[:, None], self.y)
        self.accuracy_gaussian = self._accuracy(self.gaussian)

    def _accuracy(self, model) -> float:
        return float(np.mean(model.predict(self.x_test[:, None]) == self.y_test))

    def kde(self, h) -> "KDEvsGaussianNB.KDEFit":
        """KDE naive Bayes with bandwidth ``h`` (> 0) and its test accuracy."""
        h = check_scalar(h, "bandwidth", low=0.0, low_open=True)
        model = KDENB(bandwidth=h).fit(self.x[:, None], self.y)
        return self.KDEFit(model, self._accuracy(model))
