"""Static figures of the naive Bayes spam filter (notebook 07): the most indicative words,
confusion matrices side by side, and where a product of word probabilities underflows."""

from __future__ import annotations

import numpy as np

from genviz.plots._base import finish_layout, new_figure
from genviz.plots.spam import HAM, SPAM
from genviz.plots.style import PALETTE, PANEL_CMAP, explorer_figsize, panel_row_width
from genviz.studies.spam_static import (ConfusionResult, TopWordsResult, UnderflowResult,
                                        confusion_figure_study, top_words_figure_study,
                                        underflow_figure_study)

__all__ = ["top_words_figure", "confusion_figure", "underflow_figure"]


# -- static figures -------------------------------------------------------------------------------
def top_words_figure(model, vocabulary, *, k: int = 15, figsize=None):
    """The ``k`` most spam-indicative and most ham-indicative words of a fitted model.

    Bars are the log-ratios ``w_j`` of :meth:`top_features` (for the multinomial model
    ``log theta_spam,j - log theta_ham,j``): how much one occurrence moves the log-odds.

    Parameters
    ----------
    model : fitted MultinomialNB or BernoulliNB with classes "ham" and "spam"
    vocabulary : Vocabulary
    k : int >= 1

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from genviz.naive_bayes import MultinomialNB
    >>> from genviz.text import build_vocabulary, bag_of_words
    >>> docs, y = ["free money", "free offer", "meeting notes", "notes"], ["spam", "spam", "ham", "ham"]
    >>> v = build_vocabulary(docs)
    >>> fig = top_words_figure(MultinomialNB().fit(bag_of_words(docs, v), y), v, k=2)
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['free', 'money']
    """
    return _paint_top_words(top_words_figure_study(model, vocabulary, k=k), figsize=figsize)


def _paint_top_words(r: TopWordsResult, *, figsize=None):
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.8))
    axes = fig.subplots(1, 2)
    for ax, label, colour in ((axes[0], "spam", SPAM), (axes[1], "ham", HAM)):
        words, weights = zip(*r.top[label])
        ys = np.arange(len(words))[::-1]
        ax.barh(ys, weights, color=colour)
        ax.set_yticks(ys, words)
        ax.set_xlabel(f"log-ratio in favour of {label}\n(per occurrence)")
        ax.set_title(f"{label}-indicative words", fontsize="medium")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"{r.model_name}(alpha={r.alpha:g}), |V| = {r.vocabulary_size}",
                 fontsize="medium")
    finish_layout(fig)
    return fig


def confusion_figure(results: dict, *, labels=("ham", "spam"), figsize=None):
    """Confusion matrices side by side, painted from :func:`confusion_figure_study`
    (``results`` maps a title to :func:`binary_metrics`; it raises what the study raises).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from genviz.model_selection import binary_metrics
    >>> fig = confusion_figure({"a": binary_metrics(["spam", "ham"], ["spam", "spam"])})
    >>> sorted(t.get_text() for t in fig.axes[0].texts)
    ['0', '0', '1', '1']
    """
    return _paint_confusion(confusion_figure_study(results), labels=labels, figsize=figsize)


def _paint_confusion(r: ConfusionResult, *, labels=("ham", "spam"), figsize=None):
    n = len(r.panels)
    fig = new_figure(figsize=figsize or explorer_figsize(panel_row_width(n, 3.6, 0.4), 4.0))
    axes = np.atleast_1d(fig.subplots(1, n))
    for ax, panel in zip(axes, r.panels):
        cm = panel.counts
        ax.imshow(panel.shares, cmap=PANEL_CMAP, vmin=0, vmax=1.4)
        for i in range(2):
            for j in range(2):
                ax.text(j, i, f"{cm[i, j]}", ha="center", va="center", fontsize="large")
        ax.set_xticks([0, 1], list(labels))
        ax.set_yticks([0, 1], list(labels))
        ax.set(xlabel="predicted", ylabel="true")
        ax.set_title(f"{panel.title}: accuracy {panel.accuracy:.3f}\nprecision "
                     f"{panel.precision:.3f}, recall {panel.recall:.3f}", fontsize="medium")
    finish_layout(fig)
    return fig


def underflow_figure(n_words, log10_joint, *, figsize=(7.0, 4.2)):
    """log10 P(x, y) of each message against its number of words, and where float64 ends.

    Products of many word probabilities below ``~1e-308`` (``1e-324`` with subnormals) are
    rounded to 0.0: both classes' scores vanish, the posterior becomes 0/0. Summing logs
    instead keeps every message far inside the representable range.

    Parameters
    ----------
    n_words : array_like of shape (n,)
        Number of dictionary words in each message.
    log10_joint : array_like of shape (n,)
        ``log10 P(x, y)`` of each message (e.g. of its more likely class).

    Returns
    -------
    matplotlib.figure.Figure
        Painted from :func:`underflow_figure_study`, which raises a ``ValueError`` if the two
        arrays are not 1-D of the same length.

    Examples
    --------
    >>> fig = underflow_figure([10, 100, 300], [-30.0, -290.0, -900.0])
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()][-1]
    'underflows: 1 of 3 messages'
    """
    return _paint_underflow(underflow_figure_study(n_words, log10_joint), figsize=figsize)


def _paint_underflow(r: UnderflowResult, *, figsize=(7.0, 4.2)):
    fig = new_figure(figsize=figsize)
    ax = fig.add_subplot(1, 1, 1)
    ax.axhspan(r.span_bottom, r.floor, color=PALETTE["vermillion"], alpha=0.12,
               label="product rounds to 0.0 in float64")
    ax.axhline(r.floor, color=PALETTE["vermillion"], lw=1.5)
    ax.scatter(r.n_words_ok, r.log10_ok, s=8, color=PALETTE["green"], alpha=0.6,
               label="product still representable")
    ax.scatter(r.n_words_below, r.log10_below, s=8, color=PALETTE["vermillion"], alpha=0.6,
               label=f"underflows: {r.n_below} of {r.n} messages")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("number of known words in the message (symlog)")
    ax.set_ylabel(r"$\log_{10} P(x, y)$ of the more likely class")
    ax.set_title(r"the product $P(y)\prod_j P(x_j|y)$ underflows, its log does not",
                 fontsize="medium")
    ax.legend(loc="lower left", fontsize="small")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
