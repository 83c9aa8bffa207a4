"""Why a question earned nothing, in words: where a wrong answer comes from, and what the
student's code did (issue #38: every row of the report says why).

- **Provenance** of a wrong numeric answer: the self-study notebook's right answer (the default
  variant, :func:`course.assignments.variant` with no student; what "Show solution" and the
  website print), or the right answer of another student's variant. Each student's right
  answers are computed once, where the grader builds that student's variant
  (:func:`rights`, in the worker); the class is compared in the parent process afterwards
  (:func:`classmate_lines`), each answer checked by the other variant's own tolerance with
  genviz's :class:`~genviz.exercises._core.Exercise`. Choices and words are left out: their few
  values coincide by chance (the shared-answers table, ``report.FEW_VALUES``, lists those).
- **What the code did** (:func:`run_lines`, :func:`code_lines`, :func:`markdown_lines`): the
  first error of the run when a question is not answered or wrong; an answer cell whose stored
  output is not what its code printed when run; hooks, patches, processes and shell commands
  in the student's cells (read from their source); links and HTML in their Markdown; lone
  surrogates; a ``timestamp.txt`` that is not the hand-in time.

Every text from a submission is escaped (:func:`course.shown.printable`) and capped here; the
report caps its lines again (``grade.bounded``).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import re

import numpy as np

from course.cells import answer_kind, is_choice, reference
from course.shown import printable
from genviz.exercises import Exercise

__all__ = ["PREVIEW", "ERROR_CHARS", "numeric", "rights", "self_study_lines", "classmate_lines",
           "output_digest", "run_lines", "code_lines", "markdown_lines", "timestamp_line",
           "form_lines", "why_lines", "SELF_STUDY", "CLASSMATE", "NOT_STORED"]

PREVIEW = 60            # characters of a student's text quoted in a line
ERROR_CHARS = 120       # characters of an exception's first line
MAX_NAMED = 3           # classmates named in the instructor's line (then "and N more")
SELF_STUDY = "{q}: the self-study notebook's answer, not your variant's"
CLASSMATE = "{q}: the right answer of another student's variant"
NOT_STORED = "the stored output of cell {k} ({gid}) is not what the code printed when run"
NOT_RIGHT = ("not answered", "not defined", "wrong", "not plain data", "not read")


def _cap(text, n: int = PREVIEW) -> str:
    text = printable(" ".join(str(text).split()))
    return text if len(text) <= n else text[:n - 1] + "\u2026"


# -- provenance ---------------------------------------------------------------------------------

def numeric(exercise) -> bool:
    """A question whose answer is a number or an array (not a choice, a word, a label, yes/no):
    the only kind whose coincidence with another variant's answer says where it came from."""
    return not is_choice(exercise) and answer_kind(reference(exercise))[0] in ("number", "array")


def rights(exercises) -> dict:
    """``{"q1": {"answer": plain, "rtol": r, "atol": a}}``: this variant's right numeric answers
    as plain data (what the parent process compares classmates' answers with)."""
    return {f"q{i}": {"answer": np.asarray(reference(ex), dtype=float).tolist(),
                      "rtol": float(ex.rtol), "atol": float(ex.atol)}
            for i, ex in enumerate(exercises, 1) if numeric(ex)}


def _checker(right: dict):
    return Exercise("?", np.asarray(right["answer"], dtype=float), hint="-", solution="-",
                    rtol=right["rtol"], atol=right["atol"])


def _value(outcome, q):
    try:
        return json.loads(outcome.values[q])
    except (KeyError, ValueError):
        return None


def self_study_lines(outcome, exercises, self_study) -> list[str]:
    """A line per wrong numeric answer that the self-study notebook's own Exercise (``self_study``:
    the default variant's, same order) finds right."""
    lines = []
    for i, (ex, own) in enumerate(zip(exercises, self_study), 1):
        q = f"q{i}"
        value = _value(outcome, q)
        if outcome.verdicts.get(q) != "wrong" or value is None or not numeric(ex) \
                or not numeric(own) or isinstance(value, str):
            continue
        if own.check(value).correct:
            lines.append(SELF_STUDY.format(q=q))
    return lines


def classmate_lines(outcomes) -> dict:
    """Per outcome (by ``id``), ``[(report line, feedback line)]``: each wrong numeric answer that
    another student's variant of the same assignment takes as right. The report's line names
    whom (at most MAX_NAMED, then how many more); the feedback's names no one."""
    checkers = {}
    for o in outcomes:
        for q, right in getattr(o, "rights", {}).items():
            checkers.setdefault((o.assignment, q), []).append((o.student_id, _checker(right)))
    found = {}
    for o in outcomes:
        for q, verdict in o.verdicts.items():
            value = _value(o, q)
            if verdict != "wrong" or value is None or isinstance(value, str) \
                    or q not in getattr(o, "rights", {}):
                continue
            whom = [s for s, ex in checkers.get((o.assignment, q), ())
                    if s != o.student_id and ex.check(value).correct]
            if whom:
                more = len(whom) - MAX_NAMED
                names = ", ".join(printable(s) for s in whom[:MAX_NAMED]) + (
                    f" and {more} more" if more > 0 else "")
                line = CLASSMATE.format(q=q)
                found.setdefault(id(o), []).append((f"{line} ({names})", line))
    return found


