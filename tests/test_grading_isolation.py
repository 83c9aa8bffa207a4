"""Each submission alone (issue #38): its own uid, no user namespace, no kernel key, one memory
bound for the whole sandbox — run in the real sandbox (course/sandbox.py)."""

import os
import pathlib

import pytest
from grading_sandbox import need_sandbox

from course.sandbox import Limits, Sandbox, _python_roots

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True, scope="module")
def _sandbox():
    need_sandbox()


def _run(code: str, limits: Limits = Limits(cell_seconds=30)):
    result = Sandbox().run({"cells": [{"index": 1, "source": code}], "answers": ["answer_q1"],
                            "notebook_name": "x.ipynb", "notebook_text": "{}"}, limits)
    answers = next((e["answers"] for e in result.events if e.get("event") == "answers"), None)
    value = (answers or {}).get("answer_q1", {}).get("value")
    return result, value


PROBE = r'''
import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
key = libc.syscall({"x86_64": 248, "aarch64": 217}[os.uname().machine], b"user", b"k", b"v", 1,
                   ctypes.c_int(-4))
key_errno = ctypes.get_errno()
userns = libc.unshare(0x10000000)
answer_q1 = [os.getuid(), key, key_errno, userns, sorted(os.listdir("/tmp"))]
'''


def test_each_run_has_its_own_uid_no_key_and_no_user_namespace():
    first, one = _run(PROBE)
    second, two = _run(PROBE)
    assert one and two, (first.events, second.events)
    if os.geteuid() == 0:
        assert one[0] == first.uid and two[0] == second.uid and first.uid != second.uid
        assert first.uid >= 1_500_000_000
    assert one[1] == -1 and one[2] == 1       # add_key: EPERM (the seccomp filter)
    assert one[3] == -1                       # unshare(CLONE_NEWUSER) refused
    # a fresh /tmp each time: the home and the kernel's connection file, nothing of the other
    # (and, for a checkout or venv that lives under /tmp, the folder it is bound at read-only)
    bound = {pathlib.PurePath(r).parts[2] for r in _python_roots() if r.startswith("/tmp/")}
    mine, theirs = set(one[4]) - bound, set(two[4]) - bound
    assert "home" in mine and len(mine) == len(theirs) == 2 and mine != theirs


STORE_KEY = r'''
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
calls = {"x86_64": (248, 250), "aarch64": (217, 219)}[os.uname().machine]
key = libc.syscall(calls[0], b"user", b"note", b"42", 2, ctypes.c_int(-4))
session = libc.syscall(calls[1], 0, ctypes.c_int(-5), 1)  # KEYCTL_GET_KEYRING_ID, create
answer_q1 = [key, session]
'''


def test_no_kernel_key_state_is_left_by_a_run_even_without_the_filter(monkeypatch):
    """As root: with the seccomp filter taken away, the student's code stores a key (and so
    makes its user's keyrings); after the run /proc/key-users has no entry for the run's uid
    (course.sandbox.clear_keys). Planted: without clear_keys the entry stays (then removed)."""
    import course.sandbox as SB

    if os.geteuid() != 0 or SB._SECCOMP_ARCH.get(os.uname().machine) is None:
        pytest.skip("needs root (a throw-away uid) on x86-64 or arm64")
    monkeypatch.setattr(SB, "seccomp_program", lambda: None)
    result, value = _run(STORE_KEY)
    assert value and value[0] > 0, result.events          # the key was stored
    assert result.keys_left == 0 and result.uid not in SB.key_users()
    monkeypatch.setattr(SB, "clear_keys", lambda uid, wait=3.0: 0)
    result, value = _run(STORE_KEY)
    try:
        assert value and value[0] > 0 and SB.key_users().get(result.uid, 0) >= 1
    finally:
        monkeypatch.undo()
        assert SB.clear_keys(result.uid) == 0


