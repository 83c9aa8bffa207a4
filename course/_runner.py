"""Runs one submission INSIDE the grading sandbox (course/sandbox.py starts it there).

    python runner.py JOB.json

Not imported by the grading process: this file is bound read-only into the sandbox and run
by the sandbox's Python. It starts a Jupyter kernel (ipykernel, through jupyter_client),
executes the job's code cells one by one with a per-cell time limit (interrupt, then kill), an
output limit and a check that the kernel is alive, then asks the kernel for the answer
variables as plain JSON. It reports on its standard output, one JSON object per line:

    {"event": "started", ...}
    {"event": "cell", "index": 3, "status": "ok" | "error" | "timeout" | "output" | "died",
     "ename": ..., "evalue": ..., "exit": ..., "unsent": "why", "outputs": "digest"}
    {"event": "answers", "answers": {"answer_q1": {"value": ...} | {"refused": "why"} |
                                                  {"missing": true}}}
    {"event": "done"}

Everything here runs next to the student's code (same user, same sandbox), so none of it is
trusted: the grading process decodes each line strictly and re-checks every answer
(course/plain.py). It never holds a reference answer, a hidden test or the course secret.
"""

import hashlib
import json
import os
import signal
import sys
import time

MARKER = "@@genviz-answers@@"

# The kernel's command: ipykernel_launcher, with two changes made before it starts.
# - debugpy kept out while the kernel starts. ipykernel imports it for its debugger (a front
#   end's breakpoints, which nobody sets in a grading run): ~0.05 of a kernel start's ~0.28
#   CPU-s and 7 MB, in every submission's sandbox. With sys.modules["debugpy"] = None that
#   import fails, ipykernel starts without the debugger, and SAFE_PACKER makes debugpy
#   importable again before the first cell (a notebook that imports it gets it).
# - what one request (a cell) writes to one stream past CAP characters (twice the output limit)
#   is not kept. ipykernel buffers a stream for 0.2 s before it sends it, and a print loop fills
#   that buffer far faster than the runner can read it (270 MB in 0.15 s with 100 kB prints:
#   the sandbox reached 1.7-3 GB and 5 CPU-s before the runner saw the limit pass and
#   interrupted the cell). The runner still receives CAP characters of such a cell, more than
#   the limit, and reports and interrupts it as before; a cell under CAP is untouched, and so
#   is every later cell (the count is per request). Set on the class before the kernel starts,
#   so IPython's per-cell wrapper of sys.stdout.write wraps it. (The student's code may undo
#   either: then it runs as before, under the same limits.)
# No braces with a name in them: jupyter_client fills {name} fields of the kernel's command.
LAUNCH = """
import runpy, sys
sys.modules["debugpy"] = None
here = sys.path.pop(0) if sys.path[0] == "" else None  # as ipykernel_launcher: not while importing
from ipykernel.iostream import OutStream

def capped(write, cap, written=dict()):
    def capped_write(self, text):
        if type(text) is not str:
            return write(self, text)
        key = (id(self), (self.parent_header or dict()).get("msg_id"))
        before = written.get(key, 0)
        written[key] = before + len(text)
        if before + len(text) <= cap:
            return write(self, text)
        if before < cap:
            write(self, text[:cap - before])
        return len(text)
    return capped_write

OutStream.write = capped(OutStream.write, CAP)
del capped, OutStream
if here is not None:
    sys.path.insert(0, here)
del here
runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
"""


