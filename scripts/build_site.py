"""Build the course website: ``python scripts/build_site.py`` -> build/site/index.html.

Stages the sources in build/site-src/ (docs/*.md and notebooks/*.ipynb, copied only when
changed, with their times, so Sphinx's incremental build and MyST-NB's jupyter-cache only redo
what changed), then runs Sphinx with docs/conf.py. Notebooks are executed by MyST-NB and
cached by the hash of their code in build/site-cache/<library fingerprint>/: the figures come
from genviz, so a change to the library (its sources or data) starts a new cache and makes
Sphinx re-read every page, while a change to one notebook re-runs only that notebook. The
notebooks the cache lacks are executed before Sphinx starts, one kernel per core at a time
(``execute_missing``: what MyST-NB's cache mode does for one notebook, as it does it, put in
the same cache, which MyST-NB then reads; MyST-NB alone runs them one after another). Any cell
error fails the build (exit status 1). A page added or removed makes Sphinx write every page
again (each page's sidebar lists them all). Prints the wall-clock time of the build.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import filecmp
import hashlib
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def stage(dest: Path) -> list[str]:
    """Mirror docs/ (less conf.py and _static, read in place) and notebooks/ into ``dest``;
    what changed: a source's path (changed), ``added <path>`` (new) or ``removed <path>``."""
    wanted = {}
    for src in (ROOT / "docs").rglob("*"):
        rel = src.relative_to(ROOT / "docs")
        if src.is_file() and rel.parts[0] not in ("_static", "_templates", "__pycache__") and rel.name != "conf.py":
            wanted[rel] = src
    for src in (ROOT / "notebooks").glob("*.ipynb"):
        wanted[Path("notebooks") / src.name] = src
    changed = []
    for rel, src in wanted.items():
        out = dest / rel
        if not out.exists():
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, out)
            changed.append(f"added {rel}")
        elif not filecmp.cmp(src, out, shallow=False):
            shutil.copy2(src, out)
            changed.append(str(rel))
    for out in list(dest.rglob("*")):
        if out.is_file() and out.relative_to(dest) not in wanted:
            out.unlink()
            changed.append(f"removed {out.relative_to(dest)}")
    return changed


def sphinx_command(src: Path, out: Path, doctrees: Path, changed: list[str]) -> list[str]:
    """The Sphinx build of ``src`` into ``out``. When a source was added or removed (``changed``
    from ``stage``) every page is written again (``-a``; nothing is re-read that did not change):
    each page's sidebar lists every page, and Sphinx would otherwise rewrite only the changed
    ones, leaving the others with the old list."""
    layout = any(c.startswith(("added ", "removed ")) for c in changed)
    return [sys.executable, "-m", "sphinx", "-b", "html", "-c", str(ROOT / "docs"),
            "-d", str(doctrees), "--keep-going", "-q", *(["-a"] if layout else []),
            str(src), str(out)]


def library_fingerprint() -> str:
    """A hash of everything in genviz/ that a notebook's outputs depend on (code and data)."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "genviz").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


#: docs/conf.py's MyST-NB execution settings, which ``execute_missing`` applies as MyST-NB does
#: (tests/test_build_site.py reads them back from conf.py).
EXECUTION_TIMEOUT = 600
ALLOW_ERRORS = False


def read_notebook(path: Path):
    """``path`` read by MyST-NB's own reader of a .ipynb: the jupyter-cache key MyST-NB looks
    up is computed on what that reader returns."""
    from myst_nb.core.read import standard_nb_read

    return standard_nb_read(path.read_text(encoding="utf-8"))


def _execute(path: str, env: dict) -> tuple[str, str | None, float]:
    """In a worker process: run the notebook at ``path`` as MyST-NB's cache mode does (its own
    folder as the working directory, errors not allowed, the notebook's metadata may override
    both); the executed notebook as JSON, the error's traceback (or None) and the time."""
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution

    os.environ.clear()
    os.environ.update(env)
    nb = read_notebook(Path(path))
    result = single_nb_execution(nb, cwd=str(Path(path).parent), timeout=EXECUTION_TIMEOUT,
                                 allow_errors=ALLOW_ERRORS, meta_override=True)
    return nbformat.writes(nb), (result.exc_string if result.err else None), result.time


