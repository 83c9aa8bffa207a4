"""Kernels of a hub's single-user server survive a class arriving together (issue #21).

One Jupyter server with the hub's single-user settings (deploy/singleuser on
JUPYTER_CONFIG_PATH and JUPYTER_PATH, as the trial hub, TLJH and Z2JH give them) starts ten
kernels at the same moment. With the default TCP transport 1 of 10 died in the issue's trial
(``ZMQError: Address already in use``: the port race); over IPC in a short runtime directory
every kernel must start and run code, and a killed kernel must restart and run code again.
A notebook session's kernel started before the student clicks the course link (the server's
own /git-pull endpoint, with genviz_updates' puller and merge driver) prints what the update did
not deliver under the next cell, once (genviz_updates.kernel, loaded by deploy/singleuser).
The server is given a runtime directory too long for a unix socket path, as a home under
build/hub/home is, so the test also checks the config's short-directory rescue.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from hub_testing import kernel_execute

ROOT = Path(__file__).resolve().parent.parent
SINGLEUSER = ROOT / "deploy" / "singleuser"
N_KERNELS = 10
TOKEN = "genviz-test-token"

pytestmark = pytest.mark.slow


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _api(base, path, method="GET", body=None, timeout=60):
    req = urllib.request.Request(f"{base}{path}", method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"token {TOKEN}"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        data = r.read()
    return json.loads(data) if data else None


def _execute(connection_file, code, timeout=120):
    return kernel_execute(connection_file, code, timeout)


@contextlib.contextmanager
def singleuser_server(root: Path, env_extra=None):
    """A Jupyter server with the hub's single-user settings (deploy/singleuser on
    JUPYTER_CONFIG_PATH and JUPYTER_PATH, as the trial hub, TLJH and Z2JH give them), serving
    ``root`` on a free 127.0.0.1 port; yields (base URL, process, log path). Stopped by its
    PID at the end."""
    env = dict(os.environ, **(env_extra or {}),
               JUPYTER_CONFIG_PATH=os.pathsep.join([str(SINGLEUSER / "etc" / "jupyter"),
                                                    str(ROOT / "etc" / "jupyter")]),
               JUPYTER_PATH=os.pathsep.join([str(SINGLEUSER / "share" / "jupyter"),
                                             str(ROOT / "share" / "jupyter")]),
               PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    env.pop("MPLBACKEND", None)
    port = _free_port()
    argv = [sys.executable, "-m", "jupyter_server", "--no-browser", "--ip=127.0.0.1",
            f"--port={port}", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={root}"]
    if os.geteuid() == 0:
        argv.append("--allow-root")
    log = open(root / "server.log", "w")
    proc = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                _api(base, "/api/status", timeout=5)
                break
            except OSError:
                assert proc.poll() is None, (root / "server.log").read_text()
                time.sleep(0.5)
        yield base, proc, root / "server.log"
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture()
def server():
    # Not pytest's tmp_path: a concurrent pytest run of the same user prunes old numbered
    # directories under /tmp/pytest-of-<user>, which would delete the server's files mid-test.
    tmp_path = Path(tempfile.mkdtemp(prefix="genviz-kernels-test-"))
    long_runtime = tmp_path / ("a-home-as-deep-as-build-hub-home-" * 3) / ".local/share/jupyter/runtime"
    assert len(str(long_runtime / "kernel-00000000-0000-0000-0000-000000000000-ipc-1")) > 107
    try:
        with singleuser_server(tmp_path, {"JUPYTER_RUNTIME_DIR": str(long_runtime)}) as (
                base, proc, log):
            runtime = [Path(p).parent for p in glob.glob(f"/tmp/jr-*/jpserver-{proc.pid}.json")]
            assert len(runtime) == 1, "the server did not move to a short /tmp/jr-* runtime directory"
            yield base, runtime[0], proc, log
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _course(root: Path) -> tuple[str, Path]:
    """A course repository (bare, as on GitHub) and the instructor's copy; the same lesson as
    tests/test_deploy_updates.py, which builds the stories in detail."""
    import test_deploy_updates as upd

    bare, work = root / "course.git", root / "instructor"
    upd.git(root, "init", "--bare", str(bare))
    upd.git(root, "init", str(work))
    (work / "notebooks").mkdir()
    upd.nbformat.write(upd.lesson(), work / upd.NB)
    (work / ".gitattributes").write_text((ROOT / ".gitattributes").read_text())
    (work / "genviz").mkdir()  # the course's library (a stand-in), which kernels import
    (work / "genviz" / "__init__.py").write_text("__version__ = 'from the clone'\n")
    upd.publish(work, f"file://{bare}", "lesson")
    return f"file://{bare}", work


def _click(base, url, target):
    """What a student's nbgitpuller link does: the server's /git-pull/api event stream."""
    query = urllib.parse.urlencode({"repo": url, "branch": "main", "targetpath": target})
    body = urllib.request.urlopen(urllib.request.Request(
        f"{base}/git-pull/api?{query}", headers={"Authorization": f"token {TOKEN}"}),
        timeout=180).read().decode()
    assert '"phase": "finished"' in body, body
    return body


def test_ten_simultaneous_kernels_start_over_ipc_the_notice_shows_a_killed_one_restarts(server):
    base, runtime, proc, log = server
    root = log.parent
    with concurrent.futures.ThreadPoolExecutor(N_KERNELS) as pool:
        kernels = list(pool.map(lambda _: _api(base, "/api/kernels", "POST", {"name": "python3"}),
                                range(N_KERNELS)))
    files = [runtime / f"kernel-{k['id']}.json" for k in kernels]
    for f in files:
        info = json.loads(f.read_text())
        assert info["transport"] == "ipc" and len(f"{info['ip']}-{info['shell_port']}") <= 107
    code = "import os, sys; print(os.getpid(), 'genviz_updates.kernel' in sys.modules)"
    with concurrent.futures.ThreadPoolExecutor(N_KERNELS) as pool:
        outs = list(pool.map(lambda f: _execute(f, code), files))
    pids = [int(o.split()[0]) for o in outs]
    assert len(set(pids)) == N_KERNELS
    assert all(o.split()[1] == "True" for o in outs)  # the course-update notice is loaded
    assert "Address already in use" not in log.read_text()

    # a student's kernel, started before they click the course link again, prints what the
    # update did not deliver under the next cell (the server's nbgitpuller runs SafePuller and
    # the merge driver: genviz_updates.server, loaded through deploy/singleuser)
    import test_deploy_updates as upd

    url, work = _course(root)
    _click(base, url, "bob/genviz")
    notebook = root / "bob" / "genviz" / upd.NB
    upd.edit_cell(notebook, 2, upd.B_EDIT)
    session = _api(base, "/api/sessions", "POST", {
        "path": str(notebook.relative_to(root)), "name": notebook.name, "type": "notebook",
        "kernel": {"name": "python3"}})
    kernel_file = runtime / f"kernel-{session['kernel']['id']}.json"
    assert _execute(kernel_file, "print('cell 1 ran')").strip() == "cell 1 ran"
    upd.publish_fix(work, url)
    assert "genviz: 1 thing to tell you" in _click(base, url, "bob/genviz")
    assert upd.sources(notebook)[1] == upd.FIX_X and upd.sources(notebook)[2] == upd.B_EDIT
    second = _execute(kernel_file, "print('cell 2 ran')")
    assert second.startswith("Course update: 1 course change to this notebook did not reach")
    assert upd.EXERCISE_FIX.strip() in second
    assert "Reload Notebook from Disk" in " ".join(second.split())
    assert second.rstrip().endswith("cell 2 ran")
    third = _execute(kernel_file, "import genviz; print(genviz.__version__, genviz.__file__)")
    # once only; and the kernel's genviz is the one the student's clone carries
    assert third.strip() == f"from the clone {notebook.parents[1] / 'genviz' / '__init__.py'}"
    _api(base, f"/api/sessions/{session['id']}", "DELETE")

    # a killed kernel: the server restarts it on the same sockets, and it runs code again
    os.kill(pids[0], signal.SIGKILL)
    deadline = time.monotonic() + 120
    new_pid = None
    while time.monotonic() < deadline:
        try:
            new_pid = int(_execute(files[0], code, timeout=20).split()[0])
            if new_pid != pids[0]:
                break
        except Exception:  # noqa: BLE001 (still restarting)
            time.sleep(1)
    assert new_pid is not None and new_pid != pids[0], log.read_text()[-3000:]
    states = {k["id"]: k["execution_state"] for k in _api(base, "/api/kernels")}
    assert states[kernels[0]["id"]] != "dead"
    for k in kernels:
        _api(base, f"/api/kernels/{k['id']}", "DELETE")

    # the short runtime directory goes when the server stops
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    assert not runtime.exists()

