"""Layout of every static figure, headless: no two texts overlap, none leaves the figure, and
the figure is readable at the width it is shown -- in the normal and the lecture style.

The static figures are the public ``*_figure`` functions of the ``genviz.plots`` modules, shown
in the notebooks with :func:`genviz.plots.show`. Coverage is discovered, not listed by hand:
every such function must have a case in ``CASES`` (built with the arguments its notebook
uses), or be named in ``NOT_FIGURE_BUILDERS`` with the reason; a new one without either fails
``test_every_static_figure_function_is_covered``. The overlap check is the explorers' one
(tests/layout_testing.py).

The width rule (different from the explorers'): ``show`` embeds a static figure as a PNG in an
``<img style="max-width:100%;height:auto">`` (:func:`genviz.plots._base.image_bundle`), so a
figure wider than the output area is scaled down to fit, never clipped -- but its text shrinks
with it. A static figure may therefore be wider than :func:`figure_width_budget` (7.8 in normal,
8.0 in lecture style, inches at ``FIGURE_DPI``) only as long as its smallest text, scaled by
``budget / width``, stays at least ``MIN_FONT_PT`` of the style: 8 pt (11 px, the smallest text
JupyterLab itself uses) in the normal style, 11 pt (15 px) in the lecture style, for a projector.
The smallest text is measured on the texts actually drawn (tick labels included). The lecture
budget is the explorers' 8.0 in although a static figure in Voila at 1280x720 gets the whole
cell (~1200 px): the conservative width keeps a single rule.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import pkgutil

import matplotlib.pyplot as plt
import numpy as np
import pytest

import genviz.plots
from explorer_testing import _spam
from genviz.plots.style import figure_width_budget, lecture_mode
from layout_testing import drawn_texts, figure_layout_problems, figure_width_in

MIN_FONT_PT = {"normal": 8.0, "lecture": 11.0}

#: public ``*_figure`` functions that build no figure to check, and why
NOT_FIGURE_BUILDERS = {
    "new_figure": "an empty figure; every builder below starts from it",
    "describe_figure": "returns the alt text of a figure, draws nothing",
}


def static_figure_functions() -> dict:
    """Every public ``*_figure`` function defined in a ``genviz.plots`` module, by name."""
    out = {}
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        module = importlib.import_module(f"genviz.plots.{info.name}")
        for name, obj in vars(module).items():
            if (name.endswith("_figure") and not name.startswith("_") and inspect.isfunction(obj)
                    and obj.__module__ == module.__name__):
                out[name] = obj
    return out


# -- the notebooks' data (same seeds and arguments as the notebooks) ----------------------------
@functools.lru_cache(maxsize=None)
def _claw_and_bandwidths():
    """Notebook 05: 1000 claw draws, the LSCV bandwidth, the held-out scores."""
    from genviz.kde import histogram_log_likelihood, log_likelihood, sample_claw, select_bandwidth

    rng = np.random.default_rng(0)
    x = sample_claw(1000, rng)
    h_lscv = select_bandwidth(x, "lscv")
    x_test = sample_claw(1000, rng)
    widths = np.array([0.01, 0.02, 0.05, 0.1, 0.2, 0.5])
    kde = [log_likelihood(x_test, x, h) / x_test.size for h in widths]
    hist = [histogram_log_likelihood(x_test, x, w) / x_test.size for w in widths]
    return x, h_lscv, widths, kde, hist


@functools.lru_cache(maxsize=None)
def _spam_models():
    """Notebook 07's models on the tests' quarter of the corpus (same words, faster)."""
    from genviz.naive_bayes import BernoulliNB, MultinomialNB
    from genviz.model_selection import binary_metrics

    X_train, y_train, X_test, y_test, vocab, _ = _spam()
    multi = MultinomialNB(alpha=1.0).fit(X_train, y_train)
    bern = BernoulliNB(alpha=1.0).fit(X_train, y_train)
    results = {name: binary_metrics(y_test, m.predict(X_test), positive="spam")
               for name, m in (("multinomial", multi), ("Bernoulli", bern))}
    n_words = np.asarray(X_test.sum(axis=1)).ravel()
    log10_joint = multi.predict_joint_log_proba(X_test).max(axis=1) / np.log(10)
    return multi, vocab, results, n_words, log10_joint


def _gaussian(which, kind):
    from genviz.plots.gaussian import gaussian_figure

    zero, I = np.zeros(2), np.eye(2)
    params = {"scale": [(zero, I), (zero, 0.6 * I), (zero, 2 * I)],
              "positive": [(zero, [[1, 0], [0, 1]]), (zero, [[1, 0.5], [0.5, 1]]),
                           (zero, [[1, 0.8], [0.8, 1]])],
              "tilted": [(zero, [[1, -0.5], [-0.5, 1]]), (zero, [[1, -0.8], [-0.8, 1]]),
                         (zero, [[3, 0.8], [0.8, 1]])],
              "moved": [([1, 0], I), ([-0.5, 0], I), ([-1, -1.5], I)]}[which]
    return gaussian_figure(params, kind=kind)


def _gda():
    from genviz.gda import GDA
    from genviz.synthetic import DataModel
    from genviz.plots.gda import gda_figure

    truth = DataModel("gaussian", mu0=[1.0, -1.5], mu1=[4.0, -4.5], cov=[[1.0, 0.6], [0.6, 1.2]], phi=0.5)
    X, y = truth.sample(100, np.random.default_rng(229))
    return gda_figure(X, y, GDA().fit(X, y), box=(-2, 7, -7, 1))


def _posterior():
    from genviz.gda import GDA
    from genviz.synthetic import DataModel
    from genviz.plots.gda import posterior_figure

    overlap = DataModel("gaussian", [0.0, 0.0], [1.5, 1.0], [[1.0, 0.5], [0.5, 0.6]])
    X, y = overlap.sample(300, np.random.default_rng(3))
    return posterior_figure(GDA().fit(X, y), (-4, 5, -4, 5))


def _covariance():
    from genviz.plots.gda import covariance_figure
    from genviz.synthetic import DataModel

    diff_cov = DataModel("gaussian_diff_cov", [0.0, 0.0], [1.5, 1.0], [[1.0, 0.5], [0.5, 0.6]])
    X, y = diff_cov.sample(300, np.random.default_rng(3))
    return covariance_figure(X, y)


def _learning_curves():
    """Notebook 04's sizes with 3 repetitions instead of 60 (the layout is the same)."""
    from genviz.studies.gda_vs_logistic_curves import learning_curves
    from genviz.synthetic import DataModel
    from genviz.plots.gda_vs_logistic import learning_curve_figure

    gauss = DataModel("gaussian", mu0=[0.0, 0.0], mu1=[1.5, 0.0], cov=[[1.0, 0.8], [0.8, 1.0]])
    poisson = DataModel("poisson", mu0=[-1.0, 0.0], mu1=[2.0, 1.0], cov=np.eye(2))
    sizes = [10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000]
    curves = [learning_curves(gauss, sizes, n_reps=3, rng=0),
              learning_curves(poisson, sizes, n_reps=3, rng=1)]
    return learning_curve_figure(curves, ["Gaussian data (GDA's assumptions hold)",
                                          "Poisson counts (they do not)"])


