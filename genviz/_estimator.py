"""The scikit-learn estimator API, shared by every genviz estimator (private).

One base class gives every estimator what scikit-learn's tools (``clone``,
``cross_val_score``, ``Pipeline``, ``GridSearchCV``) and its test suite
(``sklearn.utils.estimator_checks``) expect of an estimator:

- ``get_params``/``set_params`` read from the ``__init__`` signature (``__init__`` stores its
  arguments unchanged and does nothing else; ``fit`` validates them, so a bad value set by
  ``set_params`` or a grid search is refused at ``fit`` with the parameter's name);
- a ``__repr__`` that shows the parameters changed from their defaults, as scikit-learn's;
- ``score``: accuracy for classifiers (:class:`ClassifierMixin`), R² for regressors
  (:class:`RegressorMixin`);
- ``__sklearn_tags__``, which says what input the estimator accepts (counts, categories,
  sparse matrices, binary labels only, ...). Only scikit-learn calls it, so scikit-learn is
  loaded then: it takes scikit-learn's tag classes from the loaded module (``sys.modules``).
  No genviz module imports scikit-learn (a test dependency only), at import time or later.

Learned attributes end with ``_`` and are set by ``fit`` only (never by ``__init__``), so
scikit-learn's ``check_is_fitted`` works; predicting before ``fit`` raises
:class:`genviz.NotFittedError` (see :func:`genviz._validation.check_fitted`).
"""

from __future__ import annotations

import functools
import inspect
import sys
import types

import numpy as np

from genviz._validation import check_labels, check_sample_weight, check_targets

__all__ = ["BaseEstimator", "ClassifierMixin", "RegressorMixin", "BinaryOnlyError",
           "binary_only"]


class BinaryOnlyError(ValueError, AttributeError):
    """A two-class method of a model fitted with another number of classes.

    A ValueError (what it is) and an AttributeError, so that ``hasattr(model, method)`` is
    False on such a model: scikit-learn's tools then do without the method, as they do for its
    own estimators' methods that exist only in some configurations.
    """


class binary_only:
    """Decorator: a method that exists only on models fitted with exactly two classes.

    Before ``fit`` it is there (and raises :class:`genviz.NotFittedError` when called); on a
    fitted model with K != 2 classes, reading it raises :class:`BinaryOnlyError` naming K.
    """

    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        classes = obj.__dict__.get("classes_")
        if classes is not None and len(classes) != 2:
            raise BinaryOnlyError(f"{self.fn.__name__} needs exactly two classes; this model was "
                                  f"fitted with {len(classes)}: {classes.tolist()!r}")
        return types.MethodType(self.fn, obj)


