"""The investigation of notebook 10 (the capstone): the learner changes the experiment --
vocabulary size, counts against presence, logistic regression's ridge λ and naive Bayes'
pseudo-count α -- predicts where the crossing goes, tests Ng & Jordan's log d against d claim,
and computes a lead in standard errors from the sweep's arrays
(:class:`genviz.studies.learning_curves_vocabulary.VocabularyCurves`). Re-exported by
:mod:`genviz.exercises.nb_vs_logistic` (the notebook calls them as ``exercises.<name>``)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, Prediction
from genviz.exercises.choice import _transfer
from genviz.nb_vs_logistic import paired_lead
from genviz.studies.gda_vs_logistic_curves import crossing_size
from genviz.studies.learning_curves_vocabulary import (VocabularyCurves, crossing_text,
                                                      settled_size)

__all__ = ["predict_crossing_with_d", "crossing_with_counts", "lead_in_standard_errors",
           "log_d_claim", "crossing_with_regularisation"]


def _check_sweep(sweep) -> VocabularyCurves:
    if not isinstance(sweep, VocabularyCurves):
        raise TypeError(f"sweep must be VocabularyCurves (genviz.studies.learning_curves_vocabulary), "
                        f"got {type(sweep).__name__}")
    return sweep


def _setting(sweep, d, kind, name="d"):
    """The sweep's default curves at the setting ``(d, kind)``; a setting it lacks is refused,
    naming the argument ``name`` that gave ``d``."""
    if (d, kind) not in sweep.curves:
        raise ValueError(f"{name} must be one of the sweep's vocabulary sizes "
                         f"{list(sweep.vocabularies)} (features {kind!r}): (d, kind) must be a "
                         f"setting of the sweep {sorted(sweep.curves)}, got {(d, kind)!r}")
    return sweep.curves[(d, kind)]


def _crossing(sweep, d, kind, name="d"):
    n = crossing_size(_setting(sweep, d, kind, name))
    if n is None:
        raise ValueError(f"logistic regression is not clearly ahead at the largest size for "
                         f"d = {d}, {kind}: no crossing to read")
    return n


def _at_defaults(v) -> dict:
    """The explorer's λ and α drop-downs (those it has: more than one value) at the sweep's
    default: a reading at another λ or α is another setting."""
    return {name: default for name, default, values in (("l2", v.l2, v.l2_values),
                                                        ("alpha", v.alpha, v.alpha_values))
            if len(values) > 1}


def _crossing_with_d_transfer() -> Choice:
    """After 10-crossing-with-d: what an added feature costs logistic regression, in another
    domain (the answer follows from the explanation's argument; nothing to compute)."""
    return _transfer(
        "10-crossing-with-d", 0,
        "A hospital model grows from 30 to 3,000 features in one of two ways: 2,970 lab values "
        "measured on every patient, or 2,970 rare diagnosis codes, each present in a handful "
        "of records. After which growth does logistic regression need more records before its "
        "weights settle?",
        [("the lab values: each varies in every record, fitted with all", None),
         ("the rare codes: a feature seen in few records is the hardest to fit",
          "Hard to estimate, yes; but a code that is 0 in almost every record changes "
          "few predictions, and the ridge holds its weight near 0."),
         ("both alike: the records needed grow with the number of features d",
          "Does a code absent from almost every record cost as many records as a "
          "value present in each one?"),
         ("neither: logistic regression's need does not grow with d",
          "More weights fitted jointly to the same labels need more records.")],
        explanation=("A weight is pinned down by the records in which its feature varies. Lab "
                     "values measured on every patient make all 2,970 new weights active in "
                     "every record, fitted jointly: logistic regression's need then grows "
                     "roughly like d, as the worst case says. A rare code is 0 in almost every "
                     "record: it changes few predictions, and the ridge holds its weight near 0 "
                     "until enough records carry it, so such codes cost far fewer records."),
        claims=[r"weights active in every record"])


def predict_crossing_with_d(sweep, small=30, large=3000, kind="presence") -> Prediction:
    """Before the investigation's explorer: the vocabulary grows from ``small`` to ``large``
    words; where does the crossing go (:func:`~genviz.studies.gda_vs_logistic_curves.
    crossing_size`)? The observation records the crossing at both sizes (their ratio)."""
    v = _check_sweep(sweep)
    before, after = _crossing(v, small, kind, "small"), _crossing(v, large, kind, "large")
    growth = large / small
    ratio = after / before
    per_word = (before / small, after / large)
    options = [f"to a larger n, by far less than {growth:g} times",
               f"to a larger n, about {growth:g} times further",
               "nowhere: it stays at the same n",
               "to a smaller n: logistic regression wins sooner"]
    answer = (2 if ratio == 1 else 3 if ratio < 1 else
              0 if ratio < np.sqrt(growth) else 1)
    return Prediction(
        f"Ng & Jordan: naive Bayes needs a number of examples growing like log d to approach its "
        f"asymptotic error, logistic regression one growing like d. The vocabulary now grows "
        f"from d = {small} to d = {large} words ({kind}), {growth:g} times as many. Where does "
        f"the crossing go (the size from which logistic regression is clearly ahead)?",
        options, answer, id="10-crossing-with-d",
        explanation=("More words give logistic regression more weights to fit jointly, so it "
                     "needs more e-mails before it is ahead: the crossing moves right. But the "
                     "bounds are worst cases, proportional to d only up to constants: on real "
                     "text most of the added words are rare, each e-mail holds a few dozen of "
                     "them, and the ridge keeps the rarely seen weights small, so logistic "
                     "regression's need grows far more slowly than d. Naive Bayes' need grows "
                     "too: more rare words are more probabilities to count, each from few "
                     "e-mails."),
        reasons={1: f"Does each added word cost logistic regression as many e-mails as the "
                    f"first {small}? Most added words are rare.",
                 2: "With more weights to fit jointly, does logistic regression need the same "
                    "number of e-mails?",
                 3: "Which learner has more parameters to fit jointly when d grows?"},
        claims=[r"(bounds|bound) are worst cases"],
        transfer=_crossing_with_d_transfer(),
        observation=Observation(
            f"Compare the training e-mails per word at the crossing, n / d, at d = {small} with "
            f"the same at d = {large} ({kind}): record both. If logistic regression's need grew "
            f"like d, would it change?",
            per_word[1], setting={"d": large, "features": kind, **_at_defaults(v)},
            before={"d": small, "features": kind}, expected_before=per_word[0],
            compare="ratio", read="crossing_per_word", mention=["d"],
            labels={"d": "d", "features": "features", "l2": "λ", "alpha": "α"},
            what="e-mails per word at the crossing (n / d)", rtol=2e-3,
            hint="the crossing line of the readout; the dotted line marks the crossing."))


def crossing_with_counts(sweep, sizes=(300, 3000)) -> Exercise:
    """Investigation: switch the features to counts; the crossing at two vocabulary sizes, as
    ``[crossing at sizes[0], crossing at sizes[1]]`` (the largest n when there is none)."""
    v = _check_sweep(sweep)
    values, ms = [], []
    for d in sizes:
        if (d, "counts") not in v.curves:
            raise ValueError(f"sizes must be vocabulary sizes of the sweep with counts "
                             f"{list(v.vocabularies)}, got {d!r}")
        n = crossing_size(v.curves[(d, "counts")])
        ms.append(int(v.sizes[-1]) if n is None else n)
        values.append(ms[-1] / d)
    a, b = sizes
    return Exercise(
        f"Investigate with the explorer: switch the features to counts. How many training "
        f"e-mails per word (n / d) does logistic regression need to be clearly ahead, at "
        f"d = {a} and at d = {b}? Answer [at d = {a}, at d = {b}]; where it is clearly ahead "
        f"only with all the training e-mails, use that n.",
        values,
        hint="Set the drop-downs, then read the crossing line of the readout (n / d).",
        solution=(rf"With counts, $n = {ms[0]}$ at $d = {a}$ ({values[0]:.4g} per word) and "
                  rf"$n = {ms[1]}$ at $d = {b}$ ({values[1]:.4g} per word). Compare presence: a word repeated ten times in one e-mail is "
                  rf"ten pieces of evidence to naive Bayes' counts, and a feature of scale 10 "
                  rf"to logistic regression, whose ridge then constrains it differently."),
        kind="investigation", atol=0.0, rtol=2e-3, objective="10.5")


def lead_in_standard_errors(sweep, d, kind, n) -> Exercise:
    """Computation on the sweep's arrays: logistic regression's lead at one setting ``(d,
    kind)`` and size ``n``, in standard errors of the paired difference (naive Bayes' test
    error minus logistic regression's over the repetitions, which share their training
    e-mails): the statistic behind :func:`genviz.nb_vs_logistic.leader` and the crossing."""
    c = _setting(_check_sweep(sweep), d, kind)
    sizes = [int(s) for s in c.sizes]
    if n not in sizes:
        raise ValueError(f"n must be one of the sweep's sizes {sizes}, got {n!r}")
    mean, se = paired_lead(c, n)
    reps = c.nb_errors.shape[0]
    if not se > 0:
        raise ValueError(f"n = {n}: every repetition gives the same difference (standard error "
                         f"0, as at the whole training set); choose a smaller n")
    z = mean / se
    verdict = ("logistic regression is clearly ahead (more than two standard errors)" if z > 2
               else "naive Bayes is clearly ahead" if z < -2 else "neither is clearly ahead")
    return Exercise(
        f"Compute from the sweep's arrays, at d = {d} words ({kind}) and n = {n} training "
        f"e-mails: by how many standard errors does logistic regression lead? Take naive "
        f"Bayes' test error minus logistic regression's in each repetition (they share their "
        f"training e-mails), and divide the mean of these differences by its standard error "
        f"(their standard deviation with ddof = 1, over the square root of the number of "
        f"repetitions). A negative answer: naive Bayes leads.",
        z,
        hint="sweep[(d, kind)].nb_errors[:, j] - sweep[(d, kind)].lr_errors[:, j], with j the "
             "index of n in sweep.sizes; then mean / (std(ddof=1) / sqrt(repetitions)).",
        solution=(rf"Over the {reps} repetitions the differences have mean ${mean:.4f}$ "
                  rf"and standard error ${se:.4f}$, so the lead is ${z:.2f}$ standard errors: "
                  rf"{verdict}. The explorer's readout makes this test at every size, and the "
                  rf"crossing is the size from which it passes 2 at every larger size."),
        atol=0.01, rtol=0.0, objective="10.3")


def log_d_claim(sweep, small=30, large=3000, kind="presence") -> Choice:
    """What the investigation says about the log d vs d claim, beyond the crossing the
    prediction before it decided: where each learner settles at both vocabulary sizes, read
    from :func:`genviz.studies.learning_curves_vocabulary.settled_size`."""
    v = _check_sweep(sweep)
    curves = [_setting(v, small, kind, "small"), _setting(v, large, kind, "large")]
    nb = [settled_size(c, "nb") for c in curves]
    lr = [settled_size(c, "lr") for c in curves]
    options = ["naive Bayes settles first at both sizes; the grid cannot show the rates",
               "logistic regression settles as early or earlier at one size at least",
               "both settle at the same number of e-mails at both sizes",
               "the rates: naive Bayes' size grows like log d, logistic regression's like d"]
    answer = 0 if all(a < b for a, b in zip(nb, lr)) else 2 if nb == lr else 1
    return Choice(
        f"Test the claim with the explorer: at d = {small} and at d = {large} ({kind}), read "
        f"where each learner settles (the training-set size from which its error stays within "
        f"0.01 of its error with all the training e-mails). What does this experiment support "
        f"of Ng & Jordan's claim?",
        options, answer, id="10-log-d-claim", kind="investigation", objective="10.5",
        explanation=(f"Naive Bayes settles at n = {nb[0]} (d = {small}) and n = {nb[1]} "
                     f"(d = {large}); logistic regression at n = {lr[0]} and n = {lr[1]}. "
                     f"The sizes are a doubling grid that stops at {int(v.sizes[-1])} e-mails, "
                     f"so a rate (log d against d) cannot be read off it. What it can show is "
                     f"the order: "
                     + ("at both sizes the generative learner approaches its (higher) "
                        "asymptote with fewer e-mails, which is what the claim predicts. "
                        if answer == 0 else "here the order the claim predicts does not hold "
                        "at every size. ")
                     + "Ng & Jordan's results are upper bounds: on sparse text, with a ridge, "
                     "the e-mails logistic regression needs grow with the words that actually "
                     "matter, not with every word."),
        reasons={k: why for k, why in {
            0: "Compare each pair of settling sizes: is naive Bayes' the smaller at both?",
            1: "Compare each pair of settling sizes: which is the smaller?",
            2: "Read both learners' settling sizes at both vocabulary sizes.",
            3: "Two vocabulary sizes and a doubling grid of n: can they show a rate?"}.items()
            if k != answer},
        claims=([r"approaches its (\(higher\) )?asymptote with fewer"] if answer == 0 else
                [r"order the claim predicts does not hold"]),
        hint="Record where each learner settles at both vocabulary sizes, then compare.")


#: The options of :func:`crossing_with_regularisation`, by the directions (λ's, α's) of the
#: crossing: +1 to a larger n (or out of range), -1 to a smaller n, 0 unmoved.
_REGULARISATION_OPTIONS = (
    ((1, 1), "both to a larger n: regularising either learner means more e-mails are needed"),
    ((-1, -1), "both to a smaller n: regularising either learner means fewer e-mails are needed"),
    ((1, -1), "λ to a larger n, α to a smaller n: each one handicaps the learner it belongs to"),
    ((-1, 1), "λ to a smaller n, α to a larger n: each one speeds up the learner it belongs to"),
    ((0, 0), "neither moves: λ and α change both errors alike, not where the curves cross"))


def _position(curves) -> float:
    """Where the crossing is on the size axis (infinity: not clearly ahead at the largest n)."""
    n = crossing_size(curves)
    return np.inf if n is None else float(n)


def crossing_with_regularisation(sweep, d=3000, kind="presence", l2=None,
                                 alpha=None) -> Choice:
    """Investigation: from the default setting, raise logistic regression's ridge to ``l2``
    (default: the sweep's largest), then, λ back, naive Bayes' pseudo-count to ``alpha`` (the
    largest); which way does the crossing move in each case, and why? The answer is the
    direction of :func:`~genviz.studies.gda_vs_logistic_curves.crossing_size` at each setting
    against the default's (no crossing in range counts as beyond the largest n)."""
    v = _check_sweep(sweep)
    _setting(v, d, kind)
    l2 = max(v.l2_values) if l2 is None else l2
    alpha = max(v.alpha_values) if alpha is None else alpha
    for name, value, default, values in (("l2", l2, v.l2, v.l2_values),
                                         ("alpha", alpha, v.alpha, v.alpha_values)):
        if isinstance(value, bool) or value not in values or not value > default:
            raise ValueError(f"{name} must be one of the sweep's values {list(values)} above its "
                             f"default {default:g}, got {value!r}")
    base = v[(d, kind)]
    strong, heavy = v[(d, kind, v.alpha, l2)], v[(d, kind, alpha, v.l2)]
    at = _position(base)
    moved = tuple(int(_position(c) > at) - int(_position(c) < at) for c in (strong, heavy))
    keys = [key for key, _ in _REGULARISATION_OPTIONS]
    if moved not in keys:
        raise ValueError(f"at d = {d} ({kind}) the crossing moves {moved} (λ, α): one of them "
                         f"does not move it; choose a stronger l2 or alpha")
    where = {name: crossing_text(c) for name, c in
             (("base", base), ("l2", strong), ("alpha", heavy))}
    return Choice(
        f"Investigate with the explorer at d = {d} ({kind}): raise λ from {v.l2:g} to {l2:g} "
        f"(α at {v.alpha:g}) and watch the dotted line; then put λ back and raise α from "
        f"{v.alpha:g} to {alpha:g}. Which way does the crossing move in each case, and why?",
        [text for _, text in _REGULARISATION_OPTIONS], keys.index(moved),
        id="10-crossing-with-regularisation", kind="investigation", objective="10.5",
        explanation=_regularisation_explanation(moved, where, l2, alpha),
        reasons={0: "Which learner does λ belong to, and which one α?",
                 1: "Does a strong penalty make logistic regression need fewer e-mails?",
                 3: "A larger λ or α pulls a learner further from what the data say.",
                 4: "Compare the dotted line at both values of λ, then of α."},
        claims=[r"hyperparameter handicaps only its own learner"],
        hint="Set d and the features, then move one drop-down at a time and read the crossing "
             "line of the readout.")


def _regularisation_explanation(moved, where, l2, alpha) -> str:
    """The explanation of :func:`crossing_with_regularisation`: the three crossings read, each
    mechanism, and what this sweep showed. The usual outcome (λ right, α left) is explained as
    such; any other is said as read, never contradicted by the text."""
    readings = (f"At the default: {where['base']}; at λ = {l2:g}: {where['l2']}; at "
                f"α = {alpha:g}: {where['alpha']}.")
    ridge = ("A strong ridge pulls every weight of logistic regression towards zero, so it "
             "takes many e-mails before the data outweigh the penalty")
    smoothing = (f"Heavy smoothing adds {alpha:g} pseudo-counts to every word in each class and "
                 f"pulls naive Bayes' word probabilities towards uniform, most of all at small n")
    if moved == (1, -1):
        return (f"{readings} {ridge}: logistic regression stays behind longer and the crossing "
                f"moves right. {smoothing}; its error rises and logistic regression is ahead "
                f"sooner: the crossing moves left. Each hyperparameter handicaps only its own "
                f"learner: too much regularisation is bias that only many examples wash out.")
    words = {1: "to a larger n", -1: "to a smaller n", 0: "nowhere"}
    return (f"{readings} {ridge}. {smoothing}. On this sweep the crossing moved {words[moved[0]]} "
            f"with λ and {words[moved[1]]} with α: the usual pattern, in which each "
            f"hyperparameter handicaps only its own learner (λ to a larger n, α to a smaller "
            f"one), does not show at this setting; the readings above decide.")
