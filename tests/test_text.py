"""genviz.text against scikit-learn (CountVectorizer, metrics) and hand-worked cases."""

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import (accuracy_score, confusion_matrix, precision_recall_curve,
                             precision_score, recall_score, roc_auc_score, roc_curve)

from genviz.datasets import spam_assassin
from genviz.model_selection import ThresholdCurves, binary_metrics, stratified_split
from genviz.text import (
    STOP_WORDS, TOKEN_PATTERN, Vocabulary, bag_of_words, build_vocabulary, tokenize,
    vocabulary_and_counts, word_contributions,
)


@pytest.fixture(scope="module")
def corpus():
    return spam_assassin()


@pytest.fixture(scope="module")
def split(corpus):
    return stratified_split(corpus.label, test_size=0.3, rng=0)


# -- tokenizer ---------------------------------------------------------------------------------
def test_tokenize_lowercases_and_keeps_letter_runs():
    assert tokenize("FREE!!! Click here: www.x-y.com, it's 100% Free") == [
        "free", "click", "here", "www", "x", "y", "com", "it's", "free"]
    assert tokenize("") == []
    assert tokenize("123 456 !!!") == []


def test_tokenize_agrees_with_sklearn_analyzer_on_the_corpus(corpus):
    analyzer = CountVectorizer(token_pattern=TOKEN_PATTERN).build_analyzer()
    for doc in corpus.text[:300]:
        assert tokenize(doc) == analyzer(doc)


@pytest.mark.parametrize("bad", [None, 3, b"bytes", ["a list"]])
def test_tokenize_refuses_non_strings(bad):
    with pytest.raises(TypeError, match="doc must be a string"):
        tokenize(bad)


# -- vocabulary and bag of words ----------------------------------------------------------------
@pytest.mark.parametrize("min_count,stop,n", [(1, None, None), (2, "english", None),
                                              (5, None, 1500), (3, ["free"], 1500)])
def test_vocabulary_and_counts_equal_countvectorizer(corpus, split, min_count, stop, n):
    train, test = (part[:n] for part in split)
    stop_list = list(STOP_WORDS) if stop == "english" else stop
    cv = CountVectorizer(token_pattern=TOKEN_PATTERN, min_df=min_count, stop_words=stop_list)
    ref_train = cv.fit_transform(corpus.text[train])
    vocab = build_vocabulary(corpus.text[train], min_count=min_count, stop_words=stop)
    assert list(vocab.words) == list(cv.get_feature_names_out())
    np.testing.assert_array_equal(vocab.doc_freq, np.asarray((ref_train > 0).sum(axis=0)).ravel())
    assert vocab.n_docs == len(train)
    X = bag_of_words(corpus.text[test], vocab)
    ref = cv.transform(corpus.text[test])
    assert X.shape == ref.shape and X.format == "csr" and X.has_canonical_format
    assert (X != ref).nnz == 0
    Xb = bag_of_words(corpus.text[test], vocab, binary=True)
    assert (Xb != (ref > 0).astype(np.int64)).nnz == 0
    assert set(np.unique(Xb.data)) == {1}


def test_vocabulary_is_built_from_the_training_documents_only(corpus, split):
    train, test = split
    vocab = build_vocabulary(corpus.text[train])
    test_words = set().union(*(tokenize(d) for d in corpus.text[test]))
    train_words = set().union(*(tokenize(d) for d in corpus.text[train]))
    assert set(vocab.words) == train_words
    assert test_words - train_words  # some test words are unseen: they must not be in it
    assert not (test_words - train_words) & set(vocab.words)


def test_stop_words_and_extra_words():
    docs = ["the neurips deadline", "the cheap offer", "offer of the day"]
    v = build_vocabulary(docs, stop_words="english", extra_words=["zygmurgy"])
    assert "the" not in v and "of" not in v and "offer" in v
    assert v.doc_freq[v.index["zygmurgy"]] == 0
    assert v.words == tuple(sorted(v.words))
    assert repr(v) == "Vocabulary(6 words from 3 documents)"
    np.testing.assert_array_equal(bag_of_words(["zygmurgy zygmurgy"], v).toarray()[0],
                                  [0, 0, 0, 0, 0, 2])


def test_empty_and_unseen_documents_give_zero_rows():
    v = build_vocabulary(["buy cheap meds", "meeting at noon"])
    X = bag_of_words(["", "neurips 2026!!!", "12345", "cheap"], v)
    assert X.shape == (4, len(v))
    np.testing.assert_array_equal(np.asarray(X.sum(axis=1)).ravel(), [0, 0, 0, 1])
    assert bag_of_words([], v).shape == (0, len(v))


