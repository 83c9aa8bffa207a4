"""The frame format as one contract, checked from both sides without a browser.

The Python recorder (genviz/plots/_record.py, laid out by genviz/plots/_ops.py) records a view
with one artist of each kind; explorer.js's own ``decodeFrame`` and ``paint`` replay the bytes
under node on a recording 2-D context (tests/frame_contract.mjs); every call is checked, field
by field, against the matplotlib artists themselves (pixel coordinates from their transforms,
colours, widths, joins, caps, dashes, image pixels from the colour map) -- not against either
side's reading of the format. A field renamed on one side only (a style key in the recorder,
the property explorer.js reads) fails it: the last two tests plant such renames.
The browser suite (browser_tests/test_fidelity.py) checks the same replay pixel by pixel.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import Normalize
from matplotlib.patches import Rectangle

from frame_replay import AxesView
from genviz.plots import _record
from genviz.plots._ops import Pool, decode

ROOT = Path(__file__).resolve().parents[1]
EXPLORER_JS = ROOT / "genviz" / "widgets" / "static" / "explorer.js"
SCRIPT = ROOT / "tests" / "frame_contract.mjs"
PX = AxesView.DPI / 72  # the fixture figure's dpi: a point is PX canvas pixels


@pytest.fixture(scope="module")
def node():
    path = shutil.which("node")
    if path is None:
        pytest.skip("node is not on PATH: install Node.js >= 18 (apt-get install nodejs) to "
                    "check the frame contract against explorer.js")
    return path


class _Contract(AxesView):
    """One artist of each kind the recorder writes, each with non-default styles."""

    def __init__(self):
        super().__init__()
        ax = self.ax
        self.dashed = self.animate(ax.plot(
            [0.1, 0.5, 0.9], [0.2, 0.8, 0.3], ls="--", lw=3, color=(0.2, 0.4, 0.6),
            dash_joinstyle="bevel", dash_capstyle="round")[0])
        self.solid = self.animate(ax.plot(
            [0.1, 0.9], [0.9, 0.6], lw=1.5, color=(0.8, 0.1, 0.1, 0.5),
            solid_joinstyle="miter", solid_capstyle="projecting")[0])
        self.dots = self.animate(ax.plot(
            [0.25, 0.75], [0.5, 0.25], ls="none", marker="s", ms=8, mfc=(1, 0.5, 0),
            mec=(0, 0, 1), mew=1.5)[0])
        self.box = self.animate(ax.add_patch(Rectangle(
            (0.6, 0.1), 0.2, 0.3, fc=(0, 0.5, 0, 0.25), ec=(0, 0, 0), lw=2)))
        self.data = np.arange(12.0).reshape(3, 4)
        self.image = self.animate(ax.imshow(
            self.data, extent=(0.05, 0.45, 0.05, 0.35), origin="lower",
            interpolation="nearest", cmap="viridis", alpha=0.6))
        self.text = self.animate(ax.text(0.5, 0.5, "contract"))


@pytest.fixture()
def view():
    v = _Contract()
    yield v
    v.close()


def paint_in_node(node, tmp_path, frames, explorer_js=EXPLORER_JS):
    """explorer.js's decodeFrame + paint on each ``(frame, pool)``: their recorded calls."""
    payload = tmp_path / "frames.json"
    payload.write_text(json.dumps({"frames": [
        {"frame": base64.b64encode(f).decode(), "pool": base64.b64encode(p).decode()}
        for f, p in frames]}))
    out = subprocess.run([node, str(SCRIPT), str(explorer_js), str(payload)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"explorer.js could not paint the frame:\n{out.stderr}"
    return json.loads(out.stdout)


def _css(rgba) -> str:
    r, g, b, a = (int(round(float(v) * 255)) for v in rgba)
    return f"rgba({r},{g},{b},{a / 255:.4f})"


def _canvas_xy(view, ax_xy):
    """Data coordinates -> canvas pixels (origin top left, y down)."""
    xy = view.ax.transData.transform(np.asarray(ax_xy, float))
    return np.column_stack([xy[:, 0], view.fig.bbox.height - xy[:, 1]])


def _vertices(path) -> np.ndarray:
    return np.array([s[1:3] for s in path if s[0] in "ML"], float)


def contract_problems(view, painted) -> list[str]:
    """Every way the calls explorer.js made differ from the artists ``view`` recorded."""
    problems = []
    items = painted["items"]
    strokes = [i for i in items if i["call"] == "stroke"]
    fills = [i for i in items if i["call"] == "fill"]
    images = [i for i in items if i["call"] == "image"]

    def check(what, got, want):
        if got != want:
            problems.append(f"{what}: explorer.js used {got!r}, the artist has {want!r}")

    def close(what, got, want, tol):
        got, want = np.asarray(got, float), np.asarray(want, float)
        if got.shape != want.shape or not np.allclose(got, want, atol=tol):
            problems.append(f"{what}: explorer.js used {got.tolist()}, the artist has "
                            f"{want.tolist()}")

    if not items or items[0]["call"] != "background":
        problems.append("the background is not drawn first")
    # the axes' clip rectangle (snapped to whole pixels, as Agg does)
    x0, y0, w, h = view.ax.bbox.bounds
    clip = [i for i in items if i["call"] == "clip"]
    if len(clip) != 1 or clip[0]["path"][0][0] != "R":
        problems.append(f"one clip rectangle expected, got {clip}")
    else:
        close("clip rectangle", clip[0]["path"][0][1:],
              [x0, view.fig.bbox.height - y0 - h, w, h], 1.0)
    # two lines: vertices to 1/16 px, colour, width, join, cap, dashes
    for line, join, cap in ((view.dashed, "bevel", "round"), (view.solid, "miter", "square")):
        want = _canvas_xy(view, line.get_xydata())
        hits = [s for s in strokes if len(_vertices(s["path"])) == len(want)
                and np.allclose(_vertices(s["path"]), want, atol=1 / 32 + 1e-6)]
        if len(hits) != 1:
            problems.append(f"line {line.get_linestyle()!r}: no stroke along {want.tolist()}")
            continue
        s = hits[0]
        check(f"line {line.get_linestyle()!r} strokeStyle", s["strokeStyle"],
              _css(line.get_color() if len(line.get_color()) == 4 else (*line.get_color(), 1)))
        close(f"line {line.get_linestyle()!r} lineWidth", s["lineWidth"],
              line.get_linewidth() * PX, 1e-4)
        check(f"line {line.get_linestyle()!r} lineJoin", s["lineJoin"], join)
        check(f"line {line.get_linestyle()!r} lineCap", s["lineCap"], cap)
        offset, dashes = line._dash_pattern  # matplotlib's, in points, scaled by the width
        close(f"line {line.get_linestyle()!r} dash", s["dash"],
              [d * PX for d in dashes] if dashes else [], 1e-3)
        close(f"line {line.get_linestyle()!r} dashOffset", s["dashOffset"], offset * PX, 1e-3)
    # the markers: one square path, placed at each point by the transform
    half = view.dots.get_markersize() / 2 * PX
    points = _canvas_xy(view, view.dots.get_xydata())
    placed = [f for f in fills if f["transform"][4:] != [0, 0]]
    close("marker positions", [f["transform"][4:] for f in placed], points, 1.0)
    for f in placed:
        check("marker fillStyle", f["fillStyle"], _css((1, 0.5, 0, 1)))
        close("marker size", np.abs(_vertices(f["path"])).max(), half, 0.6)
    marker_strokes = [s for s in strokes if s["transform"][4:] != [0, 0]]
    check("marker strokes", len(marker_strokes), len(points))
    for s in marker_strokes:
        check("marker strokeStyle", s["strokeStyle"], _css((0, 0, 1, 1)))
        close("marker lineWidth", s["lineWidth"], view.dots.get_markeredgewidth() * PX, 1e-4)
    # the rectangle: filled and stroked along its corners
    corners = _canvas_xy(view, [(0.6, 0.1), (0.8, 0.1), (0.8, 0.4), (0.6, 0.4)])
    box = [f for f in fills if f["transform"][4:] == [0, 0]]
    if len(box) != 1:
        problems.append(f"one filled patch expected, got {len(box)}")
    else:
        close("rectangle corners", _vertices(box[0]["path"])[:4], corners, 1.0)
        check("rectangle fillStyle", box[0]["fillStyle"], _css(view.box.get_facecolor()))
        edge = [s for s in strokes if s["path"] == box[0]["path"]]
        check("rectangle strokes", len(edge), 1)
        if edge:
            check("rectangle strokeStyle", edge[0]["strokeStyle"], _css(view.box.get_edgecolor()))
            close("rectangle lineWidth", edge[0]["lineWidth"], view.box.get_linewidth() * PX,
                  1e-4)
    # the image: its own 4 x 3 pixels from the colour map, placed on its extent, faded
    img = [i for i in images if (i["width"], i["height"]) == view.data.shape[::-1]]
    if len(img) != 1:
        problems.append(f"one {view.data.shape[1]} x {view.data.shape[0]} image expected")
    else:
        i = img[0]
        left, top = _canvas_xy(view, [(0.05, 0.35)])[0]
        right, bottom = _canvas_xy(view, [(0.45, 0.05)])[0]
        close("image rectangle", i["args"][4:], [left, top, right - left, bottom - top], 0.01)
        close("image alpha", i["alpha"], 0.6, 1e-6)
        check("image smoothing", i["smooth"], False)
        rgba = np.frombuffer(base64.b64decode(i["pixels"]), np.uint8).reshape(3, 4, 4)
        want = plt.get_cmap("viridis")(Normalize(0, 11)(view.data[::-1]), bytes=True)
        close("image pixels (rows top down, RGBA)", rgba[..., :3], want[..., :3], 1)
    # the text: a sprite of its ink inside the text's extent, black where it is opaque
    sprites = [i for i in images if i not in img]
    if len(sprites) != 1:
        problems.append(f"one text sprite expected, got {len(sprites)}")
    else:
        s = sprites[0]
        bb = view.text.get_window_extent(view.fig.canvas.get_renderer())
        x, y, w, h = s["args"][4:]
        top, bottom = view.fig.bbox.height - bb.y1, view.fig.bbox.height - bb.y0
        inside = (bb.x0 - 2 <= x and x + w <= bb.x1 + 2 and top - 2 <= y
                  and y + h <= bottom + 2 and w >= bb.width / 2)  # the ink, in the extent
        if not inside:
            problems.append(f"text sprite at {[x, y, w, h]} is not the text at "
                            f"{[bb.x0, top, bb.width, bb.height]}")
        px = np.frombuffer(base64.b64decode(s["pixels"]), np.uint8).reshape(-1, 4)
        ink = px[px[:, 3] > 128]
        if not len(ink) or ink[:, :3].max() > 60:
            problems.append("text sprite: its opaque pixels are not the text's black")
    return problems


def test_explorer_js_paints_what_the_recorder_recorded(node, tmp_path, view):
    frame = view.record_frame()
    [painted] = paint_in_node(node, tmp_path, [(frame, b"")])
    f = decode(frame)  # the header the two decoders must read alike
    assert painted["meta"] == f["meta"]
    assert painted["n"] == [len(f["i32"]), len(f["f32"]), len(f["u8"])]
    assert contract_problems(view, painted) == []


def test_a_grid_frame_with_its_pool_paints_the_same(node, tmp_path, view):
    """A grid's frames keep sprites and images in the shared pool (ops 6 and 7)."""
    pool = Pool()
    pooled = view.record_frame(pool=pool)
    assert len(pool.data) > 0
    plain, in_grid = paint_in_node(node, tmp_path, [(view.record_frame(), b""),
                                                    (pooled, bytes(pool.data))])
    assert contract_problems(view, in_grid) == []
    assert in_grid["items"] == plain["items"]


def test_a_field_renamed_in_the_recorder_fails_the_contract(node, tmp_path, view, monkeypatch):
    original = _record.Recorder._line_style

    def renamed(self, gc, lw):
        style = original(self, gc, lw)
        style["join"] = style.pop("j")  # what explorer.js does not read
        if "d" in style:
            style["dash"] = style.pop("d")
        return style

    monkeypatch.setattr(_record.Recorder, "_line_style", renamed)
    [painted] = paint_in_node(node, tmp_path, [(view.record_frame(), b"")])
    problems = "\n".join(contract_problems(view, painted))
    assert "lineJoin" in problems and "dash" in problems


def test_a_field_renamed_in_explorer_js_fails_the_contract(node, tmp_path, view):
    source = EXPLORER_JS.read_text()
    planted = tmp_path / "explorer.js"
    for old, new in (("style.c ||", "style.cap ||"), ("style.d ||", "style.dashes ||")):
        assert old in source, f"explorer.js no longer reads {old!r}: update this planted fault"
        source = source.replace(old, new)
    planted.write_text(source)
    [painted] = paint_in_node(node, tmp_path, [(view.record_frame(), b"")], planted)
    problems = "\n".join(contract_problems(view, painted))
    assert "lineCap" in problems and "dash" in problems
    # a renamed header field: explorer.js cannot paint at all
    planted.write_text(EXPLORER_JS.read_text().replace("meta.styles", "meta.style"))
    with pytest.raises(AssertionError, match="could not paint"):
        paint_in_node(node, tmp_path, [(view.record_frame(), b"")], planted)
