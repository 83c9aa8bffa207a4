"""The room votes on the trial hub (issues #30 and #31), in Chromium, with the course's real
prediction boxes: the instructor opens the notebook in Voilà lecture mode at 1280x720
(``?template=genviz-lecture``), where the prediction box is the room's vote (the lecturer's
panel: Open vote, the live count, Close and the bars, Second vote, Reveal); three students,
each logged in in their own browser, open the same notebook in JupyterLab at 1280x800, run it,
click an option and Commit (their commit is their first vote), and after the discussion press
*Vote again*, choose and *Send vote*. The instructor's chart shows the count live, the second
vote changes the bars, the reveal shows first vote against second. A student's box never shows
the counts; a student cannot read the counts before the reveal, close a round or vote as
another user (API calls with their own hub token); a student in lecture mode gets the plain
lecture box, and a student who opens the lecturer's panel is told it is the instructors'.

Everything listens on 127.0.0.1 on free ports; the hub (deploy/run_hub.py) is stopped by its
process group and every process is checked gone by PID. Screenshots go to
artifacts/browser/votes_*.png; the steps' durations to artifacts/browser/votes.json.
"""

from __future__ import annotations

import json
import signal
import sys
import time

import nbformat
import pytest

import pages
from conftest import _new_page
from pages import ARTIFACTS, ROOT, LabNotebook

sys.path.insert(0, str(ROOT / "tests"))
from hub_testing import TrialHub, cleanup, wait_gone  # noqa: E402

# the course's prediction (genviz.exercises.gaussian.predict_peak_with_rho), as every screen
# shows its options: (a) gets taller, (b) gets lower, (c) slides along x1 = x2, (d) same height
QID = "02-peak-with-rho"
PICK = {0: "gets taller", 1: "gets lower", 2: "slides along", 3: "same height"}
STUDENTS = {"ada": (0, 0), "ben": (1, 0), "chloe": (1, 2)}  # first vote, second vote
LECTURE = {"width": 1280, "height": 720}
LAB = {"width": 1280, "height": 800}
TIMINGS: dict = {}
PREDICT = ("from genviz.exercises.gaussian import predict_peak_with_rho\n"
           "from genviz.widgets.exercises import prediction_box\n"
           "prediction_box(predict_peak_with_rho())")


def _notebook(path, *cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _write_notebooks(home):
    for name in [*STUDENTS, "instructor"]:
        _notebook(home / name / "predict.ipynb", PREDICT)
        # each student's JupyterLab settings as the other browser tests use them (every cell
        # attached to the page, no autosave, no news): ~/.jupyter/lab/user-settings
        pages.lab_settings(home / name / ".jupyter" / "lab" / "user-settings")
    _notebook(home / "ada" / "peek.ipynb",
              "from genviz.widgets import room\nr = room.connect()",
              f"print('COUNTS', r.question({QID!r}).status)",
              f"print('CLOSE', r.set_state({QID!r}, open=None).status)",
              f"print('AS_BEN', r.request('POST', 'api/votes', "
              f"{{'question': {QID!r}, 'option': 2, 'user': 'ben'}}).status)",
              f"print('DELETE', r.delete({QID!r}).status)")
    _notebook(home / "ada" / "lecture.ipynb",
              "from genviz.widgets import room\n"
              "from genviz.exercises.gaussian import predict_peak_with_rho",
              "p = room.lecturer_panel(predict_peak_with_rho())\np.press('close')\np")


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
    LabNotebook.login(page, hub.base, name)
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
        page.wait_for_function(f"() => (document.body?.innerText ?? '').includes({marker!r})",
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
    t0 = time.monotonic()
    _voila(page, hub, "instructor", "predict.ipynb")
    page.wait_for_selector(".genviz-prediction .genviz-room-panel", timeout=180_000)
    TIMINGS["lecture_page_s"] = round(time.monotonic() - t0, 1)
    yield page
    context.close()


def _box_text(page):
    return page.inner_text(".genviz-prediction")


def _wait_box(page, text, timeout=60_000):
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.genviz-prediction')]"
        f".some(e => e.innerText.includes({text!r}))", timeout=timeout)


def _run_all(page, url, name, timeout_s=240):
    """Open a notebook in JupyterLab and Run All (as tests/test_hub.py does), answering a
    dialog JupyterLab puts up first (recorded in votes.json, its picture saved)."""
    nb = LabNotebook(page).open(url)
    page.wait_for_timeout(1500)
    for _ in range(3):
        dialog = page.locator(".jp-Dialog")
        if dialog.count():
            TIMINGS.setdefault("lab_dialogs", []).append(f"{name}: {dialog.inner_text()[:200]}")
            page.screenshot(path=str(ARTIFACTS / f"votes_dialog_{name}.png"))
            page.click(".jp-Dialog .jp-mod-accept")
            page.wait_for_timeout(1000)
    nb.run_all()
    nb.wait_all_ran(timeout_s)


def _student_lab(browser, hub, name):
    """A student logs in, opens predict.ipynb in JupyterLab and runs it: their box."""
    context, page = _login(browser, hub, name, LAB)
    _run_all(page, f"{hub.base}/user/{name}/lab/tree/predict.ipynb?reset", name)
    page.wait_for_selector(".genviz-prediction .widget-radio-box label", timeout=120_000)
    return context, page


def _choose(page, option, button):
    box = page.locator(".genviz-prediction")
    box.locator(f".widget-radio-box label:has-text('{PICK[option]}')").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.genviz-prediction .widget-radio-box input')]"
        ".some(i => i.checked)", timeout=30_000)
    if button == "Commit":  # a learner's prediction is an option and why (issue #40)
        box.locator(".widget-text input").fill("the narrower spread piles the mass up")
    box.locator(f"button:has-text('{button}')").click()


