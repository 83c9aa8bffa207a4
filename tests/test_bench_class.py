"""The class benchmark's client (benchmarks/class_bench): the front end's protocol pieces that
run without servers, checked against the libraries they imitate.

* v1 websocket framing round-trips through jupyter_server's own ``deserialize_msg_from_ws_v1``
  (the server's reader), buffers included.
* ipywidgets' per-model throttle (``WidgetModel.sync`` / ``_handle_status`` in
  @jupyter-widgets/base 8): one update in flight, the newest buffered value wins, released on
  the ``idle`` of the message in flight only.
* genviz's explorer front end (explorer.js): ``ready`` when drawn, one kernel-path request in
  flight with the newest position buffered until the kernel's ack, gridded moves sent once on
  release; a real Explorer handles its messages (frames with the ack; none for a release).
* Move -> frame latency bookkeeping and the percentile against numpy.
"""

from __future__ import annotations

import json
import math
import pathlib
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "benchmarks"))
pytest.importorskip("jupyter_server")
from class_bench import protocol as P  # noqa: E402
from class_bench.student import message_kind, slider_values  # noqa: E402


def test_ws_v1_round_trip_through_the_servers_reader():
    from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

    msg = P.slider_update("c1", 0.25, session="s")
    msg["buffers"] = [b"\x00\x01png"]
    channel, parts = deserialize_msg_from_ws_v1(P.pack_ws(msg))
    assert channel == "shell"
    assert json.loads(parts[0])["msg_type"] == "comm_msg"
    assert json.loads(parts[3]) == {"comm_id": "c1", "data": {
        "method": "update", "state": {"value": 0.25}, "buffer_paths": []}}
    assert bytes(parts[4]) == b"\x00\x01png"
    back = P.unpack_ws(P.pack_ws(msg))
    assert back["content"] == msg["content"] and back["buffers"] == [b"\x00\x01png"]
    assert back["header"]["msg_id"] == msg["header"]["msg_id"]


def test_throttle_one_in_flight_newest_value_wins():
    t = P.ThrottledModel()
    assert t.set(1) == 1
    t.sent("m1")
    assert t.set(2) is None and t.set(3) is None  # buffered, newest replaces
    assert t.idle("other") is None  # idle of another message releases nothing
    assert t.idle("m1") == 3  # the newest value only; 2 is never sent
    t.sent("m2")
    assert t.set(4) is None
    assert t.idle("m2") == 4
    t.sent("m3")
    assert t.idle("m3") is None  # nothing buffered: the model is free again
    assert t.set(5) == 5


@given(st.lists(st.integers(), min_size=1, max_size=30), st.data())
def test_throttle_last_value_always_sent(values, data):
    """Whatever the interleaving of moves and idles, the last value set is the last one sent."""
    t, sent, n = P.ThrottledModel(), [], 0
    for v in values:
        out = t.set(v)
        if out is not None:
            sent.append(out)
            n += 1
            t.sent(f"m{n}")
        if t.in_flight and data.draw(st.booleans()):
            nxt = t.idle(t.in_flight)
            if nxt is not None:
                sent.append(nxt)
                n += 1
                t.sent(f"m{n}")
    while t.in_flight:
        nxt = t.idle(t.in_flight)
        if nxt is not None:
            sent.append(nxt)
            n += 1
            t.sent(f"m{n}")
    assert sent[-1] == values[-1]
    assert len(sent) <= len(values)


def _ack(view, seq, frame=True):
    return {"method": "update", "state": {"ack": f"{view}:{seq}", "readout_html": "r"},
            "buffer_paths": [["frame"]] if frame else []}


def _grid(base: dict) -> bytes:
    """A grid blob of genviz's format with only a header (what the front end reads of it)."""
    import json
    import struct
    import zlib

    from genviz.widgets.states import GRID_MAGIC

    head = json.dumps({"base": base, "axes": [{"name": "rho", "n": 39}]}).encode()
    return zlib.compress(GRID_MAGIC + struct.pack("<I", len(head)) + head)


