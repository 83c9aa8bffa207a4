"""The explorer pattern: controls bound to a view, with a live readout, drawn by the browser.

An :class:`Explorer` is one anywidget: one hand-written ES module
(``genviz/widgets/static/explorer.js``, shipped as package data, no build step) draws the
controls (native range inputs, selects, radio buttons, a textarea), the readout and the figure
in JupyterLab, in Voilà and on the course website. The figure is a ``<canvas>`` over the view's
static background PNG; what a control moves is drawn from numbers matplotlib recorded
(:mod:`genviz.plots._record`). Two paths to a new state:

* **precomputed** (the "gridded" controls each explorer declares with ``grid=True``): the
  browser holds every state of those controls at the current values of the others (built once
  per content hash and cached: :mod:`genviz.widgets.states`) and redraws with no server work.
  The kernel hears the value on release (one message per drag; keyboard steps debounced) and
  runs ``view.update`` without sending a frame back, so ``values()``, ``view.state`` and the
  exercises that read an explorer stay right;
* **kernel** (other controls, free text, a gridded control while another control is off the
  grid's base): the kernel runs ``view.update``, records the animated artists and sends their
  numbers (a PNG only when the static background changed). The browser keeps one request in
  flight and buffers the newest value (as ipywidgets does).

Setting a control from Python (``explorer.controls["rho"].value = 0.5``) updates the view,
the readout and, once the explorer has been displayed, the browser. An invalid combination
never raises into the notebook: the view shows it as a banner and the readout says what to do.
"""

from __future__ import annotations

import functools
import html
import pathlib

import anywidget
import traitlets

from genviz.plots._base import figure_description, figure_png, image_bundle
from genviz.widgets import payload, states
from genviz.widgets._controls import Choice, Control, SelectionSlider, Slider, TextArea

__all__ = ["Explorer", "ExplorerCore", "Readout", "float_slider", "int_slider", "log_slider",
           "selection_slider", "dropdown", "toggle_buttons", "text_area", "readout_html",
           "explorer_factory", "STATIC"]

#: The front end: one ES module and its stylesheet (package data).
STATIC = pathlib.Path(__file__).parent / "static"

#: Narrowest column a control needs (sliders are 330 px wide); explorer.css uses the same.
CONTROL_COLUMN_PX = 340


def readout_html(*lines: str, font_size: str | None = None) -> str:
    """The house readout: HTML lines in a monospace block, one per line.

    Every explorer's readout is built with this function, so the readouts look alike and a style
    change is made once. The lines are HTML already (escape user text with ``html.escape``).

    Parameters
    ----------
    *lines : str
        HTML fragments, joined with ``<br>``.
    font_size : str, optional
        A CSS size for dense readouts (a table), e.g. ``"90%"``.

    Returns
    -------
    str

    Examples
    --------
    >>> readout_html("k = 3", "accuracy = 0.950")
    "<div style='font-family:monospace;line-height:1.5'>k = 3<br>accuracy = 0.950</div>"
    """
    style = "font-family:monospace;line-height:1.5"
    if font_size is not None:
        style += f";font-size:{font_size}"
    return f"<div style='{style}'>" + "<br>".join(lines) + "</div>"


# -- the house controls ------------------------------------------------------------------------
def float_slider(description, value, min, max, step, *, continuous_update=True,
                 readout_format=".2f", grid=False, width=None) -> Slider:
    """A slider over ``min, min + step, ..., max`` (keyboard operable; ``grid=True``: its
    states are precomputed for the browser). ``width`` is accepted for compatibility."""
    return Slider(description, value, min, max, step, readout_format=readout_format,
                  continuous_update=continuous_update, grid=grid)


def int_slider(description, value, min, max, step=1, *, continuous_update=True, grid=False,
               width=None) -> Slider:
    """An integer slider in the house style of :func:`float_slider`."""
    return Slider(description, value, min, max, step, integer=True,
                  continuous_update=continuous_update, grid=grid)


def log_slider(description, value, min, max, step, *, base=10, readout_format=".3g",
               continuous_update=True, grid=False) -> Slider:
    """A slider over ``base ** x`` for ``x = min, min + step, ..., max`` (ipywidgets'
    FloatLogSlider)."""
    return Slider(description, value, min, max, step, base=base, readout_format=readout_format,
                  continuous_update=continuous_update, grid=grid)


