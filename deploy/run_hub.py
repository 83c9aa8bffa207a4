"""Start the trial hub (``make hub``) after checking what it needs; say what is missing.

``python deploy/run_hub.py`` runs ``jupyterhub -f deploy/jupyterhub_config.py`` in the
foreground (Ctrl-C stops the hub, its proxy and every user's server). Before that it checks
that JupyterHub, the idle culler and configurable-http-proxy are installed and that the
hub's three ports (HUB_PORT and the two internal ones) are free, and exits with status 2 and
one sentence per problem naming the missing piece and the remedy.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
#: where ``make hub`` installs configurable-http-proxy when it is not on PATH
LOCAL_NODE_BIN = ROOT / "build" / "node" / "node_modules" / ".bin"


def hub_ports(env=None) -> dict[str, int]:
    """The ports the trial hub binds, by the variable that sets each (as the config reads them)."""
    env = os.environ if env is None else env
    out = {}
    for name, offset in [("HUB_PORT", 0), ("GENVIZ_HUB_API_PORT", 1), ("GENVIZ_PROXY_API_PORT", 2)]:
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
    """configurable-http-proxy: $GENVIZ_CHP, then PATH, then the project-local npm install."""
    env = os.environ if env is None else env
    if env.get("GENVIZ_CHP"):
        return shutil.which(env["GENVIZ_CHP"])
    path = os.pathsep.join([env.get("PATH", ""), str(LOCAL_NODE_BIN)])
    return shutil.which("configurable-http-proxy", path=path)


def problems(env=None) -> list[str]:
    """Everything that would stop the hub from starting, one sentence each ([] = ready)."""
    env = os.environ if env is None else env
    found = []
    for module, package in [("jupyterhub", "jupyterhub"),
                            ("jupyterhub_idle_culler", "jupyterhub-idle-culler")]:
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
    try:
        ports = hub_ports(env)
    except ValueError as exc:
        return [*found, str(exc)]
    for name, port in ports.items():
        if port_in_use(port):
            found.append(f"port {port} on 127.0.0.1 ({name}) is in use: another hub or program "
                         f"is listening there. Stop it, or pick other ports, e.g. "
                         f"`make hub HUB_PORT=8010` (the hub also uses HUB_PORT+1 and HUB_PORT+2; "
                         f"set GENVIZ_HUB_API_PORT / GENVIZ_PROXY_API_PORT to move those).")
    return found


def main(argv=None) -> int:
    env = dict(os.environ)
    found = problems(env)
    if found:
        print("The trial hub cannot start:", file=sys.stderr)
        for p in found:
            print(f"  - {p}", file=sys.stderr)
        return 2
    proxy = find_proxy(env)
    env["GENVIZ_CHP"] = proxy
    env.setdefault("HUB_PORT", "8000")
    print(f"Trial hub on http://127.0.0.1:{env['HUB_PORT']}/ : log in with any user name"
          + (" and the shared password." if env.get("GENVIZ_HUB_PASSWORD") else ".")
          + " Ctrl-C stops it and every user's server.", flush=True)
    cmd = [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG), *(argv or sys.argv[1:])]
    os.execve(sys.executable, cmd, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
