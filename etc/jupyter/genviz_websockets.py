"""TCP_NODELAY on the Jupyter server's websockets (JupyterLab and Voila kernel connections).

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
"""

from jupyter_server.base.websocket import WebSocketMixin


def _open_without_nagle(self, *args, **kwargs):
    self.set_nodelay(True)
    return _open_without_nagle.wrapped(self, *args, **kwargs)


if not getattr(WebSocketMixin.open, "genviz_nodelay", False):
    _open_without_nagle.wrapped = WebSocketMixin.open
    _open_without_nagle.genviz_nodelay = True
    WebSocketMixin.open = _open_without_nagle
