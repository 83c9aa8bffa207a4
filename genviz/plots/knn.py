"""Views of k-nearest neighbours (notes Figs. 1.18, 1.19) and of random projections.

Each view's study (:mod:`genviz.studies.knn`) computes its neighbour structure once
(:class:`genviz.knn.SortedNeighbors`: the grid's neighbours sorted up to ``k_max``) and a slider
move only re-reads it: k picks a prefix, label noise re-labels the same neighbours, the
projection dimension picks precomputed ratios.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap, ListedColormap

from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.regions import decision_regions_figure  # one figure for every topic; re-exported
from genviz.plots.style import (CLASS_COLORS, PALETTE, by_layout, colorbar_below,
                                explorer_figsize, legend_columns, legend_or_under,
                                plane_axes, row_or_pair_over_one,
                                subplot_grid, text_size)
from genviz.studies.knn import (KNNClassificationResult, KNNClassificationStudy,
                                KNNRegressionResult, KNNRegressionStudy, ThreeClassNNResult,
                                three_class_nn_figure_study)
from genviz.studies.knn_projection import ProjectionResult, ProjectionStudy

__all__ = ["KNNClassificationView", "KNNRegressionView", "ProjectionView",
           "decision_regions_figure", "VOTE_CMAP", "REGION_CMAP"]

#: share of class-1 votes: class-0 colour -> white -> class-1 colour
VOTE_CMAP = LinearSegmentedColormap.from_list("votes", [CLASS_COLORS[0], "#ffffff", CLASS_COLORS[1]])
#: decision regions: light class colours
REGION_CMAP = ListedColormap(["#b9d3e8", "#f3c7a6"])


def _style(ax, lim, title):
    plane_axes(ax, (-lim, lim, -lim, lim), ylabel=False)  # x_2: the left column only, below
    ax.set_title(title, fontsize="medium")


class KNNClassificationView(View, study=KNNClassificationStudy):
    """Figure 1.18 made live: 1-NN regions, the vote share among k, the majority regions.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Training points.
    y : array_like of shape (n,), dtype=int
        Their class codes 0/1.
    X_test : array_like of shape (n_test, 2), optional
        Held-out points (clean labels) for the accuracy readout.
    y_test : array_like of shape (n_test,), optional
        Their labels.
    k, noise, qx, qy : initial slider values (noise = fraction of flipped training labels).
    k_max : largest k the view supports (neighbours are sorted once up to it).
    lim, n_grid : the square ``[-lim, lim]^2`` and its grid resolution.
    noise_seed : seed of the label flips (the flipped sets are nested as noise grows).

    ``update(k=, noise=, qx=, qy=)``; ``state`` is a
    :class:`~genviz.studies.knn.KNNClassificationResult`: ``k``, ``noise``, ``n_flipped``,
    ``labels`` (noisy), ``flipped``, ``votes`` (class-1 votes per grid point, (n_grid, n_grid)),
    ``majority``, ``one_nn`` (grids of class codes), ``train_error``, ``test_accuracy``,
    ``test_accuracy_1nn``, ``query``, ``query_neighbors``, ``query_votes``, ``query_class``,
    ``query_radius``.
    """

    def __init__(self, X, y, X_test=None, y_test=None, *, k=7, noise=0.0, qx=0.0, qy=0.0,
                 k_max=31, lim=4.0, n_grid=121, noise_seed=0, figsize=None):
        static = self.use_study(X, y, X_test, y_test, k_max=k_max, lim=lim, n_grid=n_grid,
                                noise_seed=noise_seed)
        self.X, self.k_max, self.lim = static.X, static.k_max, static.lim
        # narrow: 1-NN and votes side by side over the majority panel (stacked, 8.9 in high)
        fig = new_figure(figsize=figsize or explorer_figsize(
            7.8, 4.6, panels=by_layout((1, 3), (2, 1)), narrow_aspect=by_layout(None, 0.8)))
        super().__init__(fig)
        axes = row_or_pair_over_one(fig, sharey=True)
        self.axes = axes
        L, shape = self.lim, (static.n_grid, static.n_grid)
        ext = (-L, L, -L, L)
        self._img_1nn = axes[0].imshow(np.zeros(shape), origin="lower", extent=ext, cmap=REGION_CMAP,
                                       vmin=0, vmax=1, interpolation="nearest")
        self._img_votes = axes[1].imshow(np.zeros(shape), origin="lower", extent=ext, cmap=VOTE_CMAP,
                                         vmin=0, vmax=1, interpolation="nearest")
        self._img_major = axes[2].imshow(np.zeros(shape), origin="lower", extent=ext, cmap=REGION_CMAP,
                                         vmin=0, vmax=1, interpolation="nearest")
        self.animate(self._img_1nn, self._img_votes, self._img_major)
        self._points = []
        self._flipped_marks = []
        for ax in axes:  # one marker line per class: cheaper to draw than a scatter
            self._points.append([self.animate(ax.plot([], [], "o", ms=3.8, mfc=CLASS_COLORS[c],
                                                      mec="white", mew=0.4, zorder=3)[0])
                                 for c in (0, 1)])
            (mark,) = ax.plot([], [], "x", color=PALETTE["black"], ms=5, mew=1.2, zorder=4)
            self._flipped_marks.append(self.animate(mark))
        ax = axes[2]
        (self._ring,) = ax.plot([], [], "o", ms=10, mfc="none", mec=PALETTE["black"], mew=1.6,
                                zorder=5, label="k nearest neighbours")
        (self._circle,) = ax.plot([], [], "--", color=PALETTE["black"], lw=1.0, zorder=4)
        (self._query,) = ax.plot([], [], "*", ms=17, mfc=PALETTE["yellow"], mec=PALETTE["black"],
                                 zorder=6, label="query $x$")
        self.animate(self._ring, self._circle, self._query)
        _style(axes[0], L, "1-NN regions")
        _style(axes[1], L, by_layout("class-1 votes among k", "votes among k"))
        _style(axes[2], L, "k-NN majority, query")
        for panel in axes[::by_layout(3, 2)]:  # the left column's panels
            panel.set_ylabel("$x_2$")
        ax.plot([], [], "x", color=PALETTE["black"], label="flipped label")
        # below the figure: animated images are painted over anything static inside the axes
        fig.legend(handles=ax.get_legend_handles_labels()[0], loc="outside lower center",
                   ncol=legend_columns(3), fontsize="small", frameon=False)
        cbar = colorbar_below(fig, self._img_votes, axes[:by_layout(3, 2)], panel=1, fraction=0.05, aspect=50,
                              shrink=0.6)
        cbar.set_label("share of the k neighbours in class 1 (orange)", fontsize="small")
        cbar.ax.tick_params(labelsize="small")
        self.update(k=k, noise=noise, qx=qx, qy=qy)
        self.finish_layout()

    def paint(self, r: KNNClassificationResult, changed) -> None:
        self._img_1nn.set_data(r.one_nn)
        self._img_votes.set_data(r.vote_share)
        self._img_major.set_data(r.majority)
        for pts, mark in zip(self._points, self._flipped_marks):
            for line, P in zip(pts, r.class_points):
                line.set_data(P[:, 0], P[:, 1])
            mark.set_data(r.flipped_points[:, 0], r.flipped_points[:, 1])
        self._ring.set_data(r.neighbor_points[:, 0], r.neighbor_points[:, 1])
        self._circle.set_data(*r.circle)
        self._query.set_data([r.query[0]], [r.query[1]])

    def describe(self) -> str:
        """Alt text from the state: k, noise, accuracies and the query's vote."""
        s = self.state
        q, v = s["query"], s["query_votes"]
        acc = "" if not s["has_test_set"] else (
            f" Test accuracy {fmt(s['test_accuracy'])} (1-NN: {fmt(s['test_accuracy_1nn'])}).")
        return (f"Three panels of k-nearest-neighbour classification of {self.X.shape[0]} "
                f"two-class points with {s['n_flipped']} labels flipped (noise "
                f"{fmt(s['noise'])}): the 1-NN regions, the share of class-1 votes among the "
                f"k = {s['k']} neighbours, and the majority regions. The query at "
                f"({fmt(q[0])}, {fmt(q[1])}) is circled with its {s['k']} neighbours "
                f"({v[0]} of class 0, {v[1]} of class 1: class {s['query_class']}); "
                f"training error {fmt(s['train_error'])}.{acc}")


