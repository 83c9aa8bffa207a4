"""Exercises for notebook 10 (the capstone: naive Bayes against logistic regression on the spam
split, Ng & Jordan's experiment), each computed from the notebook's own curves or data."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.exercises import Choice, Exercise, Observation, OpenQuestion, Prediction
from genviz.exercises.choice import _transfer
from genviz.exercises.derivation import Derivation, Step, Symbol, read_formula
from genviz.logistic import LogisticRegression
from genviz.naive_bayes import MultinomialNB
from genviz.nb_vs_logistic import NBvsLogisticCurves, leader, presence_features
from genviz.exercises.nb_vs_logistic_practice import (  # re-exported: the notebook's builders
    crossing_with_counts, crossing_with_regularisation, lead_in_standard_errors, log_d_claim,
    predict_crossing_with_d)

__all__ = ["predict_small_and_large", "fits_in_the_experiment",
           "smallest_n_logistic_ahead", "presence_nb_weight_derivation",
           "deploy_schedule", "bias_or_variance", "predict_crossing_with_d",
           "crossing_with_counts", "crossing_with_regularisation", "lead_in_standard_errors",
           "log_d_claim", "full_dictionary",
           "top_features_encode"]


def _check_curves(curves) -> NBvsLogisticCurves:
    if not isinstance(curves, NBvsLogisticCurves):
        raise TypeError(f"curves must be NBvsLogisticCurves, got {type(curves).__name__}")
    return curves


def _small_and_large_transfer() -> Choice:
    """After 10-nb-vs-logistic: many examples and few features, another domain (the answer
    follows from the explanation's argument; nothing to compute)."""
    return _transfer(
        "10-nb-vs-logistic", 0,
        "A hospital predicts a complication from 25 routine lab values, several of which rise "
        "and fall together, and has the records of 200,000 past patients. Which learner would "
        "you expect to have the lower test error?",
        [("logistic regression: thousands of records per weight favour it", None),
         ("naive Bayes: it needs the fewest examples to approach its best error",
          "Needing few examples helps while examples are scarce; here each weight "
          "has thousands of records."),
         ("naive Bayes: with only 25 features, counting beats joint fitting",
          "With few features the joint fit is easy too: what is left when both have "
          "all the records they need?"),
         ("neither: with so many records both get the lowest possible error",
          "Both level off; do they level off at the same error when lab values move "
          "together within a class?")],
        explanation=("With 200,000 records for 26 weights (25 and the intercept), logistic "
                     "regression is far to the right of any crossing: every weight is pinned "
                     "down, and what decides is where each curve levels off. Naive Bayes levels "
                     "off higher whenever features move together within a class: lab values "
                     "that rise together are multiplied in as separate pieces of evidence. "
                     "Needing few examples is an advantage only while examples are scarce."),
        claims=[r"records (for|per) (26 )?weights?"])


def predict_small_and_large(curves) -> Prediction:
    """Who is ahead at the smallest and at the largest training set (:func:`genviz.nb_vs_logistic.
    leader`)? Observed: naive Bayes' test error minus logistic regression's at the smallest."""
    c = _check_curves(curves)
    small, large = int(c.sizes[0]), int(c.sizes[-1])
    lead = (leader(c, small), leader(c, large))
    options = [f"naive Bayes at n = {small}, and at n = {large}",
               f"naive Bayes at n = {small}, logistic regression at n = {large}",
               f"logistic regression at n = {small}, naive Bayes at n = {large}",
               f"logistic regression at n = {small}, and at n = {large}",
               f"neither clearly at n = {small}; logistic regression at n = {large}"]
    table = {("nb", "nb"): 0, ("nb", "lr"): 1, ("lr", "nb"): 2, ("lr", "lr"): 3,
             ("tie", "lr"): 4}
    gap_small = float(c.mean_se("nb")[0][0] - c.mean_se("lr")[0][0])
    gap_large = float(c.mean_se("nb")[0][-1] - c.mean_se("lr")[0][-1])
    answer = table.get(lead, 1 if gap_small < 0 else 3)
    return Prediction(
        f"Both learners see the same {c.n_words} word-presence features of the spam split. "
        f"Who has the lower test error, at n = {small} training emails and at all "
        f"n = {large}?",
        options, answer, id="10-nb-vs-logistic",
        explanation=("Naive Bayes fits each word's probability separately, by counting: every "
                     "estimate uses all the emails of its class, and nothing is optimised, so "
                     "with a handful of emails it is already near its best. Logistic regression "
                     "fits all the weights jointly to the labels, and with few emails many "
                     "weights are barely determined (and small samples are separable). Ng & "
                     "Jordan (2001): naive Bayes approaches its asymptotic error with a number of "
                     "examples that grows like the logarithm of the number of features, "
                     "logistic regression with one that grows like the number of features. But "
                     "naive Bayes' asymptote is higher (why: the question on the gap below), "
                     "while logistic regression only assumes that the log-odds is linear. So "
                     "the curves cross."),
        reasons={0: "With thousands of emails, which of the two assumes less about how words "
                    "co-occur?",
                 2: "Which learner estimates each weight from its own counts, without "
                    "optimising?",
                 3: "With ten emails, how well can 300 weights be fitted jointly?",
                 4: "Compare the error bars at the smallest size."},
        claims=[r"naive bayes approaches its asymptotic error", r"so the curves cross"],
        transfer=_small_and_large_transfer(),
        observation=Observation(
            f"Compare naive Bayes' test error minus logistic regression's at n = {small} with "
            f"the same difference at n = {large}: record both (both halves of the claim).",
            gap_large, setting={"n": large}, read="gap", before={"n": small},
            expected_before=gap_small,
            what="naive Bayes' test error minus logistic regression's",
            hint="read the readout's line 'difference' (4 decimals).", atol=6e-5))


def fits_in_the_experiment(n_sizes, n_reps, full_size_once=True) -> Exercise:
    """Fluency: how many models the learning-curve experiment fits (two learners per size and
    repetition; the full training set, the same in every repetition, once)."""
    n_sizes, n_reps = check_int(n_sizes, "n_sizes", low=1), check_int(n_reps, "n_reps", low=1)
    per = (n_sizes - 1) * n_reps + 1 if full_size_once else n_sizes * n_reps
    count = 2 * per
    return Exercise(
        f"The experiment uses {n_sizes} training-set sizes, the last one the whole training "
        f"set, and {n_reps} repetitions (random orders of the training emails). How many models "
        f"does it fit in all, counting each learner separately and the whole training set "
        f"(the same in every repetition) only once?",
        count,
        hint="Each (size, repetition) pair fits two models; the largest size is one pair, not "
             "one per repetition.",
        solution=(rf"$2 \times (({n_sizes} - 1) \times {n_reps} + 1) = {count}$: two learners "
                  rf"for each of the {n_sizes - 1} smaller sizes in each of the {n_reps} "
                  rf"repetitions, and two for the whole training set."),
        atol=0.5, rtol=0.0, objective="10.1")



def smallest_n_logistic_ahead(curves) -> Exercise:
    """Investigation with the learning-curve explorer: the smallest n from which logistic
    regression's mean test error is below naive Bayes' at every larger size."""
    c = _check_curves(curves)
    nb, lr = c.mean_se("nb")[0], c.mean_se("lr")[0]
    below = lr < nb
    if not below[-1]:
        raise ValueError("logistic regression is not ahead at the largest size")
    j = len(below) - 1
    while j > 0 and below[j - 1]:
        j -= 1
    n = int(c.sizes[j])
    return Exercise(
        "Investigate with the explorer: from which training-set size n on is logistic "
        "regression's mean test error below naive Bayes' at every larger n on the slider?",
        n,
        hint="Move n from the largest size down and watch the sign of the readout's "
             "'difference'; stop where it changes.",
        solution=(rf"From $n = {n}$ on (naive Bayes ${nb[j]:.4f}$, logistic regression "
                  rf"${lr[j]:.4f}$); below it naive Bayes' mean is lower. Whether the lead is "
                  rf"clear is a separate question: compare the difference with its standard "
                  rf"error (the readout says when it exceeds two)."),
        kind="investigation", atol=0.5, rtol=0.0, objective="10.3")


def presence_nb_weight_derivation(X_train, y_train, n_words, *, positive="spam",
                                  alpha=1.0, l2=1.0) -> Derivation:
    r"""Derivation, written: multinomial naive Bayes on 0/1 presence vectors is a linear
    classifier, and how logistic regression finds the same form's weights instead. Step 1,
    word :math:`j`'s naive Bayes weight through its two class probabilities, is checked here
    against the fitted model's :meth:`linear_form` weights on the notebook's features
    (:func:`presence_features`); step 2, one e-mail's term of the log-likelihood's gradient,
    against :class:`genviz.logistic.LogisticRegression` fitted with ridge ``l2``: at its
    optimum the terms summed over the e-mails equal ``l2`` times the weights."""
    F, _, _ = presence_features(X_train, X_train[:1], n_words)
    y = np.where(np.asarray(y_train) == positive, 1, 0)
    nb = MultinomialNB(alpha=alpha).fit(F, y)
    w, _ = nb.linear_form()
    p0, p1 = np.exp(nb.feature_log_prob_[0]), np.exp(nb.feature_log_prob_[1])
    symbols = {"p1": Symbol("φ_{j|spam}", 0.001, 0.5, spellings=("phi1", "φ1", "ps")),
               "p0": Symbol("φ_{j|ham}", 0.001, 0.5, spellings=("phi0", "φ0", "ph")),
               "y": Symbol("y", 0.0, 1.0), "p": Symbol("p", 0.01, 0.99),
               "xj": Symbol("x_j", 0.0, 1.0, spellings=("x",))}
    key = "log(p1/p0)"
    if not np.allclose(read_formula(key, symbols)({"p1": p1, "p0": p0}), w, rtol=1e-9):
        raise RuntimeError("the presence weight derivation disagrees with linear_form()")
    lr = LogisticRegression(l2=check_scalar(l2, "l2", low=0.0, low_open=True)).fit(F, y)
    p = lr.predict_proba(F)[:, 1]
    grad_key = "(y - p)*xj"  # F is dense (presence_features): one row per e-mail
    terms = read_formula(grad_key, symbols)({"y": y[:, None], "p": p[:, None], "xj": F})
    if not np.allclose(terms.sum(axis=0), l2 * lr.coef_, atol=1e-6 * max(1.0, len(y))):
        raise RuntimeError("the gradient step disagrees with the fitted logistic regression")
    steps = [Step(r"Subtract the classes' log-likelihoods and collect the factor of $x_j$: "
                  r"$w_j =$ ? (write $p1$ for $\phi_{j|\text{spam}}$, $p0$ for "
                  r"$\phi_{j|\text{ham}}$)", key,
                  r"w_j = \log(\phi_{j|\text{spam}}/\phi_{j|\text{ham}})",
                  mistakes={"p1 - p0": "The log-odds subtracts logarithms, not probabilities.",
                            "log(p1)": "The ham class has its own word probabilities: subtract "
                                       "them.",
                            "log(p1*(1 - p0)/(p0*(1 - p1)))": "That is the Bernoulli weight, "
                                                              "which also scores absent "
                                                              "words."}),
             Step(r"Logistic regression has the same form, $p = \sigma(w^Tx + b)$, and fits "
                  r"$w$ by maximising $\ell = \sum_i [y_i\log p_i + (1 - y_i)\log(1 - p_i)]$. "
                  r"One e-mail's term of $\partial\ell/\partial w_j$ (write $y$, $p$ and $x_j$ "
                  r"for that e-mail's label, probability and presence of word $j$; "
                  r"$\sigma'(z) = \sigma(z)(1 - \sigma(z))$):", grad_key,
                  r"\frac{\partial \ell_i}{\partial w_j} = (y_i - p_i)\,x_{ij}",
                  mistakes={"(p - y)*xj": "That is the gradient of the loss −ℓ; ℓ itself has "
                                          "the other sign.",
                            "y - p": "The chain rule brings ∂z/∂w_j = x_j.",
                            "y*xj": "p depends on w_j too: differentiate log p and "
                                    "log(1 − p) through z."})]
    return Derivation(
        r"Naive Bayes here is the multinomial model of notebook 7 fitted on presence vectors "
        r"$x \in \{0, 1\}^d$: $\log p(x \mid y) = \sum_j x_j \log\phi_{j|y}$ plus a term "
        r"that does not depend on $y$. Its log-odds is $w^Tx + b$: derive $w_j$, then what "
        r"logistic regression sets to zero to find its own $w_j$.", steps,
        symbols=symbols, id="10-presence-nb-weight", objective="10.2",
        explanation=(r"Subtract the classes: $\sum_j x_j(\log\phi_{j|\text{spam}} - "
                     r"\log\phi_{j|\text{ham}}) + \log\frac{p(\text{spam})}{p(\text{ham})}$, so "
                     r"$w_j = \log(\phi_{j|\text{spam}}/\phi_{j|\text{ham}})$ and $b$ is the "
                     r"prior's log-odds; the multinomial coefficient is the same for both "
                     r"classes and cancels. Unlike the Bernoulli model, an absent word adds "
                     r"nothing. Logistic regression has exactly this form $w^Tx + b$ and finds "
                     r"$w$ differently: its gradient $\sum_i (y_i - p_i)\,x_{ij}$ is zero at "
                     r"the optimum (without a penalty), so the number of spam e-mails holding "
                     r"word $j$ that the model expects, $\sum_i p_i x_{ij}$, equals the number "
                     r"observed, $\sum_i y_i x_{ij}$, for every word at once, each weight "
                     r"adjusted for the others. Naive Bayes counts each word in each class on "
                     r"its own; when words travel together it counts their evidence twice, and "
                     r"logistic regression does not."),
        claims=[r"an absent word adds nothing"],
        hint="Write log p(x | spam) − log p(x | ham) and collect the factor of each x_j.")


def deploy_schedule() -> OpenQuestion:
    """Open transfer question: which model to deploy as labelled mail accumulates."""
    return OpenQuestion(
        "A new customer's spam filter must work after the first 20 emails she labels, and "
        "keep improving for a year as she labels more. Which of the two learners would you "
        "deploy, and when would you switch? What would you check before switching?",
        (r"Start with naive Bayes: at a few dozen labelled emails it is ahead (it estimates "
         r"each word separately by counting and needs few examples), it is fitted in one pass "
         r"and updating it with a new email only adds counts. Switch to logistic regression "
         r"once there are a few hundred labelled emails, where its lower asymptotic error "
         r"starts to show; its weights need the whole labelled set and an optimisation (with a "
         r"ridge penalty while data are few). Before switching, compare the two on held-out "
         r"emails of this customer (her mail may differ from the corpus), and keep measuring: "
         r"the crossing point depends on the features and on the data."),
        key_points={"naive Bayes first: ahead with few emails": r"naive bayes[^.]*(first|start|"
                                                                r"few|early|small)|"
                                                                r"(first|start|few|early)"
                                                                r"[^.]*naive bayes",
                    "logistic regression later: lower error with many emails":
                        r"logistic[^.]*(later|more|many|hundreds|thousands|switch|lower)",
                    "decide the switch on held-out emails": r"held.out|test|valid|compare|"
                                                            r"measure"},
        claims=[r"start with naive bayes: at a few dozen"], objective="10.4")


def bias_or_variance(curves) -> Choice:
    """Retrieval of notebook 04 (a learning curve tells variance from bias): what the gap
    between the curves at the largest size is. Read from the curves: naive Bayes levels off
    (its last two sizes within two standard errors) above logistic regression."""
    c = _check_curves(curves)
    nb, nb_se = c.mean_se("nb")
    lr, _ = c.mean_se("lr")
    flat = abs(nb[-1] - nb[-2]) < 2 * max(nb_se[-2], 1e-12) + 0.005
    above = leader(c, int(c.sizes[-1])) == "lr"
    options = ["a bias of naive Bayes: its independence assumption",
               "variance: more emails would close it",
               "a bias of logistic regression, the more flexible model"]
    return Choice(
        "Notebook 4: more data removes variance, not bias. At the largest training set naive "
        "Bayes' curve has levelled off above logistic regression's. What is the gap?",
        options, 0 if (flat and above) else 1, id="10-bias-or-variance", objective="04.4",
        explanation=(f"Naive Bayes' error hardly moves between n = {int(c.sizes[-2])} "
                     f"({nb[-2]:.4f}) and n = {int(c.sizes[-1])} ({nb[-1]:.4f}): it has "
                     f"reached its asymptote, {nb[-1] - lr[-1]:.4f} above logistic regression. "
                     f"Its estimates are already precise (little variance left); what is left is "
                     f"the error of its model, words independent given the class, which no "
                     f"number of emails corrects: a bias, as GDA's on Poisson counts in "
                     f"notebook 4."),
        reasons={1: "Compare naive Bayes' error at the two largest sizes: is it still falling?",
                 2: "Logistic regression is the one still improving."},
        claims=[r"it has reached its asymptote", r"no number of emails corrects"],
        hint="Look at how naive Bayes' error changes between the two largest sizes.")


# -- the ending: the full dictionary, the top features -------------------------------------------
def full_dictionary(nb_error, lr_error_counts, lr_error_presence, lr_error_300,
                    n_test) -> Choice:
    """The ending: notebook 7's full-dictionary naive Bayes against logistic regression on the
    same ``n_test`` test e-mails; when do the weaker assumptions win? The right option is read
    from the errors (``nb_error`` of notebook 7's filter; logistic regression on every word,
    counts and presence; and on notebook 10's 300 words), two errors counting as equal within
    two standard errors of a test error, :math:`2\\sqrt{p(1-p)/n_{test}}`."""
    errs = [check_scalar(e, n, low=0.0, high=1.0) for e, n in (
        (nb_error, "nb_error"), (lr_error_counts, "lr_error_counts"),
        (lr_error_presence, "lr_error_presence"), (lr_error_300, "lr_error_300"))]
    n_test = check_int(n_test, "n_test", low=1)
    nb, lrc, lrp, lr300 = errs
    margin = 2 * np.sqrt(nb * (1 - nb) / n_test)
    options = ["only on the same features: on every word, naive Bayes is about as good",
               "always: logistic regression beats naive Bayes on every set of features we "
               "tried",
               "never here: naive Bayes is ahead on 300 words too",
               "only with counts, never with presence features"]
    best_lr = min(lrc, lrp)
    answer = 1 if best_lr < nb - margin else 0 if lr300 > nb + margin else 2
    return Choice(
        "Notebook 7's filter (multinomial naive Bayes on the counts of every word of the "
        "dictionary) and logistic regression on every word are scored on the same test e-mails "
        "as above. 'With much data, take the weaker assumptions': when does this hold here?",
        options, answer, id="10-full-dictionary", objective="10.4",
        explanation=(f"On all the training e-mails: naive Bayes on every word (counts) "
                     f"{nb:.4f}; logistic regression on every word {lrc:.4f} (counts) and "
                     f"{lrp:.4f} (presence), on 300 words {lr300:.4f}. A test error on "
                     f"{n_test} e-mails has a standard error of about {margin / 2:.4f}, so the "
                     f"three errors on every word are within two of them: on the whole "
                     f"dictionary the two learners are about as good, and naive Bayes there is "
                     f"far better than logistic regression restricted to 300 words. Logistic "
                     f"regression wins the fair comparison on the same 300 words; the weaker "
                     f"assumptions win when the data outnumber the parameters they must fit "
                     f"(n against d), and the choice of features can matter more than the "
                     f"choice of learner."),
        reasons={1: "Compare the errors on every word with a test error's standard error.",
                 2: "Which learner is ahead at n = all on the 300 words (the table above)?",
                 3: "Compare logistic regression's two errors on every word with naive Bayes'."},
        claims=[r"on the whole dictionary the two learners are about as good"],
        hint="Put the four errors side by side: which comparisons use the same features?")


def top_features_encode() -> Choice:
    """Open the box of the top features: what do http, com, listinfo, mailman, listmaster,
    maintainer encode? (The ham of the SpamAssassin corpus is largely mailing-list mail.)"""
    return Choice(
        "The most frequent features are http, com, www, list, listinfo, mailman; among logistic "
        "regression's strongest are listmaster, maintainer and remove. What do they encode?",
        ["where the corpus came from (mailing-list footers), not what spam says",
         "the vocabulary of spam itself, which would carry over to any inbox it filters",
         "stop words that the tokenizer should have removed before fitting",
         "random noise: with 300 features some weights are large by chance"],
        0, id="10-top-features", objective="10.4",
        explanation=("Much of the corpus' ham was collected from mailing lists, whose footers "
                     "carry listinfo, mailman and the list's URL; its spam often came through "
                     "lists too ('the listmaster', 'to be removed'). These words tell the two "
                     "collections apart, not spam from ham: a filter trained here learns the "
                     "corpus' sources, and on a personal inbox without lists its test error "
                     "would be higher than the split says. Held-out e-mails from the same "
                     "collection cannot show this; data from the place of use can."),
        reasons={1: "Would listinfo or mailman appear in an e-mail sent to you directly?",
                 2: "They are frequent, but the learners weight them strongly: they separate "
                    "the classes.",
                 3: "They are among the most frequent words and keep their rank on every "
                    "training set."},
        claims=[r"learns the corpus' sources"],
        hint="Think of how the SpamAssassin corpus was collected.")
