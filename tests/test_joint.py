"""genviz.joint against hand computation (the slides' alarm and A,B,C tables) and direct sums."""

import itertools

import numpy as np
import pytest

from genviz.joint import JointTable, dimensionality_curve, record_counts
from hypothesis import given, strategies as st

ALARM_VARS = {"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
              "Earthquake": ["earthquake", "no earthquake"]}
# The slides' table: alarm | no alarm, each split earthquake | no earthquake; rows theft, no theft
ALARM_P = [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79]
ABC_P = [0.30, 0.05, 0.10, 0.05, 0.05, 0.10, 0.25, 0.10]


@pytest.fixture
def alarm():
    return JointTable(ALARM_VARS, ALARM_P)


def test_alarm_marginals_by_hand(alarm):
    assert alarm.prob(Alarm="alarm") == pytest.approx(0.01 + 0.08 + 0.01 + 0.09)  # 0.19
    assert alarm.prob(Theft="theft") == pytest.approx(0.01 + 0.08 + 0.001 + 0.009)  # 0.1
    # the slides print P(no theft) = 0.01 + 0.08 + 0.001 + 0.009 = 0.1: those are the *theft*
    # cells; the right value is 1 - 0.1 = 0.9
    assert alarm.prob(Theft="no theft") == pytest.approx(0.9)
    at = alarm.marginal("Theft", "Alarm")
    assert at.names == ("Theft", "Alarm")
    np.testing.assert_allclose(at.p, [[0.09, 0.01], [0.1, 0.8]])  # the slides' 2x2 table
    assert alarm.marginal("Alarm", "Theft").p[0, 1] == pytest.approx(0.1)


def test_alarm_conditionals_and_bayes(alarm):
    assert alarm.conditional({"Theft": "theft"}, {"Alarm": "alarm"}) == pytest.approx(0.09 / 0.19)
    assert alarm.conditional({"Alarm": "alarm"}, {"Theft": "theft"}) == pytest.approx(0.9)
    given = alarm.condition(Theft="theft")
    assert given.names == ("Alarm", "Earthquake")
    np.testing.assert_allclose(given.p, [[0.1, 0.8], [0.01, 0.09]])
    r = alarm.bayes({"Theft": "theft"}, {"Alarm": "alarm"})
    assert (r.likelihood, r.prior, r.evidence) == pytest.approx((0.9, 0.1, 0.19))
    assert r.posterior == pytest.approx(0.9 * 0.1 / 0.19)
    assert r.posterior == pytest.approx(alarm.conditional({"Theft": "theft"}, {"Alarm": "alarm"}))
    assert alarm.conditional({"Theft": "theft"}, {"Theft": "no theft"}) == 0.0


def test_independence_checks():
    a = np.array([0.3, 0.7])
    b = np.array([0.2, 0.5, 0.3])
    t = JointTable({"A": ["0", "1"], "B": ["x", "y", "z"]}, np.outer(a, b))
    assert t.is_independent("A", "B") and t.independence_gap("A", "B") < 1e-15
    # conditional independence built as P(c) P(a|c) P(b|c)
    pc = np.array([0.4, 0.6])
    pa_c = np.array([[0.9, 0.1], [0.2, 0.8]])
    pb_c = np.array([[0.5, 0.5], [0.3, 0.7]])
    p = np.einsum("c,ca,cb->abc", pc, pa_c, pb_c)
    u = JointTable({"A": [0, 1], "B": [0, 1], "C": [0, 1]}, p)
    assert u.is_independent("A", "B", given="C")
    assert not u.is_independent("A", "B")
    want = np.abs(p.sum(2) - np.outer(p.sum((1, 2)), p.sum((0, 2)))).max()
    assert u.independence_gap("A", "B") == pytest.approx(want)
    alarm = JointTable(ALARM_VARS, ALARM_P)
    assert not alarm.is_independent("Alarm", "Theft")
    assert alarm.independence_gap("Alarm", "Theft") == pytest.approx(0.09 - 0.19 * 0.1)


def test_abc_recipe_truth_table():
    t = JointTable({"A": [0, 1], "B": [0, 1], "C": [0, 1]}, ABC_P)
    rows = t.rows()
    assert [r[:3] for r in rows] == [tuple(map(str, v)) for v in itertools.product([0, 1], repeat=3)]
    np.testing.assert_allclose([r[3] for r in rows], ABC_P)
    assert t.prob(A=1, B=1) == pytest.approx(0.35)
    assert t.conditional({"A": 1}, {"B": 1}) == pytest.approx(0.35 / 0.5)
    assert t.n_parameters == 7
    assert "0.3000" in t.to_text()


def test_learning_from_records_counts_and_laplace():
    recs = [["good", "asia"], ["bad", "asia"], ["bad", "america"], ["bad", "america"]]
    vals = {"mpg": ["bad", "good"], "maker": ["america", "asia", "europe"]}
    t = JointTable.from_records(recs, ["mpg", "maker"], vals)
    np.testing.assert_allclose(t.p, [[0.5, 0.25, 0.0], [0.0, 0.25, 0.0]])
    np.testing.assert_array_equal(t.counts_, [[2, 1, 0], [0, 1, 0]])
    s = JointTable.from_records(recs, ["mpg", "maker"], vals, alpha=1.0)
    np.testing.assert_allclose(s.p, (np.array([[2, 1, 0], [0, 1, 0]]) + 1) / (4 + 6))
    # log-likelihood: a direct sum of logs of the learned cells
    assert t.log_likelihood(recs) == pytest.approx(2 * np.log(0.5) + 2 * np.log(0.25))
    # an unseen record makes it -inf (and is reported); smoothing keeps it finite
    test = recs + [["good", "europe"]]
    assert t.log_likelihood(test) == -np.inf
    np.testing.assert_array_equal(t.unseen(test), [4])
    assert np.isfinite(s.log_likelihood(test))
    assert s.log_likelihood(test) == pytest.approx(np.sum(np.log(
        [s.prob(mpg=m, maker=k) for m, k in test])))


