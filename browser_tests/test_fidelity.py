"""Drawing fidelity: the browser's canvas against matplotlib's own rendering of the same state.

For every explorer case of the registry (tests/explorer_testing.py: the 19 notebook explorers
and the extra configurations), in both layouts -- ``wide`` (the notebook's figure) and
``narrow`` (the phone's, built inside :func:`genviz.plots.style.narrow_mode`: panels stacked,
3.4 in wide) --, three states: the default, a gridded control moved, and another
control moved (or a second gridded position). Each state is drawn twice:

* by matplotlib: ``savefig`` of the view's figure (Agg, every artist in its z-order);
* by the browser: explorer.js's ``paint`` (the code JupyterLab, Voila and the site run) replays
  the recorded frame (:meth:`View.record_frame`) over the static background PNG on a canvas
  in headless Chromium; the canvas pixels are read back.

Claims, per state: mean absolute difference over the RGB channels <= 4/255, at most 5 % of
pixels off by more than 32 levels in some channel, and no thin line lost: in every 8 x 8 tile
at most LINE_LIMIT (7 of 64) of the pixels without a close colour (64 levels) within one pixel in the
other image (tests/frame_replay.py's ``unmatched_tile``; 3-D panels left out: their aliased
hairline edges land a pixel apart). A spine painted over or a line drawn under bars (#37)
fails the last; the two planted faults below show it. A matplotlib upgrade that changes what
the renderer is asked to draw (a new artist type, a changed collection call) fails here. Worst
figures and difference maps go to artifacts/fidelity/.
"""

from __future__ import annotations

import base64
import io
import json
import pathlib
import sys

import contextlib

import numpy as np
import pytest
from PIL import Image

from pages import ARTIFACTS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from explorer_testing import control_values, explorer_cases, make_explorer  # noqa: E402
from frame_replay import swap_static_order, three_d_boxes, unmatched_tile  # noqa: E402
from genviz.plots.style import narrow_mode  # noqa: E402

FIDELITY_ARTIFACTS = ARTIFACTS.parent / "fidelity"
MEAN_LIMIT = 4.0       # levels of 255, mean over pixels and RGB channels
FAR_LEVELS = 32        # a pixel is "off" when a channel differs by more than this
FAR_SHARE = 0.05       # at most this share of pixels off
#: a tile may hold 7 of its 64 pixels unmatched (Agg's replay: 5, tests/frame_replay.py): the
#: browser starts a dash pattern up to a pixel or two from where Agg does (measured: 6 of 64 on
#: the dashed true density over the KDE); a one-pixel line lost leaves 8
LINE_LIMIT = 0.11
LAYOUTS = ("wide", "narrow")

PAGE = """<!doctype html><meta charset="utf-8"><title>fidelity</title>
<canvas id="c"></canvas>
<script type="module">
import {decodeFrame, paint} from './explorer.js';
const b64 = (t) => Uint8Array.from(atob(t), (c) => c.charCodeAt(0));
window.drawState = async (bg, frame) => {
  const f = decodeFrame(b64(frame));
  const bitmap = await createImageBitmap(new Blob([b64(bg)], {type: 'image/png'}));
  const c = document.getElementById('c');
  c.width = f.meta.w; c.height = f.meta.h;
  paint(c.getContext('2d'), bitmap, f);
  return c.toDataURL('image/png');
};
window.ready = true;
</script>"""


def _layout(layout):
    """The context an explorer of ``layout`` is built, moved and drawn in."""
    return narrow_mode() if layout == "narrow" else contextlib.nullcontext()


def _states(case, plant=None, layout="wide"):
    """Three (label, background PNG, frame, matplotlib RGBA, 3-D boxes) states of one explorer
    case in ``layout``; ``plant(view)`` (returning an undo) plants a fault in what the browser
    gets."""
    with _layout(layout):
        return _layout_states(case, plant)


def _layout_states(case, plant):
    e = make_explorer(case)
    try:
        fig = e.view.fig
        gridded = [n for n, c in e.controls.items() if c.grid]
        others = [n for n, c in e.controls.items() if not c.grid and c.kind != "text"]
        moves = [None]
        g = e.controls[gridded[0]]
        values = control_values(g, 4)
        moves.append((gridded[0], values[1] if values[1] != g.value else values[2]))
        if others:
            o = e.controls[others[0]]
            vals = [v for v in control_values(o, 3) if v != o.value]
            moves.append((others[0], vals[-1]))
        else:
            moves.append((gridded[0], values[-1]))
        out = []
        for move in moves:
            label = "default"
            if move is not None:
                e.controls[move[0]].value = move[1]
                label = f"{move[0]}={move[1]!r}"
            buf = io.BytesIO()
            fig.savefig(buf, format="rgba", dpi=fig.dpi)
            w, h = fig.canvas.get_width_height(physical=True)
            ref = np.frombuffer(buf.getvalue(), np.uint8).reshape(h, w, 4)
            undo = plant(e.view) if plant else None
            if undo:
                e.view.request_full_redraw()
            png, _ = e.view.background_png()
            frame = e.view.record_frame()
            if undo:
                undo()
                e.view.request_full_redraw()
            out.append((label, png, frame, ref, three_d_boxes(fig)))
            if plant:
                break
        return out
    finally:
        e.close()


