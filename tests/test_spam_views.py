"""Views of the spam filter: the numbers they show, blitting, bad parameters."""

import matplotlib.text as mtext
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from genviz.naive_bayes import BernoulliNB, MultinomialNB
from genviz.plots.spam import LN10, EmailView, SpamThresholdView
from genviz.plots.spam_static import confusion_figure, top_words_figure, underflow_figure
from genviz.model_selection import binary_metrics
from genviz.text import bag_of_words
from spam_testing import fitted_models, spam_split


@pytest.fixture(scope="module")
def data():
    return spam_split(every=3, rng=1, stop_words="english")  # a third: these tests stay quick


@pytest.fixture(scope="module")
def models(data):
    return fitted_models(data["X_train"], data["y_train"])


def _threshold_view(data, **kw):
    return SpamThresholdView(data["X_train"], data["y_train"], data["X_test"], data["y_test"], **kw)


def test_threshold_view_operating_points_equal_the_models_decisions(data):
    view = _threshold_view(data)
    for log10_c in (-20.0, -2.5, 0.0, 3.0, 25.0):
        view.update(log10_c=log10_c)
        for name, cls in (("multinomial", MultinomialNB), ("bernoulli", BernoulliNB)):
            model = cls(alpha=1.0).fit(data["X_train"], data["y_train"])
            m = binary_metrics(data["y_test"], model.predict(data["X_test"],
                                                              threshold=10.0 ** log10_c))
            pt = view.state["points"][name]
            assert (pt["tp"], pt["fp"], pt["fn"], pt["tn"]) == (m["tp"], m["fp"], m["fn"], m["tn"])
            mpr = view._markers[name][1]
            assert mpr.get_xdata()[0] == pytest.approx(m["recall"])
            assert mpr.get_ydata()[0] == pytest.approx(m["precision"])
        assert view._vline.get_xdata()[0] == log10_c


def test_threshold_view_auc_histograms_and_alpha_refit(data):
    view = _threshold_view(data, alpha=1.0)
    y = data["y_test"] == "spam"
    for alpha in (1.0, 0.01):
        view.update(alpha=alpha)
        for name, cls in (("multinomial", MultinomialNB), ("bernoulli", BernoulliNB)):
            scores = cls(alpha=alpha).fit(data["X_train"], data["y_train"]).decision_function(
                data["X_test"])
            assert view.state["auc"][name] == pytest.approx(roc_auc_score(y, scores), abs=1e-12)
        hist = view.state["hist"]
        assert hist["ham"].sum() == pytest.approx(1.0) and hist["spam"].sum() == pytest.approx(1.0)
    view.update(model="bernoulli", alpha=1.0)
    scores = BernoulliNB().fit(data["X_train"], data["y_train"]).decision_function(data["X_test"])
    lim = view.score_lim * (1 - 1e-9)
    ref = np.histogram(np.clip(scores[y] / LN10, -lim, lim), bins=view.edges)[0] / y.sum()
    np.testing.assert_allclose(view.state["hist"]["spam"], ref)
    assert view._curves["bernoulli"][0].get_linewidth() > view._curves["multinomial"][0].get_linewidth()


def test_threshold_view_moves_of_c_are_blitted(data):
    view = _threshold_view(data)
    view.fig.canvas.draw()
    for v in (1.0, 2.0, -3.0):
        view.update(log10_c=v)
        assert view.redraw() == "blit"


def test_threshold_view_bad_parameters(data):
    view = _threshold_view(data)
    with pytest.raises(ValueError, match="alpha must be > 0"):
        view.update(alpha=0.0)
    with pytest.raises(ValueError, match="model must be one of"):
        view.update(model="svm")
    with pytest.raises(TypeError, match="unknown parameter"):
        view.update(c=3)
    with pytest.raises(ValueError, match="log10_c must be finite"):
        view.update(log10_c=np.inf)
    assert view.state["alpha"] == 1.0  # the failed updates changed nothing


