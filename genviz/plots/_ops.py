"""The frame format: what the browser replays, as bytes (recorded by :mod:`genviz.plots._record`).

:func:`encode` packs one frame as bytes (little-endian): a 20-byte header (``b"GVF1"``, the
JSON length and the lengths of three streams), a JSON object (canvas size, the styles), then an
int32 stream of operations, a float32 stream (coordinates) and a uint8 stream (path codes,
colours, pixels). ``explorer.js`` decodes it with typed-array views, no parsing per vertex.
Coordinates are canvas pixels: origin top left, y down.

Operations in the int32 stream (offsets index the float32 or uint8 stream)::

    1 CLIP    kind(0 none, 1 rect, 2 rect+path) rect@f32(x, y, w, h) n vertices@f32 codes@u8
    2 PATHS   style n_paths vertices@f32 codes@u8 colours@u8(fill rgba, stroke rgba per path)
              widths@f32(one per path) then n_paths vertex counts
    3 MARKERS style n_vertices vertices@f32 codes@u8 n_points points@f32 colours@u8
              per_point(0: one fill+stroke pair, 1: one pair per point) width@f32
    4 IMAGE   w h pixels@u8 n_palette(0: RGBA pixels) palette@u8 rect@f32(x, y, w, h) smooth
              alpha(0..1000)
    5 SPRITE  w h pixels@u8(RGBA) x y
    6 SPRITE  as 5, pixels in the shared pool
    7 IMAGE   as 4, pixels and palette in the shared pool

Path codes are matplotlib's (1 move, 2 line, 3 quadratic, 4 cubic, 79 close). Coordinates are
rounded to 1/16 pixel (invisible; the float32 values then compress several times better).

The *pool* serves the states of a grid (genviz.widgets.states): a recorder given a
:class:`Pool` puts each distinct sprite and large image once in it, and frames refer to it
(ops 6 and 7): the email explorer's word labels are the same in its 161 states.
"""

from __future__ import annotations

import hashlib
import json
import struct

import numpy as np

__all__ = ["Frame", "Pool", "encode", "decode", "FRAME_MAGIC", "OPS", "QUANTUM"]

FRAME_MAGIC = b"GVF1"
OPS = {"CLIP": 1, "PATHS": 2, "MARKERS": 3, "IMAGE": 4, "SPRITE": 5, "SPRITE_POOL": 6,
       "IMAGE_POOL": 7}
#: coordinates are kept to this fraction of a pixel
QUANTUM = 16.0
#: images at least this large go to the pool (a grid's states often share them)
POOL_IMAGE_BYTES = 2048


class Pool:
    """Byte blocks shared by many frames, each stored once (keyed by content)."""

    def __init__(self):
        self.data = bytearray()
        self._where: dict = {}

    def add(self, block) -> int:
        b = np.ascontiguousarray(block, dtype=np.uint8).tobytes()
        key = hashlib.blake2b(b, digest_size=16).digest()
        off = self._where.get(key)
        if off is None:
            off = self._where[key] = len(self.data)
            self.data += b
        return off


class Frame:
    """The three streams and the style table of one frame being recorded."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.i32: list = []
        self.f32: list = []  # numpy float32 arrays
        self.u8: list = []   # numpy uint8 arrays / bytes
        self.n_f32 = 0
        self.n_u8 = 0
        self.styles: list = []
        self._style_ids: dict = {}

    def add_f32(self, values) -> int:
        a = np.ascontiguousarray(values, dtype=np.float32).ravel()
        return self._add_f32(a)

    def add_xy(self, values) -> int:
        """Coordinates, rounded to 1/QUANTUM pixel."""
        a = np.round(np.asarray(values, dtype=np.float64) * QUANTUM) / QUANTUM
        return self._add_f32(np.ascontiguousarray(a, dtype=np.float32).ravel())

    def _add_f32(self, a) -> int:
        off = self.n_f32
        self.f32.append(a)
        self.n_f32 += a.size
        return off

    def add_u8(self, values) -> int:
        a = np.ascontiguousarray(values, dtype=np.uint8).ravel()
        off = self.n_u8
        self.u8.append(a)
        self.n_u8 += a.size
        return off

    def style(self, **style) -> int:
        key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in style.items()))
        sid = self._style_ids.get(key)
        if sid is None:
            sid = self._style_ids[key] = len(self.styles)
            self.styles.append(style)
        return sid


def encode(frame: "Frame") -> bytes:
    """The frame as bytes (see the module docstring for the layout)."""
    head = json.dumps({"w": frame.width, "h": frame.height, "styles": frame.styles},
                      separators=(",", ":")).encode()
    head += b" " * (-len(head) % 4)
    i32 = np.asarray(frame.i32, dtype="<i4").tobytes()
    f32 = (np.concatenate(frame.f32) if frame.f32 else np.zeros(0, np.float32)).astype("<f4")
    u8 = np.concatenate(frame.u8) if frame.u8 else np.zeros(0, np.uint8)
    return b"".join([FRAME_MAGIC, struct.pack("<4I", len(head), len(frame.i32), f32.size,
                                              u8.size), head, i32, f32.tobytes(), u8.tobytes()])


def decode(data: bytes) -> dict:
    """The parts of an encoded frame: ``{"meta", "i32", "f32", "u8"}`` (for tests and tools).

    Raises ValueError when ``data`` is not a frame (wrong magic or truncated)."""
    data = bytes(data)
    if len(data) < 20 or data[:4] != FRAME_MAGIC:
        raise ValueError("data is not a genviz frame (no GVF1 header)")
    n_head, n_i32, n_f32, n_u8 = struct.unpack("<4I", data[4:20])
    need = 20 + n_head + 4 * n_i32 + 4 * n_f32 + n_u8
    if len(data) < need:
        raise ValueError(f"data is a truncated genviz frame ({len(data)} of {need} bytes)")
    pos = 20
    meta = json.loads(data[pos:pos + n_head])
    pos += n_head
    i32 = np.frombuffer(data, "<i4", n_i32, pos)
    pos += 4 * n_i32
    f32 = np.frombuffer(data, "<f4", n_f32, pos)
    pos += 4 * n_f32
    u8 = np.frombuffer(data, np.uint8, n_u8, pos)
    return {"meta": meta, "i32": i32, "f32": f32, "u8": u8}