def test_the_room_votes_with_the_prediction_boxes_and_the_lecturer_sees_it_live(hub, browser,
                                                                                 lecture):
    page = lecture
    assert "Not opened yet" in _chart(page)
    assert "Open vote" in _box_text(page)  # the box says what to do next
    assert not page.locator(".genviz-prediction .widget-radio-box").count()  # no radio: the panel
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_not_opened.png"))
    _click(page, "Open vote")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('(open)')")
    students = {}
    try:
        t0 = time.monotonic()
        for name, (first, _) in STUDENTS.items():
            t1 = time.monotonic()
            students[name] = _student_lab(browser, hub, name)
            spage = students[name][1]
            _choose(spage, first, "Commit")
            _wait_box(spage, "Counted in the room's first vote")
            TIMINGS[f"{name}_open_run_commit_s"] = round(time.monotonic() - t1, 1)
            text = _box_text(spage)
            assert "%" not in text and "answered" not in text  # never the room's counts
            assert not spage.locator(".genviz-room").count()
        TIMINGS["three_students_commit_in_lab_s"] = round(time.monotonic() - t0, 1)
        students["ada"][1].screenshot(path=str(ARTIFACTS / "votes_student_committed.png"))
        # the count, live, without a click; no bars while the round is open
        page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                               ".includes('first vote (open): 3 answered')", timeout=30_000)
        _wait_box(page, "3 answered")
        assert "67%" not in page.inner_text(".genviz-room")
        page.screenshot(path=str(ARTIFACTS / "votes_lecture_round1_open.png"))
        _click(page, "Close")
        page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                               ".includes('2 (67%)')")
        text = page.inner_text(".genviz-room")
        assert "1 (33%)" in text and "2 (67%)" in text  # ada (a); ben, chloe (b)
        _wait_box(page, "Discuss with your neighbour")
        assert "(2 of 3)" in _box_text(page)
        page.screenshot(path=str(ARTIFACTS / "votes_lecture_round1_closed.png"))

        _click(page, "Second vote")
        page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                               ".includes('second vote (open)')")
        t0 = time.monotonic()
        for name, (_, second) in STUDENTS.items():
            spage = students[name][1]
            spage.locator(".genviz-prediction button:has-text('Vote again')").click()
            _wait_box(spage, "Second vote")
            _choose(spage, second, "Send vote")
            _wait_box(spage, "Counted in the room's second vote")
            assert "%" not in _box_text(spage)
        TIMINGS["three_students_vote_again_s"] = round(time.monotonic() - t0, 1)
        students["chloe"][1].screenshot(path=str(ARTIFACTS / "votes_student_second_vote.png"))
    finally:
        for context, _ in students.values():
            context.close()
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText"
                           ".includes('second vote (open): 3 answered')", timeout=30_000)
    _click(page, "Close")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('(open)') === false")
    second = page.inner_text(".genviz-room")
    assert "2 (67%)" in second and "1 (33%)" in second  # (a) 2, (c) 1: changed from round 1
    _wait_box(page, "Reveal")
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_round2_closed.png"))
    _click(page, "Reveal")
    page.wait_for_function("() => document.querySelector('.genviz-room').innerText.includes('✓')")
    revealed = page.inner_text(".genviz-room")
    # first vote against second vote, per option: (a) 1 -> 2, (b) 2 -> 0, (c) 0 -> 1
    for text in ["1 (33%) first vote", "2 (67%) second vote", "2 (67%) first vote",
                 "0 (0%) second vote", "1 (33%) second vote"]:
        assert text in revealed, (text, revealed)
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_revealed.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=str(ARTIFACTS / "votes_lecture_revealed_1920.png"))
    page.set_viewport_size(LECTURE)
    box = page.locator(".genviz-room-panel").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= LECTURE["width"], box


