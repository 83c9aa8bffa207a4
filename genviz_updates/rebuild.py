"""Rebuild the explorers' precomputed states on the hub after a course update (issue #39, item 5).

A hub's kernels run with ``GENVIZ_STATES=prebuilt``: they never build a grid. A grid's key
covers the code its explorer factory runs (:func:`genviz.widgets._keys.code_fingerprint`), so a
course update that changes a study's maths leaves the image's grids of the explorers using it
unmatched: their sliders fall back to the kernel. This module rebuilds exactly those grids,
once per course (not per student), in the background:

- ``watch`` (a hub-managed service, ``genviz-rebuild``; Z2JH: a sidecar of the hub pod): every
  ``--interval`` seconds it fetches the course's branch into ``<states>/course.git``. At its
  **first start** (each start of the service: the hub's) it triggers a *first-start* build
  of the commit it sees: the job builds every grid that is missing or whose key does not
  match that code, or nothing when the states are current (below); a later commit it has
  not built yet :func:`trigger` s a build. It prints a line in the hub's log when a build
  starts and when it ends (what was rebuilt and why, or why it failed).
- **Current states** are known without running a notebook: a build (``make states``, the
  image's ``postBuild``, or this job) writes a manifest beside its grids, the keys the
  course's explorers need under the course's fingerprint
  (:func:`genviz.widgets.states.course_fingerprint`: genviz's code, the notebooks' code
  cells, the versions that draw a state). A first-start job that finds the manifest of its
  commit's fingerprint, with every grid it lists, builds nothing (state ``current``);
  otherwise it runs the notebooks as after an update and says why ("no precomputed states
  were built for this code", "3 of the 31 grids ... are missing").
- :func:`trigger`: under a lock file (``<states>/rebuild.lock``, ``flock``) it starts one
  build unless one is running (its PID alive and still this module's job) or this commit was
  built already; any number of concurrent triggers start one build. The build is a detached
  process, ``nice`` 10, bounded in time (``--timeout``, whole run), its PID, start time,
  commit and state in ``<states>/rebuild.json``.
- ``run`` (the job): exports the commit (``git archive``), executes the course's notebooks
  with that code (``PYTHONPATH``, a plain python3 kernel) and ``GENVIZ_STATES=build``, the
  prebuilt directories on ``GENVIZ_STATES_PATH`` and ``<states>/grids`` as the cache: a grid
  whose key is already stored is kept, a missing one is built into ``<states>/grids``, where
  the kernels find it (their ``GENVIZ_STATES_PATH``). Until then a slider uses the kernel.
  The status lists every grid rebuilt (key, explorer factory, notebook), how many were kept,
  why the build ran (``reason``: "course update", "first start: ..."), and every notebook
  that failed or timed out (state ``failed``: never silent). A build with no failure writes
  the commit's manifest into ``<states>/grids``. A build whose
  process ended without writing its report is reported failed by whoever reads the status.
- ``python -m genviz_updates status`` (no notebook) prints the status for the lecturer
  (:func:`describe`).

Grids of earlier commits stay: a student who has not clicked yet still runs that code.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

__all__ = ["trigger", "run_job", "read_status", "describe", "watch_once", "grids_dir",
           "STATUS", "main"]

STATUS = "rebuild.json"
LOCK = "rebuild.lock"
JOB_MARK = "genviz_updates.rebuild"
#: a kernel spec with nothing of the hub's (deploy/singleuser's sets GENVIZ_STATES=prebuilt)
KERNEL = {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
          "display_name": "Python 3 (genviz rebuild)", "language": "python"}


def grids_dir(states) -> Path:
    """Where rebuilt grids go: the directory the hub's kernels have on ``GENVIZ_STATES_PATH``."""
    return Path(states) / "grids"


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _states(states) -> Path:
    if not str(states).strip():
        raise ValueError("states must name a directory, got an empty path")
    path = Path(states)
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)  # the grids are read by every student's kernel; written by this user only
    grids_dir(path).mkdir(exist_ok=True)
    return path


def read_status(states) -> dict:
    """The status (``{}`` before the first build); a damaged file reads as ``{"state":
    "unknown", ...}``."""
    try:
        data = json.loads((Path(states) / STATUS).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {"state": "unknown", "error": "not an object"}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        return {"state": "unknown", "error": f"unreadable status file: {exc}"}


def _write_status(states, data: dict) -> None:
    path = Path(states) / STATUS
    tmp = path.with_name(f".{STATUS}.{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    tmp.chmod(0o644)
    os.replace(tmp, path)


@contextlib.contextmanager
def _locked(states, name: str = LOCK):
    with open(Path(states) / name, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _job_alive(pid) -> bool:
    """Whether ``pid`` is a live process of this module's job (not a reused PID)."""
    try:
        cmdline = Path(f"/proc/{int(pid)}/cmdline").read_bytes().replace(b"\0", b" ")
        stat = Path(f"/proc/{int(pid)}/stat").read_text()
    except (OSError, ValueError, TypeError):
        return False
    return JOB_MARK.encode() in cmdline and stat.rsplit(")", 1)[1].split()[0] != "Z"


def _settle(states) -> dict:
    """The status, with a ``running`` build whose process is gone turned into ``failed`` (a
    killed job has no chance to say so itself). Call under the lock."""
    status = read_status(states)
    if status.get("state") == "running" and not _job_alive(status.get("pid")):
        status.update(state="failed", finished=_now(),
                      error=f"the build (pid {status.get('pid')}) ended without a report: "
                            f"killed, or out of memory; see {Path(states) / 'rebuild.log'}")
        _write_status(states, status)
    return status


def trigger(states, repo, commit: str, *, prebuilt=(), timeout: float = 1800,
            notebooks: str = "notebooks", force: bool = False,
            first_start: bool = False) -> dict:
    """Start one background build of course ``commit`` (in git repository ``repo``) unless one
    is running or this commit's build is over (``force``: also after a failed one;
    ``first_start``: whatever the status says, as the job itself checks the states against
    the code). Returns ``{"started": bool, "pid", "commit", "reason"}``."""
    if not isinstance(commit, str) or not commit.strip():
        raise ValueError(f"commit must be a non-empty string, got {commit!r}")
    if not timeout or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    states = _states(states)
    with _locked(states):
        status = _settle(states)
        if status.get("state") == "running":
            return {"started": False, "pid": status["pid"], "commit": status.get("commit"),
                    "reason": "a build is running"}
        if not first_start and status.get("commit") == commit and (
                status.get("state") in ("done", "current", "baseline") or not force):
            return {"started": False, "pid": status.get("pid"), "commit": commit,
                    "reason": f"this commit's build is over ({status.get('state')})"}
        argv = [sys.executable, "-m", JOB_MARK, "run", f"--states={states}", f"--repo={repo}",
                f"--commit={commit}", f"--timeout={timeout}", f"--notebooks={notebooks}",
                *[f"--prebuilt={p}" for p in prebuilt],
                *(["--first-start"] if first_start else [])]
        with open(states / "rebuild.log", "ab") as log:
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=subprocess.STDOUT, start_new_session=True,
                                    preexec_fn=lambda: os.nice(10), close_fds=True)
        _write_status(states, {"state": "running", "pid": proc.pid, "commit": commit,
                               "repo": str(repo), "started": _now(), "timeout": timeout,
                               "reason": "first start" if first_start else "course update",
                               "rebuilt": [], "kept": 0, "failed": []})
    return {"started": True, "pid": proc.pid, "commit": commit, "reason": "started"}


def _export(repo, commit: str, into: Path) -> None:
    done = subprocess.run(["git", "--git-dir", str(_git_dir(repo)), "archive", "--format=tar",
                           commit], capture_output=True)
    if done.returncode:
        raise RuntimeError(f"git archive {commit} failed: {done.stderr.decode()[-500:]}")
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as tar:
        tar.extractall(into, filter="data")


def _git_dir(repo) -> Path:
    repo = Path(repo)
    return repo / ".git" if (repo / ".git").exists() else repo


def _log_entries(path: Path) -> list[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        with contextlib.suppress(ValueError):
            out.append(json.loads(line))
    return out


def _stores(states, prebuilt) -> list[Path]:
    """Every directory a hub kernel reads grids from: the image's, then the rebuilt ones."""
    return [*map(Path, prebuilt), Path(sys.prefix) / "share" / "genviz" / "states",
            grids_dir(states)]


def _fingerprint(tree: Path, notebooks: list[Path]) -> str:
    """The course's fingerprint (:func:`genviz.widgets.states.course_fingerprint`) over the
    exported commit: its genviz when it has one, else the genviz installed here."""
    from genviz.widgets.states import course_fingerprint

    package = tree / "genviz"
    return course_fingerprint(notebooks, package if (package / "__init__.py").is_file() else None)


def _states_needed(fingerprint: str, states, prebuilt) -> tuple[Path | None, str | None]:
    """``(the manifest listing every grid this code needs, None)`` when every one is stored,
    else ``(None, why a build is needed)``."""
    from genviz.widgets.states import find_manifest

    path, missing = find_manifest(fingerprint, _stores(states, prebuilt))
    if path is None:
        return None, "no precomputed states were built for this code"
    if missing:
        total = len(json.loads(path.read_text(encoding="utf-8"))["keys"])
        return None, (f"{len(missing)} of the {total} grids its manifest ({path.parent}) "
                      f"lists are missing")
    return path, None


def run_job(states, repo, commit: str, *, prebuilt=(), timeout: float = 1800,
            notebooks: str = "notebooks", first_start: bool = False) -> dict:
    """The build (see the module docstring); writes and returns the final status.
    ``first_start``: first check the states against the commit's code, build nothing when
    they are current."""
    states = _states(states)
    deadline = time.monotonic() + timeout
    with _locked(states):  # after trigger has written that it started this job
        status = read_status(states)
        status.update(state="running", pid=os.getpid(), commit=commit, repo=str(repo),
                      started=status.get("started") or _now(), rebuilt=[], kept=0, failed=[],
                      reason="first start" if first_start else "course update")
        for stale in ("announced", "manifest", "finished", "seconds", "error"):
            status.pop(stale, None)
        _write_status(states, status)
    grids = grids_dir(states)
    before = {p.name for p in grids.glob("*.gvgrid")}
    t0 = time.monotonic()
    fingerprint, books, kept = None, [], set()
    try:
        with tempfile.TemporaryDirectory(prefix="genviz-rebuild-") as tmp:
            tree, kernels = Path(tmp) / "course", Path(tmp) / "jupyter" / "kernels" / "python3"
            _export(repo, commit, tree)
            books = sorted((tree / notebooks).glob("*.ipynb"))
            if first_start:
                fingerprint = _fingerprint(tree, books)
                manifest, why = _states_needed(fingerprint, states, prebuilt)
                if manifest is not None:  # current: nothing to build
                    keys = json.loads(manifest.read_text(encoding="utf-8"))["keys"]
                    status.update(state="current", finished=_now(), kept=len(keys),
                                  manifest=str(manifest), seconds=round(time.monotonic() - t0, 1),
                                  reason="first start: every grid this code needs is stored")
                    _write_status(states, status)
                    print(f"[genviz-rebuild] {describe(status).splitlines()[0]}", flush=True)
                    return status
                status["reason"] = f"first start: {why}"
                _write_status(states, status)
            kernels.mkdir(parents=True)
            (kernels / "kernel.json").write_text(json.dumps(KERNEL))
            env = {**os.environ, "PYTHONPATH": str(tree), "GENVIZ_STATES": "build",
                   "GENVIZ_STATES_CACHE": str(grids), "MPLBACKEND": "Agg",
                   "GENVIZ_STATES_PATH": os.pathsep.join([*map(str, prebuilt), str(grids)]),
                   "JUPYTER_PATH": str(kernels.parent.parent)}
            for nb in books:
                log = Path(tmp) / f"{nb.stem}.jsonl"
                failure = _execute(nb, {**env, "GENVIZ_STATES_LOG": str(log)},
                                   kernels.parent, deadline)
                for entry in _log_entries(log):
                    row = {"key": entry.get("key"), "factory": entry.get("factory"),
                           "notebook": nb.name}
                    if entry.get("built"):
                        status["rebuilt"].append(row)
                    else:
                        kept.add(entry.get("key"))
                if failure:
                    status["failed"].append({"notebook": nb.name, "error": failure})
                status["kept"] = len(kept)
                _write_status(states, status)
            fingerprint = fingerprint or _fingerprint(tree, books)
    except Exception as exc:  # reported, never silent
        status["failed"].append({"notebook": None, "error": f"{type(exc).__name__}: {exc}"})
    # a grid built by a genviz that does not log its builds still shows as a new file
    logged = {r["key"] for r in status["rebuilt"]}
    for name in sorted({p.name for p in grids.glob("*.gvgrid")} - before):
        if name[:-len(".gvgrid")] not in logged:
            status["rebuilt"].append({"key": name[:-len(".gvgrid")], "factory": None,
                                      "notebook": None})
    if not status["failed"] and fingerprint:  # the next start finds these states current
        try:
            from genviz.widgets.states import write_manifest

            keys = kept | {r["key"] for r in status["rebuilt"]}
            status["manifest"] = str(write_manifest(grids, fingerprint, keys, books))
        except (OSError, ValueError) as exc:
            status["failed"].append({"notebook": None, "error": f"the manifest: {exc}"})
    status.update(state="failed" if status["failed"] else "done", finished=_now(),
                  seconds=round(time.monotonic() - t0, 1))
    _write_status(states, status)
    print(f"[genviz-rebuild] {describe(status).splitlines()[0]}", flush=True)
    return status


def _execute(nb: Path, env: dict, kernels: Path, deadline: float) -> str | None:
    """Run one notebook in a fresh kernel of the spec in ``kernels`` (started with ``env``, in
    the notebook's folder), every cell bounded by what is left of the build's time; the
    reason it failed, or None. The job drives the kernel itself (nbclient): an nbconvert
    process per notebook cost ~0.5 CPU-s of start-up each, as much as a small notebook."""
    import nbclient
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    left = deadline - time.monotonic()
    if left <= 1:
        return "not run: the build's time was up"
    try:
        book = nbformat.read(nb, as_version=4)
        km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=KernelSpecManager(
            kernel_dirs=[str(kernels)]))
        client = nbclient.NotebookClient(
            book, km=km, startup_timeout=max(1, int(min(60, left))),
            timeout_func=lambda cell: max(1, int(deadline - time.monotonic())),
            resources={"metadata": {"path": str(nb.parent)}})
        client.execute(env=env, cleanup_kc=True)  # cleanup: the kernel is shut down after
    except TimeoutError:  # a cell (nbclient's CellTimeoutError) or the kernel's start
        return "timed out (the build is bounded to its --timeout)"
    except nbclient.exceptions.CellExecutionError as exc:  # the traceback, without colours
        return re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).strip()[-1500:]
    except Exception as exc:  # noqa: BLE001 (a dead kernel, an unreadable notebook: reported)
        return f"{type(exc).__name__}: {exc}"[-1500:]
    return None


def _aside(text) -> str:
    """``" (text)"``, or nothing when there is no text."""
    return f" ({text})" if text else ""


def describe(status: dict) -> str:
    """The status in words, for the lecturer (first line: the summary)."""
    if not status:
        return "No precomputed states were rebuilt on this hub yet (no course update seen)."
    if status.get("state") == "baseline":
        return (f"No course update since the hub started (course {str(status.get('commit'))[:12]}"
                f"): every precomputed state is the image's.")
    state, commit = status.get("state"), str(status.get("commit", "?"))[:12]
    why = _aside(status.get("reason"))
    rebuilt, failed = status.get("rebuilt") or [], status.get("failed") or []
    grids = _aside(", ".join(sorted({r.get("factory") or r.get("key", "?")[:12]
                                     for r in rebuilt})))  # " (factory, ...)"
    if state == "running":
        head = (f"Rebuilding the precomputed states of course {commit}{why} (pid "
                f"{status.get('pid')}, since {status.get('started')}); until a grid is rebuilt "
                f"its sliders use the kernel.")
    elif state == "current":
        head = (f"Course {commit}{why}: the precomputed states are current ("
                f"{status.get('kept', 0)} grid(s), manifest {status.get('manifest')}); nothing "
                f"was built.")
    elif state == "done":
        head = (f"Course {commit}{why}: rebuilt {len(rebuilt)} precomputed grid(s){grids}, "
                f"kept {status.get('kept', 0)}, in {status.get('seconds', '?')} s.")
    elif state == "failed":
        head = (f"Course {commit}{why}: the rebuild of the precomputed states FAILED"
                f"{_aside(status.get('error'))}; rebuilt {len(rebuilt)}{grids}; the other "
                f"sliders use the kernel.")
    else:
        head = f"The rebuild status is unreadable: {status.get('error')}."
    lines = [head]
    lines += [f"  rebuilt {r.get('factory') or '?'} in {r.get('notebook') or '?'} "
              f"(key {str(r.get('key'))[:12]})" for r in rebuilt]
    lines += [f"  failed: {f.get('notebook') or 'the build'}: "
              f"{str(f.get('error')).strip().splitlines()[-1] if f.get('error') else '?'}"
              for f in failed]
    return "\n".join(lines)


def _fetch(states: Path, url: str, branch: str) -> str:
    bare = states / "course.git"
    with _locked(states, "fetch.lock"):  # two services starting at once: one fetch at a time
        if not bare.exists():
            subprocess.run(["git", "init", "--quiet", "--bare", str(bare)], check=True)
        done = subprocess.run(["git", "--git-dir", str(bare), "fetch", "--quiet", "--depth=1",
                               url, f"+{branch}:refs/heads/course"], capture_output=True,
                              text=True)
        if done.returncode:
            raise RuntimeError(f"git fetch {url} {branch} failed: {done.stderr.strip()[-500:]}")
        return subprocess.run(["git", "--git-dir", str(bare), "rev-parse", "refs/heads/course"],
                              capture_output=True, text=True, check=True).stdout.strip()


def watch_once(states, url: str, branch: str, *, prebuilt=(), timeout: float = 1800,
               notebooks: str = "notebooks", say=print, first: bool = False) -> dict:
    """One round of the service: fetch the course, trigger a build of a new commit (``first``:
    the service's first round, a first-start build of the commit it sees), and say in the log
    when a build ended (once)."""
    states = _states(states)
    with _locked(states):
        status = _settle(states)
        if status.get("state") in ("done", "failed", "current") and not status.get("announced"):
            say(f"[genviz-rebuild] {describe(status)}")
            status["announced"] = True
            _write_status(states, status)
    commit = _fetch(states, url, branch)
    result = trigger(states, states / "course.git", commit, prebuilt=prebuilt,
                     timeout=timeout, notebooks=notebooks, first_start=first)
    if first:
        say(f"[genviz-rebuild] first start, course {commit[:12]}: "
            + (f"checking its precomputed states against this code; any grid missing is built "
               f"in the background (pid {result['pid']}, nice 10, at most {timeout:g} s). "
               f"Until a grid is written its explorer's sliders use the kernel."
               if result["started"] else f"no check started: {result['reason']} (pid "
                                         f"{result['pid']})."))
    elif result["started"]:
        say(f"[genviz-rebuild] course update {commit[:12]} seen: rebuilding its missing "
            f"precomputed states in the background (pid {result['pid']}, nice 10, at most "
            f"{timeout:g} s)")
    return result


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m {JOB_MARK}", description=__doc__.split(
        "\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("watch", help="the hub's service: rebuild after each course update")
    w.add_argument("--repo", required=True, help="the course's git repository (URL or path)")
    w.add_argument("--branch", default="main")
    w.add_argument("--interval", type=float, default=60.0)
    w.add_argument("--once", action="store_true")
    r = sub.add_parser("run", help="the build itself (started by trigger)")
    r.add_argument("--repo", required=True)
    r.add_argument("--commit", required=True)
    r.add_argument("--first-start", action="store_true",
                   help="build only when the states are not current for this commit's code")
    for p in (w, r):
        p.add_argument("--states", required=True, help="the status and grids directory")
        p.add_argument("--prebuilt", action="append", default=[],
                       help="a directory of the image's grids (repeatable)")
        p.add_argument("--timeout", type=float, default=1800.0)
        p.add_argument("--notebooks", default="notebooks")
    s = sub.add_parser("status", help="print the status")
    s.add_argument("--states", required=True)
    return parser


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    if args.command == "status":
        print(describe(read_status(args.states)))
        return 1 if read_status(args.states).get("state") == "failed" else 0
    if args.command == "run":
        status = run_job(args.states, args.repo, args.commit, prebuilt=args.prebuilt,
                         timeout=args.timeout, notebooks=args.notebooks,
                         first_start=args.first_start)
        return 0 if status["state"] in ("done", "current") else 1
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    first = True  # until the first round has reached the course
    while True:
        try:
            watch_once(args.states, args.repo, args.branch, prebuilt=args.prebuilt,
                       timeout=args.timeout, notebooks=args.notebooks,
                       say=lambda m: print(m, flush=True), first=first)
            first = False
        except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
            print(f"[genviz-rebuild] {exc}", flush=True)
        if args.once:
            return 0
        time.sleep(args.interval)


if __name__ == "__main__":
    sys.exit(main())
