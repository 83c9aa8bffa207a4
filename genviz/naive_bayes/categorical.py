"""Categorical naive Bayes: features with named values, count tables per class (the slides'
EnjoySport walk-through and Mitchell's PlayTennis), and binning a continuous feature."""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy.special import logsumexp

from genviz._validation import (_refuse_sparse, check_fitted, check_int, check_vector,
                                feature_count_message)
from genviz.naive_bayes._base import _BaseNB, _check_alpha, _safe_log

__all__ = ["CategoricalNB", "SmoothedTable", "discretize"]


@dataclasses.dataclass(frozen=True)
class SmoothedTable:
    """The smoothed conditional table of one feature of a :class:`CategoricalNB`, with the
    counts it comes from: ``prob[k, i] = numerator[k, i] / denominator[k]`` where
    ``numerator = counts + alpha`` and ``denominator = class_count + alpha * n_values``
    (the slides' Laplace formula for alpha = 1).

    Attributes
    ----------
    feature : str
    values : list
        The feature's values (columns).
    classes : list
        The class labels (rows).
    counts : ndarray of shape (n_classes, n_values)
        ``c_{kv}``.
    class_count : ndarray of shape (n_classes,)
        ``N_k``.
    alpha : float
    n_values : int
    numerator : ndarray of shape (n_classes, n_values)
    denominator : ndarray of shape (n_classes,)
    prob : ndarray of shape (n_classes, n_values)
        ``P(X_j = v | y = k)``.
    """

    feature: str
    values: list
    classes: list
    counts: np.ndarray
    class_count: np.ndarray
    alpha: float
    n_values: int
    numerator: np.ndarray
    denominator: np.ndarray
    prob: np.ndarray

    def entry(self, k: int, value):
        """``(count, N_k, probability)`` of class index ``k`` and a feature value."""
        if value not in self.values:
            raise ValueError(f"value must be one of {self.values} (feature {self.feature!r}), "
                             f"got {value!r}")
        i = self.values.index(value)
        return float(self.counts[k, i]), float(self.class_count[k]), float(self.prob[k, i])


# --------------------------------------------------------------------------- categorical
def _check_table(X, name="X", *, n_features=None, owner=None):
    """An (n, d) object array of category values; ragged rows and missing values refused."""
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a table (rows of values), got the string {X!r}")
    _refuse_sparse(X, name)
    if isinstance(X, (list, tuple)):
        lengths = [len(r) if isinstance(r, (list, tuple, np.ndarray)) else None for r in X]
        if any(n is None for n in lengths):
            raise ValueError(f"{name} must be 2-dimensional: a list of rows, each a list of "
                             f"values (for one row use [row])")
        if len(set(lengths)) > 1:
            i = next(i for i, n in enumerate(lengths) if n != lengths[0])
            raise ValueError(f"{name} has ragged rows: row 0 has {lengths[0]} values but row {i} "
                             f"has {lengths[i]}; every row needs one value per feature")
    arr = np.asarray(X, dtype=object)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (n_samples, n_features), got shape "
                         f"{arr.shape}" + (". Reshape your data: for one row use [row]"
                                           if arr.ndim == 1 else ""))
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); pass at least one row")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has 0 feature(s) (shape={arr.shape}) while a minimum of 1 is "
                         f"required; pass at least one column")
    for (i, j), v in np.ndenumerate(arr):
        if v is None or (isinstance(v, float) and not np.isfinite(v)):
            raise ValueError(f"{name}[{i}, {j}] is missing or infinite ({v!r}; None, NaN and inf "
                             f"are not categories); fill or drop it first")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(feature_count_message(name, arr.shape[1], n_features,
                                               owner or "the model"))
    return arr


