"""Views only draw, by construction (ARCHITECTURE.md, "Layers" and "Studies and painters").

Every figure is a *study* (model layer, :mod:`genviz.studies`: parameters in, a typed result
out) and a *painter* (a module of ``genviz/plots``: result in, artists out). This test reads
every painter module with ``ast`` (so it sees code no test runs) and holds it to rules that
leave a painter no way to compute:

1. **Imports.** Only ``from __future__``, ``import numpy as np`` (that spelling, nothing else
   of numpy), matplotlib and ``mpl_toolkits`` (not ``matplotlib.mlab``), the view
   infrastructure (``genviz.plots._base``, ``genviz.plots.style``), other painter modules, and
   from ``genviz.studies.*``: result types, constants of plain data, and the studies
   themselves, which a painter may only *name*: a view's study as ``class V(View, study=S)``,
   a static figure's study in a **binding** ``def f(...): return _paint(s(...), ...)`` whose
   arguments are names or literals; plus ``genviz._moved.moved_names`` for deprecated
   aliases. No scipy, no model module, no ``math``, ``operator``, ``functools``,
   ``importlib`` ...; every import at module level.
2. **numpy**: only ``np.<name>`` with a name on an allow list of array construction and
   reshaping (``zeros``, ``full``, ``arange``, ``column_stack`` ...); ``np`` used any other
   way (``rnd = np``, ``np.random``) is refused, so no alias gets round the list.
3. **Arithmetic and comparisons**: no ``@``, no ``~``, no binary operation, augmented
   assignment or comparison between two operands of which neither is a literal (``2 * h``,
   ``k == 0`` and ``"alpha" in changed`` pass; ``a * b``, ``x < y`` do not).
4. **Calls**: no ``sum``/``min``/``max``/``abs``/``sorted``/``getattr``/``eval`` ..., no method
   that reduces or computes (``.mean()``, ``.argmax()``, ``.clip()``, ``.fit()``,
   ``.predict()``, ``.sample()``, ``.pdf()``, matplotlib's ``hist``/``boxplot``/``psd`` ...),
   no reference to a view's study (``.study``, ``._study``).
5. **Views**: every ``View`` subclass names its study and defines ``paint``, never ``update``
   (the one parameter merge is the base class's).

The same arithmetic, comparison and call rules hold for the readout functions of
``genviz/widgets`` (``*readout`` and the private helpers they call): they only format; and at
run time every view's ``state`` and every static figure's result is a
:class:`~genviz.studies.Result` holding plain data only -- no estimator a painter could ask.

Each kind of computation the project's issue #32 found slipping through the old name list is
planted in a copy of a painter module and must fail the check (``PLANTED``), and so must the
views as they were before studies (git history).
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
import numbers
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from explorer_testing import control_values, explorer_cases, make_explorer
from genviz.studies import Result, Study

ROOT = pathlib.Path(__file__).resolve().parents[1]
PLOTS = ROOT / "genviz" / "plots"
#: the view infrastructure: no model, no figure of its own; painters build on it
INFRASTRUCTURE = {"__init__.py", "_base.py", "_frames.py", "_ops.py", "_record.py", "style.py",
                  "_modes.py", "panels.py"}
PAINTERS = sorted(p for p in PLOTS.glob("*.py") if p.name not in INFRASTRUCTURE)
WIDGETS = sorted((ROOT / "genviz" / "widgets").glob("*.py"))

#: numpy names a painter may use: building and reshaping arrays, nothing that computes
NUMPY_ALLOWED = {"array", "asarray", "zeros", "zeros_like", "ones", "ones_like", "full",
                 "full_like", "empty", "arange", "atleast_1d", "atleast_2d", "column_stack",
                 "stack", "concatenate", "broadcast_to", "reshape", "ravel", "nan", "newaxis",
                 "ndarray"}
#: builtins that compute (``round`` formats and is allowed)
BUILTINS_DENIED = {"sum", "min", "max", "abs", "pow", "divmod", "sorted", "any", "all", "map",
                   "filter", "eval", "exec", "compile", "getattr", "setattr", "delattr", "vars",
                   "globals", "locals", "__import__", "open", "hash", "complex", "breakpoint"}
#: method names that reduce, compute or reach a model, called on anything
METHODS_DENIED = {
    # reductions and arithmetic of arrays
    "sum", "mean", "average", "median", "std", "var", "max", "min", "prod", "cumsum", "cumprod",
    "argmax", "argmin", "argsort", "sort", "dot", "clip", "round", "trace", "ptp", "all", "any",
    "nonzero", "searchsorted", "percentile", "quantile", "diff", "cross", "outer", "einsum",
    "interp", "integrate", "trapezoid",
    # models and studies
    "fit", "fit_transform", "fit_predict", "partial_fit", "predict", "predict_proba",
    "predict_log_proba", "predict_joint_log_proba", "decision_function", "score", "transform",
    "sample", "rvs", "pdf", "logpdf", "cdf", "ppf", "evaluate", "kneighbors", "logistic_params",
    "log_odds", "linear_form", "explain", "class_densities", "top_features", "sweeps", "at",
    # matplotlib's plotting functions that compute what they draw
    "hist", "hist2d", "hexbin", "boxplot", "violinplot", "psd", "csd", "cohere", "specgram",
    "magnitude_spectrum", "angle_spectrum", "phase_spectrum", "xcorr", "acorr", "ecdf",
    "stackplot", "pie"}
#: attributes a painter may not read: the view's study (the base class asks it)
ATTRIBUTES_DENIED = {"study", "_study", "_study_type", "__dict__", "__globals__"}


# -- what a name imported from genviz.studies is -------------------------------------------------
def _plain_constant(value) -> bool:
    if isinstance(value, (str, bytes, bool, numbers.Number)) or value is None:
        return True
    if isinstance(value, (tuple, list, frozenset)):
        return all(_plain_constant(v) for v in value)
    if isinstance(value, dict):
        return all(_plain_constant(k) and _plain_constant(v) for k, v in value.items())
    return False


@functools.lru_cache(maxsize=None)
def study_name_kind(module: str, name: str) -> str:
    """``result``, ``study``, ``function``, ``constant`` or ``other`` for ``module.name``."""
    obj = getattr(importlib.import_module(module), name, None)
    if inspect.isclass(obj) and issubclass(obj, Result):
        return "result"
    if inspect.isclass(obj) and issubclass(obj, Study):
        return "study"
    if inspect.isfunction(obj):
        return "function"
    if _plain_constant(obj):
        return "constant"
    return "other"


# -- the checker ----------------------------------------------------------------------------------
def _literal(node) -> bool:
    """A literal operand: a constant, an f-string, a sign on one, or a display or conditional
    made of literals."""
    if isinstance(node, (ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _literal(node.operand)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.IfExp):
        return _literal(node.body) and _literal(node.orelse)
    return False


def _binding_calls(tree, study_functions) -> set:
    """The ``ast.Call`` nodes of study functions that sit in a binding's one return."""
    ok = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        body = node.body[1:] if ast.get_docstring(node) is not None else node.body
        if len(body) != 1 or not isinstance(body[0], ast.Return):
            continue
        outer = body[0].value
        if not (isinstance(outer, ast.Call) and isinstance(outer.func, ast.Name)
                and outer.args and isinstance(outer.args[0], ast.Call)):
            continue
        inner = outer.args[0]
        simple = all(isinstance(a, (ast.Name, ast.Constant))
                     for a in [*inner.args, *(k.value for k in inner.keywords),
                               *outer.args[1:], *(k.value for k in outer.keywords)])
        if (simple and isinstance(inner.func, ast.Name) and inner.func.id in study_functions
                and all(k.arg is not None for k in [*inner.keywords, *outer.keywords])):
            ok.add(id(inner))
    return ok


