"""The lecture page on phones (issue #37), in Chromium, on the trial hub: the instructor runs the
course's prediction in Voilà lecture mode at 1280x720 (the lecturer's panel, with the page's
address and QR code); three students on 390x844 touch viewports (``is_mobile``,
``has_touch``) open the page's address, log in with the hub's own login page and follow the
lecture: open, vote (a tap), close, vote again, reveal. No single-user server is started for a
student (the hub's API and the processes below the hub, counted). A student's page never
shows the counts before the reveal; a request without the page's XSRF token, or naming
another user, is refused.

The page's questions come from a bundle built by deploy/poll/lecture_bundle.py from the test's
notebook (the course's prediction ``predict_peak_with_rho``). Screenshots go to
artifacts/browser/lecture_*.png; the steps' durations to artifacts/browser/lecture.json.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time

import psutil
import pytest

from conftest import _new_page
from pages import ARTIFACTS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from hub_testing import TrialHub, cleanup  # noqa: E402

from test_votes import LECTURE, PREDICT, QID, STUDENTS, _notebook  # noqa: E402 (the same question)

PHONE = {"width": 390, "height": 844}
TIMINGS: dict = {}
# the bundle's notebook: the same prediction and, below it, notebook 02's explorer and the
# observation box that reads it (the explorer the question is about)
BUNDLE_CELLS = ("from genviz.exercises.gaussian import predict_peak_with_rho\n"
                "from genviz.widgets import gaussian_explorer, observation_box, prediction_box\n"
                "p = predict_peak_with_rho()\nprediction_box(p)",
                "explorer = gaussian_explorer(mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.5)"
                "\nexplorer",
                "observation_box(p, explorer)")
WIRE: dict = {}
_spec = importlib.util.spec_from_file_location("lecture_bundle_b",
                                               ROOT / "deploy" / "poll" / "lecture_bundle.py")
lecture_bundle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lecture_bundle)


@pytest.fixture(scope="module")
def hub(artifacts):
    h = TrialHub()
    _notebook(h.home / "instructor" / "predict.ipynb", PREDICT)
    _notebook(h.workdir / "bundle" / "lecture.ipynb", *BUNDLE_CELLS)
    t0 = time.monotonic()
    bundle = lecture_bundle.build([h.workdir / "bundle" / "lecture.ipynb"], timeout=300)
    lecture_bundle.write(bundle, h.state / "poll" / lecture_bundle.BUNDLE_NAME)
    TIMINGS["bundle_s"] = round(time.monotonic() - t0, 1)
    try:
        h.start()
        h.start_servers(["instructor"])
        yield h
    finally:
        cleanup(h)
        (ARTIFACTS / "lecture.json").write_text(json.dumps(TIMINGS, indent=1))


def _servers(hub) -> tuple[set, int]:
    users = hub.api("/users")
    users = json.loads(users) if isinstance(users, (str, bytes)) else users
    running = {u["name"] for u in users if u.get("servers") or u.get("server")}
    procs = 0
    for pid in hub.processes():
        try:
            procs += "jupyterhub-singleuser" in " ".join(psutil.Process(pid).cmdline())
        except psutil.Error:
            pass
    return running, procs


@pytest.fixture(scope="module")
def lecture(hub, browser):
    record = {"console_errors": [], "page_errors": []}
    context, page = _new_page(browser, LECTURE, record)
    page.goto(f"{hub.base}/hub/login")
    page.fill("#username_input", "instructor")
    page.click("#login_submit")
    page.wait_for_url("**/user/instructor/**", timeout=120_000)
    page.goto(f"{hub.base}/user/instructor/voila/render/predict.ipynb?template=genviz-lecture")
    page.wait_for_selector(".genviz-prediction .genviz-room-panel", timeout=180_000)
    yield page
    context.close()


def _phone(browser, hub, name):
    """A student's phone: opens the page's address, logs in at the hub, gets the page."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # bytes on the wire (compressed, headers included) of everything the cold phone loads
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    wire = {"bytes": 0, "requests": 0, "urls": {}, "sizes": {}, "cdp": cdp}
    WIRE[name] = wire

    def finished(ev):
        wire["bytes"] += ev.get("encodedDataLength", 0)
        wire["sizes"][ev["requestId"]] = ev.get("encodedDataLength", 0)
        wire["requests"] += 1

    def sent(ev):
        wire["urls"][ev["requestId"]] = ev["request"]["url"]

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestWillBeSent", sent)
    t0 = time.monotonic()
    page.goto(f"{hub.base}/services/genviz-poll/lecture/")
    page.wait_for_selector("#username_input")  # the hub's own login page
    page.fill("#username_input", name)
    page.tap("#login_submit")
    page.wait_for_url("**/services/genviz-poll/lecture/**", timeout=60_000)
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    TIMINGS[f"{name}_join_s"] = round(time.monotonic() - t0, 2)
    page.wait_for_timeout(500)
    # the page's own load: the login and the page, not the open question's explorer (its own
    # resources, measured per question in _check_explorer)
    own = {r: n for r, n in wire["sizes"].items()
           if not _is_explorer_resource(wire["urls"].get(r, ""))}
    TIMINGS[f"{name}_cold_bytes"] = sum(own.values())
    TIMINGS[f"{name}_cold_requests"] = len(own)
    leaving = sorted({u for u in wire["urls"].values()
                      if not u.startswith(hub.base) and not u.startswith("data:")})
    assert not leaving, leaving  # nothing outside the hub
    assert sum(own.values()) < 1_000_000  # issue #37: <= 1 MB cold, compressed
    return context, page, errors


