"""Figures for GDA (CS229 part IV, 1.2-1.3) and the GDA-vs-logistic-regression explorer view."""

from __future__ import annotations

import numpy as np
from mpl_toolkits.mplot3d import Axes3D  # noqa: F401  (registers the 3-D projection)

from genviz._validation import check_int, check_labels, check_points, check_scalar
from genviz.gaussian import cov_from_params, ellipse_points, mvn_pdf_grid
from genviz.grids import data_box, grid_2d
from genviz.gda import GDA
from genviz.logistic import LogisticRegression, SeparableDataError, sigmoid
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import CLASS_COLORS, DENSITY_CMAP, PALETTE, explorer_figsize
from genviz.synthetic import FAMILIES, DataModel

__all__ = ["gda_figure", "posterior_figure", "covariance_figure", "learning_curve_figure",
           "line_in_box", "GDAvsLogisticView", "COLORS"]

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
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
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
    model = GDA().fit(X, y) if model is None else model
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
    bayes = grid.evaluate(lambda P: model.predict_proba(P)[:, 1])
    logistic = grid.evaluate(lambda P: sigmoid(P @ theta + theta0))
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
    diff = float(np.max(np.abs(bayes - logistic)))
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
    for i, shared in enumerate((True, False)):
        model = GDA(shared_cov=shared).fit(X, y)
        ax = fig.add_subplot(1, 2, i + 1)
        _scatter_classes(ax, X, y, s=14)
        for k in (0, 1):
            _gaussian_contours(ax, model, xs, ys, k)
        ax.contour(xs, ys, grid.evaluate(model.decision_function), levels=[0.0],
                   colors=COLORS["bayes"], linewidths=2)
        err = np.mean(model.predict(X) != y)
        ax.set_title(("shared $\\Sigma$: linear boundary" if shared
                      else "$\\Sigma_0, \\Sigma_1$: quadratic boundary")
                     + f"\ntraining error {err:.1%}", fontsize="medium")
        ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
        ax.set_aspect("equal")
    fig.axes[0].legend(loc="upper left", fontsize="small", framealpha=0.85)
    finish_layout(fig)
    return fig


def learning_curve_figure(curves, titles, *, figsize=None):
    """Test error against training-set size, mean ± one standard error, one panel per result."""
    curves = list(curves)
    if len(titles) != len(curves):
        raise ValueError(f"titles has {len(titles)} entries but curves has {len(curves)}")
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.9))
    for i, (lc, title) in enumerate(zip(curves, titles)):
        ax = fig.add_subplot(1, len(curves), i + 1)
        for key, label, marker in (("gda", "GDA", "o"), ("lr", "logistic regression", "s")):
            mean, se = lc.mean_se(key)
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

_BOXES = {"gaussian": (-5.0, 5.0, -5.0, 5.0), "gaussian_diff_cov": (-5.0, 5.0, -5.0, 5.0),
          "heavy_tailed": (-5.0, 5.0, -5.0, 5.0), "poisson": (-1.0, 25.0, -1.0, 25.0),
          "outliers": (-14.0, 14.0, -14.0, 14.0)}


