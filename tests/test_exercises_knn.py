"""Notebook 09's exercises: each checked with a right and a wrong answer, answers not leaked."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
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


def test_distance_computations():
    ex = kx.distance_computations(1400, 397, 64, 16)
    assert ex.check(4).correct and ex.check(4.0).correct
    assert ex.check(16).correct is False and ex.check(0.25).correct is False


def test_bad_input():
    with pytest.raises(ValueError, match="k = 9 exceeds"):
        kx.majority_vote(X, Y, [0.0, 0.0], k=9)
    with pytest.raises(ValueError, match="query has length 3"):
        kx.majority_vote(X, Y, [0.0, 0.0, 1.0], k=1)


# -- predictions and the conceptual item ---------------------------------------------------------
from genviz.synthetic import regression_data, two_class_data  # noqa: E402
from genviz.synthetic import flip_labels, regression_truth  # noqa: E402


@pytest.fixture(scope="module")
def blobs():
    X, y = two_class_data(200, rng=0)
    Xt, yt = two_class_data(2000, rng=1)
    return X, y, Xt, yt


def _sk_accuracy(X, y, Xt, yt, k, noise):
    y_noisy, _ = flip_labels(y, noise, 2, rng=0)
    return np.mean(KNeighborsClassifier(k).fit(X, y_noisy).predict(Xt) == yt)


def test_predict_noise_and_k_against_scikit_learn(blobs):
    assert _sk_accuracy(*blobs, 15, 0.2) > _sk_accuracy(*blobs, 1, 0.2) + 0.05
    p = kx.predict_noise_and_k(*blobs, noise=0.2)
    assert p.kind == "prediction" and p.options[p.correct[0]].startswith("k = 15")
    assert not p.check("k = 1").correct
    # the observation: both test accuracies (1-NN, 15-NN) on clean labels and at noise 0.2
    obs = p.observation
    assert obs.parts == ("1-NN", "15-NN") and obs.before == {"noise": 0.0}
    assert obs.setting == {"k": 15, "noise": 0.2}
    assert obs._answer == pytest.approx([_sk_accuracy(*blobs, 1, 0.2),
                                         _sk_accuracy(*blobs, 15, 0.2)])
    assert obs.expected_before == pytest.approx([_sk_accuracy(*blobs, 1, 0.0),
                                                 _sk_accuracy(*blobs, 15, 0.0)])
    # what decides: 1-NN loses more accuracy to the flipped labels than 15-NN
    lost = np.subtract(obs.expected_before, obs._answer)
    assert lost[0] > lost[1] + 0.05
    state = {"test_accuracy_1nn": obs._answer[0], "test_accuracy": obs._answer[1]}
    typed = ", ".join(f"{v:.3f}" for v in obs._answer)
    assert obs.check_reading(typed, state=state, values={"k": 15, "noise": 0.2}).correct
    swapped = ", ".join(f"{v:.3f}" for v in obs._answer[::-1])
    assert not obs.check_reading(swapped, state=state, values={"k": 15, "noise": 0.2}).correct
    X, y, Xt, yt = blobs
    with pytest.raises(ValueError, match="noise"):
        kx.predict_noise_and_k(X, y, Xt, yt, noise=1.5)
    with pytest.raises(ValueError, match="y"):
        kx.predict_noise_and_k(X, y.astype(str), Xt, yt)


def test_predict_regression_k_against_scikit_learn():
    x, y = regression_data(100, rng=0)
    grid = np.linspace(x.min(), x.max(), 1001)[:, None]
    mse = [np.mean((KNeighborsRegressor(k).fit(x[:, None], y).predict(grid)
                    - regression_truth(grid[:, 0])) ** 2) for k in (1, 7, 40)]
    assert mse[1] < mse[0] and mse[1] < mse[2]
    p = kx.predict_regression_k(x, y)
    assert p.check("It falls, then rises again.").correct
    assert not p.check("It keeps falling: more neighbours, less noise.").correct
    # the observation: the explorer's MSE (on its own 600-point grid) at all three k: 1-NN's
    # beside k = 7's (before) and beside k = 40's (after): the U is in the recording
    pad = 0.02 * (x.max() - x.min())
    g = np.linspace(x.min() - pad, x.max() + pad, 600)[:, None]
    explorer = {k: np.mean((KNeighborsRegressor(k).fit(x[:, None], y).predict(g)
                            - regression_truth(g[:, 0])) ** 2) for k in (1, 7, 40)}
    obs = p.observation
    assert obs.before == {"k": 7} and obs.setting == {"k": 40}
    assert obs.expected_before == pytest.approx([explorer[1], explorer[7]], rel=1e-6)
    assert obs._answer == pytest.approx([explorer[1], explorer[40]], rel=1e-6)
    one, seven = obs.expected_before
    assert seven < one and seven < obs._answer[1]  # smallest in between
    with pytest.raises(ValueError, match="ks"):
        kx.predict_regression_k(x, y, ks=(1, 7, 1000))


def test_predict_projection_spread_follows_one_over_sqrt_2d():
    from genviz.datasets import optical_digits

    X = optical_digits()[0][:300]
    # closed form: the ratio is about sqrt(chi2_d / d), of standard deviation ~ 1 / sqrt(2 d)
    assert (1 / np.sqrt(2 * 4)) / (1 / np.sqrt(2 * 16)) == pytest.approx(2.0)
    p = kx.predict_projection_spread(X, d=4)
    assert p.check("4").correct and not p.check("2").correct
    # the observation: the std at d = 4 and at d = 16, recomputed from the explorer's ratios
    from genviz.projections import projection_ratios
    study = projection_ratios(X, 64, 0)
    obs = p.observation
    assert obs.before == {"d": 4} and obs.setting == {"d": 16} and obs.compare == "ratio"
    assert obs.expected_before == pytest.approx(np.std(study.ratios[3]), rel=1e-6)
    assert obs._answer == pytest.approx(np.std(study.ratios[15]), rel=1e-6)
    assert obs._answer / obs.expected_before == pytest.approx(0.5, abs=0.05)
    with pytest.raises(ValueError, match="d"):
        kx.predict_projection_spread(X, d=0)


def test_k_equals_m_against_scikit_learn(blobs):
    X, y, Xt, _ = blobs
    sk = KNeighborsClassifier(len(X)).fit(X, y).predict(Xt[:50])
    assert len(set(sk)) == 1
    c = kx.k_equals_m(X, y)
    assert c.kind == "concept"
    assert c.check("The majority class, everywhere.").correct
    assert not c.check("The label of the query's nearest point.").correct
    with pytest.raises(ValueError, match="X"):
        kx.k_equals_m(X[:, 0], y)


