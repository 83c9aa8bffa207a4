"""Layout of every explorer's figure, headless: no two texts overlap, none leaves the figure,
no figure is wider than the output-area budget -- in the normal and the lecture style, at the
default state and across each control's range (ends included).

Coverage is discovered, not listed by hand: every ``*_explorer`` factory in ``genviz.widgets``
and every :class:`~genviz.plots._base.View` subclass in ``genviz.plots`` must be reached by a
case below (factories whose arguments all have defaults are built automatically; the others get
data in ``BUILDERS``). A new view or explorer without a case fails
``test_every_view_and_explorer_is_covered`` with the name to add.

How overlaps are found: the figure is drawn once with Agg's drawing calls disabled (layout and
text metrics only, fast), every ``Text`` that is actually drawn (visible, non-empty, tick labels
inside the view limits included, animated artists drawn by the view's blit handler included) is
recorded with its rendered extent, and so is every legend's box.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import itertools
import pkgutil

import matplotlib.legend as mlegend
import matplotlib.pyplot as plt
import matplotlib.text as mtext
import numpy as np
import pytest

import genviz.plots
import genviz.widgets
from explorer_testing import control_values
from genviz.plots._base import View
from genviz.plots.style import FIGURE_DPI, figure_width_budget, lecture_mode

SWEEP_VALUES = 2    # per control: both ends (options: first, middle, last); keeps the module fast
TOLERANCE_PX = 1.0  # extents may touch by this much (anti-aliasing, rounding)


# -- explorers that need data --------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _spam():
    from genviz.datasets import spam_assassin
    from genviz.naive_bayes import BernoulliNB, MultinomialNB
    from genviz.text import bag_of_words, build_vocabulary, stratified_split

    c = spam_assassin()
    keep = np.arange(0, len(c.text), 4)
    text, label = c.text[keep], c.label[keep]
    train, test = stratified_split(label, test_size=0.3, rng=2)
    vocab = build_vocabulary(text[train], min_count=2)
    X_train, X_test = bag_of_words(text[train], vocab), bag_of_words(text[test], vocab)
    models = {"multinomial": MultinomialNB().fit(X_train, label[train]),
              "bernoulli": BernoulliNB().fit(X_train, label[train])}
    return X_train, label[train], X_test, label[test], vocab, models


def _claw(n):
    from genviz.kde import sample_claw

    return sample_claw(1000, np.random.default_rng(0))[:n]


def _two_classes():
    rng = np.random.default_rng(7)

    def draw(n):
        one = rng.normal(0.0, 1.0, n)
        two = np.concatenate([rng.normal(-3.0, 0.6, n // 2), rng.normal(3.0, 0.6, n - n // 2)])
        return np.concatenate([one, two]), np.repeat(["one", "two"], n)
    return (*draw(150), *draw(1000))


def _build(name):
    """The explorer ``name`` built as its notebook builds it (same data, same arguments)."""
    from genviz import datasets
    from genviz.kde import claw_pdf
    from genviz.widgets import gaussian, joint, kde, knn, naive_bayes, spam

    if name == "dimensionality_explorer":
        cars = datasets.auto_mpg()
        return joint.dimensionality_explorer(cars.records, cars.record_names, d=3)
    if name == "histogram_explorer":
        return kde.histogram_explorer(_claw(200), width=0.3, true_pdf=claw_pdf, x_range=(-3, 3))
    if name == "kde_explorer":
        return kde.kde_explorer(_claw(20), h=0.3, true_pdf=claw_pdf, x_range=(-3, 3), ymax=0.9)
    if name == "kde2d_explorer":
        cars = datasets.auto_mpg()
        return kde.kde2d_explorer(cars.X[:, [4, 0]], labels=("weight (lbs)", "mpg"))
    if name == "categorical_nb_explorer":
        t = datasets.play_tennis()
        return naive_bayes.categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0)
    if name == "categorical_nb_explorer_enjoysport":  # notebook 06: 6 attributes, 7 panels
        t = datasets.enjoy_sport()
        return naive_bayes.categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0)
    if name == "discretize_explorer":
        p = datasets.penguins()
        return naive_bayes.discretize_explorer(p.X[:, 2], p.y, width=10.0,
                                               xlabel="flipper length (mm)")
    if name == "kde_nb_explorer":
        x, y, xt, yt = _two_classes()
        return naive_bayes.kde_nb_explorer(x, y, xt, yt, bandwidth=0.3)
    if name == "threshold_explorer":
        X_train, y_train, X_test, y_test, _, _ = _spam()
        return spam.threshold_explorer(X_train, y_train, X_test, y_test)
    if name == "email_explorer":
        *_, vocab, models = _spam()
        return spam.email_explorer(models, vocab, text=(
            "Dear friend, click here to get your FREE money now! Unsubscribe. "
            "Meeting about the neurips paper tomorrow."))
    if name == "projection_explorer":
        X, _ = datasets.optical_digits()
        return knn.projection_explorer(X[:300], d=16, eps=0.3)
    if name == "gaussian_explorer_contours":  # notebook 00: the 2-D view only
        return gaussian.gaussian_explorer(surface=False)
    raise KeyError(name)


#: explorer cases that need arguments (or a second configuration of the same factory)
BUILDERS = ["dimensionality_explorer", "histogram_explorer", "kde_explorer", "kde2d_explorer",
            "categorical_nb_explorer", "categorical_nb_explorer_enjoysport", "discretize_explorer", "kde_nb_explorer",
            "threshold_explorer", "email_explorer", "projection_explorer",
            "gaussian_explorer_contours"]


def _factories() -> dict:
    """Every public ``*_explorer`` function of every ``genviz.widgets`` module."""
    found = {}
    for info in pkgutil.iter_modules(genviz.widgets.__path__):
        module = importlib.import_module(f"genviz.widgets.{info.name}")
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if name.endswith("_explorer") and inspect.isfunction(obj):
                found[name] = obj
    return found


def _builds_without_arguments(fn) -> bool:
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in inspect.signature(fn).parameters.values())


def _cases() -> list[str]:
    return sorted(set(BUILDERS) | {n for n, f in _factories().items()
                                   if _builds_without_arguments(f)})


def _make(case):
    factories = _factories()
    if case in factories and _builds_without_arguments(factories[case]) and case not in BUILDERS:
        return factories[case]()
    return _build(case)


def _view_classes() -> set:
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        importlib.import_module(f"genviz.plots.{info.name}")
    out, todo = set(), list(View.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in out:
            out.add(cls)
            todo.extend(cls.__subclasses__())
    return {c for c in out if c.__module__.startswith("genviz.")}


# -- what is drawn -------------------------------------------------------------------------------
@contextlib.contextmanager
def _recording():
    """Record every Text and Legend drawn inside the block."""
    drawn = {"texts": [], "legends": []}
    text_draw, legend_draw = mtext.Text.draw, mlegend.Legend.draw

    def record_text(self, renderer):
        text_draw(self, renderer)
        if self.get_visible() and self.get_text().strip() and (self.get_alpha() is None
                                                               or self.get_alpha() > 0):
            drawn["texts"].append(self)

    def record_legend(self, renderer):
        legend_draw(self, renderer)
        if self.get_visible():
            drawn["legends"].append(self)

    mtext.Text.draw, mlegend.Legend.draw = record_text, record_legend
    try:
        yield drawn
    finally:
        mtext.Text.draw, mlegend.Legend.draw = text_draw, legend_draw


def _label(t) -> str:
    return repr(t.get_text()[:40])


def layout_problems(view) -> list[str]:
    """Texts that overlap one another or a legend they are not in, or leave the figure; a
    figure wider than the budget. Empty when the layout is clean."""
    fig = view.fig
    problems = []
    budget = figure_width_budget()
    width = fig.get_figwidth() * fig.dpi / FIGURE_DPI
    if width > budget + 1e-6:
        problems.append(f"figure {width:.2f} in wide > budget {budget} in")
    canvas = fig.canvas
    renderer = canvas.get_renderer()
    with _recording() as drawn, renderer._draw_disabled():
        fig.draw(renderer)  # the view's draw_event handler draws its animated artists too
    # The blit background cached by that draw holds no pixels: the explorer's next PNG may be
    # wrong, which no test here looks at (a full redraw per check would double the runtime).
    texts = list(dict.fromkeys(drawn["texts"]))
    boxes = [mtext.Text.get_window_extent(t, renderer) for t in texts]
    W, H = fig.bbox.width, fig.bbox.height
    for t, b in zip(texts, boxes):
        if (b.x0 < -TOLERANCE_PX or b.y0 < -TOLERANCE_PX or b.x1 > W + TOLERANCE_PX
                or b.y1 > H + TOLERANCE_PX):
            problems.append(f"text {_label(t)} leaves the figure: "
                            f"[{b.x0:.0f}, {b.x1:.0f}] x [{b.y0:.0f}, {b.y1:.0f}] in {W:.0f} x {H:.0f}")

    def overlap(a, b):
        return (min(a.x1, b.x1) - max(a.x0, b.x0) > TOLERANCE_PX
                and min(a.y1, b.y1) - max(a.y0, b.y0) > TOLERANCE_PX)

    for (t1, b1), (t2, b2) in itertools.combinations(zip(texts, boxes), 2):
        if overlap(b1, b2):
            problems.append(f"texts {_label(t1)} and {_label(t2)} overlap")
    for legend in dict.fromkeys(drawn["legends"]):
        lb = legend.get_window_extent(renderer)
        own = set(legend.texts) | {legend.get_title()}
        if lb.x0 < -TOLERANCE_PX or lb.y0 < -TOLERANCE_PX or lb.x1 > W + TOLERANCE_PX \
                or lb.y1 > H + TOLERANCE_PX:
            problems.append(f"a legend leaves the figure: [{lb.x0:.0f}, {lb.x1:.0f}] x "
                            f"[{lb.y0:.0f}, {lb.y1:.0f}] in {W:.0f} x {H:.0f}")
        for t, b in zip(texts, boxes):
            if t not in own and overlap(lb, b):
                problems.append(f"text {_label(t)} overlaps a legend")
    return problems


# -- the tests ---------------------------------------------------------------------------------
_VIEW_TYPES: dict = {}  # case -> type of its view, recorded by the layout tests below


@pytest.mark.parametrize("style", ["normal", "lecture"])
@pytest.mark.parametrize("case", _cases())
def test_explorer_figure_layout(case, style):
    """Default state, then each control over its range (ends and middle), one at a time."""
    with (lecture_mode() if style == "lecture" else contextlib.nullcontext()):
        e = _make(case)
        _VIEW_TYPES[case] = type(e.view)
        try:
            found = {}
            problems = layout_problems(e.view)
            if problems:
                found["default"] = problems
            for name, control in e.controls.items():
                start = control.value
                values = control_values(control, SWEEP_VALUES)
                if len(values) > 3:  # options: first, middle, last
                    values = [values[0], values[len(values) // 2], values[-1]]
                for value in values:
                    control.value = value
                    problems = layout_problems(e.view)
                    if problems:
                        found[f"{name}={value!r}"] = problems
                control.value = start
        finally:
            e.close()
            plt.close("all")
    assert not found, f"{case} ({style}): " + "; ".join(
        f"[{where}] " + " | ".join(p[:4]) + (f" (+{len(p) - 4})" if len(p) > 4 else "")
        for where, p in found.items())


def test_every_view_and_explorer_is_covered():
    """Runs after the layout tests (file order) and reuses the view types they saw; builds
    only the cases a filtered run (-k) skipped."""
    cases = _cases()
    missing_factories = [n for n in _factories() if n not in cases]
    assert not missing_factories, (f"explorer factories without a layout case: "
                                   f"{missing_factories}; add them to BUILDERS/_build")
    for case in cases:
        if case not in _VIEW_TYPES:
            e = _make(case)
            _VIEW_TYPES[case] = type(e.view)
            e.close()
    missing_views = sorted(c.__qualname__ for c in _view_classes() - set(_VIEW_TYPES.values()))
    assert not missing_views, (f"View classes no explorer case reaches: {missing_views}; "
                               "add a case to BUILDERS/_build")


def test_layout_check_finds_overlaps_and_overflow():
    """The checker itself: two texts at one spot, a text off the canvas, a wide figure."""
    from genviz.plots._base import new_figure

    class Probe(View):
        def update(self, **params):
            pass

    fig = new_figure(figsize=(4, 3))
    fig.add_subplot().set_title("a title")
    view = Probe(fig)
    assert layout_problems(view) == []
    fig.text(0.5, 0.5, "one")
    fig.text(0.5, 0.5, "two")
    fig.text(0.99, 0.5, "off the right edge")
    problems = layout_problems(view)
    assert any("'one' and 'two' overlap" in p for p in problems)
    assert any("'off the right edge' leaves the figure" in p for p in problems)
    wide = Probe(new_figure(figsize=(12, 3)))
    assert any("wider" in p or "budget" in p for p in layout_problems(wide))
    plt.close("all")
