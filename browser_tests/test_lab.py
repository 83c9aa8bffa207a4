"""Every notebook in JupyterLab, in headless Chromium, after Run -> Run All.

Claims: no error output; every figure has ink; moving each explorer's first slider from the
keyboard changes its pixels and its readout; after a burst of fast moves the canvas equals
matplotlib's rendering of the kernel's state; a drag of a gridded slider sends at most one
websocket message and the kernel hears its value; and the slider -> painted frame latency of
every gridded slider and of the kernel path, written to benchmarks/browser_latency.md
(measured, never asserted against a time).
"""

from __future__ import annotations

import base64
import io
import os
import time

import numpy as np
from PIL import Image

import pytest

from conftest import LAB_VIEWPORT, LAB_VIEWPORTS
from pages import ARTIFACTS, EXPLORER_PNG_CODE, LAYOUT_ARTIFACTS, fit_problems, gv, \
    kernel_execute, log_errors_since, measure_latency, move_and_wait, resize, settle, summarize, \
    viewport_screenshot
from test_fidelity import FAR_SHARE, MEAN_LIMIT, compare

MIN_INK = 0.005  # share of non-white pixels below which a canvas counts as blank
LATENCY_MOVES = int(os.environ.get("GENVIZ_LATENCY_MOVES", "20"))


def _explorers_or_skip(nb):
    if not nb.explorers:
        pytest.skip(f"{nb.name} has no explorer")
    return nb.explorers


def _gridded_explorers(nb):
    """The notebook's explorers (skip if none), once the page holds all their grids."""
    explorers = _explorers_or_skip(nb)
    wait_for_grids(nb.page, len(explorers))
    return explorers


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


def check_viewports(nb, viewports, home, check_explorer) -> list:
    """Resize ``nb``'s page to each of ``viewports`` (and back to ``home`` at the end): the
    problems of every output wider than its box, tagged with the viewport, then those that
    ``check_explorer(vp, tag, explorer)`` returns for each explorer (the Lab and the lecture
    layout tests). Also, anywhere on the page, a widget label or button whose text is cut
    (ipywidgets ends it with an ellipsis: lecture mode's 20-px text once cut "Your answer" to
    "Your a…" and "Show solution" to "Show sol…" in every practice box), and a radio option
    taller than its line (a long option of 10's choice boxes wrapped under the Check button)."""
    failures = []
    try:
        for vp in viewports:
            resize(nb.page, vp)
            tag = f"{vp['width']}x{vp['height']}"
            failures += [f"{tag}: {p}" for p in gv(nb.page, "outputsOverflow()")]
            failures += [f"{tag}: cut text {p}" for p in gv(nb.page, "clippedWidgetText()")]
            failures += [f"{tag}: option overflows {p}" for p in gv(nb.page, "overflowingRadios()")]
            for ex in nb.explorers:
                failures += check_explorer(vp, tag, ex)
    finally:
        resize(nb.page, home)
    return failures


def test_explorers_fit_every_lab_viewport(lab_nb):
    """At 1280x800 with the file browser open, 1366x768 and 1920x1080 (the same page, resized):
    every explorer's boxes stay inside the output area, nothing in it scrolls or is clipped
    sideways (readouts wrap), and no output on the page is wider than its box; at 1280x800 the
    controls and the figure are on screen together (title to figure bottom within the notebook's
    visible height: the readout sits below the figure, explorer.css). One viewport
    screenshot per viewport and explorer in artifacts/browser/layout/."""
    page = lab_nb.page

    def check(vp, tag, ex):
        i, failures = ex["index"], []
        fit = fit_problems(page, i)
        lab_nb.record.setdefault("fit", {}).setdefault(tag, {})[str(i)] = fit
        viewport_screenshot(page, i, LAYOUT_ARTIFACTS / f"lab_{tag}_{lab_nb.stem}{_suffix(i)}.png")
        failures += [f"{tag} explorer {i} ({ex['title']}): {p}" for p in fit["problems"]]
        if vp == LAB_VIEWPORT:  # #37 item 6: controls and figure on screen together
            together = gv(page, "together(arg)", i)
            room = page.evaluate("() => (document.querySelector('.jp-WindowedPanel-outer')"
                                 " || document.querySelector('.jp-NotebookPanel-notebook'))"
                                 ".clientHeight")
            lab_nb.record["fit"][tag][str(i)].update(together=together, room=room)
            if together["height"] > room:
                failures.append(f"{tag} explorer {i} ({ex['title']}): controls to figure "
                                f"bottom {together['height']} px > {room} px of notebook")
        return failures

    failures = check_viewports(lab_nb, LAB_VIEWPORTS, LAB_VIEWPORT, check)
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


