"""What reaches the browser: the static background and the recorded animated artists.

* ``png_rgba`` (the background's encoder) against Pillow's decoder (the oracle): the exact
  pixels back, any shape, any level; every kind of bad input refused, naming the argument.
* The recording renderer (genviz.plots._record): frames decode, bad frames are refused, each
  kind of operation is recorded (paths with dashes and clip rectangles and paths, markers,
  collections batched, images as small arrays, text as sprites).
* The repaint contract: views switch pyplot's stale callback off, so every static change must
  request a full redraw. For EVERY explorer (discovered, as in test_layout.py) and every
  control over its range, the static background the view hands out plus its recorded frame,
  replayed by matplotlib's Agg (tests/frame_replay.py), equals ``savefig`` of the same state.
  A view that changed a static artist without asking for a full redraw (a stale background),
  or an artist the recorder mis-reads, fails here; browser_tests/test_fidelity.py checks the
  browser's replay the same way.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PIL import Image

from explorer_testing import control_values, explorer_cases, make_explorer
from frame_replay import (LINE_LIMIT, AxesView, difference, replay, savefig_rgba,
                          swap_static_order, three_d_boxes, unmatched_tile)
from genviz.plots import _frames
from genviz.plots._base import View, new_figure
from genviz.plots._ops import OPS, Pool, decode


def _decode(png: bytes) -> np.ndarray:
    im = Image.open(io.BytesIO(png))
    im.load()
    assert im.mode == "RGBA"
    return np.asarray(im)


@settings(max_examples=60, deadline=None)
@given(arrays(np.uint8, st.tuples(st.integers(1, 40), st.integers(1, 40), st.just(4))),
       st.integers(0, 9))
def test_png_rgba_decodes_to_the_same_pixels(pixels, level):
    np.testing.assert_array_equal(_decode(_frames.png_rgba(pixels, level=level)), pixels)


def test_png_rgba_of_a_rendered_figure_matches_pillow_and_is_compressed():
    fig = new_figure(figsize=(4, 3))
    ax = fig.add_subplot()
    ax.plot(np.sin(np.linspace(0, 6, 200)))
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())
    png = _frames.png_rgba(pixels)
    np.testing.assert_array_equal(_decode(png), pixels)
    assert len(png) < pixels.nbytes / 5  # level 1 still compresses a figure several-fold
    plt.close(fig)


def test_png_rgba_accepts_non_contiguous_views():
    base = np.random.default_rng(0).integers(0, 256, (10, 12, 4), dtype=np.uint8)
    view = base[::2, ::3]
    np.testing.assert_array_equal(_decode(_frames.png_rgba(view)), view)


@pytest.mark.parametrize("pixels, error", [
    (np.zeros((4, 4, 4), dtype=float), TypeError),
    (np.zeros((4, 4, 3), dtype=np.uint8), ValueError),
    (np.zeros((4, 4), dtype=np.uint8), ValueError),
    (np.zeros((0, 4, 4), dtype=np.uint8), ValueError),
])
def test_png_rgba_refuses_bad_pixels(pixels, error):
    with pytest.raises(error, match="pixels"):
        _frames.png_rgba(pixels)


@pytest.mark.parametrize("level", [-1, 10, 1.5, True, "1"])
def test_png_rgba_refuses_bad_level(level):
    with pytest.raises(ValueError, match="level"):
        _frames.png_rgba(np.zeros((2, 2, 4), np.uint8), level=level)


class _Line(View):
    def __init__(self, fig):
        super().__init__(fig)
        self.ax = fig.add_subplot()
        (self.line,) = self.ax.plot([0, 1], [0, 1])
        self.animate(self.line)
        self.title = self.ax.set_title("static")

    def update(self, y=0.0):
        self.line.set_ydata([y, 1 - y])


def test_views_switch_the_stale_callback_off():
    fig = new_figure()
    view = _Line(fig)
    assert fig.stale_callback is None
    calls = []
    fig.canvas.draw_idle = lambda *a, **k: calls.append(1)
    view.title.set_text("changed")  # a static change marks the figure stale ...
    assert fig.stale
    assert calls == []  # ... and no longer schedules a hidden draw
    plt.close(fig)


def test_a_blit_paints_what_a_full_draw_paints():
    fig = new_figure()
    view = _Line(fig)
    fig.canvas.draw()
    view.update(y=0.3)
    assert view.redraw() == "blit" and not fig.stale
    blitted = _pixels(fig)
    fig.canvas.draw()
    np.testing.assert_array_equal(blitted, _pixels(fig))
    view.title.set_text("changed")  # a static change: the next redraw must be a full one
    view.request_full_redraw()
    assert view.redraw() == "full"


def _pixels(fig):
    return np.asarray(fig.canvas.buffer_rgba()).copy()


# -- the recorder ---------------------------------------------------------------------------------
def _ops(frame: bytes) -> list[int]:
    f = decode(frame)
    i32, out, p = f["i32"], [], 0
    sizes = {OPS["CLIP"]: 6, OPS["MARKERS"]: 10, OPS["IMAGE"]: 9, OPS["SPRITE"]: 6}
    while p < len(i32):
        op = int(i32[p])
        out.append(op)
        p += 7 + int(i32[p + 2]) if op == OPS["PATHS"] else sizes[op]
    assert p == len(i32), "operations do not end where the stream ends"
    return out


class _Everything(AxesView):
    """One of each kind of animated artist a view may have."""

    def __init__(self):
        super().__init__()
        ax = self.ax
        self.line = self.animate(ax.plot([0, 1], [0, 1], "--o", lw=2, ms=5)[0])
        self.scatter = self.animate(ax.scatter([0.2, 0.4, 0.6], [0.5, 0.6, 0.7], c=[0, 1, 2]))
        self.image = self.animate(ax.imshow(np.arange(12.0).reshape(3, 4), extent=(0, 1, 0, 1),
                                            origin="lower", interpolation="nearest"))
        self.text = self.animate(ax.text(0.5, 0.5, "moving text"))
        self.patch = self.animate(ax.add_patch(plt.Circle((0.5, 0.5), 0.2, fc="none", ec="r")))
        self.patch.set_clip_path(plt.Rectangle((0.3, 0.3), 0.3, 0.3, transform=ax.transData))

    def update(self, y=0.0):
        self.line.set_ydata([y, 1 - y])


def test_recorder_records_each_kind_of_artist_and_replays_like_savefig():
    v = _Everything()
    frame = v.record_frame()
    ops = _ops(frame)
    assert {OPS["CLIP"], OPS["PATHS"], OPS["MARKERS"], OPS["IMAGE"], OPS["SPRITE"]} <= set(ops)
    f = decode(frame)
    assert (f["meta"]["w"], f["meta"]["h"]) == (400, 300)
    assert any(s.get("d") for s in f["meta"]["styles"])  # the dashed line keeps its dashes
    # the image travels as its own 3 x 4 array, not as a resampled raster
    p = ops.index(OPS["IMAGE"])
    i32 = list(f["i32"])
    k = [j for j in range(len(i32)) if i32[j] == OPS["IMAGE"]][0]
    assert (i32[k + 1], i32[k + 2]) == (4, 3) and i32[k + 4] == 0  # its 12 RGBA pixels
    pooled = decode(v.record_frame(pool=Pool()))["i32"]  # in a grid: palette + indices
    k = [j for j in range(len(pooled)) if pooled[j] == OPS["IMAGE"]][0]
    assert (pooled[k + 1], pooled[k + 2], pooled[k + 4]) == (4, 3, 12)
    png, _ = v.background_png()
    d = difference(replay(png, frame), savefig_rgba(v.fig))
    assert d["mean"] < 1.0 and d["far"] < 0.01, d
    v.close()


def test_collections_are_batched_into_one_operation():
    """A 3-D surface's ~1,200 polygons are one PATHS op (one style, per-polygon colours)."""
    from genviz.plots.gaussian import GaussianView

    v = GaussianView()
    ops = _ops(v.record_frame())
    assert ops.count(OPS["PATHS"]) < 12 and ops.count(OPS["MARKERS"]) == 2
    f = decode(v.record_frame())
    i32 = f["i32"]
    sizes = []
    p = 0
    while p < len(i32):
        op = int(i32[p])
        if op == OPS["PATHS"]:
            sizes.append(int(i32[p + 2]))
            p += 7 + int(i32[p + 2])
        else:
            p += {1: 6, 3: 10, 4: 9, 5: 6}[op]
    assert max(sizes) > 1000
    v.close()


