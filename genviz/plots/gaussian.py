"""Views of the bivariate Gaussian: the CS229 figures (surfaces, contours) and the live view."""

from __future__ import annotations

import numpy as np
from mpl_toolkits.mplot3d import Axes3D  # noqa: F401  (registers the 3-D projection)

from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import (DENSITY_CMAP, PALETTE, PANEL_CMAP, beside_legend, explorer_figsize,
                                is_lecture_mode, legend_columns, panel_position, panel_row_width,
                                plane_axes, tidy_ticks)
from genviz.studies.gaussian import (K_SIGMAS, GaussianFigureResult, GaussianResult,
                                     GaussianStudy, gaussian_figure_study)

__all__ = ["gaussian_figure", "GaussianView"]


def _draw_surface(ax, mesh, Z, zmax, *, stride=1):
    X, Y = mesh
    surf = ax.plot_surface(X, Y, Z, cmap=DENSITY_CMAP, rstride=stride, cstride=stride,
                           linewidth=0.2, edgecolor="k", antialiased=False,
                           vmin=0.0, vmax=zmax)
    return surf


def _style_surface_axes(ax, lim, zmax):
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_zlim(0.0, zmax)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")
    ax.set_zlabel("$p(x)$", labelpad=8)
    if is_lecture_mode():  # three short ticks: lecture-size labels never collide in 3-D
        ax.set_xticks([-lim, 0, lim])
        ax.set_yticks([-lim, 0, lim])
        ax.xaxis.set_major_formatter("{x:g}")
        ax.yaxis.set_major_formatter("{x:g}")
    ax.view_init(elev=28, azim=-60)


def gaussian_figure(params, kind: str = "surface", *, titles=None, lim: float = 3.0,
                    zmax: float = 0.25, levels: int = 8, n_grid: int = 61):
    """Reproduce a row of the CS229 Gaussian figures: one panel per ``(mean, cov)``.

    Parameters
    ----------
    params : sequence of (mean, cov)
        Each a 2-D mean and a 2x2 covariance.
    kind : {"surface", "contour"}
        3-D density surfaces, or contour lines of the density.
    titles : sequence of str, optional
        Panel titles; by default the mean and covariance are printed.
    lim : float
        Both axes span ``[-lim, lim]`` (the notes use 3).
    zmax : float
        Height of the surface panels; raised if a density peaks above it.
    levels : int
        Number of contour levels (``kind="contour"``), evenly spaced up to the peak.
    n_grid : int
        Grid points per axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    return _paint_gaussian_figure(gaussian_figure_study(params, kind, titles=titles, lim=lim,
                                                        zmax=zmax, levels=levels, n_grid=n_grid))


def _paint_gaussian_figure(r: GaussianFigureResult):
    n = len(r.panels)
    lim = r.lim
    # at most 7.8 in wide (the output area at 1280 px, and the lecture box): panels of 2.6 in
    fig = new_figure(figsize=explorer_figsize(panel_row_width(n, 2.6),
                                              3.2 if r.kind == "surface" else 3.0))
    for i, panel in enumerate(r.panels):
        # the default title on two lines (mean, covariance): one line is wider than a panel
        title = (r.titles[i] if r.titles is not None
                 else _param_title(panel.mean, panel.cov).replace(",  ", "\n"))
        if r.kind == "surface":
            ax = fig.add_subplot(1, n, i + 1, projection="3d")
            _draw_surface(ax, r.mesh, panel.density, panel.top, stride=2)
            _style_surface_axes(ax, lim, panel.top)
        else:
            ax = fig.add_subplot(1, n, i + 1)
            ax.contour(r.xs, r.xs, panel.density, levels=panel.levels, cmap=DENSITY_CMAP)
            plane_axes(ax, (-lim, lim, -lim, lim))
            ax.grid(alpha=0.3)
        ax.set_title(title, fontsize="medium")
    if r.kind == "surface":
        for ax in fig.axes[:-1]:  # the next panel would cover its z label: only the last has one
            ax.set_zlabel("")
        # constrained layout does not see a 3-D axes' z label: the last one needs a margin
        tidy_ticks(fig)
        fig.set_layout_engine("constrained", rect=(0.0, 0.0, 0.94, 1.0))
        fig.draw_without_rendering()
        fig.set_layout_engine("none")
    else:
        finish_layout(fig)
    return fig


def _fmt(v: float) -> str:
    return f"{v:g}"


def _param_title(mean, cov) -> str:
    """Title in the notes' notation, e.g. ``mu = (0, 0), Sigma = [1 0.5; 0.5 1]``."""
    m = np.asarray(mean, dtype=float)
    return (rf"$\mu$ = ({_fmt(m[0])}, {_fmt(m[1])}),  "
            rf"$\Sigma$ = [{_fmt(cov[0, 0])} {_fmt(cov[0, 1])}; {_fmt(cov[1, 0])} {_fmt(cov[1, 1])}]")


