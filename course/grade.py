"""Grade a class: every submission under ``DIR/submitted/<student>/<assignment>/``.

    python -m course.grade DIR [--jobs N] [--timeout SECONDS] [--roster FILE] [--unsafe]

Per submission, in this order:

1. **Read** (this process, no student code; :mod:`course.intake`): only the course's
   assignments (:func:`course_assignments`), folders read lazily and bounded; the notebook must
   be a regular file (not a link) of at most 20 MB and of 20 x its release's bytes (+2 MB),
   judged from its size before it is read, and valid JSON. The student's *own* release is rebuilt from the course's
   records — the student id of the folder and the course secret give the variant
   (:mod:`course.variants`) — and the notebook is checked against it: the student id in its
   metadata, the read-only cells (an edited one is replaced by the original, a deleted one put
   back). What runs is the student's cells with the course's read-only cells.
2. **Run** (:mod:`course.sandbox`): a Jupyter kernel runs those cells in a sandbox that sees
   only them and the read-only Python environment: no network, no course folder, a time limit
   per cell, limits on memory, processes, disk and output, and no process left afterwards. The
   kernel is then asked for the answer variables ``answer_q1``... as plain JSON; nothing else
   comes out.
3. **Check** (this process): each answer is decoded strictly (:mod:`course.plain`; a float
   subclass, an object, NaN, something huge is refused with the reason) and checked by the
   question's own Exercise, rebuilt here for this student's variant: the self-study check, its
   tolerance and its hint.
4. **Record** (the parent process only, after every run): scores in ``gradebook.db``
   (:mod:`course.gradebook`), then ``grades.csv``, ``grading_report.csv`` (per submission, what
   happened, in words) and ``feedback/<student>/<assignment>/<assignment>.html``
   (:mod:`course.report`).

Whatever goes wrong with one submission — a text no writer takes, a bug — becomes its row
("could not be graded: ...") and the class goes on; every text from a submission is shown
escaped (:mod:`course.shown`). The exit status of ``main``: 0 when every handed-in submission
was graded, 2 when grading did not start, else 10 + how many could not be graded (at most 110).

If no sandbox works on the machine, grading refuses to start and says how to install one;
``--unsafe`` is the only way past it, and then every report row says so.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import re
import signal
import stat
import sys
import time

import nbformat

from course import reasons, report
from course.assignments import ASSIGNMENTS
from course.build import student_notebook, write_sources
from course.cells import is_choice
from course.gradebook import MAX_ENTRIES, collection_time, record_assignments, text_hash
from course.intake import (LONE_SURROGATE, MAX_BYTES_FACTOR, MAX_CELLS_FACTOR,  # noqa: F401
                           MAX_NOTEBOOK_BYTES, _entries, _folder_assignments, _grade_id,
                           _listing, _loose_notebooks, _repeated_ids, _source, byte_limit, merge,
                           read_submission, too_large, too_many_bytes)
from course.plain import NotPlain, check_answer
from course.report import (answer_spread, export, sandbox_lines, terminal_lines,
                           write_feedback, write_report, write_spread)
from course.sandbox import Limits, Sandbox, SandboxUnavailable
from course.shown import printable
from course.variants import STUDENT_ID, fingerprint, load_secret

MAX_STUDENT_ENTRIES = 100          # entries of submitted/<student>/ read (folders, notebooks)
MAX_PROBLEMS = 25                   # report lines kept per submission (then "and N more")
MAX_PROBLEM_CHARS = 300             # characters kept per report line
UNSAFE = "no sandbox: graded with --unsafe"
# the report, feedback and terminal writers are course/report.py's (imported above); these of
# its names are read from here too
REPORT_FIELDS, _cell_text = report.REPORT_FIELDS, report._cell_text
FEW_VALUES, FEW_VALUES_CLASS, SHARED_SHARE = (report.FEW_VALUES, report.FEW_VALUES_CLASS,
                                              report.SHARED_SHARE)


@dataclasses.dataclass
class Outcome:
    student_id: str
    assignment: str
    graded: bool = False            # the notebook was run and its answers checked
    submitted: bool = False         # a folder was handed in (even an empty or broken one)
    known_student: bool = True      # a valid id (and on the roster, if there is one)
    score: float = 0.0
    max_score: float = 0.0
    problems: list = dataclasses.field(default_factory=list)
    verdicts: dict = dataclasses.field(default_factory=dict)   # "q1" -> "right" / "wrong" / ...
    earned: dict = dataclasses.field(default_factory=dict)     # "test_q1" -> points
    feedback: dict = dataclasses.field(default_factory=dict)   # "q1" -> message
    working: dict = dataclasses.field(default_factory=dict)    # "working_q6" -> sha256 of text
    seconds: float = 0.0            # wall time of the sandbox run
    peak_bytes: int | None = None   # the sandbox's peak memory (all its processes), if known
    handed_in: str = ""             # when, and where that time came from (never the student)
    sandbox: str = ""               # the run's isolation as applied: memory bound, user namespaces
    values: dict = dataclasses.field(default_factory=dict)     # "q1" -> the answer, as JSON
    rights: dict = dataclasses.field(default_factory=dict)     # "q1" -> this variant's right
    #                                 numeric answer and tolerance (course.reasons.rights)
    prompts: list = dataclasses.field(default_factory=list)    # the questions, as released
    for_student: dict = dataclasses.field(default_factory=dict)  # a report line -> its words in
    #                                 the feedback (no classmate's name there)


# -- reading a submission ----------------------------------------------------------------------


# -- running and checking ------------------------------------------------------------------------

LIMIT_WORDS = {"MemoryError": "memory"}


def _where(index: int, gid: str | None) -> str:
    return f"cell {index}" + (f" ({gid})" if gid else "")


def describe_run(result, cells, limits: Limits, where=None) -> tuple[dict | None, list[str]]:
    """The answers (untrusted, to be checked) and what happened, in words."""
    where = {} if where is None else where
    problems = []
    answers = None
    done = False
    for event in result.events:
        kind = event.get("event")
        if kind == "cell":
            index = event.get("index")
            if not isinstance(index, int) or not 1 <= index <= len(cells):
                problems.append("the sandbox reported a cell that does not exist (ignored)")
                continue
            where["cell"] = index
            where_ = _where(index, cells[index - 1][2])
            status = event.get("status")
            ename = str(event.get("ename", ""))[:60]
            evalue = " ".join(str(event.get("evalue", "")).split())[:120]
            limit = "processes" if event.get("limit") == "processes" else \
                _limit_of(ename, evalue) if status == "error" else None
            if limit:
                problems.append(f"a sandbox limit was hit ({limit}) in {where_}"
                                + (f": {ename}: {evalue}" if ename else ""))
            if status == "died":
                problems.append(_death(event.get("exit"), where_))
            elif status == "timeout":
                msg = f"{where_} exceeded the time limit ({limits.cell_seconds:g} s)"
                if event.get("killed"):
                    msg += ("; it ignored the interrupt, so the kernel was ended and the cells "
                            "after it did not run")
                problems.append(msg)
            elif status == "output":
                problems.append(f"a sandbox limit was hit (output: more than "
                                f"{limits.output_bytes / 1e6:g} MB printed) in {where_}")
            elif status == "error" and not limit:
                error = f"{ename}: {evalue}" if ename else "an error"
                unsent = " ".join(str(event.get("unsent", "")).split())[:120]
                if unsent:  # the kernel could not send the error (or the cell's reply)
                    error += f" ({unsent})"
                if cells[index - 1][2] == "setup":
                    problems.append(f"the setup cell raised {error}")
                else:
                    problems.append(f"{where_} raised {error}")
        elif kind == "answers" and isinstance(event.get("answers"), dict):
            if answers is None:
                answers = event["answers"]
            else:
                problems.append("the sandbox reported the answers twice (the first report was "
                                "used)")
        elif kind == "no-answers":
            problems.append("the answers could not be read after the last cell (the kernel "
                            "printed none)")
        elif kind == "failed":
            problems.append(f"the sandbox could not run the notebook: "
                            f"{str(event.get('why', ''))[:200]}")
        elif kind == "done":
            done = True
    if result.ended == "wall":
        problems.append(f"the notebook exceeded the total time limit "
                        f"({limits.wall(len(cells)):.0f} s, fixed by the assignment's release): "
                        "the sandbox was ended")
    elif result.ended == "output":
        problems.append(f"a sandbox limit was hit (output: the sandbox wrote more than "
                        f"{limits.result_bytes / 1e6:g} MB)")
    elif not done and answers is None and not any("kernel died" in p for p in problems):
        problems.append(f"the sandbox ended without a result (exit status {result.exit_code})")
    if result.garbage:
        problems.append(f"the sandbox printed {result.garbage} lines that are not the runner's "
                        "(ignored)")
    if result.leftover:
        problems.append(f"{len(result.leftover)} processes of the sandbox were still running "
                        f"after it ended (PIDs {result.leftover[:5]}): ended")
        for pid in result.leftover:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
    return answers, problems


def sandbox_words(result, sandbox) -> str:
    """How this run was isolated, as applied (not as configured): the sandbox, the memory bound
    of the whole sandbox (a memory cgroup, or where none could be made the process count x the
    per-process bound), its own uid (as root), whether user namespaces were disabled inside (a
    machine that refuses the inner bubblewrap grades without it, course.sandbox.probe)."""
    if getattr(sandbox, "unsafe", False):
        return "none: --unsafe"
    parts = [str(result.sandbox or "bubblewrap"),
             str(result.memory or "the whole sandbox's memory bound is not known")]
    if result.uid is not None:
        parts.append("a throw-away uid of its own")
    userns = getattr(sandbox, "userns", "")
    if userns:
        parts.append(str(userns))
    return "; ".join(parts)


def _death(how, where: str) -> str:
    """How the kernel ended, in words: a CPU-time limit, an exit status, a signal."""
    if isinstance(how, list) and len(how) == 2 and isinstance(how[1], int) \
            and not isinstance(how[1], bool):
        if how[0] == "signal" and how[1] == signal.SIGXCPU:
            return f"a sandbox limit was hit (CPU time) in {where}: the kernel was ended"
        detail = (f": it exited with status {how[1]}" if how[0] == "exit"
                  else f": signal {how[1]} ({_signame(how[1])})")
    else:
        detail = ""
    return (f"the kernel died (os._exit or a crash) in {where}{detail}; the cells after it did "
            "not run")


def _signame(n: int) -> str:
    try:
        return signal.Signals(n).name
    except ValueError:
        return "unknown"


def _limit_of(ename: str, evalue: str) -> str | None:
    if ename == "MemoryError":
        return "memory"
    if "Resource temporarily unavailable" in evalue and ename in ("BlockingIOError", "OSError",
                                                                  "RuntimeError"):
        return "processes"
    if "can't start new thread" in evalue:
        return "processes"
    if "File too large" in evalue or "No space left on device" in evalue:
        return "disk"
    return None


def check_answers(exercises, answers, outcome: Outcome, assignment, where=None) -> None:
    """Each question's verdict by its own Exercise on the plain answer (this process)."""
    where = {} if where is None else where
    for i, (question, exercise) in enumerate(zip(assignment.questions, exercises), 1):
        where["stage"] = f"checking answer_q{i}"
        q, name, grade_id = f"q{i}", f"answer_q{i}", f"test_q{i}"
        outcome.earned[grade_id] = 0.0
        entry = answers.get(name) if isinstance(answers, dict) else None
        if answers is None:
            outcome.verdicts[q] = "not read"
            continue
        if not isinstance(entry, dict):
            outcome.verdicts[q] = "not read"
            outcome.problems.append(f"answer {q} was not reported by the sandbox")
            continue
        if entry.get("missing") is True:
            outcome.verdicts[q] = "not defined"
            outcome.feedback[q] = f"{name} is not defined."
            continue
        if "refused" in entry:
            why = " ".join(str(entry["refused"]).split())[:160]
            outcome.verdicts[q] = "not plain data"
            outcome.problems.append(f"answer {q} is not plain data ({why})")
            outcome.feedback[q] = f"{name} is not plain data ({why}): give a number, a list or a string."
            continue
        try:
            value = check_answer(entry.get("value"))
        except NotPlain as err:
            outcome.verdicts[q] = "not plain data"
            outcome.problems.append(f"answer {q} is not plain data ({err})")
            outcome.feedback[q] = f"{name} is not plain data ({err})."
            continue
        outcome.values[q] = json.dumps(value, sort_keys=True)
        if is_choice(exercise) and isinstance(value, str) and value.strip() \
                and not _is_letter(exercise, value):
            # the release asks for the letter; an option's text is the same for every student
            # (and is what the self-study solution prints), so it is not taken
            outcome.verdicts[q] = "wrong"
            outcome.feedback[q] = (f"{name} should be the letter of your option, as a string "
                                   f"(one of {', '.join(_letters(exercise))}), not its text.")
            continue
        feedback = exercise.check(value)
        outcome.feedback[q] = feedback.message
        if feedback.correct is None:
            outcome.verdicts[q] = "not answered"
        elif feedback.correct:
            outcome.verdicts[q] = "right"
            outcome.earned[grade_id] = float(question.points)
        else:
            outcome.verdicts[q] = "wrong"


