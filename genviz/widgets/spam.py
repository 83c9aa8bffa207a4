"""Explorers of the naive Bayes spam filter (notebook 07)."""

from __future__ import annotations

import html

from genviz.plots.spam import MODELS, EmailView, SpamThresholdView
from genviz.widgets._base import (Explorer, explorer_factory, float_slider, log_slider,
                                  readout_html, text_area, toggle_buttons)

__all__ = ["threshold_explorer", "threshold_readout", "email_explorer", "email_readout"]


def _model_toggle(value):
    return toggle_buttons("model", list(MODELS), value)


def _format_c(log10_c: float) -> str:
    """``c = 10^log10_c`` as text that never overflows (c = 1e400 is fine to show)."""
    e = int(log10_c // 1)
    if -300 < e < 300:
        return f"{10.0 ** log10_c:.3g}"
    return f"{10.0 ** (log10_c % 1):.3g}&times;10<sup>{e}</sup>"


def threshold_readout(state) -> str:
    """HTML table: for each event model (a column; the shown model in bold), the operating
    point at the current c. One row per measure keeps the table narrow enough to sit beside
    the figure in lecture mode and in a 1280-px JupyterLab with the file browser open."""
    names = list(state["points"])

    def cell(name, text):
        return f"<td><b>{text}</b></td>" if state["selected"][name] else f"<td>{text}</td>"

    measures = (("precision", lambda n, pt: f"{pt['precision']:.3f}"),
                ("recall", lambda n, pt: f"{pt['recall']:.3f}"),
                ("FPR", lambda n, pt: f"{pt['fpr']:.4f}"),
                ("ham flagged", lambda n, pt: f"{pt['fp']}"),
                ("spam missed", lambda n, pt: f"{pt['fn']}"),
                ("AUC", lambda n, pt: f"{state['auc'][n]:.4f}"))
    head = "<tr><th></th>" + "".join(cell(n, n).replace("td>", "th>") for n in names) + "</tr>"
    rows = "".join(f"<tr><th>{label}</th>"
                   + "".join(cell(n, fmt(n, state["points"][n])) for n in names) + "</tr>"
                   for label, fmt in measures)
    return readout_html(
        f"c = 10<sup>{state['log10_c']:.1f}</sup> = {_format_c(state['log10_c'])} &nbsp; "
        f"(log c = {state['log_c']:.2f}), &alpha; = {state['alpha']:.3g}",
        f"<table>{head}{rows}</table>")


@explorer_factory
def threshold_explorer(X_train, y_train, X_test, y_test, *, log10_c=0.0, alpha=1.0,
                       model="multinomial") -> Explorer:
    """Sliders for Smola's threshold ``c`` (as log10 c) and Laplace's ``alpha``.

    Moving ``c`` only moves the line and the operating points (cheap, continuous). Changing
    ``alpha`` refits both event models and recomputes the curves, so it updates when the
    slider is released.

    Parameters
    ----------
    X_train, y_train, X_test, y_test : count matrices and labels of one split, one vocabulary
    log10_c, alpha, model : initial values of the controls

    Returns
    -------
    Explorer
        Controls ``"log10_c"``, ``"alpha"``, ``"model"``; the view is a
        :class:`~genviz.plots.spam.SpamThresholdView`.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    >>> y = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    >>> e = threshold_explorer(X, y, X, y)
    >>> e.controls["log10_c"].value = 30.0
    >>> e.view.state["points"]["multinomial"]["recall"]
    0.0
    """
    view = SpamThresholdView(X_train, y_train, X_test, y_test, log10_c=log10_c, alpha=alpha,
                             model=model)
    controls = {
        "log10_c": float_slider("log₁₀ c", log10_c, -40.0, 40.0, 0.5, readout_format=".1f",
                                grid=True),
        "alpha": log_slider("α", alpha, -3, 1, 0.25, continuous_update=False),
        "model": _model_toggle(model),
    }
    return Explorer(view, controls, threshold_readout,
                    title="Smola's threshold c: flag as spam when P(x|spam)P(spam) > c "
                          "P(x|ham)P(ham)")


def email_readout(state) -> str:
    """HTML: the verdict, the log-odds and its parts, the words left out."""
    unseen = ", ".join(html.escape(w) for w in state["unseen"][:30]) or "none"
    more = f" (+{len(state['unseen']) - 30} more)" if len(state["unseen"]) > 30 else ""
    colour = "#D55E00" if state["verdict"] == "spam" else "#0072B2"
    return readout_html(
        f"<b style='color:{colour}'>verdict: {state['verdict'].upper()}</b> "
        f"(threshold log c = {state['log_c']:.2f})",
        f"log-odds = b + &Sigma; words = {state['bias']:+.2f} "
        f"{state['total_words']:+.2f} = {state['log_odds']:+.2f}",
        f"P(spam | x) = {state['p_spam']:.4f}",
        f"{state['n_known']} dictionary word(s); not in the dictionary (stop words or "
        f"unseen in training, ignored): {unseen}{more}")


@explorer_factory
def email_explorer(models: dict, vocabulary, *, text: str = "", model="multinomial",
                   log10_c: float = 0.0, max_words: int = 12, edits=()) -> Explorer:
    """Type an email; see each word's contribution to the log-odds of spam and the verdict.

    ``models`` maps "multinomial" and "bernoulli" to fitted models. The text box updates when
    it loses focus (click outside it): ``continuous_update=False``.

    Parameters
    ----------
    models : dict, "multinomial" and "bernoulli" -> fitted models
    vocabulary : Vocabulary they were fitted with
    text, model, log10_c : initial values of the controls
    max_words : number of word bars
    edits : sequence of str, optional
        Other texts the lesson asks for (the email with a word added): with ``text`` they are
        the text box's precomputed states, so they move without a kernel (the course
        website); any other text needs the kernel.

    Returns
    -------
    Explorer
        Controls ``"text"``, ``"model"``, ``"log10_c"``; the view is an
        :class:`~genviz.plots.spam.EmailView`.

    Examples
    --------
    >>> from genviz.naive_bayes import BernoulliNB, MultinomialNB
    >>> from genviz.text import bag_of_words, build_vocabulary
    >>> docs, y = ["free money", "free offer", "meeting notes", "notes"], ["spam", "spam", "ham", "ham"]
    >>> v = build_vocabulary(docs)
    >>> X = bag_of_words(docs, v)
    >>> e = email_explorer({"multinomial": MultinomialNB().fit(X, y),
    ...                     "bernoulli": BernoulliNB().fit(X, y)}, v, text="meeting notes")
    >>> e.view.state["verdict"]
    'ham'
    >>> e.controls["text"].value = "free money"; e.view.state["verdict"]
    'spam'
    """
    if isinstance(edits, str) or not all(isinstance(t, str) for t in edits):
        raise TypeError(f"edits must be a sequence of str (texts), got {edits!r}")
    view = EmailView(models, vocabulary, text=text, model=model, log10_c=log10_c,
                     max_words=max_words)
    controls = {
        "text": text_area("email", text, placeholder="Type an email here",
                          presets=[text, *edits], grid=True),
        "model": _model_toggle(model),
        "log10_c": float_slider("log₁₀ c", log10_c, -40.0, 40.0, 0.5, readout_format=".1f",
                                grid=True),
    }
    return Explorer(view, controls, email_readout, title="Which words make it spam?")
