"""What each browser tab last loaded, so a save is merged against *that* (issue #39, item 1).

A save from a JupyterLab tab is the tab's content; which version of the file the tab started
from is not in the request. Without it, a save from a tab opened before two course updates
looks like the student's revert of the first one, and a save after the student deleted an
update's cell looks like a stale tab. So:

- every notebook the contents API hands out with its content (a tab opening or reloading it)
  gets a token in its notebook metadata (``metadata.genviz_updates.loaded``), and the token's
  snapshot -- per cell: id, type and a hash of its content (``cell_hash``) -- is recorded in
  ``.git/genviz-seen.json`` of the clone. JupyterLab keeps notebook metadata as it is, so the
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

A record holds hashes only (no sources, no outputs): ~40 bytes a cell, the latest
``MAX_TOKENS`` tokens and ``MAX_MERGES`` merges per notebook. Read-modify-write is under an
``flock`` (the puller runs in a thread of the server that runs the hook).
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import json
import os
import secrets
import time
from pathlib import Path

from genviz_updates.notebooks import cell_hash

__all__ = ["SEEN", "KEY", "snapshot", "locked", "stamp", "take_token", "base_notebook",
           "record_merge", "stale_since", "MAX_TOKENS", "MAX_MERGES"]

SEEN = "genviz-seen.json"
#: the notebook metadata key that carries a tab's token (never written to disk)
KEY = "genviz_updates"
MAX_TOKENS = 400
MAX_MERGES = 20


def snapshot(nb: dict) -> list[list]:
    """[[id or None, cell_type, cell_hash], ...] of ``nb``'s cells, in order."""
    return [[c.get("id") if isinstance(c.get("id"), str) else None, c.get("cell_type"),
             cell_hash(c)] for c in nb.get("cells", [])]


@contextlib.contextmanager
def locked(gitdir):
    """The record of ``gitdir`` (a dict), written back atomically at the end, under a lock."""
    gitdir = Path(gitdir)
    with open(gitdir / (SEEN + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            data = json.loads((gitdir / SEEN).read_text())
            if not isinstance(data, dict):
                raise ValueError
        except (OSError, ValueError):
            data = {}
        data.setdefault("tokens", {})
        data.setdefault("merges", {})
        yield data
        tokens = data["tokens"]
        if len(tokens) > MAX_TOKENS:
            for old in sorted(tokens, key=lambda k: tokens[k].get("time", 0))[:-MAX_TOKENS]:
                del tokens[old]
        for rel in data["merges"]:
            data["merges"][rel] = data["merges"][rel][-MAX_MERGES:]
        tmp = gitdir / (SEEN + ".tmp")
        tmp.write_text(json.dumps(data, separators=(",", ":")))
        os.replace(tmp, gitdir / SEEN)


def stamp(content: dict, gitdir, rel: str) -> str:
    """Give ``content`` (a notebook being handed to a tab) a new token; record its snapshot."""
    token = secrets.token_hex(8)
    with locked(gitdir) as data:
        data["tokens"][token] = {"path": rel, "time": time.time(), "cells": snapshot(content)}
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


def record_merge(gitdir, rel: str, before: dict, after: dict, merge: str) -> None:
    """A click changed notebook ``rel`` from ``before`` to ``after`` (commit ``merge``)."""
    with locked(gitdir) as data:
        data["merges"].setdefault(rel, []).append(
            {"merge": merge, "time": time.time(), "before": snapshot(before),
             "after": snapshot(after)})


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
