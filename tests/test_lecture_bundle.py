"""The lecture page's questions are built from the notebooks (deploy/poll/lecture_bundle.py)
and the lecturer's panel shows the page's address and QR code (genviz/widgets/_lecture_link.py).

Oracle for the bundle: the same prediction built directly here, by the function the notebook
calls, and its HTML by the prediction boxes' own renderer."""

from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import nbformat
import pytest

from genviz.exercises._core import _markdown_to_html
from genviz.exercises.gaussian import predict_peak_with_rho
from genviz.widgets import _lecture_link as link

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("lecture_bundle_under_test",
                                               ROOT / "deploy" / "poll" / "lecture_bundle.py")
lb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lb)


def _notebook(path: Path, *sources: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) for s in sources]
    nbformat.write(nb, path)
    return path


def test_a_notebooks_predictions_are_recorded_as_built(tmp_path):
    nb = _notebook(tmp_path / "02_x.ipynb",
                   "from genviz.exercises.gaussian import predict_peak_with_rho",
                   "p = predict_peak_with_rho(0.2, 0.8)",
                   "q = predict_peak_with_rho(0.5, 0.9)")
    bundle = lb.build([nb], timeout=120)
    out = lb.write(bundle, tmp_path / "state" / lb.BUNDLE_NAME)
    data = json.loads(out.read_text())
    assert data["format"] == lb.FORMAT
    (qid,) = data["questions"]  # the same id twice (same prediction): its last texts
    p = predict_peak_with_rho(0.5, 0.9)
    q = data["questions"][qid]
    assert qid == p.id and q["notebook"] == "02_x.ipynb"
    assert q["prompt"] == p.prompt and q["options"] == list(p.options)
    assert q["correct"] == list(p.correct) and q["explanation"] == p.explanation
    assert q["prompt_html"] == lb.plain_math(_markdown_to_html(p.prompt))
    assert q["options_html"] == [lb.plain_math(_markdown_to_html(o)) for o in p.options]
    assert q["observation"] == p.observation.prompt
    assert q["letters"] == [p.label(i) for i in range(len(p.options))]


@pytest.mark.parametrize("tex, html", [
    ("$\\alpha = 0$", "<i>α = 0</i>"), ("$10^{10}$", "<i>10<sup>10</sup></i>"),
    ("$P(\\text{No} \\mid x)$", "<i>P(No | x)</i>"), ("$x_1$", "<i>x<sub>1</sub></i>"),
    ("$1/\\sqrt{2d}$", "<i>1/√(2d)</i>"), ("$\\hat f$", "<i>f\u0302</i>"),
    ("$\\frac{a}{b}$", "<i>(a)/(b)</i>"), ("no math, 5$", "no math, 5$"),
    ("a $h \\to 0$ b", "a <i>h → 0</i> b")])
def test_inline_math_is_written_for_a_page_without_mathjax(tex, html):
    assert lb.plain_math(tex) == html


def test_a_failing_notebook_is_named(tmp_path):
    nb = _notebook(tmp_path / "bad.ipynb", "raise RuntimeError('boom')")
    with pytest.raises(RuntimeError, match="bad.ipynb.*boom"):
        lb.build([nb], timeout=120)


def test_the_kernels_start_is_bounded_by_the_timeout_not_nbclients_60_s(tmp_path, monkeypatch):
    """A kernel's start on two cores busy with three test workers once took more than nbclient's
    default 60 s (make test, 2026-12-03): ``timeout`` bounds the start as well as each cell."""
    import nbclient

    seen = {}

    class Stop(Exception):
        pass

    class Client:
        def __init__(self, nb, **kwargs):
            seen.update(kwargs)

        def execute(self):
            raise Stop  # before any kernel starts

    monkeypatch.setattr(nbclient, "NotebookClient", Client)
    with pytest.raises(Stop):
        lb.record_notebook(_notebook(tmp_path / "x.ipynb", "1"), timeout=321)
    assert seen["timeout"] == seen["startup_timeout"] == 321


def test_a_missing_notebook_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.ipynb"):
        lb.record_notebook(tmp_path / "nope.ipynb")


def test_the_same_id_in_two_notebooks_is_refused(tmp_path, monkeypatch):
    rec = {"id": "x-1", "prompt_html": "<p>?</p>", "options_html": ["a", "b"],
           "explanation_html": "<p>.</p>", "observation_html": None}
    monkeypatch.setattr(lb, "record_notebook", lambda nb, **kw: [dict(rec)])
    with pytest.raises(ValueError, match="x-1.*a.ipynb and b.ipynb"):
        lb.build([tmp_path / "a.ipynb", tmp_path / "b.ipynb"])


# --- the lecturer's panel: the page's address and QR code ----------------------------------

@pytest.mark.parametrize("env, url", [
    ({"GENVIZ_LECTURE_URL": "https://h.example/services/genviz-poll/lecture/"},
     "https://h.example/services/genviz-poll/lecture/"),
    ({"JUPYTERHUB_PUBLIC_HUB_URL": "https://h.example/hub/"},
     "https://h.example/services/genviz-poll/lecture/"),
    ({"JUPYTERHUB_PUBLIC_HUB_URL": "http://127.0.0.1:8000/b/hub"},
     "http://127.0.0.1:8000/b/services/genviz-poll/lecture/"),
    ({"JUPYTERHUB_PUBLIC_HUB_URL": ""}, None), ({"JUPYTERHUB_PUBLIC_HUB_URL": "/hub/"}, None),
    ({}, None)])
