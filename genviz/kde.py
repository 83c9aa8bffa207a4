"""Kernel density estimation in one dimension: kernels, KDE, histograms, bandwidth selection.

Notation as in the DS 5220 notes: a kernel ``K`` is a symmetric density; the scaled, centred
kernel is ``K_h(x - x_i) = K((x - x_i) / h) / h`` and the KDE is
``f_hat(x) = (1/n) sum_i K_h(x - x_i)`` with bandwidth ``h``.

Kernels (each integrates to 1):

=================  ===============================================  =========================
name               K(u)                                             scikit-learn equivalent
=================  ===============================================  =========================
``gaussian``       exp(-u^2/2) / sqrt(2 pi)                         ``"gaussian"``, same h
``box``            1 on [-1/2, 1/2)  (the slides' uniform kernel)   ``"tophat"`` with h/2
``tophat``         1/2 on (-1, 1)                                   ``"tophat"``, same h
``epanechnikov``   3/4 (1 - u^2) on [-1, 1]                         ``"epanechnikov"``, same h
``triangular``     1 - abs(u) on [-1, 1]                            ``"linear"``, same h
=================  ===============================================  =========================

Cross-validation over a grid of ``h`` (:func:`cv_curve`): ``"loo-likelihood"``, the mean
leave-one-out log-likelihood ``(1/n) sum_i log f_hat_{-i}(x_i)`` (higher is better), and
``"lscv"``, ``int f_hat^2 - (2/n) sum_i f_hat_{-i}(x_i)`` (lower is better; an unbiased estimate
of the integrated squared error minus ``int f^2``). The sweep, exact to a stated tolerance on any
data with bounded memory, lives in :mod:`genviz._kde_sweep` (algorithm and error bound there;
timings and deviations in ``benchmarks/kde_sweep.md``).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from genviz import _kde_sweep
from genviz._kde_sweep import kernel_values as _kernel_values
from genviz._kde_sweep import self_convolution as _self_convolution
from genviz._validation import check_array, check_int, check_rng, check_scalar

__all__ = ["KERNELS", "kernel_pdf", "kde_pdf", "kde_bumps", "histogram", "histogram_pdf",
           "cv_curve", "cv_curve_bruteforce", "select_bandwidth", "rule_of_thumb", "claw_pdf",
           "sample_claw", "log_likelihood", "histogram_log_likelihood", "kde2d_grid"]

KERNELS = ("gaussian", "box", "tophat", "epanechnikov", "triangular")
METHODS = ("lscv", "loo-likelihood")
RULES = ("silverman", "scott")
_SQRT2PI = np.sqrt(2.0 * np.pi)
# Roughness R(K) = int K^2 and second moment mu2(K) = int u^2 K, for the canonical scaling.
_R_MU2 = {"gaussian": (1.0 / (2.0 * np.sqrt(np.pi)), 1.0), "box": (1.0, 1.0 / 12.0),
          "tophat": (0.5, 1.0 / 3.0), "epanechnikov": (0.6, 0.2), "triangular": (2.0 / 3.0, 1.0 / 6.0)}
_CLAW_MEANS = np.array([-1.0, -0.5, 0.0, 0.5, 1.0])


def _check_kernel(kernel) -> str:
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, got {kernel!r}")
    return kernel


def _real(value, name) -> np.ndarray:
    """``value`` as a finite float array; strings (numeric ones too), complex, booleans, dates and
    non-numeric objects are refused before any conversion."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be real numbers, got the string {value!r}")
    arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    kind = arr.dtype.kind
    if kind == "O":
        if not all(isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                   for v in arr.ravel()):
            raise TypeError(f"{name} must be real numbers, got an object array holding "
                            f"{sorted({type(v).__name__ for v in arr.ravel()})}")
    elif kind not in "iuf":
        what = {"c": "complex numbers (take .real or abs() first if that is meant)",
                "b": "booleans", "U": "strings", "S": "bytes"}.get(kind, f"dtype {arr.dtype}")
        raise TypeError(f"{name} must be real numbers, got {what}")
    return check_array(arr, name)


def _check_data(data, name="data") -> np.ndarray:
    arr = _real(data, name)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of observations, got an array of shape "
                         f"{arr.shape} (for one feature of a 2-D array use X[:, j])")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; pass at least one observation")
    return arr


