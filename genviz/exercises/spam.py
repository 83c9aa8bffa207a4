"""Exercises for notebook 07 (a naive Bayes spam filter on the SpamAssassin corpus).

Each function takes the notebook's own data and returns an :class:`~genviz.exercises.Exercise`
whose answer genviz computes; the notebook never shows it.
"""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, OpenQuestion, Prediction
from genviz.exercises.derivation import Derivation, Step, Symbol, read_formula
from genviz.exercises.spam_transfer import (_added_word_transfer, _log_odds_with_word,
                                            _threshold_transfer)
from genviz.model_selection import binary_metrics
from genviz.text import Vocabulary, bag_of_words

__all__ = ["laplace_phi", "smola_offset", "email_log_odds", "flagged_ham",
           "predict_threshold_direction", "predict_added_word", "doubled_email",
           "log10_c_for_flagged_ham", "bernoulli_weight_derivation",
           "french_emails", "generative_or_discriminative", "EXPLORER_LOG10_CS"]

#: the threshold explorer's slider: log10 c from -40 to 40 in steps of 0.5
EXPLORER_LOG10_CS = np.round(np.arange(-40.0, 40.001, 0.5), 1)


def _check_word(word, vocabulary: Vocabulary) -> int:
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
    if word not in vocabulary.index:
        raise ValueError(f"word {word!r} is not in the vocabulary; pick one of its words")
    return vocabulary.index[word]


def _check_text(text) -> str:
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    return text


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
        objective="07.2",
    )


def smola_offset(y_train, c: float) -> Exercise:
    """Smola's threshold offset ``tau = log c + log m_ham - log m_spam`` of Algorithm 1.1 (Smola
    writes it ``b``; in notebook 07 ``b`` is the bias of the linear form, so ``tau = log c - b``).

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
    tau = float(np.log(c) + np.log(m_ham) - np.log(m_spam))
    return Exercise(
        f"Algorithm 1.1 flags an email as spam when sum_j x_j (log p_spam,j - log p_ham,j) > tau. "
        f"What is the threshold offset tau (Smola's b) for c = {c:g} on our training set?",
        tau,
        hint="tau = log c + log m_ham - log m_spam, with m_ham and m_spam the numbers of "
             "training ham and spam emails (natural logarithms).",
        solution=(rf"$m_\text{{ham}} = {m_ham}$, $m_\text{{spam}} = {m_spam}$: "
                  rf"$\tau = \log {c:g} + \log {m_ham} - \log {m_spam} = {tau:.4f}$ (natural "
                  rf"logs), which is $\log c - b$ with the linear form's bias "
                  rf"$b = \log(m_\text{{spam}}/m_\text{{ham}})$."),
        objective="07.3",
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
    x = bag_of_words([_check_text(text)], vocabulary)
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
        objective="07.3",
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
                  r"`np.sum((y_test == 'ham') & (model.predict(X_test, threshold=c) == 'spam'))`"
                  rf": at $c = 10^{{{log10_c:g}}}$ the filter flags {n} test ham emails."),
        rtol=0.0, atol=0.5, objective="07.4", claims=[rf"flags {n} (test )?ham"],
    )


# -- predictions before the explorers, a conceptual item, an item read off an explorer ---------
def predict_threshold_direction(model, X_test, y_test, log10_from=0.0, log10_to=10.0,
                                positive="spam") -> Prediction:
    """Before the threshold explorer: which way precision and recall move as c rises
    (computed with :func:`genviz.model_selection.binary_metrics` at both thresholds). The
    observation: the multinomial model's recall at ``log10_to``."""
    a, b = (binary_metrics(y_test, model.predict(X_test, threshold=10.0 ** t), positive=positive)
            for t in (log10_from, log10_to))
    up_p, up_r = b["precision"] > a["precision"], b["recall"] > a["recall"]
    answer = {(True, True): 0, (True, False): 1, (False, True): 2, (False, False): 3}[(up_p, up_r)]
    return Prediction(
        f"Raise $c$ from $10^{{{log10_from:g}}}$ to $10^{{{log10_to:g}}}$. Which way do precision "
        "and recall of the spam filter move?",
        ["Both rise.", "Precision rises, recall falls.", "Precision falls, recall rises.",
         "Both fall."], answer, id="07-threshold-direction",
        explanation=("A larger $c$ asks for stronger evidence before flagging an email, so fewer "
                     "emails are flagged. Those still flagged are the clearest spam (precision, "
                     "the share of flagged emails that are spam, rises), but more spam slips "
                     "through (recall, the share of spam that is flagged, falls). Smola: \"if $c$ "
                     "is large then our algorithm is conservative\"."),
        reasons={0: "Flagging fewer emails cannot catch more of the spam.",
                 2: "A larger c flags fewer emails, not more.",
                 3: "The emails still flagged are the ones with the strongest evidence."},
        claims=[r"(larger|large) c[^.]{0,60}(fewer emails|conservative)"],
        transfer=_threshold_transfer(),
        observation=Observation(
            f"Compare the multinomial model's precision and recall at log₁₀ c = "
            f"{log10_from:g} with both at log₁₀ c = {log10_to:g} (α = 1): record both pairs, "
            f"precision first.",
            [float(b["precision"]), float(b["recall"])],
            setting={"log10_c": log10_to, "alpha": 1.0},
            labels={"log10_c": "log₁₀ c", "alpha": "α"},
            read=lambda state: (state["points"]["multinomial"]["precision"],
                                state["points"]["multinomial"]["recall"]),
            before={"log10_c": log10_from},
            expected_before=[float(a["precision"]), float(a["recall"])],
            parts=("precision", "recall"), what="the multinomial model's",
            hint="read the rows 'precision' and 'recall' of the readout, multinomial column "
                 "(3 decimals), and type them as 0.950, 0.800.",
            atol=6e-4))


