"""The grading sandbox: a student's notebook runs where it can reach nothing of the course.

:class:`Sandbox` runs ``course/_runner.py`` (which starts a Jupyter kernel and executes the
notebook's cells) under bubblewrap (``bwrap``, Debian/Ubuntu package ``bubblewrap``):

- **file system**: a fresh root with, read-only, only what Python needs — ``/usr`` (and the
  ``/bin``, ``/lib`` links), the interpreter's installation and the environment (``sys.prefix``),
  the ``genviz`` package — and a small ``/etc`` (hosts, passwd); a size-limited ``tmpfs`` as
  ``/tmp``, with the run's home and working directory in it. Nothing else of the machine: not
  the course directory (source, gradebook, other submissions, release), not the course secret,
  not the repository, not the grader's home;
- **no network** (a network namespace with only a loopback, which the kernel's sockets use);
- **its own PID namespace** (``--unshare-pid``, ``--die-with-parent``, a new session): when the
  runner ends, the kernel ends every process left inside; :meth:`Sandbox.run` then checks, by
  PID, that no process of that namespace is left (``RunResult.leftover``);
- **limits** (``setrlimit`` before ``bwrap`` starts; inherited by everything inside): CPU time,
  address space (memory), processes, file size, open files, no core dumps; the runner adds a
  per-cell time limit and an output limit, and this process a wall-clock limit and a limit on
  what it reads from the sandbox;
- **user**: run as root (CI, a VM), the sandboxed process drops to a throw-away user id of its
  own *per submission* (drawn at random, used by no process and no kernel key; ``setpriv``; no
  capabilities, ``no_new_privs``), so that the process limit counts only its processes, and a
  second, unprivileged bubblewrap with ``--disable-userns`` keeps it from making a user
  namespace; run as an ordinary user, bubblewrap maps that user into a new user namespace
  (``--disable-userns`` too);
- **no kernel keys**: a seccomp filter (:func:`seccomp_program`) refuses ``add_key``,
  ``request_key`` and ``keyctl`` (and every call of another ABI), so no submission leaves a key
  for a later one; IPC objects are the sandbox's own (``--unshare-ipc``);
- **memory of the whole sandbox**: a memory cgroup (:class:`MemoryGroup`, v2 or v1's memory
  controller, under the grader's own group) where one can be made; else the bound is the
  process count x the address space per process, and ``RunResult.memory`` says which.

Nothing that comes out is trusted: :func:`course.plain.decode` reads each line.

``Sandbox(unsafe=True)`` runs the runner without any of this (for a machine where no sandbox
works, ``python -m course.grade --unsafe``): the student's code then runs with the grader's
permissions and every report row says so.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from course.plain import NotPlain, decode
from course.shown import unsurrogate

RUNNER = pathlib.Path(__file__).resolve().parent / "_runner.py"

INSTALL_HELP = """\
Grading needs a sandbox for the students' code, and none works on this machine ({why}).
Install bubblewrap and try again:
    Debian/Ubuntu:  sudo apt-get install bubblewrap
    Fedora/RHEL:    sudo dnf install bubblewrap
