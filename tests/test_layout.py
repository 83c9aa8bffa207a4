"""Layout of every explorer's figure, headless: no two texts overlap, none leaves the figure,
no figure is wider than the output-area budget -- in the normal and the lecture style, at the
default state and across each control's range (ends included).

Coverage is discovered, not listed by hand: every ``*_explorer`` factory in ``genviz.widgets``
and every :class:`~genviz.plots._base.View` subclass in ``genviz.plots`` must be reached by a
case below (factories whose arguments all have defaults are built automatically; the others get
data in ``BUILDERS`` of tests/explorer_testing.py, the one registry of explorers). A new view or
explorer without a case fails ``test_every_view_and_explorer_is_covered`` with the name to add
and where.

How overlaps are found: see tests/layout_testing.py (shared with tests/test_static_layout.py,
which checks the static ``*_figure`` functions the same way).
"""

from __future__ import annotations

import contextlib
import re

import matplotlib.pyplot as plt
import pytest

from explorer_testing import (ADD_A_CASE, explorer_cases, explorer_factories, found_message,
                              make_explorer, problems_across_controls, view_classes)
from genviz.plots._base import View
from genviz.plots.style import lecture_mode
from layout_testing import figure_layout_problems

SWEEP_VALUES = 2    # per control: both ends (options: first, middle, last); keeps the module fast


def layout_problems(view) -> list[str]:
    """:func:`layout_testing.figure_layout_problems` of the view's figure (explorer budget)."""
    return figure_layout_problems(view.fig)


# -- the tests ---------------------------------------------------------------------------------
_VIEW_TYPES: dict = {}  # case -> type of its view, recorded by the layout tests below


@pytest.mark.parametrize("style", ["normal", "lecture"])
@pytest.mark.parametrize("case", explorer_cases())
def test_explorer_figure_layout(case, style):
    """Default state, then each control over its range (ends and middle), one at a time."""
    with (lecture_mode() if style == "lecture" else contextlib.nullcontext()):
        e = make_explorer(case)
        _VIEW_TYPES[case] = type(e.view)
        try:
            found = problems_across_controls(e, lambda e: layout_problems(e.view), SWEEP_VALUES)
        finally:
            e.close()
            plt.close("all")
    assert not found, found_message(case, style, found)


def test_every_view_and_explorer_is_covered():
    """Runs after the layout tests (file order) and reuses the view types they saw; builds
    only the cases a filtered run (-k) skipped."""
    cases = explorer_cases()
    missing_factories = [n for n in explorer_factories() if n not in cases]
    assert not missing_factories, f"explorer factories without a case: {missing_factories}; {ADD_A_CASE}"
    for case in cases:
        if case not in _VIEW_TYPES:
            e = make_explorer(case)
            _VIEW_TYPES[case] = type(e.view)
            e.close()
    missing_views = sorted(c.__qualname__ for c in view_classes() - set(_VIEW_TYPES.values()))
    assert not missing_views, f"View classes no explorer case reaches: {missing_views}; {ADD_A_CASE}"


def test_layout_check_finds_overlaps_and_overflow():
    """The checker itself: two texts at one spot, a text off the canvas, a wide figure."""
    from genviz.plots._base import new_figure

    class Probe(View):
        def update(self, **params):
            pass

    fig = new_figure(figsize=(4, 3))
    fig.add_subplot().set_title("a title")
    view = Probe(fig)
    assert layout_problems(view) == []
    fig.text(0.5, 0.5, "one")
    fig.text(0.5, 0.5, "two")
    fig.text(0.99, 0.5, "off the right edge")
    problems = layout_problems(view)
    assert any("'one' and 'two' overlap" in p for p in problems)
    assert any("'off the right edge' leaves the figure" in p for p in problems)
    wide = Probe(new_figure(figsize=(12, 3)))
    assert any("wider" in p or "budget" in p for p in layout_problems(wide))
    plt.close("all")


# -- what the page around the figures ships ----------------------------------------------------
ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def test_explorer_layout_wraps_and_never_sets_a_fixed_width():
    """[controls | figure | readout] in one wrapping row (explorer.js builds it, explorer.css
    lays it out): the readout wraps, the figure scales down, no fixed page width; the readout is
    shown after the figure (CSS order, #37 item 6: controls and figure on screen together) and
    the lecture template puts it back under the controls. browser_tests/ checks the result at
    every viewport (test_lab: controls to figure bottom within the notebook at 1280x800)."""
    from genviz.widgets import gaussian_explorer
    from genviz.widgets._base import CONTROL_COLUMN_PX, STATIC

    css = (STATIC / "explorer.css").read_text()
    js = (STATIC / "explorer.js").read_text()
    assert "flex-flow: row wrap" in css and "white-space: normal" in css
    assert f"minmax({CONTROL_COLUMN_PX}px, 1fr)" in css and "max-width: 100%" in css
    for cls in ("genviz-body", "genviz-side", "genviz-controls", "genviz-readout",
                "genviz-figure", "genviz-canvas"):
        assert f"'{cls}'" in js, cls
    for box in ("genviz-body", "genviz-side", "genviz-controls", "genviz-figure"):
        rule = re.search(r"\.genviz-explorer \." + box + r" \{([^}]*)\}", css).group(1)
        assert not re.search(r"(?<![-\w])width:\s*\d+px", rule), (box, rule)  # never fixed
    order = {box: re.search(r"\.genviz-explorer \." + box + r" \{[^}]*order: (\d)", css).group(1)
             for box in ("genviz-controls", "genviz-figure", "genviz-readout")}
    assert order == {"genviz-controls": "0", "genviz-figure": "1", "genviz-readout": "2"}
    assert "genviz-side { display: contents; }" in css
    lecture = (ROOT / "share/jupyter/voila/templates/genviz-lecture/lecture.css").read_text()
    assert re.search(r"\.genviz-side \{ display: block !important", lecture)
    e = gaussian_explorer(surface=False)
    assert e.spec["width"] <= 7.8 * e.view.fig.dpi + 1  # style.FIGURE_WIDTH_BUDGET
    e.close()


def test_lab_settings_and_lecture_template_are_shipped():
    """`make lab` and Binder's postBuild install the no-news override; `make present` serves
    the lecture template, whose CSS states the projector sizes the browser suite checks."""
    import json

    override = ROOT / "share/jupyter/lab/settings/overrides.d/genviz.json"
    settings = json.loads(override.read_text())
    assert settings["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    makefile = (ROOT / "Makefile").read_text()
    lab_rule = next(line for line in makefile.splitlines() if line.startswith("lab:"))
    assert "$(LAB_OVERRIDES)" in lab_rule
    assert "share/jupyter/lab/settings/overrides.d/genviz.json" in (ROOT / "postBuild").read_text()
    assert "--template=genviz-lecture" in makefile and "JUPYTER_PATH=$(CURDIR)/share/jupyter" in makefile
    template = ROOT / "share/jupyter/voila/templates/genviz-lecture"
    # lecture mode extends genviz, Voila's lab template with no request off the machine
    assert json.loads((template / "conf.json").read_text())["base_template"] == "genviz"
    assert json.loads((template.parent / "genviz" / "conf.json").read_text())["base_template"] == "lab"
    css = (template / "lecture.css").read_text()
    assert "--genviz-prose: 24px" in css and "--genviz-widget: 20px" in css
