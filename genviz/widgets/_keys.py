"""The content hash of an explorer's precomputed states (genviz.widgets.states).

A grid is valid for one explorer made by one factory with given arguments, by this genviz and
this matplotlib, in this style: :func:`grid_key` hashes the factory's name and arguments (arrays
by dtype, shape and bytes; containers recursively; functions by name; other objects by their
attributes), genviz's Python sources, matplotlib's version and every rcParam (lecture mode and
figure sizes included), which controls are gridded and the values of the others.
"""

from __future__ import annotations

import hashlib
import pathlib

import matplotlib
import numpy as np

__all__ = ["grid_key", "source_fingerprint", "gridded", "base_values"]


def _feed(h, obj, depth=0) -> None:
    """Hash ``obj`` by content: arrays by dtype, shape and bytes; containers recursively;
    functions by module and name; other objects by type and attributes."""
    if depth > 12:
        h.update(b"<deep>")
        return
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        h.update(repr((type(obj).__name__, obj)).encode())
    elif isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        h.update(f"nd{a.dtype.str}{a.shape}".encode())
        if a.dtype.hasobject:
            for item in a.ravel():
                _feed(h, item, depth + 1)
        else:
            h.update(a.tobytes())
    elif isinstance(obj, np.generic):
        _feed(h, obj.item(), depth + 1)
    elif isinstance(obj, (list, tuple)):
        h.update(f"{type(obj).__name__}{len(obj)}".encode())
        for item in obj:
            _feed(h, item, depth + 1)
    elif isinstance(obj, dict):
        h.update(f"dict{len(obj)}".encode())
        for key in sorted(obj, key=repr):
            _feed(h, key, depth + 1)
            _feed(h, obj[key], depth + 1)
    elif callable(obj) and hasattr(obj, "__qualname__"):
        h.update(f"fn:{getattr(obj, '__module__', '')}.{obj.__qualname__}".encode())
    elif hasattr(obj, "__dict__") or hasattr(obj, "__slots__"):
        h.update(f"obj:{type(obj).__module__}.{type(obj).__qualname__}".encode())
        state = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
        for slot in getattr(type(obj), "__slots__", ()):
            if hasattr(obj, slot):
                state[slot] = getattr(obj, slot)
        _feed(h, state, depth + 1)
    else:
        h.update(repr(obj).encode())


_SOURCE_FINGERPRINT: str | None = None


def source_fingerprint() -> str:
    """A hash of genviz's Python sources (computed once per process)."""
    global _SOURCE_FINGERPRINT
    if _SOURCE_FINGERPRINT is None:
        root = pathlib.Path(__file__).resolve().parents[1]
        h = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
        _SOURCE_FINGERPRINT = h.hexdigest()[:16]
    return _SOURCE_FINGERPRINT


def grid_key(explorer) -> str | None:
    """The content hash of an explorer's grid, or None (no factory recorded, no gridded
    control)."""
    core = _core(explorer)
    if core.factory is None or not gridded(core):
        return None
    fn, args, kwargs = core.factory
    h = hashlib.sha256()
    h.update(f"{fn.__module__}.{fn.__qualname__}".encode())
    _feed(h, list(args))
    _feed(h, dict(kwargs))
    h.update(source_fingerprint().encode())
    h.update(matplotlib.__version__.encode())
    h.update(repr(sorted((k, repr(v)) for k, v in matplotlib.rcParams.items())).encode())
    _feed(h, base_values(core))
    _feed(h, [name for name, _ in gridded(core)])
    return h.hexdigest()[:32]


def _core(explorer):
    """The ExplorerCore of an Explorer (or the core itself)."""
    return getattr(explorer, "_core", explorer)


def gridded(core) -> list:
    """``[(name, control)]`` of the gridded controls, in the explorer's order."""
    return [(n, c) for n, c in _core(core).controls.items() if c.grid]


def base_values(core) -> dict:
    """The browser values of the non-gridded controls (where the grid is valid)."""
    return {n: c.to_front() for n, c in _core(core).controls.items() if not c.grid}