def test_the_whole_sandbox_has_one_memory_bound():
    """Four processes of 300 MB each (touched) under a 512 MiB bound for the whole sandbox:
    not all four live (a memory cgroup); planted: under 4 GiB they all do. Without a cgroup
    the run says which count x per-process bound applies instead."""
    code = r'''
import os, time
pids = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = b"x" * (300 << 20)
        time.sleep(3)
        os._exit(0)
    pids.append(pid)
answer_q1 = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]
'''
    tight, statuses = _run(code, Limits(cell_seconds=60, sandbox_memory_bytes=512 << 20))
    if "cgroup" not in tight.memory:
        assert "processes x" in tight.memory
        pytest.skip(f"no memory cgroup here: {tight.memory}")
    assert statuses is None or statuses != [0, 0, 0, 0], tight.events
    roomy, statuses = _run(code, Limits(cell_seconds=60, sandbox_memory_bytes=4 << 30))
    assert statuses == [0, 0, 0, 0], roomy.events


def test_a_machine_that_refuses_the_inner_bubblewrap_still_grades_and_says_so(tmp_path):
    """Planted: a bubblewrap that refuses --disable-userns (as where unprivileged user
    namespaces are off): the probe falls back to the sandbox without the inner one, and says
    that user namespaces are not disabled."""
    if os.geteuid() != 0:
        pytest.skip("the inner bubblewrap is used as root only")
    import shutil

    real = shutil.which("bwrap") or "/usr/bin/bwrap"
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\nfor a in \"$@\"; do [ \"$a\" = --disable-userns ] && "
                    "{ echo 'bwrap: no user namespaces here' >&2; exit 1; }; done\n"
                    f"exec {real} \"$@\"\n")
    fake.chmod(0o755)
    sandbox = Sandbox(bwrap=str(fake))
    sandbox.probe()
    assert not sandbox.disable_userns and "NOT disabled" in sandbox.userns
    assert "no user namespaces here" in sandbox.userns
    assert Sandbox().disable_userns  # the default


def _cells_said(result) -> dict:
    return {e["index"]: e for e in result.events if e.get("event") == "cell"}


def test_a_cell_whose_text_no_encoder_takes_is_reported_as_raised_with_the_text_escaped():
    """Issue #38: an exception text, an output or a result holding a lone surrogate used to be
    lost in the kernel (its packer raised), so the cell looked "ok" and the row said nothing.
    The kernel's packer writes such a character as the text \\udXXX: the error arrives, and
    the report names it. Planted (the second run): the student puts jupyter_client's packer
    back and fails the cell's reply: no error and no reply arrive, and the cell is still
    reported as raised, never ok."""
    from course import grade as G

    cells = ['raise ValueError("bad " + chr(0xd800) + chr(0xdc80))',
             'print("out " + chr(0xdc80)); chr(0xd801)',
             'from IPython.display import HTML, display\ndisplay(HTML("<b>" + chr(0xd802)))',
             "answer_q1 = 1"]
    limits = Limits(cell_seconds=30)
    result = Sandbox().run({"cells": [{"index": k, "source": c} for k, c in enumerate(cells, 1)],
                            "answers": ["answer_q1"], "notebook_name": "x.ipynb",
                            "notebook_text": "{}"}, limits)
    said = _cells_said(result)
    assert said[1]["status"] == "error" and said[1]["evalue"] == "bad \\ud800\\udc80", said
    assert [said[k]["status"] for k in (2, 3, 4)] == ["ok", "ok", "ok"], said
    _, problems = G.describe_run(result, [("code", c, None) for c in cells], limits)
    assert problems == ["cell 1 raised ValueError: bad \\ud800\\udc80"], problems

    unsent = ['''
from jupyter_client.session import json_packer
session = get_ipython().kernel.session
def pack(obj):
    if isinstance(obj, dict) and obj.get("status") == "ok" and "execution_count" in obj:
        raise ValueError("no reply")
    return json_packer(obj)
session.pack = pack''', 'raise ValueError("bad " + chr(0xd800))', "answer_q1 = 1"]
    result = Sandbox().run({"cells": [{"index": k, "source": c} for k, c in enumerate(unsent, 1)],
                            "answers": ["answer_q1"], "notebook_name": "x.ipynb",
                            "notebook_text": "{}"}, limits)
    said = _cells_said(result)
    assert [said[k]["status"] for k in (1, 2, 3)] == ["error"] * 3, said
    _, problems = G.describe_run(result, [("code", c, None) for c in unsent], limits)
    assert len(problems) == 3 and all(p.startswith(f"cell {k} raised ") for k, p in
                                      enumerate(problems, 1)), problems
    assert "sent no reply" in problems[0] and "sent no error" in problems[1], problems