def _letters(exercise) -> list[str]:
    return [exercise.label(k) for k in range(len(exercise.options))]


def _is_letter(exercise, value) -> bool:
    """A choice's answer as the release asks for it: the letter of an option ('b', '(b)')."""
    return isinstance(value, str) and value.strip().strip("()").strip().lower() in [
        x.lower() for x in _letters(exercise)]


def grade_one(course: pathlib.Path, student: str, name: str, secret: bytes, sandbox: Sandbox,
              limits: Limits, feedback: bool = True) -> Outcome:
    """Read, run and check one submission (see the module docstring); writes its autograded
    notebook and feedback (never the gradebook). Never raises: whatever goes wrong with this
    submission becomes its row ("could not be graded: ..."), and the class goes on."""
    outcome = Outcome(student, name)
    where = {"stage": "reading the notebook", "cell": None}
    try:
        _grade_one(course, outcome, secret, sandbox, limits, feedback, where)
    except Exception as err:  # noqa: BLE001 - one submission never stops the class
        outcome.graded = False
        outcome.score = 0.0
        outcome.earned = {k: 0.0 for k in outcome.earned}
        outcome.problems.append(f"could not be graded: {type(err).__name__}: "
                                f"{(str(err).splitlines() or [''])[0][:160]} (while "
                                f"{where['stage']}"
                                + (f", the notebook's cell {where['cell']}" if where["cell"]
                                   else "") + ")")
        if feedback and outcome.submitted:
            try:
                write_feedback(course, outcome, None)
            except Exception:  # noqa: BLE001 - the row says what happened
                pass
    outcome.problems = bounded(outcome.problems)
    return outcome