# Runs in the student's kernel before the first cell: the kernel's session packer made unable to
# fail on text. Python's str may hold lone surrogates (chr(0xd800)), which no UTF-8 encoder takes:
# jupyter_client's packer then raises and the message -- an exception, an output, the cell's
# execute_reply -- is never sent, so a cell that raised looked "ok". Here every lone surrogate of
# a message becomes the six characters \udXXX (the grader's convention, course/shown.py), and
# anything else json cannot write is cleaned as jupyter_client's own fallback does. (The
# student's code may still replace the packer; a cell whose reply never comes is then reported
# as such, see Kernel.run.)
SAFE_PACKER = r'''
def __genviz_safe_packer():
    import json, re, sys
    if "debugpy" in sys.modules and sys.modules["debugpy"] is None:
        del sys.modules["debugpy"]  # kept out while the kernel started (LAUNCH): importable again
    from jupyter_client.session import json_clean, json_default
    lone = re.compile("[\ud800-\udfff]")

    def pack(obj):
        try:
            text = json.dumps(obj, default=json_default, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError):
            text = json.dumps(json_clean(obj), default=json_default, ensure_ascii=False,
                              allow_nan=False)
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate only ever sits inside a JSON string
            return lone.sub(lambda m: "\\\\u%04x" % ord(m.group()), text).encode("utf-8")

    get_ipython().kernel.session.pack = pack

    # IPython keeps every output of every cell (each string printed, each figure) in
    # history_manager.outputs, for %notebook: the whole of a print loop's output, in memory, in
    # a grading run whose history is off. Here nothing is kept.
    class NotKept(dict):
        def __contains__(self, key):
            return False

        def __getitem__(self, key):
            return []

    get_ipython().history_manager.outputs = NotKept()
__genviz_safe_packer()
del __genviz_safe_packer
'''

# Runs in the student's kernel after the last cell. Only exact built-in types (and exact numpy
# arrays and scalars, converted with tolist/item) leave; anything else is named and refused.
EXTRACT = r'''
def __genviz_extract(names, marker):
    import json, sys
    np = sys.modules.get("numpy")
    scalars = ()
    if np is not None:
        scalars = tuple(getattr(np, n) for n in (
            "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
            "uint16", "uint32", "uint64", "bool_") if hasattr(np, n))

    def plain(v, depth=0):
        t = type(v)
        if v is None or v is Ellipsis:
            return None
        if t is int and not -10 ** 30 < v < 10 ** 30:
            raise TypeError("an integer of more than 30 digits")
        if t is str and len(v) > 2000:
            raise TypeError(f"a string of {len(v)} characters (too long)")
        if t is bool or t is int or t is str:
            return v
        if t is float:
            if v != v:
                raise TypeError("NaN (not a number)")
            if v in (float("inf"), float("-inf")):
                raise TypeError("an infinite number")
            return v
        if t is list or t is tuple:
            if depth >= 4:
                raise TypeError("lists nested too deeply")
            if len(v) > 10000:
                raise TypeError(f"a list of {len(v)} entries (too many)")
            return [plain(x, depth + 1) for x in v]
        if np is not None:
            if t is np.ndarray:
                if v.dtype.kind not in "biuf":
                    raise TypeError(f"an array of {v.dtype} (not numbers)")
                if v.size > 10000:
                    raise TypeError(f"an array of {v.size} numbers (too many)")
                return plain(v.tolist(), depth)
            if t in scalars:
                return plain(v.item(), depth)
            if isinstance(v, np.ndarray):
                raise TypeError(f"an array subclass ({t.__name__})")
            if isinstance(v, np.generic):
                raise TypeError(f"a numpy {t.__name__}")
        for base, word in ((bool, "bool"), (float, "float"), (int, "int"), (str, "str"),
                           (list, "list"), (tuple, "tuple")):
            if isinstance(v, base):
                raise TypeError(f"a {word} subclass ({t.__name__})")
        raise TypeError(f"an object of type {t.__name__}")

    out = {}
    space = globals()
    for name in names:
        if name not in space:
            out[name] = {"missing": True}
            continue
        try:
            out[name] = {"value": plain(space[name])}
        except Exception as err:
            out[name] = {"refused": str(err)[:200]}
    print(marker + json.dumps(out, allow_nan=False))
'''


def _size(content) -> int:
    """About how many bytes an output message carries (its text and data)."""
    if "text" in content:
        return len(content["text"])
    size = len(str(content.get("evalue", ""))) + sum(len(str(t)) for t in content.get("traceback", []))
    data = content.get("data")
    if isinstance(data, dict):
        size += sum(len(str(v)) for v in data.values())
    return size + 64


class Outputs:
    """A cell's outputs, hashed as ``course.reasons.output_digest`` hashes a stored cell's."""

    def __init__(self):
        self.hash, self.last = hashlib.sha256(), None

    def add(self, kind, content):
        if kind not in ("stream", "execute_result", "display_data", "error"):
            return
        data = content.get("data") if isinstance(content.get("data"), dict) else {}
        text = {"stream": content.get("text"), "error": content.get("ename")}.get(kind, data.get(
            "text/plain"))
        head = (kind, str(content.get("name")) if kind == "stream" else "")
        if kind != "stream" or head != self.last:
            self.hash.update(("\0%s\0%s\0" % head).encode())
        self.last = head if kind == "stream" else None
        self.hash.update(str(text or "").encode("utf-8", "backslashreplace"))

    def digest(self):
        return self.hash.hexdigest()[:16]


