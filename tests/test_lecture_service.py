"""The lecture page (deploy/poll/lecture.py) in-process: JupyterHub's real HubOAuth against a
stand-in hub (tests/lecture_testing.py), the poll service's store shared with kernel votes.

Oracles: the stand-in hub's own records (who logged in, how many servers were asked for), the
store read directly (``Store.mine``/``counts``, ``Store.voter``) and the kernel path of the
same service (``Authorization: token``), never the page's own answers alone.
"""

from __future__ import annotations

import gzip
import json
import threading
import time

import pytest
import requests

from lecture_testing import LocalLectureService

Q = "02-lecture-test"
BUNDLE = {"format": 1, "questions": {Q: {
    "prompt_html": "<p>Which way does the peak move?</p>", "options": ["up", "down", "stays"],
    "options_html": ["<p>up</p>", "<p>down</p>", "<p>stays</p>"], "correct": [0],
    "explanation_html": "<p>EXPLAINED: the determinant shrinks.</p>",
    "observation_html": "<p>Read the peak at rho 0.9.</p>", "notebook": "02.ipynb"}}}


@pytest.fixture
def svc(tmp_path):
    s = LocalLectureService(tmp_path / "state", bundle=BUNDLE)
    yield s
    s.stop()


def _logged_in(svc, user):
    p = svc.phone(user)
    r = p.open()
    assert r.status_code == 200, (r.status_code, r.text[:300])
    assert p.xsrf
    return p


# --- the OAuth login ----------------------------------------------------------------------------

def test_a_phone_logs_in_through_the_hub_and_no_server_starts(svc):
    p = svc.phone("ada")
    r = p.open()
    hops = [h.headers.get("Location", "") for h in p.history[:-1]]
    assert "/hub/api/oauth2/authorize" in hops[0] and "code_challenge=" in hops[0]
    assert any("/hub/login" in h for h in hops), hops  # the hub's own login page
    assert any("/services/genviz-poll/oauth_callback?code=" in h for h in hops)
    assert r.status_code == 200 and 'name="xsrf"' in r.text
    assert svc.hub.logins == 1 and svc.hub.spawns == 0
    assert p.state()["user"] == "ada"
    # a second visit: the service's cookie suffices, the hub is not asked to log in again
    assert p.open().status_code == 200 and len(p.history) == 1 and svc.hub.logins == 1


def test_without_a_hub_login_the_page_is_not_served(svc):
    p = svc.phone(None)
    r = p.open()
    assert r.status_code == 200 and "the hub's login page" in r.text and p.xsrf is None
    status, data = p.get("state")
    assert status == 403 and "not logged in" in data["error"]


def test_a_forged_or_replayed_callback_is_refused(svc):
    p = svc.phone("ada")
    r = p.s.get(svc.url + "oauth_callback", params={"code": "x", "state": "forged"},
                timeout=30, allow_redirects=False)
    assert r.status_code in (400, 403)
    assert svc.phone(None).get("state")[0] == 403


def test_a_user_without_the_service_access_gets_403(svc):
    p = svc.phone("dora")
    r = p.open()
    assert r.status_code == 403


# --- XSRF -------------------------------------------------------------------------------------------

def test_posts_and_fetches_need_the_pages_xsrf_token(svc):
    p = _logged_in(svc, "ada")
    svc.lecturer(Q, options=3, open=1)
    assert p.vote(Q, 1, 0, xsrf=False)[0] == 403
    assert p.vote(Q, 1, 0, xsrf="2|forged|token")[0] == 403
    other = _logged_in(svc, "ben")
    assert p.vote(Q, 1, 0, xsrf=other.xsrf)[0] == 403  # another session's token
    assert p.get("state", xsrf=False)[0] == 403  # a cross-site fetch reads nothing either
    assert svc.store.mine(Q, "ada")["1"] is None
    assert p.vote(Q, 1, 0)[0] == 200 and svc.store.mine(Q, "ada")["1"] == 0