class GaussianView(View, study=GaussianStudy):
    """Surface and contours of a bivariate Gaussian side by side, updated in place.

    Right panel: the density as an image, the 1-, 2- and 3-sigma contour ellipses, the principal
    axes ``sqrt(lambda_i) v_i`` from the eigendecomposition of Sigma, and ``n_samples`` draws. The
    draws are ``mu + z L^T`` for one fixed set of standard-normal ``z`` (seeded), so they move
    smoothly as the parameters change. Left panel: the density surface. The numbers come from a
    :class:`genviz.studies.gaussian.GaussianStudy`.

    ``update(mu1=, mu2=, sigma1=, sigma2=, rho=)`` takes any subset of the parameters.
    ``state`` is the :class:`~genviz.studies.gaussian.GaussianResult`: ``mean``, ``cov``,
    ``det``, ``eigvals``, ``eigvecs``, ``angle``, ``peak``, ``samples``, ``sample_mean``,
    ``sample_cov``, ``image``, ``surface_max`` and what is drawn from them.
    """

    K_SIGMAS = K_SIGMAS

    def __init__(self, mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.0, *, lim=4.0,
                 n_samples=200, seed=0, n_surface=35, n_image=121, surface=True,
                 figsize=None):
        static = self.use_study(lim=lim, n_samples=n_samples, seed=seed, n_surface=n_surface,
                                n_image=n_image, surface=surface)
        self.lim, self.n_samples, self.surface = static.lim, static.n_samples, static.surface
        self._surf_mesh, self._xs_img = static.surface_mesh, static.xs_image
        if figsize is None:
            # narrow: the contour panel alone gets a square (its axes are equal)
            figsize = explorer_figsize(*((7.8, 4.3) if self.surface else (7.0, 4.6)),
                                       panels=(1, 2) if self.surface else (1, 1),
                                       narrow_aspect=None if self.surface else 1.1)
        fig = new_figure(figsize=figsize)
        super().__init__(fig)
        if self.surface:
            self.ax3d = fig.add_subplot(*panel_position(1, 2, 1), projection="3d")
            self.ax = fig.add_subplot(*panel_position(1, 2, 2))
        else:
            self.ax3d = None
            self.ax = fig.add_subplot(1, 1, 1)
        self._surf = None
        ax = self.ax
        L = self.lim
        self._image = self.animate(ax.imshow(np.zeros((len(self._xs_img),) * 2), origin="lower",
                                extent=(-L, L, -L, L), cmap=PANEL_CMAP, vmin=0.0, vmax=1.0,
                                interpolation="bilinear"))
        self._ellipses = [ax.plot([], [], color=PALETTE["blue"], lw=1.4, ls=ls,
                                  label=f"{k:g}-sigma contour")[0]
                          for ls, k in zip(("-", "--", ":"), self.K_SIGMAS)]
        self._axes_lines = [
            ax.plot([], [], color=PALETTE["vermillion"], lw=2.8, solid_capstyle="round",
                    label=r"major axis $\sqrt{\lambda_1}\,v_1$")[0],
            ax.plot([], [], color=PALETTE["orange"], lw=2.8, solid_capstyle="round",
                    label=r"minor axis $\sqrt{\lambda_2}\,v_2$")[0],
        ]
        self._samples = self.animate(ax.scatter(np.zeros(self.n_samples), np.zeros(self.n_samples), s=6,
                                   color=PALETTE["black"], edgecolor="none", alpha=0.55,
                                   label=f"{self.n_samples} samples"))
        (self._mean_marker,) = ax.plot([], [], "P", color="white", mec="k", ms=9,
                                       label=r"mean $\mu$")
        self.animate(*self._ellipses, *self._axes_lines, self._mean_marker)
        plane_axes(ax, (-L, L, -L, L))
        ax.set_title("contours and samples", fontsize="medium")
        if self.ax3d is not None:
            # Two panels share the width: the legend goes under both (three columns).
            fig.legend(handles=ax.get_legend_handles_labels()[0], loc="outside lower center",
                       ncol=legend_columns(3), fontsize="small", frameon=False)
            _style_surface_axes(self.ax3d, L, 0.25)
            self.ax3d.set_title("density $p(x;\\mu,\\Sigma)$", fontsize="medium")
        else:
            beside_legend(ax, fontsize="small", frameon=False)
        self.update(mu1=mu1, mu2=mu2, sigma1=sigma1, sigma2=sigma2, rho=rho)
        self.finish_layout()

    def paint(self, r: GaussianResult, changed) -> None:
        self._image.set_data(r.image)
        self._image.set_clim(0.0, r.peak)
        for line, pts in zip(self._ellipses, r.ellipses):
            line.set_data(pts[:, 0], pts[:, 1])
        for line, (xs, ys) in zip(self._axes_lines, r.principal_axes):
            line.set_data(xs, ys)
        self._mean_marker.set_data([r.mean[0]], [r.mean[1]])
        self._samples.set_offsets(r.samples)
        if self.ax3d is not None:
            self._surf = self.replace_animated(
                self._surf, _draw_surface(self.ax3d, self._surf_mesh, r.surface, r.zmax))
            self.set_limits(self.ax3d, zlim=(0.0, r.zmax))

    def describe(self) -> str:
        """Alt text from the state: mean, standard deviations, correlation, ellipse geometry."""
        s, p = self.state, self.params
        if s["isotropic"]:
            shape = "circles centred on the mean (no preferred direction)"
        else:
            shape = (f"ellipses whose major axis points at {fmt(round(float(s['angle']), 1))}° "
                     f"from the x₁ axis, half-axes √λ = {fmt(s['half_axes'][0])} and "
                     f"{fmt(s['half_axes'][1])}")
        panels = "Surface and contours" if self.ax3d is not None else "Contours"
        return (f"{panels} of a 2-D Gaussian, μ = ({fmt(p['mu1'])}, {fmt(p['mu2'])}), "
                f"σ₁ = {fmt(p['sigma1'])}, σ₂ = {fmt(p['sigma2'])}, ρ = {fmt(p['rho'])}: "
                f"1-, 2- and 3-sigma {shape}; peak density {fmt(s['peak'])}; "
                f"{self.n_samples} samples drawn over the density.")