def tasks_of_this_user() -> int:
    """Processes and threads of this user in this sandbox (what the process limit counts)."""
    uid, n = os.getuid(), 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.stat(f"/proc/{pid}").st_uid == uid:
                    n += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                pass
    return n


def emit(**event):
    sys.stdout.write(json.dumps(event, allow_nan=False) + "\n")
    sys.stdout.flush()


def exit_reason(km):
    """How the kernel process ended: ('signal', n) or ('exit', code) or ('unknown', None)."""
    proc = getattr(getattr(km, "provisioner", None), "process", None)
    code = proc.poll() if proc is not None else None
    if code is None:
        return "unknown", None
    return ("signal", -code) if code < 0 else ("exit", code)


class Kernel:
    def __init__(self, cell_seconds, output_bytes, processes=None):
        from jupyter_client import KernelManager

        self.processes = processes
        self.cell_seconds = cell_seconds
        self.output_left = output_bytes
        self.km = KernelManager(kernel_name="python3")
        spec = self.km.kernel_spec
        if spec is not None and spec.argv[1:3] == ["-m", "ipykernel_launcher"]:
            spec.argv = [spec.argv[0], "-c", LAUNCH.replace("CAP", str(2 * output_bytes)),
                         *spec.argv[3:]]
        self.km.start_kernel(extra_arguments=["--HistoryManager.enabled=False"],
                             stdout=open(os.devnull, "wb"), stderr=open(os.devnull, "wb"))
        self.kc = self.km.client()
        self.kc.start_channels()
        self._wait_for_ready(timeout=120)

    def _wait_for_ready(self, timeout):
        """Ready when the kernel has answered a kernel_info request on the shell channel and a
        message has come on IOPub (its subscription works: no output of the first cell is
        lost). jupyter_client's wait_for_ready does the same, then waits for 0.2 s of silence
        on IOPub to drop what came before; run() skips messages of other requests, so nothing
        needs dropping (that wait was a third of a second of every submission's run)."""
        from queue import Empty

        deadline = time.monotonic() + timeout
        iopub = False
        while True:
            if not self.alive():
                raise RuntimeError("the kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the kernel did not reply in {timeout} s")
            msg_id = self.kc.kernel_info()
            reply = None
            until = time.monotonic() + 1.0  # no answer: ask again (as jupyter_client does)
            while time.monotonic() < until:
                try:
                    msg = self.kc.get_shell_msg(timeout=0.02)
                    if msg.get("parent_header", {}).get("msg_id") == msg_id:
                        reply = msg
                        until = min(until, time.monotonic() + 0.2)
                except Empty:
                    pass
                try:
                    self.kc.get_iopub_msg(timeout=0.02)
                    iopub = True
                except Empty:
                    pass
                if reply is not None and iopub:
                    self.kc._handle_kernel_info_reply(reply)
                    return

    def _count(self, result):
        """At the process limit? (a fork bomb is reported as such, whether it ends in an error
        or runs into the time limit)"""
        if self.processes and tasks_of_this_user() >= 0.9 * self.processes:
            result["limit"] = "processes"

    def alive(self):
        return self.km.is_alive()

    def run(self, source, *, collect=False, silent=False, seconds=None):
        """Execute ``source``; returns a dict with status and (if collect) the stdout text."""
        msg_id = self.kc.execute(source, silent=silent, store_history=False, allow_stdin=False,
                                 stop_on_error=False)
        deadline = time.monotonic() + (seconds or self.cell_seconds)
        result = {"status": "ok"}
        text = []
        outputs = Outputs()
        interrupted = None
        while True:
            now = time.monotonic()
            if not self.alive():
                result["status"] = "died"
                result["exit"] = list(exit_reason(self.km))
                return result
            if now > deadline:
                if interrupted is None:
                    self._count(result)
                    interrupted = now
                    self.km.interrupt_kernel()
                    deadline = now + 5.0
                    result["status"] = "timeout"
                else:  # the cell ignored the interrupt: end the kernel
                    result["killed"] = True
                    self.km.shutdown_kernel(now=True)
                    return result
            try:
                msg = self.kc.get_iopub_msg(timeout=0.2)
            except Exception:  # queue.Empty
                continue
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg.get("msg_type")
            content = msg.get("content", {})
            if kind in ("stream", "display_data", "execute_result", "error", "update_display_data"):
                outputs.add(kind, content)
                if self.output_left >= 0:
                    self.output_left -= _size(content)
                if collect and kind == "stream" and content.get("name") == "stdout":
                    if sum(map(len, text)) < 4_000_000:
                        text.append(content.get("text", ""))
                if self.output_left < 0 and interrupted is None:
                    result["status"] = result["limit"] = "output"
                    interrupted = time.monotonic()
                    self.km.interrupt_kernel()
                    deadline = interrupted + 5.0
            if kind == "error" and result["status"] == "ok":
                self._count(result)
                result["status"] = "error"
                result["ename"] = str(content.get("ename", ""))[:100]
                result["evalue"] = str(content.get("evalue", ""))[:300]
            elif kind == "error" and "ename" not in result:
                result["ename"] = str(content.get("ename", ""))[:100]
                result["evalue"] = str(content.get("evalue", ""))[:300]
            if kind == "status" and content.get("execution_state") == "idle":
                if collect:
                    result["text"] = "".join(text)
                if not silent:
                    result["outputs"] = outputs.digest()
                if result["status"] == "ok":
                    self._check_reply(msg_id, result)
                return result

    def _check_reply(self, msg_id, result, seconds=5.0):
        """The cell's own execute_reply (shell channel) has the last word on a cell that looked
        ok: a reply saying "error" whose error message never came, or no reply at all (the
        kernel could not send it: an exception text no packer took, a packer the student
        replaced), make the cell one that did not end ok -- never a silent "ok"."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                reply = self.kc.get_shell_msg(timeout=0.2)
            except Exception:  # queue.Empty
                if not self.alive():
                    break
                continue
            if reply.get("parent_header", {}).get("msg_id") != msg_id:
                continue  # a late reply to an earlier request (a cell that timed out)
            content = reply.get("content", {})
            if content.get("status", "ok") != "ok":
                result["status"] = "error"
                result["ename"] = str(content.get("ename", "") or "an error")[:100]
                result["evalue"] = str(content.get("evalue", ""))[:300]
                result["unsent"] = "the kernel replied that the cell failed but sent no error"
            return
        result["status"] = "error"
        result["unsent"] = ("the kernel sent no reply for this cell: its result or error could "
                            "not be sent")

    def stop(self):
        try:
            self.kc.stop_channels()
            self.km.shutdown_kernel(now=True)
        except Exception:
            pass


def main(job_path):
    with open(job_path) as fh:
        job = json.load(fh)
    os.makedirs(job["home"], exist_ok=True)
    os.chdir(job["home"])
    with open(job["notebook_name"], "w") as fh:
        fh.write(job["notebook_text"])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # interrupts are for the kernel
    start = time.monotonic()
    try:
        kernel = Kernel(job["cell_seconds"], job["output_bytes"], job.get("processes"))
    except Exception as err:
        emit(event="failed", why=f"the kernel did not start ({type(err).__name__}: {err})"[:300])
        return 3
    kernel.run(SAFE_PACKER, silent=True, seconds=30)
    emit(event="started", seconds=round(time.monotonic() - start, 3))
    for cell in job["cells"]:
        outcome = kernel.run(cell["source"])
        emit(event="cell", index=cell["index"], **outcome)
        if outcome["status"] == "died" or outcome.get("killed"):
            kernel.stop()
            emit(event="done", seconds=round(time.monotonic() - start, 3))
            return 0
    outcome = kernel.run(EXTRACT + f"\n__genviz_extract({job['answers']!r}, {MARKER!r})\n",
                         collect=True, silent=False, seconds=job.get("extract_seconds", 30))
    text = outcome.pop("text", "")
    answers = None
    for line in text.split("\n"):
        if line.startswith(MARKER):
            try:
                answers = json.loads(line[len(MARKER):])
            except ValueError:
                answers = None
    if isinstance(answers, dict):
        emit(event="answers", answers=answers)
    else:
        emit(event="no-answers", **outcome)
    kernel.stop()
    emit(event="done", seconds=round(time.monotonic() - start, 3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