class KNNRegressionView(View, study=KNNRegressionStudy):
    """Figure 1.19 made live: the data, the 1-NN estimate, and the k-NN average.

    ``update(k=)``; ``state`` is a :class:`~genviz.studies.knn.KNNRegressionResult`: ``k``,
    ``x_grid``, ``fit_1``, ``fit_k`` and the mean squared error of both against the true
    regression function (``mse_1``, ``mse_k``).
    """

    def __init__(self, x, y, *, k=7, k_max=40, n_grid=600, truth=True, figsize=None):
        static = self.use_study(x, y, k_max=k_max, n_grid=n_grid, truth=truth)
        self.x, self.y, self.x_grid = static.x, static.y, static.x_grid
        # narrow: flat panels (three of the default 0.85 aspect are 8.9 in high)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.0, panels=(1, 3),
                                                             narrow_aspect=0.55))
        super().__init__(fig)
        axes = subplot_grid(fig, 1, 3, sharey=True)
        self.axes = axes
        titles = ("data $(x, y)$", "1-NN estimate", "k-NN average")
        for i, (ax, title) in enumerate(zip(axes, titles)):
            ax.scatter(self.x, self.y, s=10, color=PALETTE["sky"], edgecolor="none", alpha=0.9,
                       label="data")
            if static.truth is not None and i > 0:
                ax.plot(self.x_grid, static.truth, ":", color=PALETTE["black"], lw=1.2,
                        label="true mean E[y | x]")
            ax.set_title(title, fontsize="medium")
            ax.set_xlabel("$x$")
            ax.set_xlim(self.x_grid[0], self.x_grid[-1])
        axes[0].set_ylabel("$y$")
        axes[1].plot(self.x_grid, static.fit_1, color=PALETTE["vermillion"], lw=1.6, label="k = 1")
        (self._line,) = axes[2].plot(self.x_grid, static.fit_1, color=PALETTE["blue"], lw=2.0)
        self.animate(self._line)
        self._label = axes[2].text(0.03, 0.95, "", transform=axes[2].transAxes, va="top",
                                   fontsize="medium")
        self.animate(self._label)
        legend_or_under(axes[1], loc="lower right", fontsize=text_size("x-small"))
        self.update(k=k)
        self.finish_layout()

    def paint(self, r: KNNRegressionResult, changed) -> None:
        self._line.set_ydata(r.fit_k)
        self._label.set_text(f"k = {r.k}")

    def describe(self) -> str:
        """Alt text from the state: k and both fits' errors."""
        s = self.state
        mse = "" if not s["has_truth"] else (
            f"; mean squared error against the true function {fmt(s['mse_1'])} for 1-NN and "
            f"{fmt(s['mse_k'])} for k = {s['k']}")
        return (f"k-nearest-neighbour regression of {self.x.size} points: the jagged 1-NN "
                f"estimate and the smoother average of the k = {s['k']} nearest neighbours"
                f"{mse}.")


