"""The trial JupyterHub of genviz: ``make hub`` (through deploy/run_hub.py), the hub tests and
the class benchmark all start ``jupyterhub -f deploy/jupyterhub_config.py``.

A lecturer's laptop, not a production hub: any user name logs in (the dummy authenticator,
optionally with one shared password), every user's server is a local process of the same Unix
user (SimpleLocalProcessSpawner) with its own home directory, and everything listens on
127.0.0.1 -- and only there: the hub refuses to start when asked to listen anywhere else (a
login that lets any name in must not be reachable from the network; deploy/hub_auth.py). The single-user settings are those of the real deployments (deploy/tljh/,
deploy/z2jh/): kernels over IPC in a short runtime directory (the port race), long start
timeouts, a server limit with a clear message, the idle culler.

Environment variables (all optional):

=========================  ===========================================================
HUB_PORT                   public port (default 8000), on 127.0.0.1
GENVIZ_HUB_API_PORT        the hub's internal port (default HUB_PORT + 1)
GENVIZ_PROXY_API_PORT      the proxy's REST API port (default HUB_PORT + 2)
GENVIZ_HUB_HOME            where users' homes go (default build/hub/home/<user>)
GENVIZ_HUB_STATE           database, cookie secret, pid files (default build/hub/state)
GENVIZ_HUB_PASSWORD        one shared password for every user (default: none needed)
GENVIZ_HUB_ADMINS          comma-separated admin user names (default "instructor")
GENVIZ_HUB_INSTRUCTORS     the group "instructors": who runs the room's votes (default: the admins)
GENVIZ_POLL_PORT           the poll service's port (default HUB_PORT + 3), on 127.0.0.1
GENVIZ_HUB_API_TOKEN       a token for scripts (pre-starting servers before a lecture)
GENVIZ_HUB_MAX_SERVERS     active_server_limit (default 50; 0 = no limit)
GENVIZ_CULL_TIMEOUT        seconds of inactivity before the culler stops a server (3600)
GENVIZ_CHP                 the configurable-http-proxy command (default: from PATH)
GENVIZ_REBUILD_REPO        the course repository the rebuild service watches (default: this
                           work tree's repository, its HEAD; "" turns the service off)
GENVIZ_REBUILD_BRANCH      its branch (default HEAD)
=========================  ===========================================================

deploy/run_hub.py marks every process of the hub with ``GENVIZ_TRIAL_HUB=<state dir>`` (passed
on to the servers, kernels and services here) so that it can stop all of them, and clean up
after a hub that was killed.
"""

import importlib.util
import os
import pathlib
import shutil
import sys

from jupyterhub.auth import DummyAuthenticator

c = get_config()  # noqa: F821 (provided by JupyterHub when it loads this file)

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hub_auth = _load(DEPLOY / "hub_auth.py", "genviz_hub_auth")
poll = _load(DEPLOY / "poll" / "hub_config.py", "genviz_poll_hub_config")
rebuild = _load(DEPLOY / "rebuild_config.py", "genviz_rebuild_config")
# the hub's sqlite in WAL mode: a login does not wait for a disk flush (deploy/hub_db.py)
_load(DEPLOY / "hub_db.py", "genviz_hub_db")


def _env_int(name, default):
    value = os.environ.get(name, "")
    try:
        return int(value) if value.strip() else default
    except ValueError:
        raise SystemExit(f"{name} must be an integer, got {value!r}") from None


HUB_PORT = _env_int("HUB_PORT", 8000)
HOME = pathlib.Path(os.environ.get("GENVIZ_HUB_HOME") or ROOT / "build" / "hub" / "home").resolve()
STATE = pathlib.Path(os.environ.get("GENVIZ_HUB_STATE") or ROOT / "build" / "hub" / "state").resolve()
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
STATE.chmod(0o700)  # the hub's database and cookie secret, the room's votes: the hub's alone
HOME.mkdir(parents=True, exist_ok=True)
#: the variables that set the number of BLAS threads (OpenBLAS, OpenMP, MKL)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: every process of this hub carries it (deploy/run_hub.py finds and stops them by it)
MARK = {"GENVIZ_TRIAL_HUB": os.environ.get("GENVIZ_TRIAL_HUB") or str(STATE)}

#: the directory the course arrives in, as nbgitpuller names it (the repository's name)
COURSE_DIR = "genviz"
#: JupyterLab opens here after login
DEFAULT_URL = f"/lab/tree/{COURSE_DIR}/notebooks/00_start_here.ipynb"
#: one server start costs ~4.3 CPU-s; at JupyterHub's default 30 s, spawns fail once ~12
#: students arrive within 10 s on 2 cores (issue #21: p95 28.8 s at N = 10, 40 students wait
#: 70-110 s). Generous limits: a slow start is better than a failed one.
HTTP_TIMEOUT = 180
START_TIMEOUT = 300

