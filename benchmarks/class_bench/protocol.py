"""What JupyterLab's front end does on a kernel websocket, as plain state machines.

Copied from the front ends this benchmark stands in for (versions in the venv):

* **Kernel messages over the websocket** use the ``v1.kernel.websocket.jupyter.org`` subprotocol
  (JupyterLab 4 asks for it; jupyter_server's ``serialize_msg_to_ws_v1`` /
  ``deserialize_msg_from_ws_v1`` define the framing, used here as they are).
* **Widget models** (``@jupyter-widgets/base`` 8, ``WidgetModel.sync``): at most one ``update``
  message per model is in flight; changes made meanwhile are buffered, the newest value
  replacing older ones, and sent when the kernel reports ``idle`` for the message in flight
  (``_handle_status``). :class:`ThrottledModel`.
* **genviz explorers** (``genviz/widgets/static/explorer.js``, one anywidget per explorer): a
  ``ready`` message when drawn; kernel-path moves as ``update`` custom messages, one in flight,
  the newest buffered until the kernel's state update acknowledges it (it carries the
  recorded frame); gridded moves drawn locally, one message on release.
  :class:`ExplorerFrontEnd`.
"""

from __future__ import annotations

import json
import math
import uuid
from datetime import datetime, timezone

from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

__all__ = ["WS_PROTOCOL", "make_msg", "pack_ws", "unpack_ws", "comm_msg", "slider_update",
           "ThrottledModel", "ExplorerFrontEnd", "MoveLatency", "percentile", "summary"]

WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def make_msg(msg_type: str, content: dict, *, session: str, channel: str = "shell",
             buffers=()) -> dict:
    """A Jupyter message as a front end builds it (protocol 5.3)."""
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
                   "session": session, "date": datetime.now(timezone.utc).isoformat(),
                   "version": "5.3"},
        "parent_header": {}, "metadata": {}, "content": content, "channel": channel,
        "buffers": list(buffers),
    }


def pack_ws(msg: dict) -> bytes:
    """A message as JupyterLab sends it on a v1 kernel websocket (binary frame)."""
    parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata",
                                                    "content")]
    parts += [bytes(b) for b in msg.get("buffers", ())]
    return serialize_msg_to_ws_v1(parts, msg.get("channel", "shell"))


def unpack_ws(data: bytes) -> dict:
    """A v1 websocket frame from the server as a message dict (buffers as bytes)."""
    channel, parts = deserialize_msg_from_ws_v1(data)
    header, parent, metadata, content = (json.loads(p) for p in parts[:4])
    return {"channel": channel, "header": header, "parent_header": parent,
            "metadata": metadata, "content": content, "msg_type": header.get("msg_type"),
            "buffers": [bytes(b) for b in parts[4:]]}


def comm_msg(comm_id: str, data: dict, *, session: str, buffers=()) -> dict:
    return make_msg("comm_msg", {"comm_id": comm_id, "data": data}, session=session,
                    buffers=buffers)


def slider_update(comm_id: str, value, *, session: str) -> dict:
    """What ipywidgets' front end sends when a slider moves (``WidgetModel.send_sync_message``)."""
    return comm_msg(comm_id, {"method": "update", "state": {"value": value},
                              "buffer_paths": []}, session=session)


class ThrottledModel:
    """ipywidgets' per-model message throttle: one update in flight, newest value buffered.

    ``set(value)`` returns a value to send now, or None (buffered). ``sent(msg_id)`` records the
    message in flight; ``idle(parent_msg_id)`` (the kernel's ``status: idle`` for a message)
    returns the buffered value to send next, or None.
    """

    def __init__(self):
        self.in_flight: str | None = None
        self._pending = False
        self._buffer = None
        self._has_buffer = False

    def set(self, value):
        if self._pending:
            self._buffer, self._has_buffer = value, True
            return None
        self._pending = True
        return value

    def sent(self, msg_id: str) -> None:
        self.in_flight = msg_id

    def idle(self, parent_msg_id: str):
        if not self._pending or parent_msg_id != self.in_flight:
            return None
        self.in_flight = None
        if self._has_buffer:
            value, self._buffer, self._has_buffer = self._buffer, None, False
            return value  # still pending: the caller sends it and calls sent()
        self._pending = False
        return None


