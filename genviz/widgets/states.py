"""Precomputed states of the gridded controls: build artifacts keyed by a content hash.

Each explorer declares one or two *gridded* controls (``grid=True``: the one its lesson is
about first). Its **grid** is every combination of their positions at the current values of
the other controls (the *base*); for each, the recorded animated artists
(:meth:`genviz.plots._base.View.record_frame`), the readout HTML and the alt text, with the
static backgrounds shared. The browser then redraws those controls with no server work.

A grid is a build artifact, never committed and never rebuilt per student. Its key
(:func:`grid_key`) hashes the explorer factory and its arguments (arrays by their bytes), the
code the factory runs (its module and the genviz modules it imports, without docstrings and
comments: a course update that fixes documentation keeps every grid), matplotlib's version and
rcParams (lecture mode included), and the gridded controls' base. Where grids are found, in order:

1. ``GENVIZ_STATES_PATH`` (directories separated by ``os.pathsep``) and
   ``<sys.prefix>/share/genviz/states``: read-only prebuilt directories (a hub image builds
   them once with ``python -m genviz.widgets.states build notebooks``; ``postBuild`` does);
2. the user cache ``GENVIZ_STATES_CACHE`` (default ``$XDG_CACHE_HOME/genviz/states`` or
   ``~/.cache/genviz/states``), where a local learner's grids are written.

``GENVIZ_STATES`` says what an explorer does without a prebuilt grid: ``background`` (the
default: build it in a background thread once a browser shows the explorer, into the user
cache; moves use the kernel until it arrives), ``prebuilt`` (a hub: never build, the kernel
serves the moves), ``off`` (no grid at all), ``build`` (build at once when the explorer is
made: the build command) or ``embed`` (as ``build``, and put the grid in the explorer's static
representation: the course website). With ``GENVIZ_STATES_LOG`` set, ``build`` and ``embed``
append a line per explorer to that file (key, factory, built or found: the hub's rebuild after a
course update, ``genviz_updates.rebuild``).

The build command also writes the notebooks' **manifest** (``genviz.widgets._manifest``): the
keys they need under the course's fingerprint, so a hub knows at start whether its states are
current without running a notebook.

A grid over its budget (:data:`MAX_STATES` states or :data:`MAX_BYTES` compressed) is refused
when built, with a :class:`GridBudgetError` naming the explorer, the control and the budget and
suggesting a coarser step.

Blob layout (zlib-compressed): ``b"GVG1"``, the JSON header's length (uint32 LE), the header
(``v``, ``key``, ``axes``, ``base``, row-major ``states`` of [frame offset, length, background,
readout, alt], ``readouts``, ``alts``, ``backgrounds``, ``pool``: sprites the frames share),
then the backgrounds (PNG) and frames, each at a 4-byte-aligned offset.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import pathlib
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import numpy as np
from IPython import get_ipython

from genviz.exercises.observation import _same as same_setting
from genviz.plots._ops import Pool
from genviz.widgets._controls import Slider
from genviz.widgets._grid_watch import await_grid
from genviz.widgets._keys import base_values, grid_key, gridded
from genviz.widgets._manifest import (course_fingerprint, find_manifest, manifest_path,
                                      write_manifest)

__all__ = ["GridBudgetError", "headless", "states_mode", "build_grid", "grid_key", "load_grid",
           "store_grid", "search_path", "cache_dir", "attach_grid", "read_grid", "MAX_STATES",
           "MAX_BYTES", "main", "build_notebooks", "grid_for", "is_headless",
           "on_built", "offline_reach", "headless_copy", "course_fingerprint",
           "write_manifest", "find_manifest", "manifest_path"]

GRID_MAGIC = b"GVG1"
#: Budgets of one explorer's grid: states, and compressed bytes (a site page holds the grid in
#: base64, 4/3 of this, and must stay under 1.5 MB per explorer).
MAX_STATES = 2000
MAX_BYTES = 1_000_000
#: A live kernel's grid (built in the background) goes once over its websocket, not into a page:
#: twice the site's budget, so lecture mode's larger figures (bigger frames) still get theirs.
LIVE_MAX_BYTES = 2 * MAX_BYTES


class GridBudgetError(ValueError):
    """A grid over its budget, refused when built."""


def states_mode() -> str:
    """``GENVIZ_STATES`` (see the module docstring); ``background`` when unset."""
    return os.environ.get("GENVIZ_STATES", "background").strip().lower() or "background"


_HEADLESS = threading.local()


class headless:
    """``with headless():`` explorer factories return an ``ExplorerCore`` (no widget, no comm):
    what a grid is built from in a background thread."""

    def __enter__(self):
        self._was = getattr(_HEADLESS, "on", False)
        _HEADLESS.on = True
        return self

    def __exit__(self, *exc):
        _HEADLESS.on = self._was


def is_headless() -> bool:
    return getattr(_HEADLESS, "on", False)


def _core(explorer):
    """The ExplorerCore of an Explorer (or the core itself)."""
    return getattr(explorer, "_core", explorer)


# -- building ---------------------------------------------------------------------------------------
def _factory_name(core) -> str:
    if core.factory is not None:
        return core.factory[0].__name__
    return type(core.view).__name__


def _check_state_budget(core, axes, limit) -> None:
    total = int(np.prod([len(c.grid_values()) for _, c in axes]))
    if total > limit:
        name, control = max(axes, key=lambda a: len(a[1].grid_values()))
        raise GridBudgetError(_budget_message(core, axes, f"{total} states", f"{limit} states",
                                              name, control, total / limit))


def _budget_message(core, axes, got, budget, name, control, factor) -> str:
    dims = " × ".join(f"{n} ({len(c.grid_values())})" for n, c in axes)
    if isinstance(control, Slider):
        coarser = control.step * max(2, int(np.ceil(factor * 1.1)))
        hint = (f"; use a coarser step for {name!r}, e.g. step={coarser:.4g} "
                f"(now {control.step:g})")
    else:
        hint = f"; grid fewer controls than {name!r} (grid=False)"
    return (f"{_factory_name(core)}: the precomputed states of {dims} are {got}, over the "
            f"budget of {budget}{hint}.")


def build_grid(explorer, *, max_states: int | None = None,
               max_bytes: int | None = None) -> bytes:
    """Every state of the gridded controls (at the other controls' current values), encoded
    and compressed (see the module docstring). The explorer is left as it was. Raises
    :class:`GridBudgetError` when the grid is over budget, ``ValueError`` when the explorer
    has no gridded control."""
    core = _core(explorer)
    axes = gridded(core)
    if not axes:
        raise ValueError(f"{_factory_name(core)} has no gridded control (grid=True)")
    max_states = MAX_STATES if max_states is None else max_states
    max_bytes = MAX_BYTES if max_bytes is None else max_bytes
    _check_state_budget(core, axes, max_states)
    blob = _build(core, axes)
    if len(blob) > max_bytes:
        name, control = max(axes, key=lambda a: len(a[1].grid_values()))
        raise GridBudgetError(_budget_message(
            core, axes, f"{len(blob) / 1e6:.2f} MB", f"{max_bytes / 1e6:.2f} MB", name,
            control, len(blob) / max_bytes))
    return blob


def _build(core, axes) -> bytes:
    start = {n: c.value for n, c in core.controls.items()}
    on_refresh, core.on_refresh = core.on_refresh, None
    frames, states = [], []
    readouts, alts, backgrounds = {}, {}, {}
    bg_blobs = []
    pool = Pool()
    try:
        for combo in itertools.product(*[c.grid_values() for _, c in axes]):
            for (name, control), value in zip(axes, combo):
                control.set(value, notify=False)
            core.refresh(origin="grid")
            frame = core.view.record_frame(pool=pool)
            png, bkey = core.view.background_png()
            if bkey not in backgrounds:
                backgrounds[bkey] = len(bg_blobs)
                bg_blobs.append(png)
            r = readouts.setdefault(core.readout.value, len(readouts))
            a = alts.setdefault(core.describe(), len(alts))
            frames.append(frame)
            states.append((backgrounds[bkey], r, a))
    finally:
        for name, control in core.controls.items():
            control.set(start[name], notify=False)
        core.refresh(origin="grid")
        core.on_refresh = on_refresh
    body, offsets = bytearray(), []
    for blob in [bytes(pool.data), *bg_blobs, *frames]:
        body += b"\0" * (-len(body) % 4)
        offsets.append((len(body), len(blob)))
        body += blob
    pool_off, bg_off, fr_off = offsets[0], offsets[1:1 + len(bg_blobs)], offsets[1 + len(bg_blobs):]
    head = {"v": 1, "key": grid_key(core),
            "axes": [{"name": n, "n": len(c.grid_values())} for n, c in axes],
            "base": base_values(core),
            "states": [[o, n, b, r, a] for (o, n), (b, r, a) in zip(fr_off, states)],
            "readouts": list(readouts), "alts": list(alts), "backgrounds": bg_off,
            "pool": pool_off}
    head_bytes = json.dumps(head, separators=(",", ":")).encode()
    head_bytes += b" " * (-len(head_bytes) % 4)
    raw = GRID_MAGIC + struct.pack("<I", len(head_bytes)) + head_bytes + bytes(body)
    return zlib.compress(raw, 9)


def read_grid(blob: bytes) -> tuple[dict, bytes]:
    """``(header, body)`` of a compressed grid; ValueError for anything that is not one."""
    try:
        raw = zlib.decompress(blob)
    except zlib.error as exc:
        raise ValueError(f"blob is not a compressed genviz grid: {exc}") from None
    if raw[:4] != GRID_MAGIC:
        raise ValueError("blob is not a genviz grid (no GVG1 header)")
    (n,) = struct.unpack("<I", raw[4:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


# -- what moves without a kernel -------------------------------------------------------------------
def offline_reach(explorer, setting) -> dict:
    """For each control a setting names (``{name: value}``, as an observation states it):
    ``"start"`` when the control is not gridded and the value is where it stands now (the grid's
    base), ``"grid"`` when it is gridded and the value is one of its precomputed positions,
    ``"kernel"`` otherwise (the site cannot show it), ``"missing"`` when the explorer has no such
    control. Values compare as observations compare them (numbers to slider precision, texts
    as bags of words)."""
    def where(c, value):
        if c is None:
            return "missing"
        if c.grid:
            return "grid" if any(same_setting(value, g) for g in c.grid_values()) else "kernel"
        return "start" if same_setting(value, c.value) else "kernel"

    controls = _core(explorer).controls
    return {name: where(controls.get(name), value) for name, value in dict(setting).items()}


# -- the cache -----------------------------------------------------------------------------------
def search_path() -> list[pathlib.Path]:
    """Read-only directories holding prebuilt grids, in order."""
    dirs = [pathlib.Path(p) for p in os.environ.get("GENVIZ_STATES_PATH", "").split(os.pathsep)
            if p.strip()]
    return dirs + [pathlib.Path(sys.prefix) / "share" / "genviz" / "states"]


def cache_dir() -> pathlib.Path:
    """Where grids built here are written (``GENVIZ_STATES_CACHE``, else the user cache)."""
    env = os.environ.get("GENVIZ_STATES_CACHE", "").strip()
    if env:
        return pathlib.Path(env)
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or pathlib.Path.home() / ".cache"
    return pathlib.Path(base) / "genviz" / "states"


def load_grid(key: str) -> bytes | None:
    """The stored grid with this key (prebuilt directories first, then the cache), or None."""
    for directory in [*search_path(), cache_dir()]:
        path = directory / f"{key}.gvgrid"
        try:
            return path.read_bytes()
        except OSError:
            continue
    return None


def store_grid(key: str, blob: bytes, directory: pathlib.Path | None = None) -> pathlib.Path:
    """Write a grid into ``directory`` (default :func:`cache_dir`) atomically."""
    directory = pathlib.Path(directory) if directory is not None else cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{key}.gvgrid"
    tmp = path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
    tmp.write_bytes(blob)
    os.replace(tmp, path)
    return path


def grid_for(explorer, *, build: bool) -> bytes | None:
    """The explorer's grid from a store, else built (and stored in the cache) when ``build``."""
    key = grid_key(explorer)
    if key is None:
        return None
    blob = load_grid(key)
    if blob is None and build:
        blob = build_grid(explorer)
        try:
            store_grid(key, blob)
        except OSError:
            pass
    return blob


# -- explorers ------------------------------------------------------------------------------------
def on_built(explorer) -> None:
    """Called by :func:`genviz.widgets._base.explorer_factory` for each new explorer."""
    explorer.grid_key = grid_key(explorer)
    if explorer.grid_key is not None and states_mode() in ("build", "embed"):
        stored = load_grid(explorer.grid_key) is not None
        explorer.grid_bytes = grid_for(explorer, build=True)
        _log_build(explorer, built=not stored)


def _log_build(explorer, *, built: bool) -> None:
    """With ``GENVIZ_STATES_LOG`` set, a JSON line per explorer (see the module docstring)."""
    path = os.environ.get("GENVIZ_STATES_LOG", "").strip()
    if not path:
        return
    line = json.dumps({"key": explorer.grid_key, "factory": _factory_name(_core(explorer)),
                       "built": built})
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


def attach_grid(explorer) -> None:
    """When a browser first shows the explorer: send its grid if one is stored; else, unless
    ``GENVIZ_STATES`` is ``prebuilt`` or ``off``, build it in a background thread from a second,
    headless copy of the explorer (the live one keeps serving the kernel path meanwhile);
    ``prebuilt`` (a hub) awaits the grid the hub's rebuild stores (``_grid_watch``)."""
    mode = states_mode()
    key = explorer.grid_key or grid_key(explorer)
    if key is None or mode == "off":
        return
    blob = explorer.grid_bytes or load_grid(key)
    if blob is not None:
        explorer.grid = blob
        return
    if mode == "prebuilt":  # a hub: the rebuild after a course update may store it later
        return await_grid(explorer, key, load=load_grid, on_loop=_on_kernel_loop,
                          dirs=search_path())
    if mode != "background":
        return
    core = explorer._core
    thread = threading.Thread(target=_build_in_background, args=(explorer, core.factory, key),
                              name=f"genviz-grid-{key[:8]}", daemon=True)
    explorer._grid_thread = thread
    thread.start()


_BUILD_LOCK = threading.Lock()  # one build at a time: builders share matplotlib's text parser
BUILD_ATTEMPTS = 3


def _build_in_background(explorer, factory, key) -> None:
    """matplotlib is not thread-safe: a draw in the kernel's thread at the same instant (a later
    cell's figure) can fail an attempt (mathtext's parser raises), so it is tried again."""
    error = None
    with _BUILD_LOCK:
        for _ in range(BUILD_ATTEMPTS):
            try:
                blob = _build_once(explorer, factory, key)
            except GridBudgetError as exc:
                error = exc
                break
            except Exception as exc:  # never into the notebook: the kernel path keeps working
                error = exc
                continue
            if blob is not None:
                with contextlib.suppress(OSError):
                    store_grid(key, blob)
                _on_kernel_loop(lambda: setattr(explorer, "grid", blob))
            return
    text = str(error) if isinstance(error, GridBudgetError) else (
        f"Precomputed states unavailable ({type(error).__name__}: {error}); every move asks "
        f"the kernel.")
    _on_kernel_loop(lambda: setattr(explorer, "notice", text))


def _build_once(explorer, factory, key):
    with headless_copy(explorer, factory) as core:  # the live explorer's base when shown
        return build_grid(core, max_bytes=LIVE_MAX_BYTES) if grid_key(core) == key else None


@contextlib.contextmanager
def headless_copy(explorer, factory=None):
    """A second, headless explorer made by ``factory`` (default: the explorer's own), its other
    controls at the explorer's values (its grid's base), closed afterwards."""
    fn, args, kwargs = factory or _core(explorer).factory
    with headless():
        core = fn(*args, **kwargs)
    try:
        for name, control in core.controls.items():
            if not control.grid:
                control.set(explorer.controls[name].value, notify=False)
        yield core
    finally:
        core.close()


def _on_kernel_loop(fn) -> None:
    """Run ``fn`` on the kernel's event loop (widget messages leave from its thread)."""
    kernel = getattr(get_ipython(), "kernel", None)
    loop = getattr(kernel, "io_loop", None)
    if loop is not None:
        loop.add_callback(fn)
    else:
        fn()


# -- the build command ---------------------------------------------------------------------------
def build_notebooks(paths, out: pathlib.Path, *, timeout: int = 900) -> list[dict]:
    """Execute each notebook in a fresh kernel (``jupyter nbconvert --execute``, outputs
    discarded) with ``GENVIZ_STATES=build`` and ``GENVIZ_STATES_CACHE=out``: every explorer it
    makes stores its grid in ``out``. Then writes the notebooks' manifest into ``out``
    (:func:`write_manifest`). Returns one row per notebook."""
    out = pathlib.Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    paths = list(map(pathlib.Path, paths))
    env = {**os.environ, "GENVIZ_STATES": "build", "GENVIZ_STATES_CACHE": str(out),
           "MPLBACKEND": "Agg"}
    report, keys = [], set()
    with tempfile.TemporaryDirectory() as scratch:
        for path in paths:
            before = set(out.glob("*.gvgrid"))
            log = pathlib.Path(scratch) / f"{path.stem}.jsonl"
            t0 = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute",
                 f"--ExecutePreprocessor.timeout={timeout}", "--output-dir", scratch,
                 str(path.resolve())], cwd=path.parent,
                env={**env, "GENVIZ_STATES_LOG": str(log)}, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{path.name} failed:\n{done.stderr[-3000:]}")
            with contextlib.suppress(OSError):
                for line in log.read_text(encoding="utf-8").splitlines():
                    with contextlib.suppress(ValueError, KeyError, TypeError):
                        keys.add(json.loads(line)["key"])
            new = sorted(set(out.glob("*.gvgrid")) - before)
            report.append({"notebook": path.name, "grids": len(new),
                           "bytes": sum(p.stat().st_size for p in new),
                           "seconds": round(time.perf_counter() - t0, 1)})
            print(f"{path.name}: {len(new)} new grid(s), {report[-1]['bytes'] / 1e6:.2f} MB, "
                  f"{report[-1]['seconds']} s", flush=True)
    write_manifest(out, course_fingerprint(paths), keys, paths)
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m genviz.widgets.states",
        description="Build the explorers' precomputed states (grids) by running notebooks.")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="execute notebooks and store every explorer's grid")
    b.add_argument("paths", nargs="+", help="notebooks, or directories of notebooks")
    b.add_argument("--out", default=str(pathlib.Path(sys.prefix) / "share" / "genviz" / "states"),
                   help="where to write the grids (default: <prefix>/share/genviz/states, "
                        "searched by every kernel of this environment)")
    args = parser.parse_args(argv)
    notebooks = []
    for p in map(pathlib.Path, args.paths):
        notebooks += sorted(p.glob("*.ipynb")) if p.is_dir() else [p]
    report = build_notebooks(notebooks, pathlib.Path(args.out))
    total = sum(r["bytes"] for r in report)
    print(f"{sum(r['grids'] for r in report)} grid(s), {total / 1e6:.2f} MB in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
