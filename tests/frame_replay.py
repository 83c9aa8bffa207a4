"""Replay a recorded frame (genviz.plots._record) with matplotlib's own Agg, in Python.

A second reader of the frame format, independent of the browser's (explorer.js): paths and
markers go to ``RendererAgg.draw_path`` at 72 dpi (so a point is a pixel), images are resampled
by Pillow, sprites are alpha-composited with numpy. tests/test_frames.py compares background +
replay with ``savefig`` for every explorer and control; browser_tests/test_fidelity.py does the
same with the browser's canvas. :class:`AxesView` is the figure the frame tests draw their own
artists on (tests/test_frames.py, tests/test_frame_contract.py).
"""

from __future__ import annotations

import io

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.path import Path
from matplotlib.transforms import Bbox, IdentityTransform, TransformedPath
from PIL import Image

from genviz.plots._base import View, new_figure
from genviz.plots._ops import OPS, decode

_CAPS = {"butt": "butt", "round": "round", "square": "projecting"}


class AxesView(View):
    """A test view: one axes with limits ``xlim``, ``ylim`` on a 4 x 3 in figure at ``DPI``
    (a 400 x 300 canvas); a subclass adds its artists on ``self.ax``."""

    DPI = 100

    def __init__(self, xlim=(0, 1), ylim=(0, 1)):
        super().__init__(new_figure(figsize=(4, 3), dpi=self.DPI))
        self.ax = self.fig.add_subplot()
        self.ax.set_xlim(*xlim)
        self.ax.set_ylim(*ylim)


def _composite(buf, src, x, y, alpha, clip):
    """Straight-alpha ``src`` (h, w, 4 uint8) over ``buf`` at (x, y), inside ``clip``."""
    H, W = buf.shape[:2]
    h, w = src.shape[:2]
    x0, y0, x1, y1 = clip if clip is not None else (0, 0, W, H)
    left, top = max(x, x0, 0), max(y, y0, 0)
    right, bottom = min(x + w, x1, W), min(y + h, y1, H)
    if right <= left or bottom <= top:
        return
    s = src[top - y:bottom - y, left - x:right - x].astype(float)
    d = buf[top:bottom, left:right].astype(float)
    a = s[..., 3:4] / 255.0 * alpha
    d[..., :3] = s[..., :3] * a + d[..., :3] * (1 - a)
    d[..., 3:4] = 255.0 * (a + d[..., 3:4] / 255.0 * (1 - a))
    buf[top:bottom, left:right] = np.round(d).astype(np.uint8)


