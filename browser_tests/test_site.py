"""The course website (``make site`` -> build/site/) in Chromium, offline.

Every page is served by a local http.server and opened with every request to a host other than
127.0.0.1 aborted. Claims, per page: no request failed or was blocked; the maths is typeset by
the local MathJax (every math element holds MathJax output, no TeX error); every image loaded
and has a descriptive alt text; no widget repr is printed as text; nothing is wider than a
390 px phone screen. Screenshots at 1280 and 390 px go to artifacts/site/.

The session builds the site first (``scripts/build_site.py``, incremental: seconds when
``make site`` already ran), so the pages tested are those of the current sources. Needs the
``site`` extra (``make site`` installs it); without it the module is skipped with that advice.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytest.importorskip("myst_nb", reason="the site extra is not installed: run `make site` first")

from site_helpers import (SITE, SITE_ARTIFACTS, built_pages, built_site, guard_network,  # noqa: F401
                          serve, site_pages, wait_explorers_started)
from pages import CHROMIUM_ARGS, NOTEBOOK_DIR  # noqa: F401  (shared settings)

PAGES = site_pages()
WIDGET_REPR = re.compile(r"\b(?:Explorer|VBox|HBox|GridBox|Box|FloatSlider|IntSlider|Button|"
                         r"ToggleButton|HTML|Output|Image|Canvas|Dropdown)\((?:children|value|"
                         r"layout|description|options)=|children=\(")
#: A page whose maths MathJax typesets in the browser (the build typesets it when Node.js is
#: there: docs/conf.py, typeset_pages; either way each .math element must hold MathJax's output)
USES_MATHJAX = ("() => !!document.querySelector('.math') && "
                "!!document.querySelector('script[src*=\"_static/mathjax/\"]')")
UNDESCRIPTIVE = {"", "image", "png", "figure", "no description has been provided for this image"}


def test_site_is_built_with_a_page_per_notebook_and_the_api(built_site):
    assert (SITE / "index.html").exists(), "build the site first: make site"
    for nb in sorted(NOTEBOOK_DIR.glob("*.ipynb")):
        assert (SITE / "notebooks" / f"{nb.stem}.html").exists(), f"no page for {nb.name}"
        assert (SITE / "_sources" / "notebooks" / nb.name).exists(), f"no download of {nb.name}"
    assert (SITE / "api.html").exists()
    assert built_pages() == sorted(PAGES), "a page of the site is not tested (or missing)"
    assert (SITE / "_static" / "mathjax" / "tex-chtml.js").exists()


def _api_pages() -> tuple[str, ...]:
    """docs/conf.py's API_PAGES: the API reference's page per layer."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "site_conf_pages", pathlib.Path(__file__).resolve().parents[1] / "docs" / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf.API_PAGES


def test_the_api_reference_is_a_page_per_layer_each_tested_and_linked(built_site):
    """api.html is the introduction: a link to each layer's page, each of them a tested page
    documenting modules (issue #37: the single page was 3.2 MB), indexed by the genindex and
    the search index."""
    intro = (SITE / "api.html").read_text()
    genindex = (SITE / "genindex.html").read_text()
    search = (SITE / "searchindex.js").read_text()
    for name in _api_pages():
        assert f"{name}.html" in PAGES, f"{name}.html is not among the tested pages"
        assert f'href="{name}.html"' in intro, f"api.html does not link {name}.html"
        assert 'id="module-genviz.' in (SITE / f"{name}.html").read_text(), name
        assert f'href="{name}.html#genviz.' in genindex, f"the genindex has nothing on {name}"
        assert f'"{name}"' in search, f"the search index has no {name}"
    assert 'id="module-genviz.' not in intro


@pytest.mark.parametrize("anchor, page", [("genviz.gda.GDA", "api-models.html"),
                                          ("module-genviz.plots.gda", "api-views.html")])
