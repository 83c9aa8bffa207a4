"""The view pattern: build a figure once, then update its artists in place.

A view owns one matplotlib Figure and a study (:mod:`genviz.studies`). ``update(**params)``
asks the study for a result and has the view's ``paint`` mutate existing artists from it
(``set_data``, ``set_offsets``, ``set_array``); it never creates a new figure. ``state`` is the
result, the numbers the view shows, so tests check numbers rather than pixels. A view's figure
is always drawn by Agg (tests, exports, the static background); what ``update`` changes is
recorded as drawing operations for the browser (:mod:`genviz.plots._record`,
:meth:`View.record_frame`).
"""

from __future__ import annotations

import base64
import html
import io
import re
import weakref

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import display
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine
from matplotlib.transforms import Bbox

from genviz.plots import _record
from genviz.plots.style import tidy_ticks

__all__ = ["View", "new_figure", "show", "figure_png", "figure_bytes", "can_blit",
           "describe_figure", "figure_description", "set_description", "image_bundle",
           "plain_text", "fmt", "finish_layout"]


def new_figure(figsize=(6.4, 4.8), **kwargs):
    """Create a figure on an Agg canvas, without displaying it (whatever pyplot's backend).

    Explorers never put a figure's canvas in the page: the browser draws the figure from its
    static background (a PNG, re-sent only when it changes) and the recorded animated artists
    (:meth:`View.record_frame`). So ``%matplotlib widget`` in a notebook changes nothing here,
    and the figure is not pyplot's (pyplot's hooks never repaint it behind the view's back).
    """
    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def finish_layout(fig, *, pad=0.04) -> None:
    """Place the axes, titles, labels and outside legends once, without overlaps.

    Runs matplotlib's constrained layout a single time (it measures every text, so lecture-size
    fonts get the room they need), then freezes the positions: later slider updates neither pay
    for a layout pass nor move the axes under a cached blit background. In lecture style the
    automatic tick locators are thinned first (:func:`genviz.plots.style.tidy_ticks`).
    Call it at the end of a view's ``__init__``, after everything static is drawn.
    """
    tidy_ticks(fig)
    fig.set_layout_engine("constrained", w_pad=pad, h_pad=pad)
    fig.draw_without_rendering()
    fig.set_layout_engine("none")


_MISSING = object()


