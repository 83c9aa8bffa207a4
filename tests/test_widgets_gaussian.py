"""gaussian_explorer: the sweep, the readout's numbers, and the error path of Explorer."""

import re

import numpy as np
import pytest

from genviz.plots._base import View, new_figure
from genviz.widgets import Explorer, gaussian_explorer
from genviz.widgets._base import float_slider
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


def test_no_frame_is_recorded_until_the_explorer_is_displayed(monkeypatch):
    """Tests, nbval and scripts pay nothing for the browser: an explorer records its figure
    only once displayed (its bundle is asked for, or a browser view says it is ready)."""
    e = gaussian_explorer(surface=False)
    recorded = []
    real = e.view.record_frame
    monkeypatch.setattr(e.view, "record_frame", lambda: recorded.append(1) or real())
    e.controls["mu1"].value = 1.0
    assert recorded == [] and e.frame == b""
    e._repr_mimebundle_()
    assert len(recorded) == 1 and e.frame and e.background[:8] == b"\x89PNG\r\n\x1a\n"
    e.controls["mu1"].value = 0.5  # from Python: a new frame for the browser at once
    assert len(recorded) == 2 and "ρ = 0" in e.alt and "μ = (0.5, 0)" in e.alt
    assert e.values_front["mu1"] == e.controls["mu1"].position(0.5)
    e.close()


def test_kernel_path_sends_the_frame_and_the_background_only_when_it_changed():
    from genviz.plots._ops import decode

    e = gaussian_explorer()  # the 3-D surface: its z-limit follows the peak
    e._repr_mimebundle_()
    background = e.background
    e._on_front_message(e, {"type": "update", "view": "v1", "seq": 3,
                            "values": {"mu1": e.controls["mu1"].position(0.7)},
                            "frame": True}, [])
    assert e.controls["mu1"].value == pytest.approx(0.7) and e.ack == "v1:3"
    assert e.background is background  # moving the mean leaves the z-axis alone
    frame = decode(e.frame)
    assert frame["meta"]["w"] == e.spec["width"] and len(frame["i32"])
    e._on_front_message(e, {"type": "update", "view": "v1", "seq": 4,
                            "values": {"sigma1": 0, "sigma2": 0}, "frame": True}, [])
    assert e.view.state["peak"] > 0.3 and e.background != background  # a taller z-axis
    assert e.ack == "v1:4" and e.stale is False
    e.close()


def test_a_gridded_release_updates_the_kernel_without_a_frame():
    """The browser drew a precomputed state: the kernel hears the value and updates the view
    (so values(), view.state and the exercises stay right) but records nothing."""
    e = gaussian_explorer(surface=False)
    e._repr_mimebundle_()
    frame = e.frame
    k = e.controls["rho"].position(0.5)
    e._on_front_message(e, {"type": "update", "view": "v", "seq": 9, "values": {"rho": k},
                            "frame": False}, [])
    assert e.values()["rho"] == pytest.approx(0.5) and e.view.state["cov"][0, 1] == pytest.approx(0.5)
    assert e.frame is frame and e.stale is True and "0.5000" in e.readout.value
    e._on_front_message(e, {"type": "ready", "view": "w"}, [])  # a new view: brought up to date
    assert e.frame != frame and e.stale is False
    e.close()


def test_bad_front_end_values_are_refused_without_changing_anything():
    e = gaussian_explorer(surface=False)
    with pytest.raises(ValueError, match="ρ: position 999 outside 0..38"):
        e._on_front_message(e, {"type": "update", "values": {"rho": 999}}, [])
    assert e.values()["rho"] == 0.0
    e._on_front_message(e, {"type": "nonsense"}, [])
    e._on_front_message(e, ["not", "a", "dict"], [])
    e.close()


class _Fragile(View):
    def __init__(self):
        super().__init__(new_figure())
        self.ax = self.fig.add_subplot()

    def update(self, a):
        if a < 0:
            raise ValueError("a must be >= 0")
        self.state = {"a": a}


def test_invalid_values_show_a_message_instead_of_raising():
    e = Explorer(_Fragile(), {"a": float_slider("a", 1.0, -1.0, 1.0, 0.5)},
                 lambda s: f"a = {s['a']}")
    e.controls["a"].value = -1.0  # must not raise
    assert e.error == "a must be >= 0"
    assert "a must be >= 0" in e.view.message
    assert "Invalid setting" in e.readout.value
    e.controls["a"].value = 0.5
    assert e.error is None and e.view.message == "" and e.readout.value == "a = 0.5"


def test_when_shown_runs_once_when_a_browser_is_ready(monkeypatch):
    monkeypatch.setenv("GENVIZ_STATES", "off")
    e = gaussian_explorer(surface=False)
    ran = []
    e.when_shown(lambda: ran.append(1))
    assert ran == []
    e._on_front_message(e, {"type": "ready", "view": "a"}, [])
    e._on_front_message(e, {"type": "ready", "view": "b"}, [])
    assert ran == [1] and e.frame and e.background
    e.close()


