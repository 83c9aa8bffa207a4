"""Reading a submission (no student code runs here): the course's listing of submitted/, a
notebook read from its folder with every bound checked before the costly step it protects
(issue #38), and the cells to run, merged with the student's release.

- a folder is read lazily, at most :data:`course.gradebook.MAX_ENTRIES` + 1 entries;
- a notebook is a regular file (never a link) of at most 20 MB and at most MAX_BYTES_FACTOR x
  its release's bytes (+2 MB), judged from its size before a byte of it is read; its cells are
  counted on the JSON as read, before nbformat parses and validates it (MAX_CELLS_FACTOR);
- every string of it is made writable (lone surrogates escaped) before anything reads it.

:mod:`course.grade` re-exports these names (``grade.read_submission``, ``grade.merge``...).
"""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import re
import stat
import warnings

import nbformat

from course.gradebook import MAX_ENTRIES
from course.shown import printable, unsurrogate

MAX_NOTEBOOK_BYTES = 20_000_000
# a lone surrogate escape in the notebook's JSON (a pair, an escaped emoji, is a character)
LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|"
                            rb"(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
# a submission larger than its release by these factors is refused before anything runs: a
# student adds a few cells and figures, never thousands (the release's own counts, not the
# student's, fix the time budget too: Limits.wall)
MAX_CELLS_FACTOR = 4                # cells: at most 4 x the release's cells + 20
MAX_BYTES_FACTOR = 20               # bytes: at most 20 x the release's bytes + 2 MB (figures)


def _listing(course: pathlib.Path, roster=None):
    """(student ids with a folder, problems per odd entry): folders only, never links."""
    submitted = course / "submitted"
    if not submitted.is_dir() or submitted.is_symlink():
        raise FileNotFoundError(f"no submitted/ folder in {course}: submissions go in "
                                f"{submitted}/<student>/<assignment>/")
    students, odd = [], {}
    for entry in sorted(os.scandir(submitted), key=lambda e: e.name):
        if entry.is_symlink():
            odd[entry.name] = "the folder submitted/%s is a symbolic link: not graded" % entry.name
        elif entry.is_dir():
            students.append(entry.name)
        else:  # a file (a notebook, a zip) where a student's folder belongs
            odd[entry.name] = (f"submitted/{entry.name} is a file, not a student's folder "
                               "(submitted/<student>/<assignment>/<assignment>.ipynb): not graded")
    return students, odd


def _entries(folder, bound: int) -> list:
    """At most ``bound`` + 1 entries of ``folder``, read lazily (a folder of a million entries
    is not listed): more than ``bound`` says there are more."""
    with os.scandir(folder) as it:
        return list(itertools.islice(it, bound + 1))


def _folder_assignments(entries) -> list[str]:
    return sorted(e.name for e in entries if e.is_dir() or e.is_symlink())


def _loose_notebooks(entries) -> dict[str, str]:
    """assignment -> file name, for each notebook put directly in ``submitted/<student>/``
    instead of in its assignment's folder."""
    return {e.name[:-len(".ipynb")]: e.name for e in entries
            if e.name.endswith(".ipynb") and not e.is_dir(follow_symlinks=False)}


def read_submission(folder: pathlib.Path, assignment: str, refuse=None, max_bytes=None):
    """(notebook or None, problems) — never follows a link, never reads more than 20 MB.
    ``max_bytes()``, asked after the file's size is known and before a byte of it is read, may
    give a lower bound (:func:`byte_limit`: the release's size times MAX_BYTES_FACTOR, +2 MB):
    a larger file is refused from its size alone, never read or decoded. ``refuse(raw, size)``,
    given the decoded JSON and the file's size in bytes, may return why the notebook is not read
    further (:func:`too_large`): it is asked before nbformat parses and validates the
    notebook, the costly part for thousands of cells."""
    if folder.is_symlink():
        return None, [f"the folder {folder.name}/ is a symbolic link: not graded"]
    if not folder.is_dir():
        return None, ["nothing submitted"]
    entries = _entries(folder, MAX_ENTRIES)
    if not entries:
        return None, ["empty submission folder"]
    path = folder / f"{assignment}.ipynb"
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        others = sorted(e.name for e in entries if e.name.endswith(".ipynb"))
        return None, [f"no {path.name} in the submission (found: "
                      f"{', '.join(others) or 'no notebook'})"]
    if stat.S_ISLNK(info.st_mode):
        return None, [f"{path.name} is a symbolic link (to {os.readlink(path)!r}), not a "
                      "notebook: not graded"]
    if not stat.S_ISREG(info.st_mode):
        return None, [f"{path.name} is not a regular file: not graded"]
    if info.st_size > MAX_NOTEBOOK_BYTES:
        return None, [f"{path.name} is {info.st_size / 1e6:.0f} MB, more than the limit of "
                      f"{MAX_NOTEBOOK_BYTES / 1e6:.0f} MB: not graded"]
    limit = max_bytes() if max_bytes is not None else None
    if limit is not None and info.st_size > limit:
        return None, [too_many_bytes(info.st_size, limit)]
    problems = []
    if info.st_nlink > 1:
        problems.append(f"{path.name} has {info.st_nlink} hard links (another name for the same "
                        "file elsewhere): graded, check by hand")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(min(MAX_NOTEBOOK_BYTES, limit or MAX_NOTEBOOK_BYTES) + 1)
    if limit is not None and len(data) > limit:  # it grew after lstat
        return None, problems + [too_many_bytes(len(data), limit)]
    try:
        raw = json.loads(data.decode("utf-8"))
    except Exception as err:  # not UTF-8, not JSON
        first = printable((str(err).splitlines() or [""])[0][:120])
        return None, [f"{path.name} is not a valid notebook ({type(err).__name__}: {first})"]
    refused = refuse(raw, len(data)) if refuse is not None and isinstance(raw, dict) else None
    if refused:
        return None, problems + [refused]
    try:
        # a lone surrogate is valid JSON ("\\udc80") and no UTF-8 writer takes it: every
        # string of the notebook is made writable before anything else reads it
        text = json.dumps(unsurrogate(raw))
        with warnings.catch_warnings():  # nbformat warns once per repeated cell id, on the
            warnings.simplefilter("ignore")  # grader's terminal, quoting the student's id
            nb = nbformat.reads(text, as_version=4)
        repeated = _repeated_ids(raw)
        if repeated:
            problems.append(f"{repeated} cells repeat another cell's id (renamed to be read; "
                            "the grader goes by the nbgrader grade ids): graded")
        if LONE_SURROGATE.search(data):
            problems.append(f"{path.name} holds lone surrogates (not text: half of a character "
                            "pair): shown escaped as \\udXXX, run as written")
    except Exception as err:  # nbformat raises several kinds for broken files
        first = printable((str(err).splitlines() or [""])[0][:120])
        return None, [f"{path.name} is not a valid notebook ({type(err).__name__}: {first})"]
    if not isinstance(nb.get("cells"), list):
        return None, [f"{path.name} is not a valid notebook (no cells)"]
    return nb, problems