@pytest.mark.parametrize("name", ["multinomial", "bernoulli"])
def test_email_view_log_odds_is_bias_plus_word_bars(data, models, name):
    text = ("Dear friend, CLICK here for FREE money money money! Meeting notes from the "
            "exmh list. neurips")
    view = EmailView(models, data["vocab"], text=text, model=name, max_words=4)
    st = view.state
    x = bag_of_words([text], data["vocab"])
    assert st["log_odds"] == pytest.approx(models[name].decision_function(x)[0], abs=1e-9)
    assert st["bias"] + st["contributions"].sum() == pytest.approx(st["log_odds"], abs=1e-9)
    assert st["verdict"] == ("spam" if st["log_odds"] > 0 else "ham")
    assert st["p_spam"] == pytest.approx(models[name].predict_proba(x)[0, 1])
    assert "neurips" in st["unseen"]
    widths = [b.get_width() for b in view._bars if b.get_visible()]
    assert widths[0] == pytest.approx(st["bias"])
    assert sum(widths[1:]) == pytest.approx(st["contributions"].sum())  # 4 bars + "other words"
    assert len(widths) == 1 + 4 + 1
    assert "other word(s)" in view._labels[-1].get_text()
    shown = [lab.get_text() for lab in view._labels if lab.get_visible()]
    assert shown[0] == f"bias b = {st['bias']:+.2f}"
    assert ("money (3)" in shown) == (name == "multinomial")  # counts matter only there
    assert widths[1:5] == sorted(widths[1:5], reverse=True)  # spam-most first
    if name == "multinomial":
        assert st["counts"][st["words"].index("money")] == 3


def test_email_view_empty_and_unseen_texts_and_threshold(data, models):
    view = EmailView(models, data["vocab"])
    for text in ("", "zzqx qwxq 123"):
        view.update(text=text, model="multinomial")
        assert view.state["n_known"] == 0
        assert view.state["log_odds"] == pytest.approx(view.state["bias"])
        prior = models["multinomial"].class_log_prior_
        assert view.state["log_odds"] == pytest.approx(prior[1] - prior[0])
        assert view.state["verdict"] == "ham"  # ham is the more common class
    view.update(log10_c=-1.0)  # c = 0.1 < the prior ratio: now an empty email is spam
    assert (view.state["verdict"] == "spam") == (view.state["bias"] > -LN10)
    with pytest.raises(TypeError, match="text must be a string"):
        view.update(text=42)
    with pytest.raises(ValueError, match="model must be one of"):
        view.update(model="gda")
    with pytest.raises(ValueError, match="missing"):
        EmailView({"multinomial": models["multinomial"]}, data["vocab"])
    with pytest.raises(TypeError, match="vocabulary must be a Vocabulary"):
        EmailView(models, list(data["vocab"].words))


def test_email_view_alt_text_reads_log_c_from_the_result(data, models):
    """The alt text states the threshold the verdict used: the result's ``log_c`` (natural log),
    not ``log10_c`` times a constant of the painter's own."""
    import dataclasses
    import math

    view = EmailView(models, data["vocab"])
    view.update(text="free money", log10_c=-1.0)
    assert f"against log c = {math.log(0.1):+.2f}:" in view.describe()  # oracle: ln 0.1
    # a result whose log_c is not log10_c * ln 10: the painter must say the result's number
    view.state = dataclasses.replace(view.state, log_c=-7.25)
    assert "against log c = -7.25:" in view.describe()


def test_top_words_figure_shows_the_models_top_features(data, models):
    fig = top_words_figure(models["multinomial"], data["vocab"], k=7)
    top = models["multinomial"].top_features(k=7, feature_names=list(data["vocab"].words))
    for ax, label in zip(fig.axes, ("spam", "ham")):
        widths = [p.get_width() for p in ax.patches]
        np.testing.assert_allclose(widths, [w for _, w in top[label]])
        assert [t.get_text() for t in ax.get_yticklabels()] == [w for w, _ in top[label]]
    with pytest.raises(ValueError, match="k must be >= 1"):
        top_words_figure(models["multinomial"], data["vocab"], k=0)


def test_confusion_figure_prints_the_counts(data, models):
    res = {n: binary_metrics(data["y_test"], m.predict(data["X_test"])) for n, m in models.items()}
    fig = confusion_figure(res)
    for ax, m in zip(fig.axes, res.values()):
        shown = sorted(int(t.get_text()) for t in ax.texts)
        assert shown == sorted(m["confusion"].ravel().tolist())
    with pytest.raises(ValueError, match="results is empty"):
        confusion_figure({})


def test_underflow_figure_counts_the_messages_below_float64(data, models):
    log10 = models["multinomial"].predict_joint_log_proba(data["X_test"]).max(axis=1) / LN10
    n = np.asarray(data["X_test"].sum(axis=1)).ravel()
    fig = underflow_figure(n, log10)
    below = int(np.sum(log10 < np.log10(np.finfo(float).smallest_subnormal)))
    joint = models["multinomial"].predict_joint_proba(data["X_test"]).max(axis=1)
    assert below == int(np.sum(joint == 0.0))  # the figure's line is where exp() gives 0.0
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert f"underflows: {below} of {len(n)} messages" in labels
    with pytest.raises(ValueError, match="same length"):
        underflow_figure([1, 2], [1.0])
    assert all(isinstance(t, mtext.Text) for t in fig.axes[0].get_legend().get_texts())