class ExplorerFrontEnd:
    """genviz's explorer front end (genviz/widgets/static/explorer.js, an anywidget) on the
    comm messages of one ``Explorer`` model.

    * when a view is drawn it sends ``{"type": "ready"}`` (a custom message);
    * a **kernel-path** control (``move``) sends ``{"type": "update", "values": {name: position},
      "frame": true}`` with a sequence number, one request in flight, the newest position
      buffered until the kernel's state update acknowledges the request (``ack`` =
      ``"<view>:<seq>"``, sent with the recorded ``frame`` in the same message);
    * a **gridded** control (``grid_move``) is drawn from the precomputed states: nothing is
      sent while it moves; on release (``grid_release``) one update with ``"frame": false`` --
      but only where explorer.js would draw it: the kernel sent a grid (its ``grid`` buffer,
      in the comm's opening state or a later update) and the grid covers the current values
      (every other control at the grid's ``base``, explorer.js ``gridCovers``). Otherwise the
      move goes to the kernel as a kernel-path move does, so "messages per gridded drag"
      counts what a browser would send (a hub without the states, or a grid a course update
      made stale, shows as many messages, not 1).

    Every method returns the comm ``data`` dicts to send (``{"method": "custom", "content":
    ...}``, what ipywidgets' ``WidgetModel.send`` puts on the wire). Frames are counted in
    ``frames``.
    """

    def __init__(self, state: dict, view: str | None = None, *, buffer_paths=(), buffers=()):
        self.grid_head: dict | None = None
        self._take_grid(state, buffer_paths, buffers)
        self.spec = state.get("spec", {})
        self.values = dict(state.get("values_front", {}))
        self.view = view or uuid.uuid4().hex[:8]
        self.seq = 0
        self.in_flight = 0
        self.pending: dict = {}
        self.grid_dirty: dict = {}
        self.frames = 0
        self.frame_bytes = 0
        self.acks = 0

    def _take_grid(self, state, buffer_paths, buffers) -> None:
        """The grid's header when the message carries the ``grid`` trait (a buffer, or bytes
        in the state); an empty grid means none."""
        blob = None
        for path, buf in zip(buffer_paths or (), buffers or ()):
            if tuple(path) == ("grid",):
                blob = bytes(buf)
        if blob is None and isinstance(state.get("grid"), (bytes, bytearray, memoryview)):
            blob = bytes(state["grid"])
        if blob is None and "grid" not in state:
            return
        from genviz.widgets.states import read_grid  # the grid format's own reader
        self.grid_head = read_grid(blob)[0] if blob else None

    def grid_covers(self) -> bool:
        """explorer.js ``gridCovers``: a grid arrived and every control it does not vary is at
        the value the grid was built at."""
        head = self.grid_head
        return head is not None and all(self.values.get(k) == v
                                        for k, v in head.get("base", {}).items())

    def control(self, name: str) -> dict:
        return next(c for c in self.spec.get("controls", []) if c["name"] == name)

    def _custom(self, content: dict) -> dict:
        return {"method": "custom", "content": content}

    def opened(self) -> list:
        return [self._custom({"type": "ready", "view": self.view})]

    def _update(self, values: dict, frame: bool) -> dict:
        self.seq += 1
        if frame:
            self.in_flight = self.seq
        return self._custom({"type": "update", "view": self.view, "seq": self.seq,
                             "values": values, "frame": frame})

    def move(self, name: str, position) -> list:
        self.values[name] = position
        self.pending[name] = position
        if self.in_flight:
            return []
        values, self.pending = {**self.grid_dirty, **self.pending}, {}
        self.grid_dirty = {}
        return [self._update(values, True)]

    def grid_move(self, name: str, position) -> list:
        if not self.grid_covers():  # explorer.js asks the kernel instead
            return self.move(name, position)
        self.values[name] = position
        self.grid_dirty[name] = position
        return []

    def grid_release(self) -> list:
        if not self.grid_dirty:
            return []
        values, self.grid_dirty = self.grid_dirty, {}
        return [self._update(values, False)]

    def on_message(self, data, buffers=()) -> list:
        """A comm message from the kernel: a state ``update`` may carry the frame and the ack
        of our request in flight (then the newest buffered position goes out)."""
        if not isinstance(data, dict) or data.get("method") != "update":
            return []
        state = data.get("state", {})
        paths = [tuple(p) for p in data.get("buffer_paths", [])]
        self._take_grid(state, paths, buffers)
        if ("frame",) in paths or state.get("frame"):
            self.frames += 1
            self.frame_bytes += sum(len(b) for b in buffers)
        ack = state.get("ack")
        if not ack:
            return []
        view, _, seq = str(ack).partition(":")
        if view != self.view or int(seq or 0) < self.in_flight:
            return []
        self.acks += 1
        self.in_flight = 0
        if self.pending:
            values, self.pending = self.pending, {}
            return [self._update(values, True)]
        return []


class MoveLatency:
    """Slider move -> frame latencies, as the student perceives them.

    A move made at time ``t`` is shown by the first frame produced while the kernel handled an
    update carrying that move's value or a newer one (frames carry the update's msg_id as their
    parent). ``moved(t)`` returns the move's index; ``carried(msg_id, index)`` records that an
    update message carries moves up to ``index``; ``frame(parent_msg_id, t)`` settles them.
    """

    def __init__(self):
        self.moves: list = []  # move time
        self.latency: dict = {}  # move index -> seconds
        self._carried: dict = {}  # msg_id -> newest move index carried

    def moved(self, t: float) -> int:
        self.moves.append(t)
        return len(self.moves) - 1

    def carried(self, msg_id: str, index: int) -> None:
        self._carried[msg_id] = index

    def frame(self, parent_msg_id: str, t: float) -> int:
        newest = self._carried.get(parent_msg_id)
        if newest is None:
            return 0
        settled = 0
        for i in range(newest + 1):
            if i not in self.latency:
                self.latency[i] = t - self.moves[i]
                settled += 1
        return settled

    def unanswered(self) -> int:
        return len(self.moves) - len(self.latency)


def percentile(values, q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation (numpy's default); nan if empty."""
    xs = sorted(values)
    if not xs:
        return math.nan
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary(values) -> dict:
    """n, p50, p95, max of a list of numbers."""
    xs = list(values)
    return {"n": len(xs), "p50": percentile(xs, 50), "p95": percentile(xs, 95),
            "max": max(xs) if xs else math.nan}
