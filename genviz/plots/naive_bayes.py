"""Views of naive Bayes: count tables and Laplace smoothing, discretising a continuous feature,
naive Bayes vs GDA ellipses, KDE naive Bayes, and decision regions side by side."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from genviz.plots._base import View, fmt, new_figure
from genviz.plots.regions import decision_regions_figure  # one regions figure; re-exported
from genviz.plots.style import (CLASS_COLORS, FIGURE_WIDTH_BUDGET, PALETTE, by_layout,
                                explorer_figsize, grouped_bar_positions, is_narrow_mode, light,
                                narrow_top_and_pairs, plane_axes, subplot_grid, table_panel_grid)
from genviz.studies.naive_bayes import (CategoricalNBResult, CategoricalNBStudy,
                                        DiscretizeResult, DiscretizeStudy, KDENBResult,
                                        KDENBStudy, NBvsGDAResult, NBvsGDAStudy)

__all__ = ["CategoricalNBView", "DiscretizeView", "NBvsGDAView", "KDENBView",
           "decision_regions_figure"]


# ----------------------------------------------------------------------------- count tables
class CategoricalNBView(View, study=CategoricalNBStudy):
    """Every smoothed table ``P(X_j = v | y)`` as grouped bars, and the posterior of a query.

    ``update(alpha=..., <feature>=<value>, ...)`` refits the counts with Laplace/Lidstone
    ``alpha`` (bars change height) and moves the query (the queried value of each feature is
    outlined in black). ``state`` is a :class:`~genviz.studies.naive_bayes.CategoricalNBResult`:
    ``alpha``, ``query``, ``tables`` (list of (K, n_j)), and ``explain`` (the dict of
    :meth:`CategoricalNB.explain`: prior, factors, joint scores, normaliser, posterior,
    decision; posterior None when it is 0/0).
    """

    def __init__(self, X, y, feature_names, *, alpha=1.0, query=None, figsize=None):
        static = self.use_study(X, y, feature_names, alpha=alpha, query=query)
        self.names, self.classes, self.categories = static.names, static.classes, static.categories
        d, K = len(self.names), len(self.classes)
        # at most 4 panels per row (2-3 in lecture style): 7 panels (EnjoySport) wrap to more rows
        # within the width budget. In lecture style the figure is narrower (6.4 in), leaving
        # the counting table beside it a column wide enough to read it as a table.
        nrows, ncols = table_panel_grid(d + 1)
        # on a phone the posterior, which every control moves, comes first, right under the
        # controls, across the figure; the tables follow two a row (stacked, EnjoySport's seven
        # panels were 10.9 in high, two phone screens)
        pairs = is_narrow_mode() and d >= 2
        fig = new_figure(figsize or explorer_figsize(
            FIGURE_WIDTH_BUDGET, 2.3 * nrows + 0.5, lecture_box=(6.4, 5.6),
            panels=(1 + -(-d // 2), 1) if pairs else (nrows, ncols), narrow_aspect=0.45))
        super().__init__(fig)
        if pairs:
            post, tables = narrow_top_and_pairs(fig, d)
        else:
            axes = subplot_grid(fig, nrows, ncols, squeeze=False).ravel()
            for ax in axes[d + 1:]:
                ax.set_visible(False)
            tables, post = by_layout((axes[:d], axes[d]), (axes[1:d + 1], axes[0]))
        self.bars = []
        for j, ax in enumerate(tables):
            positions, w = grouped_bar_positions(len(self.categories[j]), K)
            per_class = []
            for k in range(K):
                bars = ax.bar(positions[k], np.zeros(len(self.categories[j])), w,
                              color=CLASS_COLORS[k], label=f"y = {self.classes[k]}")
                self.animate(*bars)
                per_class.append(bars)
            self.bars.append(per_class)
            ax.set_xticks(np.arange(len(self.categories[j])),
                          [str(c) for c in self.categories[j]], fontsize="small")
            ax.set_ylim(0, 1.08)
            ax.set_title(f"P({self.names[j]} | y)", fontsize="medium")
        fig.legend(handles=[Patch(color=CLASS_COLORS[k], label=f"y = {self.classes[k]}")
                            for k in range(K)], ncols=K,
                   loc="outside upper center", fontsize="small", frameon=False)
        ax = self.ax_post = post
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
        self.update()
        self.finish_layout()

    def paint(self, r: CategoricalNBResult, changed) -> None:
        for j, per_class in enumerate(self.bars):
            for k, bars in enumerate(per_class):
                for i, bar in enumerate(bars):
                    bar.set_height(r.tables[j][k, i])
                    bar.set_edgecolor("black")
                    bar.set_linewidth(2.2 if r.outlined[j][i] else 0.0)
        for k, bar in enumerate(self.post_bars):
            p = r.posterior_heights[k]
            bar.set_height(p)
            self.post_text[k].set_text("" if r.undefined else f"{p:.3f}")
            self.post_text[k].set_y(p + 0.01)
        self.undefined.set_text("" if not r.undefined else
                                "P(x) = 0 for\nevery class:\n0/0 undefined.\n"
                                "Raise α above 0.")

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
class DiscretizeView(View, study=DiscretizeStudy):
    """A continuous feature cut into bins of ``width`` starting at ``origin`` (the CS229
    living-area idea), naive Bayes on the bin index vs Gaussian naive Bayes.

    Top: per class, the binned density ``P(bin | y) / bin width`` (steps) and the Gaussian fit
    (dashed). Bottom: posterior ``P(y | x)`` of both models. ``state`` is a
    :class:`~genviz.studies.naive_bayes.DiscretizeResult`: ``edges``, ``n_bins``,
    ``accuracy_binned``, ``accuracy_gaussian`` (training accuracy).
    """

    def __init__(self, x, y, *, width, origin=0.0, alpha=1.0, xlabel="x", lim=None,
                 n_grid=500, figsize=None):
        static = self.use_study(x, y, lim=lim, n_grid=n_grid)
        self.lim, self.grid, self.classes = static.lim, static.grid, static.classes
        fig = new_figure(figsize or explorer_figsize(7.8, 5.0, panels=(2, 1)))
        super().__init__(fig)
        self.ax_d, self.ax_p = subplot_grid(fig, 2, 1, sharex=True)
        self.steps, self.post_lines = [], []
        for k, c in enumerate(self.classes):
            col = CLASS_COLORS[k]
            self.ax_d.plot(self.grid, static.gaussian_density[k], "--", color=col, lw=1.2)
            self.steps.append(self.animate(self.ax_d.plot([], [], color=col, lw=2,
                                                          label=f"{c}")[0]))
            xk = static.class_x[k]
            self.ax_d.plot(xk, np.full(len(xk), 0.02 + 0.04 * k),
                           "|", color=col, ms=6, transform=self.ax_d.get_xaxis_transform())
            self.ax_p.plot(self.grid, static.gaussian_posterior[:, k], "--", color=col, lw=1.2)
            self.post_lines.append(self.animate(self.ax_p.plot([], [], color=col, lw=2)[0]))
        self.ax_d.set_ylim(0, static.density_top)
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
        self.ax_d.set_title("naive Bayes on bins" + by_layout(" ", "\n")  # narrow: two lines
                            + "vs Gaussian naive Bayes", fontsize="medium")
        self.update(width=width, origin=origin, alpha=alpha)
        self.finish_layout()

    def paint(self, r: DiscretizeResult, changed) -> None:
        for k in range(len(self.classes)):
            self.steps[k].set_data(self.grid, r.steps[k])
            self.post_lines[k].set_data(self.grid, r.posterior[k])
        self.edge_lines.set_segments(r.edge_segments)

    def describe(self) -> str:
        """Alt text from the state: bins and both models' accuracies."""
        s = self.state
        return (f"Naive Bayes on a feature cut into {s['n_bins']} bins of width "
                f"{fmt(s['width'])} (α = {fmt(s['alpha'])}): top, the binned class densities "
                f"as steps over the Gaussian fits (dashed); bottom, the posterior P(y | x) of "
                f"both models for {len(self.classes)} classes. Training accuracy "
                f"{fmt(s['accuracy_binned'])} binned vs {fmt(s['accuracy_gaussian'])} Gaussian.")


