r"""The kernels of the DS5220 slides' "Kernel Visualization" figure (Wikipedia's Kernels.svg).

Eleven kernels in their standard form (the compact ones supported on :math:`|u| \le 1`):
uniform, triangular, Epanechnikov, quartic (biweight), triweight, tricube, Gaussian, cosine,
logistic, sigmoid and Silverman. :func:`genviz.kde.kernel_pdf` has the five a KDE in genviz uses
(with the slides' box on :math:`[-1/2, 1/2)`); this module only draws the slide's gallery.

Every kernel here integrates to 1 and is symmetric; all but Silverman's are non-negative
(Silverman's kernel dips below zero: it is a kernel of higher order, not a density).
"""

from __future__ import annotations

import numpy as np

__all__ = ["GALLERY", "gallery_kernel", "COMPACT"]


def _compact(f):
    def k(u):
        return np.where(np.abs(u) <= 1.0, f(u), 0.0)
    return k


GALLERY = {
    "uniform": _compact(lambda u: np.full_like(u, 0.5)),
    "triangular": _compact(lambda u: 1.0 - np.abs(u)),
    "Epanechnikov": _compact(lambda u: 0.75 * (1.0 - u ** 2)),
    "quartic (biweight)": _compact(lambda u: 15.0 / 16.0 * (1.0 - u ** 2) ** 2),
    "triweight": _compact(lambda u: 35.0 / 32.0 * (1.0 - u ** 2) ** 3),
    "tricube": _compact(lambda u: 70.0 / 81.0 * (1.0 - np.abs(u) ** 3) ** 3),
    "Gaussian": lambda u: np.exp(-0.5 * u ** 2) / np.sqrt(2.0 * np.pi),
    "cosine": _compact(lambda u: np.pi / 4.0 * np.cos(np.pi / 2.0 * u)),
    "logistic": lambda u: 1.0 / (np.exp(u) + 2.0 + np.exp(-u)),
    "sigmoid": lambda u: 2.0 / np.pi / (np.exp(u) + np.exp(-u)),
    "Silverman": lambda u: 0.5 * np.exp(-np.abs(u) / np.sqrt(2.0))
    * np.sin(np.abs(u) / np.sqrt(2.0) + np.pi / 4.0),
}

#: Kernels that are zero outside [-1, 1].
COMPACT = ("uniform", "triangular", "Epanechnikov", "quartic (biweight)", "triweight", "tricube",
           "cosine")


def gallery_kernel(u, name: str) -> np.ndarray:
    """Evaluate the gallery kernel ``name`` at ``u``.

    Raises
    ------
    ValueError
        If ``name`` is not in :data:`GALLERY`.

    Examples
    --------
    >>> float(gallery_kernel(0.0, "Epanechnikov")), float(gallery_kernel(2.0, "uniform"))
    (0.75, 0.0)
    """
    if name not in GALLERY:
        raise ValueError(f"name must be one of {list(GALLERY)}, got {name!r}")
    with np.errstate(over="ignore"):
        return GALLERY[name](np.asarray(u, dtype=float))
