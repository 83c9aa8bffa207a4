"""The explorer pattern: controls bound to a view, with a live text readout.

An :class:`Explorer` is an ipywidgets ``VBox`` holding the controls, the readout and the
figure. Moving a control calls ``view.update(**values)`` once, then repaints:

* with ipympl (``%matplotlib widget``) the figure's canvas is itself a widget and the repaint
  is ``draw_idle`` (artists were changed in place, nothing is rebuilt, no flicker);
* with any other backend (Agg in tests, the inline backend) the figure is shown through an
  ``ipywidgets.Image`` whose PNG is replaced in place.

An invalid combination of control values never raises into the notebook: the view shows the
error as a banner over the figure and the readout says what to change.
"""

from __future__ import annotations

import html
import io

import ipywidgets as widgets
from PIL import Image

from genviz.plots._base import figure_description, figure_png, image_bundle

__all__ = ["Explorer", "float_slider", "int_slider", "readout_html", "EXPLORER_CSS"]

#: Page CSS every explorer carries (in its header's HTML, scoped to ``.genviz-explorer``):
#: readouts wrap instead of widening the page (ipywidgets' HTML widget does not wrap long
#: lines by itself), readout tables are compact and aligned. Lecture sizes are in the Voila
#: template (share/jupyter/voila/templates/genviz-lecture), not here.
EXPLORER_CSS = """
.genviz-explorer .genviz-readout, .genviz-explorer .genviz-readout .widget-html-content {
  white-space: normal; overflow-wrap: break-word; min-width: 0; }
.genviz-explorer .genviz-readout table { border-collapse: collapse; margin: 2px 0; }
.genviz-explorer .genviz-readout th, .genviz-explorer .genviz-readout td {
  padding: 1px 8px 1px 0; text-align: left; vertical-align: top; }
.genviz-explorer .genviz-readout td.num { text-align: right; }
.genviz-explorer .genviz-readout .nowrap { white-space: nowrap; }
"""

#: Narrowest column a control needs (sliders are 330 px wide).
CONTROL_COLUMN_PX = 340


def _buffer_png(canvas) -> bytes:
    """PNG of what an Agg-based canvas last rendered (``View.redraw`` draws synchronously
    there, by blit or in full). Pillow is a matplotlib dependency."""
    buf = canvas.buffer_rgba()
    width, height = canvas.get_width_height(physical=True)
    out = io.BytesIO()
    Image.frombuffer("RGBA", (width, height), buf, "raw", "RGBA", 0, 1).save(
        out, format="png", compress_level=1)
    return out.getvalue()


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


def float_slider(description, value, min, max, step, *, continuous_update=True,
                 readout_format=".2f", width="330px"):
    """A FloatSlider with the house style (keyboard operable, wide enough to read)."""
    return widgets.FloatSlider(
        value=value, min=min, max=max, step=step, description=description,
        continuous_update=continuous_update, readout_format=readout_format,
        style={"description_width": "70px"}, layout=widgets.Layout(width=width),
    )


def int_slider(description, value, min, max, step=1, *, continuous_update=True, width="330px"):
    """An IntSlider in the house style of :func:`float_slider`."""
    return widgets.IntSlider(value=value, min=min, max=max, step=step, description=description,
                             continuous_update=continuous_update,
                             style={"description_width": "70px"},
                             layout=widgets.Layout(width=width))


