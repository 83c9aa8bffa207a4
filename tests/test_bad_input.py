"""One bad input per kind per public function of the model layer: the error class, and a message
that names the argument (issue 11, item 7). Then every example of issue 11 items 3-8, fixed.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import genviz
from genviz import gaussian as G
from genviz._validation import NotFittedError, check_scalar
from genviz.gda import GDA, logistic_params, quadratic_params
from genviz.joint import JointTable, dimensionality_curve
from genviz.knn import (KNNClassifier, KNNRegressor, SortedNeighbors, kneighbors,
                        pairwise_distances, vote_counts)
from genviz.logistic import LogisticRegression, is_linearly_separable
from genviz.naive_bayes import (KDENB, BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB,
                                discretize, leave_one_out_predict)
from genviz.text import bag_of_words, build_vocabulary, tokenize, word_contributions

I2 = np.eye(2)
X2 = np.array([[0.0, 0.1], [1.0, 0.3], [0.2, 1.0], [2.0, 2.2], [3.0, 1.9], [2.5, 3.1]])
Y2 = np.array([0, 0, 0, 1, 1, 1])
T = JointTable({"A": ["a0", "a1"], "B": ["b0", "b1"]}, [0.1, 0.2, 0.3, 0.4])
CAT = CategoricalNB().fit([["x", "p"], ["y", "p"], ["x", "q"], ["y", "q"]], [0, 0, 1, 1])
MNB = MultinomialNB().fit(np.array([[1, 0], [0, 1], [2, 1], [0, 3]]), [0, 0, 1, 1])
VOCAB = build_vocabulary(["free money", "meeting notes"])

CASES = [
    # gaussian
    ("mvn_logpdf X strings", lambda: G.mvn_logpdf([["0", "1"]], [0, 0], I2), TypeError, "X must be numeric"),
    ("mvn_pdf X complex", lambda: G.mvn_pdf([[1j, 0]], [0, 0], I2), TypeError, "X must be numeric"),
    ("mvn_pdf mean None", lambda: G.mvn_pdf([[0, 0]], [None, 0], I2), TypeError, "mean contains None"),
    ("mvn_pdf cov NaN", lambda: G.mvn_pdf([[0, 0]], [0, 0], [[1, np.nan], [np.nan, 1]]), ValueError, "cov contains"),
    ("mvn_pdf X 1-D", lambda: G.mvn_pdf([0, 0], [0, 0], I2), ValueError, "X must be 2-dimensional"),
    ("mvn_pdf_grid x strings", lambda: G.mvn_pdf_grid(["a"], [0.0], [0, 0], I2), TypeError, "x must be numeric"),
    ("mvn_pdf_grid 3-D mean", lambda: G.mvn_pdf_grid([0.0], [0.0], [0, 0, 0], np.eye(3)), ValueError, "mean has length 3"),
    ("mahalanobis cov shape", lambda: G.mahalanobis([[0, 0]], [0, 0], np.eye(3)), ValueError, "cov is 3x3"),
    ("sample_mvn n float", lambda: G.sample_mvn(2.5, [0, 0], I2, rng=0), TypeError, "n must be an integer"),
    ("sample_mvn rng None", lambda: G.sample_mvn(2, [0, 0], I2, rng=None), TypeError, "rng must be"),
    ("cov_from_params rho", lambda: G.cov_from_params(1, 1, 1.0), ValueError, "rho must be"),
    ("cov_from_params sigma1 overflow", lambda: G.cov_from_params(1e200, 1, 0.5), ValueError, "sigma1 = 1e\\+200"),
    ("cov_from_params sigma2 underflow", lambda: G.cov_from_params(1, 1e-200, 0.5), ValueError, "sigma2 = 1e-200"),
    ("cov_from_params sigma1 string", lambda: G.cov_from_params("1", 1, 0.5), TypeError, "sigma1 must be a real"),
    ("cov_eigen not square", lambda: G.cov_eigen([[1.0, 0.0]]), ValueError, "cov must be a square"),
    ("ellipse_points k", lambda: G.ellipse_points([0, 0], I2, k=-1), ValueError, "k must be > 0"),
    ("ellipse_points n", lambda: G.ellipse_points([0, 0], I2, n=2), ValueError, "n must be >= 3"),
    ("factorize_cov overflow", lambda: G.factorize_cov([[1.7e308, 1e308], [1e308, 1.7e308]]), ValueError, "cov has eigenvalues outside the float64 range"),
    ("check_scalar huge int", lambda: check_scalar(10 ** 400, "h"), ValueError, "h is too large"),
    # GDA
    ("GDA fit y longer", lambda: GDA().fit(X2, np.r_[Y2, 0]), ValueError, "y has 7 labels but X has 6 rows"),
    ("GDA fit y mixed", lambda: GDA().fit(X2, ["a", 0, 0, 1, 1, 1]), TypeError, "y mixes label types"),
    ("GDA fit reg", lambda: GDA(reg=-1).fit(X2, Y2), ValueError, "reg must be >= 0"),
    ("GDA fit shared_cov", lambda: GDA(shared_cov="yes").fit(X2, Y2), TypeError, "shared_cov must be"),
    ("GDA predict not fitted", lambda: GDA().predict(X2), NotFittedError, "GDA is not fitted"),
    ("GDA from_params classes", lambda: GDA.from_params([0.5, 0.5], [[0.0], [1.0]], [[1.0]], classes=[1, 1]), ValueError, "classes must be 2 distinct"),
    ("GDA from_params prior", lambda: GDA.from_params([0.2, 0.2], [[0.0], [1.0]], [[1.0]]), ValueError, "class_prior must be positive and sum to 1"),
    ("logistic_params phi", lambda: logistic_params(1.0, [0.0], [1.0], [[1.0]]), ValueError, "phi must be"),
    ("logistic_params mu1", lambda: logistic_params(0.5, [0.0], [1.0, 2.0], [[1.0]]), ValueError, "mu1 has length 2"),
    ("quadratic_params cov1", lambda: quadratic_params(0.5, [0.0], [1.0], [[1.0]], [[0.0]]), ValueError, "cov1 is singular"),
    # logistic
    ("LogisticRegression l2", lambda: LogisticRegression(l2=-1).fit(X2, Y2), ValueError, "l2 must be >= 0"),
    ("LogisticRegression max_iter", lambda: LogisticRegression(max_iter=2.5).fit(X2, Y2), TypeError, "max_iter must be an integer"),
    ("LogisticRegression y not binary", lambda: LogisticRegression().fit(X2, [0, 1, 2, 0, 1, 2]), ValueError, "y must hold only the labels 0 and 1"),
    ("LogisticRegression predict width", lambda: LogisticRegression(l2=1).fit(X2, Y2).predict([[0.0]]), ValueError, "X has 1 feature"),
    ("is_linearly_separable y", lambda: is_linearly_separable(X2, Y2[:3]), ValueError, "y has 3 labels"),
    # k-NN
    ("kneighbors k", lambda: kneighbors(X2, X2, 0), ValueError, "k must be >= 1"),
    ("kneighbors k too big", lambda: kneighbors(X2, X2, 7), ValueError, "k = 7 exceeds"),
    ("kneighbors X_train strings", lambda: kneighbors(X2, X2.astype(str), 1), TypeError, "X_train must be numeric"),
    ("kneighbors X_query width", lambda: kneighbors([[0.0]], X2, 1), ValueError, "X_query has 1 feature"),
    ("pairwise_distances metric", lambda: pairwise_distances(X2, X2, metric="l1"), TypeError, "metric must be None"),
    ("vote_counts labels", lambda: vote_counts([[0, 3]], 2), ValueError, "neighbor_labels must hold codes"),
    ("vote_counts n_classes", lambda: vote_counts([[0, 1]], 0), ValueError, "n_classes must be >= 1"),
    ("SortedNeighbors k", lambda: SortedNeighbors(X2, X2, 3).counts(Y2, 2, 4), ValueError, "k = 4 exceeds"),
    ("KNNClassifier y longer", lambda: KNNClassifier(1).fit(X2, np.r_[Y2, 1]), ValueError, "y has 7 labels"),
    ("KNNClassifier y NaN", lambda: KNNClassifier(1).fit(X2, [0, 1, np.nan, 0, 1, 0]), ValueError, r"y\[2\] is nan"),
    ("KNNClassifier y NaN array", lambda: KNNClassifier(1).fit(X2, np.array([0, 1, np.nan, 0, 1, 0])), ValueError, r"y contains NaN or infinite labels \(first at y\[2\]\)"),
    ("KNNRegressor y scalar", lambda: KNNRegressor(1).fit(X2, 3.0), ValueError, "y has a single value"),
    ("KNNRegressor y strings", lambda: KNNRegressor(1).fit(X2, list("abcdef")), TypeError, "y must be numeric"),
    ("KNNRegressor not fitted", lambda: KNNRegressor(1).predict(X2), NotFittedError, "KNNRegressor is not fitted"),
    # naive Bayes
    ("CategoricalNB alpha", lambda: CategoricalNB(alpha=-1).fit([["a"], ["b"]], [0, 1]), ValueError, "alpha must be >= 0"),
    ("CategoricalNB X None", lambda: CategoricalNB().fit([["a"], [None]], [0, 1]), ValueError, r"X\[1, 0\] is missing"),
    ("CategoricalNB X string", lambda: CategoricalNB().fit("ab", [0, 1]), TypeError, "X must be a table"),
    ("CategoricalNB smoothed_table j", lambda: CAT.smoothed_table(5), ValueError, "j must be <= 1"),
    ("CategoricalNB smoothed_table name", lambda: CAT.smoothed_table("z"), ValueError, "j must be a feature index"),
    ("SmoothedTable entry value", lambda: CAT.smoothed_table(0).entry(0, "w"), ValueError, "value must be one of"),
    ("GaussianNB var_smoothing", lambda: GaussianNB(var_smoothing="a").fit(X2, Y2), TypeError, "var_smoothing must be a real"),
    ("GaussianNB y broadcast", lambda: GaussianNB().fit(X2, 0), ValueError, "y must be a 1-D array of labels, got the single value"),
    ("KDENB kernel", lambda: KDENB(kernel="cauchy").fit(X2, Y2), ValueError, "kernel must be one of"),
    ("KDENB bandwidth", lambda: KDENB(bandwidth="wide").fit(X2, Y2), ValueError, "bandwidth must be a number"),
    ("MultinomialNB negative", lambda: MultinomialNB().fit(-X2, Y2), ValueError, "X contains negative values"),
    ("MultinomialNB sparse width", lambda: MNB.predict(sp.csr_matrix(np.ones((1, 3)))), ValueError, "X has 3 features"),
    ("MultinomialNB top_features k", lambda: MNB.top_features(0), ValueError, "k must be >= 1"),
    ("MultinomialNB threshold", lambda: MNB.predict([[1, 1]], threshold=0), ValueError, "threshold must be > 0"),
    ("BernoulliNB binarize", lambda: BernoulliNB(binarize=-1).fit(X2, Y2), ValueError, "binarize must be >= 0"),
    ("discretize edges", lambda: discretize([1.0], [2.0, 1.0]), ValueError, "edges must be a non-empty, strictly increasing"),
    ("discretize x strings", lambda: discretize(["1"], [2.0]), TypeError, "x must be numeric"),
    ("leave_one_out_predict y", lambda: leave_one_out_predict(GaussianNB(), X2, Y2[:2]), ValueError, "y has 2 labels"),
    # joint
    ("JointTable probabilities strings", lambda: JointTable({"A": [0, 1]}, ["0.5", "0.5"]), TypeError, "probabilities must be numeric"),
    ("JointTable values string", lambda: JointTable({"A": "ab"}, [0.5, 0.5]), TypeError, "the values of 'A' must be a list"),
    ("JointTable sum", lambda: JointTable({"A": [0, 1]}, [0.5, 0.6]), ValueError, "probabilities must sum to 1"),
    ("conditional unknown value", lambda: T.conditional({"B": "b9"}, {"A": "a1"}), ValueError, "unknown value 'b9' for variable 'B'"),
    ("conditional unknown variable", lambda: T.conditional({"C": "c"}, {"A": "a1"}), ValueError, "unknown variable 'C'"),
    ("conditional not a dict", lambda: T.conditional("B", {"A": "a1"}), TypeError, "target must be a dict"),
    ("prob unknown", lambda: T.prob(A="a7"), ValueError, "unknown value 'a7'"),
    ("marginal none", lambda: T.marginal(), ValueError, "marginal needs at least one"),
    ("independence_gap overlap", lambda: T.independence_gap("A", "A"), ValueError, "must be disjoint"),
    ("from_records names string", lambda: JointTable.from_records([["a", "b"]], "AB"), TypeError, "names must be a sequence of names, got the single string"),
    ("from_records None", lambda: JointTable.from_records([["a", None]], ["A", "B"]), ValueError, r"records\[0, 1\] is missing"),
    ("from_records NaN", lambda: JointTable.from_records([[np.nan, "b"]], ["A", "B"]), ValueError, r"records\[0, 0\] is missing"),
    ("from_records alpha", lambda: JointTable.from_records([["a"]], ["A"], alpha=-1), ValueError, "alpha must be >= 0"),
    ("dimensionality_curve names", lambda: dimensionality_curve([["a", "b"]], names="AB"), TypeError, "names must be a sequence"),
    ("log_likelihood records string", lambda: T.log_likelihood("a0"), TypeError, "records must be a table"),
    # text
    ("tokenize", lambda: tokenize(3), TypeError, "doc must be a string"),
    ("build_vocabulary string", lambda: build_vocabulary("free money"), TypeError, "docs must be a sequence of documents, got a single string"),
    ("build_vocabulary min_count", lambda: build_vocabulary(["a b"], min_count=0), ValueError, "min_count must be >= 1"),
    ("build_vocabulary stop_words", lambda: build_vocabulary(["a b"], stop_words="french"), ValueError, "stop_words must be None"),
    ("build_vocabulary extra_words", lambda: build_vocabulary(["a b"], extra_words=["Two Words"]), ValueError, "extra_words must hold single"),
    ("bag_of_words docs", lambda: bag_of_words("free", VOCAB), TypeError, "docs must be a sequence"),
    ("bag_of_words docs[1]", lambda: bag_of_words(["free", 3], VOCAB), TypeError, r"docs\[1\] must be a string"),
    ("bag_of_words vocabulary", lambda: bag_of_words(["free"], ["free"]), TypeError, "vocabulary must be a Vocabulary"),
    ("word_contributions weights", lambda: word_contributions("free", VOCAB, [1.0]), ValueError, "weights has length 1"),
    ("word_contributions doc", lambda: word_contributions(["free"], VOCAB, [1.0] * len(VOCAB)), TypeError, "doc must be a string"),
]


@pytest.mark.parametrize("call, exc, match", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_names_the_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_no_bare_tracebacks():
    """The errors above are ValueError/TypeError (NotFittedError is a ValueError); none is an
    OverflowError, IndexError or numpy's "'<' not supported" (issue 11, item 7)."""
    for name, call, *_ in CASES:
        try:
            call()
        except (ValueError, TypeError) as exc:
            assert "not supported between" not in str(exc), name
        else:  # pragma: no cover - every case raises
            pytest.fail(f"{name} did not raise")


