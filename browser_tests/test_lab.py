"""Every notebook in JupyterLab, in headless Chromium, after Run -> Run All.

Claims: no error output; every figure has ink; moving each explorer's first slider from the
keyboard changes its pixels and its readout; after a burst of fast moves the blitted canvas
equals a full redraw (no stale pixels from dropped diff frames); and the slider -> pixels
latency, written to benchmarks/browser_latency.md (measured, never asserted against a time).
"""

from __future__ import annotations

import os
import time

import pytest

from conftest import LAB_VIEWPORT, LAB_VIEWPORTS
from pages import ARTIFACTS, FULL_REDRAW_CODE, LAYOUT_ARTIFACTS, fit_problems, gv, \
    kernel_execute, log_errors_since, measure_latency, move_and_wait, resize, save_data_urls, \
    settle, summarize, viewport_screenshot

MIN_INK = 0.005  # share of non-white pixels below which a canvas counts as blank
LATENCY_MOVES = int(os.environ.get("GENVIZ_LATENCY_MOVES", "20"))


def _explorers_or_skip(nb):
    if not nb.explorers:
        pytest.skip(f"{nb.name} has no explorer (no slider next to an ipympl figure)")
    return nb.explorers


def _screenshot_explorer(nb, i, path):
    root = nb.page.locator(f"[data-gv-explorer='{i}']")
    root.scroll_into_view_if_needed()
    box = root.bounding_box()
    canvas = nb.page.evaluate(
        "i => { const r = window.__gv.canvases(window.__gv.root(i)).map(c => c.getBoundingClientRect());"
        " return r.length ? Math.max(...r.map(b => b.right)) : 0; }", i)
    width = max(box["width"], canvas - box["x"]) + 8
    nb.page.screenshot(path=str(path), full_page=True,
                       clip={"x": box["x"], "y": box["y"], "width": width,
                             "height": box["height"] + 8})


def _suffix(i):
    return "" if i == 0 else f"_{i + 1}"


def test_runs_all_cells_without_error_output(lab_nb):
    rec = lab_nb.record
    assert rec["prompts"], f"{lab_nb.name}: no code cell found"
    unexecuted = [p for p in rec["prompts"] if not p[1:-2].strip().isdigit()]
    assert not rec["errors"], f"{lab_nb.name}: error output:\n" + "\n---\n".join(rec["errors"])
    assert not unexecuted, f"{lab_nb.name}: cells not executed: {rec['prompts']}"


def test_every_figure_renders(lab_nb):
    figures = lab_nb.record["figures"]
    blank = [f for f in figures if f["width"] == 0 or f["inked"] < MIN_INK]
    assert not blank, f"{lab_nb.name}: blank or unrendered ipympl canvases: {blank}"
    dup = gv(lab_nb.page, "duplicates()")
    assert not dup, (f"{lab_nb.name}: the same figure is displayed twice in a cell "
                     f"(cells with figures, in order): {dup}")
    if lab_nb.explorers:
        ready = lab_nb.page.evaluate("n => [...Array(n).keys()].map(i => "
                                     "window.__gv.canvases(window.__gv.root(i)).length)",
                                     len(lab_nb.explorers))
        assert all(ready), f"{lab_nb.name}: an explorer without a canvas: {ready}"


def test_explorers_fit_every_lab_viewport(lab_nb):
    """At 1280x800 with the file browser open, 1366x768 and 1920x1080 (the same page, resized):
    every explorer's boxes stay inside the output area, nothing in it scrolls or is clipped
    sideways (readouts wrap), and no output on the page is wider than its box. One viewport
    screenshot per viewport and explorer in artifacts/browser/layout/."""
    page = lab_nb.page
    failures = []
    try:
        for vp in LAB_VIEWPORTS:
            resize(page, vp)
            tag = f"{vp['width']}x{vp['height']}"
            failures += [f"{tag}: {p}" for p in gv(page, "outputsOverflow()")]
            for ex in lab_nb.explorers:
                i = ex["index"]
                fit = fit_problems(page, i)
                lab_nb.record.setdefault("fit", {}).setdefault(tag, {})[str(i)] = fit
                viewport_screenshot(page, i, LAYOUT_ARTIFACTS / f"lab_{tag}_{lab_nb.stem}{_suffix(i)}.png")
                failures += [f"{tag} explorer {i} ({ex['title']}): {p}" for p in fit["problems"]]
    finally:
        resize(page, LAB_VIEWPORT)
    assert not failures, f"{lab_nb.name}: " + "; ".join(failures)


