"""Naive Bayes classifiers by counting, in log space.

Every model here scores a row ``x`` by the unnormalised joint log-probability
``log P(x, y=k) = log P(y=k) + sum_j log P(x_j | y=k)`` (:meth:`predict_joint_log_proba`),
then normalises with ``scipy.special.logsumexp`` (the slides' normalising constant, the
evidence ``P(x) = sum_k P(x, y=k)``) to get the posterior. The shared logic lives once in
:class:`_BaseNB`; each model only says how it counts (``fit``) and how it scores one feature.

- :class:`CategoricalNB`: features with named values ("Sunny"), count tables per class (the
  slides' EnjoySport walk-through and Mitchell's PlayTennis).
- :class:`GaussianNB`: one normal per feature and class (axis-aligned ellipses).
- :class:`KDENB`: one kernel density estimate (``genviz.kde``) per feature and class.
- :class:`MultinomialNB`, :class:`BernoulliNB`: the two text event models of CS229 (word counts
  / word presence), dense or ``scipy.sparse`` input, never densified; two-class extras
  (``decision_function``, Smola's threshold ``c``, the linear form, the most indicative words).

Laplace/Lidstone smoothing: ``alpha`` pseudo-counts are added to every count; ``alpha=0`` is the
maximum-likelihood estimate, where a value never seen with a class gets probability 0 (log-prob
``-inf``); a row that is impossible under every class has posterior 0/0 and raises a clear error.
"""

from __future__ import annotations

import inspect

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from genviz._validation import (NotFittedError, check_fitted, check_int, check_points,
                                check_scalar)

__all__ = ["CategoricalNB", "GaussianNB", "KDENB", "MultinomialNB", "BernoulliNB",
           "NotFittedError", "leave_one_out_predict", "discretize"]


# --------------------------------------------------------------------------- shared helpers
def _check_alpha(alpha) -> float:
    return check_scalar(alpha, "alpha", low=0.0)


