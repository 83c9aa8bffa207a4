"""Nothing a student writes is live in the grader's pages (issue #38, "What to build" 2), in a
real browser: nbgrader's Formgrader page of a submission (served by a started JupyterLab with
the grader's tools, as `make lab-grader` starts it, on the course directory) and our feedback
page (a file), for a submission whose working, answers and exceptions are full of hostile
links and images (``javascript:`` and its entity-encoded forms, ``data:``, ``vbscript:``,
external images, autolinks, raw HTML ``<a>``, ``<iframe>``, ``<svg onload>``, ...).

Every request the browser makes is recorded (``context.on("request")``; anything that is not
the server on 127.0.0.1 or the page's own file is aborted and counted), every link and anchor
of the page is clicked (``el.click()``, which follows a live ``javascript:`` link), and the test
asserts that no payload ran: no window flag set (``window.__pwned``, in every frame), no dialog
(``alert``), no write through the instructor's session (a PUT/POST/PATCH/DELETE to
``/api/contents``, or the payload's file in the course folder), and no request left
127.0.0.1 / the file. The planted fault — the neutraliser bypassed (``course.grade._inert``
and the feedback's escaping turned off) for one student of the same course — is caught by the
same probe.
"""

from __future__ import annotations

import base64
import os
import pathlib
import secrets
import shutil

import nbformat
import pytest

from pages import ARTIFACTS, ROOT, Server, free_port, lab_argv

A = "a03_gda"
SECRET = bytes(range(32))
# what a live payload does: a window flag, a dialog, a write through the Jupyter session
JS = ("window.__pwned=(window.__pwned||0)+1,alert('pwned'),"
      "fetch('/api/contents/pwned.txt',{method:'PUT'})")
FRAME = base64.b64encode(b"<script>parent.__pwned=1;alert('data')</script>").decode()


def _payload() -> str:
    from course import submissions as S

    return "\n\n".join([
        f"[plain](javascript:{JS})",
        f"[entity s](java&#115;cript:{JS}) [entity colon](javascript&#58;{JS})",
        f"[hex j](&#x6A;avascript:{JS}) [case](JaVaScRiPt:{JS}) [space]( javascript:{JS})",
        f"[data](data:text/html;base64,{FRAME}) [vb](vbscript:msgbox(1))",
        "![markdown image](http://beacon.invalid/md.png)",
        "<http://beacon.invalid/autolink> http://beacon.invalid/bare <javascript:alert(1)>",
        f'<a href="javascript:{JS}">raw a</a> <a href="java&#115;cript:{JS}">raw a2</a>',
        f'<img src="http://beacon.invalid/raw.png" onerror="{JS}">',
        '<iframe src="http://beacon.invalid/frame"></iframe>',
        '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
        f'<svg onload="{JS}"><a href="javascript:{JS}"><text y="20">svg link</text></a></svg>',
        f'<details open ontoggle="{JS}"><summary>s</summary>d</details>',
        '<form action="http://beacon.invalid/form"><button>send</button></form>',
        '<object data="http://beacon.invalid/object"></object>',
        f"[reference link][r1]\n\n[r1]: javascript:{JS}",
        S.HOSTILE_MARKDOWN,
    ])


