"""genviz estimators inside scikit-learn's tools: clone, score, cross-validation, pipelines,
grid search, one-vs-rest; hyperparameters checked at fit; genviz's own errors from inside
those tools; and scikit-learn never imported by genviz itself.

The oracle is scikit-learn: the same data, folds and regularisation give the same scores as its
own estimators (LDA for GDA, LogisticRegression with C = 1 / l2, KNeighborsClassifier, ...).
"""

import pickle
import subprocess
import sys
import traceback

import numpy as np
import pytest

pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.exceptions import NotFittedError as SkNotFittedError  # noqa: E402
from sklearn.linear_model import LogisticRegression as SkLogisticRegression  # noqa: E402
from sklearn.metrics import accuracy_score, r2_score  # noqa: E402
from sklearn.model_selection import (GridSearchCV, StratifiedKFold,  # noqa: E402
                                     cross_val_score)
from sklearn.multiclass import OneVsRestClassifier  # noqa: E402
from sklearn.naive_bayes import MultinomialNB as SkMultinomialNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

import genviz  # noqa: E402
from genviz._estimator import BaseEstimator, BinaryOnlyError  # noqa: E402
from genviz._validation import ComplexDataError  # noqa: E402
from genviz.gda import GDA  # noqa: E402
from genviz.kde_classifier import KDEClassifier  # noqa: E402
from genviz.knn import KNNClassifier, KNNRegressor  # noqa: E402
from genviz.logistic import LogisticRegression  # noqa: E402
from genviz.naive_bayes import (KDENB, BernoulliNB, CategoricalNB, GaussianNB,  # noqa: E402
                                MultinomialNB)
from test_sklearn_checks import ESTIMATORS  # noqa: E402


def blobs(n=120, d=2, seed=0, k=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = rng.normal(size=(n, d)) @ np.array([[1.0, 0.4], [0.0, 0.8]])[:d, :d] + 1.1 * y[:, None]
    return X, y


def counts(n=80, d=6, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    rates = np.where(y[:, None] == 1, np.linspace(1, 3, d), np.linspace(3, 1, d))
    return rng.poisson(rates).astype(float), y


FOLDS = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)


# ------------------------------------------------------------------ genviz never imports it
def test_importing_genviz_and_every_estimator_module_loads_no_sklearn():
    code = ("import sys, genviz, genviz.gda, genviz.logistic, genviz.knn, genviz.naive_bayes, "
            "genviz.kde_classifier, genviz._estimator\n"
            "from genviz.gda import GDA\n"
            "GDA().fit([[0.0], [1.0], [3.0], [4.0]], [0, 0, 1, 1]).predict([[2.0]])\n"
            "try:\n    GDA().predict([[1.0]])\nexcept genviz.NotFittedError as e:\n"
            "    assert type(e) is genviz.NotFittedError\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sklearn'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_clone_get_params_set_params_round_trip(cls):
    est = cls()
    params = est.get_params()
    assert sorted(params) == sorted(cls._get_param_names()) and params
    twin = clone(est)
    assert type(twin) is cls and twin.get_params() == params
    name = sorted(params)[0]
    value = object()
    assert est.set_params(**{name: value}) is est and est.get_params()[name] is value
    with pytest.raises(ValueError, match=f"'nope' is not a parameter of {cls.__name__}"):
        est.set_params(nope=1)
    assert repr(cls()) == f"{cls.__name__}()"


def test_repr_shows_changed_parameters_only():
    assert repr(KNNClassifier(k=3)) == "KNNClassifier(k=3)"
    assert repr(GDA(shared_cov=False, reg=0.1)) == "GDA(reg=0.1, shared_cov=False)"
    assert repr(KDEClassifier(bandwidth=np.array([1.0, 2.0]))).startswith(
        "KDEClassifier(bandwidth=array([1., 2.]))")


def test_nested_parameters_and_a_bad_signature():
    class Wrapper(BaseEstimator):
        def __init__(self, inner=None):
            self.inner = inner

    w = Wrapper(inner=KNNClassifier())
    assert w.get_params()["inner__k"] == 5
    w.set_params(inner__k=2)
    assert w.inner.k == 2

    class Loose(BaseEstimator):
        def __init__(self, **kwargs):
            pass

    with pytest.raises(TypeError, match="no \\*args/\\*\\*kwargs"):
        Loose().get_params()


BAD_PARAMS = [
    (GDA, "reg", -1.0, ValueError), (GDA, "shared_cov", "yes", TypeError),
    (LogisticRegression, "l2", -1.0, ValueError), (LogisticRegression, "max_iter", 0, ValueError),
    (LogisticRegression, "warm_start", "no", TypeError),
    (KNNClassifier, "k", 0, ValueError), (KNNClassifier, "metric", "euclid", TypeError),
    (KNNRegressor, "k", 2.5, TypeError),
    (GaussianNB, "var_smoothing", -1.0, ValueError),
    (KDENB, "bandwidth", -1.0, ValueError), (KDENB, "kernel", "nope", ValueError),
    (BernoulliNB, "alpha", -1.0, ValueError), (BernoulliNB, "binarize", -1.0, ValueError),
    (MultinomialNB, "alpha", -1.0, ValueError), (CategoricalNB, "alpha", -1.0, ValueError),
    (KDEClassifier, "bandwidth", "silverman", ValueError), (KDEClassifier, "chunk", 0, ValueError),
]


@pytest.mark.parametrize("cls, name, value, exc", BAD_PARAMS,
                         ids=[f"{c.__name__}-{n}" for c, n, _, _ in BAD_PARAMS])
def test_a_bad_value_set_through_set_params_is_refused_at_fit_naming_it(cls, name, value, exc):
    X, y = (counts() if cls in (BernoulliNB, MultinomialNB) else blobs())
    if cls is CategoricalNB:
        X = (X > 0).astype(int)
    est = cls().set_params(**{name: value})  # stored, not checked (scikit-learn's contract)
    assert est.get_params()[name] is value
    with pytest.raises(exc, match=name):
        est.fit(X, y)
    assert est.get_params()[name] is value  # fit changes no parameter


def test_kde_classifier_chunk_is_checked_at_fit_not_first_at_predict():
    # before: chunk=0 fitted fine and failed inside predict (range() with step 0)
    with pytest.raises(ValueError, match="chunk must be >= 1"):
        KDEClassifier(chunk=0).fit(*blobs())


def test_every_parameter_of_every_estimator_is_covered_by_a_bad_value_test():
    covered = {(c.__name__, n) for c, n, _, _ in BAD_PARAMS}
    for cls in ESTIMATORS:
        for name in cls._get_param_names():
            if cls is KNNRegressor and name == "metric":
                continue  # the shared k-NN base: KNNClassifier covers it
            if cls is KNNRegressor and name == "k":
                assert ("KNNRegressor", "k") in covered
                continue
            assert (cls.__name__, name) in covered, (cls.__name__, name)


# ------------------------------------------------------------------ score
@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c is not KNNRegressor],
                         ids=lambda c: c.__name__)
