"""Practice that climbs for notebooks 06 and 08: investigations with the naive Bayes explorers,
derivations (the log-sum-exp shift; Gaussian naive Bayes as a diagonal Gaussian), open
transfer questions and retrieval items. Re-exported by :mod:`genviz.exercises.naive_bayes`
(the notebooks call them as ``exercises.<name>``)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.special import logsumexp

from genviz._validation import check_scalar, check_vector
from genviz.exercises import Choice, Exercise, OpenQuestion
from genviz.exercises.derivation import Derivation, Step, Symbol
from genviz.studies.naive_bayes_experiments import nb_vs_gda
from genviz.gaussian import mvn_pdf
from genviz.kde import select_bandwidth
from genviz.naive_bayes import CategoricalNB

__all__ = ["alpha_for_posterior", "logsumexp_shift_derivation", "rare_symptom",
           "full_joint_of_a_small_table", "rho_for_gda_advantage",
           "gaussian_nb_as_gaussian_derivation", "bimodal_sensor", "silverman_on_two_modes",
           "smoothing_can_flip",
           "QUERY_ALPHAS", "NB_VS_GDA_RHOS"]

#: the query builder's alpha slider (genviz.widgets.naive_bayes: 0 to 3 in steps of 0.05)
QUERY_ALPHAS = np.round(np.arange(0.0, 3.0001, 0.05), 2)
#: the naive Bayes vs GDA explorer's rho slider (-0.95 to 0.95 in steps of 0.05)
NB_VS_GDA_RHOS = np.round(np.arange(-0.95, 0.951, 0.05), 2)


def _day(query) -> str:
    """A query as the notes write it: ⟨sunny, cold, high⟩."""
    return "⟨" + ", ".join(str(v) for v in query) + "⟩"


def _fit(X, y, feature_names, alpha):
    """The table's naive Bayes, as both exercise modules of notebooks 06 and 08 fit it."""
    return CategoricalNB(alpha=alpha).fit(X, y, feature_names=list(feature_names))


def _posterior(e, label) -> float:
    """``P(y = label | x)`` from the dict ``e`` of :meth:`CategoricalNB.explain` (the query
    builder's state holds it as ``explain``); NaN when the posterior is 0/0 (``e["posterior"]``
    is None)."""
    if e["posterior"] is None:
        return float("nan")
    return float(e["posterior"][list(e["classes"]).index(label)])


# -- notebook 06 ---------------------------------------------------------------------------------

def smoothing_can_flip(X, y, feature_names, alphas=(0.5, 1.0, 1.5, 2.0, 2.5, 3.0)) -> Choice:
    """Conceptual: can Laplace/Lidstone smoothing change a decision? Computed on the table:
    every combination of the seen values is classified by plain counting and with each
    pseudo-count of ``alphas`` (the query builder's range), smallest first."""

    alphas = [check_scalar(a, "alphas", low=0.0, low_open=True) for a in alphas]
    plain = _fit(X, y, feature_names, 0.0)
    queries = [list(q) for q in itertools.product(*[c.tolist() for c in plain.categories_])]
    before = [plain.explain(q) for q in queries]
    flipped = None
    for alpha in alphas:
        smooth = _fit(X, y, feature_names, alpha)
        for q, e0 in zip(queries, before):
            if e0["posterior"] is not None and smooth.explain(q)["decision"] != e0["decision"]:
                flipped = (tuple(q), e0["decision"], smooth.explain(q)["decision"], alpha)
                break
        if flipped:
            break
    example = ("" if flipped is None else
               f" On this table the day {_day(flipped[0])} is classified {flipped[1]} by plain "
               f"counting and {flipped[2]} with $\\alpha = {flipped[3]:g}$ (try it in the query "
               "builder).")
    return Choice(
        "Can smoothing (a pseudo-count $\\alpha > 0$) change which class naive Bayes predicts, "
        "not only the probabilities?",
        ["Yes: a class whose score rests on few counts can lose its lead",
         "No: every estimate moves by about the same factor",
         "Only from α = 1 on: a smaller α only rescales"],
        0 if flipped is not None else 1, id="06-smoothing-can-flip",
        explanation=("Smoothing moves estimates from small counts much more than estimates from "
                     "large ones (0 of 1 becomes 1 of 3, while 50 of 100 stays about a half), "
                     "and it moves them towards uniform. A class whose score rests on a few "
                     "counts can lose its lead: raise α far enough and the decision changes."
                     + example),
        reasons={1: "The change is not the same factor for every estimate: compare 0/1 -> "
                    "1/3 with 6/9 -> 7/12.",
                 2: "Every α > 0 moves small counts more than large ones; 1 is not a "
                    "threshold."},
        claims=([r"(raise|larger|increase)\w* α[^.]{0,60}decision"]
                if flipped is not None else [r"larger score stays larger"]),
        objective="06.3")



