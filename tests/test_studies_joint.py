"""genviz.studies.joint against brute force: the truth table summed by hand, the curse of
dimensionality counted record by record; hypothesis over random tables; bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genviz.datasets import auto_mpg
from genviz.joint import JointTable
from genviz.studies.joint import DimensionalityStudy, joint_bar_figure_study, random_order

SETTINGS = settings(max_examples=25, deadline=None)
ALARM = JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                    "Earthquake": ["earthquake", "no earthquake"]},
                   [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])


def test_joint_bars_against_the_truth_table_by_hand():
    r = joint_bar_figure_study(ALARM, {"Alarm": "alarm", "Earthquake": "no earthquake"})
    rows = list(itertools.product(*ALARM.values))
    assert r.names == ["Alarm", "Theft", "Earthquake"]
    assert r.labels == [", ".join(row) for row in rows]
    np.testing.assert_allclose(r.probs, ALARM.p.ravel())
    want = [row[0] == "alarm" and row[2] == "no earthquake" for row in rows]
    assert r.highlighted.tolist() == want
    assert r.total == pytest.approx(sum(p for p, w in zip(ALARM.p.ravel(), want) if w))
    assert r.total == pytest.approx(ALARM.prob({"Alarm": "alarm", "Earthquake": "no earthquake"}))
    assert r.event == {"Alarm": "alarm", "Earthquake": "no earthquake"}
    assert r.xmax == pytest.approx(1.15 * 0.79)
    everything = joint_bar_figure_study(ALARM)
    assert everything.total == 1.0 and everything.event is None and not everything.highlighted.any()


@SETTINGS
@given(st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4), st.sampled_from(["a", "b"]))
def test_any_event_sums_its_rows(weights, value):
    t = JointTable({"A": ["a", "b"], "B": ["x", "y"]}, np.array(weights) / sum(weights))
    r = joint_bar_figure_study(t, {"A": value})
    assert r.total == pytest.approx(t.prob({"A": value}))
    assert r.highlighted.sum() == 2


def test_joint_bars_bad_event():
    with pytest.raises(ValueError, match="unknown value 'x' for variable 'Alarm'"):
        joint_bar_figure_study(ALARM, {"Alarm": "x"})
    with pytest.raises(ValueError, match="Weather"):
        joint_bar_figure_study(ALARM, {"Weather": "rain"})


def test_dimensionality_by_counting_records():
    cars = auto_mpg()
    s = DimensionalityStudy(cars.records, cars.record_names, seed=4)
    static = s.static()
    N, D = cars.records.shape
    assert (static.n_records, static.n_variables, static.names) == (N, D, list(cars.record_names))
    np.testing.assert_array_equal(static.d, np.arange(1, D + 1))
    order = np.random.default_rng(4).permutation(N)
    for d, n in ((1, 10), (3, 100), (D, N)):
        r = s(d=d, n=n)
        sub = cars.records[order[:n]]
        cards = [len(set(sub[:, k].tolist())) for k in range(D)]  # the values the n records hold
        cells = np.cumprod(cards)
        occupied = [len({tuple(row[:k]) for row in sub.tolist()}) for k in range(1, D + 1)]
        np.testing.assert_array_equal(r.d, np.arange(1, D + 1))
        np.testing.assert_array_equal(r.cells, cells)
        np.testing.assert_array_equal(r.parameters, cells - 1)
        np.testing.assert_array_equal(r.occupied, occupied)
        np.testing.assert_allclose(r.empty_fraction, 1 - np.array(occupied) / cells)
        np.testing.assert_allclose(r.records_per_cell, n / cells)
        assert (r.d_now, r.n, r.cells_at_d, r.parameters_at_d, r.occupied_at_d) == (
            d, n, cells[d - 1], cells[d - 1] - 1, occupied[d - 1])
        assert r.empty_at_d == pytest.approx(1 - occupied[d - 1] / cells[d - 1])
        assert r.records_per_cell_at_d == pytest.approx(n / cells[d - 1])
        np.testing.assert_array_equal(r.n_line, np.full(D, n))
        assert r.names == list(cars.record_names)
    full = s(d=D, n=N)
    np.testing.assert_array_equal(static.cells, full.cells)
    np.testing.assert_array_equal(static.occupied, full.occupied)
    np.testing.assert_allclose(static.empty_fraction, full.empty_fraction)
    assert static.count_top == 2.0 * max(full.cells.max(), N)
    assert s.defaults() == {"d": 3, "n": N} and s(d=2).n == N


@pytest.mark.parametrize("params, word", [(dict(d=0), "d"), (dict(d=9), "d"), (dict(n=0), "n"),
                                          (dict(n=10_000), "n")])
def test_dimensionality_bad_parameters(params, word):
    cars = auto_mpg()
    with pytest.raises(ValueError, match=word):
        DimensionalityStudy(cars.records, cars.record_names)(**params)
    with pytest.raises(ValueError, match="seed"):
        DimensionalityStudy(cars.records, cars.record_names, seed=-1)


# -- the seeded order of the records (moved from test_view_studies.py) ---------------------------
@SETTINGS
@given(st.integers(0, 50), st.integers(0, 1000))
def test_random_order_is_a_permutation(n, seed):
    order = random_order(n, seed)
    assert sorted(order.tolist()) == list(range(n))
    np.testing.assert_array_equal(order, random_order(n, seed))
    np.testing.assert_array_equal(order, np.random.default_rng(seed).permutation(n))


def test_random_order_bad_input():
    with pytest.raises(ValueError, match="n"):
        random_order(-1, 0)
    with pytest.raises(ValueError, match="seed"):
        random_order(3, -1)
