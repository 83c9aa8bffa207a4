"""GDA against logistic regression (CS229 part IV, 1.3; Ng & Jordan 2001; notebook 04): the
explorer's view of both boundaries on five data families, and the learning-curve figure."""

from __future__ import annotations

import numpy as np

from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.gda import COLORS, MARKERS
from genviz.plots.style import CLASS_COLORS, beside_legend, explorer_figsize
from genviz.studies.gda_vs_logistic import GDAvsLogisticResult, GDAvsLogisticStudy
from genviz.studies.gda_vs_logistic_curves import (LearningCurveFigureResult,
                                                   learning_curve_figure_study)

__all__ = ["learning_curve_figure", "GDAvsLogisticView"]


def learning_curve_figure(curves, titles, *, figsize=None):
    """Test error against training-set size, mean ± one standard error, one panel per result."""
    return _paint_learning_curves(learning_curve_figure_study(curves, titles), figsize=figsize)


def _paint_learning_curves(r: LearningCurveFigureResult, *, figsize=None):
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.9))
    for i, (lc, title) in enumerate(zip(r.curves, r.titles)):
        ax = fig.add_subplot(1, len(r.curves), i + 1)
        for key, mean, se, label, marker in (
                ("gda", lc.gda_mean, lc.gda_se, "GDA", "o"),
                ("lr", lc.lr_mean, lc.lr_se, "logistic regression", "s")):
            ax.errorbar(lc.sizes, mean, yerr=se, color=COLORS[key], marker=marker, ms=4,
                        capsize=3, lw=1.6, label=label)
        ax.axhline(lc.bayes_error, color=COLORS["bayes"], ls="--", lw=1,
                   label=f"Bayes error {lc.bayes_error:.3f}")
        ax.set_xscale("log")
        ax.set(xlabel="training-set size $n$", ylabel="test error")
        ax.set_title(title, fontsize="medium", wrap=True)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize="small")
    finish_layout(fig)
    return fig


# --- the explorer view -------------------------------------------------------------------------

class GDAvsLogisticView(View, study=GDAvsLogisticStudy):
    """Training data from a :class:`DataModel` with GDA's, logistic regression's and the
    Bayes-optimal boundaries, and their test errors (computed by
    :class:`genviz.studies.gda_vs_logistic.GDAvsLogisticStudy`).

    ``update(**params)`` takes any of ``mu0x, mu0y, mu1x, mu1y, sigma1, sigma2, rho, phi, n,
    family`` (data parameters: the training and test sets are redrawn, with a fixed seed) and
    ``gda_cov`` (``"shared"`` or ``"separate"``: only GDA is refitted). Logistic regression is
    unregularised; if the sample is linearly separable it is refitted with ``l2 = 1e-3`` and
    ``state["lr_l2"]`` says so. ``state`` is a
    :class:`~genviz.studies.gda_vs_logistic.GDAvsLogisticResult`: ``errors`` (dict
    gda/lr/bayes), ``theta_gda``, ``theta_lr`` (each ``(theta, theta0)`` or None), ``n_train``,
    ``separable``, ``family``.
    """

    def __init__(self, *, n_test=4000, n_grid=90, seed=0, figsize=None, **params):
        static = self.use_study(n_test=n_test, n_grid=n_grid, seed=seed)
        self.n_test, self._data = static.n_test, static.data_params
        # 4.5 in high: with its eleven controls (two columns) the figure stays on one screen of
        # JupyterLab at 1280x800 with the file browser open (#37 item 6)
        fig = new_figure(figsize=figsize or explorer_figsize(7.0, 4.5))
        super().__init__(fig)
        self.ax = ax = fig.add_subplot()
        self._points = [self.animate(ax.scatter(np.zeros(0), np.zeros(0), s=16,
                                                marker=MARKERS[k], linewidths=1.0,
                                                label=f"y = {k}", **(
                                                    dict(facecolors="none",
                                                         edgecolors=CLASS_COLORS[k])
                                                    if k == 0 else dict(color=CLASS_COLORS[k]))))
                        for k in (0, 1)]
        self._lines = {key: self.animate(ax.plot([], [], color=COLORS[key], lw=lw, ls=ls,
                                                 label=label)[0])
                       for key, lw, ls, label in (("bayes", 2.0, "--", "Bayes optimal"),
                                                  ("gda", 2.4, "-", "GDA"),
                                                  ("lr", 2.4, "-", "logistic regression"))}
        self._contours = {"bayes": None, "gda": None}
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        # beside the axes, not on the data
        beside_legend(ax, fontsize="small", frameon=False)
        ax.set_title("boundaries (test errors in the readout)", fontsize="medium")
        self.update(**params)
        self.finish_layout()

    def _draw_boundary(self, key, b, r: GDAvsLogisticResult):
        """A line for a linear boundary, else the zero contour of its log-odds on the grid."""
        line = self._lines[key]
        old = self._contours.get(key)
        if b.linear:
            line.set_data(b.xs, b.ys)
            if old is not None:  # a quadric before: remove its contour set
                self.remove_animated(old)
                self._contours[key] = None
            return
        line.set_data([], [])
        new = self.ax.contour(r.grid_x, r.grid_y, b.values, levels=[0.0], colors=COLORS[key],
                              linewidths=line.get_linewidth(), linestyles=line.get_linestyle())
        if old is None:
            self._contours[key] = self.animate(new)
        else:
            self._contours[key] = self.replace_animated(old, new)

    def paint(self, r: GDAvsLogisticResult, changed) -> None:
        if self.set_limits(self.ax, xlim=r.box[:2], ylim=r.box[2:]):
            self.relayout()  # wider tick labels (e.g. the outliers' box) need more margin
        if not changed.isdisjoint(self._data):  # a new sample: its points, Bayes and logistic
            for k in (0, 1):
                self._points[k].set_offsets(r.class_points[k])
            self._draw_boundary("bayes", r.bayes, r)
            self._draw_boundary("lr", r.lr, r)
        self._draw_boundary("gda", r.gda, r)

    def describe(self) -> str:
        """Alt text from the state: the data model and the three boundaries' test errors."""
        p, s = self.params, self.state
        e = s["errors"]
        gda = "shared Σ (a straight line)" if p["gda_cov"] == "shared" else \
            "separate Σ per class (a curved boundary)"
        return (f"Training sample of n = {s['n_train']} points from the {p['family']} family, "
                f"class means ({fmt(p['mu0x'])}, {fmt(p['mu0y'])}) and "
                f"({fmt(p['mu1x'])}, {fmt(p['mu1y'])}), φ = {fmt(p['phi'])}, "
                f"with three decision boundaries: Bayes optimal (dashed), GDA with {gda} and "
                f"logistic regression. Test errors: GDA {fmt(e['gda'])}, logistic regression "
                f"{fmt(e['lr'])}, Bayes {fmt(e['bayes'])}.")
