"""The view pattern: build a figure once, then update its artists in place.

A view owns one matplotlib Figure. ``update(**params)`` recomputes only what the parameters
change and mutates existing artists (``set_data``, ``set_offsets``, ``set_array``); it never
creates a new figure. ``state`` holds the numbers the view shows, so tests check numbers rather
than pixels. Views work on any canvas: Agg in tests and exports, ipympl in JupyterLab and Voila.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt

__all__ = ["View", "new_figure", "show", "figure_png", "can_blit", "is_live_canvas",
           "finish_layout"]


def new_figure(figsize=(6.4, 4.8), **kwargs):
    """Create a figure with the current backend's canvas, without displaying it.

    Inside a notebook with ``%matplotlib widget`` the canvas is an ipympl widget that an explorer
    embeds in its layout; elsewhere it is Agg.
    """
    with plt.ioff():
        fig = plt.figure(figsize=figsize, **kwargs)
    canvas = fig.canvas
    # ipympl canvas options (absent on Agg): no "Figure 1" header; fixed size.
    # No toolbar either: its pan/zoom would fight the views' blit cache, and its 40 px column
    # would push explorer figures past the output-area width budget (style.FIGURE_WIDTH_BUDGET).
    for attr, value in (("header_visible", False), ("resizable", False),
                        ("toolbar_visible", False), ("footer_visible", False)):
        if hasattr(canvas, attr):
            setattr(canvas, attr, value)
    return fig


def finish_layout(fig, *, pad=0.04) -> None:
    """Place the axes, titles, labels and outside legends once, without overlaps.

    Runs matplotlib's constrained layout a single time (it measures every text, so lecture-size
    fonts get the room they need), then freezes the positions: later slider updates neither pay
    for a layout pass nor move the axes under a cached blit background. In lecture style the
    automatic tick locators are thinned first (:func:`genviz.plots.style.tidy_ticks`).
    Call it at the end of a view's ``__init__``, after everything static is drawn.
    """
    from genviz.plots.style import tidy_ticks

    tidy_ticks(fig)
    fig.set_layout_engine("constrained", w_pad=pad, h_pad=pad)
    fig.draw_without_rendering()
    fig.set_layout_engine("none")


def figure_png(fig, dpi=None) -> bytes:
    """The figure rendered to PNG bytes (Agg)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def is_live_canvas(canvas) -> bool:
    """Whether the canvas is an ipympl widget (``%matplotlib widget``), checked without
    importing ipywidgets (views stay free of widget code)."""
    return type(canvas).__module__.startswith("ipympl")


def can_blit(canvas) -> bool:
    """Whether views may blit on this canvas.

    Not ``canvas.supports_blit``: matplotlib reports False for the webagg family (ipympl
    included) since 3.4 because its *widgets* (``useblit=True``) misbehaved there (matplotlib
    PR #19762), while manual ``copy_from_bbox``/``restore_region``/``blit`` works and ships only
    changed pixels (ipympl issue #228). Our browser tests check the pixels after fast updates.
    """
    return hasattr(canvas, "copy_from_bbox") and hasattr(canvas, "restore_region")


def show(fig) -> None:
    """Display a static figure in a notebook as a PNG image, then free it.

    Static figures are images even under ``%matplotlib widget``: a live ipympl canvas per figure
    would add a widget model and a comm channel each (slower pages, and in Voila an occasional
    "model not found" race) for no interaction the figure needs. Explorers embed their live
    canvas themselves.

    Returns None: a returned object would be displayed a second time as the cell's result
    whenever ``show(...)`` is a cell's last line (the browser tests caught every figure
    appearing twice).
    """
    from IPython.display import Image, display

    display(Image(figure_png(fig)))
    plt.close(fig)