def _same(a, b) -> bool:
    """Whether two parameter values are equal (False when they cannot be compared)."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def figure_png(fig, dpi=None) -> bytes:
    """The figure rendered to PNG bytes (Agg): :func:`figure_bytes` as PNG."""
    return figure_bytes(fig, "png", dpi)


def figure_bytes(fig, fmt: str, dpi=None) -> bytes:
    """The figure as ``savefig`` writes it in ``fmt`` ("png", "rgba", ...).

    A figure laid out by :func:`finish_layout` keeps matplotlib's no-op placeholder engine,
    and with any engine set ``savefig`` first draws the whole figure (drawing disabled) for a
    layout that does nothing: the engine is taken off for the call (the same bytes, one draw
    instead of two)."""
    buf = io.BytesIO()
    engine = fig.get_layout_engine()
    frozen = isinstance(engine, PlaceHolderLayoutEngine)
    if frozen:
        fig.set_layout_engine(None)
        frozen = fig.get_layout_engine() is None  # rcParams may ask for an engine: keep it
        if not frozen:
            fig.set_layout_engine(engine)
    try:
        fig.savefig(buf, format=fmt, dpi=dpi)
    finally:
        if frozen:
            fig.set_layout_engine(engine)
    return buf.getvalue()


def can_blit(canvas) -> bool:
    """Whether views may blit on this canvas (an Agg canvas can: ``copy_from_bbox`` and
    ``restore_region``)."""
    return hasattr(canvas, "copy_from_bbox") and hasattr(canvas, "restore_region")


# -- alt text ------------------------------------------------------------------------------------
# Every figure image carries a description (alt text) of what it shows: JupyterLab and Voila
# read it from an <img alt> in the text/html representation (JupyterLab's PNG renderer ignores
# output metadata), nbconvert's classic template and the course website (docs/conf.py) from the
# image/png output's metadata ``{"image/png": {"alt": ...}}``, and text-only front ends print the
# text/plain part, which is the description itself.

_TEX = {r"\mu": "μ", r"\Sigma": "Σ", r"\sigma": "σ", r"\rho": "ρ", r"\lambda": "λ",
        r"\theta": "θ", r"\phi": "φ", r"\alpha": "α", r"\epsilon": "ε", r"\varepsilon": "ε",
        r"\pi": "π", r"\log": "log", r"\exp": "exp", r"\hat": "", r"\mathrm": "",
        r"\,": " ", r"\;": " ", r"\!": "", r"\|": "‖", r"\sqrt": "√", r"\le": "≤",
        r"\ge": "≥", r"\cdot": "·", r"\times": "×", r"\propto": "∝", r"\prod": "∏",
        r"\sum": "∑", r"\infty": "∞", r"\mid": "|", r"\frac": "", r"\left": "",
        r"\right": "", r"\top": "ᵀ", r"\to": "→"}
_SUB = str.maketrans("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ")
_SUP = str.maketrans("0123456789+-=()nT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿᵀ")


def plain_text(label: str) -> str:
    """A matplotlib label with its mathtext (``$x_1$``, ``$\\Sigma^{-1}$``) as plain Unicode.

    >>> plain_text(r"density $p(x;\\mu,\\Sigma)$ at $x_1$")
    'density p(x;μ,Σ) at x₁'
    """
    def math(m):
        t = m.group(1)
        for tex, uni in sorted(_TEX.items(), key=lambda kv: -len(kv[0])):
            t = re.sub(re.escape(tex) + (r"(?![A-Za-z])" if tex[-1].isalpha() else ""), uni, t)
        t = re.sub(r"_\{([^{}]*)\}|_(\w)", lambda s: (s.group(1) or s.group(2)).translate(_SUB), t)
        t = re.sub(r"\^\{([^{}]*)\}|\^(\w)",
                   lambda s: (s.group(1) or s.group(2)).translate(_SUP), t)
        return t.replace("{", "").replace("}", "").replace("\\", "")

    return re.sub(r"\s+", " ", re.sub(r"\$([^$]*)\$", math, str(label))).strip()


def fmt(value, digits: int = 3) -> str:
    """A number as a person writes it in a sentence (``0.8``, ``-1.25``, ``1000``, ``0.000348``).

    >>> fmt(0.80000001), fmt(-1.0), fmt(1234.5678), fmt(3.4812e-4)
    ('0.8', '-1', '1234.57', '0.000348')
    """
    v = float(value)
    if v != v:
        return "undefined"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    if abs(v) >= 100:
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return f"{v:.{digits}g}" if abs(v) >= 1e-4 else f"{v:.2e}"


def _axes_summary(ax) -> str:
    parts = []
    title = plain_text(ax.get_title())
    if getattr(ax, "name", "") == "3d":
        kind = "3-D surface"
    elif ax.images:
        kind = "image"
    elif ax.patches and not ax.lines:
        kind = "bar chart"
    elif ax.collections and not ax.lines:
        kind = "scatter/contour plot"
    else:
        kind = "plot"
    parts.append(f"{kind}{f' titled {title!r}' if title else ''}")
    xl, yl = plain_text(ax.get_xlabel()), plain_text(ax.get_ylabel())
    if xl or yl:
        parts.append(f"{yl or 'y'} against {xl or 'x'}")
    legend = ax.get_legend()
    if legend is not None:
        items = [plain_text(t.get_text()) for t in legend.get_texts() if t.get_text()]
        if items:
            parts.append("legend: " + "; ".join(items))
    return ", ".join(parts)


def describe_figure(fig) -> str:
    """Generic alt text for a figure without a view: its panels' titles, axis labels, legends.

    Views describe themselves from their state (:meth:`View.describe`); this fallback serves
    static figures that were not given a description (:func:`set_description`).
    """
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.get_label() != "<colorbar>"]
    axes = [ax for ax in axes if ax.has_data() or ax.get_title() or getattr(ax, "name", "") == "3d"]
    sup = plain_text(fig._suptitle.get_text()) if getattr(fig, "_suptitle", None) else ""
    head = f"Figure {sup!r}" if sup else "Figure"
    if not axes:
        return head + "."
    if len(axes) == 1:
        return f"{head}: {_axes_summary(axes[0])}."
    panels = "; ".join(f"({i}) {_axes_summary(ax)}" for i, ax in enumerate(axes, 1))
    return f"{head} with {len(axes)} panels: {panels}."


def set_description(fig, text: str):
    """Attach alt text to a static figure (used by :func:`show`); returns the figure."""
    fig._genviz_description = str(text)
    return fig


def figure_description(fig) -> str:
    """The alt text of a figure: set by :func:`set_description`, else its view's
    :meth:`View.describe` (with any error banner), else :func:`describe_figure`."""
    text = getattr(fig, "_genviz_description", None)
    if text:
        return text
    ref = getattr(fig, "_genviz_view", None)
    view = ref() if ref is not None else None
    if view is not None:
        text = view.describe()
        if view.message:
            text = f"{text} Message shown over the figure: {view.message}"
        return text
    return describe_figure(fig)


def image_bundle(png: bytes, alt: str, *, caption: str | None = None):
    """``(data, metadata)`` of a display output showing ``png`` with alt text everywhere.

    ``text/html`` is an ``<img alt>`` (JupyterLab, Voila, nbconvert's lab template and GitHub
    render it), ``image/png`` carries ``alt`` (and the optional ``caption``) in its metadata
    (nbconvert's classic template; the course website), ``text/plain`` is the description.
    """
    b64 = base64.b64encode(png).decode("ascii")
    alt_html = html.escape(alt, quote=True)
    img = (f'<img src="data:image/png;base64,{b64}" alt="{alt_html}" '
           f'style="max-width:100%;height:auto">')
    if caption:
        img = f"<figure style='margin:0'>{img}<figcaption>{html.escape(caption)}</figcaption></figure>"
    meta = {"alt": alt}
    if caption:
        meta["caption"] = caption
    return ({"image/png": b64, "text/html": img, "text/plain": alt}, {"image/png": meta})


def show(fig, alt: str | None = None) -> None:
    """Display a static figure in a notebook as a PNG image with alt text, then free it.

    ``alt`` describes what the figure shows; by default :func:`figure_description` (the view's
    own description when the figure belongs to a view, else one set with
    :func:`set_description`, else a generic one from titles, axis labels and legends).

    Static figures are images even under ``%matplotlib widget``: a live ipympl canvas per figure
    would add a widget model and a comm channel each (slower pages, and in Voila an occasional
    "model not found" race) for no interaction the figure needs. Explorers embed their live
    canvas themselves.

    Returns None: a returned object would be displayed a second time as the cell's result
    whenever ``show(...)`` is a cell's last line (the browser tests caught every figure
    appearing twice).
    """
    text = figure_description(fig) if alt is None else str(alt)
    data, metadata = image_bundle(figure_png(fig), text)
    display(data, metadata=metadata, raw=True)
    _close_figure(fig)


def _close_figure(fig) -> None:
    """Free a figure: pyplot's (``plt.figure``) are closed; :func:`new_figure`'s belong to no
    one but their owner and go with it."""
    if getattr(fig.canvas, "manager", None) is not None:
        plt.close(fig)


def _children_in_order(parent) -> list:
    """``parent``'s children in the order matplotlib draws them (its stable sort by zorder;
    an axes' patch first, a 3-D axes' axis objects before the rest)."""
    kids = parent.get_children()
    if isinstance(parent, Axes):
        kids.remove(parent.patch)
        first = [parent.patch]
        if not (parent.axison and parent._frameon):
            spines = {id(s) for s in parent.spines.values()}
            kids = [k for k in kids if id(k) not in spines]
        axes_axis = {id(a) for a in parent._axis_map.values()}
        if getattr(parent, "name", "") == "3d":
            first += [k for k in kids if id(k) in axes_axis]
            kids = [k for k in kids if id(k) not in axes_axis]
        elif not parent.axison:
            kids = [k for k in kids if id(k) not in axes_axis]
        return first + sorted(kids, key=lambda a: a.get_zorder())
    kids.remove(parent.patch)
    return [parent.patch] + sorted(kids, key=lambda a: a.get_zorder())


def _draw_sequence(fig) -> list:
    """Every artist of ``fig`` that a full draw draws as one piece, in savefig's order (axes
    expanded into their children)."""
    out = []
    for artist in _children_in_order(fig):
        if isinstance(artist, Axes):
            out += _children_in_order(artist)
        else:
            out.append(artist)
    return out


def _clipped_extent(artist, renderer, extent):
    """``extent`` cut to the artist's clip box when it clips (None when nothing is left)."""
    box = artist.get_clip_box() if artist.get_clip_on() else None
    if box is not None:
        extent = Bbox.intersection(extent, box)
    return extent