def test_the_pages_address_from_the_hubs_environment(env, url):
    assert link.lecture_page_url(env) == url


def test_the_qr_code_is_an_svg_of_the_address():
    segno = pytest.importorskip("segno")
    url = "https://h.example/services/genviz-poll/lecture/"
    svg = link.qr_svg(url)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    # the modules drawn are those of the address's QR symbol: another address draws others
    assert svg == segno.make(url, error="m", micro=False).svg_inline(scale=5, border=2,
                                                                     dark="#000", light="#fff")
    assert link.qr_svg(url + "x") != svg
    html = link.lecture_link_html(url)
    assert url in html and "<svg" in html


def test_without_segno_the_address_is_shown_alone(monkeypatch):
    monkeypatch.setattr(link, "segno", None)  # as when the import failed
    url = "https://h.example/services/genviz-poll/lecture/"
    assert link.qr_svg(url) is None
    html = link.lecture_link_html(url)
    assert url in html and "<svg" not in html and "segno" in html
    assert "no QR code" in link.lecture_link_html(None)


@pytest.mark.parametrize("url, scale, err", [(None, 5, TypeError), ("", 5, ValueError),
                                             ("https://x", 0, ValueError),
                                             ("https://x", True, ValueError)])
def test_qr_svg_refuses_bad_arguments(url, scale, err):
    with pytest.raises(err, match="url|scale"):
        link.qr_svg(url, scale=scale)


# --- the explorer each question is about ------------------------------------------------------

EXPLORER_CELLS = (
    "from genviz.exercises.gaussian import predict_peak_with_rho\n"
    "from genviz.widgets import gaussian_explorer, observation_box, prediction_box\n"
    "p = predict_peak_with_rho(rho_from=0.5, rho_to=0.9)\n"
    "prediction_box(p)",
    "explorer = gaussian_explorer(mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.5, "
    "surface=False)\nexplorer",
    "from genviz.exercises.gda import predict_outliers\n"
    "lonely = predict_outliers()  # a prediction with no observation box, made after p",
    "observation_box(p, explorer)  # the explorer p is about: by the box, not by order")


def _site_payloads(nb_path: Path, cache: Path) -> list[dict]:
    """What the course website embeds for the notebook's explorers: the notebook executed as
    scripts/build_site.py runs it (GENVIZ_STATES=embed), each explorer's image output's
    ``genviz_explorer`` metadata (docs/conf.py turns it into the page's JSON script)."""
    import os

    import nbclient

    nb = nbformat.read(nb_path, as_version=4)
    env = {"GENVIZ_STATES": "embed", "GENVIZ_STATES_CACHE": str(cache)}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        nbclient.NotebookClient(nb, timeout=300, startup_timeout=180, kernel_name="python3",
                                resources={"metadata": {"path": str(nb_path.parent)}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return [out["metadata"]["image/png"]["genviz_explorer"] for cell in nb.cells
            for out in cell.get("outputs", [])
            if "genviz_explorer" in out.get("metadata", {}).get("image/png", {})]


def test_each_question_carries_the_explorer_the_site_embeds(tmp_path, monkeypatch):
    from genviz.widgets import payload as payloads, states

    nb = _notebook(tmp_path / "02_x.ipynb", *EXPLORER_CELLS)
    (site,) = _site_payloads(nb, tmp_path / "site-cache")
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(tmp_path / "bundle-cache"))  # built anew
    bundle = json.loads(lb.write(lb.build([nb], timeout=300), tmp_path / "b.json").read_text())
    p = predict_peak_with_rho(0.5, 0.9)
    from genviz.exercises.gda import predict_outliers

    lonely = predict_outliers()
    assert lonely.id != p.id
    key = bundle["questions"][p.id]["explorer"]
    (got,) = bundle["explorers"].values()
    assert key == lb.explorer_key(got)

    def same(payload):  # the explorer's instance id differs from run to run, nothing else
        return {**payload, "spec": {k: v for k, v in payload["spec"].items() if k != "id"}}

    assert same(got) == same(site)  # spec, values, readout, alt and the grid, byte for byte
    assert bundle["questions"][lonely.id]["explorer"] is None  # no explorer: none sent
    header, _ = states.read_grid(__import__("base64").b64decode(site["grid"]))
    assert [a["name"] for a in header["axes"]] == ["rho"]  # the gridded slider moves
    # the module that mounts it: what the site inlines
    narrow, _ = states.read_grid(__import__("base64").b64decode(site["narrow"]))
    assert narrow["axes"] == header["axes"] and narrow["key"] != header["key"]  # the phone's
    assert bundle["explorer_module"]["js"] == payloads.module_source()
    assert "export async function mountStaticExplorers" in bundle["explorer_module"]["js"]
    assert bundle["explorer_module"]["css"] == (
        ROOT / "genviz" / "widgets" / "static" / "explorer.css").read_text()


def test_without_explorers_the_bundle_has_texts_only(tmp_path):
    nb = _notebook(tmp_path / "02_x.ipynb", *EXPLORER_CELLS)
    bundle = lb.build([nb], timeout=300, explorers=False)
    assert bundle["explorers"] == {} and "explorer_module" not in bundle
    assert all(q["explorer"] is None for q in bundle["questions"].values())


def test_the_explorer_key_is_the_payloads_content():
    a = {"spec": {"controls": []}, "grid": "AAAA"}
    assert lb.explorer_key(a) == lb.explorer_key(dict(reversed(a.items())))
    assert lb.explorer_key(a) != lb.explorer_key({**a, "grid": "AAAB"})
    assert len(lb.explorer_key(a)) == 32