def test_vocabulary_and_bag_of_words_bad_inputs():
    v = build_vocabulary(["buy cheap meds"])
    with pytest.raises(TypeError, match="single string.*wrap it"):
        build_vocabulary("buy cheap meds")
    with pytest.raises(TypeError, match=r"docs\[1\] must be a string"):
        build_vocabulary(["fine", 3])
    with pytest.raises(TypeError, match=r"docs\[0\] must be a string"):
        bag_of_words([None], v)
    with pytest.raises(TypeError, match="sequence of strings"):
        bag_of_words(5, v)
    with pytest.raises(TypeError, match="vocabulary must be a Vocabulary"):
        bag_of_words(["x"], {"buy": 0})
    with pytest.raises(ValueError, match="docs is empty"):
        build_vocabulary([])
    with pytest.raises(ValueError, match="min_count must be >= 1"):
        build_vocabulary(["a b"], min_count=0)
    with pytest.raises(TypeError, match="min_count must be an integer"):
        build_vocabulary(["a b"], min_count=1.5)
    with pytest.raises(ValueError, match="no word occurs"):
        build_vocabulary(["123", "!!!"])
    with pytest.raises(ValueError, match="no word occurs in at least min_count=3"):
        build_vocabulary(["a b", "c d"], min_count=3)
    with pytest.raises(ValueError, match="stop_words must be None, 'english'"):
        build_vocabulary(["a b"], stop_words="french")
    with pytest.raises(ValueError, match="extra_words must hold single lower-case tokens"):
        build_vocabulary(["a b"], extra_words=["NeurIPS 2026"])


# -- split ------------------------------------------------------------------------------------------
def test_stratified_split_is_seeded_disjoint_and_keeps_class_shares(corpus):
    y = corpus.label
    train, test = stratified_split(y, test_size=0.3, rng=0)
    again = stratified_split(y, test_size=0.3, rng=np.random.default_rng(0))
    np.testing.assert_array_equal(test, again[1])
    assert not np.array_equal(test, stratified_split(y, test_size=0.3, rng=1)[1])
    assert np.intersect1d(train, test).size == 0
    np.testing.assert_array_equal(np.union1d(train, test), np.arange(y.size))
    for label in ("ham", "spam"):
        n = np.sum(y == label)
        assert np.sum(y[test] == label) == round(0.3 * n)


def test_stratified_split_bad_inputs():
    with pytest.raises(ValueError, match="test_size must be < 1"):
        stratified_split(["a", "a", "b", "b"], test_size=1.0)
    with pytest.raises(ValueError, match="test_size must be > 0"):
        stratified_split(["a", "a", "b", "b"], test_size=0)
    with pytest.raises(ValueError, match="class 'b' has 1 member"):
        stratified_split(["a", "a", "b"])
    with pytest.raises(ValueError, match="non-empty 1-D"):
        stratified_split([])
    with pytest.raises(TypeError, match="rng must be a numpy Generator or an integer seed"):
        stratified_split(["a", "a", "b", "b"], rng=None)


# -- metrics ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_binary_metrics_match_sklearn(seed):
    rng = np.random.default_rng(seed)
    y = rng.choice(["ham", "spam"], size=200, p=[0.7, 0.3])
    p = np.where(rng.random(200) < 0.8, y, rng.choice(["ham", "spam"], size=200))
    m = binary_metrics(y, p, positive="spam")
    assert m["accuracy"] == pytest.approx(accuracy_score(y, p))
    assert m["precision"] == pytest.approx(precision_score(y, p, pos_label="spam"))
    assert m["recall"] == pytest.approx(recall_score(y, p, pos_label="spam"))
    np.testing.assert_array_equal(m["confusion"], confusion_matrix(y, p, labels=["ham", "spam"]))
    assert m["tp"] + m["fp"] + m["fn"] + m["tn"] == 200


def test_binary_metrics_edge_cases_and_bad_inputs():
    m = binary_metrics(["spam", "ham"], ["ham", "ham"])
    assert m["precision"] == 1.0 and m["recall"] == 0.0 and m["f1"] == 0.0
    assert m["precision"] == precision_score(["spam", "ham"], ["ham", "ham"], pos_label="spam",
                                             zero_division=1)
    with pytest.raises(ValueError, match="same length"):
        binary_metrics(["spam"], ["spam", "ham"])
    with pytest.raises(ValueError, match="positive='junk' is not one of the labels"):
        binary_metrics(["spam", "ham"], ["spam", "ham"], positive="junk")


