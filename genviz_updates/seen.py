"""What each browser tab last loaded, so a save is merged against *that* (issue #39, item 1).

A save from a JupyterLab tab is the tab's content; which version of the file the tab started
from is not in the request. Without it, a save from a tab opened before two course updates
looks like the student's revert of the first one, and a save after the student deleted an
update's cell looks like a stale tab. So:

- every notebook the contents API hands out with its content (a tab opening or reloading it)
  gets a token in its notebook metadata (``metadata.genviz_updates.loaded``), and the token's
  snapshot -- per cell: id, type, a hash of its content (``cell_hash``), a hash of its stored
  outputs and a hash per metadata key; and a hash per key of the notebook's metadata -- is
  recorded in ``.git/genviz-seen/`` of the clone. Outputs and metadata are in it so that a
  course change to them alone (a re-run output, a cell's tags, the kernel spec) is not taken
  for the tab's revert of it: a part the tab did not change takes the disk's version, as at a
  click. JupyterLab keeps notebook metadata as it is, so the
  tab's saves carry the token back;
- the pre-save hook (``genviz_updates.server``) takes the token out (it never reaches the
  disk), merges the save with what is on disk using the token's snapshot as the base -- the
  tab's last save, or what it loaded -- and records the tab's content as the token's new
  snapshot. A tab that never saw an update gets it; a cell the tab deleted or reverted after
  loading the update stays deleted or reverted;
- each click records, per notebook the merge changed, the cells before and after the merge
  (``record_merge``). A save with no token (a tab opened before this server ran, another
  client) is merged against the merge whose cells the tab does not show at all: a cell
  version a merge brought, or a cell it inserted (by id, even edited since: a tab loaded
  before the merge cannot have that id), proves the tab saw that merge (issue #39 (a): a
  tab that reverted an update's fix and typed in its new cell was taken for a stale one, and
  the fix put back). Where nothing proves it, it cannot tell a deliberate removal from a
  stale tab; decision: it keeps both (an update put back can be removed again; a removal
  taken for granted would lose the update for good, unsaid) and says so in the notebook: a
  note cell at the top, the kept cells marked in their metadata, and a notice telling how to
  remove them for good (reload, which gives the tab a token, remove, save).

A record holds hashes only (no sources, no outputs): ~85 bytes a cell, one small file per
token (a load or a save writes only its own; the oldest beyond ``MAX_TOKENS`` are removed)
and one per notebook for its latest ``MAX_MERGES`` merges. Files are replaced atomically. A
token comes from the browser: only ``[0-9a-f]{16}`` is ever used as a file name.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import hashlib
import json
import os
import re
import secrets
import threading
import time
from pathlib import Path

from genviz_updates.notebooks import cell_hash

__all__ = ["SEEN", "KEY", "snapshot", "meta_snapshot", "output_hash", "stamp", "take_token",
           "read_token", "write_token", "base_notebook", "record_merge", "read_merges",
           "introduced", "introduced_parts", "inserted_ids", "stale_since", "by_content",
           "MAX_TOKENS", "MAX_MERGES"]

SEEN = "genviz-seen"
#: the notebook metadata key that carries a tab's token (never written to disk)
KEY = "genviz_updates"
MAX_TOKENS = 400
MAX_MERGES = 20
_TOKEN = re.compile(r"^[0-9a-f]{16}$")


#: metadata nbformat strips when it reads or writes a file (jupyter-server marks every code cell
#: ``trusted`` in what it hands a tab): never part of what a tab or the disk "has"
TRANSIENT_CELL = frozenset({"trusted"})
TRANSIENT_NB = frozenset({"orig_nbformat", "orig_nbformat_minor", "signature"})
#: what a base cell gets for a part (outputs, a metadata key) that neither side still has as the
#: tab last had it: it differs from both, so both count as changed (the tab's wins, as at a click)
UNKNOWN = "\0genviz: not known"


def _h(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _feed(h, x) -> None:
    """Feed ``x`` (JSON data) to hash ``h``; a list of strings as the string it joins to (a
    file's multi-line strings are lists, a model's are strings)."""
    if isinstance(x, list) and all(isinstance(v, str) for v in x):
        x = "".join(x)
    if isinstance(x, str):
        b = x.encode("utf-8", "surrogatepass")
        h.update(b"s%d:" % len(b))
        h.update(b)
    elif isinstance(x, list):
        h.update(b"[%d" % len(x))
        for v in x:
            _feed(h, v)
    elif isinstance(x, dict):
        h.update(b"{%d" % len(x))
        for k in sorted(x):
            _feed(h, str(k))
            _feed(h, x[k])
    else:
        h.update(json.dumps(x).encode() + b";")


def output_hash(cell: dict) -> str:
    """A short hash of a cell's stored outputs (multi-line strings joined, as
    :func:`~genviz_updates.notebooks.outputs_key`; '' for a cell that is not code). Fed
    piece by piece: JSON-encoding a figure's base64 to hash it cost 10x."""
    if cell.get("cell_type") != "code":
        return ""
    h = hashlib.sha1()
    _feed(h, cell.get("outputs") or [])
    return h.hexdigest()[:16]


