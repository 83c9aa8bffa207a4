"""Views of k-nearest neighbours (notes Figs. 1.18, 1.19) and of random projections.

Each view computes its neighbour structure once (:class:`genviz.knn.SortedNeighbors`: the grid's
neighbours sorted up to ``k_max``) and a slider move only re-reads it: k picks a prefix, label
noise re-labels the same neighbours, the projection dimension picks precomputed ratios.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap, ListedColormap

from genviz._validation import check_int, check_labels, check_points, check_scalar, check_vector
from genviz.knn import (SortedNeighbors, kneighbors, majority_vote, nearest_neighbor_predict,
                        vote_counts, votes_at_k)
from genviz.projections import distortion_stats, jl_min_dim, projection_ratios
from genviz.samplers import LabelNoise
from genviz.synthetic import regression_truth
from genviz.grids import data_box, grid_2d
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.regions import decision_regions_figure  # one figure for every topic; re-exported
from genviz.plots.style import CLASS_COLORS, PALETTE, explorer_figsize

__all__ = ["KNNClassificationView", "KNNRegressionView", "ProjectionView",
           "decision_regions_figure", "VOTE_CMAP", "REGION_CMAP"]

#: share of class-1 votes: class-0 colour -> white -> class-1 colour
VOTE_CMAP = LinearSegmentedColormap.from_list("votes", [CLASS_COLORS[0], "#ffffff", CLASS_COLORS[1]])
#: decision regions: light class colours
REGION_CMAP = ListedColormap(["#b9d3e8", "#f3c7a6"])


def _style(ax, lim, title):
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.set_xlabel("$x_1$")
    ax.set_title(title, fontsize="medium")


class KNNClassificationView(View):
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

    ``update(k=, noise=, qx=, qy=)``; ``state`` has ``k``, ``noise``, ``n_flipped``,
    ``labels`` (noisy), ``flipped``, ``votes`` (class-1 votes per grid point, (n_grid, n_grid)),
    ``majority``, ``one_nn`` (grids of class codes), ``train_error``, ``test_accuracy``,
    ``test_accuracy_1nn``, ``query``, ``query_neighbors``, ``query_votes``, ``query_class``,
    ``query_radius``.
    """

    PARAMS = ("k", "noise", "qx", "qy")

    def __init__(self, X, y, X_test=None, y_test=None, *, k=7, noise=0.0, qx=0.0, qy=0.0,
                 k_max=31, lim=4.0, n_grid=121, noise_seed=0, figsize=None):
        self.X = check_points(X, "X", d=2)
        self.y = check_labels(y, self.X.shape[0], binary=True).astype(np.intp)
        self.k_max = check_int(k_max, "k_max", low=1, high=self.X.shape[0])
        self.lim = check_scalar(lim, "lim", low=0.0, low_open=True)
        self.noise_seed = check_int(noise_seed, "noise_seed", low=0)
        n_grid = check_int(n_grid, "n_grid", low=3)
        grid = grid_2d(self.lim, n_grid)
        self._xs = grid.xs
        self._grid_nb = SortedNeighbors(grid.points, self.X, self.k_max)  # the one expensive step
        self._test_nb = None
        if X_test is not None:
            Xt = check_points(X_test, "X_test", d=2)
            self.y_test = np.asarray(y_test)
            if self.y_test.shape != (Xt.shape[0],):
                raise ValueError(f"y_test must have one label per row of X_test, got shape "
                                 f"{self.y_test.shape}")
            self._test_nb = SortedNeighbors(Xt, self.X, self.k_max)
        self._train_nb = SortedNeighbors(self.X, self.X, self.k_max)
        self._noise = LabelNoise(self.y, 2, self.noise_seed)  # nested flips, each level once
        self.params = dict(k=k, noise=noise, qx=qx, qy=qy)

        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.6))
        super().__init__(fig)
        axes = fig.subplots(1, 3, sharey=True)
        self.axes = axes
        L, shape = self.lim, (n_grid, n_grid)
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
        _style(axes[1], L, "class-1 votes among k")
        _style(axes[2], L, "k-NN majority, query")
        axes[0].set_ylabel("$x_2$")
        ax.plot([], [], "x", color=PALETTE["black"], label="flipped label")
        # below the axes: animated images are painted over anything static inside them
        # below the figure: animated images are painted over anything static inside the axes
        fig.legend(handles=ax.get_legend_handles_labels()[0], loc="outside lower center",
                   ncol=3, fontsize="small", frameon=False)
        cbar = fig.colorbar(self._img_votes, ax=axes, orientation="horizontal",
                            location="bottom", fraction=0.05, aspect=50, shrink=0.6)
        cbar.set_label("share of the k neighbours in class 1 (orange)", fontsize="small")
        cbar.ax.tick_params(labelsize="small")
        self._theta = np.linspace(0, 2 * np.pi, 100)
        self.update(**self.params)
        self.finish_layout()

    def labels(self, noise):
        """Noisy training labels and the flipped mask for a noise level (cached)."""
        return self._noise(noise)

    def update(self, **params) -> None:
        new = {**self.params, **params}
        k = check_int(new["k"], "k", low=1)
        if k > self.k_max:
            raise ValueError(f"k = {k} exceeds k_max = {self.k_max} of this view")
        noise = check_scalar(new["noise"], "noise", low=0.0, high=1.0)
        q = np.array([check_scalar(new["qx"], "qx"), check_scalar(new["qy"], "qy")])
        self.params = new
        labels, flipped = self.labels(noise)
        shape = (len(self._xs), len(self._xs))
        nb = self._grid_nb
        grid_votes = votes_at_k(nb, labels, 2, k)  # equal votes -> class 0 (the smaller label)
        votes, majority = grid_votes.counts[:, 1], grid_votes.prediction
        one_nn = labels[nb.ind[:, 0]]
        self._img_1nn.set_data(one_nn.reshape(shape))
        self._img_votes.set_data((votes / k).reshape(shape))
        self._img_major.set_data(majority.reshape(shape))
        for pts, mark in zip(self._points, self._flipped_marks):
            for c, line in enumerate(pts):
                line.set_data(self.X[labels == c, 0], self.X[labels == c, 1])
            mark.set_data(self.X[flipped, 0], self.X[flipped, 1])

        dist, ind = kneighbors(q[None, :], self.X, k)
        qv = vote_counts(labels[ind], 2)[0]
        radius = float(dist[0, -1])
        self._ring.set_data(self.X[ind[0], 0], self.X[ind[0], 1])
        self._circle.set_data(q[0] + radius * np.cos(self._theta), q[1] + radius * np.sin(self._theta))
        self._query.set_data([q[0]], [q[1]])

        train_pred = votes_at_k(self._train_nb, labels, 2, k).prediction
        state = dict(k=k, noise=noise, n_flipped=int(flipped.sum()), labels=labels,
                     flipped=flipped, votes=votes.reshape(shape), majority=majority.reshape(shape),
                     one_nn=one_nn.reshape(shape), train_error=float(np.mean(train_pred != labels)),
                     query=q, query_neighbors=ind[0], query_votes=qv,
                     query_class=int(majority_vote(qv[None, :])[0]), query_radius=radius,
                     test_accuracy=float("nan"), test_accuracy_1nn=float("nan"))
        if self._test_nb is not None:
            pk = votes_at_k(self._test_nb, labels, 2, k).prediction
            state["test_accuracy"] = float(np.mean(pk == self.y_test))
            state["test_accuracy_1nn"] = float(np.mean(labels[self._test_nb.ind[:, 0]] == self.y_test))
        self.state = state

    def describe(self) -> str:
        """Alt text from the state: k, noise, accuracies and the query's vote."""
        s = self.state
        q, v = s["query"], s["query_votes"]
        acc = "" if s["test_accuracy"] != s["test_accuracy"] else (
            f" Test accuracy {fmt(s['test_accuracy'])} (1-NN: {fmt(s['test_accuracy_1nn'])}).")
        return (f"Three panels of k-nearest-neighbour classification of {self.X.shape[0]} "
                f"two-class points with {s['n_flipped']} labels flipped (noise "
                f"{fmt(s['noise'])}): the 1-NN regions, the share of class-1 votes among the "
                f"k = {s['k']} neighbours, and the majority regions. The query at "
                f"({fmt(q[0])}, {fmt(q[1])}) is circled with its {s['k']} neighbours "
                f"({v[0]} of class 0, {v[1]} of class 1: class {s['query_class']}); "
                f"training error {fmt(s['train_error'])}.{acc}")


