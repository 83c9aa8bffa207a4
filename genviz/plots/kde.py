"""Views of density estimation: histograms, kernels, KDE bumps, bandwidth and CV curves, 2-D KDE."""

from __future__ import annotations

import concurrent.futures

import matplotlib
import numpy as np
from matplotlib.collections import LineCollection

from genviz._validation import check_int, check_scalar
from genviz.kde import (KERNELS, RULES, claw_pdf, cv_curve, histogram, kde2d_grid, kde_bumps, kde_pdf,
                        kernel_pdf, rule_of_thumb, sample_claw)
from genviz.plots._base import View, finish_layout, fmt, new_figure, plain_text
from genviz.plots.style import CLASS_COLORS, DENSITY_CMAP, PALETTE, explorer_figsize

__all__ = ["kernels_figure", "bandwidth_figure", "cv_figure", "heldout_figure", "HistogramView",
           "KDEView", "BandwidthView", "KDE2DView"]

KERNEL_LABELS = {"gaussian": "Gaussian", "box": "box (slides)", "tophat": "tophat",
                 "epanechnikov": "Epanechnikov", "triangular": "triangular"}


def _rug(ax, data, color=PALETTE["black"]):
    return ax.plot(data, np.zeros_like(data), "|", color=color, ms=9, alpha=0.6,
                   label=f"data (n = {data.size})")[0]


def kernels_figure(kernels=KERNELS, *, lim: float = 2.2):
    """The kernels side by side, each a density ``K(u)`` at unit bandwidth."""
    kernels = list(kernels)
    u = np.linspace(-lim, lim, 881)
    # at most three panels a row (7.8 in: the output area at 1280 px), more rows below
    ncols = min(3, len(kernels))
    nrows = -(-len(kernels) // ncols)
    fig = new_figure(figsize=explorer_figsize(2.6 * ncols, 2.5 * nrows))
    axes = np.atleast_1d(fig.subplots(nrows, ncols, sharey=True, squeeze=False)).ravel()
    for ax in axes[len(kernels):]:
        ax.remove()
    axes = axes[:len(kernels)]
    for ax, name, color in zip(axes, kernels, CLASS_COLORS * 2):
        ax.fill_between(u, kernel_pdf(u, name), color=color, alpha=0.25, lw=0)
        ax.plot(u, kernel_pdf(u, name), color=color, lw=2)
        ax.set_title(KERNEL_LABELS[name], fontsize="medium")
        ax.set_xlabel("$u$")
        ax.set_ylim(0, 1.1)
        ax.grid(alpha=0.3)
    for ax in axes[::ncols]:
        ax.set_ylabel("$K(u)$")
    finish_layout(fig)
    return fig


def bandwidth_figure(data, h, *, x_range=(-3.0, 3.0), true_pdf=claw_pdf, n_grid: int = 801):
    """The slides' four panels: true density, over-fitted (h/10), just right (h), under-fitted (10h)."""
    h = check_scalar(h, "h", low=0.0, low_open=True)
    x = np.linspace(*x_range, n_grid)
    # 2 x 2 panels: four in a row are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 4.8))
    axes = fig.subplots(2, 2, sharex=True, sharey=True).ravel()
    panels = [("True density", true_pdf(x), PALETTE["black"]),
              (f"Overfitted: h/10 = {h / 10:.3g}", kde_pdf(x, data, h / 10), PALETTE["vermillion"]),
              (f"Just right: h = {h:.3g} (LOO CV)", kde_pdf(x, data, h), PALETTE["blue"]),
              (f"Underfitted: 10h = {10 * h:.3g}", kde_pdf(x, data, 10 * h), PALETTE["orange"])]
    for ax, (title, y, color) in zip(axes, panels):
        if color != PALETTE["black"]:
            ax.plot(x, true_pdf(x), color="0.6", lw=1, ls="--")
        ax.plot(x, y, color=color, lw=1.6)
        ax.set_title(title, fontsize="medium")
        ax.set_xlim(*x_range)
        ax.grid(alpha=0.3)
    for ax in axes[2:]:
        ax.set_xlabel("$x$")
    for ax in axes[::2]:
        ax.set_ylabel("density")
    axes[0].set_ylim(0, 1.15 * max(float(np.max(p[1])) for p in panels[:3]))
    finish_layout(fig)
    return fig


def cv_figure(data, hs, *, kernel: str = "gaussian"):
    """Both CV curves over ``hs`` with their optima marked and the rules of thumb beside them.

    Returns the figure; ``fig.cv_state`` holds the curves, the selected bandwidths and the rules.
    """
    hs = np.asarray(hs, dtype=float)
    loo = cv_curve(data, hs, "loo-likelihood", kernel)
    ls = cv_curve(data, hs, "lscv", kernel)
    rules = {r: rule_of_thumb(data, r, kernel) for r in RULES}
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    h_loo, h_ls = hs[int(np.argmax(loo))], hs[int(np.argmin(ls))]
    for ax, curve, best, title, ylabel, color in (
            (ax1, loo, h_loo, "Leave-one-out log-likelihood (higher is better)",
             r"$\frac{1}{n}\sum_i \log \hat f_{-i}(x_i)$", PALETTE["blue"]),
            (ax2, ls, h_ls, "Least-squares CV (lower is better)",
             r"$\int \hat f^2 - \frac{2}{n}\sum_i \hat f_{-i}(x_i)$", PALETTE["green"])):
        finite = np.isfinite(curve)
        ax.semilogx(hs[finite], curve[finite], color=color, lw=2)
        ax.plot([best], [curve[hs == best][0]], "o", color=color, ms=9, mec="k",
                label=f"optimum h = {best:.3g}")
        for (name, h), ls_ in zip(rules.items(), ("--", ":")):
            ax.axvline(h, color=PALETTE["vermillion"], ls=ls_, lw=1.5,
                       label=f"{name.capitalize()} h = {h:.3g}")
        ax.set_title(title, fontsize="medium")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3, which="both")
        # beside the axes: inside, the three entries cover the curve
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
        lo = np.percentile(curve[finite], 2 if ax is ax1 else 0)
        hi = np.percentile(curve[finite], 100 if ax is ax1 else 98)
        pad = 0.08 * (hi - lo)
        ax.set_ylim(lo - pad, hi + pad)
    ax2.set_xlabel("bandwidth $h$")
    finish_layout(fig)
    fig.cv_state = dict(hs=hs, loo=loo, lscv=ls, h_loo=h_loo, h_lscv=h_ls, **rules)
    return fig


