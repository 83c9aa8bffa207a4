"""Module list, line counts, layers and the import graph of genviz, read with ``ast``.

Run from the repository root::

    python scripts/module_report.py            # Markdown: the table ARCHITECTURE.md carries
    python scripts/module_report.py --check    # exit 1 and list every layer violation
    python scripts/module_report.py --write    # replace the table in ARCHITECTURE.md

The same import reader and layer rules are used by ``tests/test_project.py`` (the layer test),
so the report and the test cannot disagree.

Layers (data flow one way: data -> model -> view -> widget -> notebook):

- model: ``genviz``, ``genviz.<name>``, ``genviz._<name>`` (computation and data, numpy + scipy).
  May not import genviz.plots, genviz.widgets, genviz.exercises, matplotlib, mpl_toolkits, PIL,
  ipywidgets, IPython.
- exercises: ``genviz.exercises.*`` (self-checking questions whose answers the model layer
  computes; feedback is text/HTML). A sibling of the views, above the models: may import models
  only, so the same rules as models except that importing genviz.exercises is allowed.
- view: ``genviz.plots.*`` (matplotlib). May not import genviz.widgets, genviz.exercises,
  ipywidgets.
- widget: ``genviz.widgets.*`` (ipywidgets). May import everything below it.

No layer of genviz imports scikit-learn (a test oracle only).
"""

from __future__ import annotations

import argparse
import ast
import collections
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "genviz"

__all__ = ["LAYERS", "FORBIDDEN", "module_name", "layer_of", "imports_of", "violations",
           "modules", "graph", "cycles", "report"]

#: the layers, bottom first
LAYERS = ("model", "exercises", "view", "widget")

_SKLEARN = ("sklearn",)
_DRAWING = ("matplotlib", "mpl_toolkits", "PIL")
_NOTEBOOK = ("ipywidgets", "IPython")