def _check_labels(y, n: int, classes=None):
    """Sorted unique labels, the index of each row's label and the one-hot (n, K) matrix."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of class labels, got shape {y.shape}"
                         + (" (use y.ravel())" if y.ndim == 2 and 1 in y.shape else ""))
    if y.shape[0] != n:
        raise ValueError(f"y has {y.shape[0]} labels but X has {n} rows; they must match")
    if y.dtype.kind == "f" and not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or infinite labels; drop those rows first")
    try:
        found, index = np.unique(y, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"y must hold comparable labels of one type (e.g. all strings), "
                        f"got a mix: {exc}") from None
    if classes is None:
        labels = found
    else:
        labels = np.unique(np.asarray(classes))
        missing = [c for c in found if c not in set(labels.tolist())]
        if missing:
            raise ValueError(f"y contains labels {missing!r} that are not in classes={list(labels)!r}")
        index = np.searchsorted(labels, y)
    if labels.shape[0] < 2:
        raise ValueError(f"y must contain at least two classes to classify, got only "
                         f"{labels.tolist()!r}")
    onehot = np.zeros((n, labels.shape[0]))
    onehot[np.arange(n), index] = 1.0
    counts = onehot.sum(axis=0)
    if np.any(counts == 0):
        empty = labels[counts == 0].tolist()
        raise ValueError(f"class(es) {empty!r} listed in classes have no training rows: "
                         f"P(y) would be 0 and P(x_j|y) 0/0; add examples or drop the class")
    return labels, onehot, counts


def _safe_log(a):
    """log with log(0) = -inf and no warning (the maximum-likelihood alpha = 0 case)."""
    with np.errstate(divide="ignore"):
        return np.log(a)


class _BaseNB:
    """Shared naive Bayes machinery: class prior, log-space posterior, prediction.

    Subclasses implement ``_fit(X, Y)`` (X validated, Y the one-hot labels), ``_check_X(X)``
    and ``_joint_log_likelihood(X)`` returning ``sum_j log P(x_j | y=k)`` of shape (n, K).
    """

    def fit(self, X, y, *, classes=None):
        """Count the training data.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,), class labels of any sortable type ("spam", 0, ...)
        classes : sequence, optional
            All class labels, when some may be absent from ``y`` (then refused: a class
            without rows has no estimate).

        Returns
        -------
        self
        """
        X = self._check_X_fit(X)
        labels, onehot, counts = _check_labels(y, X.shape[0], classes)
        self.classes_ = labels
        self.class_count_ = counts
        self.class_log_prior_ = np.log(counts) - np.log(counts.sum())
        self._fit(X, onehot)
        return self

    def predict_joint_log_proba(self, X):
        """Unnormalised log-posterior ``log P(y=k) + sum_j log P(x_j|y=k)``, shape (n, K).

        ``-inf`` where a feature value has probability 0 under a class (only with alpha = 0).
        """
        check_fitted(self, "classes_")
        X = self._check_X(X)
        return self._joint_log_likelihood(X) + self.class_log_prior_

    def predict_joint_proba(self, X):
        """The slides' unnormalised scores ``P(y=k) prod_j P(x_j|y=k)``, shape (n, K).

        May underflow to 0 with many features: that is why everything else works in logs.
        """
        return np.exp(self.predict_joint_log_proba(X))

    def predict_log_evidence(self, X):
        """``log P(x) = logsumexp_k log P(x, y=k)``: the log of the slides' normaliser, (n,)."""
        joint = self.predict_joint_log_proba(X)
        return self._log_normaliser(joint)[:, 0]

    @staticmethod
    def _log_normaliser(joint):
        with np.errstate(divide="ignore", invalid="ignore"):
            norm = logsumexp(joint, axis=1, keepdims=True)
        bad = np.flatnonzero(~np.isfinite(norm[:, 0]))
        if bad.size:
            raise ValueError(
                f"X row(s) {bad[:10].tolist()} have probability 0 under every class: each class "
                f"has some feature value never counted with it, so the posterior is 0/0. This is "
                f"the zero-count problem of alpha=0; use Laplace smoothing (alpha > 0)")
        return norm

    def predict_log_proba(self, X):
        """Log-posterior ``log P(y=k|x)``: the joint minus its logsumexp over classes, (n, K)."""
        joint = self.predict_joint_log_proba(X)
        return joint - self._log_normaliser(joint)

    def predict_proba(self, X):
        """Posterior ``P(y=k|x) = exp(predict_log_proba(X))``, rows sum to 1, (n, K)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """The most probable class of each row (``classes_[argmax]``), (n,)."""
        log_post = self.predict_log_proba(X)
        return self.classes_[np.argmax(log_post, axis=1)]

    def _check_X_fit(self, X):
        return self._check_X(X, fitting=True)


# --------------------------------------------------------------------------- text models
def _check_counts(X, name="X", *, n_features=None, binary=False):
    """Validate a non-negative count matrix, dense or sparse (returned CSR, not densified)."""
    if sp.issparse(X):
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-dimensional, got a sparse array of shape {X.shape}")
        X = X.tocsr()
        if X.dtype.kind not in "biuf":
            raise TypeError(f"{name} must hold numeric counts, got sparse dtype {X.dtype}")
        data = X.data
        if X.shape[0] == 0:
            raise ValueError(f"{name} is empty (0 samples); pass at least one row")
    else:
        X = check_points(X, name)
        data = X
    if not np.all(np.isfinite(data)):
        raise ValueError(f"{name} contains NaN or infinite counts; counts must be finite")
    if np.any(data < 0):
        raise ValueError(f"{name} contains negative values (min {data.min():g}); naive Bayes text "
                         f"models need counts >= 0")
    if binary and not np.all((data == 0) | (data == 1)):
        raise ValueError(f"{name} must contain only 0 and 1 when binarize=None (presence of each "
                         f"word); pass binarize=0.0 to turn counts into presence")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has 0 features (an empty vocabulary); nothing to count")
    if n_features is not None and X.shape[1] != n_features:
        raise ValueError(f"{name} has {X.shape[1]} features (columns) but the model was fitted "
                         f"with {n_features}; build {name} with the training vocabulary")
    return X


def _masked_matmul(X, logp):
    """``X @ logp.T`` where ``logp`` may hold -inf: the -inf entries hit by a non-zero count
    give -inf (not 0 * -inf = NaN). Returns (n, K) and the (n, K) mask of impossible rows."""
    finite = np.isfinite(logp)
    if finite.all():
        return np.asarray(X @ logp.T), None
    out = np.asarray(X @ np.where(finite, logp, 0.0).T)
    hits = np.asarray(X @ (~finite).T.astype(np.float64)) > 0
    return out, hits


class _BinaryTextMixin:
    """Two-class extras of the text models: log-odds, Smola's threshold, linear form."""

    def _check_binary(self, what):
        check_fitted(self, "classes_")
        if self.classes_.shape[0] != 2:
            raise ValueError(f"{what} needs exactly two classes; this model was fitted with "
                             f"{self.classes_.shape[0]}: {self.classes_.tolist()!r}")

    def decision_function(self, X):
        """Log-odds ``log P(x, y=c1) - log P(x, y=c0)`` with ``c1 = classes_[1]``, shape (n,).

        It is the log-likelihood ratio plus the log prior ratio; ``> 0`` means ``classes_[1]``.
        """
        self._check_binary("decision_function")
        joint = self.predict_joint_log_proba(X)
        self._log_normaliser(joint)  # both -inf -> clear 0/0 error rather than NaN
        with np.errstate(invalid="ignore"):
            return joint[:, 1] - joint[:, 0]

    def predict(self, X, threshold=None):
        """Predicted class; with ``threshold=c`` (Smola's Algorithm 1.1) predict ``classes_[1]``
        when ``P(x|c1) P(c1) / (P(x|c0) P(c0)) > c``, i.e. ``decision_function(X) > log c``.

        Parameters
        ----------
        X : array or sparse matrix (n_samples, n_features)
        threshold : float > 0, optional
            The likelihood-ratio threshold ``c``; None is the usual argmax (``c = 1``).
        """
        if threshold is None:
            return super().predict(X)
        c = check_scalar(threshold, "threshold", low=0.0, low_open=True)
        self._check_binary("predict(X, threshold=c)")
        return np.where(self.decision_function(X) > np.log(c), self.classes_[1], self.classes_[0])

    @property
    def feature_log_ratio_(self):
        """Weight ``w`` (V,) of each feature in the log-odds: ``decision_function = X @ w + b``."""
        self._check_binary("feature_log_ratio_")
        return self._linear()[0]

    def linear_form(self):
        """Weights ``w`` (n_features,) and bias ``b`` with ``decision_function(X) = X @ w + b``.

        For :class:`BernoulliNB`, ``X`` is the binarised (presence) matrix.

        Returns
        -------
        w : ndarray (n_features,)
        b : float
        """
        self._check_binary("linear_form")
        w, b = self._linear()
        return w.copy(), float(b)

    def top_features(self, k=10, feature_names=None):
        """The ``k`` features that most strongly indicate each class.

        Parameters
        ----------
        k : int >= 1
        feature_names : sequence of length n_features, optional (default: column indices)

        Returns
        -------
        dict
            ``{classes_[1]: [(name, w), ...], classes_[0]: [(name, -w), ...]}``: per class, the
            features with the largest log-ratio in its favour, largest first.
        """
        self._check_binary("top_features")
        k = check_int(k, "k", low=1)
        w = self._linear()[0]
        if feature_names is None:
            names = np.arange(w.shape[0])
        else:
            names = np.asarray(feature_names)
            if names.ndim != 1 or names.shape[0] != w.shape[0]:
                raise ValueError(f"feature_names must have one name per feature ({w.shape[0]}), "
                                 f"got shape {names.shape}")
        out = {}
        for label, score in ((self.classes_[1], w), (self.classes_[0], -w)):
            order = np.argsort(-score, kind="stable")[:k]
            out[label] = [(names[i].tolist(), float(score[i])) for i in order]
        return out