class CategoricalNB(_BaseNB):
    """Naive Bayes for categorical features with named values, by counting.

    ``P(X_j = v | y = k) = (c_{kjv} + alpha) / (N_k + alpha |values(X_j)|)`` with ``c_{kjv}``
    the number of class-k rows whose feature j is ``v`` and ``|values(X_j)|`` the number of
    values feature j takes in training (the slides' Laplace formula for alpha = 1; alpha = 0 is
    plain counting). A value never seen in training has count 0 in every class: with
    ``alpha > 0`` it gets ``alpha / (N_k + alpha |values(X_j)|)``; with ``alpha = 0`` its
    probability is 0 in every class and predicting raises a ValueError naming it.

    Parameters
    ----------
    alpha : float >= 0, default 1.0

    Attributes
    ----------
    {fitted classes}
    feature_names_ : list of str
        The d feature names.
    categories_ : list of ndarray
        For each feature ``j``, its sorted values (``n_j`` of them).
    category_count_ : list of ndarray of shape (K, n_j)
        The count table of each feature, per class.
    feature_log_prob_ : list of ndarray of shape (K, n_j)
        Log of the smoothed conditional probabilities.

    Examples
    --------
    >>> X = [["sunny", "high"], ["sunny", "normal"], ["rainy", "high"], ["sunny", "high"]]
    >>> nb = CategoricalNB(alpha=0).fit(X, ["yes", "yes", "no", "yes"])
    >>> np.exp(nb.class_log_prior_)          # P(no), P(yes)
    array([0.25, 0.75])
    >>> nb.conditional_table(0)              # rows no, yes; columns rainy, sunny
    array([[1., 0.],
           [0., 1.]])
    >>> nb.predict([["sunny", "high"]]).tolist()
    ['yes']
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def fit(self, X, y, *, classes=None, feature_names=None, categories=None):
        """Count the table ``X`` (n, d) of values against the labels ``y`` (n,); returns self.

        ``feature_names`` (d names) label the tables and error messages. ``categories`` (a list
        of d value lists) fixes each feature's value set, e.g. all bins of a discretised feature
        including those no training row falls in; by default it is the values seen in ``X``.
        """
        alpha = self._validate_params()
        X = _check_table(X)
        if categories is not None:
            if len(categories) != X.shape[1]:
                raise ValueError(f"categories must list the values of each of the {X.shape[1]} "
                                 f"features, got {len(categories)} lists")
            categories = [np.unique(np.asarray(list(c), dtype=object)) for c in categories]
            for j, values in enumerate(categories):
                extra = set(X[:, j].tolist()) - set(values.tolist())
                if extra:
                    raise ValueError(f"X feature {j} has values {sorted(map(str, extra))} that "
                                     f"are not in categories[{j}] = {values.tolist()}")
        self._categories = categories
        if feature_names is None:
            feature_names = [f"x{j}" for j in range(X.shape[1])]
        feature_names = [str(f) for f in feature_names]
        if len(feature_names) != X.shape[1]:
            raise ValueError(f"feature_names has {len(feature_names)} names but X has "
                             f"{X.shape[1]} features")
        self._alpha = alpha
        self.feature_names_ = feature_names
        return super().fit(X, y, classes=classes)

    _tags = {"input_tags.categorical": True, "input_tags.string": True}

    def _validate_params(self):
        return _check_alpha(self.alpha)

    def _check_X(self, X, fitting=False):
        return _check_table(X, n_features=None if fitting else len(self.categories_),
                            owner=type(self).__name__)

    def _fit(self, X, Y):
        self.categories_, self.category_count_, self.feature_log_prob_ = [], [], []
        self._index = []
        for j in range(X.shape[1]):
            try:
                values, codes = np.unique(X[:, j], return_inverse=True)
                if self._categories is not None:
                    values = self._categories[j]
                    codes = np.searchsorted(values, X[:, j])
            except TypeError:
                raise TypeError(f"X feature {j} ({self.feature_names_[j]}) mixes value types "
                                f"that cannot be compared, e.g. strings and numbers") from None
            onehot = np.zeros((X.shape[0], values.size))
            onehot[np.arange(X.shape[0]), codes] = 1.0
            counts = Y.T @ onehot
            smoothed = counts + self._alpha
            self.categories_.append(values)
            self.category_count_.append(counts)
            self.feature_log_prob_.append(_safe_log(smoothed)
                                          - np.log(smoothed.sum(axis=1, keepdims=True)))
            self._index.append({v: i for i, v in enumerate(values.tolist())})
        self.n_categories_ = np.array([v.size for v in self.categories_])

    def _feature_index(self, j):
        check_fitted(self, "classes_")
        if isinstance(j, str):
            if j not in self.feature_names_:
                raise ValueError(f"j must be a feature index or one of {self.feature_names_}, "
                                 f"got {j!r}")
            j = self.feature_names_.index(j)
        return check_int(j, "j", low=0, high=len(self.categories_) - 1)

    def conditional_table(self, j):
        """The smoothed ``P(X_j = v | y = k)`` of feature ``j`` (index or name): (K, n_j)."""
        return np.exp(self.feature_log_prob_[self._feature_index(j)])

    def smoothed_table(self, j) -> SmoothedTable:
        """The smoothed table of feature ``j`` (index or name) with its counts and formula parts.

        Examples
        --------
        >>> nb = CategoricalNB(alpha=1).fit([["a"], ["a"], ["b"]], [0, 0, 1])
        >>> t = nb.smoothed_table(0)
        >>> t.counts.tolist(), t.denominator.tolist(), t.prob.round(3).tolist()
        ([[2.0, 0.0], [0.0, 1.0]], [4.0, 3.0], [[0.75, 0.25], [0.333, 0.667]])
        """
        j = self._feature_index(j)
        counts = self.category_count_[j].copy()
        n_values = int(self.n_categories_[j])
        numerator = counts + self._alpha
        denominator = self.class_count_ + self._alpha * n_values
        return SmoothedTable(self.feature_names_[j], self.categories_[j].tolist(),
                             self.classes_.tolist(), counts, self.class_count_.copy(),
                             float(self._alpha), n_values, numerator, denominator,
                             np.exp(self.feature_log_prob_[j]))

    def feature_log_factors(self, X):
        """``log P(X_j = x_j | y = k)`` for every row, class and feature: (n, K, d).

        Raises
        ------
        ValueError
            With alpha = 0, for a value never seen in training (probability 0/0 in every class).
        """
        check_fitted(self, "classes_")
        X = self._check_X(X)
        n, d = X.shape
        out = np.empty((n, self.classes_.size, d))
        for j in range(d):
            index, flp = self._index[j], self.feature_log_prob_[j]
            codes = np.array([index.get(v, -1) for v in X[:, j].tolist()])
            unseen = codes < 0
            if unseen.any():
                i = int(np.flatnonzero(unseen)[0])
                if self._alpha == 0:
                    raise ValueError(
                        f"X[{i}, {j}] = {X[i, j]!r}: feature {self.feature_names_[j]!r} never took "
                        f"this value in training (it took {self.categories_[j].tolist()}); with "
                        f"alpha=0 its probability is 0 in every class and the posterior 0/0. "
                        f"Use alpha > 0 (Laplace smoothing) or a known value")
            out[:, :, j] = flp[:, np.maximum(codes, 0)].T
            if unseen.any():
                total = self.class_count_ + self._alpha * self.n_categories_[j]
                out[unseen, :, j] = np.log(self._alpha) - np.log(total)
        return out

    def _log_likelihood(self, X):
        return self.feature_log_factors(X).sum(axis=2)

    def explain(self, x):
        """Everything the slides compute for one query row ``x`` (d values), as a dict.

        Keys: ``features``, ``values``, ``classes``, ``prior`` (K,), ``factors`` (K, d) the
        ``P(x_j|y=k)``, ``joint`` (K,) the unnormalised ``P(y=k) prod_j P(x_j|y=k)``,
        ``normaliser`` the slides' ``alpha = 1 / sum_k joint_k`` (inf if every joint is 0),
        ``posterior`` (K,) or None when it is 0/0, ``decision`` the argmax label (or None).
        """
        check_fitted(self, "classes_")
        row = _check_table([list(x)] if not isinstance(x, np.ndarray) else x.reshape(1, -1),
                           "x", n_features=len(self.categories_))
        logf = self.feature_log_factors(row)[0]
        logjoint = self.class_log_prior_ + logf.sum(axis=1)
        joint = np.exp(logjoint)
        with np.errstate(divide="ignore", invalid="ignore"):
            lognorm = logsumexp(logjoint)
        ok = bool(np.isfinite(lognorm))
        post = np.exp(logjoint - lognorm) if ok else None
        return {"features": list(self.feature_names_), "values": row[0].tolist(),
                "classes": self.classes_.tolist(), "prior": np.exp(self.class_log_prior_),
                "factors": np.exp(logf), "joint": joint,
                "normaliser": float(np.exp(-lognorm)) if ok else np.inf,
                "posterior": post,
                "decision": self.classes_.tolist()[int(np.argmax(logjoint))] if ok else None}



def discretize(x, edges):
    """Bin a continuous feature as the CS229 notes do: value ``i`` for the ``i``-th interval.

    With edges ``e_1 < ... < e_m`` the bins are ``x < e_1`` (1), ``e_1 <= x < e_2`` (2), ...,
    ``x >= e_m`` (m + 1).

    Examples
    --------
    >>> discretize([350, 890, 1600, 2000], [400, 800, 1200, 1600])   # the notes' living areas
    array([1, 3, 5, 5])
    """
    x = check_vector(x, "x")
    edges = check_vector(edges, "edges")
    if edges.size == 0 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must be a non-empty, strictly increasing sequence, got "
                         f"{edges.tolist()}")
    return np.searchsorted(edges, x, side="right") + 1