def _repeated_ids(raw) -> int:
    """How many cells of the notebook's JSON carry an id an earlier cell carries."""
    cells = raw.get("cells") if isinstance(raw, dict) else None
    ids = [c.get("id") for c in cells if isinstance(c, dict) and isinstance(c.get("id"), str)] \
        if isinstance(cells, list) else []
    return len(ids) - len(set(ids))


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _grade_id(cell) -> str | None:
    meta = cell.get("metadata", {})
    meta = meta.get("nbgrader", {}) if isinstance(meta, dict) else {}
    gid = meta.get("grade_id") if isinstance(meta, dict) else None
    return gid if isinstance(gid, str) else None


def merge(submitted, release) -> tuple[list, list[str]]:
    """The cells to run: the student's cells in their order, every read-only cell of the
    release replaced by the release's own, a deleted one put back after the cell before it.
    Returns (cells, problems); a cell is (kind, source, grade_id)."""
    course = {_grade_id(c): c for c in release.cells}
    locked = {gid for gid, c in course.items() if c.metadata["nbgrader"]["locked"]}
    problems, cells, seen, edited = [], [], set(), []
    for cell in submitted.cells:
        gid = _grade_id(cell)
        kind = cell.get("cell_type")
        if gid in seen:
            problems.append(f"cell {gid} appears twice (the copy after the first is run as the "
                            "student's own cell)")
            gid = None
        if gid in locked:
            seen.add(gid)
            if _source(cell).strip() != course[gid].source.strip():
                edited.append(gid)
            cells.append((course[gid].cell_type, course[gid].source, gid))
        elif gid in course:
            seen.add(gid)
            cells.append((course[gid].cell_type, _source(cell), gid))
        else:
            cells.append((kind if kind in ("code", "markdown", "raw") else "raw", _source(cell),
                          None))
    if edited:
        problems.append(f"read-only cell{'s' if len(edited) > 1 else ''} {', '.join(edited)} "
                        f"{'were' if len(edited) > 1 else 'was'} edited (graded with the "
                        f"original{'s' if len(edited) > 1 else ''})")
    # put back what was deleted, after the release's cell before it
    order = [_grade_id(c) for c in release.cells]
    for k, gid in enumerate(order):
        if gid in seen:
            continue
        c = course[gid]
        if gid.startswith(("answer_q", "working_q")):
            problems.append(f"cell {gid} was deleted (put back unanswered)")
            source = c.source
        else:
            problems.append(f"cell {gid} was deleted (put back by the grader)")
            source = c.source
        before = next((order[j] for j in range(k - 1, -1, -1) if order[j] in seen), None)
        at = 0 if before is None else next(i for i, x in enumerate(cells) if x[2] == before) + 1
        cells.insert(at, (c.cell_type, source, gid))
        seen.add(gid)
    return cells, problems


def too_large(nb, release, size: int | None = None) -> str | None:
    """Why ``nb`` (a notebook, or its JSON as read, before nbformat parses it) is refused for
    its size against the student's release (None: it is not); ``size``: its file's bytes."""
    cells = nb.get("cells") if isinstance(nb, dict) else None
    allowed = MAX_CELLS_FACTOR * len(release.cells) + 20
    if isinstance(cells, list) and len(cells) > allowed:
        return (f"the notebook has {len(cells)} cells, more than {MAX_CELLS_FACTOR} times the "
                f"release's {len(release.cells)} (+20): not graded")
    if size is None:
        size = len(nbformat.writes(nb).encode("utf-8"))
    limit = byte_limit(release)
    return too_many_bytes(size, limit) if size > limit else None


def byte_limit(release) -> int:
    """The most bytes a submission of ``release`` may have: MAX_BYTES_FACTOR times the
    release's own size, +2 MB (figures)."""
    return MAX_BYTES_FACTOR * len(nbformat.writes(release).encode("utf-8")) + 2_000_000


def too_many_bytes(size: int, limit: int) -> str:
    return (f"refused: the notebook is {size / 1e6:.1f} MB, more than {MAX_BYTES_FACTOR} times "
            f"the release's size (+2 MB, {limit / 1e6:.1f} MB): not graded")
