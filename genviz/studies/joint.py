"""What the joint-table figures show (notebook 01), computed: the truth table as bars with an
event's rows summed (:func:`joint_bar_figure_study`) and the curse of dimensionality on nested
subsets of records (:class:`DimensionalityStudy`, drawing :func:`random_order`'s subsets).
:mod:`genviz.plots.joint` paints these results."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int
from genviz.joint import dimensionality_curve
from genviz.studies._base import Result, Study

__all__ = ["random_order", "JointBarResult", "joint_bar_figure_study", "DimensionalityStatic",
           "DimensionalityResult", "DimensionalityStudy"]


def random_order(n, seed) -> np.ndarray:
    """A seeded permutation of ``range(n)``: its first ``k`` entries are a random subset of
    size ``k``, nested as ``k`` grows.

    Examples
    --------
    >>> sorted(random_order(5, 0).tolist())
    [0, 1, 2, 3, 4]
    """
    n = check_int(n, "n", low=0)
    return np.random.default_rng(check_int(seed, "seed", low=0)).permutation(n)


class JointBarResult(Result):
    """Result of :func:`joint_bar_figure_study`.

    Attributes
    ----------
    names : list of str
        The table's variables.
    labels : list of str
        One per row of the truth table: its values joined by ", ".
    probs : ndarray of shape (n_rows,)
        Each row's probability.
    highlighted : ndarray of shape (n_rows,), dtype=bool
        The rows in the event (none without an event).
    event : dict or None
        The event as given (variable -> value).
    total : float
        ``P(event)``, the highlighted rows' sum (1 without an event).
    xmax : float
        The bars' axis limit, 1.15 times the largest probability.
    """

    names: list
    labels: list
    probs: np.ndarray
    highlighted: np.ndarray
    event: object
    total: float
    xmax: float


def joint_bar_figure_study(table, event: dict | None = None) -> JointBarResult:
    """The truth table of ``table`` (a :class:`genviz.joint.JointTable`) row by row, the rows
    of ``event`` marked and summed.

    Raises
    ------
    ValueError
        An unknown variable or value in ``event``.

    Examples
    --------
    >>> from genviz.joint import JointTable
    >>> r = joint_bar_figure_study(JointTable({"A": ["a", "b"]}, [0.25, 0.75]), {"A": "b"})
    >>> r.labels, r.highlighted.tolist(), r.total
    (['a', 'b'], [False, True], 0.75)
    """
    rows = table.rows()
    labels = [", ".join(r[:-1]) for r in rows]
    probs = np.array([r[-1] for r in rows])
    match = np.ones(len(rows), bool)
    if event:
        table.prob(event)  # validates names and values
        for name, value in event.items():
            k = table.names.index(name)
            match &= np.array([r[k] == str(value) for r in rows])
    total = float(probs[match].sum()) if event else 1.0
    return JointBarResult(list(table.names), labels, probs, match & bool(event),
                          dict(event) if event else None, total, 1.15 * probs.max())


class DimensionalityStatic(Result):
    """What the curse-of-dimensionality view draws once (:meth:`DimensionalityStudy.static`).

    Attributes
    ----------
    names : list of str
    n_records : int
        ``N``, all the records.
    n_variables : int
        ``D``, all the variables.
    d : ndarray of shape (D,)
        ``1, ..., D``.
    cells : ndarray of shape (D,)
        Cells of the full joint table of the first d variables.
    occupied : ndarray of shape (D,)
        Cells holding at least one of all the records.
    empty_fraction : ndarray of shape (D,)
    count_top : float
        The count axis' upper limit: twice the larger of the most cells and ``N``.
    """

    names: list
    n_records: int
    n_variables: int
    d: np.ndarray
    cells: np.ndarray
    occupied: np.ndarray
    empty_fraction: np.ndarray
    count_top: float


class DimensionalityResult(Result):
    """:func:`genviz.joint.dimensionality_curve` of the first ``n`` records (in a seeded random
    order) and its values at ``d`` variables.

    Attributes
    ----------
    d : ndarray of shape (D,)
    names : list of str
    cells : ndarray of shape (D,)
    parameters : ndarray of shape (D,)
        ``cells - 1``.
    occupied : ndarray of shape (D,)
        Cells holding at least one of the n records.
    empty_fraction : ndarray of shape (D,)
    records_per_cell : ndarray of shape (D,)
    d_now : int
        The number of variables chosen.
    n : int
        The number of records.
    cells_at_d, parameters_at_d, occupied_at_d : int
        The curves at ``d_now``.
    empty_at_d : float
    records_per_cell_at_d : float
    n_line : ndarray of shape (D,)
        ``n`` at every d (the records line).
    """

    d: np.ndarray
    names: list
    cells: np.ndarray
    parameters: np.ndarray
    occupied: np.ndarray
    empty_fraction: np.ndarray
    records_per_cell: np.ndarray
    d_now: int
    n: int
    cells_at_d: int
    parameters_at_d: int
    occupied_at_d: int
    empty_at_d: float
    records_per_cell_at_d: float
    n_line: np.ndarray


class DimensionalityStudy(Study):
    """Table size and empty cells for the first ``d`` variables and ``n`` records (a seeded
    random subset, nested as ``n`` grows): the slides' curse of dimensionality.

    Parameters
    ----------
    records : array_like of shape (N, D)
    names : sequence of str
    seed : int >= 0

    Examples
    --------
    >>> s = DimensionalityStudy([["a", "x"], ["b", "y"], ["a", "y"]], ["A", "B"])
    >>> r = s(d=2, n=3)
    >>> r.cells_at_d, r.occupied_at_d, r["empty_at_d"]
    (4, 3, 0.25)
    """

    def __init__(self, records, names, *, seed=0):
        self.records = np.asarray(records, dtype=object)
        self.names = list(names)
        self.D = self.records.shape[1]
        self.N = self.records.shape[0]
        self.order = random_order(self.N, check_int(seed, "seed", low=0))  # nested subsets
        self._full = dimensionality_curve(self.records, self.names)

    def defaults(self) -> dict:
        return {"d": 3, "n": self.N}

    def static(self) -> DimensionalityStatic:
        full = self._full
        return DimensionalityStatic(self.names, self.N, self.D, full["d"], full["cells"],
                                    full["occupied"], full["empty_fraction"],
                                    2.0 * max(full["cells"].max(), self.N))

    def __call__(self, *, d=3, n=None) -> DimensionalityResult:
        d = check_int(d, "d", low=1, high=self.D)
        n = check_int(self.N if n is None else n, "n", low=1, high=self.N)
        c = dimensionality_curve(self.records[self.order[:n]], self.names)
        return DimensionalityResult(
            **c, d_now=d, n=n, cells_at_d=int(c["cells"][d - 1]),
            parameters_at_d=int(c["parameters"][d - 1]),
            occupied_at_d=int(c["occupied"][d - 1]), empty_at_d=float(c["empty_fraction"][d - 1]),
            records_per_cell_at_d=float(c["records_per_cell"][d - 1]), n_line=np.full(self.D, n))