class KNNRegressionView(View):
    """Figure 1.19 made live: the data, the 1-NN estimate, and the k-NN average.

    ``update(k=)``; ``state`` has ``k``, ``x_grid``, ``fit_1``, ``fit_k`` and the mean squared
    error of both against the true regression function (``mse_1``, ``mse_k``).
    """

    PARAMS = ("k",)

    def __init__(self, x, y, *, k=7, k_max=40, n_grid=600, truth=True, figsize=None):
        self.x = check_vector(x, "x")
        self.y = check_vector(y, "y", d=self.x.shape[0])
        self.k_max = check_int(k_max, "k_max", low=1, high=self.x.shape[0])
        lo, hi = float(self.x.min()), float(self.x.max())
        pad = 0.02 * (hi - lo) if hi > lo else 1.0
        self.x_grid = np.linspace(lo - pad, hi + pad, check_int(n_grid, "n_grid", low=2))
        self._nb = SortedNeighbors(self.x_grid[:, None], self.x[:, None], self.k_max)
        self._truth = regression_truth(self.x_grid) if truth else None
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.0))
        super().__init__(fig)
        axes = fig.subplots(1, 3, sharey=True)
        self.axes = axes
        titles = ("data $(x, y)$", "1-NN estimate", "k-NN average")
        for ax, title in zip(axes, titles):
            ax.scatter(self.x, self.y, s=10, color=PALETTE["sky"], edgecolor="none", alpha=0.9,
                       label="data")
            if self._truth is not None and ax is not axes[0]:
                ax.plot(self.x_grid, self._truth, ":", color=PALETTE["black"], lw=1.2,
                        label="true mean E[y | x]")
            ax.set_title(title, fontsize="medium")
            ax.set_xlabel("$x$")
            ax.set_xlim(self.x_grid[0], self.x_grid[-1])
        axes[0].set_ylabel("$y$")
        fit1 = self._nb.mean(self.y, 1)
        axes[1].plot(self.x_grid, fit1, color=PALETTE["vermillion"], lw=1.6, label="k = 1")
        (self._line,) = axes[2].plot(self.x_grid, fit1, color=PALETTE["blue"], lw=2.0)
        self.animate(self._line)
        self._label = axes[2].text(0.03, 0.95, "", transform=axes[2].transAxes, va="top",
                                   fontsize="medium")
        self.animate(self._label)
        axes[1].legend(loc="lower right", fontsize="x-small")
        self._fit1 = fit1
        self.params = dict(k=k)
        self.update(k=k)
        self.finish_layout()

    def update(self, **params) -> None:
        k = check_int(params.get("k", self.params["k"]), "k", low=1)
        if k > self.k_max:
            raise ValueError(f"k = {k} exceeds k_max = {self.k_max} of this view")
        self.params = dict(k=k)
        fit = self._nb.mean(self.y, k)
        self._line.set_ydata(fit)
        self._label.set_text(f"k = {k}")
        mse = (lambda f: float(np.mean((f - self._truth) ** 2))) if self._truth is not None else (
            lambda f: float("nan"))
        self.state = dict(k=k, x_grid=self.x_grid, fit_1=self._fit1, fit_k=fit,
                          mse_1=mse(self._fit1), mse_k=mse(fit))

    def describe(self) -> str:
        """Alt text from the state: k and both fits' errors."""
        s = self.state
        mse = "" if s["mse_k"] != s["mse_k"] else (
            f"; mean squared error against the true function {fmt(s['mse_1'])} for 1-NN and "
            f"{fmt(s['mse_k'])} for k = {s['k']}")
        return (f"k-nearest-neighbour regression of {self.x.size} points: the jagged 1-NN "
                f"estimate and the smoother average of the k = {s['k']} nearest neighbours"
                f"{mse}.")


