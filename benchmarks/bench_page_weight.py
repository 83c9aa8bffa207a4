"""Page weight of the course website (issue #37): bytes a cold browser transfers per page,
compressed as a static host sends them, the page's own explorer states apart.

    python benchmarks/bench_page_weight.py                     # build/site -> benchmarks/page_weight.md
    python benchmarks/bench_page_weight.py --label after --out /tmp/w.md --pages index.html

The site (``make site`` -> build/site/) is served by :class:`CompressingServer`: Python's
``http.server`` on 127.0.0.1 (a thread of this process, shut down at the end) whose handler
gzips (level 6, as nginx's ``gzip on`` and GitHub Pages do) every text type -- HTML, CSS,
JavaScript, JSON, SVG -- for a client that accepts it; images and web fonts (PNG, WOFF/WOFF2:
compressed already) are sent as they are. The server counts the bytes it writes per request
(status line, headers, body).

Each page is opened in a new Chromium context (an empty cache: a cold load) at a phone's
390x844 viewport (the lecture hall's case; ``--laptop``: 1280x800, the wide layout), every request to another host aborted and counted.
After the load event the page is scrolled to its end, so everything a reader of the whole page
fetches is fetched (lazily loaded images, MathJax's fonts for the formulas further down), then
waits for the network to be quiet. Bytes are Chromium's own count of each response on the wire
(CDP ``Network.loadingFinished.encodedDataLength``: compressed body and headers), summed by
resource type; the server's count of the same load is the cross-check (``server`` column).

*States*: an explorer's precomputed states are one file per layout,
``_static/genviz-grids/<hash>.js`` (docs/conf.py ``split_grids``), which the page fetches for
the layout its width asks for (a phone the narrow one only), plus the explorer's description
embedded in the page as a ``<script type="application/json" class="genviz-explorer-data">``:
the bytes of those files on the wire, and the share of that script in the compressed page (the
gzip size of the HTML minus that of the same HTML with those scripts emptied). *Without states*
is the total minus both: the figure that issue #37's 1 MB budget applies to
(``browser_tests/test_site.py::test_site_page_weight`` asserts it).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import http.server
import io
import os
import platform
import re
import socket
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
CHROMIUM = os.environ.get("GENVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: issue #37: a page, without its own explorer states, at most this many bytes cold (compressed)
BUDGET = 1_000_000
GZIP_LEVEL = 6
COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml",
                    "application/xml", "application/x-javascript")
STATES = re.compile(r'(<script type="application/json" class="genviz-explorer-data">)(.*?)(</script>)',
                    re.S)
#: where a page's explorers' states are, one file per layout (docs/conf.py ``GRID_DIR``)
GRID_FILES = "/_static/genviz-grids/"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
TYPES = ("document", "stylesheet", "script", "font", "image", "other")


def compressible(content_type: str) -> bool:
    return content_type.startswith(COMPRESSED_TYPES)


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped for text types when the client accepts gzip; bytes written are
    added to ``self.server.sent[path]``."""

    def log_message(self, *args):
        pass

    def send_head(self):  # noqa: D401 -- SimpleHTTPRequestHandler's hook
        path = self.translate_path(self.path)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if os.path.isdir(path) or not os.path.isfile(path) or not accepts:
            return super().send_head()
        ctype = self.guess_type(path)
        if not compressible(ctype):
            return super().send_head()
        body = self.server.gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def setup(self):
        super().setup()
        raw = self.wfile
        handler = self

        class Counting:
            def write(self, data):
                handler.server.count(unquote(urlparse(handler.path).path)
                                     if hasattr(handler, "path") else "?", len(data))
                return raw.write(data)

            def flush(self):
                return raw.flush()

            def __getattr__(self, name):
                return getattr(raw, name)

        self.wfile = Counting()


