"""Which precomputed states a course needs (issue #39): a manifest, written beside the grids by
the build command (``python -m genviz.widgets.states build``: ``make states``, ``postBuild``) and
by the hub's rebuild (``genviz_updates.rebuild``), lists every key the course's explorers need
under the course's fingerprint (:func:`course_fingerprint`: genviz's files, the Python sources
without docstrings or comments as the grids' keys read them; the notebooks' names and code
cells; the versions of Python and of the packages that compute or draw a state). A hub that
finds the manifest of its course's fingerprint with every grid it lists stored
(:func:`find_manifest`) knows at start, without running a notebook, that its states are
current. Stdlib only, besides genviz's own key normaliser.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import importlib.metadata
import json
import os
import pathlib
import sys
import time

from genviz.widgets._keys import _drop_docstrings

__all__ = ["course_fingerprint", "write_manifest", "find_manifest", "manifest_path",
           "MANIFEST_PREFIX", "RUNTIME_PACKAGES"]

MANIFEST_PREFIX = "genviz-states-"
#: the packages whose version can change a state's content (they compute or draw it)
RUNTIME_PACKAGES = ("numpy", "scipy", "matplotlib", "ipympl")


def _notebook_code(path: pathlib.Path) -> bytes:
    """A notebook's code cells (what can change which explorers it makes); its bytes when it is
    not a readable notebook."""
    raw = path.read_bytes()
    try:
        cells = json.loads(raw)["cells"]
        return json.dumps([c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                           for c in cells if c.get("cell_type") == "code"]).encode()
    except (ValueError, KeyError, TypeError):
        return raw


@functools.lru_cache(maxsize=1024)
def _code_of(source: str) -> bytes:
    """A Python source without docstrings, comments or layout, as the keys read it (a pure
    function of the text: parsed once per process for each text, ~4 ms a module)."""
    return _drop_docstrings(ast.parse(source)).encode()


def course_fingerprint(notebooks, genviz_dir=None) -> str:
    """What the set of grids of these notebooks depends on besides the grids' own keys: every
    file of the genviz package folder ``genviz_dir`` (default: the one imported here; Python
    sources without docstrings, comments or layout, as the keys read them, other files by
    their bytes), the notebooks' names and code cells, and the versions of Python and of
    :data:`RUNTIME_PACKAGES`. Equal fingerprints: the notebooks make explorers of the same
    keys."""
    root = pathlib.Path(genviz_dir) if genviz_dir is not None \
        else pathlib.Path(__file__).resolve().parents[1]
    if not (root / "__init__.py").is_file():
        raise ValueError(f"genviz_dir must be the genviz package folder (with __init__.py), "
                         f"got {str(root)!r}")
    paths = [pathlib.Path(p) for p in notebooks]
    for path in paths:
        if path.suffix != ".ipynb" or not path.is_file():
            raise ValueError(f"notebooks must be existing .ipynb files, got {str(path)!r}")
    h = hashlib.sha256(b"genviz course fingerprint 1\0")
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or path.suffix == ".pyc" or any(
                part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        body = None
        if path.suffix == ".py":
            with contextlib.suppress(SyntaxError, ValueError, UnicodeDecodeError):
                body = _code_of(path.read_text(encoding="utf-8"))
        h.update(rel.as_posix().encode() + b"\0" + (body or path.read_bytes()) + b"\0")
    for path in sorted(paths, key=lambda p: p.name):
        h.update(path.name.encode() + b"\0" + _notebook_code(path) + b"\0")
    versions = [f"python {sys.version_info[0]}.{sys.version_info[1]}"]
    for name in RUNTIME_PACKAGES:
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} -")
    h.update("\n".join(versions).encode())
    return h.hexdigest()[:32]


def manifest_path(directory, fingerprint: str) -> pathlib.Path:
    return pathlib.Path(directory) / f"{MANIFEST_PREFIX}{fingerprint}.json"


def write_manifest(directory, fingerprint: str, keys, notebooks=()) -> pathlib.Path:
    """Record (atomically) that the course of ``fingerprint`` needs the grids ``keys``."""
    if not isinstance(fingerprint, str) or not fingerprint.isalnum():
        raise ValueError(f"fingerprint must be course_fingerprint()'s hex digest, got "
                         f"{fingerprint!r}")
    keys = sorted(set(keys))
    if not all(isinstance(k, str) and k.isalnum() for k in keys):
        raise ValueError(f"keys must be grid keys (hex digests), got {keys!r}")
    path = manifest_path(directory, fingerprint)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps({"v": 1, "fingerprint": fingerprint, "keys": keys,
                               "notebooks": sorted(pathlib.Path(n).name for n in notebooks),
                               "written": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
                              indent=1), encoding="utf-8")
    tmp.chmod(0o644)
    os.replace(tmp, path)
    return path


def find_manifest(fingerprint: str, directories) -> tuple[pathlib.Path | None, list[str]]:
    """The manifest of ``fingerprint`` in ``directories`` and the keys it lists that none of
    them holds: ``(path, [])`` when every grid is there; ``(None, [])`` when no directory has
    a readable manifest for it. A manifest with every grid wins over one with some missing."""
    directories = [pathlib.Path(d) for d in directories]
    found = None
    for directory in directories:
        path = manifest_path(directory, fingerprint)
        try:
            keys = json.loads(path.read_text(encoding="utf-8"))["keys"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        missing = [k for k in keys
                   if not any((d / f"{k}.gvgrid").is_file() for d in directories)]
        if not missing:
            return path, []
        found = found or (path, missing)
    return found or (None, [])