# ---------------------------------------------------------------------------- issue 11 examples
def test_item3_numeric_strings_and_complex_are_refused():
    with pytest.raises(TypeError, match="X must be numeric, got strings"):
        G.mvn_pdf([["0", "1"]], [0.0, 0.0], I2)
    with pytest.raises(TypeError, match=r"X must be numeric \(real\), got complex"):
        G.mvn_pdf(np.array([[1 + 2j, 0]]), [0.0, 0.0], I2)
    with pytest.raises(TypeError, match="X must be numeric"):
        GaussianNB().fit(np.array([["1", "2"], ["3", "4"]], dtype=object), [0, 1])


@pytest.mark.parametrize("x", [1e155, 1e200, -1e300, 1.7e308])
def test_item4_gda_far_away_rows_sum_to_one(x):
    g = GDA.from_params([0.5, 0.5], [[0.0], [2.0]], [[1.0]])
    p = g.predict_proba([[x]])
    np.testing.assert_array_equal(p, [[0.0, 1.0]] if x > 0 else [[1.0, 0.0]])
    q = GDA(shared_cov=False).fit(X2, Y2).predict_proba([[x, x]])
    assert np.all(np.isfinite(q)) and q.sum() == pytest.approx(1.0, abs=1e-15)


def test_item4_logistic_on_features_scaled_by_1e155():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    y = (X[:, 0] + rng.normal(size=80) > 0).astype(int)
    base = LogisticRegression().fit(X, y)
    big = LogisticRegression().fit(X * 1e155, y)
    np.testing.assert_allclose(big.predict_proba(X * 1e155), base.predict_proba(X), atol=1e-9)
    assert np.ptp(big.predict_proba(X * 1e155)[:, 1]) > 0.5  # not 0.5 everywhere
    np.testing.assert_allclose(big.coef_ * 1e155, base.coef_, rtol=1e-9)
    shifted = LogisticRegression().fit(X + 1e7, y)
    np.testing.assert_array_equal(shifted.predict(X + 1e7), base.predict(X))


