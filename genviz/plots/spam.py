"""Views of the naive Bayes spam filter (notebook 07).

* :class:`SpamThresholdView` — Smola's threshold ``c`` on the likelihood ratio: the test
  messages' log-odds by class with the line ``log c``, and the ROC and precision-recall curves
  of both event models with the current operating point marked. Curves are computed once per
  ``alpha``; moving ``c`` only moves the line and the markers (blitted).
* :class:`EmailView` — a typed email: each word's contribution to the log-odds of spam (a
  bar per word), the bias, the total and the verdict.
The static figures (top words, confusion matrices, underflow) are in
:mod:`genviz.plots.spam_static`.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from genviz._validation import check_int, check_scalar
from genviz.naive_bayes import BernoulliNB, MultinomialNB  # noqa: F401  (the doctests' models)
from genviz.naive_bayes.studies import TEXT_MODELS, ThresholdStudy
from genviz.plots._base import View, fmt, new_figure
from genviz.plots.style import CLASS_COLORS, PALETTE, explorer_figsize
from genviz.text import Vocabulary, bag_of_words, word_contributions

__all__ = ["MODELS", "MODEL_COLORS", "HAM", "SPAM", "LN10", "SpamThresholdView", "EmailView"]

#: The two event models, by the names the controls use.
MODELS = TEXT_MODELS  # {"multinomial": MultinomialNB, "bernoulli": BernoulliNB}
MODEL_COLORS = {"multinomial": PALETTE["green"], "bernoulli": PALETTE["purple"]}
HAM, SPAM = CLASS_COLORS[0], CLASS_COLORS[1]  # classes_ = ["ham", "spam"]
LN10 = np.log(10.0)


def _check_model(model) -> str:
    if model not in MODELS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}")
    return model


def _nice_ceil(x: float) -> float:
    """The next of 1, 2, 5, 10, 20, 50, ... at or above ``x``."""
    x = max(float(x), 1e-9)
    base = 10.0 ** np.floor(np.log10(x))
    for m in (1.0, 2.0, 5.0, 10.0):
        if m * base >= x * (1 - 1e-12):
            return m * base
    return 10.0 * base  # pragma: no cover


class SpamThresholdView(View):
    """Where Smola's threshold ``c`` puts the filter on the ROC and precision-recall curves.

    A message is flagged as spam when ``P(x|spam) P(spam) / (P(x|ham) P(ham)) > c``, i.e. when
    its log-odds (``decision_function``) exceeds ``log c``. Top: the test messages' log-odds
    in base 10 (histograms per true class, as fractions of the class) and the line
    ``log10 c``. Below it, side by side: ROC and precision-recall curves of both event models, the
    selected one thick, with a marker at the current ``c``.

    ``update(log10_c=, alpha=, model=)`` takes any subset. The fits, scores and curves come
    from a :class:`genviz.naive_bayes.ThresholdStudy` (``study``, or one built from the four
    data arguments), computed once per ``alpha``; ``log10_c`` only moves artists. ``state`` holds ``log10_c``, ``alpha``,
    ``model``, ``points`` (model -> operating point: fpr, tpr, precision, recall, tp, fp, fn,
    tn), ``auc`` (model -> float), ``hist`` (ham and spam fractions per bin) and ``edges``.

    Parameters
    ----------
    X_train, X_test : (n, V) count matrices (dense or scipy.sparse), same vocabulary
    y_train, y_test : label arrays ("ham"/"spam")
    study : ThresholdStudy, optional
        Instead of the four data arguments.
    log10_c, alpha, model : initial threshold (base-10 log of c), smoothing, selected model
    positive : the label that counts as detected
    score_lim : half-width of the histogram's x-axis in log10 units (default: from the scores)
    n_bins : number of histogram bins

    Raises
    ------
    ValueError
        From ``update``: ``alpha <= 0``, an unknown ``model``, a non-finite ``log10_c``.

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    >>> y = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    >>> view = SpamThresholdView(X, y, X, y, log10_c=0.0)
    >>> view.state["points"]["multinomial"]["recall"], view.state["auc"]["multinomial"]
    (1.0, 1.0)
    >>> view.update(log10_c=30.0); view.state["points"]["multinomial"]["tp"]
    0
    """

    PARAMS = ("log10_c", "alpha", "model")

    def __init__(self, X_train=None, y_train=None, X_test=None, y_test=None, *, study=None,
                 log10_c=0.0, alpha=1.0, model="multinomial", positive="spam", score_lim=None,
                 n_bins=60, figsize=None):
        if study is None:
            study = ThresholdStudy(X_train, y_train, X_test, y_test, positive=positive)
        elif not isinstance(study, ThresholdStudy):
            raise TypeError(f"study must be a ThresholdStudy, got {type(study).__name__}")
        self.study, self.positive = study, study.positive
        self.params = dict(log10_c=0.0, alpha=None, model=None)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 6.4))
        super().__init__(fig)
        # the score histogram across the top, ROC and precision-recall below it: three panels
        # side by side would not fit the output-area width budget
        grid = fig.add_gridspec(2, 2)
        self.ax_hist = fig.add_subplot(grid[0, :])
        self.ax_roc, self.ax_pr = fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
        first = self.study.at(check_scalar(alpha, "alpha", low=0.0, low_open=True))
        if score_lim is None:
            s = np.abs(first["multinomial"].scores) / LN10
            score_lim = _nice_ceil(np.percentile(s, 98))
        self.score_lim = check_scalar(score_lim, "score_lim", low=0.0, low_open=True)
        self.edges = np.linspace(-self.score_lim, self.score_lim, check_int(n_bins, "n_bins", low=4) + 1)
        ax = self.ax_hist
        zeros = np.zeros(len(self.edges) - 1)
        # Histograms and curves change only with alpha or the model (then a full redraw);
        # a move of c only moves the line and the markers, the animated (blitted) artists.
        self._stairs = {
            "ham": ax.stairs(zeros, self.edges, fill=True, alpha=0.45, color=HAM,
                             label="ham (true class)"),
            "spam": ax.stairs(zeros, self.edges, fill=True, alpha=0.45, color=SPAM,
                              label="spam (true class)"),
        }
        self._vline = self.animate(ax.axvline(0.0, color="k", lw=2, label=r"$\log_{10} c$"))
        ax.set_xlim(self.edges[0], self.edges[-1])
        ax.set_ylim(0.0, 0.3)
        ax.set_xlabel(r"$\log_{10}\,\frac{P(x\,|\,\mathrm{spam})P(\mathrm{spam})}"
                      r"{P(x\,|\,\mathrm{ham})P(\mathrm{ham})}$  (clipped at the edges)")
        ax.set_ylabel("share of class")
        ax.legend(loc="upper left", fontsize="small", framealpha=0.9)
        ax.set_title("flag as spam when the ratio exceeds c", fontsize="medium")

        self._curves, self._markers = {}, {}
        for name in MODELS:
            col = MODEL_COLORS[name]
            roc = self.ax_roc.plot([], [], color=col, lw=1.2, label=name)[0]
            pr = self.ax_pr.plot([], [], color=col, lw=1.2, label=name)[0]
            mroc = self.ax_roc.plot([], [], "o", color=col, mec="k", ms=9, zorder=5)[0]
            mpr = self.ax_pr.plot([], [], "o", color=col, mec="k", ms=9, zorder=5)[0]
            self._curves[name] = (roc, pr)
            self._markers[name] = (self.animate(mroc), self.animate(mpr))
        for axc, xl, yl, title in ((self.ax_roc, "ham flagged (FPR, log)",
                                    "spam caught (TPR)", "ROC curve"),
                                   (self.ax_pr, "recall: spam caught",
                                    "precision", "precision-recall")):
            axc.set_xlabel(xl)
            axc.set_ylabel(yl)
            axc.set_title(title, fontsize="medium")
            axc.grid(alpha=0.3)
        # Spam filters live at small false-positive rates: a log axis shows that corner; a rate
        # of 0 is drawn at the left edge (half a message).
        n_neg = first["multinomial"].curves.n_neg
        self._fpr_floor = 0.5 / n_neg
        self.ax_roc.set_xscale("log")
        self.ax_roc.set_xlim(self._fpr_floor * 0.9, 1.05)
        self.ax_roc.set_ylim(-0.02, 1.02)
        self.ax_pr.set_xlim(-0.02, 1.02)
        self.ax_pr.set_ylim(0.0, 1.02)
        grid = np.geomspace(self._fpr_floor, 1.0, 50)
        self.ax_roc.plot(grid, grid, ls=":", color="0.6", lw=1, label="chance")
        # in the precision-recall panel's empty lower left (in the ROC panel it hid the curves)
        handles = self.ax_roc.get_legend_handles_labels()[0]
        self.ax_pr.legend(handles=handles, loc="lower left", fontsize="small",
                          title="event model", title_fontsize="small")
        self.update(log10_c=log10_c, alpha=alpha, model=model)
        self.finish_layout()

    def _histograms(self, scores):
        y_test = self.study.y_test
        lim = self.score_lim * (1 - 1e-9)
        s = np.clip(scores / LN10, -lim, lim)
        hist = {}
        for label in ("ham", "spam"):
            sel = s[(y_test == self.positive) == (label == "spam")]
            hist[label] = np.histogram(sel, bins=self.edges)[0] / max(sel.size, 1)
        return hist

    def update(self, **params) -> None:
        new = {**self.params, **params}
        log10_c = check_scalar(new["log10_c"], "log10_c")
        alpha = check_scalar(new["alpha"], "alpha", low=0.0, low_open=True)
        model = _check_model(new["model"])
        fits = self.study.at(alpha)
        refit = alpha != self.params["alpha"]
        if refit:
            for name, (roc, pr) in self._curves.items():
                cur = fits[name].curves
                roc.set_data(np.maximum(cur.fpr, self._fpr_floor), cur.tpr)
                pr.set_data(cur.recall, cur.precision)
        if refit or model != self.params["model"]:
            self.request_full_redraw()
            hist = self._histograms(fits[model].scores)
            for label, stairs in self._stairs.items():
                stairs.set_data(hist[label])
            top = max(h.max() for h in hist.values())
            if top > self.ax_hist.get_ylim()[1] or top < 0.4 * self.ax_hist.get_ylim()[1]:
                self.ax_hist.set_ylim(0.0, _nice_ceil(1.1 * top))
                self.relayout()  # tick labels of another width
            for name, (roc, pr) in self._curves.items():
                for line in (roc, pr):
                    line.set_linewidth(2.8 if name == model else 1.0)
                    line.set_alpha(1.0 if name == model else 0.55)
            self.state["hist"] = hist
        self.params = dict(log10_c=log10_c, alpha=alpha, model=model)
        lim = self.score_lim
        self._vline.set_xdata([np.clip(log10_c, -lim, lim)] * 2)
        points = {}
        for name, (mroc, mpr) in self._markers.items():
            pt = fits[name].curves.at(log10_c * LN10)
            mroc.set_data([max(pt["fpr"], self._fpr_floor)], [pt["tpr"]])
            mpr.set_data([pt["recall"]], [pt["precision"]])
            mroc.set_markersize(11 if name == model else 7)
            mpr.set_markersize(11 if name == model else 7)
            points[name] = pt
        self.state.update(log10_c=log10_c, alpha=alpha, model=model, points=points,
                          auc={n: fits[n].curves.auc for n in MODELS}, edges=self.edges)

    def describe(self) -> str:
        """Alt text from the state: the threshold and the operating point of the model."""
        s = self.state
        pt = s["points"][s["model"]]
        return (f"Spam filter threshold c = 10^{fmt(s['log10_c'])} (α = {fmt(s['alpha'])}, "
                f"{s['model']} model): top, histograms of the test messages' log10 odds per "
                f"class with the threshold line; below it, ROC (left) and precision-recall (right) "
                f"curves of both event models (AUC "
                + ", ".join(f"{m} {fmt(a)}" for m, a in s["auc"].items())
                + f") with the operating point marked: true positive rate {fmt(pt['tpr'])}, "
                f"false positive rate {fmt(pt['fpr'])}, precision {fmt(pt['precision'])}.")


class EmailView(View):
    """Per-word contributions of a typed email to the log-odds of spam, and the verdict.

    The log-odds of a naive Bayes text model is linear in the document's features:
    ``log P(x, spam) - log P(x, ham) = b + sum_j x_j w_j`` (``model.linear_form()``), with
    ``x_j`` the count of word ``j`` (multinomial) or its presence (Bernoulli, whose bias
    ``b`` also holds the contribution of every word being absent). One bar per word (the
    ``max_words`` largest in size; the rest pooled), one for ``b``; the verdict compares the
    total with ``log c``. A word's count is shown in brackets when above 1 (multinomial);
    the bias ``b`` is the log prior ratio (plus, for the Bernoulli model, the contribution of
    every dictionary word being absent; its bar may be clipped, its label gives the value).
    The readout carries the numbers.

    ``update(text=, model=, log10_c=)``; ``state`` has ``words``, ``contributions``,
    ``bias``, ``log_odds``, ``p_spam``, ``verdict``, ``unseen`` and ``n_known``.

    Parameters
    ----------
    models : dict
        "multinomial" and "bernoulli" -> fitted two-class text models.
    vocabulary : Vocabulary
        The one the models were fitted with.
    text, model, log10_c : initial email, selected model, threshold (base-10 log of c)
    max_words : number of word bars (the others are pooled into one bar)

    Raises
    ------
    TypeError
        ``vocabulary`` is not a Vocabulary; from ``update``, ``text`` is not a string.
    ValueError
        A model is missing; from ``update``, an unknown ``model``.

    Examples
    --------
    >>> from genviz.text import build_vocabulary, bag_of_words
    >>> docs = ["free money now", "free offer", "meeting notes", "notes on the meeting"]
    >>> y = ["spam", "spam", "ham", "ham"]
    >>> v = build_vocabulary(docs)
    >>> X = bag_of_words(docs, v)
    >>> view = EmailView({"multinomial": MultinomialNB().fit(X, y),
    ...                   "bernoulli": BernoulliNB().fit(X, y)}, v, text="free money, neurips")
    >>> view.state["verdict"], view.state["words"], view.state["unseen"]
    ('spam', ['free', 'money'], ['neurips'])
    """

    PARAMS = ("text", "model", "log10_c")

    def __init__(self, models: dict, vocabulary: Vocabulary, *, text: str = "",
                 model: str = "multinomial", log10_c: float = 0.0, max_words: int = 12,
                 figsize=None):
        if not isinstance(vocabulary, Vocabulary):
            raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
        missing = set(MODELS) - set(models)
        if missing:
            raise ValueError(f"models must hold fitted models for {sorted(MODELS)}; missing "
                             f"{sorted(missing)}")
        self.models = {name: models[name] for name in MODELS}
        self.linear = {name: m.linear_form() for name, m in self.models.items()}
        self.vocabulary = vocabulary
        self.max_words = check_int(max_words, "max_words", low=1)
        fig = new_figure(figsize=figsize or explorer_figsize(7.5, 4.8))
        super().__init__(fig)
        ax = self.ax = fig.add_subplot(1, 1, 1)
        n = self.max_words + 2  # bias, words, "other words"
        self._ys = np.arange(n)[::-1].astype(float)
        bars = ax.barh(self._ys, np.zeros(n), height=0.7, color="0.6")
        self._bars = [self.animate(b) for b in bars]
        label_tf = ax.get_yaxis_transform()
        self._labels = [self.animate(ax.text(-0.01, y, "", transform=label_tf, ha="right",
                                             va="center", fontsize="small")) for y in self._ys]
        self._verdict = self.animate(ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center",
                                             va="bottom", fontsize="large", weight="bold"))
        ax.axvline(0.0, color="k", lw=0.8)
        ax.set_yticks([])
        ax.set_ylim(-0.7, n - 0.3)
        # One range for both models, wide enough for typical words, so that typing and
        # switching models blit; a longer bias bar is clipped (its label gives its value).
        self._lim = 10.0
        ax.set_xlim(-self._lim, self._lim)
        ax.set_xlabel(r"log-odds contribution (ham $\leftarrow$ | $\rightarrow$ spam)")
        ax.grid(axis="x", alpha=0.3)
        fig.subplots_adjust(left=0.22, right=0.97, bottom=0.13, top=0.9)
        self.params = dict(text="", model="multinomial", log10_c=0.0)
        self.update(text=text, model=model, log10_c=log10_c)

    def update(self, **params) -> None:
        new = {**self.params, **params}
        text = new["text"]
        if not isinstance(text, str):
            raise TypeError(f"text must be a string (the email), got {type(text).__name__}")
        model = _check_model(new["model"])
        log10_c = check_scalar(new["log10_c"], "log10_c")
        w, b = self.linear[model]
        r = word_contributions(text, self.vocabulary, w, binary=model == "bernoulli")
        contrib = r["contributions"]
        order = np.argsort(-np.abs(contrib), kind="stable")
        top = order[: self.max_words]
        top = top[np.argsort(-contrib[top], kind="stable")]  # spam-most first
        rest = order[self.max_words:]
        # Short labels: drawing text costs per glyph and dominates a redraw.
        rows = [(f"bias b = {b:+.2f}", b)] + [(f"{r['words'][i]} ({r['counts'][i]})"
                                   if model == "multinomial" and r["counts"][i] > 1
                                   else r["words"][i], contrib[i]) for i in top]
        if rest.size:
            rows.append((f"{rest.size} other word(s)", float(contrib[rest].sum())))
        words_max = max((abs(v) for _, v in rows[1:]), default=0.0)
        # the default range, widened while a word's bar needs it (a change forces a full redraw)
        lim = max(self._lim, _nice_ceil(1.15 * words_max))
        if lim != self.ax.get_xlim()[1]:
            self.ax.set_xlim(-lim, lim)
            self.request_full_redraw()
        for k, (bar, label) in enumerate(zip(self._bars, self._labels)):
            shown = k < len(rows)
            if shown:
                name, v = rows[k]
                bar.set_width(v)
                bar.set_color("0.55" if k == 0 else (SPAM if v > 0 else HAM))
                label.set_text(name)
            else:
                bar.set_width(0.0)
                label.set_text("")
            bar.set_visible(shown)
            label.set_visible(shown)
        x = bag_of_words([text], self.vocabulary)
        log_odds = float(self.models[model].decision_function(x)[0])
        p_spam = float(expit(log_odds))
        is_spam = log_odds > log10_c * LN10
        verdict = "spam" if is_spam else "ham"
        # The comparison itself (Smola's rule: spam when the log-odds exceed log c), so the
        # figure shows what the threshold slider does.
        self._verdict.set_text(f"{verdict.upper()}: log-odds {log_odds:+.2f} "
                               f"{'>' if is_spam else '≤'} log c = {log10_c * LN10:+.2f}")
        self._verdict.set_color(SPAM if is_spam else HAM)
        self.params = dict(text=text, model=model, log10_c=log10_c)
        self.state = dict(words=r["words"], counts=r["counts"], contributions=contrib,
                          bias=float(b), log_odds=log_odds, p_spam=p_spam, verdict=verdict,
                          unseen=r["unseen"], n_known=len(r["words"]), model=model,
                          log10_c=log10_c, total_words=float(r["total"]))

    def describe(self) -> str:
        """Alt text from the state: the verdict and the words that weigh most."""
        s = self.state
        order = sorted(range(len(s["words"])), key=lambda i: -abs(s["contributions"][i]))[:3]
        words = ", ".join(f"{s['words'][i]} ({s['contributions'][i]:+.2f})" for i in order)
        return (f"Bar chart of each word's contribution to the log-odds of spam under the "
                f"{s['model']} model for a message with {s['n_known']} known words"
                f"{f' (largest: {words})' if words else ''}, bias b = {s['bias']:+.2f}; "
                f"log-odds {s['log_odds']:+.2f} against log c = "
                f"{s['log10_c'] * 2.302585092994046:+.2f}: verdict {s['verdict']} "
                f"(P(spam | x) = {fmt(s['p_spam'])}).")
