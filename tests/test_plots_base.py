"""Plot helpers and the lecture style switch."""

import base64

import matplotlib as mpl
import numpy as np
import pytest

from genviz.plots import CLASS_COLORS, PALETTE, figure_png, lecture_mode, new_figure, set_lecture_mode, show
from genviz.plots._base import can_blit
from genviz.plots.style import is_lecture_mode, plane_axes


def test_lecture_mode_switches_and_restores_rcparams():
    before = mpl.rcParams["font.size"], mpl.rcParams["lines.linewidth"]
    set_lecture_mode(True)
    assert is_lecture_mode() and mpl.rcParams["font.size"] >= 14
    assert mpl.rcParams["lines.linewidth"] >= 2.5
    set_lecture_mode(True)  # idempotent: a second call must not lose the saved values
    set_lecture_mode(False)
    assert not is_lecture_mode()
    assert (mpl.rcParams["font.size"], mpl.rcParams["lines.linewidth"]) == before
    with lecture_mode():
        assert mpl.rcParams["font.size"] >= 14
    assert mpl.rcParams["font.size"] == before[0]
    with pytest.raises(TypeError, match="on must be True or False"):
        set_lecture_mode("yes")


def _luminance(hex_colour):
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_palette_is_okabe_ito_and_first_two_classes_differ_in_lightness():
    assert PALETTE["blue"] == "#0072B2" and PALETTE["vermillion"] == "#D55E00"
    # Classes 0 and 1 stay distinguishable in greyscale too.
    assert abs(_luminance(CLASS_COLORS[0]) - _luminance(CLASS_COLORS[1])) > 0.05
    assert len(set(CLASS_COLORS)) == len(CLASS_COLORS)


def test_plane_axes_sets_the_box_equal_aspect_and_both_labels_or_only_x1():
    """The panel of the plane the GDA, Gaussian, naive Bayes and k-NN painters share."""
    fig = new_figure()
    left, right = fig.subplots(1, 2)
    plane_axes(left, (-1.0, 2.0, -3.0, 4.0))
    plane_axes(right, (-2.0, 2.0, -2.0, 2.0), ylabel=False)
    assert left.get_xlim() == (-1.0, 2.0) and left.get_ylim() == (-3.0, 4.0)
    assert left.get_aspect() == right.get_aspect() == 1.0  # "equal"
    assert (left.get_xlabel(), left.get_ylabel()) == ("$x_1$", "$x_2$")
    assert (right.get_xlabel(), right.get_ylabel()) == ("$x_1$", "")


def test_new_figure_is_agg_whatever_pyplot_backend_and_can_blit(monkeypatch):
    """Explorers never put a figure's canvas in the page (the browser draws it from recorded
    operations): a figure is Agg even under ``%matplotlib widget``, and not pyplot's."""
    import matplotlib.pyplot as plt
    from matplotlib._pylab_helpers import Gcf

    monkeypatch.setattr(plt, "figure", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    fig = new_figure()
    assert type(fig.canvas).__name__ == "FigureCanvasAgg"
    assert fig not in [m.canvas.figure for m in Gcf.get_all_fig_managers()]
    assert can_blit(fig.canvas)


def test_figure_png_and_show_on_agg(monkeypatch):
    fig = new_figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [0, 1])
    png = figure_png(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    shown = []
    monkeypatch.setattr("genviz.plots._base.display",  # IPython's, where show() uses it
                        lambda obj, **kw: shown.append((obj, kw)))
    assert show(fig) is None  # returning it would display the figure twice in a notebook
    assert len(shown) == 1 and shown[0][1]["raw"] is True  # a PNG bundle with alt text
    assert base64.b64decode(shown[0][0]["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"


def test_style_re_exports_the_panel_layouts_and_the_modes_unchanged():
    """genviz.plots.style is the one import of views (ARCHITECTURE.md "Large modules": its
    panel layouts live in genviz.plots.panels, its modes in genviz.plots._modes); every name
    it re-exports is the object of its home module, and none of them is lost."""
    from genviz.plots import _modes, panels, style

    for name in panels.__all__:
        assert getattr(style, name) is getattr(panels, name), name
        assert name in style.__all__, name
    moved = [n for n in _modes.__all__ if n in style.__all__]
    assert moved, "style re-exports nothing of genviz.plots._modes"
    for name in moved:
        assert getattr(style, name) is getattr(_modes, name), name


def test_figure_bytes_of_a_frozen_layout_are_savefigs_own():
    """figure_bytes takes the placeholder engine a frozen layout leaves off for the call (one
    draw instead of two): the bytes are matplotlib's savefig's with the engine on (the oracle),
    and the engine is back afterwards. Planted: a figure drawn at another dpi differs."""
    import io

    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    from genviz.plots._base import figure_bytes, finish_layout

    fig = new_figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.plot([0, 1, 2], [0, 1, 0.5])
    ax.set_title("a frozen layout")
    finish_layout(fig)
    engine = fig.get_layout_engine()
    assert isinstance(engine, PlaceHolderLayoutEngine)
    oracles = {}
    for fmt in ("rgba", "png"):
        oracle = io.BytesIO()
        fig.savefig(oracle, format=fmt, dpi=fig.dpi)
        oracles[fmt] = oracle.getvalue()
        assert figure_bytes(fig, fmt, fig.dpi) == oracles[fmt]
        assert fig.get_layout_engine() is engine
    bigger = figure_bytes(fig, "rgba", fig.dpi * 2)
    assert len(bigger) == 4 * len(oracles["rgba"]) and bigger != oracles["rgba"]