def alpha_for_posterior(X, y, feature_names, query, label, target) -> Exercise:
    """Investigation with the query builder: the smallest α on its slider at which
    ``P(y = label | query)`` reaches ``target`` (the naive Bayes of the table refitted with each
    α of the slider, as the explorer does).

    Examples
    --------
    >>> from genviz import datasets
    >>> t = datasets.play_tennis()
    >>> ex = alpha_for_posterior(t.X, t.y, t.feature_names, ["Overcast", "Cool", "High",
    ...                          "Strong"], "No", 0.2)
    >>> ex.kind, ex._answer
    ('investigation', 0.55)
    """
    target = check_scalar(target, "target", low=0.0, high=1.0)
    post = []
    for alpha in QUERY_ALPHAS:
        post.append(_posterior(_fit(X, y, feature_names, float(alpha)).explain(list(query)), label))
    post = np.array(post)
    hits = np.flatnonzero(post >= target)
    if hits.size == 0:
        raise ValueError(f"no α up to {QUERY_ALPHAS[-1]:g} gives P(y = {label} | x) >= "
                         f"{target:g}; ask for a smaller target")
    j = int(hits[0])
    alpha = float(QUERY_ALPHAS[j])
    return Exercise(
        f"Investigate with the query builder: set the query {_day(query)}. At α = 0, "
        f"P(y = {label} | x) is {post[0]:.3g}. What is the smallest α on the slider at which it "
        f"reaches {target:g}?",
        alpha,
        hint=f"Raise α one step (0.05) at a time and watch the readout's row P(y | x) in the "
             f"column {label}.",
        solution=(rf"The posterior of {label} climbs from ${post[0]:.3g}$ as $\alpha$ grows and "
                  rf"first reaches {target:g} at $\alpha = {alpha:g}$ "
                  rf"(${post[j]:.3f}$; at $\alpha = {QUERY_ALPHAS[j - 1]:g}$ it is "
                  rf"${post[j - 1]:.3f}$). A value never counted with {label} makes its factor "
                  rf"0 without smoothing; with pseudo-counts the factor is "
                  rf"$\alpha/(N_k + \alpha|\text{{values}}|)$, which grows with $\alpha$, so "
                  rf"the other factors get a say again."),
        kind="investigation", atol=0.005, rtol=0.0, objective="06.3",
        claims=[rf"first reaches {target:g} at α ?= ?{alpha:g}\b"])