class CompressingServer:
    """``with CompressingServer(directory) as base_url:`` the static host of the module's
    docstring, on a free 127.0.0.1 port, for the block. ``.sent`` maps a URL path to the bytes
    written for it (headers and body); ``.reset()`` empties it."""

    def __init__(self, directory: Path = SITE):
        self.directory = Path(directory)
        self.sent: dict[str, int] = {}
        self._cache: dict[str, bytes] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        handler = functools.partial(_Handler, directory=str(self.directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.httpd.gzipped = self._gzipped
        self.httpd.count = self._count
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=10)

    def _gzipped(self, path: str) -> bytes:
        with self._lock:
            if path not in self._cache:
                self._cache[path] = gzip.compress(Path(path).read_bytes(), GZIP_LEVEL, mtime=0)
            return self._cache[path]

    def _count(self, path: str, n: int) -> None:
        with self._lock:
            self.sent[path] = self.sent.get(path, 0) + n

    def reset(self) -> None:
        with self._lock:
            self.sent.clear()


def states_share(html: bytes) -> tuple[int, int]:
    """``(raw bytes, compressed bytes)`` of a page's embedded explorer states: the JSON inside
    its ``genviz-explorer-data`` scripts, and how much smaller the gzipped page gets when they
    are emptied."""
    text = html.decode("utf-8")
    raw = sum(len(m.group(2).encode()) for m in STATES.finditer(text))
    if not raw:
        return 0, 0
    stripped = STATES.sub(lambda m: m.group(1) + m.group(3), text).encode()
    return raw, (len(gzip.compress(html, GZIP_LEVEL, mtime=0))
                 - len(gzip.compress(stripped, GZIP_LEVEL, mtime=0)))


def _kind(cdp_type: str) -> str:
    kind = (cdp_type or "other").lower()
    return kind if kind in TYPES else "other"


def measure_page(browser, server: CompressingServer, base_url: str, page_path: str,
                 viewport: dict = PHONE) -> dict:
    """One cold load of ``base_url/page_path`` (see the module's docstring): bytes on the wire
    by resource type, requests, the states' share, what the server sent, other hosts asked."""
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600,
                                  has_touch=viewport["width"] < 600)
    outside: list[str] = []

    def route(r):
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort("blockedbyclient")

    context.route("**/*", route)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    kinds, sizes, urls = {}, {}, {}
    cdp.on("Network.requestWillBeSent", lambda ev: (kinds.__setitem__(ev["requestId"], ev.get("type")),
                                                    urls.__setitem__(ev["requestId"], ev["request"]["url"])))
    cdp.on("Network.loadingFinished",
           lambda ev: sizes.__setitem__(ev["requestId"], ev.get("encodedDataLength", 0)))
    server.reset()
    try:
        page.goto(f"{base_url}/{page_path}", wait_until="load", timeout=120_000)
        page.evaluate("""async () => {
            const step = Math.max(200, Math.floor(window.innerHeight * 0.9));
            for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
                window.scrollTo(0, y); await new Promise(r => setTimeout(r, 40)); }
            window.scrollTo(0, document.documentElement.scrollHeight); }""")
        if page.evaluate("() => !!document.querySelector('.math')"):
            page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)",
                                   timeout=60_000)
            page.evaluate("() => window.MathJax && MathJax.startup.promise")
        try:
            page.wait_for_load_state("networkidle", timeout=20_000)
        except Exception:  # a busy renderer may not report idle: every byte is counted anyway
            page.wait_for_timeout(2_000)
        page.wait_for_timeout(500)
    finally:
        context.close()
    by_kind = dict.fromkeys(TYPES, 0)
    grid_files, grid_bytes = [], 0
    for rid, n in sizes.items():
        if urls.get(rid, "").startswith(("data:", "blob:")):
            continue
        by_kind[_kind(kinds.get(rid))] += n
        if GRID_FILES in urls.get(rid, ""):  # a layout's states, fetched by the explorer
            grid_files.append(unquote(urlparse(urls[rid]).path).split(GRID_FILES, 1)[1])
            grid_bytes += n
    html = server.directory.joinpath(page_path).read_bytes()
    states_raw, inline_gz = states_share(html)
    states_raw += sum(server.directory.joinpath("_static", "genviz-grids", f).stat().st_size
                      for f in grid_files)
    states_gz = inline_gz + grid_bytes
    total = sum(by_kind.values())
    return {"page": page_path, "requests": sum(1 for r in sizes if not urls.get(r, "").startswith(("data:", "blob:"))),
            **by_kind, "total": total, "states_raw": states_raw, "states": states_gz,
            "states_inline": inline_gz, "states_files": grid_bytes,
            "without_states": total - states_gz, "server": sum(server.sent.values()),
            "outside": sorted(set(outside))}


def measure_lecture_page(browser) -> dict:
    """The lecture page (deploy/poll/lecture.py) served by the poll service standalone, with
    the tests' stand-in hub for the login (tests/lecture_testing.py: the service's real
    ``HubOAuth``, no bundle, so no question open): a cold phone logs in and the page is drawn.
    Bytes on the wire as the service sends them (it gzips its page itself), the stand-in hub's
    login and redirects included; the real hub's login page (its own CSS and fonts) is not
    measured here -- browser_tests/test_lecture_page.py measures the page behind the trial hub."""
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from lecture_testing import LocalLectureService

    with tempfile.TemporaryDirectory() as state:
        service = LocalLectureService(Path(state))
        try:
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            kinds, sizes, urls = {}, {}, {}
            cdp.on("Network.requestWillBeSent",
                   lambda ev: (kinds.__setitem__(ev["requestId"], ev.get("type")),
                               urls.__setitem__(ev["requestId"], ev["request"]["url"])))
            cdp.on("Network.loadingFinished",
                   lambda ev: sizes.__setitem__(ev["requestId"], ev.get("encodedDataLength", 0)))
            page.goto(service.page, wait_until="load", timeout=60_000)  # the hub's login form
            page.goto(page.url + ("&" if "?" in page.url else "?") + "user=ada",
                      wait_until="load", timeout=60_000)
            page.wait_for_function("() => document.body.dataset.version !== undefined",
                                   timeout=60_000)
            page.wait_for_timeout(500)
            context.close()
        finally:
            service.stop()
    by_kind = dict.fromkeys(TYPES, 0)
    for rid, n in sizes.items():
        by_kind[_kind(kinds.get(rid))] += n
    outside = sorted({u for u in urls.values() if urlparse(u).hostname != "127.0.0.1"})
    total = sum(by_kind.values())
    return {"page": "lecture page (service standalone, stand-in hub login)", "requests": len(sizes),
            **by_kind, "total": total, "states_raw": 0, "states": 0, "without_states": total,
            "server": None, "outside": outside}