# answers and an exception that reach our feedback page and the report
ANSWERS = {
    1: "answer_q1 = '<img src=http://beacon.invalid/answer.png onerror=\"window.__pwned=1\">'",
    2: "raise ValueError('<a href=\"javascript:window.__pwned=1\">x</a>"
       "<img src=http://beacon.invalid/exc.png>')",
}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A graded course of three students: 'clean' handed in the release untouched (the
    oracle: what the page requests by itself); 'mallory' and 'planted' the same hostile
    submission, 'mallory' graded as the grader does, 'planted' with the neutraliser bypassed
    in its autograded notebook and its feedback page (the planted fault)."""
    from course import build as B
    from course import grade as G
    from course import submissions as S
    from course.sandbox import Limits

    root = tmp_path_factory.mktemp("grading-pages") / "course"
    B.build(root, [A], ["clean", "mallory", "planted"], SECRET)
    S.write(root, "clean", A, S.release(A, "clean", SECRET))  # the page's own requests
    for student in ("mallory", "planted"):
        S.write(root, student, A, S.fill(S.release(A, student, SECRET), ANSWERS,
                                         working=_payload()))
    outcomes = {o.student_id: o for o in G.grade(root, secret=SECRET, jobs=1,
                                                  limits=Limits(cell_seconds=30))}
    assert outcomes["mallory"].graded and outcomes["planted"].graded
    _plant(root, outcomes["planted"])
    shutil.copy(ROOT / "course" / "nbgrader_config.py", root / "nbgrader_config.py")
    return root


def _plant(root: pathlib.Path, outcome) -> None:
    """The neutraliser bypassed for 'planted': its autograded notebook with the Markdown as
    the student wrote it, and its feedback page without escaping."""
    import html

    from course import grade as G
    from course import report as R
    from course import submissions as S

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(G, "_inert", lambda text: text)
        for module in (G, R):  # the feedback page is written by course.report
            mp.setattr(module, "printable", lambda text, **kw: str(text))
        mp.setattr(html, "escape", lambda text, quote=True: text)
        release = S.release(A, "planted", SECRET)
        submitted = nbformat.read(root / "submitted" / "planted" / A / f"{A}.ipynb",
                                  as_version=4)
        cells = [(c.cell_type, c.source, G._grade_id(c)) for c in submitted.cells]
        nb = G.autograded_notebook(outcome, cells, release)
        (root / "autograded" / "planted" / A / f"{A}.ipynb").write_text(nbformat.writes(nb))
        G.write_feedback(root, outcome, None)
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def formgrader(course):
    """JupyterLab with the grader's tools (as `make lab-grader`) on the course directory, on
    127.0.0.1 with a token; stopped by its own process group."""
    token = secrets.token_urlsafe(24)
    port = free_port()
    home = course.parent / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env.update(
        JUPYTER_CONFIG_PATH=os.pathsep.join([
            str(ROOT / "deploy" / "singleuser" / "grader" / "etc" / "jupyter"),
            str(ROOT / "etc" / "jupyter")]),
        JUPYTER_PATH=str(ROOT / "share" / "jupyter"), JUPYTER_RUNTIME_DIR=str(home / "rt"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"), HOME=str(home),
        GENVIZ_COURSE_ROOT=str(course),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    argv, base = lab_argv(port, token, course)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    server = Server(argv, env=env, cwd=course, log_path=ARTIFACTS / "formgrader.log",
                    url_ready=f"{base}/api/status?token={token}")
    yield base, token
    server.stop()


def _submission_id(course: pathlib.Path, student: str) -> str:
    from course import gradebook as GB

    with GB.open_gradebook(course) as gb:
        return gb.find_submission_notebook(A, A, student).id


def _formgrader_url(formgrader, course, student: str) -> str:
    base, token = formgrader
    return f"{base}/formgrader/submissions/{_submission_id(course, student)}/?token={token}"


def _probe(browser, url: str, local: tuple[str, ...]) -> dict:
    """Open ``url``, click every link and anchor of the page (reopening it after each click
    that navigated away), and record what ran and what was requested."""
    context = browser.new_context()
    found = {"outside": [], "writes": [], "dialogs": [], "flags": 0, "links": 0, "text": ""}

    def on_request(request):
        if not request.url.startswith(local) and not request.url.startswith(("about:", "blob:")):
            found["outside"].append(request.url)
        if request.method != "GET" and "/api/contents" in request.url:
            found["writes"].append(f"{request.method} {request.url}")

    def guard(route):  # nothing leaves 127.0.0.1 / the file (it is recorded above)
        if route.request.url.startswith(local):
            route.continue_()
        else:
            route.abort()

    def on_dialog(dialog):
        found["dialogs"].append(dialog.message)
        dialog.dismiss()

    context.on("request", on_request)
    context.route("**/*", guard)
    context.on("page", lambda p: p.on("dialog", on_dialog))
    page = context.new_page()
    try:
        _open(page, url)
        page.wait_for_timeout(1000)
        found["text"] = page.inner_text("body")
        selector = "a, area, [href], [xlink\\:href]"
        n = page.locator(selector).count()
        found["links"] = n
        for k in range(n):
            for _ in range(3):  # the click must land on the submission's page, not on a page
                # a previous click navigated to (e.g. Jupyter's own login page and its links)
                if page.is_closed() or page.url.split("#")[0] != url.split("#")[0]:
                    page = page if not page.is_closed() else context.new_page()
                    _open(page, url)
                try:
                    clicked = page.evaluate("""k => { if (!window.__probeHere) return false;
                        const el = document.querySelectorAll(
                        'a, area, [href], [xlink\\\\:href]')[k];
                        if (!el) return true; el.scrollIntoView();
                        if (typeof el.click === 'function') el.click();
                        else el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
                        return true; }""", k)
                    page.wait_for_timeout(150)
                except Exception:  # noqa: BLE001 - a navigation while evaluating
                    clicked = True
                found["flags"] = max(found["flags"], _flags(page))
                if clicked:
                    break
                _open(page, url)
        page.wait_for_timeout(500)
        found["flags"] = max(found["flags"], _flags(page))
    finally:
        context.close()
    return found


def _open(page, url: str, tries: int = 4) -> None:
    """goto, again if a click's late navigation (e.g. to an aborted outside link's error
    page) interrupted it."""
    for k in range(tries):
        try:
            page.goto(url, wait_until="load")
            page.evaluate("() => { window.__probeHere = true; }")  # a later document lacks it
            return
        except Exception:  # noqa: BLE001 - playwright's "interrupted by another navigation"
            if k == tries - 1:
                raise
            page.wait_for_timeout(500)


def _flags(page) -> int:
    """The payload's window flag, the largest over the page's frames (0: nothing ran)."""
    total = 0
    for frame in page.frames:
        try:
            total += int(frame.evaluate("() => Number(window.__pwned || 0)"))
        except Exception:  # noqa: BLE001 - a frame that navigated or is cross-origin
            pass
    return total


def _assert_inert(found: dict, course: pathlib.Path, own=frozenset()):
    """``own``: what the same page requests outside for a submission without any student
    text (nbgrader's Formgrader template loads MathJax from cdnjs by itself)."""
    assert found["links"] > 0  # the probe clicked something
    outside = [u for u in found["outside"] if u not in own]
    assert outside == [], outside[:5]
    assert not any("beacon.invalid" in u for u in found["outside"])
    assert found["writes"] == [] and found["dialogs"] == [], (found["writes"], found["dialogs"])
    assert found["flags"] == 0
    assert not (course / "pwned.txt").exists()


def test_the_formgrader_page_runs_no_student_script_and_fetches_nothing(browser, course,
                                                                       formgrader):
    base = formgrader[0]
    clean = _probe(browser, _formgrader_url(formgrader, course, "clean"), (base,))
    assert clean["flags"] == 0 and clean["dialogs"] == [] and clean["writes"] == []
    found = _probe(browser, _formgrader_url(formgrader, course, "mallory"), (base,))
    _assert_inert(found, course, own=frozenset(clean["outside"]))
    # the page is the Formgrader's page of this submission, the student's text shown as text
    assert "beacon.invalid" in found["text"] and "javascript:" in found["text"]
    assert "mallory" in found["text"].lower() or "Submission" in found["text"]


def test_our_feedback_page_runs_no_student_script_and_fetches_nothing(browser, course):
    page = course / "feedback" / "mallory" / A / f"{A}.html"
    found = _probe(browser, page.as_uri(), (page.as_uri(),))
    found["links"] = max(found["links"], 1)  # the page may have no link at all
    _assert_inert(found, course)
    assert "beacon.invalid/exc.png" in found["text"]  # the exception's text, shown as text


def test_the_probe_catches_the_neutraliser_bypassed(browser, course, formgrader):
    """Planted fault: the same submission with the neutraliser (and the feedback's escaping)
    bypassed: the Formgrader page and our feedback page then fetch outside and run the
    payload when its links are clicked."""
    base = formgrader[0]
    found = _probe(browser, _formgrader_url(formgrader, course, "planted"), (base,))
    assert any("beacon.invalid" in u for u in found["outside"])
    assert found["flags"] > 0 or found["dialogs"] or found["writes"]
    feedback = course / "feedback" / "planted" / A / f"{A}.html"
    found = _probe(browser, feedback.as_uri(), (feedback.as_uri(),))
    assert any("beacon.invalid" in u for u in found["outside"])
    assert found["flags"] > 0 or found["dialogs"]


def test_the_probe_sees_a_live_link_run(browser, tmp_path):
    """The oracle itself: a page with one live javascript: link and one external image is
    caught (the flag, the dialog and the image's request)."""
    page = tmp_path / "live.html"
    page.write_text(f'<a href="javascript:{JS}">x</a><img src="http://beacon.invalid/live.png">')
    found = _probe(browser, page.as_uri(), (page.as_uri(),))
    assert found["flags"] == 1 and found["dialogs"] == ["pwned"]
    assert any("beacon.invalid" in u for u in found["outside"])
