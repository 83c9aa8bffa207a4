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