def _check_kde(x, data, h, kernel):
    return (_check_data(x, "x"), _check_data(data), check_scalar(h, "h", low=0.0, low_open=True),
            _check_kernel(kernel))


def _check_hs(hs) -> np.ndarray:
    arr = _real(hs, "hs")
    if arr.ndim > 1:
        raise ValueError(f"hs must be a 1-D array of bandwidths, got an array of shape {arr.shape}")
    arr = arr.reshape(-1)
    if arr.size == 0:
        raise ValueError("hs is empty; pass at least one bandwidth, e.g. np.geomspace(0.01, 1, 100)")
    if np.any(arr <= 0):
        raise ValueError(f"hs must be > 0, got min(hs) = {arr.min()!r}")
    return arr


def kernel_pdf(u, kernel: str = "gaussian") -> np.ndarray:
    """The kernel ``K(u)`` at unit bandwidth (a density in ``u``), same shape as ``u``; one of
    :data:`KERNELS`.

    Examples
    --------
    >>> kernel_pdf([-0.5, 0.0, 0.49, 0.5], "box")
    array([1., 1., 1., 0.])
    >>> float(kernel_pdf(0.0, "epanechnikov"))
    0.75
    """
    kernel = _check_kernel(kernel)
    return _kernel_values(_real(u, "u"), kernel)


def kde_bumps(x, data, h, kernel: str = "gaussian") -> np.ndarray:
    """The scaled bumps ``K_h(x - x_i) / n``, shape (len(data), len(x)); their sum is the KDE.

    Examples
    --------
    >>> kde_bumps([0.0], [0.0, 1.0], 1.0, "triangular")
    array([[0.5],
           [0. ]])
    """
    x, data, h, kernel = _check_kde(x, data, h, kernel)
    return _kernel_values((x[None, :] - data[:, None]) / h, kernel) / (h * data.size)


