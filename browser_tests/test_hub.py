"""A class on the trial hub (deploy/jupyterhub_config.py, started by deploy/run_hub.py as
``make hub`` does), in Chromium: three students log in at once, get their servers, open the
2-D Gaussian notebook from their copied course, run it and move a slider, and the canvas
changes. A student whose server cannot start sees why; a fourth student on a hub limited to
three servers is told it is full; stopping the hub stops every server and leaves no process.

Everything listens on 127.0.0.1 on free ports; the hub is stopped by its process group and
every single-user server is checked gone by PID. How long each step took goes to
artifacts/browser/hub.json (the whole module: about 2-4 minutes on 2 cores).
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets
import shutil
import signal
import sys
import tempfile
import time

import pytest

import pages
from conftest import _describe_explorers, _new_page, _wait_for_figures
from hub_testing import free_port_block
from pages import ARTIFACTS, ROOT, LabNotebook, Server, gv, move_and_wait

STUDENTS = ["ada", "ben", "chloe"]
NOTEBOOK = "02_multivariate_gaussian.ipynb"
VIEWPORT = {"width": 1280, "height": 800}
TIMINGS: dict = {}


class Hub:
    def __init__(self, tmp: pathlib.Path):
        self.token = secrets.token_hex(16)
        # the hub's four ports (hub, its API, the proxy's API, the poll service) as one block
        # below the ephemeral range: a free_port() each left the poll service's HUB_PORT + 3 to
        # chance, and an outgoing connection could take any of them before the hub bound it
        self.port = free_port_block(4)
        self.base = f"http://127.0.0.1:{self.port}"
        self.home = tmp / "home"
        env = dict(os.environ, HUB_PORT=str(self.port), GENVIZ_HUB_API_PORT=str(self.port + 1),
                   GENVIZ_PROXY_API_PORT=str(self.port + 2), GENVIZ_POLL_PORT=str(self.port + 3),
                   GENVIZ_HUB_HOME=str(self.home),
                   GENVIZ_HUB_STATE=str(tmp / "state"), GENVIZ_HUB_API_TOKEN=self.token,
                   GENVIZ_HUB_MAX_SERVERS=str(len(STUDENTS)),
                   PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        env.pop("MPLBACKEND", None)  # the notebooks choose ipympl themselves
        # no rebuild service, as tests/hub_testing.TrialHub: at its first start it builds the
        # whole course's states in the background (~7 CPU-min, 21 grids), which took the other
        # worker's core for most of test_hub_updates' 272 s; tests/test_rebuild_first_start.py
        # covers the service
        env["GENVIZ_REBUILD_REPO"] = ""
        t0 = time.monotonic()
        self.server = Server([sys.executable, str(ROOT / "deploy" / "run_hub.py")], env=env,
                             log_path=ARTIFACTS / f"hub-{tmp.name}.log", url_ready=f"{self.base}/hub/api/")
        TIMINGS["hub_start_s"] = round(time.monotonic() - t0, 1)
        self.pids: set[int] = set()

    def api(self, path, method="GET"):
        return pages.token_api(f"{self.base}/hub/api{path}", self.token, method)

    def home_pids(self, only_servers=False) -> set[int]:
        """PIDs of the processes working in a student's home (servers, their kernels), from
        /proc: independent of what the hub believes is running."""
        found = set()
        for proc in pathlib.Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cwd = os.readlink(proc / "cwd")
                cmd = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if cwd.startswith(str(self.home) + os.sep) and (
                    not only_servers or b"jupyterhub-singleuser" in cmd):
                found.add(int(proc.name))
        self.pids |= found
        return found

    def server_pids(self) -> set[int]:
        return self.home_pids(only_servers=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def hub(artifacts):
    # Not pytest's tmp_path: a concurrent pytest run of the same user prunes old numbered
    # directories under /tmp/pytest-of-<user>, which would delete the hub's state and the
    # students' homes mid-test.
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="genviz-hub-test-"))
    h = Hub(tmp)
    yield h
    if h.server.proc.poll() is None:
        h.server_pids()
    h.server.stop()
    for pid in h.pids:  # never leave a student's server behind, whatever failed
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    (ARTIFACTS / "hub.json").write_text(json.dumps(TIMINGS, indent=1))
    shutil.rmtree(tmp, ignore_errors=True)


def _login(page, hub, name):
    LabNotebook.login(page, hub.base, name)


def test_a_student_whose_server_cannot_start_sees_why(hub, browser):
    # the home "directory" is a file: the course cannot be copied, so the server cannot start
    hub.home.mkdir(parents=True, exist_ok=True)
    (hub.home / "dora").write_text("not a directory")
    record = {"console_errors": [], "page_errors": []}
    context, page = _new_page(browser, VIEWPORT, record)
    try:
        _login(page, hub, "dora")
        page.wait_for_function(
            "() => /Could not copy the course notebooks/.test(document.body?.innerText ?? '')",
            timeout=60_000)
        text = page.inner_text("body")
        assert "Your server was not started" in text and "tell your instructor" in text
        assert page.inner_text("h1").strip() == "Your server could not start"
        page.screenshot(path=str(ARTIFACTS / "hub_spawn_failed.png"))
    finally:
        context.close()
    assert not hub.api("/users/dora")["servers"]  # nothing half-started counts against the limit


def test_three_students_log_in_together_run_a_notebook_and_move_a_slider(hub, browser):
    opened = []
    try:
        for name in STUDENTS:
            # each student's JupyterLab settings as the other browser tests use them (every cell
            # attached to the page, no autosave, no news): ~/.jupyter/lab/user-settings
            pages.lab_settings(hub.home / name / ".jupyter" / "lab" / "user-settings")
        t0 = time.monotonic()
        for name in STUDENTS:  # all three click "Sign in" within a second or two
            record = {"console_errors": [], "page_errors": []}
            context, page = _new_page(browser, VIEWPORT, record)
            _login(page, hub, name)
            opened.append((name, context, page, record))
        for name, _, page, _ in opened:
            page.wait_for_url(f"**/user/{name}/lab/**", timeout=300_000)
        TIMINGS["three_spawns_s"] = round(time.monotonic() - t0, 1)
        opened[0][2].wait_for_selector(".jp-Notebook-ExecutionIndicator", timeout=120_000)
        opened[0][2].screenshot(path=str(ARTIFACTS / "hub_landing.png"))  # JupyterLab on Start here
        for name, _, page, _ in opened:
            # each student's own copy of the course, opened in JupyterLab as a student would
            assert (hub.home / name / "genviz" / "notebooks" / NOTEBOOK).is_file()
            t1 = time.monotonic()
            _run_all(page, f"{hub.base}/user/{name}/lab/tree/genviz/notebooks/{NOTEBOOK}?reset")
            state = _wait_for_figures(page, NOTEBOOK, timeout_s=120)
            assert state and state[0] > 0 and state[0] == state[1], f"{name}: figures {state}"
            assert not gv(page, "errors()"), f"{name}: {gv(page, 'errors()')}"
            explorers = _describe_explorers(page)
            assert explorers, f"{name}: no explorer on the page"
            assert gv(page, "focusHandle(arg)", 0)
            before = gv(page, "hash(arg)", 0)
            assert move_and_wait(page, 0, n=3), f"{name}: the slider did not change the canvas"
            assert gv(page, "hash(arg)", 0) != before
            TIMINGS[f"{name}_run_and_slide_s"] = round(time.monotonic() - t1, 1)
            page.screenshot(path=str(ARTIFACTS / f"hub_{name}.png"))
        assert len(hub.server_pids()) == len(STUDENTS)
    finally:
        for _, context, _, _ in opened:
            context.close()


def _run_all(page, url, timeout_s=240):
    nb = LabNotebook(page).open(url)
    nb.run_all()
    nb.wait_all_ran(timeout_s)
    page.wait_for_selector(LabNotebook.IDLE, timeout=60_000)


def test_a_fourth_student_on_a_full_hub_is_told_so(hub, browser):
    record = {"console_errors": [], "page_errors": []}
    context, page = _new_page(browser, VIEWPORT, record)
    try:
        _login(page, hub, "eve")
        page.wait_for_selector("#genviz-hub-full", timeout=60_000)
        text = page.inner_text("#genviz-hub-full")
        assert "The course hub is full" in text and f"All {len(STUDENTS)} places" in text
        page.screenshot(path=str(ARTIFACTS / "hub_full.png"))
    finally:
        context.close()


def test_stopping_the_hub_stops_every_server(hub):
    servers, everything = hub.server_pids(), hub.home_pids()
    assert len(servers) == len(STUDENTS) and len(everything) > len(servers)  # + their kernels
    t0 = time.monotonic()
    os.killpg(hub.server.proc.pid, signal.SIGTERM)  # as Ctrl-C on `make hub`
    hub.server.proc.wait(timeout=120)
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in everything) and time.monotonic() < deadline:
        time.sleep(0.5)
    TIMINGS["hub_stop_s"] = round(time.monotonic() - t0, 1)
    assert not [p for p in everything if _alive(p)], "processes left running after the hub stopped"
    assert not hub.home_pids()