def _canvas_rgba(page, i):
    url = gv(page, "snapshotPng(arg)", i)[0]
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGBA"))


def _kernel_rgba(lab, name, explorer_id):
    code = EXPLORER_PNG_CODE.format(id=explorer_id)
    b64 = kernel_execute(lab.connection_file(name), code).strip()
    assert b64, f"no explorer {explorer_id} in the kernel"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(b64))).convert("RGBA"))


def wait_for_grids(page, n_explorers, timeout_s=180) -> list[bool]:
    """Until every explorer has its precomputed states (built in the background once shown)."""
    deadline = time.monotonic() + timeout_s
    while True:
        ready = page.evaluate("n => [...Array(n).keys()].map(i => window.__gv.gridReady(i))",
                              n_explorers)
        if all(ready) or time.monotonic() > deadline:
            return ready
        page.wait_for_timeout(500)


def test_canvas_shows_the_kernels_state_after_a_burst(lab_nb, artifacts):
    """Burst each explorer's first slider (a kernel-path slider when there is one) back and
    forth from the keyboard, and its gridded slider too, let everything settle: the canvas
    equals matplotlib's own rendering of the kernel's current state (the fidelity metric of
    test_fidelity.py). A coalescing bug (a stale frame painted last, a lost last request), a
    grid state drawn for the wrong value or a kernel that never heard a gridded value fails."""
    page, lab = lab_nb.page, lab_nb.lab
    explorers = _gridded_explorers(lab_nb)
    failures = []
    for ex in explorers:
        i = ex["index"]
        sliders = gv(page, "sliders(arg)", i)
        chosen = [s for s in sliders if not s["grid"]][:1] + [s for s in sliders if s["grid"]][:1]
        for s in chosen:
            gv(page, "useSlider(arg)", [i, s["index"]])
            gv(page, "focusHandle(arg)", i)
            first = gv(page, "nextKey(arg)", i)
            back = "ArrowLeft" if first == "ArrowRight" else "ArrowRight"
            for key in [first] * 8 + [back] * 5:
                page.keyboard.press(key)
        gv(page, "useSlider(arg)", [i, 0])
        page.wait_for_timeout(800)  # the gridded value's debounce
        assert settle(page, i, quiet_ms=1500, timeout_ms=60_000), "canvas never settled"
        deadline = time.monotonic() + 60
        while not lab.kernel_idle(lab_nb.name) and time.monotonic() < deadline:
            time.sleep(0.25)
        settle(page, i, quiet_ms=500, timeout_ms=30_000)
        canvas = _canvas_rgba(page, i)
        kernel = _kernel_rgba(lab, lab_nb.name, ex["id"])
        m = compare(canvas, kernel) if canvas.shape == kernel.shape else {"shape": [
            canvas.shape, kernel.shape]}
        lab_nb.record.setdefault("burst", []).append({"explorer": i, **m})
        if "shape" in m or m["mean"] > MEAN_LIMIT or m["far"] > FAR_SHARE:
            Image.fromarray(canvas).save(artifacts / f"{lab_nb.stem}_explorer{i}_burst_canvas.png")
            Image.fromarray(kernel).save(artifacts / f"{lab_nb.stem}_explorer{i}_burst_kernel.png")
            failures.append(f"explorer {i} ({ex['title']}): canvas vs kernel {m}")
    assert not failures, f"{lab_nb.name}: " + "; ".join(failures)


def drag(page, i, k, steps=25):
    """Drag explorer i's slider k with the mouse from one end to the other: towards the end
    it is not at (a slider at its maximum, as 01's records n starts, is dragged from right to
    left, so that the drag ends on a new value)."""
    box = page.locator(f"[data-gv-explorer='{i}'] input[type=range]").nth(k)
    box.scroll_into_view_if_needed()
    at_max = box.evaluate("r => +r.value >= +r.max")
    b = box.bounding_box()
    y = b["y"] + b["height"] / 2
    x0, x1 = b["x"] + 4, b["x"] + b["width"] - 4
    if at_max:
        x0, x1 = x1, x0
    page.mouse.move(x0, y)
    page.mouse.down()
    for s in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * s / steps, y)
        page.wait_for_timeout(16)
    page.mouse.up()


