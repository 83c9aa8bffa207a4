"""What notebook 10's learning-curve explorer shows, computed: both learners' mean test error
(± one standard error) at every training-set size, and at the marked size ``n`` the errors,
their gap and who is ahead (:func:`genviz.nb_vs_logistic.leader`).
:mod:`genviz.plots.learning_curves` paints it. The curves are fitted once
(:func:`genviz.nb_vs_logistic.nb_vs_logistic_curves`); a move of ``n`` fits nothing."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_scalar
from genviz.nb_vs_logistic import NBvsLogisticCurves, leader
from genviz.studies.gda_vs_logistic_curves import crossing_size
from genviz.studies._base import Result, Study
from genviz.studies.learning_curves_vocabulary import VocabularyCurves, crossing_text, settled_size

__all__ = ["LearningCurveStatic", "LearningCurveResult", "LearningCurveStudy",
           "VocabularyCurveStatic", "VocabularyCurveResult", "VocabularyCurveStudy"]


class LearningCurveStatic(Result):
    """What the figure draws once (:meth:`LearningCurveStudy.static`).

    Attributes
    ----------
    sizes : tuple of int
        The training-set sizes ``n``.
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
    n : int
        The marked training-set size.
    sizes : list of int
    gen_error, gen_se : float
        The generative learner's mean test error at ``n`` and its standard error.
    lr_error, lr_se : float
        Logistic regression's likewise.
    gap : float
        ``gen_error - lr_error``.
    leader : str
        ``"nb"``, ``"lr"`` or ``"tie"`` (:func:`genviz.nb_vs_logistic.leader`: ahead by more
        than two standard errors of the paired differences).
    labels : tuple of str
    """

    n: int
    sizes: list
    gen_error: float
    gen_se: float
    lr_error: float
    lr_se: float
    gap: float
    leader: str
    labels: tuple


class LearningCurveStudy(Study):
    """Naive Bayes against logistic regression learning curves, read at one size ``n``.

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
    >>> s.defaults(), s(n=10).leader, round(s(n=100).gap, 2)
    ({'n': 100}, 'nb', 0.05)
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
        return ("n",)

    def defaults(self) -> dict:
        return {"n": self.sizes[-1]}

    def static(self) -> LearningCurveStatic:
        return self._static

    def __call__(self, *, n=None) -> LearningCurveResult:
        n = self.sizes[-1] if n is None else n
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) not in self.sizes:
            raise ValueError(f"n must be one of the curves' sizes {self.sizes}, got {n!r}")
        n = int(n)
        j = self.sizes.index(n)
        s = self._static
        g, lr = float(s.gen_mean[j]), float(s.lr_mean[j])
        return LearningCurveResult(n, list(self.sizes), g, float(s.gen_se[j]), lr,
                                   float(s.lr_se[j]), g - lr, leader(self.curves, n),
                                   self.labels)


# -- notebook 10's investigation: the vocabulary size d and the kind of features --------------
class VocabularyCurveResult(Result):
    """Result of :class:`VocabularyCurveStudy` at one setting.

    Attributes
    ----------
    d : int
        The vocabulary size (number of word features).
    features : str
        ``"presence"`` or ``"counts"``.
    alpha : float
        Naive Bayes' pseudo-count :math:`\\alpha` at this setting.
    l2 : float
        Logistic regression's ridge :math:`\\lambda` at this setting.
    n : int
        The marked training-set size.
    sizes : list of int
    gen_mean, gen_se, lr_mean, lr_se : ndarray of shape (n_sizes,)
        Both curves at this setting (mean test error and standard error per size).
    gen_error, gen_se_n, lr_error, lr_se_n : float
        Both learners' mean test error and standard error at ``n``.
    gap : float
        ``gen_error - lr_error``.
    leader : str
        ``"nb"``, ``"lr"`` or ``"tie"`` at ``n`` (:func:`genviz.nb_vs_logistic.leader`).
    crossing : int or None
        :func:`genviz.studies.gda_vs_logistic_curves.crossing_size` of this setting's curves.
    crossing_text : str
        :func:`genviz.studies.learning_curves_vocabulary.crossing_text`.
    crossing_per_word : float
        ``crossing / d``: training e-mails per word feature at the crossing (nan without one).
        If logistic regression's need grew like ``d`` it would not change with ``d``.
    nb_settled, lr_settled : int
        :func:`genviz.studies.learning_curves_vocabulary.settled_size` of each learner (``tol`` of the study).
    labels : tuple of str
    bars : dict
        ``"gen"``, ``"lr"`` -> the error bars, one segment ``[(size, mean - se), (size, mean +
        se)]`` per size (what the figure draws).
    """

    d: int
    features: str
    alpha: float
    l2: float
    n: int
    sizes: list
    gen_mean: np.ndarray
    gen_se: np.ndarray
    lr_mean: np.ndarray
    lr_se: np.ndarray
    gen_error: float
    gen_se_n: float
    lr_error: float
    lr_se_n: float
    gap: float
    leader: str
    crossing: object
    crossing_text: str
    crossing_per_word: float
    nb_settled: int
    lr_settled: int
    labels: tuple
    bars: dict


