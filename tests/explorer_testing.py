"""Shared checks for every explorer (ARCHITECTURE.md, "Conventions": explorers).

``sweep_explorer(explorer)`` moves each control over its range, ends included, one at a time,
and after every move checks that nothing raised into the notebook, the readout is non-empty,
and nothing drawn is NaN. Use it in each topic's widget test.
"""

from __future__ import annotations

import matplotlib.collections as mcoll
import matplotlib.image as mimage
import matplotlib.lines as mlines
import numpy as np
import ipywidgets as widgets


def control_values(control, n: int = 5) -> list:
    """Values spanning a control's range, ends included (options for dropdowns/toggles)."""
    if isinstance(control, (widgets.FloatSlider, widgets.FloatLogSlider)):
        if isinstance(control, widgets.FloatLogSlider):
            exps = np.linspace(control.min, control.max, n)
            return [float(control.base ** e) for e in exps]
        return [float(v) for v in np.linspace(control.min, control.max, n)]
    if isinstance(control, widgets.IntSlider):
        return sorted({int(round(v)) for v in np.linspace(control.min, control.max, n)})
    if isinstance(control, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons,
                            widgets.Select, widgets.SelectionSlider)):
        return [value for _, value in control.options] if control.options and isinstance(
            control.options[0], tuple) else list(control.options)
    if isinstance(control, (widgets.Checkbox, widgets.ToggleButton)):
        return [True, False]
    if isinstance(control, (widgets.Text, widgets.Textarea)):
        # the current text, an empty one, and one with no known word
        return [control.value, "", "zzqx 12345 !!!", control.value]
    if isinstance(control, widgets.FloatRangeSlider):
        return [(control.min, control.max), (control.min, control.min + (control.max - control.min) / 2)]
    raise TypeError(f"no sweep rule for {type(control).__name__}; extend control_values")


def drawn_arrays(fig):
    """Every numeric array the figure currently draws (lines, collections, images)."""
    for ax in fig.axes:
        for artist in ax.get_children():
            if not artist.get_visible():
                continue
            if isinstance(artist, mlines.Line2D):
                yield np.asarray(artist.get_xydata(), dtype=float)
            elif isinstance(artist, mimage.AxesImage):
                yield np.ma.filled(np.asarray(artist.get_array(), dtype=float), 0.0)
            elif isinstance(artist, mcoll.PathCollection):
                yield np.asarray(artist.get_offsets(), dtype=float)


def assert_nothing_nan(fig):
    for arr in drawn_arrays(fig):
        assert not np.isnan(arr).any(), "a drawn artist contains NaN"


def sweep_explorer(explorer, n: int = 5, *, allow_messages: bool = False):
    """Sweep every control of ``explorer``; returns the number of updates made."""
    made = 0
    for name, control in explorer.controls.items():
        start = control.value
        for value in control_values(control, n):
            control.value = value
            made += 1
            if not allow_messages:
                assert explorer.error is None, f"{name}={value!r}: {explorer.error}"
                assert explorer.view.message == "", f"{name}={value!r}: {explorer.view.message}"
            assert explorer.readout.value.strip(), f"{name}={value!r}: empty readout"
            assert_nothing_nan(explorer.view.fig)
        control.value = start
    return made
