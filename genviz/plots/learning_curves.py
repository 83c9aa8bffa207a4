"""A learning-curve view: a generative learner against logistic regression, test error against
the training-set size, with a marker at one size (notebook 10's explorer).

The view only draws what :class:`genviz.studies.learning_curves.LearningCurveStudy` computed
from the curves of :func:`genviz.nb_vs_logistic.nb_vs_logistic_curves`: their means and
standard errors, and who is ahead at the chosen size.
"""

from __future__ import annotations

from matplotlib.collections import LineCollection

from genviz.plots._base import View, fmt, new_figure
from genviz.plots.style import PALETTE, explorer_figsize
from genviz.studies.learning_curves import (LearningCurveResult, LearningCurveStudy,
                                            VocabularyCurveResult, VocabularyCurveStudy)

__all__ = ["LearningCurveView", "VocabularyCurveView"]


def _curves_text(labels, sizes, s) -> str:
    """Alt text both learning-curve views share: the axes and the errors at the marked size."""
    return (f"test error of {labels[0]} and {labels[1]} against the number of training emails n "
            f"from {sizes[0]} to {sizes[-1]} (log scale), with error bars. At n = {s['n']}, "
            f"marked: {labels[0]} {fmt(s['gen_error'])}, {labels[1]} {fmt(s['lr_error'])}; "
            f"{_ahead(labels, s['leader'])}.")


def _ahead(labels, leader: str) -> str:
    """The alt text's words for the study's ``leader`` ("nb", "lr" or "tie")."""
    return {"nb": f"{labels[0]} ahead", "lr": f"{labels[1]} ahead",
            "tie": "neither clearly ahead"}[leader]


def _label_axes(view, ax):
    """Both views' axes: labels, grid and legend; returns the animated marker line at ``n``."""
    ax.set_xlabel("training emails $n$ (log scale)")
    ax.set_ylabel("test error")
    ax.grid(alpha=0.3, which="both")
    ax.legend(loc="upper right", fontsize="small")
    return view.animate(ax.axvline(view.sizes[0], color=PALETTE["black"], ls="--", lw=1.2))


def _marker_dots(view, ax):
    """Both views' animated rings around the two errors at ``n``."""
    (dots,) = ax.plot([], [], "o", ms=12, mfc="none", mec=PALETTE["vermillion"], mew=2)
    view.animate(dots)
    return dots


class LearningCurveView(View, study=LearningCurveStudy):
    """Both learners' mean test error (± one standard error) against the training-set size
    ``n`` on a log axis, and a marker at ``n``.

    ``curves`` is a :class:`genviz.nb_vs_logistic.NBvsLogisticCurves`. ``update(n=)`` moves the
    marker to one of the curves' sizes. ``state`` is a
    :class:`~genviz.studies.learning_curves.LearningCurveResult`: ``n``, ``sizes``,
    ``gen_error``/``gen_se`` and ``lr_error``/``lr_se`` at ``n``, ``gap`` (generative minus
    logistic) and ``leader`` (``"nb"``, ``"lr"`` or ``"tie"``: ahead by more than two standard
    errors of the paired differences).
    """

    def __init__(self, curves, n=None, *, labels=("naive Bayes", "logistic regression"),
                 figsize=None):
        static = self.use_study(curves, labels=labels)
        self.sizes, self.labels = list(static.sizes), static.labels
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.8, 4.2)))
        ax = self.ax = self.fig.add_subplot(1, 1, 1)
        colours = {"gen": PALETTE["green"], "lr": PALETTE["purple"]}
        for key, mean, se, label, marker in (
                ("gen", static.gen_mean, static.gen_se, self.labels[0], "o"),
                ("lr", static.lr_mean, static.lr_se, self.labels[1], "s")):
            ax.errorbar(self.sizes, mean, yerr=se, marker=marker, ms=5, capsize=3,
                        color=colours[key], label=label)
        ax.set_xscale("log")
        self._cursor = _label_axes(self, ax)
        self._dots = _marker_dots(self, ax)
        self.update(**({} if n is None else {"n": n}))
        self.finish_layout()

    def paint(self, r: LearningCurveResult, changed) -> None:
        self._cursor.set_xdata([r.n, r.n])
        self._dots.set_data([r.n, r.n], [r.gen_error, r.lr_error])

    def describe(self) -> str:
        """Alt text from the state: both curves and the errors at the marked size."""
        return "Learning curves: " + _curves_text(self.labels, self.sizes, self.state)


class VocabularyCurveView(View, study=VocabularyCurveStudy):
    """Notebook 10's investigation: both learning curves at a vocabulary size ``d``, feature
    kind (``features``), pseudo-count ``alpha`` and ridge ``l2``, with a marker at ``n``; the
    curves are redrawn when the setting changes (every setting precomputed by
    :func:`genviz.studies.learning_curves_vocabulary.vocabulary_curves`). ``state`` is a
    :class:`~genviz.studies.learning_curves.VocabularyCurveResult`."""

    def __init__(self, sweep, *, d=None, features=None, alpha=None, l2=None, n=None, tol=0.01,
                 labels=("naive Bayes", "logistic regression"), figsize=None):
        static = self.use_study(sweep, tol=tol, labels=labels)
        self.sizes, self.labels = list(static.sizes), static.labels
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.8, 4.2)))
        ax = self.ax = self.fig.add_subplot(1, 1, 1)
        self._lines, self._bars = {}, {}
        for key, label, marker, colour in (("gen", self.labels[0], "o", PALETTE["green"]),
                                           ("lr", self.labels[1], "s", PALETTE["purple"])):
            (self._lines[key],) = ax.plot([], [], marker=marker, ms=5, color=colour, label=label)
            self._bars[key] = ax.add_collection(LineCollection([], colors=colour, lw=1.2))
            self.animate(self._lines[key], self._bars[key])
        ax.set_xscale("log")
        ax.set_xlim(self.sizes[0] / 1.3, self.sizes[-1] * 1.3)
        ax.set_ylim(0, static.top * 1.05)
        self._cursor = _label_axes(self, ax)
        self._cross = self.animate(ax.axvline(self.sizes[0], color=PALETTE["vermillion"],
                                              ls=":", lw=1.5))
        self._title = self.animate(ax.set_title("", fontsize="medium"))
        self._dots = _marker_dots(self, ax)
        params = {k: v for k, v in (("d", d), ("features", features), ("alpha", alpha),
                                    ("l2", l2), ("n", n)) if v is not None}
        self.update(**params)
        self.finish_layout()

    def paint(self, r: VocabularyCurveResult, changed) -> None:
        for key, mean in (("gen", r.gen_mean), ("lr", r.lr_mean)):
            self._lines[key].set_data(self.sizes, mean)
            self._bars[key].set_segments(r.bars[key])
        self._cursor.set_xdata([r.n, r.n])
        self._cross.set_visible(r.crossing is not None)
        if r.crossing is not None:
            self._cross.set_xdata([r.crossing, r.crossing])
        self._title.set_text(f"d = {r.d}, {r.features}; "
                             f"λ = {r.l2:g}, α = {r.alpha:g}")
        self._dots.set_data([r.n, r.n], [r.gen_error, r.lr_error])

    def describe(self) -> str:
        """Alt text from the state: the setting, both errors at the marked size, the crossing."""
        s = self.state
        return (f"Learning curves with d = {s['d']} word features ({s['features']}), ridge "
                f"λ = {s['l2']:g} for logistic regression and pseudo-count α = {s['alpha']:g} "
                f"for naive Bayes: "
                f"{_curves_text(self.labels, self.sizes, s)} {s['crossing_text'].capitalize()}.")
