"""Views of joint probability tables: the truth table as bars, and the curse of dimensionality."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int
from genviz.joint import dimensionality_curve
from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import PALETTE, explorer_figsize
from genviz.samplers import random_order

__all__ = ["joint_bar_figure", "DimensionalityView"]


def joint_bar_figure(table, event: dict | None = None, *, title: str | None = None):
    """One bar per row of the truth table; rows in ``event`` are highlighted and summed.

    Returns the figure; ``fig.event_probability`` is ``P(event)`` (the highlighted sum).
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
    fig = new_figure(figsize=explorer_figsize(7.0, 0.42 * len(rows) + 1.2))
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1]
    colors = [PALETTE["vermillion"] if m and event else PALETTE["sky"] for m in match]
    ax.barh(y, probs, color=colors, edgecolor="k", lw=0.5)
    for yi, p in zip(y, probs):
        ax.text(p + 0.005, yi, f"{p:g}", va="center", fontsize="small")
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1.15 * probs.max())
    ax.set_xlabel("probability")
    ax.set_ylabel(", ".join(table.names))
    total = float(probs[match].sum()) if event else 1.0
    if title is None:
        title = (f"P({', '.join(f'{k}={v}' for k, v in event.items())}) = sum of highlighted "
                 f"rows\n= {total:.4g}") if event else "joint distribution (sums to 1)"
    ax.set_title(title, fontsize="medium")
    ax.grid(alpha=0.3, axis="x")
    finish_layout(fig)
    fig.event_probability = total
    return fig


class DimensionalityView(View):
    """Table size and empty cells as variables are added (the slides' curse of dimensionality).

    ``update(d=, n=)``: ``d`` variables (the first d columns), ``n`` records (a seeded random
    subset). Top: cells and records (log scale); below: fraction of empty cells.
    ``state`` has the :func:`genviz.joint.dimensionality_curve` arrays plus ``d``, ``n`` and
    the values at ``d`` (``cells_at_d``, ``empty_at_d``, ``occupied_at_d``).
    """

    PARAMS = ("d", "n")

    def __init__(self, records, names, d=3, n=None, *, seed=0, figsize=None):
        self.records = np.asarray(records, dtype=object)
        self.names = list(names)
        self.D = self.records.shape[1]
        self.N = self.records.shape[0]
        self.order = random_order(self.N, check_int(seed, "seed", low=0))  # nested subsets
        full = dimensionality_curve(self.records, self.names)
        # stacked (not side by side): both panels share the variables axis and fit the
        # output-area width budget; the variable names label the bottom panel only
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.8, 5.6)))
        ax, ax2 = self.ax, self.ax2 = self.fig.subplots(2, 1, sharex=True)
        ds = full["d"]
        ax.semilogy(ds, full["cells"], "o-", color=PALETTE["blue"], label="cells = parameters + 1")
        (self._occ,) = ax.semilogy(ds, full["occupied"], "s-", color=PALETTE["green"],
                                   label="cells holding a record")
        (self._n_line,) = ax.plot(ds, np.full(ds.size, self.N), "--", color=PALETTE["black"],
                                  label="records n")
        (self._cursor,) = ax.plot([], [], "o", ms=14, mfc="none", mec=PALETTE["vermillion"], mew=2)
        ax.set_ylim(0.8, 2.0 * max(full["cells"].max(), self.N))
        ax.set_ylabel("count")
        ax.legend(loc="upper left", fontsize="small")
        ax.grid(alpha=0.3, which="both")
        (self._empty,) = ax2.plot(ds, full["empty_fraction"], "o-", color=PALETTE["vermillion"],
                                  label="empty cells (P = 0 in the learned table)")
        (self._cursor2,) = ax2.plot([], [], "o", ms=14, mfc="none", mec=PALETTE["black"], mew=2)
        ax2.set_xticks(ds, [f"{k}: +{nm}" if k > 1 else f"1: {nm}"
                            for k, nm in zip(ds, self.names)],
                       fontsize="small", rotation=90, ha="right", va="center",
                       rotation_mode="anchor")
        ax2.set_ylim(-0.02, 1.02)
        ax2.set_xlabel("number of variables d (variable added)")
        ax2.set_ylabel("empty cells")
        ax2.legend(loc="upper left", fontsize="small")
        ax2.grid(alpha=0.3)
        self.animate(self._occ, self._n_line, self._cursor, self._empty, self._cursor2)
        self.params = dict(d=d, n=self.N if n is None else n)
        self.update(**self.params)
        self.finish_layout()

    def update(self, **params):
        new = {**self.params, **params}
        d = check_int(new["d"], "d", low=1, high=self.D)
        n = check_int(new["n"], "n", low=1, high=self.N)
        self.params = dict(d=d, n=n)
        c = dimensionality_curve(self.records[self.order[:n]], self.names)
        self._occ.set_ydata(c["occupied"])
        self._n_line.set_ydata(np.full(self.D, n))
        self._empty.set_ydata(c["empty_fraction"])
        self._cursor.set_data([d], [c["cells"][d - 1]])
        self._cursor2.set_data([d], [c["empty_fraction"][d - 1]])
        self.state = dict(c, d_now=d, n=n, cells_at_d=int(c["cells"][d - 1]),
                          occupied_at_d=int(c["occupied"][d - 1]),
                          empty_at_d=float(c["empty_fraction"][d - 1]),
                          parameters_at_d=int(c["parameters"][d - 1]))

    def describe(self) -> str:
        """Alt text from the state: table size and empty cells at the chosen d."""
        s = self.state
        return (f"Two panels on the curse of dimensionality for {s['n']} records: top, the "
                f"number of cells of the full joint table (log scale) grows as variables are "
                f"added, with d = {s['d_now']} marked: {s['cells_at_d']} cells "
                f"({s['parameters_at_d']} parameters), {s['occupied_at_d']} holding a record; "
                f"below it, the fraction of empty cells, {fmt(s['empty_at_d'])} at d = {s['d_now']}.")