class Explorer(widgets.VBox):
    """Controls + readout + figure, bound to a :class:`genviz.plots._base.View`.

    Parameters
    ----------
    view : View
        Draws the figure; ``view.update(**values)`` receives every control's value by name.
    controls : dict[str, ipywidgets.ValueWidget]
        Parameter name -> control.
    readout : callable(state) -> str
        HTML for the live readout from ``view.state``.
    title : str, optional
        A heading shown above the controls.

    Attributes
    ----------
    view : View
        The view passed in.
    controls : dict
        Parameter name -> control.
    readout : ipywidgets.HTML
        The live readout.
    canvas : ipywidgets.DOMWidget
        The widget showing the figure (the ipympl canvas, or an Image of its PNG).
    n_updates : int
        How many updates ran.
    error : str or None
        The last error message, or None.
    """

    def __init__(self, view, controls: dict, readout, *, title: str | None = None):
        self.view = view
        self.controls = dict(controls)
        self._readout_fn = readout
        # The readout wraps to the width of the controls' column (EXPLORER_CSS); it never
        # scrolls or widens the explorer.
        self.readout = widgets.HTML(layout=widgets.Layout(width="auto", min_width="0"))
        self.readout.add_class("genviz-readout")
        self.n_updates = 0
        self.error: str | None = None
        self.title = title
        self._when_shown: list = []
        canvas = view.fig.canvas
        self._live = isinstance(canvas, widgets.DOMWidget)
        self.canvas = canvas if self._live else widgets.Image(format="png")
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        if self._live:
            canvas.on_msg(self._on_canvas_message)
        super().__init__(self._layout(title))
        self.refresh()

    def _layout(self, title) -> list:
        """Header, then one wrapping row: [controls above readout | figure].

        The figure (at most ``style.FIGURE_WIDTH_BUDGET`` wide) sits beside the controls'
        column when the output area has room for both (JupyterLab at 1920 px, Voila lecture
        mode at 1280 px: controls and figure on one screen) and wraps below it otherwise
        (JupyterLab at 1280 or 1366 px with the file browser open): never wider than the page.
        The controls fill as many 340-px columns as the column's width allows.
        """
        header = widgets.HTML(f"<style>{EXPLORER_CSS}</style>"
                              + (f"<b>{html.escape(title)}</b>" if title else ""))
        header.add_class("genviz-title")
        grid = widgets.GridBox(list(self.controls.values()), layout=widgets.Layout(
            grid_template_columns=f"repeat(auto-fill, minmax({CONTROL_COLUMN_PX}px, 1fr))",
            width="100%"))
        grid.add_class("genviz-controls")
        # at most two control columns wide, so on a wide page the figure sits next to the
        # controls (not at the far right); lecture.css widens it to fill the row instead
        side = widgets.VBox([grid, self.readout], layout=widgets.Layout(
            flex=f"0 1 {2 * CONTROL_COLUMN_PX}px", min_width=f"{CONTROL_COLUMN_PX - 40}px",
            margin="0 12px 8px 0"))
        side.add_class("genviz-side")
        self.canvas.layout.flex = "0 0 auto"
        self.canvas.add_class("genviz-figure")
        body = widgets.HBox([side, self.canvas], layout=widgets.Layout(
            flex_flow="row wrap", align_items="flex-start", width="100%"))
        body.add_class("genviz-body")
        self.add_class("genviz-explorer")
        return [header, body]

    def values(self) -> dict:
        """Current value of every control, by parameter name."""
        return {name: control.value for name, control in self.controls.items()}

    def _on_change(self, change) -> None:
        self.refresh()

    def _on_canvas_message(self, widget, content, buffers) -> None:
        """When a browser view of the canvas is ready, send it a complete frame.

        The first frame can otherwise be lost (drawn before the view existed, or replaced in
        the browser before it loaded), leaving the canvas blank until a control moves.
        """
        if isinstance(content, dict) and content.get("type") == "initialized":
            self.view.request_full_redraw()
            self.view.redraw()
            while self._when_shown:
                self._when_shown.pop(0)()

    def when_shown(self, fn) -> None:
        """Run ``fn()`` once, when a browser first shows the figure (its canvas's
        ``initialized`` message): for work worth doing only for a reader who can move the
        sliders, such as warming a view's cache in the background. Never runs off ipympl
        (tests, nbval, the static site)."""
        self._when_shown.append(fn)

    def refresh(self) -> None:
        """Update the view from the controls, repaint, then update the readout."""
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
        # The frame first: the browser starts decoding the figure while it lays out the readout.
        self.render()
        # One assignment, so one message to the browser per update. The live region is the
        # widget's persistent element (.genviz-readout, made role=status/aria-live=polite by the
        # genviz-a11y front-end extension), not this markup, which is replaced on every update.
        self.readout.value = text
        self.n_updates += 1

    def render(self) -> None:
        """Repaint through the view (blit when it can, else a full draw).

        On a live ipympl canvas that is all: ipympl ships the changed pixels. On any other canvas
        (Agg: tests, the inline backend) the same blit or draw happens synchronously and the
        canvas buffer is encoded into the Image widget, so both paths run the same code and
        neither re-renders the whole figure for a PNG.
        """
        self.view.redraw()
        if not self._live:
            self.canvas.value = _buffer_png(self.view.fig.canvas)

    # -- where no widget manager runs -----------------------------------------------------------
    def describe(self) -> str:
        """Alt text of the explorer's figure in its current state (the view's description)."""
        return figure_description(self.view.fig)

    def how_to_run(self) -> str:
        """One line telling a reader of a static page how to use the explorer live."""
        names = [c.description for c in self.controls.values() if getattr(c, "description", "")]
        what = f" ({', '.join(names)})" if names else ""
        return (f"Interactive explorer{f' “{self.title}”' if self.title else ''}, shown here "
                f"as an image of its current setting. Run this notebook in JupyterLab, Voilà "
                f"or Binder to move its controls{what}.")

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live widget where a widget manager runs; elsewhere an image of the current state.

        Front ends that render widgets (JupyterLab, Voila, VS Code) pick the widget view. Those
        that do not (GitHub, nbviewer, nbconvert's HTML export, the course website) get a PNG of
        the figure with its description as alt text (``text/html`` and the ``image/png``
        metadata), and text-only front ends the description instead of ``Explorer(children=…)``.
        """
        data = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if isinstance(data, tuple):
            data = data[0]
        png = figure_png(self.view.fig) if self._live else self.canvas.value
        if self._live:
            self.view.request_full_redraw()  # savefig drew the figure outside the live canvas
        alt = self.describe()
        image, metadata = image_bundle(png, alt, caption=self.how_to_run())
        data = {**data, **image, "text/plain": f"{alt}\n{self.how_to_run()}"}
        return data, metadata

    def close(self) -> None:
        """Close the widgets and the view (its figure)."""
        self.view.close()
        for control in self.controls.values():
            control.close()
        super().close()