As an ordinary user bubblewrap needs unprivileged user namespaces: on Ubuntu 24.04 and later
run grading as root (sudo), or allow them for bwrap (AppArmor profile); in a container or a
Kubernetes pod, grade on a VM or a laptop instead (docs/grade-a-class.md, "Where to grade").
To grade WITHOUT a sandbox (the students' code then runs with your permissions and can read
and change your files, other students' work and the gradebook): --unsafe."""


class SandboxUnavailable(RuntimeError):
    """No sandbox works here; the message says how to install one."""


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one submission may use (the defaults suit the course's assignments)."""

    cell_seconds: float = 60.0          # one cell; then interrupted, then the kernel ended
    wall_seconds: float | None = None   # the whole run (default: from the number of cells)
    cpu_seconds: int = 600              # CPU time of any one process
    memory_bytes: int = 3 << 30         # address space of any one process
    sandbox_memory_bytes: int = 4 << 30  # memory of the whole sandbox (a memory cgroup)
    processes: int = 128                # processes and threads of the sandbox's user
    file_bytes: int = 64 << 20          # largest file written
    tmp_bytes: int = 256 << 20          # the sandbox's /tmp (home and working directory)
    output_bytes: int = 2_000_000       # what the notebook may print (runner)
    result_bytes: int = 4_000_000       # what this process reads from the sandbox

    def wall(self, n_cells: int) -> float:
        """The whole run's budget for ``n_cells`` code cells (course.grade passes the release's
        count, never the submission's: :func:`course.grade.wall_budget`)."""
        if self.wall_seconds is not None:
            return self.wall_seconds
        return 90.0 + (self.cell_seconds + 6.0) * (n_cells + 1)


@dataclasses.dataclass
class RunResult:
    events: list                    # decoded lines of the runner (untrusted content)
    garbage: int = 0                # lines that were not strict JSON objects
    ended: str = "ok"               # "ok" | "wall" (killed at the wall limit) | "output"
    exit_code: int | None = None    # of the sandbox (bwrap) process
    seconds: float = 0.0
    leftover: list = dataclasses.field(default_factory=list)  # PIDs found after the end
    sandbox: str = "bubblewrap"
    uid: int | None = None          # the throw-away user id of this run (as root)
    memory: str = ""                # how the whole sandbox's memory was bounded, in words
    peak_bytes: int | None = None   # the whole sandbox's peak memory (its cgroup), if known
    keys_left: int = 0              # kernel keys of its uid that could not be removed after it


def _python_roots() -> list[str]:
    """Directories the sandbox's Python needs, read-only: the interpreter's installation,
    the environment, and genviz (an editable install lives outside the environment)."""
    import genviz

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             str(pathlib.Path(sys.executable).resolve().parent.parent),
             str(pathlib.Path(genviz.__file__).resolve().parent)}
    out = []
    for root in sorted({str(pathlib.Path(r).resolve()) for r in roots}):
        if root in ("/", "/usr") or root.startswith("/usr/"):
            continue  # /usr is bound as a whole
        out.append(root)
    # keep only the outermost of nested directories
    return [r for r in out if not any(r != o and r.startswith(o + "/") for o in out)]


def _parents(path: str) -> list[str]:
    parts = pathlib.PurePosixPath(path).parts[1:-1]
    return ["/" + "/".join(parts[:i + 1]) for i in range(len(parts))]


class Sandbox:
    """Runs the runner on a job under bubblewrap (or, with ``unsafe=True``, without).

    Parameters
    ----------
    unsafe : bool
        Run without a sandbox (see the module docstring).
    bwrap : str, optional
        The bubblewrap program (default: ``$GENVIZ_BWRAP``, else ``bwrap`` on PATH).
    """

    def __init__(self, *, unsafe: bool = False, bwrap: str | None = None):
        if not isinstance(unsafe, bool):
            raise TypeError(f"unsafe must be True or False, got {unsafe!r}")
        self.unsafe = unsafe
        self.bwrap = (bwrap or os.environ.get("GENVIZ_BWRAP") or shutil.which("bwrap")
                      or "/usr/bin/bwrap")
        self.root = os.geteuid() == 0
        self.kind = "none (--unsafe)" if unsafe else "bubblewrap"
        self._probed = False
        # as root: a second, unprivileged bubblewrap with --disable-userns (probe() turns it
        # off, and says so in self.userns, where this machine refuses unprivileged namespaces)
        self.disable_userns = True
        self.userns = "user namespaces disabled inside the sandbox"

    # -- availability --------------------------------------------------------------------------
    def probe(self) -> None:
        """Raise :class:`SandboxUnavailable` unless the sandbox starts Python here."""
        if self.unsafe or self._probed:
            return
        if not os.path.exists(self.bwrap):
            raise SandboxUnavailable(INSTALL_HELP.format(why=f"no {self.bwrap}"))
        with tempfile.TemporaryDirectory(prefix="genviz-probe-") as tmp:
            cmd = self._command(pathlib.Path(tmp), job=None, uid=self._uid(),
                                argv=[sys.executable, "-c", "import genviz, jupyter_client"])
            try:
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                                     preexec_fn=self._limit(Limits()))
            except (OSError, subprocess.TimeoutExpired) as err:
                raise SandboxUnavailable(INSTALL_HELP.format(why=str(err))) from None
        if out.returncode != 0 and self.root and self.disable_userns:
            # this machine refuses the inner, unprivileged bubblewrap: grade without it
            self.disable_userns = False
            self.userns = ("user namespaces NOT disabled inside the sandbox (this machine "
                           "refuses an unprivileged bubblewrap: " + (out.stderr.strip()
                           .splitlines() or ["?"])[-1][:120] + ")")
            return self.probe()
        if out.returncode != 0:
            why = (out.stderr.strip().splitlines() or [f"exit status {out.returncode}"])[-1]
            raise SandboxUnavailable(INSTALL_HELP.format(why=f"bwrap: {why[:200]}"))
        self._probed = True

    # -- the command ----------------------------------------------------------------------------
    def _uid(self) -> int:
        # a throw-away user id per submission (as root), drawn at random and used by no
        # process and no kernel key of this machine: the process limit counts this sandbox's
        # processes only, and nothing a submission leaves under its uid (a kernel key, a file
        # in a shared place) is readable by the next one
        if not self.root:
            return os.getuid()
        import secrets

        while True:
            uid = 1_500_000_000 + secrets.randbelow(600_000_000)  # bwrap: < 2**31
            if not _uid_in_use(uid):
                return uid

    def _command(self, tmp: pathlib.Path, job, uid: int, argv=None) -> list[str]:
        etc = tmp / "etc"
        etc.mkdir(exist_ok=True)
        (etc / "passwd").write_text(f"root:x:0:0::/root:/bin/sh\nstudent:x:{uid}:{uid}::"
                                    "/tmp/home:/bin/sh\n")
        (etc / "group").write_text(f"root:x:0:\nstudent:x:{uid}:\n")
        (etc / "hosts").write_text("127.0.0.1 localhost\n::1 localhost ip6-localhost\n")
        cmd = [self.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
               "--unshare-cgroup-try", "--die-with-parent", "--new-session",
               "--hostname", "sandbox"]
        if not self.root:
            cmd += ["--unshare-user", "--uid", str(uid), "--gid", str(os.getgid()),
                    "--disable-userns"]
        cmd += ["--ro-bind", "/usr", "/usr"]
        for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(top):
                cmd += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                cmd += ["--ro-bind", top, top]
        made = set()
        for root in _python_roots():
            for parent in _parents(root):
                if parent not in made:
                    made.add(parent)
                    cmd += ["--perms", "0755", "--dir", parent]
            cmd += ["--ro-bind", root, root]
        cmd += ["--perms", "0755", "--dir", "/etc"]
        for name in ("passwd", "group", "hosts"):
            cmd += ["--ro-bind", str(etc / name), f"/etc/{name}"]
        for name in ("ld.so.cache", "localtime", "nsswitch.conf"):
            if os.path.exists(f"/etc/{name}"):
                cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
        cmd += ["--proc", "/proc", "--dev", "/dev",
                "--size", str(Limits().tmp_bytes if job is None else job["tmp_bytes"]),
                "--tmpfs", "/tmp", "--chmod", "1777", "/tmp",
                "--perms", "0755", "--dir", "/job"]
        for root in _python_roots():  # a checkout or venv under /tmp: the tmpfs hid it
            if root.startswith("/tmp/"):
                for parent in _parents(root):
                    if parent.startswith("/tmp/"):
                        cmd += ["--perms", "0755", "--dir", parent]
                cmd += ["--ro-bind", root, root]
        cmd += ["--ro-bind", str(RUNNER), "/job/runner.py"]
        if job is not None:
            cmd += ["--ro-bind", str(tmp / "job.json"), "/job/job.json"]
        cmd += ["--chdir", "/tmp", "--clearenv"]
        venv_bin = str(pathlib.Path(sys.executable).parent)
        import genviz

        # the sandbox imports the genviz this process imported (a worktree's copy, not the
        # one an editable install's finder names, which is not bound)
        env = {"PYTHONPATH": str(pathlib.Path(genviz.__file__).resolve().parent.parent),
               "HOME": "/tmp/home", "USER": "student", "LOGNAME": "student", "LANG": "C.UTF-8",
               "PATH": f"{venv_bin}:/usr/bin:/bin", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": "/tmp/home/.matplotlib", "IPYTHONDIR": "/tmp/home/.ipython",
               "JUPYTER_RUNTIME_DIR": "/tmp/home/.runtime", "JUPYTER_PLATFORM_DIRS": "1",
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "PYTHONDONTWRITEBYTECODE": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
        for key, value in env.items():
            cmd += ["--setenv", key, value]
        argv = argv or [sys.executable, "/job/runner.py", "/job/job.json"]
        if self.root:
            # drop to the throw-away uid, then a second bubblewrap (unprivileged, as that uid)
            # whose only job is --disable-userns: the student's code cannot make a user
            # namespace (as root the outer one cannot, without mapping the student to root)
            cmd += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID",
                    "--cap-add", "CAP_SETPCAP", "--", "/usr/bin/setpriv", "--reuid", str(uid),
                    "--regid", str(uid), "--clear-groups", "--inh-caps=-all",
                    "--bounding-set=-all", "--no-new-privs"]
            if self.disable_userns:
                cmd += ["--", self.bwrap, "--unshare-user", "--disable-userns", "--uid",
                        str(uid), "--gid", str(uid), "--bind", "/", "/", "--dev-bind", "/dev",
                        "/dev", "--die-with-parent"]
        return cmd + ["--"] + argv

    def _limit(self, limits: Limits, group=None):
        processes = limits.processes
        if not self.root:
            # an ordinary user's process limit counts all of that user's processes
            processes += _threads_of(os.getuid())

        def apply():
            if group is not None:
                group.enter()
            for what, value in ((resource.RLIMIT_CPU, limits.cpu_seconds),
                                (resource.RLIMIT_AS, limits.memory_bytes),
                                (resource.RLIMIT_NPROC, processes),
                                (resource.RLIMIT_FSIZE, limits.file_bytes),
                                (resource.RLIMIT_NOFILE, 1024),
                                (resource.RLIMIT_CORE, 0)):
                soft, hard = resource.getrlimit(what)
                value = value if hard == resource.RLIM_INFINITY else min(value, hard)
                resource.setrlimit(what, (value, value))
        return apply

    # -- a run ----------------------------------------------------------------------------------
    def run(self, job: dict, limits: Limits = Limits()) -> RunResult:
        """Run the runner on ``job`` (cells, answer names, notebook) and read what it says."""
        job = {**job, "cell_seconds": limits.cell_seconds, "output_bytes": limits.output_bytes,
               "tmp_bytes": limits.tmp_bytes, "home": "/tmp/home",
               "processes": limits.processes if self.root and not self.unsafe else None}
        with tempfile.TemporaryDirectory(prefix="genviz-sandbox-") as tmp:
            tmp = pathlib.Path(tmp)
            if self.unsafe:
                return self._run_unsafe(tmp, job, limits)
            self.probe()
            (tmp / "job.json").write_text(json.dumps(job))
            uid = self._uid()
            cmd = self._command(tmp, job, uid)
            info_r, info_w = os.pipe()
            extra, fds = ["--info-fd", str(info_w)], [info_w]
            program = seccomp_program()
            if program is not None:  # no kernel keys: add_key, request_key, keyctl refused
                filter_fd = os.memfd_create("genviz-seccomp", 0)
                os.write(filter_fd, program)
                os.lseek(filter_fd, 0, os.SEEK_SET)
                extra += ["--seccomp", str(filter_fd)]
                fds.append(filter_fd)
            cmd = cmd[:1] + extra + cmd[1:]
            group = MemoryGroup.make(limits.sandbox_memory_bytes)
            start = time.monotonic()
            try:
                proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, pass_fds=tuple(fds),
                                        preexec_fn=self._limit(limits, group),
                                        start_new_session=True)
            except BaseException:
                if group:
                    group.remove()
                raise
            finally:
                for fd in fds:
                    os.close(fd)
            namespace = _read_namespace(info_r)
            result = _collect(proc, limits, len(job["cells"]), start)
            result.leftover = _processes_in(namespace) if namespace else []
            result.uid = uid if self.root else None
            result.memory = group.words(limits) if group else memory_words(limits)
            if self.root:  # nothing of this uid is left in the kernel's key accounting
                result.keys_left = clear_keys(uid)
            if group:
                result.peak_bytes = group.peak()
                group.remove()
            return result

    def _run_unsafe(self, tmp: pathlib.Path, job: dict, limits: Limits) -> RunResult:
        home = tmp / "home"
        job = {**job, "home": str(home)}
        (tmp / "job.json").write_text(json.dumps(job))
        env = {"HOME": str(home), "PATH": f"{pathlib.Path(sys.executable).parent}:/usr/bin:/bin",
               "MPLBACKEND": "Agg", "LANG": "C.UTF-8", "OPENBLAS_NUM_THREADS": "1",
               "IPYTHONDIR": str(home / ".ipython"), "JUPYTER_RUNTIME_DIR": str(home / ".rt"),
               "MPLCONFIGDIR": str(home / ".matplotlib")}
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, str(RUNNER), str(tmp / "job.json")],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd=tmp, env=env,
                                preexec_fn=self._limit(dataclasses.replace(
                                    limits, processes=limits.processes + _threads_of(os.getuid()))),
                                start_new_session=True)
        result = _collect(proc, limits, len(job["cells"]), start)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        result.sandbox = self.kind
        result.leftover = _processes_in_session(proc.pid)
        return result


