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

from genviz.plots._base import View, fmt, new_figure
from genviz.plots.style import CLASS_COLORS, PALETTE, by_layout, explorer_figsize, top_and_pair
from genviz.studies.spam import (LN10, MODEL_NAMES, EmailResult, EmailStudy,
                                 SpamThresholdResult, SpamThresholdStudy)

__all__ = ["MODELS", "MODEL_COLORS", "HAM", "SPAM", "LN10", "SpamThresholdView", "EmailView"]

#: The two event models, by the names the controls use (the estimators:
#: :data:`genviz.studies.spam.TEXT_MODELS`).
MODELS = MODEL_NAMES
MODEL_COLORS = {"multinomial": PALETTE["green"], "bernoulli": PALETTE["purple"]}
HAM, SPAM = CLASS_COLORS[0], CLASS_COLORS[1]  # classes_ = ["ham", "spam"]


class SpamThresholdView(View, study=SpamThresholdStudy):
    """Where Smola's threshold ``c`` puts the filter on the ROC and precision-recall curves.

    A message is flagged as spam when ``P(x|spam) P(spam) / (P(x|ham) P(ham)) > c``, i.e. when
    its log-odds (``decision_function``) exceeds ``log c``. Top: the test messages' log-odds
    in base 10 (histograms per true class, as fractions of the class) and the line
    ``log10 c``. Below it, side by side: ROC and precision-recall curves of both event models, the
    selected one thick, with a marker at the current ``c``.

    ``update(log10_c=, alpha=, model=)`` takes any subset. The fits, scores and curves come
    from a :class:`genviz.studies.spam.ThresholdStudy` (``study``, or one built from the four
    data arguments), computed once per ``alpha``; ``log10_c`` only moves artists. ``state`` is
    a :class:`~genviz.studies.spam.SpamThresholdResult`: ``log10_c``, ``alpha``, ``model``,
    ``points`` (model -> operating point: fpr, tpr, precision, recall, tp, fp, fn, tn),
    ``auc`` (model -> float), ``hist`` (ham and spam fractions per bin) and ``edges``.

    Parameters
    ----------
    X_train, y_train, X_test, y_test, positive, score_lim, n_bins
        Passed to the study, :class:`~genviz.studies.spam.SpamThresholdStudy`, which documents
        them (the four data arguments, the label that counts as detected, the histogram's
        half-width in log10 units and its number of bins).
    study : ThresholdStudy, optional
        Instead of the four data arguments (the study's ``fits``).
    log10_c, alpha, model : initial threshold (base-10 log of c), smoothing, selected model

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

    def __init__(self, X_train=None, y_train=None, X_test=None, y_test=None, *, study=None,
                 log10_c=0.0, alpha=1.0, model="multinomial", positive="spam", score_lim=None,
                 n_bins=60, figsize=None):
        static = self.use_study(X_train, y_train, X_test, y_test, fits=study, positive=positive,
                                score_lim=score_lim, n_bins=n_bins, alpha=alpha)
        self.score_lim, self.edges = static.score_lim, static.edges
        # three panels: the score histogram, ROC and precision-recall (narrow: stacked); 5.6 in
        # high, so controls and figure share one screen of JupyterLab at 1280x800 (#37 item 6)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 5.6, panels=(3, 1)))
        super().__init__(fig)
        # the score histogram across the top, ROC and precision-recall below it: three panels
        # side by side would not fit the output-area width budget
        self.ax_hist, self.ax_roc, self.ax_pr = top_and_pair(fig)
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
        self.ax_roc.set_xscale("log")
        self.ax_roc.set_xlim(static.fpr_floor * 0.9, 1.05)
        self.ax_roc.set_ylim(-0.02, 1.02)
        self.ax_pr.set_xlim(-0.02, 1.02)
        self.ax_pr.set_ylim(0.0, 1.02)
        self.ax_roc.plot(static.chance, static.chance, ls=":", color="0.6", lw=1, label="chance")
        # in the precision-recall panel's empty lower left (in the ROC panel it hid the curves)
        handles = self.ax_roc.get_legend_handles_labels()[0]
        self.ax_pr.legend(handles=handles, loc="lower left", fontsize="small",
                          title="event model", title_fontsize="small")
        self.update(log10_c=log10_c, alpha=alpha, model=model)
        self.finish_layout()

    def paint(self, r: SpamThresholdResult, changed) -> None:
        if "alpha" in changed:
            for name, (roc, pr) in self._curves.items():
                roc.set_data(*r.roc[name])
                pr.set_data(*r.pr[name])
        if "alpha" in changed or "model" in changed:
            self.request_full_redraw()
            for label, stairs in self._stairs.items():
                stairs.set_data(r.hist[label])
            if self.follow_top(self.ax_hist, r.hist_top, r.hist_ylim):
                self.relayout()  # tick labels of another width
            for name, (roc, pr) in self._curves.items():
                for line in (roc, pr):
                    line.set_linewidth(2.8 if r.selected[name] else 1.0)
                    line.set_alpha(1.0 if r.selected[name] else 0.55)
        self._vline.set_xdata([r.threshold_x, r.threshold_x])
        for name, (mroc, mpr) in self._markers.items():
            mroc.set_data([r.roc_marker[name][0]], [r.roc_marker[name][1]])
            mpr.set_data([r.pr_marker[name][0]], [r.pr_marker[name][1]])
            mroc.set_markersize(11 if r.selected[name] else 7)
            mpr.set_markersize(11 if r.selected[name] else 7)

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


class EmailView(View, study=EmailStudy):
    """Per-word contributions of a typed email to the log-odds of spam, and the verdict.

    The log-odds of a naive Bayes text model is linear in the document's features:
    ``log P(x, spam) - log P(x, ham) = b + sum_j x_j w_j`` (``model.linear_form()``), with
    ``x_j`` the count of word ``j`` (multinomial) or its presence (Bernoulli, whose bias
    ``b`` also holds the contribution of every word being absent). One bar per word (the
    ``max_words`` largest in size; the rest pooled), one for ``b``; the verdict compares the
    total with ``log c``. A word's count is shown in brackets when above 1 (multinomial);
    the bias ``b`` is the log prior ratio (plus, for the Bernoulli model, the contribution of
    every dictionary word being absent; its bar may be clipped, its label gives the value).
    The readout carries the numbers; they come from a :class:`genviz.studies.spam.EmailStudy`.

    ``update(text=, model=, log10_c=)``; ``state`` is a
    :class:`~genviz.studies.spam.EmailResult`: ``words``, ``contributions``, ``bias``,
    ``log_odds``, ``p_spam``, ``verdict``, ``unseen`` and ``n_known``.

    Parameters
    ----------
    models, vocabulary
        Passed to the study, :class:`~genviz.studies.spam.EmailStudy`, which documents them
        (the two fitted text models by name, and the vocabulary they were fitted with).
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
    >>> from genviz.naive_bayes import BernoulliNB, MultinomialNB
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

    def __init__(self, models: dict, vocabulary, *, text: str = "",
                 model: str = "multinomial", log10_c: float = 0.0, max_words: int = 12,
                 figsize=None):
        static = self.use_study(models, vocabulary, max_words=max_words)
        self.max_words = static.max_words
        # narrow: a taller panel, its 14 rows of words need the height
        fig = new_figure(figsize=figsize or explorer_figsize(7.5, 4.8, narrow_aspect=1.0))
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
                                             va="bottom", fontsize=by_layout("large", "medium"),
                                             weight="bold"))
        ax.axvline(0.0, color="k", lw=0.8)
        ax.set_yticks([])
        ax.set_ylim(-0.7, n - 0.3)
        # One range for both models, wide enough for typical words, so that typing and
        # switching models blit; a longer bias bar is clipped (its label gives its value).
        ax.set_xlim(-10.0, 10.0)
        # narrow: on two lines (one is wider than a phone's panel)
        ax.set_xlabel(r"log-odds contribution" + by_layout(" ", "\n")
                      + r"(ham $\leftarrow$ | $\rightarrow$ spam)")
        ax.grid(axis="x", alpha=0.3)
        fig.subplots_adjust(**by_layout(dict(left=0.22, right=0.97, bottom=0.13, top=0.9),
                                        dict(left=0.33, right=0.96, bottom=0.19, top=0.86)))
        self.update(text=text, model=model, log10_c=log10_c)

    @staticmethod
    def _label(kind, word, count, value, model) -> str:
        # Short labels: drawing text costs per glyph and dominates a redraw.
        if kind == "bias":
            return f"bias b = {value:+.2f}"
        if kind == "rest":
            return f"{count} other word(s)"
        return f"{word} ({count})" if model == "multinomial" and count > 1 else word

    def paint(self, r: EmailResult, changed) -> None:
        self.set_limits(self.ax, xlim=(-r.xlim, r.xlim))
        for k, (bar, label, row) in enumerate(zip(self._bars, self._labels, r.bars)):
            shown, kind, word, count, v = row
            if shown:
                bar.set_width(v)
                bar.set_color("0.55" if k == 0 else (SPAM if v > 0 else HAM))
                label.set_text(self._label(kind, word, count, v, r.model))
            else:
                bar.set_width(0.0)
                label.set_text("")
            bar.set_visible(shown)
            label.set_visible(shown)
        # The comparison itself (Smola's rule: spam when the log-odds exceed log c), so the
        # figure shows what the threshold slider does.
        self._verdict.set_text(f"{r.verdict.upper()}: log-odds {r.log_odds:+.2f}"
                               + by_layout(" ", "\n")  # narrow: two lines
                               + f"{'>' if r.is_spam else '≤'} log c = {r.log_c:+.2f}")
        self._verdict.set_color(SPAM if r.is_spam else HAM)

    def describe(self) -> str:
        """Alt text from the state: the verdict and the words that weigh most."""
        s = self.state
        words = ", ".join(f"{w} ({c:+.2f})" for w, c in s["largest"])
        return (f"Bar chart of each word's contribution to the log-odds of spam under the "
                f"{s['model']} model for a message with {s['n_known']} known words"
                f"{f' (largest: {words})' if words else ''}, bias b = {s['bias']:+.2f}; "
                f"log-odds {s['log_odds']:+.2f} against log c = "
                f"{s['log_c']:+.2f}: verdict {s['verdict']} "
                f"(P(spam | x) = {fmt(s['p_spam'])}).")
