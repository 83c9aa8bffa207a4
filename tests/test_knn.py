"""genviz.knn against scikit-learn (brute force), brute-force oracles and the JL lemma."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.random_projection import johnson_lindenstrauss_min_dim
from threadpoolctl import threadpool_limits

from genviz import datasets
from genviz._validation import NotFittedError
from genviz.knn import (
    KNNClassifier, KNNRegressor, SortedNeighbors, kneighbors, pairwise_distances, vote_counts,
)
from genviz.projections import (
    distance_ratios, distortion_stats, jl_min_dim, projection_benchmark, random_projection,
)
from genviz.synthetic import flip_labels


@pytest.fixture(autouse=True)
def _one_thread():
    """scikit-learn's OpenMP pool costs ~0.2 s per call on a busy 2-core machine; one thread."""
    with threadpool_limits(1):
        yield


def test_euclidean_distances_match_scipy_including_chunks(monkeypatch):
    rng = np.random.default_rng(0)
    X, Q = rng.normal(size=(70, 5)), rng.normal(size=(33, 5))
    np.testing.assert_allclose(pairwise_distances(Q, X), cdist(Q, X), atol=1e-10)
    import genviz.knn as knn
    monkeypatch.setattr(knn, "_CHUNK_BYTES", 8 * 70 * 4)  # 4 queries per chunk
    np.testing.assert_allclose(pairwise_distances(Q, X), cdist(Q, X), atol=1e-10)
    d, i = kneighbors(Q, X, 6)
    np.testing.assert_array_equal(i, np.argsort(cdist(Q, X), axis=1)[:, :6])


def test_custom_metric_is_called_as_metric_train_query():
    calls = []

    def asym(a, b):  # the notes: a distance need not be symmetric
        calls.append((a[0], b[0]))
        return float(max(b[0] - a[0], 0.0) + 2 * max(a[0] - b[0], 0.0))

    X = np.array([[0.0], [3.0]])
    D = pairwise_distances([[1.0]], X, metric=asym)
    np.testing.assert_allclose(D, [[1.0, 4.0]])
    assert calls == [(0.0, 1.0), (3.0, 1.0)]
    manhattan = lambda a, b: float(np.abs(a - b).sum())
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(20, 3)), rng.normal(size=(4, 3))
    np.testing.assert_allclose(pairwise_distances(B, A, metric=manhattan), cdist(B, A, "cityblock"))
    clf = KNNClassifier(3, metric=manhattan).fit(A, np.arange(20) % 2)
    sk = KNeighborsClassifier(3, algorithm="brute", metric="manhattan").fit(A, np.arange(20) % 2)
    np.testing.assert_array_equal(clf.predict(B), sk.predict(B))


@pytest.mark.parametrize("seed", range(5))
def test_continuous_data_agrees_with_sklearn_exactly(seed):
    rng = np.random.default_rng(seed)
    X, Q = rng.normal(size=(120, 4)), rng.normal(size=(60, 4))
    y = rng.integers(0, 3, size=120)
    for k in (1, 2, 5, 8, 120):
        ours = KNNClassifier(k).fit(X, y)
        sk = KNeighborsClassifier(k, algorithm="brute").fit(X, y)
        d, i = ours.kneighbors(Q)
        sd, si = sk.kneighbors(Q)
        np.testing.assert_array_equal(i, si)
        np.testing.assert_allclose(d, sd, atol=1e-10)
        np.testing.assert_array_equal(ours.predict(Q), sk.predict(Q))
        np.testing.assert_allclose(ours.predict_proba(Q), sk.predict_proba(Q))
        r = rng.normal(size=120)
        np.testing.assert_allclose(KNNRegressor(k).fit(X, r).predict(Q),
                                   KNeighborsRegressor(k, algorithm="brute").fit(X, r).predict(Q))