# --- network: loopback only -------------------------------------------------------------------
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = HUB_PORT
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = _env_int("GENVIZ_HUB_API_PORT", HUB_PORT + 1)
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{_env_int('GENVIZ_PROXY_API_PORT', HUB_PORT + 2)}"
c.ConfigurableHTTPProxy.command = [os.environ.get("GENVIZ_CHP") or "configurable-http-proxy"]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every user's server

# --- who logs in --------------------------------------------------------------------------------

class TrialDummyAuthenticator(DummyAuthenticator):
    """JupyterHub's dummy login (any user name, optionally one shared password), which refuses
    to start a hub that listens beyond 127.0.0.1: checked on the hub's final settings, so
    ``--ip=0.0.0.0`` on the command line or a config file loaded after this one is refused too."""

    def check_allow_config(self):
        super().check_allow_config()
        app = self.parent
        if app is None:
            return
        settings = {"JupyterHub": {"bind_url": app.bind_url, "hub_bind_url": app.hub_bind_url,
                                   "hub_ip": app.hub_ip},
                    "Spawner": {"ip": app.config.Spawner.get("ip", "127.0.0.1")}}
        if not settings["JupyterHub"]["hub_bind_url"]:
            del settings["JupyterHub"]["hub_bind_url"]
        wide = hub_auth.loopback_problems(settings)
        if wide:
            message = ("genviz's trial hub lets any user name log in, so it listens on 127.0.0.1 "
                       "only; refused: " + "; ".join(wide) + ". For a class, use The Littlest "
                       "JupyterHub or Zero to JupyterHub with a real login (docs: Teach a class).")
            self.log.critical(message)
            print(message, file=sys.stderr)
            raise SystemExit(1)


c.JupyterHub.authenticator_class = TrialDummyAuthenticator
c.Authenticator.allow_all = True
if os.environ.get("GENVIZ_HUB_PASSWORD"):
    c.DummyAuthenticator.password = os.environ["GENVIZ_HUB_PASSWORD"]
ADMINS = {n.strip() for n in os.environ.get("GENVIZ_HUB_ADMINS", "instructor").split(",") if n.strip()}
c.Authenticator.admin_users = ADMINS
INSTRUCTORS = {n.strip() for n in os.environ.get("GENVIZ_HUB_INSTRUCTORS", ",".join(sorted(ADMINS)))
               .split(",") if n.strip()}

# --- the servers ----------------------------------------------------------------------------------
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(HOME / "{username}")
c.Spawner.ip = "127.0.0.1"
# The hub's own Python environment serves the users (a venv need not be on PATH)
BIN = pathlib.Path(sys.executable).parent
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = DEFAULT_URL
c.Spawner.http_timeout = HTTP_TIMEOUT
c.Spawner.start_timeout = START_TIMEOUT
if os.geteuid() == 0:  # containers and CI run as root; jupyter-server refuses that unless told
    c.Spawner.args = ["--allow-root"]
# Stopping a server (Ctrl-C on the hub, the culler, the "Stop My Server" button): SIGINT, then
# SIGTERM, then SIGKILL. A server takes 3+ s to act on SIGINT (it asks each kernel to shut down)
# and JupyterHub's 10 + 5 + 5 s would keep a stopping hub waiting up to 20 s; SIGTERM after 1 s
# stops it at once (its kernels follow their parent). deploy/run_hub.py kills what is left 6 s
# after Ctrl-C.
c.Spawner.interrupt_timeout = 1
c.Spawner.term_timeout = 2
c.Spawner.kill_timeout = 2
# The project's settings, as `make lab` uses them: deploy/singleuser (IPC kernels in a short
# runtime directory, the course-update notice in every kernel) first, then the project's own
# etc/jupyter (no Nagle on the websockets) and share/jupyter (the genviz-a11y extension).
c.Spawner.environment = {
    "PATH": os.pathsep.join([str(BIN), os.environ.get("PATH", os.defpath)]),
    "JUPYTER_CONFIG_PATH": os.pathsep.join(
        [str(DEPLOY / "singleuser" / "etc" / "jupyter"), str(ROOT / "etc" / "jupyter")]),
    "JUPYTER_PATH": os.pathsep.join(
        [str(DEPLOY / "singleuser" / "share" / "jupyter"), str(ROOT / "share" / "jupyter")]),
    # one BLAS thread per kernel: students' kernels share the cores, and numpy's and scipy's
    # OpenBLAS pools spin against each other (the Makefile says more; 112 s -> 3.6 s)
    **{k: os.environ.get(k, "1") for k in BLAS_THREADS},
    **MARK,
}
# PYTHONPATH is in the spawner's env_keep: a hub started with PYTHONPATH=<a work tree> gives
# its kernels that tree's genviz.