def _imports(tree, where, found, kinds):
    """Rule 1. Returns the names bound to study classes and study functions, and whether
    ``moved_names`` was imported."""
    studies, functions = set(), set()
    top_level = set(map(id, tree.body))
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        at = where(node)
        if id(node) not in top_level:
            found.append(f"{at} imports inside a function or block")
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "numpy" and a.asname == "np":
                    continue
                if a.name == "matplotlib" or (a.name.startswith(("matplotlib.", "mpl_toolkits."))
                                              and not a.name.startswith("matplotlib.mlab")):
                    continue
                found.append(f"{at} imports {a.name}"
                             + (f" as {a.asname}" if a.asname else "") + " (not a painter's)")
            continue
        mod = node.module or ""
        if node.level or mod == "__future__":
            if node.level:
                found.append(f"{at} relative import")
            continue
        if mod == "matplotlib" and all(a.name != "mlab" for a in node.names):
            continue
        if mod.startswith(("matplotlib.", "mpl_toolkits")) and not mod.startswith("matplotlib.mlab"):
            continue
        if mod in ("genviz.plots._base", "genviz.plots.style", "genviz.plots._modes",
                   "genviz.plots.panels") or (
                mod.startswith("genviz.plots.") and f"{mod.rsplit('.', 1)[1]}.py" not in
                INFRASTRUCTURE):
            continue
        if mod == "genviz._moved" and [a.name for a in node.names] == ["moved_names"]:
            continue
        if mod.startswith("genviz.studies"):
            for a in node.names:
                kind = "other" if a.name == "*" else kinds(mod, a.name)
                bound = a.asname or a.name
                if kind == "study":
                    studies.add(bound)
                elif kind == "function":
                    functions.add(bound)
                elif kind not in ("result", "constant"):
                    found.append(f"{at} imports {mod}.{a.name}, neither a result type, a study "
                                 f"nor a constant")
            continue
        found.append(f"{at} imports from {mod} (not a painter's: a model, scipy, or a library "
                     f"that computes)")
    return studies, functions