# ----------------------------------------------------------------------------- NB vs GDA
class NBvsGDAView(View, study=NBvsGDAStudy):
    """Gaussian naive Bayes (axis-aligned ellipses) vs GDA (tilted, shared) on correlated data.

    Two classes share the covariance ``[[1, rho], [rho, 1]]``; their means differ by ``sep``
    along ``x_1`` only. Naive Bayes then ignores ``x_2`` (same mean in both classes: a vertical
    boundary), while GDA uses ``x_2`` to explain away the correlated part of ``x_1``: its
    boundary tilts (normal ``Sigma^{-1} (mu_1 - mu_0)``) and its accuracy grows with ``|rho|``. ``update(rho=...)``
    re-creates the data from fixed standard-normal draws (seeded), refits both models and
    redraws ellipses (1 and 2 sigma) and the decision regions (shaded: where ``P(y=1|x) > 1/2``).
    ``state`` is a :class:`~genviz.studies.naive_bayes.NBvsGDAResult`: ``rho``,
    ``accuracy_nb``, ``accuracy_gda`` (on 2000 test points; the explorer's readout shows them).
    """

    def __init__(self, rho=0.8, *, sep=1.5, n=120, seed=0, lim=4.0, n_grid=81,
                 figsize=None):
        static = self.use_study(sep=sep, n=n, seed=seed, lim=lim, n_grid=n_grid)
        lim = static.lim
        fig = new_figure(figsize or explorer_figsize(7.8, 4.0, panels=(1, 2)))
        super().__init__(fig)
        self.axes = subplot_grid(fig, 1, 2)
        self.scatter, self.ellipses, self.regions = [], [], []
        cmap = ListedColormap([light(CLASS_COLORS[0], 0.85), light(CLASS_COLORS[1], 0.85)])
        for ax, title in zip(self.axes, ["naive Bayes: diagonal Σₖ",
                                         "GDA: full shared Σ"]):
            plane_axes(ax, (-lim, lim, -lim, lim))
            ax.set_title(title, fontsize="medium")
            self.regions.append(self.animate(ax.imshow(
                np.zeros(static.shape), origin="lower", extent=static.extent,
                cmap=cmap, vmin=0, vmax=1, interpolation="nearest", zorder=0)))
            sc = [self.animate(ax.scatter([], [], s=9, color=CLASS_COLORS[k], alpha=0.6,
                                          label=f"y = {k}")) for k in (0, 1)]
            el = [self.animate(ax.plot([], [], color=CLASS_COLORS[k], lw=lw)[0])
                  for k in (0, 1) for lw in (2.0, 1.0)]
            self.scatter.append(sc)
            self.ellipses.append(el)
        self.axes[0].legend(fontsize="small", loc="upper right")
        self.update(rho=rho)
        self.finish_layout()

    def paint(self, r: NBvsGDAResult, changed) -> None:
        for m in (0, 1):
            for k in (0, 1):
                self.scatter[m][k].set_offsets(r.class_points[k])
            for line, pts in zip(self.ellipses[m], r.ellipses[m]):
                line.set_data(pts[:, 0], pts[:, 1])
            self.regions[m].set_data(r.regions[m])

    def describe(self) -> str:
        """Alt text from the state: ρ and both models' accuracies."""
        s = self.state
        return (f"Two panels on the same two-class data with correlation ρ = {fmt(s['rho'])}: "
                f"left, Gaussian naive Bayes with axis-aligned 1- and 2-sigma ellipses and its "
                f"decision regions (test accuracy {fmt(s['accuracy_nb'])}); right, GDA with "
                f"tilted ellipses sharing one covariance (test accuracy "
                f"{fmt(s['accuracy_gda'])}).")


