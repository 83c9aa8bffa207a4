"""The room votes on the trial hub (issue #31), in Chromium: the instructor's lecture view in
Voilà at 1280x720 (the genviz-lecture template) runs the rounds; three students, each logged
in in their own browser, vote from their notebooks (opened in Voilà, which runs them: the
client API genviz.widgets.room.vote, as the prediction boxes will call it); the instructor's
chart shows the counts live, a second vote changes them, the reveal shows both. A student
cannot read the counts, close a round or vote as another user, and a student who opens the
lecturer's panel is told it is the instructors'.

The prediction boxes' own wiring comes with issue #30; until then the students' notebooks call
the client directly. Everything listens on 127.0.0.1 on free ports; the hub (deploy/run_hub.py)
is stopped by its process group and every process is checked gone by PID. Screenshots go to
artifacts/browser/votes_*.png; the steps' durations to artifacts/browser/votes.json.
"""

from __future__ import annotations

import json
import signal
import sys
import time

import nbformat
import pytest

from conftest import _new_page
from pages import ARTIFACTS, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from hub_testing import TrialHub, cleanup, wait_gone  # noqa: E402

STUDENTS = {"ada": (0, 0), "ben": (1, 0), "chloe": (1, 2)}  # first vote, second vote
OPTIONS = ["up", "down", "it stays"]
QID = "q-browser-peak"
LECTURE = {"width": 1280, "height": 720}
TIMINGS: dict = {}


