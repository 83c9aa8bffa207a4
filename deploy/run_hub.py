"""Start the trial hub (``make hub``), watch over it, and stop everything it started.

``python deploy/run_hub.py [JUPYTERHUB OPTIONS]`` runs ``jupyterhub -f deploy/jupyterhub_config.py``
as its child and stays in the foreground:

* **Before it starts** it checks that JupyterHub, the idle culler, psutil and
  configurable-http-proxy are installed, that the hub's ports are free and that nothing asks
  it to listen beyond 127.0.0.1 (its login lets any name in), and exits with status 2 and one
  sentence per problem naming the missing piece and the remedy.
* **Leftovers of a hub that was killed** (``kill -9``, a crash, a closed laptop lid) are stopped
  first, and it says what they were. It knows them from its state file,
  ``<GENVIZ_HUB_STATE>/trial_hub.json``, which it rewrites while the hub runs: every process
  below the hub (hub, proxy, culler, services, each student's server and kernels) by PID, start
  time and command line. A recorded PID is stopped only when the process with that PID still
  has the same start time and command line, so a PID the system has reused for something else
  is never touched. Processes started after the last write are found by the marker every
  process of this hub carries in its environment, ``GENVIZ_TRIAL_HUB=<its state directory>``.
* **Ctrl-C, SIGTERM or SIGHUP** stop the hub: it gets SIGTERM and stops its services, servers
  and proxy itself (JupyterHub's own shutdown); whatever still runs after ``GRACE_S`` seconds,
  or at once on a second Ctrl-C, is killed. It then checks that every process is gone and says
  how long it took (measured: ~3-6 s with 3 students and their kernels; tests/
  test_deploy_lifecycle.py checks that every PID is gone within 10 s).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
#: where ``make hub`` installs configurable-http-proxy when it is not on PATH
LOCAL_NODE_BIN = ROOT / "build" / "node" / "node_modules" / ".bin"
STATE_FILE = "trial_hub.json"
#: the environment variable that marks every process of one trial hub (value: its state dir)
MARKER = "GENVIZ_TRIAL_HUB"
#: seconds JupyterHub gets to stop its servers, services and proxy before they are killed
GRACE_S = 6.0
#: how often the state file is brought up to date while the hub runs
WATCH_S = 1.0


def hub_ports(env=None) -> dict[str, int]:
    """The ports the trial hub binds, by the variable that sets each (as the config reads them)."""
    env = os.environ if env is None else env
    out = {}
    for name, offset in [("HUB_PORT", 0), ("GENVIZ_HUB_API_PORT", 1), ("GENVIZ_PROXY_API_PORT", 2),
                         ("GENVIZ_POLL_PORT", 3)]:
        raw = env.get(name, "").strip()
        if raw:
            try:
                port = int(raw)
            except ValueError:
                raise ValueError(f"{name} must be a port number, got {raw!r}") from None
        else:
            port = (out["HUB_PORT"] if name != "HUB_PORT" else 8000) + offset
        if not 1 <= port <= 65535:
            raise ValueError(f"{name} must be a port number between 1 and 65535, got {port}")
        out[name] = port
    return out


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def find_proxy(env=None) -> str | None:
    """configurable-http-proxy: $GENVIZ_CHP, then PATH, then the project-local npm install
    (``build/node``, which `make hub` and `make test` fill; $GENVIZ_LOCAL_NODE_BIN names another
    folder, as the tests do to see the launcher without one)."""
    env = os.environ if env is None else env
    if env.get("GENVIZ_CHP"):
        return shutil.which(env["GENVIZ_CHP"])
    local = env.get("GENVIZ_LOCAL_NODE_BIN", str(LOCAL_NODE_BIN))
    path = os.pathsep.join([env.get("PATH", ""), local])
    return shutil.which("configurable-http-proxy", path=path)


#: jupyterhub options that set an address (``--ip 0.0.0.0``, ``--JupyterHub.bind_url=...``)
_ADDRESS_OPTION = re.compile(r"^--(?:[A-Za-z]+\.)?(ip|bind[-_]url|url|hub[-_]ip|hub[-_]bind[-_]url)"
                             r"(?:=(.*))?$")


def address_problems(argv) -> list[str]:
    """Options in ``argv`` that would make the trial hub listen beyond 127.0.0.1."""
    found = []
    for i, arg in enumerate(argv):
        m = _ADDRESS_OPTION.match(arg)
        if not m:
            continue
        value = m.group(2) if m.group(2) is not None else (argv[i + 1] if i + 1 < len(argv) else "")
        host = value.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]/") if "://" in value \
            else value.strip("[]")
        if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
            found.append(f"{arg}{'' if m.group(2) is not None else ' ' + value} would open the trial "
                         f"hub beyond 127.0.0.1, and its login lets any user name in. It listens on "
                         f"127.0.0.1 only; for a class use The Littlest JupyterHub or Zero to "
                         f"JupyterHub with a real login (docs: Teach a class).")
    return found


def problems(env=None, argv=()) -> list[str]:
    """Everything that would stop the hub from starting, one sentence each ([] = ready)."""
    env = os.environ if env is None else env
    found = []
    for module, package in [("jupyterhub", "jupyterhub"),
                            ("jupyterhub_idle_culler", "jupyterhub-idle-culler"),
                            ("psutil", "psutil")]:
        if importlib.util.find_spec(module) is None:
            found.append(f"{package} is not installed in {sys.prefix}: "
                         f"pip install -e '.[hub]' (or run `make hub`, which installs it).")
    if find_proxy(env) is None:
        what = f"GENVIZ_CHP={env['GENVIZ_CHP']!r} is not a command" if env.get("GENVIZ_CHP") \
            else "configurable-http-proxy (JupyterHub's proxy, a Node.js program) is not on PATH"
        found.append(f"{what}: install it with `npm install -g configurable-http-proxy` "
                     f"(or `npm install --prefix build/node configurable-http-proxy`, which "
                     f"`make hub` does when npm is available; Node.js: apt-get install nodejs npm).")
    token = env.get("GENVIZ_HUB_API_TOKEN", "")
    if token and len(token) < 8:
        found.append("GENVIZ_HUB_API_TOKEN is too short: JupyterHub needs at least 8 characters "
                     "(make one with `openssl rand -hex 32`).")
    found += address_problems(list(argv))
    try:
        ports = hub_ports(env)
    except ValueError as exc:
        return [*found, str(exc)]
    for name, port in ports.items():
        if port_in_use(port):
            found.append(f"port {port} on 127.0.0.1 ({name}) is in use: another hub or program "
                         f"is listening there. Stop it, or pick other ports, e.g. "
                         f"`make hub HUB_PORT=8010` (the hub also uses HUB_PORT+1, +2 and +3; "
                         f"set GENVIZ_HUB_API_PORT / GENVIZ_PROXY_API_PORT / GENVIZ_POLL_PORT "
                         f"to move those).")
    return found


def state_dir(env=None) -> Path:
    """The trial hub's state directory, as deploy/jupyterhub_config.py chooses it."""
    env = os.environ if env is None else env
    return Path(env.get("GENVIZ_HUB_STATE") or ROOT / "build" / "hub" / "state").resolve()