class MultinomialNB(_BinaryTextMixin, _BaseNB):
    """Multinomial event model (CS229): a document is a bag of word counts.

    ``theta_{k,w} = (N_{k,w} + alpha) / (N_k + alpha V)`` with ``N_{k,w}`` the count of word
    ``w`` in class ``k`` and ``N_k`` all words of class ``k``; ``log P(x|k) = sum_w x_w log
    theta_{k,w}`` (up to the multinomial coefficient, which cancels).

    Parameters
    ----------
    alpha : float >= 0, default 1.0
        Laplace (1) / Lidstone pseudo-count; 0 is the maximum-likelihood estimate.

    Attributes
    ----------
    classes_, class_count_ (K,), class_log_prior_ (K,)
    feature_count_ : (K, V) word counts per class
    feature_log_prob_ : (K, V) ``log theta``

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = MultinomialNB(alpha=1.0).fit(X, ["ham", "ham", "spam", "spam"])
    >>> np.exp(nb.feature_log_prob_).round(3)
    array([[0.667, 0.222, 0.111],
           [0.111, 0.222, 0.667]])
    >>> nb.predict([[0, 0, 1]]).tolist(), nb.predict_proba([[0, 0, 1]]).round(3).tolist()
    (['spam'], [[0.143, 0.857]])
    >>> w, b = nb.linear_form(); float(np.round(w @ [0, 0, 1] + b, 4))
    1.7918
    """

    def __init__(self, alpha=1.0):
        self.alpha = alpha

    def _check_X(self, X, fitting=False):
        return _check_counts(X, n_features=None if fitting else self.feature_count_.shape[1])

    def _fit(self, X, Y):
        alpha = _check_alpha(self.alpha)
        self.feature_count_ = np.asarray(X.T @ Y).T
        total = self.feature_count_.sum(axis=1)
        if alpha == 0 and np.any(total == 0):
            empty = self.classes_[total == 0].tolist()
            raise ValueError(f"class(es) {empty!r} contain no words at all and alpha=0: their "
                             f"word probabilities are 0/0; use alpha > 0")
        smoothed = self.feature_count_ + alpha
        self.feature_log_prob_ = _safe_log(smoothed) - np.log(smoothed.sum(axis=1, keepdims=True))

    def _joint_log_likelihood(self, X):
        out, hits = _masked_matmul(X, self.feature_log_prob_)
        if hits is not None:
            out[hits] = -np.inf
        return out

    def _linear(self):
        flp = self.feature_log_prob_
        with np.errstate(invalid="ignore"):
            w = flp[1] - flp[0]
        return w, self.class_log_prior_[1] - self.class_log_prior_[0]