def back_to_base(nb, i) -> None:
    """Earlier tests moved explorer i's other controls off its grid's base (gridded moves then
    go through the kernel, by design): put them back, let the kernel catch up."""
    assert gv(nb.page, "toBase(arg)", i), f"explorer {i}: no precomputed states"
    nb.page.wait_for_timeout(500)
    lab = getattr(nb, "lab", None)
    deadline = time.monotonic() + 60
    while lab is not None and not lab.kernel_idle(nb.name) and time.monotonic() < deadline:
        time.sleep(0.25)
    settle(nb.page, i, quiet_ms=400, timeout_ms=30_000)


def test_a_drag_of_a_gridded_slider_sends_at_most_one_message(lab_nb, latency_table):
    """A mouse drag across every gridded slider: the page sends at most one websocket message
    (the value on release), and the kernel then holds the slider's new value."""
    page, lab = lab_nb.page, lab_nb.lab
    explorers = _gridded_explorers(lab_nb)
    failures = []
    for ex in explorers:
        i = ex["index"]
        back_to_base(lab_nb, i)
        for s in gv(page, "sliders(arg)", i):
            if not s["grid"]:
                continue
            before = gv(page, "sent()")
            drag(page, i, s["index"])
            page.wait_for_timeout(1200)
            sent = gv(page, "sent()") - before
            latency_table["drags"][(lab_nb.name, i, s["label"])] = sent
            value = page.evaluate("([i, k]) => +window.__gv.ranges(i)[k].value", [i, s["index"]])
            code = (f"import gc\nfrom genviz.widgets._base import Explorer\n"
                    f"e = [o for o in gc.get_objects() if isinstance(o, Explorer) and "
                    f"o.spec.get('id') == {ex['id']!r}][0]\n"
                    f"print(e.values_front[{s['name']!r}])")
            kernel = int(kernel_execute(lab.connection_file(lab_nb.name), code).strip())
            if not 1 <= sent <= 1 or kernel != value:
                failures.append(f"explorer {i} slider {s['label']}: {sent} messages sent, "
                                f"kernel at {kernel}, page at {value}")
    assert not failures, f"{lab_nb.name}: " + "; ".join(failures)


def test_browser_latency(lab_nb, latency_table):
    """Slider -> painted frame in JupyterLab for every gridded slider of every explorer (the
    browser draws precomputed states) and for the first other slider (the kernel path):
    recorded for the table; asserted only that some press produced new pixels."""
    latency_table.setdefault("lab_notebooks", set()).add(lab_nb.name)
    page = lab_nb.page
    explorers = _gridded_explorers(lab_nb)
    missed = []
    for ex in explorers:
        i = ex["index"]
        back_to_base(lab_nb, i)
        sliders = gv(page, "sliders(arg)", i)
        chosen = [s for s in sliders if s["grid"]] + [s for s in sliders if not s["grid"]][:1]
        for s in chosen:
            gv(page, "useSlider(arg)", [i, s["index"]])
            frames = []
            samples = measure_latency(page, i, moves=LATENCY_MOVES, frames=frames)
            summary = summarize(samples)
            summary["frame"] = summarize(frames)
            key = (lab_nb.name, i, s["label"])
            latency_table["lab"][key] = summary
            latency_table["paths"][key] = "grid" if s["grid"] else "kernel"
            latency_table["explorers"][(lab_nb.name, i)] = ex
            lab_nb.record.setdefault("latency_ms", {})[f"{i}:{s['label']}"] = samples
            if not summary["n"] and s["grid"]:
                # (one step of a kernel-path slider may change no pixel: 1 of 392 records)
                missed.append(f"explorer {i} {s['label']}: none of {len(samples)} moves "
                              f"showed new pixels")
        gv(page, "useSlider(arg)", [i, 0])
    assert not missed, f"{lab_nb.name}: " + "; ".join(missed)


def test_no_kernel_error_logged(lab_nb):
    """Exceptions in widget callbacks never reach a cell's output; the kernel logs them to the
    server's stderr. Checked after all the slider moves above."""
    errors = log_errors_since(ARTIFACTS / "jupyterlab.log", lab_nb.record["log_offset"])
    assert not errors, f"{lab_nb.name}: kernel errors logged:\n" + "\n---\n".join(errors)
