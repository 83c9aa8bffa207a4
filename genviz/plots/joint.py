"""Views of joint probability tables: the truth table as bars, and the curse of dimensionality.
The numbers come from :mod:`genviz.studies.joint`."""

from __future__ import annotations

import numpy as np

from genviz.plots._base import View, finish_layout, fmt, new_figure
from genviz.plots.style import PALETTE, by_layout, explorer_figsize, subplot_grid
from genviz.studies.joint import (DimensionalityResult, DimensionalityStudy, JointBarResult,
                                  joint_bar_figure_study)

__all__ = ["joint_bar_figure", "DimensionalityView"]


def joint_bar_figure(table, event: dict | None = None, *, title: str | None = None):
    """One bar per row of the truth table; rows in ``event`` are highlighted and summed.

    Returns the figure; ``fig.event_probability`` is ``P(event)`` (the highlighted sum).
    """
    return _paint_joint_bars(joint_bar_figure_study(table, event), title=title)


def _paint_joint_bars(r: JointBarResult, *, title=None):
    fig = new_figure(figsize=explorer_figsize(7.0, 0.42 * len(r.labels) + 1.2))
    ax = fig.add_subplot()
    y = np.arange(len(r.labels))[::-1]
    colors = [PALETTE["vermillion"] if m else PALETTE["sky"] for m in r.highlighted]
    ax.barh(y, r.probs, color=colors, edgecolor="k", lw=0.5)
    for yi, p in zip(y, r.probs):
        ax.text(p + 0.005, yi, f"{p:g}", va="center", fontsize="small")
    ax.set_yticks(y, r.labels)
    ax.set_xlim(0, r.xmax)
    ax.set_xlabel("probability")
    ax.set_ylabel(", ".join(r.names))
    if title is None:
        title = (f"P({', '.join(f'{k}={v}' for k, v in r.event.items())}) = sum of highlighted "
                 f"rows\n= {r.total:.4g}") if r.event else "joint distribution (sums to 1)"
    ax.set_title(title, fontsize="medium")
    ax.grid(alpha=0.3, axis="x")
    finish_layout(fig)
    fig.event_probability = r.total
    return fig


class DimensionalityView(View, study=DimensionalityStudy):
    """Table size and empty cells as variables are added (the slides' curse of dimensionality).

    ``update(d=, n=)``: ``d`` variables (the first d columns), ``n`` records (a seeded random
    subset). Top: cells and records (log scale); below: fraction of empty cells.
    ``state`` is a :class:`~genviz.studies.joint.DimensionalityResult`: the
    :func:`genviz.joint.dimensionality_curve` arrays plus ``d_now``, ``n`` and the values at
    ``d`` (``cells_at_d``, ``empty_at_d``, ``occupied_at_d``).
    """

    def __init__(self, records, names, d=3, n=None, *, seed=0, figsize=None):
        full = self.use_study(records, names, seed=seed)
        self.names, self.D, self.N = full.names, full.n_variables, full.n_records
        # stacked (not side by side): both panels share the variables axis and fit the
        # output-area width budget; the variable names label the bottom panel only
        figsize = figsize or explorer_figsize(7.8, 5.6, panels=(2, 1), narrow_aspect=0.8)
        super().__init__(new_figure(figsize=figsize))
        ax, ax2 = self.ax, self.ax2 = subplot_grid(self.fig, 2, 1, sharex=True)
        ds = full.d
        ax.semilogy(ds, full.cells, "o-", color=PALETTE["blue"], label="cells = parameters + 1")
        (self._occ,) = ax.semilogy(ds, full.occupied, "s-", color=PALETTE["green"],
                                   label="cells holding a record")
        (self._n_line,) = ax.plot(ds, np.full(ds.size, self.N), "--", color=PALETTE["black"],
                                  label="records n")
        (self._cursor,) = ax.plot([], [], "o", ms=14, mfc="none", mec=PALETTE["vermillion"], mew=2)
        ax.set_ylim(0.8, full.count_top)
        ax.set_ylabel("count")
        ax.legend(loc="upper left", fontsize="small")
        ax.grid(alpha=0.3, which="both")
        (self._empty,) = ax2.plot(ds, full.empty_fraction, "o-", color=PALETTE["vermillion"],
                                  label="empty cells" + by_layout(" ", "\n")  # narrow: two lines
                                  + "(P = 0 in the learned table)")
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
        self.update(d=d, n=self.N if n is None else n)
        self.finish_layout()

    def paint(self, r: DimensionalityResult, changed) -> None:
        self._occ.set_ydata(r.occupied)
        self._n_line.set_ydata(r.n_line)
        self._empty.set_ydata(r.empty_fraction)
        self._cursor.set_data([r.d_now], [r.cells_at_d])
        self._cursor2.set_data([r.d_now], [r.empty_at_d])

    def describe(self) -> str:
        """Alt text from the state: table size and empty cells at the chosen d."""
        s = self.state
        return (f"Two panels on the curse of dimensionality for {s['n']} records: top, the "
                f"number of cells of the full joint table (log scale) grows as variables are "
                f"added, with d = {s['d_now']} marked: {s['cells_at_d']} cells "
                f"({s['parameters_at_d']} parameters), {s['occupied_at_d']} holding a record; "
                f"below it, the fraction of empty cells, {fmt(s['empty_at_d'])} at d = {s['d_now']}.")
