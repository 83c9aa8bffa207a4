"""A save from a text-editor tab (a ``.py``, ``.md``, ``.txt`` of the course) never undoes a
course update (issue #39): the notebooks' safety net (``genviz_updates.seen``) for plain files.

JupyterLab's file editor saves the whole text it holds, with nothing saying which version of the
file it was opened on: the PUT body is ``{type, format, content}`` (JupyterLab 4.6's
``Context._maybeSave``: a GET of ``content=0&hash=1`` first, a "File Changed" dialog if the
disk's hash or time differs from the tab's, then the PUT, then the hash again), and
jupyter_server's ``ContentsHandler.put`` hands the model to the save as it is. So the record
(``.git/genviz-seen/f-<hash of the path>.json``, one per text file) holds:

- per click that changed the file, the git blobs before and after it (:func:`record_text_merge`;
  the blobs are in the clone);
- each time a tab loaded the file (the contents API handed out its content: opened or reloaded
  in the editor), when, and the text (:func:`record_text_load`; each distinct text once, the
  latest ``MAX_LOADS``);
- the texts the latest saves sent, with their times (``MAX_SENT``; what those tabs hold
  after saving);
- when a save last put an update back for a tab that may have removed it (``reapplied``).

A save whose text differs from the disk is compared with the clicks: if it shows nothing a
click brought (:func:`shows_merge`: none of the lines the click added as often as the file
after it has them, or still every line it removed) for that click and each later one that
tells anything, the tab was opened before it (or removed it: below), and the save is merged as
a click merges (``git merge-file``: the tab's text as the student's side, the disk as the
other side). The base is what that tab last loaded or saved, which no save says: the nearest
(fewest lines apart from the tab's text) of the texts saves sent, the texts tabs loaded before
that click, and the file before it. So the same tab saving again is merged from what it sent
(its earlier typing is on disk already), and a second stale tab from what it loaded: its save
keeps the update *and* the first tab's typing (issue #39 (b); before, it was merged from the
first tab's text, and that typing looked deleted). Where both sides only inserted lines at the
same place both are kept; edits git only met next to each other (the tab changed a function's
last line, the course added a function after it: one conflict for git) are both applied,
line by line; where the tab and the course changed the same lines, the tab's lines
are kept (as the click's text merge keeps the student's, ``kept-lines`` in the record); where
the tab and *another tab's save* changed the same lines, both versions are kept between
conflict markers (``conflict-lines``): neither tab's typing is dropped. A save that shows the
latest click, or of a file no click changed, is the student's as it is.

**A tab that removed every line of an update** (issue #39 (a)) shows what a tab opened before
the update shows. Told apart where it can be: if no tab loaded the file since that click, the
saving tab was opened before it (stale for sure: merged, nothing said). If a tab did, it cannot
be told from content (a tab opened after the update that restores the old line and deletes the
new function sends the same text as one opened before it; the student's own typing is in
neither version in both cases, so it proves nothing). Decision: the side that loses less --
the update is put back (the tab's typing kept), and the record and a running kernel say so,
and how to remove it for good (``reapplied``): reload the file, remove it again, save. That
save is kept as it is (``update-removed``, said too) when a tab loaded the file after the save
that put the update back and the saved text has every line other saves put on disk since the
click (a tab still open from before the update lacks what other tabs saved). The one case left
that no request tells apart: a tab open from before the update that saves again after
another tab reloaded the file, when nothing else was typed elsewhere -- taken as the removal,
and said (the note names how to get the course's version back; the randomized trial counts
it, ``text-stale-save-taken-as-removal``).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tempfile
import time
from collections import Counter
from pathlib import Path

from genviz_updates import git, git_object

__all__ = ["record_text_merge", "read_text_merges", "shows_merge", "stale_text_merge",
           "merge_text_save", "resolve_conflicts", "MAX_TEXT"]

#: files larger than this (bytes) are not recorded (a data file, not something a student types)
MAX_TEXT = 1_000_000
MAX_TEXT_MERGES = 20
#: the loads kept per file (when, and the text handed out if at most MAX_LOADED bytes: each
#: distinct text once), and the texts the latest saves sent (at most MAX_LOADED bytes each)
MAX_LOADS = 20
MAX_LOADED = 200_000
MAX_SENT = 8


def _record(gitdir, rel: str, prefix: str = "f") -> Path:
    """The record of text file ``rel``: ``f-<hash>.json`` (``t-`` before: the notebooks'
    tokens' prefix, which ``seen`` prunes beyond its bound; still read)."""
    from genviz_updates.seen import SEEN

    name = f"{prefix}-{hashlib.sha1(rel.encode()).hexdigest()[:16]}.json"
    return Path(gitdir) / SEEN / name


def _read(gitdir, rel: str) -> dict:
    for prefix in ("f", "t"):
        try:
            data = json.loads(_record(gitdir, rel, prefix).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("path") == rel:
            return data
    return {}


def _write(gitdir, rel: str, data: dict) -> None:
    path = _record(gitdir, rel)
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({**data, "path": rel}))
    os.replace(tmp, path)


def read_text_merges(gitdir, rel: str) -> list:
    """The recorded merges of text file ``rel`` (path in the repository), oldest first."""
    return _read(gitdir, rel).get("merges", [])


def record_text_merge(gitdir, rel: str, before_blob: str, after_blob: str, merge: str) -> None:
    """A click changed text file ``rel`` from blob ``before_blob`` to ``after_blob``."""
    record = _read(gitdir, rel)
    merges = record.get("merges", []) + [{"merge": merge, "time": time.time(),
                                          "before": before_blob, "after": after_blob}]
    # the loads (they date what tabs saw) and the texts stale saves sent (a tab that sent one
    # may save again after this click) are kept; no save since this click put an update back
    _write(gitdir, rel, {"merges": merges[-MAX_TEXT_MERGES:], "loads": record.get("loads", []),
                         "texts": record.get("texts", {}), "sent": record.get("sent", [])})


def record_text_load(gitdir, rel: str, text: str | None = None) -> None:
    """A tab loaded text file ``rel`` (the contents API handed out its content, ``text``: the
    file editor opened or reloaded it): when, and the text (a stale tab's save is merged from
    it; one small file per text file of the clone a tab opened)."""
    record = _read(gitdir, rel)
    key = None
    if isinstance(text, str) and len(text) <= MAX_LOADED:
        key = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    loads = (record.get("loads", []) + [[time.time(), key]])[-MAX_LOADS:]
    texts = record.get("texts", {})
    if key is not None:
        texts[key] = text
    used = {k for _, k in loads}
    record.update(loads=loads, texts={k: v for k, v in texts.items() if k in used})
    _write(gitdir, rel, {k: v for k, v in record.items() if k != "path"})


def _sent(record: dict) -> list:
    """[(time, text), ...] of the texts saves sent, oldest first (a text recorded without its
    time, as before, dated 0)."""
    out = []
    for x in record.get("sent", []):
        if isinstance(x, str):
            out.append((0.0, x))
        elif isinstance(x, list) and len(x) == 2 and isinstance(x[0], (int, float)) \
                and isinstance(x[1], str):
            out.append((float(x[0]), x[1]))
    return out


def _loads(record: dict) -> list:
    """[(time, text or None), ...] of a record's loads (a record of times only: no text)."""
    texts = record.get("texts") if isinstance(record.get("texts"), dict) else {}
    out = []
    for x in record.get("loads", []):
        if isinstance(x, (int, float)):
            out.append((x, None))
        elif isinstance(x, list) and len(x) == 2 and isinstance(x[0], (int, float)):
            out.append((x[0], texts.get(x[1]) if isinstance(x[1], str) else None))
    return out


def _text(repo, blob: str) -> str | None:
    r = git_object(repo, "blob", blob)
    if r.returncode != 0:
        return None
    try:
        return r.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return None


def shows_merge(before: str, after: str, text: str) -> bool | None:
    """Whether ``text`` (a tab's) shows the change a click made from ``before`` to ``after``,
    counting each non-blank line (a line the click added may also stand elsewhere in the file,
    e.g. a second ``return x``): True if the text has a line the click added as often as the
    file after it; else, for a click that only removed lines, True unless the text still has
    every removed line more often than the file after it; None if the click changed only blank
    lines (nothing tells)."""
    a, b, t = (Counter(x for x in s.splitlines() if x.strip()) for s in (before, after, text))
    added = [x for x in b if b[x] > a[x]]
    if added:
        return any(t[x] >= b[x] for x in added)
    removed = [x for x in a if a[x] > b[x]]
    if removed:
        return not all(t[x] > b[x] for x in removed)
    return None


def stale_text_merge(repo, merges: list, text: str) -> tuple[dict, str] | None:
    """The earliest recorded merge that ``text`` (a tab's) shows nothing of, with each later
    one shown nothing of or telling nothing (:func:`shows_merge`; a click that only removed
    lines the text lacks tells nothing), and the file's text before it; None if the tab shows
    a line the latest such click added (or no merge can be read)."""
    found = None
    for m in reversed(merges):
        before, after = _text(repo, m["before"]), _text(repo, m["after"])
        if before is None or after is None:
            break
        shows = shows_merge(before, after, text)
        if shows and any(v > 0 for v in (_lines(after) - _lines(before)).values()):
            break     # it has a line that click added
        if shows is False:
            found = (m, before)
        # else the click only removed lines (or changed blank ones), and the text lacks them:
        # a tab that never had them (loaded before the click that added them) lacks them too,
        # so this click tells nothing; the earlier ones decide
    return found


def merge_text_save(repo, gitdir, rel: str, saved: str, disk: str) -> tuple[str, list] | None:
    """The text to write for a save of ``saved`` over ``disk``, and the notes to add to the
    update's record (``{"kind": ..., "path": rel}``: ``kept-lines``, the tab's lines kept where
    the course changed the same; ``conflict-lines``, both versions kept between conflict
    markers where another tab's save changed the same lines; ``reapplied``, an update put back
    that the tab may have removed on purpose; ``update-removed``, a removal made again after
    that, kept); None: the save is the student's as it is. Every save's text is recorded
    (a file with a record: one a click changed or a tab loaded): the tab holds it after."""
    record = _read(gitdir, rel)
    result = _merge_save(repo, record, rel, saved, disk)
    sent = _sent(record)
    if (record or result) and len(saved.encode("utf-8")) <= MAX_LOADED \
            and [x for _, x in sent[-1:]] != [saved]:
        record["sent"] = [[t, x] for t, x in sent + [(time.time(), saved)]][-MAX_SENT:]
        _write(gitdir, rel, {k: v for k, v in record.items() if k != "path"})
    elif result:
        _write(gitdir, rel, {k: v for k, v in record.items() if k != "path"})
    return result


def _merge_save(repo, record, rel, saved, disk):
    """:func:`merge_text_save`'s decision (``record`` updated in place)."""
    if saved == disk or len(disk.encode("utf-8")) > MAX_TEXT:
        return None
    merges = record.get("merges", [])
    stale = stale_text_merge(repo, merges, saved)
    if stale is None:
        return None
    first, before = stale
    loaded = _loads(record)
    loads = [t for t, _ in loaded]
    # a tab loaded the file since that click: the save may be one that removed the update
    maybe_seen = any(t >= first["time"] for t in loads)
    course = (Counter(), Counter())     # the lines the clicks since added, and removed
    for m in merges[merges.index(first):]:
        b, a = _text(repo, m["before"]), _text(repo, m["after"])
        if b is not None and a is not None:
            course[0].update(_lines(a) - _lines(b))
            course[1].update(_lines(b) - _lines(a))
    if maybe_seen and _removed_again(record.get("reapplied"), loads, before, disk, saved,
                                     course):
        # removed again by a tab loaded after a save put it back and said so: kept as saved,
        # and said (a tab still open from before the update, saving after that reload, looks
        # the same: then the record names what to do)
        return saved, [{"kind": "update-removed", "path": rel}]
    sent = _sent(record)[-MAX_SENT:]
    # the base: what this tab last loaded or saved, unknown (nothing in a save says it), taken
    # as the nearest of what saves sent (the same tab saving again: its earlier typing is on
    # disk already), what tabs loaded before that click (another tab's save since would look
    # deleted) and the file before the click: the fewest lines apart from the tab's
    # text, the latest first on a tie (by time, saves and loads together: a tab reloaded
    # after its stale save holds the merged file, not what it sent). Issue #39 (b): another
    # stale tab's text is not this tab's base (its typing would look deleted).
    dated = sent + [(t, x) for t, x in loaded if x is not None and t < first["time"]]
    candidates = [x for _, x in sorted(dated, key=lambda e: -e[0])] + [before]
    base = min(candidates, key=lambda x: _apart(x, saved))  # min keeps the first of a tie
    nonce = secrets.token_hex(8)
    labels = [f"{side}-{nonce}" for side in ("yours", "base", "course")]
    with tempfile.TemporaryDirectory(prefix="genviz-save-") as tmp:
        paths = []
        for name, text in zip(labels, (saved, base, disk)):
            p = Path(tmp) / name
            p.write_text(text, encoding="utf-8")
            paths.append(str(p))
        args = [a for label in labels for a in ("-L", label)]
        r = git(repo, "merge-file", "-p", "--diff3", *args, *paths)
    if r.returncode < 0 or r.returncode > 127:
        return None                       # git could not merge: keep the save as it is
    result = (r.stdout, set()) if r.returncode == 0 else resolve_conflicts(
        r.stdout, labels, course)
    if result is None:
        return None
    text, kinds = result
    if maybe_seen and text != saved:
        kinds = kinds | {"reapplied"}
    if "reapplied" in kinds:
        record["reapplied"] = time.time()
    return text, [{"kind": k, "path": rel} for k in sorted(kinds)]


def _apart(a: str, b: str) -> int:
    """How many non-blank lines (counted) one text has that the other has not."""
    x, y = _lines(a), _lines(b)
    return sum(((x - y) + (y - x)).values())


def _removed_again(reapplied, loads, before, disk, saved, course) -> bool:
    """Whether a save that shows none of the update is the student's removal of it made again
    after a save put it back and said so: a tab loaded the file since (it was shown the
    update), and the save has every line the disk has beyond the file before the click that
    the update did not bring (that tab's text: the file as loaded, less the update). A tab
    still open from before the update lacks what other tabs saved since (issue #39 (a))."""
    if not isinstance(reapplied, (int, float)) or not any(t > reapplied for t in loads):
        return False
    others = _lines(disk) - _lines(before) - course[0]
    return not (others - _lines(saved))


def _lines(text: str) -> Counter:
    return Counter(x for x in text.splitlines() if x.strip())


#: the marker lines around both versions where two tabs changed the same lines
MARKERS = ("<<<<<<< your save (this tab)", "=======",
           ">>>>>>> on disk before it (another tab's save)")


def resolve_conflicts(text: str, labels, course=None) -> tuple[str, set] | None:
    """``git merge-file --diff3`` output with each conflict resolved: where both sides only
    inserted lines at the same place (the base part is empty: the tab typed a new function at
    the end, the course added one there too) both are kept, the course's first (as if the tab
    had typed on the updated file); where both changed the same lines and the disk's side of
    them is the course's (each line it added or removed is one the course's merges added or
    removed: ``course``, the two Counters; None: taken as the course's), the tab's are kept
    (``kept-lines``); where the disk's side differs from the base in a way the course's
    merges did not (another tab's save), both versions are
    kept between :data:`MARKERS` (``conflict-lines``): neither tab's typing is dropped. The
    text and the set of those kinds; None if the markers do not parse."""
    start, mid_base, end = (f"<<<<<<< {labels[0]}", f"||||||| {labels[1]}",
                            f">>>>>>> {labels[2]}")
    out, kinds = [], set()
    part, blocks = None, {}
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if part is None and bare == start:
            part, blocks = "ours", {"ours": [], "base": [], "theirs": []}
        elif part == "ours" and bare == mid_base:
            part = "base"
        elif part == "base" and bare == "=======":
            part = "theirs"
        elif part == "theirs" and bare == end:
            apart = _apart_edits(blocks)
            if not any(x.strip() for x in blocks["base"]):
                out += blocks["theirs"] + blocks["ours"]
            elif apart is not None:  # neighbouring edits, not the same lines: both applied
                out += apart
            elif course is None or _course_side(blocks, course):
                out += blocks["ours"]
                kinds.add("kept-lines")
            else:
                out += [MARKERS[0] + "\n", *_ended(blocks["ours"]), MARKERS[1] + "\n",
                        *_ended(blocks["theirs"]), MARKERS[2] + "\n"]
                kinds.add("conflict-lines")
            part = None
        elif part is None:
            out.append(line)
        else:
            blocks[part].append(line)
    if part is not None:
        return None
    return "".join(out), kinds


def _apart_edits(blocks: dict) -> list | None:
    """A conflict's lines with both sides' edits applied, where git only met them next to
    each other: no base line changed or removed by both, no insert inside the other side's
    change (the tab changed a function's last line, the course added a function after it:
    git calls that one conflict, and keeping the tab's side dropped the course's function).
    Inserts at the same place: the course's first. None where they touch the same lines."""
    from difflib import SequenceMatcher

    base = blocks["base"]
    edits = []
    for rank, side in ((1, "ours"), (0, "theirs")):
        ops = SequenceMatcher(None, base, blocks[side], autojunk=False).get_opcodes()
        edits += [(i1, i2, rank, blocks[side][j1:j2]) for tag, i1, i2, j1, j2 in ops
                  if tag != "equal"]
    for a in edits:
        for b in edits:
            if a[2] == 1 and b[2] == 0 and (max(a[0], b[0]) < min(a[1], b[1])
                                            or a[0] < b[0] < a[1] or b[0] < a[0] < b[1]):
                return None
    out, at = [], 0
    for i1, i2, _, lines in sorted(edits, key=lambda e: (e[0], e[1] > e[0], e[2])):
        out += base[at:i1] + lines
        at = i2
    return out + base[at:]


def _course_side(blocks: dict, course) -> bool:
    """Whether the disk's side of a conflict changed its base only as the course did."""
    theirs, base = _lines("".join(blocks["theirs"])), _lines("".join(blocks["base"]))
    return not (theirs - base - course[0]) and not (base - theirs - course[1])


def _ended(lines: list) -> list:
    """``lines`` with a newline at the end of the last (a marker line follows)."""
    if lines and not lines[-1].endswith("\n"):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines
