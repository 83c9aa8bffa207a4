"""The hostile corpus (:data:`HOSTILE`): one submission per way a student who knows Python and
Linux might try to get marks they did not earn — or to stop, slow down or fool the grader, or
harm the gradebook or classmates — each with a regular expression that the report row must
match (what the grader says happened). The attacks are written as a student would write them,
in cells of the notebook or as files in the submission folder; none of them knows anything the
student cannot know (the course folder's path on the grading machine is given to them, as if
guessed). Graded by ``tests/test_grading_hostile.py``; :mod:`course.submissions` re-exports
these names (``submissions.HOSTILE``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import textwrap
from typing import Callable

import nbformat

from course.assignments import ASSIGNMENTS
from course.handin import cell_of, fill, release, right_answers, self_study_code, write

#: A string in the command line of every process a hostile submission starts: after grading,
#: no process on the machine may carry it (tests/test_grading_hostile.py).
MARKER = "genviz-hostile-7f3a"


# -- the hostile corpus -----------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Context:
    """What an attack may name: the course folder (as if guessed), a classmate and their
    notebook's answers, the secret's path on the grading machine."""

    course: pathlib.Path
    assignment: str
    classmate: str
    classmate_answers: dict
    secret_file: pathlib.Path


@dataclasses.dataclass(frozen=True)
class Hostile:
    kind: str
    why: str                       # what the attack tries
    expect: str                    # regex the report row (answers + problems) must match
    make: Callable                 # (release notebook, Context) -> notebook, or None (files)
    layout: Callable | None = None  # (course, student, Context) -> None: writes the files itself
    answers: str | None = None     # "self-study" / "classmate": whose right answers it hands in


def _cell1(code: str):
    """An attack in the first answer cell (the rest of the notebook unanswered)."""
    def make(nb, ctx):
        return fill(nb, {1: textwrap.dedent(code).strip().format(ctx=ctx, MARKER=MARKER)})
    return make


def _extra_cell(code: str, at: int = 2):
    """An attack in a cell the student adds after the setup."""
    def make(nb, ctx):
        nb = fill(nb, {})
        nb.cells.insert(at, nbformat.v4.new_code_cell(
            textwrap.dedent(code).strip().format(ctx=ctx, MARKER=MARKER)))
        return nb
    return make


def _all_answers(code_for: Callable):
    def make(nb, ctx):
        n = len(ASSIGNMENTS[ctx.assignment].questions)
        return fill(nb, {i: code_for(i, ctx) for i in range(1, n + 1)})
    return make


HOSTILE: list[Hostile] = []


def _h(kind, why, expect, make, layout=None, answers=None):
    HOSTILE.append(Hostile(kind, why, expect, make, layout, answers))


_h("hook_reads_hidden_test", "an IPython pre_run_cell hook reads every later cell's source "
   "(the hidden test in nbgrader) and sets the answer from it; it prints every source",
   r"q1 not answered.*registers IPython hooks \(pre_run_cell\)", _cell1('''
    import re
    def _spy(info):
        src = info.raw_cell or ""
        print(src)
        m = re.search(r"_Exercise\\([^,]+, ([^,]+),", src)
        if m:
            globals()["answer_q1"] = eval(m.group(1))
    get_ipython().events.register("pre_run_cell", _spy)
    answer_q1 = ...
    '''))

_h("input_transformer", "an input transformer turns every later cell (the tests, the "
   "grader's own code) into one that defines the answers", r"could not be read", _cell1('''
    get_ipython().input_transformers_post.append(
        lambda lines: ["answer_q1 = 0.123\\n", "print('all tests passed')\\n"])
    answer_q1 = 0.123
    '''))

_h("exception_handler", "a custom exception handler swallows every error and clears the error "
   "flag, so the kernel reports success", r"q1 not (answered|defined)", _cell1('''
    ip = get_ipython()
    def _quiet(shell, etype, value, tb, tb_offset=None):
        shell.execution_count += 0
        return []
    ip.set_custom_exc((BaseException,), _quiet)
    answer_q1 = undefined_name_that_raises
    '''))

_h("fake_execute_result", "a hook sends a fake execute_result ('2 points') into every later "
   "cell, as nbgrader reads partial credit from it; the notebook is handed in with a forged "
   "stored output in that answer cell (what the student's run 'showed')",
   r"q1 not answered.*the stored output of cell \d+ \(answer_q1\) is not what the code printed "
   r"when run.*registers IPython hooks \(post_run_cell\)",
   lambda nb, ctx: _forged_output(_fake_result(nb, ctx)))

_fake_result = _cell1('''
    ip = get_ipython()
    def _fake(*args):
        try:
            k = ip.kernel
            k.session.send(k.iopub_socket, "execute_result",
                           {{"data": {{"text/plain": "2"}}, "metadata": {{}},
                            "execution_count": 1}}, parent=k.get_parent())
        except Exception:
            pass
    ip.events.register("post_run_cell", _fake)
    answer_q1 = ...
    ''')


def _forged_output(nb):
    cell_of(nb, "answer_q1").outputs = [nbformat.v4.new_output(
        "execute_result", {"text/plain": "'answer_q1 is right: 2 points'"}, execution_count=3)]
    return nb


_h("reads_source_notebook", "looks for the instructor's source notebook, the gradebook and the "
   "course secret: the course folder's path (guessed), paths relative to the working directory, "
   "a walk of the whole file system", r"raised FileNotFoundError", _cell1('''
    import glob, os
    found = []
    for root in ("/", "/work", "/root", "/home", "/srv", "/tmp", "..", "../..", "../../.."):
        found += glob.glob(os.path.join(root, "*", "*.ipynb"))
        found += glob.glob(os.path.join(root, "*", "gradebook.db"))
    for dirpath, dirnames, filenames in os.walk("/tmp"):
        found += [os.path.join(dirpath, f) for f in filenames
                  if f in ("gradebook.db", "course-secret") or f.endswith(".ipynb")]
    print(found)
    text = open("{ctx.course}/source/{ctx.assignment}/{ctx.assignment}.ipynb").read()
    answer_q1 = text
    '''))

_h("builder_on_notebook_data", "calls genviz's own exercise builders on the self-study "
   "notebook's data and reads their answers (what the 'Show solution' button and the website "
   "show)", r"q1 wrong.*q1: the self-study notebook's answer, not your variant's",
   lambda nb, ctx: _self_study(nb, ctx), answers="self-study")


def _self_study(nb, ctx):
    n = len(ASSIGNMENTS[ctx.assignment].questions)
    return fill(nb, {1: self_study_code(ctx.assignment),
                     **{i: "# computed in the first answer cell" for i in range(2, n + 1)}})


#: The background process of the "gradebook_writer" attack: for a minute after grading it
#: writes full marks into every gradebook it finds and empties every submission it can reach.
DAEMON = """
import glob, os, sqlite3, sys, time
course = sys.argv[1]
time.sleep(3)
for _ in range(60):
    for db in glob.glob("/**/gradebook.db", recursive=True) + glob.glob(course + "/gradebook.db"):
        try:
            con = sqlite3.connect(db)
            con.execute("UPDATE grade SET manual_score = 99")
            con.commit()
        except Exception:
            pass
    for nb in glob.glob(course + "/submitted/*/*/*.ipynb"):
        try:
            open(nb, "w").write("{}")
        except Exception:
            pass
    time.sleep(0.5)