# --- the processes of one hub -----------------------------------------------------------------

def _psutil():
    import psutil  # the hub extra; checked by problems() before anything runs

    return psutil


def role(cmdline, env=None) -> str:
    """What a process of the hub is, from its command line (and JUPYTERHUB_USER for servers)."""
    cmd = " ".join(cmdline)
    user = (env or {}).get("JUPYTERHUB_USER")
    if "jupyterhub-singleuser" in cmd or "jupyterhub.singleuser" in cmd:
        return f"server:{user}" if user else "server"
    if "ipykernel" in cmd:
        return f"kernel:{user}" if user else "kernel"
    if "configurable-http-proxy" in cmd:
        return "proxy"
    if "jupyterhub_idle_culler" in cmd:
        return "culler"
    if "genviz_poll" in cmd:
        return "poll"
    if re.search(r"(-m jupyterhub|/jupyterhub)( |$)", cmd):
        return "hub"
    return "process"


def _record(p) -> dict | None:
    psutil = _psutil()
    try:
        with p.oneshot():
            cmdline = p.cmdline()
            try:
                env = p.environ()
            except psutil.Error:
                env = {}
            return {"pid": p.pid, "create_time": p.create_time(), "cmdline": cmdline,
                    "role": role(cmdline, env)}
    except psutil.Error:
        return None


def snapshot(hub_pid: int) -> list[dict]:
    """The hub and every process below it (proxy, services, servers, kernels, terminals)."""
    psutil = _psutil()
    try:
        hub = psutil.Process(hub_pid)
        procs = [hub, *hub.children(recursive=True)]
    except psutil.Error:
        return []
    return [r for r in map(_record, procs) if r]


