"""The analogous situations (issue #40 item 3) that end the predictions of notebook 07
(:mod:`genviz.exercises.spam`): each prediction's idea in another setting, as a
:class:`~genviz.exercises.Choice` of kind ``"transfer"`` whose right option and numbers are
computed with the model layer. Apart from the predictions so that module stays under ~450 lines.
"""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice
from genviz.exercises.choice import _transfer
from genviz.model_selection import binary_metrics
from genviz.naive_bayes import GaussianNB
from genviz.text import bag_of_words

__all__ = []  # private helpers only: the predictions of genviz.exercises.spam use them


def _screening(seed=0, n_healthy=900, n_sick=100):
    """One draw of a screening marker: healthy ~ N(0, 1), sick ~ N(2, 1) (10 % sick)."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.normal(0.0, 1.0, n_healthy), rng.normal(2.0, 1.0, n_sick)])
    return x[:, None], np.repeat(["healthy", "sick"], [n_healthy, n_sick])


def _screening_metrics(cs, seed=0):
    """Precision and recall of "sick" when a patient is flagged at posterior odds
    P(sick | x) / P(healthy | x) > c (as notebook 07's threshold on P(spam | x) / P(ham | x)), for
    each c of ``cs``: Gaussian naive Bayes fitted on one draw, scored on another."""
    X, y = _screening(seed)
    X_test, y_test = _screening(seed + 1)
    nb = GaussianNB().fit(X, y)
    log_post = nb.predict_log_proba(X_test)
    k = list(nb.classes_).index("sick")
    log_odds = log_post[:, k] - log_post[:, 1 - k]
    return [binary_metrics(y_test, np.where(log_odds > np.log(c), "sick", "healthy"),
                           positive="sick") for c in cs]


def _threshold_transfer(c=1.0, lower=0.1, higher=10.0) -> Choice:
    """After 07-threshold-direction: a screening test that must miss fewer sick patients; which
    way to move c, and what it costs (precision and recall computed on a simulated screening
    with Gaussian naive Bayes and :func:`~genviz.model_selection.binary_metrics`)."""
    now, low, high = _screening_metrics([c, lower, higher])
    if low["recall"] > now["recall"]:
        answer = 0 if low["precision"] < now["precision"] else 2
    else:
        answer = 1 if high["precision"] <= now["precision"] else 3
    return _transfer(
        "07-threshold-direction", answer,
        "A screening test sends a patient to a biopsy when its naive Bayes odds "
        f"P(sick | x) / P(healthy | x) exceed c, now c = {c:g}. The doctors want to miss fewer sick patients. "
        "Which way should c move, and what does it cost?",
        [("Lower c: recall rises, and precision falls.", None),
         ("Raise c: a stricter test catches more of the sick.",
          "A stricter test flags fewer patients: can it flag more of the sick?"),
         ("Lower c: recall and precision both rise.",
          "The patients flagged on weak evidence are not all sick."),
         ("Raise c: precision and recall both rise.",
          "Flagging fewer patients cannot catch more of the sick.")],
        explanation=(f"In a simulated screening (10 % sick, Gaussian naive Bayes), lowering c "
                     f"from {c:g} to {lower:g} raises recall from {now['recall']:.2f} to "
                     f"{low['recall']:.2f} and lowers precision from {now['precision']:.2f} to "
                     f"{low['precision']:.2f}. A smaller c flags patients on weaker evidence: "
                     f"more of the sick are flagged, and more of the healthy with them. Which "
                     f"way to move c depends on which error costs more: a missed illness here, "
                     f"a lost email in a spam filter."),
        claims=[r"smaller c flags[^.]{0,40}weaker evidence"])


def _log_odds_with_word(model, vocabulary, text, word) -> tuple[float, float]:
    """The model's log-odds of the email ``text``, and of it with ``word`` added at its end."""
    before, after = (float(model.decision_function(bag_of_words([t], vocabulary))[0])
                     for t in (text, f"{text} {word}"))
    return before, after


def _added_word_transfer(model, vocabulary, word, text="get free money") -> Choice:
    """After 07-added-word: the same word added to a short email whose margin is small (its
    log-odds before and after computed with the model's ``decision_function``)."""
    before, after = _log_odds_with_word(model, vocabulary, text, word)
    flips = (before > 0) != (after > 0)
    answer = 0 if flips else (3 if after > before else 1)
    return _transfer(
        "07-added-word", answer,
        f"The same filter (multinomial, c = 1) flags the short email '{text}' as spam. Add "
        f"{word!r} once to it. What happens?",
        [("It flips to ham: its margin is smaller than the word's weight.", None),
         ("The log-odds drops, but one word is rarely enough to flip it.",
          "Compare this email's log-odds with the word's weight: is its margin "
          "large?"),
         ("The log-odds drops, but less than in a long email: the word is a smaller share.",
          "The log-odds is a sum over the words, not an average: the weight is added "
          "whole."),
         ("The log-odds rises: the other words all point to spam.",
          "Which class's mailing lists is the word typical of?")],
        explanation=(f"One occurrence adds the word's weight, {after - before:.2f}, to the "
                     f"log-odds whatever the email's length: here {before:.2f} becomes "
                     f"{after:.2f}. A long email's margin is a sum over many words; this short "
                     f"one's margin, {abs(before):.2f}, is "
                     + ("smaller than the word's weight" if flips else "larger than the word's "
                        "weight") + f", {abs(after - before):.2f}, so the verdict "
                     + ("flips. On a short email a single word can decide." if flips else
                        "stays.")),
        claims=([r"margin[^.]{0,60}smaller than[^.]{0,30}weight"] if answer == 0 else
                [r"one word is rarely enough"] if answer == 1 else [r"log-odds rises"]))
