"""The README's commands for a student without `make` work on a fresh copy (Linux/macOS variant).

The block after ``<!-- plain-commands:linux -->`` is run line by line with bash in a copy of the
repository's tracked files: create the virtual environment, install, start JupyterLab on the
notebooks with the project's Jupyter paths. The test then asks the server, over HTTP, for the
start-here notebook and for the project's front-end extension (which proves ``JUPYTER_PATH``
took effect), and stops the server by its own process group. The Windows and conda blocks
cannot run here; the test checks they say the same things (the install, the two paths, the
notebooks folder).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
MARKER = "<!-- plain-commands:linux -->"


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """``(language, body)`` of every fenced code block, in order."""
    return re.findall(r"```(\w*)\n(.*?)```", text, re.S)


def linux_block() -> list[str]:
    after = README.split(MARKER, 1)[1]
    lang, body = fenced_blocks(after)[0]
    assert lang == "bash"
    return [line for line in body.splitlines() if line.strip()]


def test_the_readme_has_commands_for_linux_windows_and_conda():
    assert MARKER in README
    blocks = [body for _, body in fenced_blocks(README.split(MARKER, 1)[1])[:3]]
    assert len(blocks) == 3
    linux, windows, conda = blocks
    for block in blocks:
        assert "JUPYTER_PATH" in block and "JUPYTER_CONFIG_PATH" in block
        assert "share" in block and "etc" in block and "root_dir=notebooks" in block
        assert "jupyter lab" in block
    assert "python3 -m venv .venv" in linux and '-e ".[lab]"' in linux
    assert ".venv\\Scripts\\python" in windows and "$env:JUPYTER_PATH" in windows
    assert "conda env create -f environment.yml" in conda and "--no-deps -e ." in conda
    assert "name: genviz" in (ROOT / "environment.yml").read_text()  # `conda activate genviz`


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fresh_copy(dest: pathlib.Path) -> pathlib.Path:
    """The repository's tracked files (as in the work tree) copied into ``dest``."""
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                               check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of the repository's files")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def get(url: str, timeout: float = 5.0):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read()


@pytest.mark.slow
def test_the_linux_commands_install_and_start_jupyterlab_on_a_fresh_copy(tmp_path):
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    copy = fresh_copy(tmp_path / "genviz")
    lines = linux_block()
    *install, start = lines
    assert "jupyter lab" in start
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER_PATH", "JUPYTER_CONFIG_PATH")}
    for line in install:
        run = subprocess.run(["bash", "-c", line], cwd=copy, env=env, capture_output=True,
                             text=True, timeout=900)
        assert run.returncode == 0, f"{line}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    port, token = free_port(), secrets.token_hex(16)
    extra = f" --no-browser --ip=127.0.0.1 --port={port} --IdentityProvider.token={token}"
    if hasattr(os, "getuid") and os.getuid() == 0:
        extra += " --allow-root"  # as `make lab` does for root (containers, CI)
    env["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")
    log = open(tmp_path / "lab.log", "w")
    server = subprocess.Popen(["bash", "-c", start + extra], cwd=copy, env=env,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                status, body = get(f"{base}/api/contents/00_start_here.ipynb?token={token}")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("JupyterLab did not answer:\n"
                                + (tmp_path / "lab.log").read_text()[-4000:])
                time.sleep(0.5)
        notebook = json.loads(body)
        assert status == 200 and notebook["type"] == "notebook"
        assert notebook["content"]["cells"], "the start-here notebook came back empty"
        status, page = get(f"{base}/lab/tree/00_start_here.ipynb?token={token}")
        assert status == 200 and b"genviz-a11y" in page  # JUPYTER_PATH reached JupyterLab
        status, body = get(f"{base}/api/contents?token={token}")  # the notebooks folder is the root
        names = {entry["name"] for entry in json.loads(body)["content"]}
        assert "00_start_here.ipynb" in names and "genviz" not in names
    finally:
        stop_group(server)
        log.close()


def stop_group(process: subprocess.Popen) -> None:
    """Stop ``process`` and everything it started (its own session), by its process group."""
    for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
