"""No figure twice in a row (#37 item 6): a still image of a view, then (with nothing drawn in
between: only prose, a prediction box, data loading) an explorer showing the same view in the
same state, is the same picture twice. The explorer's own fallback image already stands in for
it wherever no widget runs (GitHub, nbviewer, the website without JavaScript).

Read from the notebooks' sources (no kernel, no browser). A cell *shows a still image* when it
calls ``show(EXPR)``; it *shows an explorer* when its value (its last line, or a name bound to
it) is a call of a genviz ``*_explorer`` factory. A still image followed by an explorer is the
same figure in the same state when

- the image is ``SomeView(...)`` or ``SomeView(...).fig`` (directly or through a name) and
  ``SomeView`` is the view class the explorer builds (``view = SomeView(...)`` in its source);
- every argument of the view that the explorer passes on from one of its own parameters (the
  data and the controls' starting values) has the same value in both calls (as written, after
  defaults; literals compared by value). What the explorer fixes (a slider's minimum, a style
  flag) does not make a different state.

A still image in another state is fine when the prose says which (09's Figure 1.18 at noise
0.1 above the explorer at clean labels).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@dataclass
class Shown:
    cell: int          # index of the cell in the notebook
    kind: str          # "still" or "explorer"
    call: ast.Call | None  # the call that built it (the view's or the explorer factory's)
    target: object     # the class or function called, resolved (None if unknown)
    source: str        # the cell's text, for messages


def _parse(source: str) -> ast.Module | None:
    lines = ["pass" if line.lstrip().startswith(("%", "!")) else line
             for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _imports(tree: ast.Module, names: dict) -> None:
    """Bind ``from genviz... import a as b`` names to the objects (resolved lazily here)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("genviz"):
            module = importlib.import_module(node.module)
            for alias in node.names:
                obj = getattr(module, alias.name, None)
                if obj is None:  # a submodule imported by name
                    obj = importlib.import_module(f"{node.module}.{alias.name}")
                names[alias.asname or alias.name] = obj
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("genviz"):
                    names[alias.asname or alias.name] = importlib.import_module(alias.name)


def _resolve_func(func: ast.expr, names: dict):
    if isinstance(func, ast.Name):
        return names.get(func.id)
    if isinstance(func, ast.Attribute):
        base = _resolve_func(func.value, names)
        return getattr(base, func.attr, None) if base is not None else None
    return None


def _figure_call(expr: ast.expr, bound: dict) -> ast.Call | None:
    """``X(...)`` from ``X(...)``, ``X(...).fig`` or a name bound to either."""
    if isinstance(expr, ast.Name) and expr.id in bound:
        expr = bound[expr.id]
    if isinstance(expr, ast.Attribute) and expr.attr == "fig":
        return _figure_call(expr.value, bound)
    return expr if isinstance(expr, ast.Call) else None


def _is_explorer_factory(obj) -> bool:
    return bool(getattr(obj, "_genviz_explorer_factory", False))


def shown_figures(path: Path) -> list[Shown]:
    """Every still image and explorer the notebook shows, in order."""
    cells = json.loads(path.read_text())["cells"]
    names: dict = {}
    bound: dict = {}  # variable -> the expression last assigned to it
    out: list[Shown] = []
    for i, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        tree = _parse(source)
        if tree is None:
            continue
        _imports(tree, names)
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name):
                bound[stmt.targets[0].id] = stmt.value
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "show" \
                    and stmt.value.args:
                call = _figure_call(stmt.value.args[0], bound)
                target = _resolve_func(call.func, names) if call is not None else None
                out.append(Shown(i, "still", call, target, source))
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            value = last.value
            if isinstance(value, ast.Name) and value.id in bound:
                value = bound[value.id]
            if isinstance(value, ast.Call):
                target = _resolve_func(value.func, names)
                if _is_explorer_factory(target):
                    out.append(Shown(i, "explorer", value, target, source))
    return out


def _bind(fn, call: ast.Call) -> dict:
    """Parameter name -> value as written in ``call`` (defaults filled in): a Python value for
    a literal, else the expression's text."""
    sig = inspect.signature(fn)
    args = [_value(a) for a in call.args]
    kwargs = {k.arg: _value(k.value) for k in call.keywords if k.arg is not None}
    try:
        ba = sig.bind_partial(*args, **kwargs)
    except TypeError:
        return {}
    ba.apply_defaults()
    return dict(ba.arguments)


