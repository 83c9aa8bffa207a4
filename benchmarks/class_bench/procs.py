"""Processes: start the hub in its own process group, find who is who, measure, stop all.

Memory is PSS (``/proc/<pid>/smaps_rollup``: shared pages split between the processes mapping
them, so PSS sums to the machine's real use); CPU is ``utime + stime`` of ``/proc/<pid>/stat``
(clock ticks). Everything started here is stopped by PID: the hub's process group, then any
descendant that left it, checked afterwards with ``ps``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import psutil

TICK = os.sysconf("SC_CLK_TCK")

__all__ = ["pss_kb", "cpu_seconds", "loadavg", "busiest", "start_group", "descendants",
           "stop_tree", "leftovers", "classify", "working_in"]


def pss_kb(pid: int) -> int | None:
    """PSS of one process in kB (None when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process so far (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            raw = f.read()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def loadavg() -> tuple:
    return os.getloadavg()


def busiest(n: int = 6, exclude=()) -> list:
    """The ``n`` processes using the most CPU over a 1-s sample, outside ``exclude`` PIDs:
    [(percent, pid, command)]."""
    procs = {}
    for p in psutil.process_iter(["pid", "name", "cmdline"]):
        if p.pid in exclude:
            continue
        try:
            p.cpu_percent(None)
            procs[p.pid] = p
        except psutil.Error:
            pass
    time.sleep(1.0)
    rows = []
    for pid, p in procs.items():
        try:
            pct = p.cpu_percent(None)
            cmd = " ".join(p.info["cmdline"] or [p.info["name"] or "?"])
        except psutil.Error:
            continue
        if pct > 0:
            rows.append((pct, pid, cmd[:90]))
    return sorted(rows, reverse=True)[:n]


def start_group(cmd, *, env, cwd, log_path) -> subprocess.Popen:
    """Start ``cmd`` as the leader of a new process group (and session), output to a file."""
    log = open(log_path, "ab")
    try:
        return subprocess.Popen(cmd, env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    finally:
        log.close()


def descendants(pid: int) -> list:
    """PIDs of every process below ``pid`` (children, grandchildren ...)."""
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []


def classify(hub_pid: int) -> dict:
    """Who is who below the hub: {"hub": pid, "proxy": [pids], "culler": [pids],
    "servers": {username: pid}, "kernels": {username: [pids]}}."""
    out = {"hub": hub_pid, "proxy": [], "culler": [], "other": [], "servers": {},
           "kernels": {}}
    try:
        kids = psutil.Process(hub_pid).children(recursive=True)
    except psutil.Error:
        return out
    for p in kids:
        try:
            cmd = " ".join(p.cmdline())
            env_user = None
            if "jupyterhub-singleuser" in cmd:
                env_user = p.environ().get("JUPYTERHUB_USER")
        except psutil.Error:
            continue
        if "configurable-http-proxy" in cmd:
            out["proxy"].append(p.pid)
        elif "idle_culler" in cmd or "idle-culler" in cmd:
            out["culler"].append(p.pid)
        elif env_user:
            out["servers"][env_user] = p.pid
            try:
                out["kernels"][env_user] = [k.pid for k in p.children(recursive=True)]
            except psutil.Error:
                out["kernels"][env_user] = []
        elif "ipykernel" not in cmd:
            out["other"].append(p.pid)
    return out


def stop_tree(proc: subprocess.Popen, known=(), grace: float = 10.0) -> None:
    """SIGTERM the hub's process group (the hub stops its proxy and servers), wait, then
    SIGKILL the group and every remembered or still-found descendant."""
    pids = set(known) | set(descendants(proc.pid))
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    pids |= set(descendants(proc.pid))
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def working_in(directory) -> list:
    """PIDs of processes whose working directory or environment names ``directory`` (the
    benchmark's temporary tree: users' servers run in their homes there), found by a scan so
    that a process that left the hub's tree is found too."""
    directory = str(directory)
    found = []
    for p in psutil.process_iter(["pid"]):
        try:
            if p.cwd().startswith(directory) or any(
                    directory in v for v in p.environ().values()):
                found.append(p.pid)
        except psutil.Error:
            continue
    return found


def leftovers(pids) -> list:
    """Which of ``pids`` still run (zombies do not count), checked with ``ps``."""
    pids = sorted(set(pids))
    if not pids:
        return []
    res = subprocess.run(["ps", "-o", "pid=,stat=,args=", "-p", ",".join(map(str, pids))],
                         capture_output=True, text=True)
    return [line.strip() for line in res.stdout.splitlines()
            if line.split() and not line.split()[1].startswith("Z")]