def _is_explorer_resource(url: str) -> bool:
    return "/lecture/api/explorer/" in url or "/lecture/static/" in url


def _wait_text(page, text, selector="#lecture", timeout=30_000):
    page.wait_for_function(
        f"() => document.querySelector({selector!r}).innerText.includes({text!r})",
        timeout=timeout)


def _tap(page, option):
    page.locator(f"#options button[data-option='{option}']").tap()
    _wait_text(page, "Counted")


CANVAS_HASH = """() => { const c = document.querySelector('#explorer canvas.genviz-canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let h = 0, ink = 0;
    for (let i = 0; i < d.length; i += 4) {
      h = (h * 31 + d[i] + 7 * d[i + 1] + 13 * d[i + 2]) >>> 0;
      ink += d[i] + d[i + 1] + d[i + 2] < 600;
    }
    return {hash: h, ink, width: c.width, shown: c.getBoundingClientRect().width}; }"""


def _check_explorer(page, name):
    """The question's explorer is mounted on the phone from its own resource: the gridded
    slider enabled, the controls that need a kernel disabled as on the site."""
    page.wait_for_function("() => document.body.dataset.explorer !== undefined", timeout=120_000)
    page.wait_for_timeout(300)
    wire = WIRE[name]
    urls = {r: u.split("?")[0].rsplit("/lecture/", 1)[-1] for r, u in wire["urls"].items()}
    # bytes on the wire for the question's explorer (cold: the cache is off), by resource
    TIMINGS[f"{name}_question_bytes"] = {u: wire["sizes"].get(r, 0) for r, u in urls.items()
                                         if u.startswith(("api/explorer/", "static/"))}
    urls = sorted(urls.values())
    assert f"api/explorer/{QID}" in urls and "static/explorer.js" in urls, urls
    assert page.locator("#explorer canvas.genviz-canvas").count() == 1
    rho = page.locator("#explorer .genviz-control[data-name='rho'] input[type=range]")
    assert rho.is_enabled()
    off = page.locator("#explorer .genviz-control.genviz-disabled input[type=range]")
    assert off.count() >= 1 and all(not e.is_enabled() for e in off.all())
    assert "run the notebook to move this" in page.inner_text("#explorer")
    info = page.evaluate(CANVAS_HASH)
    assert info["ink"] > 1000 and info["shown"] <= PHONE["width"], info  # drawn, fits the phone