# -- what the code did --------------------------------------------------------------------------

def output_digest(outputs) -> str:
    """A short hash of a cell's outputs as the notebook stores them (nbformat v4 dicts): the
    text of streams (consecutive pieces of one stream joined), results and displays (their
    text/plain), errors (their name). ``course/_runner.py`` (``Outputs``) hashes the re-run's
    the same way, piece by piece."""
    digest, last = hashlib.sha256(), None
    for out in outputs or ():
        kind = out.get("output_type")
        if kind not in ("stream", "execute_result", "display_data", "error"):
            continue
        data = out.get("data") if isinstance(out.get("data"), dict) else {}
        text = {"stream": out.get("text", ""), "error": out.get("ename", "")}.get(
            kind, data.get("text/plain", ""))
        text = "".join(text) if isinstance(text, list) else str(text)
        head = (kind, str(out.get("name")) if kind == "stream" else "")
        if kind != "stream" or head != last:
            digest.update(("\0%s\0%s\0" % head).encode())
        last = head if kind == "stream" else None
        digest.update(text.encode("utf-8", "backslashreplace"))
    return digest.hexdigest()[:16]


def _stored(nb) -> dict:
    """grade_id -> stored outputs, for each answer cell of the submitted notebook that has any."""
    out = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        gid = meta.get("grade_id") if isinstance(meta, dict) else None
        if isinstance(gid, str) and gid.startswith("answer_q") and gid not in out \
                and cell.get("cell_type") == "code" and cell.get("outputs"):
            out[gid] = cell["outputs"]
    return out


def run_lines(nb, cells, events, verdicts) -> list[str]:
    """What the re-run shows: the first error of the student's cells when a question is not
    answered or wrong, and each answer cell whose stored output is not the re-run's."""
    lines = []
    missed = [q for q, v in verdicts.items() if v in NOT_RIGHT]
    first = next((e for e in events if e.get("event") == "cell" and e.get("status") == "error"
                  and isinstance(e.get("index"), int) and 1 <= e["index"] <= len(cells)), None)
    if missed and first is not None:
        gid = cells[first["index"] - 1][2]
        head = (str(first.get("evalue", "")).splitlines() or [""])[0]
        ename = _cap(first.get("ename", "") or "an error", 60)
        lines.append(f"{', '.join(missed)} {'is' if len(missed) == 1 else 'are'} not right after "
                     f"an error: the first, cell {first['index']}" + (f" ({gid})" if gid else "")
                     + f" raised {ename}" + (f": {_cap(head, ERROR_CHARS)}" if head.strip()
                                              else ""))
    stored = _stored(nb) if nb is not None else {}
    for e in events:
        k = e.get("index")
        if e.get("event") != "cell" or not isinstance(k, int) or not 1 <= k <= len(cells) \
                or not isinstance(e.get("outputs"), str):
            continue
        gid = cells[k - 1][2]
        if gid in stored and output_digest(stored[gid]) != e["outputs"]:
            lines.append(NOT_STORED.format(k=k, gid=gid))
    return lines


# Every pattern that reads a student's text is linear in its length: each repeat is bounded
# ({m,n}), none is nested in another, and none starts at a line start with a repeat that crosses
# lines (``^\s*`` over 2 MB of newlines took hours: issue #38, kind ``slow_patterns``);
# tests/test_grading_reasons.py checks the compiled patterns (LINEAR) by their parse tree.
_HOOK = re.compile(r"\.events\.register\([ \t]{0,40}['\"](\w{1,60})")
_PATCH = re.compile(r"^[ \t]{0,80}((?:np|numpy|builtins|math|json)\.\w{1,60})[ \t]{0,40}=[^=]",
                    re.M)
_PROCESS = re.compile(r"\b(subprocess\.(?:Popen|run|call|check_call|check_output|getoutput|"
                      r"getstatusoutput)|os\.fork|os\.exec\w{0,8}|os\.spawn\w{0,8}|os\.system|"
                      r"os\.popen|multiprocessing\.\w{1,40})\b")
_SHELL = re.compile(r"^[ \t]{0,80}!{1,8}[ \t]{0,40}([\w./-]{1,80})|"
                    r"^[ \t]{0,80}%%?(?:sh|bash|system|sx)\b[ \t]{0,40}([\w./-]{0,80})", re.M)