def kde_pdf(x, data, h, kernel: str = "gaussian") -> np.ndarray:
    """Kernel density estimate ``f_hat(x) = (1/(n h)) sum_i K((x - x_i)/h)``.

    At points ``x`` (shape (m,)) for the sample ``data`` (shape (n,)) and bandwidth ``h > 0``:
    for the Gaussian kernel the standard deviation of each bump (``scipy.stats.gaussian_kde(data,
    bw_method=h / data.std(ddof=1))`` is the same estimate). ``kernel``: one of :data:`KERNELS`.
    Raises ValueError (``h <= 0``, empty, NaN or infinite) or TypeError (not real numbers).

    Examples
    --------
    >>> round(float(kde_pdf([0.0], [0.0], 1.0)[0]), 6)   # one N(0, 1) bump
    0.398942
    >>> kde_pdf([0.0, 2.0], [-0.25, 0.25], 1.0, kernel="box")
    array([1., 0.])
    """
    x, data, h, kernel = _check_kde(x, data, h, kernel)
    out = np.empty(x.size)
    step = max(1, 2_000_000 // data.size)  # bound the (chunk, n) temporary
    for s in range(0, x.size, step):
        u = (x[s:s + step, None] - data[None, :]) / h
        out[s:s + step] = _kernel_values(u, kernel).sum(axis=1)
    return out / (data.size * h)


def log_likelihood(x, data, h, kernel: str = "gaussian") -> float:
    """Held-out log-likelihood ``sum_j log f_hat(x_j)`` of points ``x`` under the KDE of ``data``.

    The slides' test-set criterion for comparing density estimators: ``-inf`` as soon as one
    point gets zero density (possible with compactly supported kernels).

    Examples
    --------
    >>> round(log_likelihood([0.0], [0.0], 1.0), 4)
    -0.9189
    """
    with np.errstate(divide="ignore"):
        return float(np.sum(np.log(kde_pdf(x, data, h, kernel))))


# -- histograms --------------------------------------------------------------------------------
def _check_bins(width, origin):
    width = check_scalar(width, "width", low=0.0, low_open=True)
    origin = check_scalar(origin, "origin")
    return width, origin


def histogram(data, width, origin: float = 0.0):
    """Histogram density with bins ``[origin + k width, origin + (k+1) width)``.

    ``origin`` is any bin edge (the slides' second parameter). Returns the ``edges`` (m + 1,)
    covering the data and the ``density`` (m,) ``count / (n width)``, which integrates to 1.
    Raises ValueError for ``width <= 0``, empty data, NaN, or more than 10^6 bins.

    Examples
    --------
    >>> edges, dens = histogram([0.1, 0.2, 1.5], width=1.0)
    >>> edges, dens
    (array([0., 1., 2.]), array([0.66666667, 0.33333333]))
    """
    data = _check_data(data)
    width, origin = _check_bins(width, origin)
    lo = np.floor((data.min() - origin) / width)
    hi = np.floor((data.max() - origin) / width) + 1
    m = int(hi - lo)
    if m > 1_000_000:
        raise ValueError(f"width={width!r} gives {m} bins over the data's range; use a larger width")
    idx = np.floor((data - origin) / width).astype(np.int64) - int(lo)
    counts = np.bincount(np.clip(idx, 0, m - 1), minlength=m)
    edges = origin + width * (lo + np.arange(m + 1))
    return edges, counts / (data.size * width)


def histogram_pdf(x, data, width, origin: float = 0.0) -> np.ndarray:
    """The histogram density at points ``x`` (0 outside the bins that hold data).

    Examples
    --------
    >>> histogram_pdf([0.5, 1.2, 7.0], [0.1, 0.2, 1.5], width=1.0)
    array([0.66666667, 0.33333333, 0.        ])
    """
    x = _check_data(x, "x")
    edges, dens = histogram(data, width, origin)
    width, origin = _check_bins(width, origin)
    # the same bin arithmetic as histogram() (not the rounded edges), in floats (no overflow)
    k = np.floor((x - origin) / width) - np.floor((np.min(data) - origin) / width)
    inside = (k >= 0) & (k < dens.size)
    out = np.zeros(x.size)
    out[inside] = dens[k[inside].astype(np.int64)]
    return out


def histogram_log_likelihood(x, data, width, origin: float = 0.0) -> float:
    """Held-out log-likelihood ``sum_j log p_hist(x_j)`` of points ``x`` under the histogram of
    ``data``: ``-inf`` as soon as one point falls in a bin with no training data.

    Examples
    --------
    >>> round(histogram_log_likelihood([0.5], [0.1, 0.2, 1.5], 1.0), 4)
    -0.4055
    >>> histogram_log_likelihood([3.5], [0.1, 0.2, 1.5], 1.0)
    -inf
    """
    with np.errstate(divide="ignore"):
        return float(np.sum(np.log(histogram_pdf(x, data, width, origin))))


def kde2d_grid(xs, ys, data, h) -> np.ndarray:
    """2-D Gaussian product-kernel KDE on the grid ``xs`` x ``ys``.

    ``f_hat(x, y) = (1/n) sum_i phi_{h_1}(x - a_i) phi_{h_2}(y - b_i)``, computed as one
    matrix product of the two 1-D kernel matrices (separable kernel).

    ``xs`` (p,), ``ys`` (q,), ``data`` (n, 2), ``h`` one bandwidth or one per axis (> 0).
    Returns shape (q, p): rows follow ``ys`` (as ``imshow``/``contour`` expect).

    Examples
    --------
    >>> Z = kde2d_grid([0.0], [0.0], [[0.0, 0.0]], 1.0)
    >>> round(float(Z[0, 0]), 6)      # 1 / (2 pi)
    0.159155
    """
    xs = _check_data(xs, "xs")
    ys = _check_data(ys, "ys")
    data = _real(data, "data")
    if data.ndim != 2 or data.shape[1] != 2 or data.shape[0] == 0:
        raise ValueError(f"data must have shape (n, 2) with n >= 1, got {data.shape}")
    h = _real(h, "h")
    h = np.broadcast_to(h, (2,)) if h.shape in ((), (1,), (2,)) else None
    if h is None or np.any(h <= 0):
        raise ValueError(f"h must be a positive number or a pair of positive numbers, got {h!r}")
    kx = np.exp(-0.5 * ((xs[None, :] - data[:, :1]) / h[0]) ** 2) / (_SQRT2PI * h[0])
    ky = np.exp(-0.5 * ((ys[None, :] - data[:, 1:]) / h[1]) ** 2) / (_SQRT2PI * h[1])
    # einsum, not BLAS: a small product whose BLAS thread pool stalls on busy shared cores
    return np.einsum("ni,nj->ij", ky, kx) / data.shape[0]


# -- cross-validation --------------------------------------------------------------------------
def _check_cv(data, hs, method, kernel):
    data = _check_data(data)
    if data.size < 2:
        raise ValueError(f"data has {data.size} observation; leave-one-out cross-validation needs "
                         "at least 2")
    hs = _check_hs(hs)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    kernel = _check_kernel(kernel)
    with np.errstate(over="ignore"):
        span = data.max() - data.min()
    if not span <= np.finfo(float).max / 4:
        raise ValueError("data spans more than 4e307; rescale it (differences overflow)")
    return np.sort(data), hs, kernel


def cv_curve(data, hs, method: str = "lscv", kernel: str = "gaussian") -> np.ndarray:
    """Cross-validation score of the KDE for every bandwidth in ``hs`` (the whole curve).

    ``data``: n >= 2 observations; ``hs``: m bandwidths (> 0, any order); returns m scores.
    ``method="lscv"``: ``int f_hat^2 - (2/n) sum_i f_hat_{-i}(x_i)``, **lower is better**;
    ``"loo-likelihood"``: ``(1/n) sum_i log f_hat_{-i}(x_i)`` (nats), **higher is better**
    (``-inf`` when a point has no other within a compact kernel's reach). ``kernel``: one of
    :data:`KERNELS`.

    Tolerance, on any sample (outliers, ties, heavy tails, far-apart clusters, any scale):
    Gaussian kernel, ``"loo-likelihood"``: every point's ``log f_hat_{-i}(x_i)``, hence the mean,
    is within ``1e-8`` of the literal leave-one-out value (plus the rounding of a mean of n
    numbers); ``"lscv"``: within ``1e-9 (int f_hat^2 + (2/n) sum_i f_hat_{-i}(x_i))``.
    Compact kernels: exact sums (rounding only). The algorithm and its error bound are in
    :mod:`genviz._kde_sweep`; :func:`cv_curve_bruteforce` is the literal O(n^2) reference.
    Time about linear in n per bandwidth for the Gaussian kernel (in the number of pairs closer
    than the kernel's support for the others); memory bounded for any data.

    Raises ValueError (fewer than 2 observations, NaN or infinite values, ``hs`` empty or not
    positive, unknown method or kernel) or TypeError (not real numbers).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=200)
    >>> hs = [0.005, 0.4, 3.0]
    >>> scores = cv_curve(x, hs, "loo-likelihood")
    >>> int(np.argmax(scores))        # the middle bandwidth fits best
    1
    >>> int(np.argmin(cv_curve(x, hs, "lscv")))
    1
    >>> round(float(cv_curve([0.0, 0.0, 35.0], [1.0], "loo-likelihood")[0]), 4)   # an outlier
    -205.5477
    """
    xs, hs, kernel = _check_cv(data, hs, method, kernel)
    return _kde_sweep.cv_sweep(xs, hs, method, kernel)


def cv_curve_bruteforce(data, hs, method: str = "lscv", kernel: str = "gaussian") -> np.ndarray:
    """The same curve as :func:`cv_curve` by the definition: every pair, O(n^2) per bandwidth
    (in row blocks, so memory stays bounded), each point's leave-one-out density in log space.
    The reference the fast sweep is tested and benchmarked against.

    Examples
    --------
    >>> x = np.array([0.0, 1.0, 3.0])
    >>> bool(np.allclose(cv_curve_bruteforce(x, [0.7, 2.0]), cv_curve(x, [0.7, 2.0])))
    True
    """
    xs, hs, kernel = _check_cv(data, hs, method, kernel)
    return _kde_sweep.bruteforce(xs, hs, method, kernel)


def rule_of_thumb(data, rule: str = "silverman", kernel: str = "gaussian") -> float:
    """Normal-reference bandwidths.

    ``"silverman"``: ``0.9 min(s, IQR/1.34) n^(-1/5)`` (Silverman 1986, eq. 3.31; R's
    ``bw.nrd0``). ``"scott"``: ``s n^(-1/5)`` (scipy's ``gaussian_kde`` ``"scott"`` factor
    times the sample standard deviation ``s``, ddof=1). Both are Gaussian-kernel bandwidths; for
    another kernel they are rescaled to the equivalent bandwidth by the canonical factor
    ``(R(K)/mu2(K)^2)^(1/5) / (R(phi))^(1/5)``.

    Raises ValueError: unknown rule or kernel, fewer than 2 observations, or zero spread.

    Examples
    --------
    >>> round(rule_of_thumb(np.arange(10.0), "scott"), 4)
    1.9103
    """
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    kernel = _check_kernel(kernel)
    x = _check_data(data)
    if x.size < 2:
        raise ValueError("data needs at least 2 observations for a rule of thumb")
    s = float(np.std(x, ddof=1))
    if rule == "silverman":
        q75, q25 = np.percentile(x, [75, 25])
        spread = min(s, (q75 - q25) / 1.34) if q75 > q25 else s
        h = 0.9 * spread * x.size ** -0.2
    else:
        h = s * x.size ** -0.2
    if not h > 0:
        raise ValueError("data has zero spread (all values equal); no bandwidth can be derived")
    R, mu2 = _R_MU2[kernel]
    Rg, _ = _R_MU2["gaussian"]
    return float(h * (R / mu2 ** 2) ** 0.2 / Rg ** 0.2)


def select_bandwidth(data, method: str = "lscv", kernel: str = "gaussian", hs=None) -> float:
    """Choose a bandwidth by cross-validation or a rule of thumb.

    ``method``: ``"lscv"``, ``"loo-likelihood"``, ``"silverman"`` or ``"scott"``; ``kernel``: one
    of :data:`KERNELS`. ``hs``: the CV grid; by default 100 bandwidths log-spaced from Silverman's
    h / 30 to 3 h, extended by decades while the optimum is at an end (up to 10 times the data's
    range, down to Silverman's h / 3e4: an outlier pulls the likelihood optimum up, ties pull it
    towards 0). The grid optimum is refined by a bounded scalar search between its neighbours.
    Warns (RuntimeWarning) if the optimum stays at an end of the grid.

    Examples
    --------
    >>> x = sample_claw(1000, np.random.default_rng(0))
    >>> h = select_bandwidth(x, "loo-likelihood")
    >>> 0.02 < h < 0.1
    True
    """
    if method in RULES:
        return rule_of_thumb(data, method, kernel)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS + RULES}, got {method!r}")
    grid = None if hs is None else np.sort(_check_hs(hs))
    xs, _, kernel = _check_cv(data, [1.0], method, kernel)
    h0 = rule_of_thumb(xs, "silverman", kernel) if grid is None else None
    h, at_end = _kde_sweep.select(xs, method, kernel, grid, h0)
    if at_end:
        warnings.warn(f"the {method} optimum is at the end of the bandwidth grid (h = {h:.4g}); "
                      "widen hs", RuntimeWarning, stacklevel=2)
    return h


