"""Model selection and scoring: a seeded stratified split, binary metrics, threshold curves.

What every classifier topic needs to score a model, whatever its features: split the labelled
data once, keeping each class's share (:func:`stratified_split`); score hard predictions
(:func:`accuracy`; :func:`binary_metrics`: accuracy, precision, recall, F1, the confusion
matrix); and sweep a
real-valued score over every threshold (:class:`ThresholdCurves`: ROC and precision-recall
curves, computed once by sorting). Leave-one-out bandwidth selection is a KDE topic and lives in
:mod:`genviz.kde`.

These names used to live in :mod:`genviz.text`, where they still resolve, deprecated.
"""

from __future__ import annotations

import numpy as np

from genviz._validation import check_labels, check_rng, check_scalar, check_vector

__all__ = ["stratified_split", "accuracy", "binary_metrics", "ThresholdCurves"]


def stratified_split(y, *, test_size: float = 0.3, rng=0):
    """A seeded train/test split that keeps each class's share (stratified).

    Parameters
    ----------
    y : sequence of labels
    test_size : float in (0, 1)
        Fraction of each class put in the test set (rounded to the nearest count, at least one
        document of each class on each side).
    rng : int or numpy.random.Generator
        Seed: the same seed gives the same split.

    Returns
    -------
    train, test : int arrays
        Sorted indices into ``y``; disjoint, together all of ``range(len(y))``.

    Raises
    ------
    ValueError
        If ``test_size`` is outside (0, 1) or a class has fewer than two members.

    Examples
    --------
    >>> train, test = stratified_split(["ham"] * 6 + ["spam"] * 4, test_size=0.5, rng=0)
    >>> len(train), len(test)
    (5, 5)
    """
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        raise ValueError(f"y must be a non-empty 1-D sequence of labels, got shape {y.shape}")
    test_size = check_scalar(test_size, "test_size", low=0.0, high=1.0, low_open=True,
                             high_open=True)
    gen = check_rng(rng)
    test = []
    for label in np.unique(y):
        members = np.flatnonzero(y == label)
        if members.size < 2:
            raise ValueError(f"class {label.item()!r} has {members.size} member(s); each class needs "
                             f"at least two (one for training, one for testing)")
        k = min(max(int(round(test_size * members.size)), 1), members.size - 1)
        test.append(gen.permutation(members)[:k])
    test = np.sort(np.concatenate(test))
    train = np.setdiff1d(np.arange(y.size), test)
    return train, test


def accuracy(y_true, y_pred) -> float:
    """Fraction of predictions equal to the true labels (any number of classes).

    Parameters
    ----------
    y_true : array_like of shape (n_samples,)
    y_pred : array_like of shape (n_samples,)

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the two are not non-empty 1-D sequences of the same length.

    Examples
    --------
    >>> accuracy(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    0.75
    """
    t, p = _check_pair(y_true, y_pred)
    return float(np.mean(t == p))


def _check_pair(y_true, y_pred):
    """True and predicted labels: non-empty, the same length, each valid (check_labels)."""
    n = np.shape(y_true)[0] if np.ndim(y_true) >= 1 else 0
    if n == 0 or np.shape(y_pred) != np.shape(y_true):
        raise ValueError(f"y_true and y_pred must be non-empty 1-D and of the same length, got "
                         f"shapes {np.shape(y_true)} and {np.shape(y_pred)}")
    return check_labels(y_true, n, "y_true"), check_labels(y_pred, n, "y_pred")


def _check_labels(y_true, y_pred, positive):
    y_true, y_pred = _check_pair(y_true, y_pred)
    if positive not in set(y_true.tolist()) | set(y_pred.tolist()):
        raise ValueError(f"positive={positive!r} is not one of the labels "
                         f"{sorted(set(y_true.tolist()))}")
    return y_true == positive, y_pred == positive


def binary_metrics(y_true, y_pred, *, positive="spam") -> dict:
    """Accuracy, precision, recall and the confusion matrix of a two-class classifier.

    Parameters
    ----------
    y_true, y_pred : sequences of labels, same length
    positive : label
        The class that counts as detected (e.g. "spam").

    Returns
    -------
    dict
        ``accuracy``, ``precision`` = TP / (TP + FP) (1.0 when nothing is predicted
        positive), ``recall`` = TP / (TP + FN), ``f1``, ``tp, fp, fn, tn`` and ``confusion``, the
        2x2 array [[TN, FP], [FN, TP]] (rows: true negative/positive; columns: predicted),
        scikit-learn's layout for labels ordered (negative, positive).

    Raises
    ------
    ValueError
        If the lengths differ or ``positive`` is not a label.

    Examples
    --------
    >>> m = binary_metrics(["spam", "spam", "ham", "ham"], ["spam", "ham", "spam", "ham"])
    >>> m["accuracy"], m["precision"], m["recall"], m["confusion"].tolist()
    (0.5, 0.5, 0.5, [[1, 1], [1, 1]])
    """
    t, p = _check_labels(y_true, y_pred, positive)
    tp, fp = int(np.sum(t & p)), int(np.sum(~t & p))
    fn, tn = int(np.sum(t & ~p)), int(np.sum(~t & ~p))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return dict(accuracy=(tp + tn) / t.size, precision=precision, recall=recall, f1=f1,
                tp=tp, fp=fp, fn=fn, tn=tn, confusion=np.array([[tn, fp], [fn, tp]]))


