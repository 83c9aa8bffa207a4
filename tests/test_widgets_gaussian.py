"""gaussian_explorer: the sweep, the readout's numbers, and the error path of Explorer."""

import re

import ipywidgets as widgets
import numpy as np
import pytest

from genviz.plots._base import View, new_figure
from genviz.widgets import Explorer, gaussian_explorer
from explorer_testing import sweep_explorer


def test_sweep_every_control_over_its_range():
    e = gaussian_explorer()
    assert set(e.controls) == {"mu1", "mu2", "sigma1", "sigma2", "rho"}
    made = sweep_explorer(e, n=5)
    assert made == 25 and e.n_updates >= 25
    # Extremes at once: the most correlated, smallest Gaussian still draws.
    e.controls["sigma1"].value = e.controls["sigma1"].min
    e.controls["sigma2"].value = e.controls["sigma2"].min
    e.controls["rho"].value = e.controls["rho"].max
    assert e.error is None and np.isfinite(e.view.state["peak"])


def numbers(html):
    """The decimal numbers a reader sees in the readout (markup removed)."""
    text = re.sub(r"<[^>]+>", " ", html)
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def test_readout_shows_the_right_numbers():
    e = gaussian_explorer(sigma1=2.0, sigma2=0.5, rho=0.5)
    cov = np.array([[4.0, 0.5], [0.5, 0.25]])
    vals = numbers(e.readout.value)
    lam = np.linalg.eigvalsh(cov)[::-1]
    # Sigma (4 entries), |Sigma|, lambda1, lambda2, angle, peak, sample mean (2), sample cov (4)
    np.testing.assert_allclose(vals[:4], cov.ravel(), atol=5e-4)
    assert vals[4] == pytest.approx(np.linalg.det(cov), abs=5e-5)
    np.testing.assert_allclose(vals[5:7], lam, atol=5e-5)
    assert vals[8] == pytest.approx(1 / (2 * np.pi * np.sqrt(np.linalg.det(cov))), abs=5e-5)
    e.controls["rho"].value = -0.5
    assert numbers(e.readout.value)[1] == pytest.approx(-0.5, abs=5e-4)


def test_without_ipympl_the_figure_is_an_image_widget():
    e = gaussian_explorer(surface=False)
    assert isinstance(e.canvas, widgets.Image)
    first = e.canvas.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    e.controls["mu1"].value = 1.0
    assert e.canvas.value != first


def test_image_path_blits_and_matches_a_full_render():
    import io

    from PIL import Image

    e = gaussian_explorer()
    e.controls["rho"].value = 0.3  # background cached by the first draw: this one blits
    e.controls["mu1"].value = 0.7
    assert e.view.last_redraw == "blit"
    shown = np.asarray(Image.open(io.BytesIO(e.canvas.value)))
    e.view.fig.canvas.draw()
    full = np.asarray(e.view.fig.canvas.buffer_rgba())
    np.testing.assert_array_equal(shown, full)


class _Fragile(View):
    def __init__(self):
        super().__init__(new_figure())
        self.ax = self.fig.add_subplot()

    def update(self, a):
        if a < 0:
            raise ValueError("a must be >= 0")
        self.state = {"a": a}


def test_invalid_values_show_a_message_instead_of_raising():
    e = Explorer(_Fragile(), {"a": widgets.FloatSlider(value=1.0, min=-1.0, max=1.0)},
                 lambda s: f"a = {s['a']}")
    e.controls["a"].value = -1.0  # must not raise
    assert e.error == "a must be >= 0"
    assert "a must be >= 0" in e.view.message
    assert "Invalid setting" in e.readout.value
    e.controls["a"].value = 0.5
    assert e.error is None and e.view.message == "" and e.readout.value == "a = 0.5"


def test_live_canvas_gets_a_full_frame_when_the_browser_view_is_ready(monkeypatch):
    """With ipympl, a browser view's 'initialized' message makes the explorer draw the whole
    figure and ship the frame at once, and every blit ships a whole frame too (a dropped frame
    heals on the next update)."""
    import matplotlib.pyplot as plt

    pytest.importorskip("ipympl")
    plt.switch_backend("module://ipympl.backend_nbagg")
    try:
        e = gaussian_explorer(surface=False)
        canvas = e.view.fig.canvas
        assert e._live
        canvas.draw()  # the browser's first draw request
        events, frames = [], []
        monkeypatch.setattr(canvas, "send_event", lambda kind, **kw: events.append(kind))
        monkeypatch.setattr(canvas, "send_binary", frames.append)
        canvas._handle_custom_msg({"type": "initialized"}, [])  # as a browser message arrives
        assert canvas.syncing_data_url is False
        assert e.view.last_redraw == "full" and "draw" not in events  # no round trip
        assert len(frames) == 1 and canvas._current_image_mode == "full"
        e.controls["rho"].value = 0.3
        assert e.view.last_redraw == "blit"
        assert len(frames) == 2 and canvas._current_image_mode == "full"
        e.close()
    finally:
        plt.switch_backend("Agg")


def test_house_style_sliders():
    from genviz.widgets._base import float_slider, int_slider

    s = int_slider("n", 20, 10, 100, 10, continuous_update=False)
    f = float_slider("h", 0.5, 0.1, 1.0, 0.1)
    assert isinstance(s, widgets.IntSlider) and (s.value, s.min, s.max, s.step) == (20, 10, 100, 10)
    assert not s.continuous_update and f.continuous_update
    assert s.style.description_width == f.style.description_width == "70px"
    assert s.layout.width == f.layout.width == "330px"
