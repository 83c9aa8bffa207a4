"""Figures for GDA (CS229 part IV, 1.2-1.3, notebook 03): the fitted Gaussians and boundary,
the posterior two ways, shared vs separate covariances, and the GDA fitting explorer's view.
The GDA-vs-logistic-regression view and the learning curves (notebook 04) are in
:mod:`genviz.plots.gda_vs_logistic`, which shares this module's boundary/contour toolkit."""

from __future__ import annotations

import numpy as np
from mpl_toolkits.mplot3d import Axes3D  # noqa: F401  (registers the 3-D projection)

from genviz._moved import moved_names
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import (CLASS_COLORS, DENSITY_CMAP, PALETTE, explorer_figsize,
                                legend_columns, plane_axes, subplot_grid)
from genviz.studies.gda import (CovarianceFigureResult, GDAFigureResult, GDAFitResult,
                                GDAFitStudy, PosteriorFigureResult, covariance_figure_study,
                                gda_figure_study, posterior_figure_study)

__all__ = ["gda_figure", "posterior_figure", "covariance_figure", "GDAFitView", "COLORS",
           "MARKERS"]

# deprecated alias: the segment of a line in a box is computed in genviz.studies.gda_fits
__getattr__ = moved_names(__name__)  # genviz._moved.MOVED; removed in genviz._moved.REMOVED_IN

# One colour per learner, the same in every figure.
COLORS = {"gda": PALETTE["green"], "lr": PALETTE["purple"], "bayes": PALETTE["black"]}
MARKERS = ("o", "x")


def _class_marker(k: int) -> dict:
    """Class ``k``'s scatter style: its marker (an open circle or a cross) in its colour."""
    colour = (dict(facecolors="none", edgecolors=CLASS_COLORS[k]) if MARKERS[k] == "o"
              else dict(color=CLASS_COLORS[k]))
    return dict(marker=MARKERS[k], **colour)


def _scatter_classes(ax, class_points, s=22):
    for k, P in enumerate(class_points):
        ax.scatter(P[:, 0], P[:, 1], s=s, linewidths=1.1, label=f"y = {k}", **_class_marker(k))


def _gaussian_contours(ax, xs, ys, contours):
    for k, c in enumerate(contours):
        ax.contour(xs, ys, c.density, levels=c.levels, colors=CLASS_COLORS[k], linewidths=1.0,
                   alpha=0.9)


def gda_figure(X, y, model=None, *, box=None, figsize=(6.0, 5.0)):
    """The CS229 GDA figure: training set, both fitted Gaussians' contours, and p(y=1|x) = 0.5.

    Parameters
    ----------
    X : array_like of shape (n, 2)
    y : array_like of shape (n,)
        Labels 0 and 1.
    model : GDA, optional
        A fitted two-class GDA; by default ``GDA().fit(X, y)``.
    box : (x0, x1, y0, y1), optional
        Axis limits; by default the data plus a margin.

    Returns
    -------
    matplotlib.figure.Figure
    """
    return _paint_gda(gda_figure_study(X, y, model, box=box), figsize=figsize)


def _paint_gda(r: GDAFigureResult, *, figsize=(6.0, 5.0)):
    fig = new_figure(figsize=figsize)
    ax = fig.add_subplot()
    _scatter_classes(ax, r.class_points)
    _gaussian_contours(ax, r.xs, r.ys, r.contours)
    if r.boundary.linear:
        ax.plot(r.boundary.xs, r.boundary.ys, color=COLORS["bayes"], lw=2,
                label="$p(y=1\\mid x) = 0.5$")
    else:
        ax.contour(r.xs, r.ys, r.boundary.values, levels=[0.0], colors=COLORS["bayes"],
                   linewidths=2)
    ax.plot(*r.means.T, "P", color="white", mec="k", ms=10, ls="none",
            label=r"means $\mu_0, \mu_1$")
    plane_axes(ax, r.box)
    # under the axes: inside, any corner covers training points
    fig.legend(loc="outside lower center", ncol=2, fontsize="small", frameon=False)
    ax.set_title("GDA: shared $\\Sigma$, and the boundary", fontsize="medium")
    finish_layout(fig)
    return fig


def posterior_figure(model, box, *, n_grid=45, figsize=None):
    r"""The posterior :math:`p(y=1\mid x)` by Bayes' rule beside :math:`\sigma(\theta^Tx+\theta_0)`.

    Returns the figure; ``fig.max_abs_difference`` holds the largest difference on the grid.
    """
    return _paint_posterior(posterior_figure_study(model, box, n_grid=n_grid), figsize=figsize)


