"""Input validation shared by every genviz module (private).

Every public function validates its input first with these helpers, so that each error names the
argument, says what was received and what to do instead. Nothing here uses ``assert``.
"""

from __future__ import annotations

import functools
import math
import numbers
import sys

import numpy as np

__all__ = ["check_array", "check_points", "check_vector", "check_scalar", "check_int",
           "check_rng", "CovFactor", "check_cov", "NotFittedError", "check_fitted",
           "check_labels", "encode_labels", "check_targets", "check_sample_weight",
           "ComplexDataError", "check_features",
           "feature_count_message"]

# Relative tolerance on eigenvalues, as scipy.stats uses for covariance matrices: an eigenvalue
# below ``_EIG_RTOL * max|eigenvalue|`` counts as zero.
_EIG_RTOL = 1e6 * np.finfo(np.float64).eps


def _describe(value) -> str:
    arr = np.asarray(value) if not isinstance(value, (str, bytes)) else None
    if arr is not None and arr.ndim > 0:
        return f"an array of shape {arr.shape}"
    return repr(value)


def _is_real_number(v) -> bool:
    """A real number: Python/numpy ints, floats and bools (never strings, complex, None)."""
    return isinstance(v, (numbers.Real, np.bool_)) and not isinstance(v, (str, bytes))


def _refuse_non_real(raw: np.ndarray, name: str) -> None:
    """Raise TypeError naming ``name`` unless ``raw`` holds real numbers only.

    Strings are never parsed ("1" is refused: a column read as text is a bug to fix, not to
    guess), complex numbers are refused (float conversion would drop the imaginary part),
    object arrays must hold real numbers only (no None: a missing value must be filled or
    dropped). Booleans are accepted as 0/1, as numpy and scikit-learn accept them (presence
    matrices of the Bernoulli model are naturally boolean).
    """
    kind = raw.dtype.kind
    if kind in "biuf":
        return
    if kind in "US":
        example = raw.flat[0] if raw.size else ""
        raise TypeError(f"{name} must be numeric, got strings (e.g. {str(example)!r}); strings "
                        f"are not parsed: convert them first, e.g. np.asarray({name}, dtype=float)")
    if kind == "c":
        raise ComplexDataError(f"{name} must be numeric (real), got complex values (dtype "
                               f"{raw.dtype}): Complex data not supported; pass the real part "
                               f"explicitly ({name}.real) if that is what you mean")
    if kind == "O":
        for v in raw.flat:
            if v is None:
                raise TypeError(f"{name} contains None (a missing value); fill or drop it first")
            if isinstance(v, complex):
                raise ComplexDataError(f"{name} must be numeric (real), got the complex value "
                                       f"{v!r}: Complex data not supported")
            if not _is_real_number(v):
                raise TypeError(f"{name} must be numeric (real numbers), got "
                                f"{type(v).__name__} {v!r:.40} (a float() argument must be a "
                                f"real number; a string or any other object is not a "
                                f"number)")
        return
    raise TypeError(f"{name} must be numeric (real numbers), got dtype {raw.dtype}")


class ComplexDataError(TypeError, ValueError):
    """Complex numbers where real ones are needed.

    Both a TypeError (the wrong kind of number, as every other non-real input) and a ValueError
    (what scikit-learn raises for complex data, so its tools and checks recognise it).
    """


def _is_sparse(value) -> bool:
    return type(value).__module__.startswith("scipy.sparse")


def _refuse_sparse(value, name: str) -> None:
    if _is_sparse(value):
        raise TypeError(f"{name} is a scipy.sparse matrix, but this function needs a dense "
                        f"array: use {name}.toarray() (only the text models MultinomialNB and "
                        f"BernoulliNB take sparse input)")