@pytest.fixture(scope="module")
def fidelity_page(browser, tmp_path_factory):
    from site_helpers import serve

    root = tmp_path_factory.mktemp("fidelity")
    (root / "explorer.js").write_text((ROOT / "genviz/widgets/static/explorer.js").read_text())
    (root / "index.html").write_text(PAGE)
    FIDELITY_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with serve(root) as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/index.html")
        page.wait_for_function("() => window.ready === true")
        page.errors = errors
        yield page
        context.close()


def compare(a: np.ndarray, b: np.ndarray, skip=()) -> dict:
    """Mean absolute RGB difference (levels), share of pixels off by > FAR_LEVELS, and the
    worst tile's share of unmatched pixels (a thin line lost)."""
    d = np.abs(a[..., :3].astype(int) - b[..., :3].astype(int))
    return {"mean": float(d.mean()), "far": float((d.max(axis=-1) > FAR_LEVELS).mean()),
            "line": unmatched_tile(a, b, skip=skip)}


def _bad(m) -> bool:
    return m["mean"] > MEAN_LIMIT or m["far"] > FAR_SHARE or m["line"] > LINE_LIMIT


def _draw(page, png, frame) -> np.ndarray:
    url = page.evaluate("([bg, f]) => window.drawState(bg, f)",
                        [base64.b64encode(png).decode(), base64.b64encode(frame).decode()])
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
                      .convert("RGBA"))


def _save(stem, canvas, ref):
    Image.fromarray(canvas).save(FIDELITY_ARTIFACTS / f"{stem}_browser.png")
    Image.fromarray(ref).save(FIDELITY_ARTIFACTS / f"{stem}_matplotlib.png")
    d = np.abs(canvas[..., :3].astype(int) - ref[..., :3].astype(int)).max(axis=-1)
    Image.fromarray(np.clip(255 - 4 * d, 0, 255).astype(np.uint8)).save(
        FIDELITY_ARTIFACTS / f"{stem}_diff.png")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case", explorer_cases())
def test_canvas_matches_matplotlib(fidelity_page, case, layout):
    results = []
    stem = case if layout == "wide" else f"{case}_narrow"
    for k, (label, png, frame, ref, skip) in enumerate(_states(case, layout=layout)):
        canvas = _draw(fidelity_page, png, frame)
        assert canvas.shape == ref.shape, f"{case} {label}: canvas {canvas.shape} vs {ref.shape}"
        m = compare(canvas, ref, skip)
        results.append({"state": label, **m})
        if (m["mean"] > MEAN_LIMIT / 2 or m["far"] > FAR_SHARE / 2
                or m["line"] > LINE_LIMIT / 2 or k == 0):
            _save(f"{stem}_{k}", canvas, ref)
    (FIDELITY_ARTIFACTS / f"{stem}.json").write_text(json.dumps(results, indent=1))
    assert not fidelity_page.errors, fidelity_page.errors
    bad = [r for r in results if _bad(r)]
    assert not bad, f"{case} ({layout}): canvas differs from matplotlib: {bad}"


def _drop_a_spine(view):
    """One spine missing from what the browser draws (savefig still draws it)."""
    ax = next(a for a in view.fig.axes if a.axison and getattr(a, "name", "") != "3d")
    spine = ax.spines["left"]
    spine.set_visible(False)
    return lambda: spine.set_visible(True)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("case, plant", [
    ("gaussian_explorer", swap_static_order), ("histogram_explorer", swap_static_order),
    ("knn_classification_explorer", swap_static_order), ("gaussian_explorer", _drop_a_spine),
    ("histogram_explorer", _drop_a_spine)], ids=lambda v: getattr(v, "__name__", v))
def test_the_check_fails_on_a_planted_fault(fidelity_page, case, plant, layout):
    """02's contour panel, 09's reference line, the k-NN panels: the browser's canvas with the
    static artists baked under the moving ones, or with a spine missing, fails the check --
    on the line metric, which the mean and the share of far pixels cannot see -- in both
    layouts."""
    label, png, frame, ref, skip = _states(case, plant=plant, layout=layout)[0]
    canvas = _draw(fidelity_page, png, frame)
    m = compare(canvas, ref, skip)
    _save(f"planted_{plant.__name__}_{case}_{layout}", canvas, ref)
    assert _bad(m) and m["line"] > LINE_LIMIT, m


def test_the_comparison_fails_on_a_planted_difference():
    """The metric catches a real drawing error: a block drawn 10 px off, a missing image."""
    ref = np.full((200, 300, 4), 255, np.uint8)
    ref[50:150, 40:260, :3] = (30, 90, 200)
    moved = np.full_like(ref, 255)
    moved[60:160, 40:260, :3] = (30, 90, 200)
    assert compare(ref, ref)["mean"] == 0
    shifted = compare(moved, ref)
    assert shifted["far"] > FAR_SHARE  # 2 x 10 rows x 220 px of 60,000 px: 7.3 %
    blank = compare(np.full_like(ref, 255), ref)
    assert blank["mean"] > MEAN_LIMIT and blank["far"] > FAR_SHARE
