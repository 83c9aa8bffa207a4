"""What the spam-filter views show (notebook 07), computed: Smola's threshold ``c`` on both text
event models with their ROC and precision-recall curves (:class:`SpamThresholdStudy`, built on
:class:`ThresholdStudy`: both models fitted per smoothing ``alpha``, once) and each word's
contribution to a typed email's log-odds (:class:`EmailStudy`).
:mod:`genviz.plots.spam` paints these results."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import expit

from genviz._validation import check_int, check_scalar
from genviz.model_selection import ThresholdCurves
from genviz.naive_bayes.text import BernoulliNB, MultinomialNB
from genviz.studies._base import Result, Study, nice_ceil
from genviz.text import Vocabulary, bag_of_words, word_contributions

__all__ = ["TEXT_MODELS", "MODEL_NAMES", "LN10", "ThresholdFit", "ThresholdStudy",
           "SpamThresholdStatic", "SpamThresholdResult", "SpamThresholdStudy", "EmailStatic",
           "EmailResult", "EmailStudy"]

#: The two text event models, by the names the spam explorers use.
TEXT_MODELS = {"multinomial": MultinomialNB, "bernoulli": BernoulliNB}
#: Their names, in the order the controls show them.
MODEL_NAMES = tuple(TEXT_MODELS)
#: ``log(10)``: a threshold ``c`` is given as ``log10 c``; the log-odds are natural logs.
LN10 = np.log(10.0)


class ThresholdFit(NamedTuple):
    """One fitted text model, its test log-odds and their threshold curves."""

    model: object  #: the fitted MultinomialNB or BernoulliNB
    scores: np.ndarray  #: ``decision_function`` of the test documents
    curves: ThresholdCurves  #: ROC and precision-recall over every threshold


class ThresholdStudy:
    """Smola's threshold ``c`` on both text event models: for a smoothing ``alpha``, each model
    fitted on the training documents, the test documents' log-odds and their ROC and
    precision-recall curves over every threshold (:class:`~genviz.model_selection.ThresholdCurves`).
    Computed once per ``alpha`` (:meth:`at`); an operating point is then a bisection
    (``study.at(alpha)[name].curves.at(log_c)``).

    Parameters
    ----------
    X_train, X_test : (n, V) count matrices (dense or scipy.sparse), same vocabulary
    y_train, y_test : label arrays ("ham"/"spam")
    positive : the label that counts as detected

    Raises
    ------
    ValueError
        From :meth:`at`: ``alpha <= 0``; the test labels lack a class (from ThresholdCurves).

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    >>> y = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    >>> fits = ThresholdStudy(X, y, X, y).at(1.0)
    >>> sorted(fits), fits["multinomial"].curves.auc
    (['bernoulli', 'multinomial'], 1.0)
    """

    MODELS = TEXT_MODELS

    def __init__(self, X_train, y_train, X_test, y_test, *, positive="spam"):
        self.X_train, self.y_train = X_train, np.asarray(y_train)
        self.X_test, self.y_test = X_test, np.asarray(y_test)
        self.positive = positive
        self._fits: dict = {}

    def at(self, alpha) -> dict:
        """``{model name: ThresholdFit}`` for smoothing ``alpha`` (> 0), computed once."""
        alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
        key = round(alpha, 12)
        if key not in self._fits:
            out = {}
            for name, cls in self.MODELS.items():
                model = cls(alpha=alpha).fit(self.X_train, self.y_train)
                scores = model.decision_function(self.X_test)
                out[name] = ThresholdFit(model, scores,
                                         ThresholdCurves(scores, self.y_test, positive=self.positive))
            self._fits[key] = out
        return self._fits[key]


def _check_model(model) -> str:
    if model not in TEXT_MODELS:
        raise ValueError(f"model must be one of {list(TEXT_MODELS)}, got {model!r}")
    return model


# -- Smola's threshold c ---------------------------------------------------------------------------
class SpamThresholdStatic(Result):
    """What the threshold view draws once.

    Attributes
    ----------
    score_lim : float
        Half-width of the log10-odds axis.
    edges : ndarray of shape (n_bins + 1,)
        The histograms' bins over it.
    fpr_floor : float
        Half a negative message as a rate: a false-positive rate of 0 is drawn there (log axis).
    chance : ndarray of shape (50,)
        The chance line's rates, log-spaced from ``fpr_floor`` to 1.
    """

    score_lim: float
    edges: np.ndarray
    fpr_floor: float
    chance: np.ndarray


class SpamThresholdResult(Result):
    """Both event models at one smoothing ``alpha`` and threshold ``log10 c``.

    Attributes
    ----------
    log10_c : float
    log_c : float
        The natural log of the threshold ``c`` (``log10_c · ln 10``).
    alpha : float
    model : str
        The selected event model.
    selected : dict
        Model name -> whether it is the selected one.
    points : dict
        Model name -> operating point at ``c`` (fpr, tpr, precision, recall, tp, fp, fn, tn).
    auc : dict
        Model name -> area under its ROC curve.
    hist : dict
        ``"ham"``, ``"spam"`` -> the selected model's test log10-odds histogram, as fractions
        of the class (scores clipped to the axis).
    hist_top : float
        The tallest of both histograms' bars.
    hist_ylim : float
        A round axis top above it (``nice_ceil(1.1 * hist_top)``).
    edges : ndarray of shape (n_bins + 1,)
    roc : dict
        Model name -> (false-positive rates floored at ``fpr_floor``, true-positive rates).
    pr : dict
        Model name -> (recalls, precisions).
    roc_marker : dict
        Model name -> the operating point on the ROC axes (floored rate, tpr).
    pr_marker : dict
        Model name -> the operating point on the precision-recall axes (recall, precision).
    threshold_x : float
        ``log10 c`` clipped to the histogram's axis.
    """

    log10_c: float
    log_c: float
    alpha: float
    model: str
    selected: dict
    points: dict
    auc: dict
    hist: dict
    hist_top: float
    hist_ylim: float
    edges: np.ndarray
    roc: dict
    pr: dict
    roc_marker: dict
    pr_marker: dict
    threshold_x: float


class SpamThresholdStudy(Study):
    """Smola's threshold ``c`` on the likelihood ratio of both text event models: a message is
    flagged as spam when its log-odds exceed ``log c``. The fits, test scores and curves come
    from a :class:`ThresholdStudy` (``fits``, or one built from the four data arguments),
    computed once per ``alpha``; a threshold is then a bisection.

    Parameters
    ----------
    X_train, X_test : (n, V) count matrices (dense or scipy.sparse), same vocabulary
    y_train, y_test : label arrays ("ham"/"spam")
    fits : ThresholdStudy, optional
        Instead of the four data arguments.
    positive : the label that counts as detected
    score_lim : float, optional
        Half-width of the histograms' axis in log10 units (default: the 98th percentile of the
        multinomial model's absolute test log10-odds at ``alpha``, rounded up to 1, 2, 5, 10 ...).
    n_bins : int >= 4
    alpha : float > 0
        The smoothing ``score_lim`` is read at.

    Examples
    --------
    >>> X = np.array([[3, 0, 1], [2, 1, 0], [0, 2, 3], [1, 0, 4], [0, 3, 1], [4, 1, 0]])
    >>> y = np.array(["spam", "spam", "ham", "ham", "ham", "spam"])
    >>> r = SpamThresholdStudy(X, y, X, y)(log10_c=0.0)
    >>> r.points["multinomial"]["recall"], r.auc["multinomial"]
    (1.0, 1.0)
    """

    def __init__(self, X_train=None, y_train=None, X_test=None, y_test=None, *, fits=None,
                 positive="spam", score_lim=None, n_bins=60, alpha=1.0):
        if fits is None:
            fits = ThresholdStudy(X_train, y_train, X_test, y_test, positive=positive)
        elif not isinstance(fits, ThresholdStudy):
            raise TypeError(f"study must be a ThresholdStudy, got {type(fits).__name__}")
        self.fits, self.positive = fits, fits.positive
        first = self.fits.at(check_scalar(alpha, "alpha", low=0.0, low_open=True))
        if score_lim is None:
            s = np.abs(first["multinomial"].scores) / LN10
            score_lim = nice_ceil(np.percentile(s, 98))
        self.score_lim = check_scalar(score_lim, "score_lim", low=0.0, low_open=True)
        self.edges = np.linspace(-self.score_lim, self.score_lim,
                                 check_int(n_bins, "n_bins", low=4) + 1)
        # spam filters live at small false-positive rates: a log axis; a rate of 0 is drawn at
        # the left edge (half a message)
        self.fpr_floor = 0.5 / first["multinomial"].curves.n_neg

    def static(self) -> SpamThresholdStatic:
        return SpamThresholdStatic(self.score_lim, self.edges, self.fpr_floor,
                                   np.geomspace(self.fpr_floor, 1.0, 50))

    def _histograms(self, scores) -> dict:
        y_test = self.fits.y_test
        lim = self.score_lim * (1 - 1e-9)
        s = np.clip(scores / LN10, -lim, lim)
        hist = {}
        for label in ("ham", "spam"):
            sel = s[(y_test == self.positive) == (label == "spam")]
            hist[label] = np.histogram(sel, bins=self.edges)[0] / max(sel.size, 1)
        return hist

    def __call__(self, *, log10_c=0.0, alpha=1.0, model="multinomial") -> SpamThresholdResult:
        log10_c = check_scalar(log10_c, "log10_c")
        alpha = check_scalar(alpha, "alpha", low=0.0, low_open=True)
        model = _check_model(model)
        fits = self.fits.at(alpha)
        hist = self._histograms(fits[model].scores)
        top = max(h.max() for h in hist.values())
        points = {name: fits[name].curves.at(log10_c * LN10) for name in TEXT_MODELS}
        curves = {name: fits[name].curves for name in TEXT_MODELS}
        return SpamThresholdResult(
            log10_c=log10_c, log_c=log10_c * LN10, alpha=alpha, model=model,
            selected={name: name == model for name in TEXT_MODELS}, points=points,
            auc={n: curves[n].auc for n in TEXT_MODELS}, hist=hist, hist_top=top,
            hist_ylim=nice_ceil(1.1 * top), edges=self.edges,
            roc={n: (np.maximum(c.fpr, self.fpr_floor), c.tpr) for n, c in curves.items()},
            pr={n: (c.recall, c.precision) for n, c in curves.items()},
            roc_marker={n: (max(pt["fpr"], self.fpr_floor), pt["tpr"])
                        for n, pt in points.items()},
            pr_marker={n: (pt["recall"], pt["precision"]) for n, pt in points.items()},
            threshold_x=np.clip(log10_c, -self.score_lim, self.score_lim))


# -- a typed email ---------------------------------------------------------------------------------
class EmailStatic(Result):
    """What the email view draws once.

    Attributes
    ----------
    max_words : int
        Word bars shown (the others pooled into one).
    """

    max_words: int


class EmailResult(Result):
    """A typed email under one event model: each word's contribution to the log-odds of spam.

    Attributes
    ----------
    words : list of str
        The dictionary words of the email.
    counts : ndarray of shape (n_known,), dtype=int
        How often each occurs.
    contributions : ndarray of shape (n_known,)
        Each word's term of the log-odds (``x_j w_j``).
    bias : float
        ``b`` of the linear form (the log prior ratio, and for the Bernoulli model every word
        being absent).
    total_words : float
        The words' sum.
    log_odds : float
        ``b`` plus the words' sum (``decision_function``).
    p_spam : float
        ``P(spam | x) = expit(log_odds)``.
    log_c : float
        The threshold as a log, ``log10_c * log(10)``.
    is_spam : bool
        Whether the log-odds exceed it.
    verdict : str
        ``"spam"`` or ``"ham"``.
    unseen : list of str
        The email's words not in the dictionary.
    n_known : int
    model : str
    log10_c : float
    largest : list of (str, float)
        The three words that weigh most (by absolute contribution).
    bars : tuple
        One per bar slot (the bias, ``max_words`` words, the rest pooled): ``(shown, kind,
        word, count, value)``, kind ``"bias"``, ``"word"`` or ``"rest"`` (``count`` words).
    xlim : float
        The bars' axis half-width: 10, widened to a round value while a word's bar needs it.
    """

    words: list
    counts: np.ndarray
    contributions: np.ndarray
    bias: float
    total_words: float
    log_odds: float
    p_spam: float
    log_c: float
    is_spam: bool
    verdict: str
    unseen: list
    n_known: int
    model: str
    log10_c: float
    largest: list
    bars: tuple
    xlim: float


class EmailStudy(Study):
    """Per-word contributions of a typed email to the log-odds of spam, and the verdict.

    The log-odds of a naive Bayes text model is linear in the document's features,
    ``log P(x, spam) - log P(x, ham) = b + sum_j x_j w_j`` (``model.linear_form()``).

    Parameters
    ----------
    models : dict
        "multinomial" and "bernoulli" -> fitted two-class text models.
    vocabulary : Vocabulary
        The one the models were fitted with.
    max_words : int >= 1
        Word bars (the others are pooled).

    Examples
    --------
    >>> from genviz.text import build_vocabulary
    >>> docs = ["free money now", "free offer", "meeting notes", "notes on the meeting"]
    >>> v = build_vocabulary(docs)
    >>> X = bag_of_words(docs, v)
    >>> y = ["spam", "spam", "ham", "ham"]
    >>> s = EmailStudy({"multinomial": MultinomialNB().fit(X, y),
    ...                 "bernoulli": BernoulliNB().fit(X, y)}, v)
    >>> r = s(text="free money, neurips")
    >>> r.verdict, r.words, r.unseen
    ('spam', ['free', 'money'], ['neurips'])
    """

    def __init__(self, models: dict, vocabulary: Vocabulary, *, max_words: int = 12):
        if not isinstance(vocabulary, Vocabulary):
            raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
        missing = set(TEXT_MODELS) - set(models)
        if missing:
            raise ValueError(f"models must hold fitted models for {sorted(TEXT_MODELS)}; "
                             f"missing {sorted(missing)}")
        self.models = {name: models[name] for name in TEXT_MODELS}
        self.linear = {name: m.linear_form() for name, m in self.models.items()}
        self.vocabulary = vocabulary
        self.max_words = check_int(max_words, "max_words", low=1)

    def static(self) -> EmailStatic:
        return EmailStatic(self.max_words)

    def __call__(self, *, text="", model="multinomial", log10_c=0.0) -> EmailResult:
        if not isinstance(text, str):
            raise TypeError(f"text must be a string (the email), got {type(text).__name__}")
        model = _check_model(model)
        log10_c = check_scalar(log10_c, "log10_c")
        w, b = self.linear[model]
        r = word_contributions(text, self.vocabulary, w, binary=model == "bernoulli")
        contrib = r["contributions"]
        order = np.argsort(-np.abs(contrib), kind="stable")
        top = order[: self.max_words]
        top = top[np.argsort(-contrib[top], kind="stable")]  # spam-most first
        rest = order[self.max_words:]
        rows = [("bias", "", 0, b)] + [("word", r["words"][i], r["counts"][i], contrib[i])
                                       for i in top]
        if rest.size:
            rows.append(("rest", "", rest.size, float(contrib[rest].sum())))
        words_max = max((abs(row[3]) for row in rows[1:]), default=0.0)
        # the default range, widened while a word's bar needs it (a change forces a full redraw)
        xlim = max(10.0, nice_ceil(1.15 * words_max))
        bars = tuple((True, *row) for row in rows) + tuple(
            (False, "", "", 0, 0.0) for _ in range(self.max_words + 2 - len(rows)))
        x = bag_of_words([text], self.vocabulary)
        log_odds = float(self.models[model].decision_function(x)[0])
        is_spam = log_odds > log10_c * LN10
        by_size = sorted(range(len(r["words"])), key=lambda i: -abs(contrib[i]))[:3]
        return EmailResult(
            words=r["words"], counts=r["counts"], contributions=contrib, bias=float(b),
            total_words=float(r["total"]), log_odds=log_odds, p_spam=float(expit(log_odds)),
            log_c=log10_c * LN10, is_spam=is_spam, verdict="spam" if is_spam else "ham",
            unseen=r["unseen"], n_known=len(r["words"]), model=model, log10_c=log10_c,
            largest=[(r["words"][i], contrib[i]) for i in by_size], bars=bars, xlim=xlim)
