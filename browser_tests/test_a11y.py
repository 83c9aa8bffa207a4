"""Accessibility audit with axe-core (bundled in axe-playwright-python; nothing is fetched).

* every page of the course website: no serious or critical violation;
* JupyterLab and Voila renders of two notebooks (02, the Gaussian explorer; 09, three
  explorers): no serious or critical violation inside the notebook's outputs (our figures,
  explorers, readouts, sliders: ``.jp-OutputArea``). Violations in JupyterLab's and Voila's own
  chrome (menus, toolbars, the file browser) are recorded, not asserted: we cannot change them.
  benchmarks/a11y.md is written from these results (counts by severity, rules, why).

Also checked in the live notebook: every explorer's readout element is a polite status region
that persists across updates (screen readers announce it), and every slider handle's accessible
name (as Chromium computes it) is its visible label; both come from the genviz-a11y front-end
extension (share/jupyter/labextensions/genviz-a11y).
"""

from __future__ import annotations

import datetime
import json

import pytest

pytest.importorskip("axe_playwright_python",
                    reason="the site extra is not installed: run `make site` first")

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from pages import ROOT  # noqa: E402
from site_helpers import (A11Y_ARTIFACTS, SEVERE, SITE, axe, built_site,  # noqa: E402,F401
                          guard_network, serve, site_pages, summarize_violations,
                          wait_explorers_started)

AUDITED = ["02_multivariate_gaussian.ipynb", "09_nearest_neighbors.ipynb"]
OURS = ".jp-OutputArea"
REPORT = ROOT / "benchmarks" / "a11y.md"
RESULTS: dict = {"site": {}, "lab": {}, "voila": {}}


@pytest.fixture(scope="module", autouse=True)
def report():
    A11Y_ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield RESULTS
    (A11Y_ARTIFACTS / "axe.json").write_text(json.dumps(RESULTS, indent=1))
    if RESULTS["site"] and all(RESULTS[k].get(n) for k in ("lab", "voila") for n in AUDITED):
        _write_report(RESULTS)


@pytest.fixture(scope="module")
def site_url():
    with serve(SITE) as url:
        yield url


@pytest.mark.parametrize("name", site_pages())
def test_site_page_has_no_serious_violation(browser, site_url, name, built_site):
    record = {}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    guard_network(context, record)
    page = context.new_page()
    # the page loaded (its load handlers run: the theme gives each scrolling <pre> its tab stop
    # there), then the network quiet. "networkidle" alone came while the 730 kB API pages were
    # still parsing (readyState "loading", 0 of 22 scrolling blocks with a tab stop): axe then
    # audited a half-built page, and failed it whenever the audit was faster than the parse.
    # Chromium's "network idle" is a lifecycle event a busy renderer may not report for minutes
    # although no request is pending (test_site.py's _open says the same): CI's suite of
    # 2026-12-02 waited 120 s for it on 04's page after its load event and failed. So: the load
    # event, every explorer started from its states (or its notice shown), then at most 30 s
    # for the network to go quiet (guard_network records every request whenever it happens)
    page.goto(f"{site_url}/{name}", wait_until="load", timeout=120_000)
    assert page.evaluate("document.readyState") == "complete", name
    wait_explorers_started(page, at_least_one=False)
    try:
        page.wait_for_load_state("networkidle", timeout=30_000)
    except PlaywrightTimeout:
        page.wait_for_timeout(2_000)
    if page.evaluate("() => !!document.querySelector('script[src*=\"_static/mathjax/\"]')"):
        page.wait_for_function("() => window.MathJax && MathJax.startup && "
                               "MathJax.startup.promise", timeout=60_000)
        page.evaluate("() => MathJax.startup.promise")
    result = summarize_violations(axe(page))
    context.close()
    RESULTS["site"][name] = result
    severe = [r for r in result["rules"] if r["impact"] in SEVERE]
    assert not severe, f"{name}: {json.dumps(severe, indent=1)}"


# Explorer sliders are native range inputs with a <label for> (explorer.js), so their accessible
# name is their visible label, and each readout is a role=status region explorer.js creates once.
# Any ipywidgets slider a notebook shows gets its name from the genviz-a11y front-end extension
# (share/jupyter/labextensions/genviz-a11y), which the Lab and Voila servers of this suite load
# as `make lab` and `make present` do. No violation inside our outputs is whitelisted.

