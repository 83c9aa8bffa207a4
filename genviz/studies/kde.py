"""What the live density-estimation views show (notebook 05), computed: the histogram
(:class:`HistogramStudy`), the KDE as a sum of bumps (:class:`KDEStudy`), bandwidth selection
on claw draws with both cross-validation sweeps (:class:`BandwidthStudy`) and the 2-D KDE
(:class:`KDE2DStudy`). :mod:`genviz.plots.kde` paints these results; the estimator and the
sweeps themselves are in :mod:`genviz.kde`."""

from __future__ import annotations

import concurrent.futures
from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.kde import (_check_hs, claw_pdf, cv_curve, histogram, kde2d_grid, kde_bumps, kde_pdf,
                        rule_of_thumb, sample_claw)
from genviz.studies._base import Result, Study

__all__ = ["HistogramStatic", "HistogramResult", "HistogramStudy", "KDEStatic", "KDEResult",
           "KDEStudy", "BandwidthSweeps", "BandwidthAt", "BandwidthStatic", "BandwidthResult",
           "BandwidthStudy", "KDE2DStatic", "KDE2DResult", "KDE2DStudy", "KDE2D_LEVELS"]


def _truth(true_pdf, x):
    return None if true_pdf is None else np.asarray(true_pdf(x), dtype=float)


# -- the histogram -------------------------------------------------------------------------------
class HistogramStatic(Result):
    """What the histogram view draws once.

    Attributes
    ----------
    data : ndarray of shape (n,)
    x_range : tuple of float
        The window (by default the data plus 0.5 each side).
    truth_x : ndarray of shape (600,)
        Where the true density is drawn.
    truth : ndarray of shape (600,) or None
        The true density there (None when not given).
    ymax : float
        The density axis' top: 1.05 times the tallest bar over five origins at the narrowest
        width.
    """

    data: np.ndarray
    x_range: tuple
    truth_x: np.ndarray
    truth: object
    ymax: float


class HistogramResult(Result):
    """A histogram density of the data (:func:`genviz.kde.histogram`).

    Attributes
    ----------
    edges : ndarray of shape (n_bins + 1,)
    density : ndarray of shape (n_bins,)
    n_bins : int
    width : float
    origin : float
    empty_bins : int
        Bins no point falls in.
    tallest : float
        The tallest bar.
    """

    edges: np.ndarray
    density: np.ndarray
    n_bins: int
    width: float
    origin: float
    empty_bins: int
    tallest: float


class HistogramStudy(Study):
    """A histogram density with any bin ``width`` and ``origin``, over the true density.

    Examples
    --------
    >>> r = HistogramStudy([0.1, 0.2, 0.7])(width=0.5, origin=0.0)
    >>> r.density.tolist(), r.empty_bins
    ([4.0, 2.0], 0)
    """

    def __init__(self, data, *, true_pdf=None, x_range=None, min_width=0.05):
        self.data = np.asarray(data, dtype=float)
        self.x_range = (tuple(x_range) if x_range is not None
                        else (self.data.min() - 0.5, self.data.max() + 0.5))
        self.true_pdf = true_pdf
        self.min_width = min_width

    def static(self) -> HistogramStatic:
        x = np.linspace(*self.x_range, 600)
        # fixed y range: the tallest histogram over the origins at the narrowest width
        top = max(histogram(self.data, self.min_width, o)[1].max()
                  for o in np.linspace(0, self.min_width, 5))
        return HistogramStatic(self.data, self.x_range, x, _truth(self.true_pdf, x), 1.05 * top)

    def __call__(self, *, width=0.3, origin=0.0) -> HistogramResult:
        edges, dens = histogram(self.data, width, origin)  # validates
        return HistogramResult(edges, dens, dens.size, width, origin, int(np.sum(dens == 0)),
                               float(dens.max()))


# -- the KDE as a sum of bumps -------------------------------------------------------------------
class KDEStatic(Result):
    """What the KDE view draws once.

    Attributes
    ----------
    data : ndarray of shape (n,)
    x : ndarray of shape (n_grid,)
        The evaluation grid (by default the data plus 2 each side).
    truth : ndarray of shape (n_grid,) or None
        The true density on ``x`` (None when not given).
    """

    data: np.ndarray
    x: np.ndarray
    truth: object


class KDEResult(Result):
    """The KDE at one bandwidth and kernel, with the bump of every point.

    Attributes
    ----------
    x : ndarray of shape (n_grid,)
    density : ndarray of shape (n_grid,)
        The sum of the bumps: the KDE.
    bumps : ndarray of shape (n, n_grid)
        ``K_h(x - x_i) / n`` for each point.
    segments : ndarray of shape (n, n_grid, 2)
        Each bump as a polyline (x, height).
    h : float
    kernel : str
    integral : float
        Trapezoid integral of the KDE over the window (about 1).
    peak : float
        The KDE's largest value.
    peak_x : float
        Where it is.
    """

    x: np.ndarray
    density: np.ndarray
    bumps: np.ndarray
    segments: np.ndarray
    h: float
    kernel: str
    integral: float
    peak: float
    peak_x: float


