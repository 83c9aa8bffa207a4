"""Explorers for density estimation: histogram, KDE bumps, bandwidth/CV, 2-D KDE."""

from __future__ import annotations

from genviz.kde import KERNELS
from genviz.plots.kde import BandwidthView, HistogramView, KDE2DView, KDEView
from genviz.widgets._base import (Explorer, dropdown, explorer_factory, float_slider, log_slider,
                                  readout_html, selection_slider)

__all__ = ["histogram_explorer", "kde_explorer", "bandwidth_explorer", "kde2d_explorer"]


@explorer_factory
def histogram_explorer(data, width=0.3, origin=0.0, *, true_pdf=None, x_range=None) -> Explorer:
    """Bin width and origin sliders over a histogram density (the slides' two issues)."""
    view = HistogramView(data, width, origin, true_pdf=true_pdf, x_range=x_range, min_width=0.05)
    # both gridded (#37: notebook 05's observation shifts the origin at a fixed width), on a
    # 0.05 step each (20 x 21 = 420 states; a 0.01 step would be 96 x 101, over the budget)
    controls = {"width": float_slider("bin width", width, 0.05, 1.0, 0.05, grid=True),
                "origin": float_slider("origin", origin, 0.0, 1.0, 0.05, grid=True)}

    def readout(s):
        return readout_html(f"bins = [{s['origin']:.2f} + k&middot;{s['width']:.2f}, ...)",
                            f"{s['n_bins']} bins over the data, {s['empty_bins']} empty",
                            f"tallest bar = {s['tallest']:.3f}")
    return Explorer(view, controls, readout, title="Histogram: bin width and origin")


@explorer_factory
def kde_explorer(data, h=0.3, kernel="gaussian", *, true_pdf=None, x_range=None,
                 ymax=None) -> Explorer:
    """Bandwidth slider and kernel chooser over the KDE drawn as a sum of scaled bumps."""
    view = KDEView(data, h, kernel, true_pdf=true_pdf, x_range=x_range, ymax=ymax)
    # h up to 1.25 (oversmoothed for the claw's n = 20 from about 0.8): 121 x 5 precomputed
    # states, within the 1 MB grid budget now that the spines and the legend drawn above the
    # moving curve are recorded in every frame (to 1.5 the grid was 1.03 MB)
    controls = {"h": float_slider("h", h, 0.05, 1.25, 0.01, grid=True),
                "kernel": dropdown("kernel", list(KERNELS), kernel, grid=True)}

    def readout(s):
        return readout_html("f&#770;(x) = 1/(n h) &Sigma; K((x - x<sub>i</sub>)/h)",
                            f"h = {s['h']:.2f}, kernel = {s['kernel']}",
                            f"peak f&#770; = {s['peak']:.3f}",
                            f"&int; f&#770; over the window = {s['integral']:.3f}")
    return Explorer(view, controls, readout, title="KDE as a sum of scaled bumps")


#: The sample sizes of the bandwidth explorer's n slider.
BANDWIDTH_SIZES = (100, 200, 300, 500, 1000, 2000)


@explorer_factory
def bandwidth_explorer(n=1000, h=0.05, *, seed=0) -> Explorer:
    """Sample size and bandwidth over claw draws: the KDE and both CV curves (fast sweeps).

    A new ``n`` re-samples and re-runs both sweeps (100 bandwidths, ~0.15 s), so its slider
    updates on release; once a browser shows the explorer, the sweeps for every position of the
    n slider are computed in the background (nearest first), so moving it is as quick as moving
    ``h``, which updates continuously.
    """
    view = BandwidthView(n, h, seed=seed)
    # n gridded with h (#37: notebook 05's observation moves n from 1000 to 200, an exercise
    # sets 300), over the sizes a lesson uses: 6 x 116 states
    controls = {"n": selection_slider("n", sorted({*BANDWIDTH_SIZES, int(n)}), int(n),
                                      continuous_update=False, grid=True),
                "h": log_slider("h", h, -2.3, 0.0, 0.02, readout_format=".3f", grid=True)}

    def readout(s):
        return readout_html(f"n = {s['n']}, h = {s['h']:.4f}",
                            f"LOO log-lik. at h = {s['loo_at_h']:.4f} (best h = {s['h_loo']:.4f})",
                            f"LSCV at h = {s['lscv_at_h']:.4f} (best h = {s['h_lscv']:.4f})",
                            f"Silverman h = {s['silverman']:.4f}, Scott h = {s['scott']:.4f}",
                            f"&int;(f&#770; - f)&sup2; = {s['ise']:.5f}")
    explorer = Explorer(view, controls, readout, title="Bandwidth selection on the claw density")
    n_slider = controls["n"]
    explorer.when_shown(lambda: view.prefetch(n_slider.options))
    return explorer


@explorer_factory
def kde2d_explorer(X, scale=1.0, *, labels=("$x_1$", "$x_2$")) -> Explorer:
    """One slider scaling both bandwidths (in units of Scott's rule) of a 2-D KDE."""
    view = KDE2DView(X, scale, labels=labels)
    controls = {"scale": float_slider("h / Scott", scale, 0.2, 3.0, 0.05, grid=True)}

    def readout(s):
        return readout_html(f"h = ({s['h'][0]:.3g}, {s['h'][1]:.3g})",
                            f"peak density = {s['peak']:.3g}",
                            f"mass in the window = {s['mass']:.3f}")
    return Explorer(view, controls, readout, title="2-D kernel density estimate")