def test_tie_heavy_integer_data_follows_the_documented_rules():
    """Lower index first for equal distances (brute-force oracle); equal votes -> smallest label.

    scikit-learn agrees exactly wherever the k-th and (k+1)-th distances differ (its heap-based
    brute force has no documented rule otherwise), and always on the k smallest distances.
    """
    rng = np.random.default_rng(0)
    n_checked = n_vote_ties = 0
    for _ in range(60):
        n, d = int(rng.integers(5, 50)), int(rng.integers(1, 4))
        X = rng.integers(0, 3, size=(n, d)).astype(float)
        y = rng.integers(0, 3, size=n) * 10 + 5  # labels 5, 15, 25
        Q = rng.integers(0, 3, size=(25, d)).astype(float)
        k = int(rng.integers(1, n + 1))
        ours = KNNClassifier(k).fit(X, y)
        sk = KNeighborsClassifier(k, algorithm="brute").fit(X, y)
        dist, ind = ours.kneighbors(Q)
        D = cdist(Q, X)
        for j in range(0, len(Q), 3):  # the oracle: Python's sort on (distance, index)
            assert list(ind[j]) == sorted(range(n), key=lambda i: (D[j, i], i))[:k]
        np.testing.assert_allclose(dist, np.sort(sk.kneighbors(Q)[0], axis=1), atol=1e-12)
        counts = ours.vote_counts(Q)
        pred = ours.predict(Q)
        for j in range(len(Q)):  # majority, smallest label among equal votes
            best = counts[j].max()
            assert pred[j] == ours.classes_[np.flatnonzero(counts[j] == best)[0]]
            n_vote_ties += int((counts[j] == best).sum() > 1)
        Ds = np.sort(D, axis=1)
        clean = (k == n) | (Ds[:, k - 1] < Ds[:, min(k, n - 1)])
        np.testing.assert_array_equal(pred[clean], sk.predict(Q)[clean])
        np.testing.assert_allclose(ours.predict_proba(Q)[clean], sk.predict_proba(Q)[clean])
        n_checked += int(clean.sum())
    assert n_checked > 100 and n_vote_ties > 25  # the comparison really exercised ties


def test_vote_tie_goes_to_the_smallest_label_like_sklearn():
    X, y, q = [[0.0], [1.0], [3.0], [6.0]], [2, 0, 1, 1], [[0.4]]
    assert KNNClassifier(2).fit(X, y).predict(q)[0] == 0
    assert KNeighborsClassifier(2, algorithm="brute").fit(X, y).predict(q)[0] == 0


def test_probabilities_are_vote_fractions_in_log_space():
    clf = KNNClassifier(4).fit([[0.0], [1.0], [2.0], [9.0], [10.0]], ["a", "a", "b", "c", "c"])
    P = clf.predict_proba([[0.0], [10.0]])
    np.testing.assert_allclose(P, [[0.5, 0.25, 0.25], [0.0, 0.25, 0.5]][:1] + [[0.25, 0.25, 0.5]])
    L = clf.predict_log_proba([[10.0]])
    assert L[0, 0] == np.log(0.25) and np.isclose(np.exp(L).sum(), 1.0)
    clf2 = KNNClassifier(1).fit([[0.0], [5.0]], [0, 1])
    assert clf2.predict_log_proba([[0.0]])[0, 1] == -np.inf


def test_sorted_neighbors_reuses_one_sort_for_every_k_and_labelling():
    rng = np.random.default_rng(3)
    X, G = rng.normal(size=(40, 2)), rng.normal(size=(300, 2))
    y = rng.integers(0, 2, size=40)
    nb = SortedNeighbors(G, X, k_max=15)
    for k in (1, 6, 15):
        yn, _ = flip_labels(y, 0.2, 2, rng=7)
        np.testing.assert_array_equal(nb.counts(yn, 2, k), KNNClassifier(k).fit(X, yn).vote_counts(G))
        r = rng.normal(size=40)
        np.testing.assert_allclose(nb.mean(r, k), KNNRegressor(k).fit(X, r).predict(G))
    with pytest.raises(ValueError, match="k = 16 exceeds"):
        nb.counts(y, 2, 16)


def test_vote_counts_by_hand():
    np.testing.assert_array_equal(vote_counts([[2, 0, 2, 1]], 3), [[1, 1, 2]])
    np.testing.assert_array_equal(vote_counts([[2, 0, 2, 1]], 3, k=2), [[1, 0, 1]])
    with pytest.raises(ValueError, match="codes 0..1"):
        vote_counts([[0, 2]], 2)
    with pytest.raises(ValueError, match="neighbor_labels must be a 2-D integer array"):
        vote_counts([0.5, 1.0], 2)