#: Every slider handle with its widget's visible label and the accessible name Chromium computes
#: for it (CDP Accessibility.getPartialAXTree: the browser's own accname computation, not ours).
SLIDERS_JS = """() => [...document.querySelectorAll(
        '.widget-slider [role=slider], .genviz-explorer input[type=range]')].map((h, i) => {
    h.setAttribute('data-gv-a11y-probe', String(i));
    const w = h.closest('.widget-slider');
    if (!w) {
        const box = h.closest('.genviz-control');
        return {probe: i, label: ((box.querySelector('.genviz-label') || {}).textContent || '').trim(),
                range: false, lower: true, explorer: true,
                valuetext: h.getAttribute('aria-valuetext') || ''};
    }
    const label = [...w.children].find(c => c.classList.contains('widget-label'));
    const handles = w.querySelectorAll('[role=slider]');
    return {probe: i, label: ((label || {}).textContent || '').trim(),
            range: handles.length === 2, lower: handles[0] === h,
            explorer: !!h.closest('.genviz-explorer'), valuetext: 'n/a'};
})"""


def _slider_names(page) -> list[dict]:
    sliders = page.evaluate(SLIDERS_JS)
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        for s in sliders:
            node = cdp.send("DOM.querySelector", {
                "nodeId": root, "selector": f"[data-gv-a11y-probe='{s['probe']}']"})["nodeId"]
            ax = cdp.send("Accessibility.getPartialAXTree",
                          {"nodeId": node, "fetchRelatives": False})["nodes"]
            s["role"] = ax[0].get("role", {}).get("value")
            s["name"] = ax[0].get("name", {}).get("value", "")
    finally:
        cdp.detach()
    return sliders