def memory_words(limits: Limits) -> str:
    """The whole sandbox's memory bound without a cgroup: processes x address space."""
    return (f"no memory cgroup here: at most {limits.processes} processes x "
            f"{limits.memory_bytes / 2**30:g} GiB of address space each")


class MemoryGroup:
    """A memory cgroup for one sandbox (cgroup v2, else v1's memory controller), under the
    grading process's own group: every process of the sandbox is in it, and together they
    get at most ``limit`` bytes (swap included where the kernel counts it)."""

    def __init__(self, path: pathlib.Path, version: int, limit: int):
        self.path, self.version, self.limit = path, version, limit

    @classmethod
    def make(cls, limit: int):
        """A new group with the limit set, or None where no cgroup can be made here."""
        import secrets

        for version, base in _memory_bases():
            path = base / f"genviz-sandbox-{secrets.token_hex(6)}"
            try:
                path.mkdir()
            except OSError:
                continue
            group = cls(path, version, limit)
            try:
                if version == 2:
                    (path / "memory.max").write_text(str(limit))
                    if (path / "memory.swap.max").exists():
                        (path / "memory.swap.max").write_text("0")
                else:
                    (path / "memory.limit_in_bytes").write_text(str(limit))
                    if (path / "memory.memsw.limit_in_bytes").exists():
                        try:
                            (path / "memory.memsw.limit_in_bytes").write_text(str(limit))
                        except OSError:
                            pass
                return group
            except OSError:
                group.remove()
        return None

    def enter(self) -> None:
        """Put the calling process (the sandbox's first, before it starts) in the group."""
        with open(self.path / "cgroup.procs", "w") as fh:
            fh.write(str(os.getpid()))

    def words(self, limits: Limits) -> str:
        return (f"a memory cgroup (v{self.version}) of {self.limit / 2**30:g} GiB for the "
                "whole sandbox")

    def peak(self) -> int | None:
        """The group's peak memory in bytes (every process of the sandbox together), or None
        where the kernel does not keep it."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int((self.path / name).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def remove(self, wait: float = 5.0) -> None:
        deadline = time.monotonic() + wait
        while True:
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.05)


def _memory_bases():
    """(version, folder) where this process may make a memory cgroup: its own group."""
    try:
        lines = pathlib.Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        num, controllers, path = line.split(":", 2)
        if num == "0" and controllers == "":
            base = pathlib.Path("/sys/fs/cgroup") / path.lstrip("/")
            if (base / "cgroup.controllers").exists() and "memory" in (
                    base / "cgroup.controllers").read_text().split():
                out.append((2, base))
        elif "memory" in controllers.split(","):
            base = pathlib.Path("/sys/fs/cgroup/memory") / path.lstrip("/")
            if (base / "memory.limit_in_bytes").exists():
                out.append((1, base))
    return out


# seccomp: the kernel's key syscalls refused (errno EPERM) for everything in the sandbox
_SECCOMP_ARCH = {"x86_64": (0xC000003E, (248, 249, 250)),     # add_key, request_key, keyctl
                 "aarch64": (0xC00000B7, (217, 218, 219))}


def seccomp_program() -> bytes | None:
    """A classic-BPF seccomp filter (bwrap --seccomp) that refuses add_key, request_key and
    keyctl (so no submission stores a kernel key for a later one, and none is left), and every
    system call of another ABI (x32, 32-bit); None on a machine of another architecture."""
    import platform
    import struct

    arch = _SECCOMP_ARCH.get(platform.machine())
    if arch is None:
        return None
    audit, calls = arch
    ld_abs, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    n = len(calls)
    prog = [(ld_abs, 0, 0, 4),                    # arch
            (jeq, 1, 0, audit),                   # this ABI: on; else deny
            (ret, 0, 0, deny),
            (ld_abs, 0, 0, 0),                    # the call's number
            (jge, n + 1, 0, 0x40000000)]          # x32 numbers: deny
    for k, nr in enumerate(calls):
        prog.append((jeq, n - k, 0, nr))          # -> deny
    prog += [(ret, 0, 0, allow), (ret, 0, 0, deny)]
    return b"".join(struct.pack("<HBBI", *ins) for ins in prog)


# run as the throw-away uid (setpriv): invalidate every key that uid can see, by its id
# (/proc/keys), never through KEY_SPEC_USER_KEYRING, whose look-up would make the user's
# keyrings again; the kernel's garbage collector then frees them and the uid's entry of
# /proc/key-users
_CLEAR_KEYS = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
nr = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
uid = os.getuid()
for line in open("/proc/keys"):
    f = line.split()
    if len(f) > 5 and f[5] == str(uid):
        libc.syscall(nr, 21, ctypes.c_int(int(f[0], 16)))  # KEYCTL_INVALIDATE
"""