# ----------------------------------------------------------------------------- KDE NB
class KDENBView(View, study=KDENBStudy):
    """Class densities of one feature by KDE (bandwidth ``h``) vs a Gaussian, and the posterior.

    Top: the KDE ``p(x | y)`` of each class (solid, changes with ``h``), the Gaussian fit
    (dashed), the data as ticks. Bottom: ``P(y | x)`` of KDE naive Bayes (solid) and Gaussian
    naive Bayes (dashed). ``state`` is a :class:`~genviz.studies.naive_bayes.KDENBResult`:
    ``bandwidth``, ``accuracy_kde``, ``accuracy_gaussian`` (on the test data when given, else
    training data).
    """

    def __init__(self, x, y, x_test=None, y_test=None, *, bandwidth=0.3, xlabel="x",
                 n_grid=300, figsize=None):
        static = self.use_study(x, y, x_test, y_test, n_grid=n_grid)
        self.grid, self.classes = static.grid, static.classes
        self.acc_gauss = static.accuracy_gaussian
        fig = new_figure(figsize or explorer_figsize(7.8, 5.0, panels=(2, 1)))
        super().__init__(fig)
        self.ax_d, self.ax_p = subplot_grid(fig, 2, 1, sharex=True)
        dens, post_g = static.gaussian_density, static.gaussian_posterior
        self.kde_lines, self.post_lines = [], []
        for k, c in enumerate(self.classes):
            col = CLASS_COLORS[k]
            self.ax_d.plot(self.grid, dens[:, k], "--", color=col, lw=1.2)
            self.kde_lines.append(self.animate(self.ax_d.plot([], [], color=col, lw=2,
                                                              label=f"{c}")[0]))
            xk = static.class_x[k]
            self.ax_d.plot(xk, np.full(len(xk), 0.02 + 0.04 * k), "|", color=col,
                           ms=7, transform=self.ax_d.get_xaxis_transform())
            self.ax_p.plot(self.grid, post_g[:, k], "--", color=col, lw=1.2)
            self.post_lines.append(self.animate(self.ax_p.plot([], [], color=col, lw=2)[0]))
        self.ax_d.set_ylim(0, static.density_top)
        self.ax_d.set_ylabel("density  p(x | y)")
        self.ax_d.legend(fontsize="small", loc="upper right",
                         title="solid: KDE, dashed: Gaussian", title_fontsize="small")
        self.ax_p.set_ylim(-0.02, 1.02)
        self.ax_p.set_ylabel("posterior P(y | x)")
        self.ax_p.set_xlabel(xlabel)
        self.ax_p.set_xlim(self.grid[0], self.grid[-1])
        self.ax_d.set_title("class densities: KDE vs Gaussian", fontsize="medium")
        self.update(bandwidth=bandwidth)
        self.finish_layout()

    def paint(self, r: KDENBResult, changed) -> None:
        for k in range(len(self.classes)):
            self.kde_lines[k].set_data(self.grid, r.density[:, k])
            self.post_lines[k].set_data(self.grid, r.posterior[:, k])

    def describe(self) -> str:
        """Alt text from the state: the bandwidth and both models' accuracies."""
        s = self.state
        return (f"Top: class densities of one feature for {len(self.classes)} classes by KDE "
                f"with bandwidth {fmt(s['bandwidth'])} (solid) and by a Gaussian (dashed); "
                f"bottom: the posterior P(y | x) of both models. Accuracy "
                f"{fmt(s['accuracy_kde'])} with KDE naive Bayes vs "
                f"{fmt(s['accuracy_gaussian'])} with Gaussian naive Bayes.")