def check_array(value, name: str, *, ndim: int | None = None, finite: bool = True) -> np.ndarray:
    """Return ``value`` as a float64 array, checking its type, dimensionality and finiteness.

    Raises
    ------
    TypeError
        If ``value`` holds strings (never parsed), complex numbers, None or other objects.
    ValueError
        If it is ragged, has the wrong dimensionality, or (``finite``) contains NaN/inf.
    """
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numeric, got the string {value!r}")
    _refuse_sparse(value, name)
    try:
        raw = np.asarray(value)
    except ValueError as exc:
        raise ValueError(f"{name} must be a rectangular array of numbers (rows of equal length), "
                         f"got a ragged sequence: {exc}") from None
    _refuse_non_real(raw, name)
    try:
        arr = raw.astype(np.float64, copy=False)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(f"{name} must be numeric (an array of numbers), got "
                        f"{type(value).__name__}: {exc}") from None
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got {_describe(arr)}")
    if finite and not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s); remove or impute them first")
    return arr


def _label_kind(v) -> str:
    if isinstance(v, (str, np.str_)):
        return "string"
    if isinstance(v, (bytes, np.bytes_)):
        return "bytes"
    if _is_real_number(v):
        return "number"
    return type(v).__name__


def check_labels(y, n: int, name: str = "y", *, binary: bool = False,
                 continuous: bool = True) -> np.ndarray:
    """Validate class labels, the one label check of every genviz classifier.

    Parameters
    ----------
    y : array_like of shape (n_samples,)
        Labels of one type: all numbers or all strings.
    n : int
        Number of rows of ``X``: ``y`` must have exactly this many labels (never truncated,
        never broadcast).
    name : str
        The argument name used in error messages.
    binary : bool
        Require the labels 0 and 1 only (``True``/``False`` accepted); they are returned as
        float 0/1.
    continuous : bool
        Accept float labels that are not whole numbers. A classifier's ``fit`` passes False:
        values like 0.37 are a regression target, not classes ("Unknown label type", as
        scikit-learn says).

    Returns
    -------
    ndarray of shape (n_samples,)
        The labels (numbers keep their integer/float dtype; strings become a str array).

    Raises
    ------
    TypeError
        If the labels mix types (e.g. strings and numbers, which numpy would silently turn
        into strings) or are not numbers/strings.
    ValueError
        If ``y`` is None, not 1-D, has a length other than ``n``, or contains None, NaN or inf.

    Examples
    --------
    >>> check_labels([0, 1, 1], 3, binary=True)
    array([0., 1., 1.])
    >>> check_labels(["a", "b"], 2)
    array(['a', 'b'], dtype='<U1')
    """
    if y is None:
        raise ValueError(f"this estimator requires {name} to be passed, but the target {name} "
                         f"is None; pass one label per row of X, e.g. fit(X, {name})")
    if isinstance(y, (str, bytes, np.str_, np.bytes_)):
        raise ValueError(f"{name} must be a 1-D array of labels, got the single value {y!r}; "
                         f"pass one label per row of X ({n})")
    raw = y if isinstance(y, np.ndarray) else None
    if raw is None:
        try:
            raw = np.asarray(y, dtype=object)
        except ValueError as exc:
            raise ValueError(f"{name} must be a 1-D sequence of labels: {exc}") from None
    if raw.ndim == 0:
        raise ValueError(f"{name} must be a 1-D array of labels, got the single value "
                         f"{raw.item()!r}; pass one label per row of X ({n})")
    if raw.ndim != 1:
        hint = (f" (use {name}.ravel() for a column vector: genviz does not reshape it for you)"
                if raw.ndim == 2 and 1 in raw.shape else "")
        raise ValueError(f"{name} must be a 1-D array of labels, got an array of shape "
                         f"{raw.shape}{hint}")
    if raw.shape[0] != n:
        raise ValueError(f"{name} has {raw.shape[0]} labels but X has {n} rows; they must match "
                         f"(one label per row)")
    if raw.dtype.kind == "O":
        values = raw.tolist()
        for i, v in enumerate(values):
            if v is None or (isinstance(v, float) and not np.isfinite(v)):
                raise ValueError(f"{name}[{i}] is {v!r} (a missing label: None or NaN); drop "
                                 f"that row first")
        kinds = {_label_kind(v) for v in values}
        if len(kinds) > 1:
            raise TypeError(f"{name} mixes label types ({', '.join(sorted(kinds))}); labels must "
                            f"be all numbers or all strings, e.g. convert with "
                            f"[str(v) for v in {name}]")
        kind = kinds.pop() if kinds else "number"
        if kind not in ("string", "number"):
            raise TypeError(f"{name} must hold numbers or strings as labels, got {kind}")
        arr = np.array(raw.tolist()) if raw.size else np.array([], dtype=float)
    elif raw.dtype.kind in "biufUS":
        arr = raw
    elif raw.dtype.kind == "c":
        raise ComplexDataError(f"{name} holds complex numbers: Complex data not supported; "
                               f"labels must be numbers or strings")
    else:
        raise TypeError(f"{name} must hold numbers or strings as labels, got dtype {raw.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name} contains NaN or infinite labels (first at {name}[{i}]); remove "
                         f"those rows first")
    if (binary or not continuous) and arr.dtype.kind == "f" and np.any(arr != np.round(arr)):
        i = int(np.flatnonzero(arr != np.round(arr))[0])
        raise ValueError(f"Unknown label type: {name} looks continuous ({name}[{i}] = "
                         f"{arr[i].item()!r} is not a whole number), but a classifier needs class "
                         f"labels; for a numeric target use a regressor (e.g. KNNRegressor), "
                         f"or bin it first")
    if binary:
        if arr.dtype.kind not in "biuf" or not np.all((arr == 0) | (arr == 1)):
            found = np.unique(arr)[:5].tolist()
            more = ("" if np.unique(arr).size <= 2 else
                    " Only binary classification is supported: with more than two classes use "
                    "a multiclass model (GDA, naive Bayes, k-NN) or one-vs-rest, "
                    "sklearn.multiclass.OneVsRestClassifier(LogisticRegression())")
            raise ValueError(f"{name} must hold only the labels 0 and 1 (binary classification, "
                             f"as in the notes), got values {found}; recode, e.g. "
                             f"y = (labels == positive_label).astype(int).{more}")
        return arr.astype(np.float64)
    return arr


