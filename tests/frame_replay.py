"""Replay a recorded frame (genviz.plots._record) with matplotlib's own Agg, in Python.

A second reader of the frame format, independent of the browser's (explorer.js): paths and
markers go to ``RendererAgg.draw_path`` at 72 dpi (so a point is a pixel), images are resampled
by Pillow, sprites are alpha-composited with numpy. tests/test_frames.py compares background +
replay with ``savefig`` for every explorer and control; browser_tests/test_fidelity.py does the
same with the browser's canvas.
"""

from __future__ import annotations

import io

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.path import Path
from matplotlib.transforms import Bbox, IdentityTransform, TransformedPath
from PIL import Image

from genviz.plots._ops import OPS, decode

_CAPS = {"butt": "butt", "round": "round", "square": "projecting"}


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
    """matplotlib's own rendering of the figure (every artist in its z-order)."""
    out = io.BytesIO()
    fig.savefig(out, format="rgba", dpi=fig.dpi)
    w, h = fig.canvas.get_width_height(physical=True)
    return np.frombuffer(out.getvalue(), np.uint8).reshape(h, w, 4)


def difference(a, b) -> dict:
    """Mean absolute RGB difference (levels) and share of pixels off by more than 32."""
    d = np.abs(a[..., :3].astype(int) - b[..., :3].astype(int))
    return {"mean": float(d.mean()), "far": float((d.max(axis=-1) > 32).mean())}
