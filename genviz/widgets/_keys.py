"""The content hash of an explorer's precomputed states (genviz.widgets.states).

A grid is valid for one explorer made by one factory with given arguments, by this genviz's
code and this matplotlib, in this style: :func:`grid_key` hashes the factory's name and
arguments (arrays by dtype, shape and bytes; containers recursively; functions by name; other
objects by their attributes), the code the factory runs (:func:`code_fingerprint`),
matplotlib's version and every rcParam but the backend's (:data:`NOT_DRAWN`; lecture mode and
figure sizes included), the layout (wide or narrow), which controls
are gridded and the values of the others.

The code the factory runs (issue #39): the factory's module and every genviz module it imports,
transitively (``import genviz.x``, ``from genviz.x import name``, relative imports, also inside
functions; ``from package import name`` follows the submodule ``name`` when there is one, else
the package's ``__init__``), each normalised by ``ast`` (docstrings and comments dropped,
layout ignored); the exercises are left out (:data:`NOT_DRAWING`: they never draw a state).
So a course update that fixes a docstring, a comment, an exercise's feedback or a module no
explorer of this kind uses keeps every precomputed grid, and a change to a study's maths changes exactly
the keys of the explorers whose factory imports it. A factory outside genviz (a notebook's)
falls back to every genviz source (:func:`source_fingerprint`).
"""

from __future__ import annotations

import ast
import hashlib
import pathlib

import matplotlib
import numpy as np

from genviz.plots.style import is_narrow_mode

__all__ = ["grid_key", "source_fingerprint", "code_fingerprint", "genviz_imports", "gridded",
           "base_values"]


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


#: rcParams that never change a recorded state (frames are drawn on genviz's own Agg canvas):
#: which backend pyplot would use. A Jupyter kernel sets ``MPLBACKEND`` to the inline backend
#: while ``make states`` and the hub's rebuild run notebooks with Agg: with ``backend`` in the
#: key, no grid built there matched a kernel's explorer (issue #39).
NOT_DRAWN = frozenset({"backend", "backend_fallback", "interactive"})

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


_ROOT = pathlib.Path(__file__).resolve().parents[1]  # the genviz package folder


def _module_file(name: str, root: pathlib.Path) -> pathlib.Path | None:
    """The source file of genviz module ``name`` under ``root`` (the package folder)."""
    parts = name.split(".")
    if parts[0] != "genviz":
        return None
    base = root.joinpath(*parts[1:])
    for path in (base.with_suffix(".py") if parts[1:] else None, base / "__init__.py"):
        if path is not None and path.is_file():
            return path
    return None


_PARSED: dict[pathlib.Path, ast.Module] = {}


def _parsed(path: pathlib.Path) -> ast.Module:
    """The module's syntax tree (parsed once per process; its docstrings are dropped once
    :func:`_normalised` has read it, its imports are never changed)."""
    if path not in _PARSED:
        _PARSED[path] = ast.parse(path.read_text(encoding="utf-8"))
    return _PARSED[path]


_NORMALISED: dict[pathlib.Path, str] = {}


def _normalised(path: pathlib.Path) -> str:
    """The module's code without docstrings, comments or layout (``ast.dump``; once per
    process)."""
    if path not in _NORMALISED:
        _NORMALISED[path] = _strip_docstrings(path)
    return _NORMALISED[path]


def _strip_docstrings(path: pathlib.Path) -> str:
    # the cached tree, in place: only docstrings go, every import stays
    return _drop_docstrings(_parsed(path))


def _drop_docstrings(tree: ast.Module) -> str:
    """``ast.dump`` of a module's syntax tree without its docstrings (removed from ``tree``)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _import_statements(tree: ast.Module) -> list:
    """Every ``import`` and ``from ... import`` statement of a module, at any depth (inside
    functions, classes, ``if``/``try``/``with`` blocks), in source order; found once per parsed
    tree (kept on it). Imports are statements, so only statement lists are searched, not the
    expressions that make most of a tree (``ast.walk`` over every node of every module, again
    for each factory, was most of a fingerprint's cost)."""
    found = getattr(tree, "_genviz_imports", None)
    if found is None:
        found, todo = [], [tree]
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
                continue
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, list):
                    todo.extend(v for v in reversed(value)
                                if isinstance(v, (ast.stmt, ast.excepthandler, ast.match_case)))
        tree._genviz_imports = found
    return found


#: Packages whose code never draws a state: the exercises (questions, feedback texts, the
#: observation's checks; the states module reads an observation's setting, never its text). A
#: fix there (a full stop in a feedback message) keeps every grid; :func:`code_fingerprint`
#: neither hashes them nor follows their imports.
NOT_DRAWING = ("genviz.exercises",)


def genviz_imports(name: str, root: pathlib.Path | None = None, *,
                   skip: tuple[str, ...] = ()) -> list[str]:
    """Module ``name`` and every genviz module it imports, transitively, sorted (see the
    module docstring for what counts); modules in the packages ``skip`` are left out and not
    followed.

    >>> "genviz.widgets.states" in genviz_imports("genviz.widgets._base")
    True
    >>> "genviz.studies.gaussian" in genviz_imports("genviz.studies.knn")
    False
    """
    root = _ROOT if root is None else pathlib.Path(root)
    seen: set[str] = set()
    todo = [name]
    while todo:
        mod = todo.pop()
        if mod in seen or any(mod == p or mod.startswith(p + ".") for p in skip):
            continue
        path = _module_file(mod, root)
        if path is None:
            continue
        seen.add(mod)
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in _import_statements(_parsed(path)):
            if isinstance(node, ast.Import):
                todo.extend(a.name for a in node.names if a.name.split(".")[0] == "genviz")
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    up = package.split(".")
                    up = up[:len(up) - (node.level - 1)]
                    target = ".".join(up + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "genviz":
                    continue
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    todo.append(sub if _module_file(sub, root) is not None and
                                (_module_file(target, root) is None or
                                 _module_file(sub, root) != _module_file(target, root))
                                else target)
    return sorted(seen)


_CODE_FINGERPRINTS: dict[tuple, str] = {}


def code_fingerprint(name: str, root: pathlib.Path | None = None) -> str:
    """A hash of the code genviz module ``name`` runs: itself and the genviz modules it
    imports, transitively (not :data:`NOT_DRAWING`), each without docstrings and comments (computed once per module and
    process); :func:`source_fingerprint` for a module outside genviz. ``root``: the genviz
    package folder (default: this one)."""
    root = _ROOT if root is None else pathlib.Path(root)
    if (root, name) not in _CODE_FINGERPRINTS:
        modules = genviz_imports(name, root, skip=NOT_DRAWING)
        if not modules:
            _CODE_FINGERPRINTS[root, name] = source_fingerprint()
        else:
            h = hashlib.sha256()
            for mod in modules:
                h.update(mod.encode() + b"\0" + _normalised(_module_file(mod, root)).encode()
                         + b"\0")
            _CODE_FINGERPRINTS[root, name] = h.hexdigest()[:16]
    return _CODE_FINGERPRINTS[root, name]


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
    h.update(code_fingerprint(fn.__module__).encode())
    h.update(matplotlib.__version__.encode())
    h.update(repr(sorted((k, repr(v)) for k, v in matplotlib.rcParams.items()
                         if k not in NOT_DRAWN)).encode())
    h.update(b"narrow" if is_narrow_mode() else b"wide")
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