def bounded(problems: list) -> list[str]:
    """The report's lines for one submission: each shown safely (control characters and lone
    surrogates escaped), at most MAX_PROBLEM_CHARS characters, at most MAX_PROBLEMS lines."""
    out = []
    for p in problems[:MAX_PROBLEMS]:
        p = printable(" ".join(str(p).split()))
        out.append(p if len(p) <= MAX_PROBLEM_CHARS else p[:MAX_PROBLEM_CHARS - 1] + "\u2026")
    if len(problems) > MAX_PROBLEMS:
        out.append(f"and {len(problems) - MAX_PROBLEMS} more")
    return out


def wall_budget(release, limits: Limits) -> Limits:
    """The limits with the whole run's time fixed by the release (its code cells), never by
    the submission: a student cannot buy time by adding cells."""
    if limits.wall_seconds is not None:
        return limits
    n = sum(1 for c in release.cells if c.cell_type == "code")
    return dataclasses.replace(limits, wall_seconds=limits.wall(n))


def _grade_one(course, outcome, secret, sandbox, limits, feedback, where) -> None:
    student, name = outcome.student_id, outcome.assignment
    assignment = ASSIGNMENTS[name]
    folder = course / "submitted" / student / name
    outcome.submitted = folder.is_dir() or folder.is_symlink()
    found = collection_time(folder)  # (bounded: at most MAX_ENTRIES + 1 entries read)
    if found is not None and found[2] > MAX_ENTRIES:
        outcome.problems = [f"refused: the submission folder holds more than {MAX_ENTRIES} files "
                            "and folders: not graded (hand in the notebook and the few files "
                            "it reads)"]
        _finish(course, outcome, None, None, feedback, sandbox)
        return
    built = []

    def refuse(raw, size):  # the size, from the JSON as read, before nbformat parses it
        if not built:
            where["stage"] = "building the student's release"
            built.append(student_notebook(assignment, student, secret))
        if raw is None:
            return None
        where["stage"] = "comparing the notebook with the release"
        refused = too_large(raw, built[0][0], size)
        where["stage"] = "reading the notebook"
        return refused

    def max_bytes():  # from the file's size, before a byte of it is read or decoded
        refuse(None, 0)
        where["stage"] = "reading the notebook"
        return byte_limit(built[0][0])

    nb, outcome.problems = read_submission(folder, name, refuse, max_bytes)
    if nb is not None:
        stamp = reasons.timestamp_line(folder, found[0] if found else None)
        outcome.problems += [stamp] if stamp else []
    if nb is None:
        _finish(course, outcome, None, None, feedback, sandbox)
        return
    where["stage"] = "building the student's release"
    release, _, exercises = built[0] if built else student_notebook(assignment, student, secret)
    where["stage"] = "comparing the notebook with the release"
    meta = nb.get("metadata", {}).get("genviz", {})
    other = meta.get("assignment") if isinstance(meta, dict) else None
    if isinstance(other, str) and other != name:  # another assignment's notebook, as released
        outcome.problems.append(f"refused: the notebook is a release of {other[:64]!r} (its "
                                f"metadata), not of {name!r}: not graded")
        _finish(course, outcome, None, None, feedback, sandbox)
        return
    claimed = meta.get("student") if isinstance(meta, dict) else None
    if not isinstance(claimed, str):
        outcome.problems.append(f"the notebook carries no student id (not a release made for "
                                f"{student}?): graded on {student}'s variant")
    elif claimed != student:
        outcome.problems.append(f"the notebook was released to {claimed[:64]!r}, not to "
                                f"{student!r}: graded on {student}'s variant")
    elif meta.get("release") != fingerprint(secret, name, student):
        outcome.problems.append("the notebook is not this student's current release (released "
                                "with another course secret, or the assignment changed since)")
    cells, problems = merge(nb, release)
    outcome.problems += problems
    runnable = [(k, c) for k, c in enumerate(cells, 1)
                if c[0] == "code" and not (c[2] or "").startswith("test_q")]
    job = {"cells": [{"index": k, "source": c[1]} for k, c in runnable],
           "answers": [f"answer_q{i}" for i in range(1, len(assignment.questions) + 1)],
           "notebook_name": f"{name}.ipynb",
           "notebook_text": nbformat.writes(_notebook(cells, release))}
    limits = wall_budget(release, limits)
    where["stage"] = "running the notebook in the sandbox"
    result = sandbox.run(job, limits)
    outcome.seconds = result.seconds
    outcome.peak_bytes = result.peak_bytes
    outcome.sandbox = sandbox_words(result, sandbox)
    where["stage"] = "reading what the sandbox reported"
    answers, problems = describe_run(result, cells, limits, where)
    outcome.problems += problems
    where["stage"], where["cell"] = "checking the answers", None
    check_answers(exercises, answers, outcome, assignment, where)
    where["stage"] = "saying why a question earned nothing"
    outcome.prompts = [ex.prompt for ex in exercises]
    outcome.rights = reasons.rights(exercises)
    outcome.problems += reasons.why_lines(outcome, nb, cells, result.events, exercises)
    where["stage"] = "writing the autograded notebook and the feedback"
    outcome.graded = answers is not None
    outcome.working = {c[2]: text_hash(c[1]) for c in cells
                       if c[2] and c[2].startswith("working_q")}
    _finish(course, outcome, cells, release, feedback, sandbox, exercises)