def replay(background_png: bytes, frame: bytes, pool: bytes = b"") -> np.ndarray:
    """The figure as the frame says: background, then every operation (``pool``: the shared
    blocks of a grid, for ops 6 and 7). Returns RGBA pixels."""
    bg = np.asarray(Image.open(io.BytesIO(background_png)).convert("RGBA"))
    f = decode(frame)
    i32, f32, u8, styles = f["i32"], f["f32"], f["u8"], f["meta"]["styles"]
    shared = np.frombuffer(pool, np.uint8)
    H, W = bg.shape[:2]
    r = RendererAgg(W, H, 72.0)
    buf = np.asarray(r.buffer_rgba())
    buf[:] = bg
    gc = GraphicsContextBase()
    gc.set_snap(False)
    clip_rect = None

    def path_at(v0, c0, n, dx=0.0, dy=0.0):
        """A path of n vertices from float offset v0 and code offset c0."""
        v = f32[v0:v0 + 2 * n].reshape(n, 2).astype(float)
        return Path(np.column_stack([v[:, 0] + dx, H - (v[:, 1] + dy)]), u8[c0:c0 + n])

    def style(gc, s, width):
        gc.set_joinstyle(s.get("j", "round"))
        gc.set_capstyle(_CAPS[s.get("c", "butt")])
        gc.set_dashes(s.get("o", 0.0), s.get("d")) if s.get("d") else gc.set_dashes(0, None)
        gc.set_antialiased(bool(s.get("aa", 1)))
        gc.set_linewidth(max(width, 1.0) if s.get("aa", 1) == 0 and width > 0 else width)

    def colours(o):
        fill = u8[o:o + 4] / 255.0
        stroke = u8[o + 4:o + 8] / 255.0
        return (tuple(fill) if fill[3] > 0 else None), stroke

    p = 0
    while p < len(i32):
        op = int(i32[p])
        if op == OPS["CLIP"]:
            kind, ro = int(i32[p + 1]), int(i32[p + 2])
            gc.set_clip_rectangle(None)
            gc.set_clip_path(None)
            clip_rect = None
            if kind:
                x, y, w, h = (float(v) for v in f32[ro:ro + 4])
                gc.set_clip_rectangle(Bbox.from_bounds(x, H - y - h, w, h))
                clip_rect = (int(round(x)), int(round(y)), int(round(x + w)), int(round(y + h)))
            if kind == 2:
                cp = path_at(int(i32[p + 4]), int(i32[p + 5]), int(i32[p + 3]))
                gc.set_clip_path(TransformedPath(cp, IdentityTransform()))
            p += 6
        elif op == OPS["PATHS"]:
            s, n = styles[int(i32[p + 1])], int(i32[p + 2])
            v, c, col, wid = int(i32[p + 3]), int(i32[p + 4]), int(i32[p + 5]), int(i32[p + 6])
            for k in range(n):
                nv = int(i32[p + 7 + k])
                fill, stroke = colours(col + 8 * k)
                width = float(f32[wid + k]) if stroke[3] > 0 else 0.0
                style(gc, s, width)
                gc.set_foreground(tuple(stroke), isRGBA=True)
                if fill is not None or width > 0:
                    r.draw_path(gc, path_at(v, c, nv), IdentityTransform(), fill)
                v += 2 * nv
                c += nv
            p += 7 + n
        elif op == OPS["MARKERS"]:
            s, nv = styles[int(i32[p + 1])], int(i32[p + 2])
            v, c, npts, pts = int(i32[p + 3]), int(i32[p + 4]), int(i32[p + 5]), int(i32[p + 6])
            col, per, width = int(i32[p + 7]), int(i32[p + 8]), float(f32[int(i32[p + 9])])
            for k in range(npts):
                fill, stroke = colours(col + (8 * k if per else 0))
                w = width if stroke[3] > 0 else 0.0
                style(gc, s, w)
                gc.set_foreground(tuple(stroke), isRGBA=True)
                x, y = float(f32[pts + 2 * k]), float(f32[pts + 2 * k + 1])
                r.draw_path(gc, path_at(v, c, nv, x, y), IdentityTransform(), fill)
            p += 10
        elif op in (OPS["IMAGE"], OPS["IMAGE_POOL"]):
            src = u8 if op == OPS["IMAGE"] else shared
            w, h, data, npal, pal = (int(i32[p + k]) for k in range(1, 6))
            ro, smooth, alpha = int(i32[p + 6]), int(i32[p + 7]), int(i32[p + 8]) / 1000.0
            if npal:
                palette = src[pal:pal + 4 * npal].reshape(npal, 4)
                pixels = palette[src[data:data + w * h]].reshape(h, w, 4)
            else:
                pixels = src[data:data + 4 * w * h].reshape(h, w, 4)
            x, y, dw, dh = (float(v) for v in f32[ro:ro + 4])
            size = (max(1, int(round(dw))), max(1, int(round(dh))))
            img = Image.fromarray(np.ascontiguousarray(pixels), "RGBA").resize(
                size, Image.BILINEAR if smooth else Image.NEAREST)
            _composite(buf, np.asarray(img), int(round(x)), int(round(y)), alpha, clip_rect)
            p += 9
        elif op in (OPS["SPRITE"], OPS["SPRITE_POOL"]):
            src = u8 if op == OPS["SPRITE"] else shared
            w, h, data, x, y = (int(i32[p + k]) for k in range(1, 6))
            sprite = src[data:data + 4 * w * h].reshape(h, w, 4)
            _composite(buf, sprite, x, y, 1.0, clip_rect)
            p += 6
        else:
            raise ValueError(f"unknown operation {op} at {p}")
    return buf.copy()


def savefig_rgba(fig) -> np.ndarray:
    """matplotlib's own rendering of the figure (every artist in its z-order), at its dpi,
    through ``genviz.plots._base.figure_bytes`` (one draw, not the layout pre-draw savefig
    makes for the placeholder engine a frozen layout leaves)."""
    from genviz.plots._base import figure_bytes

    raw = figure_bytes(fig, "rgba", fig.dpi)
    w, h = fig.canvas.get_width_height(physical=True)
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4)


#: the side and step (px) of the tiles :func:`unmatched_tile` counts over
TILE, TILE_STEP = 8, 4
#: a tile may hold this share of unmatched pixels (5 of 64; a lost one-pixel line: 8 of 64)
LINE_LIMIT = 0.08