def _value(node: ast.expr):
    try:
        return ("literal", ast.literal_eval(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ("expr", ast.unparse(node))


def _wrap(v):
    return v if isinstance(v, tuple) and len(v) == 2 and v[0] in ("literal", "expr") \
        else ("literal", v)


def _explorer_view(factory):
    """(view class, {view parameter: explorer parameter}) from the explorer's source: the call
    assigned to ``view``; only the view's arguments that are the explorer's own parameters."""
    fn = inspect.unwrap(factory)
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    params = set(inspect.signature(fn).parameters)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and any(
                isinstance(t, ast.Name) and t.id == "view" for t in node.targets):
            cls = _resolve_func(node.value.func, vars(inspect.getmodule(fn)))
            if not inspect.isclass(cls):
                continue
            sig = inspect.signature(cls)
            try:
                ba = sig.bind_partial(*node.value.args,
                                      **{k.arg: k.value for k in node.value.keywords if k.arg})
            except TypeError:
                continue
            passed = {name: arg.id for name, arg in ba.arguments.items()
                      if isinstance(arg, ast.Name) and arg.id in params}
            return cls, passed
    return None, {}


def same_state(still: Shown, explorer: Shown) -> bool:
    """Whether the still image is the explorer's view in the explorer's starting state."""
    cls, passed = _explorer_view(explorer.target)
    if cls is None or not inspect.isclass(still.target) or not issubclass(still.target, cls):
        return False
    view_args = _bind(cls, still.call)
    explorer_args = _bind(inspect.unwrap(explorer.target), explorer.call)
    if not passed or not view_args or not explorer_args:
        return False
    return all(_wrap(view_args.get(v)) == _wrap(explorer_args.get(e)) for v, e in passed.items())


def figures_twice(path: Path) -> list[str]:
    """Each still image immediately followed (no other figure between) by an explorer showing
    the same view in the same state."""
    shown = shown_figures(path)
    found = []
    for before, after in zip(shown, shown[1:]):
        if before.kind == "still" and after.kind == "explorer" and same_state(before, after):
            found.append(f"{path.name}: cell {before.cell} shows "
                         f"{ast.unparse(before.call)} and cell {after.cell} the explorer "
                         f"{ast.unparse(after.call)} in the same state")
    return found


# -- the notebooks -----------------------------------------------------------------------------

@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem[:2])
def test_no_figure_twice_in_a_row(path):
    assert figures_twice(path) == []


def test_every_notebook_is_read():
    """The reader sees every explorer the notebooks show (a reader that finds none would pass
    the test above on anything)."""
    counts = {p.stem[:2]: sum(s.kind == "explorer" for s in shown_figures(p)) for p in NOTEBOOKS}
    stills = {p.stem[:2]: sum(s.kind == "still" for s in shown_figures(p)) for p in NOTEBOOKS}
    assert len(counts) >= 10 and sum(counts.values()) >= 15, counts
    assert counts["05"] >= 4 and counts["09"] >= 3 and counts["08"] >= 3, counts
    assert stills["02"] >= 5 and stills["05"] >= 5, stills


# -- the checker against planted cases ---------------------------------------------------------

def _planted(tmp_path, notebook: str, before_cell_containing: str, new_source: str) -> Path:
    nb = json.loads((ROOT / "notebooks" / notebook).read_text())
    at = next(i for i, c in enumerate(nb["cells"])
              if before_cell_containing in "".join(c["source"]))
    nb["cells"].insert(at, {"cell_type": "code", "execution_count": None, "id": "planted0",
                            "metadata": {}, "outputs": [], "source": new_source})
    out = tmp_path / notebook
    out.write_text(json.dumps(nb))
    return out


@pytest.mark.parametrize("notebook, before, still, view", [
    # 05 before the fix: the histogram's still image right above its explorer
    ("05_density_estimation.ipynb", "hist_explorer = histogram_explorer",
     "from genviz.plots.kde import HistogramView\n"
     "show(HistogramView(x[:200], 0.3, 0.0, true_pdf=claw_pdf, x_range=(-3, 3)).fig)",
     "HistogramView"),
    # 09 before the fix: the projection's still image, then prose and a prediction box, then
    # the explorer (keyword and positional arguments, the explorer's default seed, a name)
    ("09_nearest_neighbors.ipynb", "p_spread = exercises",
     "from genviz.plots.knn import ProjectionView\n"
     "view = ProjectionView(X_digits[:300], d=16, eps=0.3)\nshow(view.fig)", "ProjectionView"),
], ids=["05-histogram", "09-projection"])
def test_a_planted_still_image_is_found(tmp_path, notebook, before, still, view):
    found = figures_twice(_planted(tmp_path, notebook, before, still))
    assert len(found) == 1 and view in found[0], found


def test_a_still_image_in_another_state_is_not_flagged(tmp_path):
    """The same view at another starting value (d = 8 against the explorer's 16), or with
    another figure drawn in between, is not the same picture twice."""
    other = _planted(tmp_path, "09_nearest_neighbors.ipynb", "p_spread = exercises",
                     "from genviz.plots.knn import ProjectionView\n"
                     "show(ProjectionView(X_digits[:300], d=8, eps=0.3).fig)")
    assert figures_twice(other) == []
    nb = json.loads(other.read_text())
    at = next(i for i, c in enumerate(nb["cells"]) if "p_spread = exercises" in "".join(c["source"]))
    nb["cells"][at - 1]["source"] = ("show(ProjectionView(X_digits[:300], d=16, eps=0.3).fig)\n"
                                     "show(kernels_figure())")
    other.write_text(json.dumps(nb))
    assert figures_twice(other) == []


def test_same_state_agrees_with_the_views_numbers():
    """Oracle for "same state": where the reader says same, the explorer's view shows the same
    numbers as the still image's view (built here on small data); where it says different,
    they differ."""
    import numpy as np

    from genviz.plots.knn import ProjectionView
    from genviz.widgets.knn import projection_explorer

    X = np.random.default_rng(0).normal(size=(40, 12))
    still = ProjectionView(X, d=6, eps=0.3)
    live = projection_explorer(X, d=6, eps=0.3)
    other = projection_explorer(X, d=3, eps=0.3)
    try:
        assert still.state["d"] == live.view.state["d"]
        assert still.state["stats"] == live.view.state["stats"]
        assert other.view.state["stats"] != still.state["stats"]
    finally:
        live.close()
        other.close()
    tree = ast.parse("ProjectionView(X, d=6, eps=0.3)\nprojection_explorer(X, d=6, eps=0.3)\n"
                     "projection_explorer(X, d=3, eps=0.3)")
    calls = [s.value for s in tree.body]
    s = Shown(0, "still", calls[0], ProjectionView, "")
    assert same_state(s, Shown(1, "explorer", calls[1], projection_explorer, ""))
    assert not same_state(s, Shown(1, "explorer", calls[2], projection_explorer, ""))