def selection_slider(description, options, value, *, continuous_update=True,
                     grid=False) -> SelectionSlider:
    """A slider over the values ``options`` in the given order (e.g. training-set sizes)."""
    return SelectionSlider(description, options, value, continuous_update=continuous_update,
                           grid=grid)


def dropdown(description, options, value, *, grid=False) -> Choice:
    """A drop-down list (``<select>``); options are values or ``(label, value)`` pairs."""
    return Choice(description, options, value, style="dropdown", grid=grid)


def toggle_buttons(description, options, value, *, grid=False) -> Choice:
    """A row of radio buttons (one choice of a few); options as for :func:`dropdown`."""
    return Choice(description, options, value, style="toggle", grid=grid)


def text_area(description, value="", *, placeholder="", rows=5, presets=(),
              grid=False) -> TextArea:
    """A text box; the kernel hears the text when the box loses focus. ``presets`` with
    ``grid=True``: the texts whose states are precomputed (see :class:`TextArea`)."""
    return TextArea(description, value, placeholder=placeholder, rows=rows, presets=presets,
                    grid=grid)


# -- the explorer ------------------------------------------------------------------------------
class Readout:
    """The live readout of an explorer: ``.value`` is its current HTML."""

    def __init__(self):
        self.value = ""

    def __repr__(self) -> str:
        return f"Readout({self.value[:60]!r}...)"


class ExplorerCore:
    """An explorer without a widget: the view, its controls and the readout function.

    What :class:`Explorer` wraps, and what a grid is built from in a background thread (no
    widget, no comm): :func:`explorer_factory` makes a factory return one of these inside
    :func:`genviz.widgets.states.headless`.
    """

    def __init__(self, view, controls: dict, readout, *, title: str | None = None):
        self.view = view
        self.controls = dict(controls)
        for name, control in self.controls.items():
            if not isinstance(control, Control):
                raise TypeError(f"control {name!r} must be a genviz control (float_slider, "
                                f"int_slider, log_slider, dropdown, toggle_buttons, text_area), "
                                f"got {type(control).__name__}")
            control.observe(self._on_change)
        self._readout_fn = readout
        self.readout = Readout()
        self.title = title
        self.n_updates = 0
        self.error: str | None = None
        self.on_refresh = None  # called after each refresh with the origin
        self.factory = None     # (function, args, kwargs) when built by an explorer_factory
        self.refresh(origin="init")

    def values(self) -> dict:
        """Current value of every control, by parameter name."""
        return {name: control.value for name, control in self.controls.items()}

    def when_shown(self, fn) -> None:
        """No browser ever shows a core: ``fn`` never runs (see :meth:`Explorer.when_shown`)."""

    def _on_change(self, control) -> None:
        self.refresh()

    def refresh(self, *, origin: str = "python", frame: bool = True, ack: str | None = None):
        """Update the view from the controls; set the error or the readout."""
        try:
            self.view.update(**self.values())
        except (ValueError, TypeError, ArithmeticError) as exc:
            self.error = str(exc)
            self.view.show_message(f"Cannot draw this: {exc}")
            text = (f"<div style='color:#7a0000'><b>Invalid setting.</b> "
                    f"{html.escape(str(exc))}</div>")
        else:
            self.error = None
            self.view.clear_message()
            text = self._readout_fn(self.view.state)
        self.readout.value = text
        self.n_updates += 1
        if self.on_refresh is not None:
            self.on_refresh(origin=origin, frame=frame, ack=ack)

    def describe(self) -> str:
        """Alt text of the figure in its current state (the view's description + banner)."""
        return figure_description(self.view.fig)

    def how_to_run(self) -> str:
        """One line telling a reader of a static page how to use the explorer live."""
        names = [c.description for c in self.controls.values() if c.description]
        what = f" ({', '.join(names)})" if names else ""
        return (f"Interactive explorer{f' “{self.title}”' if self.title else ''}, shown here "
                f"as an image of its current setting. Run this notebook in JupyterLab, Voilà "
                f"or Binder to move its controls{what}.")

    def spec(self) -> dict:
        """What the browser draws: title, controls (in order), figure size in pixels."""
        w, h = self.view.fig.canvas.get_width_height(physical=True)
        return {"title": self.title or "", "width": w, "height": h, "id": f"{id(self):x}",
                "controls": [{"name": name, **c.spec()} for name, c in self.controls.items()],
                "run": self.how_to_run()}

    def front_values(self) -> dict:
        return {name: c.to_front() for name, c in self.controls.items()}

    def close(self) -> None:
        self.view.close()
        for control in self.controls.values():
            control.close()


