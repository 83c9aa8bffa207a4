"""The course's gradebook: nbgrader's ``gradebook.db``, written by the grading process only.

nbgrader is kept for what it does well and safely — the gradebook's schema, the Formgrader
(where a person grades the hand-graded cells and may override a score) and the CSV export — and
not for autograding, which runs student code in the same process tree as the gradebook (the
hole of issue #29). :mod:`course.grade` runs every submission in a sandbox that cannot see this
file, checks the answers outside, and then writes the scores here, from one process.

What a (re)grade writes, per submission:

- the auto-graded questions (``test_qN``): the score the run earned (0 when it earned
  nothing, when the notebook could not be graded, when the folder is empty); any score a
  person or anything else set on such a cell before (``manual_score``, ``extra_credit``) is
  cleared and the report says so: a regrade never keeps a score the run did not earn;
- the hand-graded questions (``working_qK``): never scored here. A person's score is kept only
  if the student's text of that cell is the one that was graded (its SHA-256 is kept in
  ``autograded/<student>/<assignment>/grading.json``); if the text changed, or the
  submission could not be graded, the score is cleared and the cell waits for a person again.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import os
import pathlib
import stat

from course import _nbg
from course.assignments import ASSIGNMENTS
from course.shown import name as shown_name

COURSE_ID = "genviz"


def open_gradebook(course):
    """nbgrader's ``Gradebook`` on ``course/gradebook.db`` (created if missing)."""
    from nbgrader import api

    _nbg._venv_bin_on_path()  # nbgrader runs `alembic` when it creates a database
    path = pathlib.Path(course).resolve() / "gradebook.db"
    asks, api.get_alembic_version = api.get_alembic_version, schema_version
    try:
        return api.Gradebook(f"sqlite:///{path}", course_id=COURSE_ID)
    finally:
        api.get_alembic_version = asks


@functools.lru_cache(maxsize=1)
def schema_version() -> str:
    """The head of nbgrader's database migrations: what its ``Gradebook`` writes into a new
    database's ``alembic_version`` table (``nbgrader db upgrade`` reads it). nbgrader asks the
    ``alembic heads`` program for it, a Python process of ~1.3 CPU-s for every new gradebook
    (every course's first build or grade); alembic's own ``ScriptDirectory`` reads the same
    head from the same migration scripts here, once per process (~0.1 CPU-s)."""
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    return ScriptDirectory(ALEMBIC_DIR).get_current_head()


def auto_ids(name: str) -> list[tuple[str, int]]:
    a = ASSIGNMENTS[name]
    return [(f"test_q{i}", q.points) for i, q in enumerate(a.questions, 1)]


def working_ids(name: str) -> list[str]:
    a = ASSIGNMENTS[name]
    n = len(a.questions)
    return [f"working_q{k}" for k in range(n + 1, n + 1 + len(a.working))]


def max_score(name: str) -> float:
    a = ASSIGNMENTS[name]
    return float(sum(q.points for q in a.questions) + a.working_points * len(a.working))


def record_assignments(course, names) -> None:
    """Record each assignment, its notebook and its graded cells (idempotent)."""
    with open_gradebook(course) as gb:
        for name in names:
            a = ASSIGNMENTS[name]
            gb.update_or_create_assignment(name)
            gb.update_or_create_notebook(name, name)
            for i, (grade_id, points) in enumerate(auto_ids(name), 1):
                gb.update_or_create_grade_cell(grade_id, name, name, max_score=float(points),
                                               cell_type="code")
                gb.update_or_create_solution_cell(f"answer_q{i}", name, name)
            for grade_id in working_ids(name):
                gb.update_or_create_grade_cell(grade_id, name, name,
                                               max_score=float(a.working_points),
                                               cell_type="markdown")
                gb.update_or_create_solution_cell(grade_id, name, name)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _sidecar(course, student, name) -> pathlib.Path:
    return pathlib.Path(course) / "autograded" / student / name / "grading.json"


HANDED_IN_SOURCE = ("the collection time of the folder submitted/<student>/<assignment>/: the "
                    "latest inode change time of the folder and of everything in it, which no "
                    "copy or unzip can set")
#: files and folders (at any depth) a submission folder may hold: the grader reads no more of
#: it (its collection time), and ``course.grade`` refuses a folder that holds more (issue #38,
#: kind folder_flood); a notebook and the few files it reads are a handful
MAX_ENTRIES = 1_000