class BaseEstimator:
    """Parameters, repr and scikit-learn tags of a genviz estimator.

    Subclasses list their hyperparameters as keyword arguments of ``__init__`` (with defaults),
    store each one under its own name, and validate them in ``fit`` (``_validate_params``).
    ``_tags`` (a class attribute, merged along the MRO) overrides scikit-learn tags by dotted
    name, e.g. ``{"input_tags.positive_only": True}``.
    """

    _tags: dict = {}

    # -- parameters ------------------------------------------------------------------------------
    @classmethod
    def _get_param_names(cls) -> list[str]:
        init = cls.__init__
        if init is object.__init__:
            return []
        params = [p for p in inspect.signature(init).parameters.values() if p.name != "self"]
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{cls.__name__}.__init__ must list its parameters explicitly "
                                f"(no *args/**kwargs), got {p}")
        return sorted(p.name for p in params)

    def get_params(self, deep: bool = True) -> dict:
        """The hyperparameters as a dict ``{name: value}`` (scikit-learn's API).

        Parameters
        ----------
        deep : bool, default True
            Also list the parameters of parameters that are estimators, as ``name__param``.

        Returns
        -------
        dict

        Examples
        --------
        >>> from genviz.gda import GDA
        >>> GDA(reg=0.1).get_params()
        {'reg': 0.1, 'shared_cov': True}
        """
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params().items())
            out[name] = value
        return out

    def set_params(self, **params):
        """Set hyperparameters by name (scikit-learn's API); returns ``self``.

        Values are not checked here: ``fit`` checks them and names the parameter.

        Raises
        ------
        ValueError
            For a name that is not a parameter of this estimator (the valid ones are listed).

        Examples
        --------
        >>> from genviz.knn import KNNClassifier
        >>> KNNClassifier().set_params(k=3)
        KNNClassifier(k=3)
        """
        valid = self._get_param_names()
        nested: dict[str, dict] = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if name not in valid:
                raise ValueError(f"{key!r} is not a parameter of {type(self).__name__}; its "
                                 f"parameters are {valid}")
            if sep:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub in nested.items():
            getattr(self, name).set_params(**sub)
        return self

    def _validate_params(self) -> None:
        """Check the hyperparameters (called first thing in ``fit``); subclasses override."""

    def __repr__(self) -> str:
        sig = inspect.signature(type(self).__init__).parameters
        shown = []
        for name in self._get_param_names():
            value = getattr(self, name)
            default = sig[name].default
            same = value is default
            if not same:
                try:
                    same = bool(type(value) is type(default) and value == default)
                except (TypeError, ValueError):  # arrays and other ambiguous comparisons
                    same = False
            if not same:
                shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    # -- scikit-learn tags -----------------------------------------------------------------------
    @classmethod
    def _merged_tags(cls) -> dict:
        out: dict = {}
        for klass in reversed(cls.__mro__):
            out.update(klass.__dict__.get("_tags", {}))
        return out

    def __sklearn_tags__(self):
        """scikit-learn's description of this estimator (only scikit-learn calls this).

        The tag classes come from scikit-learn's already loaded ``sklearn.utils`` (its caller):
        genviz never imports scikit-learn.
        """
        sk = sys.modules.get("sklearn.utils")
        if sk is None:
            raise RuntimeError("__sklearn_tags__ is scikit-learn's hook: call it through "
                               "scikit-learn (e.g. sklearn.utils.get_tags(estimator))")
        Tags, TargetTags, InputTags = sk.Tags, sk.TargetTags, sk.InputTags
        ClassifierTags, RegressorTags = sk.ClassifierTags, sk.RegressorTags
        tags = Tags(estimator_type=None, target_tags=TargetTags(required=True),
                    input_tags=InputTags())
        if isinstance(self, ClassifierMixin):
            tags.estimator_type = "classifier"
            tags.classifier_tags = ClassifierTags()
        elif isinstance(self, RegressorMixin):
            tags.estimator_type = "regressor"
            tags.regressor_tags = RegressorTags()
        for dotted, value in self._merged_tags().items():
            *path, leaf = dotted.split(".")
            target = tags
            for part in path:
                target = getattr(target, part)
            if not hasattr(target, leaf):
                raise AttributeError(f"{type(self).__name__}._tags: unknown tag {dotted!r}")
            setattr(target, leaf, value)
        return tags


def _scored(model, X, y, sample_weight, check_y):
    """What both ``score`` methods compare: the predictions on ``X``, ``y`` checked by
    ``check_y`` (labels or targets) against their number, and the checked weights."""
    pred = model.predict(X)
    return (pred, check_y(y, pred.shape[0], "y"),
            check_sample_weight(sample_weight, pred.shape[0]))


class ClassifierMixin:
    """``score`` = accuracy, as scikit-learn's classifiers."""

    def score(self, X, y, sample_weight=None) -> float:
        """Accuracy: the (weighted) fraction of rows of ``X`` whose prediction equals ``y``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
        y : array_like of shape (n_samples,)
            True labels.
        sample_weight : array_like of shape (n_samples,), optional
            Non-negative weights.

        Returns
        -------
        float

        Examples
        --------
        >>> from genviz.knn import KNNClassifier
        >>> KNNClassifier(k=1).fit([[0.0], [1.0]], [0, 1]).score([[0.1], [0.2]], [0, 1])
        0.5
        """
        pred, y, w = _scored(self, X, y, sample_weight, check_labels)
        return float(np.average(pred == y, weights=w))


class RegressorMixin:
    """``score`` = coefficient of determination R², as scikit-learn's regressors."""

    def score(self, X, y, sample_weight=None) -> float:
        """R² = 1 - SS_res / SS_tot of the predictions (averaged over outputs if y is 2-D).

        A constant ``y`` gives 1.0 when predicted exactly, else 0.0 (scikit-learn's
        convention), never NaN or -inf.

        Examples
        --------
        >>> from genviz.knn import KNNRegressor
        >>> KNNRegressor(k=1).fit([[0.0], [1.0]], [0.0, 2.0]).score([[0.0], [1.0]], [0.0, 2.0])
        1.0
        """
        pred, y, w = _scored(self, X, y, sample_weight, check_targets)
        y2 = y.reshape(y.shape[0], -1)
        p2 = pred.reshape(pred.shape[0], -1)
        if p2.shape[1] != y2.shape[1]:
            raise ValueError(f"y has {y2.shape[1]} output(s) but the model predicts "
                             f"{p2.shape[1]}")
        ww = np.ones(y2.shape[0]) if w is None else w
        res = np.sum(ww[:, None] * (y2 - p2) ** 2, axis=0)
        tot = np.sum(ww[:, None] * (y2 - np.average(y2, axis=0, weights=ww)) ** 2, axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = np.where(tot > 0, 1.0 - res / np.where(tot > 0, tot, 1.0),
                          np.where(res == 0, 1.0, 0.0))
        return float(np.mean(r2))