class ProjectionView(View):
    """Distance ratios ``|R x_i - R x_j| / |x_i - x_j|`` after a Gaussian projection to d dims.

    Left: histogram of the ratios with the notes' band ``1 +- eps``. Right: the spread and the
    worst distortion against d (computed once for every d), the current d, and the JL bound.
    Uses ``R`` with N(0, 1/d) entries (``scaling="jl"``); with the same seed the projections for
    different d share rows, so the picture changes smoothly.

    ``update(d=, eps=)``; ``state`` has ``d``, ``eps``, ``ratios``, ``stats``
    (:func:`genviz.projections.distortion_stats`), ``jl_dim`` and ``dims``/``max_distortion``/``std``.
    """

    PARAMS = ("d", "eps")

    def __init__(self, X, *, d=10, eps=0.5, d_max=None, seed=0, bins=60, r_max=2.0,
                 figsize=None):
        self.X = check_points(X, "X")
        n = self.X.shape[1]
        self.d_max = check_int(n if d_max is None else d_max, "d_max", low=1)
        self.seed = check_int(seed, "seed", low=0)
        study = projection_ratios(self.X, self.d_max, self.seed)  # every d, computed once
        self.dims, self._ratios, self._stats = study.dims, study.ratios, study.stats
        self.edges = np.linspace(0.0, check_scalar(r_max, "r_max", low=1.0), check_int(bins, "bins", low=2) + 1)
        fig = new_figure(figsize=figsize or explorer_figsize(7.8, 3.7))
        super().__init__(fig)
        ax, ax2 = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1.1, 1]))
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
        ax.set_title(f"{len(self._ratios[0])} pairs, {n} → d", fontsize="medium")
        self._text = self.animate(ax.text(0.985, 0.97, "", transform=ax.transAxes, va="top", ha="right",
                                          fontsize="small", family="monospace", zorder=10,
                                          bbox=dict(boxstyle="round", fc="white", ec="0.7",
                                                    alpha=0.9)))
        worst = [s["max_distortion"] for s in self._stats]
        spread = [s["std"] for s in self._stats]
        ax2.plot(self.dims, worst, color=PALETTE["vermillion"], label="worst |ratio - 1|")
        ax2.plot(self.dims, spread, color=PALETTE["blue"], label="std of ratios")
        ax2.plot(self.dims, 1 / np.sqrt(2 * self.dims), ":", color=PALETTE["black"],
                 label=r"$1/\sqrt{2d}$")
        self._cur = self.animate(ax2.axvline(d, color=PALETTE["green"], lw=2, label="current d"))
        self._eps_line = self.animate(ax2.axhline(eps, color=PALETTE["vermillion"], ls="--", lw=1,
                                                  label=r"$\epsilon$"))
        ax2.set_xlim(1, self.d_max)
        ax2.set_ylim(0, min(1.5, max(worst) * 1.05))
        ax2.set_xlabel("target dimension d")
        # inside, upper right: the curves fall from the upper left (above the axes it was
        # wider than the panel at lecture sizes)
        ax2.legend(loc="upper right", fontsize="x-small", framealpha=0.9)
        self.params = dict(d=d, eps=eps)
        self.update(d=d, eps=eps)
        self.finish_layout()

    def update(self, **params) -> None:
        new = {**self.params, **params}
        d = check_int(new["d"], "d", low=1)
        if d > self.d_max:
            raise ValueError(f"d = {d} exceeds d_max = {self.d_max} of this view")
        eps = check_scalar(new["eps"], "eps", low=0.0, high=1.0, low_open=True, high_open=True)
        self.params = dict(d=d, eps=eps)
        r = self._ratios[d - 1]
        counts, _ = np.histogram(r, self.edges)
        self._hist.set_data(counts / max(counts.max(), 1))
        self._band[0].set_xdata([1 - eps, 1 - eps])
        self._band[1].set_xdata([1 + eps, 1 + eps])
        self._cur.set_xdata([d, d])
        self._eps_line.set_ydata([eps, eps])
        stats = distortion_stats(r, eps=eps)
        jl = jl_min_dim(self.X.shape[0], eps)
        self._text.set_text(f"d = {d}\nmean {stats['mean']:.3f}  std {stats['std']:.3f}\n"
                            f"within 1±ε: {100 * stats['within']:.1f}%\n"
                            f"JL bound: d ≥ {jl}")
        self.state = dict(d=d, eps=eps, ratios=r, stats=stats, jl_dim=jl, dims=self.dims,
                          max_distortion=np.array([s["max_distortion"] for s in self._stats]),
                          std=np.array([s["std"] for s in self._stats]))

    def describe(self) -> str:
        """Alt text from the state: d, ε, the spread of the distance ratios and the JL bound."""
        s, st = self.state, self.state["stats"]
        return (f"Random projection of {self.X.shape[0]} points from {self.X.shape[1]} to "
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
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    q = np.asarray(query, dtype=float).reshape(1, -1)
    if X.ndim != 2 or X.shape[1] != 2 or q.shape[1] != 2:
        raise ValueError(f"X must be (n, 2) and query a 2-vector, got {X.shape} and {q.shape}")
    first = np.unique(y, return_index=True)[1]
    labels = y[np.sort(first)]            # classes in order of first appearance: markers[i]
    if labels.size > len(markers):
        raise ValueError(f"{labels.size} classes but only {len(markers)} markers")
    names = list(labels) if names is None else list(names)
    grid = grid_2d(data_box(X, pad=1.0) if box is None else box, n_grid)
    box, xs, ys = grid.extent, grid.xs, grid.ys
    code = {lab: i for i, lab in enumerate(labels.tolist())}
    predicted = nearest_neighbor_predict(X, y, grid.points, 1)[0]
    region = grid.reshape(np.array([code[v] for v in predicted.tolist()]))
    colors = [CLASS_COLORS[i] for i in range(labels.size)]
    fig = new_figure(figsize=figsize)
    ax = fig.add_subplot()
    ax.imshow(region, origin="lower", extent=box, cmap=ListedColormap(colors), alpha=0.18,
              aspect="auto", interpolation="nearest")
    ax.contour(xs, ys, region, levels=np.arange(labels.size) + 0.5, colors="0.35",
               linewidths=0.8)
    for i, (lab, name) in enumerate(zip(labels, names)):
        P = X[y == lab]
        ax.scatter(P[:, 0], P[:, 1], marker=markers[i], s=110 if markers[i] == "*" else 60,
                   color=colors[i], edgecolors="k", linewidths=0.6, label=str(name), zorder=3)
    _, dist, ind = nearest_neighbor_predict(X, y, q, 1)
    j = int(ind[0, 0])
    ax.plot([q[0, 0], X[j, 0]], [q[0, 1], X[j, 1]], color="k", lw=1.2, ls="--", zorder=2)
    ax.scatter(q[:, 0], q[:, 1], marker="o", s=90, facecolors="white", edgecolors="k",
               linewidths=1.5, zorder=4, label="query $x$")
    ax.annotate("$x$", q[0], xytext=(8, 8), textcoords="offset points", fontsize="large")
    ax.set(xlim=box[:2], ylim=box[2:], xlabel="$x_1$", ylabel="$x_2$")
    ax.set_title(f"1-NN with three classes: x gets the label\nof its nearest neighbour "
                 f"({names[code[y[j].item() if hasattr(y[j], 'item') else y[j]]]})",
                 fontsize="medium")
    ax.legend(fontsize="small", loc="upper left", framealpha=0.9)
    finish_layout(fig)
    fig.nn_state = dict(neighbour=j, distance=float(dist[0, 0]), label=y[j].item()
                        if hasattr(y[j], "item") else y[j])
    return fig
