"""What JupyterLab's front end does on a kernel websocket, as plain state machines.

Copied from the front ends this benchmark stands in for (versions in the venv):

* **Kernel messages over the websocket** use the ``v1.kernel.websocket.jupyter.org`` subprotocol
  (JupyterLab 4 asks for it; jupyter_server's ``serialize_msg_to_ws_v1`` /
  ``deserialize_msg_from_ws_v1`` define the framing, used here as they are).
* **Widget models** (``@jupyter-widgets/base`` 8, ``WidgetModel.sync``): at most one ``update``
  message per model is in flight; changes made meanwhile are buffered, the newest value
  replacing older ones, and sent when the kernel reports ``idle`` for the message in flight
  (``_handle_status``). :class:`ThrottledModel`.
* **ipympl canvases** (``jupyter-matplotlib`` 0.10, ``MPLCanvasModel``): on creation the model
  sends ``refresh``, ``send_image_mode``, ``initialized`` (plus the two dpi messages when
  ``devicePixelRatio != 1``); a ``draw`` request is answered with one ``draw`` unless a frame is
  already awaited (``waiting_for_image``); a frame (``binary``) clears that flag; a ``resize``
  is answered with ``refresh``. ipympl's front end sends **no** ``ack`` per frame (matplotlib's
  own webagg page does; ipympl has no such message). :class:`CanvasFrontEnd`.
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
           "ThrottledModel", "CanvasFrontEnd", "MoveLatency", "percentile", "summary"]

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


class CanvasFrontEnd:
    """ipympl's ``MPLCanvasModel`` on the comm messages of one canvas.

    ``opened()`` and ``on_message(data, buffers)`` return the list of comm ``data`` dicts the
    front end sends back (``{"method": "custom", "content": {"type": ...}}``). Frames are counted in ``frames``.
    """

    def __init__(self, device_pixel_ratio: float = 1.0):
        self.ratio = device_pixel_ratio
        self.waiting_for_image = False
        self.frames = 0
        self.frame_bytes = 0
        self.draw_requests = 0
        self.image_mode = None

    def _send(self, kind: str, **extra) -> dict:
        # MPLCanvasModel.send_message -> WidgetModel.send: a "custom" comm message
        return {"method": "custom", "content": {"type": kind, **extra}}

    def opened(self) -> list:
        out = []
        if self.ratio != 1:
            out += [self._send("set_dpi_ratio", dpi_ratio=self.ratio),
                    self._send("set_device_pixel_ratio", device_pixel_ratio=self.ratio)]
        return out + [self._send("refresh"), self._send("send_image_mode"),
                      self._send("initialized")]

    def on_message(self, data, buffers=()) -> list:
        """``data`` is the comm message's ``data``: ipywidgets' ``{"method": "custom",
        "content": {"data": "<JSON>"}}`` for ipympl's messages (anything else, e.g. a state
        ``update``/``echo_update``, is not a canvas message)."""
        content = data.get("content") if isinstance(data, dict) else None
        if data.get("method") != "custom" or not isinstance(content, dict) or "data" not in content:
            return []
        msg = json.loads(content["data"])
        kind = msg.get("type")
        if kind == "binary":
            self.frames += 1
            self.frame_bytes += sum(len(b) for b in buffers)
            self.waiting_for_image = False
            return []
        if kind == "draw":
            self.draw_requests += 1
            if self.waiting_for_image:
                return []
            self.waiting_for_image = True
            return [self._send("draw")]
        if kind == "resize":
            return [self._send("refresh")]
        if kind == "image_mode":
            self.image_mode = msg.get("mode")
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
