"""Fewer, promptly sent websocket messages per slider move (JupyterLab and Voila kernels).

1. TCP_NODELAY on the Jupyter server's websockets.
2. No ``echo_update`` per widget update (``JUPYTER_WIDGETS_ECHO=0`` for the kernels).

Executed by ``jupyter_server_config.py`` and ``voila.py`` beside it (the project's Jupyter
config directory: ``make lab`` and ``make present`` put it first on JUPYTER_CONFIG_PATH, Binder's
postBuild copies it into the environment).

Why: jupyter-server never calls tornado's ``WebSocketHandler.set_nodelay(True)``, so a kernel's
websocket runs with Nagle's algorithm on. A slider move makes the server write several small
messages in a row (busy, echo, readout, frame, idle); Nagle holds each small write until the
browser acknowledges the previous one, and the browser delays its ACK (40 ms on Linux) -- the
classic Nagle / delayed-ACK stall. Measured through the server on 127.0.0.1
(benchmarks/browser_latency.md): the kernel's "idle" for a bare ``pass`` arrived after 48 ms
instead of 23 ms. Tornado's documentation says to call ``set_nodelay(True)`` once a websocket is
open for exactly this case; every jupyter-server websocket handler opens through
``WebSocketMixin.open``, so that is where it is called. Idempotent.

Why no echo: ipywidgets 8 answers every state change a browser sends with an ``echo_update``
message carrying the same value back, so that a *second* front end showing the same widget
follows it. A student's tab is the only front end of its kernel; for it the echo is a message
per slider move that the kernel serialises, the server, the hub's proxy and the browser forward
and parse, and ipywidgets' front end then discards (it already has the value). On a class hub
every such message is paid by every student at once (benchmarks/class.md: one of five messages
per move). ``JUPYTER_WIDGETS_ECHO`` is ipywidgets' own switch; the server's environment is
inherited by the kernels it starts (a value set before the server started wins). What is lost:
two tabs open on the same notebook no longer move each other's sliders.
"""

import os

from jupyter_server.base.websocket import WebSocketMixin


def _open_without_nagle(self, *args, **kwargs):
    self.set_nodelay(True)
    return _open_without_nagle.wrapped(self, *args, **kwargs)


if not getattr(WebSocketMixin.open, "genviz_nodelay", False):
    _open_without_nagle.wrapped = WebSocketMixin.open
    _open_without_nagle.genviz_nodelay = True
    WebSocketMixin.open = _open_without_nagle

os.environ.setdefault("JUPYTER_WIDGETS_ECHO", "0")