def predict_added_word(model, vocabulary: Vocabulary, text: str, word: str) -> Prediction:
    """Before the email explorer: what adding one occurrence of ``word`` does to the verdict
    (computed with the model's ``decision_function``). The observation: the log-odds of the
    email with the word added at its end."""
    _check_word(word, vocabulary)
    before, after = _log_odds_with_word(model, vocabulary, _check_text(text), word)
    flips = (before > 0) != (after > 0)
    answer = 3 if before == after else (2 if after > before else (0 if flips else 1))
    return Prediction(
        f"The email below is classified by its log-odds. Add the word {word!r} once to it. "
        "What happens?",
        ["The log-odds drops, and the verdict flips to the other side.",
         "The log-odds drops, but the verdict stays the same.",
         "The log-odds rises.", "Nothing: the filter ignores the word."], answer,
        id="07-added-word",
        explanation=("One occurrence of a dictionary word adds its weight "
                     r"$w_k = \log(\phi_{k|\text{spam}}/\phi_{k|\text{ham}})$ to the log-odds, "
                     "negative for a word typical of ham. The verdict changes only when the sum "
                     "crosses $\\log c$ (0 at $c = 1$): one word against the weight of all the "
                     "others rarely does it."),
        reasons={3: "The word is in the dictionary, so it has a weight.",
                 2: "Which class's mailing lists is the word typical of?"},
        claims=[r"one (occurrence of (a|a dictionary) )?word (adds|moves)"],
        transfer=_added_word_transfer(model, vocabulary, word),
        observation=Observation(
            f"Compare the email's log-odds (multinomial model) with the log-odds once you "
            f"have typed {word!r} once more into it: record both.",
            after, setting={"text": f"{text} {word}", "model": "multinomial"},
            before={"text": text}, expected_before=before, compare="difference",
            mention=["model"],
            read="log_odds", what="the log-odds",
            hint="read the readout's line 'log-odds = b + Σ words = ...' (2 decimals), the last "
                 "number.", atol=6e-3))


