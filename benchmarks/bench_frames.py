"""What a kernel-path move sends to the browser: recorded drawing operations against a PNG.

Each case times, on one explorer figure, what the kernel does after ``view.update`` to show the
new state (the update itself is the same on both sides, so it is left out):

* **ours**: :meth:`View.record_frame` -- the animated artists recorded as drawing operations
  (genviz.plots._record), what genviz sends since the browser draws;
* **baseline**: what genviz did before (ipympl): blit the animated artists on Agg
  (:meth:`View.redraw`) and encode the frame as a PNG (genviz.plots._frames.png_rgba, already
  the fast encoder: no row filter, zlib level 1).

The bytes sent per move (recorded frame vs PNG) are in the case name. Run with
``python benchmarks/run.py frames``.
"""

import numpy as np

from harness import LazyCase, TimingCase
from genviz.plots._frames import png_rgba


def _views(make, control, values):
    e = make()
    view = e.view
    view.redraw()  # background cached, as after the first display
    state = {"i": 0}

    def move():
        state["i"] = (state["i"] + 1) % len(values)
        view.update(**{**e.values(), control: values[state["i"]]})

    def ours():
        move()
        return view.record_frame()

    def png():
        move()
        view.redraw()
        return png_rgba(np.asarray(view.fig.canvas.buffer_rgba()))

    kb_ours = len(view.record_frame()) / 1000
    kb_png = len(png()) / 1000
    return ours, png, kb_ours, kb_png


def _case(label, make, control, values):
    """The case, its explorer made only when it runs (the name then adds the bytes per move)."""
    def build():
        ours, png, kb_ours, kb_png = _views(make, control, values)
        return TimingCase(f"recorded frame, {label} ({kb_ours:.0f} kB vs PNG {kb_png:.0f} kB)",
                          ours, png, baseline_name="Agg blit + fast PNG (before)", repeats=30)
    return LazyCase(f"recorded frame, {label}", build)


def _gaussian(surface):
    def make():
        from genviz.widgets import gaussian_explorer
        return gaussian_explorer(surface=surface)
    return make


def _histogram():
    from genviz.kde import sample_claw
    from genviz.widgets.kde import histogram_explorer
    return histogram_explorer(sample_claw(200, 0), width=0.3, x_range=(-3, 3))


def _kde():
    from genviz.kde import claw_pdf, sample_claw
    from genviz.widgets.kde import kde_explorer
    return kde_explorer(sample_claw(20, 0), h=0.3, true_pdf=claw_pdf, x_range=(-3, 3), ymax=0.9)


def _knn():
    from genviz.widgets.knn import knn_classification_explorer
    return knn_classification_explorer()


CASES = [
    _case("2-D Gaussian explorer, μ₁", _gaussian(False), "mu1", [0.0, 0.3, 0.6, 0.9]),
    _case("3-D Gaussian explorer, μ₁", _gaussian(True), "mu1", [0.0, 0.3, 0.6, 0.9]),
    _case("histogram explorer, origin", _histogram, "origin", [0.0, 0.2, 0.4, 0.6]),
    _case("KDE explorer, h", _kde, "h", [0.3, 0.4, 0.5, 0.6]),
    _case("k-NN explorer, query x₁", _knn, "qx", [0.0, 0.5, 1.0, 1.5]),
]