def collection_time(folder) -> tuple[float, str, int] | None:
    """When the course last put something into ``folder``: the latest inode change time
    (ctime) of the folder and of every entry under it, read with lstat (a link's own time,
    never its target's; no link followed). The kernel sets a ctime whenever an inode is made or
    changed -- a notebook copied over an earlier one changes the file's ctime but not the
    folder's, so the folder's alone made a late resubmission look early. ``cp -p``,
    ``rsync -t``, ``unzip`` and ``touch`` can set a modification time to any value, never a
    ctime (any change sets it to the moment of the change). Returns
    (ctime, the relative name of the entry that has it -- "" for the folder --, entries read),
    or None when ``folder`` is missing, a link or not a folder. Reads at most MAX_ENTRIES + 1
    entries, each directory lazily (a folder of a million files is not listed): a count above
    MAX_ENTRIES says there are more."""
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None  # a link (S_ISLNK) or a file
    latest, newest, count = info.st_ctime, "", 0
    todo = [(os.fspath(folder), "")]
    while todo and count <= MAX_ENTRIES:
        path, rel = todo.pop()
        try:
            entries = os.scandir(path)
        except OSError:
            continue
        with entries:
            for entry in entries:
                if count > MAX_ENTRIES:
                    break
                count += 1
                name = f"{rel}{entry.name}"
                try:
                    ctime = entry.stat(follow_symlinks=False).st_ctime
                except OSError:
                    continue
                if ctime > latest:
                    latest, newest = ctime, name
                if entry.is_dir(follow_symlinks=False):
                    todo.append((entry.path, name + "/"))
    return latest, newest, count


class HandInTimes:
    """Hand-in times stated by the course's LMS (an export), read by :func:`read_hand_in_times`:
    ``times[(student, assignment)]`` a naive UTC datetime, ``source`` the words for the report."""

    def __init__(self, times: dict, source: str):
        self.times, self.source = times, source

    def get(self, outcome):
        return self.times.get((outcome.student_id, outcome.assignment))


#: the columns of an LMS export of hand-in times (more columns are ignored)
HAND_IN_COLUMNS = ("student", "assignment", "handed_in")


def read_hand_in_times(path) -> HandInTimes:
    """An LMS's hand-in times: a CSV with the columns ``student``, ``assignment`` and
    ``handed_in`` (ISO 8601, e.g. ``2026-11-20T14:03:00+01:00``; a time without an offset is
    UTC). ValueError naming the file and line for a missing column, an unreadable time or a
    (student, assignment) given twice."""
    import csv
    import io

    path = pathlib.Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"the hand-in times {path} could not be read: {err}") from None
    rows = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in HAND_IN_COLUMNS if c not in (rows.fieldnames or [])]
    if missing:
        raise ValueError(f"the hand-in times {path} need the columns {', '.join(HAND_IN_COLUMNS)}"
                         f" (line 1); missing: {', '.join(missing)}")
    times = {}
    for line, row in enumerate(rows, 2):
        key = ((row["student"] or "").strip(), (row["assignment"] or "").strip())
        raw = (row["handed_in"] or "").strip()
        try:
            when = datetime.datetime.fromisoformat(raw.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"{path}, line {line}: handed_in {raw!r} is not an ISO 8601 time "
                             f"(e.g. 2026-11-20T14:03:00+01:00)") from None
        if not all(key):
            raise ValueError(f"{path}, line {line}: student and assignment must not be empty")
        if key in times:
            raise ValueError(f"{path}, line {line}: {key[0]} {key[1]} is given twice")
        if when.tzinfo is not None:
            when = when.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        times[key] = when
    return HandInTimes(times, f"the LMS export {path.name}")


def submitted_timestamp(course, outcome, lms: HandInTimes | None = None):
    """When the submission was handed in, as nbgrader stores it (a naive UTC datetime): the
    time the course's LMS export states (``lms``), else when the course collected
    ``submitted/<student>/<assignment>/`` (:func:`collection_time`). Never a file the student
    wrote (nbgrader's ``timestamp.txt`` comes from the student's own ``nbgrader submit``, and a
    student can put one in a zip): it is ignored. None when there is neither (no folder, or it
    is a link)."""
    if lms is not None and lms.get(outcome) is not None:
        return lms.get(outcome)
    found = collection_time(_folder(course, outcome))
    return None if found is None else _utc(found[0])


def _folder(course, outcome) -> pathlib.Path:
    return pathlib.Path(course) / "submitted" / outcome.student_id / outcome.assignment


