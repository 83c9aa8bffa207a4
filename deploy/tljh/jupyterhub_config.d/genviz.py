# genviz on The Littlest JupyterHub: the single-user settings of the trial hub
# (deploy/jupyterhub_config.py), for TLJH's own hub. deploy/tljh/setup.sh copies this file to
# /opt/tljh/config/jupyterhub_config.d/genviz.py; TLJH loads it after its own configuration.
# The repository is checked out at GENVIZ_REPO (setup.sh: /opt/genviz).
import os

c = get_config()  # noqa: F821 (provided by JupyterHub)

GENVIZ_REPO = os.environ.get("GENVIZ_REPO", "/opt/genviz")

# The project's single-user settings: deploy/singleuser first (kernels over IPC in a short
# runtime directory, the course-update notice in every kernel); postBuild put etc/jupyter (no
# Nagle on websockets) and the genviz-a11y extension in the user environment's prefix.
c.Spawner.environment.update({
    "JUPYTER_CONFIG_PATH": f"{GENVIZ_REPO}/deploy/singleuser/etc/jupyter",
    "JUPYTER_PATH": f"{GENVIZ_REPO}/deploy/singleuser/share/jupyter",
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