def _notebook(cells, release):
    nb = nbformat.v4.new_notebook(metadata={k: v for k, v in release.metadata.items()})
    for kind, source, gid in cells:
        make = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell}.get(
            kind, nbformat.v4.new_raw_cell)
        cell = make(source)
        if gid:
            original = next((c for c in release.cells if _grade_id(c) == gid), None)
            if original is not None:
                cell.metadata = {"nbgrader": dict(original.metadata["nbgrader"])}
        nb.cells.append(cell)
    return nb


def _finish(course, outcome, cells, release, feedback, sandbox, exercises=None):
    if sandbox.unsafe:
        outcome.problems.insert(0, UNSAFE)
    outcome.max_score = float(sum(q.points for q in ASSIGNMENTS[outcome.assignment].questions)
                              + ASSIGNMENTS[outcome.assignment].working_points
                              * len(ASSIGNMENTS[outcome.assignment].working))
    if cells is not None:
        nb = autograded_notebook(outcome, cells, release)
        dest = course / "autograded" / outcome.student_id / outcome.assignment
        dest.mkdir(parents=True, exist_ok=True)
        (dest / f"{outcome.assignment}.ipynb").write_text(
            nbformat.writes(nb), encoding="utf-8", errors="backslashreplace")
    if feedback and outcome.submitted:
        write_feedback(course, outcome, exercises)


