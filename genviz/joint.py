"""Joint probability tables over named discrete variables (DS 5220, "Joint distributions").

A :class:`JointTable` is the slides' truth table: one probability per combination of values,
stored as a d-dimensional array whose axis k belongs to variable k. Everything else follows
from the four rules of the notes:

* marginalisation ``P(B) = sum_v P(B, A = v)`` (:meth:`JointTable.marginal`, :meth:`~JointTable.prob`);
* conditioning ``P(A | B) = P(A, B) / P(B)`` (:meth:`~JointTable.condition`, :meth:`~JointTable.conditional`);
* Bayes' rule ``P(A | B) = P(B | A) P(A) / P(B)`` (:meth:`~JointTable.bayes`);
* independence ``P(A, B) = P(A) P(B)`` and conditional independence
  ``P(A, B | C) = P(A | C) P(B | C)`` (:meth:`~JointTable.independence_gap`).

Learning a table from records is counting (:meth:`JointTable.from_records`, optionally with
Laplace smoothing); the log-likelihood of a data set is ``sum_i log P(x_i)``, which is ``-inf``
as soon as one record falls in a cell the table says is impossible (:meth:`~JointTable.log_likelihood`,
:meth:`~JointTable.unseen`). :func:`dimensionality_curve` shows the curse of dimensionality.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from genviz._validation import check_array, check_int, check_scalar

__all__ = ["JointTable", "BayesResult", "dimensionality_curve", "record_counts"]


@dataclasses.dataclass(frozen=True)
class BayesResult:
    """The parts of Bayes' rule ``posterior = likelihood * prior / evidence``."""

    likelihood: float  # P(evidence | hypothesis)
    prior: float       # P(hypothesis)
    evidence: float    # P(evidence)
    posterior: float   # P(hypothesis | evidence)


def _check_variables(variables):
    items = list(variables.items()) if isinstance(variables, dict) else list(variables)
    if not items:
        raise ValueError("variables is empty; pass e.g. {'Alarm': ['alarm', 'no alarm'], ...}")
    names, values = [], []
    for item in items:
        try:
            name, vals = item
        except (TypeError, ValueError):
            raise TypeError(f"variables must map names to lists of values, got the entry "
                            f"{item!r}") from None
        if not isinstance(name, str) or not name:
            raise TypeError(f"variable names must be non-empty strings, got {name!r}")
        if isinstance(vals, str):
            raise TypeError(f"the values of {name!r} must be a list, got the string {vals!r}")
        vals = [str(v) if not isinstance(v, str) else v for v in vals]
        if len(vals) < 1 or len(set(vals)) != len(vals):
            raise ValueError(f"variable {name!r} needs at least one value and no repeats, got {vals}")
        if name in names:
            raise ValueError(f"variable {name!r} is listed twice")
        names.append(name)
        values.append(tuple(vals))
    return tuple(names), tuple(values)


