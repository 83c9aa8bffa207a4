"""GDA against logistic regression (CS229 part IV, 1.3; Ng & Jordan 2001; notebook 04): the
explorer's view of both boundaries on five data families, and the learning-curve figure."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.gda_studies import gda_vs_logistic_trial
from genviz.gaussian import cov_from_params
from genviz.grids import grid_2d
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.gda import COLORS, MARKERS, line_in_box
from genviz.plots.style import CLASS_COLORS, explorer_figsize
from genviz.synthetic import FAMILIES, DataModel

__all__ = ["learning_curve_figure", "GDAvsLogisticView"]


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
        # the samples, the Bayes error and logistic regression (with its fallback): model layer
        trial = gda_vs_logistic_trial(model, p["n"], n_test=self.n_test, seed=self.seed)
        self._trial = trial
        self._model, self._X, self._y = model, trial.X, trial.y
        self._Xt, self._yt = trial.X_test, trial.y_test
        self._lr, self._lr_l2 = trial.lr, trial.lr_l2
        for k in (0, 1):
            self._points[k].set_offsets(trial.X[trial.y == k])
        lin = model.linear_bayes()
        self._draw_boundary("bayes", lin, None if lin else model.log_odds(self._grid))
        self._bayes_err = trial.bayes_error
        self._draw_boundary("lr", (trial.lr.coef_, trial.lr.intercept_), None)

    # -- update ---------------------------------------------------------------------------------
    def update(self, **params) -> None:
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
        trial = self._trial
        gda = trial.gda(new["gda_cov"])
        lin = gda.logistic_params() if gda.shared_cov else None
        self._draw_boundary("gda", lin, None if lin else gda.decision_function(self._grid))
        errors = {"gda": trial.test_error(gda), "lr": trial.lr_error, "bayes": trial.bayes_error}
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

