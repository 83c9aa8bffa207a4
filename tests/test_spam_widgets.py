"""Explorers of the spam filter: sweeps, readouts, and the Text control sweep rule."""

import re

import numpy as np
import pytest

from genviz.widgets._controls import TextArea
from explorer_testing import control_values, sweep_explorer
from spam_testing import fitted_models, spam_split
from genviz.widgets.spam import email_explorer, threshold_explorer


@pytest.fixture(scope="module")
def data():
    d = spam_split(every=4, rng=2)
    return dict(d, models=fitted_models(d["X_train"], d["y_train"]))


def _numbers(html):
    return [float(x) for x in re.findall(r"-?\d+\.\d+", re.sub(r"<[^>]+>", " ", html))]


def test_threshold_explorer_sweep_and_readout(data):
    e = threshold_explorer(data["X_train"], data["y_train"], data["X_test"], data["y_test"])
    assert set(e.controls) == {"log10_c", "alpha", "model"}
    assert e.controls["alpha"].continuous_update is False
    assert e.controls["log10_c"].continuous_update is True
    made = sweep_explorer(e, n=5)
    assert made == 5 + 5 + 2
    e.controls["log10_c"].value = 2.0
    st = e.view.state
    pt = st["points"]["multinomial"]
    vals = _numbers(e.readout.value)
    # c, log c, alpha, then per model: precision, recall, FPR, AUC
    assert f"{pt['precision']:.3f}" in e.readout.value and f"{pt['fpr']:.4f}" in e.readout.value
    assert vals[1] == pytest.approx(2.0 * np.log(10), abs=5e-3)
    assert st["log_c"] == pytest.approx(2.0 * np.log(10), rel=1e-12)  # from the study, not typed
    # one column per model (the shown one in bold), one row per measure
    assert f"<th>ham flagged</th><td><b>{pt['fp']}</b></td>" in e.readout.value
    assert f"<th>spam missed</th><td><b>{pt['fn']}</b></td>" in e.readout.value
    e.close()


def test_email_explorer_sweep_and_readout(data):
    e = email_explorer(data["models"], data["vocab"], text="Click here for cheap meds, friend")
    assert set(e.controls) == {"text", "model", "log10_c"}
    assert isinstance(e.controls["text"], TextArea)
    sweep_explorer(e, n=3)
    e.controls["text"].value = "win money now, meeting later, neurips"
    st = e.view.state
    assert f"{st['log_odds']:+.2f}" in e.readout.value
    assert "neurips" in e.readout.value
    assert st["verdict"].upper() in e.readout.value
    e.controls["log10_c"].value = 3.0
    assert f"(threshold log c = {3 * np.log(10):.2f})" in e.readout.value  # 6.91
    e.controls["text"].value = "zzqx don't"
    assert "don&#x27;t" in e.readout.value or "don't" in e.view.state["words"]
    e.close()


def test_control_values_for_text_controls():
    assert control_values(TextArea("t", "hi")) == ["hi", "", "zzqx 12345 !!!", "hi"]
    assert control_values(TextArea("t", "")) == ["", "", "zzqx 12345 !!!", ""]