def _ink_extents(artist, renderer) -> list:
    """Where ``artist`` may put ink, as display-space boxes (conservative). An axis counts by
    its grid lines and tick marks only: its labels lie outside the axes, where nothing that
    moves is drawn (a clipped artist) -- and an animated artist that is not clipped counts by
    its own extent. Tick marks count only when they point into the axes."""
    if isinstance(artist, Axis):
        boxes = []
        for tick in artist._update_ticks():
            lines = [tick.gridline]
            if getattr(tick, "_tickdir", "out") != "out":  # marks reaching into the axes
                lines += [tick.tick1line, tick.tick2line]
            for line in lines:
                if line.get_visible():
                    boxes.append(_clipped_extent(line, renderer, line.get_window_extent(renderer)))
        return [b for b in boxes if b is not None]
    try:
        extent = artist.get_window_extent(renderer)
    except Exception:  # an artist without a measurable extent: assume it may be anywhere
        extent = artist.get_figure(root=True).bbox
    box = _clipped_extent(artist, renderer, extent)
    return [] if box is None else [box]


def _overlaps(boxes, region, pad=2.0) -> bool:
    """Whether any box, grown by ``pad`` px (extents leave out line widths: a spine's is
    a zero-width box on the axes' edge), meets any region box."""
    for r in region:
        x0, y0, x1, y1 = r.x0 - pad, r.y0 - pad, r.x1 + pad, r.y1 + pad
        for b in boxes:
            if b.x0 < x1 and b.x1 > x0 and b.y0 < y1 and b.y1 > y0:
                return True
    return False


