"""Module list, line counts, layers and the import graph of genviz, read with ``ast``.

Run from the repository root::

    python scripts/module_report.py            # Markdown: the table ARCHITECTURE.md carries
    python scripts/module_report.py --check    # exit 1 and list every layer violation
    python scripts/module_report.py --write    # replace the table in ARCHITECTURE.md

The same import reader and layer rules are used by ``tests/test_project.py`` (the layer test),
so the report and the test cannot disagree.

Layers (data flow one way: data -> model -> view -> widget -> notebook):

- model: ``genviz``, ``genviz.<name>``, ``genviz._<name>`` (computation and data). May import
  the standard library (not its UI modules: tkinter, turtle, ...), numpy and scipy -- nothing
  else from outside genviz -- and no genviz.studies, genviz.plots, genviz.widgets,
  genviz.exercises.
- study: ``genviz.studies.*`` (what each figure shows, computed: parameters in, a typed result
  out). The top of the model layer: the same rules as models, and it may import them.
- exercises: ``genviz.exercises.*`` (self-checking questions whose answers the model layer
  computes; feedback is text/HTML). A sibling of the views, above the models and studies: the
  same rules as studies except that importing genviz.exercises is allowed.
- view: ``genviz.plots.*`` (painters and the view infrastructure). From genviz only
  ``genviz.plots``, ``genviz.studies`` (the results it paints) and ``genviz._moved``
  (deprecated aliases): no model module. Outside genviz numpy, matplotlib (and its
  ``mpl_toolkits``) and ``IPython.display``: no scipy, ipywidgets, pylab or another plotting
  library. What a painter may do with what it imports is checked by
  ``tests/test_views_only_draw.py``.
- widget: ``genviz.widgets.*`` (ipywidgets). May import everything below it, plus ipywidgets,
  ipympl, traitlets and PIL.

Outside genviz each layer has an allow list (``ALLOWED``), so a plotting or UI library nobody
thought of (seaborn, plotly, bokeh, pylab, ipympl, ...) is refused too. Imports are read
wherever they are (module level, inside functions and ``if`` blocks), and so are dynamic
imports named by a string literal (``importlib.import_module("matplotlib")``, ``__import__``,
``importlib.util.find_spec``, ``pkgutil.resolve_name``), and a file beside the module loaded
by path (``spec_from_file_location``, :data:`FILE_IMPORTERS`). The same graph
(:func:`source_graph`) checks the floors of the wings outside genviz (tests/test_wings.py). No layer of genviz imports scikit-learn
(a test oracle only).
"""

from __future__ import annotations

import argparse
import ast
import collections
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "genviz"

__all__ = ["LAYERS", "FORBIDDEN", "GENVIZ_ALLOWED", "ALLOWED", "UI_STDLIB", "DYNAMIC_IMPORTERS", "module_name",
           "layer_of", "imports_of", "function_level_imports", "violations", "modules", "sources",
           "source_graph", "graph", "cycles", "FILE_IMPORTERS", "report", "documented_report", "TABLE_START", "TABLE_END"]

#: the layers, bottom first
LAYERS = ("model", "study", "exercises", "view", "widget")

#: layer -> genviz module prefixes it must not import (a prefix matches itself and submodules)
FORBIDDEN = {
    "model": ("genviz.studies", "genviz.plots", "genviz.widgets", "genviz.exercises"),
    "study": ("genviz.plots", "genviz.widgets", "genviz.exercises"),
    "exercises": ("genviz.plots", "genviz.widgets"),
    "view": ("genviz.widgets", "genviz.exercises"),
    "widget": (),
}

#: layer -> the only genviz module prefixes it may import (layers not listed: all but FORBIDDEN)
GENVIZ_ALLOWED = {
    "view": ("genviz.plots", "genviz.studies", "genviz._moved"),
}

#: the standard library's user-interface modules: no layer below the widgets may use them
UI_STDLIB = ("tkinter", "turtle", "turtledemo", "idlelib", "curses")