@pytest.mark.parametrize("seed", range(4))
def test_threshold_curves_match_sklearn_roc_and_pr(seed):
    rng = np.random.default_rng(seed)
    y = rng.choice(["ham", "spam"], size=300)
    scores = rng.normal(size=300) + (y == "spam") * 1.5
    scores[:40] = np.round(scores[:40])  # ties
    c = ThresholdCurves(scores, y, positive="spam")
    fpr, tpr, thr = roc_curve(y, scores, pos_label="spam", drop_intermediate=False)
    np.testing.assert_allclose(c.fpr, fpr)
    np.testing.assert_allclose(c.tpr, tpr)
    np.testing.assert_allclose(c.thresholds, thr[1:])
    assert c.auc == pytest.approx(roc_auc_score(y == "spam", scores), abs=1e-12)
    prec, rec, _ = precision_recall_curve(y, scores, pos_label="spam", drop_intermediate=False)
    np.testing.assert_allclose(c.precision[1:], prec[::-1][1:])
    np.testing.assert_allclose(c.recall, rec[::-1])


def test_threshold_curves_operating_point_equals_direct_count():
    rng = np.random.default_rng(3)
    y = rng.choice(["ham", "spam"], size=200)
    scores = np.round(rng.normal(size=200) * 3) + (y == "spam") * 2
    c = ThresholdCurves(scores, y, positive="spam")
    for t in list(np.unique(scores)) + [-np.inf, np.inf, 0.5, -20.0, 20.0]:
        pred = np.where(scores > t, "spam", "ham")
        m = binary_metrics(y, pred, positive="spam")
        pt = c.at(t)
        assert (pt["tp"], pt["fp"], pt["fn"], pt["tn"]) == (m["tp"], m["fp"], m["fn"], m["tn"])
        assert pt["precision"] == pytest.approx(m["precision"])
        assert pt["recall"] == pytest.approx(m["recall"])


def test_threshold_curves_bad_inputs():
    with pytest.raises(ValueError, match="needs both classes"):
        ThresholdCurves([1.0, 2.0], ["ham", "ham"])
    with pytest.raises(ValueError, match="y_true has shape"):
        ThresholdCurves([1.0, 2.0], ["ham"])
    with pytest.raises(ValueError, match="scores contains 1 NaN"):
        ThresholdCurves([1.0, np.nan], ["ham", "spam"])
    with pytest.raises(TypeError, match="threshold must be a real number"):
        ThresholdCurves([1.0, 2.0], ["ham", "spam"]).at("high")


# -- per-word contributions ------------------------------------------------------------------------
def test_word_contributions_sum_to_the_linear_score():
    docs = ["buy cheap meds now", "meeting notes attached", "cheap flights to the meeting"]
    v = build_vocabulary(docs)
    w = np.random.default_rng(0).normal(size=len(v))
    doc = "Cheap cheap meds! The meeting... neurips"
    r = word_contributions(doc, v, w)
    x = bag_of_words([doc], v).toarray()[0]
    assert r["total"] == pytest.approx(x @ w)
    assert r["words"] == ["cheap", "meds", "the", "meeting"]
    assert r["counts"].tolist() == [2, 1, 1, 1]
    assert r["unseen"] == ["neurips"]
    rb = word_contributions(doc, v, w, binary=True)
    assert rb["total"] == pytest.approx((x > 0) @ w)
    empty = word_contributions("", v, w)
    assert empty["words"] == [] and empty["total"] == 0.0 and empty["unseen"] == []


def test_word_contributions_bad_inputs():
    v = build_vocabulary(["buy cheap meds"])
    with pytest.raises(TypeError, match="doc must be a string"):
        word_contributions(42, v, [1, 2, 3])
    with pytest.raises(ValueError, match="weights has length 2 but 3 was expected"):
        word_contributions("buy", v, [1, 2])
    with pytest.raises(TypeError, match="vocabulary must be a Vocabulary"):
        word_contributions("buy", ["buy"], [1])
    assert isinstance(v, Vocabulary)


def test_vocabulary_and_counts_equals_the_two_steps(corpus, split):
    train = split[0][:1500]
    docs = corpus.text[train]
    for kw in (dict(min_count=2, stop_words="english"), dict(extra_words=["neurips"], binary=True)):
        binary = kw.pop("binary", False)
        v, X = vocabulary_and_counts(docs, binary=binary, **kw)
        ref_v = build_vocabulary(docs, **kw)
        assert v.words == ref_v.words and np.array_equal(v.doc_freq, ref_v.doc_freq)
        assert (X != bag_of_words(docs, ref_v, binary=binary)).nnz == 0
    with pytest.raises(ValueError, match="docs is empty"):
        vocabulary_and_counts([])
    with pytest.raises(TypeError, match=r"docs\[0\] must be a string"):
        vocabulary_and_counts([1])