def doubled_email(model, vocabulary: Vocabulary, text: str) -> Choice:
    """Conceptual: the multinomial log-odds of an email sent twice over (every count doubled);
    computed with the model's ``decision_function`` and ``linear_form``."""
    x = bag_of_words([_check_text(text)], vocabulary)
    once, twice = (float(model.decision_function(x * k)[0]) for k in (1, 2))
    _, b = model.linear_form()
    word_part = once - b
    if np.isclose(twice, once):
        answer = 0
    elif np.isclose(twice, b + 2 * word_part):
        answer = 1
    else:
        answer = 2
    return Choice(
        "Under the multinomial model, an email is pasted twice into itself (every word count "
        "doubles). What happens to its log-odds $b + \\sum_k n_k w_k$?",
        ["It stays the same: the same words, in the same proportions.",
         "The word part doubles; b, the prior term, stays.",
         "The whole log-odds doubles, b included."], answer, id="07-doubled-email",
        claims=([r"word part doubles", r"(evidence of the words|word evidence) doubles"]
                if answer == 1 else [r"whole log-odds doubles"] if answer == 2 else
                [r"same proportions"]),
        explanation=(r"The log-odds is linear in the counts: $b + \sum_k n_k w_k$ becomes "
                     r"$b + \sum_k 2n_k w_k$. The evidence of the words doubles, the prior term "
                     r"$b = \log(m_\text{spam}/m_\text{ham})$ does not: a longer email moves "
                     "further from the prior."),
        reasons={0: "The model multiplies one factor per word occurrence, not per distinct word.",
                 2: "b comes from the class counts of the training set, not from the email."},
        objective="07.3")


# -- practice that climbs: an investigation, a derivation, an open question, a retrieval --------

def log10_c_for_flagged_ham(model, X_test, y_test, max_ham=10, *, positive="spam") -> Exercise:
    """Investigation with the threshold explorer: the smallest log₁₀ c on its slider at which the
    filter flags at most ``max_ham`` test ham emails (its scores compared with log c at every
    slider position, as the explorer's :class:`~genviz.model_selection.ThresholdCurves` does:
    flagged when the log-odds exceed log c).

    Examples
    --------
    >>> from genviz.naive_bayes import MultinomialNB
    >>> X = np.array([[3, 0], [0, 3], [1, 1], [2, 1]])
    >>> y = ["spam", "ham", "ham", "spam"]
    >>> log10_c_for_flagged_ham(MultinomialNB().fit(X, y), X, y, 0).kind
    'investigation'
    """
    y = np.asarray(y_test)
    scores = np.asarray(model.decision_function(X_test), dtype=float)
    ham = y != positive
    flagged = [int(np.sum(ham & (scores > t * np.log(10.0)))) for t in EXPLORER_LOG10_CS]
    ok = [t for t, f in zip(EXPLORER_LOG10_CS, flagged) if f <= max_ham]
    if not ok:
        raise ValueError(f"even at the largest c the filter flags more than {max_ham} ham "
                         f"emails; ask for more")
    t = float(ok[0])
    j = int(np.flatnonzero(EXPLORER_LOG10_CS == t)[0])
    spam_missed = int(np.sum(~ham & (scores <= t * np.log(10.0))))
    return Exercise(
        f"Investigate with the threshold explorer (α = 1): what is the smallest log₁₀ c on the "
        f"slider at which the multinomial filter flags at most {max_ham} test ham emails?",
        t,
        hint="Move log₁₀ c up in steps of 0.5 from 0 and watch the readout's 'ham flagged' "
             "(multinomial column); it never rises as c grows.",
        solution=(rf"At $\log_{{10}} c = {t:g}$ the filter flags {flagged[j]} ham emails "
                  rf"(one step lower, {flagged[j - 1]}) and misses {spam_missed} spam: a real "
                  rf"filter that must almost never lose a real email pays for it in missed "
                  rf"spam. The counts fall in steps because each ham email stops being flagged "
                  rf"when $\log c$ passes its log-odds."),
        kind="investigation", atol=0.25, rtol=0.0, objective="07.4")