def _key_hashes(meta, transient) -> dict:
    if not isinstance(meta, dict):
        return {}
    return {k: _h(json.dumps(v, sort_keys=True)) for k, v in meta.items() if k not in transient}


def snapshot(nb: dict) -> list[list]:
    """[[id or None, cell_type, cell_hash, output_hash, {metadata key: hash}], ...] of ``nb``'s
    cells, in order. (A record written before outputs and metadata were in it has the first
    three only: those cells' outputs and metadata are taken as the content's, as then.)"""
    return [[c.get("id") if isinstance(c.get("id"), str) else None, c.get("cell_type"),
             cell_hash(c), output_hash(c), _key_hashes(c.get("metadata"), TRANSIENT_CELL)]
            for c in nb.get("cells", [])]


def meta_snapshot(nb: dict) -> dict:
    """{key: hash} of ``nb``'s notebook metadata (not nbformat's transient keys; the token is
    taken out before a save's snapshot and put in after a load's)."""
    return _key_hashes(nb.get("metadata"), TRANSIENT_NB)


def _dir(gitdir) -> Path:
    d = Path(gitdir) / SEEN
    d.mkdir(exist_ok=True)
    return d


def _read(path):
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def _write(path, data):
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")))
    os.replace(tmp, path)


def read_token(gitdir, token) -> dict | None:
    """The token's record ({path, time, cells, meta}), None if unknown or not a token."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    return _read(Path(gitdir) / SEEN / f"t-{token}.json")


def write_token(gitdir, token, rel, cells, meta=None) -> None:
    if not _TOKEN.match(token):
        raise ValueError(f"token must be 16 hex digits, got {token!r}")
    _write(_dir(gitdir) / f"t-{token}.json",
           {"path": rel, "time": time.time(), "cells": cells, "meta": meta})


def _prune(d: Path):
    names = [n for n in os.listdir(d) if n.startswith("t-")]
    if len(names) <= MAX_TOKENS:
        return
    def mtime(n):
        try:
            return os.stat(d / n).st_mtime_ns
        except OSError:
            return 0
    keep = MAX_TOKENS - MAX_TOKENS // 10  # prune in batches: not a stat of each at every load
    for n in sorted(names, key=mtime)[:len(names) - keep]:
        with contextlib.suppress(OSError):
            os.unlink(d / n)


def stamp(content: dict, gitdir, rel: str) -> str:
    """Give ``content`` (a notebook being handed to a tab) a new token; record its snapshot."""
    token = secrets.token_hex(8)
    write_token(gitdir, token, rel, snapshot(content), meta_snapshot(content))
    _prune(_dir(gitdir))
    meta = content.setdefault("metadata", {})
    mine = meta.get(KEY) if isinstance(meta.get(KEY), dict) else {}
    meta[KEY] = dict(mine, loaded=token)
    return token


def take_token(content: dict) -> str | None:
    """Remove the token from ``content``'s metadata (a save); the token, or None."""
    meta = content.get("metadata")
    if not isinstance(meta, dict) or not isinstance(meta.get(KEY), dict):
        return None
    mine = dict(meta[KEY])
    token = mine.pop("loaded", None)
    if mine:
        meta[KEY] = mine
    else:
        del meta[KEY]
    return token if isinstance(token, str) else None