def test_a_student_in_lecture_mode_gets_the_plain_lecture_box(hub, browser):
    context, page = _login(browser, hub, "ben", LECTURE)
    try:
        _voila(page, hub, "ben", "predict.ipynb")
        page.wait_for_selector(".genviz-prediction .widget-radio-box", timeout=180_000)
        text = _box_text(page)
        assert "Record vote 1" in text and "answered" not in text
        assert not page.locator(".genviz-room-panel").count()
        page.screenshot(path=str(ARTIFACTS / "votes_student_lecture_box.png"))
    finally:
        context.close()


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
        page.wait_for_function("() => (document.body?.innerText ?? '').includes('instructors')",
                               timeout=120_000)
        page.screenshot(path=str(ARTIFACTS / "votes_student_panel.png"))
    finally:
        context.close()


def test_the_course_notebook_in_lecture_mode_has_the_rooms_vote_before_its_explorer(hub, browser):
    """The instructor opens the course's own notebook (the hub's copy in ~/genviz/notebooks)
    in lecture mode: its prediction box is the room's vote, followed by the explorer and the
    observation box, as in a lecture."""
    notebook = "genviz/notebooks/02_multivariate_gaussian.ipynb"
    assert (hub.home / "instructor" / notebook).is_file()
    context, page = _login(browser, hub, "instructor", LECTURE)
    try:
        t0 = time.monotonic()
        _voila(page, hub, "instructor", notebook)
        page.wait_for_selector(".genviz-prediction .genviz-room-panel", timeout=240_000)
        page.wait_for_selector(".genviz-observation", timeout=240_000)
        TIMINGS["course_notebook_lecture_page_s"] = round(time.monotonic() - t0, 1)
        assert page.locator(".genviz-room-panel").count() == 1  # 02 asks one prediction
        assert page.locator(".genviz-explorer").count() >= 1
        # the panel sits above the explorer it asks about, within the projector's width
        panel = page.locator(".genviz-room-panel").bounding_box()
        explorer = page.locator(".genviz-explorer").first.bounding_box()
        assert panel["y"] < explorer["y"] and panel["x"] + panel["width"] <= LECTURE["width"]
        page.locator(".genviz-prediction").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "votes_lecture_course_notebook.png"))
    finally:
        context.close()


def test_stopping_the_hub_stops_the_poll_service_and_everything(hub):
    everything = hub.remember()
    hub.signal(signal.SIGINT)
    took, left = wait_gone(everything, timeout=30)
    TIMINGS["hub_stop_s"] = round(took, 1)
    assert not left