def _study_uses(tree, where, found, studies, functions):
    """Rules 1 and 5: a study is only named as a view's ``study=``, a study function only
    called in a binding; View subclasses paint and never update."""
    allowed = _binding_calls(tree, functions)
    declared = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for k in node.keywords:
                if k.arg == "study" and isinstance(k.value, ast.Name):
                    declared.add(id(k.value))
            if any(isinstance(b, ast.Name) and b.id == "View" for b in node.bases):
                names = {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
                if not any(k.arg == "study" for k in node.keywords):
                    found.append(f"{where(node)} View {node.name} names no study "
                                 f"(class {node.name}(View, study=...))")
                if "update" in names:
                    found.append(f"{where(node)} View {node.name} defines update (the base "
                                 f"class's update merges, asks the study and paints)")
                if "paint" not in names:
                    found.append(f"{where(node)} View {node.name} defines no paint")
    calls_ok = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and id(n) in allowed}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in studies and id(node) not in declared:
            found.append(f"{where(node)} uses the study {node.id} (a painter only names it as "
                         f"its view's study=)")
        if isinstance(node, ast.Name) and node.id in functions and id(node) not in calls_ok:
            found.append(f"{where(node)} uses the study {node.id} outside a binding "
                         f"(def f(...): return _paint({node.id}(...)))")


def painter_violations(source: str, filename: str = "<string>", kinds=study_name_kind) -> list:
    """Every place in a painter module's ``source`` that computes or could (``file:line what``)."""
    tree = ast.parse(source, filename)
    found = []

    def where(node):
        return f"{filename}:{getattr(node, 'lineno', '?')}"

    studies, functions = _imports(tree, where, found, kinds)
    _study_uses(tree, where, found, studies, functions)
    found += code_violations(tree, where, names_of_numpy={"np"})
    return found


def code_violations(tree, where, *, names_of_numpy=("np",)) -> list:
    """Rules 2-4 on every node under ``tree``."""
    found = []
    np_attr = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in names_of_numpy:
            np_attr.add(id(node.value))
            if node.attr not in NUMPY_ALLOWED:
                found.append(f"{where(node)} np.{node.attr} (numpy beyond array construction)")
    for node in ast.walk(tree):
        at = where(node)
        if isinstance(node, ast.Name) and node.id in names_of_numpy and id(node) not in np_attr:
            found.append(f"{at} numpy used as a value (an alias gets round the allow list)")
        elif isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult):
                found.append(f"{at} matrix product '@'")
            elif not (_literal(node.left) or _literal(node.right)):
                found.append(f"{at} arithmetic between two computed operands "
                             f"({type(node.op).__name__})")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
            found.append(f"{at} '~' (a mask computed)")
        elif isinstance(node, ast.AugAssign) and not _literal(node.value):
            found.append(f"{at} augmented assignment of a computed value")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for a, b in zip(operands, operands[1:]):
                if not (_literal(a) or _literal(b)):
                    found.append(f"{at} comparison between two computed operands")
                    break
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in BUILTINS_DENIED:
                found.append(f"{at} {f.id}( (computes)")
            elif isinstance(f, ast.Attribute) and f.attr in METHODS_DENIED:
                found.append(f"{at} .{f.attr}( (computes or asks a model)")
        elif isinstance(node, ast.Attribute) and node.attr in ATTRIBUTES_DENIED:
            found.append(f"{at} .{node.attr} (a painter never reaches the study)")
    return found