def check_first_slider(nb, artifacts, prefix):
    """Move each explorer's first slider; the figure and the readout must change. When the
    first slider does not change the figure, the next sliders are tried and the explorer is
    reported (it passes only if the *first* slider moves pixels)."""
    page = nb.page
    failures = []
    for ex in _explorers_or_skip(nb):
        i = ex["index"]
        _screenshot_explorer(nb, i, artifacts / f"{nb.stem}_{prefix}before_slider{_suffix(i)}.png")
        gv(page, "useSlider(arg)", [i, 0])
        assert gv(page, "focusHandle(arg)", i), f"explorer {i}: slider handle not focusable"
        before = (gv(page, "hash(arg)", i), gv(page, "readout(arg)", i), gv(page, "sliderValue(arg)", i))
        changed = move_and_wait(page, i)
        # The readout (an HTML widget) and the figure (ipympl's image) arrive as separate comm
        # messages and repaint independently: wait for the readout rather than sampling it at
        # the instant the pixels changed.
        for _ in range(50):
            if gv(page, "readout(arg)", i) != before[1]:
                break
            page.wait_for_timeout(100)
        after = (gv(page, "hash(arg)", i), gv(page, "readout(arg)", i), gv(page, "sliderValue(arg)", i))
        _screenshot_explorer(nb, i, artifacts / f"{nb.stem}_{prefix}after_slider{_suffix(i)}.png")
        move = {"explorer": i, "slider": gv(page, "sliderLabel(arg)", i),
                "value": [before[2], after[2]], "pixels_changed": changed,
                "readout_before": before[1], "readout_after": after[1]}
        nb.record.setdefault("slider_moves", []).append(move)
        name = f"explorer {i} ({ex['title']}), slider {move['slider']!r}"
        if before[2] == after[2]:
            failures.append(f"{name}: slider value did not move ({before[2]})")
        if before[1] == after[1]:
            failures.append(f"{name}: readout unchanged: {after[1]!r}")
        if not changed:
            # Which slider does change this figure? (for the report and the latency table)
            found = None
            for k in range(1, gv(page, "nSliders(arg)", i)):
                gv(page, "useSlider(arg)", [i, k])
                gv(page, "focusHandle(arg)", i)
                if move_and_wait(page, i, timeout_ms=8_000):
                    found = gv(page, "sliderLabel(arg)", i)
                    break
            if found is None:
                gv(page, "useSlider(arg)", [i, 0])
            ex["latency_slider"] = found
            failures.append(f"{name}: figure pixels unchanged (first slider that changes them: "
                            f"{found!r})")
    errors = gv(page, "errors()")
    assert not errors, "error output after moving sliders:\n" + "\n".join(errors)
    assert not failures, f"{nb.name}: " + "; ".join(failures)


def test_first_slider_changes_pixels_and_readout(lab_nb, artifacts):
    check_first_slider(lab_nb, artifacts, "")


def test_blitted_pixels_equal_a_full_redraw_after_a_burst(lab_nb, artifacts):
    """Views blit, ipympl ships *diff* PNGs, and its front end replaces ``image.src`` when a
    frame arrives before the previous one decoded: a dropped diff would leave stale pixels.
    Burst the slider, let it settle, then force a full repaint (a full, non-diff image) from a
    second kernel client and compare the canvas pixel by pixel."""
    page, lab = lab_nb.page, lab_nb.lab
    stale = []
    for ex in _explorers_or_skip(lab_nb):
        i = ex["index"]
        gv(page, "focusHandle(arg)", i)
        first = gv(page, "nextKey(arg)", i)
        back = "ArrowLeft" if first == "ArrowRight" else "ArrowRight"
        for key in [first] * 10 + [back] * 6:
            page.keyboard.press(key)
        assert settle(page, i, quiet_ms=1500, timeout_ms=60_000), "canvas never settled"
        deadline = time.monotonic() + 60
        while not lab.kernel_idle(lab_nb.name) and time.monotonic() < deadline:
            time.sleep(0.25)
        settle(page, i, quiet_ms=500, timeout_ms=30_000)
        blitted = gv(page, "snapshotPng(arg)", i)
        gv(page, "snapshot(arg)", i)
        paints = gv(page, "paintCount(arg)", i)
        n = kernel_execute(lab.connection_file(lab_nb.name), FULL_REDRAW_CODE)
        page.wait_for_function("([i, p]) => window.__gv.paintCount(i) > p", arg=[i, paints],
                               timeout=60_000)
        settle(page, i, quiet_ms=800, timeout_ms=30_000)
        diff = gv(page, "diffSnapshot(arg)", i)
        lab_nb.record.setdefault("burst", []).append(
            {"explorer": i, "figures_redrawn": n.strip(), "pixels_differing": diff})
        if any(d != 0 for d in diff):
            stem = artifacts / f"{lab_nb.stem}_explorer{i}"
            save_data_urls(blitted, stem.with_name(stem.name + "_after_burst"))
            save_data_urls(gv(page, "snapshotPng(arg)", i),
                           stem.with_name(stem.name + "_full_redraw"))
            stale.append(f"explorer {i} ({ex['title']}): {diff} pixels differ per canvas")
    assert not stale, (f"{lab_nb.name}: stale pixels after a burst of slider moves "
                       "(blitted canvas != full redraw): " + "; ".join(stale))


def test_browser_latency(lab_nb, latency_table):
    """Slider -> new pixels in JupyterLab: recorded for the table (presses that changed no
    pixel are counted there); asserted only that some press produced new pixels."""
    latency_table.setdefault("lab_notebooks", set()).add(lab_nb.name)
    missed = []
    for ex in _explorers_or_skip(lab_nb):
        i = ex["index"]
        frames = []
        samples = measure_latency(lab_nb.page, i, moves=LATENCY_MOVES, frames=frames)
        ex["slider"] = gv(lab_nb.page, "sliderLabel(arg)", i)
        summary = summarize(samples)
        summary["frame"] = summarize(frames)
        key = (lab_nb.name, i)
        latency_table["lab"][key] = summary
        latency_table["explorers"][key] = ex
        lab_nb.record.setdefault("latency_ms", {})[str(i)] = samples
        lab_nb.record.setdefault("frame_received_ms", {})[str(i)] = frames
        if not summary["n"]:
            missed.append(f"explorer {i}: none of {len(samples)} moves showed new pixels")
    assert not missed, f"{lab_nb.name}: " + "; ".join(missed)


def test_no_kernel_error_logged(lab_nb):
    """Exceptions in widget callbacks never reach a cell's output; the kernel logs them to the
    server's stderr. Checked after all the slider moves above."""
    errors = log_errors_since(ARTIFACTS / "jupyterlab.log", lab_nb.record["log_offset"])
    assert not errors, f"{lab_nb.name}: kernel errors logged:\n" + "\n---\n".join(errors)