def _drag_the_slider(page, cdp):
    """A finger drags ρ's slider to the right (CDP touch events on a touch viewport): the
    canvas changes, with no kernel anywhere (the phone has none)."""
    rho = page.locator("#explorer .genviz-control[data-name='rho'] input[type=range]")
    rho.evaluate("e => e.scrollIntoView({block: 'start'})")  # the slider and the figure below
    page.wait_for_timeout(200)
    page.screenshot(path=str(ARTIFACTS / "lecture_phone_explorer_before.png"))
    before = page.evaluate(CANVAS_HASH)
    value0 = rho.input_value()
    box = rho.bounding_box()
    lo, hi = (float(rho.get_attribute(a)) for a in ("min", "max"))
    v = float(rho.input_value())
    thumb = 16
    x0 = box["x"] + thumb / 2 + (v - lo) / (hi - lo) * (box["width"] - thumb)
    y = box["y"] + box["height"] / 2
    x1 = min(box["x"] + box["width"] - 2, x0 + 0.3 * box["width"])
    touch = lambda kind, x: cdp.send("Input.dispatchTouchEvent", {  # noqa: E731
        "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]})
    touch("touchStart", x0)
    for i in range(1, 11):
        touch("touchMove", x0 + (x1 - x0) * i / 10)
        page.wait_for_timeout(30)
    touch("touchEnd", x1)
    page.wait_for_timeout(500)
    after = page.evaluate(CANVAS_HASH)
    TIMINGS["drag"] = {"rho_from": value0, "rho_to": rho.input_value(),
                       "readout": page.inner_text("#explorer .genviz-readout")[:120]}
    page.screenshot(path=str(ARTIFACTS / "lecture_phone_explorer_after.png"))
    assert rho.input_value() != value0, TIMINGS["drag"]  # the finger moved the slider
    assert after["hash"] != before["hash"], (before, after)  # and the figure with it
    # the phone's layout (#37 item 2): the narrow figure, shown 1:1 within the screen, and the
    # slider a 44-px touch target
    shown = page.evaluate("""() => { const c = document.querySelector('#explorer canvas');
        const r = c.getBoundingClientRect();
        return {layout: c.closest('.genviz-explorer[data-layout]').dataset.layout,
                width: c.width, shown: r.width, right: r.right}; }""")
    TIMINGS["phone_figure"] = shown
    assert shown["layout"] == "narrow" and abs(shown["shown"] - shown["width"]) <= 1, shown
    assert shown["right"] <= PHONE["width"] and box["height"] >= 44, (shown, box)


def _turn_the_phone(page):
    """A phone turned sideways (844 px wide) swaps the explorer to the wide figure, fetched
    then, and upright again to the narrow one: the slider keeps its value, the state index
    stays, no reload (explorer.js relayout with the page's fetchLayout)."""
    state = """() => { const v = document.querySelector('#explorer .genviz-static-explorer').__genviz;
        const s = document.querySelector("#explorer .genviz-control[data-name='rho'] input");
        return {layout: v.root.dataset.layout, w: v.canvas.width, value: s.value,
                painted: v.paintedIndex}; }"""
    rho = page.locator("#explorer .genviz-control[data-name='rho'] input[type=range]")
    rho.focus()
    rho.press("ArrowRight")
    upright = page.evaluate(state)
    assert upright["layout"] == "narrow", upright
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    page.wait_for_function("() => document.querySelector('#explorer .genviz-static-explorer')"
                           ".__genviz.root.dataset.layout === 'wide'", timeout=30_000)
    sideways = page.evaluate(state)
    page.locator("#explorer canvas.genviz-canvas").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "lecture_phone_sideways.png"))
    assert sideways["w"] > upright["w"] and sideways["value"] == upright["value"], sideways
    assert sideways["painted"] == upright["painted"], (upright, sideways)
    page.set_viewport_size(PHONE)
    page.wait_for_function("() => document.querySelector('#explorer .genviz-static-explorer')"
                           ".__genviz.root.dataset.layout === 'narrow'", timeout=30_000)
    assert page.evaluate(state) == upright


def _click(page, label):
    page.click(f".genviz-room-panel button:has-text('{label}')")


def _room(page):
    return page.inner_text(".genviz-room")