#: a word's two class probabilities, as notebook 07 writes them (class 1 = spam)
_PHI_SYMBOLS = {"p1": Symbol("φ_{j|1}", 0.01, 0.99, spellings=("phi1", "φ1", "φj1", "phi_j1")),
                "p0": Symbol("φ_{j|0}", 0.01, 0.99, spellings=("phi0", "φ0", "φj0", "phi_j0"))}


def bernoulli_weight_derivation(model) -> Derivation:
    r"""Derivation, written: the Bernoulli event model's log-odds is linear in the presence
    vector :math:`x \in \{0, 1\}^{|V|}`; word :math:`j`'s weight and its share of the bias,
    through :math:`\phi_{j|1}` and :math:`\phi_{j|0}`. The keys are checked here against the
    fitted model's :meth:`linear_form` (computed from its ``feature_log_prob_``).

    Examples
    --------
    >>> from genviz.naive_bayes import BernoulliNB
    >>> X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 1]])
    >>> q = bernoulli_weight_derivation(BernoulliNB().fit(X, ["spam", "spam", "ham", "ham"]))
    >>> print(q.check_step(0, "log(p1 (1 - p0) / (p0 (1 - p1)))"))
    Correct!
    """
    w, b = model.linear_form()
    classes = list(model.classes_)
    p0, p1 = np.exp(model.feature_log_prob_[0]), np.exp(model.feature_log_prob_[1])
    prior = float(np.diff(model.class_log_prior_)[0]) if hasattr(model, "class_log_prior_") \
        else None
    env = {"p1": p1, "p0": p0}
    weight, share = (read_formula(k, _PHI_SYMBOLS)(env) for k in
                     ("log(p1/p0) - log((1 - p1)/(1 - p0))", "log((1 - p1)/(1 - p0))"))
    if not (np.allclose(weight, w, rtol=1e-9)
            and (prior is None or np.isclose(share.sum() + prior, b, rtol=1e-9))):
        raise RuntimeError("the Bernoulli weight derivation disagrees with linear_form()")
    steps = [
        Step(r"Subtract the classes' terms of word $j$ and collect the factor of $x_j$: "
             r"$w_j =$ ?", "log(p1/p0) - log((1 - p1)/(1 - p0))",
             r"w_j = \log\frac{\phi_{j|1}(1-\phi_{j|0})}{\phi_{j|0}(1-\phi_{j|1})}",
             mistakes={"log(p1/p0)": "That is the multinomial weight: the Bernoulli model also "
                                     "scores absences, through 1 − φ.",
                       "log((1 - p1)/(1 - p0))": "That is the part without x_j: it goes into "
                                                 "b.",
                       "p1 - p0": "The log-odds is a difference of logarithms, not of "
                                  "probabilities."}),
        Step(r"What word $j$ adds to the bias $b$ (the part without $x_j$).",
             "log((1 - p1)/(1 - p0))", r"\log\frac{1-\phi_{j|1}}{1-\phi_{j|0}}",
             mistakes={"0": "Every word enters the Bernoulli model, present or not: an absent "
                            "word's term is log(1 − φ)."}),
    ]
    return Derivation(
        rf"In the Bernoulli event model, $\log p(x \mid y) = \sum_j [x_j\log\phi_{{j|y}} + "
        rf"(1 - x_j)\log(1 - \phi_{{j|y}})]$ (here $y = 1$ is {classes[1]}). Subtract the "
        rf"two classes and collect the terms with $x_j$: the log-odds is $w^Tx + b$. Write "
        rf"$p1$ for $\phi_{{j|1}}$ and $p0$ for $\phi_{{j|0}}$.", steps,
        symbols=_PHI_SYMBOLS, id="07-bernoulli-weight", objective="07.3",
        explanation=(r"Class 1 minus class 0, word $j$: $x_j\log\frac{\phi_{j|1}}{\phi_{j|0}} + "
                     r"(1 - x_j)\log\frac{1-\phi_{j|1}}{1-\phi_{j|0}}$. The $x_j$ terms give "
                     r"$w_j = \log\frac{\phi_{j|1}}{\phi_{j|0}} - \log\frac{1-\phi_{j|1}}"
                     r"{1-\phi_{j|0}} = \log\frac{\phi_{j|1}(1-\phi_{j|0})}{\phi_{j|0}"
                     r"(1-\phi_{j|1})}$; the rest, $\sum_j \log\frac{1-\phi_{j|1}}{1-\phi_{j|0}}$ "
                     r"plus the prior's log-odds, is the bias $b$: every *absent* word "
                     r"contributes to it. So the Bernoulli model is a linear classifier too, "
                     r"and `BernoulliNB.linear_form()` returns exactly these weights."),
        claims=[r"every absent word contributes to it"],
        hint="Write the word's term as x_j A + (1 − x_j) B = x_j (A − B) + B.")