class Explorer(anywidget.AnyWidget):
    """Controls + readout + figure, bound to a :class:`genviz.plots._base.View`, drawn by the
    browser (see the module docstring).

    Parameters
    ----------
    view : View
        Draws the figure; ``view.update(**values)`` receives every control's value by name.
    controls : dict[str, Control]
        Parameter name -> control (:func:`float_slider`, :func:`int_slider`,
        :func:`log_slider`, :func:`dropdown`, :func:`toggle_buttons`, :func:`text_area`).
    readout : callable(state) -> str
        HTML for the live readout from ``view.state``.
    title : str, optional
        A heading shown above the controls.

    Attributes
    ----------
    view, controls, title
        As passed in (``controls[name].value`` is settable from Python).
    readout : Readout
        ``readout.value`` is the current readout HTML.
    n_updates : int
        How many updates ran.
    error : str or None
        The last error message, or None.
    """

    _esm = STATIC / "explorer.js"
    _css = STATIC / "explorer.css"
    spec = traitlets.Dict().tag(sync=True)
    values_front = traitlets.Dict().tag(sync=True)
    readout_html = traitlets.Unicode("").tag(sync=True)
    alt = traitlets.Unicode("").tag(sync=True)
    background = traitlets.Bytes(b"").tag(sync=True)
    frame = traitlets.Bytes(b"").tag(sync=True)
    stale = traitlets.Bool(True).tag(sync=True)
    ack = traitlets.Unicode("").tag(sync=True)
    grid = traitlets.Bytes(b"").tag(sync=True)
    notice = traitlets.Unicode("").tag(sync=True)

    def __new__(cls, view, controls, readout, *, title=None):
        if states.is_headless():
            return ExplorerCore(view, controls, readout, title=title)
        return super().__new__(cls)

    def __init__(self, view, controls: dict, readout, *, title: str | None = None):
        self._core = ExplorerCore(view, controls, readout, title=title)
        self._displayed = False
        self._shown = False
        self._when_shown: list = []
        self._background_key = None
        self.grid_key: str | None = None
        self.grid_bytes: bytes | None = None
        super().__init__(spec=self._core.spec(), values_front=self._core.front_values(),
                         readout_html=self._core.readout.value)
        self._core.on_refresh = self._after_refresh
        self.on_msg(self._on_front_message)

    # -- the core's API ------------------------------------------------------------------------
    view = property(lambda self: self._core.view)
    controls = property(lambda self: self._core.controls)
    readout = property(lambda self: self._core.readout)
    title = property(lambda self: self._core.title)
    error = property(lambda self: self._core.error)
    n_updates = property(lambda self: self._core.n_updates)

    def values(self) -> dict:
        """Current value of every control, by parameter name."""
        return self._core.values()

    def refresh(self) -> None:
        """Update the view from the controls, then the readout (and the browser, if shown)."""
        self._core.refresh()

    def describe(self) -> str:
        """Alt text of the explorer's figure in its current state (the view's description)."""
        return self._core.describe()

    def how_to_run(self) -> str:
        """One line telling a reader of a static page how to use the explorer live."""
        return self._core.how_to_run()

    # -- to the browser ------------------------------------------------------------------------
    def _quiet(self, **traits) -> None:
        """Set traits the browser already has, without sending them back (the browser made
        the change)."""
        with self._lock_property(**traits):
            for name, value in traits.items():
                setattr(self, name, value)

    def _after_refresh(self, *, origin, frame, ack) -> None:
        if origin == "init" or not self._displayed:
            return
        core = self._core
        with self.hold_sync():
            if origin == "front":
                self._quiet(values_front=core.front_values())
                if not frame:  # a precomputed state: the browser drew it already
                    self._quiet(readout_html=core.readout.value, alt=core.describe())
                    self.stale = True
            else:
                self.values_front = core.front_values()
            if frame:
                self.readout_html = core.readout.value
                self.alt = core.describe()
                self._push_frame()
            if ack is not None:
                self.ack = ack

    def _push_frame(self) -> None:
        """Record the animated artists (and the background if it changed) into the model."""
        view = self.view
        frame = view.record_frame()
        png, key = view.background_png()
        if key != self._background_key:
            self.background = png
            self._background_key = key
        self.frame = frame
        self.stale = False

    def _push_all(self) -> None:
        with self.hold_sync():
            self.spec = self._core.spec()
            self.values_front = self._core.front_values()
            self.readout_html = self._core.readout.value
            self.alt = self._core.describe()
            self._push_frame()

    def _on_front_message(self, widget, content, buffers) -> None:
        """Messages from explorer.js: ``ready`` when a view is drawn; ``update`` with the
        positions/options/text of the controls the reader changed."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "ready":
            self._on_ready()
        elif kind == "update":
            values = content.get("values") or {}
            for name, raw in values.items():
                control = self.controls.get(name)
                if control is not None:
                    control.set(control.from_front(raw), notify=False)
            ack = f"{content.get('view', '')}:{content.get('seq', 0)}"
            self._core.refresh(origin="front", frame=bool(content.get("frame", True)), ack=ack)

    def _on_ready(self) -> None:
        self._displayed = True
        if self.stale or not self.frame:
            self._push_all()
        if not self._shown:
            self._shown = True
            while self._when_shown:
                self._when_shown.pop(0)()
            states.attach_grid(self)

    def when_shown(self, fn) -> None:
        """Run ``fn()`` once, when a browser first shows the explorer: for work worth doing
        only for a reader who can move the controls, such as warming a view's cache in the
        background. Never runs in tests, nbval or the site build (no browser)."""
        self._when_shown.append(fn)

    # -- where no widget manager runs -----------------------------------------------------------
    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live widget where a widget manager runs; elsewhere an image of the current state.

        Front ends that render widgets (JupyterLab, Voila, VS Code) pick the widget view, which
        draws at once from the state sent here (background, recorded frame, readout). Those
        that do not (GitHub, nbviewer, nbconvert's HTML export) get a PNG of the figure with its
        description as alt text (``text/html`` and the ``image/png`` metadata), and text-only
        front ends the description instead of a widget repr. On the course website build
        (``GENVIZ_STATES=embed``), the PNG's metadata also carries what the site's copy of
        explorer.js needs to move the gridded controls with no kernel.
        """
        self._displayed = True
        self._push_all()
        bundle = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        data = dict(bundle[0] if isinstance(bundle, tuple) else bundle or {})
        alt = self.describe()
        image, metadata = image_bundle(figure_png(self.view.fig), alt,
                                       caption=self.how_to_run())
        data.update(image)
        data["text/plain"] = f"{alt}\n{self.how_to_run()}"
        if self.grid_bytes is not None:
            metadata["image/png"]["genviz_explorer"] = payload.static_payload(
                self, narrow=states.states_mode() == "embed")
        return data, metadata

    def close(self) -> None:
        """Close the widget and the view (its figure)."""
        self._core.close()
        super().close()


# -- factories: what built an explorer, for its grid's content hash ------------------------------
def explorer_factory(fn):
    """Decorate a public ``*_explorer`` function: the explorer it returns remembers the
    function and its arguments (the content hash of its precomputed states,
    :func:`genviz.widgets.states.grid_key`), and gets its grid as ``GENVIZ_STATES`` says
    (``build`` and ``embed``: at once; otherwise when a browser shows it)."""

    @functools.wraps(fn)
    def factory(*args, **kwargs):
        explorer = fn(*args, **kwargs)
        core = explorer if isinstance(explorer, ExplorerCore) else explorer._core
        core.factory = (factory, args, kwargs)
        if isinstance(explorer, Explorer):
            states.on_built(explorer)
        return explorer

    factory._genviz_explorer_factory = True
    return factory