def test_three_phones_follow_the_lecture_and_vote(hub, browser, lecture):
    panel = lecture.inner_html(".genviz-room-panel")
    assert "/services/genviz-poll/lecture/" in panel  # the address for the phones
    assert "<svg" in panel or "segno" in panel  # its QR code (or how to get one)
    lecture.screenshot(path=str(ARTIFACTS / "lecture_panel_with_address.png"))
    phones = {}
    try:
        for name in STUDENTS:
            phones[name] = _phone(browser, hub, name)
            _wait_text(phones[name][1], "Waiting for the lecturer")
        phones["ada"][1].screenshot(path=str(ARTIFACTS / "lecture_phone_waiting.png"))
        t0 = time.monotonic()
        _click(lecture, "Open vote")
        for name, (first, _) in STUDENTS.items():
            page = phones[name][1]
            _wait_text(page, "Vote 1 is open")
            assert "peak" in page.inner_text("#prompt")  # the course's prompt, from the bundle
            _tap(page, first)
        TIMINGS["open_to_three_votes_s"] = round(time.monotonic() - t0, 2)
        for name in STUDENTS:  # predict first: no explorer while a vote can be cast
            assert phones[name][1].locator("#explorer canvas").count() == 0
        phones["ben"][1].screenshot(path=str(ARTIFACTS / "lecture_phone_voted.png"))
        # the touch targets are large enough (44 px) and fit the phone's width
        for b in phones["ada"][1].locator("#options button").all():
            box = b.bounding_box()
            assert box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"], box
        lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                                  ".includes('first vote (open): 3 answered')", timeout=30_000)
        # ada changes her mind while the round is open: still 3 answers
        _tap(phones["ada"][1], 2)
        _tap(phones["ada"][1], STUDENTS["ada"][0])
        for name in STUDENTS:
            text = phones[name][1].inner_text("#lecture")
            assert "%" not in text and "answers)" not in text  # no counts before the reveal
        _click(lecture, "Close")
        lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                                  ".includes('2 (67%)')")
        for name in STUDENTS:
            page = phones[name][1]
            _wait_text(page, "Voting is closed")
            assert page.locator("#options button:disabled").count() == 4
            assert "%" not in page.inner_text("#lecture")
        phones["chloe"][1].screenshot(path=str(ARTIFACTS / "lecture_phone_closed.png"))
        _click(lecture, "Second vote")
        for name, (_, second) in STUDENTS.items():
            page = phones[name][1]
            _wait_text(page, "Vote 2 is open")
            _tap(page, second)
        lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                                  ".includes('second vote (open): 3 answered')", timeout=30_000)
        _click(lecture, "Close")
        lecture.wait_for_function(
            "() => document.querySelector('.genviz-room').innerText.includes('(open)') === false")
        second = _room(lecture)
        assert "2 (67%)" in second and "1 (33%)" in second
        for name in STUDENTS:  # the votes are over: now observe, on the phone
            _check_explorer(phones[name][1], name)
        _drag_the_slider(phones["ada"][1], WIRE["ada"]["cdp"])
        _turn_the_phone(phones["ben"][1])
        _click(lecture, "Reveal")
        for name in STUDENTS:
            page = phones[name][1]
            _wait_text(page, "What happens")
            text = page.inner_text("#reveal")
            assert "First vote (3 answers)" in text and "Second vote (3 answers)" in text
            assert "67%" in text and "33%" in text
            assert page.locator("#options button.correct").count() == 1
        phones["ada"][1].screenshot(path=str(ARTIFACTS / "lecture_phone_revealed.png"),
                                    full_page=True)
        lecture.screenshot(path=str(ARTIFACTS / "lecture_lecturer_revealed.png"))
        for name in STUDENTS:
            assert not phones[name][2], phones[name][2]  # no JavaScript error on a phone
    finally:
        for context, _, _ in phones.values():
            context.close()
    running, procs = _servers(hub)
    TIMINGS["servers_after"] = sorted(running)
    assert running == {"instructor"} and procs == 1  # no server for any student


def test_a_phone_cannot_vote_without_the_pages_token_or_as_another(hub, browser, lecture):
    _click(lecture, "Clear votes")
    _click(lecture, "Click again to delete")
    lecture.wait_for_function(
        "() => document.querySelector('.genviz-room').innerText.includes('Not opened yet')")
    _click(lecture, "Open vote")
    lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                              ".includes('(open)')")
    context, page, _ = _phone(browser, hub, "ben")
    try:
        _wait_text(page, "Vote 1 is open")
        codes = page.evaluate("""async (qid) => {
            const xsrf = document.querySelector('meta[name=xsrf]').content;
            // a 503 says "the hub could not check the login; try again" (a busy hub): tried
            // again as lecture.js does (3 times, after 0.5, 1, 2 s)
            const post = async (body, headers, left = 3, delay = 500) => {
              const status = await fetch('api/vote', {method: 'POST',
                headers: Object.assign({'Content-Type': 'application/json'}, headers),
                body: JSON.stringify(body)}).then(r => r.status);
              if (status !== 503 || left === 0) return status;
              await new Promise(ok => setTimeout(ok, delay));
              return post(body, headers, left - 1, delay * 2);
            };
            return {
              noXsrf: await post({question: qid, round: 1, option: 0}, {}),
              asAda: await post({question: qid, round: 1, option: 0, user: 'ada'},
                                {'X-XSRFToken': xsrf}),
              counts: await fetch('../api/questions/' + qid,
                                  {headers: {'X-XSRFToken': xsrf}}).then(r => r.status),
              ok: await post({question: qid, round: 1, option: 1}, {'X-XSRFToken': xsrf}),
            };
        }""", QID)
        assert codes == {"noXsrf": 403, "asAda": 400, "counts": 401, "ok": 200}, codes
    finally:
        context.close()
    lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                              ".includes('first vote (open): 1 answered')", timeout=30_000)
