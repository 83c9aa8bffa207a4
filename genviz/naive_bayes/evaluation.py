"""Leave-one-out evaluation of a naive Bayes classifier."""

from __future__ import annotations

import inspect

import numpy as np
import scipy.sparse as sp

from genviz._validation import check_labels
from genviz.naive_bayes.categorical import CategoricalNB

__all__ = ["leave_one_out_accuracy", "leave_one_out_predict"]


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
    if X.ndim != 2:
        raise ValueError(f"X must be 2-dimensional (n_samples, n_features), got shape {X.shape}")
    y = check_labels(y, X.shape[0])
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


def leave_one_out_accuracy(model, X, y, **fit_params) -> float:
    """Leave-one-out accuracy: the share of rows that :func:`leave_one_out_predict` gets right.

    A row that cannot be classified without itself (prediction None) counts as an error, as
    scikit-learn's ``cross_val_score(model, X, y, cv=LeaveOneOut())`` would count a wrong label.

    Parameters
    ----------
    model, X, y, fit_params : as :func:`leave_one_out_predict`

    Returns
    -------
    float in [0, 1]

    Examples
    --------
    >>> X = [["a"], ["a"], ["a"], ["b"], ["b"], ["b"]]
    >>> leave_one_out_accuracy(CategoricalNB(alpha=1), X, [0, 0, 0, 1, 1, 0])  # rows 0-2 right
    0.5
    """
    pred = leave_one_out_predict(model, X, y, **fit_params)
    y = check_labels(y, pred.shape[0])
    return float(np.mean([p is not None and p == t for p, t in zip(pred.tolist(), y.tolist())]))