def autograded_notebook(outcome, cells, release):
    """The notebook as graded (sources, and the grader's verdicts; nothing the sandbox
    printed), for the Formgrader, which renders it as HTML in the instructor's Jupyter server:
    the students' Markdown and raw cells are shown as text there (:func:`_inert`), never as
    HTML, links or images; in code cells, as everywhere, every character of
    :data:`course.shown.ESCAPED_CATEGORIES` (controls, bidi and zero-width characters, line
    separators) is shown escaped: this copy is read, never run."""
    nb = _notebook([(k, printable(s, lines=True), g) if k == "code" else
                    ("markdown", _inert(s), g) for k, s, g in cells], release)
    for cell in nb.cells:  # the grader's verdict under each question's form check
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if gid.startswith("test_q"):
            q = "q" + gid[6:]
            text = (f"Graded outside the notebook: {outcome.verdicts.get(q, 'not graded')}"
                    f" ({outcome.earned.get(gid, 0.0):g} points). "
                    f"{printable(outcome.feedback.get(q, ''))}\n")
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    return nb


def _inert(markdown: str) -> str:
    """A student's Markdown (or raw) cell as Markdown that every renderer shows as plain text:
    one fenced code block, its fence longer than any run of backticks in the text (so nothing
    in it can close the block). Inside a code block no renderer (nbconvert's mistune, the
    Jupyter front end's marked, nbgrader's Formgrader) makes a link, an image, HTML or an
    entity of anything: no ``javascript:``/``data:`` link, no external image, nothing fetched.
    Control characters are shown escaped."""
    text = printable(markdown, lines=True)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}\n"