def _joint_bar():
    from genviz.joint import JointTable
    from genviz.plots.joint import joint_bar_figure

    alarm = JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                        "Earthquake": ["earthquake", "no earthquake"]},
                       [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])
    return joint_bar_figure(alarm, {"Alarm": "alarm"})


def _kde(name):
    from genviz.plots import kde_static as kde

    if name == "kernels_figure":
        return kde.kernels_figure()
    if name == "kernel_gallery_figure":
        return kde.kernel_gallery_figure()
    if name == "histogram_vs_kde_figure":
        return kde.histogram_vs_kde_figure()
    x, h_lscv, widths, kde_scores, hist_scores = _claw_and_bandwidths()
    if name == "bandwidth_figure":
        return kde.bandwidth_figure(x, h_lscv)
    if name == "cv_figure":
        return kde.cv_figure(x, np.geomspace(0.005, 1.5, 100))
    if name == "heldout_figure":
        return kde.heldout_figure(widths, kde_scores, widths, hist_scores)
    raise KeyError(name)


def _three_class_nn():
    from genviz.plots.knn import three_class_nn_figure

    rng = np.random.default_rng(17)
    centres = np.array([[0.0, 0.0], [3.0, 0.5], [1.5, 2.6]])
    X = np.vstack([c + 0.7 * rng.standard_normal((6, 2)) for c in centres])
    y = np.repeat(["star", "diamond", "triangle"], 6)
    return three_class_nn_figure(X, y, np.array([1.6, 1.1]))


