"""Drawing fidelity: the browser's canvas against matplotlib's own rendering of the same state.

For every explorer case of the registry (tests/explorer_testing.py: the 19 notebook explorers
and the extra configurations), three states: the default, a gridded control moved, and another
control moved (or a second gridded position). Each state is drawn twice:

* by matplotlib: ``savefig`` of the view's figure (Agg, every artist in its z-order);
* by the browser: explorer.js's ``paint`` (the code JupyterLab, Voila and the site run) replays
  the recorded frame (:meth:`View.record_frame`) over the static background PNG on a canvas
  in headless Chromium; the canvas pixels are read back.

Claims, per state: mean absolute difference over the RGB channels <= 4/255, and at most 5 % of
pixels off by more than 32 levels in some channel. A matplotlib upgrade that changes what the
renderer is asked to draw (a new artist type, a changed collection call) fails here. Worst
figures and difference maps go to artifacts/fidelity/.
"""

from __future__ import annotations

import base64
import io
import json
import pathlib
import sys

import numpy as np
import pytest
from PIL import Image

from pages import ARTIFACTS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from explorer_testing import control_values, explorer_cases, make_explorer  # noqa: E402

FIDELITY_ARTIFACTS = ARTIFACTS.parent / "fidelity"
MEAN_LIMIT = 4.0       # levels of 255, mean over pixels and RGB channels
FAR_LEVELS = 32        # a pixel is "off" when a channel differs by more than this
FAR_SHARE = 0.05       # at most this share of pixels off

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


def _states(case):
    """Three (label, background PNG, frame, matplotlib RGBA) states of one explorer case."""
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
            png, _ = e.view.background_png()
            frame = e.view.record_frame()
            buf = io.BytesIO()
            fig.savefig(buf, format="rgba", dpi=fig.dpi)
            w, h = fig.canvas.get_width_height(physical=True)
            ref = np.frombuffer(buf.getvalue(), np.uint8).reshape(h, w, 4)
            out.append((label, png, frame, ref))
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


def compare(a: np.ndarray, b: np.ndarray) -> dict:
    """Mean absolute RGB difference (levels) and share of pixels off by > FAR_LEVELS."""
    d = np.abs(a[..., :3].astype(int) - b[..., :3].astype(int))
    return {"mean": float(d.mean()), "far": float((d.max(axis=-1) > FAR_LEVELS).mean())}


def _save(stem, canvas, ref):
    Image.fromarray(canvas).save(FIDELITY_ARTIFACTS / f"{stem}_browser.png")
    Image.fromarray(ref).save(FIDELITY_ARTIFACTS / f"{stem}_matplotlib.png")
    d = np.abs(canvas[..., :3].astype(int) - ref[..., :3].astype(int)).max(axis=-1)
    Image.fromarray(np.clip(255 - 4 * d, 0, 255).astype(np.uint8)).save(
        FIDELITY_ARTIFACTS / f"{stem}_diff.png")


@pytest.mark.parametrize("case", explorer_cases())
def test_canvas_matches_matplotlib(fidelity_page, case):
    results = []
    for k, (label, png, frame, ref) in enumerate(_states(case)):
        url = fidelity_page.evaluate("([bg, f]) => window.drawState(bg, f)",
                                     [base64.b64encode(png).decode(), base64.b64encode(frame).decode()])
        canvas = np.asarray(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
                            .convert("RGBA"))
        assert canvas.shape == ref.shape, f"{case} {label}: canvas {canvas.shape} vs {ref.shape}"
        m = compare(canvas, ref)
        results.append({"state": label, **m})
        if m["mean"] > MEAN_LIMIT / 2 or m["far"] > FAR_SHARE / 2 or k == 0:
            _save(f"{case}_{k}", canvas, ref)
    (FIDELITY_ARTIFACTS / f"{case}.json").write_text(json.dumps(results, indent=1))
    assert not fidelity_page.errors, fidelity_page.errors
    bad = [r for r in results if r["mean"] > MEAN_LIMIT or r["far"] > FAR_SHARE]
    assert not bad, f"{case}: canvas differs from matplotlib: {bad}"


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