def test_explorer_front_end_ready_coalescing_and_grid():
    fe = P.ExplorerFrontEnd({"spec": {"controls": [
        {"name": "mu1", "kind": "slider", "grid": False, "n": 40},
        {"name": "rho", "kind": "slider", "grid": True, "n": 38}]},
        "values_front": {"mu1": 20, "rho": 19}}, view="v",
        buffer_paths=[["grid"]], buffers=[_grid({"mu1": 23})])
    assert fe.grid_covers() is False  # mu1 is not at the grid's base yet
    assert fe.opened() == [{"method": "custom", "content": {"type": "ready", "view": "v"}}]
    first = fe.move("mu1", 21)
    assert [m["content"] for m in first] == [{"type": "update", "view": "v", "seq": 1,
                                              "values": {"mu1": 21}, "frame": True}]
    assert fe.move("mu1", 22) == [] and fe.move("mu1", 23) == []  # one in flight, buffered
    assert fe.on_message(_ack("other", 1)) == []  # another view's ack releases nothing
    assert fe.frames == 1  # ... but its frame is drawn
    nxt = fe.on_message(_ack("v", 1), [b"f" * 7])
    assert [m["content"]["values"] for m in nxt] == [{"mu1": 23}]  # the newest only
    assert fe.frames == 2 and fe.frame_bytes == 7 and fe.in_flight == 2
    assert fe.on_message(_ack("v", 2)) == [] and fe.in_flight == 0
    # mu1 now at the grid's base: a gridded drag sends nothing while it moves, one message
    # on release
    assert fe.grid_covers()
    assert all(fe.grid_move("rho", k) == [] for k in range(30))
    (release,) = fe.grid_release()
    assert release["content"]["values"] == {"rho": 29} and release["content"]["frame"] is False
    assert fe.grid_release() == []
    assert fe.on_message({"method": "echo_update", "state": {}}) == []


def test_a_gridded_drag_without_a_covering_grid_goes_to_the_kernel():
    """As explorer.js: no grid sent (a hub without the states, a key a course update changed),
    an empty grid, or another control off the grid's base -- every move is a kernel request;
    a grid arriving in a later update is used from then on."""
    spec = {"controls": [{"name": "mu1", "kind": "slider", "grid": False, "n": 40},
                         {"name": "rho", "kind": "slider", "grid": True, "n": 38}]}
    for kwargs in ({}, {"buffer_paths": [["grid"]], "buffers": [b""]},
                   {"buffer_paths": [["grid"]], "buffers": [_grid({"mu1": 5})]}):
        fe = P.ExplorerFrontEnd({"spec": spec, "values_front": {"mu1": 20, "rho": 19}},
                                view="v", **kwargs)
        (first,) = fe.grid_move("rho", 3)
        assert first["content"] == {"type": "update", "view": "v", "seq": 1,
                                    "values": {"rho": 3}, "frame": True}
        assert fe.grid_move("rho", 4) == []  # one request in flight, as a kernel-path move
    fe.on_message({"method": "update", "state": {}, "buffer_paths": [["grid"]]},
                  [_grid({"mu1": 20})])
    fe.on_message(_ack("v", 1))  # the buffered move goes out
    assert fe.grid_covers() and fe.grid_move("rho", 9) == []
    with pytest.raises(ValueError, match="not a compressed genviz grid"):
        P.ExplorerFrontEnd({"spec": spec}, buffer_paths=[["grid"]], buffers=[b"junk"])


def test_explorer_front_end_speaks_the_kernels_protocol():
    """The simulated front end's messages, handled by a real Explorer: frames come back with
    the ack; a gridded release updates the kernel with no frame."""
    import os

    os.environ["GENVIZ_STATES"] = "off"
    from genviz.widgets import gaussian_explorer

    e = gaussian_explorer(surface=False)
    sent_state = []
    e._repr_mimebundle_()
    from genviz.widgets.states import build_grid

    fe = P.ExplorerFrontEnd({"spec": e.spec, "values_front": e.values_front}, view="v",
                            buffer_paths=[["grid"]], buffers=[build_grid(e)])
    mu1_base = fe.values["mu1"]

    def deliver(msgs):
        for m in msgs:
            changes = {}
            orig = e.send_state

            def capture(key=None):
                changes.setdefault("keys", []).extend(
                    [key] if isinstance(key, str) else list(key or e.keys))
            e.send_state = capture
            try:
                e._on_front_message(e, m["content"], [])
            finally:
                e.send_state = orig
            sent_state.append(changes.get("keys", []))

    deliver(fe.opened())
    deliver(fe.move("mu1", 30))
    assert e.ack == "v:1" and e.controls["mu1"].value == pytest.approx(e.controls["mu1"].value_at(30))
    assert "frame" in sent_state[-1] and "ack" in sent_state[-1]
    out = fe.on_message(_ack("v", 1))
    assert out == []
    # mu1 off the grid's base: the gridded slider asks the kernel for a frame (explorer.js)
    asked = fe.grid_move("rho", 4)
    assert asked[0]["content"]["frame"] is True
    deliver(asked)
    assert "frame" in sent_state[-1] and fe.on_message(_ack("v", 2)) == []
    deliver(fe.move("mu1", mu1_base))
    fe.on_message(_ack("v", 3))
    assert fe.grid_covers()
    assert fe.grid_move("rho", 5) == []
    deliver(fe.grid_release())
    assert e.values()["rho"] == pytest.approx(e.controls["rho"].value_at(5))
    assert "frame" not in sent_state[-1]
    e.close()