# -- a class ------------------------------------------------------------------------------------------

def plan(course: pathlib.Path, roster=None):
    """(jobs to grade, outcomes decided without running): every student of ``submitted/`` (and
    of the roster) gets a row for every assignment found."""
    students, odd = _listing(course)
    listed, unreadable = {}, {}
    for s in students:
        try:
            listed[s] = _entries(course / "submitted" / s, MAX_STUDENT_ENTRIES)
        except OSError as err:  # a folder unpacked with mode 000 (unzip keeps modes)
            listed[s], unreadable[s] = [], f"{type(err).__name__}: {err.strerror}"
    flooded = {s for s in students if len(listed[s]) > MAX_STUDENT_ENTRIES}
    listed.update({s: [] for s in flooded})  # none of their names is an assignment's
    loose = {s: _loose_notebooks(listed[s]) for s in students}
    found = sorted({a for s in students for a in _folder_assignments(listed[s])}
                   | {a for s in students for a in loose[s] if a in ASSIGNMENTS})
    made = course_assignments(course, {a: sum(1 for s in students if a in loose[s] or (
        os.path.lexists(course / "submitted" / s / a))) for a in found if a in ASSIGNMENTS},
        len(students))
    names = [a for a in found if a in made]
    unknown = [a for a in found if a not in ASSIGNMENTS]
    not_made = [a for a in found if a in ASSIGNMENTS and a not in made]
    released = _released(course, names)
    everyone = sorted(set(students) | set(roster or ()) | set(odd))
    jobs, decided = [], []
    for student in everyone:
        if student in odd:
            decided += [Outcome(student, n, known_student=False, problems=[odd[student]])
                        for n in names or ["?"]]
            continue
        if not STUDENT_ID.fullmatch(student):
            decided += [Outcome(student, n, known_student=False, problems=[
                f"student id {student!r} is not valid (letters, digits, . _ @ + -): not graded"])
                for n in names]
            continue
        if roster is not None and student not in roster:
            decided += [Outcome(student, n, known_student=False, submitted=True, problems=[
                f"student id {student!r} is not on the roster: not graded"]) for n in names]
            continue
        if student in unreadable:
            decided += [Outcome(student, n, submitted=True, problems=[
                f"could not be graded: the folder submitted/{student}/ could not be read "
                f"({unreadable[student]})"]) for n in names or ["?"]]
            continue
        if student in flooded:
            decided += [Outcome(student, n, submitted=True, problems=[
                f"refused: submitted/{student}/ holds more than {MAX_STUDENT_ENTRIES} files and "
                "folders: not graded (one folder per assignment, each with its notebook)"])
                for n in names]
            continue
        for n in unknown:
            if student in students and (course / "submitted" / student / n).exists():
                decided.append(Outcome(student, n, known_student=False,
                                       problems=[f"unknown assignment {n!r}"]))
        for n in not_made:
            if student in students and (os.path.lexists(course / "submitted" / student / n)
                                        or n in loose.get(student, {})):
                decided.append(Outcome(student, n, known_student=False, submitted=True, problems=[
                    f"refused: the course did not release {n!r} (no source/{n}/{n}.ipynb, and "
                    "fewer than half the class handed it in): not graded"]))
        for n, file in sorted(loose.get(student, {}).items()):
            if n not in ASSIGNMENTS:
                decided.append(Outcome(student, n, known_student=False, submitted=True, problems=[
                    f"submitted/{student}/{file} is not in an assignment's folder, and there is "
                    f"no assignment {n!r}: not graded"]))
        for n in names:
            file = loose.get(student, {}).get(n)
            if released.get(n) and student not in released[n]:
                handed = os.path.lexists(course / "submitted" / student / n) or bool(file)
                decided.append(Outcome(student, n, known_student=False, submitted=handed,
                                       problems=[f"refused: {n} was released to other students, "
                                                 f"not to {student} (no release/{student}/{n}/)"
                                                 + (": not graded" if handed else "")]))
            elif file and not os.path.lexists(course / "submitted" / student / n):
                decided.append(Outcome(student, n, submitted=True, problems=[
                    f"the notebook was handed in as submitted/{student}/{file}, not in the "
                    f"folder submitted/{student}/{n}/: not graded (move it there and grade "
                    "again)"]))
            else:
                jobs.append((student, n))
    return jobs, decided, names


