"""Naive Bayes explorers: sweeps, readouts with the worked numbers, invalid settings."""

import re

import numpy as np
import pytest

from genviz import datasets
from genviz.widgets.naive_bayes import (categorical_nb_explorer, discretize_explorer,
                                        kde_nb_explorer, nb_vs_gda_explorer)
from explorer_testing import sweep_explorer


def text(html):
    return re.sub(r"<[^>]+>", " ", html)


def test_categorical_explorer_sweep():
    t = datasets.enjoy_sport()  # 6 attributes (PlayTennis's explorer: the readout tests below)
    e = categorical_nb_explorer(t.X, t.y, t.feature_names)
    assert set(e.controls) == {"alpha", *t.feature_names}
    assert sweep_explorer(e, n=3) == 3 + sum(len(set(t.X[:, j])) for j in range(t.X.shape[1]))


def test_categorical_readout_shows_mitchells_numbers():
    t = datasets.play_tennis()
    e = categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0,
                                query=["Sunny", "Cool", "High", "Strong"])
    s = text(e.readout.value)
    for piece in ["5/14 = 0.357", "3/5 = 0.600", "2/9 = 0.222", "0.02057", "0.005291",
                  "0.7954", "decision:  No "]:
        assert piece in s, piece
    e.controls["alpha"].value = 1.0
    assert "(3+1)/<wbr>(5+1&middot;3) = 0.500" in e.readout.value


def test_categorical_explorer_zero_over_zero_in_the_readout():
    t = datasets.enjoy_sport()
    e = categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0)
    e.controls["Temp"].value = "cold"   # query sunny + cold: zero in both classes
    assert e.error is None and "0/0" in e.readout.value


def test_categorical_explorer_refuses_bad_feature_names():
    t = datasets.enjoy_sport()
    with pytest.raises(ValueError, match="identifiers"):
        categorical_nb_explorer(t.X, t.y, ["Sky", "air temp", "a", "b", "c", "d"])


def test_discretize_explorer_sweep_and_alpha_zero():
    p = datasets.penguins()
    e = discretize_explorer(p.X[:, 2], p.y, width=10.0, xlabel="flipper length (mm)")
    assert sweep_explorer(e, n=5) == 15
    assert e.controls["alpha"].min == 0.1  # alpha = 0 leaves empty bins 0/0 ...
    with pytest.raises(ValueError, match="raise alpha"):  # ... which the view refuses clearly
        e.view.update(alpha=0.0, width=2.0)
    e.controls["width"].value = e.controls["width"].min
    e.controls["alpha"].value = e.controls["alpha"].min
    assert e.error is None and e.view.message == ""


def test_nb_vs_gda_explorer_sweep():
    e = nb_vs_gda_explorer()
    assert sweep_explorer(e, n=5) == 5
    e.controls["rho"].value = 0.9
    vals = [float(v) for v in re.findall(r"\d\.\d{3}", text(e.readout.value))]
    assert vals[-1] > vals[-2]  # GDA beats naive Bayes on correlated data


def test_kde_nb_explorer_sweep():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.normal(0, 1, 60), rng.normal(-3, 0.6, 30), rng.normal(3, 0.6, 30)])
    y = np.repeat([0, 1], 60)
    e = kde_nb_explorer(x, y, bandwidth=0.3)
    assert sweep_explorer(e, n=5) == 5
    assert e.controls["bandwidth"].value == pytest.approx(0.3)