class ProjectionView(View, study=ProjectionStudy):
    """Distance ratios ``|R x_i - R x_j| / |x_i - x_j|`` after a Gaussian projection to d dims.

    Left: histogram of the ratios with the notes' band ``1 +- eps``. Right: the spread and the
    worst distortion against d (computed once for every d), the current d, and the JL bound.
    Uses ``R`` with N(0, 1/d) entries (``scaling="jl"``); with the same seed the projections for
    different d share rows, so the picture changes smoothly.

    ``update(d=, eps=)``; ``state`` is a :class:`~genviz.studies.knn_projection.ProjectionResult`:
    ``d``, ``eps``, ``ratios``, ``stats`` (:func:`genviz.projections.distortion_stats`),
    ``jl_dim`` and ``dims``/``max_distortion``/``std``.
    """

    def __init__(self, X, *, d=10, eps=0.5, d_max=None, seed=0, bins=60, r_max=2.0,
                 figsize=None):
        static = self.use_study(X, d_max=d_max, seed=seed, bins=bins, r_max=r_max)
        self.d_max, self.dims, self.edges = static.d_max, static.dims, static.edges
        self.n_points, self.n_features = static.n_points, static.n_features
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.7, panels=(1, 2)))
        super().__init__(fig)
        ax, ax2 = subplot_grid(fig, 1, 2, width_ratios=[1.1, 1])
        self.axes = (ax, ax2)
        self._hist = self.animate(ax.stairs(np.zeros(len(self.edges) - 1), self.edges, fill=True,
                                            color=PALETTE["sky"], alpha=0.8))
        self._band = [self.animate(ax.axvline(v, color=PALETTE["vermillion"], ls="--", lw=1.5))
                      for v in (0.5, 1.5)]
        ax.axvline(1.0, color=PALETTE["black"], lw=1.0)
        ax.set_xlim(self.edges[0], self.edges[-1])
        ax.set_ylim(0, 1)
        ax.set_xlabel(r"ratio $\|Rx_i - Rx_j\| \,/\, \|x_i - x_j\|$")
        ax.set_ylabel("frequency (peak = 1)")
        ax.set_title(f"{static.n_pairs} pairs, {self.n_features} → d", fontsize="medium")
        self._text = self.animate(ax.text(0.985, 0.97, "", transform=ax.transAxes, va="top", ha="right",
                                          fontsize="small", family="monospace", zorder=10,
                                          bbox=dict(boxstyle="round", fc="white", ec="0.7",
                                                    alpha=0.9)))
        ax2.plot(self.dims, static.max_distortion, color=PALETTE["vermillion"],
                 label="worst |ratio - 1|")
        ax2.plot(self.dims, static.std, color=PALETTE["blue"], label="std of ratios")
        ax2.plot(self.dims, static.spread_bound, ":", color=PALETTE["black"],
                 label=r"$1/\sqrt{2d}$")
        self._cur = self.animate(ax2.axvline(d, color=PALETTE["green"], lw=2, label="current d"))
        self._eps_line = self.animate(ax2.axhline(eps, color=PALETTE["vermillion"], ls="--", lw=1,
                                                  label=r"$\epsilon$"))
        ax2.set_xlim(1, self.d_max)
        ax2.set_ylim(0, static.top)
        ax2.set_xlabel("target dimension d")
        # inside, upper right: the curves fall from the upper left (above the axes it was
        # wider than the panel at lecture sizes)
        ax2.legend(loc="upper right", fontsize=text_size("x-small"), framealpha=0.9)
        self.update(d=d, eps=eps)
        self.finish_layout()

    def paint(self, r: ProjectionResult, changed) -> None:
        self._hist.set_data(r.hist)
        self._band[0].set_xdata([r.band[0], r.band[0]])
        self._band[1].set_xdata([r.band[1], r.band[1]])
        self._cur.set_xdata([r.d, r.d])
        self._eps_line.set_ydata([r.eps, r.eps])
        stats = r.stats
        self._text.set_text(f"d = {r.d}\nmean {stats['mean']:.3f}  std {stats['std']:.3f}\n"
                            f"within 1±ε: {100 * stats['within']:.1f}%\n"
                            f"JL bound: d ≥ {r.jl_dim}")

    def describe(self) -> str:
        """Alt text from the state: d, ε, the spread of the distance ratios and the JL bound."""
        s, st = self.state, self.state["stats"]
        return (f"Random projection of {self.n_points} points from {self.n_features} to "
                f"d = {s['d']} dimensions: histogram of the pairwise distance ratios "
                f"(mean {fmt(st['mean'])}, standard deviation {fmt(st['std'])}, "
                f"{fmt(100 * st['within'])} % within 1 ± ε for ε = {fmt(s['eps'])}); right, the "
                f"spread and worst distortion against d, with the Johnson–Lindenstrauss bound "
                f"d ≥ {s['jl_dim']}.")