def heldout_figure(hs, kde_scores, widths, hist_scores):
    """Held-out mean log-likelihood of KDEs (vs h) and histograms (vs bin width).

    ``-inf`` scores (a test point in an empty bin) are drawn as crosses on the bottom edge.
    """
    fig = new_figure(figsize=explorer_figsize(7.0, 4.0))
    ax = fig.add_subplot()
    for xs, ys, label, color, marker in ((hs, kde_scores, "KDE (Gaussian), x = h", PALETTE["blue"], "o"),
                                         (widths, hist_scores, "histogram, x = bin width",
                                          PALETTE["vermillion"], "s")):
        xs, ys = np.asarray(xs, float), np.asarray(ys, float)
        ok = np.isfinite(ys)
        ax.semilogx(xs[ok], ys[ok], marker=marker, color=color, label=label)
        if (~ok).any():
            ax.plot(xs[~ok], np.full((~ok).sum(), 0.0), "x", color=color, ms=10, mew=2,
                    transform=ax.get_xaxis_transform(), clip_on=False,
                    label=f"{label.split(',')[0]}: -inf (test point in an empty bin)")
    ax.set_xlabel("h or bin width")
    ax.set_ylabel("mean held-out log-likelihood")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small", loc="lower center", bbox_to_anchor=(0.5, 0.07))
    finish_layout(fig)
    return fig


