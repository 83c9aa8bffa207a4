"""Figures for GDA (CS229 part IV, 1.2-1.3, notebook 03): the fitted Gaussians and boundary,
the posterior two ways, shared vs separate covariances, and the GDA fitting explorer's view.
The GDA-vs-logistic-regression view and the learning curves (notebook 04) are in
:mod:`genviz.plots.gda_vs_logistic`, which shares this module's boundary/contour toolkit."""

from __future__ import annotations

import numpy as np
from mpl_toolkits.mplot3d import Axes3D  # noqa: F401  (registers the 3-D projection)

from genviz._validation import check_int, check_labels, check_points, check_scalar
from genviz.gda_studies import fit_gda_sample, gda_covariance_fits, posterior_two_ways
from genviz.gaussian import cov_from_params, ellipse_points, mvn_pdf_grid
from genviz.grids import data_box, grid_2d
from genviz.logistic import sigmoid
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import CLASS_COLORS, DENSITY_CMAP, PALETTE, explorer_figsize
from genviz.samplers import GDAFitSampler

__all__ = ["gda_figure", "posterior_figure", "covariance_figure", "line_in_box", "GDAFitView",
           "COLORS", "MARKERS"]

# One colour per learner, the same in every figure.
COLORS = {"gda": PALETTE["green"], "lr": PALETTE["purple"], "bayes": PALETTE["black"]}
MARKERS = ("o", "x")


def line_in_box(theta, theta0, box):
    """The segment of the line ``theta . x + theta0 = 0`` inside ``box = (x0, x1, y0, y1)``.

    Returns ``(xs, ys)``, two points each, or two empty arrays when the line misses the box.

    Examples
    --------
    >>> line_in_box([1.0, 0.0], -1.0, (-2, 2, -2, 2))
    (array([1., 1.]), array([-2.,  2.]))
    """
    a, b = float(theta[0]), float(theta[1])
    x0, x1, y0, y1 = box
    pts = []
    if abs(b) > 1e-300:
        for x in (x0, x1):
            y = -(theta0 + a * x) / b
            if y0 - 1e-12 <= y <= y1 + 1e-12:
                pts.append((x, y))
    if abs(a) > 1e-300:
        for y in (y0, y1):
            x = -(theta0 + b * y) / a
            if x0 - 1e-12 <= x <= x1 + 1e-12:
                pts.append((x, y))
    if len(pts) < 2:
        return np.array([]), np.array([])
    pts = np.array(pts)
    # The two points farthest apart (corners can appear twice).
    d = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(axis=2))
    i, j = np.unravel_index(np.argmax(d), d.shape)
    return pts[[i, j], 0], pts[[i, j], 1]


def _scatter_classes(ax, X, y, s=22):
    for k in (0, 1):
        P = X[y == k]
        kw = dict(facecolors="none", edgecolors=CLASS_COLORS[k]) if MARKERS[k] == "o" \
            else dict(color=CLASS_COLORS[k])
        ax.scatter(P[:, 0], P[:, 1], s=s, marker=MARKERS[k], linewidths=1.1, label=f"y = {k}", **kw)


