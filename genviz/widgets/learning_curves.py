"""Explorer for notebook 10: naive Bayes against logistic regression, learning curves."""

from __future__ import annotations

from genviz.plots.learning_curves import LearningCurveView, VocabularyCurveView
from genviz.widgets._base import (Explorer, dropdown, explorer_factory, readout_html,
                                  selection_slider)

__all__ = ["learning_curve_explorer", "learning_curve_readout", "vocabulary_curve_explorer",
           "vocabulary_curve_readout"]


def learning_curve_readout(state) -> str:
    """HTML: the training-set size, both learners' mean test error ± one standard error, and
    who is ahead."""
    gen, lr = state["labels"]
    ahead = {"nb": f"{gen} ahead (by more than 2 s.e.)",
             "lr": f"{lr} ahead (by more than 2 s.e.)",
             "tie": "neither ahead by more than 2 s.e."}[state["leader"]]

    def spread(se):
        return f"&plusmn; {se:.4f}" if se > 1e-12 else "(one fit)"

    return readout_html(f"training emails n = {state['n']}",
                        f"test error {gen}: {state['gen_error']:.4f} {spread(state['gen_se'])}",
                        f"test error {lr}: {state['lr_error']:.4f} {spread(state['lr_se'])}",
                        f"difference: {state['gap']:+.4f}; {ahead}")


@explorer_factory
def learning_curve_explorer(curves, n=None, *,
                            labels=("naive Bayes", "logistic regression")) -> Explorer:
    """A slider over the curves' training-set sizes ``n`` driving a
    :class:`~genviz.plots.learning_curves.LearningCurveView`; the readout gives both test errors
    at ``n`` and who is ahead. Nothing is fitted on a slider move: the curves are computed once
    (:func:`genviz.nb_vs_logistic.nb_vs_logistic_curves`), so every size is precomputed for
    the browser (``grid=True``)."""
    view = LearningCurveView(curves, n, labels=labels)
    controls = {"n": selection_slider("n", view.sizes, view.params["n"], grid=True)}
    return Explorer(view, controls, learning_curve_readout,
                    title="Learning curves: naive Bayes against logistic regression")


def vocabulary_curve_readout(state) -> str:
    """HTML: the setting, both errors at ``n``, the crossing and how many e-mails each learner
    needs to come within the study's tolerance of its error on all the training e-mails."""
    gen, lr = state["labels"]
    return readout_html(
        f"d = {state['d']} words, {state['features']}; &lambda; = {state['l2']:g} (logistic), "
        f"&alpha; = {state['alpha']:g} (naive Bayes); training emails n = {state['n']}",
        f"test error {gen}: {state['gen_error']:.4f}; {lr}: {state['lr_error']:.4f} "
        f"(difference {state['gap']:+.4f})",
        f"crossing: {state['crossing_text']}"
        + ("" if state["crossing"] is None else
           f" (n / d = {state['crossing_per_word']:.4g} emails per word)"),
        f"settled (within 0.01 of its error with all emails) from n = {state['nb_settled']} "
        f"({gen}), n = {state['lr_settled']} ({lr})")


@explorer_factory
def vocabulary_curve_explorer(sweep, *, d=None, features=None, alpha=None, l2=None, n=None,
                              labels=("naive Bayes", "logistic regression")) -> Explorer:
    """Notebook 10's investigation: drop-downs for the vocabulary size ``d``, the kind of
    features and, when the sweep computed more than one of each, logistic regression's ridge
    ``l2`` (λ) and naive Bayes' pseudo-count ``alpha``; a slider over the sizes ``n``; all
    gridded (every setting is precomputed by
    :func:`genviz.studies.learning_curves_vocabulary.vocabulary_curves`, so the explorer moves
    without a kernel). The readout names the setting and gives the crossing and each learner's
    settled size."""
    view = VocabularyCurveView(sweep, d=d, features=features, alpha=alpha, l2=l2, n=n,
                               labels=labels)
    p = view.params
    controls = {"d": dropdown("vocabulary d", [(str(v), v) for v in sweep.vocabularies],
                              p["d"], grid=True),
                "features": dropdown("features", list(sweep.kinds), p["features"], grid=True)}
    for name, label, values in (("l2", "λ (logistic)", sweep.l2_values),
                                ("alpha", "α (naive Bayes)", sweep.alpha_values)):
        if len(values) > 1:
            controls[name] = dropdown(label, [(f"{v:g}", v) for v in values], p[name],
                                      grid=True)
    controls["n"] = selection_slider("n", view.sizes, p["n"], grid=True)
    return Explorer(view, controls, vocabulary_curve_readout,
                    title="Learning curves by vocabulary size, kind of feature, λ and α")