class HistogramView(View):
    """A histogram density with adjustable bin width and origin, over the true density.

    ``update(width=, origin=)``; ``state`` has ``edges``, ``density``, ``n_bins``, ``width``,
    ``origin``, ``empty_bins``.
    """

    def __init__(self, data, width=0.3, origin=0.0, *, true_pdf=None, x_range=None,
                 min_width=0.05, figsize=None):
        self.data = np.asarray(data, dtype=float)
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.0, 4.0)))
        lo, hi = x_range if x_range is not None else (self.data.min() - 0.5, self.data.max() + 0.5)
        ax = self.ax = self.fig.add_subplot()
        self._stairs = self.animate(ax.stairs([0.0], [0.0, 1.0], fill=True, color=PALETTE["sky"],
                                              alpha=0.7, label="histogram"))
        if true_pdf is not None:
            x = np.linspace(lo, hi, 600)
            ax.plot(x, true_pdf(x), color=PALETTE["black"], lw=1.5, label="true density")
        _rug(ax, self.data)
        # fixed y range: the tallest histogram over the origins at the narrowest width
        top = max(histogram(self.data, min_width, o)[1].max()
                  for o in np.linspace(0, min_width, 5))
        ax.set_xlim(lo, hi)
        ax.set_ylim(0, 1.05 * top)
        ax.set_xlabel("$x$")
        ax.set_ylabel("density")
        ax.legend(loc="upper right", fontsize="small")
        ax.grid(alpha=0.3)
        self.params = dict(width=width, origin=origin)
        self.update(width=width, origin=origin)
        self.finish_layout()

    def update(self, **params):
        new = {**self.params, **params}
        edges, dens = histogram(self.data, new["width"], new["origin"])  # validates
        self.params = new
        self._stairs.set_data(dens, edges)
        self.state = dict(edges=edges, density=dens, n_bins=dens.size, width=new["width"],
                          origin=new["origin"], empty_bins=int(np.sum(dens == 0)))

    def describe(self) -> str:
        """Alt text from the state: bin width, origin, number of bins and empty bins."""
        s = self.state
        return (f"Histogram density estimate of {self.data.size} points with bin width "
                f"{fmt(s['width'])} and origin {fmt(s['origin'])}: {s['n_bins']} bins, "
                f"{s['empty_bins']} of them empty, tallest bar {fmt(s['density'].max())}, "
                f"drawn over the true density with the data as a rug.")


class KDEView(View):
    """The KDE as a sum of scaled bumps ``K_h(x - x_i)/n`` with bandwidth and kernel controls.

    ``update(h=, kernel=)``; ``state`` has ``x``, ``density``, ``bumps``, ``h``, ``kernel``,
    ``integral`` (trapezoid over the window: ~1).
    """

    def __init__(self, data, h=0.5, kernel="gaussian", *, true_pdf=None, x_range=None,
                 n_grid=500, ymax=None, figsize=None):
        self.data = np.asarray(data, dtype=float)
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.0, 4.0)))
        lo, hi = x_range if x_range is not None else (self.data.min() - 2.0, self.data.max() + 2.0)
        self.x = np.linspace(lo, hi, check_int(n_grid, "n_grid", low=10))
        ax = self.ax = self.fig.add_subplot()
        self._bumps = self.animate(ax.add_collection(LineCollection(
            [], colors=PALETTE["orange"], linewidths=1.0, alpha=0.9,
            label=r"bumps $K_h(x - x_i)/n$")))
        (self._sum,) = ax.plot([], [], color=PALETTE["blue"], lw=2.4, label=r"$\hat f(x)$ = sum")
        self.animate(self._sum)
        if true_pdf is not None:
            ax.plot(self.x, true_pdf(self.x), color=PALETTE["black"], lw=1.2, ls="--",
                    label="true density")
        _rug(ax, self.data)
        ax.set_xlim(lo, hi)
        ax.set_ylim(0, ymax if ymax is not None else 0.9)
        ax.set_xlabel("$x$")
        ax.set_ylabel("density")
        ax.legend(loc="upper right", fontsize="small")
        ax.grid(alpha=0.3)
        self.params = dict(h=h, kernel=kernel)
        self.update(h=h, kernel=kernel)
        self.finish_layout()

    def update(self, **params):
        new = {**self.params, **params}
        bumps = kde_bumps(self.x, self.data, new["h"], new["kernel"])  # validates
        self.params = new
        dens = bumps.sum(axis=0)
        segs = np.stack([np.broadcast_to(self.x, bumps.shape), bumps], axis=-1)
        self._bumps.set_segments(segs)
        self._sum.set_data(self.x, dens)
        self.state = dict(x=self.x, density=dens, bumps=bumps, h=float(new["h"]),
                          kernel=new["kernel"], integral=float(np.trapezoid(dens, self.x)))

    def describe(self) -> str:
        """Alt text from the state: bandwidth, kernel, the sum of bumps and its integral."""
        s = self.state
        i = int(s["density"].argmax())
        return (f"Kernel density estimate of {self.data.size} points as a sum of {s['kernel']} "
                f"bumps K_h(x − xᵢ)/n with bandwidth h = {fmt(s['h'])}: the estimate peaks at "
                f"{fmt(s['density'][i])} near x = {fmt(s['x'][i])} and integrates to "
                f"{fmt(s['integral'])} over the window.")


