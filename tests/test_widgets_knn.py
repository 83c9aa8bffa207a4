"""k-NN explorers: sweeps of every control, readouts, invalid settings shown as messages."""

import re

import pytest

from genviz import datasets
from genviz.widgets.knn import knn_classification_explorer, knn_regression_explorer, \
    projection_explorer
from explorer_testing import sweep_explorer


def test_classification_explorer_sweep_and_readout():
    e = knn_classification_explorer(k_max=15)
    assert set(e.controls) == {"k", "noise", "qx", "qy"}
    assert sweep_explorer(e, n=3) == 12
    e.controls["noise"].value = 0.3
    e.controls["k"].value = 15
    s = e.view.state
    text = re.sub(r"<[^>]+>", "\n", e.readout.value)
    assert "k = 15, flipped labels: 60" in text and s["n_flipped"] == 60
    acc1 = float(re.search(r"1-NN: (\d\.\d+)", text).group(1))
    acck = float(re.search(r"k-NN: (\d\.\d+)", text).group(1))
    assert acc1 == pytest.approx(s["test_accuracy_1nn"], abs=5e-4)
    assert acck == pytest.approx(s["test_accuracy"], abs=5e-4)
    assert s["test_accuracy"] > s["test_accuracy_1nn"]
    e.close()


def test_regression_explorer_sweep_and_readout():
    e = knn_regression_explorer()
    assert sweep_explorer(e, n=6) == 6
    e.controls["k"].value = 7
    mse = [float(m) for m in re.findall(r"NN: (\d\.\d+)", e.readout.value)]
    assert mse == pytest.approx([e.view.state["mse_1"], e.view.state["mse_k"]], abs=5e-5)
    e.close()


def test_projection_explorer_sweep_and_readout():
    X, _ = datasets.optical_digits()
    e = projection_explorer(X[:120], d=8, eps=0.3)
    assert e.controls["d"].max == 64
    assert sweep_explorer(e, n=5) == 10
    e.controls["d"].value = 32
    s = e.view.state
    assert f"d &ge; {s['jl_dim']}" in e.readout.value
    assert abs(s["stats"]["mean"] - 1) < 0.05
    e.close()


def test_invalid_setting_shows_a_message_not_an_exception():
    e = knn_classification_explorer(k_max=10)
    e.view.study.k_max = 5  # a slider allowing more than the view supports
    e.controls["k"].value = 8
    assert "exceeds k_max" in e.error and "exceeds k_max" in e.view.message
    e.controls["k"].value = 3
    assert e.error is None
    e.close()