def course_assignments(course: pathlib.Path, handed=None, students: int = 0) -> set[str]:
    """The assignments this course made: those whose source notebook is in the course
    (``source/<n>/<n>.ipynb``, a regular file: ``make assignments`` wrote it, or an earlier
    grading of it), and, in a course folder that holds no source notebook at all (only what
    was collected), those that at least half of the ``students`` with a folder handed in (``handed``: assignment -> how many).
    A folder named after any other assignment, even one genviz knows, is refused (issue #38,
    kind other_assignment): it was graded and added to the gradebook."""
    made = set()
    for n in ASSIGNMENTS:
        try:
            if stat.S_ISREG(os.lstat(course / "source" / n / f"{n}.ipynb").st_mode):
                made.add(n)
        except OSError:
            pass
    if made:  # the course keeps its sources: what students hand in adds nothing
        return made
    return {n for n, k in (handed or {}).items() if students and 2 * k >= students}


def _released(course: pathlib.Path, names) -> dict[str, set]:
    """assignment -> the students with a release of it (``release/<student>/<n>/<n>.ipynb``);
    empty when the course keeps no releases (then the source alone says it was released)."""
    out = {n: set() for n in names}
    top = course / "release"
    if not top.is_dir() or top.is_symlink():
        return out
    for entry in os.scandir(top):
        if entry.is_dir(follow_symlinks=False):
            for n in names:
                if os.path.isfile(os.path.join(entry.path, n, f"{n}.ipynb")):
                    out[n].add(entry.name)
    return out


def _worker(args):
    course, secret, unsafe, limits, feedback, part, userns = args
    sandbox = Sandbox(unsafe=unsafe)
    sandbox._probed = True  # the parent did, before it started the workers
    sandbox.disable_userns, sandbox.userns = userns
    return [grade_one(pathlib.Path(course), s, n, secret, sandbox, limits, feedback)
            for s, n in part]


def run_all(course, *, secret: bytes, jobs: int = 1, limits: Limits = Limits(),
            unsafe: bool = False, feedback: bool = True, students=None, roster=None):
    """Read, run and check every submission (no gradebook write): the outcomes, in order."""
    import multiprocessing

    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if students is not None and not isinstance(students, (list, tuple)):
        raise TypeError(f"students must be a list of student ids, got {type(students).__name__}")
    course = pathlib.Path(course).resolve()
    todo, decided, names = plan(course, roster)
    if students is not None:
        todo = [t for t in todo if t[0] in students]
        decided = [o for o in decided if o.student_id in students]
    sandbox = Sandbox(unsafe=unsafe)
    sandbox.probe()  # refuse to start without a sandbox (SandboxUnavailable)
    userns = (sandbox.disable_userns, sandbox.userns)
    missing = [n for n in names if not (course / "source" / n / f"{n}.ipynb").exists()]
    if missing:  # the course's own (course_assignments), handed in by half the class or more
        write_sources(course, missing)
    record_assignments(course, names)
    if jobs == 1 or len(todo) < 2:
        outcomes = _worker((str(course), secret, unsafe, limits, feedback, todo, userns))
    else:
        parts = [todo[k::jobs] for k in range(jobs) if todo[k::jobs]]
        with multiprocessing.get_context("spawn").Pool(len(parts)) as pool:
            results = pool.map(_worker, [(str(course), secret, unsafe, limits, feedback, p,
                                          userns)
                                         for p in parts])
        outcomes = [o for r in results for o in r]
    for o in decided:
        if unsafe:
            o.problems.insert(0, UNSAFE)
    order = {(s, n): k for k, (s, n) in enumerate(todo)}
    outcomes.sort(key=lambda o: order[(o.student_id, o.assignment)])
    add_classmates(course, outcomes, feedback)
    everything = outcomes + decided
    everything.sort(key=lambda o: (o.student_id, o.assignment))
    return everything


def add_classmates(course, outcomes, feedback: bool = True) -> None:
    """Each wrong numeric answer that another student's variant takes as right gets a line
    (:func:`course.reasons.classmate_lines`: the report names whom, the feedback no one), and
    those students' feedback is written again with it."""
    found = reasons.classmate_lines(outcomes)
    for o in outcomes:
        lines = found.get(id(o))
        if not lines:
            continue
        o.problems[:0] = [report for report, _ in lines]
        o.for_student.update(dict(lines))
        if feedback and o.submitted:
            write_feedback(course, o, None)


