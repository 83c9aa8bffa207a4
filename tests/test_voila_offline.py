"""Voila's lecture page asks nothing of the network (#37 item 5): the genviz-lecture template
(share/jupyter/voila/templates/genviz-lecture) drops the lab template's two FontAwesome
stylesheets from a CDN (Voila's bundle already carries FontAwesome). The page is rendered by a
real Voila server (127.0.0.1, a one-cell notebook) and every address the browser would fetch
-- ``<link href>``, ``<script src>``, ``<img src>``, ``<iframe src>``, CSS ``url()`` and
``@import`` -- must be relative or on the server itself.
"""

from __future__ import annotations

import html.parser
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from hub_testing import terminate

ROOT = Path(__file__).resolve().parents[1]
VOILA = Path(sys.executable).with_name("voila")

pytestmark = pytest.mark.skipif(not VOILA.exists(), reason="voila is not installed")


class _Fetched(html.parser.HTMLParser):
    """The addresses a browser would fetch from a page."""

    ATTRS = {"link": "href", "script": "src", "img": "src", "iframe": "src", "source": "src"}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []
        self._style = False

    def handle_starttag(self, tag, attrs):
        want = self.ATTRS.get(tag)
        for name, value in attrs:
            if name == want and value:
                self.urls.append(value)
            if name == "style" and value:
                self.urls += _css_urls(value)
        self._style = tag == "style"

    def handle_endtag(self, tag):
        self._style = False

    def handle_data(self, data):
        if self._style:
            self.urls += _css_urls(data)


def _css_urls(css: str) -> list[str]:
    found = re.findall(r"url\(\s*['\"]?([^'\")]+)", css)
    found += re.findall(r"@import\s+['\"]([^'\"]+)", css)
    return found


def external(urls, host="127.0.0.1") -> list[str]:
    """The URLs that leave the machine (absolute, or protocol-relative, to another host)."""
    out = []
    for url in urls:
        u = url.strip()
        m = re.match(r"(?:[a-z]+:)?//([^/:]+)", u, re.I)
        if m and m.group(1) not in (host, "localhost"):
            out.append(u)
    return out


def test_external_finds_what_leaves_the_machine():
    p = _Fetched()
    p.feed('<link rel="stylesheet" href="https://cdn.jsdelivr.net/x.css">'
           '<script src="/voila/static/voila.js"></script><img src="data:;base64,=">'
           '<style>@import "//fonts.example.org/f.css"; a{background:url(img/a.png)}</style>'
           '<div style="background:url(\'http://127.0.0.1:8866/x.png\')"></div>')
    assert external(p.urls) == ["https://cdn.jsdelivr.net/x.css", "//fonts.example.org/f.css"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lecture_page(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("voila")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lecture page"),
                nbformat.v4.new_code_cell("print('ready')")]
    nbformat.write(nb, root / "page.ipynb")
    port = _free_port()
    env = {**os.environ, "JUPYTER_PATH": str(ROOT / "share/jupyter"),
           "JUPYTER_CONFIG_PATH": str(ROOT / "etc/jupyter")}
    proc = subprocess.Popen(
        [str(VOILA), "page.ipynb", "--no-browser", "--template=genviz-lecture",
         f"--port={port}", "--Voila.ip=127.0.0.1"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as r:
                    yield r.read().decode("utf-8", "replace")
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.5)
    finally:
        terminate(proc)


def test_the_lecture_page_references_no_external_url(lecture_page):
    assert "A lecture page" in lecture_page and "genviz-prose" in lecture_page
    p = _Fetched()
    p.feed(lecture_page)
    assert any("voila" in u for u in p.urls)  # the page's own assets were seen
    assert not external(p.urls), external(p.urls)