def _utc(seconds: float):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).replace(tzinfo=None)


def handed_in(course, outcome, lms: HandInTimes | None = None) -> str:
    """The hand-in time in words for the report: the time, where it came from (the LMS export,
    else the folder's collection time and which entry of the folder carries it)."""
    stated = lms.get(outcome) if lms is not None else None
    if stated is not None:
        return f"{stated:%Y-%m-%d %H:%M:%S} UTC, from {lms.source}"
    found = collection_time(_folder(course, outcome))
    if found is None:
        return ""
    ctime, newest, count = found
    note = f"not in {lms.source}; " if lms is not None else ""  # an export without it
    which = shown_name(newest) if newest else "the folder itself"
    read = (f"the first {count} entries read" if count > MAX_ENTRIES else
            f"{count} entr{'y' if count == 1 else 'ies'} in it")
    return (f"{_utc(ctime):%Y-%m-%d %H:%M:%S} UTC, {note}from {HANDED_IN_SOURCE} (the "
            f"latest: {which}; {read})")


def write_outcomes(course, outcomes, lms: HandInTimes | None = None) -> None:
    """Write every outcome's scores (see the module docstring); notes go to ``o.problems``;
    ``lms``: the hand-in times the course's LMS states (:func:`read_hand_in_times`)."""
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy noise from nbgrader
        warnings.filterwarnings("ignore", message=".*not in session")
        _write_outcomes(course, outcomes, lms)


def _write_outcomes(course, outcomes, lms=None) -> None:
    from nbgrader.api import MissingEntry

    with open_gradebook(course) as gb:
        for o in outcomes:
            if o.assignment not in ASSIGNMENTS or not o.known_student:
                continue
            gb.update_or_create_student(o.student_id)
            try:
                gb.find_submission(o.assignment, o.student_id)
            except MissingEntry:
                if not o.submitted:
                    continue  # never handed in, never graded: nbgrader's export gives 0
            # the hand-in time is the course's (the folder's collection time), never a
            # timestamp.txt the student wrote
            o.handed_in = handed_in(course, o, lms)
            gb.update_or_create_submission(o.assignment, o.student_id,
                                           timestamp=submitted_timestamp(course, o, lms))
            for grade_id, _ in auto_ids(o.assignment):
                grade = gb.find_grade(grade_id, o.assignment, o.assignment, o.student_id)
                if grade.manual_score is not None or grade.extra_credit:
                    o.problems.append(f"a score set by hand on {grade_id} "
                                      f"({grade.manual_score}) was cleared: the run decides")
                grade.auto_score = float(o.earned.get(grade_id, 0.0))
                grade.manual_score = None
                grade.extra_credit = None
                grade.needs_manual_grade = False
            sidecar = _sidecar(course, o.student_id, o.assignment)
            before = {}
            if sidecar.exists():
                try:
                    before = json.loads(sidecar.read_text()).get("working", {})
                except ValueError:
                    before = {}
            for grade_id in working_ids(o.assignment):
                grade = gb.find_grade(grade_id, o.assignment, o.assignment, o.student_id)
                same = o.graded and grade_id in o.working and before.get(grade_id) == o.working[
                    grade_id]
                if grade.manual_score is not None and not same:
                    o.problems.append(f"the hand-graded score of {grade_id} was cleared: the "
                                      "text graded is not this submission's")
                if not same:
                    grade.manual_score = None
                    grade.extra_credit = None
                grade.auto_score = None
                grade.needs_manual_grade = grade.manual_score is None
            gb.db.commit()
            if o.graded:
                sidecar.parent.mkdir(parents=True, exist_ok=True)
                sidecar.write_text(json.dumps({"working": o.working}, indent=1))
            elif sidecar.exists():
                sidecar.unlink()
        for o in outcomes:
            if o.assignment not in ASSIGNMENTS or not o.known_student:
                continue
            try:
                o.score = float(gb.find_submission(o.assignment, o.student_id).score)
            except MissingEntry:
                o.score = 0.0
            o.max_score = max_score(o.assignment)


def export(course) -> pathlib.Path:
    """nbgrader's CSV export of the gradebook to ``course/grades.csv``."""
    from nbgrader.plugins import CsvExportPlugin

    course = pathlib.Path(course).resolve()
    dest = course / "grades.csv"
    grader = _nbg.api(course)
    plugin = CsvExportPlugin(to=str(dest), parent=grader)
    with open_gradebook(course) as gb:
        plugin.export(gb)
    return dest