def logsumexp_shift_derivation(scores=(-2158.1, -2245.9)) -> Derivation:
    r"""Derivation, written: the log-sum-exp trick for two classes. Shifting the log scores by
    :math:`m = \max_k s_k` leaves the posterior a function of the difference
    :math:`d = s_1 - s_2` alone, which never underflows. The keys are checked here against
    :func:`scipy.special.logsumexp` of ``scores`` (whose exponentials underflow to 0).

    Examples
    --------
    >>> q = logsumexp_shift_derivation()
    >>> print(q.check_step(0, "1/(1 + exp(-d))"))
    Correct!
    >>> print(q.check_step(0, "1/(1 + exp(d))"))
    Not quite: Sign: the other class's shifted term is e^(s₂ − m) = e^(−d).
    """
    s = np.asarray(scores, dtype=float)
    if s.shape != (2,) or not np.all(np.isfinite(s)) or s[0] < s[1]:
        raise ValueError(f"scores must be two finite log scores, the first the larger, got "
                         f"{scores!r}")
    m, d = s.max(), s[0] - s[1]
    shifted = m + np.log(np.sum(np.exp(s - m)))
    exact = logsumexp(s)
    if not (np.isclose(shifted, exact, rtol=0, atol=1e-9)
            and np.isclose(1 / (1 + np.exp(-d)), np.exp(s[0] - exact), rtol=1e-12)
            and np.isclose(np.log1p(np.exp(-d)), exact - m, rtol=0, atol=1e-9)):
        raise RuntimeError("the log-sum-exp derivation disagrees with scipy.special.logsumexp")
    symbols = {"d": Symbol("d", 0.0, 30.0, spellings=("s1-s2",))}
    steps = [
        Step(r"Multiply the numerator and the denominator of $P(y = 1 \mid x) = "
             r"\frac{e^{s_1}}{e^{s_1} + e^{s_2}}$ by $e^{-m}$, with $m = s_1 \ge s_2$. Write "
             r"the posterior through $d = s_1 - s_2 \ge 0$ alone.",
             "1/(1 + exp(-d))", r"P(y=1\mid x) = \frac{1}{1 + e^{-d}}",
             mistakes={"1/(1 + exp(d))": "Sign: the other class's shifted term is "
                                         "e^(s₂ − m) = e^(−d).",
                       "exp(-d)": "That is the other class's shifted term alone; the "
                                  "denominator adds the first class's e⁰ = 1."}),
        Step(r"Then $\log\sum_l e^{s_l} - m$, through $d$: the part `logsumexp` adds to $m$.",
             "log(1 + exp(-d))", r"\log\sum_l e^{s_l} - m = \log(1 + e^{-d})",
             mistakes={"log(1 + exp(d))": "Sign: the shifted terms are e⁰ and e^(−d).",
                       "exp(-d)": "Close for a large d, but not the same: log(1 + x) is not "
                                  "x."}),
    ]
    return Derivation(
        r"With log scores $s_k = \log P(y=k) + \sum_j \log P(x_j \mid y = k)$ the posterior "
        r"is $e^{s_k}/\sum_l e^{s_l}$, whose terms underflow. `logsumexp` computes "
        r"$\log\sum_l e^{s_l} = m + \log\sum_l e^{s_l - m}$ with $m = \max_k s_k$. Show, "
        r"for two classes, that the shifted formula gives the same posterior and cannot "
        r"underflow.", steps, symbols=symbols, id="06-logsumexp-shift", objective="06.4",
        explanation=(r"$\frac{e^{s_k}}{\sum_l e^{s_l}} = \frac{e^{-m}e^{s_k}}{e^{-m}\sum_l "
                     r"e^{s_l}} = \frac{e^{s_k - m}}{\sum_l e^{s_l - m}}$: the same fraction, "
                     r"but now the largest term is $e^0 = 1$, so the sum is between 1 and the "
                     r"number of classes and never underflows; its logarithm is "
                     r"$\log\sum_l e^{s_l} - m$. With two classes and $m = s_1$ the posterior "
                     r"is $1/(1 + e^{-d})$ and $\log\sum_l e^{s_l} - m = \log(1 + e^{-d})$, "
                     r"between 0 and $\log 2$. For the scores "
                     rf"{', '.join(f'{v:g}' for v in s)}: $e^{{s_k}}$ rounds to 0.0, yet "
                     rf"$m + \log\sum_l e^{{s_l - m}} = {shifted:.4f}$, what `logsumexp` returns."),
        claims=[r"the largest term is e ?\^ ?0 ?= ?1"],
        hint="Multiply a fraction's top and bottom by the same positive number, then divide "
             "both by e^(s₁ − m) = 1.")


def rare_symptom() -> OpenQuestion:
    """Open transfer question: a zero count in a small medical data set."""
    return OpenQuestion(
        "A naive Bayes model for a rare disease is trained by counting on 40 patients. One "
        "symptom never occurred among the sick patients in the training data. A new patient "
        "is sick and has that symptom. What does the model say, and how would you fix it? "
        "Would α = 100 be a good fix?",
        (r"Without smoothing $P(\text{symptom} \mid \text{sick}) = 0$, so the score of "
         r"'sick' is 0 whatever the other symptoms say: the model is certain the patient is "
         r"healthy (and if the symptom also never occurred among the healthy, the posterior is "
         r"$0/0$). Laplace smoothing (a pseudo-count $\alpha$, e.g. 1) gives unseen "
         r"combinations a small probability, so the other symptoms can still decide. "
         r"$\alpha = 100$ is too much for 40 patients: the pseudo-counts swamp the real "
         r"counts and every estimate is pulled towards uniform, so the model no longer "
         r"reflects the data. Choose $\alpha$ small, or by cross-validation."),
        key_points={"the zero factor makes P(sick | x) = 0 (or 0/0)":
                        r"\b0\b|zero|0 ?/ ?0|certain|impossible|rules? out",
                    "Laplace smoothing fixes it": r"laplace|smooth|pseudo.?count|alpha|α",
                    "α = 100 swamps the 40 patients' counts":
                        r"(too (large|big|much)|swamp|uniform|outweigh|dominat|overwhelm|ignor)"},
        claims=[r"pseudo.counts swamp the real counts"], objective="06.3")