_COMPUTE = ("numpy", "scipy")
#: layer -> module prefixes outside genviz and the standard library it may import (nothing else)
ALLOWED = {
    "model": _COMPUTE,
    "study": _COMPUTE,
    "exercises": _COMPUTE,
    "view": ("numpy", "matplotlib", "mpl_toolkits", "IPython.display"),
    "widget": _COMPUTE + ("matplotlib", "mpl_toolkits", "IPython", "ipywidgets", "ipympl",
                          "traitlets", "PIL", "anywidget",
                          # the lecture page's QR code on the lecturer's panel (optional: the
                          # hub extra; genviz.widgets._lecture_link works without it)
                          "segno"),
}

#: callables that import the module named by their first argument (matched by their last name:
#: ``importlib.import_module``, ``import_module``, ``__import__``, ``importlib.util.find_spec``)
DYNAMIC_IMPORTERS = ("import_module", "__import__", "find_spec", "resolve_name", "run_module")

#: callables that load a module from a file (``importlib.util.spec_from_file_location(name,
#: location)``): when the location's only string literal is a bare file name ``"x.py"`` (as in
#: ``os.path.join(os.path.dirname(__file__), "x.py")``), the module ``x`` beside the caller is
#: imported; any other location is ``<computed>``
FILE_IMPORTERS = ("spec_from_file_location",)


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
    return {"plots": "view", "widgets": "widget", "exercises": "exercises",
            "studies": "study"}.get(sub, "model")


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
    >>> imports_of("spec_from_file_location('m', os.path.join(HERE, 'lecture.py'))", "poll")
    [(1, 'lecture')]
    """
    out = []
    tree = ast.parse(source)
    for node in (_top_level_nodes(tree) if top_level else ast.walk(tree)):
        out.extend(_imported(node, module, is_package))
    return sorted(out)


def _call_name(func) -> str:
    """``importlib.util.find_spec`` -> ``find_spec``; ``__import__`` -> ``__import__``."""
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _imported(node, module: str, is_package: bool) -> list:
    """(lineno, module) for what one node imports: ``import``, ``from ... import`` and a call of a
    :data:`DYNAMIC_IMPORTERS` function (its first argument; ``<computed>`` unless a literal)."""
    if isinstance(node, ast.Import):
        return [(node.lineno, a.name) for a in node.names]
    if isinstance(node, ast.ImportFrom):
        base = _resolve(node, module, is_package)
        return [(node.lineno, base if a.name == "*" else f"{base}.{a.name}") for a in node.names]
    if isinstance(node, ast.Call) and _call_name(node.func) in DYNAMIC_IMPORTERS:
        arg = node.args[0] if node.args else next(
            (k.value for k in node.keywords if k.arg in ("name", "mod_name")), None)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            name = arg.value.replace(":", ".")  # pkgutil.resolve_name("pkg.mod:attr")
            if name.startswith("."):  # import_module(".x", package=__package__): relative
                level = len(name) - len(name.lstrip("."))
                fake = ast.ImportFrom(module=name.lstrip(".") or None, names=[], level=level)
                name = _resolve(fake, module, is_package)
            return [(node.lineno, name)]
        return [(node.lineno, "<computed>")]
    if isinstance(node, ast.Call) and _call_name(node.func) in FILE_IMPORTERS:
        return [(node.lineno, _file_module(node, module, is_package))]
    return []


def _file_module(call: ast.Call, module: str, is_package: bool) -> str:
    """The module a :data:`FILE_IMPORTERS` call loads: ``x`` for a bare ``"x.py"`` beside the
    caller (its package's ``x``; a top-level module's sibling is top-level), else
    ``<computed>``."""
    location = call.args[1] if len(call.args) > 1 else next(
        (k.value for k in call.keywords if k.arg == "location"), None)
    texts = [n.value for n in ast.walk(location) if isinstance(n, ast.Constant)
             and isinstance(n.value, str)] if location is not None else []
    if len(texts) != 1 or not texts[0].endswith(".py") or "/" in texts[0] or "\\" in texts[0]:
        return "<computed>"
    package = module.split(".") if is_package else module.split(".")[:-1]
    return ".".join(package + [texts[0][:-3]])


def function_level_imports(source: str, module: str, *, is_package: bool = False) -> list:
    """The imports that run only when a function is called: ``(function, imported module)``
    for each import statement or dynamic import inside a ``def`` (nested ones included, named
    ``outer.inner``), sorted. The imported name is as :func:`imports_of` gives it.

    Examples
    --------
    >>> function_level_imports("def f():\\n    from scipy.optimize import brentq", "genviz.kde")
    [('f', 'scipy.optimize.brentq')]
    >>> function_level_imports("import numpy\\nclass A:\\n    def g(self):\\n"
    ...                        "        __import__('json')", "genviz.x")
    [('A.g', 'json')]
    """
    out = []

    def walk(node, owner: str, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                walk(child, f"{owner}.{child.name}" if owner else child.name,
                     in_function or not isinstance(child, ast.ClassDef))
                continue
            if in_function:
                out.extend((owner, imp) for _, imp in _imported(child, module, is_package))
            walk(child, owner, in_function)

    walk(ast.parse(source), "", False)
    return sorted(set(out))


def _matches(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _refused(name: str, layer: str) -> str | None:
    """Why ``layer`` may not import ``name`` (None when it may)."""
    top = name.split(".")[0]
    if top == "genviz":
        bad = [p for p in FORBIDDEN[layer] if _matches(name, p)]
        if bad:
            return f"imports {name}"
        only = GENVIZ_ALLOWED.get(layer)
        if only is not None and not any(_matches(name, p) for p in only):
            return (f"imports {name} (from genviz the {layer} layer may import only "
                    f"{', '.join(only)})")
        return None
    if name == "<computed>" or top == "__future__":
        return None  # a computed name cannot be judged here: function_level_imports lists it
    if top in sys.stdlib_module_names:
        return f"imports {name} (a user-interface module)" if top in UI_STDLIB else None
    if any(_matches(name, p) or name.startswith(p + ".") for p in ALLOWED[layer]):
        return None
    return (f"imports {name} (outside genviz the {layer} layer may import only the standard "
            f"library and {', '.join(ALLOWED[layer])})")


def violations(source: str, module: str, *, is_package: bool = False) -> list:
    """The imports of ``source`` (module ``module``) its layer forbids, as readable strings.

    Examples
    --------
    >>> violations("from genviz.widgets._base import Explorer", "genviz.plots.knn")
    ['genviz.plots.knn (view) line 1 imports genviz.widgets._base.Explorer']
    >>> violations("import importlib\\nimportlib.import_module('seaborn')", "genviz.kde")
    ['genviz.kde (model) line 2 imports seaborn (outside genviz the model layer may import only the standard library and numpy, scipy)']
    >>> violations("from genviz.studies.gaussian import GaussianResult", "genviz.plots.gaussian")
    []
    >>> violations("from genviz.gaussian import mvn_pdf", "genviz.plots.gaussian")  # doctest: +ELLIPSIS
    ['genviz.plots.gaussian (view) line 1 imports genviz.gaussian.mvn_pdf (from genviz the view layer may import only ...)']
    """
    layer = layer_of(module)
    out = []
    for line, name in imports_of(source, module, is_package=is_package):
        why = _refused(name, layer)
        if why:
            out.append(f"{module} ({layer}) line {line} {why}")
    return out


def modules(package: pathlib.Path = PACKAGE) -> list:
    """Every ``.py`` file of the package, sorted by module name."""
    package = pathlib.Path(package).resolve()
    return sorted(package.rglob("*.py"), key=lambda p: module_name(p, package.parent))


def sources(paths, root: pathlib.Path = ROOT) -> dict:
    """module -> (source text, is it a package's ``__init__``), for each of ``paths``, named
    from ``root`` (see :func:`module_name`): what :func:`source_graph` reads."""
    return {module_name(p, root): (pathlib.Path(p).read_text(encoding="utf-8"),
                                   pathlib.Path(p).name == "__init__.py") for p in paths}


def source_graph(texts: dict, *, top_level: bool = False) -> dict:
    """module -> sorted list of the modules of ``texts`` it imports (``texts``: module ->
    (source, is_package), as :func:`sources` gives). An import counts for the longest module of
    ``texts`` that prefixes it (``from course.build import notebook`` -> ``course.build``);
    imports of anything else are left out, so any folder's modules make a graph: genviz's, a
    wing's, or scripts loaded by path under top-level names. Imports inside functions count
    unless ``top_level`` (see :func:`imports_of`).

    Examples
    --------
    >>> source_graph({"a": ("import json\\ndef f():\\n    import b.c", False),
    ...               "b": ("from .c import x", True), "b.c": ("import a.x, numpy", False)})
    {'a': ['b.c'], 'b': ['b.c'], 'b.c': ['a']}
    >>> source_graph({"a": ("def f():\\n    import b", False), "b": ("", False)}, top_level=True)
    {'a': [], 'b': []}
    """
    out = {}
    for name, (source, is_package) in texts.items():
        targets = set()
        for _, imp in imports_of(source, name, is_package=is_package, top_level=top_level):
            # the longest module of ``texts`` that prefixes the imported name
            while imp and imp not in texts:
                imp = imp.rpartition(".")[0]
            if imp and imp != name:
                targets.add(imp)
        out[name] = sorted(targets)
    return out


def graph(paths=None, *, top_level: bool = False, root: pathlib.Path = ROOT) -> dict:
    """module -> sorted list of the genviz modules it imports (see :func:`source_graph`);
    ``root`` is the directory holding the ``genviz`` package the paths are in."""
    paths = modules() if paths is None else paths
    return source_graph(sources(paths, root), top_level=top_level)


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
    layer, the layer violations and the import cycles (none of either, when the tests pass)."""
    package = pathlib.Path(package).resolve()
    root = package.parent
    paths = modules(package)
    deps_of = graph(paths, root=root)
    short = lambda m: m.removeprefix("genviz.") if m != "genviz" else m  # noqa: E731
    lines = ["| module | layer | lines | imports (genviz) |", "|---|---|---:|---|"]
    per_layer = collections.Counter()
    for path in paths:
        name = module_name(path, root)
        n = len(path.read_text().splitlines())
        per_layer[layer_of(name)] += n
        deps = ", ".join(short(d) for d in deps_of[name]) or "—"
        lines.append(f"| `{name}` | {layer_of(name)} | {n} | {deps} |")
    lines.append("")
    lines.append("Lines per layer: " + ", ".join(f"{layer} {per_layer[layer]}"
                                                 for layer in LAYERS)
                 + f"; total {sum(per_layer.values())} in {len(paths)} modules.")
    lines.append("")
    lines.append("Layer violations: " + _listing(_all_violations(paths, root)))
    lines.append("Import cycles: " + _listing(_all_cycles(paths, root)) + " (module-level "
                 "imports, and every import including those inside functions.)")
    return "\n".join(lines)


def _listing(items: list) -> str:
    return "none." if not items else "\n- " + "\n- ".join(items)


def _all_violations(paths, root) -> list:
    return [v for p in paths for v in violations(p.read_text(), module_name(p, root),
                                                 is_package=p.name == "__init__.py")]


def _all_cycles(paths, root) -> list:
    found = []
    for top_level in (True, False):
        for c in cycles(graph(paths, top_level=top_level, root=root)):
            text = " -> ".join(c)
            if text not in found:
                found.append(text)
    return found


TABLE_START, TABLE_END = "<!-- module-report:start -->", "<!-- module-report:end -->"


def documented_report(doc: pathlib.Path = ROOT / "ARCHITECTURE.md") -> str:
    """The generated section ARCHITECTURE.md carries now (between its two markers)."""
    return doc.read_text().split(TABLE_START)[1].split(TABLE_END)[0].strip("\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="list layer violations, import cycles and whether the table in "
                             "ARCHITECTURE.md is stale; exit 1 if there is any")
    parser.add_argument("--write", action="store_true",
                        help="replace the generated section of ARCHITECTURE.md")
    args = parser.parse_args(argv)
    if args.write:
        doc = ROOT / "ARCHITECTURE.md"
        head, rest = doc.read_text().split(TABLE_START)
        _, tail = rest.split(TABLE_END)
        doc.write_text(f"{head}{TABLE_START}\n{report()}\n{TABLE_END}{tail}")
        print(f"wrote {doc.relative_to(ROOT)}")
        return 0
    if args.check:
        paths = modules()
        bad = _all_violations(paths, ROOT)
        loops = _all_cycles(paths, ROOT)
        stale = documented_report() != report()
        print("\n".join(bad) or "no layer violations")
        print("import cycles: " + ("; ".join(loops) or "none"))
        if stale:
            print("the module table in ARCHITECTURE.md is stale: run "
                  "`python scripts/module_report.py --write`")
        return 1 if bad or loops or stale else 0
    print(report())
    return 0


if __name__ == "__main__":
    sys.exit(main())
