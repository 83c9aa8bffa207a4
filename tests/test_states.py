"""Precomputed states of gridded controls (genviz.widgets.states, genviz.widgets._keys).

* A grid holds every combination of the gridded controls' positions, each state exactly what
  the kernel path records for it (frame, readout, alt), and leaves the explorer as it was.
* Over budget it is refused when built, naming the explorer, the control and the budget and
  suggesting a coarser step; an explorer without a gridded control is refused too.
* The content hash changes with every input it claims to cover (data bytes, arguments, the
  base, lecture mode) and not otherwise.
* Stores: prebuilt directories first, then the user cache; atomic writes; bad blobs refused.
* The build command executes notebooks and stores their explorers' grids.
"""

from __future__ import annotations

import base64
import json
import pathlib
import sys

import numpy as np
import pytest

from frame_replay import replay
from genviz.plots._ops import decode
from genviz.plots.style import lecture_mode
from genviz.widgets import gaussian_explorer, states
from genviz.widgets._keys import grid_key
from genviz.widgets.kde import kde_explorer
from genviz.widgets.knn import knn_regression_explorer


def _state(header, body, index):
    off, length, bg, r, a = header["states"][index]
    return body[off:off + length], header["readouts"][r], header["alts"][a]


def _replayed(header, body, index):
    """A grid state replayed (its background, its frame, the shared pool)."""
    off, length, bg, _, _ = header["states"][index]
    boff, blen = header["backgrounds"][bg]
    poff, plen = header["pool"]
    return replay(body[boff:boff + blen], body[off:off + length], body[poff:poff + plen])


def test_grid_states_are_what_the_kernel_path_records():
    e = gaussian_explorer(surface=False, rho=0.3)
    before = (e.values(), e.readout.value, e.view.record_frame())
    header, body = states.read_grid(states.build_grid(e))
    assert header["axes"] == [{"name": "rho", "n": 39}] and len(header["states"]) == 39
    assert header["base"] == {"mu1": 20, "mu2": 20, "sigma1": 10, "sigma2": 10}
    assert (e.values(), e.readout.value) == before[:2]  # left as it was
    assert e.view.record_frame() == before[2]
    for k in (0, 25, 38):
        frame, readout, alt = _state(header, body, k)
        e.controls["rho"].value = e.controls["rho"].value_at(k)
        png, _ = e.view.background_png()
        np.testing.assert_array_equal(_replayed(header, body, k),
                                      replay(png, e.view.record_frame()))
        assert readout == e.readout.value and alt == e.describe()
        assert decode(frame)["meta"]["w"] == e.spec["width"]
    e.close()


def test_two_gridded_controls_are_a_row_major_product():
    e = kde_explorer(np.linspace(-1, 1, 5), h=0.3, x_range=(-3, 3))
    e.controls["h"].step = 0.1  # 13 positions (0.05 to 1.25) x 5 kernels
    header, body = states.read_grid(states.build_grid(e))
    assert [a["name"] for a in header["axes"]] == ["h", "kernel"]
    assert len(header["states"]) == 13 * 5
    _, readout, _ = _state(header, body, 7 * 5 + 2)  # h position 7, the third kernel
    e.controls["h"].value = e.controls["h"].value_at(7)
    e.controls["kernel"].value = e.controls["kernel"].from_front(2)
    assert readout == e.readout.value
    e.close()


def test_a_grid_over_budget_is_refused_with_a_coarser_step():
    e = kde_explorer(np.linspace(-1, 1, 5), h=0.3, x_range=(-3, 3))
    with pytest.raises(states.GridBudgetError) as info:
        states.build_grid(e, max_states=100)
    text = str(info.value)
    assert text.startswith("kde_explorer: ") and "h (121) × kernel (5)" in text
    assert "605 states" in text and "budget of 100 states" in text
    assert "coarser step for 'h', e.g. step=0.07" in text and "(now 0.01)" in text
    with pytest.raises(states.GridBudgetError, match=r"0\.\d\d MB, over the budget of 0\.01 MB"):
        states.build_grid(e, max_bytes=10_000)
    assert states.MAX_STATES == 2000 and states.MAX_BYTES == 1_000_000  # budgets restored
    e.close()


def test_an_explorer_without_a_gridded_control_is_refused():
    e = knn_regression_explorer()
    e.controls["k"].grid = False
    with pytest.raises(ValueError, match="knn_regression_explorer has no gridded control"):
        states.build_grid(e)
    assert grid_key(e) is None
    e.close()


def test_the_key_follows_every_input_it_covers():
    x = np.linspace(-1, 1, 7)
    a, b = kde_explorer(x, h=0.3), kde_explorer(x.copy(), h=0.3)
    assert grid_key(a) == grid_key(b)  # arrays by content, not identity
    y = x.copy()
    y[3] += 1e-12
    c = kde_explorer(y, h=0.3)
    d = kde_explorer(x, h=0.3, ymax=0.5)
    assert len({grid_key(a), grid_key(c), grid_key(d)}) == 3
    k = grid_key(a)
    a.controls["h"].value = 0.9  # a gridded control: the grid is the same
    assert grid_key(a) == k
    g = gaussian_explorer(surface=False)
    k = grid_key(g)
    g.controls["mu1"].value = 1.0  # the base moved: another grid
    assert grid_key(g) != k
    g.controls["mu1"].value = 0.0
    assert grid_key(g) == k
    with lecture_mode():
        assert grid_key(gaussian_explorer(surface=False)) != k  # figure size, fonts
    for e in (a, b, c, d, g):
        e.close()


