import os

import matplotlib

matplotlib.use("Agg")
# Explorers made in tests never build precomputed states behind the test's back, nor write to
# the user's cache (tests of genviz.widgets.states set their own mode and directories).
os.environ["GENVIZ_STATES"] = "off"
# the learner's predictions are kept beside the notebook (genviz.widgets.prediction_log): not
# by the tests (nor by the notebooks nbval runs, whose kernels inherit this)
os.environ["GENVIZ_PREDICTION_LOG"] = "off"

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def fresh_prediction_records(monkeypatch):
    """A fresh kernel's prediction records (genviz.widgets.predictions), and no stage sent."""
    from genviz.widgets import predictions

    predictions.clear_prediction_records()
    monkeypatch.setattr(predictions, "report_stage", lambda *args: None)
    yield
    predictions.clear_prediction_records()