def base_notebook(cells: list, ours: dict, theirs: dict, meta: dict | None = None,
                  older=()) -> dict:
    """A notebook standing for a recorded snapshot: each recorded cell is the cell of
    ``theirs`` (else ``ours``) with the same id and content hash; a cell neither has any more
    gets a placeholder content that differs from both sides (so both count as changed).
    Its outputs and each metadata key are, part by part, those of a cell of that id on either
    side that has them as recorded, else a placeholder that differs from both; the notebook's
    metadata likewise from ``meta`` ({key: hash}; None, a record without it: ``ours``').
    A cell whose id no side has (cells without ids) is looked up by its content hash, in
    ``theirs``, ``ours``, then ``older`` (earlier versions of the notebook)."""
    pool: dict = {}
    by_id: dict = {}
    by_hash: dict = {}
    all_by_hash: dict = {}
    for nb in (theirs, ours):
        for c in nb.get("cells", []):
            cid = c.get("id") if isinstance(c.get("id"), str) else None
            pool.setdefault((cid, cell_hash(c)), c)
            by_hash.setdefault(cell_hash(c), c)
            all_by_hash.setdefault(cell_hash(c), []).append(c)
            if cid:
                by_id.setdefault(cid, []).append(c)
    older = iter(older)
    out = []
    for entry in cells:
        cid, kind, h = entry[:3]
        if cid not in by_id and h not in by_hash:
            for nb in older:  # read only as far as needed
                for c in nb.get("cells", []):
                    by_hash.setdefault(cell_hash(c), c)
                if h in by_hash:
                    break
        c = pool.get((cid, h))
        if c is None and cid not in by_id:
            # no side has the id (a notebook without ids, whose cells a tab gave new random
            # ids; a side whose ids another tab's save replaced): the content, whoever has it
            c = by_hash.get(h)
        found = [c] if c is not None else []
        if c is None:
            c = {"cell_type": kind, "metadata": {}, "source": f"\0genviz: not known {h}"}
            if kind == "code":
                c.update(outputs=[], execution_count=None)
        c = copy.deepcopy(c)
        if cid:
            c["id"] = cid
        else:
            c.pop("id", None)
        if len(entry) >= 5:  # outputs and metadata recorded: each from the side that has it
            # its outputs and metadata: from a cell of that id, or without ids, of that content
            sides = found + (by_id.get(cid, []) if cid else all_by_hash.get(h, []))
            if kind == "code":
                have = next((x for x in sides if x.get("cell_type") == "code"
                             and output_hash(x) == entry[3]), None)
                c["outputs"] = copy.deepcopy(have.get("outputs", [])) if have else [
                    {"output_type": "stream", "name": "stdout", "text": UNKNOWN}]
                c["execution_count"] = have.get("execution_count") if have else None
            c["metadata"] = _base_dict(entry[4], [x.get("metadata") for x in sides])
        out.append(c)
    nb_meta = (copy.deepcopy(ours.get("metadata", {})) if meta is None
               else _base_dict(meta, [ours.get("metadata"), theirs.get("metadata")]))
    return {"nbformat": 4, "nbformat_minor": theirs.get("nbformat_minor", 5),
            "metadata": nb_meta, "cells": out}


def _base_dict(hashes: dict, sides: list) -> dict:
    """The dict whose keys are ``hashes``' and each value one a side has with that hash (else
    a placeholder)."""
    out = {}
    for key, h in (hashes or {}).items():
        value = UNKNOWN
        for d in sides:
            if isinstance(d, dict) and key in d and _h(json.dumps(d[key], sort_keys=True)) == h:
                value = copy.deepcopy(d[key])
                break
        out[key] = value
    return out


def _merges_file(gitdir, rel) -> Path:
    return _dir(gitdir) / f"m-{hashlib.sha1(rel.encode()).hexdigest()[:16]}.json"


def read_merges(gitdir, rel: str) -> list:
    """The recorded merges of notebook ``rel``, oldest first."""
    data = _read(Path(gitdir) / SEEN / _merges_file(gitdir, rel).name)
    return data.get("merges", []) if data and data.get("path") == rel else []


def record_merge(gitdir, rel: str, before: dict, after: dict, merge: str) -> None:
    """A click changed notebook ``rel`` from ``before`` to ``after`` (commit ``merge``)."""
    merges = read_merges(gitdir, rel) + [{"merge": merge, "time": time.time(),
                                         "before": snapshot(before), "after": snapshot(after),
                                         "before_meta": meta_snapshot(before),
                                         "after_meta": meta_snapshot(after)}]
    _write(_merges_file(gitdir, rel), {"path": rel, "merges": merges[-MAX_MERGES:]})


def introduced(merge: dict) -> set:
    """(id, hash) of the cells a recorded merge brought (inserted or changed)."""
    return {(c[0], c[2]) for c in merge["after"]} - {(c[0], c[2]) for c in merge["before"]}


def inserted_ids(merge: dict) -> set:
    """The ids of the cells a recorded merge inserted (no cell had them before it)."""
    return {c[0] for c in merge["after"] if c[0]} - {c[0] for c in merge["before"]}


def _slots(cells: list, meta: dict | None) -> dict:
    """The outputs and metadata a snapshot shows: {slot: hash}, a slot being ``("o", id)``,
    ``("m", id, key)`` or ``("nb", key)``."""
    out = {("o", c[0]): c[3] for c in cells if len(c) >= 5 and c[3]}
    out.update({("m", c[0], k): h for c in cells if len(c) >= 5 for k, h in c[4].items()})
    out.update({("nb", k): h for k, h in (meta or {}).items()})
    return out


def introduced_parts(merge: dict) -> set:
    """The outputs and metadata (cells' and the notebook's) a recorded merge brought, as
    ``(slot, hash)`` pairs (see :func:`_slots`; hash None: a key it removed)."""
    before = _slots(merge["before"], merge.get("before_meta"))
    after = _slots(merge["after"], merge.get("after_meta"))
    return {(k, after.get(k)) for k in before.keys() | after.keys()
            if before.get(k) != after.get(k)}