def key_users() -> dict:
    """uid -> number of kernel keys it holds (/proc/key-users; {} where it cannot be read)."""
    out = {}
    try:
        for line in pathlib.Path("/proc/key-users").read_text().splitlines():
            uid, rest = line.split(":", 1)
            out[int(uid)] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return out


def clear_keys(uid: int, wait: float = 3.0) -> int:
    """As root: remove every kernel key (and the user's keyrings) that ``uid`` holds, so that
    nothing of a submission's uid is left in /proc/key-users; the number of keys left (0: the
    uid's entry is gone). A key whose owner cannot see or search it (only possible where the
    seccomp filter is missing) is left and counted."""
    if key_users().get(uid, 0) == 0:
        return 0
    if os.geteuid() != 0 or uid == 0 or _SECCOMP_ARCH.get(os.uname().machine) is None:
        return key_users().get(uid, 0)
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    try:
        subprocess.run([setpriv, "--reuid", str(uid), "--regid", str(uid), "--clear-groups",
                        sys.executable, "-I", "-c", _CLEAR_KEYS], timeout=60,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.TimeoutExpired):
        pass
    deadline = time.monotonic() + wait
    while key_users().get(uid, 0) and time.monotonic() < deadline:
        time.sleep(0.05)  # the kernel's key garbage collector runs in the background
    return key_users().get(uid, 0)


