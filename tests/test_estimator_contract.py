"""One estimator contract, run against every genviz estimator (as scikit-learn's
``check_estimator`` and KDEpy's ``test_api.py`` do).

Every estimator: validates X and y through ``genviz._validation`` (the same bad input gives the
same message everywhere), raises ``genviz.NotFittedError`` (a ValueError) before ``fit``, has
``fit`` return ``self``, is deterministic, survives a pickle round trip with identical
predictions, refuses a query with the wrong number of features. Every classifier:
``predict == classes_[argmax(predict_proba)]``, ``exp(predict_log_proba) == predict_proba``,
rows finite and summing to 1. Every generative classifier (GDA, the five naive Bayes models)
names its unnormalised joint ``predict_joint_log_proba`` and the posterior is that joint
normalised.
"""

import pickle

import numpy as np
import pytest
from scipy.special import logsumexp

import genviz
from genviz._validation import NotFittedError
from genviz.gda import GDA
from genviz.kde_classifier import KDEClassifier
from genviz.knn import KNNClassifier, KNNRegressor
from genviz.logistic import LogisticRegression
from genviz.naive_bayes import (KDENB, BernoulliNB, CategoricalNB, GaussianNB,
                                MultinomialNB)

RNG = np.random.default_rng(0)


def _continuous(n=40, d=2, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, d)) + 1.2 * y[:, None]
    return X, y