class BandwidthView(View):
    """Claw-density draws: the KDE at bandwidth h (top) and both CV curves with h marked (below).

    ``update(n=, h=)``: a new ``n`` re-draws the sample (seeded) and re-runs the fast CV sweeps;
    a new ``h`` only moves the KDE and the markers. ``state`` has ``n``, ``h``, ``hs``, ``loo``,
    ``lscv``, ``h_loo``, ``h_lscv``, ``silverman``, ``scott``, ``loo_at_h``, ``lscv_at_h``
    (interpolated from the sweeps), ``ise`` (integrated squared error of the KDE at h against the true claw).
    """

    def __init__(self, n=1000, h=0.05, *, seed=0, hs=None, x_range=(-3.0, 3.0), n_grid=400,
                 figsize=None):
        self.seed = check_int(seed, "seed", low=0)
        self.hs = np.geomspace(0.005, 1.5, 100) if hs is None else np.asarray(hs, dtype=float)
        self.x = np.linspace(*x_range, n_grid)
        self._truth = claw_pdf(self.x)
        # stacked: the KDE above its CV curves, within the output-area width budget
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.8, 5.8)))
        ax, cax = self.ax, self.cax = self.fig.subplots(2, 1)
        ax.plot(self.x, self._truth, color=PALETTE["black"], lw=1.2, ls="--", label="true claw")
        (self._kde,) = ax.plot([], [], color=PALETTE["blue"], lw=1.6, label=r"$\hat f_h$")
        ax.set_xlim(*x_range)
        ax.set_ylim(0, 1.0)
        ax.set_xlabel("$x$")
        ax.set_ylabel("density")
        ax.legend(loc="upper right", fontsize="small")
        ax.grid(alpha=0.3)
        (self._loo,) = cax.semilogx([], [], color=PALETTE["blue"], lw=2,
                                    label="LOO log-lik. (higher better)")
        self._ls_ax = cax.twinx()
        (self._ls,) = self._ls_ax.semilogx([], [], color=PALETTE["green"], lw=2,
                                           label="LSCV (lower better, right axis)")
        (self._loo_best,) = cax.plot([], [], "o", color=PALETTE["blue"], mec="k", ms=8)
        (self._ls_best,) = self._ls_ax.plot([], [], "o", color=PALETTE["green"], mec="k", ms=8)
        self._h_line = cax.axvline(1.0, color=PALETTE["vermillion"], lw=1.5, label="current h")
        self._silver = cax.axvline(1.0, color="0.4", ls=":", lw=1.5, label="Silverman")
        cax.set_xlim(self.hs.min(), self.hs.max())
        # fixed limits (they hold both curves' optima for claw samples of 100..2000 draws), so a
        # new n re-draws only the animated curves: no full redraw
        cax.set_ylim(-3.0, -1.05)
        self._ls_ax.set_ylim(-0.40, -0.20)
        cax.set_xlabel("bandwidth $h$")
        cax.set_ylabel("mean LOO log-likelihood")
        self._ls_ax.set_ylabel("LSCV score")
        cax.grid(alpha=0.3, which="both")
        lines = [self._loo, self._ls, self._h_line, self._silver]
        cax.legend(lines, [ln.get_label() for ln in lines], loc="lower center", ncol=2,
                   bbox_to_anchor=(0.5, 1.0), fontsize="small", frameon=False)
        self.animate(self._kde, self._h_line, self._loo, self._ls, self._loo_best, self._ls_best,
                     self._silver)
        self.params = dict(n=None, h=h)
        self.update(n=n, h=h)
        self.finish_layout()

    def _compute_sweeps(self, n):
        data = sample_claw(n, self.seed)
        return (data, cv_curve(data, self.hs, "loo-likelihood"), cv_curve(data, self.hs, "lscv"),
                rule_of_thumb(data, "silverman"), rule_of_thumb(data, "scott"))

    def _sweeps(self, n):
        """Sample and both CV sweeps for ``n`` draws (about 0.15 s), computed once per ``n`` and
        kept (the n slider has 20 positions, a few kB each): a seen ``n`` costs no sweep, nor
        one that :meth:`prefetch` has computed (if it is being computed, wait for it)."""
        cache = self.__dict__.setdefault("_sweep_cache", {})
        if n in cache:
            return cache[n]
        pending = self.__dict__.get("_prefetching", {}).get(n)
        if pending is not None and not pending.cancel():  # running or done: its result
            return pending.result()
        cache[n] = self._compute_sweeps(n)
        return cache[n]

    def prefetch(self, ns) -> None:
        """Compute the sample and sweeps for each ``n`` in ``ns`` in a background thread, the
        ones nearest the current ``n`` first, so that later moves of the n slider find them
        ready (the explorer calls this once a browser shows it: a new n would otherwise cost
        two sweeps, ~0.15 s, on the slider's path). The results are exactly what the slider
        would compute (seeded per n). :meth:`close` cancels what has not started."""
        ns = sorted({check_int(n, "ns", low=2) for n in ns}, key=lambda n: abs(n - self.params["n"]))
        cache = self.__dict__.setdefault("_sweep_cache", {})
        pending = self.__dict__.setdefault("_prefetching", {})
        if getattr(self, "_executor", None) is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="genviz-bandwidth-prefetch")

        def task(n):
            result = self._compute_sweeps(n)
            cache.setdefault(n, result)
            return result

        for n in ns:
            if n not in cache and n not in pending:
                pending[n] = self._executor.submit(task, n)

    def close(self) -> None:
        """Cancel prefetching that has not started, then close the figure."""
        executor = getattr(self, "_executor", None)
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        super().close()

    def _resample(self, n):
        self.data, self.loo, self.lscv, self.silverman, self.scott = self._sweeps(n)
        ok = np.isfinite(self.loo)
        self._loo.set_data(self.hs[ok], self.loo[ok])
        self._ls.set_data(self.hs, self.lscv)
        i, j = int(np.argmax(self.loo)), int(np.argmin(self.lscv))
        self._loo_best.set_data([self.hs[i]], [self.loo[i]])
        self._ls_best.set_data([self.hs[j]], [self.lscv[j]])
        self._silver.set_xdata([self.silverman, self.silverman])

    def update(self, **params):
        new = {**self.params, **params}
        n = check_int(new["n"], "n", low=2)
        h = check_scalar(new["h"], "h", low=0.0, low_open=True)
        if n != self.params["n"]:
            self._resample(n)
        self.params = dict(n=n, h=h)
        dens = kde_pdf(self.x, self.data, h)
        self._kde.set_data(self.x, dens)
        self._h_line.set_xdata([h, h])
        # scores at h: interpolated (in log h) from the 100-point sweeps, no new sweep per move
        lh, lg = np.log(h), np.log(self.hs)
        at = np.interp(lh, lg, self.loo), np.interp(lh, lg, self.lscv)
        ise = float(np.trapezoid((dens - self._truth) ** 2, self.x))
        self.state = dict(n=n, h=h, hs=self.hs, loo=self.loo, lscv=self.lscv,
                          h_loo=float(self.hs[int(np.argmax(self.loo))]),
                          h_lscv=float(self.hs[int(np.argmin(self.lscv))]),
                          silverman=self.silverman, scott=self.scott, loo_at_h=float(at[0]),
                          lscv_at_h=float(at[1]), ise=ise, density=dens)

    def describe(self) -> str:
        """Alt text from the state: h, the CV optima and the rule of thumb."""
        s = self.state
        return (f"Two panels for n = {s['n']} draws from the claw density: top, the KDE at "
                f"h = {fmt(s['h'])} over the true claw (integrated squared error "
                f"{fmt(s['ise'])}); below it, the leave-one-out log-likelihood (best h = "
                f"{fmt(s['h_loo'])}) and the least-squares CV score (best h = "
                f"{fmt(s['h_lscv'])}) against h on a log axis, with the current h and "
                f"Silverman's rule (h = {fmt(s['silverman'])}) marked.")


