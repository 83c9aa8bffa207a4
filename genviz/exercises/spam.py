"""Exercises for notebook 07 (a naive Bayes spam filter on the SpamAssassin corpus).

Each function takes the notebook's own data and returns an :class:`~genviz.exercises.Exercise`
whose answer genviz computes; the notebook never shows it.
"""

from __future__ import annotations

import numpy as np

from genviz.exercises import Exercise
from genviz.text import Vocabulary, bag_of_words

__all__ = ["laplace_phi", "smola_offset", "email_log_odds", "flagged_ham"]


def _check_word(word, vocabulary: Vocabulary) -> int:
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
    if word not in vocabulary.index:
        raise ValueError(f"word {word!r} is not in the vocabulary; pick one of its words")
    return vocabulary.index[word]


def laplace_phi(X_train, y_train, vocabulary: Vocabulary, word: str = "free",
                label: str = "spam") -> Exercise:
    """CS229's Laplace-smoothed Bernoulli parameter ``phi_{j|y}`` for one word and class.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp
    >>> from genviz.text import build_vocabulary, bag_of_words
    >>> docs, y = ["free money", "free", "meeting"], np.array(["spam", "spam", "ham"])
    >>> v = build_vocabulary(docs)
    >>> ex = laplace_phi(bag_of_words(docs, v), y, v, "free", "spam")
    >>> bool(ex.check(3 / 4)), bool(ex.check(1.0))
    (True, False)
    """
    j = _check_word(word, vocabulary)
    y = np.asarray(y_train)
    in_class = y == label
    if not in_class.any():
        raise ValueError(f"label {label!r} does not occur in y_train")
    n_with = int((X_train[np.flatnonzero(in_class)][:, j] > 0).sum())
    m = int(in_class.sum())
    return Exercise(
        f"With Laplace smoothing, what is phi_(j|y={label}) for the word {word!r}, i.e. the "
        f"estimated probability that a {label} email contains it? (Count the training "
        f"{label} emails that contain the word.)",
        (n_with + 1) / (m + 2),
        hint="phi_(j|y) = (1 + number of class-y training emails containing word j) / "
             "(2 + number of class-y training emails). Count presence, not occurrences: "
             "(X_train[y_train == label][:, j] > 0).sum().",
        solution=(f"{n_with} of the {m} training {label} emails contain \"{word}\": "
                  rf"$\phi_{{j|y}} = \dfrac{{1 + {n_with}}}{{2 + {m}}} = {(n_with + 1) / (m + 2):.5f}$."),
    )


def smola_offset(y_train, c: float) -> Exercise:
    """Smola's offset ``b = log c + log m_ham - log m_spam`` of Algorithm 1.1.

    Examples
    --------
    >>> ex = smola_offset(["ham", "ham", "ham", "spam"], c=1.0)
    >>> bool(ex.check(np.log(3)))
    True
    """
    y = np.asarray(y_train)
    m_ham, m_spam = int(np.sum(y == "ham")), int(np.sum(y == "spam"))
    if m_ham == 0 or m_spam == 0:
        raise ValueError("y_train must contain both 'ham' and 'spam'")
    if not c > 0:
        raise ValueError(f"c must be > 0, got {c!r}")
    return Exercise(
        f"Algorithm 1.1 flags an email as spam when sum_j x_j (log p_spam,j - log p_ham,j) > b. "
        f"What is the offset b for c = {c:g} on our training set?",
        float(np.log(c) + np.log(m_ham) - np.log(m_spam)),
        hint="b = log c + log m_ham - log m_spam, with m_ham and m_spam the numbers of "
             "training ham and spam emails (natural logarithms).",
        solution=(rf"$m_\text{{ham}} = {m_ham}$, $m_\text{{spam}} = {m_spam}$: "
                  rf"$b = \log {c:g} + \log {m_ham} - \log {m_spam} = "
                  rf"{np.log(c) + np.log(m_ham) - np.log(m_spam):.4f}$ (natural logs)."),
    )


def email_log_odds(model, vocabulary: Vocabulary, text: str) -> Exercise:
    """The log-odds ``b + sum_j x_j w_j`` of a short email under a fitted text model.

    Examples
    --------
    >>> from genviz.naive_bayes import MultinomialNB
    >>> from genviz.text import build_vocabulary, bag_of_words
    >>> docs, y = ["free money", "free", "meeting"], ["spam", "spam", "ham"]
    >>> v = build_vocabulary(docs)
    >>> nb = MultinomialNB().fit(bag_of_words(docs, v), y)
    >>> ex = email_log_odds(nb, v, "free meeting")
    >>> w, b = nb.linear_form()
    >>> bool(ex.check(b + w[v.index["free"]] + w[v.index["meeting"]]))
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    x = bag_of_words([text], vocabulary)
    return Exercise(
        f"Using the weights w and bias b of model.linear_form(), what is the log-odds "
        f"log P(x, spam) - log P(x, ham) of the email {text!r}?",
        float(model.decision_function(x)[0]),
        hint="Tokenise the email, look each known word up in the vocabulary (vocab.index), "
             "add up its weight w_j once per occurrence (once per word for the Bernoulli "
             "model), and add b. Words outside the vocabulary count for nothing.",
        solution=(r"log-odds $= b + \sum_k n_k w_k$ over the email's dictionary words, $n_k$ "
                  r"the count of word $k$ and $w_k = \log(\phi_{k|\text{spam}}/\phi_{k|\text{ham}})$;"
                  r" `bag_of_words([text], vocab) @ w + b` computes it in one line."),
    )


def flagged_ham(model, X_test, y_test, log10_c: float) -> Exercise:
    """How many test ham emails the filter flags as spam at ``c = 10**log10_c``.

    Examples
    --------
    >>> from genviz.naive_bayes import MultinomialNB
    >>> X = np.array([[3, 0], [0, 3], [1, 1], [2, 1]])
    >>> nb = MultinomialNB().fit(X, ["spam", "ham", "ham", "spam"])
    >>> flagged_ham(nb, X, ["spam", "ham", "ham", "spam"], 0.0).check(0).correct
    True
    """
    pred = model.predict(X_test, threshold=10.0 ** log10_c)
    n = int(np.sum((np.asarray(y_test) == "ham") & (pred == "spam")))
    return Exercise(
        f"At c = 10^{log10_c:g}, how many ham emails of the test set does the filter flag as "
        f"spam (false positives)?",
        n,
        hint="model.predict(X_test, threshold=c) gives the decisions; count the test emails "
             "whose true label is 'ham' and whose prediction is 'spam'.",
        solution=(r"Flag an email when $L(x) > c$, i.e. when its log-odds exceed $\log c$; count "
                  r"the test emails that are ham and flagged: "
                  r"`np.sum((y_test == 'ham') & (model.predict(X_test, threshold=c) == 'spam'))`."),
        rtol=0.0, atol=0.5,
    )