class JointTable:
    """A joint probability distribution over named discrete variables.

    Parameters
    ----------
    variables : dict[str, list] or list of (name, values)
        The variables in order, each with its list of values.
    probabilities : array_like
        Either an array of shape ``(len(values_1), ..., len(values_d))`` or a flat list in
        truth-table order (the last variable changes fastest), as in the slides' recipe.
    atol : float
        Tolerance on ``sum == 1``; a table within it is renormalised exactly (tables printed
        in the notes are rounded).

    Raises
    ------
    ValueError
        Wrong number of entries, negative or NaN entries, or a sum that is not 1.

    Examples
    --------
    >>> t = JointTable({"A": [0, 1], "B": [0, 1]}, [0.3, 0.2, 0.1, 0.4])
    >>> t.prob(A="1")
    0.5
    >>> round(t.conditional({"B": "1"}, given={"A": "1"}), 4)
    0.8
    >>> t.n_parameters
    3
    """

    def __init__(self, variables, probabilities, *, atol: float = 1e-6):
        self.names, self.values = _check_variables(variables)
        shape = tuple(len(v) for v in self.values)
        p = check_array(probabilities, "probabilities", finite=False)
        if p.size != math.prod(shape):
            raise ValueError(f"probabilities has {p.size} entries but the variables "
                             f"{dict(zip(self.names, shape))} need {math.prod(shape)} "
                             f"(one per row of the truth table)")
        if np.isnan(p).any() or np.isinf(p).any():
            raise ValueError("probabilities contains NaN or infinite entries")
        p = p.reshape(shape)
        if (p < 0).any():
            bad = np.argwhere(p < 0)[0]
            raise ValueError(f"probabilities must be >= 0, got {float(p[tuple(bad)])!r} at "
                             f"{self._describe(bad)}")
        atol = check_scalar(atol, "atol", low=0.0)
        total = float(p.sum())
        if abs(total - 1.0) > atol:
            raise ValueError(f"probabilities must sum to 1, got {total:.10g}; fix the table or "
                             f"divide by the sum to normalise it")
        self.p = p / total

    # -- construction from data ----------------------------------------------------------------
    @classmethod
    def from_records(cls, records, names, values=None, *, alpha: float = 0.0):
        """Learn a table by counting: ``P(row) = (count(row) + alpha) / (n + alpha * cells)``.

        Parameters
        ----------
        records : array_like of shape (n, d)
            One record per row (values are compared as strings).
        names : sequence of str
            Variable names, one per column.
        values : dict[str, list], optional
            The possible values of each variable (default: the values seen, sorted). Give them
            to keep unseen values in the table.
        alpha : float
            Laplace (add-alpha) smoothing; 0 is the maximum-likelihood table of the slides.

        Examples
        --------
        >>> t = JointTable.from_records([["a", "x"], ["a", "y"], ["b", "x"], ["a", "x"]],
        ...                             ["V", "W"])
        >>> t.prob(V="a", W="x")
        0.5
        """
        names = _as_names(names, "names")
        recs = _as_records(records, len(names))
        alpha = check_scalar(alpha, "alpha", low=0.0)
        if values is None:
            values = {n: sorted(set(recs[:, k].tolist())) for k, n in enumerate(names)}
        missing = [n for n in names if n not in values]
        if missing:
            raise ValueError(f"values has no entry for variable(s) {missing}")
        variables = [(n, values[n]) for n in names]
        shell = cls(variables, np.full(math.prod(len(v) for _, v in variables),
                                       1.0 / math.prod(len(v) for _, v in variables)))
        idx = shell._encode(recs)
        counts = np.zeros(shell.p.shape)
        np.add.at(counts, tuple(idx.T), 1.0)
        shell.counts_ = counts
        shell.p = (counts + alpha) / (counts.sum() + alpha * counts.size)
        return shell

    # -- helpers -------------------------------------------------------------------------------
    def _describe(self, index) -> str:
        return ", ".join(f"{n}={self.values[k][i]}" for k, (n, i) in enumerate(zip(self.names, index)))

    def _axis(self, name) -> int:
        if name not in self.names:
            raise ValueError(f"unknown variable {name!r}; the table has {list(self.names)}")
        return self.names.index(name)

    def _value_index(self, name, value) -> int:
        k = self._axis(name)
        v = value if isinstance(value, str) else str(value)
        if v not in self.values[k]:
            raise ValueError(f"unknown value {value!r} for variable {name!r}; its values are "
                             f"{list(self.values[k])}")
        return self.values[k].index(v)

    def _encode(self, recs) -> np.ndarray:
        idx = np.empty(recs.shape, dtype=np.int64)
        for k, name in enumerate(self.names):
            lookup = {v: i for i, v in enumerate(self.values[k])}
            col = recs[:, k]
            try:
                idx[:, k] = [lookup[v] for v in col]
            except KeyError as exc:
                raise ValueError(f"records contain the unknown value {exc.args[0]!r} for variable "
                                 f"{name!r}; its values are {list(self.values[k])}") from None
        return idx

    def _mask_sum(self, assignment: dict) -> float:
        index = [slice(None)] * len(self.names)
        for name, value in assignment.items():
            index[self._axis(name)] = self._value_index(name, value)
        return float(self.p[tuple(index)].sum())

    # -- the rules of probability ---------------------------------------------------------------
    @property
    def n_parameters(self) -> int:
        """Free parameters of the table: cells - 1 (the entries must sum to 1)."""
        return int(self.p.size - 1)

    def prob(self, assignment: dict | None = None, **kwargs) -> float:
        """``P(assignment)``; variables left out are summed over (marginalised).

        >>> JointTable({"A": [0, 1]}, [0.25, 0.75]).prob({"A": 1})
        0.75
        """
        return self._mask_sum({**(assignment or {}), **kwargs})

    def marginal(self, *names) -> "JointTable":
        """The joint table of ``names`` alone (the others summed out)."""
        if not names:
            raise ValueError("marginal needs at least one variable name")
        axes = [self._axis(n) for n in names]
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated variable in {names}")
        other = tuple(k for k in range(len(self.names)) if k not in axes)
        p = self.p.sum(axis=other)
        kept = sorted(axes)
        p = np.moveaxis(p, range(len(kept)), [kept.index(a) for a in axes]) if len(kept) > 1 else p
        return JointTable([(n, self.values[self._axis(n)]) for n in names], p)

    def condition(self, evidence: dict | None = None, **kwargs) -> "JointTable":
        """The table of the other variables given ``evidence`` (renormalised)."""
        evidence = {**(evidence or {}), **kwargs}
        if not evidence:
            raise ValueError("condition needs evidence, e.g. condition(Theft='theft')")
        pe = self._mask_sum(evidence)
        if pe == 0.0:
            raise ValueError(f"P({_fmt(evidence)}) = 0: cannot condition on an impossible event")
        index = [slice(None)] * len(self.names)
        for name, value in evidence.items():
            index[self._axis(name)] = self._value_index(name, value)
        rest = [(n, v) for n, v in zip(self.names, self.values) if n not in evidence]
        if not rest:
            raise ValueError("evidence fixes every variable; nothing is left to condition")
        return JointTable(rest, self.p[tuple(index)] / pe)

    def conditional(self, target: dict, given: dict) -> float:
        """``P(target | given) = P(target, given) / P(given)``.

        Raises
        ------
        ValueError
            For an unknown variable or value (named), or ``P(given) = 0``.
        """
        for what, assignment in (("target", target), ("given", given)):
            if not isinstance(assignment, dict):
                raise TypeError(f"{what} must be a dict {{variable: value}}, got "
                                f"{type(assignment).__name__} {assignment!r}")
            for name, value in assignment.items():
                self._value_index(name, value)  # unknown variable or value -> ValueError
        clash = {k for k in target if k in given and str(target[k]) != str(given[k])}
        pg = self._mask_sum(given)
        if pg == 0.0:
            raise ValueError(f"P({_fmt(given)}) = 0: the conditional is undefined")
        if clash:
            return 0.0
        return self._mask_sum({**given, **target}) / pg

    def bayes(self, hypothesis: dict, evidence: dict) -> BayesResult:
        """Bayes' rule from the table's parts: ``P(H | E) = P(E | H) P(H) / P(E)``."""
        prior = self.prob(hypothesis)
        if prior == 0.0:
            raise ValueError(f"P({_fmt(hypothesis)}) = 0: the likelihood P(E | H) is undefined")
        likelihood = self.conditional(evidence, hypothesis)
        pe = self.prob(evidence)
        if pe == 0.0:
            raise ValueError(f"P({_fmt(evidence)}) = 0: the posterior is undefined")
        return BayesResult(likelihood, prior, pe, likelihood * prior / pe)

    def independence_gap(self, a, b, given=None) -> float:
        """``max |P(A, B | C) - P(A | C) P(B | C)|`` over all values (0 iff independent).

        ``a``, ``b``, ``given`` are variable names or lists of names.
        """
        a, b = _as_list(a), _as_list(b)
        c = _as_list(given) if given is not None else []
        if set(a) & set(b) or set(a) & set(c) or set(b) & set(c):
            raise ValueError("a, b and given must be disjoint sets of variables")
        t = self.marginal(*(a + b + c))
        shape = t.p.shape
        p = t.p.reshape(math.prod(shape[:len(a)]), math.prod(shape[len(a):len(a) + len(b)]),
                        math.prod(shape[len(a) + len(b):]))
        pc = p.sum(axis=(0, 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            joint = p / pc
            pa = p.sum(axis=1) / pc
            pb = p.sum(axis=0) / pc
            gap = np.abs(joint - pa[:, None, :] * pb[None, :, :])
        return float(np.max(gap[:, :, pc > 0])) if np.any(pc > 0) else 0.0

    def is_independent(self, a, b, given=None, *, atol: float = 1e-9) -> bool:
        """Whether ``A ⊥ B`` (or ``A ⊥ B | C``) holds to ``atol``."""
        return self.independence_gap(a, b, given) <= atol

    # -- data ----------------------------------------------------------------------------------
    def log_probs(self, records) -> np.ndarray:
        """``log P(x_i)`` for every record (``-inf`` for a record in an empty cell)."""
        idx = self._encode(_as_records(records, len(self.names)))
        with np.errstate(divide="ignore"):
            return np.log(self.p[tuple(idx.T)])

    def log_likelihood(self, records) -> float:
        """``log P(dataset) = sum_i log P(x_i)``: ``-inf`` if any record has probability 0."""
        return float(np.sum(self.log_probs(records)))

    def unseen(self, records) -> np.ndarray:
        """Row indices of the records the table gives probability 0 (each makes the
        log-likelihood ``-inf``)."""
        return np.flatnonzero(np.isneginf(self.log_probs(records)))

    def rows(self):
        """``[(values..., probability), ...]`` in truth-table order."""
        out = []
        for index in np.ndindex(self.p.shape):
            out.append(tuple(self.values[k][i] for k, i in enumerate(index)) + (float(self.p[index]),))
        return out

    def to_text(self, digits: int = 4) -> str:
        """The truth table as aligned text."""
        header = list(self.names) + ["P"]
        body = [[*r[:-1], f"{r[-1]:.{digits}f}"] for r in self.rows()]
        widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
        lines = ["  ".join(str(x).ljust(w) for x, w in zip(row, widths)) for row in [header] + body]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"JointTable({dict(zip(self.names, self.values))})\n{self.to_text()}"


def _fmt(assignment: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in assignment.items())


def _as_list(x):
    return [x] if isinstance(x, str) else list(x)


def _as_names(names, what: str) -> list:
    """A list of variable names; a single string is refused (it is not split into letters)."""
    if isinstance(names, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of names, got the single string {names!r}; "
                        f"wrap it in a list: [{names!r}]")
    try:
        return list(names)
    except TypeError:
        raise TypeError(f"{what} must be a sequence of names, got {type(names).__name__}") \
            from None


def _check_missing(arr: np.ndarray, what: str) -> None:
    for (i, k), v in np.ndenumerate(arr):
        if v is None or (isinstance(v, (float, np.floating)) and not np.isfinite(v)):
            raise ValueError(f"{what}[{i}, {k}] is missing ({v!r}); a missing value is not a "
                             f"category: drop or fill that record first")


def _records_array(records) -> np.ndarray:
    """``records`` as an object array; a single string is refused (it is not a table)."""
    if isinstance(records, (str, bytes)):
        raise TypeError(f"records must be a table of records (rows of values), got the single "
                        f"string {records!r}")
    return np.asarray(records, dtype=object)


def _as_records(records, d: int) -> np.ndarray:
    arr = _records_array(records)
    if arr.ndim == 1 and d == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or arr.shape[1] != d:
        raise ValueError(f"records must be a 2-D array with one column per variable ({d}), got "
                         f"shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError("records is empty; pass at least one record")
    _check_missing(arr, "records")
    return np.vectorize(lambda v: v if isinstance(v, str) else str(v), otypes=[object])(arr)


def dimensionality_curve(records, names=None) -> dict:
    """How the full joint table grows as variables are added one at a time (the curse).

    For the first d = 1, 2, ... columns of ``records``: the number of cells
    ``prod_k |values_k|``, the free parameters (cells - 1), the number of distinct records seen,
    and the fraction of cells no record falls in (an ML table says they are impossible).

    Returns
    -------
    dict of arrays ``d``, ``cells``, ``parameters``, ``occupied``, ``empty_fraction``,
    ``records_per_cell`` and the ``names`` used.

    Examples
    --------
    >>> c = dimensionality_curve([["a", "x"], ["b", "y"]])
    >>> c["cells"].tolist(), c["empty_fraction"].tolist()
    ([2, 4], [0.0, 0.5])
    """
    arr = _records_array(records)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"records must be a non-empty 2-D array (n_records, n_variables), got "
                         f"shape {arr.shape}")
    _check_missing(arr, "records")
    d = arr.shape[1]
    names = [f"x{k + 1}" for k in range(d)] if names is None else _as_names(names, "names")
    if len(names) != d:
        raise ValueError(f"names has {len(names)} entries but records has {d} columns")
    codes = np.column_stack([np.unique(arr[:, k].astype(str), return_inverse=True)[1].ravel()
                             for k in range(d)])
    cards = codes.max(axis=0) + 1
    cells, occupied = [], []
    for k in range(1, d + 1):
        cells.append(int(np.prod(cards[:k], dtype=np.float64)))
        occupied.append(int(np.unique(codes[:, :k], axis=0).shape[0]))
    cells = np.array(cells, dtype=np.int64)
    occupied = np.array(occupied)
    return dict(d=np.arange(1, d + 1), names=names, cells=cells, parameters=cells - 1,
                occupied=occupied, empty_fraction=1.0 - occupied / cells,
                records_per_cell=arr.shape[0] / cells)


def record_counts(n_records, *, low=10, ratio=1.1) -> np.ndarray:
    """The numbers of records the dimensionality explorer's n slider offers: from ``low`` up to
    all ``n_records``, each about ``ratio`` times the one before (rounded; repeats dropped), so a
    step of the slider moves n by about 10 % at every size, as the figure's log axis shows it;
    only ``n_records`` itself when there are no more than ``low``.

    With the course's 392 cars and 8 variables: 40 positions, and a precomputed grid over
    (d, n) of 8 x 40 = 320 states (issue #37: every control an investigation needs moves
    without a kernel; a step of 1 would make 3,064, over the states' budget).

    Examples
    --------
    >>> record_counts(20, low=10, ratio=1.5).tolist()
    [10, 14, 20]
    >>> record_counts(4).tolist()
    [4]
    """
    n = check_int(n_records, "n_records", low=1)
    low = check_int(low, "low", low=1)
    ratio = check_scalar(ratio, "ratio", low=1.0, low_open=True)
    if n <= low:
        return np.array([n])
    k = math.ceil(math.log(n / low) / math.log(ratio))
    return np.unique(np.round(np.geomspace(low, n, k + 1)).astype(np.int64))