def test_item4_huge_covariances_never_pass_with_nan_eigenvalues():
    f = G.factorize_cov([[1e308, 0.0], [0.0, 1e308]])
    assert np.all(np.isfinite(f.eigvals)) and np.isfinite(f.logdet)
    f = G.factorize_cov([[1e308, 5e307], [5e307, 1e308]])
    np.testing.assert_allclose(f.eigvals, [1.5e308, 5e307], rtol=1e-12)
    with pytest.raises(ValueError, match="cov has eigenvalues outside the float64 range"):
        G.factorize_cov([[1.7e308, 1.7e308 * 0.99], [1.7e308 * 0.99, 1.7e308]])
    with pytest.raises(ValueError, match="sigma1 = 1e\\+200"):
        G.cov_from_params(1e200, 1, 0.5)


def test_item5_knn_with_a_large_offset_is_exact():
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(size=(300, 3)) * 16) / 16
    Q = np.round(rng.normal(size=(200, 3)) * 16) / 16
    y = (X[:, 0] > 0).astype(int)
    ref = KNNClassifier(7).fit(X, y)
    for offset in (1e7, 1.7e9, -3e9):  # timestamps
        clf = KNNClassifier(7).fit(X + offset, y)
        np.testing.assert_array_equal(clf.kneighbors(Q + offset)[1], ref.kneighbors(Q)[1])
        np.testing.assert_array_equal(clf.predict(Q + offset), ref.predict(Q))
    big = KNNRegressor(5).fit(X * 2.0 ** 500, X[:, 1])
    np.testing.assert_array_equal(big.predict(Q * 2.0 ** 500),
                                  KNNRegressor(5).fit(X, X[:, 1]).predict(Q))


