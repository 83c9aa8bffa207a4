"""A recording matplotlib renderer: a view's animated artists as drawing operations.

The browser draws every explorer (``genviz/widgets/static/explorer.js``). It never computes a
figure: it replays numbers matplotlib recorded here. After ``view.update(...)``, the view's
*animated* artists (the ones ``update`` changes, the same split blitting uses) are drawn into
a :class:`Recorder` instead of a raster. matplotlib does all the work it does for Agg -- the
data-to-pixel transforms, contour generation, 3-D projection and depth sorting, marker
paths, colour mapping, dash scaling, snapping, text layout -- and the recorder keeps the
result in display pixels:

* paths (lines, patches, contour sets, 3-D polygons) with fill and stroke colour, width,
  dashes, joins, caps and the clip rectangle or path; consecutive paths of one style are
  batched into one operation (the 3-D surface's ~1,400 polygons are one op);
* markers and collection offsets: the marker path once, then one position per point;
* images (``AxesImage``): the artist's own small data array, colour-mapped by matplotlib
  (``to_rgba``) and sent as a palette + indices when it has at most 256 colours, with the
  destination rectangle and whether to smooth -- never a resampled raster;
* text (the error banner, tick-free labels that ``update`` changes): rendered by Agg into a
  small sprite, so the fonts are matplotlib's.

The bytes are laid out by :mod:`genviz.plots._ops` (the frame format, shared with
explorer.js and tests/frame_replay.py).
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase, RendererBase
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.image import AxesImage
from matplotlib.path import Path
from matplotlib.transforms import Affine2D, IdentityTransform

from genviz.plots._frames import png_rgba
from genviz.plots._ops import OPS, POOL_IMAGE_BYTES, Frame, encode

__all__ = ["Recorder", "record_view", "background_png"]

_CAPS = {"butt": "butt", "round": "round", "projecting": "square"}
_JOINS = {"miter": "miter", "round": "round", "bevel": "bevel"}


#: the fixed-length operations of a recorded fragment: operation -> (its length in i32, the
#: slots holding a float32 offset, the slots holding a uint8 offset), which Recorder._splice
#: moves to where the fragment's data lands (CLIP and PATHS: in _splice, their length varies)
_FRAGMENT_OFFSETS = {OPS["MARKERS"]: (10, (3, 6, 9), (4, 7)),
                     OPS["IMAGE"]: (9, (6,), (3, 5)), OPS["IMAGE_POOL"]: (9, (6,), ()),
                     OPS["SPRITE"]: (6, (), (3,)), OPS["SPRITE_POOL"]: (6, (), ())}


def _rgba_bytes(rgba) -> tuple:
    r, g, b, a = (float(v) for v in rgba)
    return (int(round(r * 255)), int(round(g * 255)), int(round(b * 255)), int(round(a * 255)))


def _image_interpolation_smooth(image, A, dest_w, dest_h) -> bool:
    """Whether matplotlib would interpolate ``image`` smoothly at this size (its 'auto' rule:
    no smoothing when upsampling by more than 3x or by exactly 1x or 2x)."""
    interp = image.get_interpolation() or "auto"
    if interp in ("nearest", "none"):
        return False
    if interp in ("antialiased", "auto"):
        h, w = A.shape[:2]
        dx, dy = abs(dest_w), abs(dest_h)
        if ((dx > 3 * w or dx == w or dx == 2 * w) and (dy > 3 * h or dy == h or dy == 2 * h)):
            return False
    return True


class Recorder(RendererBase):
    """A matplotlib renderer that records drawing operations instead of rasterising.

    One recorder serves a figure of one size (text layout is cached per renderer, so a view
    keeps its recorder). Use :meth:`record` with the artists to draw; it returns the encoded
    frame. Text metrics and text sprites come from an Agg renderer of the same size and dpi.
    """

    def __init__(self, width: int, height: int, dpi: float, *, pool: Pool | None = None):
        super().__init__()
        self.pool = pool
        self.width, self.height, self.dpi = int(width), int(height), float(dpi)
        self._agg = RendererAgg(self.width, self.height, self.dpi)
        self._flip = Affine2D().scale(1.0, -1.0).translate(0.0, self.height)
        self._frame: Frame | None = None
        self._sprites: dict = {}  # text sprites by what they depend on (draw_text)
        self._clip_key = None
        self._batch = None  # (style id, lists) of the PATHS op being filled

    # -- what matplotlib asks every renderer ------------------------------------------------
    def get_canvas_width_height(self):
        """The canvas size in pixels."""
        return self.width, self.height

    def get_text_width_height_descent(self, s, prop, ismath):
        """Text metrics, from Agg."""
        return self._agg.get_text_width_height_descent(s, prop, ismath)

    def points_to_pixels(self, points):
        """Points to pixels at this dpi."""
        return points * self.dpi / 72.0

    def flipy(self):
        """As Agg: text positions arrive with y measured from the top."""
        return True

    def option_image_nocomposite(self):
        """Images are recorded one by one, never composited."""
        return True

    def new_gc(self):
        """A plain graphics context."""
        return GraphicsContextBase()

    # -- recording ------------------------------------------------------------------------------
    def record(self, artists, *, static=(), static_key=None) -> bytes:
        """Draw ``artists`` (in the order given) into a new frame; returns it encoded.

        ``static``: those of ``artists`` that do not change between frames (static artists
        drawn over animated ones, :meth:`genviz.plots._base.View.above`). Each is recorded once
        per ``static_key`` (the view's background version: a full redraw records them anew)
        and its operations are copied into later frames, so a legend or an axis with its
        tick labels costs no matplotlib draw per frame."""
        static_ids = {id(a) for a in static}
        if static_key != getattr(self, "_fragments_key", None):
            self._fragments, self._fragments_key = {}, static_key
        self._frame = Frame(self.width, self.height)
        self._clip_key = None
        self._batch = None
        try:
            for artist in artists:
                if id(artist) in static_ids:
                    self._splice(self._fragment(artist))
                else:
                    self.draw_artist(artist)
            self._flush()
            return encode(self._frame)
        finally:
            self._frame = None

    def _fragment(self, artist) -> Frame:
        """``artist`` recorded alone (cached per artist and pool)."""
        key = (id(artist), id(self.pool))
        hit = self._fragments.get(key)  # the entry holds both: neither id can be reused
        if hit is not None and hit[0] is artist and hit[1] is self.pool:
            return hit[2]
        frame, clip, batch = self._frame, self._clip_key, self._batch
        self._frame, self._clip_key, self._batch = Frame(self.width, self.height), None, None
        try:
            self.draw_artist(artist)
            self._flush()
            fragment = self._frame
        finally:
            self._frame, self._clip_key, self._batch = frame, clip, batch
        self._fragments[key] = (artist, self.pool, fragment)
        return fragment

    def _splice(self, part: Frame) -> None:
        """Copy a recorded fragment's operations into the current frame, moving its offsets
        (float32 and uint8 streams, style ids) to where its data lands."""
        self._flush()
        f = self._frame
        df, du = f.n_f32, f.n_u8
        sid = [f.style(**style) for style in part.styles]
        i32, p, out = part.i32, 0, []
        while p < len(i32):
            op = i32[p]
            if op == OPS["CLIP"]:  # kind 0: none, 1: a rectangle, 2: a path (its codes in u8)
                kind = i32[p + 1]
                n, f32_at, u8_at = 6, (2, 4)[:kind], (5,)[:kind - 1]
            elif op == OPS["PATHS"]:
                n, f32_at, u8_at = 7 + i32[p + 2], (3, 6), (4, 5)
            elif op in _FRAGMENT_OFFSETS:
                n, f32_at, u8_at = _FRAGMENT_OFFSETS[op]
            else:  # pragma: no cover - the recorder writes no other operation
                raise ValueError(f"unknown operation {op} in a recorded fragment")
            rec = list(i32[p:p + n])
            if op in (OPS["PATHS"], OPS["MARKERS"]):
                rec[1] = sid[rec[1]]
            for k in f32_at:
                rec[k] += df
            for k in u8_at:
                rec[k] += du
            p += n
            out += rec
        f.i32 += out
        for a in part.f32:
            f._add_f32(a)
        for a in part.u8:
            f.add_u8(a)
        self._clip_key = None  # the fragment left its own clip in place

    def draw_artist(self, artist) -> None:
        """Record one artist: an affine ``AxesImage`` as its data, anything else through its own
        ``draw`` (which calls the ``draw_*`` methods below)."""
        if isinstance(artist, AxesImage) and artist.get_transform().is_affine \
                and artist.get_array() is not None and artist.get_array().size:
            self._record_axes_image(artist)
        else:
            artist.draw(self)

    # -- clip state ---------------------------------------------------------------------------
    def _clip(self, gc) -> None:
        """Emit a CLIP op when the clip differs from the current one (Agg rounds the clip
        rectangle to whole pixels)."""
        rect = gc.get_clip_rectangle()
        cpath, ctrans = gc.get_clip_path()
        if rect is not None:
            x0, y0, x1, y1 = rect.extents
            H = self.height
            left = max(math.floor(x0 + 0.5), 0)
            right = min(math.floor(x1 + 0.5), self.width)
            top = max(math.floor(H - y1 + 0.5), 0)
            bottom = min(math.floor(H - y0 + 0.5), H)
            rect_key = (left, top, right - left, bottom - top)
        else:
            rect_key = None
        path_key = None
        if cpath is not None:
            tp = ctrans + self._flip
            path_key = (id(cpath), tuple(np.round(tp.get_matrix().ravel(), 6)))
        key = (rect_key, path_key)
        if key == self._clip_key:
            return
        self._flush()
        self._clip_key = key
        f = self._frame
        if rect_key is None and cpath is None:
            f.i32 += [OPS["CLIP"], 0, 0, 0, 0, 0]
            return
        r = rect_key if rect_key is not None else (0, 0, self.width, self.height)
        roff = f.add_f32(r)
        if cpath is None:
            f.i32 += [OPS["CLIP"], 1, roff, 0, 0, 0]
            return
        v, c = self._clean(cpath, ctrans + self._flip, simplify=False)
        f.i32 += [OPS["CLIP"], 2, roff, len(c), f.add_xy(v), f.add_u8(c)]

    # -- paths -------------------------------------------------------------------------------
    @staticmethod
    def _clean(path, transform, *, simplify=False, snap=False, stroke_width=1.0):
        """Vertices (n, 2) and codes (n,) of ``path`` in canvas pixels, NaNs removed."""
        cleaned = path.cleaned(transform=transform, remove_nans=True, simplify=simplify,
                               curves=True, snap=snap, stroke_width=stroke_width)
        codes = cleaned.codes
        verts = cleaned.vertices
        if codes is None:
            codes = np.full(len(verts), Path.LINETO, np.uint8)
            if len(codes):
                codes[0] = Path.MOVETO
        keep = codes != Path.STOP
        return verts[keep], codes[keep]

    def _face(self, gc, rgbFace):
        if rgbFace is None:
            return None
        rgba = list(rgbFace) + [1.0] * (4 - len(rgbFace))
        if gc.get_forced_alpha() or len(rgbFace) == 3:
            rgba[3] = gc.get_alpha()
        if rgba[3] <= 0:
            return None
        return _rgba_bytes(rgba)

    def _stroke(self, gc):
        lw = self.points_to_pixels(gc.get_linewidth())
        rgba = gc.get_rgb()
        if lw <= 0 or rgba is None or rgba[3] <= 0:
            return None, lw
        return _rgba_bytes(rgba), lw

    def _line_style(self, gc, lw):
        offset, dashes = gc.get_dashes()
        style = {"j": _JOINS.get(gc.get_joinstyle(), "round"),
                 "c": _CAPS.get(gc.get_capstyle(), "butt")}
        if not gc.get_antialiased():
            style["aa"] = 0  # Agg renders it aliased: thin strokes cover whole pixels
        if dashes is not None and len(dashes) and lw > 0:
            style["d"] = [round(float(self.points_to_pixels(d)), 4) for d in dashes]
            style["o"] = round(float(self.points_to_pixels(offset or 0.0)), 4)
        return style

    def _flush(self) -> None:
        """Write the PATHS op being batched."""
        if self._batch is None:
            return
        sid, verts, codes, colours, widths, counts = self._batch
        self._batch = None
        f = self._frame
        v = np.concatenate(verts) if verts else np.zeros((0, 2))
        c = np.concatenate(codes) if codes else np.zeros(0, np.uint8)
        f.i32 += [OPS["PATHS"], sid, len(counts), f.add_xy(v), f.add_u8(c),
                  f.add_u8(np.asarray(colours, np.uint8)), f.add_f32(widths)]
        f.i32 += [int(n) for n in counts]

    def _add_paths(self, sid, verts_list, codes_list, colours, widths):
        if self._batch is None or self._batch[0] != sid:
            self._flush()
            self._batch = (sid, [], [], [], [], [])
        b = self._batch
        for v, c, col, w in zip(verts_list, codes_list, colours, widths):
            if len(c) == 0:
                continue
            b[1].append(v)
            b[2].append(c)
            b[3].append(col)
            b[4].append(w)
            b[5].append(len(c))

    def draw_path(self, gc, path, transform, rgbFace=None):
        """Record one path: canvas coordinates, fill and stroke, batched with its neighbours
        of the same style (snapped and simplified as Agg would)."""
        fill = self._face(gc, rgbFace)
        stroke, lw = self._stroke(gc)
        if fill is None and stroke is None:
            return
        self._clip(gc)
        simplify = path.should_simplify and rgbFace is None
        v, c = self._clean(path, transform + self._flip, simplify=simplify,
                           snap=gc.get_snap(), stroke_width=lw if stroke else 0.0)
        sid = self._frame.style(**self._line_style(gc, lw))
        colour = (fill or (0, 0, 0, 0)) + (stroke or (0, 0, 0, 0))
        self._add_paths(sid, [v], [c], [colour], [lw if stroke else 0.0])

    def draw_markers(self, gc, marker_path, marker_trans, path, trans, rgbFace=None):
        """Record a marker stamped at every vertex of ``path`` (at whole pixels, as Agg)."""
        fill = self._face(gc, rgbFace)
        stroke, lw = self._stroke(gc)
        if fill is None and stroke is None:
            return
        pts = trans.transform(path.vertices)
        pts = pts[np.isfinite(pts).all(axis=1)]
        if not len(pts):
            return
        self._clip(gc)
        self._flush()
        # Agg stamps markers at whole pixels: floor(x + 0.5), with y flipped
        pts = np.floor(np.column_stack([pts[:, 0], self.height - pts[:, 1]]) + 0.5)
        tr = marker_trans + Affine2D().scale(1.0, -1.0)
        mv, mc = self._clean(marker_path, tr, snap=gc.get_snap(), stroke_width=lw)
        raw, _ = self._clean(marker_path, tr, snap=False)
        if raw.shape == mv.shape and np.array_equal(raw, mv):
            mv = mv + 0.5  # not snapped: Agg centres the marker on the pixel
        colour = (fill or (0, 0, 0, 0)) + (stroke or (0, 0, 0, 0))
        self._markers(gc, lw, mv, mc, pts, np.asarray([colour], np.uint8), stroke)

    def _markers(self, gc, lw, mv, mc, pts, colours, stroke):
        f = self._frame
        sid = f.style(**self._line_style(gc, lw))
        per_point = 1 if len(colours) > 1 else 0
        f.i32 += [OPS["MARKERS"], sid, len(mc), f.add_xy(mv), f.add_u8(mc), len(pts),
                  f.add_xy(pts), f.add_u8(colours), per_point,
                  f.add_f32([lw if stroke else 0.0])]

    def draw_path_collection(self, gc, master_transform, paths, all_transforms, offsets,
                             offset_trans, facecolors, edgecolors, linewidths, linestyles,
                             antialiaseds, urls, offset_position, *, hatchcolors=None):
        """Record a collection: one marker at many offsets (scatter) as one MARKERS op; many
        paths (contours, line collections, 3-D polygons) as one PATHS batch."""
        offsets = np.asarray(offsets, dtype=float).reshape(-1, 2)
        n_paths, n_tr, n_off = len(paths), len(all_transforms), len(offsets)
        if n_paths == 0 or (len(facecolors) == 0 and len(edgecolors) == 0):
            return
        n = max(n_paths, n_off)
        fc = np.asarray(facecolors, float).reshape(-1, 4) if len(facecolors) else None
        ec = np.asarray(edgecolors, float).reshape(-1, 4) if len(edgecolors) else None
        lws = np.asarray(linewidths, float).ravel() if len(linewidths) else np.array([gc.get_linewidth()])
        dash_keys = {(ls[0], tuple(ls[1]) if ls[1] is not None else None)
                     for ls in linestyles} if len(linestyles) else set()
        uniform = len(dash_keys) <= 1 and (ec is None or len(np.unique(lws)) <= 1)
        idx = np.arange(n)
        face = np.zeros((n, 4), np.uint8)
        if fc is not None:
            face = np.round(fc[idx % len(fc)] * 255).astype(np.uint8)
        edge = np.zeros((n, 4), np.uint8)
        widths = np.zeros(n)
        if ec is not None:
            edge = np.round(ec[idx % len(ec)] * 255).astype(np.uint8)
            widths = self.points_to_pixels(lws[idx % len(lws)])
            edge[widths <= 0] = 0
            widths[edge[:, 3] == 0] = 0.0
        if not uniform or not master_transform.is_affine:
            self._collection_generic(gc, master_transform, paths, all_transforms, offsets,
                                     offset_trans, facecolors, edgecolors, linewidths,
                                     linestyles, antialiaseds, urls, offset_position,
                                     hatchcolors)
            return
        gc0 = self.new_gc()
        gc0.copy_properties(gc)
        if linestyles:
            gc0.set_dashes(*linestyles[0])
        gc0.set_linewidth(float(lws[0]))
        if len(antialiaseds):
            gc0.set_antialiased(bool(np.asarray(antialiaseds).ravel()[0]))
        self._clip(gc0)
        width0 = float(widths.max()) if len(widths) else 0.0
        if n_paths == 1 and n_off >= 1 and n_tr <= 1:
            tr = (Affine2D(all_transforms[0]) if n_tr else IdentityTransform()) + master_transform
            self._collection_markers(gc0, width0, paths[0], tr, offset_trans.transform(offsets),
                                     face, edge)
            return
        # many paths (contours, line collections, 3-D polygons): one PATHS batch
        sid = self._frame.style(**self._line_style(gc0, width0))
        if n_off:
            pts = offset_trans.transform(offsets)
        verts_list, codes_list, colours, wlist = [], [], [], []
        flip = self._flip
        if n_tr <= 1 and (not n_off or not np.any(pts)):
            shared = (Affine2D(all_transforms[0]) if n_tr else IdentityTransform()) \
                + master_transform + flip
            self._batch_shared(sid, paths, n, shared, face, edge, widths)
            return
        for i in range(n):
            p = paths[i % n_paths]
            tr = (Affine2D(all_transforms[i % n_tr]) if n_tr else IdentityTransform()) \
                + master_transform
            if n_off:
                xo, yo = pts[i % n_off]
                if not (np.isfinite(xo) and np.isfinite(yo)):
                    continue
                if xo or yo:
                    tr = tr + Affine2D().translate(xo, yo)
            if face[i, 3] == 0 and widths[i] <= 0:
                continue
            if face[i, 3] == 0 and len(p.vertices) > 128 and p.should_simplify:
                v, c = self._clean(p, tr + flip, simplify=True)
            else:
                v, c = self._fast_clean(p, tr + flip)
            verts_list.append(v)
            codes_list.append(c)
            colours.append(tuple(face[i]) + tuple(edge[i]))
            wlist.append(float(widths[i]))
        self._add_paths(sid, verts_list, codes_list, colours, wlist)

    def _collection_markers(self, gc, width, path, transform, pts, face, edge):
        """One marker stamped at many offsets (a scatter): one MARKERS op, colours per point
        when they differ."""
        ok = np.isfinite(pts).all(axis=1)
        if not ok.any():
            return
        self._flush()
        pts = np.column_stack([pts[ok, 0], self.height - pts[ok, 1]])
        mv, mc = self._clean(path, transform + Affine2D().scale(1.0, -1.0))
        colours = np.concatenate([face[ok], edge[ok]], axis=1)
        if (colours == colours[0]).all():
            colours = colours[:1]
        self._markers(gc, width, mv, mc, pts, colours, width > 0)

    def _batch_shared(self, sid, paths, n, shared, face, edge, widths):
        """Many paths under one transform (a 3-D surface's ~1,200 polygons, contour sets):
        their vertices in one array, transformed by one matrix product, one PATHS batch."""
        verts_list, codes_list, colours, wlist = [], [], [], []
        pending = []  # indices of verts_list still to transform
        for i in range(n):
            p = paths[i % len(paths)]
            if face[i, 3] == 0 and widths[i] <= 0:
                continue
            v = p.vertices
            if (face[i, 3] == 0 and len(v) > 128 and p.should_simplify) \
                    or not np.isfinite(v).all():
                # unfilled curves of many points (the KDE's bumps): simplified as Agg
                # simplifies lines (to 1/9 px); paths with NaN: cleaned
                v, c = self._clean(p, shared, simplify=bool(face[i, 3] == 0))
            else:
                v, c = self._raw_codes(p)
                pending.append(len(verts_list))
            verts_list.append(v)
            codes_list.append(c)
            colours.append(tuple(face[i]) + tuple(edge[i]))
            wlist.append(float(widths[i]))
        if pending:
            stacked = np.concatenate([verts_list[i] for i in pending])
            out = shared.transform_affine(stacked) if len(stacked) else stacked
            k = 0
            for i in pending:
                m = len(verts_list[i])
                verts_list[i] = out[k:k + m]
                k += m
        self._add_paths(sid, verts_list, codes_list, colours, wlist)

    @staticmethod
    def _raw_codes(path):
        """A path's vertices (untransformed, STOP removed) and its codes."""
        v, codes = path.vertices, path.codes
        if codes is None:
            codes = np.full(len(v), Path.LINETO, np.uint8)
            if len(codes):
                codes[0] = Path.MOVETO
            return v, codes
        codes = np.asarray(codes, np.uint8)
        keep = codes != Path.STOP
        return v[keep], codes[keep]

    def _fast_clean(self, path, transform):
        """A collection path in canvas pixels: a plain affine transform when it has no NaN
        (the common case, ~10x faster than ``Path.cleaned``), else ``_clean``."""
        if not np.isfinite(path.vertices).all():
            return self._clean(path, transform)
        v, codes = self._raw_codes(path)
        return transform.transform_affine(v) if len(v) else v.reshape(0, 2), codes

    def _collection_generic(self, gc, *args):
        """Collections whose items differ in line width or dashes: one draw_path per item."""
        RendererBase.draw_path_collection(self, gc, *args[:-1], hatchcolors=args[-1])

    def draw_quad_mesh(self, *args, **kwargs):
        """Record a quad mesh as matplotlib's generic path collection."""
        return RendererBase.draw_quad_mesh(self, *args, **kwargs)

    def draw_gouraud_triangles(self, gc, triangles_array, colors_array, transform):
        """Record Gouraud-shaded triangles as flat ones (unused by genviz's views)."""
        # not used by genviz's views; drawn as flat triangles of their mean colour
        tri = np.asarray(triangles_array)
        col = np.asarray(colors_array).mean(axis=1)
        for t, c in zip(tri, col):
            self.draw_path(gc, Path(t, closed=False), transform, tuple(c))

    # -- images -------------------------------------------------------------------------------
    def _image_op(self, pixels, rect, smooth, alpha):
        """IMAGE op from RGBA pixels (rows top first). For a grid (a pool), as palette +
        indices when it has at most 256 colours (a quarter of the bytes, stored once); a
        kernel-path frame sends the pixels as they are (finding the palette costs more CPU
        than the bytes cost on a local socket)."""
        f = self._frame
        h, w = pixels.shape[:2]
        palette = ()
        if self.pool is not None:
            flat = np.ascontiguousarray(pixels).view(np.uint32).reshape(-1)
            palette, index = np.unique(flat, return_inverse=True)
        if 0 < len(palette) <= 256:
            index, pal_bytes, npal = index.astype(np.uint8), palette.view(np.uint8), len(palette)
        else:
            index, pal_bytes, npal = np.ascontiguousarray(pixels), np.zeros(0, np.uint8), 0
        if self.pool is not None and index.size >= POOL_IMAGE_BYTES:
            op, data, pal = OPS["IMAGE_POOL"], self.pool.add(index), self.pool.add(pal_bytes)
        else:
            op, data, pal = OPS["IMAGE"], f.add_u8(index), f.add_u8(pal_bytes)
        f.i32 += [op, w, h, data, npal, pal, f.add_f32(rect), int(bool(smooth)),
                  int(round(1000 * (1.0 if alpha is None else float(alpha))))]

    def _record_axes_image(self, image) -> None:
        if not image.get_visible():
            return
        gc = self.new_gc()
        image._set_gc_clip(gc)
        self._clip(gc)
        self._flush()
        A = image.get_array()
        rgba = image.to_rgba(A, bytes=True)
        if rgba.ndim != 3:
            return
        x0, x1, y0, y1 = image.get_extent()
        tr = image.get_transform()
        (cx0, cy0), (cx1, cy1) = self._flip.transform(tr.transform([[x0, y0], [x1, y1]]))
        row0_y = cy1 if image.origin == "upper" else cy0
        other_y = cy0 if image.origin == "upper" else cy1
        if row0_y > other_y:  # row 0 must be at the top of the canvas rectangle
            rgba = rgba[::-1]
        if cx0 > cx1:
            rgba = rgba[:, ::-1]
        left, top = min(cx0, cx1), min(cy0, cy1)
        w, h = abs(cx1 - cx0), abs(cy1 - cy0)
        smooth = _image_interpolation_smooth(image, rgba, w, h)
        alpha = image.get_alpha()
        if alpha is not None and np.ndim(alpha):  # an array of alphas: multiply in
            a = np.asarray(alpha, float)
            rgba = rgba.copy()
            rgba[..., 3] = np.round(rgba[..., 3] * (a[::-1] if row0_y > other_y else a))
            alpha = None
        self._image_op(rgba, (left, top, w, h), smooth, alpha)

    def draw_image(self, gc, x, y, im, transform=None):
        """Record a raster matplotlib already resampled (an image with a non-affine
        transform)."""
        # a raster matplotlib resampled (non-affine images): pixels as they are
        self._clip(gc)
        self._flush()
        im = np.asarray(im)
        h, w = im.shape[:2]
        self._image_op(im, (x, self.height - y - h, w, h), False, gc.get_alpha())

    # -- text ----------------------------------------------------------------------------------
    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        """Record text as a sprite Agg rendered (matplotlib's fonts, hinting and mathtext).

        Agg places a text's bitmap at whole pixels, so the sprite depends on the text, its
        font, angle and colour and the fractional part of its position only: sprites are
        cached on those (labels that do not change cost nothing after the first frame)."""
        if not s or not s.strip():
            return
        self._clip(gc)
        self._flush()
        fx, fy = math.floor(x), math.floor(y)
        key = (s, hash(prop), str(prop), float(angle), bool(ismath), tuple(gc.get_rgb()),
               gc.get_alpha(), gc.get_antialiased(), round(x - fx, 4), round(y - fy, 4))
        hit = self._sprites.get(key)
        if hit is None:
            hit = self._render_text(gc, x, y, s, prop, angle, ismath, mtext)
            if hit is not None:
                hit = (hit[0], hit[1] - fx, hit[2] - fy)
            if len(self._sprites) > 1024:
                self._sprites.clear()
            self._sprites[key] = hit
        if hit is None:
            return
        sprite, dx, dy = hit
        f = self._frame
        if self.pool is not None:
            op, off = OPS["SPRITE_POOL"], self.pool.add(sprite)
        else:
            op, off = OPS["SPRITE"], f.add_u8(sprite)
        f.i32 += [op, sprite.shape[1], sprite.shape[0], off, int(fx + dx), int(fy + dy)]

    def _render_text(self, gc, x, y, s, prop, angle, ismath, mtext):
        """``(sprite, left, top)``: the text rendered by Agg, cropped to its ink, or None."""
        agg = self._agg
        agg.clear()
        gc_plain = self.new_gc()
        gc_plain.copy_properties(gc)
        gc_plain.set_clip_rectangle(None)
        gc_plain.set_clip_path(None)
        agg.draw_text(gc_plain, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        buf = np.asarray(agg.buffer_rgba())
        alpha = buf[..., 3]
        rows = np.flatnonzero(alpha.any(axis=1))
        if not len(rows):
            return None
        cols = np.flatnonzero(alpha[rows[0]:rows[-1] + 1].any(axis=0))
        sprite = buf[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].copy()
        return sprite, int(cols[0]), int(rows[0])


# -- a view's two layers ----------------------------------------------------------------------------
def background_png(view) -> tuple[bytes, str]:
    """``(png, key)``: the view's static background (its figure without the animated artists)
    as a PNG, and a hash of its pixels. Draws the figure in full first if the background
    changed since the last full draw (:meth:`View.request_full_redraw`); the PNG is encoded once
    per distinct background (zlib level 1, no row filter: :func:`genviz.plots._frames.png_rgba`)."""
    if view._needs_full_draw():
        view.redraw()
    if view._background_seen != view._background_version:  # a full draw since: hash it
        pixels = view._background_rgba
        key = hashlib.blake2b(pixels.data, digest_size=12).hexdigest()
        if key != view._background_hash:
            view._background_png = png_rgba(pixels)
            view._background_hash = key
        view._background_seen = view._background_version
    return view._background_png, view._background_hash


def record_view(view, pool=None) -> bytes:
    """The view's animated artists in their current state, recorded (an encoded frame), with
    the static artists matplotlib draws over them (:meth:`View.above`, recorded once per
    background): what the browser draws over :func:`background_png`. Draws the background first when it changed,
    so the layout the frame is recorded in is the one the background shows. With a
    :class:`~genviz.plots._ops.Pool`, sprites and large images go to it (a grid's states)."""
    if view._needs_full_draw():
        view.redraw()
    width, height = view.fig.canvas.get_width_height(physical=True)
    rec = view._recorder
    if rec is None or (rec.width, rec.height, rec.dpi) != (width, height, view.fig.dpi):
        rec = view._recorder = Recorder(width, height, view.fig.dpi)
    rec.pool = pool
    artists = view.animated_artists()
    static = view.above()
    moving = [a for a in artists if not any(a is s for s in static)]
    for artist in moving:
        if hasattr(artist, "do_3d_projection"):
            artist.do_3d_projection()
    return rec.record(artists, static=static, static_key=view._background_version)
