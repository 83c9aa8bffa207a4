"""The bandwidth explorer's study (notebook 05): claw samples, their cross-validation sweeps
(computed once per sample size, or prefetched in a background thread) and the KDE at any
bandwidth (:class:`BandwidthStudy`). :class:`genviz.plots.kde.BandwidthView` paints it; the
estimator and the sweeps themselves are in :mod:`genviz.kde`."""

from __future__ import annotations

import concurrent.futures
from typing import NamedTuple

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.kde import _check_hs, claw_pdf, cv_curve, kde_pdf, rule_of_thumb, sample_claw
from genviz.studies._base import Result, Study

__all__ = ["BandwidthSweeps", "BandwidthAt", "BandwidthStatic", "BandwidthResult",
           "BandwidthStudy"]


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
