"""Notebook 09's exercises: each checked with a right and a wrong answer, answers not leaked."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.random_projection import johnson_lindenstrauss_min_dim
from threadpoolctl import threadpool_limits

from genviz.exercises import knn as kx

X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 2.0]])
Y = np.array(["red", "blue", "blue", "red", "red"])


@pytest.fixture(autouse=True)
def _one_thread():
    """scikit-learn's OpenMP pool costs ~0.2 s per call on a busy 2-core machine; one thread."""
    with threadpool_limits(1):
        yield


def test_majority_vote():
    ex = kx.majority_vote(X, Y, [0.4, 0.5], k=3)
    right = KNeighborsClassifier(3, algorithm="brute").fit(X, Y).predict([[0.4, 0.5]])[0]
    assert right == "blue"
    assert ex.check("blue").correct and ex.check(" Blue ").correct
    assert ex.check("red").correct is False and "blue" not in str(ex.check("red"))
    assert ex.check(...).correct is None
    assert kx.majority_vote(X, Y, [0.4, 0.5], k=1).check("red").correct  # nearest is (0, 0)


def test_knn_regression_value():
    x = np.array([0.0, 1.0, 2.0, 4.0, 7.0])
    y = np.array([1.0, 3.0, 2.0, 10.0, 0.0])
    ex = kx.knn_regression_value(x, y, 1.8, k=3)
    ref = KNeighborsRegressor(3, algorithm="brute").fit(x[:, None], y).predict([[1.8]])[0]
    assert ref == pytest.approx(2.0)
    assert ex.check(2.0).correct and ex.check(ref).correct
    assert ex.check(np.mean([1.0, 2.0, 4.0])).correct is False  # averaging x, not y


def test_jl_dimension():
    ex = kx.jl_dimension(1000, 0.5)
    sk = int(johnson_lindenstrauss_min_dim(1000, eps=0.5))  # truncates 331.6
    assert ex.check(sk + 1).correct and ex.check(332).correct
    assert ex.check(sk).correct is False
    assert ex.check(4 * np.log(1000) / 0.25).correct is False  # forgot the eps^3 term
    assert "332" in str(ex.solution()) and "332" not in str(ex.check(100))


def test_distance_computations():
    ex = kx.distance_computations(1400, 397, 64, 16)
    assert ex.check(4).correct and ex.check(4.0).correct
    assert ex.check(16).correct is False and ex.check(0.25).correct is False


def test_bad_input():
    with pytest.raises(ValueError, match="k = 9 exceeds"):
        kx.majority_vote(X, Y, [0.0, 0.0], k=9)
    with pytest.raises(ValueError, match="query has length 3"):
        kx.majority_vote(X, Y, [0.0, 0.0, 1.0], k=1)
    with pytest.raises(ValueError, match="eps must be < 1"):
        kx.jl_dimension(10, 1.5)