def encode_labels(y, n: int, name: str = "y", *, min_classes: int = 2):
    """:func:`check_labels`, then the sorted classes and each row's class code.

    Returns
    -------
    classes : ndarray of shape (n_classes,)
    codes : ndarray of int of shape (n_samples,), ``classes[codes] == y``

    Raises
    ------
    ValueError
        As :func:`check_labels`, or if there are fewer than ``min_classes`` classes.
    """
    arr = check_labels(y, n, name, continuous=False)
    classes, codes = np.unique(arr, return_inverse=True)
    if classes.shape[0] < min_classes:
        raise ValueError(f"{name} has only {classes.shape[0]} class(es) "
                         f"({classes.tolist()!r}); a classifier needs at least {min_classes} "
                         f"classes in the training data")
    return classes, codes.reshape(-1)


def check_points(X, name: str = "X", *, d: int | None = None,
                 owner: str | None = None) -> np.ndarray:
    """Return ``X`` as a finite (n_samples, n_features) float array with at least one row.

    ``d``: the number of features required; ``owner``: the name of the fitted estimator that
    requires it (for the message).
    """
    arr = check_array(X, name, finite=False)
    if arr.ndim != 2:
        hint = (". Reshape your data: for one point use X.reshape(1, -1); for n points in one "
                "dimension use X.reshape(-1, 1)") if arr.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-dimensional (n_samples, n_features), "
                         f"got {_describe(arr)}{hint}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty (0 samples); pass at least one row")
    if arr.shape[1] == 0:
        raise ValueError(f"{name} has 0 feature(s) (shape={arr.shape}) while a minimum of 1 "
                         f"is required; pass at least one column")
    if d is not None and arr.shape[1] != d:
        raise ValueError(feature_count_message(name, arr.shape[1], d, owner) +
                         f" (shape {arr.shape})")
    check_array(arr, name)  # finiteness, with the count of bad values
    return arr