def test_stores_prebuilt_first_then_the_cache(tmp_path, monkeypatch):
    pre, cache = tmp_path / "pre", tmp_path / "cache"
    monkeypatch.setenv("GENVIZ_STATES_PATH", str(pre))
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(cache))
    assert states.search_path()[0] == pre and states.cache_dir() == cache
    assert states.search_path()[-1] == pathlib.Path(sys.prefix) / "share/genviz/states"
    assert states.load_grid("k1") is None
    states.store_grid("k1", b"cached")
    assert states.load_grid("k1") == b"cached"
    states.store_grid("k1", b"prebuilt", pre)
    assert states.load_grid("k1") == b"prebuilt"
    assert sorted(p.name for p in cache.iterdir()) == ["k1.gvgrid"]  # no temporary left
    monkeypatch.delenv("GENVIZ_STATES_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert states.cache_dir() == tmp_path / "xdg" / "genviz" / "states"


def test_explorers_get_their_grid_as_the_mode_says(tmp_path, monkeypatch):
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(tmp_path))
    monkeypatch.setenv("GENVIZ_STATES_PATH", str(tmp_path / "none"))
    monkeypatch.setenv("GENVIZ_STATES", "embed")  # the site build: at once, into the bundle
    e = knn_regression_explorer()
    assert e.grid_bytes and (tmp_path / f"{e.grid_key}.gvgrid").exists()
    data, metadata = e._repr_mimebundle_()
    payload = metadata["image/png"]["genviz_explorer"]
    assert set(payload) == {"spec", "values_front", "readout_html", "alt", "grid", "narrow"}
    json.dumps(payload)  # the page embeds it as JSON
    wide, _ = states.read_grid(base64.b64decode(payload["grid"]))
    narrow, _ = states.read_grid(base64.b64decode(payload["narrow"]))  # the phone's, its own key
    assert narrow["key"] != wide["key"] and narrow["axes"] == wide["axes"]
    assert len(list(tmp_path.glob("*.gvgrid"))) == 2
    monkeypatch.setenv("GENVIZ_STATES", "build")  # make states (a hub): no phone layout built
    h = knn_regression_explorer()
    assert "narrow" not in h._repr_mimebundle_()[1]["image/png"]["genviz_explorer"]
    h.close()
    monkeypatch.setenv("GENVIZ_STATES", "prebuilt")  # a hub: found, never built
    f = knn_regression_explorer()
    f._on_front_message(f, {"type": "ready", "view": "a"}, [])
    assert f.grid == e.grid_bytes
    g = knn_regression_explorer(k=3)  # another base: nothing stored, nothing built
    g._on_front_message(g, {"type": "ready", "view": "a"}, [])
    assert g.grid == b"" and not hasattr(g, "_grid_thread")
    for x in (e, f, g):
        x.close()


@pytest.mark.parametrize("blob, match", [
    (b"not zlib", "not a compressed genviz grid"),
    (__import__("zlib").compress(b"XXXX" + bytes(8)), "no GVG1 header"),
])
def test_read_grid_refuses_what_is_not_a_grid(blob, match):
    with pytest.raises(ValueError, match=match):
        states.read_grid(blob)


def test_the_build_command_stores_the_grids_of_a_notebooks_explorers(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from genviz.widgets.knn import knn_regression_explorer\nknn_regression_explorer()")]
    path = tmp_path / "one.ipynb"
    nbformat.write(nb, path)
    out = tmp_path / "states"
    assert states.main(["build", str(tmp_path), "--out", str(out)]) == 0
    (grid,) = out.glob("*.gvgrid")
    header, _ = states.read_grid(grid.read_bytes())
    assert header["axes"] == [{"name": "k", "n": 40}] and header["key"] == grid.stem


def _public_explorer_functions():
    import importlib
    import pkgutil

    import genviz.widgets as w
    for m in pkgutil.iter_modules(w.__path__):
        if m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"genviz.widgets.{m.name}")
        for name in getattr(mod, "__all__", []):
            if name.endswith("_explorer") and callable(getattr(mod, name)):
                yield f"{m.name}.{name}", getattr(mod, name)


def test_every_public_explorer_function_records_its_factory():
    """Without @explorer_factory an explorer has no grid key: its gridded sliders never get
    precomputed states and every move asks the kernel (notebook 10's explorer once did)."""
    found = dict(_public_explorer_functions())
    assert len(found) >= 18
    bare = [name for name, fn in found.items() if not getattr(fn, "_genviz_explorer_factory", False)]
    assert bare == [], f"decorate with genviz.widgets._base.explorer_factory: {bare}"
