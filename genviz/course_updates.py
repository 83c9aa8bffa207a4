"""Course updates that never lose a student's work *or* an instructor's fix.

On a hub, course material reaches students through nbgitpuller links: the first click clones
the course repository into the student's home, every later click fetches it and merges with
``git merge -Xours``. That keeps every line a student edited, and applies every instructor
change to lines the student did not touch. But when both changed the same lines (a student
worked on an exercise cell that the instructor then fixed), ``-Xours`` keeps the student's
lines and drops the fix, silently.

This module finds those cells afterwards, from the git history nbgitpuller leaves behind.
Each nbgitpuller merge (committer ``nbgitpuller``) has two parents: the student's side (their
edits, auto-committed before the merge) and the course's (``theirs``); their merge base is the
course version the student last had. A cell is reported when, at some such merge, the course
changed it (theirs ≠ base) but the merged notebook did not get the course's cell (merged ≠
theirs: ``-Xours`` kept the student's lines), and the student's cell on disk still differs from
the latest course version of that cell. Cells are matched by their nbformat cell id (by
position when a notebook has no ids); only sources are compared, so a student who only ran a
notebook (outputs, execution counts) receives the fix through the merge and sees no notice,
and a student who edits a cell *after* the course's version reached it (through a merge, or
copied by hand and committed by a later pull) is not nagged.

A repository that nbgitpuller never merged into (a developer's clone, Binder, the course
website build) has no such merges, and nothing is reported.

On a hub the kernel loads this module as an IPython extension (``--ext
genviz.course_updates``, deploy/singleuser): before the first cell a student runs it prints
the notice under that cell. ``python -m genviz.course_updates NOTEBOOK`` prints it in a
terminal. This is a model-layer module: it never imports IPython (the extension hook only uses
the shell object it is given).

Examples
--------
>>> update_notice([])
''
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["CellUpdate", "newer_cells", "update_notice", "load_ipython_extension"]

#: the committer nbgitpuller gives its merge commits (nbgitpuller/pull.py)
NBGITPULLER_EMAIL = "nbgitpuller@nbgitpuller.link"


@dataclasses.dataclass(frozen=True)
class CellUpdate:
    """A cell the student edited that the course has a newer version of.

    Attributes
    ----------
    index : int
        Position of the cell in the student's notebook (0-based).
    cell_id : str or None
        The cell's nbformat id (None in notebooks without ids).
    yours : str
        The cell's source in the student's notebook (kept).
    course : str
        The cell's source in the latest course version.
    """

    index: int
    cell_id: str | None
    yours: str
    course: str


def _check_notebook(notebook) -> Path:
    if not isinstance(notebook, (str, os.PathLike)):
        raise TypeError(f"notebook must be a path (str or os.PathLike), got {notebook!r}")
    path = Path(notebook)
    if path.suffix != ".ipynb":
        raise ValueError(f"notebook must be a .ipynb file, got {str(path)!r}")
    if not path.is_file():
        raise ValueError(f"notebook {str(path)!r} does not exist")
    return path.resolve()


def _git(repo: Path, *args: str) -> str | None:
    """stdout of a git command in ``repo``; None when it fails (not a repo, no such object)."""
    try:
        out = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                             timeout=30, env=dict(os.environ, LANG="C"))
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _cells(text: str | None) -> dict:
    """{key: source} of a notebook's cells; key = cell id, or ('#', position) without ids."""
    if text is None:
        return {}
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return {}
    return {(c.get("id") or ("#", i)): _source(c) for i, c in enumerate(cells)
            if isinstance(c, dict)}


