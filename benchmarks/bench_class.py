"""A class on one JupyterHub: N simulated students arrive, run a notebook and drag a slider.

    python benchmarks/bench_class.py --hub-config deploy/jupyterhub_config.py --n 1 10 20 40

For each N a fresh trial hub (the given configuration: dummy authenticator, local-process
spawner, 127.0.0.1) is started in its own process group on a free port, with its users' homes in a
temporary directory. The N students (benchmarks/class_bench/student.py: JupyterLab's messages
without a browser) arrive spread over ``--arrive-within`` seconds; each logs in, starts a server,
opens JupyterLab, creates a notebook session, connects the kernel websocket through the proxy,
runs every code cell of ``--notebook`` and answers the widgets as the front end does. When all
are ready they drag a slider together at lecture pace (``--moves`` moves, one every
``--interval`` s each), and the time from each move to the frame showing it is recorded. Then they
close their tabs and the idle culler (timeout ``--cull-timeout``) is timed until it has stopped
every server. The hub is stopped by PID; a ``ps`` check confirms nothing is left, and the whole
run is bounded by ``--max-seconds``.

``--memory`` instead measures one student at a time on each notebook given: PSS of server +
kernel after run-all.

Results: a Markdown section per run appended to ``--out`` and the raw numbers to ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import aiohttp

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from class_bench import procs  # noqa: E402
from class_bench.protocol import summary  # noqa: E402
from class_bench.report import machine, report_class, report_memory  # noqa: E402
from class_bench.student import Student, describe_exc, slider_values  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
from hub_testing import free_port_block  # noqa: E402  (ports below the ephemeral range)

ROOT = pathlib.Path(__file__).resolve().parents[1]
ACTIVITY_S = 10
CULL_ENV = ("GENVIZ_CULL_TIMEOUT", "HUB_CULL_TIMEOUT", "GENVIZ_HUB_CULL_TIMEOUT",
            "CULL_TIMEOUT", "GENVIZ_IDLE_TIMEOUT")


class Hub:
    """A trial hub in its own process group, with homes in a temporary directory."""

    def __init__(self, config: pathlib.Path, *, cull_timeout: int, workdir: pathlib.Path,
                 log=print, server_env=None):
        self.config = config
        self.port = free_port_block(4)  # + the poll service at HUB_PORT + 3
        self.url = f"http://127.0.0.1:{self.port}"
        self.workdir = workdir
        self.home = workdir / "homes"
        self.home.mkdir(parents=True, exist_ok=True)
        self.log = log
        self.cull_timeout = cull_timeout
        self.proc = None
        self.seen: set = set()
        self.server_env = dict(server_env or {})

    def env(self) -> dict:
        env = dict(os.environ)
        env.update({"HUB_PORT": str(self.port), "GENVIZ_HUB_HOME": str(self.home),
                    "GENVIZ_HUB_STATE": str(self.workdir / "state"),
                    "GENVIZ_HUB_MAX_SERVERS": "0",  # the benchmark measures, never refuses
                    "PYTHONPATH": str(ROOT)})
        env.pop("MPLBACKEND", None)
        # a fresh hub's rebuild service would build the whole course's precomputed states in
        # the background while the class is measured: off unless GENVIZ_REBUILD_REPO is set
        # (give the kernels built states with --server-env GENVIZ_STATES_PATH=DIR)
        env.setdefault("GENVIZ_REBUILD_REPO", "")
        for name in CULL_ENV:
            env[name] = str(self.cull_timeout)
        venv_bin = str(pathlib.Path(sys.executable).parent)
        env["PATH"] = venv_bin + os.pathsep + env.get("PATH", "")
        return env

    def wrapper_config(self) -> pathlib.Path:
        """The hub configuration as given, plus (only when the culler is timed) activity
        reported every ``ACTIVITY_S`` s instead of JupyterHub's 300 s: with the default a
        short cull timeout would stop servers in use (their activity not yet reported)."""
        path = self.workdir / "bench_hub_config.py"
        lines = ["c = get_config()  # noqa", f"load_subconfig({str(self.config)!r})"]
        if self.cull_timeout < 3600:
            lines += [f"c.JupyterHub.last_activity_interval = {ACTIVITY_S}",
                      "c.Spawner.environment = dict(c.Spawner.environment or {}, "
                      f"JUPYTERHUB_ACTIVITY_INTERVAL='{ACTIVITY_S}')"]
        if self.server_env:  # --server-env: an A/B switch for the single-user servers
            lines.append("c.Spawner.environment = dict(c.Spawner.environment or {}, "
                         f"**{self.server_env!r})")
        path.write_text("\n".join(lines) + "\n")
        return path

    async def start(self, timeout: float = 90) -> None:
        cmd = [str(pathlib.Path(sys.executable).parent / "jupyterhub"), "-f",
               str(self.wrapper_config())]
        self.proc = procs.start_group(cmd, env=self.env(), cwd=self.workdir,
                                      log_path=self.workdir / "hub.log")
        t0 = time.monotonic()
        async with aiohttp.ClientSession() as http:
            while time.monotonic() - t0 < timeout:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the hub exited with {self.proc.returncode}: "
                                       f"{self.tail()}")
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with http.get(f"{self.url}/hub/api/") as r:
                        if r.status == 200:
                            self.remember()
                            return
                await asyncio.sleep(0.5)
        raise RuntimeError(f"the hub did not answer within {timeout:.0f} s: {self.tail()}")

    def tail(self, n: int = 8) -> str:
        try:
            lines = (self.workdir / "hub.log").read_text(errors="replace").splitlines()
        except OSError:
            return ""
        return " | ".join(lines[-n:])

    def remember(self) -> dict:
        if self.proc is None:
            return {}
        who = procs.classify(self.proc.pid)
        self.seen |= set(procs.descendants(self.proc.pid)) | {self.proc.pid}
        return who

    def stop(self) -> list:
        """Stop everything by PID; return what still runs (should be nothing)."""
        if self.proc is None:
            return []
        self.remember()
        me = os.getpid()
        self.seen |= set(procs.working_in(self.workdir)) - {me}
        procs.stop_tree(self.proc, known=self.seen)
        time.sleep(0.5)
        strays = set(procs.working_in(self.workdir)) - {me}
        for pid in strays:  # anything that escaped both the group and the tree
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2 if strays else 0)
        return procs.leftovers(self.seen | strays)


def cpu_snapshot(who: dict) -> dict:
    snap = {"hub": procs.cpu_seconds(who["hub"]) or 0.0,
            "proxy": sum(procs.cpu_seconds(p) or 0.0 for p in who["proxy"]),
            "server": {u: procs.cpu_seconds(p) or 0.0 for u, p in who["servers"].items()},
            "kernel": {u: sum(procs.cpu_seconds(p) or 0.0 for p in ks)
                       for u, ks in who["kernels"].items()}}
    t = os.times()
    snap["client"] = t.user + t.system
    return snap


def pss_per_student(who: dict) -> dict:
    out = {}
    for u, pid in who["servers"].items():
        server = procs.pss_kb(pid) or 0
        kernel = sum(procs.pss_kb(k) or 0 for k in who["kernels"].get(u, []))
        out[u] = {"server_mb": server / 1024, "kernel_mb": kernel / 1024,
                  "total_mb": (server + kernel) / 1024}
    return out


async def student_life(st: Student, delay: float, ready: asyncio.Event, go: asyncio.Event,
                       args) -> None:
    await asyncio.sleep(delay)
    st.t["arrived"] = time.monotonic()
    stage = "login"
    try:
        await st.login()
        stage = "spawn"
        await st.spawn(args.spawn_timeout)
        stage = "kernel"
        await st.open_lab()
        await st.start_kernel(args.kernel_timeout)
        stage = "run all"
        await st.run_all(args.run_timeout)
        stage = "drag"
        if args.moves:
            state = st.pick_slider()
            await st.wait_first_frame(30)
            st.values = slider_values(state, args.moves)
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its reason
        if not hasattr(exc, "stage"):
            with contextlib.suppress(AttributeError):
                exc.stage = stage
        st.failure = st.failure or exc
        st.log(f"  {st.name}: FAILED {describe_exc(exc)}")
    finally:
        ready.set()
    if st.failure is not None or not args.moves:
        return
    await go.wait()
    try:
        await st.drag(st.values, args.interval)
    except Exception as exc:  # noqa: BLE001
        st.failure = exc
        st.log(f"  {st.name}: drag FAILED {describe_exc(exc)}")


async def run_class(n: int, args, workdir: pathlib.Path, log) -> dict:
    res = {"n": n, "notebook": args.notebook, "arrive_within_s": args.arrive_within,
           "moves": args.moves, "interval_s": args.interval, "load_before": procs.loadavg(),
           "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    timed_cull = bool(args.cull_timeout and args.measure_cull and n == args.cull_n)
    hub = Hub(args.hub_config, cull_timeout=args.cull_timeout if timed_cull else 3600,
              workdir=workdir, log=log, server_env=dict(
                  kv.split("=", 1) for kv in args.server_env))
    res["busy_before"] = procs.busiest(exclude=set())
    sessions, tasks = [], []
    try:
        await hub.start()
        log(f"N={n}: hub on {hub.url} (pid {hub.proc.pid})")
        students = []
        for i in range(n):
            http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                         connector=aiohttp.TCPConnector(limit=0),
                                         timeout=aiohttp.ClientTimeout(total=None,
                                                                       sock_connect=30))
            sessions.append(http)
            st = Student(hub.url, f"student{i + 1:03d}",
                         f"{args.notebook_dir.strip('/')}/{args.notebook}".lstrip("/"),
                         slider=args.slider, log=log)
            st.http = http
            students.append(st)
        ready = [asyncio.Event() for _ in students]
        go = asyncio.Event()
        spread = args.arrive_within
        tasks = [asyncio.create_task(student_life(st, spread * i / max(n, 1), ready[i], go, args))
                 for i, st in enumerate(students)]
        for ev in ready:
            await ev.wait()
        ok = [s for s in students if s.failure is None]
        log(f"  {len(ok)}/{n} ready; spawn p95 "
            f"{summary([s.t['spawn'] for s in students if 'spawn' in s.t])['p95']:.1f} s")
        who = hub.remember()
        res["pss_ready"] = pss_per_student(who)
        ready_cpu = cpu_snapshot(who)  # a server's start + JupyterLab + a kernel + run-all
        res["cpu_to_ready_s"] = {"server": summary(ready_cpu["server"].values()),
                                 "kernel": summary(ready_cpu["kernel"].values())}
        res["pss_hub_proxy_mb"] = ((procs.pss_kb(who["hub"]) or 0)
                                   + sum(procs.pss_kb(p) or 0 for p in who["proxy"])
                                   + sum(procs.pss_kb(p) or 0 for p in who["culler"])) / 1024
        if args.moves and ok:
            await asyncio.sleep(2.0)  # let the last frames of the start settle
            before = cpu_snapshot(who)
            spies = start_profilers(who, args, log)
            t0 = time.monotonic()
            go.set()
            await asyncio.gather(*tasks)
            stop_profilers(spies, log)
            res["drag_s"] = time.monotonic() - t0
            after = cpu_snapshot(who)
            res["load_during"] = procs.loadavg()
            res["cpu_s"] = {
                "hub": after["hub"] - before["hub"], "proxy": after["proxy"] - before["proxy"],
                "server": sum(after["server"].get(u, 0) - v for u, v in before["server"].items()),
                "kernel": sum(after["kernel"].get(u, 0) - v for u, v in before["kernel"].items()),
                "client": after["client"] - before["client"]}
            res["pss_dragged"] = pss_per_student(who)
            res["cpu_per_user_s"] = {
                u: {"server": after["server"].get(u, 0) - before["server"][u],
                    "kernel": after["kernel"].get(u, 0) - before["kernel"].get(u, 0)}
                for u in before["server"]}
        else:
            go.set()
            await asyncio.gather(*tasks)
        drag_students = [s for s in students if s.failure is None]
        lat = [v for s in drag_students for v in s.latency.latency.values()]
        res["moves_total"] = sum(len(s.latency.moves) for s in drag_students)
        res["unanswered_moves"] = sum(s.latency.unanswered() for s in drag_students)
        res["frames_total"] = sum(fe.frames for s in drag_students for fe in s.explorers.values())
        grid = [s.grid_messages for s in drag_students if s.grid_messages is not None]
        res["grid_drag_messages"] = summary(grid)
        res["updates_sent"] = sum(len(s.latency._carried) for s in drag_students)
        res["slider_to_frame_ms"] = summary([v * 1000 for v in lat])
        for key in ("spawn", "kernel", "run_all"):
            res[f"{key}_s"] = summary([s.t[key] for s in students if key in s.t])
        res["failures"] = [{"student": s.name, "reason": describe_exc(s.failure)}
                           for s in students if s.failure is not None]
        res["messages_in"] = sum(s.messages_in for s in students)
        kinds: dict = {}
        for s in drag_students:
            for k, v in s.drag_kinds.items():
                kinds[k] = kinds.get(k, 0) + v
        res["drag_message_kinds"] = kinds
        # -- the idle culler: every student closes the tab; time until the servers are gone
        for s in students:
            with contextlib.suppress(Exception):
                await s.close_tab()
        if timed_cull:
            res["cull"] = await measure_cull(students, hub, args, log)
    finally:
        for t in tasks:
            t.cancel()
        for http in sessions:
            with contextlib.suppress(Exception):
                await http.close()
        left = hub.stop()
        res["leftover_processes"] = left
        if res.get("failures") or "failures" not in res:  # keep the hub's log to diagnose
            kept = pathlib.Path(tempfile.gettempdir()) / (
                f"bench-class-hub-n{n}-{datetime.datetime.now():%H%M%S}.log")
            with contextlib.suppress(OSError):
                shutil.copy(workdir / "hub.log", kept)
                res["hub_log"] = str(kept)
                log(f"  hub log kept: {kept}")
        log(f"  hub stopped; leftover processes: {left or 'none'}")
    return res


def start_profilers(who: dict, args, log) -> list:
    """py-spy (sampling, from outside) on the first student's server and kernel and on the hub
    during the drag; collapsed stacks go to ``--profile DIR``."""
    if not args.profile:
        return []
    spy = shutil.which("py-spy") or str(pathlib.Path(sys.executable).parent / "py-spy")
    args.profile.mkdir(parents=True, exist_ok=True)
    user = sorted(who["servers"])[0]
    targets = {"hub": who["hub"], "server": who["servers"][user],
               "kernel": who["kernels"][user][0]}
    out = []
    for name, pid in targets.items():
        path = args.profile / f"n{len(who['servers'])}-{name}.txt"
        out.append(subprocess.Popen([spy, "record", "--pid", str(pid), "--format", "raw",
                                     "--rate", "250", "--nonblocking", "-o", str(path)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    start_new_session=True))
    log(f"  py-spy on {', '.join(f'{k} {v}' for k, v in targets.items())}")
    return out


def stop_profilers(spies, log) -> None:
    for p in spies:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGINT)
    for p in spies:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


async def measure_cull(students, hub, args, log) -> dict:
    t_idle = max(s.last_activity or 0 for s in students)
    limit = args.cull_timeout + args.cull_wait
    running = {s.name: s for s in students if s.t.get("spawn") is not None}
    gone = {}
    t0 = time.time()
    while running and time.time() - t0 < limit:
        await asyncio.sleep(2.0)
        for name, s in list(running.items()):
            with contextlib.suppress(Exception):
                if not await s.server_running():
                    gone[name] = time.time() - t_idle
                    running.pop(name)
    log(f"  culler: {len(gone)} stopped, {len(running)} still running after "
        f"{time.time() - t_idle:.0f} s idle")
    return {"timeout_s": args.cull_timeout, "stopped_after_s": summary(gone.values()),
            "still_running": sorted(running)}


async def run_memory(args, workdir: pathlib.Path, log) -> list:
    rows = []
    for nb in args.notebooks:
        a = argparse.Namespace(**{**vars(args), "notebook": nb, "moves": 0, "measure_cull": False})
        sub = workdir / f"mem-{nb.split('_')[0]}"
        sub.mkdir()
        r = await run_class(1, a, sub, log)
        pss = list(r.get("pss_ready", {}).values())
        rows.append({"notebook": nb, "run_all_s": r["run_all_s"], "failures": r["failures"],
                     "pss": pss[0] if pss else None, "leftover": r["leftover_processes"]})
        log(f"  {nb}: {rows[-1]['pss']}")
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hub-config", type=pathlib.Path,
                    default=ROOT / "deploy" / "jupyterhub_config.py")
    ap.add_argument("--n", type=int, nargs="+", default=[1, 10, 20, 40])
    ap.add_argument("--notebook", default="00_start_here.ipynb")
    ap.add_argument("--notebook-dir", default="genviz/notebooks",
                    help="where the hub configuration puts the course in a user's home")
    ap.add_argument("--slider", default=None, help="description of the slider to drag "
                    "(default: the first slider of the notebook)")
    ap.add_argument("--arrive-within", type=float, default=10.0)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--interval", type=float, default=0.15)
    ap.add_argument("--spawn-timeout", type=float, default=300)
    ap.add_argument("--kernel-timeout", type=float, default=120)
    ap.add_argument("--run-timeout", type=float, default=300)
    ap.add_argument("--cull-timeout", type=int, default=120,
                    help="the idle culler's timeout in the run that times it (--cull-n); the "
                         "other runs keep the configuration's default")
    ap.add_argument("--cull-n", type=int, default=10, help="time the culler in the run of "
                    "this N (activity then reported every 10 s)")
    ap.add_argument("--cull-wait", type=int, default=90,
                    help="how long past the cull timeout to wait for the culler")
    ap.add_argument("--no-cull", dest="measure_cull", action="store_false")
    ap.add_argument("--memory", nargs="*", metavar="NOTEBOOK", default=None,
                    help="measure PSS one student at a time on these notebooks (no names: "
                         "01-09)")
    ap.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                    help="extra environment for the single-user servers and their kernels "
                         "(A/B runs, e.g. JUPYTER_WIDGETS_ECHO=1)")
    ap.add_argument("--max-seconds", type=float, default=1800)
    ap.add_argument("--out", type=pathlib.Path, default=None, help="append Markdown here")
    ap.add_argument("--json", type=pathlib.Path, default=None, help="append JSON lines here")
    ap.add_argument("--profile", type=pathlib.Path, default=None,
                    help="py-spy the first student's server and kernel and the hub during the "
                         "drag; collapsed stacks into this directory")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (hub.log)")
    ap.add_argument("--label", default="", help="a note on this run (what changed)")
    args = ap.parse_args(argv)
    args.hub_config = args.hub_config.resolve()
    if not args.hub_config.is_file():
        ap.error(f"no hub configuration at {args.hub_config} (--hub-config)")
    if args.memory is not None:
        args.notebooks = args.memory or sorted(p.name for p in (ROOT / "notebooks").glob("0[1-9]_*.ipynb"))

    def log(msg):
        print(msg, flush=True)

    workdir = pathlib.Path(tempfile.mkdtemp(prefix="gvbench-", dir="/tmp"))
    results = {"label": args.label, "machine": machine(), "runs": [], "memory": None,
               "server_env": args.server_env}

    async def everything():
        if args.memory is not None:
            results["memory"] = await run_memory(args, workdir, log)
            return
        for n in args.n:
            sub = workdir / f"n{n}"
            sub.mkdir()
            results["runs"].append(await run_class(n, args, sub, log))
            log(report_class(results["runs"][-1]))

    async def bounded():
        task = asyncio.create_task(everything())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        try:
            async with asyncio.timeout(args.max_seconds):
                await task
        except (TimeoutError, asyncio.CancelledError):
            results["stopped_early"] = (f"stopped after --max-seconds {args.max_seconds:g}"
                                        if not task.cancelled() or True else "")
            log(f"stopped early ({args.max_seconds:g} s budget or a signal); hubs stopped")

    try:
        asyncio.run(bounded())
    finally:
        if args.keep:
            log(f"work directory kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    head = (f"## Run of {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"
            f"{f' — {args.label}' if args.label else ''}\n\n{results['machine']}; "
            f"{'server environment ' + ' '.join(args.server_env) + '; ' if args.server_env else ''}hub "
            f"configuration {args.hub_config.relative_to(ROOT) if args.hub_config.is_relative_to(ROOT) else args.hub_config}.\n\n")
    body = "".join(report_class(r) + "\n" for r in results["runs"])
    if results["memory"] is not None:
        body += report_memory(results["memory"])
    if results.get("stopped_early"):
        body += f"\n**{results['stopped_early']}.**\n"
    if args.out:
        with open(args.out, "a") as f:
            f.write(head + body + "\n")
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps(results, default=str) + "\n")
    return 0 if not results.get("stopped_early") else 2


if __name__ == "__main__":
    sys.exit(main())