class BernoulliNB(_BinaryTextMixin, _BaseNB):
    """Bernoulli event model (CS229): a document is the set of words it contains.

    ``phi_{k,w} = (n_{k,w} + alpha) / (n_k + 2 alpha)`` with ``n_{k,w}`` the number of class-k
    documents containing word ``w``; ``log P(x|k) = sum_w [x_w log phi + (1 - x_w) log(1 - phi)]``
    over the whole vocabulary, computed as ``sum_w log(1-phi)`` plus a sparse correction.

    Parameters
    ----------
    alpha : float >= 0, default 1.0
    binarize : float >= 0 or None, default 0.0
        Counts above this are "present"; None means X is already 0/1.

    Attributes
    ----------
    classes_, class_count_ (K,), class_log_prior_ (K,)
    feature_count_ : (K, V) number of documents of each class containing each word
    feature_log_prob_ : (K, V) ``log phi``; ``feature_log_prob_neg_`` (K, V) ``log(1 - phi)``

    Examples
    --------
    >>> X = np.array([[2, 1, 0], [3, 0, 0], [0, 1, 2], [0, 0, 3]])
    >>> nb = BernoulliNB(alpha=1.0).fit(X, [0, 0, 1, 1])
    >>> np.exp(nb.feature_log_prob_).round(2)
    array([[0.75, 0.5 , 0.25],
           [0.25, 0.5 , 0.75]])
    >>> nb.predict_proba([[0, 0, 5]]).round(3)
    array([[0.1, 0.9]])
    """

    def __init__(self, alpha=1.0, binarize=0.0):
        self.alpha = alpha
        self.binarize = binarize

    def _check_X(self, X, fitting=False):
        t = self.binarize
        if t is not None:
            t = check_scalar(t, "binarize", low=0.0)
        X = _check_counts(X, n_features=None if fitting else self.feature_count_.shape[1],
                          binary=t is None)
        if t is None:
            return X
        if sp.issparse(X):
            X = X.copy()
            X.data = (X.data > t).astype(np.float64)
            X.eliminate_zeros()
            return X
        return (X > t).astype(np.float64)

    def _fit(self, X, Y):
        alpha = _check_alpha(self.alpha)
        self.feature_count_ = np.asarray(X.T @ Y).T
        denom = np.log(self.class_count_ + 2 * alpha)[:, None]
        self.feature_log_prob_ = _safe_log(self.feature_count_ + alpha) - denom
        self.feature_log_prob_neg_ = (_safe_log(self.class_count_[:, None] - self.feature_count_
                                                + alpha) - denom)

    def _joint_log_likelihood(self, X):
        lp, ln = self.feature_log_prob_, self.feature_log_prob_neg_
        fin_n = np.isfinite(ln)
        ln0 = np.where(fin_n, ln, 0.0)
        out, hits = _masked_matmul(X, np.where(np.isfinite(lp), lp, -np.inf) - ln0)
        out += ln0.sum(axis=1)
        impossible = hits if hits is not None else np.zeros(out.shape, bool)
        if not fin_n.all():  # an absent word that every training document of the class had
            absent_hits = (~fin_n).sum(axis=1) - np.asarray(X @ (~fin_n).T.astype(np.float64))
            impossible = impossible | (absent_hits > 0)
        out[impossible] = -np.inf
        return out

    def _linear(self):
        lp, ln = self.feature_log_prob_, self.feature_log_prob_neg_
        with np.errstate(invalid="ignore"):
            w = (lp[1] - ln[1]) - (lp[0] - ln[0])
            b = ln[1].sum() - ln[0].sum()
        return w, b + self.class_log_prior_[1] - self.class_log_prior_[0]


