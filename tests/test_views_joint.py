"""Joint-table views and explorer: numbers shown vs genviz.joint and hand counts."""

import numpy as np
import pytest

from explorer_testing import sweep_explorer
from genviz.datasets import auto_mpg
from genviz.joint import JointTable, dimensionality_curve
from genviz.plots.joint import DimensionalityView, joint_bar_figure
from genviz.widgets.joint import dimensionality_explorer

ALARM = JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                    "Earthquake": ["earthquake", "no earthquake"]},
                   [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])


def test_joint_bar_figure_highlights_and_sums():
    f = joint_bar_figure(ALARM, {"Alarm": "alarm"})
    assert f.event_probability == pytest.approx(0.19)
    assert "0.19" in f.axes[0].get_title()
    assert joint_bar_figure(ALARM).event_probability == 1.0
    with pytest.raises(ValueError, match="unknown value 'x' for variable 'Alarm'"):
        joint_bar_figure(ALARM, {"Alarm": "x"})


def test_dimensionality_view_counts():
    a = auto_mpg()
    v = DimensionalityView(a.records, a.record_names, d=3, n=100, seed=0)
    sub = a.records[np.random.default_rng(0).permutation(392)[:100]]
    want = dimensionality_curve(sub, a.record_names)
    np.testing.assert_array_equal(v.state["occupied"], want["occupied"])
    assert v.state["cells_at_d"] == 18 and v.state["parameters_at_d"] == 17
    assert v.state["occupied_at_d"] == len({tuple(r[:3]) for r in sub.tolist()})
    with pytest.raises(ValueError, match="d must be <= 8"):
        v.update(d=9)


def test_dimensionality_explorer_sweep():
    a = auto_mpg()
    e = dimensionality_explorer(a.records, a.record_names)
    assert sweep_explorer(e, n=5) == 5 + len(e.controls["n"].options)  # every position of n
    e.controls["d"].value = 8
    e.controls["n"].value = 392
    assert "cells = 1,440 (free parameters 1,439)" in e.readout.value
