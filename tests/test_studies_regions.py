"""genviz.studies.regions against scikit-learn's classifiers and accuracy on the same grid;
bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import accuracy_score
from sklearn.neighbors import KNeighborsClassifier

from genviz.gda import GDA
from genviz.knn import KNNClassifier
from genviz.studies.regions import decision_regions_figure_study
from genviz.synthetic import two_class_data


def test_regions_and_accuracies_against_sklearn():
    X, y = two_class_data(80, rng=0)
    T, yt = two_class_data(200, rng=1)
    models = {"3-NN": KNNClassifier(3).fit(X, y), "GDA": GDA().fit(X, y)}
    r = decision_regions_figure_study(models, X, y, T, yt, n_grid=25)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.08 * (hi - lo)
    np.testing.assert_allclose(r.extent, (lo[0] - pad[0], hi[0] + pad[0], lo[1] - pad[1],
                                          hi[1] + pad[1]))
    w, h = r.extent[1] - r.extent[0], r.extent[3] - r.extent[2]
    assert r.aspect == ("equal" if max(w, h) < 2 * min(w, h) else "auto")
    np.testing.assert_array_equal(r.classes, [0, 1])
    for pts, c in zip(r.class_points, r.classes):
        np.testing.assert_array_equal(pts, X[y == c])
    xs = np.linspace(r.extent[0], r.extent[1], 25)
    ys = np.linspace(r.extent[2], r.extent[3], 25)
    G = np.column_stack([np.tile(xs, 25), np.repeat(ys, 25)])
    sk = KNeighborsClassifier(3, algorithm="brute").fit(X, y)
    knn = r.panels[0]
    assert knn.name == "3-NN" and r.which == "test"
    np.testing.assert_array_equal(knn.codes, sk.predict(G).reshape(25, 25))
    assert knn.accuracy == pytest.approx(accuracy_score(yt, sk.predict(T)))
    assert r.accuracies == {"3-NN": knn.accuracy, "GDA": r.panels[1].accuracy}
    train = decision_regions_figure_study({"3-NN": models["3-NN"]}, X, y, lim=2.0, n_grid=5)
    assert train.which == "training" and train.extent == (-2.0, 2.0, -2.0, 2.0)
    assert train.accuracies["3-NN"] == pytest.approx(sk.score(X, y))
    labels = np.where(y == 1, "b", "a")
    named = decision_regions_figure_study({"1-NN": KNNClassifier(1).fit(X, labels)}, X, labels,
                                          n_grid=5, aspect="auto")
    assert named.classes.tolist() == ["a", "b"] and named.aspect == "auto"
    assert set(np.unique(named.panels[0].codes)) <= {0, 1}


@pytest.mark.parametrize("kwargs, word", [(dict(models={}), "models is empty"),
                                          (dict(X_test=np.zeros((3, 2))), "both X_test and y_test"),
                                          (dict(aspect="square"), "aspect"),
                                          (dict(n_grid=2), "n_grid"),
                                          (dict(lim=-1.0), "lim")])
def test_bad_input(kwargs, word):
    X, y = two_class_data(20, rng=0)
    args = {"models": {"1-NN": KNNClassifier(1).fit(X, y)}, "X": X, "y": y, **kwargs}
    with pytest.raises(ValueError, match=word):
        decision_regions_figure_study(**args)