# --------------------------------------------------------------------------- categorical
def _check_table(X, name="X", *, n_features=None):
    """An (n, d) object array of category values; ragged rows and missing values refused."""
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a table (rows of values), got the string {X!r}")
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
                         f"{arr.shape}" + (" (for one row use [row])" if arr.ndim == 1 else ""))
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}); pass at least one row and feature")
    for (i, j), v in np.ndenumerate(arr):
        if v is None or (isinstance(v, float) and not np.isfinite(v)):
            raise ValueError(f"{name}[{i}, {j}] is missing ({v!r}); fill or drop it first")
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(f"{name} has {arr.shape[1]} features per row but the model was fitted "
                         f"with {n_features}")
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
    classes_, class_count_ (K,), class_log_prior_ (K,)
    feature_names_ : list of d names; categories_ : list of d arrays of sorted values
    category_count_ : list of d arrays (K, n_j), the count tables per class
    feature_log_prob_ : list of d arrays (K, n_j), log of the smoothed conditional probabilities

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
        alpha = _check_alpha(self.alpha)
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

    def _check_X(self, X, fitting=False):
        return _check_table(X, n_features=None if fitting else len(self.categories_))

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

    def conditional_table(self, j):
        """The smoothed ``P(X_j = v | y = k)`` of feature ``j`` (index or name): (K, n_j)."""
        check_fitted(self, "classes_")
        if isinstance(j, str):
            if j not in self.feature_names_:
                raise ValueError(f"j must be a feature index or one of {self.feature_names_}, "
                                 f"got {j!r}")
            j = self.feature_names_.index(j)
        j = check_int(j, "j", low=0, high=len(self.categories_) - 1)
        return np.exp(self.feature_log_prob_[j])

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

    def _joint_log_likelihood(self, X):
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