class KDE2DView(View):
    """2-D Gaussian product-kernel KDE over a scatter; bandwidths as multiples of Scott's rule.

    The density is drawn as contour lines at 10 %, 30 %, 50 %, 70 % and 90 % of its peak (lines
    only: a slider move repaints few pixels). ``update(scale=)``; ``state`` has ``h`` (per axis),
    ``density`` (grid), ``peak``, ``mass`` (integral over the window).
    """

    LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)

    def __init__(self, X, scale=1.0, *, labels=("$x_1$", "$x_2$"), n_grid=100, figsize=None):
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"X must have shape (n, 2), got {self.X.shape}")
        self.h0 = np.array([rule_of_thumb(self.X[:, k], "scott") for k in range(2)])
        lo = self.X.min(axis=0) - 0.1 * np.ptp(self.X, axis=0)
        hi = self.X.max(axis=0) + 0.1 * np.ptp(self.X, axis=0)
        self.xs = np.linspace(lo[0], hi[0], n_grid)
        self.ys = np.linspace(lo[1], hi[1], n_grid)
        super().__init__(new_figure(figsize=figsize or explorer_figsize(6.4, 4.8)))
        ax = self.ax = self.fig.add_subplot()
        self._contours = None
        ax.scatter(self.X[:, 0], self.X[:, 1], s=7, color=PALETTE["black"], alpha=0.45, lw=0,
                   zorder=3, label=f"{self.X.shape[0]} records")
        for lev, color in zip(self.LEVELS, self._colors()):
            ax.plot([], [], color=color, lw=1.6, label=f"{int(100 * lev)} % of peak")
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_xlabel(labels[0])
        ax.set_ylabel(labels[1])
        ax.legend(loc="upper right", fontsize="small", title="KDE contours",
                  title_fontsize="small")
        ax.grid(alpha=0.3)
        self.update(scale=scale)
        self.finish_layout()

    def _colors(self):
        cmap = matplotlib.colormaps[DENSITY_CMAP]
        return [cmap(0.15 + 0.7 * k / (len(self.LEVELS) - 1)) for k in range(len(self.LEVELS))]

    def update(self, scale=None):
        scale = check_scalar(scale, "scale", low=0.0, low_open=True)
        h = scale * self.h0
        Z = kde2d_grid(self.xs, self.ys, self.X, h)
        peak = float(Z.max())
        new = self.ax.contour(self.xs, self.ys, Z, levels=peak * np.array(self.LEVELS),
                              colors=self._colors(), linewidths=1.6, zorder=4)
        self._contours = self.replace_animated(self._contours, new)
        dx, dy = self.xs[1] - self.xs[0], self.ys[1] - self.ys[0]
        self.state = dict(h=h, scale=scale, density=Z, peak=peak, mass=float(Z.sum() * dx * dy))

    def describe(self) -> str:
        """Alt text from the state: the bandwidths and the contour levels."""
        s = self.state
        x, y = (plain_text(self.ax.get_xlabel()), plain_text(self.ax.get_ylabel()))
        return (f"Scatter of {self.X.shape[0]} records, {y} against {x}, with contours of a "
                f"2-D product-kernel KDE at 10, 30, 50, 70 and 90 % of its peak "
                f"({fmt(s['peak'])}); bandwidths {fmt(s['h'][0])} and {fmt(s['h'][1])}, "
                f"{fmt(s['scale'])} × Scott's rule.")

