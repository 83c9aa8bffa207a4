"""Notebook 10: the learning-curve explorer against a new figure per update, and Ng & Jordan's
experiment on the spam split (nb_vs_logistic_curves) against the same fits with scikit-learn."""

import functools

import matplotlib.pyplot as plt
import numpy as np

from harness import ExplorerCase, LazyCase, TimingCase, naive_png, sweep_moves
from genviz.datasets import spam_assassin
from genviz.model_selection import stratified_split
from genviz.nb_vs_logistic import _two_class_order, nb_vs_logistic_curves, presence_features
from genviz.text import bag_of_words, build_vocabulary
from genviz.studies.learning_curves_vocabulary import vocabulary_curves, word_features
from genviz.widgets.learning_curves import learning_curve_explorer, vocabulary_curve_explorer


@functools.lru_cache(maxsize=1)
def data():
    """The spam split as notebook 10 makes it and its curves: built on first use, not at import."""
    c = spam_assassin()
    train, test = stratified_split(c.label, test_size=0.3, rng=0)
    vocab = build_vocabulary(c.text[train], min_count=2, stop_words="english")
    d = dict(XTR=bag_of_words(c.text[train], vocab), XTE=bag_of_words(c.text[test], vocab),
             YTR=c.label[train], YTE=c.label[test],
             SIZES=[10, 20, 40, 80, 160, 320, 640, 1280, len(train)])  # notebook 10's
    d["CURVES"] = nb_vs_logistic_curves(d["XTR"], d["YTR"], d["XTE"], d["YTE"], d["SIZES"], 10,
                                        rng=0)
    return d


def naive_curves(n):
    """A typical ``interact`` callback: a new figure with both curves and the marker."""
    d = data()
    CURVES, SIZES = d["CURVES"], d["SIZES"]
    (nb, nb_se), (lr, lr_se) = CURVES.mean_se("nb"), CURVES.mean_se("lr")
    fig, ax = plt.subplots(figsize=(7.8, 4.2))
    ax.errorbar(SIZES, nb, yerr=nb_se, marker="o", label="naive Bayes")
    ax.errorbar(SIZES, lr, yerr=lr_se, marker="s", label="logistic regression")
    ax.axvline(n, ls="--")
    ax.set_xscale("log")
    ax.legend()
    naive_png(fig)


def _sklearn_curves(reps=3):
    """The same fits (3 repetitions) with scikit-learn: MultinomialNB and LogisticRegression
    (lbfgs, C = 1 / l2), no warm start."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import MultinomialNB
    d = data()
    XTR, XTE, YTR, YTE, SIZES = (d[k] for k in ("XTR", "XTE", "YTR", "YTE", "SIZES"))
    F, G, _ = presence_features(XTR, XTE, 300)
    y01, yt = (YTR == "spam").astype(int), YTE == "spam"
    gen = np.random.default_rng(0)
    for _ in range(reps):
        order = _two_class_order(y01, gen)
        for n in SIZES:
            rows = order[:n]
            MultinomialNB().fit(F[rows], y01[rows]).predict(G)
            LogisticRegression(C=1.0, max_iter=1000).fit(F[rows], y01[rows]).predict(G) == yt


def _explorer_case():
    d = data()
    return ExplorerCase("learning_curve_explorer (n; notebook 10's curves)",
                        lambda: learning_curve_explorer(d["CURVES"]),
                        sweep_moves({"n": d["SIZES"]}, n_total=60), naive_curves)


def _ours_curves():
    d = data()
    nb_vs_logistic_curves(d["XTR"], d["YTR"], d["XTE"], d["YTE"], d["SIZES"], 3, rng=0)


# -- notebook 10's investigation: the cost of one vocabulary size (both kinds of feature) -------
def _vocabulary_case(d):
    """vocabulary_curves at one vocabulary size d, both kinds, 9 sizes x 2 repetitions (the
    notebook runs 5): how the precomputation grows with d. Baseline: scikit-learn's
    MultinomialNB + LogisticRegression (lbfgs, C = 1 / l2) on the same sparse features, one
    repetition's fits."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import MultinomialNB
    x = data()
    args = (x["XTR"], x["YTR"], x["XTE"], x["YTE"], x["SIZES"], 2)

    def ours():
        vocabulary_curves(*args, rng=0, vocabularies=(d,))

    def sklearn():
        y01 = (x["YTR"] == "spam").astype(int)
        order = _two_class_order(y01, np.random.default_rng(0))
        for kind in ("presence", "counts"):
            F, G, _ = word_features(x["XTR"], x["XTE"], d, kind)
            for n in x["SIZES"]:
                rows = order[:n]
                MultinomialNB().fit(F[rows], y01[rows]).predict(G)
                LogisticRegression(C=1.0, max_iter=5000).fit(F[rows], y01[rows]).predict(G)

    label = "all 17530" if d is None else str(d)
    return TimingCase(f"vocabulary_curves: d = {label}, presence + counts, 9 sizes x 2 reps",
                      ours, sklearn, baseline_name="sklearn NB + LR (lbfgs), 1 rep",
                      repeats=3, baseline_repeats=1)


@functools.lru_cache(maxsize=1)
def sweep():
    """Notebook 10's sweep as the notebook computes it (d = 30, 300, 3000; 5 repetitions; λ in
    (0.01, 1, 100), α in (0.01, 1, 10))."""
    x = data()
    return vocabulary_curves(x["XTR"], x["YTR"], x["XTE"], x["YTE"], x["SIZES"], 5, rng=0,
                             vocabularies=(30, 300, 3000), alpha=(0.01, 1.0, 10.0),
                             l2=(0.01, 1.0, 100.0))


def _vocabulary_explorer_case():
    """The investigation's explorer, and the size of its grid (every d x kind x λ x α x n
    state)."""
    from genviz.widgets.states import build_grid
    v = sweep()
    blob = build_grid(vocabulary_curve_explorer(v))
    n = (len(v.vocabularies) * len(v.kinds) * len(v.l2_values) * len(v.alpha_values)
         * len(v.sizes))
    moves = sweep_moves({"d": list(v.vocabularies), "features": list(v.kinds),
                         "l2": list(v.l2_values), "alpha": list(v.alpha_values),
                         "n": [int(s) for s in v.sizes]}, n_total=60)

    def naive(**values):
        naive_curves(values.get("n", v.sizes[-1]))

    return ExplorerCase(f"vocabulary_curve_explorer (d, features, λ, α, n; grid {n} states, "
                        f"{len(blob) / 1e6:.2f} MB)", lambda: vocabulary_curve_explorer(v),
                        moves, naive)


CASES = [
    LazyCase("learning_curve_explorer (n; notebook 10's curves)", _explorer_case),
    TimingCase("nb_vs_logistic_curves: 9 sizes x 3 reps, 300 words (spam split)",
               _ours_curves, _sklearn_curves, baseline_name="sklearn NB + LR (lbfgs)", repeats=3),
    *[LazyCase(f"vocabulary_curves: d = {'all 17530' if d is None else d}",
               functools.partial(_vocabulary_case, d)) for d in (30, 300, 3000, None)],
    LazyCase("vocabulary_curve_explorer (d, features, λ, α, n)", _vocabulary_explorer_case),
]