@pytest.mark.parametrize("data, match", [
    (b"", "not a genviz frame"),
    (b"GVF2" + bytes(40), "not a genviz frame"),
    (b"GVF1" + np.array([4, 1, 0, 0], "<u4").tobytes() + b"{}  ", "truncated"),
])
def test_decode_refuses_what_is_not_a_frame(data, match):
    with pytest.raises(ValueError, match=match):
        decode(data)


def test_replay_check_fails_on_a_stale_background():
    """The contract below is not vacuous: a view that changes a static artist without asking
    for a full redraw hands out a stale background, and the replay differs from savefig."""
    fig = new_figure(figsize=(4, 3))
    view = _Line(fig)
    view.background_png()
    view.title.set_text("a much longer title that the stale background lacks")
    view.title.set_fontsize(20)
    png, _ = view.background_png()  # no request_full_redraw: still the old background
    d = difference(replay(png, view.record_frame()), savefig_rgba(fig))
    assert d["far"] > 0.005
    view.request_full_redraw()
    png, _ = view.background_png()
    d = difference(replay(png, view.record_frame()), savefig_rgba(fig))
    assert d["mean"] < 0.5 and d["far"] < 0.002


#: Agg replaying a recorded frame against Agg drawing the figure: float32 coordinates, Pillow's
#: bilinear for Agg's image filter. (The browser's canvas meets 4 levels / 5 % in
#: browser_tests/test_fidelity.py.) And no thin line lost: at most LINE_LIMIT of a tile's
#: pixels unmatched (frame_replay.unmatched_tile).
REPLAY_MEAN, REPLAY_FAR = 1.5, 0.02


