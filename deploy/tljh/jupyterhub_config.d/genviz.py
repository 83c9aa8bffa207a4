# genviz on The Littlest JupyterHub: the single-user settings of the trial hub
# (deploy/jupyterhub_config.py), for TLJH's own hub. deploy/tljh/setup.sh copies this file to
# /opt/tljh/config/jupyterhub_config.d/genviz.py; TLJH loads it after its own configuration.
# The repository is checked out at GENVIZ_REPO (setup.sh: /opt/genviz).
import importlib.util
import os
import sys

c = get_config()  # noqa: F821 (provided by JupyterHub)

GENVIZ_REPO = os.environ.get("GENVIZ_REPO", "/opt/genviz")
# TLJH's user environment: the students' Python, where setup.sh runs postBuild
USER_ENV = os.environ.get("TLJH_USER_ENV", "/opt/tljh/user")


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Never a hub that lets anyone in (issue #29): TLJH's own settings (auth.*, users.allowed), read
# with TLJH's configurer because this file's `c` is loaded apart from them. The hub exits with
# a message in `journalctl -u jupyterhub` naming what to set; setup.sh refused already.
_hub_auth = _load(f"{GENVIZ_REPO}/deploy/hub_auth.py", "genviz_hub_auth")
try:
    _tljh = _hub_auth.tljh_config()
except ImportError as exc:
    raise SystemExit(f"genviz: cannot read TLJH's login settings ({exc}); this file is for The "
                     f"Littlest JupyterHub's jupyterhub_config.d.") from None
_hub_auth.refuse_open_login(_tljh, "tljh")

# The hub's sqlite (/opt/tljh/state) in WAL mode: 300 phones logging in at once do not queue
# behind disk flushes (deploy/hub_db.py says what it trades).
_load(f"{GENVIZ_REPO}/deploy/hub_db.py", "genviz_hub_db")

# The project's single-user settings: deploy/singleuser first (kernels over IPC in a short
# runtime directory, the course-update notice in every kernel); postBuild put etc/jupyter (no
# Nagle on websockets; voila.py: Voila's offline default template) and the genviz-a11y extension
# in the user environment's prefix. The repository's share/jupyter (as on the trial hub) holds
# Voila's templates: genviz, every page's default (no request leaves the machine), and
# genviz-lecture (lecture mode, ?template=genviz-lecture).
c.Spawner.environment.update({
    "JUPYTER_CONFIG_PATH": f"{GENVIZ_REPO}/deploy/singleuser/etc/jupyter",
    "JUPYTER_PATH": f"{GENVIZ_REPO}/deploy/singleuser/share/jupyter:{GENVIZ_REPO}/share/jupyter",
    # one BLAS thread per kernel: students share the cores, and numpy's and scipy's OpenBLAS
    # pools spin against each other (the project's Makefile says more)
    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
})
# One server start costs ~4.3 CPU-s: at the default 30 s, spawns fail once ~12 students arrive
# within 10 s on 2 cores (issue #21). A slow start is better than a failed one.
c.Spawner.http_timeout = 180
c.Spawner.start_timeout = 300
# A full machine says so (HTTP 429 and the page of deploy/templates) instead of timing out.
# Size it: (RAM - 2 GB for the system) / limits.memory, and the CPU row of the sizing table.
c.JupyterHub.active_server_limit = int(os.environ.get("GENVIZ_HUB_MAX_SERVERS", "40"))
c.JupyterHub.template_paths = [f"{GENVIZ_REPO}/deploy/templates"]
c.JupyterHub.template_vars = {"genviz_max_servers": c.JupyterHub.active_server_limit}
c.Spawner.default_url = "/lab"
# nbgrader's tools only for the group "instructors" (deploy/grader_tools.py; issue #39)
_grader = _load(f"{GENVIZ_REPO}/deploy/grader_tools.py", "genviz_grader_tools")
_grader.configure(c, grader_dir=_grader.grader_config(GENVIZ_REPO))

# The room votes (issue #31): the poll service beside TLJH's hub, as its own system user
# (setup.sh creates `genviz-poll` and its state directory); TLJH's admins (users.admin) form
# the group "instructors" who run the rounds; add others on the hub's admin page (Groups).
POLL_PORT = int(os.environ.get("GENVIZ_POLL_PORT", "15011"))
POLL_STATE = os.environ.get("GENVIZ_POLL_STATE", "/opt/tljh/state/genviz-poll")
_poll = _load(f"{GENVIZ_REPO}/deploy/poll/hub_config.py", "genviz_poll_hub_config")
_manage_groups = any(_tljh[s].get("manage_groups") for s in _tljh if s.endswith("Authenticator"))
# The lecture page (issue #37): its questions from the bundle postBuild installed in the user
# environment; its address for the lecturer's QR code from TLJH's https settings (the first
# Let's Encrypt domain). Without https by Let's Encrypt, set c.JupyterHub.public_url in a
# jupyterhub_config.d file of your own: every server then gets it (JUPYTERHUB_PUBLIC_HUB_URL)
# and the panel reads it there.
from tljh import configurer as _tljh_configurer  # noqa: E402 (TLJH's hub: checked above)

_poll.configure(c, python=sys.executable, port=POLL_PORT, state_dir=POLL_STATE,
                user=os.environ.get("GENVIZ_POLL_USER", "genviz-poll"),
                instructors=() if _manage_groups else set(_tljh.Authenticator.get("admin_users") or ()),
                bundle=_poll.installed_bundle(USER_ENV),
                public_url=_poll.tljh_public_url(_tljh_configurer.load_config()))

# Precomputed states after a course update (issue #39, item 5): the service genviz-rebuild, as
# its own system user (setup.sh creates `genviz-rebuild` and its directory, readable by all),
# in the users' environment (genviz, nbconvert, the kernels' matplotlib), watches the course's
# repository and rebuilds, once per update, the grids whose keys it changed; at each hub start
# it builds any grid missing or stale (nothing when the image's postBuild states are current)
# (deploy/rebuild_config.py; `python -m genviz_updates status` tells the lecturer).
# The course: where setup.sh cloned /opt/genviz from (the repository the nbgitpuller links
# name), and its branch.
_rebuild = _load(f"{GENVIZ_REPO}/deploy/rebuild_config.py", "genviz_rebuild_config")
_course = _rebuild.course_of(GENVIZ_REPO)
_rebuild.configure(c, python=os.environ.get("GENVIZ_USER_PYTHON", f"{USER_ENV}/bin/python"),
                   repo=os.environ.get("GENVIZ_COURSE_REPO", _course[0]),
                   branch=os.environ.get("GENVIZ_COURSE_BRANCH", _course[1]),
                   states=os.environ.get("GENVIZ_REBUILD_STATE", "/opt/tljh/state/genviz-rebuild"),
                   user=os.environ.get("GENVIZ_REBUILD_USER", "genviz-rebuild"))
