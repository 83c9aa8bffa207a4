"""The trial hub stops completely (issue #29, item 5): ``make hub`` runs ``deploy/run_hub.py``;
Ctrl-C must leave nothing running within 10 s -- hub, proxy, idle culler, services, every
student's server and kernel -- and a runner killed with SIGKILL must leave nothing behind after
the next start, which says what it cleaned up.

Each scenario has three students whose servers are started through the hub's REST API (as a
lecturer's pre-start script does), each with a running kernel. Every PID is collected from
/proc independently of the runner's own bookkeeping (below the runner, carrying the hub's
marker, or working in a student's home). About 1-2 minutes on 2 cores.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import time

import psutil
import pytest

from hub_testing import RUN_HUB, TrialHub, alive, cleanup, wait_gone

_spec = importlib.util.spec_from_file_location("run_hub_lifecycle", RUN_HUB)
run_hub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_hub)

pytestmark = pytest.mark.slow

STUDENTS = ["ada", "ben", "chloe"]


def _class(hub: TrialHub) -> set[int]:
    hub.start_servers(STUDENTS)
    for name in STUDENTS:
        hub.start_kernel(name, hub.user_token(name))
    time.sleep(1.0)  # let the runner write its state file with the kernels
    return hub.remember()


def _roles(pids) -> list[str]:
    out = []
    for pid in pids:
        try:
            cmd = " ".join(psutil.Process(pid).cmdline())
        except psutil.Error:
            continue
        for key, role in [("jupyterhub-singleuser", "server"), ("ipykernel", "kernel"),
                          ("configurable-http-proxy", "proxy"), ("idle_culler", "culler"),
                          ("genviz_poll", "poll"), ("run_hub.py", "runner"),
                          ("-m jupyterhub", "hub")]:
            if key in cmd:
                out.append(role)
                break
        else:
            out.append("other")
    return sorted(out)


@pytest.fixture(scope="module")
def killed_then_restarted():
    """A hub with a class, its runner killed with SIGKILL, then a new start on the same state."""
    first = TrialHub(env={})
    second = None
    try:
        first.start()
        before = _class(first)
        roles = _roles(before)
        os.kill(first.proc.pid, signal.SIGKILL)  # the runner only: `kill -9 <make hub's python>`
        first.proc.wait(timeout=10)
        time.sleep(0.5)
        orphans = {p for p in before if alive(p)}
        second = TrialHub(first.workdir, log_name="hub2.log")
        second.token, second.port, second.base = first.token, first.port, first.base
        output = second.start()
        yield {"first": first, "second": second, "before": before, "roles": roles,
               "orphans": orphans, "output": output}
    finally:
        cleanup(second, first)


def test_a_killed_runner_leaves_its_hub_running_until_the_next_start_cleans_it_up(
        killed_then_restarted):
    r = killed_then_restarted
    # what the first hub ran: the hub, proxy, culler, services, 3 servers, 3 kernels
    assert r["roles"].count("server") == 3 and r["roles"].count("kernel") >= 3
    assert {"hub", "proxy", "culler"} <= set(r["roles"])
    # killing the runner alone stops nothing (the hub is in its own session) ...
    assert len(r["orphans"]) >= 8, _roles(r["orphans"])
    # ... and the next start stops all of it, by PID, and says what it was
    assert not [p for p in r["orphans"] if alive(p)], _roles(p for p in r["orphans"] if alive(p))
    said = re.search(r"A trial hub was not stopped cleanly last time; stopping what it left "
                     r"running: (.*) \(PIDs ([0-9, ]+)\)\.", r["output"])
    assert said, r["output"][-2000:]
    assert "the hub" in said.group(1) and "the proxy" in said.group(1)
    assert "the idle culler" in said.group(1)
    assert "3 servers (ada, ben, chloe)" in said.group(1) and "3 kernels" in said.group(1)
    assert {int(p) for p in said.group(2).split(", ")} == r["orphans"]
    # the new hub runs (it could take the ports the old proxy and hub held)
    assert r["second"].api("/")["version"]


def test_ctrl_c_stops_every_process_of_the_hub_within_ten_seconds(killed_then_restarted):
    hub = killed_then_restarted["second"]
    pids = _class(hub)
    roles = _roles(pids)
    assert roles.count("server") == 3 and roles.count("kernel") >= 3 and "proxy" in roles
    hub.signal(signal.SIGINT)  # Ctrl-C in the terminal of `make hub`
    took, left = wait_gone(pids | hub.processes(), timeout=30)
    print(f"\nCtrl-C -> every PID gone in {took:.1f} s ({len(pids)} processes: {roles})")
    assert not left, f"still running after 30 s: {_roles(left)}"
    assert took <= 10, f"the hub took {took:.1f} s to stop (issue #29: at most 10 s)"
    assert hub.proc.wait(timeout=5) == 0
    assert re.search(r"Trial hub stopped in [0-9.]+ s; nothing of it is left running",
                     hub.output())
    assert not (hub.state / "trial_hub.json").exists()
    assert not hub.processes()


def test_the_state_file_records_pid_start_time_and_command_line(tmp_path):
    """What a later start trusts: a PID whose start time or command line differs is someone
    else's process (the PID was reused) and is never touched."""
    me = psutil.Process()
    record = run_hub._record(me)
    assert record["pid"] == me.pid and record["cmdline"] == me.cmdline()
    assert run_hub.same_process(record).pid == me.pid
    # a planted reuse: same PID, another start time or another command line -> not ours
    assert run_hub.same_process({**record, "create_time": record["create_time"] - 100}) is None
    assert run_hub.same_process({**record, "cmdline": ["python", "-m", "jupyterhub"]}) is None
    assert run_hub.same_process({"pid": 2 ** 22 + 7, "create_time": 0, "cmdline": []}) is None
    # leftovers() of a state naming this test process with a wrong start time finds nothing
    state = {"processes": [{**record, "create_time": 1.0}]}
    assert run_hub.leftovers(state, mark=str(tmp_path / "nobody")) == []
    path = tmp_path / "trial_hub.json"
    run_hub.write_state(path, {"processes": [record]})
    assert json.loads(path.read_text())["processes"][0]["pid"] == me.pid
    assert run_hub.read_state(tmp_path / "missing.json") == {}
    (tmp_path / "bad.json").write_text("{not json")
    assert run_hub.read_state(tmp_path / "bad.json") == {}