@pytest.mark.parametrize("case", explorer_cases())
def test_background_plus_recorded_frame_equals_savefig(case):
    """After each control move, the view's background and recorded frame, replayed, are what
    savefig draws: no static artist changed behind the background cache, nothing mis-read."""
    e = make_explorer(case)
    fig = e.view.fig
    try:
        moves = 0
        for name, control in e.controls.items():
            start = control.value
            for value in [*control_values(control, 2), start]:
                if value == control.value:
                    continue
                control.value = value
                moves += 1
                png, _ = e.view.background_png()
                d = difference(replay(png, e.view.record_frame()), savefig_rgba(fig),
                               skip=three_d_boxes(fig))
                assert (d["mean"] <= REPLAY_MEAN and d["far"] <= REPLAY_FAR
                        and d["line"] <= LINE_LIMIT), (
                    f"{case}: after {name} = {value!r} the replayed frame differs from "
                    f"savefig: {d}")
        assert moves, f"{case}: no control could be moved"
    finally:
        e.close()


# -- the canvas is the figure: draw order between static and moving artists (#37) ---------------
class _Bars(AxesView):
    """Moving bars (zorder 1) under a static reference line (zorder 2) and the spines (2.5),
    with a static line below them (zorder 0.5) and a title outside the axes."""

    def __init__(self):
        super().__init__(xlim=(0, 4), ylim=(0, 2))
        ax = self.ax
        self.bars = ax.bar(range(4), [1, 2, 1.5, 2], width=1.0, align="edge", color="#9ecae1")
        self.animate(*self.bars)
        self.ref = ax.axhline(1.0, color="k", lw=1.5, zorder=2)
        self.under = ax.axhline(0.5, color="r", lw=1.5, zorder=0.5)
        self.title = ax.set_title("static title")

    def update(self, h=1.0):
        for bar, y in zip(self.bars, [h, 2, 1.5, 2]):
            bar.set_height(y)


def test_static_artists_above_moving_ones_are_recorded_over_them():
    v = _Bars()
    above = v.above()
    assert any(a is v.ref for a in above)  # the reference line is drawn over the bars
    assert all(any(a is sp for a in above) for sp in v.ax.spines.values())
    assert not any(a is v.under for a in above)  # drawn before the bars: background
    assert not any(a is v.title for a in above)  # outside the axes: it meets no bar
    order = v.animated_artists()
    assert order.index(v.ref) > max(order.index(b) for b in v.bars)
    v.update(h=1.8)
    png, _ = v.background_png()
    d = difference(replay(png, v.record_frame()), savefig_rgba(v.fig))
    assert d["line"] <= LINE_LIMIT and d["mean"] < 0.5, d
    # the blit of the Agg canvas draws the same layers
    v.fig.canvas.draw()
    v.update(h=0.4)
    assert v.redraw() == "blit"
    blitted = _pixels(v.fig)
    np.testing.assert_array_equal(blitted[..., :3], savefig_rgba(v.fig)[..., :3])
    v.close()


class _TwinBars(_Bars):
    """The bars with a twin axes drawn after them (a static curve on the right axis, its
    patch invisible as twinx makes it) and a figure-level legend over the axes."""

    def __init__(self):
        super().__init__()
        self.twin = self.ax.twinx()
        (self.curve,) = self.twin.plot([0, 4], [0.2, 1.8], color="m", lw=2)
        self.twin.set_ylim(0, 2)
        self.legend = self.fig.legend([self.curve], ["right axis"], loc="center")