def _uid_in_use(uid: int) -> bool:
    """A process or a kernel key of this machine has ``uid``."""
    try:
        if any(line.split(":")[0].strip() == str(uid)
               for line in pathlib.Path("/proc/key-users").read_text().splitlines()):
            return True
    except OSError:
        pass
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    return True
            except OSError:
                pass
    return False


def _threads_of(uid: int) -> int:
    n = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    n += len(os.listdir(f"/proc/{entry.name}/task"))
            except OSError:
                pass
    return n


def _read_namespace(fd: int) -> str | None:
    """bwrap's --info-fd says the sandbox's first process; its PID namespace identifies every
    process of the sandbox."""
    data = b""
    try:
        while len(data) < 65536:  # bwrap writes the JSON and closes its end
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    try:
        pid = int(json.loads(data.decode() or "{}").get("child-pid"))
        return os.readlink(f"/proc/{pid}/ns/pid")
    except (ValueError, TypeError, OSError):
        return None


def _processes_in(namespace: str, wait: float = 2.0) -> list[int]:
    """PIDs (as this machine sees them) of live processes in the PID namespace ``namespace``
    (zombies, ended and not yet reaped, do not count); the kernel kills a namespace's processes
    as soon as its first process ends, so this waits a moment for them to die before it
    reports any."""
    deadline = time.monotonic() + wait
    while True:
        found = []
        for entry in os.scandir("/proc"):
            if entry.name.isdigit():
                try:
                    if os.readlink(f"/proc/{entry.name}/ns/pid") == namespace \
                            and _state(entry.name) not in ("Z", "X"):
                        found.append(int(entry.name))
                except OSError:
                    pass
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _state(pid: str) -> str:
    """A process's state letter (Z: a zombie, ended and waiting to be reaped)."""
    with open(f"/proc/{pid}/stat", "rb") as fh:
        return fh.read().rsplit(b")", 1)[1].split()[0].decode()


def _processes_in_session(sid: int) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def _collect(proc, limits: Limits, n_cells: int, start: float) -> RunResult:
    """Read the runner's lines until it ends, the wall limit passes or it says too much."""
    import selectors

    wall = limits.wall(n_cells)
    result = RunResult(events=[])
    buffer = b""
    total = 0
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    fd = proc.stdout.fileno()
    while True:
        left = start + wall - time.monotonic()
        if left <= 0:
            result.ended = "wall"
            break
        if not sel.select(timeout=min(left, 1.0)):
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        total += len(chunk)
        if total > limits.result_bytes:
            result.ended = "output"
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            _take(result, line)
    if result.ended != "ok":
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    else:
        _take(result, buffer)
    sel.close()
    proc.stdout.close()
    try:
        result.exit_code = proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        result.exit_code = proc.wait()
    result.seconds = time.monotonic() - start
    return result


def _take(result: RunResult, line: bytes) -> None:
    if not line.strip():
        return
    try:
        event = decode(line, max_bytes=1_000_000)
    except NotPlain:
        result.garbage += 1
        return
    if isinstance(event, dict) and isinstance(event.get("event"), str):
        result.events.append(unsurrogate(event))  # exception text, answers: writable
    else:
        result.garbage += 1