def _names(found, n: int = 4) -> str:
    seen = list(dict.fromkeys(f for f in found if f))
    return ", ".join(_cap(s, 40) for s in seen[:n]) + (" ..." if len(seen) > n else "")


def code_lines(cells) -> list[str]:
    """What the student's code cells say they do (read from their source, never run here):
    register IPython hooks, replace library functions, start processes, run shell commands.
    None of it reaches the grader, which checks the answers outside the kernel."""
    lines = []
    for k, (kind, source, gid) in enumerate(cells, 1):
        if kind != "code" or (gid and not gid.startswith("answer_q")):
            continue  # the course's own cells (read-only, put back) say nothing of the student
        where = f"cell {k}" + (f" ({gid})" if gid else "")
        hooks = _HOOK.findall(source)
        if hooks:
            lines.append(f"{where} registers IPython hooks ({_names(hooks)}): they run in the "
                         "notebook's kernel, where the grader runs no test and checks nothing")
        patched = _PATCH.findall(source)
        if patched:
            lines.append(f"{where} replaces {_names(patched)} in the notebook's kernel: the "
                         "answers are checked outside it")
        procs = _PROCESS.findall(source)
        if procs:
            lines.append(f"{where} starts processes ({_names(procs)}): the sandbox ends them "
                         "with the notebook")
        shell = [a or b or "%%bash" for a, b in _SHELL.findall(source)]
        if shell:
            lines.append(f"{where} runs shell commands ({_names(shell)}) in the sandbox")
    return lines


_LIVE = re.compile(r"(?im)javascript|vbscript|data:|https?://|<[ \t\n]{0,40}(?:a|img|script|"
                   r"iframe|svg|style|object|embed)\b|!\[[^\[\]]{0,400}\]\(|\]\([^()]{0,400}\)|"
                   r"\][ \t\n]?\[[^\[\]]{0,400}\]|^[ \t]{0,40}\[[^\[\]]{1,400}\]:|\\href|"
                   r"<[^<>]{0,200}\bon\w{1,40}[ \t\n]{0,40}=")
#: the patterns above, for the test that reads their parse trees
LINEAR = (_HOOK, _PATCH, _PROCESS, _SHELL, _LIVE)


def markdown_lines(cells) -> list[str]:
    """The student's Markdown (hand-graded working, added cells) holding links, images or HTML:
    shown to the grader as plain text (``grade._inert``), never opened or fetched."""
    lines = []
    for k, (kind, source, gid) in enumerate(cells, 1):
        if kind == "code" or (gid and not gid.startswith("working_q")):
            continue
        if _LIVE.search(source):
            where = gid or f"cell {k}"
            lines.append(f"{where} holds links, images or HTML: shown to the grader as plain "
                         "text, never opened or fetched")
    return lines


def timestamp_line(folder, collected) -> str | None:
    """A ``timestamp.txt`` in the submission whose time is not the course's hand-in time
    (``collected``: seconds since the epoch, the folder's collection time): never used."""
    path = folder / "timestamp.txt"
    if path.is_symlink() or not path.is_file():
        return None
    with open(path, "rb") as fh:
        text = fh.read(200).decode("utf-8", "backslashreplace").strip()
    try:
        stated = datetime.datetime.strptime(text[:19], "%Y-%m-%d %H:%M:%S").replace(
            tzinfo=datetime.timezone.utc).timestamp()
    except ValueError:
        stated = None
    if stated is not None and collected is not None and abs(stated - collected) < 3600:
        return None
    return (f"timestamp.txt says {_cap(text, 40)!r}: not used, the hand-in time is the "
            "course's (column handed_in)")


def form_lines(outcome) -> list[str]:
    """A wrong answer of the wrong form: the Exercise's own words for it (its feedback before
    "Not quite."), e.g. "Expected a number or an array of numbers, got str." """
    lines = []
    for q, verdict in outcome.verdicts.items():
        message = str(outcome.feedback.get(q, ""))
        if verdict == "wrong" and " Not quite." in message:
            head = message.split(" Not quite.")[0].strip()
            if head:
                lines.append(f"{q}: {_cap(head, ERROR_CHARS)}")
    return lines


@functools.lru_cache(maxsize=16)
def _self_study(name: str) -> tuple:
    from course.assignments import ASSIGNMENTS, variant

    return tuple(variant(ASSIGNMENTS[name], None, None)[1])


def why_lines(outcome, nb, cells, events, exercises) -> list[str]:
    """Every line this module adds to a graded submission's row (but the classmates', which
    need the class): provenance, form, the run, the code, the Markdown."""
    return (self_study_lines(outcome, exercises, _self_study(outcome.assignment))
            + form_lines(outcome) + run_lines(nb, cells, events, outcome.verdicts)
            + code_lines(cells) + markdown_lines(cells))
