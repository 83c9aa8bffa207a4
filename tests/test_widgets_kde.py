"""Density-estimation explorers: sweeps over every control, readouts show the view's numbers."""

import re

import numpy as np

from explorer_testing import sweep_explorer
from genviz.datasets import auto_mpg
from genviz.kde import claw_pdf, sample_claw
from genviz.widgets.kde import bandwidth_explorer, histogram_explorer, kde2d_explorer, kde_explorer


def numbers(html):
    return [float(x) for x in re.findall(r"-?\d+\.\d+", re.sub(r"<[^>]+>", " ", html))]


def test_histogram_explorer_sweep():
    e = histogram_explorer(sample_claw(200, 0), true_pdf=claw_pdf, x_range=(-3, 3))
    assert sweep_explorer(e, n=4) == 8
    e.controls["width"].value = 0.5
    assert numbers(e.readout.value)[1] == 0.5
    assert f"{e.view.state['empty_bins']} empty" in e.readout.value


def test_kde_explorer_sweep():
    e = kde_explorer(sample_claw(20, 1), true_pdf=claw_pdf, x_range=(-3, 3))
    assert sweep_explorer(e, n=4) == 4 + 5
    e.controls["kernel"].value = "triangular"
    e.controls["h"].value = 0.7
    assert "h = 0.70, kernel = triangular" in e.readout.value
    assert numbers(e.readout.value)[-1] == round(e.view.state["integral"], 3)


def test_bandwidth_explorer_sweep():
    e = bandwidth_explorer(n=300)
    assert sweep_explorer(e, n=3) == len(e.controls["n"].options) + 3  # every n, 3 h
    s = e.view.state
    assert f"best h = {s['h_lscv']:.4f}" in e.readout.value
    assert np.isfinite(s["ise"])


def test_bandwidth_explorer_prefetches_every_n_once_shown(monkeypatch):
    monkeypatch.setenv("GENVIZ_STATES", "off")
    e = bandwidth_explorer(n=300)
    asked = []
    e.view.prefetch = lambda ns: asked.append(list(ns))
    assert asked == []  # nothing off a browser (tests, nbval, the site)
    e._on_front_message(e, {"type": "ready", "view": "a"}, [])  # a browser shows it
    e._on_front_message(e, {"type": "ready", "view": "b"}, [])
    n = e.controls["n"]
    assert asked == [list(n.options)] and 300 in n.options  # once, every slider position
    e.close()


def test_kde2d_explorer_sweep():
    a = auto_mpg()
    e = kde2d_explorer(a.X[:, [4, 0]], labels=("weight (lbs)", "mpg"))
    assert sweep_explorer(e, n=4) == 4
    assert numbers(e.readout.value)[-1] > 0.9
