"""Explorer for the curse of dimensionality of full joint tables."""

from __future__ import annotations

from genviz.joint import record_counts
from genviz.plots.joint import DimensionalityView
from genviz.widgets._base import (Explorer, explorer_factory, int_slider, readout_html,
                                  selection_slider)

__all__ = ["dimensionality_explorer"]


@explorer_factory
def dimensionality_explorer(records, names, d=3, n=None, *, seed=0) -> Explorer:
    """Sliders for the number of variables ``d`` and of records ``n``; the readout gives the
    table size, its free parameters, and how many cells no record reaches."""
    view = DimensionalityView(records, names, d, n, seed=seed)
    # about 10 % more records a step: the (d, n) grid fits the states' budget
    counts = sorted({*record_counts(view.N).tolist(), int(view.params["n"])})
    controls = {
        "d": int_slider("variables d", d, 1, view.D, grid=True),
        "n": selection_slider("records n", counts, int(view.params["n"]), grid=True),
    }

    def readout(s):
        return readout_html(
            f"variables: {', '.join(s['names'][:s['d_now']])}",
            f"cells = {s['cells_at_d']:,} (free parameters {s['parameters_at_d']:,})",
            f"records n = {s['n']}, distinct = {s['occupied_at_d']}",
            f"empty cells: {100 * s['empty_at_d']:.1f} %",
            f"records per cell = {s['records_per_cell_at_d']:.3g}")
    return Explorer(view, controls, readout, title="Curse of dimensionality: the full joint table")