def _regions(which):
    from genviz import datasets
    from genviz.gaussian import sample_mvn
    from genviz.gda import GDA
    from genviz.kde_classifier import KDEClassifier
    from genviz.knn import KNNClassifier
    from genviz.synthetic import two_class_data
    from genviz.naive_bayes import GaussianNB, KDENB
    from genviz.plots.regions import decision_regions_figure

    if which.startswith("penguins"):  # notebook 08
        p = datasets.penguins()
        X2 = p.X[:, :2]
        names = ["bill length (mm)", "bill depth (mm)"]
        kdenb = KDENB(bandwidth="silverman").fit(X2, p.y)
        if which == "penguins_three":
            models = {"Gaussian naive Bayes": GaussianNB().fit(X2, p.y), "GDA (shared Σ)": GDA().fit(X2, p.y),
                      "KDE naive Bayes": kdenb}
        else:
            models = {"KDE naive Bayes (per feature)": kdenb,
                      "multivariate KDE per class": KDEClassifier().fit(X2, p.y)}
        return decision_regions_figure(models, X2, p.y, feature_names=names)[0]

    def contenders(X, y):
        return {"GDA (shared Σ)": GDA().fit(X, y), "GDA (Σ per class)": GDA(shared_cov=False).fit(X, y),
                "Gaussian naive Bayes": GaussianNB().fit(X, y), "15-NN": KNNClassifier(15).fit(X, y)}

    if which == "gaussian_four":  # notebook 09
        rng = np.random.default_rng(3)
        cov = [[1.0, 0.6], [0.6, 1.0]]
        X = np.r_[sample_mvn(100, [-1.0, 0.6], cov, rng), sample_mvn(100, [1.0, -0.6], cov, rng)]
        Xt = np.r_[sample_mvn(1000, [-1.0, 0.6], cov, rng), sample_mvn(1000, [1.0, -0.6], cov, rng)]
        y, yt = np.repeat([0, 1], 100), np.repeat([0, 1], 1000)
    else:
        X, y = two_class_data(200, rng=0)
        Xt, yt = two_class_data(2000, rng=1)
    return decision_regions_figure(contenders(X, y), X, y, Xt, yt)[0]


def _spam_figure(name):
    from genviz.plots import spam_static as spam

    multi, vocab, results, n_words, log10_joint = _spam_models()
    if name == "top_words_figure":
        return spam.top_words_figure(multi, vocab, k=15)
    if name == "confusion_figure":
        return spam.confusion_figure(results)
    return spam.underflow_figure(n_words, log10_joint)


#: case -> (function name, builder); one case per distinct call in the notebooks
def _histogram_to_kde():
    """Notebook 05's progression from bins to a bandwidth: the first 20 claw draws."""
    from genviz.plots.kde_steps import histogram_to_kde_figure

    x, *_ = _claw_and_bandwidths()
    return histogram_to_kde_figure(x[:20], 0.5)