def _paint_posterior(r: PosteriorFigureResult, *, figsize=None):
    theta, theta0 = r.theta, r.theta0
    GX, GY = r.mesh
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.0))
    titles = ("Bayes' rule\n" r"$p(x\mid y=1)\,\phi\;/\;p(x)$",
              r"$\sigma(\theta^T x + \theta_0)$" "\n"
              rf"$\theta$ = ({theta[0]:.2f}, {theta[1]:.2f}), $\theta_0$ = {theta0:.2f}")
    for i, (Z, title) in enumerate(zip((r.bayes, r.logistic), titles)):
        ax = fig.add_subplot(1, 2, i + 1, projection="3d")
        ax.plot_surface(GX, GY, Z, cmap=DENSITY_CMAP, vmin=0, vmax=1, linewidth=0,
                        antialiased=False)
        ax.set(xlabel="$x_1$", ylabel="$x_2$", zlabel="$p(y=1\\mid x)$", zlim=(0, 1))
        ax.set_title(title, fontsize="medium")
        ax.view_init(elev=25, azim=-65)
        ax.set_box_aspect(None, zoom=0.82)  # room for the axis labels inside the panel
    diff = r.max_abs_difference
    fig.suptitle(f"max |difference| on the grid = {diff:.1e}", fontsize="medium")
    finish_layout(fig)
    fig.max_abs_difference = diff
    return fig


def covariance_figure(X, y, *, box=None, figsize=None):
    """Shared vs separate covariance on the same data: a line vs a quadric boundary."""
    return _paint_covariance(covariance_figure_study(X, y, box=box), figsize=figsize)


def _paint_covariance(r: CovarianceFigureResult, *, figsize=None):
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.4))
    for i, panel in enumerate(r.panels):
        ax = fig.add_subplot(1, 2, i + 1)
        _scatter_classes(ax, r.class_points, s=14)
        _gaussian_contours(ax, r.xs, r.ys, panel.contours)
        ax.contour(r.xs, r.ys, panel.decision, levels=[0.0],
                   colors=COLORS["bayes"], linewidths=2)
        ax.set_title(("shared $\\Sigma$: linear boundary" if panel.shared_cov
                      else "$\\Sigma_0, \\Sigma_1$: quadratic boundary")
                     + f"\ntraining error {panel.training_error:.1%}", fontsize="medium")
        plane_axes(ax, r.box)
    fig.axes[0].legend(loc="upper left", fontsize="small", framealpha=0.85)
    finish_layout(fig)
    return fig