def _notebook(path, *cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _write_notebooks(home):
    _notebook(home / "instructor" / "lecture.ipynb",
              "from genviz.widgets import room",
              f"room.lecturer_panel({QID!r}, {OPTIONS!r}, correct=[0], "
              f"prompt='Which way does the peak move?')")
    for name, (first, second) in STUDENTS.items():
        for rnd, option in [(1, first), (2, second)]:
            _notebook(home / name / f"vote{rnd}.ipynb",
                      "from genviz.widgets import room",
                      f"out = room.vote({QID!r}, {option}, round={rnd}).result(timeout=20)\n"
                      f"print('VOTE', out.ok, out.status, out.message)")
    _notebook(home / "ada" / "peek.ipynb",
              "from genviz.widgets import room\nr = room.connect()",
              f"print('COUNTS', r.question({QID!r}).status)",
              f"print('CLOSE', r.set_state({QID!r}, open=None).status)",
              f"print('AS_BEN', r.request('POST', 'api/votes', "
              f"{{'question': {QID!r}, 'option': 2, 'user': 'ben'}}).status)",
              f"print('DELETE', r.delete({QID!r}).status)")
    _notebook(home / "ada" / "lecture.ipynb", *(
        ["from genviz.widgets import room",
         f"p = room.lecturer_panel({QID!r}, {OPTIONS!r})\np.press('close')\np"]))


@pytest.fixture(scope="module")
def hub(artifacts):
    h = TrialHub()
    _write_notebooks(h.home)
    t0 = time.monotonic()
    try:
        h.start()
        h.start_servers([*STUDENTS, "instructor"])
        TIMINGS["hub_and_4_servers_s"] = round(time.monotonic() - t0, 1)
        yield h
    finally:
        cleanup(h)
        (ARTIFACTS / "votes.json").write_text(json.dumps(TIMINGS, indent=1))


def _login(browser, hub, name, viewport=None):
    record = {"console_errors": [], "page_errors": []}
    context, page = _new_page(browser, viewport or {"width": 1280, "height": 800}, record)
    page.goto(f"{hub.base}/hub/login")
    page.fill("#username_input", name)
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{name}/**", timeout=120_000)
    return context, page


def _voila(page, hub, name, notebook, template=True):
    query = "?template=genviz-lecture" if template else ""  # Voilà's template override
    page.goto(f"{hub.base}/user/{name}/voila/render/{notebook}{query}")


def _run_in_voila(browser, hub, name, notebook, marker) -> str:
    """Open a student's notebook in Voilà (it runs every cell); return the page's text once
    ``marker`` (printed by its last cell) is there."""
    context, page = _login(browser, hub, name)
    try:
        _voila(page, hub, name, notebook, template=False)
        page.wait_for_function(f"() => document.body.innerText.includes({marker!r})",
                               timeout=120_000)
        return page.inner_text("body")
    finally:
        context.close()


def _lines(text, marker):
    return [line.strip() for line in text.splitlines() if line.strip().startswith(marker)]


def _chart(page):
    return page.inner_html(".genviz-room")


def _click(page, label):
    page.click(f".genviz-room-panel button:has-text('{label}')")


@pytest.fixture(scope="module")
def lecture(hub, browser):
    context, page = _login(browser, hub, "instructor", LECTURE)
    _voila(page, hub, "instructor", "lecture.ipynb")
    page.wait_for_selector(".genviz-room-panel", timeout=120_000)
    yield page
    context.close()


def test_the_room_votes_and_the_lecturer_sees_it_live(hub, browser, lecture):
    page = lecture
    assert "Not opened yet" in _chart(page)
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_not_opened.png"))
    _click(page, "Open vote")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('(open)')")
    t0 = time.monotonic()
    for name in STUDENTS:
        assert _lines(_run_in_voila(browser, hub, name, "vote1.ipynb", "VOTE"), "VOTE") == \
            ["VOTE True 200 ok"]
    TIMINGS["three_students_vote_in_voila_s"] = round(time.monotonic() - t0, 1)
    # the count, live, without a click; no bars while the round is open
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                           ".includes('first vote (open): 3 answered')", timeout=30_000)
    assert "67%" not in page.inner_text(".genviz-room")
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_round1_open.png"))
    _click(page, "Close")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('2 (67%)')")
    text = page.inner_text(".genviz-room")
    assert "1 (33%)" in text and "2 (67%)" in text  # ada up; ben, chloe down
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_round1_closed.png"))

    _click(page, "Second vote")
    for name in STUDENTS:
        assert _lines(_run_in_voila(browser, hub, name, "vote2.ipynb", "VOTE"), "VOTE") == \
            ["VOTE True 200 ok"]
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                           ".includes('second vote (open): 3 answered')", timeout=30_000)
    _click(page, "Close")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('(open)') === false")
    second = page.inner_text(".genviz-room")
    assert "2 (67%)" in second and "1 (33%)" in second  # up 2, it stays 1: changed from round 1
    _click(page, "Reveal")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('✓')")
    revealed = page.inner_text(".genviz-room")
    # first vote against second vote, per option: up 1 -> 2, down 2 -> 0, it stays 0 -> 1
    for text in ["1 (33%) first vote", "2 (67%) second vote", "2 (67%) first vote",
                 "0 (0%) second vote", "1 (33%) second vote"]:
        assert text in revealed, (text, revealed)
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_revealed.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_revealed_1920.png"))
    page.set_viewport_size(LECTURE)
    box = page.locator(".genviz-room-panel").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= LECTURE["width"], box


def test_a_student_cannot_read_close_delete_or_vote_as_another(hub, browser, lecture):
    before = lecture.inner_text(".genviz-room")
    text = _run_in_voila(browser, hub, "ada", "peek.ipynb", "DELETE")
    assert _lines(text, "DELETE") == ["DELETE 403"]
    assert "COUNTS 200" in text  # revealed by now: the room saw it on the projector
    assert "CLOSE 403" in text and "AS_BEN 400" in text
    time.sleep(1.0)
    assert lecture.inner_text(".genviz-room") == before


def test_a_student_is_refused_counts_before_the_reveal(hub, browser, lecture):
    _click(lecture, "Clear votes")
    _click(lecture, "Click again to delete")
    lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('Not opened yet')")
    _click(lecture, "Open vote")
    lecture.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('(open)')")
    text = _run_in_voila(browser, hub, "ada", "peek.ipynb", "DELETE")
    assert "COUNTS 403" in text and "CLOSE 403" in text and "DELETE 403" in text
    assert "(open)" in lecture.inner_text(".genviz-room")  # the round is still open


def test_a_student_opening_the_lecturers_panel_is_told_it_is_the_instructors(hub, browser):
    context, page = _login(browser, hub, "ada", LECTURE)
    try:
        _voila(page, hub, "ada", "lecture.ipynb")
        page.wait_for_function("() => document.body.innerText.includes('instructors')",
                               timeout=120_000)
        page.screenshot(path=str(ARTIFACTS / "votes_student_panel.png"))
    finally:
        context.close()


def test_stopping_the_hub_stops_the_poll_service_and_everything(hub):
    everything = hub.remember()
    hub.signal(signal.SIGINT)
    took, left = wait_gone(everything, timeout=30)
    TIMINGS["hub_stop_s"] = round(took, 1)
    assert not left