def test_classifier_score_is_sklearn_accuracy(cls):
    X, y = counts() if cls in (BernoulliNB, MultinomialNB) else blobs()
    if cls is CategoricalNB:
        X = np.round(X).astype(int)
    est = cls(**({"l2": 1.0} if cls is LogisticRegression else {})).fit(X, y)
    w = np.random.default_rng(1).random(len(y))
    assert est.score(X, y) == pytest.approx(accuracy_score(y, est.predict(X)), abs=1e-15)
    assert est.score(X, y, sample_weight=w) == pytest.approx(
        accuracy_score(y, est.predict(X), sample_weight=w), abs=1e-15)
    assert est.score(X, y) < 1.0  # overlapping classes: the score is not trivially 1


def test_regressor_score_is_sklearn_r2_including_2d_and_constant_targets():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = X[:, 0] + 0.3 * rng.normal(size=60)
    reg = KNNRegressor(k=4).fit(X, y)
    Xt = rng.normal(size=(30, 2))
    yt = Xt[:, 0]
    w = rng.random(30)
    assert reg.score(Xt, yt) == pytest.approx(r2_score(yt, reg.predict(Xt)), abs=1e-12)
    assert reg.score(Xt, yt, sample_weight=w) == pytest.approx(
        r2_score(yt, reg.predict(Xt), sample_weight=w), abs=1e-12)
    Y = np.column_stack([y, -2 * y + 1])
    reg2 = KNNRegressor(k=4).fit(X, Y)
    Yt = np.column_stack([yt, -2 * yt])
    assert reg2.score(Xt, Yt) == pytest.approx(r2_score(Yt, reg2.predict(Xt)), abs=1e-12)
    const = KNNRegressor(k=1).fit(X, np.full(60, 2.0))
    assert const.score(Xt, np.full(30, 2.0)) == r2_score(np.full(30, 2.0), np.full(30, 2.0)) == 1.0
    assert const.score(Xt, np.full(30, 3.0)) == r2_score(np.full(30, 3.0), np.full(30, 2.0))