class VocabularyCurveStatic(Result):
    """What the investigation's figure draws once: the sizes, the largest error of any setting
    (the y-axis) and the learners' names.

    Attributes
    ----------
    sizes : tuple of int
    top : float
        The largest mean + standard error over every setting and size.
    labels : tuple of str
    """

    sizes: tuple
    top: float
    labels: tuple


class VocabularyCurveStudy(Study):
    """Learning curves at a chosen vocabulary size ``d``, feature kind, pseudo-count ``alpha``
    and ridge ``l2``, read at size ``n``.

    Parameters
    ----------
    sweep : genviz.studies.learning_curves_vocabulary.VocabularyCurves
        From :func:`genviz.studies.learning_curves_vocabulary.vocabulary_curves`: every setting precomputed, so a
        move fits nothing.
    tol : float, default 0.01
        For the settled sizes (:func:`genviz.studies.learning_curves_vocabulary.settled_size`).
    labels : pair of str
    """

    def __init__(self, sweep, *, tol=0.01, labels=("naive Bayes", "logistic regression")):

        if not isinstance(sweep, VocabularyCurves):
            raise TypeError(f"sweep must be VocabularyCurves (genviz.studies.learning_curves_vocabulary), got "
                            f"{type(sweep).__name__}")
        self.sweep, self.tol = sweep, check_scalar(tol, "tol", low=0.0)
        self.labels = tuple(labels)
        self.sizes = [int(s) for s in sweep.sizes]
        top = max(float(np.max(c.mean_se(w)[0] + c.mean_se(w)[1]))
                  for c in sweep.settings().values() for w in ("nb", "lr"))
        self._static = VocabularyCurveStatic(tuple(self.sizes), top, self.labels)

    def parameter_names(self) -> tuple:
        return ("d", "features", "alpha", "l2", "n")

    def defaults(self) -> dict:
        return {"d": self.sweep.vocabularies[0], "features": self.sweep.kinds[0],
                "alpha": self.sweep.alpha, "l2": self.sweep.l2, "n": self.sizes[-1]}

    def static(self) -> VocabularyCurveStatic:
        return self._static

    def __call__(self, *, d=None, features=None, alpha=None, l2=None,
                 n=None) -> VocabularyCurveResult:

        p = self.defaults()
        d = p["d"] if d is None else d
        features = p["features"] if features is None else features
        alpha = p["alpha"] if alpha is None else alpha
        l2 = p["l2"] if l2 is None else l2
        n = p["n"] if n is None else n
        for name, value, allowed in (("alpha", alpha, self.sweep.alpha_values),
                                     ("l2", l2, self.sweep.l2_values)):
            if isinstance(value, bool) or value not in allowed:
                raise ValueError(f"{name} must be one of the sweep's values {list(allowed)}, "
                                 f"got {value!r}")
        if isinstance(d, bool) or d not in self.sweep.vocabularies:
            raise ValueError(f"d must be one of {list(self.sweep.vocabularies)}, got {d!r}")
        if features not in self.sweep.kinds:
            raise ValueError(f"features must be one of {list(self.sweep.kinds)}, got "
                             f"{features!r}")
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) not in self.sizes:
            raise ValueError(f"n must be one of the curves' sizes {self.sizes}, got {n!r}")
        c = self.sweep[(int(d), features, float(alpha), float(l2))]
        (g, gs), (lr, ls) = c.mean_se("nb"), c.mean_se("lr")
        j = self.sizes.index(int(n))
        return VocabularyCurveResult(
            int(d), features, float(alpha), float(l2), int(n), list(self.sizes), g, gs, lr, ls,
            float(g[j]), float(gs[j]), float(lr[j]), float(ls[j]), float(g[j] - lr[j]), leader(c, int(n)),
            crossing_size(c), crossing_text(c),
            float("nan") if crossing_size(c) is None else crossing_size(c) / int(d),
            settled_size(c, "nb", self.tol),
            settled_size(c, "lr", self.tol), self.labels,
            {key: [[(s, a - e), (s, a + e)] for s, a, e in zip(self.sizes, mean, se)]
             for key, mean, se in (("gen", g, gs), ("lr", lr, ls))})
