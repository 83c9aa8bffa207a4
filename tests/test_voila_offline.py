"""Voila's pages ask nothing of the network (#37 item 5). Every Voila page the project serves
uses the genviz template by default (etc/jupyter/voila.py sets VoilaConfiguration.template;
share/jupyter/voila/templates/genviz: the lab template without its two FontAwesome stylesheets
from a CDN -- Voila's bundle already carries FontAwesome), and lecture mode's genviz-lecture
template extends it. Pages are rendered by real servers on 127.0.0.1 (a one-cell notebook):
standalone Voila with the lecture template (make present), and a Jupyter server's Voila
extension at ``/voila/render/...`` with no ``?template=`` (how the hubs' servers and make lab
serve it), with the project's Jupyter paths. Every address the browser would fetch --
``<link href>``, ``<script src>``, ``<img src>``, ``<iframe src>``, CSS ``url()`` and
``@import`` -- must be relative or on the server itself.
"""

from __future__ import annotations

import html.parser
import os
import secrets
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from traitlets.config import PyFileConfigLoader

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


# --- the default template: a page of the Voila server extension, no ?template= --------------

#: http(s) strings in a default page that fetch nothing from these pages: XML namespaces and
#: the DTD of the spinner's SVG, comments of nbconvert's inline script, the Mermaid modules
#: nbconvert's script imports only when a cell holds a Mermaid diagram (the course has none:
#: test below), and the MathJax 2 address Voila puts in its page configuration (JupyterLab's
#: typesetter plugin; the browser's request log, browser_tests/test_voila.py, is the check
#: that a page with mathematics stays on the machine)
NOT_FETCHED = ("http://www.w3.org/", "https://www.w3.org/TR/", "http://creativecommons.org/ns#",
               "http://purl.org/dc/", "https://developer.mozilla.org/",
               "https://cdnjs.cloudflare.com/ajax/libs/mermaid/",
               "https://cdnjs.cloudflare.com/ajax/libs/mermaid-layout-elk/",
               "https://cdnjs.cloudflare.com/ajax/libs/mathjax/")
CDN_FONTAWESOME = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@"


@pytest.fixture(scope="module")
def render_pages(tmp_path_factory) -> dict:
    """The notebook rendered by a Jupyter server's Voila extension with the project's Jupyter
    paths (as make lab sets them; the hubs put the same directories on their paths,
    tests/test_deploy.py): the default page, and the same with ``?template=lab`` (Voila's
    default) and ``?template=genviz-lecture``."""
    root = tmp_path_factory.mktemp("voila-render")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A default page"),
                nbformat.v4.new_code_cell("print('ready')")]
    nbformat.write(nb, root / "page.ipynb")
    port, token = _free_port(), secrets.token_hex(8)
    env = {**os.environ, "JUPYTER_PATH": str(ROOT / "share/jupyter"),
           "JUPYTER_CONFIG_PATH": str(ROOT / "etc/jupyter"),
           "JUPYTER_RUNTIME_DIR": str(root / "runtime")}
    args = [sys.executable, "-m", "jupyter_server", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}", "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:
        args.append("--allow-root")
    proc = subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/voila/render/page.ipynb?token={token}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}",
                                       timeout=10).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.5)
        pages = {}
        for name, query in (("default", ""), ("lab", "&template=lab"),
                            ("genviz-lecture", "&template=genviz-lecture")):
            with urllib.request.urlopen(base + query, timeout=90) as r:
                pages[name] = r.read().decode("utf-8", "replace")
        yield pages
    finally:
        terminate(proc)


def _fetched(page: str) -> list[str]:
    p = _Fetched()
    p.feed(page)
    return p.urls


def test_a_default_voila_page_references_no_external_url(render_pages):
    page = render_pages["default"]
    assert "A default page" in page and "/voila/templates/genviz/static/" in page
    assert any("voila" in u for u in _fetched(page))
    assert not external(_fetched(page)), external(_fetched(page))
    # any http(s) address at all in the HTML: on this machine, or one that fetches nothing
    away = [u for u in external(re.findall(r"""https?://[^\s"'<>()`\\]+""", page))
            if not u.startswith(NOT_FETCHED)]
    assert not away, away


def test_the_default_page_is_voilas_lab_page_without_the_cdn(render_pages):
    """The oracle is Voila's own lab page of the same notebook: the genviz page fetches the
    same addresses (its static files under its own template name) less the two FontAwesome
    stylesheets, so the restated block dropped nothing else."""
    lab = _fetched(render_pages["lab"])
    assert sorted(u for u in lab if u.startswith(CDN_FONTAWESOME)) == [
        CDN_FONTAWESOME + "^5/css/all.min.css", CDN_FONTAWESOME + "^5/css/v4-shims.min.css"]
    expected = [u.replace("/voila/templates/lab/", "/voila/templates/genviz/")
                for u in lab if not u.startswith(CDN_FONTAWESOME)]
    assert _fetched(render_pages["default"]) == expected


def test_the_lecture_template_extends_the_offline_one(render_pages):
    page = render_pages["genviz-lecture"]
    assert "genviz-prose" in page  # lecture.css
    assert not external(_fetched(page)), external(_fetched(page))


def test_voila_keeps_its_default_where_the_template_is_not_installed(tmp_path, monkeypatch):
    """etc/jupyter/voila.py names the genviz template only when it is on the Jupyter data path
    (postBuild copies voila.py into an image's prefix: a Voila naming a template it cannot
    find would fail every page)."""
    def template(jupyter_path):
        monkeypatch.setenv("JUPYTER_PATH", jupyter_path)
        config = PyFileConfigLoader("voila.py", path=str(ROOT / "etc/jupyter")).load_config()
        return config.VoilaConfiguration.get("template")

    assert template(str(ROOT / "share/jupyter")) == "genviz"
    assert template(str(tmp_path)) is None


def test_no_course_notebook_draws_a_mermaid_diagram():
    """nbconvert's page script imports Mermaid from a CDN for a Mermaid diagram (NOT_FETCHED)."""
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert not any("```mermaid" in c.source for c in nb.cells if c.cell_type == "markdown"), \
            path.name