class GDAvsLogisticView(View):
    """Training data from a :class:`DataModel` with GDA's, logistic regression's and the
    Bayes-optimal boundaries, and their test errors.

    ``update(**params)`` takes any of ``mu0x, mu0y, mu1x, mu1y, sigma1, sigma2, rho, phi, n,
    family`` (data parameters: the training and test sets are redrawn, with a fixed seed) and
    ``gda_cov`` (``"shared"`` or ``"separate"``: only GDA is refitted). Logistic regression is
    unregularised; if the sample is linearly separable it is refitted with ``l2 = 1e-3`` and
    ``state["lr_l2"]`` says so. ``state`` holds ``errors`` (dict gda/lr/bayes), ``theta_gda``,
    ``theta_lr`` (each ``(theta, theta0)`` or None), ``n_train``, ``separable``, ``family``.
    """

    DATA = ("mu0x", "mu0y", "mu1x", "mu1y", "sigma1", "sigma2", "rho", "phi", "n", "family")
    PARAMS = DATA + ("gda_cov",)

    def __init__(self, *, n_test=4000, n_grid=90, seed=0, figsize=None, **params):
        self.n_test = check_int(n_test, "n_test", low=10)
        self.n_grid = check_int(n_grid, "n_grid", low=10)
        self.seed = check_int(seed, "seed", low=0)
        fig = new_figure(figsize=figsize or explorer_figsize(7.0, 4.8))
        super().__init__(fig)
        self.ax = ax = fig.add_subplot()
        self.params = dict(mu0x=-1.0, mu0y=-0.5, mu1x=1.0, mu1y=0.5, sigma1=1.0, sigma2=1.0,
                           rho=0.3, phi=0.5, n=200, family="gaussian", gda_cov="shared")
        self._data_key = None
        self._box = None
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
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                  fontsize="small", frameon=False)
        ax.set_title("boundaries (test errors in the readout)", fontsize="medium")
        self.update(**params)
        self.finish_layout()

    # -- helpers --------------------------------------------------------------------------------
    def _set_box(self, family):
        box = _BOXES[family]
        if box != self._box:
            self._box = box
            self.ax.set_xlim(box[:2])
            self.ax.set_ylim(box[2:])
            grid = grid_2d(box, self.n_grid)
            self._xs, self._ys, self._grid = grid.xs, grid.ys, grid.points
            self.request_full_redraw()
            self.relayout()  # wider tick labels (e.g. the outliers' box) need more margin

    def _draw_boundary(self, key, linear, values):
        """A line for a linear boundary (``linear = (theta, theta0)``), else a zero contour of
        ``values`` (log-odds on the grid)."""
        line = self._lines[key]
        old = self._contours.get(key)
        if linear is not None:
            line.set_data(*line_in_box(linear[0], linear[1], self._box))
            if old is not None:  # a quadric before: remove its contour set
                if old in self._animated:
                    self._animated.remove(old)
                old.remove()
                self._contours[key] = None
            return
        line.set_data([], [])
        Z = values.reshape(len(self._ys), len(self._xs))
        new = self.ax.contour(self._xs, self._ys, Z, levels=[0.0], colors=COLORS[key],
                              linewidths=line.get_linewidth(), linestyles=line.get_linestyle())
        if old is None:
            self._contours[key] = self.animate(new)
        else:
            self._contours[key] = self.replace_animated(old, new)

    def _resample(self, p):
        cov = cov_from_params(p["sigma1"], p["sigma2"], p["rho"])
        model = DataModel(p["family"], [p["mu0x"], p["mu0y"]], [p["mu1x"], p["mu1y"]], cov,
                          phi=p["phi"])
        X, y = model.sample(p["n"], np.random.default_rng(self.seed))
        if min(y.sum(), len(y) - y.sum()) < 2:
            raise ValueError("the sample has fewer than 2 points in a class: raise n or move "
                             "phi towards 0.5")
        Xt, yt = model.sample(self.n_test, np.random.default_rng(self.seed + 1))
        self._model, self._X, self._y, self._Xt, self._yt = model, X, y, Xt, yt
        for k in (0, 1):
            self._points[k].set_offsets(X[y == k])
        lin = model.linear_bayes()
        self._draw_boundary("bayes", lin, None if lin else model.log_odds(self._grid))
        self._bayes_err = float(np.mean((model.log_odds(Xt) > 0) != yt))
        lr, l2 = None, 0.0
        try:
            lr = LogisticRegression().fit(X, y)
        except SeparableDataError:
            l2 = 1e-3
            lr = LogisticRegression(l2=l2).fit(X, y)
        self._lr, self._lr_l2 = lr, l2
        self._draw_boundary("lr", (lr.coef_, lr.intercept_), None)

    # -- update ---------------------------------------------------------------------------------
    def update(self, **params) -> None:
        unknown = set(params) - set(self.PARAMS)
        if unknown:
            raise TypeError(f"unknown parameter(s) {sorted(unknown)}; expected {self.PARAMS}")
        new = {**self.params, **params}
        for name in ("mu0x", "mu0y", "mu1x", "mu1y"):
            check_scalar(new[name], name)
        check_scalar(new["phi"], "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        new["n"] = check_int(new["n"], "n", low=4)
        if new["family"] not in FAMILIES:
            raise ValueError(f"family must be one of {FAMILIES}, got {new['family']!r}")
        if new["gda_cov"] not in ("shared", "separate"):
            raise ValueError(f"gda_cov must be 'shared' or 'separate', got {new['gda_cov']!r}")
        key = tuple(new[k] for k in self.DATA)
        self._set_box(new["family"])
        if key != self._data_key:
            self._resample(new)
            self._data_key = key
        self.params = new
        gda = GDA(shared_cov=new["gda_cov"] == "shared").fit(self._X, self._y)
        lin = gda.logistic_params() if gda.shared_cov else None
        self._draw_boundary("gda", lin, None if lin else gda.decision_function(self._grid))
        errors = {"gda": float(np.mean(gda.predict(self._Xt) != self._yt)),
                  "lr": float(np.mean(self._lr.predict(self._Xt) != self._yt)),
                  "bayes": self._bayes_err}
        self.state = dict(errors=errors, theta_gda=lin,
                          theta_lr=(self._lr.coef_.copy(), self._lr.intercept_),
                          lr_l2=self._lr_l2, separable=self._lr_l2 > 0, n_train=len(self._y),
                          n_test=self.n_test, family=new["family"], gda=gda, lr=self._lr,
                          data_model=self._model, X=self._X, y=self._y)

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

# --- the GDA fitting explorer's view (notebook 03) -----------------------------------------------

from genviz.gda import logistic_params as _logistic_params  # noqa: E402

__all__ += ["GDAFitView"]

class GDAFitView(View):
    r"""Fit GDA to a sample you control: the four MLEs, the fitted contours, the boundary, and
    the posterior as a sigmoid of a linear function (CS229 part IV, 1.2-1.3).

    The sample comes from the GDA model itself: ``y ~ Bernoulli(phi)``,
    ``x | y ~ N(mu_y, Sigma)`` with ``Sigma = cov_from_params(sigma1, sigma2, rho)``. It is drawn
    from a fixed pool of standard-normal vectors ``z`` and uniforms ``u`` (seeded once):
    ``x_i = mu_{y_i} + L z_i`` with ``L L^T = Sigma`` and ``y_i = 1{u_i < phi}``, the first ``n``
    of the pool. So moving a mean or ``Sigma`` moves the same points continuously, and a larger
    ``n`` adds points without redrawing the others. Each class keeps at least 2 points (the two
    pool points with the smallest ``u`` among the first ``n`` are class 1, the two with the
    largest class 0), so the shared covariance MLE always exists.

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
        rng = np.random.default_rng(self.seed)
        self._z = rng.standard_normal((self.N_MAX, 2))
        self._u = rng.random(self.N_MAX)
        self._jitter = rng.uniform(-0.04, 0.04, self.N_MAX)
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

    def _sample(self, p):
        n = p["n"]
        u = self._u[:n]
        y = (u < p["phi"]).astype(int)
        order = np.argsort(u, kind="stable")
        y[order[:2]] = 1
        y[order[-2:]] = 0
        cov = cov_from_params(p["sigma1"], p["sigma2"], p["rho"])
        L = np.linalg.cholesky(cov)
        mu = np.array([[p["mu0x"], p["mu0y"]], [p["mu1x"], p["mu1y"]]])
        X = mu[y] + self._z[:n] @ L.T
        return X, y, cov, mu

    def update(self, **params) -> None:
        unknown = set(params) - set(self.PARAMS)
        if unknown:
            raise TypeError(f"unknown parameter(s) {sorted(unknown)}; expected {self.PARAMS}")
        new = {**self.params, **params}
        new["n"] = check_int(new["n"], "n", low=4, high=self.N_MAX)
        for name in ("mu0x", "mu0y", "mu1x", "mu1y"):
            check_scalar(new[name], name)
        for name in ("sigma1", "sigma2"):
            check_scalar(new[name], name, low=0.0, low_open=True)
        check_scalar(new["rho"], "rho", low=-1.0, high=1.0, low_open=True, high_open=True)
        check_scalar(new["phi"], "phi", low=0.0, high=1.0, low_open=True, high_open=True)
        X, y, cov, mu = self._sample(new)
        self.params = new
        gda = GDA().fit(X, y)
        theta, theta0 = gda.logistic_params()
        true_phi = float(new["phi"])
        theta_true, theta0_true = _logistic_params(true_phi, mu[0], mu[1], cov)
        for k in (0, 1):
            self._points[k].set_offsets(X[y == k])
            for line, radius in zip(self._ellipses[k], (1.0, 2.0)):
                line.set_data(*ellipse_points(gda.means_[k], gda.covariance_, k=radius,
                                              n=90).T)
        self._means.set_data(gda.means_[:, 0], gda.means_[:, 1])
        self._boundary.set_data(*line_in_box(theta, theta0, self.BOX))
        self._true.set_data(*line_in_box(theta_true, theta0_true, self.BOX))
        score = X @ theta + theta0
        shown = np.clip(score, *self.SCORE_RANGE)
        for k in (0, 1):
            m = y == k
            self._scores[k].set_offsets(np.column_stack([shown[m], k + self._jitter[:len(y)][m]]))
        self.state = dict(
            phi=float(gda.phi_), mu0=gda.means_[0].copy(), mu1=gda.means_[1].copy(),
            Sigma=gda.covariance_.copy(), theta=np.asarray(theta, dtype=float),
            theta0=float(theta0), theta_true=np.asarray(theta_true, dtype=float),
            theta0_true=float(theta0_true), n=int(new["n"]), n1=int(y.sum()),
            training_error=float(np.mean(gda.predict(X) != y)), X=X, y=y,
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