def test_artists_of_a_later_axes_and_of_the_figure_are_above_the_moving_ones():
    """Draw order across axes (#37): matplotlib draws a twin axes after the first, and a
    figure legend after both, so their artists over the bars are recorded over them too."""
    v = _TwinBars()
    above = v.above()
    assert any(a is v.curve for a in above) and any(a is v.legend for a in above)
    assert any(a is v.ref for a in above) and not any(a is v.under for a in above)
    assert not any(a is v.twin.patch for a in above)   # invisible: nothing to draw
    v.update(h=1.8)
    png, _ = v.background_png()
    d = difference(replay(png, v.record_frame()), savefig_rgba(v.fig))
    assert d["line"] <= LINE_LIMIT and d["mean"] < 0.5, d
    v.close()


def test_static_artists_above_are_recorded_once_per_background():
    """Their operations are cached and copied into later frames: the same bytes as recording
    them afresh, until a full redraw."""
    v = _Bars()
    first = v.record_frame()
    v._recorder._fragments.clear()
    assert v.record_frame() == first
    v.ref.set_color("g")  # a static change without request_full_redraw: the old line stays
    assert v.record_frame() == first
    v.request_full_redraw()
    assert v.record_frame() != first
    v.close()


def test_pooled_fragments_stay_with_their_pool():
    v = _Bars()
    v.ax.set_title("")
    v.ax.text(0.2, 1.2, "static label", zorder=3)  # a sprite above the bars
    v.request_full_redraw()
    frames = [(v.record_frame(pool=pool), pool) for pool in (Pool(), Pool())]
    for frame, pool in frames:
        png, _ = v.background_png()
        d = difference(replay(png, frame, bytes(pool.data)), savefig_rgba(v.fig))
        assert d["line"] <= LINE_LIMIT, d
    v.close()


def _planted(case, plant):
    """``line`` of background + frame against savefig with a fault planted in the view's
    layers (``plant(view)`` returns an undo)."""
    e = make_explorer(case)
    try:
        fig = e.view.fig
        ref = savefig_rgba(fig).copy()
        undo = plant(e.view)
        e.view.request_full_redraw()
        png, _ = e.view.background_png()
        d = difference(replay(png, e.view.record_frame()), ref, skip=three_d_boxes(fig))
        undo()
        return d
    finally:
        e.close()


def _drop_a_spine(view):
    """A one-pixel spine missing from what the browser draws (savefig still has it)."""
    ax = next(a for a in view.fig.axes if a.axison and getattr(a, "name", "") != "3d")
    spine = ax.spines["left"] if ax.spines["left"].get_visible() else ax.spines["bottom"]
    spine.set_visible(False)
    return lambda: spine.set_visible(True)


@pytest.mark.parametrize("case", ["gaussian_explorer", "gaussian_explorer_contours",
                                  "histogram_explorer", "knn_classification_explorer"])
def test_the_replay_check_fails_on_a_planted_zorder_swap(case):
    """02's contour panel, 09's reference line and the k-NN panels: with the static artists
    above baked under the moving ones, the check fails (it passes unplanted: above)."""
    assert _planted(case, swap_static_order)["line"] > LINE_LIMIT


@pytest.mark.parametrize("case", ["gaussian_explorer_contours", "histogram_explorer",
                                  "knn_classification_explorer", "threshold_explorer"])
def test_the_replay_check_fails_on_a_planted_missing_spine(case):
    d = _planted(case, _drop_a_spine)
    assert d["line"] > LINE_LIMIT
    assert d["mean"] <= REPLAY_MEAN and d["far"] <= REPLAY_FAR  # the old metrics: blind


def test_unmatched_tile_sees_a_thin_line_and_forgives_a_shifted_edge():
    ref = np.full((60, 80, 4), 255, np.uint8)
    ref[10:50, 20:60, :3] = (30, 90, 200)
    ref[30, :, :3] = 0  # a one-pixel black line across
    assert unmatched_tile(ref, ref) == 0.0
    lost = ref.copy()
    lost[30] = ref[29]
    assert unmatched_tile(lost, ref) >= 0.125
    shifted = np.full_like(ref, 255)
    shifted[11:51, 21:61, :3] = (30, 90, 200)  # the block a pixel down and right
    shifted[31, :, :3] = 0
    assert unmatched_tile(shifted, ref) == 0.0
    assert unmatched_tile(lost, ref, skip=[(0, 25, 80, 35)]) == 0.0


def test_unmatched_tile_refuses_images_of_different_shapes():
    with pytest.raises(ValueError, match="differ in shape"):
        unmatched_tile(np.zeros((5, 5, 4), np.uint8), np.zeros((5, 6, 4), np.uint8))