def test_an_old_link_into_the_api_page_lands_on_its_new_page(browser, site_url, anchor, page):
    record = {}
    context = browser.new_context()
    guard_network(context, record)
    tab = context.new_page()
    try:
        tab.goto(f"{site_url}/api.html#{anchor}", wait_until="load", timeout=60_000)
        tab.wait_for_url(f"**/{page}#{anchor}", timeout=30_000)
        assert tab.evaluate("(id) => !!document.getElementById(id)", anchor), anchor
        tab.wait_for_load_state("load", timeout=60_000)
    finally:
        context.close()
    # The redirect leaves api.html while its own scripts may still be loading; the browser cancels
    # those (net::ERR_ABORTED, seen in CI for bootstrap.js). Any other failure, and every
    # response >= 400, still fails the test.
    failed = [f for f in record["failed"] if "net::ERR_ABORTED" not in f]
    assert not failed and not record["bad_status"], record


@pytest.fixture(scope="module")
def site_url():
    SITE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with serve(SITE) as url:
        yield url


def _screenshot(page, path, max_height=9000):
    """Full-page screenshot, cut at ``max_height`` px (the API pages are long)."""
    height = page.evaluate("() => document.documentElement.scrollHeight")
    width = page.viewport_size["width"]
    page.screenshot(path=str(path), full_page=True, timeout=120_000,
                    clip={"x": 0, "y": 0, "width": width, "height": min(height, max_height)})


