"""The learning-curve experiment CS229 quotes (Ng & Jordan 2001; notebook 04): test error
against training-set size for GDA and logistic regression (:func:`learning_curves`), the size
from which logistic regression wins (:func:`crossing_size`), and the means and standard errors
its figure draws (:func:`learning_curve_figure_study`, painted by
:func:`genviz.plots.gda_vs_logistic.learning_curve_figure`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_rng, check_scalar
from genviz.gda import GDA
from genviz.logistic import LogisticRegression
from genviz.studies._base import Result
from genviz.synthetic import DataModel

__all__ = ["LearningCurves", "learning_curves", "crossing_size", "CurveStats",
           "LearningCurveFigureResult", "learning_curve_figure_study"]


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

    @property
    def generative_errors(self) -> np.ndarray:
        """The generative learner's errors (GDA): what :func:`crossing_size` compares with
        ``lr_errors``."""
        return self.gda_errors

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


def crossing_size(curves, z: float = 2.0):
    """The smallest size from which logistic regression is clearly better than the generative
    learner (GDA in :class:`LearningCurves`, naive Bayes in
    :class:`genviz.nb_vs_logistic.NBvsLogisticCurves`: their ``generative_errors``).

    "Clearly better" at a size: the mean over repetitions of the paired difference
    ``generative_error - lr_error`` exceeds ``z`` standard errors (at a size fitted once, where
    the standard error is 0, any positive difference). Returns the smallest size from which
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
    diff = curves.generative_errors - curves.lr_errors
    se = diff.std(axis=0, ddof=1) / np.sqrt(diff.shape[0])
    better = diff.mean(axis=0) > z * se
    if not better[-1]:
        return None
    j = len(better) - 1
    while j > 0 and better[j - 1]:
        j -= 1
    return int(curves.sizes[j])


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