def test_move_latency_settles_every_move_up_to_the_carried_one():
    m = P.MoveLatency()
    for t in (0.0, 0.1, 0.2):
        m.moved(t)
    m.carried("u1", 0)
    m.carried("u2", 2)  # moves 1 and 2 coalesced into one update (the newest value)
    assert m.frame("unknown", 5.0) == 0
    assert m.frame("u1", 0.05) == 1
    assert m.unanswered() == 2
    assert m.frame("u2", 0.35) == 2
    assert m.latency == pytest.approx({0: 0.05, 1: 0.25, 2: 0.15})
    assert m.frame("u2", 0.5) == 0  # a second frame for the same update settles nothing


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=50), st.floats(0, 100))
def test_percentile_matches_numpy(xs, q):
    assert P.percentile(xs, q) == pytest.approx(np.percentile(xs, q), rel=1e-9, abs=1e-6)


def test_summary_of_nothing_is_nan():
    s = P.summary([])
    assert s["n"] == 0 and math.isnan(s["p95"]) and math.isnan(s["max"])


def test_slider_values_stay_in_range_and_always_change():
    state = {"_model_name": "FloatSliderModel", "min": -1.0, "max": 1.0, "step": 0.1,
             "value": 0.9}
    vals = slider_values(state, 40)
    assert len(vals) == 40 and all(-1 <= v <= 1 for v in vals)
    assert all(a != b for a, b in zip([0.9] + vals, vals))
    ints = slider_values({"_model_name": "IntSliderModel", "min": 1, "max": 5, "step": 1,
                          "value": 1}, 5)
    assert all(isinstance(v, int) and 1 <= v <= 5 for v in ints)


def test_message_kind_names():
    canv = {"c": object()}
    assert message_kind({"msg_type": "status", "content": {"execution_state": "idle"}},
                        canv) == "status:idle"
    assert message_kind({"msg_type": "comm_msg", "content": {"comm_id": "c",
                         "data": _ack("v", 1)}}, canv) == "explorer:frame"
    assert message_kind({"msg_type": "comm_msg", "content": {"comm_id": "c",
                         "data": _ack("v", 1, frame=False)}}, canv) == "explorer:update"
    assert message_kind({"msg_type": "comm_msg", "content": {"comm_id": "w",
                         "data": {"method": "echo_update"}}}, canv) == "comm_msg:echo_update"


def test_report_of_a_run_states_every_figure():
    from class_bench.report import report_class, report_memory

    s = {"n": 2, "p50": 1.0, "p95": 2.0, "max": 3.0}
    run = {"n": 2, "started": "t", "notebook": "00.ipynb", "arrive_within_s": 10.0, "moves": 4,
           "interval_s": 0.15, "load_before": (1.0, 2.0, 3.0), "load_during": (2.0, 2.0, 3.0),
           "spawn_s": s, "kernel_s": s, "run_all_s": s,
           "slider_to_frame_ms": {"n": 8, "p50": 50.0, "p95": 90.0, "max": 120.0},
           "pss_dragged": {"a": {"total_mb": 200.0}, "b": {"total_mb": 220.0}},
           "cpu_s": {"hub": 0.01, "proxy": 0.03, "server": 0.04, "kernel": 0.16, "client": 0.01},
           "moves_total": 8, "updates_sent": 8, "frames_total": 8, "unanswered_moves": 0,
           "drag_s": 1.2, "drag_message_kinds": {"explorer:frame": 8, "status:idle": 8},
           "grid_drag_messages": {"n": 2, "p50": 1.0, "p95": 1.0, "max": 1.0},
           "cpu_to_ready_s": {"server": s, "kernel": s}, "pss_hub_proxy_mb": 150.0,
           "failures": [{"student": "b", "reason": "spawn: HTTP 500"}],
           "cull": {"timeout_s": 60, "stopped_after_s": {"n": 2, "p50": 100.0, "p95": 110.0,
                                                         "max": 111.0}, "still_running": []},
           "leftover_processes": [], "busy_before": [(30.0, 1, "pytest")]}
    text = report_class(run)
    for expected in ("| slider → frame (ms) | 8 | 50 | 90 | 120 |", "kernels 20.0",
                     "total 30.0", "b: spawn: HTTP 500", "stopped 100–111 s",
                     "left after the hub was stopped: none", "30% pytest", "explorer:frame 1.00",
                     "1 message(s) sent per drag",
                     "| PSS per student, server + kernel (MB) | 2 | 210 |"):
        assert expected in text, expected
    mem = report_memory([{"notebook": "09.ipynb", "run_all_s": s, "failures": [],
                          "pss": {"server_mb": 140.0, "kernel_mb": 240.0, "total_mb": 380.0}}])
    assert "| 09.ipynb | 3.0 | 140 | 240 | 380 | none |" in mem