def site_pages(site: Path = SITE) -> list[str]:
    """Every HTML page of a built site, relative to its root (not _static's or _sources')."""
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                  if "_static" not in p.parts and "_sources" not in p.parts)


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def _kb(n: int) -> str:
    return f"{n / 1000:,.0f}"


def table(rows: list[dict]) -> str:
    head = ("| page | requests | HTML | CSS | JS | fonts | images | other | **total without states** "
            "| states (raw) | total | server sent | other hosts |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in rows:
        # the states apart: their share of the HTML, and the state files among the scripts
        html = r["document"] - r.get("states_inline", r["states"])
        script = r["script"] - r.get("states_files", 0)
        lines.append(
            f"| {r['page']} | {r['requests']} | {_kb(html)} | {_kb(r['stylesheet'])} | {_kb(script)} "
            f"| {_kb(r['font'])} | {_kb(r['image'])} | {_kb(r['other'])} | **{_kb(r['without_states'])}** "
            f"| {_kb(r['states'])} ({_kb(r['states_raw'])}) | {_kb(r['total'])} "
            f"| {'—' if r['server'] is None else _kb(r['server'])} "
            f"| {len(r['outside'])} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(SITE))
    parser.add_argument("--pages", nargs="*", help="pages relative to the site (default: all)")
    parser.add_argument("--label", default="", help="a word for the section's heading")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "page_weight.md"))
    parser.add_argument("--laptop", action="store_true",
                        help="a laptop's 1280x800 viewport (the wide layout's states) instead of "
                             "a phone's")
    parser.add_argument("--lecture", action="store_true",
                        help="also the lecture page, its service started standalone")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    site = Path(args.site)
    pages = args.pages or site_pages(site)
    viewport = LAPTOP if args.laptop else PHONE
    rows = []
    t0 = time.time()
    server = CompressingServer(site)
    with server as base, sync_playwright() as p:
        browser = launch(p)
        for name in pages:
            row = measure_page(browser, server, base, name, viewport=viewport)
            rows.append(row)
            print(f"{name}: {row['without_states']:,} B without states "
                  f"({row['total']:,} B total, {row['requests']} requests)", flush=True)
        if args.lecture:
            row = measure_lecture_page(browser)
            rows.append(row)
            print(f"{row['page']}: {row['total']:,} B ({row['requests']} requests)", flush=True)
        browser.close()
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = os.getloadavg()[0]
    worst = max(rows, key=lambda r: r["without_states"])
    section = (f"\n## {args.label + ', ' if args.label else ''}{stamp} ({platform.node() or 'vm'}, "
               f"load {load:.1f}, {time.time() - t0:.0f} s)\n\n"
               f"kB (1000 bytes) transferred, compressed as sent, headers included; "
               f"{'laptop' if args.laptop else 'phone'} viewport "
               f"{viewport['width']}x{viewport['height']}, cold cache, the page scrolled to its end. Heaviest page without its "
               f"states: {worst['page']}, {_kb(worst['without_states'])} kB (budget "
               f"{_kb(BUDGET)} kB).\n\n" + table(rows) + "\n")
    out = Path(args.out)
    if not out.exists():
        out.write_text(HEADER)
    with out.open("a") as f:
        f.write(section)
    print(section)
    return 0


HEADER = """# Page weight of the course website (issue #37)

Written by `python benchmarks/bench_page_weight.py` (each run appends a section): every page of
`build/site/` loaded cold in Chromium from a local static host that gzips text types (level 6);
how, and what each column counts: the docstring of `benchmarks/bench_page_weight.py`. Budget
(issue #37): a page at most 1 MB transferred cold, compressed, apart from its own explorer
states (*total without states*), asserted by `browser_tests/test_site.py::test_site_page_weight`.
"""

if __name__ == "__main__":
    sys.exit(main())
