"""Fixtures of the real-browser suite: one JupyterLab, one Voila (``make present``) and one
headless Chromium per session; each notebook is opened and run once, then every test about it
reads the same live page.

Run with ``make test-browser`` (not part of ``make test``). Artefacts (screenshots, logs, a
per-notebook JSON record) go to ``artifacts/browser/``; the latency table to
``benchmarks/browser_latency.md`` when every notebook was measured.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import pathlib
import pickle
import secrets
import subprocess
import time

import pytest

import pages
from pages import (ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, INIT_JS, LAYOUT_ARTIFACTS, ROOT,
                   LabNotebook, free_port, gv, notebooks)

NOTEBOOK_NAMES = [p.name for p in notebooks()]
LATENCY_MD = ROOT / "benchmarks" / "browser_latency.md"
# Where the notebooks are used (ARCHITECTURE.md): JupyterLab on a 1280x800 laptop with the file
# browser open (its default), 1366x768 and 1920x1080; Voila lecture mode on a projector at
# 1280x720 and 1920x1080. Each notebook runs once, at the first viewport of its list; the
# layout tests resize that same page through the rest of the list.
LAB_VIEWPORT = {"width": 1280, "height": 800}
LAB_VIEWPORTS = [LAB_VIEWPORT, {"width": 1366, "height": 768}, {"width": 1920, "height": 1080}]
LECTURE_VIEWPORT = {"width": 1280, "height": 720}
LECTURE_VIEWPORTS = [LECTURE_VIEWPORT, {"width": 1920, "height": 1080}]
#: Lecture mode's promised text sizes (share/jupyter/voila/templates/genviz-lecture/lecture.css)
LECTURE_MIN_PX = {"prose": 22, "labels": 20, "slider_readouts": 20, "buttons": 20, "readout": 20}


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.slow)


def _worker(config) -> str | None:
    """The pytest-xdist worker's name (``gw0``…), None in the controller or a serial run."""
    return getattr(config, "workerinput", {}).get("workerid")


def pytest_sessionstart(session):
    """Once per run (the controller, never a worker): clear the last run's screenshots and
    latency parts. ``make test-browser`` runs two workers, one test file each at a time."""
    if _worker(session.config) is None:
        LAYOUT_ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for old in [*ARTIFACTS.glob("*.png"), *LAYOUT_ARTIFACTS.glob("*.png"),
                    *ARTIFACTS.glob("latency_part_*.pkl")]:
            old.unlink(missing_ok=True)


def pytest_sessionfinish(session):
    """The controller merges the workers' latency tables into one (browser_latency.md)."""
    if _worker(session.config) is not None:
        return
    parts = sorted(ARTIFACTS.glob("latency_part_*.pkl"))
    if not parts:
        return
    merged = _empty_latency_table()
    for part in parts:
        for name, value in pickle.loads(part.read_bytes()).items():
            merged.setdefault(name, type(value)()).update(value)
        part.unlink()
    _write_latency_table(merged)