def grade(course, *, secret: bytes | None = None, secret_file=None, jobs: int = 1,
          limits: Limits = Limits(), unsafe: bool = False, feedback: bool = True, students=None,
          roster=None, hand_in_times=None) -> list[Outcome]:
    """Grade every submission of ``course`` and write gradebook, grades.csv, report, feedback;
    ``hand_in_times``: the LMS's (``gradebook.read_hand_in_times``), else the folders'."""
    from course import gradebook

    course = pathlib.Path(course).resolve()
    secret = load_secret(secret_file) if secret is None else secret
    outcomes = run_all(course, secret=secret, jobs=jobs, limits=limits, unsafe=unsafe,
                       feedback=feedback, students=students, roster=roster)
    gradebook.write_outcomes(course, outcomes, hand_in_times)
    gradebook.export(course)
    write_report(course, outcomes)
    write_spread(course, outcomes)
    return outcomes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("course", help="course directory with submitted/<student>/<assignment>/")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds one cell may run (default 60; GENVIZ_CELL_TIMEOUT)")
    parser.add_argument("--jobs", type=int, default=1, help="grade with this many processes")
    parser.add_argument("--roster", help="student ids, one a line: others are not graded")
    parser.add_argument("--secret", help="the course secret file (default: "
                        "$GENVIZ_COURSE_SECRET_FILE or ~/.config/genviz/course-secret)")
    parser.add_argument("--unsafe", action="store_true",
                        help="grade WITHOUT a sandbox (students' code runs with your rights)")
    parser.add_argument("--no-feedback", action="store_true")
    parser.add_argument("--export-only", action="store_true",
                        help="only re-export grades.csv (e.g. after manual grading)")
    parser.add_argument("--handed-in", metavar="CSV",
                        help="hand-in times from the course's LMS (columns student, assignment, "
                             "handed_in in ISO 8601); default: each folder's collection time")
    parser.add_argument("--build-root", help=argparse.SUPPRESS)  # accepted, no longer used
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):  # never a UnicodeEncodeError on the terminal
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if args.export_only:
        print(f"wrote {export(args.course)}")
        return 0
    timeout = args.timeout or float(os.environ.get("GENVIZ_CELL_TIMEOUT", "60"))
    roster = None
    if args.roster:
        from course.build import read_roster

        roster = read_roster(args.roster)
    if args.unsafe:
        print("WARNING: grading WITHOUT a sandbox (--unsafe): the students' code runs with your "
              "permissions and can read and change your files, other students' work and the "
              "gradebook", file=sys.stderr)
    try:
        times = None
        if args.handed_in:
            from course.gradebook import read_hand_in_times

            times = read_hand_in_times(args.handed_in)
        secret = load_secret(args.secret)
        start = time.monotonic()
        outcomes = grade(args.course, secret=secret, jobs=args.jobs,
                         limits=Limits(cell_seconds=timeout), unsafe=args.unsafe,
                         feedback=not args.no_feedback, roster=roster, hand_in_times=times)
    except (SandboxUnavailable, FileNotFoundError, ValueError) as err:
        print(f"grading did not start: {err}", file=sys.stderr)
        return 2
    course = pathlib.Path(args.course)
    for line in terminal_lines(outcomes):
        print(line)
    failed = not_graded(outcomes)
    print(f"{len(outcomes)} rows in {time.monotonic() - start:.0f} s; {failed} submission"
          f"{'' if failed == 1 else 's'} could not be graded; wrote {printable(course / 'grades.csv')}, "
          f"{printable(course / 'grading_report.csv')}, {printable(course / 'answer_spread.csv')} "
          f"and {printable(course / 'feedback')}/")
    for line in sandbox_lines(outcomes):
        print(line)
    few = {(r["assignment"], r["question"]) for r in answer_spread(outcomes)}
    if few:
        print(f"{len(few)} question(s) whose answers few students do not share with a "
              f"classmate (how many students give each: answer_spread.csv): "
              + ", ".join(f"{a} {q}" for a, q in sorted(few)))
    return exit_status(failed)


def not_graded(outcomes) -> int:
    """How many handed-in submissions could not be graded (run and checked)."""
    return sum(1 for o in outcomes if o.submitted and not o.graded)


def exit_status(failed: int) -> int:
    """0: every submission graded; 2: grading did not start; else 10 + the number that could
    not be graded (at most 110: 100 or more)."""
    return 0 if failed == 0 else 10 + min(failed, 100)


if __name__ == "__main__":
    sys.exit(main())