def test_item6_silent_mismatches_are_refused():
    for est in (GDA(), GaussianNB(), KNNClassifier(1), LogisticRegression()):
        with pytest.raises(ValueError, match="y has 7 labels but X has 6 rows"):
            est.fit(X2, np.r_[Y2, 1])
        with pytest.raises(ValueError, match="got the single value"):
            est.fit(X2, 1)
    with pytest.raises(ValueError, match="unknown value 'b9'"):
        T.conditional({"B": "b9"}, {"A": "a0"})
    with pytest.raises(TypeError, match="single string"):
        JointTable.from_records([["a", "x"]], "VW")
    with pytest.raises(ValueError, match="missing"):
        JointTable.from_records([["a", None], ["b", "x"]], ["V", "W"])


def test_item7_messages():
    with pytest.raises(TypeError, match=r"y mixes label types \(number, string\)"):
        GaussianNB().fit(X2, [0, "a", 0, 1, 1, 1])
    far = GaussianNB().fit(X2, Y2)
    p = far.predict_proba([[1e200, -1e200]])  # GaussianNB never suggests alpha: it is finite
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    kde = KDENB(bandwidth=0.5, kernel="epanechnikov").fit(X2, Y2)
    with pytest.raises(ValueError, match="epanechnikov kernel has compact support") as info:
        kde.predict_proba([[50.0, 50.0]])
    assert "alpha" not in str(info.value)
    with pytest.raises(ValueError) as info:
        KDENB(bandwidth=1.0).fit(np.array([[-1e308], [1.0], [2.0], [3.0]]), Y2[:4] * 0 + [0, 0, 1, 1]
                                 ).predict_proba([[1e308]])
    assert "u contains" not in str(info.value) and "far from the training data" in str(info.value)
    assert genviz.NotFittedError is NotFittedError
    for est in (GDA(), LogisticRegression(), GaussianNB(), KNNClassifier(), KNNRegressor()):
        with pytest.raises(genviz.NotFittedError):
            est.predict(X2)


def test_item8_explorer_readouts():
    from genviz.synthetic import two_class_data
    from genviz.widgets.knn import knn_classification_explorer
    from genviz.widgets.spam import threshold_explorer

    X, y = two_class_data(40, rng=0)
    e = knn_classification_explorer(X, y)  # no test set
    assert "nan" not in e.readout.value and "no test set" in e.readout.value
    Xc = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    yc = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    s = threshold_explorer(Xc, yc, Xc, yc)
    s.controls["log10_c"].max = 1e6
    s.controls["log10_c"].value = 400.0
    assert s.error is None and "10<sup>400</sup>" in s.readout.value