class KDEStudy(Study):
    """The KDE of ``data`` as a sum of scaled bumps ``K_h(x - x_i)/n`` at any ``h`` and kernel.

    Examples
    --------
    >>> r = KDEStudy([0.0, 1.0], x_range=(-4, 5), n_grid=901)(h=0.5, kernel="gaussian")
    >>> round(r.integral, 4), r.bumps.shape
    (1.0, (2, 901))
    """

    def __init__(self, data, *, true_pdf=None, x_range=None, n_grid=500):
        self.data = np.asarray(data, dtype=float)
        lo, hi = x_range if x_range is not None else (self.data.min() - 2.0, self.data.max() + 2.0)
        self.x = np.linspace(lo, hi, check_int(n_grid, "n_grid", low=10))
        self.true_pdf = true_pdf

    def static(self) -> KDEStatic:
        return KDEStatic(self.data, self.x, _truth(self.true_pdf, self.x))

    def __call__(self, *, h=0.5, kernel="gaussian") -> KDEResult:
        bumps = kde_bumps(self.x, self.data, h, kernel)  # validates
        dens = bumps.sum(axis=0)
        segs = np.stack([np.broadcast_to(self.x, bumps.shape), bumps], axis=-1)
        i = int(dens.argmax())
        return KDEResult(self.x, dens, bumps, segs, float(h), kernel,
                         float(np.trapezoid(dens, self.x)), float(dens[i]), float(self.x[i]))


# -- bandwidth selection on the claw -------------------------------------------------------------
class BandwidthSweeps(NamedTuple):
    """A claw sample of ``n`` draws and both cross-validation curves over a study's ``hs``
    (:meth:`BandwidthStudy.sweeps`)."""

    data: np.ndarray  #: the sample, ``sample_claw(n, seed)``
    loo: np.ndarray  #: mean leave-one-out log-likelihood per bandwidth (higher is better)
    lscv: np.ndarray  #: least-squares CV score per bandwidth (lower is better)
    silverman: float  #: Silverman's rule of thumb
    scott: float  #: Scott's rule of thumb
    h_loo: float  #: the grid optimum of ``loo``
    h_lscv: float  #: the grid optimum of ``lscv``


class BandwidthAt(NamedTuple):
    """The KDE of a sample at one bandwidth ``h`` (:meth:`BandwidthStudy.at`)."""

    h: float
    density: np.ndarray  #: the KDE on the study's grid ``x``
    ise: float  #: integrated squared error against the true claw (trapezoid on ``x``)
    loo_at_h: float  #: LOO log-likelihood at h, interpolated in log h from the sweep
    lscv_at_h: float  #: LSCV score at h, interpolated in log h from the sweep


class BandwidthStatic(Result):
    """What the bandwidth view draws once.

    Attributes
    ----------
    x : ndarray of shape (n_grid,)
        The KDE grid.
    truth : ndarray of shape (n_grid,)
        The claw density on it.
    hs : ndarray of shape (m,)
        The bandwidth grid of the sweeps.
    h_range : tuple of float
        Its smallest and largest bandwidth.
    """

    x: np.ndarray
    truth: np.ndarray
    hs: np.ndarray
    h_range: tuple


class BandwidthResult(Result):
    """Claw draws at one ``n``, both CV curves, and the KDE at one ``h``.

    Attributes
    ----------
    n : int
    h : float
    hs : ndarray of shape (m,)
    data : ndarray of shape (n,)
        The sample, ``sample_claw(n, seed)``.
    loo : ndarray of shape (m,)
        Mean leave-one-out log-likelihood per bandwidth (``-inf`` where a point is isolated).
    lscv : ndarray of shape (m,)
        Least-squares CV score per bandwidth.
    loo_finite_h : ndarray of shape (k,)
        The bandwidths where ``loo`` is finite, and ``loo_finite`` its values there (drawn).
    loo_finite : ndarray of shape (k,)
    h_loo : float
        The grid optimum of ``loo``; ``loo_best`` its value.
    loo_best : float
    h_lscv : float
        The grid optimum of ``lscv``; ``lscv_best`` its value.
    lscv_best : float
    silverman : float
        Silverman's rule of thumb.
    scott : float
        Scott's rule of thumb.
    loo_at_h : float
        LOO log-likelihood at ``h``, interpolated in log h from the sweep.
    lscv_at_h : float
        LSCV score at ``h``, likewise.
    ise : float
        Integrated squared error of the KDE at ``h`` against the true claw.
    density : ndarray of shape (n_grid,)
        The KDE at ``h`` on the grid.
    """

    n: int
    h: float
    hs: np.ndarray
    data: np.ndarray
    loo: np.ndarray
    lscv: np.ndarray
    loo_finite_h: np.ndarray
    loo_finite: np.ndarray
    h_loo: float
    loo_best: float
    h_lscv: float
    lscv_best: float
    silverman: float
    scott: float
    loo_at_h: float
    lscv_at_h: float
    ise: float
    density: np.ndarray