def write_state(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    os.replace(tmp, path)


def read_state(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def same_process(entry: dict):
    """The running process ``entry`` recorded (same PID, start time and command line), or None."""
    psutil = _psutil()
    try:
        p = psutil.Process(int(entry["pid"]))
        if abs(p.create_time() - float(entry["create_time"])) > 0.5:
            return None  # the PID was reused
        if p.cmdline() != list(entry["cmdline"]) or p.status() == psutil.STATUS_ZOMBIE:
            return None
        return p
    except (psutil.Error, KeyError, TypeError, ValueError):
        return None


def marked(mark: str, exclude=()) -> list:
    """Processes whose environment carries this hub's marker (found without a recorded PID);
    never this process or its ancestors (a shell started from a student's terminal has it)."""
    psutil = _psutil()
    me = psutil.Process()
    skip = set(exclude) | {me.pid} | {p.pid for p in me.parents()}
    out = []
    for p in psutil.process_iter(["pid"]):
        if p.pid in skip:
            continue
        try:
            if p.environ().get(MARKER) == mark and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.Error:
            continue
    return out


def leftovers(state: dict, mark: str) -> list:
    """Live processes of a previous run: recorded ones that are still the same, plus marked ones."""
    found = {}
    for entry in state.get("processes", []):
        p = same_process(entry)
        if p is not None:
            found[p.pid] = p
    for p in marked(mark, exclude=set(found)):
        found[p.pid] = p
    return list(found.values())


def stop(procs, grace: float) -> list:
    """SIGTERM ``procs``, wait up to ``grace`` s, SIGKILL what remains; return what survived."""
    psutil = _psutil()
    for p in procs:
        with contextlib.suppress(psutil.Error):
            p.terminate()
    _, alive = psutil.wait_procs(procs, timeout=grace)
    for p in alive:
        with contextlib.suppress(psutil.Error):
            p.kill()
    _, alive = psutil.wait_procs(alive, timeout=3)
    return alive


def summary(records) -> str:
    """'the hub, the proxy, the idle culler, 3 servers (ada, ben, chloe), 3 kernels'."""
    roles = [r["role"] if isinstance(r, dict) else r for r in records]
    parts = []
    for key, label in [("hub", "the hub"), ("proxy", "the proxy"), ("culler", "the idle culler"),
                       ("poll", "the poll service")]:
        if key in roles:
            parts.append(label)
    for kind in ("server", "kernel"):
        mine = [r for r in roles if r.split(":")[0] == kind]
        if mine:
            users = sorted({r.split(":", 1)[1] for r in mine if ":" in r})
            parts.append(f"{len(mine)} {kind}{'s' if len(mine) > 1 else ''}"
                         + (f" ({', '.join(users)})" if users and kind == "server" else ""))
    other = sum(1 for r in roles if r == "process")
    if other:
        parts.append(f"{other} other process{'es' if other > 1 else ''}")
    return ", ".join(parts)


def say(text: str, out=None) -> None:
    """Print, ignoring a terminal that has gone (SIGHUP)."""
    with contextlib.suppress(OSError, ValueError):
        print(text, file=out or sys.stdout, flush=True)


def clean_previous(state_path: Path, mark: str, out=None) -> list[dict]:
    """Stop what a previous run left behind; say what it was. Returns its records."""
    state = read_state(state_path)
    runner = state.get("runner")
    if runner and same_process(runner) is not None:
        raise RuntimeError(f"a trial hub is already running with this state directory "
                           f"(deploy/run_hub.py, PID {runner['pid']}): stop it with Ctrl-C in its "
                           f"terminal (or `kill {runner['pid']}`), or set GENVIZ_HUB_STATE and "
                           f"GENVIZ_HUB_HOME to start a second one.")
    procs = leftovers(state, mark)
    if not procs:
        with contextlib.suppress(FileNotFoundError):
            state_path.unlink()
        return []
    records = [r for r in map(_record, procs) if r]
    say(f"A trial hub was not stopped cleanly last time; stopping what it left running: "
        f"{summary(records)} (PIDs {', '.join(str(r['pid']) for r in records)}).", out)
    survivors = stop(procs, grace=3)
    if survivors:
        raise RuntimeError(f"could not stop PIDs {[p.pid for p in survivors]} of the previous "
                           f"trial hub; stop them by hand.")
    with contextlib.suppress(FileNotFoundError):
        state_path.unlink()
    return records


# --- running -------------------------------------------------------------------------------------

class Runner:
    """The hub as a child process, its state file kept up to date, stopped on a signal."""

    def __init__(self, cmd, env, state_path: Path, out=None):
        self.cmd, self.env, self.state_path, self.out = cmd, env, state_path, out
        self.mark = env[MARKER]
        self.proc = None
        self.known: dict[int, dict] = {}
        self.signals = 0
        self.stopping_since = None

    def _on_signal(self, signum, frame):
        self.signals += 1
        if self.stopping_since is None:
            self.stopping_since = time.monotonic()

    def _remember(self) -> None:
        changed = False
        for rec in snapshot(self.proc.pid):
            if rec["pid"] not in self.known or self.known[rec["pid"]]["role"] != rec["role"]:
                self.known[rec["pid"]] = rec
                changed = True
        if changed:
            me = _record(_psutil().Process(os.getpid()))
            write_state(self.state_path, {"runner": me, "marker": self.mark,
                                          "processes": list(self.known.values())})

    def run(self) -> int:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)
        # its own session: Ctrl-C reaches this runner only, which stops the hub in order
        self.proc = subprocess.Popen(self.cmd, env=self.env, start_new_session=True)
        while self.proc.poll() is None and self.stopping_since is None:
            self._remember()
            self._sleep(WATCH_S)
        return self._shutdown()

    def _sleep(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and self.stopping_since is None and self.proc.poll() is None:
            time.sleep(0.05)

    def _shutdown(self) -> int:
        t0 = self.stopping_since or time.monotonic()
        if self.proc.poll() is None:
            self._remember()
            say("\nStopping the trial hub and every user's server ...", self.out)
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            deadline = t0 + GRACE_S
            while self.proc.poll() is None and time.monotonic() < deadline and self.signals < 2:
                with contextlib.suppress(Exception):
                    self._remember()
                time.sleep(0.1)
        state = {"processes": list(self.known.values())}
        rest = leftovers(state, self.mark)
        killed = [r for r in map(_record, rest) if r]
        survivors = stop(rest, grace=0.5) if rest else []
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=2)
        took = time.monotonic() - t0
        if survivors:
            say(f"Could not stop PIDs {[p.pid for p in survivors]}; the next `make hub` tries "
                f"again.", self.out)
            return 1
        with contextlib.suppress(FileNotFoundError):
            self.state_path.unlink()
        note = f" ({summary(killed)} had to be killed)" if killed else ""
        say(f"Trial hub stopped in {took:.1f} s; nothing of it is left running{note}.", self.out)
        code = self.proc.returncode
        return 0 if self.signals else (code if code else 0)


def states_note(env, state: Path) -> str:
    """What the start message says about the explorers' precomputed states (issue #39)."""
    if not env.get("GENVIZ_REBUILD_REPO", str(ROOT)).strip():
        return ("Precomputed states: the rebuild service is off (GENVIZ_REBUILD_REPO is empty); "
                "gridded sliders use the states `make states` built, else the kernel.")
    return (f"Precomputed states: the rebuild service (genviz-rebuild) checks them against the "
            f"committed course at start and builds any missing grid in the background, nice'd "
            f"(the whole course: ~7 CPU-min; nothing when they are current). Until an "
            f"explorer's grid is written its gridded sliders use the kernel (run its cell again "
            f"afterwards). What it built, and why: GENVIZ_REBUILD_DIR={state / 'rebuild'} "
            f"{sys.executable} -m genviz_updates status")


def bundle_note(env) -> str:
    """What the start message says about the lecture page's questions (issue #37): the file
    the poll service reads (deploy/jupyterhub_config.py), there or not."""
    path = Path(env.get("GENVIZ_LECTURE_BUNDLE")
                or Path(sys.prefix, "share", "genviz", "lecture_bundle.json"))
    if path.is_file():
        return f"Lecture page (phones): the questions and explorers of {path}."
    return (f"Lecture page (phones): no lecture bundle at {path}, so the phones show the "
            f"options' letters only and no explorer: `make lecture-bundle` builds it (a few "
            f"minutes; the running hub reads it at once).")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    env = dict(os.environ)
    state = state_dir(env)
    state.mkdir(parents=True, exist_ok=True)
    env[MARKER] = str(state)
    env.setdefault("GENVIZ_HUB_STATE", str(state))
    state_path = state / STATE_FILE
    if importlib.util.find_spec("psutil") is not None:
        try:
            clean_previous(state_path, str(state))
        except RuntimeError as exc:
            print(f"The trial hub cannot start: {exc}", file=sys.stderr)
            return 2
    found = problems(env, argv)
    if found:
        print("The trial hub cannot start:", file=sys.stderr)
        for p in found:
            print(f"  - {p}", file=sys.stderr)
        return 2
    env["GENVIZ_CHP"] = find_proxy(env)
    env.setdefault("HUB_PORT", "8000")
    print(f"Trial hub on http://127.0.0.1:{env['HUB_PORT']}/ : log in with any user name"
          + (" and the shared password." if env.get("GENVIZ_HUB_PASSWORD") else ".")
          + " Ctrl-C stops it and every user's server.", flush=True)
    note = states_note(env, state)
    if note:
        print(note, flush=True)
    print(bundle_note(env), flush=True)
    cmd = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG), *argv]
    return Runner(cmd, env, state_path).run()


if __name__ == "__main__":
    sys.exit(main())