def test_flip_labels_flips_the_stated_fraction_and_nests():
    y = np.repeat([0, 1, 2], 50)
    y1, f1 = flip_labels(y, 0.1, 3, rng=5)
    y2, f2 = flip_labels(y, 0.3, 3, rng=5)
    assert f1.sum() == 15 and f2.sum() == 45 and np.all(f2[f1])
    assert np.all((y1 != y) == f1) and np.all((y2 != y) == f2)
    np.testing.assert_array_equal(y2[f1], y1[f1])
    assert np.array_equal(flip_labels(y, 0.0, 3, rng=5)[0], y)
    with pytest.raises(ValueError, match="fraction must be <= 1"):
        flip_labels(y, 1.5, 3, rng=0)


def test_noisy_labels_break_1nn_and_larger_k_recovers():
    """The notes' point (Fig. 1.18): label noise hurts 1-NN, a majority of k repairs it."""
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(-1.2, 1, size=(300, 2)), rng.normal(1.2, 1, size=(300, 2))]
    y = np.repeat([0, 1], 300)
    T = np.r_[rng.normal(-1.2, 1, size=(500, 2)), rng.normal(1.2, 1, size=(500, 2))]
    yt = np.repeat([0, 1], 500)
    yn, _ = flip_labels(y, 0.2, 2, rng=1)
    acc1 = np.mean(KNNClassifier(1).fit(X, yn).predict(T) == yt)
    acc15 = np.mean(KNNClassifier(15).fit(X, yn).predict(T) == yt)
    assert acc1 < 0.8 < 0.9 < acc15


def test_random_projection_scalings_and_nesting():
    R = random_projection(5, 1000, rng=0)  # the notes: N(0, 1/n)
    assert R.shape == (5, 1000) and abs(R.var() - 1 / 1000) < 0.1 / 1000
    Rj = random_projection(5, 1000, rng=0, scaling="jl")
    np.testing.assert_allclose(Rj, R * np.sqrt(1000 / 5))
    np.testing.assert_allclose(random_projection(3, 1000, rng=0, scaling="notes"), R[:3])
    big = random_projection(400, 50, rng=np.random.default_rng(2), scaling="jl")
    assert abs(big.var() - 1 / 400) < 0.1 / 400


def test_jl_bound_matches_dasgupta_gupta_and_sklearn():
    for m, eps in [(10, 0.5), (1000, 0.1), (1797, 0.3), (2, 0.99)]:
        exact = 4 * np.log(m) / (eps**2 / 2 - eps**3 / 3)
        assert jl_min_dim(m, eps) == int(np.ceil(exact))
        assert jl_min_dim(m, eps) - int(johnson_lindenstrauss_min_dim(m, eps=eps)) in (0, 1)


def test_projected_distances_concentrate_around_one_within_the_jl_bound():
    rng = np.random.default_rng(42)
    m, n, eps = 60, 3000, 0.5
    X = rng.normal(size=(m, n)) * rng.uniform(0.5, 2, size=n)
    d = jl_min_dim(m, eps)
    R = random_projection(d, n, rng=np.random.default_rng(7), scaling="jl")
    r = distance_ratios(X, X @ R.T)
    assert r.size == m * (m - 1) // 2
    np.testing.assert_allclose(r, pdist(X @ R.T) / pdist(X))
    s = distortion_stats(r, eps=eps)
    assert s["within_sq"] == 1.0 and s["within"] == 1.0  # every pair, as the lemma promises
    assert abs(s["mean"] - 1) < 0.02 and s["std"] < 0.1
    # concentration: the spread shrinks like 1/sqrt(d)
    spreads = [distortion_stats(distance_ratios(X, X @ random_projection(
        dd, n, rng=3, scaling="jl").T))["std"] for dd in (10, 40, 160)]
    assert spreads[0] > 1.7 * spreads[1] > 1.7 * 1.7 * spreads[2]
    # the notes' N(0, 1/n) scaling shrinks every distance by about sqrt(d/n)
    rn = distance_ratios(X, X @ random_projection(d, n, rng=7).T)
    np.testing.assert_allclose(rn, r * np.sqrt(d / n))


def test_projection_keeps_knn_accuracy_on_digits():
    X, y = datasets.optical_digits()
    assert X.shape == (1797, 64) and np.bincount(y).min() >= 170
    res = projection_benchmark(X[:1400], y[:1400], X[1400:], y[1400:], [8, 32], k=3, rng=0,
                               repeats=1)
    assert res["dims"] == [64, 8, 32]
    acc = res["accuracy"]
    sk = KNeighborsClassifier(3, algorithm="brute").fit(X[:1400], y[:1400]).score(X[1400:], y[1400:])
    assert acc[0] == pytest.approx(sk, abs=0.003)  # equal up to tie handling
    assert acc[0] > 0.95 and acc[2] > 0.9 and acc[1] < acc[2]


