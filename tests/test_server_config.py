"""The project's Jupyter config directory (etc/jupyter): TCP_NODELAY on the server's websockets.

* Loading the config the way JupyterLab (``jupyter_server_config.py``) and Voila (``voila.py``)
  load config files turns Nagle's algorithm off on a real websocket served by a jupyter-server
  handler; before loading, it is on (so the test can fail). Loading twice wraps once.
* Every launcher puts the directory on JUPYTER_CONFIG_PATH (``make lab``, ``make present``, the
  browser tests' Lab server) or copies it (Binder's postBuild).
Latency measured in benchmarks/browser_latency.md, never asserted here.
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
import socket

import pytest

pytest.importorskip("jupyter_server")
import tornado.httpserver  # noqa: E402
import tornado.netutil  # noqa: E402
import tornado.web  # noqa: E402
import tornado.websocket  # noqa: E402
from jupyter_server.base.websocket import WebSocketMixin  # noqa: E402
from traitlets.config.loader import PyFileConfigLoader  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONFIG = ROOT / "etc" / "jupyter"


class _Handler(WebSocketMixin, tornado.websocket.WebSocketHandler):
    log = logging.getLogger("test")
    opened: list = []

    def open(self, *args, **kwargs):
        super().open(*args, **kwargs)
        sock = self.ws_connection.stream.socket
        _Handler.opened.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

    def check_origin(self, origin):
        return True


async def _nodelay_of_a_new_connection() -> int:
    app = tornado.web.Application([(r"/ws", _Handler)], allow_unauthenticated_access=True)
    [sock] = tornado.netutil.bind_sockets(0, "127.0.0.1")
    port = sock.getsockname()[1]
    server = tornado.httpserver.HTTPServer(app)
    server.add_sockets([sock])
    try:
        client = await tornado.websocket.websocket_connect(f"ws://127.0.0.1:{port}/ws")
        for _ in range(200):
            if _Handler.opened:
                break
            await asyncio.sleep(0.01)
        client.close()
        return _Handler.opened.pop()
    finally:
        server.stop()


def test_config_turns_nagle_off_on_jupyter_server_websockets():
    original = WebSocketMixin.open
    try:
        if not getattr(original, "genviz_nodelay", False):
            assert asyncio.run(_nodelay_of_a_new_connection()) == 0  # Nagle on: the defect
        PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
        assert getattr(WebSocketMixin.open, "genviz_nodelay", False)
        assert asyncio.run(_nodelay_of_a_new_connection()) == 1
        patched = WebSocketMixin.open
        PyFileConfigLoader("voila.py", path=str(CONFIG)).load_config()  # Voila's; same process
        assert WebSocketMixin.open is patched  # wrapped once
    finally:
        WebSocketMixin.open = original


def test_every_launcher_uses_the_config_directory():
    makefile = (ROOT / "Makefile").read_text()
    assert "JUPYTER_CONFIG_PATH=$(CURDIR)/etc/jupyter" in makefile
    for target in ("lab:", "present:"):
        recipe = makefile.split(f"\n{target}", 1)[1].split("\n\n", 1)[0]
        assert "$(PROJECT_JUPYTER_PATH)" in recipe, target
    post_build = (ROOT / "postBuild").read_text()
    for name in ("genviz_websockets.py", "jupyter_server_config.py", "voila.py"):
        assert (CONFIG / name).is_file()
        assert f"etc/jupyter/{name}" in post_build
    pages = (ROOT / "browser_tests" / "pages.py").read_text()
    assert 'env["JUPYTER_CONFIG_PATH"]' in pages and '"etc" / "jupyter"' in pages


# -- no echo_update per widget update (JUPYTER_WIDGETS_ECHO=0 for the kernels) --------------------
_ECHO_PROBE = """
import ipywidgets as w
sent = []
s = w.FloatSlider(value=0.0, min=-1, max=1, step=0.1)
s._send = lambda msg, buffers=None: sent.append(msg.get("method"))
s.set_state({"value": 0.5})  # what a browser's slider move does in the kernel
print(sent.count("echo_update"), s.value)
"""


def _echo_messages(env_value):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_WIDGETS_ECHO"}
    if env_value is not None:
        env["JUPYTER_WIDGETS_ECHO"] = env_value
    out = subprocess.run([sys.executable, "-c", _ECHO_PROBE], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return int(out[0]), float(out[1])


def test_config_turns_the_widget_echo_off_for_the_kernels(monkeypatch):
    """Loading the config sets JUPYTER_WIDGETS_ECHO=0 in the server's environment (its kernels
    inherit it) unless already set; ipywidgets then sends no echo_update for a browser's slider
    move -- and does by default (the message the config removes)."""
    pytest.importorskip("ipywidgets")
    monkeypatch.delenv("JUPYTER_WIDGETS_ECHO", raising=False)
    original = WebSocketMixin.open
    try:
        PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
        import os

        assert os.environ["JUPYTER_WIDGETS_ECHO"] == "0"
        monkeypatch.setenv("JUPYTER_WIDGETS_ECHO", "1")  # a value set before the server wins
        PyFileConfigLoader("voila.py", path=str(CONFIG)).load_config()
        assert os.environ["JUPYTER_WIDGETS_ECHO"] == "1"
    finally:
        WebSocketMixin.open = original
    assert _echo_messages(None) == (1, 0.5)  # ipywidgets' default: one echo per update
    assert _echo_messages("0") == (0, 0.5)  # with the config's setting: none, value still set