# -- the claw density --------------------------------------------------------------------------
def claw_pdf(x) -> np.ndarray:
    """The claw ("Bart Simpson") density ``0.5 N(0,1) + sum_{j=0..4} 0.1 N(j/2 - 1, 0.1^2)``.

    Examples
    --------
    >>> round(float(claw_pdf(0.0)[0]), 4)
    0.5984
    """
    x = np.atleast_1d(_real(x, "x"))
    z = (x[..., None] - _CLAW_MEANS) / 0.1
    bumps = np.exp(-0.5 * z * z).sum(axis=-1) / (0.1 * _SQRT2PI)
    return 0.5 * np.exp(-0.5 * x * x) / _SQRT2PI + 0.1 * bumps


def sample_claw(n, rng) -> np.ndarray:
    """``n`` independent draws from the claw density (seeded ``rng``: Generator or int).

    Examples
    --------
    >>> sample_claw(3, 0).shape
    (3,)
    """
    n = check_int(n, "n", low=0)
    rng = check_rng(rng)
    comp = rng.choice(6, size=n, p=[0.5, 0.1, 0.1, 0.1, 0.1, 0.1])
    z = rng.standard_normal(n)
    means = np.concatenate([[0.0], _CLAW_MEANS])
    sds = np.array([1.0, 0.1, 0.1, 0.1, 0.1, 0.1])
    return means[comp] + sds[comp] * z