# ------------------------------------------------------------------ scikit-learn's tools
def test_gda_and_logistic_regression_cross_validate_as_sklearns_own_on_the_same_folds():
    X, y = blobs(n=150, seed=3)
    ours = cross_val_score(GDA(), X, y, cv=FOLDS)
    theirs = cross_val_score(LinearDiscriminantAnalysis(solver="lsqr"), X, y, cv=FOLDS)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)
    ours = cross_val_score(LogisticRegression(l2=0.5), X, y, cv=FOLDS)
    theirs = cross_val_score(SkLogisticRegression(C=1 / 0.5, tol=1e-12), X, y, cv=FOLDS)
    np.testing.assert_allclose(ours, theirs, atol=1e-12)


def test_pipeline_with_a_scaler():
    X, y = blobs(n=100, seed=4)
    X = X * [1000.0, 0.001]
    pipe = make_pipeline(StandardScaler(), KNNClassifier(k=5))
    ref = make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))
    np.testing.assert_allclose(cross_val_score(pipe, X, y, cv=FOLDS),
                               cross_val_score(ref, X, y, cv=FOLDS))


def test_grid_search_chooses_k_and_alpha_as_sklearn_does():
    X, y = blobs(n=160, seed=5)
    ours = GridSearchCV(KNNClassifier(), {"k": [1, 3, 5, 9, 15, 25]}, cv=FOLDS).fit(X, y)
    theirs = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 3, 5, 9, 15, 25]},
                          cv=FOLDS).fit(X, y)
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"],
                               theirs.cv_results_["mean_test_score"])
    assert ours.best_params_["k"] == theirs.best_params_["n_neighbors"]
    assert isinstance(ours.best_estimator_, KNNClassifier)
    Xc, yc = counts(n=120, d=8, seed=6)
    alphas = [0.01, 0.1, 1.0, 10.0, 100.0]
    ours = GridSearchCV(MultinomialNB(), {"alpha": alphas}, cv=FOLDS).fit(Xc, yc)
    theirs = GridSearchCV(SkMultinomialNB(), {"alpha": alphas}, cv=FOLDS).fit(Xc, yc)
    np.testing.assert_allclose(ours.cv_results_["mean_test_score"],
                               theirs.cv_results_["mean_test_score"])
    assert ours.best_params_ == theirs.best_params_


def test_logistic_regression_is_binary_and_one_vs_rest_makes_it_multiclass():
    X, y = blobs(n=150, seed=7, k=3)
    with pytest.raises(ValueError, match="Only binary classification is supported") as info:
        LogisticRegression(l2=1.0).fit(X, y)
    assert "OneVsRestClassifier" in str(info.value)
    ours = OneVsRestClassifier(LogisticRegression(l2=1.0)).fit(X, y)
    theirs = OneVsRestClassifier(SkLogisticRegression(C=1.0, tol=1e-12)).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-7)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))


# ------------------------------------------------------------------ errors
def test_not_fitted_error_is_genviz_and_sklearn_and_pickles():
    with pytest.raises(SkNotFittedError, match="this GDA is not fitted yet") as info:
        GDA().predict([[0.0]])
    err = info.value
    assert isinstance(err, genviz.NotFittedError) and isinstance(err, ValueError)
    assert isinstance(err, AttributeError) and type(err).__name__ == "NotFittedError"
    again = pickle.loads(pickle.dumps(err))
    assert type(again) is type(err) and str(again) == str(err)


def test_a_binary_only_method_is_absent_on_a_three_class_model():
    X, y = counts(n=90)
    nb3 = MultinomialNB().fit(X, np.arange(90) % 3)
    assert not hasattr(nb3, "decision_function")
    with pytest.raises(BinaryOnlyError, match="exactly two classes; .* 3"):
        nb3.decision_function(X)
    assert hasattr(MultinomialNB(), "decision_function")
    assert hasattr(MultinomialNB().fit(X, y), "decision_function")


def _innermost_frame(exc):
    return traceback.extract_tb(exc.__traceback__)[-1].filename


@pytest.mark.parametrize("bad, exc, match", [
    ("strings", TypeError, "X must be numeric, got strings"),
    ("nan", ValueError, "X contains 1 NaN or infinite"),
    ("complex", ValueError, "Complex data not supported"),
    ("sparse", TypeError, "X is a scipy.sparse matrix, .* use X.toarray()"),
])
def test_bad_input_inside_cross_val_score_raises_genvizs_own_error(bad, exc, match):
    import scipy.sparse as sp

    X, y = blobs()
    Xb = (X.astype(str) if bad == "strings" else X.astype(complex) if bad == "complex"
          else sp.csr_matrix(X) if bad == "sparse" else X.copy())
    if bad == "nan":
        Xb[5, 0] = np.nan
    with pytest.raises(exc, match=match) as info:
        cross_val_score(GDA(), Xb, y, cv=FOLDS, error_score="raise")
    assert "genviz" in _innermost_frame(info.value)