def test_a_refused_vote_tells_the_phone_to_open_a_new_connection(svc):
    """A vote refused before its body is read (no or a forged XSRF token) is answered with
    ``Connection: close``: tornado closes that connection, and a phone that sent its next vote
    on it met a reset (seen in test_posts_and_fetches_need_the_pages_xsrf_token under load).
    A GET refused the same way (in prepare, before the method) closes it too."""
    p = _logged_in(svc, "ada")
    svc.lecturer(Q, options=3, open=1)
    for k in range(8):  # within the burst of votes a user may send at once (10)
        r = p.s.post(svc.page + "api/vote", data=b'{"question": "x"}', timeout=30,
                     headers={"Content-Type": "application/json", "X-XSRFToken": "2|forged|t"})
        assert r.status_code == 403 and r.headers.get("Connection", "").lower() == "close"
        assert p.vote(Q, 1, k % 3)[0] == 200
    r = p.s.get(svc.page + "api/state", timeout=30,
                headers={"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 403 and r.headers.get("Connection", "").lower() == "close"
    assert p.vote(Q, 1, 2)[0] == 200


# --- votes: the poll service's rules -----------------------------------------------------------

def test_a_phone_vote_is_the_same_voter_as_the_users_kernel(svc):
    svc.lecturer(Q, options=3, open=1)
    # ada votes from her kernel (her server's hub token), then changes it on her phone
    assert svc.api("POST", "api/votes", "t-ada", {"question": Q, "option": 2})[0] == 200
    p = _logged_in(svc, "ada")
    assert p.state()["question"]["mine"]["1"] == 2  # the phone sees her kernel's vote
    assert p.vote(Q, 1, 1) == (200, {"question": Q, "round": 1, "option": 1, "changed": True})
    counts = svc.lecturer(Q)  # the lecturer's view: one voter, her latest answer
    assert counts["voters"]["1"] == 1 and counts["counts"]["1"] == [0, 1, 0]
    assert set(svc.store.votes[Q]["1"]) == {svc.store.voter("ada")}


def test_a_student_cannot_vote_as_another(svc):
    svc.lecturer(Q, options=3, open=1)
    p = _logged_in(svc, "ben")
    status, data = p.vote(Q, 1, 0, extra={"user": "ada"})
    assert status == 400
    # ada's cookie in ben's jar is not something ben can make: the jar holds ben's only
    assert p.vote(Q, 1, 0)[0] == 200
    assert svc.store.mine(Q, "ada")["1"] is None and svc.store.mine(Q, "ben")["1"] == 0


def test_rounds_votes_change_until_closed_and_count_once(svc):
    phones = {u: _logged_in(svc, u) for u in ("ada", "ben", "chloe")}
    svc.lecturer(Q, options=3, open=1)
    for u, opt in zip(phones, (0, 1, 1)):
        assert phones[u].vote(Q, 1, opt)[0] == 200
    assert phones["ada"].vote(Q, 1, 2)[1]["changed"] is True   # changed while open
    assert phones["ada"].vote(Q, 1, 2)[1]["changed"] is False  # the same again: no change
    svc.lecturer(Q, open=None)
    status, data = phones["ben"].vote(Q, 1, 0)
    assert status == 409 and "not open" in data["error"]
    svc.lecturer(Q, open=2)
    assert phones["ben"].vote(Q, 1, 0)[0] == 409  # the phone still showed round 1
    for u, opt in zip(phones, (0, 0, 0)):
        assert phones[u].vote(Q, 2, opt)[0] == 200
    c = svc.lecturer(Q, open=None)
    assert c["counts"]["1"] == [0, 2, 1] and c["counts"]["2"] == [3, 0, 0]
    assert c["voters"] == {"1": 3, "2": 3, "observation": 0}


@pytest.mark.parametrize("body, status", [
    (b"not json", 400), (b"[1]", 400), (json.dumps({"question": Q, "option": 0}).encode(), 400),
    (json.dumps({"question": Q, "round": 1, "option": 3}).encode(), 400),
    (json.dumps({"question": Q, "round": 1, "option": True}).encode(), 400),
    (json.dumps({"question": Q, "round": 1, "option": "a"}).encode(), 400),
    (json.dumps({"question": "other", "round": 1, "option": 0}).encode(), 409),
    (json.dumps({"question": Q, "round": True, "option": 0}).encode(), 409),
    (b"{" + b" " * 2000 + b"}", 413),
])
def test_bad_votes_are_refused_naming_the_field(svc, body, status):
    svc.lecturer(Q, options=3, open=1)
    p = _logged_in(svc, "ada")
    got, data = p.vote(Q, 1, 0, raw=body)
    assert got == status, data
    assert data["error"]
    assert svc.store.mine(Q, "ada")["1"] is None


def test_bad_state_parameters_are_refused(svc):
    p = _logged_in(svc, "ada")
    status, data = p.get("state", since="x", wait="1")
    assert status == 400 and "since" in data["error"]


def test_too_many_votes_a_second_are_refused(tmp_path):
    s = LocalLectureService(tmp_path / "st", bundle=BUNDLE, rate=0.001, burst=2)
    try:
        s.lecturer(Q, options=3, open=1)
        p = _logged_in(s, "ada")
        codes = [p.vote(Q, 1, i % 3)[0] for i in range(4)]
        assert codes[:2] == [200, 200] and codes[2:] == [429, 429]
    finally:
        s.stop()


# --- what a phone sees ------------------------------------------------------------------------------

def test_no_counts_and_no_explanation_before_the_reveal(svc):
    phones = [_logged_in(svc, u) for u in ("ada", "ben")]
    svc.lecturer(Q, options=3, open=1)
    phones[0].vote(Q, 1, 0)
    phones[1].vote(Q, 1, 1)
    svc.lecturer(Q, open=None)
    svc.lecturer(Q, open=2)
    svc.lecturer(Q, open=None)
    for p in phones:
        text = json.dumps(p.state())
        assert "counts" not in text and "voters" not in text and "EXPLAINED" not in text
        assert '"correct"' not in text
        assert "ben" not in text or p.user == "ben"  # nobody else's name either
    svc.lecturer(Q, open="observation", revealed=True)
    q = phones[0].state()["question"]
    assert q["counts"] == svc.store.counts(Q)["counts"] and q["correct"] == [0]
    assert "EXPLAINED" in q["explanation_html"]


def test_the_question_and_options_come_from_the_bundle(svc):
    svc.lecturer(Q, options=3, open=1)
    q = _logged_in(svc, "ada").state()["question"]
    assert q["known"] and q["prompt_html"] == BUNDLE["questions"][Q]["prompt_html"]
    assert q["options_html"] == BUNDLE["questions"][Q]["options_html"]
    assert q["letters"] == ["a", "b", "c"] and q["open"] == 1


def test_a_question_not_in_the_bundle_is_shown_by_its_letters(svc):
    svc.lecturer("not-in-bundle", options=2, open=1)
    q = _logged_in(svc, "ada").state()["question"]
    assert q["known"] is False and "prompt_html" not in q and q["letters"] == ["a", "b"]


def test_a_bundle_written_later_is_read_at_the_next_request(tmp_path):
    s = LocalLectureService(tmp_path / "st", bundle=None)
    try:
        s.lecturer(Q, options=3, open=1)
        p = _logged_in(s, "ada")
        assert p.state()["question"]["known"] is False
        s.bundle_path.write_text(json.dumps(BUNDLE))
        assert p.state()["question"]["known"] is True
        s.bundle_path.write_text("{broken")
        assert p.state()["question"]["known"] is False  # a broken bundle: letters, no crash
    finally:
        s.stop()


def test_a_missing_bundle_is_said_on_the_page_and_in_the_hubs_log(tmp_path, caplog):
    """#37: without the bundle the phones do not get a silent letters-only page: the state
    says ``bundle: "missing"`` (the page shows a notice) and the hub's log names the file and
    how to build it, once; an unreadable file is said the same way; a bundle written later
    clears it."""
    caplog.set_level("WARNING", logger="genviz-poll")
    s = LocalLectureService(tmp_path / "st", bundle=None)
    try:
        s.lecturer(Q, options=3, open=1)
        p = _logged_in(s, "ada")
        page = p.open().text
        assert 'id="notice"' in page and "This hub has no texts for the questions" in page
        state = p.state()
        assert state["bundle"] == "missing" and state["question"]["known"] is False
        p.state()
        said = [r.getMessage() for r in caplog.records if "lecture bundle" in r.getMessage()]
        assert len(said) == 1, said  # once, not per request
        assert str(s.bundle_path) in said[0] and "lecture_bundle.py build" in said[0]
        assert "GENVIZ_LECTURE_BUNDLE" in said[0]
        s.bundle_path.write_text("{broken")
        assert p.state()["bundle"] == "unreadable"
        assert any("cannot read the lecture bundle" in r.getMessage() for r in caplog.records)
        s.bundle_path.write_text(json.dumps(BUNDLE))
        assert p.state()["bundle"] == "ok" and p.state()["question"]["known"] is True
    finally:
        s.stop()


def test_with_its_bundle_the_page_says_nothing_of_it(svc):
    assert _logged_in(svc, "ada").state()["bundle"] == "ok"


def test_a_bundle_with_another_number_of_options_is_not_used(svc):
    svc.lecturer(Q, options=2, open=1)  # the lecturer's panel says 2; the bundle has 3
    assert _logged_in(svc, "ada").state()["question"]["known"] is False


def test_the_page_follows_the_lecturer_by_long_poll(svc):
    p = _logged_in(svc, "ada")
    v0 = p.state()["version"]
    got = {}

    def wait():
        t = time.monotonic()
        got["state"] = p.state(since=v0, wait=10)
        got["s"] = time.monotonic() - t

    th = threading.Thread(target=wait)
    th.start()
    time.sleep(0.5)
    svc.lecturer(Q, options=3, open=1)
    th.join(15)
    assert got["state"]["question"]["id"] == Q and got["state"]["question"]["open"] == 1
    assert got["s"] < 8  # woken by the change, not by the timeout (10 s)
    svc.lecturer("02-other", options=2, open=1)
    assert p.state()["question"]["id"] == "02-other"  # the question changed last is current
    svc.lecturer(Q, open=2)
    assert p.state()["question"]["id"] == Q


def test_a_phone_vote_wakes_the_lecturers_chart(svc):
    svc.lecturer(Q, options=3, open=1)
    v = svc.lecturer(Q)["version"]
    p = _logged_in(svc, "ada")
    out = {}
    th = threading.Thread(target=lambda: out.update(
        c=svc.api("GET", f"api/questions/{Q}?since={v}&wait=10", "t-instructor")))
    th.start()
    time.sleep(0.3)
    t = time.monotonic()
    p.vote(Q, 1, 2)
    th.join(15)
    assert out["c"][1]["counts"]["1"] == [0, 0, 1] and time.monotonic() - t < 8


def test_a_restarted_service_follows_the_open_question(tmp_path):
    s = LocalLectureService(tmp_path / "st", bundle=BUNDLE)
    s.lecturer(Q, options=3, open=1)
    s.lecturer("02-closed-later", options=2)
    s.stop()
    s2 = LocalLectureService(tmp_path / "st", bundle=BUNDLE)
    try:
        assert s2.lecture.current == Q  # the open one, though the other changed later
        assert _logged_in(s2, "ada").state()["question"]["id"] == Q  # the cookie key survives
    finally:
        s2.stop()


def test_deleting_the_current_question_leaves_the_phone_waiting(svc):
    svc.lecturer(Q, options=3, open=1)
    p = _logged_in(svc, "ada")
    assert svc.api("DELETE", f"api/questions/{Q}", "t-instructor")[0] == 200
    assert p.state()["question"] is None


def test_the_page_is_small_and_self_contained(svc):
    p = svc.phone("ada")
    r = p.open()
    assert "<script>" in r.text and "src=" not in r.text.split("<body>")[1].replace('src=""', "")
    raw = p.s.get(svc.page, headers={"Accept-Encoding": "gzip"}, stream=True, timeout=30).raw
    body = raw.read()  # compressed bytes on the wire
    assert raw.headers.get("Content-Encoding") == "gzip" and len(body) < 20_000


# --- the question's explorer: its own cacheable resource -----------------------------------------

EXPLORER = {"spec": {"id": "e1", "controls": [{"name": "rho", "grid": True}]},
            "values_front": {"rho": 3}, "readout_html": "<b>peak</b>", "alt": "a Gaussian",
            "grid": "eNo" + "A" * 3000}  # stands for the site's payload; served as is
MODULE = {"js": "export async function mountStaticExplorers(root) { return []; }\n" * 40,
          "css": ".genviz-explorer { margin: 0; }\n" * 40}
KEY = "k" * 32
BUNDLE_X = {"format": 1, "questions": {Q: {**BUNDLE["questions"][Q], "explorer": KEY}},
            "explorers": {KEY: EXPLORER}, "explorer_module": MODULE}


@pytest.fixture
def svcx(tmp_path):
    s = LocalLectureService(tmp_path / "state", bundle=BUNDLE_X)
    yield s
    s.stop()


def _fetch(p, path, *, xsrf=True, gzip=True, headers=None):
    h = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
         "Accept-Encoding": "gzip" if gzip else "identity", **(headers or {})}
    if xsrf and p.xsrf:
        h["X-XSRFToken"] = p.xsrf
    return p.s.get(p.service.page + path, headers=h, timeout=30, stream=True)


def _after_the_votes(svcx):
    """The lecturer's flow up to the observation: vote 1, vote 2, closed."""
    svcx.lecturer(Q, options=3, open=1)
    svcx.lecturer(Q, open=2)
    svcx.lecturer(Q, open=None)


def test_no_explorer_before_the_lecturer_opens_the_question(svcx):
    p = _logged_in(svcx, "ada")
    r = _fetch(p, f"api/explorer/{Q}")
    assert r.status_code == 404 and "not opened" in r.json()["error"]
    assert p.state()["question"] is None
    _after_the_votes(svcx)
    assert _fetch(p, f"api/explorer/{Q}").status_code == 200
    assert _fetch(p, "api/explorer/not-in-bundle").status_code == 404


@pytest.mark.parametrize("steps, shown", [
    ([{"options": 3}], False),                                  # declared, no vote yet
    ([{"options": 3, "open": 1}], False),                       # vote 1 open
    ([{"options": 3, "open": 1}, {"open": None}], False),       # vote 1 closed, discussion
    ([{"options": 3, "open": 1}, {"open": 2}], False),          # vote 2 open
    ([{"options": 3, "open": 1}, {"open": 2}, {"open": None}], True),  # votes over
    ([{"options": 3, "open": "observation"}], True),            # the observation round
    ([{"options": 3, "open": 1}, {"open": None, "revealed": True}], True),  # revealed
])
def test_the_explorer_comes_after_the_votes(svcx, steps, shown):
    """Predict, then observe: a phone never gets the explorer while a vote can still be cast
    (it could drag to the answer), in the long poll's version or by asking for it."""
    p = _logged_in(svcx, "ada")
    for step in steps:
        svcx.lecturer(Q, **step)
    q = p.state()["question"]
    assert (q["explorer"] is not None) is shown
    r = _fetch(p, f"api/explorer/{Q}")
    assert r.status_code == (200 if shown else 404)
    if not shown:
        assert "predict first" in r.json()["error"]


def test_the_explorer_served_is_the_bundles_payload_not_in_the_long_poll(svcx):
    _after_the_votes(svcx)
    p = _logged_in(svcx, "ada")
    q = p.state()["question"]
    poll = json.dumps(q)
    assert EXPLORER["grid"] not in poll and "readout_html" not in poll  # only its version
    r = _fetch(p, f"api/explorer/{Q}?v={q['explorer']}")
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("application/json")
    # the payload the bundle holds (the site's), unchanged, marked with its layout
    assert r.json() == {**EXPLORER, "layout": "wide", "layouts": ["wide"]}
    assert q["explorer"] == r.headers["ETag"].strip('"')
    assert _fetch(p, f"api/explorer/{Q}?layout=narrow").json() == r.json()  # none: the wide one
    # the module that mounts it, from the bundle, public (no login), by its version too
    js_v, css_v = q["explorer_module"]
    for name, version, text in (("explorer.js", js_v, MODULE["js"]),
                                ("explorer.css", css_v, MODULE["css"])):
        r = requests.get(f"{svcx.page}static/{name}?v={version}", timeout=30)
        assert r.status_code == 200 and r.text == text, name
        assert r.headers["ETag"].strip('"') == version
        assert r.headers["Content-Type"].startswith("text/javascript" if name.endswith("js")
                                                     else "text/css")
    assert requests.get(f"{svcx.page}static/other.js", timeout=30).status_code == 404


def test_a_phone_fetches_one_layout(tmp_path):
    """A payload with the phone's states (genviz.widgets.payload): ``?layout=narrow`` sends the
    narrow grid as the grid (marked for explorer.js), the wide layout leaves it out, so neither
    carries both; each names the layouts there are (a phone turned sideways fetches the other);
    a bundle without one sends the wide payload to a phone too."""
    narrow = {**EXPLORER, "narrow": "eNp" + "B" * 1000}
    s = LocalLectureService(tmp_path / "state", bundle={**BUNDLE_X, "explorers": {KEY: narrow}})
    try:
        _after_the_votes(s)
        p = _logged_in(s, "ada")
        wide = _fetch(p, f"api/explorer/{Q}?layout=wide").json()
        both = ["wide", "narrow"]
        assert wide == {**EXPLORER, "layout": "wide", "layouts": both}
        phone = _fetch(p, f"api/explorer/{Q}?layout=narrow").json()
        assert phone == {**EXPLORER, "grid": narrow["narrow"], "layout": "narrow",
                         "layouts": both}
        assert _fetch(p, f"api/explorer/{Q}?layout=tiny").status_code == 400
    finally:
        s.stop()


def test_the_explorer_is_cacheable_and_compressed(svcx):
    _after_the_votes(svcx)
    p = _logged_in(svcx, "ada")
    r = _fetch(p, f"api/explorer/{Q}")
    wire = r.raw.read()  # the bytes on the wire
    assert r.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in r.headers["Vary"]
    served = {**EXPLORER, "layout": "wide", "layouts": ["wide"]}
    assert gzip.decompress(wire) == json.dumps(served, separators=(",", ":")).encode()
    assert len(wire) < len(gzip.decompress(wire)) / 5
    # compressed once per bundle, not per phone: the same bytes every time
    assert wire == _fetch(p, f"api/explorer/{Q}").raw.read()
    assert wire == svcx.lecture.explorer(Q).gzip
    cache = r.headers["Cache-Control"]
    assert "private" in cache and "max-age=604800" in cache and "no-store" not in cache
    etag = r.headers["ETag"]
    again = _fetch(p, f"api/explorer/{Q}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.raw.read() == b""
    plain = _fetch(p, f"api/explorer/{Q}", gzip=False)
    assert "Content-Encoding" not in plain.headers and plain.json() == served
    js = requests.get(f"{svcx.page}static/explorer.js", headers={"Accept-Encoding": "gzip"},
                      timeout=30, stream=True)
    assert js.headers["Content-Encoding"] == "gzip" and "public" in js.headers["Cache-Control"]


def test_the_explorer_needs_the_login_and_the_pages_token(svcx):
    _after_the_votes(svcx)
    assert _fetch(svcx.phone(None), f"api/explorer/{Q}").status_code == 403
    p = _logged_in(svcx, "ada")
    assert _fetch(p, f"api/explorer/{Q}", xsrf=False).status_code == 403


def test_a_new_bundle_is_a_new_version_of_the_explorer(svcx):
    _after_the_votes(svcx)
    p = _logged_in(svcx, "ada")
    v1 = p.state()["question"]["explorer"]
    changed = {**EXPLORER, "values_front": {"rho": 4}}
    svcx.bundle_path.write_text(json.dumps({**BUNDLE_X, "explorers": {KEY: changed}}))
    v2 = p.state()["question"]["explorer"]
    assert v2 != v1 and _fetch(p, f"api/explorer/{Q}").json() == {
        **changed, "layout": "wide", "layouts": ["wide"]}
    # a bundle without explorers (texts only): the page shows the question, no explorer
    svcx.bundle_path.write_text(json.dumps(BUNDLE))
    q = p.state()["question"]
    assert q["known"] and q["explorer"] is None
    assert _fetch(p, f"api/explorer/{Q}").status_code == 404
