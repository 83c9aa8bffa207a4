"""What notebook 10's learning-curve explorer shows, computed: both learners' mean test error
(± one standard error) at every training-set size, and at the marked size ``m`` the errors,
their gap and who is ahead (:func:`genviz.nb_vs_logistic.leader`).
:mod:`genviz.plots.learning_curves` paints it. The curves are fitted once
(:func:`genviz.nb_vs_logistic.nb_vs_logistic_curves`); a move of ``m`` fits nothing."""

from __future__ import annotations

import numpy as np

from genviz.nb_vs_logistic import NBvsLogisticCurves, leader
from genviz.studies._base import Result, Study

__all__ = ["LearningCurveStatic", "LearningCurveResult", "LearningCurveStudy"]


class LearningCurveStatic(Result):
    """What the figure draws once (:meth:`LearningCurveStudy.static`).

    Attributes
    ----------
    sizes : tuple of int
        The training-set sizes ``m``.
    gen_mean, gen_se, lr_mean, lr_se : ndarray of shape (n_sizes,)
        The generative learner's and logistic regression's mean test error and its standard
        error over repetitions (0 where every repetition used the same training set).
    labels : tuple of str
        The two learners' names (generative first).
    """

    sizes: tuple
    gen_mean: np.ndarray
    gen_se: np.ndarray
    lr_mean: np.ndarray
    lr_se: np.ndarray
    labels: tuple


class LearningCurveResult(Result):
    """Result of :class:`LearningCurveStudy` at one size.

    Attributes
    ----------
    m : int
        The marked training-set size.
    sizes : list of int
    gen_error, gen_se : float
        The generative learner's mean test error at ``m`` and its standard error.
    lr_error, lr_se : float
        Logistic regression's likewise.
    gap : float
        ``gen_error - lr_error``.
    leader : str
        ``"nb"``, ``"lr"`` or ``"tie"`` (:func:`genviz.nb_vs_logistic.leader`: ahead by more
        than two standard errors of the paired differences).
    labels : tuple of str
    """

    m: int
    sizes: list
    gen_error: float
    gen_se: float
    lr_error: float
    lr_se: float
    gap: float
    leader: str
    labels: tuple


class LearningCurveStudy(Study):
    """Naive Bayes against logistic regression learning curves, read at one size ``m``.

    Parameters
    ----------
    curves : NBvsLogisticCurves
        From :func:`genviz.nb_vs_logistic.nb_vs_logistic_curves`.
    labels : pair of str
        The learners' names (generative first).

    Examples
    --------
    >>> c = NBvsLogisticCurves(np.array([10, 100]), np.array([[.2, .1], [.22, .1]]),
    ...                        np.array([[.3, .05], [.31, .05]]), 5, 100)
    >>> s = LearningCurveStudy(c)
    >>> s.defaults(), s(m=10).leader, round(s(m=100).gap, 2)
    ({'m': 100}, 'nb', 0.05)
    """

    def __init__(self, curves, *, labels=("naive Bayes", "logistic regression")):
        if not isinstance(curves, NBvsLogisticCurves):
            raise TypeError(f"curves must be NBvsLogisticCurves (genviz.nb_vs_logistic), got "
                            f"{type(curves).__name__}")
        labels = tuple(labels)
        if len(labels) != 2 or not all(isinstance(x, str) and x for x in labels):
            raise ValueError(f"labels must be two non-empty strings, got {labels!r}")
        self.curves = curves
        self.labels = labels
        self.sizes = [int(s) for s in np.asarray(curves.sizes)]
        (gen, gen_se), (lr, lr_se) = curves.mean_se("nb"), curves.mean_se("lr")
        self._static = LearningCurveStatic(tuple(self.sizes), gen, gen_se, lr, lr_se, labels)

    def parameter_names(self) -> tuple:
        return ("m",)

    def defaults(self) -> dict:
        return {"m": self.sizes[-1]}

    def static(self) -> LearningCurveStatic:
        return self._static

    def __call__(self, *, m=None) -> LearningCurveResult:
        m = self.sizes[-1] if m is None else m
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or int(m) not in self.sizes:
            raise ValueError(f"m must be one of the curves' sizes {self.sizes}, got {m!r}")
        m = int(m)
        j = self.sizes.index(m)
        s = self._static
        g, lr = float(s.gen_mean[j]), float(s.lr_mean[j])
        return LearningCurveResult(m, list(self.sizes), g, float(s.gen_se[j]), lr,
                                   float(s.lr_se[j]), g - lr, leader(self.curves, m),
                                   self.labels)
