"""Fast PNG encoding of RGBA pixels: the static backgrounds explorers send to the browser.

An explorer's figure reaches the browser as a static background PNG (re-sent only when it
changes: limits, labels, layout) plus recorded drawing operations for what a control moves
(:mod:`genviz.plots._record`). Pillow at its default settings (adaptive per-row filters, zlib
level 6) takes 13-38 ms for one of our figures; :func:`png_rgba` writes the same lossless image
with no row filter and zlib level 1 in 2-6 ms, about 1.2x the bytes (benchmarks/results.md,
the "PNG frame" rows). The course website's pages recompress it (smaller files, once).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["png_rgba"]

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