def full_joint_of_a_small_table(X, y) -> Choice:
    """Retrieval of notebook 01 (the curse of dimensionality): the full joint table of a small
    categorical table (every attribute and the label). Its cells and the distinct rows are
    counted from the data.

    Examples
    --------
    >>> from genviz import datasets
    >>> t = datasets.play_tennis()
    >>> q = full_joint_of_a_small_table(t.X, t.y)
    >>> q.options[q.correct[0]][:9]
    '72 cells,'
    """
    X, y = np.asarray(X, dtype=object), np.asarray(y, dtype=object)
    table = np.column_stack([X, y])
    sizes = [len(set(col)) for col in table.T]
    cells, rows = math.prod(sizes), len({tuple(r) for r in table.tolist()})
    plus = " + ".join(map(str, sizes))
    options = [f"{cells} cells, at most {rows} filled: most combinations get probability 0",
               f"{len(table)} cells, one per day: every combination is covered",
               f"{cells} cells, all filled: counting spreads each day over several cells",
               f"{sum(sizes)} cells ({plus}), about one day each"]
    return Choice(
        f"Notebook 1 learned full joint tables by counting. Do that with this table: one cell "
        f"per combination of its {X.shape[1]} attributes and the label, learned from its "
        f"{len(table)} rows. How many cells, and what does the learned table say about most "
        f"new days?",
        options, 0, id="06-full-joint-small-table", objective="01.4",
        explanation=(rf"The attributes and the label take {' × '.join(map(str, sizes))} values: "
                     rf"${cells}$ cells, ${cells - 1}$ free parameters. {len(table)} rows fill "
                     rf"at most {rows} of them, so at least {cells - rows} cells have count 0 "
                     rf"and the learned table calls those days impossible: the curse of "
                     rf"dimensionality of notebook 1. Naive Bayes needs only one small table per "
                     rf"attribute and class: each of its estimates rests on several rows."),
        reasons={1: "The table has a cell for every combination, seen or not.",
                 2: "Counting puts each row in exactly one cell.",
                 3: "That adds the numbers of values; combinations multiply them."},
        claims=[rf"at least {cells - rows} cells have count 0"],
        hint="Multiply the numbers of values; then compare with the number of rows.")


# -- notebook 08 ---------------------------------------------------------------------------------

def rho_for_gda_advantage(gap=0.10, *, side="negative") -> Exercise:
    """Investigation with the naive Bayes vs GDA explorer: the ρ nearest 0 on its slider (on the
    negative or positive side) at which GDA's test accuracy beats naive Bayes' by at least
    ``gap`` (:func:`genviz.studies.naive_bayes_experiments.nb_vs_gda` at every slider position).

    Examples
    --------
    >>> rho_for_gda_advantage(0.10)._answer
    -0.7
    """
    gap = check_scalar(gap, "gap", low=0.0, high=1.0)
    if side not in ("negative", "positive"):
        raise ValueError(f"side must be 'negative' or 'positive', got {side!r}")
    rhos = NB_VS_GDA_RHOS[NB_VS_GDA_RHOS < 0][::-1] if side == "negative" else \
        NB_VS_GDA_RHOS[NB_VS_GDA_RHOS > 0]
    found = None
    for rho in rhos:
        r = nb_vs_gda(float(rho))
        if r.accuracy_gda - r.accuracy_nb >= gap - 1e-12:
            found = (float(rho), r)
            break
    if found is None:
        raise ValueError(f"no ρ on the slider gives GDA a lead of {gap:g}; ask for less")
    rho, r = found
    word = "below" if side == "negative" else "above"
    return Exercise(
        f"Investigate with the explorer: move ρ {word} 0. What is the ρ nearest to 0 at which "
        f"GDA's test accuracy beats naive Bayes' by at least {gap:g}?",
        rho,
        hint="Move ρ one step at a time away from 0 and subtract the two accuracies in the "
             "readout at each step.",
        solution=(rf"At $\rho = {rho:g}$ GDA scores ${r.accuracy_gda:.3f}$ and naive Bayes "
                  rf"${r.accuracy_nb:.3f}$: GDA leads by ${r.accuracy_gda - r.accuracy_nb:.3f}$, "
                  rf"the first step where the lead reaches {gap:g}. The sign of $\rho$ does not "
                  rf"matter: GDA's tilted ellipses use the correlation either way, naive Bayes "
                  rf"cannot see it, and the stronger it is the more it costs."),
        kind="investigation", atol=0.005, rtol=0.0, objective="08.3",
        claims=[rf"at ρ ?= ?{rho:g} gda scores"])