def french_emails() -> OpenQuestion:
    """Open transfer question: a filter trained on English mail meets French mail."""
    return OpenQuestion(
        "Your multinomial spam filter was trained on English emails. Customers start to "
        "receive French emails, spam and ham alike. What does the filter do with them, and "
        "what would you change?",
        (r"The dictionary comes from the English training emails, so most French words are "
         r"not in it and count for nothing: the log-odds of a French email is the bias $b$ "
         r"(the prior, favouring ham) plus the weights of the few English or shared words "
         r"(URLs, numbers, brand names). The filter is close to guessing from the prior, and "
         r"French spam mostly gets through. Laplace smoothing does not help, because it only "
         r"affects words that are in the dictionary. Collect labelled French emails, rebuild "
         r"the dictionary from the new training set (or add French words) and refit; check "
         r"precision and recall on held-out French mail."),
        key_points={"French words are not in the dictionary and count for nothing":
                        r"dictionar|vocabular|unknown|not in|ignored|count for nothing",
                    "the verdict rests on the prior and a few shared words":
                        r"prior|bias|\bb\b|few (english|shared)",
                    "retrain with labelled French emails (rebuild the dictionary)":
                        r"retrain|refit|french (training|emails|data)|collect|label"},
        claims=[r"close to guessing from the prior"], objective="07.1")


def generative_or_discriminative() -> Choice:
    """Retrieval of notebook 03 (generative vs discriminative) on the spam filter."""
    options = ["both are generative; their discriminative partner is logistic regression",
               "the multinomial model is discriminative, because its log-odds is linear",
               "both are discriminative: they classify by a threshold on the log-odds",
               "the Bernoulli model is generative, the multinomial one is not a model of x"]
    return Choice(
        "Notebook 3: a generative classifier models p(x | y) and p(y); a discriminative one "
        "models p(y | x) directly. Which are the two spam filters of this notebook, and what "
        "would their partner of the other kind be?",
        options, 0, id="07-generative-or-discriminative", objective="03.1",
        explanation=("Both event models describe how an email is *written* given its class, "
                     "p(x | y), plus p(y): generative. Being linear in x says nothing about "
                     "how the weights were found: here by counting (maximum likelihood of "
                     "p(x, y)). Logistic regression on the same vectors has the same form "
                     "wᵀx + b but fits w to maximise p(y | x): the discriminative partner, as "
                     "logistic regression was GDA's partner in notebook 4. Notebook 10 runs "
                     "that comparison on this split."),
        reasons={1: "Linear in x is a property of the decision rule, not of what was modelled.",
                 2: "Every classifier thresholds something; the question is what it models.",
                 3: "The multinomial model is a story of how each word position is filled: a "
                    "model of x."},
        claims=[r"both event models describe how an email is written"],
        hint="Ask of each model: does it say how likely an email x is, given its class?")
