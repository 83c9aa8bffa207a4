"""Views of naive Bayes: count tables and Laplace smoothing, discretising a continuous feature,
naive Bayes vs GDA ellipses, KDE naive Bayes, and decision regions side by side."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from genviz._validation import check_points, check_scalar, check_vector
from genviz.experiments import data_window, discretization, nb_vs_gda
from genviz.gaussian import ellipse_points, mvn_pdf
from genviz.grids import grid_2d
from genviz.naive_bayes import CategoricalNB, FitPath, KDEvsGaussianNB, discretize
from genviz.plots._base import View, fmt, new_figure
from genviz.plots.regions import decision_regions_figure, light  # one regions figure; re-exported
from genviz.plots.style import (CLASS_COLORS, FIGURE_WIDTH_BUDGET, PALETTE, explorer_figsize,
                                 is_lecture_mode)

__all__ = ["CategoricalNBView", "DiscretizeView", "NBvsGDAView", "KDENBView",
           "decision_regions_figure"]


# ----------------------------------------------------------------------------- count tables
class CategoricalNBView(View):
    """Every smoothed table ``P(X_j = v | y)`` as grouped bars, and the posterior of a query.

    ``update(alpha=..., <feature>=<value>, ...)`` refits the counts with Laplace/Lidstone
    ``alpha`` (bars change height) and moves the query (the queried value of each feature is
    outlined in black). ``state`` holds ``alpha``, ``query``, ``tables`` (list of (K, n_j)),
    and ``explain`` (the dict of :meth:`CategoricalNB.explain`: prior, factors, joint scores,
    normaliser, posterior, decision; posterior None when it is 0/0).
    """

    def __init__(self, X, y, feature_names, *, alpha=1.0, query=None, figsize=None):
        self.X, self.y = X, y
        self.names = list(feature_names)
        # the tables at every alpha the slider asks for (model layer; each fitted once)
        self.path = FitPath(CategoricalNB, "alpha", X, y, feature_names=self.names)
        base = self.path(1.0)
        self.classes = base.classes_.tolist()
        self.categories = [c.tolist() for c in base.categories_]
        d, K = len(self.names), len(self.classes)
        # at most 4 panels per row (2-3 in lecture style): 7 panels (EnjoySport) wrap to more rows
        # within the width budget. In lecture style the figure is narrower (6.4 in), leaving
        # the counting table beside it a column wide enough to read it as a table.
        if is_lecture_mode():
            ncols = min(d + 1, 2 if d + 1 <= 6 else 3)
        else:
            ncols = d + 1 if d + 1 <= 3 else min(4, -(-(d + 1) // 2))
        nrows = -(-(d + 1) // ncols)
        fig = new_figure(figsize or explorer_figsize(FIGURE_WIDTH_BUDGET, 2.3 * nrows + 0.5,
                                                     lecture_box=(6.4, 5.6)))
        super().__init__(fig)
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        for ax in axes[d + 1:]:
            ax.set_visible(False)
        self.bars = []
        w = 0.8 / K
        for j, ax in enumerate(axes[:d]):
            xs = np.arange(len(self.categories[j]))
            per_class = []
            for k in range(K):
                bars = ax.bar(xs + (k - (K - 1) / 2) * w, np.zeros(xs.size), w,
                              color=CLASS_COLORS[k], label=f"y = {self.classes[k]}")
                self.animate(*bars)
                per_class.append(bars)
            self.bars.append(per_class)
            ax.set_xticks(xs, [str(c) for c in self.categories[j]], fontsize="small")
            ax.set_ylim(0, 1.08)
            ax.set_title(f"P({self.names[j]} | y)", fontsize="medium")
        fig.legend(handles=[Patch(color=CLASS_COLORS[k], label=f"y = {self.classes[k]}")
                            for k in range(K)], ncols=K,
                   loc="outside upper center", fontsize="small", frameon=False)
        ax = self.ax_post = axes[d]
        xs = np.arange(K)
        self.post_bars = ax.bar(xs, np.zeros(K), 0.6, color=CLASS_COLORS[:K])
        self.animate(*self.post_bars)
        self.post_text = [self.animate(ax.text(x, 0.02, "", ha="center", va="bottom",
                                               fontsize="small")) for x in xs]
        self.undefined = self.animate(ax.text(0.5, 0.5, "", ha="center", va="center",
                                              transform=ax.transAxes, color=PALETTE["vermillion"],
                                              fontsize="small"))
        ax.set_xticks(xs, [f"y = {c}" for c in self.classes], fontsize="small")
        ax.set_ylim(0, 1.15)
        ax.set_title("posterior P(y | x)", fontsize="medium")
        self.params = {"alpha": float(alpha)}
        q = list(query) if query is not None else list(X[0])
        self.params.update({n: v for n, v in zip(self.names, q)})
        self.update()
        self.finish_layout()

    def parameter_names(self) -> tuple:
        """``alpha`` and one name per feature (the query's value of that feature)."""
        return ("alpha", *self.names)

    def update(self, **params) -> None:
        new = {**self.params, **params}
        alpha = check_scalar(new["alpha"], "alpha", low=0.0)
        for j, n in enumerate(self.names):
            if new[n] not in self.categories[j]:
                raise ValueError(f"{n} must be one of {self.categories[j]}, got {new[n]!r}")
        self.params = new
        model = self.path(alpha)
        query = [new[n] for n in self.names]
        tables = [np.exp(t) for t in model.feature_log_prob_]
        for j, per_class in enumerate(self.bars):
            chosen = self.categories[j].index(query[j])
            for k, bars in enumerate(per_class):
                for i, bar in enumerate(bars):
                    bar.set_height(tables[j][k, i])
                    bar.set_edgecolor("black")
                    bar.set_linewidth(2.2 if i == chosen else 0.0)
        e = model.explain(query)
        post = e["posterior"]
        for k, bar in enumerate(self.post_bars):
            p = 0.0 if post is None else post[k]
            bar.set_height(p)
            self.post_text[k].set_text("" if post is None else f"{p:.3f}")
            self.post_text[k].set_y(p + 0.01)
        self.undefined.set_text("" if post is not None else
                                "P(x) = 0 for\nevery class:\n0/0 undefined.\n"
                                "Raise α above 0.")
        self.state = {"alpha": alpha, "query": query, "tables": tables, "explain": e,
                      "smoothed": [model.smoothed_table(j) for j in range(len(self.names))],
                      "class_count": model.class_count_.copy(), "categories": self.categories}
        self.model = model

    def describe(self) -> str:
        """Alt text from the state: α, the query and its posterior."""
        s, e = self.state, self.state["explain"]
        query = ", ".join(f"{n} = {v}" for n, v in zip(self.names, s["query"]))
        if e["posterior"] is None:
            post = "the posterior is 0/0, undefined (raise α above 0)"
        else:
            post = ("posterior " + ", ".join(f"P(y = {c} | x) = {fmt(p)}"
                                             for c, p in zip(self.classes, e["posterior"]))
                    + f": decision {e['decision']}")
        return (f"Bar charts of the naive Bayes tables P(Xⱼ = v | y) for {len(self.names)} "
                f"features and {len(self.classes)} classes with Laplace/Lidstone α = "
                f"{fmt(s['alpha'])}, the query's values outlined ({query}), and the {post}.")


# ----------------------------------------------------------------------------- discretising
class DiscretizeView(View):
    """A continuous feature cut into bins of ``width`` starting at ``origin`` (the CS229
    living-area idea), naive Bayes on the bin index vs Gaussian naive Bayes.

    Top: per class, the binned density ``P(bin | y) / bin width`` (steps) and the Gaussian fit
    (dashed). Bottom: posterior ``P(y | x)`` of both models. ``state``: ``edges``,
    ``n_bins``, ``accuracy_binned``, ``accuracy_gaussian`` (training accuracy).
    """

    PARAMS = ("width", "origin", "alpha")

    def __init__(self, x, y, *, width, origin=0.0, alpha=1.0, xlabel="x", lim=None,
                 n_grid=500, figsize=None):
        self.x = check_vector(x, "x")
        self.y = np.asarray(y)
        lo, hi = lim if lim is not None else data_window(self.x)
        self.lim = (float(lo), float(hi))
        self.grid = np.linspace(lo, hi, n_grid)
        gnb = discretization(self.x, self.y, width=width, origin=origin, alpha=alpha,
                             lim=self.lim).gaussian
        self.classes = gnb.classes_.tolist()
        fig = new_figure(figsize or explorer_figsize(7.8, 5.0))
        super().__init__(fig)
        self.ax_d, self.ax_p = fig.subplots(2, 1, sharex=True)
        dens = np.array([mvn_pdf(self.grid[:, None], gnb.theta_[k], np.diag(gnb.var_[k]))
                         for k in range(len(self.classes))])  # each class's fitted Gaussian
        post_g = gnb.predict_proba(self.grid[:, None])
        self.steps, self.post_lines = [], []
        for k, c in enumerate(self.classes):
            col = CLASS_COLORS[k]
            self.ax_d.plot(self.grid, dens[k], "--", color=col, lw=1.2)
            self.steps.append(self.animate(self.ax_d.plot([], [], color=col, lw=2,
                                                          label=f"{c}")[0]))
            self.ax_d.plot(self.x[self.y == c], np.full((self.y == c).sum(), 0.02 + 0.04 * k),
                           "|", color=col, ms=6, transform=self.ax_d.get_xaxis_transform())
            self.ax_p.plot(self.grid, post_g[:, k], "--", color=col, lw=1.2)
            self.post_lines.append(self.animate(self.ax_p.plot([], [], color=col, lw=2)[0]))
        self.ax_d.set_ylim(0, 2.2 * dens.max())
        self.edge_lines = self.animate(LineCollection([], colors="0.45", lw=0.8,
                                                      linestyles=":"))
        self.ax_d.add_collection(self.edge_lines)
        self.ax_d.set_ylabel("density  p(x | y)")
        self.ax_d.legend(fontsize="small", loc="upper right", title="solid: bins, dashed: Gaussian",
                         title_fontsize="small")
        self.ax_p.set_ylim(-0.02, 1.02)
        self.ax_p.set_ylabel("posterior P(y | x)")
        self.ax_p.set_xlabel(xlabel)
        self.ax_p.set_xlim(*self.lim)
        self.ax_d.set_title("naive Bayes on bins vs Gaussian naive Bayes", fontsize="medium")
        self.params = {"width": width, "origin": origin, "alpha": alpha}
        self.update()
        self.finish_layout()

    def update(self, **params) -> None:
        new = {**self.params, **params}
        width = check_scalar(new["width"], "width", low=0.0, low_open=True)
        origin = check_scalar(new["origin"], "origin")
        alpha = check_scalar(new["alpha"], "alpha", low=0.0)
        d = discretization(self.x, self.y, width=width, origin=origin, alpha=alpha, lim=self.lim)
        self.params = new
        lo, hi = self.lim
        edges, n_bins, nb = d.edges, d.n_bins, d.binned
        grid_bins = discretize(self.grid, edges)
        widths = np.diff(np.concatenate([[lo], edges, [hi]]))
        table = np.exp(nb.feature_log_prob_[0])  # (K, n_bins)
        ok = True
        try:
            post = nb.predict_proba(grid_bins[:, None])
        except ValueError:
            ok, post = False, np.full((self.grid.size, len(self.classes)), np.nan)
        for k in range(len(self.classes)):
            self.steps[k].set_data(self.grid, table[k, grid_bins - 1] / widths[grid_bins - 1])
            self.post_lines[k].set_data(self.grid, np.nan_to_num(post[:, k], nan=0.0))
        self.edge_lines.set_segments([[(e, 0), (e, 1e9)] for e in edges])
        acc = d.accuracy_binned if ok else float("nan")
        if not ok:
            raise ValueError("with alpha = 0 some bins are empty in every class: the posterior "
                             "there is 0/0; raise alpha")
        self.state = {"edges": edges, "n_bins": n_bins, "width": width, "alpha": alpha,
                      "table": table, "accuracy_binned": acc, "accuracy_gaussian": d.accuracy_gaussian}

    def describe(self) -> str:
        """Alt text from the state: bins and both models' accuracies."""
        s = self.state
        return (f"Naive Bayes on a feature cut into {s['n_bins']} bins of width "
                f"{fmt(s['width'])} (α = {fmt(s['alpha'])}): top, the binned class densities "
                f"as steps over the Gaussian fits (dashed); bottom, the posterior P(y | x) of "
                f"both models for {len(self.classes)} classes. Training accuracy "
                f"{fmt(s['accuracy_binned'])} binned vs {fmt(s['accuracy_gaussian'])} Gaussian.")


# ----------------------------------------------------------------------------- NB vs GDA
class NBvsGDAView(View):
    """Gaussian naive Bayes (axis-aligned ellipses) vs GDA (tilted, shared) on correlated data.

    Two classes share the covariance ``[[1, rho], [rho, 1]]``; their means differ by ``sep``
    along ``x_1`` only. Naive Bayes then ignores ``x_2`` (same mean in both classes: a vertical
    boundary), while GDA uses ``x_2`` to explain away the correlated part of ``x_1``: its
    boundary tilts (normal ``Sigma^{-1} (mu_1 - mu_0)``) and its accuracy grows with ``|rho|``. ``update(rho=...)``
    re-creates the data from fixed standard-normal draws (seeded), refits both models and
    redraws ellipses (1 and 2 sigma) and the decision regions (shaded: where ``P(y=1|x) > 1/2``).
    ``state``: ``rho``, ``accuracy_nb``, ``accuracy_gda`` (on 2000 test points; the explorer's
    readout shows them).
    """

    PARAMS = ("rho",)

    def __init__(self, rho=0.8, *, sep=1.5, n=120, seed=0, lim=4.0, n_grid=81,
                 figsize=None):
        self.sep, self.n, self.seed = float(sep), n, seed
        self.grid = grid_2d(lim, n_grid)
        fig = new_figure(figsize or explorer_figsize(7.8, 4.0))
        super().__init__(fig)
        self.axes = fig.subplots(1, 2)
        self.scatter, self.ellipses, self.regions = [], [], []
        cmap = ListedColormap([light(CLASS_COLORS[0], 0.85), light(CLASS_COLORS[1], 0.85)])
        for ax, title in zip(self.axes, ["naive Bayes: diagonal Σₖ",
                                         "GDA: full shared Σ"]):
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
            ax.set_aspect("equal")
            ax.set_xlabel("$x_1$")
            ax.set_ylabel("$x_2$")
            ax.set_title(title, fontsize="medium")
            self.regions.append(self.animate(ax.imshow(
                np.zeros(self.grid.shape), origin="lower", extent=self.grid.extent,
                cmap=cmap, vmin=0, vmax=1, interpolation="nearest", zorder=0)))
            sc = [self.animate(ax.scatter([], [], s=9, color=CLASS_COLORS[k], alpha=0.6,
                                          label=f"y = {k}")) for k in (0, 1)]
            el = [self.animate(ax.plot([], [], color=CLASS_COLORS[k], lw=lw)[0])
                  for k in (0, 1) for lw in (2.0, 1.0)]
            self.scatter.append(sc)
            self.ellipses.append(el)
        self.axes[0].legend(fontsize="small", loc="upper right")
        self.rho = float(rho)
        self.update()
        self.finish_layout()

    def update(self, **params) -> None:
        rho = check_scalar(params.get("rho", self.rho), "rho", low=-0.95, high=0.95)
        self.rho = rho
        r = nb_vs_gda(rho, sep=self.sep, n=self.n, seed=self.seed)  # data, both fits, accuracies
        nb, gda = r.naive_bayes, r.gda
        covs = [[np.diag(nb.var_[k]) for k in (0, 1)], [gda.covariance_] * 2]
        means = [nb.theta_, gda.means_]
        for m, model in enumerate((nb, gda)):
            for k in (0, 1):
                self.scatter[m][k].set_offsets(r.X[r.y == k])
                for i, level in enumerate((1.0, 2.0)):
                    pts = ellipse_points(means[m][k], covs[m][k], level)
                    self.ellipses[m][2 * k + i].set_data(pts[:, 0], pts[:, 1])
            self.regions[m].set_data(self.grid.evaluate(model.predict))
        self.state = {"rho": rho, "accuracy_nb": r.accuracy_nb, "accuracy_gda": r.accuracy_gda,
                      "nb_var": nb.var_.copy(), "gda_cov": np.array(gda.covariance_)}

    def describe(self) -> str:
        """Alt text from the state: ρ and both models' accuracies."""
        s = self.state
        return (f"Two panels on the same two-class data with correlation ρ = {fmt(s['rho'])}: "
                f"left, Gaussian naive Bayes with axis-aligned 1- and 2-sigma ellipses and its "
                f"decision regions (test accuracy {fmt(s['accuracy_nb'])}); right, GDA with "
                f"tilted ellipses sharing one covariance (test accuracy "
                f"{fmt(s['accuracy_gda'])}).")


# ----------------------------------------------------------------------------- KDE NB
class KDENBView(View):
    """Class densities of one feature by KDE (bandwidth ``h``) vs a Gaussian, and the posterior.

    Top: the KDE ``p(x | y)`` of each class (solid, changes with ``h``), the Gaussian fit
    (dashed), the data as ticks. Bottom: ``P(y | x)`` of KDE naive Bayes (solid) and Gaussian
    naive Bayes (dashed). ``state``: ``bandwidth``, ``accuracy_kde``, ``accuracy_gaussian``
    (on the test data when given, else training data).
    """

    PARAMS = ("bandwidth",)

    def __init__(self, x, y, x_test=None, y_test=None, *, bandwidth=0.3, xlabel="x",
                 n_grid=300, figsize=None):
        self.study = KDEvsGaussianNB(x, y, x_test, y_test)  # the fits and accuracies
        self.x, self.y = self.study.x, self.study.y
        self.xt, self.yt = self.study.x_test, self.study.y_test
        pad = 0.1 * np.ptp(self.x)
        self.grid = np.linspace(self.x.min() - pad, self.x.max() + pad, n_grid)
        gnb = self.study.gaussian
        self.classes = gnb.classes_.tolist()
        self.acc_gauss = self.study.accuracy_gaussian
        fig = new_figure(figsize or explorer_figsize(7.8, 5.0))
        super().__init__(fig)
        self.ax_d, self.ax_p = fig.subplots(2, 1, sharex=True)
        gauss = gnb.class_densities(self.grid[:, None])
        dens, post_g = gauss.density, gauss.posterior
        self.kde_lines, self.post_lines = [], []
        for k, c in enumerate(self.classes):
            col = CLASS_COLORS[k]
            self.ax_d.plot(self.grid, dens[:, k], "--", color=col, lw=1.2)
            self.kde_lines.append(self.animate(self.ax_d.plot([], [], color=col, lw=2,
                                                              label=f"{c}")[0]))
            sel = self.y == c
            self.ax_d.plot(self.x[sel], np.full(sel.sum(), 0.02 + 0.04 * k), "|", color=col,
                           ms=7, transform=self.ax_d.get_xaxis_transform())
            self.ax_p.plot(self.grid, post_g[:, k], "--", color=col, lw=1.2)
            self.post_lines.append(self.animate(self.ax_p.plot([], [], color=col, lw=2)[0]))
        self.ax_d.set_ylim(0, 1.6 * dens.max())
        self.ax_d.set_ylabel("density  p(x | y)")
        self.ax_d.legend(fontsize="small", loc="upper right",
                         title="solid: KDE, dashed: Gaussian", title_fontsize="small")
        self.ax_p.set_ylim(-0.02, 1.02)
        self.ax_p.set_ylabel("posterior P(y | x)")
        self.ax_p.set_xlabel(xlabel)
        self.ax_p.set_xlim(self.grid[0], self.grid[-1])
        self.ax_d.set_title("class densities: KDE vs Gaussian", fontsize="medium")
        self.bandwidth = bandwidth
        self.update()
        self.finish_layout()

    def update(self, **params) -> None:
        h = check_scalar(params.get("bandwidth", self.bandwidth), "bandwidth", low=0.0,
                         low_open=True)
        self.bandwidth = h
        fit = self.study.kde(h)
        kde = fit.model.class_densities(self.grid[:, None])
        for k in range(len(self.classes)):
            self.kde_lines[k].set_data(self.grid, kde.density[:, k])
            self.post_lines[k].set_data(self.grid, kde.posterior[:, k])
        self.state = {"bandwidth": h, "accuracy_kde": fit.accuracy, "accuracy_gaussian": self.acc_gauss}

    def describe(self) -> str:
        """Alt text from the state: the bandwidth and both models' accuracies."""
        s = self.state
        return (f"Top: class densities of one feature for {len(self.classes)} classes by KDE "
                f"with bandwidth {fmt(s['bandwidth'])} (solid) and by a Gaussian (dashed); "
                f"bottom: the posterior P(y | x) of both models. Accuracy "
                f"{fmt(s['accuracy_kde'])} with KDE naive Bayes vs "
                f"{fmt(s['accuracy_gaussian'])} with Gaussian naive Bayes.")