def test_house_style_controls():
    from genviz.widgets._base import dropdown, float_slider, int_slider, log_slider, text_area

    s = int_slider("n", 20, 10, 100, 10, continuous_update=False)
    f = float_slider("h", 0.5, 0.1, 1.0, 0.1, grid=True)
    g = log_slider("α", 1.0, -3, 1, 0.25)
    assert (s.value, s.min, s.max, s.step, s.n) == (20, 10, 100, 10, 9)
    assert not s.continuous_update and f.continuous_update and f.grid and not s.grid
    assert [f.value_at(k) for k in (0, 4, 9)] == pytest.approx([0.1, 0.5, 1.0])
    assert f.spec()["labels"][4] == "0.50" and s.spec()["labels"][-1] == "100"
    assert g.grid_values()[0] == pytest.approx(1e-3) and g.grid_values()[-1] == pytest.approx(10)
    assert g.position(1.0) == 12 and g.spec()["labels"][12] == "1"
    f.value = 7.0  # clamped into the range, as ipywidgets does
    assert f.value == 1.0
    d = dropdown("kernel", ["a", ("B", "b")], "b")
    assert d.to_front() == 1 and d.from_front(0) == "a" and d.spec()["options"] == ["a", "B"]
    with pytest.raises(ValueError, match="kernel: 'c' is not one of the options"):
        d.value = "c"
    with pytest.raises(TypeError, match="email: value must be a str"):
        text_area("email").value = 3
    with pytest.raises(ValueError, match="h: step must be > 0"):
        float_slider("h", 0.5, 0.1, 1.0, 0.0)
    with pytest.raises(ValueError, match="n: max"):
        int_slider("n", 5, 10, 1)
    with pytest.raises(TypeError, match="h: value must be a number"):
        f.value = "big"


def test_a_grid_builds_in_the_background_from_a_headless_copy(monkeypatch, tmp_path):
    """Once shown, an explorer without a stored grid builds one in a thread from a second,
    widget-less copy made by its factory (the bandwidth explorer's factory calls when_shown
    too), stores it in the cache and sends it; a failure becomes a one-line notice."""
    from genviz.widgets import states
    from genviz.widgets.kde import bandwidth_explorer

    monkeypatch.setenv("GENVIZ_STATES", "background")
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(tmp_path))
    monkeypatch.setenv("GENVIZ_STATES_PATH", str(tmp_path / "none"))
    monkeypatch.setattr(states, "_on_kernel_loop", lambda fn: fn())
    e = bandwidth_explorer(n=100)
    e.view.prefetch = lambda ns: None
    e._on_front_message(e, {"type": "ready", "view": "a"}, [])
    e._grid_thread.join(120)
    assert e.notice == "" and e.grid, e.notice
    header, _ = states.read_grid(e.grid)
    assert header["axes"] == [{"name": "n", "n": 6}, {"name": "h", "n": 116}]
    assert header["key"] == e.grid_key
    assert (tmp_path / f"{e.grid_key}.gvgrid").read_bytes() == e.grid
    e.close()
    f = gaussian_explorer(surface=False)
    f.grid_key = "k"
    monkeypatch.setattr(states, "grid_key", lambda x: "k")
    monkeypatch.setattr(states, "build_grid", lambda core, **kw: (_ for _ in ()).throw(
        RuntimeError("no memory")))
    f._on_front_message(f, {"type": "ready", "view": "a"}, [])
    f._grid_thread.join(60)
    assert f.grid == b"" and "Precomputed states unavailable (RuntimeError: no memory)" in f.notice
    f.close()


def test_a_live_kernels_grid_has_twice_the_sites_byte_budget(monkeypatch):
    """Lecture mode's larger figures make larger frames: 07's e-mail explorer's grid is 1.08 MB
    there (over the site's 1 MB). A background build (a live kernel: Lab, Voila) is allowed
    LIVE_MAX_BYTES; the site's build keeps MAX_BYTES."""
    from genviz.widgets import states

    seen = []
    monkeypatch.setattr(states, "build_grid", lambda core, **kw: seen.append(kw) or b"grid")
    monkeypatch.setattr(states, "grid_key", lambda x: "k")
    monkeypatch.setattr(states, "_on_kernel_loop", lambda fn: fn())
    monkeypatch.setattr(states, "store_grid", lambda key, blob: None)
    e = gaussian_explorer(surface=False)
    states._build_in_background(e, e._core.factory, "k")
    assert seen == [{"max_bytes": states.LIVE_MAX_BYTES}] and e.grid == b"grid"
    assert states.LIVE_MAX_BYTES == 2 * states.MAX_BYTES
    e.close()


def test_a_background_build_that_fails_once_is_tried_again(monkeypatch, tmp_path):
    """matplotlib's text parser is not thread-safe: a kernel-thread draw at the same instant can
    fail one attempt (seen in CI: mathtext's ParseException); the next attempt builds the grid.
    Three failures in a row give the notice."""
    from genviz.widgets import states

    monkeypatch.setenv("GENVIZ_STATES", "background")
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(tmp_path))
    monkeypatch.setenv("GENVIZ_STATES_PATH", str(tmp_path / "none"))
    monkeypatch.setattr(states, "_on_kernel_loop", lambda fn: fn())
    real, calls = states.build_grid, []

    def flaky(core, **budget):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("ParseException: exception raised in parse action")
        return real(core, **budget)

    monkeypatch.setattr(states, "build_grid", flaky)
    e = gaussian_explorer(surface=False)
    e._on_front_message(e, {"type": "ready", "view": "a"}, [])
    e._grid_thread.join(120)
    assert len(calls) == 2 and e.grid and e.notice == "", e.notice
    e.close()
    calls.clear()
    monkeypatch.setattr(states, "build_grid", lambda core, **kw: calls.append(1) or 1 / 0)
    monkeypatch.setattr(states, "load_grid", lambda key: None)
    f = gaussian_explorer(surface=False)
    f._on_front_message(f, {"type": "ready", "view": "a"}, [])
    f._grid_thread.join(120)
    assert len(calls) == states.BUILD_ATTEMPTS == 3
    assert f.grid == b"" and "(ZeroDivisionError: division by zero)" in f.notice
    f.close()
