"""What a course update did not deliver, recorded once per merge, and the notice a student sees.

After each pull that changed the student's copy (a merge or a fast-forward),
:func:`record_update` compares, file by file, the course's new version with what the student
now has, and writes one small JSON file, ``.git/genviz-updates.json`` in the student's
clone. It names every course change that did not arrive (per notebook and cell, data and
other files, kept copies of the student's versions), the notebooks the merge changed (and
how, for the pre-save safety net), the course's renames, and whether the library under
``genviz/`` changed. Items a student has still not taken are carried into the next record.

A kernel reads only that file (:class:`Watcher`, one ``os.stat`` per cell while nothing
changed), so the check costs the same after 30 merges as after one; a student is told once
per merge per notebook (a marker file created with ``O_EXCL``, so two kernels never both
tell).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from genviz_updates import git, git_object  # noqa: F401 (notices.git: the puller imports it)
from genviz_updates.notebooks import (cell_hash, content_key, delivered_changes,
                                      missed_changes, read_notebook, source)

__all__ = ["STATE", "TOLD", "SEEN_ITEMS", "git", "find_repo", "kept_name", "record_update",
           "read_state", "notice_for", "repo_notice", "Watcher", "add_items", "item_key",
           "mark_seen", "read_seen", "course_twin", "copy_notice"]

STATE = "genviz-updates.json"
TOLD = "genviz-updates-told"
#: the items a kernel has shown, per notebook (kept across clicks: details stay until seen)
SEEN_ITEMS = "genviz-updates-seen.json"
LIBRARY = "genviz/"


def _out(repo, *args):
    r = git(repo, *args)
    return r.stdout.strip() if r.returncode == 0 else ""


def _blob(repo, rev, path, binary=False):
    r = git_object(repo, "-p", f"{rev}:{path}") if binary else \
        git(repo, "cat-file", "-p", f"{rev}:{path}")
    return r.stdout if r.returncode == 0 else None


def find_repo(path) -> tuple[Path, Path] | None:
    """(work tree top, git dir) of the repository holding ``path``, by walking up (no git
    process); None outside a repository."""
    p = Path(path).resolve()
    for d in [p, *p.parents] if p.is_dir() else list(p.parents):
        g = d / ".git"
        if g.is_dir():
            return d, g
    return None


def kept_name(path: Path, day: str | None = None, label: str = "student") -> Path:
    """``NAME.LABEL-DAY.EXT`` beside ``path`` (``-2``, ``-3``... if taken); DAY is
    ``YYYYMMDD`` unless given."""
    day = day or time.strftime("%Y%m%d")
    name = path.name
    dot = name.find(".", 1)
    stem, ext = (name, "") if dot < 0 else (name[:dot], name[dot:])
    k = 1
    while True:
        cand = path.with_name(f"{stem}.{label}-{day}{'' if k == 1 else f'-{k}'}{ext}")
        if not os.path.lexists(cand):
            return cand
        k += 1


def _is_binary(data) -> bool:
    return data is not None and b"\0" in data[:8000]


def _nb(text):
    try:
        return read_notebook(text) if text is not None else None
    except ValueError:
        return None


def _course_changes(repo, base, theirs):
    """[(status, old path, new path)] from base to theirs, renames followed."""
    out = _out(repo, "diff", "--name-status", "-M", "-z", base, theirs)
    fields = out.split("\0") if out else []
    changes, i = [], 0
    while i < len(fields):
        status = fields[i]
        if not status:
            i += 1
            continue
        if status[0] in "RC":
            changes.append((status[0], fields[i + 1], fields[i + 2]))
            i += 3
        else:
            changes.append((status[0], fields[i + 1], fields[i + 1]))
            i += 2
    return changes


def _conflicts(base, ours, theirs) -> bool:
    """Whether a three-way text merge of the three versions has conflicts (git merge-file)."""
    import tempfile

    if ours is None or theirs is None:
        return ours != theirs
    with tempfile.TemporaryDirectory() as d:
        names = []
        for name, data in (("ours", ours), ("base", base or b""), ("theirs", theirs)):
            Path(d, name).write_bytes(data)
            names.append(str(Path(d, name)))
        r = subprocess.run(["git", "merge-file", "-p", *names], capture_output=True)
    return r.returncode != 0


def _attr_course(repo, paths):
    """The paths whose merge attribute is the course-wins driver."""
    if not paths:
        return set()
    r = git(repo, "check-attr", "-z", "--stdin", "merge", input="\0".join(paths) + "\0")
    f = r.stdout.split("\0") if r.returncode == 0 else []
    return {f[i] for i in range(0, len(f) - 2, 3) if f[i + 2] == "genviz-course"}


def record_update(repo, before: str, theirs: str, *, kept=(), notes=()) -> dict | None:
    """Write the record of the update from ``before`` (the student's commit before the merge)
    to HEAD, whose course side is ``theirs``; returns it (None if nothing changed).

    ``kept``: [{path, copy, why}] copies of the student's versions the puller made before the
    merge; ``notes``: [{path, what}] other things to tell (a deleted notebook the course
    renamed).
    """
    repo = Path(repo)
    # one git for the three (each line in the order asked); apart when one cannot be resolved
    three = _out(repo, "rev-parse", "HEAD", theirs, "--absolute-git-dir").splitlines()
    if len(three) == 3:
        after, theirs, gitdir = three[0], three[1], Path(three[2])
    else:
        after = _out(repo, "rev-parse", "HEAD")
        theirs = _out(repo, "rev-parse", theirs) or theirs
        gitdir = None
    if not after or (after == before and not kept):
        return None
    gitdir = gitdir or Path(_out(repo, "rev-parse", "--absolute-git-dir"))
    base = _out(repo, "merge-base", before, theirs) or before
    changes = _course_changes(repo, base, theirs)
    renamed = {old: new for s, old, new in changes if s == "R" and old != new}
    day = time.strftime("%Y%m%d")
    notebooks, files = {}, [dict(k, kind="kept-copy") for k in kept]
    files += [dict(n, kind="note") for n in notes]
    course_wins = _attr_course(repo, [new for s, _, new in changes if s != "D"])
    for status, old, new in changes:
        if status == "D":
            m_raw = _blob(repo, after, old, binary=True)
            if m_raw is not None:
                edited = _edited(old, _blob(repo, base, old, binary=True), m_raw)
                files.append({"kind": "course-removed" if edited else "course-removed-ran",
                              "path": old})
            continue
        t_raw, m_raw = _blob(repo, theirs, new, True), _blob(repo, after, new, True)
        if new.endswith(".ipynb"):
            o_raw = _blob(repo, before, old, True)
            if o_raw is not None and o_raw != m_raw and _nb(o_raw) is None \
                    and _nb(m_raw) is not None:  # replaced (by the driver): keep a copy
                files.append(_keep_unreadable(repo, new, o_raw))
        if t_raw == m_raw:
            continue
        if new.endswith(".ipynb"):
            B, O = _nb(_blob(repo, base, old, True)), _nb(o_raw)
            T, M = _nb(t_raw), _nb(m_raw)
            if T is None:
                continue
            if M is None:
                files.append({"kind": "not-updated", "path": new})
                continue
            items = missed_changes(B, O or {"cells": []}, T, M)
            mine = {c.get("id"): cell_hash(c) for c in M["cells"]}
            if items:
                notebooks.setdefault(new, {})["items"] = [
                    dict(i, merge=after, yours=mine.get(i["id"])) for i in items]
        else:
            b_raw, o_raw = _blob(repo, base, old, True), _blob(repo, before, old, True)
            if new in course_wins or _is_binary(t_raw) or _is_binary(m_raw):
                if m_raw == o_raw and o_raw != b_raw:
                    files.append({"kind": "not-updated", "path": new})
                continue
            if _conflicts(b_raw, o_raw, t_raw):
                files.append({"kind": "kept-lines", "path": new})
    files += _kept_data(repo, changes, course_wins, base, before, after, day)
    _delivered(repo, gitdir, notebooks, renamed, before, after)
    previous = read_state(gitdir)
    _carry(repo, previous, notebooks, renamed, theirs, after)
    state = {"version": 1, "merge": after, "before": before, "theirs": theirs,
             "time": time.time(), "notebooks": notebooks, "files": files, "renamed": renamed,
             "library_changed": any(new.startswith(LIBRARY) or old.startswith(LIBRARY)
                                    for _, old, new in changes)}
    _write(gitdir, state)
    return state


def _text_file(repo, blob: str) -> bool:
    """Whether a blob is text a file editor opens (UTF-8, no NUL, at most textsave.MAX_TEXT)."""
    from genviz_updates.textsave import MAX_TEXT

    size = _out(repo, "cat-file", "-s", blob)
    if not size.isdigit() or int(size) > MAX_TEXT:
        return False
    data = git_object(repo, "blob", blob).stdout
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not _is_binary(data)


def _latest_record(gitdir) -> dict:
    """The latest merge's record, or an empty one for a save before any click."""
    return read_state(gitdir) or {"version": 1, "merge": "save", "time": time.time(),
                                  "notebooks": {}, "files": [], "renamed": {}}


def _add_to_record(gitdir, state: dict) -> None:
    """Write ``state`` (the latest record, with what a save found added) as a new revision:
    kernels tell it at their next cell."""
    state["revision"] = state.get("revision", 0) + 1
    tmp = Path(gitdir) / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    os.replace(tmp, Path(gitdir) / STATE)


def add_file_note(gitdir, entry: dict) -> None:
    """Add a files entry found after the record was written (a file-editor save merged by the
    pre-save hook) to the latest merge's record (``status`` lists it)."""
    state = _latest_record(gitdir)
    if entry in state.setdefault("files", []):
        return
    state["files"].append(entry)
    _add_to_record(gitdir, state)


def _edited(path, base_raw, mine_raw) -> bool:
    """Whether the student's version differs from the base in what they wrote: for a
    notebook, cell types, sources and attachments (running it is not editing it)."""
    if base_raw == mine_raw:
        return False
    if path.endswith(".ipynb"):
        b, m = _nb(base_raw), _nb(mine_raw)
        if b is not None and m is not None:
            return [content_key(c) for c in b["cells"]] != [content_key(c) for c in m["cells"]]
    return True


def _keep_unreadable(repo, rel, raw) -> dict:
    """Keep the student's unreadable notebook beside the course's version that replaced it."""
    copy = kept_name(repo / rel, time.strftime("%Y-%m-%d"), label="unreadable")
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(raw)
    return {"kind": "kept-copy", "path": rel, "copy": copy.relative_to(repo).as_posix(),
            "why": "your copy could not be read as a notebook (cut short or damaged), so the "
                   "course's version replaced it; your bytes are in the copy"}


def _kept_data(repo, changes, course_wins, base, before, after, day) -> list:
    """Copies of the student's versions of the data files the course-wins driver replaced."""
    files = []
    for status, old, new in changes:
        if status == "D" or new not in course_wins:
            continue
        b_raw, o_raw = _blob(repo, base, old, True), _blob(repo, before, old, True)
        m_raw = _blob(repo, after, new, True)
        if o_raw is not None and o_raw not in (b_raw, m_raw):
            copy = kept_name(repo / new, day)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(o_raw)
            files.append({"kind": "kept-copy", "path": new,
                          "copy": copy.relative_to(repo).as_posix(),
                          "why": "the course updated this data file and you had changed it"})
    return files


def _delivered(repo, gitdir, notebooks, renamed, before, after):
    """What the merge changed in each notebook (for the pre-save safety net)."""
    from genviz_updates.seen import record_merge
    from genviz_updates.textsave import record_text_merge

    for path in _out(repo, "diff", "--name-only", "-z", before, after).split("\0"):
        if not path:
            continue
        src = next((old for old, new in renamed.items() if new == path), path)
        if not path.endswith(".ipynb"):  # a text file: what a file editor's save is merged against
            blobs = [_out(repo, "rev-parse", f"{rev}:{p}")
                     for rev, p in ((before, src), (after, path))]
            if all(blobs) and _text_file(repo, blobs[1]):
                record_text_merge(gitdir, path, blobs[0], blobs[1], after)
            continue
        O, M = _nb(_blob(repo, before, src, True)), _nb(_blob(repo, after, path, True))
        if O is not None and M is not None:
            entry = notebooks.setdefault(path, {})
            entry["delivered"] = delivered_changes(None, O, M)
            entry["ours_blob"] = _out(repo, "rev-parse", f"{before}:{src}")
            record_merge(gitdir, path, O, M, after)  # what each tab's save is merged against


def _carry(repo, previous, notebooks, renamed, theirs, after):
    """Items of the previous record the student has still not taken, into ``notebooks``: the
    student's cell is as it was when they were told (one they edited since, e.g. by copying
    the course's version and changing it, is theirs) and the course's still differs."""
    for path, entry in (previous or {}).get("notebooks", {}).items():
        path = renamed.get(path, path)
        old_items = [i for i in entry.get("items", []) if i.get("id")]
        if not old_items:
            continue
        T, M = _nb(_blob(repo, theirs, path)), _nb(_blob(repo, after, path))
        if T is None or M is None:
            continue
        t = {c.get("id"): c for c in T["cells"]}
        m = {c.get("id"): c for c in M["cells"]}
        have = {i.get("id") for i in notebooks.get(path, {}).get("items", [])}
        for item in old_items:
            cid = item["id"]
            if cid in have:
                continue
            if item.get("yours") != (cell_hash(m[cid]) if cid in m else None):
                continue  # the student changed the cell since (or deleted it)
            if item["kind"] in ("kept-deleted", "not-deleted"):
                still = cid not in t and cid in m
            else:
                still = cid in t and (cid not in m or content_key(m[cid]) != content_key(t[cid]))
                if still:
                    item = dict(item, course=source(t[cid]), cell_type=t[cid].get("cell_type"))
            if still:
                if cid in m:
                    item = dict(item, index=[c.get("id") for c in M["cells"]].index(cid) + 1)
                notebooks.setdefault(path, {}).setdefault("items", []).append(item)


def _write(gitdir: Path, state: dict):
    tmp = gitdir / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1))
    told = gitdir / TOLD
    if told.is_dir():
        for f in told.iterdir():
            try:
                f.unlink()
            except OSError:
                pass
    os.replace(tmp, gitdir / STATE)