def gaussian_nb_as_gaussian_derivation(seed=0) -> Derivation:
    r"""Derivation, written: Gaussian naive Bayes' class density :math:`\prod_j \mathcal N(x_j;
    \mu_{kj}, \sigma_{kj}^2)` as one multivariate normal, for two features: the product's
    quadratic form (no cross term) and the determinant of the matching covariance. The keys are
    checked here against :func:`genviz.gaussian.mvn_pdf` with ``diag(sd**2)`` at random points.

    Examples
    --------
    >>> q = gaussian_nb_as_gaussian_derivation()
    >>> print(q.check_step(0, "(u1/s1)^2 + (u2/s2)^2"))
    Correct!
    """
    gen = np.random.default_rng(seed)
    mu, sd = gen.normal(size=2), gen.uniform(0.5, 2.0, 2)
    X = gen.normal(size=(20, 2)) * 2
    product = np.prod(np.exp(-0.5 * ((X - mu) / sd) ** 2) / (np.sqrt(2 * np.pi) * sd), axis=1)
    u = X - mu
    quad = u[:, 0]**2 / sd[0]**2 + u[:, 1]**2 / sd[1]**2
    det = sd[0]**2 * sd[1]**2
    if not (np.allclose(mvn_pdf(X, mu, np.diag(sd**2)), product, rtol=1e-10)
            and np.allclose(np.exp(-quad / 2) / (2 * np.pi * np.sqrt(det)), product, rtol=1e-10)):
        raise RuntimeError("the diagonal-Gaussian derivation disagrees with genviz.gaussian")
    symbols = {"u1": Symbol("u₁", -3.0, 3.0), "u2": Symbol("u₂", -3.0, 3.0),
               "s1": Symbol("σ₁", 0.5, 2.0, spellings=("sigma1",)),
               "s2": Symbol("σ₂", 0.5, 2.0, spellings=("sigma2",))}
    steps = [
        Step(r"With two features write the product as one exponential, "
             r"$\frac{1}{2\pi\sigma_1\sigma_2}e^{-Q/2}$. What is $Q$, through "
             r"$u_j = x_j - \mu_{kj}$ and $\sigma_j = \sigma_{kj}$?",
             "u1^2/s1^2 + u2^2/s2^2", r"Q = u_1^2/\sigma_1^2 + u_2^2/\sigma_2^2",
             mistakes={"u1^2/s1 + u2^2/s2": "Each exponent divides by the variance σ², not "
                                            "by σ.",
                       "(u1 + u2)^2/(s1*s2)": "Exponents add: each feature keeps its own "
                                              "square, with no cross term u₁u₂."}),
        Step(r"A normal $\mathcal N(\mu_k, \Sigma_k)$ has the constant "
             r"$1/(2\pi|\Sigma_k|^{1/2})$ and $Q = u^\top\Sigma_k^{-1}u$. Matching the "
             r"constants: $|\Sigma_k| =$ ?",
             "s1^2*s2^2", r"|\Sigma_k| = \sigma_1^2\sigma_2^2",
             mistakes={"s1*s2": "|Σₖ|^{1/2} is σ₁σ₂, so |Σₖ| is its square."}),
    ]
    return Derivation(
        r"Gaussian naive Bayes models class $k$ by $\prod_{j=1}^d \mathcal N(x_j; \mu_{kj}, "
        r"\sigma_{kj}^2)$. Multiply the densities out (two features): which multivariate "
        r"normal is that?", steps, symbols=symbols, id="08-gnb-diagonal", objective="08.2",
        explanation=(r"$\prod_j \frac{1}{\sqrt{2\pi}\sigma_{kj}} e^{-(x_j - \mu_{kj})^2/"
                     r"(2\sigma_{kj}^2)} = \frac{1}{(2\pi)^{d/2}\prod_j\sigma_{kj}} "
                     r"\exp\big(-\tfrac12\sum_j (x_j-\mu_{kj})^2/\sigma_{kj}^2\big)$. The "
                     r"quadratic form has no cross terms $u_iu_j$, so $\Sigma_k^{-1}$ is "
                     r"diagonal, with entries $1/\sigma_{kj}^2$; and $|\Sigma_k| = \prod_j "
                     r"\sigma_{kj}^2$. It is $\mathcal N(\mu_k, \Sigma_k)$ with $\Sigma_k = "
                     r"\mathrm{diag}(\sigma_{k1}^2, \dots, \sigma_{kd}^2)$. Gaussian naive Bayes "
                     r"is a Gaussian class model with a diagonal covariance: GDA with one "
                     r"*diagonal* covariance per class, axis-aligned ellipses."),
        claims=[r"σ ?k ?= ?mathrm ?diag ?\( ?σ ?k1 ?\^ ?2",
                r"gaussian class model[^.]{0,20}diagonal covariance"],
        hint="Write the product of exponentials as one exponential: exponents add.")


