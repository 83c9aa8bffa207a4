"""What notebook 05's histogram -> KDE figure shows, computed: the four steps of
:func:`genviz.kde.histogram_to_kde` and the blocks the two histograms are stacked from
(:func:`histogram_to_kde_figure_study`). :mod:`genviz.plots.kde_steps` paints it."""

from __future__ import annotations

import numpy as np

from genviz.kde import HistogramToKDE, histogram_to_kde
from genviz.studies._base import Result

__all__ = ["HistogramToKDEFigureResult", "histogram_to_kde_figure_study"]


class HistogramToKDEFigureResult(Result):
    """Result of :func:`histogram_to_kde_figure_study`.

    Attributes
    ----------
    steps : HistogramToKDE
        The four steps (``fig.steps``).
    data : ndarray of shape (n,)
    n : int
    width : float
        The bin width.
    origin : float
        The first bin edge.
    half_width : float
        ``width / 2``, the shift of the second histogram.
    block_height : float
        ``1 / (n width)``: a block of area 1/n.
    blocks : tuple of tuples
        For the histogram and the shifted one, the blocks stacked level by level: for each
        level, the left edges of the bins holding more points than the level, and the level's
        bottom.
    top : float
        The density axis' top: 1.4 times the highest of the four steps.
    """

    steps: HistogramToKDE
    data: np.ndarray
    n: int
    width: float
    origin: float
    half_width: float
    block_height: float
    blocks: tuple
    top: float


def _stacks(edges, counts, height) -> tuple:
    return tuple((edges[:-1][counts > level], level * height)
                 for level in range(int(counts.max(initial=0))))


def histogram_to_kde_figure_study(data, width, origin: float = 0.0) -> HistogramToKDEFigureResult:
    """The histogram -> KDE progression of :func:`genviz.kde.histogram_to_kde`, with each
    histogram as one block of area 1/n per point.

    Examples
    --------
    >>> r = histogram_to_kde_figure_study([0.1, 0.2, 1.5], 1.0)
    >>> [(lefts.tolist(), float(bottom)) for lefts, bottom in r.blocks[0]]
    [([0.0, 1.0], 0.0), ([0.0], 0.3333333333333333)]
    """
    s = histogram_to_kde(data, width, origin)
    n = s.blocks.shape[0]
    height = 1.0 / (n * width)
    top = 1.4 * max(float(s.density.max()), float(s.shifted_density.max()),  # room for the legend
                    float(s.block_sum.max()), float(s.kde.max()))
    return HistogramToKDEFigureResult(
        s, np.asarray(data, dtype=float).ravel(), n, width, origin, width / 2, height,
        (_stacks(s.edges, s.counts, height), _stacks(s.shifted_edges, s.shifted_counts, height)),
        top)