class ThresholdCurves:
    """ROC and precision-recall curves of a score, computed once for every threshold.

    Document ``i`` is called positive when ``scores[i] > t``. For the naive Bayes spam filter the
    score is the log-odds ``log P(x, spam) - log P(x, ham)`` and ``t = log c`` (Smola's
    threshold ``c`` on the likelihood ratio). The curves are computed once by sorting the
    scores; :meth:`at` then finds the operating point of any threshold by bisection.

    Parameters
    ----------
    scores : array_like of shape (n,)
        Finite scores.
    y_true : array_like of shape (n,)
        Labels.
    positive : label

    Attributes
    ----------
    thresholds : ndarray of shape (m,)
        The distinct scores, decreasing (the curves' corners).
    fpr : ndarray of shape (m + 1,)
        False-positive rate, starting at threshold +inf (nothing flagged: 0) and ending with
        everything flagged (1).
    tpr : ndarray of shape (m + 1,)
        True-positive rate, from 0 to 1 likewise.
    precision : ndarray of shape (m + 1,)
        Precision, 1 where nothing is flagged.
    recall : ndarray of shape (m + 1,)
        The same as ``tpr``.
    auc : float
        Area under the ROC curve (trapezoids).
    n_pos : int
        Number of positive documents.
    n_neg : int
        Number of negative documents.

    Examples
    --------
    >>> c = ThresholdCurves([2.0, 1.0, -1.0, -3.0], ["spam", "ham", "spam", "ham"], positive="spam")
    >>> c.tpr.tolist(), c.fpr.tolist()
    ([0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.0, 0.5, 0.5, 1.0])
    >>> c.at(0.0)["precision"], c.auc
    (0.5, 0.75)
    """

    def __init__(self, scores, y_true, *, positive="spam"):
        scores = check_vector(scores, "scores")
        y = np.asarray(y_true)
        if y.shape != scores.shape:
            raise ValueError(f"y_true has shape {y.shape} but scores has {scores.shape}")
        is_pos = y == positive
        self.n_pos, self.n_neg = int(is_pos.sum()), int((~is_pos).sum())
        if self.n_pos == 0 or self.n_neg == 0:
            raise ValueError(f"y_true needs both classes (positive={positive!r} and another); got "
                             f"{self.n_pos} positive and {self.n_neg} negative")
        order = np.argsort(-scores, kind="stable")
        s = scores[order]
        last = np.r_[np.flatnonzero(np.diff(s) != 0), s.size - 1]  # end of each run of ties
        tp = np.r_[0, np.cumsum(is_pos[order])[last]]
        fp = np.r_[0, (last + 1) - tp[1:]]
        self.thresholds = s[last]
        self._neg_sorted = -self.thresholds  # increasing, for searchsorted
        self.tp, self.fp = tp, fp
        self.tpr = tp / self.n_pos
        self.fpr = fp / self.n_neg
        flagged = tp + fp
        self.recall = self.tpr
        self.precision = np.divide(tp, flagged, out=np.ones(tp.size), where=flagged > 0)
        self.auc = float(np.trapezoid(self.tpr, self.fpr) if hasattr(np, "trapezoid")
                         else np.trapz(self.tpr, self.fpr))

    def index(self, threshold: float) -> int:
        """Position on the curves of the rule ``score > threshold``."""
        if isinstance(threshold, (float, np.floating)) and np.isinf(threshold):
            t = float(threshold)  # +inf: nothing flagged; -inf: everything
        else:
            t = check_scalar(threshold, "threshold")
        # number of distinct scores strictly above t
        return int(np.searchsorted(self._neg_sorted, -t, side="left"))

    def at(self, threshold: float) -> dict:
        """The operating point of ``score > threshold``: fpr, tpr, precision, recall, counts."""
        k = self.index(threshold)
        return dict(threshold=float(threshold), fpr=float(self.fpr[k]), tpr=float(self.tpr[k]),
                    precision=float(self.precision[k]), recall=float(self.recall[k]),
                    tp=int(self.tp[k]), fp=int(self.fp[k]), fn=self.n_pos - int(self.tp[k]),
                    tn=self.n_neg - int(self.fp[k]))
