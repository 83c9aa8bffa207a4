"""Every notebook rendered by Voila in lecture mode (``make present``) at 1280x720.

Claims: the page renders with no error output; the widgets are live (each explorer's first
slider changes its figure's pixels); at 1280x720 and 1920x1080 each explorer fits without
clipping, shows its controls and figure on one screen, with text at projector size. Screenshots: the full page, each explorer after a slider move and
the first screen of each explorer as the audience sees it.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from conftest import LECTURE_MIN_PX, LECTURE_VIEWPORT, LECTURE_VIEWPORTS, _expects_widgets
from pages import ARTIFACTS, LAYOUT_ARTIFACTS, fit_problems, gv, log_errors_since, \
    measure_latency, summarize, viewport_screenshot
from test_lab import _explorers_or_skip, _suffix, back_to_base, check_first_slider, check_viewports, \
    wait_for_grids

VOILA_LATENCY_MOVES = int(os.environ.get("GENVIZ_VOILA_LATENCY_MOVES", "8"))


def test_voila_renders_without_errors(voila_nb):
    rec = voila_nb.record
    assert rec["http_status"] == 200, f"{voila_nb.name}: HTTP {rec['http_status']}"
    assert not rec["errors"], f"{voila_nb.name}: error output:\n" + "\n---\n".join(rec["errors"])
    if _expects_widgets(voila_nb.name):
        assert rec["figures_ready"] and rec["figures_ready"][2] > 0, \
            f"{voila_nb.name}: no widget rendered ({rec['figures_ready']})"
    blank = [f for f in rec["figures"] if f["width"] == 0 or f["inked"] < 0.005]
    assert not blank, f"{voila_nb.name}: blank or unrendered figures: {blank}"
    dup = gv(voila_nb.page, "duplicates()")
    assert not dup, f"{voila_nb.name}: the same figure is displayed twice in a cell: {dup}"


def test_voila_widgets_are_live(voila_nb, artifacts):
    check_first_slider(voila_nb, artifacts, "voila_")


def test_voila_latency(voila_nb, latency_table):
    """A few samples in Voila (lecture mode) for the table, on each explorer's first gridded
    slider and its first other slider; Lab is the measured target."""
    page = voila_nb.page
    explorers = _explorers_or_skip(voila_nb)
    wait_for_grids(page, len(explorers))
    for ex in explorers:
        i = ex["index"]
        back_to_base(voila_nb, i)
        sliders = gv(page, "sliders(arg)", i)
        chosen = [s for s in sliders if s["grid"]][:1] + [s for s in sliders if not s["grid"]][:1]
        for s in chosen:
            gv(page, "useSlider(arg)", [i, s["index"]])
            summary = summarize(measure_latency(page, i, moves=VOILA_LATENCY_MOVES))
            key = (voila_nb.name, i, s["label"])
            latency_table["voila"][key] = summary
            latency_table["paths"][key] = "grid" if s["grid"] else "kernel"
        gv(page, "useSlider(arg)", [i, 0])
        latency_table["explorers"].setdefault((voila_nb.name, i), ex)


def test_lecture_mode_fits_the_projector(voila_nb):
    """Lecture mode at 1280x720 and 1920x1080 (the same page, resized): every explorer fits
    sideways (as in JupyterLab), its controls and figure are on one screen (title to figure
    bottom within the viewport height), prose, slider labels, slider readouts, buttons and
    the readout are at least LECTURE_MIN_PX, and no control label breaks inside a word. Screenshots in artifacts/browser/layout/."""
    page = voila_nb.page

    def check(vp, tag, ex):
        i, failures = ex["index"], []
        name = f"{tag} explorer {i} ({ex['title']})"
        viewport_screenshot(page, i, LAYOUT_ARTIFACTS / f"lecture_{tag}_{voila_nb.stem}{_suffix(i)}.png")
        fit = fit_problems(page, i)
        together = gv(page, "together(arg)", i)
        fonts = gv(page, "fonts(arg)", i)
        voila_nb.record.setdefault("lecture", {}).setdefault(tag, {})[str(i)] = dict(
            fit=fit, together=together, fonts=fonts)
        failures += [f"{name}: {p}" for p in fit["problems"]]
        if together["height"] > vp["height"]:
            failures.append(f"{name}: controls to figure bottom {together['height']} px "
                            f"> {vp['height']} px screen")
        broken = gv(page, "brokenLabels(arg)", i)
        failures += [f"{name}: label {b['label']!r} breaks inside {b['word']!r} "
                     f"({b['word_px']} px in a {b['box_px']}-px label)" for b in broken]
        for kind, least in LECTURE_MIN_PX.items():
            got = fonts.get(kind)
            if got is not None and got["px"] < least - 0.01:
                failures.append(f"{name}: {kind} text {got['px']} px < {least} px "
                                f"({got['text']!r})")
        return failures

    failures = check_viewports(voila_nb, LECTURE_VIEWPORTS, LECTURE_VIEWPORT, check)
    assert not failures, f"{voila_nb.name}: " + "; ".join(failures)


def test_voila_no_kernel_error_logged(voila_nb):
    errors = log_errors_since(ARTIFACTS / "voila.log", voila_nb.record["log_offset"])
    assert not errors, f"{voila_nb.name}: kernel errors logged:\n" + "\n---\n".join(errors)


def test_voila_requests_stay_on_the_machine(voila_nb):
    """No request leaves 127.0.0.1 (#37 items 5 and 6): every address the lecture page asked
    for while it loaded, ran its cells and drew its explorers (the browser's request log, from
    before the first byte) is on the Voila server itself; ``data:``/``blob:`` addresses fetch
    nothing. The genviz-lecture template drops the lab template's two FontAwesome stylesheets
    from a CDN; with them this test fails (two requests to cdn.jsdelivr.net)."""
    asked = voila_nb.record["requests"]
    assert asked, f"{voila_nb.name}: no request recorded (the log is not attached)"
    away = sorted({url for url in asked
                   if urlsplit(url).scheme not in ("data", "blob", "about")
                   and urlsplit(url).hostname != "127.0.0.1"})
    assert not away, f"{voila_nb.name}: requests leave the machine: {away}"
