"""Every notebook rendered by Voila in lecture mode (``make present``) at 1280x720.

Claims: the page renders with no error output; the widgets are live (each explorer's first
slider changes its figure's pixels); each explorer fits the 1280-pixel-wide projector
viewport without clipping. Screenshots: the full page, each explorer after a slider move and
the first screen of each explorer as the audience sees it.
"""

from __future__ import annotations

import os

from conftest import LECTURE_VIEWPORT
from conftest import _expects_widgets
from pages import ARTIFACTS, gv, log_errors_since, measure_latency, summarize
from test_lab import _explorers_or_skip, _suffix, check_first_slider

VOILA_LATENCY_MOVES = int(os.environ.get("GENVIZ_VOILA_LATENCY_MOVES", "8"))


def test_voila_renders_without_errors(voila_nb):
    rec = voila_nb.record
    assert rec["http_status"] == 200, f"{voila_nb.name}: HTTP {rec['http_status']}"
    assert not rec["errors"], f"{voila_nb.name}: error output:\n" + "\n---\n".join(rec["errors"])
    if _expects_widgets(voila_nb.name):
        assert rec["figures_ready"] and rec["figures_ready"][2] > 0, \
            f"{voila_nb.name}: no widget rendered ({rec['figures_ready']})"
    blank = [f for f in rec["figures"] if f["width"] == 0 or f["inked"] < 0.005]
    assert not blank, f"{voila_nb.name}: blank or unrendered figures: {blank}"
    dup = gv(voila_nb.page, "duplicates()")
    assert not dup, f"{voila_nb.name}: the same figure is displayed twice in a cell: {dup}"


def test_voila_widgets_are_live(voila_nb, artifacts):
    check_first_slider(voila_nb, artifacts, "voila_")


def test_voila_latency(voila_nb, latency_table):
    """A few samples in Voila (lecture mode) for the table; Lab is the measured target."""
    for ex in _explorers_or_skip(voila_nb):
        i = ex["index"]
        summary = summarize(measure_latency(voila_nb.page, i, moves=VOILA_LATENCY_MOVES))
        latency_table["voila"][(voila_nb.name, i)] = summary
        latency_table["explorers"].setdefault((voila_nb.name, i), ex)


def test_lecture_mode_explorers_fit_1280x720(voila_nb, artifacts):
    """At 1280x720 an explorer must not be clipped sideways (no horizontal scrolling on a
    projector); its height is recorded (a figure taller than the screen needs scrolling)."""
    page = voila_nb.page
    clipped = []
    for ex in _explorers_or_skip(voila_nb):
        i = ex["index"]
        root = page.locator(f"[data-gv-explorer='{i}']")
        root.evaluate("el => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        page.screenshot(path=str(artifacts / f"{voila_nb.stem}_lecture_1280x720{_suffix(i)}.png"))
        geo = page.evaluate("""i => { const r = window.__gv.root(i), b = r.getBoundingClientRect();
            const c = window.__gv.canvases(r).map(x => x.getBoundingClientRect());
            return {left: b.left, right: b.right, height: b.height, scrollWidth: r.scrollWidth,
                    clientWidth: r.clientWidth,
                    canvasRight: c.length ? Math.max(...c.map(x => x.right)) : 0,
                    canvasHeight: c.length ? Math.max(...c.map(x => x.height)) : 0,
                    docWidth: document.documentElement.scrollWidth}; }""", i)
        voila_nb.record.setdefault("lecture_geometry", {})[str(i)] = geo
        width = LECTURE_VIEWPORT["width"]
        if geo["canvasRight"] > width + 1 or geo["right"] > width + 1:
            clipped.append(f"explorer {i} ({ex['title']}): extends to x={geo['canvasRight']:.0f}"
                           f" > {width}")
        elif geo["scrollWidth"] > geo["clientWidth"] + 1:
            clipped.append(f"explorer {i} ({ex['title']}): content {geo['scrollWidth']} px wide "
                           f"in a {geo['clientWidth']} px box (scrolls sideways)")
    assert not clipped, f"{voila_nb.name} at 1280x720: " + "; ".join(clipped)


def test_voila_no_kernel_error_logged(voila_nb):
    errors = log_errors_since(ARTIFACTS / "voila.log", voila_nb.record["log_offset"])
    assert not errors, f"{voila_nb.name}: kernel errors logged:\n" + "\n---\n".join(errors)
