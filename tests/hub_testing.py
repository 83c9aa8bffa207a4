"""A trial hub for the tests: ``deploy/run_hub.py`` started as ``make hub`` runs it, on free
127.0.0.1 ports, with its homes and state in a temporary directory; students made through
the hub's REST API; every process of the hub found by PID (below the hub, or carrying the
hub's marker, or working in a student's home) so a test can check that none is left.

Used by tests/test_deploy_lifecycle.py and tests/test_poll_hub.py (and the votes, lecture and
class benchmarks). Also the process helpers other tests share: ``free_port_block``,
``terminate`` (SIGTERM, then SIGKILL after a timeout) and ``kernel_execute`` (code run in a live
kernel through a second client; browser_tests/pages.py re-exports it).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
RUN_HUB = ROOT / "deploy" / "run_hub.py"
NO_PROXY = ("configurable-http-proxy is not installed: `make test` installs it into build/node "
            "when npm is there (apt-get install nodejs npm), or npm install -g "
            "configurable-http-proxy")


def find_proxy(env=None) -> str | None:
    """configurable-http-proxy as the trial hub finds it (deploy/run_hub.py ``find_proxy``:
    $GENVIZ_CHP, PATH, then the project's build/node), or None."""
    from file_modules import load_file
    return load_file(RUN_HUB, "run_hub_find_proxy").find_proxy(env)


def require_proxy(env=None) -> str:
    """The proxy's path; inside pytest a test without one is skipped with NO_PROXY."""
    chp = find_proxy(env)
    if chp is None:
        if "pytest" in sys.modules:
            import pytest
            pytest.skip(NO_PROXY)
        raise RuntimeError(NO_PROXY)
    return chp


def _ephemeral_range() -> tuple[int, int]:
    try:
        lo, hi = map(int, open("/proc/sys/net/ipv4/ip_local_port_range").read().split())
        return lo, hi
    except (OSError, ValueError):
        return 32768, 60999


def free_port_block(n: int = 4) -> int:
    """A port p with p..p+n-1 free on 127.0.0.1, below the ephemeral range: a port the kernel
    hands to outgoing connections could be taken between this check and the hub's bind (the
    poll service binds last, seconds later). Never the ports other tools use."""
    lo, _ = _ephemeral_range()
    rng = random.Random()
    for _ in range(1000):
        p = rng.randrange(10000, max(lo - n, 10001))
        if {8000, 8888, 8866} & set(range(p, p + n)):
            continue
        ok = True
        for q in range(p, p + n):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", q))
                except OSError:
                    ok = False
                    break
        if ok:
            return p
    raise RuntimeError("no block of free ports on 127.0.0.1")


class TrialHub:
    """One ``deploy/run_hub.py`` process and what it started."""

    def __init__(self, workdir: Path | None = None, *, env=None, log_name="hub.log"):
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="genviz-trialhub-"))
        self.home = self.workdir / "home"
        self.state = self.workdir / "state"
        self.token = secrets.token_hex(16)
        self.port = free_port_block(4)
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = self.workdir / log_name
        self.extra_env = dict(env or {})
        self.proc: subprocess.Popen | None = None
        self.seen: set[int] = set()

    def env(self) -> dict:
        env = dict(os.environ, HUB_PORT=str(self.port), GENVIZ_HUB_API_PORT=str(self.port + 1),
                   GENVIZ_PROXY_API_PORT=str(self.port + 2), GENVIZ_POLL_PORT=str(self.port + 3),
                   GENVIZ_HUB_HOME=str(self.home), GENVIZ_HUB_STATE=str(self.state),
                   GENVIZ_HUB_API_TOKEN=self.token,
                   PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                            os.environ.get("PYTHONPATH")])))
        env.pop("MPLBACKEND", None)
        env.pop("GENVIZ_TRIAL_HUB", None)
        # no rebuild service: at its first start it would build the whole course's states in
        # the background (~7 CPU-min); tests/test_rebuild_first_start.py runs it on a small one
        env["GENVIZ_REBUILD_REPO"] = ""
        # the lecture page's questions: this hub's own file (benchmarks/bench_lecture.py copies
        # one there), never the venv's installed bundle
        env["GENVIZ_LECTURE_BUNDLE"] = str(self.state / "poll" / "lecture_bundle.json")
        env.update(self.extra_env)
        return env

    def start(self, timeout: float = 180) -> str:
        """Start the runner; wait until the hub's API answers. Returns the runner's output so far."""
        require_proxy(self.env())
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        try:
            # its own session, as a terminal's job: Ctrl-C is SIGINT to this process group
            self.proc = subprocess.Popen([sys.executable, str(RUN_HUB)], cwd=ROOT, env=self.env(),
                                         stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"run_hub.py exited with {self.proc.returncode}:\n"
                                   f"{self.problems_in_output()}\n...\n{self.output()[-2000:]}")
            try:
                if self.hub_pid() is not None:  # this runner's hub, not one it is cleaning up
                    self.api("/")
                    break
                time.sleep(0.3)
            except (OSError, urllib.error.URLError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not answer in {timeout} s:\n{self.output()[-3000:]}")
                time.sleep(0.3)
        self.remember()
        return self.output()

    def problems_in_output(self, limit: int = 60) -> str:
        """The log's lines that say what went wrong (tracebacks, errors, the runner's words)."""
        keep, lines = [], self.output().splitlines()
        for i, line in enumerate(lines):
            if any(k in line for k in ("Traceback", "Error", "rror:", "[C ", "[E ", "cannot start",
                                       "not stopped cleanly", "genviz-poll")):
                keep.extend(lines[i:i + 3] if "Traceback" in line else [line])
        return "\n".join(keep[:limit])

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    # -- the REST API ------------------------------------------------------------------------
    def api(self, path, method="GET", data=None, token=None, timeout=30):
        body = None if data is None else json.dumps(data).encode()
        req = urllib.request.Request(f"{self.base}/hub/api{path}", data=body, method=method,
                                     headers={"Authorization": f"token {token or self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def start_servers(self, names, timeout: float = 240) -> None:
        """Create the users and start their servers through the API (as a lecturer's script
        pre-starting servers does); wait until every one is ready."""
        for name in names:
            with contextlib.suppress(urllib.error.HTTPError):  # 409: exists
                self.api(f"/users/{name}", "POST")
            with contextlib.suppress(urllib.error.HTTPError):  # 400: already running
                self.api(f"/users/{name}/server", "POST")
        deadline = time.monotonic() + timeout
        while True:
            ready = [self.api(f"/users/{n}")["servers"].get("", {}).get("ready") for n in names]
            if all(ready):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"servers not ready after {timeout} s: {dict(zip(names, ready))}")
            time.sleep(0.5)
        self.remember()

    def user_token(self, name: str) -> str:
        """Log in as ``name`` through the login form (the trial hub's dummy login) and ask the
        hub for an API token of that user, as a student's browser session could."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(f"{self.base}/hub/login", timeout=30).read()
        xsrf = [c.value for c in jar if c.name == "_xsrf"][-1]
        form = f"username={name}&password=x&_xsrf={xsrf}".encode()
        opener.open(urllib.request.Request(f"{self.base}/hub/login?next=/hub/home", data=form),
                    timeout=60).read()
        xsrf = [c.value for c in jar if c.name == "_xsrf" and c.path == "/hub/"][-1]
        req = urllib.request.Request(f"{self.base}/hub/api/users/{name}/tokens", data=b"{}",
                                     method="POST", headers={"X-XSRFToken": xsrf,
                                                             "Content-Type": "application/json"})
        return json.loads(opener.open(req, timeout=30).read())["token"]

    def start_kernel(self, name: str, token: str) -> str:
        req = urllib.request.Request(f"{self.base}/user/{name}/api/kernels", data=b"{}",
                                     method="POST", headers={"Authorization": f"token {token}",
                                                             "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            kernel = json.loads(r.read())["id"]
        self.remember()
        return kernel

    # -- processes ----------------------------------------------------------------------------
    def hub_pid(self) -> int | None:
        if self.proc is None:
            return None
        with contextlib.suppress(psutil.Error):
            for child in psutil.Process(self.proc.pid).children():
                if "jupyterhub" in " ".join(child.cmdline()):
                    return child.pid
        return None

    def processes(self) -> set[int]:
        """PIDs of everything this hub runs now: the runner and all below it, anything with the
        hub's marker, anything working in a student's home. Zombies do not count."""
        found = set()
        if self.proc is not None and self.proc.poll() is None:
            found.add(self.proc.pid)
            with contextlib.suppress(psutil.Error):
                found |= {c.pid for c in psutil.Process(self.proc.pid).children(recursive=True)}
        for p in psutil.process_iter(["pid"]):
            try:
                if p.environ().get("GENVIZ_TRIAL_HUB") == str(self.state.resolve()) or \
                        p.cwd().startswith(str(self.home.resolve()) + os.sep):
                    found.add(p.pid)
            except psutil.Error:
                continue
        return {p for p in found if alive(p)}

    def remember(self) -> set[int]:
        now = self.processes()
        self.seen |= now
        return now

    def signal(self, sig) -> None:
        os.killpg(self.proc.pid, sig)

    def kill_everything(self) -> None:
        """Last resort in a test's teardown: SIGKILL every process this hub was seen with."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=15)
        for pid in self.seen | self.processes():
            with contextlib.suppress(psutil.Error):
                psutil.Process(pid).kill()
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)


def cleanup(*hubs) -> None:
    """Kill whatever the hubs still run, then remove their directories."""
    for hub in hubs:
        if hub is not None:
            hub.kill_everything()
    for hub in hubs:
        if hub is not None:
            shutil.rmtree(hub.workdir, ignore_errors=True)


def terminate(proc: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM ``proc``, wait up to ``timeout`` seconds, then SIGKILL it."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()


def kernel_execute(connection_file, code: str, timeout: float = 60) -> str:
    """Run ``code`` in a live kernel through a second client; returns its stdout. No
    heartbeat channel: under the load of ten starting kernels a heartbeat can miss its 1 s
    deadline and the client would call a live kernel dead.

    Raises
    ------
    RuntimeError
        If the code fails in the kernel (the reply's content in the message).
    """
    from jupyter_client import BlockingKernelClient

    client = BlockingKernelClient()
    client.load_connection_file(str(connection_file))
    client.start_channels(hb=False)
    try:
        client.wait_for_ready(timeout=timeout)
        out = []
        reply = client.execute_interactive(
            code, timeout=timeout, store_history=False,
            output_hook=lambda msg: out.append(msg["content"].get("text", ""))
            if msg["msg_type"] == "stream" else None)
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"kernel code failed: {reply['content']}")
        return "".join(out)
    finally:
        client.stop_channels()


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def wait_gone(pids, timeout: float) -> tuple[float, set[int]]:
    """Seconds until every PID is gone (or ``timeout``), and those still alive then."""
    t0 = time.monotonic()
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() - t0 < timeout:
        time.sleep(0.05)
        left = {p for p in left if alive(p)}
    return time.monotonic() - t0, left


#: a stand-in for TLJH's `tljh` package (github.com/jupyterhub/the-littlest-jupyterhub,
#: tljh/configurer.py at 84ed38f): its default auth and the two functions that turn config.yaml's
#: auth.* and users.* into hub settings, as TLJH does it (update_auth, update_userlists).
FAKE_TLJH = '''
import copy, os
import yaml

default = {"auth": {"type": "firstuseauthenticator.FirstUseAuthenticator",
                    "FirstUseAuthenticator": {"create_users": False}},
           "users": {"allowed": [], "banned": [], "admin": []}}

def load_config(config_file=None):
    path = config_file or os.environ["FAKE_TLJH_CONFIG"]
    config = copy.deepcopy(default)
    given = yaml.safe_load(open(path)) if os.path.exists(path) else None
    for key, value in (given or {}).items():
        if isinstance(value, dict):
            config.setdefault(key, {}).update(value)
        else:
            config[key] = value
    return config

def apply_config(config, c):
    auth = config["auth"]
    c.JupyterHub.authenticator_class = auth["type"]
    for key, value in auth.items():
        if key[0] == key[0].upper() and isinstance(value, dict):
            for k, v in value.items():
                c[key][k] = v
    users = config["users"]
    if not users["allowed"] and auth["type"] == default["auth"]["type"] \\
            and "allow_all" not in c.FirstUseAuthenticator:
        c.FirstUseAuthenticator.allow_all = True
    c.Authenticator.allowed_users = set(users["allowed"])
    c.Authenticator.admin_users = set(users["admin"])
'''


def fake_tljh_package(tmp_path: Path, config_yaml: str | None = None) -> tuple[Path, Path]:
    """A directory to put on sys.path/PYTHONPATH with the stand-in ``tljh`` package, and the
    path of its config.yaml (FAKE_TLJH_CONFIG; written when ``config_yaml`` is given)."""
    pkg = tmp_path / "fake-tljh" / "tljh"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "configurer.py").write_text(FAKE_TLJH)
    config = tmp_path / "tljh-config.yaml"
    if config_yaml is not None:
        config.write_text(config_yaml)
    return pkg.parent, config
