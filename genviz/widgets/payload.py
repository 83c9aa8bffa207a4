"""What a page with no kernel gets of an explorer: the course website and the lecture page.

:func:`static_payload` is the explorer as ``explorer.js``'s ``mountStaticExplorers`` mounts it:
its controls' spec, their values, readout and alt text, and the gridded controls' precomputed
states (:mod:`genviz.widgets.states`) in two layouts -- ``grid``, the figure as the notebook
draws it, and ``narrow``, the same painter's figure for a phone (issue #37:
:func:`genviz.plots.style.narrow_mode`, panels stacked, drawn 340 px wide and shown 1:1, so
its text keeps at least 11 CSS px). The page picks the layout that fits its width.

The narrow grid is built (or found: it has its own content hash) from a second, headless copy
of the explorer made by the same factory inside ``narrow_mode()``, with the other controls at
the explorer's values; an explorer without a recorded factory has none (``narrow`` is empty),
and the page shows its wide figure scaled instead.
"""

from __future__ import annotations

import base64
import pathlib

from genviz.plots.style import narrow_mode
from genviz.widgets.states import GridBudgetError, grid_for, headless_copy

__all__ = ["static_payload", "narrow_grid", "module_source"]


def _b64(blob: bytes | None) -> str:
    return base64.b64encode(blob or b"").decode("ascii")


def narrow_grid(explorer) -> bytes | None:
    """The explorer's precomputed states in the narrow layout (found in a store, else built and
    stored), or None when it has no factory or no gridded control."""
    core = getattr(explorer, "_core", explorer)
    if core.factory is None:
        return None
    with narrow_mode(), headless_copy(explorer) as copy:
        try:
            return grid_for(copy, build=True)
        except GridBudgetError:  # over budget: the page scales the wide figure instead
            return None


def static_payload(explorer, *, narrow: bool = True) -> dict:
    """What ``explorer.js`` needs to draw and move an explorer with no kernel (each grid, in
    base64, holds the current state: no separate frame or background is sent)."""
    payload = {"spec": explorer.spec, "values_front": explorer.values_front,
               "readout_html": explorer.readout_html, "alt": explorer.alt,
               "grid": _b64(explorer.grid_bytes)}
    if narrow:
        payload["narrow"] = _b64(narrow_grid(explorer))
    return payload


def module_source() -> str:
    """explorer.js, for pages that inline it (the site: no module scripts from file://)."""
    return (pathlib.Path(__file__).parent / "static" / "explorer.js").read_text(encoding="utf-8")