# --- static figures of the DS5220 slides (appended; notebook 05) ---------------------------------

from genviz.kernel_gallery import COMPACT as _COMPACT, GALLERY as _GALLERY, gallery_kernel  # noqa: E402

__all__ += ["kernel_gallery_figure", "histogram_vs_kde_figure", "SLIDES_BUMPS_DATA"]

#: The six points of the slides' "Kernel Density Estimate: Visualization" (Wikipedia's figure).
SLIDES_BUMPS_DATA = (-2.1, -1.3, -0.4, 1.9, 5.1, 6.2)


def kernel_gallery_figure(*, lim: float = 3.0, figsize=None):
    """The slides' "Kernel Visualization": the eleven kernels of Wikipedia's Kernels.svg on
    one axes, each in its standard form (compact ones on [-1, 1]); see
    :mod:`genviz.kernel_gallery`."""
    u = np.linspace(-lim, lim, 1201)
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 4.4))
    ax = fig.add_subplot()
    colors = list(PALETTE.values())
    styles = ["-", "--", "-.", ":"]
    for i, name in enumerate(_GALLERY):
        ax.plot(u, gallery_kernel(u, name), color=colors[i % len(colors)],
                ls=styles[(i // len(colors)) % len(styles)] if i < len(colors) else "--",
                lw=1.8, label=name + (" (support [-1, 1])" if name in _COMPACT else ""))
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set(xlim=(-lim, lim), ylim=(-0.05, 1.18), xlabel="$u$", ylabel="$K(u)$",
           title="Kernels in common use (each integrates to 1)")
    ax.title.set_fontsize("medium")
    ax.grid(alpha=0.3)
    # eleven entries: beside the axes in "small" (inside, "x-small" was too small to read)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
              frameon=False)
    finish_layout(fig)
    return fig


def histogram_vs_kde_figure(data=SLIDES_BUMPS_DATA, *, width: float = 2.0, origin: float = -4.0,
                            h: float = 1.5, x_range=(-8.0, 12.0), figsize=None):
    r"""The slides' "Kernel Density Estimate: Visualization" (Wikipedia's comparison): a
    histogram of six points (bins of width 2) beside their KDE with a normal kernel of standard
    deviation ``h = 1.5`` (variance 2.25), each point's scaled bump
    :math:`\frac{1}{n h} K((x - x_i)/h)` dashed and their sum solid.

    Returns the figure; ``fig.bumps_state`` holds the grid, the bumps (n, len(grid)), the KDE and
    the histogram heights.
    """
    data = np.asarray(data, dtype=float)
    h = check_scalar(h, "h", low=0.0, low_open=True)
    width = check_scalar(width, "width", low=0.0, low_open=True)
    x = np.linspace(*x_range, 901)
    edges, heights = histogram(data, width=width, origin=origin)
    bumps = kernel_pdf((x[None, :] - data[:, None]) / h, "gaussian") / (data.size * h)
    f_hat = kde_pdf(x, data, h)
    # stacked: side by side they are wider than the output area at 1280 px
    fig = new_figure(figsize=figsize or explorer_figsize(7.8, 5.6))
    ax1, ax2 = fig.subplots(2, 1, sharex=True, sharey=True)
    ax1.bar(edges[:-1], heights, width=width, align="edge", color=PALETTE["sky"],
            edgecolor=PALETTE["black"], lw=0.8, label=f"histogram, bins of width {width:g}")
    ax1.set_title("Histogram", fontsize="medium")
    for i, b in enumerate(bumps):
        ax2.plot(x, b, color=PALETTE["vermillion"], ls="--", lw=1.2,
                 label=r"bumps $\frac{1}{nh}K\left(\frac{x-x_i}{h}\right)$" if i == 0 else None)
    ax2.plot(x, f_hat, color=PALETTE["blue"], lw=2.2, label=r"KDE $\hat f(x)$ = their sum")
    ax2.set_title(f"Kernel density estimate (normal kernel, h = {h:g})", fontsize="medium")
    for ax in (ax1, ax2):
        ax.plot(data, np.zeros_like(data), "|", color=PALETTE["black"], ms=14, mew=2,
                label=f"data (n = {data.size})")
        ax.set(xlim=x_range, ylabel="density")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small", loc="upper right")
    ax2.set_xlabel("$x$")
    ax1.set_ylim(0, 1.3 * max(float(heights.max()), float(f_hat.max())))
    finish_layout(fig)
    fig.bumps_state = dict(x=x, bumps=bumps, kde=f_hat, edges=edges, heights=heights)
    return fig