def read_seen(gitdir) -> dict:
    """{notebook: [item keys a kernel has shown]}."""
    try:
        data = json.loads((Path(gitdir) / SEEN_ITEMS).read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def mark_seen(gitdir, rel, keys) -> None:
    """Add ``keys`` to the items shown for notebook ``rel``."""
    if not keys:
        return
    data = read_seen(gitdir)
    data[rel] = sorted(set(data.get(rel, [])) | set(keys))[-500:]
    tmp = Path(gitdir) / (SEEN_ITEMS + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, Path(gitdir) / SEEN_ITEMS)


def add_items(gitdir, rel, items, cells=()) -> None:
    """Add items found after the record was written (a save merged by the pre-save hook) to
    notebook ``rel``'s entry, as part of the latest merge; kernels tell them at their next
    cell (the record's revision changes).

    ``cells``: the notebook as saved. Each item records the student's cell as it is now
    (``yours``, as :func:`record_update` does), so the next click carries the item while that
    cell stays as it was when they were told (:func:`_carry`)."""
    state = _latest_record(gitdir)
    entry = state.setdefault("notebooks", {}).setdefault(rel, {})
    have = {item_key(i) for i in entry.get("items", [])}
    mine = {c.get("id"): cell_hash(c) for c in cells}
    new = [dict(i, merge=state.get("merge"), yours=mine.get(i.get("id")))
           for i in items if item_key(i) not in have]
    if not new:
        return
    entry["items"] = entry.get("items", []) + new
    _add_to_record(gitdir, state)


def read_state(gitdir) -> dict | None:
    try:
        return json.loads((Path(gitdir) / STATE).read_text())
    except (OSError, ValueError):
        return None


# --- words --------------------------------------------------------------------------------------

_CELL_REMEDY = {
    "kept-yours": "you edited this cell and the course changed it too: your version is kept. "
                  "The course's version is below; copy what you need into your cell.",
    "you-deleted": "you had deleted this cell and the course changed it. The course's version "
                   "is below; paste it into a new cell if you want it back.",
    "kept-deleted": "the course removed this cell; you had edited it, so it is kept. Delete it "
                    "when you no longer need it.",
    "not-deleted": "the course removed this cell, but it is still in your notebook. Delete it.",
    "not-added": "the course added this cell, and it is not in your notebook. It is below: "
                 "paste it into a new cell here.",
    "not-changed": "the course changed this cell, and your notebook does not have the change. "
                   "The course's version is below.",
    "not-moved": "the course moved this cell here; in your notebook it is elsewhere.",
    "output-not-updated": "the course changed only the stored output of this cell; you ran "
                          "it, so your output is kept. Run the cell again to see the current "
                          "result.",
    "kept-both": "this notebook was saved from a browser tab that did not show the course "
                 "update; the update's cells were kept and marked, and the tab's older "
                 "versions kept below them. The note at the top says what to do.",
}


def _cell_line(item) -> str:
    kind = item["kind"]
    where = (f"cell {item['index']}" if kind not in ("not-added", "you-deleted")
             else f"after cell {item['index']}" if item["index"] else "at the top")
    label = f'{item.get("cell_type") or "cell"} "{item["first_line"]}"' if item["first_line"] \
        else item.get("cell_type") or "cell"
    lines = [f"- {where} ({label}): {_CELL_REMEDY.get(kind, '')}"]
    if item.get("attachments"):
        names = ", ".join(f"attachment:{n}" for n in item["attachments"])
        shown = " (shown below the notice in a notebook)" if item.get("images") else ""
        lines.append(f"  The course's version has a changed image ({names}){shown}: the text "
                     f"below refers to it; copy the course's cell to get the image.")
    if item.get("course") and kind != "output-not-updated":
        lines += ["    " + line for line in item["course"].rstrip("\n").splitlines()] or ["    "]
    return "\n".join(lines)


def item_key(item) -> str:
    """What identifies an item across records: cell, kind and the course's version."""
    import hashlib

    return f"{item.get('id')}:{item['kind']}:" + hashlib.sha1(
        item.get("course", "").encode()).hexdigest()[:12]


def notice_for(state: dict | None, rel: str, *, open_before_merge=False, seen=(),
               header=True) -> str:
    """The notice for notebook ``rel`` (path in the repository) after the merge of ``state``:
    course changes that did not arrive (in full, except those whose key is in ``seen``,
    which the student was shown already: those as a count), a rename, and -- if the notebook
    was open while the merge changed it -- what to do in JupyterLab. ``header``: False leaves
    out the rename and the JupyterLab advice (a later notice about the same merge)."""
    if not state:
        return ""
    parts = []
    new_name = state.get("renamed", {}).get(rel) if header else None
    if new_name:
        parts.append(f"Course update: the course renamed this notebook to {new_name}. Your "
                     f"work is there. Close this tab without saving and open {new_name}.")
    entry = state.get("notebooks", {}).get(rel, {})
    items = entry.get("items", [])
    seen = set(seen)
    fresh = [i for i in items if item_key(i) not in seen]
    older = len(items) - len(fresh)
    if fresh:
        n = len(fresh)
        parts.append(f"Course update: {n} course change{'s' if n > 1 else ''} to this notebook "
                     f"did not reach your copy:\n" + "\n".join(_cell_line(i) for i in fresh))
    if older:
        parts.append(f"({older} earlier course change{'s' if older > 1 else ''} you were "
                     f"shown and have not taken: python -m genviz_updates status {rel})")
    if header and open_before_merge and entry.get("delivered") and any(entry["delivered"].values()):
        parts.append("Course update: this notebook changed on disk when you clicked the course link. To see "
                     "the update: File > Reload Notebook from Disk (save first; your saved work "
                     "is in the reloaded notebook). If JupyterLab asks \"File Changed\", "
                     "Overwrite keeps both your work and the update on this hub; then reload.")
    return "\n\n".join(_fill(p) for p in parts)


def _fill(text: str, width: int = 88) -> str:
    """Prose lines wrapped at ``width`` (a notebook's output wraps long lines mid-word); the
    course's cell sources (indented lines) are left as they are."""
    import textwrap

    out = []
    for line in text.split("\n"):
        if line.startswith("    ") or len(line) <= width:
            out.append(line)
        else:
            indent = "  " if line.startswith("- ") else ""
            out.append(textwrap.fill(line, width, subsequent_indent=indent))
    return "\n".join(out)


def course_twin(top: Path, path: Path) -> str | None:
    """The course notebook (tracked) whose cell ids ``path`` mostly shares, if any: the one a
    notebook outside the course (a student's renamed copy) was copied from."""
    mine = {c.get("id") for c in read_notebook(Path(path).read_bytes())["cells"] if c.get("id")}
    best, score = None, 0.5
    tracked = git(top, "ls-files", "-z", "--", "*.ipynb").stdout.split("\0")
    for rel in filter(None, tracked):
        try:
            ids = {c.get("id") for c in read_notebook((Path(top) / rel).read_bytes())["cells"]
                   if c.get("id")}
        except (OSError, ValueError):
            continue
        share = len(mine & ids) / max(len(ids), 1)
        if share >= score:
            best, score = rel, share
    return best


def copy_notice(name: str, twin: str) -> str:
    """What ``status`` and a kernel say of notebook ``name``, not the course's, whose cells are
    those of the course notebook ``twin`` (a copy or a renamed version of it)."""
    return (f"{name} is not one of the course's notebooks: it looks like your copy (or renamed "
            f"version) of {twin}. Course updates reach {twin}, not this file; python -m "
            f"genviz_updates status {twin} says what they changed.")


_FILE_WORDS = {
    "kept-copy": "{path}: your version is kept as {copy} ({why}).",
    "course-removed": "{path}: the course removed this file; your edited copy is kept.",
    "course-removed-ran": "{path}: the course removed this notebook; your copy (you ran it, "
                          "but did not edit it) is still here. Delete it when you no longer "
                          "need it.",
    "not-updated": "{path}: the course updated this file but your copy was kept; to get the "
                   "course's version, rename yours and click the course link again.",
    "kept-lines": "{path}: you and the course changed the same or neighbouring lines; there "
                  "your lines are kept and the course's are not in your copy. To get the "
                  "course's version, rename yours and click the course link again.",
    "reapplied": "{path}: saved from an editor tab that showed none of the course's update "
                 "of this file. A tab opened before the update cannot be told from one where "
                 "you removed it on purpose, so the update was put back (nothing you typed "
                 "was removed). If you removed it on purpose: File > Reload File from Disk, "
                 "remove it again and save; that save is kept as it is.",
    "update-removed": "{path}: saved without the course's update of this file after it was "
                      "put back once and the file reloaded: taken as your removal of it, and "
                      "kept as you saved it. If it was saved from a tab left open since before "
                      "the update, not a removal: rename your file and click the course link "
                      "again to get the course's version.",
    "conflict-lines": "{path}: saved from an editor tab that did not show your save from "
                      "another tab, and both changed the same lines: both versions are in "
                      "the file, between the lines <<<<<<< and >>>>>>>. Reload the file "
                      "(File > Reload File from Disk), keep the version you want and delete "
                      "the other and the marker lines.",
    "note": "{path}: {what}",
}


def repo_notice(state: dict | None, *, library_loaded=False) -> str:
    """What the update did to files other than notebooks, and whether to restart the kernel."""
    if not state:
        return ""
    lines = [_FILE_WORDS[f["kind"]].format(**{"copy": "", "why": "", "what": "", **f})
             for f in state.get("files", []) if f.get("kind") in _FILE_WORDS]
    out = _fill("Course update, files:\n" + "\n".join(f"- {x}" for x in lines)) if lines else ""
    if library_loaded and state.get("library_changed"):
        out += ("\n\n" if out else "") + _fill(
            "Course update: the course updated genviz, the library this notebook uses, after "
            "this kernel loaded it. Restart the kernel (Kernel > Restart Kernel) and run the "
            "notebook again to use the new version.")
    return out


# --- the kernel's side ----------------------------------------------------------------------------

class Watcher:
    """Watches the record of one notebook's repository; :meth:`check` returns the notice to
    print (once per merge), or ''. One ``os.stat`` per call while the record is unchanged."""

    def __init__(self, notebook, started: float | None = None):
        self.started = time.time() if started is None else started
        found = find_repo(notebook) if notebook else None
        self.repo, self.gitdir = found if found else (None, None)
        self.rel = (Path(notebook).resolve().relative_to(self.repo).as_posix()
                    if found else None)
        self.stamp = None
        self.seen = None
        self.files_seen = []  # the files entries of the record as last read
        #: the course's new images of the items the last :meth:`check` told, ``[{name, mime,
        #: data}]``: the kernel shows them under the notice (text cannot)
        self.images = []

    def check(self, library_loaded=False) -> str:
        self.images = []
        if self.gitdir is None:
            return ""
        try:
            st = os.stat(self.gitdir / STATE)
        except OSError:
            return ""
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        if stamp == self.stamp:
            return ""
        self.stamp = stamp
        state = read_state(self.gitdir)
        key = (state or {}).get("merge"), (state or {}).get("revision", 0)
        if not state or key == self.seen:
            return ""
        header = key[0] != (self.seen or (None,))[0]  # a new merge, not only new items
        self.seen = key
        open_before = self.started < state.get("time", 0)
        parts = []
        twin = self._twin(state) if header else None
        if twin and self._first(state, self.rel):
            parts.append(_fill("Course update: " + copy_notice(self.rel, twin)))
        entry = state.get("notebooks", {}).get(self.rel, {})
        shown = set(read_seen(self.gitdir).get(self.rel, []))
        text = notice_for(state, self.rel, open_before_merge=open_before, seen=shown,
                          header=header)
        new_items = [i for i in entry.get("items", []) if item_key(i) not in shown]
        if text and (new_items or header) and self._first(state, self.rel):
            parts.append(text)
            mark_seen(self.gitdir, self.rel, [item_key(i) for i in new_items])
            self.images = [img for i in new_items for img in i.get("images", [])]
        entries = state.get("files", [])
        # a new merge: every file entry; a save's revision: those it added
        files = repo_notice({"files": entries if header else [
            f for f in entries if f not in self.files_seen]})
        self.files_seen = entries
        if files and self._first(state, "/repo"):
            parts.append(files)
        if library_loaded and open_before and header and state.get("library_changed"):
            parts.append(repo_notice({"library_changed": True}, library_loaded=True))
        return "\n\n".join(parts)

    def _twin(self, state) -> str | None:
        """The course notebook this one is a copy of, if it is not a course notebook (as
        ``python -m genviz_updates status`` finds it); None for a course notebook, one the
        record names, or a notebook of the student's own. Asked once per merge."""
        if self.rel in state.get("notebooks", {}) or self.rel in state.get("renamed", {}):
            return None
        if git(self.repo, "ls-files", "--error-unmatch", "--", self.rel).returncode == 0:
            return None
        try:
            return course_twin(self.repo, self.repo / self.rel)
        except (OSError, ValueError):  # unreadable (then the rest of the notice still goes)
            return None

    def _first(self, state, key) -> bool:
        """True for the first kernel to tell ``key`` about this merge (and revision)."""
        import hashlib

        told = self.gitdir / TOLD
        try:
            told.mkdir(exist_ok=True)
            name = (f"{state['merge'][:12]}-{state.get('revision', 0)}-"
                    f"{hashlib.sha1(key.encode()).hexdigest()[:12]}")
            os.close(os.open(told / name, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            return True
        except FileExistsError:
            return False
        except OSError:
            return True