CASES = {
    **{f"gaussian_figure[{w}-{k}]": ("gaussian_figure", functools.partial(_gaussian, w, k))
       for w, k in (("scale", "surface"), ("positive", "surface"), ("positive", "contour"),
                    ("tilted", "contour"), ("moved", "surface"), ("moved", "contour"))},
    "gda_figure": ("gda_figure", _gda),
    "posterior_figure": ("posterior_figure", _posterior),
    "covariance_figure": ("covariance_figure", _covariance),
    "learning_curve_figure": ("learning_curve_figure", _learning_curves),
    "joint_bar_figure": ("joint_bar_figure", _joint_bar),
    **{name: (name, functools.partial(_kde, name))
       for name in ("kernels_figure", "kernel_gallery_figure", "histogram_vs_kde_figure",
                    "bandwidth_figure", "cv_figure", "heldout_figure")},
    "three_class_nn_figure": ("three_class_nn_figure", _three_class_nn),
    **{f"decision_regions_figure[{w}]": ("decision_regions_figure", functools.partial(_regions, w))
       for w in ("penguins_three", "penguins_kde", "gaussian_four", "two_class_four")},
    **{name: (name, functools.partial(_spam_figure, name))
       for name in ("top_words_figure", "confusion_figure", "underflow_figure")},
    "histogram_to_kde_figure": ("histogram_to_kde_figure", _histogram_to_kde),
}


def static_layout_problems(fig, style: str) -> list[str]:
    """Overlaps and text outside the figure, and the width rule of the module docstring."""
    drawn = drawn_texts(fig)
    problems = figure_layout_problems(fig, width_budget=None, drawn=drawn)
    budget, width = figure_width_budget(), figure_width_in(fig)
    scale = min(1.0, budget / width)
    texts = drawn[0] + [t for legend in drawn[1] for t in legend.texts]
    smallest = min(t.get_fontsize() for t in texts)
    if smallest * scale < MIN_FONT_PT[style] - 1e-6:
        small = next(t for t in texts if t.get_fontsize() == smallest)
        where = (f"; the figure is {width:.2f} in wide, shown at {scale:.2f} of its size "
                 f"(budget {budget} in)") if scale < 1 else ""
        problems.append(f"smallest text {small.get_text()[:30]!r} is {smallest:.1f} pt, shown at "
                        f"{smallest * scale:.1f} pt < {MIN_FONT_PT[style]} pt{where}")
    return problems


# -- the tests ---------------------------------------------------------------------------------
@pytest.mark.parametrize("style", ["normal", "lecture"])
@pytest.mark.parametrize("case", list(CASES))
def test_static_figure_layout(case, style):
    _, build = CASES[case]
    with (lecture_mode() if style == "lecture" else contextlib.nullcontext()):
        fig = build()
        try:
            problems = static_layout_problems(fig, style)
        finally:
            plt.close("all")
    assert not problems, f"{case} ({style}): " + " | ".join(problems[:6]) + (
        f" (+{len(problems) - 6})" if len(problems) > 6 else "")


def test_every_static_figure_function_is_covered():
    functions = static_figure_functions()
    covered = {name for name, _ in CASES.values()}
    missing = sorted(set(functions) - covered - set(NOT_FIGURE_BUILDERS))
    assert not missing, (f"static figure functions without a layout case: {missing}; add the "
                         "call their notebook makes to CASES in tests/test_static_layout.py")
    stale = sorted((covered | set(NOT_FIGURE_BUILDERS)) - set(functions))
    assert not stale, f"cases for functions that no longer exist: {stale}"


def test_width_rule_scales_fonts_by_the_width_shown():
    """The checker itself: a 10-pt title passes at 7.8 in, fails at 11 in (shown at 0.71 of
    its size, 7.1 pt); overlaps are reported as for explorers."""
    from genviz.plots._base import new_figure

    ok = new_figure(figsize=(7.8, 3))
    ok.add_subplot().set_title("a title", fontsize=10)
    ok.axes[0].tick_params(labelsize=10)
    assert static_layout_problems(ok, "normal") == []
    wide = new_figure(figsize=(11.0, 3))
    wide.add_subplot().set_title("a title", fontsize=10)
    wide.axes[0].tick_params(labelsize=10)
    problems = static_layout_problems(wide, "normal")
    assert len(problems) == 1 and "shown at 0.71 of its size" in problems[0], problems
    ok.text(0.5, 0.5, "one")
    ok.text(0.5, 0.5, "two")
    assert any("'one' and 'two' overlap" in p for p in static_layout_problems(ok, "normal"))
    plt.close("all")