def _counts(n=40, d=5, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    rates = np.where(y[:, None] == 1, np.linspace(1, 3, d), np.linspace(3, 1, d))
    return rng.poisson(rates).astype(float), y


def _categorical(n=40, d=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(["no", "yes"], n // 2)
    X = np.where(rng.random((n, d)) < np.where(y[:, None] == "yes", 0.7, 0.3), "a", "b")
    X[0, :] = "c"  # a third value
    return X.astype(object), y


# name -> (factory, data maker, kind): kind is "generative", "discriminative" or "regressor"
ESTIMATORS = {
    "GDA(shared)": (lambda: GDA(), _continuous, "generative"),
    "GDA(separate)": (lambda: GDA(shared_cov=False), _continuous, "generative"),
    "LogisticRegression": (lambda: LogisticRegression(), _continuous, "discriminative"),
    "CategoricalNB": (lambda: CategoricalNB(alpha=1.0), _categorical, "generative"),
    "BernoulliNB": (lambda: BernoulliNB(), _counts, "generative"),
    "MultinomialNB": (lambda: MultinomialNB(), _counts, "generative"),
    "GaussianNB": (lambda: GaussianNB(), _continuous, "generative"),
    "KDENB": (lambda: KDENB(bandwidth=0.5), _continuous, "generative"),
    "KDEClassifier": (lambda: KDEClassifier(), _continuous, "generative"),
    "KNNClassifier": (lambda: KNNClassifier(k=5), _continuous, "discriminative"),
    "KNNRegressor": (lambda: KNNRegressor(k=5), _continuous, "regressor"),
}
NAMES = list(ESTIMATORS)
CLASSIFIERS = [n for n in NAMES if ESTIMATORS[n][2] != "regressor"]
GENERATIVE = [n for n in NAMES if ESTIMATORS[n][2] == "generative"]
NUMERIC_X = [n for n in NAMES if n != "CategoricalNB"]


def _make(name):
    factory, data, _ = ESTIMATORS[name]
    X, y = data()
    if name == "KNNRegressor":
        y = X[:, 0] + 0.5 * y
    return factory(), X, y


def _methods(name):
    kind = ESTIMATORS[name][2]
    if kind == "regressor":
        return ["predict"]
    out = ["predict", "predict_proba", "predict_log_proba"]
    return out + ["predict_joint_log_proba"] if kind == "generative" else out


# ------------------------------------------------------------------ fitting and fitted state
@pytest.mark.parametrize("name", NAMES)
def test_not_fitted_error_before_fit(name):
    est, X, _ = _make(name)
    assert genviz.NotFittedError is NotFittedError and issubclass(NotFittedError, ValueError)
    for method in _methods(name):
        with pytest.raises(NotFittedError, match=f"this {type(est).__name__} is not fitted yet"):
            getattr(est, method)(X[:2])


@pytest.mark.parametrize("name", NAMES)
def test_fit_returns_self_and_is_deterministic(name):
    est, X, y = _make(name)
    assert est.fit(X, y) is est
    other = _make(name)[0].fit(X, y)
    for method in _methods(name):
        np.testing.assert_array_equal(getattr(est, method)(X), getattr(other, method)(X))
        np.testing.assert_array_equal(getattr(est, method)(X), getattr(est, method)(X))


@pytest.mark.parametrize("name", NAMES)
def test_pickle_round_trip_gives_identical_predictions(name):
    est, X, y = _make(name)
    est.fit(X, y)
    clone = pickle.loads(pickle.dumps(est))
    for method in _methods(name):
        np.testing.assert_array_equal(getattr(clone, method)(X), getattr(est, method)(X))


# ------------------------------------------------------------------ classifier consistency
@pytest.mark.parametrize("name", CLASSIFIERS)
def test_predict_is_argmax_of_predict_proba(name):
    est, X, y = _make(name)
    est.fit(X, y)
    proba = est.predict_proba(X)
    assert proba.shape == (X.shape[0], len(est.classes_))
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(proba, axis=1)])
    assert set(np.unique(y).tolist()) == set(est.classes_.tolist())


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_log_proba_and_proba_agree_rows_sum_to_one(name):
    est, X, y = _make(name)
    est.fit(X, y)
    log_p, p = est.predict_log_proba(X), est.predict_proba(X)
    np.testing.assert_array_equal(np.exp(log_p), p)
    assert np.all(np.isfinite(p)) and not np.any(np.isnan(log_p))
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", GENERATIVE)
def test_generative_posterior_is_the_normalised_joint(name):
    est, X, y = _make(name)
    est.fit(X, y)
    joint = est.predict_joint_log_proba(X)
    np.testing.assert_allclose(est.predict_log_proba(X),
                               joint - logsumexp(joint, axis=1, keepdims=True), atol=1e-10)


@pytest.mark.parametrize("name", NAMES)
def test_one_name_per_quantity(name):
    est, X, y = _make(name)
    est.fit(X, y)
    for old in ("joint_log_likelihood", "_joint_log_likelihood"):
        assert not hasattr(est, old), f"{name} still has {old}; use predict_joint_log_proba"
    has_joint = hasattr(est, "predict_joint_log_proba")
    assert has_joint == (name in GENERATIVE)


# ------------------------------------------------------------------ input validation
@pytest.mark.parametrize("name", NAMES)
def test_wrong_number_of_features_at_predict(name):
    est, X, y = _make(name)
    est.fit(X, y)
    wider = np.concatenate([X, X[:, :1]], axis=1)
    for method in _methods(name):
        with pytest.raises(ValueError, match=rf"X has {X.shape[1] + 1} feature"):
            getattr(est, method)(wider)


def _label_error(name, y_bad, exc):
    est, X, _ = _make(name)
    with pytest.raises(exc) as info:
        est.fit(X, y_bad)
    return str(info.value)


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_labels_longer_than_X_refused_with_one_message(name):
    est, X, y = _make(name)
    message = _label_error(name, np.concatenate([y, y[:1]]), ValueError)
    assert message == (f"y has {X.shape[0] + 1} labels but X has {X.shape[0]} rows; they must "
                       f"match (one label per row)")


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_a_single_label_is_not_broadcast(name):
    est, X, y = _make(name)
    msg = _label_error(name, y[0], ValueError)
    assert msg.startswith("y must be a 1-D array of labels, got the single value")
    msg = _label_error(name, y[:1], ValueError)
    assert msg.startswith("y has 1 labels but X has")


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_mixed_type_labels_give_a_clear_type_error(name):
    _, X, y = _make(name)
    mixed = ["a"] + [1] * (X.shape[0] - 1)
    msg = _label_error(name, mixed, TypeError)
    assert msg.startswith("y mixes label types (number, string)")


@pytest.mark.parametrize("name", CLASSIFIERS)
@pytest.mark.parametrize("missing", [None, np.nan])
def test_missing_labels_refused(name, missing):
    _, X, y = _make(name)
    bad = list(y)
    bad[3] = missing
    msg = _label_error(name, bad, (ValueError, TypeError))
    assert msg.startswith("y") and ("None" in msg or "NaN" in msg)


@pytest.mark.parametrize("name", NUMERIC_X)
@pytest.mark.parametrize("bad, exc, match", [
    ("strings", TypeError, "X must be numeric, got strings"),
    ("complex", TypeError, r"X must be numeric \(real\), got complex"),
    ("none", TypeError, "X contains None"),
    ("nan", ValueError, "X contains 1 NaN or infinite"),
])
def test_bad_X_refused_at_fit_and_predict(name, bad, exc, match):
    est, X, y = _make(name)
    Xb = X.astype(object) if bad == "none" else X.astype(str) if bad == "strings" \
        else X.astype(complex) if bad == "complex" else X.copy()
    if bad == "none":
        Xb[1, 1] = None
    elif bad == "nan":
        Xb[1, 1] = np.nan
    with pytest.raises(exc, match=match):
        est.fit(Xb, y)
    est.fit(X, y)
    with pytest.raises(exc, match=match):
        est.predict(Xb)


def test_categorical_missing_values_refused():
    est, X, y = _make("CategoricalNB")
    X = X.copy()
    X[2, 1] = None
    with pytest.raises(ValueError, match=r"X\[2, 1\] is missing"):
        est.fit(X, y)


def test_every_estimator_is_covered():
    """A new estimator class must be added to ESTIMATORS (the contract covers all)."""
    import genviz.gda
    import genviz.kde_classifier
    import genviz.knn
    import genviz.logistic
    import genviz.naive_bayes

    found = set()
    for mod in (genviz.gda, genviz.kde_classifier, genviz.knn, genviz.logistic,
                genviz.naive_bayes):
        for attr in mod.__all__:
            obj = getattr(mod, attr)
            if isinstance(obj, type) and hasattr(obj, "fit"):
                found.add(obj.__name__)
    covered = {type(ESTIMATORS[n][0]()).__name__ for n in NAMES}
    assert found == covered
