"""An explorer shown on a hub before its grid exists picks it up when the rebuild stores it
(genviz.widgets._grid_watch, issue #39 item 5).

* ``GENVIZ_STATES=prebuilt`` and no grid: the explorer's notice says why its moves ask the
  kernel (from the hub's rebuild status beside the prebuilt directory); when the grid is
  stored later the explorer gets exactly those bytes and the notice goes, with no cell run
  again; the watcher then ends.
* The notice follows the status file: running (since when), failed (the course team's
  command); absent, damaged or over: no notice (the kernel path is then the hub's choice).
* A wait is bounded (``WAIT_SECONDS``) and holds explorers weakly.
"""

from __future__ import annotations

import gc
import json
import time

import pytest

from genviz.widgets import _grid_watch as W
from genviz.widgets import states
from genviz.widgets.knn import knn_regression_explorer


def _until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return cond()


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A hub's kernel: prebuilt mode, the rebuild's grids directory on the search path."""
    grids = tmp_path / "rebuild" / "grids"
    grids.mkdir(parents=True)
    monkeypatch.setenv("GENVIZ_STATES", "prebuilt")
    monkeypatch.setenv("GENVIZ_STATES_PATH", str(grids))
    monkeypatch.setenv("GENVIZ_STATES_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GENVIZ_STATES_POLL", "0.05")
    yield grids
    _until(lambda: W._thread is None, 5)


def _show(explorer):
    explorer._on_front_message(explorer, {"type": "ready", "view": "a"}, [])


def test_a_grid_stored_after_the_explorer_was_shown_reaches_it(hub):
    (hub.parent / "rebuild.json").write_text(json.dumps(
        {"state": "running", "pid": 1, "started": "2026-11-30T10:04:00+00:00"}))
    e = knn_regression_explorer(k=3)
    _show(e)
    assert e.grid == b""
    assert "rebuilding this explorer's precomputed states after a course update (since " \
        "10:04 UTC)" in e.notice
    assert W.awaited() == {e.grid_key: 1}
    time.sleep(0.3)  # several polls find nothing: still waiting, nothing delivered
    assert e.grid == b"" and e.notice
    with states.headless_copy(e) as core:
        blob = states.build_grid(core)
    states.store_grid(e.grid_key, blob, hub)  # the rebuild job writes it
    assert _until(lambda: e.grid == blob)
    assert _until(lambda: e.notice == "")  # set just after the grid, on the same loop
    assert W.awaited() == {}
    assert _until(lambda: W._thread is None)  # nothing awaited: the watcher ended
    e.close()


def test_a_stored_grid_is_given_at_once_and_nothing_waits(hub):
    e = knn_regression_explorer(k=4)
    with states.headless_copy(e) as core:
        blob = states.build_grid(core)
    states.store_grid(e.grid_key, blob, hub)
    _show(e)
    assert e.grid == blob and e.notice == "" and W.awaited() == {}
    e.close()


@pytest.mark.parametrize("status, expect", [
    ({"state": "running", "started": "2026-11-30T23:59:00Z"}, "rebuilding .* \\(since 23:59 UTC\\)"),
    ({"state": "running", "started": "soon"}, "after a course update; it switches"),
    ({"state": "failed"}, "could not rebuild .* python -m genviz_updates status"),
    ({"state": "done"}, "^$"),
    ("not json {", "^$"),
    (None, "^$"),
])
def test_the_notice_says_what_the_rebuild_status_says(tmp_path, status, expect):
    grids = tmp_path / "grids"
    grids.mkdir()
    if status is not None:
        (tmp_path / "rebuild.json").write_text(
            status if isinstance(status, str) else json.dumps(status))
    import re
    assert re.search(expect, W.rebuild_notice([tmp_path / "elsewhere", grids]))
    # a status file beside a directory not called grids is not the hub's rebuild
    other = tmp_path / "x" / "states"
    other.mkdir(parents=True)
    (other.parent / "rebuild.json").write_text(json.dumps({"state": "failed"}))
    assert W.rebuild_notice([other]) == ""


def test_a_wait_ends_after_its_bound_and_leaves_the_notice(hub, monkeypatch):
    (hub.parent / "rebuild.json").write_text(json.dumps({"state": "failed"}))
    monkeypatch.setattr(W, "WAIT_SECONDS", 0.2)
    e = knn_regression_explorer(k=5)
    _show(e)
    W.await_grid(e, e.grid_key, load=states.load_grid, on_loop=lambda fn: fn(),
                 dirs=states.search_path())  # awaited again (a second view): still one wait
    assert W.awaited() == {e.grid_key: 1}
    assert "could not rebuild" in e.notice
    assert _until(lambda: W.awaited() == {})
    assert e.grid == b"" and "could not rebuild" in e.notice  # the notice stays true
    e.close()


def test_without_a_rebuild_status_the_explorer_waits_silently(hub):
    e = knn_regression_explorer(k=7)
    _show(e)
    assert W.awaited() == {e.grid_key: 1} and e.notice == ""
    e.close()


def test_a_closed_explorer_waits_no_more(hub):
    e = knn_regression_explorer(k=6)
    _show(e)
    key = e.grid_key
    assert W.awaited() == {key: 1}
    e.close()
    del e
    gc.collect()
    assert _until(lambda: key not in W.awaited())


@pytest.mark.parametrize("value, seconds", [("", 20.0), ("2.5", 2.5), ("fast", 20.0),
                                            ("0", 0.05), ("-3", 0.05)])
def test_poll_seconds_reads_its_variable_and_refuses_nonsense(monkeypatch, value, seconds):
    monkeypatch.setenv("GENVIZ_STATES_POLL", value)
    assert W.poll_seconds() == seconds