def _static_above(fig, animated) -> list:
    """The static artists matplotlib draws after an animated artist whose region they may
    overlap, in drawing order (the others can stay in the background: order matters only where
    ink meets). The order is the whole figure's (:func:`_draw_sequence`, savefig's): an artist
    of a twin or inset axes drawn after an axes with animated artists, or a figure-level legend
    drawn after the axes, is above those artists as much as a spine of their own axes. An
    animated artist's region is its clip box when it clips (stable as it moves), else its
    current extent."""
    moving = {id(a) for a in animated if a.figure is not None}
    renderer = fig.canvas.get_renderer()

    def region(artist):
        box = artist.get_clip_box() if artist.get_clip_on() else None
        if box is not None and artist.get_clip_path() is None:
            return [box]
        return _ink_extents(artist, renderer)

    out, where = [], []
    for a in _draw_sequence(fig):
        if id(a) in moving:
            if a.get_visible():
                where += region(a)
        elif where and a.get_visible() and _overlaps(_ink_extents(a, renderer), where):
            out.append(a)
    return out


def _save_figure_level_animated(fig) -> None:
    """Make ``savefig`` draw the figure-level artists flagged ``animated`` (the static ones
    above a moving artist, :func:`_static_above`). matplotlib's Axes draws its animated
    children when saving, but a Figure never does (``Figure._get_draw_artists`` drops them), so
    a figure legend over a moving curve would vanish from a saved image. Installed once per
    figure; ordinary draws (the background) still leave them out."""
    if getattr(fig, "_genviz_saves_animated", False):
        return
    original = fig._get_draw_artists

    def draw_artists(renderer):
        artists = original(renderer)
        if not fig.canvas.is_saving():
            return artists
        kids = [a for a in fig.get_children() if a is not fig.patch]
        shown = (a for a in kids if not a.get_animated() or getattr(a, "_genviz_above", False))
        return sorted(shown, key=lambda a: a.get_zorder())

    fig._get_draw_artists = draw_artists
    fig._genviz_saves_animated = True