# --- static figure of Smola's Fig. 1.17 (appended; notebook 09) ----------------------------------

__all__ += ["three_class_nn_figure"]


def three_class_nn_figure(X, y, query, *, markers=("*", "D", "^"), names=None, box=None,
                          n_grid=300, figsize=(5.6, 5.0)):
    """Smola's Fig. 1.17: a 1-nearest-neighbour classifier with three classes (star, diamond,
    triangle). The background shows the class of the nearest training point everywhere (the
    Voronoi cells merged by label); the query ``x`` is joined to its nearest neighbour, whose
    label it gets.

    Returns the figure; ``fig.nn_state`` holds the query's neighbour index, distance and label.
    """
    return _paint_three_class_nn(three_class_nn_figure_study(
        X, y, query, markers=markers, names=names, box=box, n_grid=n_grid), figsize=figsize)


def _paint_three_class_nn(r: ThreeClassNNResult, *, figsize=(5.6, 5.0)):
    q, box = r.query, r.box
    colors = CLASS_COLORS[:r.labels.size]
    fig = new_figure(figsize=figsize)
    ax = fig.add_subplot()
    ax.imshow(r.region, origin="lower", extent=box, cmap=ListedColormap(colors), alpha=0.18,
              aspect="auto", interpolation="nearest")
    ax.contour(r.xs, r.ys, r.region, levels=r.region_levels, colors="0.35", linewidths=0.8)
    for P, marker, color, name in zip(r.class_points, r.markers, colors, r.names):
        ax.scatter(P[:, 0], P[:, 1], marker=marker, s=110 if marker == "*" else 60,
                   color=color, edgecolors="k", linewidths=0.6, label=str(name), zorder=3)
    nb = r.neighbour_point
    ax.plot([q[0, 0], nb[0]], [q[0, 1], nb[1]], color="k", lw=1.2, ls="--", zorder=2)
    ax.scatter(q[:, 0], q[:, 1], marker="o", s=90, facecolors="white", edgecolors="k",
               linewidths=1.5, zorder=4, label="query $x$")
    ax.annotate("$x$", q[0], xytext=(8, 8), textcoords="offset points", fontsize="large")
    ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
    ax.set_title(f"1-NN with three classes: x gets the label\nof its nearest neighbour "
                 f"({r.neighbour_name})", fontsize="medium")
    ax.legend(fontsize="small", loc="upper left", framealpha=0.9)
    finish_layout(fig)
    fig.nn_state = r.nn_state
    return fig