@pytest.fixture(scope="session")
def artifacts():
    LAYOUT_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser(artifacts):
    if not pathlib.Path(CHROMIUM).exists():
        pytest.exit(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium", 2)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclasses.dataclass
class Lab:
    base: str
    token: str
    runtime: pathlib.Path

    def api(self, path, method="GET"):
        return pages.token_api(f"{self.base}{path}", self.token, method)

    def session(self, name):
        for s in self.api("/api/sessions"):
            if s["path"].endswith(name):
                return s
        return None

    def connection_file(self, name) -> pathlib.Path:
        return self.runtime / f"kernel-{self.session(name)['kernel']['id']}.json"

    def kernel_idle(self, name) -> bool:
        s = self.session(name)
        return bool(s) and s["kernel"]["execution_state"] == "idle"


@pytest.fixture(scope="session")
def lab(artifacts, tmp_path_factory):
    token = secrets.token_urlsafe(24)
    server, base, runtime = pages.start_lab(tmp_path_factory.mktemp("lab"), token)
    yield Lab(base, token, runtime)
    server.stop()


@pytest.fixture(scope="session")
def voila(artifacts):
    port = free_port()
    server = pages.start_voila(port)
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture(scope="session")
def latency_table(artifacts, request):
    """Rows appended by the latency tests; written as Markdown at the end of the session.
    Keys: (notebook, explorer index, slider label); "explorers": (notebook, index) -> info;
    "drags": key -> websocket messages a drag sent; "site": key -> summary."""
    table = _empty_latency_table()
    yield table
    worker = _worker(request.config)
    if worker is None:
        _write_latency_table(table)
    else:  # the controller merges the parts (pytest_sessionfinish)
        (ARTIFACTS / f"latency_part_{worker}.pkl").write_bytes(pickle.dumps(table))


def _empty_latency_table() -> dict:
    return {"lab": {}, "voila": {}, "site": {}, "explorers": {}, "drags": {}, "paths": {}}


@dataclasses.dataclass
class OpenNotebook:
    name: str
    page: object
    record: dict
    explorers: list  # [{"index", "title", "slider"}]

    @property
    def stem(self):
        return pathlib.Path(self.name).stem


def _new_page(browser, viewport, record):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(INIT_JS)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("console", lambda m: record["console_errors"].append(m.text)
            if m.type == "error" else None)
    page.on("pageerror", lambda e: record["page_errors"].append(str(e)))
    # every address the page asks for (test_voila: none may leave 127.0.0.1)
    record.setdefault("requests", [])
    page.on("request", lambda r: record["requests"].append(r.url))
    return context, page


def _describe_explorers(page) -> list:
    return page.evaluate("""() => window.__gv.explorers().map((r, i) => ({
        index: i,
        title: ((r.querySelector('.genviz-title b') || {}).innerText || '').trim(),
        slider: ((r.querySelector('.genviz-slider .genviz-label') || {}).innerText || '').trim(),
        id: r.dataset.explorerId || '',
    }))""")


def _expects_widgets(name) -> bool:
    """Whether a notebook displays widgets (then the page is not ready before some render)."""
    nb = json.loads((pages.NOTEBOOK_DIR / name).read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return any(s in code for s in ("explorer(", "show(", "toggle(", "widgets."))


def _wait_for_figures(page, name, timeout_s=90):
    """Until every explorer canvas shows an image (some ink) and the set is stable for 1.5 s.
    (Voila renders widgets after the page loads.)"""
    deadline = time.monotonic() + timeout_s
    last, since = None, time.monotonic()
    need = 1 if _expects_widgets(name) else 0
    while time.monotonic() < deadline:
        state = page.evaluate("""() => { const c = window.__gv.canvases(document);
            return [c.length, c.filter(x => x.width > 0 && window.__gv.inked(x) > 0).length,
                    document.querySelectorAll('.jupyter-widgets, .genviz-explorer').length]; }""")
        if state != last:
            last, since = state, time.monotonic()
        elif (state[0] == state[1] and state[2] >= need
              and time.monotonic() - since > 1.5):
            return state
        page.wait_for_timeout(250)
    return last


def _run_all_in_lab(page, lab, name, record, timeout_s=240):
    nb = LabNotebook(page).open(f"{lab.base}/lab/tree/{name}?reset&token={lab.token}",
                                timeout_ms=120_000)
    deadline = time.monotonic() + 120
    while not lab.kernel_idle(name):
        if time.monotonic() > deadline:
            raise AssertionError(f"{name}: kernel never became idle")
        time.sleep(0.5)
    failed_clicks = nb.run_all()
    if failed_clicks:
        record["run_all_retries"] = failed_clicks
    record["prompts"] = nb.wait_all_ran(
        timeout_s, settled=lambda ran: (ran or gv(page, "errors()")) and lab.kernel_idle(name),
        strict=False)


def _open_file_browser(page, record):
    """JupyterLab's default first screen has the file browser open; make sure it is (the
    layout claims are about that narrower output area) and record its width."""
    hidden = page.evaluate("() => { const s = document.querySelector('#jp-left-stack');"
                           " return !s || s.classList.contains('lm-mod-hidden') || "
                           "s.getBoundingClientRect().width === 0; }")
    if hidden:
        page.click(".jp-SideBar [data-id='filebrowser']")
        page.wait_for_timeout(800)
    record["left_sidebar_px"] = page.evaluate(
        "() => Math.round(document.querySelector('#jp-left-stack').getBoundingClientRect().width)")


def _open_page(browser, name, log_name, viewport):
    """A new page for notebook ``name`` and its record (errors, the server log's offset):
    (record, context, page, start time)."""
    record = {"notebook": name, "console_errors": [], "page_errors": [],
              "log_offset": (ARTIFACTS / log_name).stat().st_size}
    context, page = _new_page(browser, viewport, record)
    return record, context, page, time.monotonic()


def _page_outputs(page, record) -> list:
    """The rendered page's stderr, figures and explorers into ``record``; the explorers."""
    record["stderr"] = gv(page, "stderr()")
    record["figures"] = gv(page, "figures()")
    record["explorers"] = explorers = _describe_explorers(page)
    return explorers


@pytest.fixture(scope="session", params=NOTEBOOK_NAMES)
def lab_nb(request, browser, lab, artifacts):
    """A notebook opened in JupyterLab with ``?reset``, run with Run -> Run All."""
    name = request.param
    record, context, page, t0 = _open_page(browser, name, "jupyterlab.log", LAB_VIEWPORT)
    try:
        _run_all_in_lab(page, lab, name, record)
        _open_file_browser(page, record)
        record["figures_ready"] = _wait_for_figures(page, name)
        record["run_seconds"] = round(time.monotonic() - t0, 1)
        record["errors"] = gv(page, "errors()")
        explorers = _page_outputs(page, record)
        pages.full_page_screenshot(
            page, artifacts / f"{pathlib.Path(name).stem}_lab_full.png",
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer",
            LAB_VIEWPORT["width"])
        nb = OpenNotebook(name, page, record, explorers)
        nb.lab = lab
        yield nb
    finally:
        (artifacts / f"{pathlib.Path(name).stem}_lab.json").write_text(
            json.dumps(record, indent=1, default=str))
        context.close()
        session = lab.session(name)
        if session:  # free the CPU for the next notebook
            lab.api(f"/api/sessions/{session['id']}", method="DELETE")


@pytest.fixture(scope="session", params=NOTEBOOK_NAMES)
def voila_nb(request, browser, voila, artifacts):
    """A notebook rendered by Voila in lecture mode (``make present``) at 1280x720."""
    name = request.param
    record, context, page, t0 = _open_page(browser, name, "voila.log", LECTURE_VIEWPORT)
    try:
        response = page.goto(f"{voila}/voila/render/{name}", wait_until="load",
                             timeout=240_000)
        record["http_status"] = response.status if response else None
        record["figures_ready"] = _wait_for_figures(page, name)
        record["run_seconds"] = round(time.monotonic() - t0, 1)
        record["errors"] = gv(page, "errors()")
        if any("model not found" in e for e in record["errors"]):
            # Voila sometimes asks for a widget view before the widget's model has reached the
            # page (seen once in ~40 renders, never twice in a row): render once more, and keep
            # the first attempt's errors in the record so the retry stays visible.
            record["retried_after"] = record["errors"]
            response = page.goto(f"{voila}/voila/render/{name}", wait_until="load",
                                 timeout=240_000)
            record["http_status"] = response.status if response else None
            record["figures_ready"] = _wait_for_figures(page, name)
            record["errors"] = gv(page, "errors()")
        explorers = _page_outputs(page, record)
        pages.full_page_screenshot(page, artifacts / f"{pathlib.Path(name).stem}_voila_full.png",
                                   "#rendered_cells", LECTURE_VIEWPORT["width"])
        yield OpenNotebook(name, page, record, explorers)
    finally:
        (artifacts / f"{pathlib.Path(name).stem}_voila.json").write_text(
            json.dumps(record, indent=1, default=str))
        context.close()


def _chromium_version():
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
        return out.strip().splitlines()[0] if out.strip() else "chromium"
    except (OSError, subprocess.SubprocessError):
        return "chromium"


def _fmt(s, key="median"):
    return "—" if s is None or s.get("n", 0) == 0 else f"{s[key]:.0f}"


def _count(s):
    if not s:
        return "—"
    return f"{s['n']}" + (f" (+{s['missed']})" if s["missed"] else "")


def _write_latency_table(table):
    if not table["lab"] and not table["voila"] and not table["site"]:
        return
    lines = [
        "# Browser latency: slider change → painted frame",
        "",
        "Written by `make test-browser` (browser_tests/test_lab.py, test_voila.py, "
        f"test_site.py). Headless {_chromium_version()} driven by Playwright; JupyterLab and "
        f"Voilà on 127.0.0.1; the course website from build/site over http; {os.cpu_count()} "
        f"cores shared with other work (figures measured under that load); "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC.",
        "",
        "One sample = one arrow-key press on a focused slider (a native range input): from the "
        "keydown event (capture listener) to the first `requestAnimationFrame` after the "
        "canvas was painted with new pixels (detection granularity ≤ 1 frame ≈ 16 ms). "
        "**grid**: a slider whose states are precomputed (genviz.widgets.states): the browser "
        "paints the recorded state itself, the kernel hears the value later (debounced). "
        "**kernel**: the kernel updates the view and sends the recorded frame (one request in "
        "flight). `frame in`: keydown to the arrival of the kernel's frame message. "
        "`msgs/drag`: websocket messages the page sent during one mouse drag across the slider "
        "(goal ≤ 1). JupyterLab at 1280×800 with the file browser open; Voilà in lecture mode "
        "at 1280×720; the site at 1280×900. Goals (ARCHITECTURE.md, \"Targets\"): grid "
        "p95 ≤ 20 ms; kernel path ≤ 100 ms median, ≤ 150 ms p95.",
        "",
        "| notebook | explorer | slider | path | Lab n | Lab median | Lab p95 | Lab frame in | "
        "msgs/drag | Voilà median | Voilà p95 | site median | site p95 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    keys = sorted(set(table["lab"]) | set(table["voila"]) | set(table["site"]))
    for key in keys:
        nb, i, slider = key
        info = table["explorers"].get((nb, i), {})
        lab, vo, site = table["lab"].get(key), table["voila"].get(key), table["site"].get(key)
        drag = table["drags"].get(key)
        lines.append(
            f"| {nb} | {i}: {info.get('title') or '(untitled)'} | {slider} | "
            f"{table['paths'].get(key, '')} | {_count(lab)} | {_fmt(lab)} | {_fmt(lab, 'p95')} | "
            f"{_fmt((lab or {}).get('frame'))} | {'—' if drag is None else drag} | "
            f"{_fmt(vo)} | {_fmt(vo, 'p95')} | {_fmt(site)} | {_fmt(site, 'p95')} |")
    without = sorted(set(NOTEBOOK_NAMES) - {k[0] for k in keys})
    if without:
        lines += ["", "Notebooks without an explorer (nothing to time): "
                  + ", ".join(without) + "."]
    text = "\n".join(lines) + "\n"
    measured = set(table.get("lab_notebooks", set()))
    if measured >= set(NOTEBOOK_NAMES):
        LATENCY_MD.write_text(text)
    else:  # a filtered run (-k): do not overwrite the committed table
        (ARTIFACTS / "browser_latency.partial.md").write_text(text)
