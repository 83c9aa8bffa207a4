"""genviz.studies.spam and spam_static against scikit-learn's metrics and naive Bayes, numpy's
histogram and scipy's expit; bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit
from sklearn.metrics import (confusion_matrix, precision_recall_curve, precision_score,
                             recall_score, roc_auc_score, roc_curve)

from genviz.model_selection import binary_metrics
from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.studies.spam import (LN10, MODEL_NAMES, TEXT_MODELS, EmailStudy, SpamThresholdStudy,
                                 ThresholdStudy)
from genviz.studies.spam_static import (confusion_figure_study, top_words_figure_study,
                                        underflow_figure_study)
from genviz.text import bag_of_words, build_vocabulary


# -- the spam filter's threshold study -------------------------------------------------------------
@pytest.fixture(scope="module")
def counts():
    rng = np.random.default_rng(3)
    n, V = 120, 30
    y = np.where(rng.random(n) < 0.4, "spam", "ham")
    rates = np.where((y == "spam")[:, None], rng.gamma(1.0, 1.0, V), rng.gamma(1.0, 1.0, V)[::-1])
    X = rng.poisson(rates)
    return X[:80], y[:80], X[80:], y[80:]


@pytest.mark.parametrize("alpha", [0.1, 1.0, 5.0])
def test_threshold_study_matches_sklearn_metrics(counts, alpha):
    X_train, y_train, X_test, y_test = counts
    fits = ThresholdStudy(X_train, y_train, X_test, y_test).at(alpha)
    truth = y_test == "spam"
    for name, fit in fits.items():
        direct = type(fit.model)(alpha=alpha).fit(X_train, y_train).decision_function(X_test)
        np.testing.assert_array_equal(fit.scores, direct)
        assert fit.curves.auc == pytest.approx(roc_auc_score(truth, fit.scores))
        for t in np.percentile(fit.scores, [5, 30, 50, 70, 95]):
            flagged = fit.scores > t
            pt = fit.curves.at(t)
            assert pt["recall"] == pytest.approx(recall_score(truth, flagged))
            assert pt["precision"] == pytest.approx(precision_score(truth, flagged))


def test_threshold_study_fits_once_per_alpha(counts):
    study = ThresholdStudy(*counts)
    assert study.at(1.0) is study.at(1.0 + 1e-14)
    assert study.at(2.0) is not study.at(1.0)


@pytest.mark.parametrize("alpha, error", [(0.0, ValueError), (-1.0, ValueError),
                                          ("a", TypeError), (float("nan"), ValueError)])
def test_threshold_study_bad_alpha(counts, alpha, error):
    with pytest.raises(error, match="alpha"):
        ThresholdStudy(*counts).at(alpha)


def test_threshold_study_needs_both_classes_in_the_test_set(counts):
    X_train, y_train, X_test, _ = counts
    with pytest.raises(ValueError, match="both classes"):
        ThresholdStudy(X_train, y_train, X_test, np.full(X_test.shape[0], "ham")).at(1.0)


# -- the threshold view's result ---------------------------------------------------------------------
def test_threshold_result_against_sklearn(counts):
    X_train, y_train, X_test, y_test = counts
    study = SpamThresholdStudy(X_train, y_train, X_test, y_test, n_bins=10, alpha=1.0)
    s = study.static()
    truth = y_test == "spam"
    scores = MultinomialNB(alpha=1.0).fit(X_train, y_train).decision_function(X_test)
    lim = np.percentile(np.abs(scores) / np.log(10), 98)
    assert s.score_lim >= lim and s.score_lim in (1, 2, 5, 10, 20, 50, 100)
    np.testing.assert_allclose(s.edges, np.linspace(-s.score_lim, s.score_lim, 11))
    assert s.fpr_floor == 0.5 / (~truth).sum()
    np.testing.assert_allclose(s.chance, np.geomspace(s.fpr_floor, 1.0, 50))
    for log10_c, alpha, model in ((0.0, 1.0, "multinomial"), (1.5, 0.1, "bernoulli")):
        r = study(log10_c=log10_c, alpha=alpha, model=model)
        assert (r.log10_c, r.alpha, r.model) == (log10_c, alpha, model)
        assert r.selected == {n: n == model for n in MODEL_NAMES}
        for name, cls in TEXT_MODELS.items():
            sc = cls(alpha=alpha).fit(X_train, y_train).decision_function(X_test)
            flagged = sc > log10_c * np.log(10)
            pt = r.points[name]
            assert pt["recall"] == pytest.approx(recall_score(truth, flagged))
            assert (pt["tn"], pt["fp"], pt["fn"], pt["tp"]) == tuple(
                confusion_matrix(truth, flagged, labels=[False, True]).ravel())
            assert r.auc[name] == pytest.approx(roc_auc_score(truth, sc))
            fpr, tpr, _ = roc_curve(truth, sc, drop_intermediate=False)
            rx, ry = r.roc[name]
            assert set(np.round(ry, 12)) == set(np.round(tpr, 12))
            assert rx.min() >= s.fpr_floor and np.maximum(fpr, s.fpr_floor).max() == rx.max()
            pr_recall, pr_precision = r.pr[name]
            prec, rec, _ = precision_recall_curve(truth, sc)
            assert set(np.round(pr_recall, 12)) <= set(np.round(rec, 12)) | {0.0}
            assert r.roc_marker[name] == (max(pt["fpr"], s.fpr_floor), pt["tpr"])
            assert r.pr_marker[name] == (pt["recall"], pt["precision"])
            if name == model:
                clipped = np.clip(sc / np.log(10), -s.score_lim * (1 - 1e-9), s.score_lim * (1 - 1e-9))
                for label, sel in (("spam", truth), ("ham", ~truth)):
                    want = np.histogram(clipped[sel], bins=s.edges)[0] / sel.sum()
                    np.testing.assert_allclose(r.hist[label], want)
        assert r.hist_top == max(r.hist["ham"].max(), r.hist["spam"].max())
        assert r.hist_ylim >= 1.1 * r.hist_top and r.hist_ylim < 2.5 * 1.1 * r.hist_top
        np.testing.assert_array_equal(r.edges, s.edges)
        assert r.threshold_x == np.clip(log10_c, -s.score_lim, s.score_lim)
    far = study(log10_c=1e6)
    assert far.threshold_x == s.score_lim and far.points["multinomial"]["tp"] == 0


def test_threshold_result_takes_a_built_study_and_bad_input(counts):
    fits = ThresholdStudy(*counts)
    assert SpamThresholdStudy(fits=fits, score_lim=3.0).static().score_lim == 3.0
    with pytest.raises(TypeError, match="study must be a ThresholdStudy"):
        SpamThresholdStudy(fits="fits")
    for params, word in ((dict(model="svm"), "model"), (dict(alpha=0.0), "alpha"),
                         (dict(log10_c=np.inf), "log10_c")):
        with pytest.raises(ValueError, match=word):
            SpamThresholdStudy(fits=fits)(**params)
    with pytest.raises(ValueError, match="n_bins"):
        SpamThresholdStudy(fits=fits, n_bins=2)
    with pytest.raises(ValueError, match="score_lim"):
        SpamThresholdStudy(fits=fits, score_lim=-1.0)


# -- a typed email -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def email_models():
    docs = ["free money now", "free offer money", "meeting notes", "notes on the meeting",
            "free meeting", "cash money offer free", "project notes due"]
    y = ["spam", "spam", "ham", "ham", "ham", "spam", "ham"]
    v = build_vocabulary(docs)
    X = bag_of_words(docs, v)
    return {"multinomial": MultinomialNB().fit(X, y), "bernoulli": BernoulliNB().fit(X, y)}, v


@pytest.mark.parametrize("model", ["multinomial", "bernoulli"])
def test_email_against_the_models_own_scores(email_models, model):
    models, v = email_models
    text = "Free money money, free cash! meeting neurips"
    r = EmailStudy(models, v, max_words=2)(text=text, model=model, log10_c=0.5)
    x = bag_of_words([text], v)
    m = models[model]
    assert r.log_odds == pytest.approx(m.decision_function(x)[0])
    assert r.p_spam == pytest.approx(expit(r.log_odds)) and r.p_spam == pytest.approx(
        m.predict_proba(x)[0, 1])
    w, b = m.linear_form()
    assert r.bias == pytest.approx(b)
    counts = {word: x[0, v.index[word]] for word in r.words}
    assert r.words == sorted(counts, key=r.words.index) and set(r.words) == {"free", "money",
                                                                              "cash", "meeting"}
    present = np.array([min(counts[w_], 1) if model == "bernoulli" else counts[w_]
                        for w_ in r.words])
    assert r.counts.tolist() == present.tolist()
    np.testing.assert_allclose(r.contributions, present * w[[v.index[w_] for w_ in r.words]])
    assert r.total_words == pytest.approx(r.contributions.sum())
    assert r.bias + r.total_words == pytest.approx(r.log_odds)
    assert r.log_c == pytest.approx(0.5 * np.log(10)) and r.is_spam == (r.log_odds > r.log_c)
    assert r.verdict == ("spam" if r.is_spam else "ham")
    assert r.unseen == ["neurips"] and r.n_known == 4 and r.model == model and r.log10_c == 0.5
    by_size = sorted(zip(r.words, r.contributions), key=lambda wc: -abs(wc[1]))[:3]
    assert [(w_, pytest.approx(c)) for w_, c in by_size] == r.largest
    shown = [bar for bar in r.bars if bar[0]]
    assert len(r.bars) == 4 and shown[0][1:] == ("bias", "", 0, b)
    words = [bar for bar in shown if bar[1] == "word"]
    assert [bar[4] for bar in words] == sorted((bar[4] for bar in words), reverse=True)
    assert len(words) == 2 and shown[-1][1] == "rest" and shown[-1][3] == 2
    assert sum(bar[4] for bar in shown[1:]) == pytest.approx(r.total_words)
    assert r.xlim == max(10.0, r.xlim) and r.xlim >= 1.15 * max(abs(bar[4]) for bar in shown[1:])


def test_email_empty_text_and_bad_input(email_models):
    models, v = email_models
    study = EmailStudy(models, v)
    assert study.static().max_words == 12
    r = study(text="")
    assert r.n_known == 0 and r.log_odds == pytest.approx(r.bias) and r.xlim == 10.0
    assert [bar[0] for bar in r.bars] == [True] + [False] * 13
    with pytest.raises(TypeError, match="text must be a string"):
        study(text=3)
    with pytest.raises(ValueError, match="model"):
        study(model="gda")
    with pytest.raises(ValueError, match="missing"):
        EmailStudy({"multinomial": models["multinomial"]}, v)
    with pytest.raises(TypeError, match="vocabulary must be a Vocabulary"):
        EmailStudy(models, list(v.words))
    with pytest.raises(ValueError, match="max_words"):
        EmailStudy(models, v, max_words=0)
    assert LN10 == pytest.approx(np.log(10.0))


# -- the static figures ------------------------------------------------------------------------------
def test_top_words_against_a_sort(email_models):
    models, v = email_models
    m = models["multinomial"]
    r = top_words_figure_study(m, v, k=3)
    w, _ = m.linear_form()
    order = np.argsort(-w, kind="stable")
    assert [word for word, _ in r.top["spam"]] == [v.words[i] for i in order[:3]]
    assert [weight for _, weight in r.top["spam"]] == pytest.approx(w[order[:3]])
    assert [word for word, _ in r.top["ham"]] == [v.words[i] for i in np.argsort(w, kind="stable")[:3]]
    assert (r.model_name, r.alpha, r.vocabulary_size) == ("MultinomialNB", 1.0, len(v.words))
    with pytest.raises(ValueError, match="k"):
        top_words_figure_study(m, v, k=0)


def test_confusion_against_sklearn():
    y = np.array(["spam", "ham", "ham", "spam", "ham", "spam"])
    p = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    r = confusion_figure_study({"m": binary_metrics(y, p)})
    (panel,) = r.panels
    cm = confusion_matrix(y, p, labels=["ham", "spam"])
    np.testing.assert_array_equal(panel.counts, cm)
    np.testing.assert_allclose(panel.shares, cm / cm.sum(axis=1, keepdims=True))
    assert panel.title == "m" and panel.accuracy == pytest.approx(4 / 6)
    assert panel.precision == pytest.approx(precision_score(y, p, pos_label="spam"))
    assert panel.recall == pytest.approx(recall_score(y, p, pos_label="spam"))
    with pytest.raises(ValueError, match="results is empty"):
        confusion_figure_study({})


def test_underflow_against_float64():
    r = underflow_figure_study([10, 100, 300, 5], [-30.0, -290.0, -900.0, -400.0])
    floor = np.log10(np.nextafter(0.0, 1.0))
    assert r.floor == pytest.approx(floor) and 10.0 ** (r.floor - 0.5) == 0.0 < 10.0 ** r.floor
    np.testing.assert_array_equal(r.n_words_ok, [10, 100])
    np.testing.assert_array_equal(r.log10_ok, [-30.0, -290.0])
    np.testing.assert_array_equal(r.n_words_below, [300, 5])
    np.testing.assert_array_equal(r.log10_below, [-900.0, -400.0])
    assert (r.n_below, r.n) == (2, 4) and r.span_bottom == pytest.approx(-900 * 1.05)
    with pytest.raises(ValueError, match="same length"):
        underflow_figure_study([1, 2], [1.0])