#: a pixel is unmatched when no pixel within 1 px of it in the other image is this close
NEAR_LEVELS = 64


def unmatched_tile(a, b, size: int = TILE, step: int = TILE_STEP,
                   levels: int = NEAR_LEVELS, skip=()) -> float:
    """The largest share of unmatched pixels over any ``size`` x ``size`` tile (tiles every
    ``step`` px), both ways: a pixel of one image is unmatched when no pixel of the other
    within one pixel of it has its colour to within ``levels`` in every channel.

    A line lost or covered (a spine painted over, a reference line under bars) leaves its
    pixels unmatched all along it: 8 of a tile's 64 (0.125) for a one-pixel line; edges
    placed a pixel apart, or antialiasing that differs, find their colour next door.
    ``skip``: pixel boxes ``(x0, y0, x1, y1)`` left out (:func:`three_d_boxes`).
    """
    a, b = np.asarray(a)[..., :3], np.asarray(b)[..., :3]
    if a.shape != b.shape:
        raise ValueError(f"images differ in shape: {a.shape} and {b.shape}")
    H, W = a.shape[:2]
    # A pixel within ``levels`` of the other image's pixel at the same place is matched both
    # ways (by that pixel: the search below includes it), so only the pixels that differ by
    # more are searched: their 3 x 3 neighbourhoods, clipped at the edges (as an edge-padded
    # image would be), in every channel.
    differs = np.zeros((H, W), bool)
    for c in range(a.shape[-1]):
        differs |= (np.maximum(a[..., c], b[..., c]) - np.minimum(a[..., c], b[..., c])) > levels
    ys, xs = np.nonzero(differs)

    def unmatched(x, y):
        here = x[ys, xs].astype(np.int16)
        best = np.full(len(ys), 1 << 14, np.int16)
        for dy in (-1, 0, 1):
            qy = np.clip(ys + dy, 0, H - 1)
            for dx in (-1, 0, 1):
                there = y[qy, np.clip(xs + dx, 0, W - 1)].astype(np.int16)
                np.minimum(best, np.abs(here - there).max(axis=-1), out=best)
        return best > levels

    off = np.zeros((H, W), np.float64)
    off[ys, xs] = unmatched(a, b) | unmatched(b, a)
    for x0, y0, x1, y1 in skip:
        off[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = 0.0
    if H < size or W < size:
        return float(off.mean()) if off.size else 0.0
    s = np.zeros((H + 1, W + 1))
    s[1:, 1:] = off.cumsum(0).cumsum(1)
    y0 = np.arange(0, H - size + 1, step)[:, None]
    x0 = np.arange(0, W - size + 1, step)[None, :]
    counts = s[y0 + size, x0 + size] - s[y0, x0 + size] - s[y0 + size, x0] + s[y0, x0]
    return float(counts.max() / (size * size))


def three_d_boxes(fig) -> list:
    """The pixel boxes of ``fig``'s 3-D axes: their surfaces' ~1,200 aliased hairline edges
    are drawn by each rasteriser a pixel apart, so :func:`unmatched_tile` leaves them out
    (the mean and share of far pixels still cover them)."""
    H = int(fig.bbox.height)
    out = []
    for ax in fig.axes:
        if getattr(ax, "name", "") == "3d" and ax.get_visible():
            b = ax.bbox
            out.append((int(b.x0) - 2, int(H - b.y1) - 2, int(b.x1) + 3, int(H - b.y0) + 3))
    return out


def difference(a, b, skip=()) -> dict:
    """Mean absolute RGB difference (levels), share of pixels off by more than 32, and
    ``line``: the worst tile's share of unmatched pixels (:func:`unmatched_tile`: a thin line
    lost or covered)."""
    a, b = a[..., :3], b[..., :3]
    d = np.maximum(a, b) - np.minimum(a, b)  # |a - b| without leaving uint8
    top = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    return {"mean": float(d.mean(dtype=np.float64)), "far": float((top > 32).mean()),
            "line": unmatched_tile(a, b, skip=skip)}


def swap_static_order(view):
    """A planted fault for the fidelity tests (#37's bug): the static artists above the moving
    ones baked into the background. Returns the function that undoes it."""
    import genviz.plots._base as base

    original = base._static_above
    base._static_above = lambda fig, animated: []
    return lambda: setattr(base, "_static_above", original)