def _gaussian_contours(ax, model, xs, ys, k, levels=4):
    cov = model.covariance_ if model.covariance_.ndim == 2 else model.covariance_[k]
    Z = mvn_pdf_grid(xs, ys, model.means_[k], cov)
    peak = Z.max()
    ax.contour(xs, ys, Z, levels=peak * np.exp(-0.5 * np.array([2.0, 1.5, 1.0, 0.5]) ** 2),
               colors=CLASS_COLORS[k], linewidths=1.0, alpha=0.9)


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
    X = check_points(X, "X", d=2)
    y = check_labels(y, X.shape[0], binary=True).astype(int)
    model = gda_covariance_fits(X, y, shared=(True,))[0].model if model is None else model
    box = data_box(X, pad=1.0) if box is None else box
    grid = grid_2d(box, 200)
    xs, ys = grid.xs, grid.ys
    fig = new_figure(figsize=figsize)
    ax = fig.add_subplot()
    _scatter_classes(ax, X, y)
    for k in (0, 1):
        _gaussian_contours(ax, model, xs, ys, k)
    if model.shared_cov:
        theta, theta0 = model.logistic_params()
        lx, ly = line_in_box(theta, theta0, box)
        ax.plot(lx, ly, color=COLORS["bayes"], lw=2, label="$p(y=1\\mid x) = 0.5$")
    else:
        ax.contour(xs, ys, grid.evaluate(model.decision_function), levels=[0.0], colors=COLORS["bayes"],
                   linewidths=2)
    ax.plot(*model.means_.T, "P", color="white", mec="k", ms=10, ls="none",
            label=r"means $\mu_0, \mu_1$")
    ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
    ax.set_aspect("equal")
    # under the axes: inside, any corner covers training points
    fig.legend(loc="outside lower center", ncol=2, fontsize="small", frameon=False)
    ax.set_title("GDA: shared $\\Sigma$, and the boundary", fontsize="medium")
    finish_layout(fig)
    return fig


def posterior_figure(model, box, *, n_grid=45, figsize=None):
    r"""The posterior :math:`p(y=1\mid x)` by Bayes' rule beside :math:`\sigma(\theta^Tx+\theta_0)`.

    Returns the figure; ``fig.max_abs_difference`` holds the largest difference on the grid.
    """
    n_grid = check_int(n_grid, "n_grid", low=3)
    theta, theta0 = model.logistic_params()
    grid = grid_2d(box, n_grid)
    GX, GY = grid.mesh
    two = posterior_two_ways(model, grid.points)  # Bayes' rule and the sigmoid, on the grid
    bayes, logistic = grid.reshape(two.bayes), grid.reshape(two.logistic)
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.0))
    titles = ("Bayes' rule\n" r"$p(x\mid y=1)\,\phi\;/\;p(x)$",
              r"$\sigma(\theta^T x + \theta_0)$" "\n"
              rf"$\theta$ = ({theta[0]:.2f}, {theta[1]:.2f}), $\theta_0$ = {theta0:.2f}")
    for i, (Z, title) in enumerate(zip((bayes, logistic), titles)):
        ax = fig.add_subplot(1, 2, i + 1, projection="3d")
        ax.plot_surface(GX, GY, Z, cmap=DENSITY_CMAP, vmin=0, vmax=1, linewidth=0,
                        antialiased=False)
        ax.set(xlabel="$x_1$", ylabel="$x_2$", zlabel="$p(y=1\\mid x)$", zlim=(0, 1))
        ax.set_title(title, fontsize="medium")
        ax.view_init(elev=25, azim=-65)
        ax.set_box_aspect(None, zoom=0.82)  # room for the axis labels inside the panel
    diff = two.max_abs_difference
    fig.suptitle(f"max |difference| on the grid = {diff:.1e}", fontsize="medium")
    finish_layout(fig)
    fig.max_abs_difference = diff
    return fig


def covariance_figure(X, y, *, box=None, figsize=None):
    """Shared vs separate covariance on the same data: a line vs a quadric boundary."""
    X = check_points(X, "X", d=2)
    y = check_labels(y, X.shape[0], binary=True).astype(int)
    box = data_box(X, pad=1.0) if box is None else box
    grid = grid_2d(box, 200)
    xs, ys = grid.xs, grid.ys
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.4))
    for i, (shared, model, err) in enumerate(gda_covariance_fits(X, y)):
        ax = fig.add_subplot(1, 2, i + 1)
        _scatter_classes(ax, X, y, s=14)
        for k in (0, 1):
            _gaussian_contours(ax, model, xs, ys, k)
        ax.contour(xs, ys, grid.evaluate(model.decision_function), levels=[0.0],
                   colors=COLORS["bayes"], linewidths=2)
        ax.set_title(("shared $\\Sigma$: linear boundary" if shared
                      else "$\\Sigma_0, \\Sigma_1$: quadratic boundary")
                     + f"\ntraining error {err:.1%}", fontsize="medium")
        ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
        ax.set_aspect("equal")
    fig.axes[0].legend(loc="upper left", fontsize="small", framealpha=0.85)
    finish_layout(fig)
    return fig


