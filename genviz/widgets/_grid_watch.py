"""On a hub, an explorer shown before its precomputed states exist picks them up when they do.

A hub's kernels run with ``GENVIZ_STATES=prebuilt``: they never build a grid. After a course
update that changes an explorer's code, the hub rebuilds the missing grids once for the class
in the background (``genviz_updates.rebuild``) into a directory on every kernel's
``GENVIZ_STATES_PATH``; until then a gridded slider asks the kernel. An explorer shown
meanwhile is *awaiting* its grid (issue #39, item 5: the rebuild's result reaches the open
explorers, the lecturer's included, with no cell run again):

- its notice says why its moves ask the kernel while the hub's rebuild, whose status file
  lies beside a prebuilt directory (``<states>/rebuild.json`` next to ``<states>/grids``), is
  running (since when) or has failed (the course team's command named); otherwise (no
  rebuild, or one that is over) it says nothing: the kernel path is then the normal path of
  a hub that keeps no states for this explorer;
- one daemon thread per kernel looks for the awaited keys in the stores
  (:func:`genviz.widgets.states.load_grid`) every :func:`poll_seconds` (``GENVIZ_STATES_POLL``,
  default 20 s; a few ``stat`` calls) for at most :data:`WAIT_SECONDS`, and hands a grid to
  every explorer waiting for it the moment it is stored: the browser gets the states, the
  notice goes. The thread ends when nothing is awaited.

Explorers are held weakly, and a closed one (its comm gone) waits no more.
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import threading
import time
import weakref

__all__ = ["await_grid", "awaited", "poll_seconds", "rebuild_notice", "WAIT_SECONDS"]

WAIT_SECONDS = 3 * 3600  # a rebuild of the whole course takes minutes; a lecture, hours

_lock = threading.Lock()
_waiting: dict = {}  # key -> [weakref to explorer], and the time the key was first awaited
_since: dict = {}
_thread: threading.Thread | None = None


def poll_seconds() -> float:
    """How often the stores are looked at: ``GENVIZ_STATES_POLL`` seconds (default 20)."""
    try:
        value = float(os.environ.get("GENVIZ_STATES_POLL", "") or 20.0)
    except ValueError:
        value = 20.0
    return max(value, 0.05)


def _rebuild_status(dirs) -> dict:
    """The hub's rebuild status (``<states>/rebuild.json`` beside a ``grids`` directory on the
    search path), or ``{}``."""
    for d in dirs:
        path = pathlib.Path(d)
        if path.name != "grids":
            continue
        try:
            data = json.loads((path.parent / "rebuild.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            return data
    return {}


def rebuild_notice(dirs) -> str:
    """What an explorer awaiting its grid says, from the rebuild status found along ``dirs``."""
    status = _rebuild_status(dirs)
    state = status.get("state")
    if state == "running":
        try:
            at = datetime.datetime.fromisoformat(str(status.get("started")).replace("Z", "+00:00"))
            when = f" (since {at.strftime('%H:%M')} UTC)"
        except ValueError:
            when = ""
        return (f"Moves ask the kernel for now: the hub is rebuilding this explorer's "
                f"precomputed states after a course update{when}; it switches to them by "
                f"itself when they are ready.")
    if state == "failed":
        return ("Moves ask the kernel: the hub could not rebuild this explorer's precomputed "
                "states after a course update (the course team: python -m genviz_updates "
                "status).")
    # no rebuild running or failed: the course chose not to build states here (or this
    # explorer is a notebook's own): the kernel path is the normal path, nothing to say
    return ""


def _open(ref) -> bool:
    explorer = ref()
    return explorer is not None and getattr(explorer, "comm", None) is not None


def awaited() -> dict:
    """Key -> number of open explorers awaiting it (for tests and the curious)."""
    with _lock:
        return {k: n for k, refs in _waiting.items() if (n := sum(map(_open, refs)))}


def await_grid(explorer, key: str, *, load, on_loop, dirs=()) -> None:
    """Wait for ``key``'s grid on behalf of ``explorer``: set its notice now (from the rebuild
    status along ``dirs``) and, when ``load(key)`` first returns the grid, set the explorer's
    ``grid`` and clear its notice through ``on_loop(fn)`` (the kernel's event loop: widget
    messages leave from its thread). ``load`` is :func:`genviz.widgets.states.load_grid`."""
    global _thread
    explorer.notice = rebuild_notice(dirs)
    with _lock:
        refs = _waiting.setdefault(key, [])
        if not any(r() is explorer for r in refs):  # shown again (a second view): one wait
            refs.append(weakref.ref(explorer))
        _since.setdefault(key, time.monotonic())
        if _thread is None:  # (the watcher clears it, under the lock, as it ends)
            _thread = threading.Thread(target=_watch, args=(load, on_loop),
                                       name="genviz-await-grids", daemon=True)
            _thread.start()


def _give(explorer, blob) -> None:
    explorer.grid = blob
    explorer.notice = ""


def _watch(load, on_loop) -> None:
    global _thread
    while True:
        time.sleep(poll_seconds())
        with _lock:
            keys = list(_waiting)
        now = time.monotonic()
        for key in keys:
            blob = load(key)
            with _lock:
                refs = _waiting.get(key, [])
                live = [r for r in refs if _open(r)]
                if blob is None and live and now - _since.get(key, now) < WAIT_SECONDS:
                    _waiting[key] = live
                    continue
                _waiting.pop(key, None)
                _since.pop(key, None)
            if blob is not None:
                for ref in live:
                    ex = ref()
                    if ex is not None:
                        on_loop(lambda ex=ex: _give(ex, blob))
        with _lock:
            if not _waiting:
                _thread = None
                return