# --- the GDA fitting explorer's view (notebook 03) -----------------------------------------------
class GDAFitView(View, study=GDAFitStudy):
    r"""Fit GDA to a sample you control: the four MLEs, the fitted contours, the boundary, and
    the posterior as a sigmoid of a linear function (CS229 part IV, 1.2-1.3).

    The sample comes from the GDA model itself: ``y ~ Bernoulli(phi)``,
    ``x | y ~ N(mu_y, Sigma)`` with ``Sigma = cov_from_params(sigma1, sigma2, rho)``, drawn by a
    :class:`genviz.studies.gda.GDAFitSampler` (a fixed, seeded pool: moving a mean or ``Sigma``
    moves the same points continuously, a larger ``n`` adds points); the fit and the true
    boundary come from :class:`genviz.studies.gda.GDAFitStudy`. The view only draws them.

    Left panel: the sample, the fitted Gaussians' 1- and 2-sigma ellipses (solid, same shape
    because ``Sigma`` is shared), the fitted boundary ``p(y=1|x) = 0.5`` (solid) and the true
    one (dashed). Right panel: every training point at its fitted log-odds
    ``theta^T x + theta_0`` against its label, with the curve ``sigma(theta^T x + theta_0)``.

    ``update(**params)`` takes any of ``n, mu0x, mu0y, mu1x, mu1y, sigma1, sigma2, rho, phi``.
    ``state`` is a :class:`~genviz.studies.gda.GDAFitResult`: the fitted ``phi``, ``mu0``,
    ``mu1``, ``Sigma`` (the MLE, dividing by n), ``theta``, ``theta0`` (from
    :meth:`genviz.gda.GDA.logistic_params`), the true ``theta_true``, ``theta0_true``, ``n``,
    ``n1``, ``training_error``, and the sample ``X``, ``y``.
    """

    N_MAX = 1000
    BOX = (-5.0, 5.0, -5.0, 5.0)
    SCORE_RANGE = (-12.0, 12.0)

    def __init__(self, *, seed=0, figsize=None, **params):
        static = self.use_study(seed=seed, n_max=self.N_MAX, box=self.BOX,
                                score_range=self.SCORE_RANGE)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.7, panels=(1, 2)))
        super().__init__(fig)
        self.ax, self.ax_sig = ax, axs = subplot_grid(fig, 1, 2, width_ratios=[1.0, 1.1])
        box = static.box
        self._points = []
        for k in (0, 1):
            self._points.append(self.animate(ax.scatter(np.zeros(0), np.zeros(0), s=16,
                                                        linewidths=1.0, label=f"y = {k}",
                                                        **_class_marker(k))))
        self._ellipses = [[self.animate(ax.plot([], [], color=CLASS_COLORS[k], lw=lw)[0])
                           for lw in (1.6, 1.0)] for k in (0, 1)]
        self._means = self.animate(ax.plot([], [], "P", color="white", mec="k", ms=10,
                                           ls="none", label=r"fitted $\mu_0, \mu_1$")[0])
        self._boundary = self.animate(ax.plot([], [], color=COLORS["bayes"], lw=2.2,
                                              label="fitted: $p(y=1\\mid x)=0.5$")[0])
        self._true = self.animate(ax.plot([], [], color=COLORS["bayes"], lw=1.2, ls="--",
                                          label="true boundary")[0])
        plane_axes(ax, box)
        ax.set_title("fitted Gaussians, boundary", fontsize="medium")
        axs.plot(static.scores, static.sigmoid, color=COLORS["gda"], lw=2,
                 label=r"$\sigma(\theta^Tx+\theta_0)$")
        axs.axhline(0.5, color="0.6", lw=0.8, ls=":")
        axs.axvline(0.0, color="0.6", lw=0.8, ls=":")
        self._scores = []
        for k in (0, 1):
            self._scores.append(self.animate(axs.scatter(np.zeros(0), np.zeros(0), s=12,
                                                         linewidths=0.9, **_class_marker(k))))
        axs.set(xlim=static.score_range, ylim=(-0.1, 1.1),
                xlabel=r"fitted log-odds $\theta^T x + \theta_0$",
                ylabel=r"$p(y=1\mid x)$; points at label $y$")
        # One legend, under both panels (inside either it hid points or the sigmoid).
        handles = [*ax.get_legend_handles_labels()[0], *axs.get_legend_handles_labels()[0]]
        fig.legend(handles=handles, loc="outside lower center", ncol=legend_columns(3),
                   fontsize="small",
                   frameon=False)
        axs.set_title("posterior: sigmoid of log-odds", fontsize="medium")
        self.update(**params)
        self.finish_layout()

    def paint(self, r: GDAFitResult, changed) -> None:
        for k in (0, 1):
            self._points[k].set_offsets(r.class_points[k])
            for line, xy in zip(self._ellipses[k], r.ellipses[k]):
                line.set_data(*xy)
        self._means.set_data(r.means[:, 0], r.means[:, 1])
        self._boundary.set_data(*r.boundary)
        self._true.set_data(*r.true_boundary)
        for k in (0, 1):
            self._scores[k].set_offsets(r.score_points[k])

    def describe(self) -> str:
        """Alt text from the state: the sample, the four MLEs and the fitted boundary."""
        s = self.state
        m0, m1, S = s["mu0"], s["mu1"], s["Sigma"]
        return (f"Two panels on GDA fitted to n = {s['n']} points ({s['n1']} of class 1): left, "
                f"the sample with the fitted Gaussians' 1- and 2-sigma ellipses sharing one Σ, "
                f"the fitted boundary p(y=1|x) = 0.5 (solid) and the true one (dashed); right, "
                f"every point at its fitted log-odds θᵀx + θ₀ on the sigmoid curve. MLEs: "
                f"φ = {fmt(s['phi'])}, μ₀ = ({fmt(m0[0])}, {fmt(m0[1])}), "
                f"μ₁ = ({fmt(m1[0])}, {fmt(m1[1])}), Σ = [[{fmt(S[0, 0])}, {fmt(S[0, 1])}], "
                f"[{fmt(S[1, 0])}, {fmt(S[1, 1])}]]; θ = ({fmt(s['theta'][0])}, "
                f"{fmt(s['theta'][1])}), θ₀ = {fmt(s['theta0'])}; training error "
                f"{fmt(s['training_error'])}.")