# --------------------------------------------------------------------------- Gaussian
class GaussianNB(_BaseNB):
    """Gaussian naive Bayes: feature ``j`` given class ``k`` is ``N(theta_kj, var_kj)``.

    The class-conditional density is a Gaussian with a *diagonal* covariance (axis-aligned
    ellipses), unlike GDA's full (shared) covariance. Variances are maximum-likelihood (divide
    by ``N_k``) plus ``epsilon_ = var_smoothing * max_j var(X_j)``, as scikit-learn's.

    Parameters
    ----------
    var_smoothing : float >= 0, default 1e-9
        Fraction of the largest feature variance added to every variance, for stability.

    Attributes
    ----------
    classes_, class_count_ (K,), class_log_prior_ (K,)
    theta_ : (K, d) class means; var_ : (K, d) class variances; epsilon_ : float

    Raises
    ------
    ValueError
        NaN/inf in X; a zero variance (a feature constant within a class) with
        ``var_smoothing = 0``.

    Examples
    --------
    >>> X = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 4.0], [6.0, 8.0]])
    >>> nb = GaussianNB(var_smoothing=0).fit(X, [0, 0, 1, 1])
    >>> nb.theta_, nb.var_
    (array([[1., 2.],
           [5., 6.]]), array([[1., 1.],
           [1., 4.]]))
    >>> nb.predict_proba([[3.0, 3.5]]).round(3)
    array([[0.586, 0.414]])
    """

    def __init__(self, var_smoothing=1e-9):
        self.var_smoothing = var_smoothing

    def _check_X(self, X, fitting=False):
        return check_points(X, "X", d=None if fitting else self.theta_.shape[1])

    def _fit(self, X, Y):
        vs = check_scalar(self.var_smoothing, "var_smoothing", low=0.0)
        counts = Y.sum(axis=0)[:, None]
        self.theta_ = (Y.T @ X) / counts
        # two-pass variance (accurate): mean of (x - mean)^2 per class
        var = np.stack([((X[Y[:, k] > 0] - self.theta_[k]) ** 2).mean(axis=0)
                        for k in range(Y.shape[1])])
        self.epsilon_ = float(vs * np.max(np.var(X, axis=0)))
        self.var_ = var + self.epsilon_
        if np.any(self.var_ <= 0):
            k, j = np.argwhere(self.var_ <= 0)[0]
            raise ValueError(f"feature {j} is constant within class {self.classes_.tolist()[k]!r} (zero "
                             f"variance): the Gaussian has no density; pass var_smoothing > 0 "
                             f"(e.g. the default 1e-9)")

    def _joint_log_likelihood(self, X):
        const = -0.5 * np.sum(np.log(2.0 * np.pi * self.var_), axis=1)
        sq = ((X[:, None, :] - self.theta_[None]) ** 2 / self.var_[None]).sum(axis=2)
        return const - 0.5 * sq


# --------------------------------------------------------------------------- kernel density
_BANDWIDTH_METHODS = ("silverman", "scott", "lscv", "loo-likelihood")


def _log_kde(x, data, h, kernel):
    """``log kde_pdf(x)``; for the Gaussian kernel, points in the far tails (where the density
    underflows to 0) get the exact value by logsumexp instead of ``log 0``."""
    from genviz.kde import kde_pdf

    logp = _safe_log(kde_pdf(x, data, h, kernel))
    far = np.isneginf(logp)
    if kernel == "gaussian" and far.any():
        u = (x[far, None] - data[None, :]) / h
        logp[far] = (logsumexp(-0.5 * u ** 2, axis=1)
                     - np.log(data.size * h * np.sqrt(2.0 * np.pi)))
    return logp


class KDENB(_BaseNB):
    """Naive Bayes with a one-dimensional kernel density estimate per feature and class.

    ``P(x_j | y=k)`` is the KDE (:func:`genviz.kde.kde_pdf`) of feature ``j`` over the class-k
    training rows, so a class density may be skewed or multimodal, which a Gaussian cannot be.

    Parameters
    ----------
    bandwidth : float > 0 or str, default "silverman"
        One bandwidth for every feature and class, or a rule / CV method of
        :func:`genviz.kde.select_bandwidth` applied to each feature of each class:
        "silverman", "scott", "lscv", "loo-likelihood".
    kernel : str, default "gaussian"
        A kernel of :data:`genviz.kde.KERNELS`. Compact kernels give density 0 away from the
        data, so a point far from every class has posterior 0/0 (a clear error).

    Attributes
    ----------
    classes_, class_count_ (K,), class_log_prior_ (K,)
    bandwidth_ : (K, d) the bandwidth of each class and feature

    Examples
    --------
    >>> X = np.array([[-2.1], [-1.9], [2.0], [2.2], [0.1], [-0.1]])
    >>> nb = KDENB(bandwidth=0.3).fit(X, ["a", "a", "a", "a", "b", "b"])  # class a is bimodal
    >>> nb.predict([[-2.0], [0.0], [2.1]]).tolist()
    ['a', 'b', 'a']
    """

    def __init__(self, bandwidth="silverman", kernel="gaussian"):
        self.bandwidth = bandwidth
        self.kernel = kernel

    def _check_X(self, X, fitting=False):
        return check_points(X, "X", d=None if fitting else self.bandwidth_.shape[1])

    def _fit(self, X, Y):
        from genviz.kde import KERNELS, select_bandwidth

        if not isinstance(self.kernel, str) or self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        bw = self.bandwidth
        if isinstance(bw, str):
            if bw not in _BANDWIDTH_METHODS:
                raise ValueError(f"bandwidth must be a number > 0 or one of {_BANDWIDTH_METHODS}, "
                                 f"got {bw!r}")
        else:
            bw = check_scalar(bw, "bandwidth", low=0.0, low_open=True)
        self._data = [X[Y[:, k] > 0] for k in range(Y.shape[1])]
        self.bandwidth_ = np.empty((Y.shape[1], X.shape[1]))
        for k, Xk in enumerate(self._data):
            for j in range(X.shape[1]):
                if not isinstance(bw, str):
                    self.bandwidth_[k, j] = bw
                    continue
                try:
                    self.bandwidth_[k, j] = select_bandwidth(Xk[:, j], bw, self.kernel)
                except ValueError as exc:
                    raise ValueError(f"cannot choose a bandwidth for feature {j} of class "
                                     f"{self.classes_.tolist()[k]!r} ({Xk.shape[0]} rows): {exc}; "
                                     f"pass a number, e.g. bandwidth=0.5") from None

    def feature_log_density(self, X):
        """``log P(x_j | y=k)`` for every row, class and feature: (n, K, d)."""
        check_fitted(self, "classes_")
        X = self._check_X(X)
        out = np.empty((X.shape[0], self.classes_.size, X.shape[1]))
        for k, Xk in enumerate(self._data):
            for j in range(X.shape[1]):
                out[:, k, j] = _log_kde(X[:, j], Xk[:, j], self.bandwidth_[k, j], self.kernel)
        return out

    def _joint_log_likelihood(self, X):
        return self.feature_log_density(X).sum(axis=2)