def feature_count_message(name: str, got: int, expected: int, owner: str | None) -> str:
    """The one wording of "wrong number of features" (scikit-learn's, which its checks read)."""
    if owner is None:
        return f"{name} has {got} feature(s) per row but {expected} were expected"
    # scikit-learn's sentence first (its tools and checks read it), then genviz's own
    return (f"{name} has {got} features, but {owner} is expecting {expected} features as input "
            f"({name} has {got} features per row but the model was fitted with {expected}; "
            f"{expected} were expected)")


def check_features(estimator, X, name: str = "X") -> np.ndarray:
    """``X`` for a fitted estimator's predict: fitted first, then :func:`check_points` with
    ``estimator.n_features_in_`` columns."""
    check_fitted(estimator, "n_features_in_")
    return check_points(X, name, d=estimator.n_features_in_, owner=type(estimator).__name__)


def check_vector(value, name: str, *, d: int | None = None) -> np.ndarray:
    """Return a finite 1-D float vector, of length ``d`` when given."""
    arr = check_array(value, name)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got {_describe(arr)}")
    if d is not None and arr.shape[0] != d:
        raise ValueError(f"{name} has length {arr.shape[0]} but {d} was expected")
    return arr


def check_scalar(value, name: str, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False) -> float:
    """Return ``value`` as a finite float within the given bounds."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    try:
        x = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for a float64 (|{name}| > 1.8e308), got an "
                         f"integer with {len(str(abs(int(value))))} digits") from None
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x!r}")
    if low is not None and (x < low or (low_open and x == low)):
        rel = ">" if low_open else ">="
        raise ValueError(f"{name} must be {rel} {low}, got {x!r}")
    if high is not None and (x > high or (high_open and x == high)):
        rel = "<" if high_open else "<="
        raise ValueError(f"{name} must be {rel} {high}, got {x!r}")
    return x


def check_int(value, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int within the given bounds (bools are refused)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    n = int(value)
    if low is not None and n < low:
        raise ValueError(f"{name} must be >= {low}, got {n}")
    if high is not None and n > high:
        raise ValueError(f"{name} must be <= {high}, got {n}")
    return n


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """Return a numpy Generator from a Generator or an integer seed (never unseeded)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(f"{name} must be a numpy Generator or an integer seed (for reproducible "
                    f"draws), got {type(rng).__name__}; e.g. rng=np.random.default_rng(0)")


class CovFactor:
    """A validated covariance matrix, factorised once by ``eigh``.

    Attributes
    ----------
    cov : ndarray of shape (d, d)
        The matrix, symmetrised.
    eigvals : ndarray of shape (d,)
        Eigenvalues, in decreasing order.
    eigvecs : ndarray of shape (d, d)
        Matching unit eigenvectors in columns, each with a non-negative largest component so
        that the result is deterministic.
    logdet : float
        Log-determinant, ``sum(log(eigvals))``.
    whiten : ndarray of shape (d, d)
        ``W`` with ``(x - mu) @ W`` standard normal, i.e. ``W W^T = cov^{-1}``.
    """

    __slots__ = ("cov", "eigvals", "eigvecs", "logdet", "whiten", "_chol")

    def __init__(self, cov: np.ndarray, eigvals: np.ndarray, eigvecs: np.ndarray):
        self.cov = cov
        self.eigvals = eigvals
        self.eigvecs = eigvecs
        self.logdet = float(np.sum(np.log(eigvals)))
        self.whiten = eigvecs / np.sqrt(eigvals)
        self._chol = None

    @property
    def chol(self) -> np.ndarray:
        """Lower Cholesky factor ``L`` with ``L L^T = cov`` (continuous in ``cov``)."""
        if self._chol is None:
            self._chol = np.linalg.cholesky(self.cov)
        return self._chol

    @property
    def d(self) -> int:
        return self.cov.shape[0]