def _readouts(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('.genviz-readout')].map(e => ({
        role: e.getAttribute('role'), live: e.getAttribute('aria-live'),
        atomic: e.getAttribute('aria-atomic'),
        inner_regions: e.querySelectorAll('[aria-live], [role=status]').length,
        text: e.innerText.trim().slice(0, 80)}))""")


def _audit_notebook(page, kind, name):
    ours = summarize_violations(axe(page, context=OURS))
    everything = summarize_violations(axe(page))
    ours_targets = {t for r in ours["rules"] for t in r["all_targets"]}
    chrome = [r for r in everything["rules"]
              if not set(r["all_targets"]) <= ours_targets]
    live = {"readouts": _readouts(page), "sliders": _slider_names(page)}
    RESULTS[kind][name] = {"ours": {"counts": _count(ours["rules"]), "rules": ours["rules"]},
                           "chrome": {"counts": _count(chrome), "rules": chrome},
                           "live": live}
    return ours, live


def _count(rules):
    counts = {"critical": 0, "serious": 0, "moderate": 0, "minor": 0}
    for r in rules:
        counts[r["impact"] or "minor"] += 1
    return counts


def _check_outputs(page, kind, name):
    ours, live = _audit_notebook(page, kind, name)
    severe = [r for r in ours["rules"] if r["impact"] in SEVERE]
    assert not severe, json.dumps(severe, indent=1)
    check_sliders_named(live["sliders"])
    check_readouts_live(live["readouts"])


def check_sliders_named(sliders):
    """Every slider handle's accessible name is its widget's visible label (range sliders:
    the label plus "(lower)"/"(upper)"), and the audited notebooks do have explorer sliders."""
    assert any(s["explorer"] for s in sliders), sliders
    for s in sliders:
        assert s["role"] == "slider" and s["label"] and s["valuetext"], s
        expected = s["label"] + ((" (lower)" if s["lower"] else " (upper)") if s["range"] else "")
        assert s["name"] == expected, s


def check_readouts_live(readouts):
    """Every explorer readout element is one polite, atomic status region with text."""
    assert readouts, "no explorer readout on the page"
    for r in readouts:
        assert (r["role"], r["live"], r["atomic"]) == ("status", "polite", "true"), r
        assert r["inner_regions"] == 0 and r["text"], r


@pytest.mark.parametrize("lab_nb", AUDITED, indirect=True)
def test_jupyterlab_outputs_have_no_serious_violation(lab_nb):
    _check_outputs(lab_nb.page, "lab", lab_nb.name)


@pytest.mark.parametrize("voila_nb", AUDITED, indirect=True)
def test_voila_outputs_have_no_serious_violation(voila_nb):
    _check_outputs(voila_nb.page, "voila", voila_nb.name)


def check_readout_region_persists(page):
    """Move the first explorer's first slider one step (keyboard) and back: the readout's text
    changes while its element (the live region) stays the same node with its attributes; a
    region created anew on each update would not be announced by screen readers."""
    page.evaluate("""() => { const r = document.querySelector('.genviz-explorer .genviz-readout');
        r.__gvSame = true; window.__gvReadout = r; window.__gvText = r.innerText; }""")
    handle = page.locator(".genviz-explorer input[type=range]").first
    handle.focus()
    try:
        handle.press("ArrowRight")
        page.wait_for_function("() => window.__gvReadout.innerText !== window.__gvText",
                               timeout=30_000)
        after = page.evaluate("""() => {
            const r = document.querySelector('.genviz-explorer .genviz-readout');
            return {same: r === window.__gvReadout && r.__gvSame === true,
                    connected: window.__gvReadout.isConnected,
                    role: r.getAttribute('role'), live: r.getAttribute('aria-live'),
                    atomic: r.getAttribute('aria-atomic'),
                    inner: r.querySelectorAll('[aria-live], [role=status]').length}; }""")
    finally:
        handle.press("ArrowLeft")
    assert after == {"same": True, "connected": True, "role": "status", "live": "polite",
                     "atomic": "true", "inner": 0}, after


@pytest.mark.parametrize("lab_nb", AUDITED[:1], indirect=True)
def test_jupyterlab_readout_live_region_persists_across_update(lab_nb):
    check_readout_region_persists(lab_nb.page)


@pytest.mark.parametrize("voila_nb", AUDITED[:1], indirect=True)
def test_voila_readout_live_region_persists_across_update(voila_nb):
    check_readout_region_persists(voila_nb.page)


def _write_report(results) -> None:
    def counts_row(label, c):
        return f"| {label} | {c['critical']} | {c['serious']} | {c['moderate']} | {c['minor']} |"

    site_total = {"critical": 0, "serious": 0, "moderate": 0, "minor": 0}
    for r in results["site"].values():
        for k, v in r["counts"].items():
            site_total[k] += v
    lines = [
        "# Accessibility audit (axe-core)",
        "",
        f"Written by `browser_tests/test_a11y.py` on {datetime.date.today().isoformat()} "
        "(axe-core from the axe-playwright-python wheel, Chromium headless). Counts are numbers "
        "of violated axe rules (each may cover several elements), by impact.",
        "",
        "| where | critical | serious | moderate | minor |",
        "|---|---|---|---|---|",
        counts_row(f"course website, all {len(results['site'])} pages", site_total),
    ]
    for kind, label in (("lab", "JupyterLab"), ("voila", "Voilà")):
        for name, r in results[kind].items():
            lines.append(counts_row(f"{label} {name}: notebook outputs (ours)", r["ours"]["counts"]))
            lines.append(counts_row(f"{label} {name}: application chrome", r["chrome"]["counts"]))
    lines += ["", "## Rules violated", ""]
    seen = {}
    for page, r in results["site"].items():
        for rule in r["rules"]:
            seen.setdefault(("site", rule["id"], rule["impact"], rule["help"]), []).append(page)
    for kind in ("lab", "voila"):
        for name, r in results[kind].items():
            for part in ("ours", "chrome"):
                for rule in r[part]["rules"]:
                    seen.setdefault((f"{kind} {part}", rule["id"], rule["impact"], rule["help"]),
                                    []).append(f"{name} ({rule['nodes']} nodes: "
                                               f"{', '.join(str(t) for t in rule['targets'][:2])})")
    if not seen:
        lines.append("None.")

    for (where, rid, impact, help_), pages in sorted(seen.items()):
        lines.append(f"- **{where}** `{rid}` ({impact}): {help_} — {'; '.join(pages[:4])}")
    lines += ["", "## Slider names and readout live regions", "",
              "Since issue #32 explorers are drawn by genviz's own ES module "
              "(genviz/widgets/static/explorer.js): each slider is a native range input named "
              "by its `<label for>` with `aria-valuetext`, each readout one `role=status` "
              "region created once. Checked here as before: Chromium's computed name of every "
              "slider equals its visible label; the readout element survives a move. Readouts "
              "on the website (new with moving explorers) darken the palette's vermillion for "
              "contrast (explorer.css). History:", "",
              "Before the genviz-a11y front-end extension (this file, 2026-11-23, before "
              "17:30 UTC) every JupyterLab and Voilà render above had 1 **serious** violation "
              "in our outputs, whitelisted then as third-party: `aria-input-field-name` on every "
              "ipywidgets slider handle (noUiSlider's `.noUi-handle`, role=slider, 5 nodes in 02, "
              "7 in 09), because ipywidgets never ties the slider's visible label to the handle. "
              "The extension (share/jupyter/labextensions/genviz-a11y, loaded by `make lab`, "
              "`make present`, Binder and these tests) sets `aria-labelledby` from each handle to "
              "its label, and makes each explorer readout's persistent element a polite, atomic "
              "status region. Checked here: Chromium's computed accessible name of every handle "
              "equals its label; the readout element survives a slider move with its attributes.",
              "",
              "## Why the recorded violations are not fixed here", "",
              "- **application chrome** (JupyterLab's menus, toolbars, side panels; Voilà's page "
              "structure): markup of JupyterLab/Voilà that a notebook cannot change.",
              "- **site**: nothing left. Fixed 2026-11-23: `region` (moderate, every page: the "
              "theme's site-title link sat outside a landmark; docs/_templates wraps it in a "
              "`<nav>`) and `empty-table-header` (minor, api.html and notebook 04: a header "
              "holding only maths has no text for axe; it now reads \"distribution of x given "
              "y\")."]
    REPORT.write_text("\n".join(lines) + "\n")