def test_optical_digits_provenance():
    rec = datasets.provenance("optical_digits.csv.gz")
    assert "CC BY 4.0" in rec["license"] and rec["script"] == "scripts/build_optical_digits.py"
    from sklearn.datasets import load_digits
    X, y = datasets.optical_digits()
    ref = load_digits()
    np.testing.assert_array_equal(X, ref.data)
    np.testing.assert_array_equal(y, ref.target)


# -- bad input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("make, exc, match", [
    (lambda: KNNClassifier(0).fit([[0.0], [1.0]], [0, 1]), ValueError, "k must be >= 1, got 0"),
    (lambda: KNNClassifier(-2).fit([[0.0], [1.0]], [0, 1]), ValueError, "k must be >= 1"),
    (lambda: KNNClassifier(3).fit([[0.0], [1.0]], [0, 1]), ValueError, "k = 3 exceeds the number"),
    (lambda: KNNRegressor(3).fit([[0.0], [1.0]], [0, 1]), ValueError, "k = 3 exceeds"),
    (lambda: KNNClassifier(1.5).fit([[0.0], [1.0]], [0, 1]), TypeError, "k must be an integer"),
    (lambda: KNNClassifier(1).fit([[0.0], [np.nan]], [0, 1]), ValueError, "X contains 1 NaN"),
    (lambda: KNNRegressor(1).fit([[0.0], [1.0]], [0, np.nan]), ValueError, "y contains 1 NaN"),
    (lambda: KNNClassifier(1).fit([[0.0], [1.0]], [0, 1, 1]), ValueError, "one label per row"),
    (lambda: KNNClassifier(1).fit([0.0, 1.0], [0, 1]), ValueError, "X must be 2-dimensional"),
    (lambda: KNNClassifier(1).fit([[0.0], [1.0]], [0, 1]).predict([[0.0, 1.0]]), ValueError,
     "X has 2 feature"),
    (lambda: KNNClassifier(1).fit([[0.0], [1.0]], [0, 1]).predict([[np.nan]]), ValueError,
     "X contains 1 NaN"),
    (lambda: KNNClassifier(1).predict([[0.0]]), NotFittedError, "not fitted yet"),
    (lambda: KNNRegressor(1).predict([[0.0]]), NotFittedError, "not fitted yet"),
    (lambda: KNNClassifier(1, metric="manhattan").fit([[0.0]], [0]), TypeError, "metric must be"),
    (lambda: pairwise_distances([[0.0]], [[1.0]], metric=lambda a, b: np.nan), ValueError,
     "metric returned NaN"),
    (lambda: kneighbors([[0.0, 0.0]], [[1.0]], 1), ValueError, "X_query has 2 feature"),
    (lambda: kneighbors([[0.0]], [[1.0]], 2), ValueError, "k = 2 exceeds"),
    (lambda: random_projection(0, 10, rng=0), ValueError, "d must be >= 1, got 0"),
    (lambda: random_projection(-1, 10, rng=0), ValueError, "d must be >= 1"),
    (lambda: random_projection(2, 0, rng=0), ValueError, "n_features must be >= 1"),
    (lambda: random_projection(2, 3, rng=None), TypeError, "rng must be a numpy Generator"),
    (lambda: random_projection(2, 3, rng=0, scaling="unit"), ValueError, "scaling must be"),
    (lambda: jl_min_dim(10, 0.0), ValueError, "eps must be > 0"),
    (lambda: jl_min_dim(10, 1.0), ValueError, "eps must be < 1"),
    (lambda: jl_min_dim(0, 0.5), ValueError, "m must be >= 1"),
    (lambda: distance_ratios([[0.0], [1.0]], [[0.0]]), ValueError, "X_projected has 1 rows"),
    (lambda: distance_ratios([[0.0]], [[0.0]]), ValueError, "at least 2 points"),
    (lambda: distortion_stats([]), ValueError, "ratios is empty"),
    (lambda: flip_labels([0.5, 1.0], 0.1, 2, rng=0), ValueError, "y_codes must be a 1-D integer"),
])
def test_bad_input_gives_a_clear_error(make, exc, match):
    with pytest.raises(exc, match=match):
        make()