# -- readouts (genviz/widgets): they only format ----------------------------------------------------
def readout_functions(tree) -> list:
    """The ``*readout`` functions (module level or nested) and the module's private helpers
    they call, transitively."""
    helpers = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)
               and n.name.startswith("_")}
    todo = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
            and n.name.endswith("readout")]
    seen = {}
    while todo:
        fn = todo.pop()
        if id(fn) in seen:
            continue
        seen[id(fn)] = fn
        for call in ast.walk(fn):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                    and call.func.id in helpers:
                todo.append(helpers[call.func.id])
    return list(seen.values())


def readout_violations(source: str, filename: str = "<string>") -> list:
    """Rules 2-4 on the readout code of a widget module, and no name it reads may come from a
    module that computes (only readout_html, html, numpy's allow list and the views' own)."""
    tree = ast.parse(source, filename)
    imported = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                imported[a.asname or a.name] = node.module or ""
        elif isinstance(node, ast.Import):
            for a in node.names:
                imported[a.asname or a.name.split(".")[0]] = a.name

    def where(node):
        return f"{filename}:{getattr(node, 'lineno', '?')}"

    found = []
    for fn in readout_functions(tree):
        found += code_violations(fn, where, names_of_numpy={k for k, v in imported.items()
                                                            if v == "numpy"})
        for node in ast.walk(fn):
            if isinstance(node, ast.Name) and node.id in imported:
                home = imported[node.id]
                if not (home in ("html", "numpy") or home.startswith(("genviz.plots",
                                                                     "genviz.widgets"))):
                    found.append(f"{where(node)} reads {node.id} from {home} (a readout only "
                                 f"formats the state)")
    return sorted(set(found))


# -- the whole-module rules kept from before for the widgets' binding code ------------------------
WIDGET_DENIED_CALLS = {"fit", "fit_transform", "fit_predict", "partial_fit", "cholesky", "eigh",
                       "inv", "solve", "lstsq", "svd", "cov", "corrcoef", "matmul", "einsum",
                       "default_rng", "standard_normal", "random_projection", "flip_labels"}


def widget_violations(source: str, filename: str = "<string>") -> list:
    """Widgets bind: no fit, no linear algebra, no random numbers, no ``@`` anywhere."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        at = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            found.append(f"{at} matrix product '@'")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in WIDGET_DENIED_CALLS:
                found.append(f"{at} {name}( (computes)")
        elif isinstance(node, ast.Attribute) and node.attr in ("linalg", "random"):
            found.append(f"{at} .{node.attr} (linear algebra or random numbers)")
    return found


# -- the repository's modules pass ------------------------------------------------------------------
@pytest.mark.parametrize("path", PAINTERS, ids=lambda p: p.name)
def test_painter_module_only_draws(path):
    found = painter_violations(path.read_text(), f"genviz/plots/{path.name}")
    assert not found, ("a painter computes, or could (ARCHITECTURE.md, 'Studies and "
                       "painters'):\n" + "\n".join(found))


@pytest.mark.parametrize("path", WIDGETS, ids=lambda p: p.name)
def test_widget_readouts_only_format_and_widgets_only_bind(path):
    text = path.read_text()
    found = readout_violations(text, path.name) + widget_violations(text, path.name)
    assert not found, "a readout computes, or a widget fits/samples:\n" + "\n".join(found)


def test_every_readout_is_found():
    """The readout finder sees each explorer's readout, nested ones and helpers included."""
    names = set()
    for path in WIDGETS:
        names |= {fn.name for fn in readout_functions(ast.parse(path.read_text()))}
    assert {"gaussian_readout", "classification_readout", "threshold_readout", "_acc",
            "_format_c", "_frac", "readout"} <= names


