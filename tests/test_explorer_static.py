"""Explorers where no widget manager runs: an image of the current state with alt text, never
``Explorer(children=…)``; the readout is a polite live region for screen readers."""

import base64
import io

import pytest
from IPython.core.formatters import DisplayFormatter
from PIL import Image

from genviz.widgets import gaussian_explorer
from genviz.plots._base import figure_png
from genviz.widgets._base import STATIC, Explorer
from genviz.widgets._controls import Control


@pytest.fixture
def explorer():
    e = gaussian_explorer(rho=0.8, surface=False)
    yield e
    e.close()


def test_bundle_has_widget_view_image_html_and_a_description(explorer):
    data, metadata = explorer._repr_mimebundle_()
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.model_id
    alt = explorer.view.describe()
    assert alt.startswith("Contours of a 2-D Gaussian, μ = (0, 0), σ₁ = 1, σ₂ = 1, ρ = 0.8")
    assert metadata["image/png"]["alt"] == alt
    assert "Run this notebook" in metadata["image/png"]["caption"]
    for name in ("μ₁", "μ₂", "σ₁", "σ₂", "ρ"):
        assert name in metadata["image/png"]["caption"]
    assert data["text/plain"].startswith(alt) and "children" not in data["text/plain"]
    assert f'alt="{alt}"' in data["text/html"] and data["image/png"] in data["text/html"]
    png = base64.b64decode(data["image/png"])
    size = Image.open(io.BytesIO(png)).size
    dpi = explorer.view.fig.dpi
    w, h = explorer.view.fig.get_size_inches()
    assert size == (round(w * dpi), round(h * dpi))


def test_bundle_follows_the_controls(explorer):
    before = explorer._repr_mimebundle_()[0]
    explorer.controls["rho"].value = -0.5
    after = explorer._repr_mimebundle_()[0]
    assert "ρ = -0.5" in after["text/plain"] and "ρ = -0.5" not in before["text/plain"]
    assert after["image/png"] != before["image/png"]
    # the PNG is the figure matplotlib draws for the current state
    assert base64.b64decode(after["image/png"]) == figure_png(explorer.view.fig)


def test_ipython_formats_the_explorer_with_every_representation(explorer):
    data, metadata = DisplayFormatter().format(explorer)
    assert {"image/png", "text/html", "text/plain",
            "application/vnd.jupyter.widget-view+json"} <= set(data)
    assert "Explorer(" not in data["text/plain"]
    assert metadata["image/png"]["alt"] == explorer.describe()


def test_invalid_setting_is_described_too():
    e = gaussian_explorer(surface=False)
    e.view.update = lambda **kw: (_ for _ in ()).throw(ValueError("rho must be < 1"))
    e.refresh()
    assert "Message shown over the figure: Cannot draw this: rho must be < 1" in e.describe()
    e.close()


def test_readout_markup_does_not_recreate_the_live_region(explorer):
    """The live region is the readout's persistent element (explorer.js makes the
    .genviz-readout box role=status aria-live=polite once; browser_tests/test_a11y.py checks it
    in the browser): the value, replaced on every update, must not carry a second region that
    would be recreated each time."""
    js = (STATIC / "explorer.js").read_text()
    assert "this.readout.setAttribute('role', 'status')" in js
    assert "this.readout.setAttribute('aria-live', 'polite')" in js
    for _ in range(2):
        value = explorer.readout.value
        assert value.strip()
        for attr in ("aria-live", 'role="status"', "aria-atomic"):
            assert attr not in value
        explorer.controls["mu1"].value = 1.0 - explorer.controls["mu1"].value
        assert explorer.readout.value != value


def test_sliders_have_visible_labels(explorer):
    for control in explorer.controls.values():
        assert isinstance(control, Control) and control.description


def test_answer_box_folds_hint_and_solution_where_no_widget_manager_runs():
    from genviz.exercises import Exercise
    from genviz.widgets.exercises import answer_box
    ex = Exercise("What is $1/4$?", 0.25, hint="Divide $1$ by $4$.", solution="$1/4 = 0.25$")
    box = answer_box(ex)
    data = DisplayFormatter().format(box)[0]
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == box.model_id
    html_ = data["text/html"]
    assert "<details><summary>Hint</summary><p>Divide $1$ by $4$.</p></details>" in html_
    assert "<details><summary>Solution</summary>" in html_ and "1/4 = 0.25" in html_
    assert "children" not in data["text/plain"] and "Divide" in data["text/plain"]
    box.close()