def test_summary_names_what_was_stopped():
    roles = ["hub", "proxy", "culler", "poll", "server:ada", "server:ben", "kernel:ada",
             "kernel:ben", "kernel:ben", "process"]
    assert run_hub.summary(roles) == ("the hub, the proxy, the idle culler, the poll service, "
                                      "2 servers (ada, ben), 3 kernels, 1 other process")
    assert run_hub.summary(["server:ada"]) == "1 server (ada)"
    assert run_hub.role(["node", "/usr/bin/configurable-http-proxy", "--ip", "127.0.0.1"]) == "proxy"
    assert run_hub.role(["/v/bin/python", "/v/bin/jupyterhub-singleuser"],
                        {"JUPYTERHUB_USER": "ada"}) == "server:ada"
    assert run_hub.role(["/v/bin/python", "-m", "ipykernel_launcher", "-f", "k.json"]) == "kernel"
    assert run_hub.role(["/v/bin/python", "-m", "jupyterhub", "-f", "c.py"]) == "hub"
    assert run_hub.role(["/v/bin/python", "-m", "jupyterhub_idle_culler"]) == "culler"
    assert run_hub.role(["bash"]) == "process"


def test_a_second_runner_on_the_same_state_refuses_to_start(tmp_path):
    """Two `make hub` with one state directory: the second names the first and stops; it never
    kills a live hub's processes."""
    me = run_hub._record(psutil.Process())
    path = tmp_path / "trial_hub.json"
    run_hub.write_state(path, {"runner": me, "processes": [me]})
    with pytest.raises(RuntimeError, match=f"already running .*PID {me['pid']}"):
        run_hub.clean_previous(path, mark=str(tmp_path))
    assert alive(me["pid"]) and path.exists()
    # a state file whose runner is gone (PID reused by this process, other start time) is stale
    run_hub.write_state(path, {"runner": {**me, "create_time": 1.0}, "processes": []})
    assert run_hub.clean_previous(path, mark=str(tmp_path)) == [] and not path.exists()