def newer_cells(notebook) -> list[CellUpdate]:
    """The cells of ``notebook`` that the student edited and the course has since changed.

    Parameters
    ----------
    notebook : str or os.PathLike
        A ``.ipynb`` file inside a repository nbgitpuller pulled.

    Returns
    -------
    list of CellUpdate
        In notebook order; empty when the notebook is not in a git repository, nbgitpuller
        never merged into it, or every edited cell is up to date.

    Raises
    ------
    TypeError
        If ``notebook`` is not a path.
    ValueError
        If ``notebook`` is not an existing ``.ipynb`` file.
    """
    path = _check_notebook(notebook)
    top = _git(path.parent, "rev-parse", "--show-toplevel")
    if not top:
        return []
    repo = Path(top.strip())
    rel = path.relative_to(repo.resolve()).as_posix()
    log = _git(repo, "log", "--merges", f"--committer={NBGITPULLER_EMAIL}", "--format=%H %P")
    if not log:
        return []
    flagged: set = set()
    latest_course = None
    for line in log.splitlines():  # newest first
        merge, *parents = line.split()
        if len(parents) != 2:
            continue
        ours, theirs = parents
        latest_course = latest_course or theirs
        base = (_git(repo, "merge-base", ours, theirs) or "").strip()
        if not base or _git(repo, "diff", "--quiet", base, theirs, "--", rel) is not None:
            continue  # the course did not change this notebook in that pull
        b, t, m = (_cells(_git(repo, "show", f"{sha}:{rel}")) for sha in (base, theirs, merge))
        # the course changed the cell, and what the merge produced is not the course's cell
        missed = {k for k in t if k in m and t[k] != b.get(k) and m[k] != t[k]} - flagged
        # ... unless a later commit of the student's has the course's cell (they took it)
        for sha in (_git(repo, "rev-list", f"{merge}..HEAD", "--", rel) or "").split():
            later = _cells(_git(repo, "show", f"{sha}:{rel}"))
            missed = {k for k in missed if later.get(k) != t[k]}
        flagged |= missed
    if not flagged:
        return []
    upstream = (_git(repo, "rev-parse", "--verify", "-q", "@{upstream}") or "").strip()
    course = _cells(_git(repo, "show", f"{upstream or latest_course}:{rel}"))
    try:
        mine = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for i, cell in enumerate(mine):
        key = cell.get("id") or ("#", i)
        if key in flagged and key in course and _source(cell) != course[key]:
            out.append(CellUpdate(i, cell.get("id"), _source(cell), course[key]))
    return out


def update_notice(updates) -> str:
    """The text a student sees about ``updates`` ('' when there are none).

    Parameters
    ----------
    updates : list of CellUpdate
        As returned by :func:`newer_cells`.

    Returns
    -------
    str
        A short notice: which cells, that the student's version is kept, each cell's course
        version, and how to get the whole new notebook.

    Raises
    ------
    TypeError
        If ``updates`` is not a list of CellUpdate.

    Examples
    --------
    >>> print(update_notice([CellUpdate(3, "abc", "x = 2", "x = 1  # fixed")]))
    ... # doctest: +NORMALIZE_WHITESPACE
    Course update: the course has a newer version of 1 cell you edited in this notebook
    (cell 4). Your version is kept. The course's version:
    --- cell 4 ---
    x = 1  # fixed
    To get the whole new notebook, rename yours and open the course link again.
    """
    if not isinstance(updates, (list, tuple)) or not all(isinstance(u, CellUpdate) for u in updates):
        raise TypeError(f"updates must be a list of CellUpdate, got {updates!r}")
    if not updates:
        return ""
    numbers = ", ".join(str(u.index + 1) for u in updates)
    plural = "s" if len(updates) > 1 else ""
    lines = [f"Course update: the course has a newer version of {len(updates)} cell{plural} you "
             f"edited in this notebook (cell{plural} {numbers}). Your version is kept. "
             f"The course's version:"]
    for u in updates:
        lines += [f"--- cell {u.index + 1} ---", u.course.rstrip("\n")]
    lines.append("To get the whole new notebook, rename yours and open the course link again.")
    return "\n".join(lines)


def load_ipython_extension(ipython) -> None:
    """IPython hook: print the notice under the first cell the student runs (once).

    The notebook is the kernel's session (``JPY_SESSION_NAME``, set by jupyter-server). Any
    failure is silent: a notice must never break a student's notebook.

    Parameters
    ----------
    ipython : IPython.core.interactiveshell.InteractiveShell
        The kernel's shell (only its ``events`` are used, so this module never imports
        IPython).
    """
    def notify(*_):
        try:
            ipython.events.unregister("pre_run_cell", notify)
        except ValueError:
            pass
        try:
            session = os.environ.get("JPY_SESSION_NAME", "")
            if session.endswith(".ipynb") and Path(session).is_file():
                text = update_notice(newer_cells(session))
                if text:
                    print(text, flush=True)
        except Exception:  # noqa: BLE001 (never break the student's cell)
            pass

    ipython.events.register("pre_run_cell", notify)


def _main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m genviz.course_updates NOTEBOOK.ipynb", file=sys.stderr)
        return 2
    try:
        text = update_notice(newer_cells(args[0]))
    except (TypeError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 2
    print(text or f"{args[0]}: up to date with the course (or never edited where it changed).")
    return 1 if text else 0


if __name__ == "__main__":
    sys.exit(_main())
