"""Evaluation grids in the plane: the one place that turns a box into points and back.

Every 2-D picture of a model (a density's contours, a posterior surface, decision regions)
evaluates the model at the nodes of a regular grid and reshapes the values into an image.
:func:`grid_2d` builds that grid once; :class:`Grid2D` carries the axes, the points as rows
(what a model's ``predict``/``pdf`` takes) and the image layout (what ``imshow``/``contour``
take). :func:`data_box` gives a box around data.

Layout: ``Z = grid.reshape(values)`` has shape ``(len(ys), len(xs))`` and ``Z[i, j]`` is the
value at ``(xs[j], ys[i])`` — the layout of ``np.meshgrid(xs, ys)``, of
:func:`genviz.gaussian.mvn_pdf_grid`, and of ``imshow(Z, origin="lower", extent=grid.extent)``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from genviz._validation import check_int, check_points, check_scalar

__all__ = ["Grid2D", "grid_2d", "data_box"]


@dataclasses.dataclass(frozen=True, eq=False)
class Grid2D:
    """A regular grid over a box (see the module docstring for the layout).

    Attributes
    ----------
    xs : ndarray of shape (nx,)
        Node coordinates along the first axis, increasing.
    ys : ndarray of shape (ny,)
        Node coordinates along the second axis, increasing.
    points : ndarray of shape (ny * nx, 2)
        Every node as a row ``(x, y)``, ``x`` varying fastest.
    """

    xs: np.ndarray
    ys: np.ndarray
    points: np.ndarray

    @property
    def shape(self) -> tuple:
        """``(len(ys), len(xs))``: the shape of an image of values on the grid."""
        return (self.ys.size, self.xs.size)

    @property
    def extent(self) -> tuple:
        """``(x0, x1, y0, y1)``, the box, in the order ``imshow(extent=...)`` takes."""
        return (float(self.xs[0]), float(self.xs[-1]), float(self.ys[0]), float(self.ys[-1]))

    @property
    def mesh(self) -> tuple:
        """``(X, Y)``, both of shape ``(ny, nx)``: the node coordinates as images (surfaces)."""
        return self.points[:, 0].reshape(self.shape), self.points[:, 1].reshape(self.shape)

    def reshape(self, values) -> np.ndarray:
        """Values at :attr:`points` (one per row) as an image of shape :attr:`shape`.

        Raises
        ------
        ValueError
            If ``values`` does not have one entry per grid point.
        """
        values = np.asarray(values)
        if values.shape[:1] != (self.points.shape[0],):
            raise ValueError(f"values must have one entry per grid point ({self.points.shape[0]}), "
                             f"got shape {values.shape}")
        return values.reshape(self.shape + values.shape[1:])

    def evaluate(self, f) -> np.ndarray:
        """``f(points)`` as an image: e.g. ``grid.evaluate(model.predict)``."""
        return self.reshape(f(self.points))


def grid_2d(box, n=101, ny=None) -> Grid2D:
    """A regular grid of ``n`` x ``ny`` nodes over ``box = (x0, x1, y0, y1)``, ends included.

    Parameters
    ----------
    box : sequence of 4 floats, or float
        ``(x0, x1, y0, y1)`` with ``x0 < x1`` and ``y0 < y1``; a single number ``lim`` means the
        square ``(-lim, lim, -lim, lim)``.
    n : int
        Nodes along the first axis (>= 2).
    ny : int, optional
        Nodes along the second axis (default ``n``).

    Returns
    -------
    Grid2D

    Raises
    ------
    ValueError
        If the box is empty, not finite or not four numbers, or ``n``/``ny`` < 2.

    Examples
    --------
    >>> g = grid_2d((0.0, 1.0, 0.0, 2.0), n=2, ny=3)
    >>> g.points.tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 2.0], [1.0, 2.0]]
    >>> g.shape, g.extent
    ((3, 2), (0.0, 1.0, 0.0, 2.0))
    >>> float(g.evaluate(lambda P: P.sum(axis=1))[2, 1])  # at (xs[1], ys[2]) = (1, 2)
    3.0
    >>> grid_2d(4.0, n=3).xs
    array([-4.,  0.,  4.])
    """
    if np.ndim(box) == 0:
        lim = check_scalar(box, "box", low=0.0, low_open=True)
        box = (-lim, lim, -lim, lim)
    b = np.asarray(box, dtype=float)
    if b.shape != (4,) or not np.all(np.isfinite(b)):
        raise ValueError(f"box must be four finite numbers (x0, x1, y0, y1) or one positive "
                         f"number, got {box!r}")
    if not (b[0] < b[1] and b[2] < b[3]):
        raise ValueError(f"box must have x0 < x1 and y0 < y1, got {tuple(b.tolist())}")
    n = check_int(n, "n", low=2)
    ny = n if ny is None else check_int(ny, "ny", low=2)
    xs = np.linspace(b[0], b[1], n)
    ys = np.linspace(b[2], b[3], ny)
    points = np.column_stack([np.tile(xs, ny), np.repeat(ys, n)])
    return Grid2D(xs, ys, points)


def data_box(X, *, pad=0.0, rel_pad=0.0) -> tuple:
    """The box ``(x0, x1, y0, y1)`` around 2-D points, widened by ``pad + rel_pad * range``.

    Parameters
    ----------
    X : array_like of shape (n_samples, 2)
    pad : float
        Absolute margin on every side (>= 0).
    rel_pad : float
        Margin as a fraction of the data's range along each axis (>= 0).

    Returns
    -------
    tuple of 4 floats

    Raises
    ------
    ValueError
        If ``X`` is not (n, 2) finite points, or a margin is negative, or the box would be
        empty (all points on a line parallel to an axis and no ``pad``).

    Examples
    --------
    >>> data_box([[0.0, 0.0], [2.0, 1.0]], pad=1.0)
    (-1.0, 3.0, -1.0, 2.0)
    >>> data_box([[0.0, 0.0], [2.0, 1.0]], rel_pad=0.5)
    (-1.0, 3.0, -0.5, 1.5)
    """
    X = check_points(X, "X", d=2)
    pad = check_scalar(pad, "pad", low=0.0)
    rel_pad = check_scalar(rel_pad, "rel_pad", low=0.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    margin = pad + rel_pad * (hi - lo)
    lo, hi = lo - margin, hi + margin
    if not np.all(hi > lo):
        raise ValueError("the points span no area along an axis; pass pad > 0")
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])
