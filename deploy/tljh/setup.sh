#!/usr/bin/env bash
# Put genviz on a machine running The Littlest JupyterHub (https://tljh.jupyter.org), as root:
#
#   curl -L https://tljh.jupyter.org/bootstrap.py | sudo python3 - --admin instructor
#   sudo bash deploy/tljh/setup.sh https://github.com/<account>/genviz [BRANCH]
#
# Run it again to update the installation (the students' notebooks are updated by their
# nbgitpuller links, never by this script). What it does:
#  1. checks the repository out at /opt/genviz (the single-user settings are read from there);
#  2. installs genviz and its `lab` extra into TLJH's user environment (/opt/tljh/user) and
#     runs the repository's postBuild there, as Binder and repo2docker do (JupyterLab defaults,
#     the genviz-a11y extension, the websocket settings, into the environment's prefix);
#     postBuild also builds the explorers' precomputed states once (python -m genviz.widgets.states);
#  3. applies deploy/tljh/config.yaml with tljh-config, and copies the hub snippet
#     deploy/tljh/jupyterhub_config.d/genviz.py (timeouts, server limit, the single-user
#     settings), then reloads the hub.
set -euo pipefail
REPO_URL="${1:?usage: setup.sh REPOSITORY_URL [BRANCH]}"
BRANCH="${2:-main}"
GENVIZ_REPO=/opt/genviz
USER_ENV=/opt/tljh/user
TLJH_CONFIG=/opt/tljh/config

command -v tljh-config >/dev/null || { echo "tljh-config not found: install TLJH first (https://tljh.jupyter.org)"; exit 2; }

if [ -d "$GENVIZ_REPO/.git" ]; then
  git -C "$GENVIZ_REPO" fetch --depth 1 origin "$BRANCH"
  git -C "$GENVIZ_REPO" checkout -q -B "$BRANCH" FETCH_HEAD
else
  git clone --depth 1 --branch "$BRANCH" "$REPO_URL" "$GENVIZ_REPO"
fi
chmod -R a+rX "$GENVIZ_REPO"

PATH="$USER_ENV/bin:$PATH" python -m pip install --quiet -e "$GENVIZ_REPO[lab]"
(cd "$GENVIZ_REPO" && PATH="$USER_ENV/bin:$PATH" bash postBuild)

tljh-config set user_environment.default_app jupyterlab
tljh-config set limits.memory 1G
tljh-config set limits.cpu 1
tljh-config set services.cull.enabled true
tljh-config set services.cull.timeout 3600
tljh-config set services.cull.every 300
tljh-config set services.cull.users false
tljh-config add-item users.admin instructor

mkdir -p "$TLJH_CONFIG/jupyterhub_config.d"
cp "$GENVIZ_REPO/deploy/tljh/jupyterhub_config.d/genviz.py" "$TLJH_CONFIG/jupyterhub_config.d/genviz.py"
tljh-config reload hub
echo "genviz is installed. Hand out nbgitpuller links (docs: Teach a class)."