class BandwidthStudy(Study):
    """Bandwidth selection on claw draws: a sample per ``n``, its CV sweeps, the KDE at any h.

    For each sample size ``n`` the sample is ``sample_claw(n, seed)`` and both CV curves are
    computed over ``hs`` by :func:`genviz.kde.cv_curve` (about 0.15 s for n = 1000 and 100
    bandwidths), once: :meth:`sweeps` keeps the result, and :meth:`prefetch` computes the
    sweeps of other sizes in one background thread (nearest to a given ``n`` first) so that
    asking for them later costs nothing (a size being computed is waited for). :meth:`at` is
    the KDE of a sample at one bandwidth on the grid ``x`` with its integrated squared error
    against the true density and both CV scores read off the sweeps (interpolated in log h: no
    new sweep). ``study(n=, h=)`` is both, as the bandwidth view draws them. :meth:`close`
    cancels the prefetching that has not started.

    Parameters
    ----------
    seed : int >= 0
        Seed of every sample (each ``n`` is drawn from a fresh generator with this seed).
    hs : array_like of shape (m,), optional
        The bandwidth grid (default 100 values log-spaced from 0.005 to 1.5).
    x_range : (float, float)
        The window of the KDE grid.
    n_grid : int >= 2
        Points of the KDE grid.

    Raises
    ------
    ValueError, TypeError
        A negative or non-integer seed, a bad ``hs``, ``n_grid < 2``; from :meth:`sweeps`
        ``n < 2``; from :meth:`at` ``h <= 0``.

    Examples
    --------
    >>> study = BandwidthStudy(hs=np.geomspace(0.01, 1.0, 30))
    >>> s = study.sweeps(500)
    >>> s.data.shape, bool(0.01 < s.h_loo < 0.3), study.sweeps(500) is s
    ((500,), True, True)
    >>> round(study.at(s, 0.05).ise, 4) < round(study.at(s, 1.0).ise, 4)
    True
    >>> study(n=500, h=0.05).h_loo == s.h_loo
    True
    """

    def __init__(self, *, seed=0, hs=None, x_range=(-3.0, 3.0), n_grid=400):
        self.seed = check_int(seed, "seed", low=0)
        self.hs = np.geomspace(0.005, 1.5, 100) if hs is None else _check_hs(hs)
        lo, hi = (check_scalar(v, "x_range") for v in x_range)
        self.x = np.linspace(lo, hi, check_int(n_grid, "n_grid", low=2))
        self.truth = claw_pdf(self.x)
        self._cache: dict = {}
        self._pending: dict = {}
        self._executor = None

    def _compute(self, n) -> BandwidthSweeps:
        data = sample_claw(n, self.seed)
        loo = cv_curve(data, self.hs, "loo-likelihood")
        lscv = cv_curve(data, self.hs, "lscv")
        return BandwidthSweeps(data, loo, lscv, rule_of_thumb(data, "silverman"),
                               rule_of_thumb(data, "scott"), float(self.hs[int(np.argmax(loo))]),
                               float(self.hs[int(np.argmin(lscv))]))

    def sweeps(self, n) -> BandwidthSweeps:
        """The sample of ``n`` draws and its sweeps: computed once, or taken from
        :meth:`prefetch` (waiting for it if it is being computed)."""
        n = check_int(n, "n", low=2)
        if n in self._cache:
            return self._cache[n]
        pending = self._pending.get(n)
        if pending is not None and not pending.cancel():  # running or done: its result
            return pending.result()
        self._cache[n] = self._compute(n)
        return self._cache[n]

    def prefetch(self, ns, *, near=None) -> None:
        """Compute the sweeps for each ``n`` in ``ns`` in one background thread, those nearest
        ``near`` first; the results are exactly what :meth:`sweeps` would compute."""
        ns = {check_int(n, "ns", low=2) for n in ns}
        near = min(ns, default=0) if near is None else check_int(near, "near", low=0)
        if self._executor is None:
            self._executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="genviz-bandwidth-prefetch")
        cache = self._cache

        def task(n):
            result = self._compute(n)
            cache.setdefault(n, result)
            return result

        for n in sorted(sorted(ns), key=lambda n: abs(n - near)):
            if n not in cache and n not in self._pending:
                self._pending[n] = self._executor.submit(task, n)

    def close(self) -> None:
        """Cancel the prefetching that has not started (a running sweep finishes)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def at(self, sweeps: BandwidthSweeps, h) -> BandwidthAt:
        """The KDE of ``sweeps.data`` at bandwidth ``h`` on ``x``, its integrated squared error
        against the claw, and both CV scores at ``h`` interpolated (in log h) from the sweeps."""
        h = check_scalar(h, "h", low=0.0, low_open=True)
        dens = kde_pdf(self.x, sweeps.data, h)
        lh, lg = np.log(h), np.log(self.hs)
        ise = float(np.trapezoid((dens - self.truth) ** 2, self.x))
        return BandwidthAt(h, dens, ise, float(np.interp(lh, lg, sweeps.loo)),
                           float(np.interp(lh, lg, sweeps.lscv)))

    def static(self) -> BandwidthStatic:
        return BandwidthStatic(self.x, self.truth, self.hs, (self.hs.min(), self.hs.max()))

    def __call__(self, *, n=1000, h=0.05) -> BandwidthResult:
        n = check_int(n, "n", low=2)
        h = check_scalar(h, "h", low=0.0, low_open=True)
        sw = self.sweeps(n)
        at = self.at(sw, h)
        ok = np.isfinite(sw.loo)
        return BandwidthResult(
            n=n, h=h, hs=self.hs, data=sw.data, loo=sw.loo, lscv=sw.lscv,
            loo_finite_h=self.hs[ok], loo_finite=sw.loo[ok], h_loo=sw.h_loo,
            loo_best=sw.loo[int(np.argmax(sw.loo))], h_lscv=sw.h_lscv,
            lscv_best=sw.lscv[int(np.argmin(sw.lscv))], silverman=sw.silverman, scott=sw.scott,
            loo_at_h=at.loo_at_h, lscv_at_h=at.lscv_at_h, ise=at.ise, density=at.density)


# -- the 2-D KDE ---------------------------------------------------------------------------------
#: The 2-D KDE view's contour levels, as fractions of the peak density.
KDE2D_LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)


class KDE2DStatic(Result):
    """What the 2-D KDE view draws once.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
        The records.
    xs : ndarray of shape (n_grid,)
        The grid along x1 (the data's range plus 10 % each side); ``ys`` along x2.
    ys : ndarray of shape (n_grid,)
    """

    X: np.ndarray
    xs: np.ndarray
    ys: np.ndarray


class KDE2DResult(Result):
    """The 2-D product-Gaussian KDE with bandwidths ``scale`` times Scott's rule per axis.

    Attributes
    ----------
    h : ndarray of shape (2,)
        The bandwidths.
    scale : float
    density : ndarray of shape (n_grid, n_grid)
        The KDE on the grid (rows along x2).
    peak : float
        Its largest value.
    levels : ndarray of shape (5,)
        The contour levels: :data:`KDE2D_LEVELS` of the peak.
    mass : float
        The density summed over the window (about 1).
    """

    h: np.ndarray
    scale: float
    density: np.ndarray
    peak: float
    levels: np.ndarray
    mass: float


class KDE2DStudy(Study):
    """A 2-D Gaussian product-kernel KDE of ``X`` with bandwidths ``scale`` times Scott's rule.

    Examples
    --------
    >>> X = np.random.default_rng(0).normal(size=(200, 2))
    >>> r = KDE2DStudy(X)(scale=1.0)
    >>> r.density.shape, round(r.mass, 1)
    ((100, 100), 1.0)
    """

    def __init__(self, X, *, n_grid=100):
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"X must have shape (n, 2), got {self.X.shape}")
        self.h0 = np.array([rule_of_thumb(self.X[:, k], "scott") for k in range(2)])
        lo = self.X.min(axis=0) - 0.1 * np.ptp(self.X, axis=0)
        hi = self.X.max(axis=0) + 0.1 * np.ptp(self.X, axis=0)
        self.xs = np.linspace(lo[0], hi[0], n_grid)
        self.ys = np.linspace(lo[1], hi[1], n_grid)

    def static(self) -> KDE2DStatic:
        return KDE2DStatic(self.X, self.xs, self.ys)

    def __call__(self, *, scale=1.0) -> KDE2DResult:
        scale = check_scalar(scale, "scale", low=0.0, low_open=True)
        h = scale * self.h0
        Z = kde2d_grid(self.xs, self.ys, self.X, h)
        peak = float(Z.max())
        dx, dy = self.xs[1] - self.xs[0], self.ys[1] - self.ys[0]
        return KDE2DResult(h, scale, Z, peak, peak * np.array(KDE2D_LEVELS),
                           float(Z.sum() * dx * dy))