def test_a_bad_grid_value_is_genvizs_error_naming_the_parameter():
    X, y = blobs()
    with pytest.raises(ValueError, match="k must be >= 1, got 0") as info:
        GridSearchCV(KNNClassifier(), {"k": [3, 0]}, cv=FOLDS, error_score="raise").fit(X, y)
    assert "genviz" in _innermost_frame(info.value)
    with pytest.raises(ValueError, match="'n_neighbors' is not a parameter of KNNClassifier; "
                                         r"its parameters are \['k', 'metric'\]"):
        GridSearchCV(KNNClassifier(), {"n_neighbors": [3]}, cv=FOLDS).fit(X, y)


def test_continuous_labels_and_complex_data_messages():
    X, y = blobs()
    with pytest.raises(ValueError, match="Unknown label type: y looks continuous"):
        GDA().fit(X, y + 0.5)
    with pytest.raises(ComplexDataError) as info:
        GaussianNB().fit(X.astype(complex), y)
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        KNNClassifier().fit(X, None)
    with pytest.raises(ValueError, match="requires y to be passed, but the target y is None"):
        KNNRegressor().fit(X, None)
    with pytest.raises(ValueError, match=r"0 feature\(s\) \(shape=\(12, 0\)\)"):
        GDA().fit(np.empty((12, 0)), np.arange(12) % 2)
    with pytest.raises(ValueError, match="X has 1 features, but GDA is expecting 2 features"):
        GDA().fit(X, y).predict(X[:, :1])


@pytest.mark.parametrize("call, exc, match", [
    (lambda: KNNClassifier(k=1).fit(*blobs()).score(blobs()[0], blobs()[1][:-1]), ValueError,
     "y has 119 labels but X has 120 rows"),
    (lambda: KNNClassifier(k=1).fit(*blobs()).score(*blobs(), sample_weight=-np.ones(120)),
     ValueError, "sample_weight must be >= 0"),
    (lambda: KNNClassifier(k=1).fit(*blobs()).score(*blobs(), sample_weight=np.zeros(120)),
     ValueError, "sample_weight are all zero"),
    (lambda: KNNClassifier(k=1).fit(*blobs()).score(*blobs(), sample_weight=np.ones(3)),
     ValueError, "sample_weight has length 3 but 120 was expected"),
    (lambda: KNNRegressor(k=1).fit(blobs()[0], 3.0), ValueError, "y has a single value"),
    (lambda: KNNRegressor(k=1).fit(blobs()[0], np.ones((120, 1, 1))), ValueError,
     "y must be 1-D .* or 2-D"),
    (lambda: KNNRegressor(k=1).fit(blobs()[0], np.ones(7)), ValueError,
     r"y has 7 value\(s\) \(shape \(7,\)\) but X has 120 rows"),
    (lambda: KNNRegressor(k=1).fit(blobs()[0], ["a"] * 120), TypeError, "y must be numeric"),
    (lambda: KNNRegressor(k=1).fit(*blobs()).score(blobs()[0], np.ones((120, 2))), ValueError,
     "y has 2 output"),
    (lambda: GDA().fit(np.array([[1 + 1j, 0.0]] * 4, dtype=object), [0, 0, 1, 1]),
     ComplexDataError, "Complex data not supported"),
    (lambda: GDA().fit(blobs()[0], blobs()[1] + 1j), ComplexDataError,
     "y holds complex numbers"),
    (lambda: CategoricalNB().fit(__import__("scipy.sparse").sparse.csr_matrix(np.eye(3)),
                                 [0, 1, 1]), TypeError, "X is a scipy.sparse matrix"),
    (lambda: CategoricalNB().fit(np.empty((4, 0)), [0, 1, 0, 1]), ValueError,
     r"X has 0 feature\(s\)"),
    (lambda: CategoricalNB().fit([["a"], ["b"]], [0, 1]).predict([["a", "b"]]), ValueError,
     "X has 2 features, but CategoricalNB is expecting 1 features as input"),
    (lambda: KNNClassifier().fit(blobs()[0], [0.5] * 120), ValueError,
     r"Unknown label type: y looks continuous \(y\[0\] = 0.5"),
])
def test_each_new_kind_of_bad_input_gets_a_clear_error(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