def check_cov(cov, name: str = "cov", *, d: int | None = None) -> CovFactor:
    """Validate a covariance matrix and factorise it once.

    Raises ``ValueError`` naming ``name`` when the matrix has the wrong shape, contains NaN or
    inf, is not symmetric, not positive semi-definite, or is singular.
    """
    if isinstance(cov, CovFactor):
        if d is not None and cov.d != d:
            raise ValueError(f"{name} is {cov.d}x{cov.d} but {d}x{d} was expected")
        return cov
    arr = check_array(cov, name, finite=False)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square (d, d) matrix, got {_describe(arr)}")
    if d is not None and arr.shape[0] != d:
        raise ValueError(f"{name} is {arr.shape[0]}x{arr.shape[1]} but {d}x{d} was expected "
                         f"(it must match the length of the mean)")
    check_array(arr, name)
    scale = float(np.max(np.abs(arr))) if arr.size else 0.0
    if scale == 0.0:
        raise ValueError(f"{name} is singular (all zeros): the density does not exist; add a "
                         f"ridge, e.g. cov + 1e-6 * I (estimators take reg=...)")
    # Work with cov / 2^e (exact: a power of two) so that eigh never sees entries near the
    # overflow threshold (1e308 entries gave NaN eigenvalues) or deep in the subnormals.
    exp2 = math.frexp(scale)[1]  # scale = m 2^exp2 with 0.5 <= m < 1
    a = np.ldexp(arr, -exp2)
    if not np.allclose(a, a.T, rtol=1e-10, atol=1e-12):
        raise ValueError(f"{name} is not symmetric (max |cov - cov.T| = "
                         f"{np.max(np.abs(arr - arr.T)):.3g}); a covariance matrix equals its "
                         f"transpose, e.g. use (cov + cov.T) / 2")
    sym_scaled = 0.5 * (a + a.T)
    w, v = np.linalg.eigh(sym_scaled)
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(v))):  # pragma: no cover - guard
        raise ValueError(f"{name} could not be factorised (eigh returned NaN); check its entries")
    tol = _EIG_RTOL * max(float(np.max(np.abs(w))), 1e-300)
    if w[0] < -tol:
        raise ValueError(f"{name} is not positive semi-definite (smallest eigenvalue "
                         f"{math.ldexp(float(w[0]), exp2):.3g}); check the correlation |rho| <= 1, or build it as "
                         f"A @ A.T")
    if w[0] <= tol:
        raise ValueError(f"{name} is singular (smallest eigenvalue {math.ldexp(float(w[0]), exp2):.3g} is zero to "
                         f"tolerance): the density does not exist. The features are collinear "
                         f"or there are too few points; add a ridge, e.g. cov + 1e-6 * I "
                         f"(estimators take reg=...)")
    with np.errstate(over="ignore", under="ignore"):
        w = np.ldexp(w, exp2)
        sym = np.ldexp(sym_scaled, exp2)
    if not np.all(np.isfinite(w)) or np.any(w == 0):
        raise ValueError(f"{name} has eigenvalues outside the float64 range (entries up to "
                         f"{scale:.3g}): rescale the data (e.g. change units) so that variances "
                         f"lie well within 1e-300 .. 1e300")
    w = w[::-1].copy()
    v = v[:, ::-1].copy()
    # Deterministic signs: the largest-magnitude component of each eigenvector is positive.
    idx = np.argmax(np.abs(v), axis=0)
    signs = np.sign(v[idx, np.arange(v.shape[1])])
    signs[signs == 0] = 1.0
    v *= signs
    return CovFactor(sym, w, v)