MAX_SERVERS = _env_int("GENVIZ_HUB_MAX_SERVERS", 50)
c.JupyterHub.active_server_limit = MAX_SERVERS
c.JupyterHub.template_paths = [str(DEPLOY / "templates")]
c.JupyterHub.template_vars = {"genviz_max_servers": MAX_SERVERS}


def copy_course(spawner):
    """First spawn of a user: copy the course notebooks into ~/genviz/notebooks.

    The trial hub copies the work tree's notebooks (committed or not) so a lecturer sees what
    they are editing. A real hub hands out nbgitpuller links instead (deploy/README.md), which
    clone the repository into the same ~/genviz and later merge updates without losing work.
    An existing ~/genviz is never touched.
    """
    target = pathlib.Path(spawner.home_dir) / COURSE_DIR
    if target.exists():
        return
    try:
        target.mkdir(parents=True)
        shutil.copytree(ROOT / "notebooks", target / "notebooks",
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    except OSError as exc:
        from tornado.web import HTTPError

        message = (f"Could not copy the course notebooks into {target} ({exc}). Your server "
                   f"was not started; please tell your instructor (the hub's disk may be full, "
                   f"or {spawner.home_dir} is not a writable directory).")
        # JupyterHub shows an exception's `jupyterhub_message` to the student (error page, or
        # the spawn page's progress log), not only in the hub's log
        error = HTTPError(500, log_message=message, reason="Your server could not start")
        error.jupyterhub_message = message
        raise error from exc


c.Spawner.pre_spawn_hook = copy_course
# nbgrader's tools only for the group "instructors" (deploy/grader_tools.py; issue #39)
_load(DEPLOY / "grader_tools.py", "genviz_grader_tools").configure(
    c, grader_dir=str(DEPLOY / "singleuser" / "grader" / "etc" / "jupyter"))

# --- the idle culler ----------------------------------------------------------------------------------
CULL_TIMEOUT = _env_int("GENVIZ_CULL_TIMEOUT", 3600)
CULL_EVERY = max(5, min(300, CULL_TIMEOUT // 2))
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={CULL_TIMEOUT}", f"--cull-every={CULL_EVERY}"],
    "environment": dict(MARK),
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
if os.environ.get("GENVIZ_HUB_API_TOKEN"):
    # A token for the lecturer's scripts, e.g. pre-starting every server before a lecture
    # (docs: "Teach a class"). Only what that needs: create users, start and stop servers.
    c.JupyterHub.services.append({"name": "course-admin",
                                  "api_token": os.environ["GENVIZ_HUB_API_TOKEN"]})
    c.JupyterHub.load_roles.append({
        "name": "course-admin",
        "scopes": ["admin:users", "admin:servers", "list:users", "read:users"],
        "services": ["course-admin"],
    })

# --- the room votes (issue #31) -----------------------------------------------------------------
# The poll service (deploy/poll/genviz_poll.py) beside the hub: students' kernels send their
# committed predictions (genviz.widgets.room), the group "instructors" runs the rounds and sees
# the counts. Its votes live in the state directory until the lecturer deletes them (or 12 h).
POLL_PORT = _env_int("GENVIZ_POLL_PORT", HUB_PORT + 3)
# The lecture page's questions: the bundle installed in this venv (`make lecture-bundle`, as
# postBuild in an image), or the file GENVIZ_LECTURE_BUNDLE names (the hub tests: their own).
poll.configure(c, python=sys.executable, port=POLL_PORT, state_dir=str(STATE / "poll"),
               instructors=INSTRUCTORS, environment=MARK,
               public_url=f"http://127.0.0.1:{HUB_PORT}",
               bundle=os.environ.get("GENVIZ_LECTURE_BUNDLE") or poll.installed_bundle(sys.prefix))

# --- precomputed states after a course update (issue #39, item 5) ------------------------------
# The service genviz-rebuild (deploy/rebuild_config.py, genviz_updates.rebuild) watches the
# course (here: this work tree's committed HEAD) and, at its first start and after an update,
# builds once, in the background and nice'd, the grids that are missing or whose keys changed
# into STATE/rebuild/grids, on every kernel's GENVIZ_STATES_PATH (the first `make hub`: the
# whole course, ~7 CPU-min; a restart: nothing); `python -m genviz_updates status` says what
# it built and why.
REBUILD_REPO = os.environ.get("GENVIZ_REBUILD_REPO", str(ROOT))
if REBUILD_REPO.strip():
    rebuild.configure(c, python=sys.executable, repo=REBUILD_REPO,
                      branch=os.environ.get("GENVIZ_REBUILD_BRANCH", "HEAD"),
                      states=str(STATE / "rebuild"), environment=MARK)