def test_dimensionality_curve():
    rng = np.random.default_rng(0)
    recs = rng.integers(0, 2, size=(50, 8)).astype(str)
    c = dimensionality_curve(recs)
    np.testing.assert_array_equal(c["cells"], 2 ** np.arange(1, 9))
    np.testing.assert_array_equal(c["parameters"], 2 ** np.arange(1, 9) - 1)
    assert c["occupied"][-1] <= 50 and np.all(np.diff(c["empty_fraction"]) >= 0)
    assert c["empty_fraction"][-1] >= 1 - 50 / 256
    for k in range(1, 9):
        assert c["occupied"][k - 1] == len({tuple(r[:k]) for r in recs.tolist()})


def test_record_counts_are_the_explorers_positions():
    # the course's cars: 10 ... 392 in about 10 % steps (40 positions; 8 variables x 40 = 320
    # states); closed form: round(10 * (392 / 10) ** (k / 39)), repeats dropped
    counts = record_counts(392)
    expect = sorted({round(10 * (392 / 10) ** (k / 39)) for k in range(40)})
    assert counts.tolist() == expect and counts.size == 40 and counts.size * 8 <= 2000
    assert counts[0] == 10 and counts[-1] == 392
    assert record_counts(7).tolist() == [7] and record_counts(10).tolist() == [10]
    assert record_counts(11).tolist() == [10, 11]


@given(st.integers(1, 10**6), st.integers(1, 500), st.floats(1.01, 3.0))
def test_record_counts_rise_by_about_the_ratio_to_all_records(n, low, ratio):
    counts = record_counts(n, low=low, ratio=ratio)
    assert counts[-1] == n and counts[0] == min(low, n) and np.all(np.diff(counts) >= 1)
    # no gap wider than the ratio allows (one more for the rounding)
    assert np.all(counts[1:] <= np.ceil(counts[:-1] * ratio * (1 + 1e-12)) + 1)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: JointTable({"A": [0, 1]}, [0.5, 0.6]), ValueError, "must sum to 1, got 1.1"),
    (lambda: JointTable({"A": [0, 1]}, [1.2, -0.2]), ValueError, "must be >= 0, got -0.2 at A=1"),
    (lambda: JointTable({"A": [0, 1]}, [0.5, 0.2, 0.3]), ValueError, "has 3 entries but"),
    (lambda: JointTable({"A": [0, 1]}, [np.nan, 1.0]), ValueError, "NaN"),
    (lambda: JointTable({"A": [0, 0]}, [0.5, 0.5]), ValueError, "no repeats"),
    (lambda: JointTable({}, []), ValueError, "variables is empty"),
    (lambda: JointTable({"A": "01"}, [0.5, 0.5]), TypeError, "must be a list"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).prob(Burglary="yes"), ValueError,
     "unknown variable 'Burglary'"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).prob(Alarm="loud"), ValueError,
     "unknown value 'loud' for variable 'Alarm'"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).marginal("Theft", "Theft"), ValueError, "repeated"),
    (lambda: JointTable({"A": [0, 1], "B": [0, 1]}, [0.5, 0, 0.5, 0]).condition(B=1), ValueError,
     "impossible event"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).log_likelihood([["alarm", "theft"]]), ValueError,
     "one column per variable"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).log_likelihood([["alarm", "theft", "maybe"]]),
     ValueError, "unknown value 'maybe' for variable 'Earthquake'"),
    (lambda: JointTable.from_records([["a"]], ["V"], alpha=-1), ValueError, "alpha must be >= 0"),
    (lambda: JointTable.from_records([], ["V"]), ValueError, "records"),
    (lambda: JointTable.from_records([["a"]], ["V"], {"W": ["a"]}), ValueError, "no entry"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).independence_gap("Theft", "Theft"), ValueError,
     "disjoint"),
    (lambda: dimensionality_curve(np.empty((0, 2))), ValueError, "non-empty 2-D"),
    # a single string is not a table of records (one refusal, wherever records are read)
    (lambda: JointTable.from_records("ab", ["V"]), TypeError, "table of records.*single string"),
    (lambda: JointTable(ALARM_VARS, ALARM_P).log_likelihood("alarm"), TypeError,
     "table of records.*single string"),
    (lambda: dimensionality_curve("ab"), TypeError, "table of records.*single string"),
    (lambda: record_counts(0), ValueError, "n_records"),
    (lambda: record_counts(2.5), TypeError, "n_records"),
    (lambda: record_counts(50, ratio=1.0), ValueError, "ratio"),
    (lambda: record_counts(50, low=-1), ValueError, "low"),
])
def test_bad_inputs_give_clear_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_rounded_tables_within_tolerance_are_renormalised():
    # the slides' Adult-census table is printed with 6 digits and sums to 0.9999991
    adult = [0.253122, 0.0245895, 0.0421768, 0.0116293, 0.331313, 0.0971295, 0.134106, 0.105933]
    t = JointTable({"gender": ["Female", "Male"], "hours": ["40.5-", "40.5+"],
                    "wealth": ["poor", "rich"]}, adult)
    assert t.p.sum() == pytest.approx(1.0, abs=1e-15)
    assert t.prob(wealth="rich") == pytest.approx(sum(adult[1::2]) / sum(adult), rel=1e-12)
    assert sum(adult) == pytest.approx(0.9999991, abs=1e-12)