class View:
    """Base class of every view: a figure, the numbers it shows, and an error banner.

    Subclasses name their study (``class V(View, study=S)``), create their artists once,
    register the ones ``paint`` changes with :meth:`animate`, and call
    :meth:`request_full_redraw` when something static changes (axis limits, tick labels). The
    figure is then two layers: the **static background** (the figure drawn by Agg without its
    animated artists: :meth:`background_png`, redrawn only after :meth:`request_full_redraw`)
    and the **animated artists**, which :meth:`record_frame` records as drawing operations
    (:mod:`genviz.plots._record`) for the browser to replay over the background.
    :meth:`redraw` paints the same two layers on the Agg canvas (a blit), so the canvas, the
    recording and ``savefig`` show the same figure. pyplot's stale callback is off: repaints
    happen only when asked, so a static change must call :meth:`request_full_redraw`.
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
        self._background_rgba = None  # the static layer's pixels at the last full draw
        self._background_version = 0  # counts full draws (a background to hash anew)
        self._background_seen = -1
        self._background_hash = None
        self._background_png = None
        self._recorder = None
        self._above = None  # static artists drawn over the animated ones (_sync_layers)
        self._layers_key = None
        self._static_changes = 0  # counts request_full_redraw calls
        fig.canvas.mpl_connect("draw_event", self._on_draw)
        # The view owns its repaints: static changes call request_full_redraw (pyplot's stale
        # callback would otherwise schedule hidden draws); tests/test_frames.py checks, for every
        # explorer and control, that background + recorded frame equals a full draw.
        fig.stale_callback = None
        # show(view.fig) and explorers find the view's description through its figure
        fig._genviz_view = weakref.ref(self)

    # -- the update protocol ---------------------------------------------------------------
    # A view is a study plus a painter. The class names its study (``class V(View,
    # study=VStudy)``); its ``__init__`` makes it (:meth:`use_study`), draws the static parts
    # from ``use_study``'s result, then calls :meth:`update`. ``update`` is this class's only:
    # it checks the names, merges them with the current parameters, asks the study for a
    # result, has the subclass's :meth:`paint` set the artists from it, and keeps the result as
    # ``state``. A painter never sees the study (tests/test_views_only_draw.py).

    def __init_subclass__(cls, study=None, **kwargs):
        """``study=``: the view's study class."""
        super().__init_subclass__(**kwargs)
        if study is not None:
            cls._study_type = study

    def use_study(self, *args, study=None, **config):
        """Make this view's study from ``args`` and ``config`` (or take ``study``, one already
        made) and return its :meth:`~genviz.studies.Study.static` result; the parameters start
        at the study's defaults. Call it first in ``__init__``."""
        kind = getattr(type(self), "_study_type", None)
        if kind is None:
            raise TypeError(f"{type(self).__name__} names no study: declare it as "
                            f"class {type(self).__name__}(View, study=...)")
        if study is None:
            study = kind(*args, **config)
        elif not isinstance(study, kind):
            raise TypeError(f"study must be a {kind.__name__}, got {type(study).__name__}")
        self._study = study
        self._painted = None
        self.params = study.defaults()
        return study.static()

    @property
    def study(self):
        """The view's study (for callers and tests; a painter never reads it)."""
        return getattr(self, "_study", None)

    def parameter_names(self) -> tuple:
        """The names ``update(**params)`` accepts: the study's."""
        study = getattr(self, "_study", None)
        return tuple(study.parameter_names()) if study is not None else ()

    def check_params(self, params) -> None:
        """Refuse names ``update`` does not know, with one message for every view: a TypeError
        naming the unknown parameter(s) and listing the valid ones."""
        valid = self.parameter_names()
        unknown = sorted(set(params) - set(valid))
        if unknown:
            raise TypeError(f"{type(self).__name__}.update() got unknown parameter(s) "
                            f"{', '.join(map(repr, unknown))}; valid parameters: "
                            f"{', '.join(valid)}")

    def update(self, **params) -> None:
        """Set any of the parameters: check the names, merge them with the current ones, ask
        the study, paint its result and keep it as ``state``. A bad value raises (from the
        study, naming the parameter) before anything changes."""
        self.check_params(params)
        merged = {**self.params, **params}
        result = self._study(**merged)
        before = self._painted
        changed = frozenset(merged) if before is None else frozenset(
            k for k in merged if not _same(merged[k], before.get(k, _MISSING)))
        self.paint(result, changed)
        self.params = self._painted = merged
        self.state = result

    def paint(self, result, changed) -> None:  # pragma: no cover - abstract
        """Set the artists from ``result`` (the study's); ``changed`` names the parameters
        that differ from the last paint (all of them the first time)."""
        raise NotImplementedError

    def prefetch(self, *args, **kwargs) -> None:
        """Have the study compute, in the background, what later moves will ask for (a study
        without ``prefetch`` ignores it)."""
        fn = getattr(getattr(self, "_study", None), "prefetch", None)
        if fn is not None:
            fn(*args, **kwargs)

    # -- painting helpers: the bookkeeping and comparisons a painter does not make --------------
    def remove_animated(self, artist) -> None:
        """Take an animated artist out of the figure (e.g. a contour set a line replaces)."""
        if artist in self._animated:
            self._animated.remove(artist)
        artist.remove()

    def set_limits(self, ax, *, xlim=None, ylim=None, zlim=None) -> bool:
        """Set the axis limits that differ from ``ax``'s; a change is static, so the next
        redraw is a full one. Returns whether any changed."""
        changed = False
        for lim, get, set_ in ((xlim, ax.get_xlim, ax.set_xlim), (ylim, ax.get_ylim, ax.set_ylim),
                               (zlim, getattr(ax, "get_zlim", None), getattr(ax, "set_zlim", None))):
            if lim is not None and tuple(get()) != tuple(lim):
                set_(*lim)
                changed = True
        if changed:
            self.request_full_redraw()
        return changed

    def follow_top(self, ax, top, nice_top, *, band=0.4) -> bool:
        """Set ``ax``'s y range to ``(0, nice_top)`` only when ``top`` (the highest value
        drawn) leaves the band ``[band, 1]`` of the current range; returns whether it did."""
        current = ax.get_ylim()[1]
        if top > current or top < band * current:
            ax.set_ylim(0.0, nice_top)
            self.request_full_redraw()
            return True
        return False

    def close(self) -> None:
        """Free the figure and whatever the study holds (background work)."""
        study = getattr(self, "_study", None)
        if study is not None:
            study.close()
        _close_figure(self.fig)

    def describe(self) -> str:
        """Alt text: what the figure shows, with the numbers of the current state.

        Every view overrides this with a sentence built from ``state`` (a test checks that
        each does); this fallback lists the panels' titles, axis labels and legends.
        """
        return describe_figure(self.fig)

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
        self._static_changes = getattr(self, "_static_changes", 0) + 1

    def animated_artists(self) -> list:
        """What is drawn over the static background, in matplotlib's drawing order: the
        animated artists and the static artists matplotlib draws after them (:meth:`above`),
        visible ones only. The browser replays exactly these (:meth:`record_frame`)."""
        self._sync_layers()
        mine = {id(a) for a in self._animated} | {id(a) for a in self._above}
        return [a for a in _draw_sequence(self.fig)
                if id(a) in mine and a.get_visible() and a.figure is not None]

    def above(self) -> list:
        """The static artists drawn over the animated ones (matplotlib's draw order over the
        whole figure: after an animated artist they overlap, in its axes, a twin or inset axes
        drawn later, or at figure level): left out of the
        background, recorded with the animated artists (spines over a contour set, a
        reference line over histogram bars)."""
        self._sync_layers()
        return list(self._above)

    def _sync_layers(self) -> bool:
        """Recompute :meth:`above` when a full redraw is due (a static change) or the animated
        artists changed (one replaced, shown or hidden); when the answer changed, the
        background is drawn anew. The static artists above are flagged ``animated`` for
        matplotlib (its ordinary draws, hence the background, skip them; ``savefig`` draws
        everything in its z-order) but are not :meth:`animate`'s. Returns whether they changed."""
        key = (self._static_changes, self.fig.canvas.get_width_height(physical=True),
               tuple((id(a), a.get_visible(), a.figure is not None) for a in self._animated))
        if key == self._layers_key:
            return False  # nothing static changed, the same animated artists: the same layers
        self._layers_key = key
        above = _static_above(self.fig, self._animated)
        old = self._above
        if old is not None and [id(a) for a in old] == [id(a) for a in above]:
            return False
        for artist in old or ():
            if not any(artist is a for a in above):
                artist._animated = artist._genviz_above = False
        for artist in above:
            artist._animated = artist._genviz_above = True
        if any(a.axes is None for a in above):
            _save_figure_level_animated(self.fig)
        self._above = above
        self._full_redraw = True
        return True

    def _draw_animated(self, renderer) -> None:
        for artist in self.animated_artists():
            if hasattr(artist, "do_3d_projection"):
                artist.do_3d_projection()
            artist.draw(renderer)

    def _on_draw(self, event) -> None:
        canvas = self.fig.canvas
        if canvas.is_saving():
            # savefig draws every artist, animated ones in their z-order: no background to
            # keep, nothing to draw again (a second pass would darken translucent artists)
            return
        if event is not None and event.canvas is canvas and can_blit(canvas):
            if self._sync_layers():
                # a draw not asked through redraw() met new layers: what it drew put static
                # artists under moving ones; draw again without them
                canvas.draw()
                return
            self._background = canvas.copy_from_bbox(self.fig.bbox)
            self._background_size = canvas.get_width_height(physical=True)
            self._background_rgba = np.asarray(canvas.buffer_rgba()).copy()
            self._background_version += 1
            self._full_redraw = False
        renderer = event.renderer if event is not None else canvas.get_renderer()
        self._draw_animated(renderer)

    def _needs_full_draw(self) -> bool:
        self._sync_layers()
        canvas = self.fig.canvas
        return (self._full_redraw or self._background is None or not can_blit(canvas)
                or canvas.get_width_height(physical=True) != self._background_size)

    def redraw(self) -> str:
        """Repaint the Agg canvas; returns ``"blit"`` or ``"full"`` (also in ``last_redraw``).

        A full draw when the static background changed (:meth:`request_full_redraw`) or was
        never drawn; else the cached background is restored and only the animated artists are
        drawn over it (a full Agg draw is dominated by tick labels and text)."""
        canvas = self.fig.canvas
        if self._needs_full_draw():
            canvas.draw()
            self.last_redraw = "full"
        else:
            canvas.restore_region(self._background)
            self._draw_animated(canvas.get_renderer())
            self.fig.stale = False
            self.last_redraw = "blit"
        return self.last_redraw

    # -- what the browser replays: a static background and recorded animated artists -------
    def background_png(self) -> tuple[bytes, str]:
        """``(png, key)``: the static background as a PNG and a hash of its pixels (drawn in
        full first when it changed): :func:`genviz.plots._record.background_png`."""
        return _record.background_png(self)

    def record_frame(self, pool=None) -> bytes:
        """The animated artists recorded as drawing operations for the browser (an encoded
        frame): :func:`genviz.plots._record.record_view`."""
        return _record.record_view(self, pool)

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