"""

_h("gradebook_writer", "starts a background process (its own session; and one more by a "
   "double fork) that outlives the notebook and writes full marks into every gradebook.db it "
   "can find, and empties other students' submissions",
   r"q1 not answered.*cell \d+ \(answer_q1\) starts processes \(subprocess\.Popen, os\.fork, "
   r"os\.execv\): the sandbox ends them",
   lambda nb, ctx: fill(nb, {1: textwrap.dedent('''
    import os, subprocess, sys
    DAEMON = {daemon!r}
    subprocess.Popen([sys.executable, "-c", DAEMON, "{course}", "{marker}"],
                     start_new_session=True, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", DAEMON, "{course}",
                                      "{marker}-double"])
        os._exit(0)
    answer_q1 = ...
    ''').strip().format(daemon=DAEMON, course=ctx.course, marker=MARKER)}))

_h("patch_allclose", "patches numpy.allclose/isclose/array_equal to always say True",
   r"q1 wrong.*replaces np\.allclose, np\.isclose, np\.array_equal in the notebook's kernel",
   _cell1('''
    import numpy as np
    np.allclose = lambda *a, **k: True
    np.isclose = lambda *a, **k: True
    np.array_equal = lambda *a, **k: True
    answer_q1 = 0.0
    '''))

_h("replace_bool", "replaces builtins.bool (and isinstance) so that every comparison is true",
   r"q1 (not plain data|wrong|not read)|could not be read", _cell1('''
    import builtins
    builtins.bool = lambda *a: True
    builtins.isinstance = lambda *a: True
    answer_q1 = 0.0
    '''))

_h("float_subclass", "an answer that is a float subclass equal to everything",
   r"answer q1 is not plain data \(a float subclass", _cell1('''
    class Sneaky(float):
        def __eq__(self, other): return True
        def __sub__(self, other): return 0.0
        def __rsub__(self, other): return 0.0
        def __abs__(self): return 0.0
    answer_q1 = Sneaky(0.0)
    '''))

_h("object_reads_checker_frame", "answers whose __float__/__array__/__eq__ walk up the stack to "
   "the checker's frame and return the reference they find there",
   r"answer q1 is not plain data \(an object of type Spy", _all_answers(lambda i, ctx: textwrap.dedent('''
    import inspect
    class Spy:
        def _steal(self):
            f = inspect.currentframe()
            while f is not None:
                for k in ("answer", "want", "_answer", "ref", "reference"):
                    if k in f.f_locals:
                        return f.f_locals[k]
                f = f.f_back
            return 0.0
        def __float__(self): return float(self._steal())
        def __array__(self, dtype=None, copy=None):
            import numpy as np
            return np.asarray(self._steal(), dtype=dtype)
        def __eq__(self, other): return True
        def __len__(self): return 2
        def __getitem__(self, k): return self._steal()
    answer_q{i} = Spy()
    ''').format(i=i).strip()))

_h("ndarray_subclass", "an answer that is an ndarray subclass whose comparisons are always true",
   r"answer q1 is not plain data \(an array subclass", _cell1('''
    import numpy as np
    class Always(np.ndarray):
        def __eq__(self, other): return np.ones(self.shape, bool)
    answer_q1 = np.zeros(2).view(Always)
    '''))

_h("os_exit", "the kernel exits (os._exit) in an answer cell",
   r"the kernel died \(os\._exit or a crash\) in cell \d+ \(answer_q1\)", _cell1('''
    import os
    os._exit(0)
    '''))

_h("segfault", "the kernel crashes (a NULL pointer read through ctypes)",
   r"the kernel died \(os\._exit or a crash\) in cell \d+.*SIGSEGV", _cell1('''
    import ctypes
    ctypes.string_at(0)
    '''))

_h("kills_the_runner", "kills every process it can signal (the runner that reports on the "
   "notebook, the sandbox's first process)",
   r"sandbox ended without a result|kernel died|could not be read", _cell1('''
    import os, signal
    os.kill(os.getppid(), signal.SIGKILL)
    os.kill(-1, signal.SIGKILL)
    '''))

_h("fork_bomb", "forks until the system refuses",
   r"a sandbox limit was hit \(processes\)", _cell1('''
    import os, time
    while True:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
    '''))

_h("memory_hog", "allocates 64 GB", r"a sandbox limit was hit \(memory\)", _cell1('''
    hog = bytearray(64 * 1024 ** 3)
    answer_q1 = 0.0
    '''))

_h("disk_filler", "fills the disk it can write to (its home)",
   r"a sandbox limit was hit \(disk\)", _cell1('''
    import os
    with open(os.path.expanduser("~/fill.bin"), "wb") as fh:
        while True:
            fh.write(b"x" * (1 << 20))
    '''))

_h("output_flood", "prints without end", r"a sandbox limit was hit \(output", _cell1('''
    while True:
        print("x" * 100000)
    '''))

_h("infinite_loop", "never ends", r"cell \d+ \(answer_q1\) exceeded the time limit", _cell1('''
    while True:
        pass
    '''))

# (it waits rather than spins: the interrupt is ignored and the kernel ended all the same, and a
# spinning loop only burned the cell limit plus the runner's 5 s of grace in CPU, ~15 CPU-s a
# class; infinite_loop above is the spinning one)
_h("ignores_interrupt", "ignores the interrupt (SIGINT) and never ends",
   r"exceeded the time limit .*it ignored the interrupt", _cell1('''
    import signal, time
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        time.sleep(0.05)
    '''))

_h("network", "downloads (a pip install, a web page, a socket to a public address)",
   r"raised (OSError|URLError|gaierror|ConnectionError|TimeoutError)", _cell1('''
    import socket
    socket.create_connection(("1.1.1.1", 80), timeout=3)
    '''))

_h("writes_outside", "writes into the course folder, the gradebook, the environment and the "
   "grader's home", r"raised (OSError|FileNotFoundError|PermissionError)", _cell1('''
    import os
    for path in ("{ctx.course}/gradebook.db", "{ctx.course}/grades.csv", "/root/.bashrc",
                 os.path.join(os.path.dirname(os.__file__), "os.py"), "/usr/lib/evil.py"):
        try:
            open(path, "a").write("pwned")
        except OSError:
            pass
    open("{ctx.course}/gradebook.db", "a").write("pwned")
    '''))

_h("reads_classmates", "reads a classmate's submission and copies their answers",
   r"raised FileNotFoundError", _cell1('''
    import json
    nb = json.load(open("{ctx.course}/submitted/{ctx.classmate}/{ctx.assignment}/{ctx.assignment}.ipynb"))
    answer_q1 = nb
    '''))

_h("proc_escape", "looks for the grader's files through /proc (the first process's root and "
   "working directory, its file descriptors)", r"raised (FileNotFoundError|PermissionError)",
   _cell1('''
    import os
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            for what in ("cwd", "root"):
                try:
                    print(pid, os.listdir(f"/proc/{{pid}}/{{what}}"))
                except OSError:
                    pass
    open("/proc/1/root{ctx.course}/gradebook.db", "rb").read()
    '''))

_h("environment_secret", "looks for the course secret in the environment and in the grader's "
   "home", r"raised FileNotFoundError", _cell1('''
    import os
    secret = [v for k, v in os.environ.items() if "SECRET" in k or "GENVIZ" in k]
    answer_q1 = open("{ctx.secret_file}").read()
    '''))

_h("classmate_answers", "hands in a classmate's right answers (their variant)",
   r"q1 wrong.*q1: the right answer of another student's variant \([^)]*alice",
   lambda nb, ctx: fill(nb, ctx.classmate_answers), answers="classmate")

_h("claims_classmate_id", "hands in the classmate's own release with their right answers "
   "(the notebook says it was released to the classmate)",
   r"released to '[^']+', not to", lambda nb, ctx: _claims(nb, ctx), answers="classmate")


def _claims(nb, ctx):
    mine = fill(release(ctx.assignment, ctx.classmate, _secret_of(ctx)), ctx.classmate_answers)
    return mine


def _secret_of(ctx):
    from course.variants import load_secret

    return load_secret(ctx.secret_file)


_h("edits_setup", "replaces the read-only setup cell with the self-study notebook's data, and "
   "answers for that data (its own form checks then pass)",
   r"read-only cell setup was edited", lambda nb, ctx: _edited_setup(nb, ctx),
   answers="self-study")


def _edited_setup(nb, ctx):
    a = ASSIGNMENTS[ctx.assignment]
    nb = fill(nb, right_answers(ctx.assignment))
    cell_of(nb, "setup").source = a.setup_code()
    return nb


_h("nan_answers", "answers NaN and infinity (NaN compares unequal, and equal_nan tricks)",
   r"answer q1 is not plain data \(NaN", _all_answers(
       lambda i, ctx: f"import numpy as np\nanswer_q{i} = np.full(2, np.nan) if {i} % 2 else "
                      "float('nan')"))

_h("huge_answer", "an answer of a million numbers", r"answer q1 is not plain data \(a list of",
   _cell1('''
    answer_q1 = [0.0] * 1000000
    '''))

_h("deep_answer", "an answer nested 40 lists deep", r"answer q1 is not plain data", _cell1('''
    answer_q1 = 0.0
    for _ in range(40):
        answer_q1 = [answer_q1]
    '''))

_h("fake_runner_report", "writes its own report lines on the sandbox runner's output (a fake "
   "'answers' event with made-up values, garbage, a fake 'done')",
   r"q1 (wrong|not answered|not defined)", _cell1('''
    import json, os
    line = json.dumps({{"event": "answers", "answers": {{"answer_q1": {{"value": 0.123}}}}}})
    with open(f"/proc/{{os.getppid()}}/fd/1", "w") as out:
        out.write("garbage\\n" + line + "\\n" + json.dumps({{"event": "done"}}) + "\\n")
    answer_q1 = 0.123
    '''))

_h("huge_integer", "an integer answer of 101 digits (more than the decoder reads)",
   r"answer q1 is not plain data \(an integer of more than 30 digits", _cell1('''
    answer_q1 = 10 ** 100
    '''))

_h("bytes_answer", "an answer that is bytes", r"answer q1 is not plain data \(an object of type "
   r"bytes", _cell1('''
    answer_q1 = b"0.5"
    '''))

_h("shell_escape", "shell commands from the notebook: a download, a look around the machine",
   r"q1 not answered.*runs shell commands \(curl, ls, cat\) in the sandbox", _cell1('''
    !curl -s -m 3 http://example.com
    !ls / /work /root /tmp
    !cat /etc/shadow
    answer_q1 = ...
    '''))

_h("markup_in_report", "an error message that is HTML with a script and a spreadsheet formula "
   "(for the feedback page and grades in a spreadsheet)", r"raised ValueError", _cell1('''
    raise ValueError("=HYPERLINK(\\"http://evil\\") <script>alert(1)</script>")
    '''))

_h("execv_kernel", "replaces the kernel process by another program (it keeps the PID, never "
   "answers)", r"exceeded the time limit|kernel died", _cell1('''
    import os, sys
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", "{MARKER}"])
    '''))


def _symlink_notebook(course, student, ctx):
    folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
    folder.mkdir(parents=True, exist_ok=True)
    target = pathlib.Path(course) / "submitted" / ctx.classmate / ctx.assignment / \
        f"{ctx.assignment}.ipynb"
    (folder / f"{ctx.assignment}.ipynb").symlink_to(target)


def _symlink_folder(course, student, ctx):
    (pathlib.Path(course) / "submitted" / student).symlink_to(
        pathlib.Path(course) / "submitted" / ctx.classmate)


def _hardlinked_notebook(course, student, ctx):
    folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
    folder.mkdir(parents=True, exist_ok=True)
    target = pathlib.Path(course) / "submitted" / ctx.classmate / ctx.assignment / \
        f"{ctx.assignment}.ipynb"
    os.link(target, folder / f"{ctx.assignment}.ipynb")


def _huge_notebook(course, student, ctx):
    folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{ctx.assignment}.ipynb", "wb") as fh:
        fh.write(b'{"cells": [], "pad": "' + b"x" * 25_000_000 + b'"}')


_h("symlinked_notebook", "hands in a symbolic link to a classmate's notebook",
   r"is a symbolic link", None, _symlink_notebook)
_h("symlinked_folder", "makes their submission folder a link to a classmate's",
   r"is a symbolic link", None, _symlink_folder)
_h("hardlinked_notebook", "hands in a hard link to a classmate's notebook (the same file under "
   "two names)", r"has 2 hard links.*released to", None, _hardlinked_notebook,
   answers="classmate")
_h("huge_notebook", "a 25 MB notebook", r"more than the limit of 20 MB", None, _huge_notebook)


# -- kinds of issue #38: text that breaks writers, markup for the grader's pages, isolation --------

def _raw_notebook(data: bytes):
    def layout(course, student, ctx):
        folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{ctx.assignment}.ipynb").write_bytes(data)
    return layout


def _surrogate_cells(nb, ctx):
    nb = fill(nb, {1: 'answer_q1 = "\ud800 a lone surrogate in the source"'},
              working="My derivation \udc80\ud800 (lone surrogates)")
    nb.metadata["genviz-note"] = "\udcff"
    return nb


#: Markdown that is live in a page unless the renderer is kept from it: links and images of
#: every spelling a renderer decodes back (entities, case, spaces, a reference, an autolink),
#: raw HTML, MathJax's \href, a fence that tries to close the grader's code block.
HOSTILE_MARKDOWN = "\n\n".join([
    "[my derivation](javascript:fetch('/api/contents/x',{method:'PUT'}))",
    "[b](java&#115;cript:alert(1)) [c](javascript&#58;alert(1)) [d](JaVaScRiPt:alert(1))",
    "[e]( javascript:alert(1)) [f](&#x6A;avascript:alert(1)) [g](java\tscript:alert(1))",
    "[h](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) [i](vbscript:msgbox(1))",
    "![beacon](http://beacon.invalid/seen.png) ![b2](//beacon.invalid/seen2.png)",
    "[ref link][r1]\n\n[r1]: javascript:alert(1)",
    "<javascript:alert(1)> <http://beacon.invalid/auto> http://beacon.invalid/bare",
    "<img src=x onerror=alert(1)><script>alert(1)</script><a href=\"javascript:alert(1)\">a</a>",
    "<iframe src=\"http://beacon.invalid/frame\"></iframe><svg onload=alert(1)></svg>",
    "<style>body{background:url(http://beacon.invalid/css.png)}</style>",
    "$\\href{javascript:alert(1)}{x}$ $$\\href{javascript:alert(2)}{y}$$",
    "```\n</code></pre><img src=http://beacon.invalid/fence.png>\n```",
    "~~~~\n<img src=http://beacon.invalid/tilde.png>\n~~~~",
    "```````` <img src=http://beacon.invalid/long.png>",
    "\x1b]52;c;cHduZWQ=\x07\x1b]0;grading finished: all OK\x07\x1b[2K\x07\u202etxt.exe",
])

#: Control sequences a terminal obeys: OSC 52 (write the clipboard), OSC 0 (window title),
#: CSI 2K (erase the line), a carriage return and cursor-up, a right-to-left override; then
#: characters that hide or reorder text: the Arabic letter mark, zero-width space and joiner,
#: the line separator, a byte-order mark, a tag.
CONTROL = ("\x1b]52;c;cHduZWQ=\x07\x1b]0;grading finished: all OK\x07\x1b[2K\r\x1b[1A\u202e"
           "\u061c\u200b\u200d\u2028\ufeff\U000e0041")


def _control_cell(nb, ctx):
    return fill(nb, {1: f"answer_q2 = {CONTROL!r}\nraise ValueError({CONTROL!r})"})


_h("surrogate_json", "a 36-byte notebook whose JSON holds a lone surrogate (valid JSON, no "
   "UTF-8 writer takes it)", r"is not a valid notebook", None,
   _raw_notebook(b'{"nbformat": "\\udc80", "cells": []}'))
_h("surrogate_in_cells", "lone surrogates in an answer cell's source, the hand-graded working "
   "and the metadata", r"q1 wrong.*holds lone surrogates .*shown escaped as \\udXXX.*q1: "
   r"Expected a number", _surrogate_cells)
_h("surrogate_exception", "pure ASCII code whose exception text holds a lone surrogate (no "
   "packer of the kernel takes it: the error used to be lost and the cell reported ok)",
   r"\(answer_q1\) raised ValueError: bad \\ud800\\udc80",
   _cell1('raise ValueError("bad " + chr(0xd800) + chr(0xdc80))'))
_h("surrogate_answer", "an answer string that is a lone surrogate",
   r"q1 wrong.*q1: Expected a number or an array of numbers, got str",
   _cell1("answer_q1 = chr(0xdc80) * 3"))
_h("terminal_escapes", "control sequences in the exception text (OSC 52 writes the grader's "
   "clipboard, OSC 0 the window title, CSI erases the line) and in an answer",
   r"raised ValueError: \\x1b\]52", _control_cell)
_h("hostile_markdown", "links and images in the hand-graded working: javascript:, data:, "
   "entity-encoded variants, external images (a beacon), raw HTML, a fence breaker",
   r"q1 not answered.*working_q\d+ holds links, images or HTML: shown to the grader as plain "
   r"text", lambda nb, ctx: fill(nb, {}, working=HOSTILE_MARKDOWN))
_h("odd_file_names", "the notebook under a name with a byte that is not UTF-8 and control "
   "characters (and no notebook of the right name)", r"no a\d\d_\w+\.ipynb in the submission "
   r"\(found: .*\\udcff", None, lambda course, student, ctx: _odd_names(course, student, ctx))
_h("many_cells", "3,000 cells tagged as the read-only setup (the grader's time and memory)",
   r"more than 4 times the release", lambda nb, ctx: _copies(nb, "setup", 3000))
_h("many_problems", "forty copies of an answer cell, each a line of the report",
   r"and \d+ more", lambda nb, ctx: _copies(nb, "answer_q1", 40))
_h("kernel_keyring", "stores a value in the kernel keyring (a later student's code would read "
   "it back)", r"raised PermissionError", _cell1('''
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    calls = {{"x86_64": 248, "aarch64": 217}}[os.uname().machine]
    key = libc.syscall(calls, b"user", b"genviz-note", b"42.0", 4, ctypes.c_int(-4))
    if key < 0:
        raise PermissionError(ctypes.get_errno(), "add_key refused")
    answer_q1 = ...
    '''))
_h("user_namespace", "makes a user namespace (more kernel surface, root inside it)",
   r"raised PermissionError", _cell1('''
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x10000000) != 0:  # CLONE_NEWUSER
        raise PermissionError(ctypes.get_errno(), "no user namespace")
    answer_q1 = "inside a user namespace"
    '''))
_h("forged_timestamp", "a timestamp.txt in the submission that says it was handed in on "
   "2020-01-01", r"q1 not answered.*timestamp\.txt says '2020-01-01[^']*': not used, the "
   r"hand-in time is the course's", None,
   lambda course, student, ctx: _forged_timestamp(course, student, ctx))


def _odd_names(course, student, ctx):
    folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
    folder.mkdir(parents=True, exist_ok=True)
    odd = os.fsencode(folder) + b"/" + ctx.assignment.encode() + b"\xff\x1b]0;x\x07.ipynb"
    with open(odd, "w") as fh:
        fh.write(json.dumps(release(ctx.assignment, student, _secret_of(ctx))))


def _copies(nb, grade_id: str, n: int):
    nb = fill(nb, {})
    cell = {k: v for k, v in json.loads(json.dumps(cell_of(nb, grade_id))).items() if k != "id"}
    nb.cells += [nbformat.from_dict({**cell, "id": f"copy-{k}"}) for k in range(n)]
    return nb


def _forged_timestamp(course, student, ctx):
    folder = write(course, student, ctx.assignment,
                   fill(release(ctx.assignment, student, _secret_of(ctx)), {})).parent
    (folder / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")


# -- kinds that stop, slow down or fool the grader itself (issue #38, red team) -----------------

#: Text on which a regular expression that backtracks takes time quadratic in its length: 600,000
#: blank lines (``^\s*`` at every line start ran to the end of the text), then a shell command;
#: Markdown of 400,000 ``<`` (``<[^>]*...`` ran to the end from every one), then a link. Each
#: pattern of course/reasons.py read it for about an hour; bounded, it takes a moment.
SLOW_CODE = "\n" * 600_000 + "!ls -la\nanswer_q1 = 1.0"
SLOW_MARKDOWN = "<" * 400_000 + "\n[my derivation](javascript:alert(1))"

_h("slow_patterns", "text crafted so that the grader's regular expressions backtrack (hours of "
   "the grading process on one submission)", r"q1 wrong.*cell \d+ \(answer_q1\) runs shell "
   r"commands \(ls\).*working_q\d+ holds links",
   lambda nb, ctx: fill(nb, {1: SLOW_CODE}, working=SLOW_MARKDOWN))


_h("oversize_notebook", "a 3 MB notebook (its release: 13 kB) under the absolute 20 MB: decoded "
   "whole, it cost the grader its memory and time before its size was compared",
   r"refused: the notebook is 3\.\d MB, more than 20 times the release's size",
   lambda nb, ctx: fill(nb, {1: "padding = '" + "y" * 3_000_000 + "'"}))


def _other_assignment(course, student, ctx):
    """A folder named after an assignment genviz knows and the course did not release."""
    folder = pathlib.Path(course) / "submitted" / student / OTHER
    folder.mkdir(parents=True, exist_ok=True)
    nb = fill(release(ctx.assignment, student, _secret_of(ctx)), ctx.classmate_answers)
    nb.metadata["genviz"]["assignment"] = OTHER
    (folder / f"{OTHER}.ipynb").write_text(json.dumps(nb, ensure_ascii=True))


def _metadata_of(other: str):
    def make(nb, ctx):
        nb = fill(nb, ctx.classmate_answers)
        nb.metadata["genviz"]["assignment"] = other
        return nb
    return make


#: an assignment genviz knows that the hostile class's course does not release
OTHER = "a06_naive_bayes"
_h("other_assignment", "a folder named after an assignment genviz knows and the course did not "
   "release (it was graded, and added to the gradebook)",
   r"refused: the course did not release 'a06_naive_bayes'", None, _other_assignment)
_h("metadata_other_assignment", "the assignment's folder holds a notebook whose metadata names "
   "another assignment (a classmate's answers in it)", r"refused: the notebook is a release of "
   r"'a06_naive_bayes' \(its metadata\), not of 'a03_gda'", _metadata_of(OTHER))


def _folder_flood(course, student, ctx):
    """The notebook, 3,000 empty files in folders 60 deep, and a 100 MB file (sparse)."""
    folder = write(course, student, ctx.assignment,
                   fill(release(ctx.assignment, student, _secret_of(ctx)), {})).parent
    here = folder
    for k in range(3000):
        if k % 50 == 0:
            here = here / f"d{k // 50}"
            here.mkdir()
        (here / f"f{k}").touch()
    with open(folder / "data.bin", "wb") as fh:
        fh.truncate(100_000_000)


def _student_folder_flood(course, student, ctx):
    write(course, student, ctx.assignment, fill(release(ctx.assignment, student, _secret_of(ctx)),
                                                ctx.classmate_answers))
    for k in range(300):
        (pathlib.Path(course) / "submitted" / student / f"x{k:03d}").mkdir()


_h("folder_flood", "the submission folder holds thousands of files in deep folders and a large "
   "file (every entry was read, three times, for the hand-in time)",
   r"refused: the submission folder holds more than 1000 files and folders", None, _folder_flood)
_h("student_folder_flood", "the student's folder holds 300 folders beside the assignment's (each "
   "was an 'unknown assignment' row)", r"refused: submitted/[^/]+/ holds more than 100 files "
   "and folders", None, _student_folder_flood)


def _one_id(nb, ctx):
    nb = fill(nb, {1: "answer_q1 = -1.0"})
    for cell in nb.cells:
        cell["id"] = "\x1b]0;grading finished: all OK\x07"
    return nb


_h("duplicate_cell_ids", "every cell carries the same id, with control characters in it "
   "(nbformat warned once per cell on the grader's terminal, quoting it)",
   r"\d+ cells repeat another cell's id", _one_id)


def _depth_bomb(course, student, ctx):
    """The student's own release with 100,000 nested lists in its metadata (200 kB)."""
    folder = pathlib.Path(course) / "submitted" / student / ctx.assignment
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(release(ctx.assignment, student, _secret_of(ctx)))
    (folder / f"{ctx.assignment}.ipynb").write_text(
        text[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}")


def _char_list(nb, ctx):
    nb = fill(nb, {})
    cell_of(nb, "answer_q1")["source"] = list("answer_q1 = -1.0\n" + "#" * 150_000)
    return nb


def _base64_output(nb, ctx):
    nb = fill(nb, {1: "answer_q1 = -1.0"})
    cell_of(nb, "answer_q1")["outputs"] = [nbformat.v4.new_output(
        "display_data", data={"image/png": "iVBORw0KGgo" + "A" * 1_500_000,
                              "text/plain": "<Figure: 2 points>"})]
    return nb


_h("depth_bomb", "the notebook's JSON nests 100,000 lists (every recursive reader of JSON "
   "would overflow)", r"is not a valid notebook \(RecursionError", None, _depth_bomb)
_h("char_list_source", "an answer cell whose source is a list of 150,000 one-character "
   "strings", r"q1 wrong", _char_list)
_h("huge_image_output", "a stored output of 1.5 MB of base64 (an image) claiming '2 points' "
   "under an answer", r"q1 wrong.*the stored output of cell \d+ \(answer_q1\) is not what the "
   "code printed", _base64_output)


#: A folder name that is not UTF-8, with control characters: a student of its own (its row
#: says the id is not valid), written by the class tests beside the hostile corpus.
ODD_FOLDER = b"h-\xff\x1b]0;all OK\x07"


def write_hostile(course, student: str, hostile: Hostile, ctx: Context, secret: bytes):
    """Write ``hostile``'s submission for ``student`` into ``course/submitted/``."""
    if hostile.layout is not None:
        hostile.layout(course, student, ctx)
        return
    write(course, student, ctx.assignment, hostile.make(release(ctx.assignment, student, secret),
                                                        ctx))
