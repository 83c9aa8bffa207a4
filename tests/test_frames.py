"""Frames shipped to the browser (genviz.plots._frames) and the repaint contract of View.

* ``png_rgba`` against Pillow's decoder (the oracle): the exact pixels back, any shape, any level;
  every kind of bad input refused, naming the argument.
* ``install`` on an ipympl canvas: whole frames, webagg's bookkeeping kept; other canvases
  untouched.
* The repaint contract: views switch pyplot's stale callback off (no hidden draw_idle), so every
  static change must request a full redraw. For EVERY explorer (discovered, as in
  test_layout.py) and every control over its range, the pixels after the explorer's own redraw
  (blit or full) equal a full draw from scratch. A view that changed a static artist without
  asking for a full redraw fails here.
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
from genviz.plots import _frames
from genviz.plots._base import View, new_figure


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


def test_install_leaves_agg_alone():
    fig = new_figure()
    assert not _frames.install(fig.canvas)
    assert "get_diff_image" not in vars(fig.canvas)
    plt.close(fig)


@pytest.fixture
def ipympl_figure():
    from matplotlib.figure import Figure

    backend = plt.get_backend()
    pytest.importorskip("ipympl")
    from ipympl.backend_nbagg import Canvas, FigureManager  # makes itself pyplot's backend

    plt.switch_backend(backend)

    fig = Figure(figsize=(3, 2), dpi=50)
    canvas = Canvas(fig)
    FigureManager(canvas, 0)
    sent = []
    canvas.send_binary = sent.append  # what would go to the browser
    yield fig, sent
    canvas.close()


def test_install_on_ipympl_ships_whole_frames(ipympl_figure):
    fig, sent = ipympl_figure
    canvas = fig.canvas
    assert _frames.install(canvas)
    ax = fig.add_subplot()
    (line,) = ax.plot([0, 1], [0, 1])
    canvas.draw()
    assert len(sent) == 1
    first = _decode(sent[0])
    np.testing.assert_array_equal(first, np.asarray(canvas.buffer_rgba()))
    assert canvas._current_image_mode == "full"
    # a small change: webagg would send a diff (mostly transparent); we send the whole frame
    line.set_ydata([1, 0])
    canvas.draw()
    assert len(sent) == 2
    second = _decode(sent[1])
    assert (second[..., 3] == 255).all()
    np.testing.assert_array_equal(second, np.asarray(canvas.buffer_rgba()))
    # the bookkeeping ipympl reads for its static snapshot
    np.testing.assert_array_equal(canvas._last_buff.view(np.uint8).reshape(second.shape), second)
    assert canvas.get_diff_image() is None  # nothing new drawn


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


def test_a_blitted_figure_is_not_stale_so_pyplot_draw_all_leaves_it_alone():
    """IPython runs pyplot's draw_all after every comm message (each slider move): it calls
    draw_idle on every stale figure it manages. After a blit the view's figure is up to date."""
    from matplotlib._pylab_helpers import Gcf

    fig = new_figure()
    assert fig in [m.canvas.figure for m in Gcf.get_all_fig_managers()]
    view = _Line(fig)
    fig.canvas.draw()
    calls = []
    fig.canvas.draw_idle = lambda *a, **k: calls.append(1)
    view.update(y=0.3)
    view.line.axes.stale = True  # as replacing an animated artist does (3-D surfaces)
    assert view.redraw() == "blit"
    assert not fig.stale
    Gcf.draw_all()
    assert calls == []
    view.title.set_text("changed")  # a static change does make it stale again
    assert fig.stale
    plt.close(fig)


def test_full_redraw_on_a_live_ipympl_canvas_draws_at_once(ipympl_figure):
    fig, sent = ipympl_figure
    view = _Line(fig)
    fig.canvas.syncing_data_url = False  # the browser's "initialized" message arrived
    view.request_full_redraw()
    assert view.redraw() == "full"
    assert len(sent) == 1  # a frame was shipped without waiting for the browser to ask
    fig.canvas.draw()
    view.update(y=0.7)
    assert view.redraw() == "blit"
    assert len(sent) == 3
    np.testing.assert_array_equal(_decode(sent[-1]), np.asarray(fig.canvas.buffer_rgba()))


def test_full_redraw_before_the_browser_is_up_waits_for_it(ipympl_figure):
    fig, sent = ipympl_figure
    view = _Line(fig)
    requested = []
    fig.canvas.draw_idle = lambda *a, **k: requested.append(1)
    view.request_full_redraw()
    assert view.redraw() == "full"
    assert requested == [1] and sent == []


def _pixels(fig):
    return np.asarray(fig.canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("case", explorer_cases())
def test_explorer_redraw_equals_a_full_draw(case):
    """After each control move, what the explorer painted (blit or full) is what a full draw
    from scratch paints: no static artist changed behind the blit cache."""
    e = make_explorer(case)
    fig = e.view.fig
    assert type(fig.canvas).__name__ == "FigureCanvasAgg"  # full redraws draw at once
    try:
        fig.canvas.draw()
        moves = 0
        for name, control in e.controls.items():
            start = control.value
            for value in [*control_values(control, 2), start]:
                if value == control.value:
                    continue
                control.value = value
                moves += 1
                painted = _pixels(fig)
                fig.canvas.draw()
                diff = np.any(painted != _pixels(fig), axis=-1)
                assert not diff.any(), (
                    f"{case}: after {name} = {value!r} ({e.view.last_redraw}) {int(diff.sum())} "
                    f"pixels differ from a full draw, rows {np.flatnonzero(diff.any(1))[[0, -1]]}, "
                    f"columns {np.flatnonzero(diff.any(0))[[0, -1]]}")
        assert moves, f"{case}: no control could be moved"
    finally:
        e.close()