#: layer -> module prefixes it must not import (a prefix matches itself and its submodules)
FORBIDDEN = {
    "model": ("genviz.plots", "genviz.widgets", "genviz.exercises") + _DRAWING + _NOTEBOOK
             + _SKLEARN,
    "exercises": ("genviz.plots", "genviz.widgets") + _DRAWING + _NOTEBOOK + _SKLEARN,
    "view": ("genviz.widgets", "genviz.exercises", "ipywidgets") + _SKLEARN,
    "widget": _SKLEARN,
}


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """``genviz/plots/knn.py`` -> ``genviz.plots.knn``; ``genviz/plots/__init__.py`` ->
    ``genviz.plots``."""
    parts = list(pathlib.Path(path).resolve().relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> str:
    """The layer of a genviz module (see the module docstring)."""
    parts = module.split(".")
    if parts[0] != "genviz":
        raise ValueError(f"{module!r} is not a genviz module")
    sub = parts[1] if len(parts) > 1 else ""
    return {"plots": "view", "widgets": "widget", "exercises": "exercises"}.get(sub, "model")


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    if node.level - 1 >= len(package):
        raise ValueError(f"relative import beyond the top package in {module}")
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _top_level_nodes(tree):
    """Statements run when the module is imported (not inside a def or class body)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(source: str, module: str, *, is_package: bool = False,
               top_level: bool = False) -> list:
    """Every module ``source`` imports, at its full dotted path, with line numbers.

    ``import a.b`` gives ``a.b``; ``from a.b import c`` gives ``a.b.c`` (``c`` may be a submodule,
    as in ``from genviz.plots import gda``; for a plain name the extra part is harmless, because
    the layer rules match prefixes); relative imports are resolved against ``module`` (a package's
    ``__init__`` when ``is_package``). Imports inside functions and ``if TYPE_CHECKING`` blocks
    count too, unless ``top_level`` (then only what runs at import time: the graph in which a
    cycle would be a circular import).

    Returns
    -------
    list of (lineno, str)

    Examples
    --------
    >>> imports_of("from ..widgets import knn", "genviz.plots.gda")
    [(1, 'genviz.widgets.knn')]
    >>> imports_of("import numpy as np\\nfrom genviz.plots import gda", "genviz.x")
    [(1, 'numpy'), (2, 'genviz.plots.gda')]
    """
    out = []
    tree = ast.parse(source)
    for node in (_top_level_nodes(tree) if top_level else ast.walk(tree)):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, module, is_package)
            for a in node.names:
                out.append((node.lineno, base if a.name == "*" else f"{base}.{a.name}"))
    return sorted(out)


def _matches(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(source: str, module: str, *, is_package: bool = False) -> list:
    """The imports of ``source`` (module ``module``) its layer forbids, as readable strings.

    Examples
    --------
    >>> violations("from genviz.widgets._base import Explorer", "genviz.plots.knn")
    ['genviz.plots.knn (view) line 1 imports genviz.widgets._base.Explorer']
    >>> violations("import matplotlib.pyplot as plt", "genviz.kde")
    ['genviz.kde (model) line 1 imports matplotlib.pyplot']
    >>> violations("from genviz.gaussian import mvn_pdf", "genviz.plots.gaussian")
    []
    """
    layer = layer_of(module)
    return [f"{module} ({layer}) line {line} imports {name}"
            for line, name in imports_of(source, module, is_package=is_package)
            if any(_matches(name, p) for p in FORBIDDEN[layer])]


def modules(package: pathlib.Path = PACKAGE) -> list:
    """Every ``.py`` file of the package, sorted by module name."""
    package = pathlib.Path(package).resolve()
    return sorted(package.rglob("*.py"), key=lambda p: module_name(p, package.parent))


def graph(paths=None, *, top_level: bool = False) -> dict:
    """module -> sorted list of the genviz modules it imports (see :func:`imports_of`)."""
    paths = modules() if paths is None else paths
    out = {}
    for path in paths:
        name = module_name(path)
        found = imports_of(path.read_text(), name, is_package=path.name == "__init__.py",
                           top_level=top_level)
        own = {module_name(p) for p in paths}
        targets = set()
        for _, imp in found:
            if imp.split(".")[0] != "genviz":
                continue
            # the longest genviz module that prefixes the imported name
            while imp and imp not in own:
                imp = imp.rpartition(".")[0]
            if imp and imp != name:
                targets.add(imp)
        out[name] = sorted(targets)
    return out


def cycles(g: dict) -> list:
    """The cycles of an import graph (each as a list of modules), by depth-first search."""
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in g.get(node, ()):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(g):
        if node not in state:
            visit(node, [node])
    return found


def report(package: pathlib.Path = PACKAGE) -> str:
    """Markdown: one row per module (layer, lines, the genviz modules it imports), totals per
    layer, and the layer violations (none, when the tests pass)."""
    paths = modules(package)
    deps_of = graph(paths)
    short = lambda m: m.removeprefix("genviz.") if m != "genviz" else m  # noqa: E731
    lines = ["| module | layer | lines | imports (genviz) |", "|---|---|---:|---|"]
    per_layer = collections.Counter()
    for path in paths:
        name = module_name(path)
        n = len(path.read_text().splitlines())
        per_layer[layer_of(name)] += n
        deps = ", ".join(short(d) for d in deps_of[name]) or "—"
        lines.append(f"| `{name}` | {layer_of(name)} | {n} | {deps} |")
    lines.append("")
    lines.append("Lines per layer: " + ", ".join(f"{layer} {per_layer[layer]}"
                                                 for layer in LAYERS)
                 + f"; total {sum(per_layer.values())} in {len(paths)} modules.")
    bad = [v for p in paths for v in violations(p.read_text(), module_name(p),
                                                is_package=p.name == "__init__.py")]
    lines.append("")
    lines.append("Layer violations: " + ("none." if not bad else "\n- " + "\n- ".join(bad)))
    loops = cycles(graph(paths, top_level=True))
    lines.append("Import cycles at import time: " + ("none." if not loops else "; ".join(
        " -> ".join(c) for c in loops)) + " (imports inside functions, used for backward-"
        "compatible re-exports, are listed in the table but run only when called.)")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list layer violations")
    parser.add_argument("--write", action="store_true",
                        help="replace the generated section of ARCHITECTURE.md")
    args = parser.parse_args(argv)
    if args.write:
        doc = ROOT / "ARCHITECTURE.md"
        text = doc.read_text()
        start, end = "<!-- module-report:start -->", "<!-- module-report:end -->"
        head, rest = text.split(start)
        _, tail = rest.split(end)
        doc.write_text(f"{head}{start}\n{report()}\n{end}{tail}")
        print(f"wrote {doc.relative_to(ROOT)}")
        return 0
    if args.check:
        bad = [v for p in modules() for v in violations(p.read_text(), module_name(p),
                                                        is_package=p.name == "__init__.py")]
        print("\n".join(bad) or "no layer violations")
        return 1 if bad else 0
    print(report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