# --- the GDA fitting explorer's view (notebook 03) -----------------------------------------------
class GDAFitView(View):
    r"""Fit GDA to a sample you control: the four MLEs, the fitted contours, the boundary, and
    the posterior as a sigmoid of a linear function (CS229 part IV, 1.2-1.3).

    The sample comes from the GDA model itself: ``y ~ Bernoulli(phi)``,
    ``x | y ~ N(mu_y, Sigma)`` with ``Sigma = cov_from_params(sigma1, sigma2, rho)``, drawn by a
    :class:`genviz.samplers.GDAFitSampler` (a fixed, seeded pool: moving a mean or ``Sigma``
    moves the same points continuously, a larger ``n`` adds points); the fit and the true
    boundary come from :func:`genviz.gda_studies.fit_gda_sample`. The view only draws them.

    Left panel: the sample, the fitted Gaussians' 1- and 2-sigma ellipses (solid, same shape
    because ``Sigma`` is shared), the fitted boundary ``p(y=1|x) = 0.5`` (solid) and the true
    one (dashed). Right panel: every training point at its fitted log-odds
    ``theta^T x + theta_0`` against its label, with the curve ``sigma(theta^T x + theta_0)``.

    ``update(**params)`` takes any of ``n, mu0x, mu0y, mu1x, mu1y, sigma1, sigma2, rho, phi``.
    ``state`` holds the fitted ``phi``, ``mu0``, ``mu1``, ``Sigma`` (the MLE, dividing by n),
    ``theta``, ``theta0`` (from :meth:`genviz.gda.GDA.logistic_params`), the true ``theta_true``,
    ``theta0_true``, ``n``, ``n1``, ``training_error``, and the sample ``X``, ``y``.
    """

    PARAMS = ("n", "mu0x", "mu0y", "mu1x", "mu1y", "sigma1", "sigma2", "rho", "phi")
    N_MAX = 1000
    BOX = (-5.0, 5.0, -5.0, 5.0)
    SCORE_RANGE = (-12.0, 12.0)

    def __init__(self, *, seed=0, figsize=None, **params):
        self.seed = check_int(seed, "seed", low=0)
        self.sampler = GDAFitSampler(self.N_MAX, self.seed)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.7))
        super().__init__(fig)
        self.params = dict(n=100, mu0x=-1.0, mu0y=-0.5, mu1x=1.5, mu1y=1.0, sigma1=1.0,
                           sigma2=0.8, rho=0.4, phi=0.5)
        self.ax, self.ax_sig = ax, axs = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
        box = self.BOX
        self._points = []
        for k in (0, 1):
            kw = (dict(facecolors="none", edgecolors=CLASS_COLORS[k]) if MARKERS[k] == "o"
                  else dict(color=CLASS_COLORS[k]))
            self._points.append(self.animate(ax.scatter(np.zeros(0), np.zeros(0), s=16,
                                                        marker=MARKERS[k], linewidths=1.0,
                                                        label=f"y = {k}", **kw)))
        self._ellipses = [[self.animate(ax.plot([], [], color=CLASS_COLORS[k], lw=lw)[0])
                           for lw in (1.6, 1.0)] for k in (0, 1)]
        self._means = self.animate(ax.plot([], [], "P", color="white", mec="k", ms=10,
                                           ls="none", label=r"fitted $\mu_0, \mu_1$")[0])
        self._boundary = self.animate(ax.plot([], [], color=COLORS["bayes"], lw=2.2,
                                              label="fitted: $p(y=1\\mid x)=0.5$")[0])
        self._true = self.animate(ax.plot([], [], color=COLORS["bayes"], lw=1.2, ls="--",
                                          label="true boundary")[0])
        ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
        ax.set_aspect("equal")
        ax.set_title("fitted Gaussians, boundary", fontsize="medium")
        s = np.linspace(*self.SCORE_RANGE, 241)
        axs.plot(s, sigmoid(s), color=COLORS["gda"], lw=2,
                 label=r"$\sigma(\theta^Tx+\theta_0)$")
        axs.axhline(0.5, color="0.6", lw=0.8, ls=":")
        axs.axvline(0.0, color="0.6", lw=0.8, ls=":")
        self._scores = []
        for k in (0, 1):
            kw = (dict(facecolors="none", edgecolors=CLASS_COLORS[k]) if MARKERS[k] == "o"
                  else dict(color=CLASS_COLORS[k]))
            self._scores.append(self.animate(axs.scatter(np.zeros(0), np.zeros(0), s=12,
                                                         marker=MARKERS[k], linewidths=0.9,
                                                         **kw)))
        axs.set(xlim=self.SCORE_RANGE, ylim=(-0.1, 1.1),
                xlabel=r"fitted log-odds $\theta^T x + \theta_0$",
                ylabel=r"$p(y=1\mid x)$; points at label $y$")
        # One legend, under both panels (inside either it hid points or the sigmoid).
        handles = ax.get_legend_handles_labels()[0] + axs.get_legend_handles_labels()[0]
        fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize="small",
                   frameon=False)
        axs.set_title("posterior: sigmoid of log-odds", fontsize="medium")
        self.update(**params)
        self.finish_layout()

    def update(self, **params) -> None:
        new = {**self.params, **params}
        new["n"] = check_int(new["n"], "n", low=4, high=self.N_MAX)
        for name in ("mu0x", "mu0y", "mu1x", "mu1y"):
            check_scalar(new[name], name)
        for name in ("sigma1", "sigma2"):
            check_scalar(new[name], name, low=0.0, low_open=True)
        check_scalar(new["rho"], "rho", low=-1.0, high=1.0, low_open=True, high_open=True)
        check_scalar(new["phi"], "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        cov = cov_from_params(new["sigma1"], new["sigma2"], new["rho"])
        mu = np.array([[new["mu0x"], new["mu0y"]], [new["mu1x"], new["mu1y"]]], dtype=float)
        X, y = self.sampler.points(new["n"], mu[0], mu[1], cov, new["phi"])
        self.params = new
        true_phi = float(new["phi"])
        fit = fit_gda_sample(X, y, true_phi=true_phi, true_means=mu, true_cov=cov)
        gda, theta, theta0 = fit.model, fit.theta, fit.theta0
        theta_true, theta0_true = fit.theta_true, fit.theta0_true
        for k in (0, 1):
            self._points[k].set_offsets(X[y == k])
            for line, radius in zip(self._ellipses[k], (1.0, 2.0)):
                line.set_data(*ellipse_points(gda.means_[k], gda.covariance_, k=radius,
                                              n=90).T)
        self._means.set_data(gda.means_[:, 0], gda.means_[:, 1])
        self._boundary.set_data(*line_in_box(theta, theta0, self.BOX))
        self._true.set_data(*line_in_box(theta_true, theta0_true, self.BOX))
        shown = np.clip(fit.scores, *self.SCORE_RANGE)
        for k in (0, 1):
            m = y == k
            self._scores[k].set_offsets(np.column_stack([shown[m], k + self.sampler.jitter[:len(y)][m]]))
        self.state = dict(
            phi=float(gda.phi_), mu0=gda.means_[0].copy(), mu1=gda.means_[1].copy(),
            Sigma=gda.covariance_.copy(), theta=np.asarray(theta, dtype=float),
            theta0=float(theta0), theta_true=np.asarray(theta_true, dtype=float),
            theta0_true=float(theta0_true), n=int(new["n"]), n1=int(y.sum()),
            training_error=fit.training_error, X=X, y=y,
            true_cov=cov, true_means=mu, true_phi=true_phi)

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