def bimodal_sensor() -> OpenQuestion:
    """Open transfer question: choosing how to model a continuous feature, honestly."""
    return OpenQuestion(
        "A factory's sensor reading is a feature for telling good parts from bad ones. Among "
        "the good parts the reading has two peaks (two machine types). You have 300 labelled "
        "parts. How would you model p(reading | class) for naive Bayes, and how would you "
        "decide between your options?",
        (r"One Gaussian per class cannot have two peaks: it would put the good parts' "
         r"probability between the peaks, where they are rare. A kernel density estimate per "
         r"class (bandwidth chosen by cross-validation, not Silverman's rule, which assumes "
         r"one bump), or discretising the reading into bins, follows both peaks; a mixture "
         r"of two Gaussians would too. Decide on held-out parts: leave-one-out or a test set, "
         r"never the training accuracy, which rewards narrow bins and small bandwidths that "
         r"memorise the 300 parts."),
        key_points={"one Gaussian cannot follow two peaks": r"gaussian|one (bump|peak|mode)",
                    "a KDE or bins (or a mixture) follow them": r"kde|kernel|bin|discreti|mixture",
                    "decide on held-out data, not training accuracy":
                        r"held.out|test|leave.one.out|cross.valid|unseen"},
        claims=[r"one gaussian per class cannot have two peaks"], objective="08.4")


def silverman_on_two_modes(x, y, label) -> Choice:
    """Retrieval of notebook 05 (choosing h): for the class ``label`` of a 1-D feature, compare
    Silverman's rule with least-squares cross-validation (both computed with
    :func:`genviz.kde.select_bandwidth`)."""
    x, y = check_vector(x, "x"), np.asarray(y)
    xs = x[y == label]
    if xs.size < 3:
        raise ValueError(f"label {label!r} has fewer than 3 points in y")
    h_rule, h_cv = select_bandwidth(xs, "silverman"), select_bandwidth(xs, "lscv")
    ratio = h_rule / h_cv
    options = ["Silverman's: it takes the two modes for one wide bump",
               "LSCV's: it follows this class's own points, spread and all",
               "about the same: both target the integrated squared error"]
    answer = 0 if ratio > 2 else (1 if ratio < 0.5 else 2)
    return Choice(
        f"Notebook 5: KDE naive Bayes needs a bandwidth per class. For class '{label}' of the "
        f"two-class data above, which rule gives the larger h: Silverman's rule of thumb or "
        f"least-squares cross-validation?",
        options, answer, id="08-silverman-two-modes", objective="05.3",
        explanation=(rf"Silverman's $h = 0.9\min(s, \mathrm{{IQR}}/1.34)\,n^{{-1/5}}$ uses the "
                     rf"class's spread: with modes far apart $s$ is large, and the rule "
                     rf"(optimal for one normal bump) gives $h = {h_rule:.3f}$; LSCV looks at "
                     rf"how well the estimate predicts each held-out point and picks "
                     rf"$h = {h_cv:.3f}$, {ratio:.1f} times smaller, narrow enough for each "
                     rf"mode. On the claw in notebook 5 the rules of thumb smoothed the claws "
                     rf"away for the same reason."),
        reasons={1: "Cross-validation follows the data: it can pick any h.",
                 2: "A rule of thumb targets the error only if the density is normal."},
        claims=([r"times smaller, narrow enough for each mode"] if answer == 0 else
                [r"cross-validation follows the data"]),
        hint="What does Silverman's rule assume about the shape of the density?")
