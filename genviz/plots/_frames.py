"""How a live (ipympl) canvas ships its pixels to the browser: fast, always whole frames.

ipympl, through matplotlib's webagg core, sends every repaint to the browser as a PNG made by
Pillow at its default settings (adaptive per-row filters, zlib level 6). On our explorer figures
that encoding alone is 13–38 ms per frame: most of what a slider move costs in the kernel
(benchmarks/results.md, the "PNG frame" rows). The frame is sent over a local socket and
decoded once; squeezing its size buys nothing. :func:`png_rgba` writes the same lossless image
with no row filter and zlib level 1: 2–6 ms for the same frames, about 1.2× the bytes.

Every frame is a *whole* frame. webagg would otherwise send only the pixels that changed since
its previous frame, but the browser drops a frame that arrives before the previous one has loaded
(it replaces the image's source), and every later diff then lands on stale pixels: the browser
tests caught an explorer showing only its moving curves on a blank canvas. A whole frame per
update heals a dropped frame at the next one.

:func:`install` swaps the encoder on one canvas (views call it for their own figure); other
figures in the notebook keep ipympl's behaviour.
"""

from __future__ import annotations

import struct
import types
import zlib

import numpy as np

__all__ = ["png_rgba", "install"]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_rgba(pixels, *, level: int = 1) -> bytes:
    """A PNG file (bytes) of an RGBA image: 8 bits per channel, filter type 0, zlib ``level``.

    Parameters
    ----------
    pixels : array of shape (height, width, 4), dtype uint8
        Rows top to bottom, as ``canvas.buffer_rgba()`` gives them.
    level : int, 0..9
        zlib compression level (1: fastest that still compresses a figure about 10×).
    """
    a = np.asarray(pixels)
    if a.dtype != np.uint8:
        raise TypeError(f"pixels must be uint8, got {a.dtype}")
    if a.ndim != 3 or a.shape[2] != 4 or a.shape[0] < 1 or a.shape[1] < 1:
        raise ValueError(f"pixels must have shape (height, width, 4) with height, width >= 1, "
                         f"got {a.shape}")
    if isinstance(level, bool) or not isinstance(level, (int, np.integer)) or not 0 <= level <= 9:
        raise ValueError(f"level must be an integer in 0..9, got {level!r}")
    height, width = a.shape[:2]
    rows = np.empty((height, 1 + 4 * width), dtype=np.uint8)
    rows[:, 0] = 0  # filter type None on every row
    rows[:, 1:] = a.reshape(height, 4 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.data, int(level))) + _chunk(b"IEND", b""))


def _whole_frame(canvas):
    """``get_diff_image`` for a webagg canvas: the whole current frame, fast PNG (or None when
    nothing was drawn since the last frame). Keeps webagg's bookkeeping: ipympl reads
    ``_last_buff`` for the figure's static snapshot."""
    if not canvas._png_is_old:
        return None
    pixels = np.asarray(canvas.get_renderer().buffer_rgba())
    canvas.set_image_mode("full")  # the browser clears the canvas, then draws the frame
    canvas._last_buff = pixels.view(np.uint32).squeeze(2).copy()
    canvas._force_full = False
    canvas._png_is_old = False
    return png_rgba(pixels)


def install(canvas) -> bool:
    """Make a webagg-family canvas (ipympl) ship whole frames encoded by :func:`png_rgba`.

    Returns False, changing nothing, for any other canvas (Agg, inline, PDF)."""
    if not (hasattr(canvas, "get_diff_image") and hasattr(canvas, "_png_is_old")
            and hasattr(canvas, "set_image_mode")):
        return False
    canvas.get_diff_image = types.MethodType(_whole_frame, canvas)
    return True