class NotFittedError(ValueError, AttributeError):
    """An estimator was used (predict, score, ...) before ``fit`` was called.

    A subclass of both ValueError and AttributeError, as scikit-learn's, so either ``except``
    clause catches it.
    """


@functools.cache
def _twin(genviz_cls: type, sklearn_cls: type) -> type:
    """A class that is both ``genviz_cls`` and scikit-learn's ``sklearn_cls`` (same name), so
    that ``except`` clauses and ``pytest.raises``/``warns`` written for either catch it."""
    twin = type(genviz_cls.__name__, (genviz_cls, sklearn_cls), {
        "__module__": __name__, "__qualname__": f"_sklearn_{genviz_cls.__name__}",
        "__doc__": f"{genviz_cls.__doc__}\n\n    (Also scikit-learn's {sklearn_cls.__name__}.)"})
    return twin


def _as_sklearn(genviz_cls: type) -> type:
    """``genviz_cls``, or its twin with scikit-learn's class of the same name when
    scikit-learn is already imported (by the caller: genviz never imports it)."""
    exceptions = sys.modules.get("sklearn.exceptions")
    sk = getattr(exceptions, genviz_cls.__name__, None) if exceptions is not None else None
    return _twin(genviz_cls, sk) if sk is not None else genviz_cls


def __getattr__(name):
    # unpickling a twin class (its qualified name is ``_sklearn_<Name>``)
    # (a process without scikit-learn loaded gets genviz's own class: genviz never imports it)
    if name.startswith("_sklearn_"):
        base = globals().get(name[len("_sklearn_"):])
        if isinstance(base, type):
            return _as_sklearn(base)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_fitted(estimator, attribute: str) -> None:
    """Raise :class:`NotFittedError` unless ``estimator`` has the learned ``attribute``.

    When scikit-learn is loaded (the caller imported it), the error raised is also an instance
    of ``sklearn.exceptions.NotFittedError``, which its tools and checks catch.
    """
    if not hasattr(estimator, attribute):
        name = type(estimator).__name__
        raise _as_sklearn(NotFittedError)(f"this {name} is not fitted yet: call {name}.fit(X, y) "
                                          f"before using it to predict")


def check_targets(y, n: int, name: str = "y") -> np.ndarray:
    """Validate a regression target: finite numbers, shape (n,) or (n, n_outputs).

    Raises
    ------
    TypeError
        For strings, complex numbers, None or other non-numbers (as :func:`check_array`).
    ValueError
        If ``y`` is None, has a length other than ``n``, more than two dimensions, or NaN/inf.

    Examples
    --------
    >>> check_targets([1.5, 2.0], 2)
    array([1.5, 2. ])
    """
    if y is None:
        raise ValueError(f"this estimator requires {name} to be passed, but the target {name} "
                         f"is None; pass one target per row of X, e.g. fit(X, {name})")
    arr = check_array(y, name)
    if arr.ndim == 0:
        raise ValueError(f"{name} has a single value ({arr.item()!r}) but X has {n} rows; give "
                         f"one target per row of X")
    if arr.ndim > 2:
        raise ValueError(f"{name} must be 1-D (one target per row of X) or 2-D (one row of "
                         f"targets per row), got {_describe(arr)}")
    if arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} value(s) (shape {arr.shape}) but X has {n} "
                         f"rows; give one target (or row of targets) per row of X")
    return arr


def check_sample_weight(sample_weight, n: int, name: str = "sample_weight"):
    """None, or ``n`` finite non-negative weights that do not all vanish."""
    if sample_weight is None:
        return None
    w = check_vector(sample_weight, name, d=n)
    if np.any(w < 0):
        raise ValueError(f"{name} must be >= 0, got a minimum of {w.min():g}")
    if not np.any(w > 0):
        raise ValueError(f"{name} are all zero; at least one row needs a positive weight")
    return w