def execute_missing(notebooks: list[Path], cache_path: Path, env: dict, jobs: int) -> list[str]:
    """Execute the notebooks of ``notebooks`` that the jupyter-cache at ``cache_path`` has no
    outputs for, ``jobs`` at a time, each in a kernel started with ``env``, and cache each that
    ran without error, keyed as MyST-NB keys it (so MyST-NB takes the outputs from there). A
    notebook that failed is not cached: MyST-NB runs it again and fails the build with its
    error. Returns one line per notebook executed."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_path))
    todo = []
    for path in notebooks:
        try:
            cache.match_cache_notebook(read_notebook(path))
        except KeyError:
            todo.append(path)
    if not todo:
        return []
    import nbformat

    lines = []
    # spawn: clean workers (a fork of a process with threads, as pytest-xdist's workers are, may
    # deadlock); they import this module by name (run as a script: __main__)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(_execute, str(path), env): path for path in todo}
        for future in concurrent.futures.as_completed(futures):
            path = futures[future]
            text, error, seconds = future.result()
            if error is not None:
                lines.append(f"{path.name}: FAILED after {seconds:.1f} s (MyST-NB runs it again)")
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(nbformat.reads(text, as_version=4), str(path),
                              data={"execution_seconds": seconds}),
                check_validity=False, overwrite=True)
            lines.append(f"{path.name}: executed in {seconds:.1f} s")
    return lines


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "build" / "site"))
    parser.add_argument("--jobs", type=int, default=cores(),
                        help="notebooks executed at once before Sphinx starts (default: the cores; "
                             "0: none, MyST-NB executes them one after another)")
    parser.add_argument("--fresh", action="store_true",
                        help="drop the staged sources, Sphinx's environment and the notebook cache")
    args = parser.parse_args(argv)
    out = Path(args.out)
    src = ROOT / "build" / "site-src"
    caches = Path(os.environ.get("GENVIZ_SITE_CACHE", ROOT / "build" / "site-cache"))
    doctrees = ROOT / "build" / "site-doctrees"
    if args.fresh:
        for path in (src, out, caches, doctrees):
            shutil.rmtree(path, ignore_errors=True)
    start = time.perf_counter()
    fingerprint = library_fingerprint()
    cache = caches / fingerprint
    if not cache.is_dir():  # genviz changed (or first build): every page is read again
        shutil.rmtree(doctrees, ignore_errors=True)
        if caches.is_dir():
            for old in caches.iterdir():
                shutil.rmtree(old, ignore_errors=True) if old.is_dir() else old.unlink()
        cache.mkdir(parents=True)
        print(f"genviz fingerprint {fingerprint}: notebooks will be executed again")
    changed = stage(src)
    print(f"staged {len(changed)} changed source file(s) in {src.relative_to(ROOT)}")
    # explorers carry their precomputed states into the page (genviz.widgets.states), built once
    # per content hash into build/states (reused by later builds)
    env = {**os.environ, "GENVIZ_SITE_CACHE": str(cache), "MPLBACKEND": "Agg",
           "GENVIZ_STATES": "embed",
           "GENVIZ_STATES_CACHE": os.environ.get("GENVIZ_STATES_CACHE",
                                                 str(ROOT / "build" / "states")),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    notebooks = sorted((src / "notebooks").glob("*.ipynb"))
    for line in execute_missing(notebooks, cache, env, args.jobs) if args.jobs > 0 else []:
        print(line, flush=True)
    rc = subprocess.call(sphinx_command(src, out, doctrees, changed), env=env, cwd=ROOT)
    elapsed = time.perf_counter() - start
    print(f"site build {'ok' if rc == 0 else 'FAILED'} in {elapsed:.1f} s -> {out}/index.html")
    return rc


if __name__ == "__main__":
    sys.exit(main())
