import os

import matplotlib

matplotlib.use("Agg")
# Explorers made in tests never build precomputed states behind the test's back, nor write to
# the user's cache (tests of genviz.widgets.states set their own mode and directories).
os.environ["GENVIZ_STATES"] = "off"

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")
