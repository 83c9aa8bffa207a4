"""What each browser tab last loaded, so a save is merged against *that* (issue #39, item 1).

A save from a JupyterLab tab is the tab's content; which version of the file the tab started
from is not in the request. Without it, a save from a tab opened before two course updates
looks like the student's revert of the first one, and a save after the student deleted an
update's cell looks like a stale tab. So:

- every notebook the contents API hands out with its content (a tab opening or reloading it)
  gets a token in its notebook metadata (``metadata.genviz_updates.loaded``), and the token's
  snapshot -- per cell: id, type and a hash of its content (``cell_hash``) -- is recorded in
  ``.git/genviz-seen/`` of the clone. JupyterLab keeps notebook metadata as it is, so the
  tab's saves carry the token back;
- the pre-save hook (``genviz_updates.server``) takes the token out (it never reaches the
  disk), merges the save with what is on disk using the token's snapshot as the base -- the
  tab's last save, or what it loaded -- and records the tab's content as the token's new
  snapshot. A tab that never saw an update gets it; a cell the tab deleted or reverted after
  loading the update stays deleted or reverted;
- each click records, per notebook the merge changed, the cells before and after the merge
  (``record_merge``). A save with no token (a tab opened before this server ran, another
  client) is merged against the merge whose cells the tab does not show at all; it cannot
  tell a deliberate removal from a stale tab, so it keeps both and says so in the notebook:
  a note cell at the top, the kept cells marked in their metadata, and a notice.

A record holds hashes only (no sources, no outputs): ~45 bytes a cell, one small file per
token (a load or a save writes only its own; the oldest beyond ``MAX_TOKENS`` are removed)
and one per notebook for its latest ``MAX_MERGES`` merges. Files are replaced atomically. A
token comes from the browser: only ``[0-9a-f]{16}`` is ever used as a file name.
"""

from __future__ import annotations

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

__all__ = ["SEEN", "KEY", "snapshot", "stamp", "take_token", "read_token", "write_token",
           "base_notebook", "record_merge", "read_merges", "introduced", "stale_since",
           "MAX_TOKENS", "MAX_MERGES"]

SEEN = "genviz-seen"
#: the notebook metadata key that carries a tab's token (never written to disk)
KEY = "genviz_updates"
MAX_TOKENS = 400
MAX_MERGES = 20
_TOKEN = re.compile(r"^[0-9a-f]{16}$")


def snapshot(nb: dict) -> list[list]:
    """[[id or None, cell_type, cell_hash], ...] of ``nb``'s cells, in order."""
    return [[c.get("id") if isinstance(c.get("id"), str) else None, c.get("cell_type"),
             cell_hash(c)] for c in nb.get("cells", [])]


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
    """The token's record ({path, time, cells}), None if unknown or not a token."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    return _read(Path(gitdir) / SEEN / f"t-{token}.json")


def write_token(gitdir, token, rel, cells) -> None:
    if not _TOKEN.match(token):
        raise ValueError(f"token must be 16 hex digits, got {token!r}")
    _write(_dir(gitdir) / f"t-{token}.json", {"path": rel, "time": time.time(), "cells": cells})


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
    write_token(gitdir, token, rel, snapshot(content))
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


def base_notebook(cells: list, ours: dict, theirs: dict) -> dict:
    """A notebook standing for a recorded snapshot: each recorded cell is the cell of
    ``theirs`` (else ``ours``) with the same id and content hash; a cell neither has any more
    gets a placeholder content that differs from both sides (so both count as changed)."""
    pool: dict = {}
    for nb in (theirs, ours):
        for c in nb.get("cells", []):
            cid = c.get("id") if isinstance(c.get("id"), str) else None
            pool.setdefault((cid, cell_hash(c)), c)
    out = []
    for cid, kind, h in cells:
        c = pool.get((cid, h))
        if c is None:
            c = {"cell_type": kind, "metadata": {}, "source": f"\0genviz: not known {h}"}
            if kind == "code":
                c.update(outputs=[], execution_count=None)
            if cid:
                c["id"] = cid
        out.append(copy.deepcopy(c))
    return {"nbformat": 4, "nbformat_minor": theirs.get("nbformat_minor", 5),
            "metadata": copy.deepcopy(ours.get("metadata", {})), "cells": out}


def _merges_file(gitdir, rel) -> Path:
    return _dir(gitdir) / f"m-{hashlib.sha1(rel.encode()).hexdigest()[:16]}.json"


def read_merges(gitdir, rel: str) -> list:
    """The recorded merges of notebook ``rel``, oldest first."""
    data = _read(Path(gitdir) / SEEN / _merges_file(gitdir, rel).name)
    return data.get("merges", []) if data and data.get("path") == rel else []


def record_merge(gitdir, rel: str, before: dict, after: dict, merge: str) -> None:
    """A click changed notebook ``rel`` from ``before`` to ``after`` (commit ``merge``)."""
    merges = read_merges(gitdir, rel) + [{"merge": merge, "time": time.time(),
                                         "before": snapshot(before), "after": snapshot(after)}]
    _write(_merges_file(gitdir, rel), {"path": rel, "merges": merges[-MAX_MERGES:]})


def introduced(merge: dict) -> set:
    """(id, hash) of the cells a recorded merge brought (inserted or changed)."""
    return {(c[0], c[2]) for c in merge["after"]} - {(c[0], c[2]) for c in merge["before"]}


def stale_since(merges: list, cells: list) -> dict | None:
    """The earliest recorded merge such that a tab showing ``cells`` shows nothing that merge
    or any later one brought (the tab was loaded before it); None if it shows the latest."""
    pairs = {(c.get("id") if isinstance(c.get("id"), str) else None, cell_hash(c))
             for c in cells}
    found = None
    for m in reversed(merges):
        new = introduced(m)
        if not new:
            continue
        if new & pairs:
            break
        found = m
    return found