# --------------------------------------------------------------------------- evaluation
def leave_one_out_predict(model, X, y, **fit_params):
    """Leave-one-out predictions: row ``i`` predicted by a copy of ``model`` fitted without it.

    Parameters
    ----------
    model : a naive Bayes estimator (its hyperparameters are copied; it is not refitted)
    X, y : the training data; ``fit_params`` are passed to ``fit`` (e.g. ``feature_names``)

    Returns
    -------
    ndarray of object, shape (n,)
        The predicted label of each row, or None where the held-out row cannot be classified
        (alpha = 0 and a value unseen in the other rows, or posterior 0/0): count it as an error.

    Examples
    --------
    >>> X = [["a"], ["a"], ["a"], ["b"], ["b"], ["b"]]
    >>> leave_one_out_predict(CategoricalNB(alpha=1), X, [0, 0, 0, 1, 1, 0]).tolist()
    [0, 0, 0, 0, 0, 1]
    """
    params = {name: getattr(model, name)
              for name in inspect.signature(type(model).__init__).parameters if name != "self"}
    X = X if sp.issparse(X) else np.asarray(X, dtype=object if isinstance(model, CategoricalNB)
                                            else None)
    y = np.asarray(y)
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"y has {y.shape[0]} labels but X has {X.shape[0]} rows; they must match")
    out = np.empty(y.shape[0], dtype=object)
    keep = np.ones(y.shape[0], dtype=bool)
    for i in range(y.shape[0]):
        keep[i] = False
        fitted = type(model)(**params).fit(X[keep], y[keep], **fit_params)
        try:
            out[i] = fitted.predict(X[i:i + 1]).tolist()[0]
        except ValueError:
            out[i] = None
        keep[i] = True
    return out


def discretize(x, edges):
    """Bin a continuous feature as the CS229 notes do: value ``i`` for the ``i``-th interval.

    With edges ``e_1 < ... < e_m`` the bins are ``x < e_1`` (1), ``e_1 <= x < e_2`` (2), ...,
    ``x >= e_m`` (m + 1).

    Examples
    --------
    >>> discretize([350, 890, 1600, 2000], [400, 800, 1200, 1600])   # the notes' living areas
    array([1, 3, 5, 5])
    """
    from genviz._validation import check_vector

    x = check_vector(x, "x")
    edges = check_vector(edges, "edges")
    if edges.size == 0 or np.any(np.diff(edges) <= 0):
        raise ValueError(f"edges must be a non-empty, strictly increasing sequence, got "
                         f"{edges.tolist()}")
    return np.searchsorted(edges, x, side="right") + 1
