"""Helpers of the course-website and accessibility browser tests (test_site.py, test_a11y.py).

* :func:`serve` serves build/site/ with Python's http.server on 127.0.0.1 (a thread);
* :func:`guard_network` routes every request of a browser context: 127.0.0.1 goes through,
  anything else is aborted and recorded (the site must not need any other host);
* :func:`axe` runs axe-core (the copy bundled in the ``axe-playwright-python`` wheel: nothing
  is fetched) and returns the violations, each with its impact and the nodes it concerns;
* :func:`wait_explorers_started` waits for a page's explorers to start from their states.
"""

from __future__ import annotations

import functools
import json
import http.server
import pathlib
import subprocess
import sys
import threading
from urllib.parse import urlparse

import pytest

from pages import ARTIFACTS, ROOT, free_port

SITE = ROOT / "build" / "site"
SITE_ARTIFACTS = ARTIFACTS.parent / "site"
A11Y_ARTIFACTS = ARTIFACTS.parent / "a11y"
SEVERE = ("serious", "critical")


def site_pages() -> list[str]:
    """The pages the site must have, from its sources (known before it is built): the start
    page, one per notebook, the API reference's introduction and its page per layer
    (docs/api-*.md: api-models.html ...), every other docs/*.md page, the index and the search
    page."""
    nbs = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    docs = sorted(f"{p.stem}.html" for p in (ROOT / "docs").glob("*.md")
                  if p.stem not in ("index", "api"))  # e.g. api-models.html, scikit-learn.html
    return ["index.html", "api.html", "genindex.html", "search.html"] + docs + \
        [f"notebooks/{stem}.html" for stem in nbs]


def built_pages() -> list[str]:
    """Every HTML page of the built site, relative to its root."""
    return sorted(str(p.relative_to(SITE)) for p in SITE.rglob("*.html")
                  if "_static" not in p.parts and "_sources" not in p.parts)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output readable
        pass


class serve:
    """``with serve(directory) as base_url:`` a static server on 127.0.0.1 for the block."""

    def __init__(self, directory: pathlib.Path = SITE):
        self.directory = directory

    def __enter__(self) -> str:
        handler = functools.partial(_QuietHandler, directory=str(self.directory))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def guard_network(context, record: dict) -> None:
    """Abort every request to a host other than 127.0.0.1 and keep a log of what happened:
    ``blocked`` (other hosts), ``failed`` (requests that failed), ``bad_status`` (>= 400)."""
    record.setdefault("blocked", [])
    record.setdefault("failed", [])
    record.setdefault("bad_status", [])

    def route(r):
        url = r.request.url
        host = urlparse(url).hostname
        if url.startswith(("data:", "blob:", "about:")) or host in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            record["blocked"].append(url)
            r.abort("blockedbyclient")

    context.route("**/*", route)
    context.on("requestfailed", lambda req: record["failed"].append(
        f"{req.url} ({req.failure})"))
    context.on("response", lambda resp: resp.status >= 400 and record["bad_status"].append(
        f"{resp.status} {resp.url}"))


def wait_explorers_started(page, timeout_ms: int = 60_000, *, at_least_one: bool = True) -> None:
    """Wait until every explorer of a site page has started from its states (explorer.js keeps
    the view as the box's ``__genviz`` and its first grid as ``.grid``) or shows the notice
    that it could not start. ``at_least_one``: the page must have an explorer (a notebook page
    that has lost its explorers then times out instead of passing)."""
    page.wait_for_function(
        """(atLeastOne) => { const b = [...document.querySelectorAll('.genviz-static-explorer')];
        return (b.length > 0 || !atLeastOne) && b.every(x => x.__genviz && (x.__genviz.grid
            || x.querySelector('.genviz-notice:not([hidden])'))); }""",
        arg=at_least_one, timeout=timeout_ms)


def axe(page, context=None) -> list[dict]:
    """axe-core's violations on the page (or inside ``context``, an axe context selector)."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"resultTypes": ["violations"]}
    return Axe().run(page, context=context, options=options).response["violations"]


def summarize_violations(violations: list[dict]) -> dict:
    """impact -> number of violated rules, and the rules with their node count."""
    counts = {"critical": 0, "serious": 0, "moderate": 0, "minor": 0}
    rules = []
    for v in violations:
        counts[v.get("impact") or "minor"] += 1
        rules.append({"id": v["id"], "impact": v.get("impact"), "nodes": len(v["nodes"]),
                      "help": v["help"],
                      "targets": [n["target"] for n in v["nodes"][:5]],
                      "all_targets": [json.dumps(n["target"]) for n in v["nodes"]],
                      "html": [n.get("html", "")[:160] for n in v["nodes"]]})
    return {"counts": counts, "rules": rules}


@pytest.fixture(scope="session")
def built_site():
    """Build (or bring up to date) build/site/ once per session; a build failure fails here."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py")],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, f"site build failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return SITE