def test_infrastructure_imports_no_model():
    for name in INFRASTRUCTURE:
        tree = ast.parse((PLOTS / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("genviz"):
                assert node.module.startswith("genviz.plots"), (name, node.module)


# -- planted computations fail ----------------------------------------------------------------------
#: (label, painter module, source appended). Each is one kind of computation a painter must not
#: do; the issue's nine first.
PLANTED = [
    ("np.polyfit", "kde.py", "def _planted(r):\n    return np.polyfit(r.x, r.density, 3)"),
    ("stats.norm.rvs", "kde.py", "from scipy import stats\n"
                                 "def _planted(r):\n    return stats.norm.rvs(size=10)"),
    ("matrix product by hand", "gda.py",
     "def _planted(r):\n    return r.X[:, 0] * r.theta[0] + r.X[:, 1] * r.theta[1]"),
    ("logsumexp", "naive_bayes.py", "from scipy.special import logsumexp\n"
                                    "def _planted(r):\n    return logsumexp(r.density)"),
    ("logsumexp by hand", "naive_bayes.py",
     "def _planted(a, m):\n    return m + np.log(np.exp(a - m).sum())"),
    ("gaussian_kde", "kde.py", "from scipy.stats import gaussian_kde\n"
                               "def _planted(r):\n    return gaussian_kde(r.data)(r.x)"),
    ("minimize_scalar", "kde.py", "from scipy.optimize import minimize_scalar\n"
                                  "def _planted(f):\n    return minimize_scalar(f).x"),
    ("random draw through an alias", "gaussian.py",
     "def _planted():\n    rnd = np.random\n    return rnd.normal(size=3)"),
    ("random draw through an aliased numpy", "gaussian.py",
     "def _planted():\n    xp = np\n    return xp.random.normal(size=3)"),
    ("numpy.random imported under another name", "gaussian.py",
     "import numpy.random as npr\ndef _planted():\n    return npr.standard_normal(3)"),
    ("numpy imported under another name", "gaussian.py",
     "import numpy as xp\ndef _planted(r):\n    return xp.mean(r.samples, axis=0)"),
    ("a random generator", "knn.py",
     "from numpy.random import default_rng\ndef _planted():\n    return default_rng(0).normal(size=3)"),
    ("accuracy", "knn.py", "def _planted(pred, y):\n    return (pred == y).mean()"),
    ("accuracy by counting", "knn.py",
     "def _planted(pred, y):\n    return len([1 for p, t in zip(pred, y) if p == t]) / len(y)"),
    ("MSE", "knn.py", "def _planted(f, t):\n    return ((f - t) ** 2).mean()"),
    ("integral", "kde.py", "def _planted(r):\n    return np.trapezoid(r.density, r.x)"),
    ("integral as a sum", "kde.py", "def _planted(r, dx):\n    return (r.density * dx).sum()"),
    ("optimum by argmax", "kde.py", "def _planted(r):\n    return r.hs[r.loo.argmax()]"),
    ("optimum by max", "kde.py", "def _planted(r):\n    return max(zip(r.loo, r.hs))[1]"),
    ("optimum by a loop", "kde.py",
     "def _planted(r):\n    best = r.loo[0]\n    for v in r.loo:\n        if v > best:\n"
     "            best = v\n    return best"),
    ("a running total", "kde.py",
     "def _planted(r):\n    total = 0.0\n    for v in r.density:\n        total += v\n"
     "    return total"),
    ("expit", "spam.py", "from scipy.special import expit\n"
                         "def _planted(r):\n    return expit(r.log_odds)"),
    ("the sigmoid by hand", "spam.py",
     "def _planted(r):\n    return 1 / (1 + np.exp(-r.log_odds))"),
    # reaching a model
    ("a model fitted", "gda.py", "from genviz.gda import GDA\n"
                                 "def _planted(r):\n    return GDA().fit(r.X, r.y)"),
    ("a result's estimator asked", "gda.py",
     "def _planted(r, X):\n    return r.model.predict(X)"),
    ("the view's study asked", "kde.py",
     "def _planted(self):\n    return self.study.sweeps(500)"),
    ("the study reached by name", "kde.py",
     "def _planted(self):\n    return getattr(self, '_study')"),
    ("a study called outside a binding", "kde.py",
     "def _planted(r):\n    return BandwidthStudy()(n=100, h=0.1).ise"),
    ("a study function called in a computation", "joint.py",
     "def _planted(table):\n    return joint_bar_figure_study(table).total * 2"),
    ("a model module imported lazily", "kde.py",
     "def _planted(x, d):\n    from genviz.kde import kde_pdf\n    return kde_pdf(x, d, 0.1)"),
    ("an operator module", "kde.py",
     "import operator\ndef _planted(a, b):\n    return operator.mul(a, b)"),
    ("math", "kde.py", "import math\ndef _planted(x):\n    return math.exp(x)"),
    ("linear algebra", "gaussian.py", "def _planted(r):\n    return np.linalg.eigh(r.cov)"),
    ("the '@' operator", "gaussian.py", "def _planted(r):\n    return r.samples @ r.cov"),
    ("matplotlib counting", "kde.py", "def _planted(ax, r):\n    ax.hist(r.data, bins=30)"),
    ("a view that updates itself", "joint.py",
     "class _Planted(View, study=DimensionalityStudy):\n"
     "    def update(self, **params):\n        pass\n"
     "    def paint(self, r, changed):\n        pass"),
]


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    dest = tmp_path_factory.mktemp("painters") / "genviz"
    shutil.copytree(ROOT / "genviz", dest, ignore=shutil.ignore_patterns("data", "__pycache__"))
    return dest


@pytest.mark.parametrize("label, module, planted", PLANTED, ids=[p[0] for p in PLANTED])
def test_each_kind_of_computation_planted_in_a_copy_fails(package_copy, label, module, planted):
    target = package_copy / "plots" / module
    original = target.read_text()
    assert painter_violations(original, module) == []
    target.write_text(original + "\n\n" + planted + "\n")
    try:
        found = painter_violations(target.read_text(), module)
    finally:
        target.write_text(original)
    first_planted_line = len(original.splitlines()) + 2
    assert found, f"{label} planted in plots/{module} passed the check"
    assert all(int(f.split(":")[1].split()[0]) >= first_planted_line for f in found), found


@pytest.mark.parametrize("planted", [
    "def _planted(state):\n    return f\"{state['n'] / state['cells_at_d']:.3g}\"",
    "def _planted(state):\n    return f\"{state['density'].max():.3f}\"",
    "def _planted(state):\n    return 'x' if state['test_accuracy'] != state['test_accuracy'] else 'y'",
    "from scipy.special import expit\ndef _planted(state):\n    return f\"{expit(state['log_odds']):.3f}\"",
])
def test_a_readout_that_computes_fails(planted):
    source = planted.replace("_planted", "planted_readout")
    assert readout_violations(source), planted


def test_legitimate_painting_passes():
    ok = ("from __future__ import annotations\n"
          "import numpy as np\n"
          "from matplotlib.collections import LineCollection\n"
          "from genviz.plots._base import View, fmt, new_figure\n"
          "from genviz.plots.style import PALETTE, explorer_figsize\n"
          "from genviz.studies.kde import KDEResult, KDEStudy, KDE2D_LEVELS\n"
          "from genviz.studies.joint import JointBarResult, joint_bar_figure_study\n"
          "def joint_bar_figure(table, event=None, *, title=None):\n"
          "    '''docstring'''\n"
          "    return _paint(joint_bar_figure_study(table, event), title=title)\n"
          "def _paint(r, *, title=None):\n"
          "    fig = new_figure(figsize=explorer_figsize(7.0, 0.42 * len(r.labels) + 1.2))\n"
          "    y = np.arange(len(r.labels))[::-1]\n"
          "    for yi, p in zip(y, r.probs):\n"
          "        fig.text(p + 0.005, yi, f'{p:g}')\n"
          "    return fig\n"
          "class V(View, study=KDEStudy):\n"
          "    def paint(self, r, changed):\n"
          "        if 'h' in changed and r.peak is not None:\n"
          "            self.line.set_data(r.x, r.density)\n"
          "        self.text.set_text(f'k = {r.h:.2f}' if r.h > 0 else '')\n"
          "        self.pts.set_offsets(np.column_stack([r.x, np.zeros_like(r.x)]))\n"
          "    def describe(self):\n"
          "        return f'peak {fmt(self.state[\"peak\"])} at {round(self.state[\"peak_x\"], 1)}'\n")
    assert painter_violations(ok) == []


@pytest.mark.parametrize("name", ["gda.py", "kde.py", "spam.py", "gaussian.py", "knn.py",
                                  "naive_bayes.py"])
def test_the_check_fails_on_the_painters_before_studies(name):
    """At 8d2e737 (before the study/painter split) every view module computed."""
    try:
        old = subprocess.run(["git", "show", f"8d2e737:genviz/plots/{name}"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):  # pragma: no cover
        pytest.skip("the git history is not available")
    assert painter_violations(old, name)


# -- at run time: results are plain data --------------------------------------------------------
def plain_data_problems(value, path="state") -> list:
    """Where ``value`` holds something other than plain data (an estimator, a callable ...)."""
    if isinstance(value, (str, bytes, bool, numbers.Number, np.generic)) or value is None:
        return []
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return [p for i, v in enumerate(value.ravel()[:50])
                    for p in plain_data_problems(v, f"{path}[{i}]")]
        return []
    if isinstance(value, Result) or (dataclasses.is_dataclass(value)
                                     and not isinstance(value, type)):
        return [p for f in dataclasses.fields(value)
                for p in plain_data_problems(getattr(value, f.name), f"{path}.{f.name}")]
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple of data
        return [p for f in value._fields
                for p in plain_data_problems(getattr(value, f), f"{path}.{f}")]
    if isinstance(value, (tuple, list, set, frozenset)):
        return [p for i, v in enumerate(value) for p in plain_data_problems(v, f"{path}[{i}]")]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in plain_data_problems(v, f"{path}[{k!r}]")]
    return [f"{path} is a {type(value).__name__}"]


def test_plain_data_check_can_fail():
    from genviz.gda import GDA

    assert plain_data_problems({"a": [1.0, np.zeros(2)], "b": ("x", None)}) == []
    assert plain_data_problems({"model": GDA()}) == ["state['model'] is a GDA"]
    assert plain_data_problems([np.array([GDA()], dtype=object)]) == ["state[0][0] is a GDA"]
    assert plain_data_problems(lambda x: x)


@pytest.mark.parametrize("case", explorer_cases())
def test_every_state_is_a_result_of_plain_data_after_every_move(case):
    e = make_explorer(case)
    try:
        for name, control in e.controls.items():
            start = control.value
            for value in control_values(control, 2):  # both ends
                control.value = value
                assert isinstance(e.view.state, Result), type(e.view.state)
                problems = plain_data_problems(e.view.state)
                assert not problems, f"{case} {name}={value!r}: {problems}"
            control.value = start
    finally:
        e.close()


def test_every_static_figure_draws_a_result_of_plain_data(monkeypatch):
    """Every static figure case (tests/test_static_layout.py) is drawn from a Result of plain
    data: each binding's study call is recorded."""
    import pkgutil

    import matplotlib.pyplot as plt

    import genviz.plots
    from test_static_layout import CASES

    seen = []
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        module = importlib.import_module(f"genviz.plots.{info.name}")
        for name, obj in list(vars(module).items()):
            if name.endswith("_study") and inspect.isfunction(obj) \
                    and obj.__module__.startswith("genviz.studies"):
                def recording(*args, _fn=obj, **kwargs):
                    result = _fn(*args, **kwargs)
                    seen.append(result)
                    return result
                monkeypatch.setattr(module, name, recording)
    for case, (_, build) in CASES.items():
        before = len(seen)
        build()
        plt.close("all")
        assert len(seen) == before + 1, f"{case}: no study result recorded"
        assert isinstance(seen[-1], Result), case
        problems = plain_data_problems(seen[-1], case)
        assert not problems, problems