class View:
    """Base class of every view: a figure, the numbers it shows, and an error banner.

    Subclasses create their artists once, register the ones ``update`` changes with
    :meth:`animate`, and call :meth:`request_full_redraw` when something static changes (axis
    limits, tick labels). :meth:`redraw` then repaints by blitting: the static background is
    cached at every full draw and only the animated artists are drawn over it, which is what
    makes slider updates cheap (a full Agg draw is dominated by tick labels and text). ipympl
    ships the changed pixels to the browser without a round trip. A canvas that cannot blit gets
    ``draw_idle``; ``savefig`` always renders everything.
    """

    def __init__(self, fig):
        self.fig = fig
        self.state: dict = {}
        self._animated: list = []
        self._background = None
        self._background_size = None
        self._full_redraw = True
        self.last_redraw: str | None = None
        self._message = fig.text(0.5, 0.5, "", ha="center", va="center", wrap=True,
                                 fontsize="large", color="#7a0000", zorder=1000,
                                 bbox=dict(boxstyle="round", fc="#fff3f3", ec="#7a0000"),
                                 visible=False)
        self.animate(self._message)
        fig.canvas.mpl_connect("draw_event", self._on_draw)

    def update(self, **params) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- animated artists and blitting -------------------------------------------------------
    def animate(self, *artists):
        """Mark artists that ``update`` changes; returns the first one (for chaining)."""
        for artist in artists:
            artist.set_animated(True)
            self._animated.append(artist)
        return artists[0] if artists else None

    def replace_animated(self, old, new):
        """Swap an animated artist that ``update`` re-creates (e.g. a surface or contour set)."""
        if old is not None:
            if old in self._animated:
                self._animated.remove(old)
            old.remove()
        return self.animate(new)

    def finish_layout(self, **kwargs) -> None:
        """:func:`finish_layout` on this view's figure (call at the end of ``__init__``); the
        next redraw is a full one."""
        finish_layout(self.fig, **kwargs)
        self._layout_kwargs = kwargs
        self.request_full_redraw()

    def relayout(self) -> None:
        """Lay the figure out again after ``update`` changed something static that changes the
        room texts need (axis limits with wider tick labels); a no-op before
        :meth:`finish_layout`. Costs one layout pass, so call it only on such changes."""
        if getattr(self, "_layout_kwargs", None) is not None:
            self.finish_layout(**self._layout_kwargs)

    def request_full_redraw(self) -> None:
        """The static background changed (limits, labels): the next redraw is a full one."""
        self._full_redraw = True

    def _draw_animated(self, renderer) -> None:
        for artist in sorted(self._animated, key=lambda a: a.get_zorder()):
            if artist.figure is None or not artist.get_visible():
                continue
            if hasattr(artist, "do_3d_projection"):
                artist.do_3d_projection()
            artist.draw(renderer)

    def _on_draw(self, event) -> None:
        canvas = self.fig.canvas
        if event is not None and event.canvas is canvas and can_blit(canvas):
            self._background = canvas.copy_from_bbox(self.fig.bbox)
            self._background_size = canvas.get_width_height(physical=True)
            self._full_redraw = False
        renderer = event.renderer if event is not None else canvas.get_renderer()
        self._draw_animated(renderer)

    def redraw(self) -> str:
        """Repaint the canvas; returns ``"blit"`` or ``"full"`` (also kept in ``last_redraw``)."""
        canvas = self.fig.canvas
        if (self._full_redraw or self._background is None
                or not can_blit(canvas)
                or canvas.get_width_height(physical=True) != self._background_size):
            canvas.draw_idle()
            self.last_redraw = "full"
        else:
            canvas.restore_region(self._background)
            self._draw_animated(canvas.get_renderer())
            if hasattr(canvas, "_force_full"):
                # webagg/ipympl would ship only the pixels that changed since its last frame.
                # If the browser ever drops a frame (it replaces an image that has not loaded
                # yet), every later diff lands on stale pixels: the browser tests caught an
                # explorer showing only its moving curves on a blank canvas. A full frame per
                # update heals any dropped frame on the next one.
                canvas._force_full = True
            canvas.blit(self.fig.bbox)
            self.last_redraw = "blit"
        return self.last_redraw

    # -- error banner --------------------------------------------------------------------------
    @property
    def message(self) -> str:
        """The text of the banner shown over the figure ('' when none)."""
        return self._message.get_text() if self._message.get_visible() else ""

    def show_message(self, text: str) -> None:
        """Show a readable message over the figure (e.g. an invalid slider combination)."""
        self._message.set_text(text)
        self._message.set_visible(True)

    def clear_message(self) -> None:
        self._message.set_visible(False)
        self._message.set_text("")