def stale_since(merges: list, cells: list, meta: dict | None = None) -> dict | None:
    """The earliest recorded merge such that a tab showing ``cells`` (and notebook metadata
    ``meta``) shows nothing that merge or any later one brought (the tab was loaded before
    it); None if it shows the latest.

    Only a cell version a merge brought, or a cell it inserted (by its id, whatever the tab
    typed in it since: no tab loaded before the merge has that id), proves the tab was loaded
    after it. A merge that
    brought no cell version (it removed cells, or changed outputs or metadata alone) makes
    the tab stale since it only where the tab still shows what that merge removed or replaced
    (a run, a cleared output or the tab's own tags prove nothing either way)."""
    pairs = {(c.get("id") if isinstance(c.get("id"), str) else None, cell_hash(c))
             for c in cells}
    tab_ids = {cid for cid, _ in pairs if cid}
    if by_content(merges, tab_ids):
        return _stale_by_content(merges, cells, meta)
    shown = None
    found = None
    for m in reversed(merges):
        new = introduced(m)
        if new:
            if new & pairs or inserted_ids(m) & tab_ids:
                break  # it shows a cell version, or a cell (even edited since), it brought
            found = m
            continue
        kept = {c[0] for c in m["after"]}
        if {(c[0], c[2]) for c in m["before"] if c[0] not in kept} & pairs:
            found = m  # it shows a cell as that merge removed it
            continue
        changed = introduced_parts(m)
        if not changed:
            continue
        if shown is None:
            shown = _slots(snapshot({"cells": cells}), meta_snapshot({"metadata": meta or {}}))
            slot_ids = {c.get("id") for c in cells}
        before = _slots(m["before"], m.get("before_meta"))
        empty = output_hash({"cell_type": "code", "outputs": []})
        if any(shown.get(slot) == before.get(slot) and (slot[0] == "nb" or slot[1] in slot_ids)
               and not (slot[0] == "o" and before.get(slot) == empty)
               for slot, _ in changed):
            found = m
    return found


def by_content(merges: list, tab_ids: set) -> bool:
    """Whether the recorded merges' cells cannot be told by id from a tab's with ``tab_ids``:
    the notebook had cells without ids at a click (nbformat < 4.5), or the tab's ids are
    none of theirs (JupyterLab gave an id-less notebook's cells random ids)."""
    rec = [c[0] for m in merges for c in m["before"] + m["after"]]
    return bool(rec) and (not all(rec) or not (set(rec) & tab_ids))


def _stale_by_content(merges: list, cells: list, meta: dict | None = None) -> dict | None:
    """:func:`stale_since` where ids cannot be used: a merge the tab shows a cell version it
    brought of was seen; one whose removed cell versions the tab still shows was not. A merge
    that brought no cell version and changed only outputs or metadata makes the tab stale
    since it where the tab still shows what it replaced, as by id, each part found by its
    cell's content (a content several cells share tells nothing). Before, such a merge proved
    nothing here, and a stale save undid a course's tags on a cell (the id-less randomized
    trials' seed 81)."""
    counts = collections.Counter(cell_hash(c) for c in cells)
    once = {h for h, k in counts.items() if k == 1}  # the tab's parts of these are known
    hashes = set(counts)
    shown = None
    found = None
    for m in reversed(merges):
        before, after = {c[2] for c in m["before"]}, {c[2] for c in m["after"]}
        if after - before:
            if (after - before) & hashes:
                break
            found = m
            continue
        if (before - after) & hashes:
            found = m
            continue
        was = _content_slots(m["before"], m.get("before_meta"))
        now = _content_slots(m["after"], m.get("after_meta"))
        changed = [k for k in was.keys() | now.keys() if was.get(k) != now.get(k)
                   and (k[0] == "nb" or (k[1] in before and k[1] in after))]
        if not changed:
            continue
        if shown is None:
            shown = _content_slots(snapshot({"cells": cells}),
                                   meta_snapshot({"metadata": meta or {}}))
        empty = output_hash({"cell_type": "code", "outputs": []})
        if any(shown.get(k) == was.get(k) and (k[0] == "nb" or k[1] in once)
               and not (k[0] == "o" and was.get(k) == empty) for k in changed):
            found = m
    return found


def _content_slots(cells: list, meta: dict | None) -> dict:
    """:func:`_slots` with each cell's part named by the cell's content hash instead of its
    id: ``("o", hash)``, ``("m", hash, key)``, ``("nb", key)``; cells whose content another
    cell of the snapshot shares are left out."""
    count: dict = {}
    for c in cells:
        count[c[2]] = count.get(c[2], 0) + 1
    return _slots([[c[2]] + list(c[1:]) for c in cells if count[c[2]] == 1], meta)
