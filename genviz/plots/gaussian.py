"""Views of the bivariate Gaussian: the CS229 figures (surfaces, contours) and the live view."""

from __future__ import annotations

import numpy as np
from mpl_toolkits.mplot3d import Axes3D  # noqa: F401  (registers the 3-D projection)

from genviz._validation import check_int, check_scalar
from genviz.gaussian import (
    cov_eigen,
    cov_from_params,
    factorize_cov,
    mvn_pdf,
    mvn_pdf_grid,
    ellipse_points,
)
from genviz.samplers import gaussian_sample
from genviz.grids import grid_2d
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import (DENSITY_CMAP, PALETTE, PANEL_CMAP, explorer_figsize, is_lecture_mode,
                                tidy_ticks)

__all__ = ["gaussian_figure", "GaussianView"]


def _peak(mean, factor) -> float:
    """Height of the density at its mean, 1 / (2 pi sqrt|Sigma|), from genviz.gaussian."""
    return float(mvn_pdf(np.asarray(mean, dtype=float)[None, :], mean, factor)[0])


def _nice_zmax(peak: float) -> float:
    """Height of the surface axes: 0.25 as in the notes, else the next of 0.5, 1, 2, 4, ...

    Quantised so that dragging a slider rarely changes the axes (a change forces a full redraw).
    """
    top = 0.25
    while top < 1.02 * peak:
        top *= 2.0
    return top


def _draw_surface(ax, grid, Z, zmax, *, stride=1):
    X, Y = grid.mesh
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
    if kind not in ("surface", "contour"):
        raise ValueError(f"kind must be 'surface' or 'contour', got {kind!r}")
    params = list(params)
    if not params:
        raise ValueError("params is empty; pass at least one (mean, cov) pair")
    lim = check_scalar(lim, "lim", low=0.0, low_open=True)
    n_grid = check_int(n_grid, "n_grid", low=3)
    levels = check_int(levels, "levels", low=1)
    if titles is not None and len(titles) != len(params):
        raise ValueError(f"titles has {len(titles)} entries but params has {len(params)}")
    grid = grid_2d(lim, n_grid)
    xs = grid.xs
    n = len(params)
    # at most 7.8 in wide (the output area at 1280 px, and the lecture box): panels of 2.6 in
    fig = new_figure(figsize=explorer_figsize(min(7.8, 2.6 * n), 3.2 if kind == "surface" else 3.0))
    for i, (mean, cov) in enumerate(params):
        factor = factorize_cov(cov)
        Z = mvn_pdf_grid(xs, xs, mean, factor)
        # the default title on two lines (mean, covariance): one line is wider than a panel
        title = titles[i] if titles is not None else _param_title(mean, factor.cov).replace(",  ", "\n")
        if kind == "surface":
            ax = fig.add_subplot(1, n, i + 1, projection="3d")
            top = max(zmax, 1.05 * float(Z.max()))
            _draw_surface(ax, grid, Z, top, stride=2)
            _style_surface_axes(ax, lim, top)
            if i < n - 1:  # the next panel would cover this z label: only the last has one
                ax.set_zlabel("")
        else:
            ax = fig.add_subplot(1, n, i + 1)
            peak = _peak(mean, factor)
            ax.contour(xs, xs, Z, levels=np.linspace(0, peak, levels + 2)[1:-1],
                       cmap=DENSITY_CMAP)
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
            ax.set_aspect("equal")
            ax.set_xlabel("$x_1$")
            ax.set_ylabel("$x_2$")
            ax.grid(alpha=0.3)
        ax.set_title(title, fontsize="medium")
    if kind == "surface":
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


class GaussianView(View):
    """Surface and contours of a bivariate Gaussian side by side, updated in place.

    Right panel: the density as an image, the 1-, 2- and 3-sigma contour ellipses, the principal
    axes ``sqrt(lambda_i) v_i`` from the eigendecomposition of Sigma, and ``n_samples`` draws. The
    draws are ``mu + z L^T`` for one fixed set of standard-normal ``z`` (seeded), so they move
    smoothly as the parameters change. Left panel: the density surface.

    ``update(mu1=, mu2=, sigma1=, sigma2=, rho=)`` takes any subset of the parameters.
    ``state`` has ``mean``, ``cov``, ``det``, ``eigvals``, ``eigvecs``, ``angle``, ``peak``,
    ``samples``, ``sample_mean``, ``sample_cov``, ``image`` and ``surface_max``.
    """

    PARAMS = ("mu1", "mu2", "sigma1", "sigma2", "rho")
    K_SIGMAS = (1.0, 2.0, 3.0)

    def __init__(self, mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.0, *, lim=4.0,
                 n_samples=200, seed=0, n_surface=35, n_image=121, surface=True,
                 figsize=None):
        self.lim = check_scalar(lim, "lim", low=0.0, low_open=True)
        self.n_samples = check_int(n_samples, "n_samples", low=0)
        self.seed = check_int(seed, "seed", low=0)
        self.surface = bool(surface)
        if figsize is None:
            figsize = explorer_figsize(*((7.8, 4.3) if self.surface else (7.0, 4.6)))
        fig = new_figure(figsize=figsize)
        super().__init__(fig)
        self._surf_grid = grid_2d(self.lim, check_int(n_surface, "n_surface", low=3))
        self._xs_surf = self._surf_grid.xs
        self._xs_img = np.linspace(-self.lim, self.lim, check_int(n_image, "n_image", low=3))
        self.params = dict(mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.0)

        if self.surface:
            self.ax3d = fig.add_subplot(1, 2, 1, projection="3d")
            self.ax = fig.add_subplot(1, 2, 2)
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
        ax.set_xlim(-L, L)
        ax.set_ylim(-L, L)
        ax.set_aspect("equal")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        ax.set_title("contours and samples", fontsize="medium")
        if self.ax3d is not None:
            # Two panels share the width: the legend goes under both (three columns).
            fig.legend(handles=ax.get_legend_handles_labels()[0], loc="outside lower center",
                       ncol=3, fontsize="small", frameon=False)
            _style_surface_axes(self.ax3d, L, 0.25)
            self.ax3d.set_title("density $p(x;\\mu,\\Sigma)$", fontsize="medium")
        else:
            ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small",
                      frameon=False, borderaxespad=0.0)
        self.update(mu1=mu1, mu2=mu2, sigma1=sigma1, sigma2=sigma2, rho=rho)
        self.finish_layout()

    def update(self, **params) -> None:
        new = {**self.params, **params}
        mean = np.array([check_scalar(new["mu1"], "mu1"), check_scalar(new["mu2"], "mu2")])
        cov = cov_from_params(new["sigma1"], new["sigma2"], new["rho"])  # validates
        factor = factorize_cov(cov)
        self.params = new
        geo = cov_eigen(factor)
        peak = _peak(mean, factor)

        img = mvn_pdf_grid(self._xs_img, self._xs_img, mean, factor)
        self._image.set_data(img)
        self._image.set_clim(0.0, peak)
        for line, k in zip(self._ellipses, self.K_SIGMAS):
            pts = ellipse_points(mean, factor, k=k, n=90)
            line.set_data(pts[:, 0], pts[:, 1])
        for line, i in zip(self._axes_lines, (0, 1)):
            half = geo.half_axes[i] * geo.eigvecs[:, i]
            line.set_data([mean[0] - half[0], mean[0] + half[0]],
                          [mean[1] - half[1], mean[1] + half[1]])
        self._mean_marker.set_data([mean[0]], [mean[1]])
        draws = gaussian_sample(self.n_samples, mean, factor, rng=self.seed)
        samples = draws.X
        self._samples.set_offsets(samples)

        surface_max = float("nan")
        if self.ax3d is not None:
            Zs = mvn_pdf_grid(self._xs_surf, self._xs_surf, mean, factor)
            surface_max = float(Zs.max())
            zmax = _nice_zmax(peak)
            self._surf = self.replace_animated(
                self._surf, _draw_surface(self.ax3d, self._surf_grid, Zs, zmax))
            if self.ax3d.get_zlim() != (0.0, zmax):
                self.ax3d.set_zlim(0.0, zmax)
                self.request_full_redraw()

        self.state = dict(mean=mean, cov=factor.cov, det=float(np.exp(factor.logdet)),
                          eigvals=geo.eigvals, eigvecs=geo.eigvecs, angle=geo.angle, peak=peak,
                          samples=samples, sample_mean=draws.mean, sample_cov=draws.cov,
                          image=img, surface_max=surface_max)

    def describe(self) -> str:
        """Alt text from the state: mean, standard deviations, correlation, ellipse geometry."""
        s, p = self.state, self.params
        l1, l2 = (float(v) for v in s["eigvals"])
        if abs(l1 - l2) <= 1e-9 * max(l1, l2):
            shape = "circles centred on the mean (no preferred direction)"
        else:
            shape = (f"ellipses whose major axis points at {fmt(round(float(s['angle']), 1))}° "
                     f"from the x₁ axis, half-axes √λ = {fmt(l1 ** 0.5)} and {fmt(l2 ** 0.5)}")
        panels = "Surface and contours" if self.ax3d is not None else "Contours"
        return (f"{panels} of a 2-D Gaussian, μ = ({fmt(p['mu1'])}, {fmt(p['mu2'])}), "
                f"σ₁ = {fmt(p['sigma1'])}, σ₂ = {fmt(p['sigma2'])}, ρ = {fmt(p['rho'])}: "
                f"1-, 2- and 3-sigma {shape}; peak density {fmt(s['peak'])}; "
                f"{self.n_samples} samples drawn over the density.")