def _open(browser, url, width, record, idle=True):
    """The page in a fresh context. ``idle``: wait for the network to be idle as well (the
    wide pass, which checks every request); the phone pass, which measures the layout, waits
    for the load event and MathJax's typesetting instead: Chromium's "network idle" is a
    lifecycle event that a renderer busy laying out a long page (the API reference at 390 px
    when it was one 3.2 MB page, and some notebook pages under load) may not report for
    minutes although no request is pending: after 30 s the wide pass goes on (guard_network
    has recorded every request)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    guard_network(context, record)
    page = context.new_page()
    page.on("pageerror", lambda e: record.setdefault("page_errors", []).append(str(e)))
    page.goto(url, wait_until="load", timeout=120_000)
    if idle:
        # every request is checked by guard_network whenever it happens; "network idle" only
        # lets late requests (fonts, MathJax's components) land in the record before the probe
        try:
            page.wait_for_load_state("networkidle", timeout=30_000)
        except PlaywrightTimeout:
            page.wait_for_timeout(2_000)
    if page.evaluate(USES_MATHJAX):
        page.wait_for_function("() => window.MathJax && MathJax.startup && "
                               "MathJax.startup.promise", timeout=60_000)
        page.evaluate("() => MathJax.startup.promise")
    return context, page


PROBE = """() => {
  const imgs = [...document.querySelectorAll('main img, article img, .bd-content img')];
  const math = [...document.querySelectorAll('.math')];
  const text = (document.querySelector('main') || document.body).innerText;
  return {
    images: imgs.map(i => ({src: i.getAttribute('src').slice(0, 80), alt: i.getAttribute('alt'),
                            loaded: i.complete && i.naturalWidth > 0, width: i.naturalWidth,
                            shown: i.getBoundingClientRect().width})),
    math: math.length,
    typeset: math.filter(m => m.querySelector('mjx-container')).length,
    merror: document.querySelectorAll('mjx-merror').length,
    raw_tex: math.filter(m => !m.querySelector('mjx-container') && /\\\\[(\\[]/.test(m.textContent)).length,
    scroll_width: document.documentElement.scrollWidth,
    text,
    details: document.querySelectorAll('.genviz-exercise details').length,
    details_open: document.querySelectorAll('.genviz-exercise details[open]').length,
    exercise_raw_tex: [...document.querySelectorAll('.genviz-exercise')]
        .filter(e => /\\$[^$]+\\$/.test(e.textContent)).length,
    launch: [...document.querySelectorAll('a')].map(a => a.href).filter(h => /binder|\\.ipynb$/.test(h)),
  };
}"""


# Text the reader sees as raw TeX once MathJax has finished: a `$` in prose (MyST left a `$$`
# block or a `$` unpaired: issue #14, notebook 02's "Correlation" cell), or an environment or
# \frac outside maths. Code (pre, code; the API page's signatures) may hold TeX legitimately
# (matplotlib labels as default values) and is skipped; text in folded hints and solutions is
# checked too. A currency sign in prose would be flagged: none is written on the site.
RAW_TEX_TEXT = r"""() => {
  const root = document.querySelector('main') || document.body;
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('pre, code, .pre, .sig, script, style, mjx-container')) continue;
    if (/\$|\\begin\{|\\frac/.test(n.textContent)) found.push(n.textContent.trim().slice(0, 120));
  }
  return found;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_page_offline_maths_images_alt_no_widget_text(browser, site_url, name, built_site):
    record = {"page": name}
    stem = name.replace("/", "_").removesuffix(".html")
    try:
        context, page = _open(browser, f"{site_url}/{name}", 1280, record)
        if page.evaluate(USES_MATHJAX):
            page.wait_for_function("() => window.MathJax && MathJax.startup && "
                                   "MathJax.startup.promise", timeout=60_000)
            page.evaluate("() => MathJax.startup.promise")
            page.wait_for_timeout(300)
        probe = page.evaluate(PROBE)
        probe["raw_tex_text"] = page.evaluate(RAW_TEX_TEXT)
        _screenshot(page, SITE_ARTIFACTS / f"{stem}_1280.png")
        context.close()
        context, phone = _open(browser, f"{site_url}/{name}", 390, record, idle=False)
        phone.wait_for_timeout(1500)
        record["scroll_width_390"] = phone.evaluate("() => document.documentElement.scrollWidth")
        _screenshot(phone, SITE_ARTIFACTS / f"{stem}_390.png")
        context.close()
        record.update({k: v for k, v in probe.items() if k != "text"})
    finally:
        (SITE_ARTIFACTS / f"{stem}.json").write_text(json.dumps(record, indent=1))

    assert not record["blocked"], f"requests to other hosts: {record['blocked'][:5]}"
    assert not record["failed"], f"failed requests: {record['failed'][:5]}"
    assert not record["bad_status"], f"HTTP errors: {record['bad_status'][:5]}"
    assert not record.get("page_errors"), record["page_errors"]
    assert probe["typeset"] == probe["math"], \
        f"{probe['math'] - probe['typeset']} of {probe['math']} math elements not typeset"
    assert probe["merror"] == 0 and probe["raw_tex"] == 0
    assert not probe["raw_tex_text"], f"raw TeX shown as text: {probe['raw_tex_text'][:4]}"
    for img in probe["images"]:
        assert img["loaded"], f"image did not load: {img['src']}"
        alt = (img["alt"] or "").strip()
        assert alt.lower() not in UNDESCRIPTIVE and len(alt.split()) >= 6, \
            f"image without a descriptive alt: {img['src']} alt={alt!r}"
    shown = WIDGET_REPR.search(probe["text"])
    assert shown is None, f"widget repr printed as text: {probe['text'][max(0, shown.start() - 60):shown.end() + 60]!r}"
    assert record["scroll_width_390"] <= 392, \
        f"page is {record['scroll_width_390']} px wide at a 390 px viewport"
    assert probe["exercise_raw_tex"] == 0, "untypeset $...$ in an exercise's hint or solution"
    if name.startswith("notebooks/"):
        nb = NOTEBOOK_DIR / (pathlib.Path(name).stem + ".ipynb")
        boxes = sum("".join(c["source"]).count("answer_box(")
                    for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")
        assert probe["details"] >= 2 * boxes, "exercises without folded hint and solution"
        assert probe["details_open"] == 0, "hints and solutions must start folded"
        assert any(h.endswith(".ipynb") for h in probe["launch"]), "no .ipynb download link"
        assert "OWNER" not in " ".join(probe["launch"])


def test_notebook_pages_show_every_figure_and_explorer_image(built_site):
    """Each notebook's page has at least as many images as the notebook calls show(...) or
    builds an explorer (counted from the notebook's code), each with its alt text."""
    for nb in sorted(NOTEBOOK_DIR.glob("*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        expected = len(re.findall(r"^\s*show\(", code, re.M)) + \
            len(re.findall(r"^[a-z_0-9]*_explorer\(", code, re.M))
        html = (SITE / "notebooks" / f"{nb.stem}.html").read_text()
        imgs = re.findall(r"<img [^>]*>", html)
        described = [i for i in imgs if re.search(r'alt="[^"]{30,}"', i)]
        assert len(described) >= expected, \
            f"{nb.name}: {len(described)} described images on the page, {expected} expected"


def _displayed_code(html: str) -> list[str]:
    """Text of every code cell's input box on a built notebook page (tags stripped)."""
    import html as html_lib

    boxes = re.findall(r'<div class="cell_input docutils container">(.*?)</pre>', html, re.S)
    return [html_lib.unescape(re.sub(r"<[^>]+>", "", b)) for b in boxes]


def test_code_cells_hide_tool_lines_but_keep_the_code(built_site):
    """The site shows each code cell without nbval's ``# NBVAL_CHECK_OUTPUT`` marker and the
    ``%matplotlib widget`` switch (docs/conf.py, HIDDEN_SOURCE_LINES); every other line of
    every code cell is shown, and a cell with nothing else shows no input box."""
    hidden = ("# NBVAL_CHECK_OUTPUT", "%matplotlib widget")
    for nb in sorted(NOTEBOOK_DIR.glob("*.ipynb")):
        cells = [c for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code"]
        expected = []
        for c in cells:
            lines = [ln for ln in "".join(c["source"]).splitlines() if ln.strip() not in hidden]
            if "".join(lines).strip():
                expected.append([ln for ln in lines if ln.strip()])
        shown = _displayed_code((SITE / "notebooks" / f"{nb.stem}.html").read_text())
        assert len(shown) == len(expected), f"{nb.name}: {len(shown)} code boxes, {len(expected)}"
        for want, got in zip(expected, shown):
            assert not any(h in got for h in hidden), f"{nb.name}: {got[:200]!r}"
            assert [ln for ln in got.splitlines() if ln.strip()] == want, nb.name


# -- explorers that move with no kernel ------------------------------------------------------------
#: Page weight of one explorer on the site: its states (the wide layout's file; the phone's
#: narrow file, fetched instead of it, on its own), the description in the page, its image and
#: the inlined module and stylesheet (once per page, counted once per explorer: the worst case).
MAX_EXPLORER_BYTES = 1_500_000
EXPLORER_PAGES = [p for p in PAGES if p.startswith("notebooks/")]

SITE_EXPLORERS_JS = """() => [...document.querySelectorAll('.genviz-static-explorer')].map((box, i) => {
    const v = box.__genviz;
    const canvas = box.querySelector('canvas.genviz-canvas');
    const img = box.querySelector('img');
    const notice = box.querySelector('.genviz-notice');
    return {index: i, mounted: !!v, grid: !!(v && v.grid),
            canvas: !!canvas && !canvas.hidden, img_hidden: !!img && img.hidden,
            alt: canvas ? canvas.getAttribute('aria-label') : null,
            img_alt: img ? img.getAttribute('alt') : null,
            notice: notice && !notice.hidden ? notice.textContent : '',
            caption: (box.querySelector('figcaption') || {}).textContent || '',
            sliders: [...box.querySelectorAll('input[type=range]')].map(h => ({
                grid: h.closest('.genviz-control').dataset.grid === '1', disabled: h.disabled,
                label: h.closest('.genviz-control').querySelector('.genviz-label').textContent}))};
})"""


def _site_page(browser, url, record, *, javascript=True, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                  java_script_enabled=javascript)
    context.add_init_script(__import__("pages").INIT_JS)
    guard_network(context, record)
    page = context.new_page()
    page.on("pageerror", lambda e: record.setdefault("page_errors", []).append(str(e)))
    page.goto(url, wait_until="load", timeout=120_000)
    return context, page


@pytest.mark.parametrize("name", EXPLORER_PAGES)
def test_every_explorer_moves_offline(browser, site_url, built_site, name, latency_table):
    """Each explorer of the page mounts from the page alone (every other request refused),
    shows its canvas over the hidden image, and each gridded slider moves it: pixels, readout
    and alt text follow; the other sliders are disabled with a hint. Latency of each gridded
    slider goes to the table."""
    from pages import gv, measure_latency, summarize

    html = (SITE / name).read_text()
    expected = len(re.findall(r'<figure class="[^"]*genviz-static-explorer', html))
    if not expected:
        pytest.skip(f"{name} has no explorer")
    record = {"page": name}
    context, page = _site_page(browser, f"{site_url}/{name}", record)
    try:
        wait_explorers_started(page)
        boxes = page.evaluate(SITE_EXPLORERS_JS)
        assert len(boxes) == expected
        failures = []
        for b in boxes:
            where = f"explorer {b['index']}"
            if not (b["mounted"] and b["grid"] and b["canvas"] and b["img_hidden"]):
                failures.append(f"{where} did not start: {b}")
                continue
            assert b["alt"] and len(b["alt"].split()) >= 6, b
            assert "here" in b["caption"] and "run this notebook" in b["caption"], b["caption"]
            for s in b["sliders"]:
                assert s["disabled"] != s["grid"], f"{where}: {s}"
        # move every gridded slider: the probe's explorers are the view roots
        n = page.evaluate("() => window.__gv.explorers().length")
        assert n == expected
        for i in range(n):
            for s in gv(page, "sliders(arg)", i):
                if not s["grid"]:
                    continue
                gv(page, "useSlider(arg)", [i, s["index"]])
                gv(page, "focusHandle(arg)", i)
                alt_js = ("i => window.__gv.canvases(window.__gv.root(i))[0]"
                          ".getAttribute('aria-label')")
                before = (gv(page, "hash(arg)", i), gv(page, "readout(arg)", i),
                          page.evaluate(alt_js, i))
                page.keyboard.press(gv(page, "nextKey(arg)", i))
                page.wait_for_timeout(100)
                after = (gv(page, "hash(arg)", i), gv(page, "readout(arg)", i),
                         page.evaluate(alt_js, i))
                if after[0] == before[0]:
                    failures.append(f"explorer {i} {s['label']}: pixels unchanged")
                if after[1] == before[1] and after[2] == before[2]:
                    failures.append(f"explorer {i} {s['label']}: readout and alt unchanged")
                samples = measure_latency(page, i, moves=10)
                key = (pathlib.Path(name).stem + ".ipynb", i, s["label"])
                latency_table["site"][key] = summarize(samples)
                latency_table["paths"][key] = "grid"
                if not summarize(samples)["n"]:
                    failures.append(f"explorer {i} {s['label']}: no key press repainted")
        assert not record["blocked"] and not record.get("page_errors"), record
        assert not failures, f"{name}: " + "; ".join(failures)
    finally:
        context.close()


def test_explorer_page_weight(built_site):
    """Each explorer costs at most 1.5 MB of page (its states, its image, the inlined module);
    the figures are written to artifacts/site/explorer_weight.json."""
    import html as html_lib

    weights = []
    for name in EXPLORER_PAGES:
        text = (SITE / name).read_text()
        module = text.find('<script type="module">')
        module_bytes = len(text[module:text.find("</script>", module)].encode()) if module >= 0 else 0
        for m in re.finditer(r'<figure class="[^"]*genviz-static-explorer[^"]*".*?</figure>', text, re.S):
            block = m.group(0)
            data = re.search(r'<script type="application/json" class="genviz-explorer-data">(.*?)</script>',
                             block, re.S)
            src = re.search(r'<img [^>]*src="([^"]+)"', block)
            img_bytes = 0
            if src:
                path = (SITE / name).parent / html_lib.unescape(src.group(1))
                img_bytes = path.stat().st_size if path.exists() else len(src.group(1))
            payload = json.loads(data.group(1).replace("<\\/", "</"))
            # each layout's states are a file of their own, fetched by the layout that needs it
            # (#37): a laptop's cost is the wide one, a phone's the narrow one (item 2)
            files = payload.get("files", {})
            assert "grid" not in payload and "narrow" not in payload, payload.keys()
            wide, narrow = ((SITE / "_static" / "genviz-grids" / files[k]).stat().st_size
                            if k in files else 0 for k in ("wide", "narrow"))
            inline = len(data.group(1).encode())
            weights.append({"page": name, "bytes": inline + wide + img_bytes + module_bytes,
                            "states": wide, "narrow": narrow, "inline": inline,
                            "image": img_bytes, "module": module_bytes})
    SITE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (SITE_ARTIFACTS / "explorer_weight.json").write_text(json.dumps(weights, indent=1))
    assert len(weights) >= 19, weights
    heavy = [w for w in weights if max(w["bytes"], w["narrow"]) > MAX_EXPLORER_BYTES]
    assert not heavy, heavy
    assert sum(w["narrow"] > 0 for w in weights) == len(weights), \
        [w for w in weights if not w["narrow"]]  # every explorer has its phone layout


#: what a phone needs of an explorer (issue #37 item 2): its figure shown 1:1 (drawn for the
#: narrow layout, so its text keeps the painter's >= 8 pt = 11 CSS px, tests/test_narrow_layout.py)
#: and controls that are touch targets of at least 44 CSS px
PHONE_JS = """() => [...document.querySelectorAll('.genviz-static-explorer')].map((box, i) => {
    const v = box.__genviz, c = box.querySelector('canvas.genviz-canvas');
    const r = c.getBoundingClientRect();
    const targets = [...box.querySelectorAll('.genviz-control')].filter(x => x.dataset.grid === '1')
      .flatMap(x => [...x.querySelectorAll('input[type=range], select, .genviz-toggle label, textarea')])
      .map(t => ({name: t.closest('.genviz-control').dataset.name, h: t.getBoundingClientRect().height}));
    return {index: i, layout: v && v.root.dataset.layout, width: c.width, shown: r.width,
            right: r.right, targets};
})"""


@pytest.mark.parametrize("name", EXPLORER_PAGES)
def test_explorers_on_a_phone(browser, site_url, built_site, name):
    """At 390x844 with touch, every explorer of the page draws its narrow layout at 1:1 within
    the screen, every control that moves offline is a 44-px touch target, and a tap on a
    gridded slider redraws the figure. Screenshots: artifacts/site/phone_<page>.png."""
    from pages import gv

    html = (SITE / name).read_text()
    if "genviz-static-explorer" not in html:
        pytest.skip(f"{name} has no explorer")
    record = {"page": name}
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    context.add_init_script(__import__("pages").INIT_JS)
    guard_network(context, record)
    page = context.new_page()
    page.on("pageerror", lambda e: record.setdefault("page_errors", []).append(str(e)))
    grids = []
    page.on("request", lambda r: grids.append(r.url.rsplit("/", 1)[1])
            if "/_static/genviz-grids/" in r.url else None)
    try:
        page.goto(f"{site_url}/{name}", wait_until="load", timeout=120_000)
        wait_explorers_started(page)
        failures = []
        # a phone fetches each explorer's narrow states and never the wide ones (#37)
        files = [json.loads(m.replace("<\\/", "</"))["files"] for m in re.findall(
            r'<script type="application/json" class="genviz-explorer-data">(.*?)</script>', html, re.S)]
        if sorted(grids) != sorted({f["narrow"] for f in files}):
            failures.append(f"states fetched {grids}, not the {len(files)} narrow files")
        for b in page.evaluate(PHONE_JS):
            where = f"explorer {b['index']}"
            if b["layout"] != "narrow":
                failures.append(f"{where}: layout {b['layout']}")
            if abs(b["shown"] - b["width"]) > 1 or b["right"] > 390:
                failures.append(f"{where}: a {b['width']}-px figure shown {b['shown']:.0f} px wide")
            small = [t for t in b["targets"] if t["h"] < 44]
            if small or not b["targets"]:
                failures.append(f"{where}: touch targets {small or 'none'}")
        for i in range(page.evaluate("() => window.__gv.explorers().length")):
            slider = next((s for s in gv(page, "sliders(arg)", i) if s["grid"]), None)
            if slider is None:
                continue
            handle = page.locator(f".genviz-static-explorer >> nth={i}").locator(
                "input[type=range]").nth(slider["index"])
            handle.scroll_into_view_if_needed()
            box = handle.bounding_box()
            before = gv(page, "hash(arg)", i)
            for frac in (0.85, 0.15):  # one of the two is away from the current value
                page.touchscreen.tap(box["x"] + frac * box["width"], box["y"] + box["height"] / 2)
                page.wait_for_timeout(150)
                if gv(page, "hash(arg)", i) != before:
                    break
            else:
                failures.append(f"explorer {i} {slider['label']}: a tap did not redraw")
        _screenshot(page, SITE_ARTIFACTS / f"phone_{pathlib.Path(name).stem}.png")
        assert not record["blocked"] and not record.get("page_errors"), record
        assert not failures, f"{name}: " + "; ".join(failures)
    finally:
        context.close()


def test_an_explorer_follows_the_page_width(browser, site_url, built_site):
    """A window narrowed past 600 px (a phone turned back upright) swaps the explorer to its
    narrow grid and back, without a reload: the slider keeps its value, the figure is drawn at
    the other layout's size and at the same state of the grid."""
    name = "notebooks/02_multivariate_gaussian.html"
    record = {"page": name}
    context, page = _site_page(browser, f"{site_url}/{name}", record,
                               viewport={"width": 1280, "height": 800})
    files = json.loads(re.search(r'class="genviz-explorer-data">(.*?)</script>',
                                 (SITE / name).read_text(), re.S).group(1))["files"]
    fetched = """() => performance.getEntriesByType('resource').map(e => e.name)
        .filter(n => n.includes('/_static/genviz-grids/')).map(n => n.split('/').pop())"""
    state = """() => { const b = document.querySelector('.genviz-static-explorer'); const v = b.__genviz;
        const s = [...b.querySelectorAll('input[type=range]')].find(h => !h.disabled);
        const c = b.querySelector('canvas.genviz-canvas');
        return {layout: v.root.dataset.layout, w: c.width, value: s.value, painted: v.paintedIndex}; }"""
    try:
        wait_explorers_started(page)
        first = page.evaluate(state)
        assert first["layout"] == "wide"
        assert files["wide"] in page.evaluate(fetched) and files["narrow"] not in page.evaluate(fetched)
        slider = page.locator(".genviz-static-explorer >> nth=0").locator(
            "input[type=range]:not([disabled])").first
        slider.focus()
        for _ in range(3):
            slider.press("ArrowRight")
        moved = page.evaluate(state)
        assert moved["value"] != first["value"] and moved["painted"] != first["painted"]
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.querySelector('.genviz-static-explorer')"
                               ".__genviz.root.dataset.layout === 'narrow'", timeout=10_000)
        narrow = page.evaluate(state)
        assert files["narrow"] in page.evaluate(fetched)  # fetched when the width asked for it
        assert narrow["w"] == 340 and narrow["value"] == moved["value"]
        assert narrow["painted"] == moved["painted"]  # the same state, from the other grid
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function("() => document.querySelector('.genviz-static-explorer')"
                               ".__genviz.root.dataset.layout === 'wide'", timeout=10_000)
        back = page.evaluate(state)
        assert back == moved
        got = page.evaluate(fetched)
        assert got.count(files["wide"]) == 1 and got.count(files["narrow"]) == 1, got  # once
        assert not record["blocked"] and not record.get("page_errors"), record
    finally:
        context.close()


def test_without_javascript_the_image_and_alt_stay(browser, site_url, built_site):
    name = "notebooks/05_density_estimation.html"
    record = {"page": name}
    context, page = _site_page(browser, f"{site_url}/{name}", record, javascript=False)
    try:
        shown = page.evaluate("""() => [...document.querySelectorAll('.genviz-static-explorer')].map(b => {
            const img = b.querySelector('img');
            return {img: !!img && img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width > 0,
                    alt: img ? img.getAttribute('alt') : '', canvas: !!b.querySelector('canvas'),
                    caption: (b.querySelector('figcaption') || {}).textContent || ''}; })""")
    finally:
        context.close()
    assert len(shown) == 4, shown
    for s in shown:
        assert s["img"] and len(s["alt"].split()) >= 6 and not s["canvas"], s
        assert "Run this notebook" in s["caption"], s


def test_corrupted_states_fall_back_to_the_image_with_a_notice(browser, site_url, built_site):
    """A browser that cannot decode an explorer's states shows its image and one line saying
    so; the other explorers of the page still move."""
    name = "notebooks/05_density_estimation.html"
    text = (SITE / name).read_text()
    file = re.search(r'"files":\{"wide":"([0-9a-f]+\.js)"', text).group(1)  # the first explorer's
    script = (SITE / "_static" / "genviz-grids" / file).read_text()
    first = script.index('="') + 2
    broken = script[:first] + "AAAAAAAAAAAAAAAAAAAAAAAA" + script[first + 24:]
    record = {"page": name}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(__import__("pages").INIT_JS)
    guard_network(context, record)
    page = context.new_page()
    page.route(f"{site_url}/_static/genviz-grids/{file}",
               lambda r: r.fulfill(status=200, body=broken, content_type="text/javascript"))
    try:
        page.goto(f"{site_url}/{name}", wait_until="load", timeout=120_000)
        page.wait_for_function("() => document.querySelectorAll('.genviz-static-explorer .genviz-notice:not([hidden])').length >= 1",
                               timeout=60_000)
        page.wait_for_timeout(1500)
        boxes = page.evaluate(SITE_EXPLORERS_JS)
    finally:
        context.close()
    bad, good = boxes[0], boxes[1:]
    assert bad["notice"] and "\n" not in bad["notice"].strip() and "image" in bad["notice"], bad
    assert not bad["canvas"] and not bad["img_hidden"], bad
    assert all(g["grid"] and g["canvas"] and not g["notice"] for g in good), good


def test_explorers_move_from_a_file_url(browser, built_site):
    """Opened from the file system (file://, where module files are refused), the inlined
    module still mounts every explorer."""
    name = "notebooks/09_nearest_neighbors.html"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(__import__("pages").INIT_JS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto((SITE / name).resolve().as_uri(), wait_until="load", timeout=120_000)
        wait_explorers_started(page)
        boxes = page.evaluate(SITE_EXPLORERS_JS)
    finally:
        context.close()
    assert len(boxes) == 3 and all(b["grid"] and b["canvas"] for b in boxes), boxes
    assert not errors, errors


# -- page weight (issue #37) ------------------------------------------------------------------------
def _bench_page_weight():
    import importlib.util

    path = pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "bench_page_weight.py"
    spec = importlib.util.spec_from_file_location("bench_page_weight", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def weight_host(built_site):
    """build/site/ behind the benchmark's static host that gzips text types as a real one does."""
    bench = _bench_page_weight()
    server = bench.CompressingServer(SITE)
    with server as url:
        yield bench, server, url


@pytest.mark.parametrize("name", PAGES)
def test_site_page_weight(browser, weight_host, name):
    """A cold load of the page on a phone, scrolled to its end, transfers at most 1 MB
    (compressed, headers included) apart from the page's own explorer states, and asks no other
    host. Chromium's count of the bytes and the server's agree. The figures go to
    artifacts/site/weight_<page>.json; benchmarks/page_weight.md has the table."""
    bench, server, url = weight_host
    row = bench.measure_page(browser, server, url, name)
    SITE_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (SITE_ARTIFACTS / f"weight_{name.replace('/', '_').removesuffix('.html')}.json").write_text(
        json.dumps(row, indent=1))
    assert not row["outside"], f"requests to other hosts: {row['outside'][:5]}"
    assert abs(row["server"] - row["total"]) <= 0.02 * row["total"] + 2000, row
    by_type = {k: row[k] for k in bench.TYPES}
    hint = (" -- its maths is left to MathJax in the browser: is Node.js installed for the build?"
            if "_static/mathjax/" in (SITE / name).read_text() else "")
    assert row["without_states"] <= bench.BUDGET, \
        f"{name}: {row['without_states']:,} B cold without its states (budget {bench.BUDGET:,}): {by_type}{hint}"
