#!/usr/bin/env bash
# Put genviz on a machine running The Littlest JupyterHub (https://tljh.jupyter.org), as root:
#
#   curl -L https://tljh.jupyter.org/bootstrap.py | sudo python3 - --admin instructor
#   sudo bash deploy/tljh/setup.sh https://github.com/<account>/genviz [BRANCH]
#
# Set up who may log in FIRST (docs: Teach a class, "Who can log in"): TLJH's default lets any
# visitor create an account, and this script refuses to go on while it does.
#
# Run it again to update the installation (the students' notebooks are updated by their
# nbgitpuller links, never by this script). What it does:
#  1. checks the repository out at /opt/genviz (the single-user settings are read from there);
#  2. refuses (exit 2, naming what to set) when TLJH's login lets anyone in:
#     deploy/hub_auth.py --tljh, with TLJH's own configurer; the hub snippet checks again at
#     every start;
#  3. installs genviz and its `lab` extra into TLJH's user environment (/opt/tljh/user) and
#     runs the repository's postBuild there, as Binder and repo2docker do (JupyterLab defaults,
#     the genviz-a11y extension, the websocket settings, into the environment's prefix; it also
#     builds the explorers' precomputed states once: python -m genviz.widgets.states, and the
#     lecture page's questions: share/genviz/lecture_bundle.json, read by the poll service), and
#     defines the course-update merge drivers in git's system config (genviz_updates.driver);
#  4. applies deploy/tljh/config.yaml with tljh-config, creates the system user `genviz-poll`
#     and its state directory (the room's poll service runs as it), and copies the hub snippet
#     deploy/tljh/jupyterhub_config.d/genviz.py (timeouts, server limit, the single-user
#     settings, the poll service), then reloads the hub.
set -euo pipefail
REPO_URL="${1:?usage: setup.sh REPOSITORY_URL [BRANCH]}"
BRANCH="${2:-main}"
# (the locations can be overridden for the tests, tests/test_deploy_auth.py)
GENVIZ_REPO="${GENVIZ_REPO:-/opt/genviz}"
USER_ENV="${TLJH_USER_ENV:-/opt/tljh/user}"
TLJH_CONFIG="${TLJH_CONFIG_DIR:-/opt/tljh/config}"
HUB_PYTHON="${TLJH_HUB_PYTHON:-/opt/tljh/hub/bin/python3}"
POLL_STATE="${GENVIZ_POLL_STATE:-/opt/tljh/state/genviz-poll}"

command -v tljh-config >/dev/null || { echo "tljh-config not found: install TLJH first (https://tljh.jupyter.org)"; exit 2; }

if [ -d "$GENVIZ_REPO/.git" ]; then
  git -C "$GENVIZ_REPO" fetch --depth 1 origin "$BRANCH"
  git -C "$GENVIZ_REPO" checkout -q -B "$BRANCH" FETCH_HEAD
else
  git clone --depth 1 --branch "$BRANCH" "$REPO_URL" "$GENVIZ_REPO"
fi
chmod -R a+rX "$GENVIZ_REPO"

# Who may log in: never everyone (issue #29). TLJH's configurer says what its hub will use.
"$HUB_PYTHON" "$GENVIZ_REPO/deploy/hub_auth.py" --tljh || {
  echo "setup.sh stopped before installing anything: set who may log in, then run it again." >&2
  exit 2
}

PATH="$USER_ENV/bin:$PATH" python -m pip install --quiet -e "$GENVIZ_REPO[lab]"
(cd "$GENVIZ_REPO" && PATH="$USER_ENV/bin:$PATH" bash postBuild)
# The lecture page's questions: postBuild built them into the user environment, where the hub
# snippet points the poll service (GENVIZ_LECTURE_BUNDLE); the service runs as genviz-poll
BUNDLE="$USER_ENV/share/genviz/lecture_bundle.json"
test -f "$BUNDLE" || { echo "postBuild wrote no lecture bundle at $BUNDLE" >&2; exit 1; }
chmod -R a+rX "$USER_ENV/share/genviz"
# Course updates: the notebook merge driver for every git on the machine (the single-user
# server's genviz_updates extension defines it too, in its environment, for git >= 2.31)
"$USER_ENV/bin/python" -m genviz_updates.driver install --system

tljh-config set user_environment.default_app jupyterlab
tljh-config set limits.memory 1G
tljh-config set limits.cpu 1
tljh-config set services.cull.enabled true
tljh-config set services.cull.timeout 3600
tljh-config set services.cull.every 300
tljh-config set services.cull.users false
tljh-config add-item users.admin instructor

# The room votes: the poll service's own system user and state directory (the votes; the voter key is never stored: genviz_poll.py)
id -u genviz-poll >/dev/null 2>&1 || useradd --system --no-create-home \
  --home-dir "$POLL_STATE" --shell /usr/sbin/nologin genviz-poll
mkdir -p "$POLL_STATE"
chown genviz-poll "$POLL_STATE"
chmod 700 "$POLL_STATE"

# Precomputed states after a course update (issue #39): the rebuild service's own system user
# and directory (the grids every kernel reads: 0755; written by this user only)
REBUILD_STATE="${GENVIZ_REBUILD_STATE:-/opt/tljh/state/genviz-rebuild}"
id -u genviz-rebuild >/dev/null 2>&1 || useradd --system --no-create-home \
  --home-dir "$REBUILD_STATE" --shell /usr/sbin/nologin genviz-rebuild
mkdir -p "$REBUILD_STATE/grids"
chown -R genviz-rebuild "$REBUILD_STATE"
chmod 755 "$REBUILD_STATE" "$REBUILD_STATE/grids"

mkdir -p "$TLJH_CONFIG/jupyterhub_config.d"
cp "$GENVIZ_REPO/deploy/tljh/jupyterhub_config.d/genviz.py" "$TLJH_CONFIG/jupyterhub_config.d/genviz.py"
tljh-config reload hub
echo "genviz is installed. Hand out nbgitpuller links (docs: Teach a class)."
