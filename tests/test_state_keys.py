"""Precomputed states survive course updates (issue #39, item 5): a grid's key covers the code
its explorer factory runs (the factory's module and the genviz modules it imports, without
docstrings and comments: genviz.widgets._keys.code_fingerprint), not every genviz source file.

On a copy of genviz's sources: a change to every docstring and comment keeps every factory's
fingerprint and a real explorer's grid key; a change to one study's maths changes exactly the
keys of the explorers that use it (the oracle: a hand-written list of which explorer modules
use which study, checked against the modules' own import lines)."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from genviz.widgets import _keys
from genviz.widgets._keys import code_fingerprint, genviz_imports, grid_key

ROOT = Path(__file__).resolve().parent.parent
GENVIZ = ROOT / "genviz"

#: which explorer modules use a module (the oracle, written by reading their imports)
USERS = {
    "genviz.studies.learning_curves": {"genviz.widgets.learning_curves"},
    "genviz.studies.gaussian": {"genviz.widgets.gaussian"},
    "genviz.knn": {"genviz.widgets.knn"},
    "genviz.studies.spam": {"genviz.widgets.spam"},
}


@pytest.fixture()
def tree(tmp_path):
    """A copy of genviz's Python sources; the key caches emptied before and after."""
    dst = tmp_path / "genviz"
    for path in GENVIZ.rglob("*.py"):
        target = dst / path.relative_to(GENVIZ)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, target)
    _forget()
    yield dst
    _forget()


def _forget():
    _keys._CODE_FINGERPRINTS.clear()
    _keys._PARSED.clear()
    _keys._NORMALISED.clear()


def _factories(root: Path) -> list[str]:
    return sorted("genviz." + ".".join(p.relative_to(root).with_suffix("").parts)
                  for p in root.rglob("*.py")
                  if re.search(r"^@explorer_factory", p.read_text(), re.M))


def _fingerprints(root: Path) -> dict[str, str]:
    _forget()
    return {f: code_fingerprint(f, root) for f in _factories(root)}


_PRISTINE: dict[str, str] = {}


def _pristine_fingerprints(root: Path) -> dict[str, str]:
    """:func:`_fingerprints` of an unchanged copy (``tree`` before the test changes it): the
    same for every copy, as a fingerprint hashes module names and code, never a path; computed
    on the first copy a test of this module gets, then reused."""
    if not _PRISTINE:
        _PRISTINE.update(_fingerprints(root))
    return dict(_PRISTINE)


def _rewrite_docs(root: Path) -> int:
    """Change every docstring's text and add a comment line to every module; returns how many
    files changed. The code is the same (checked: the files still parse, their text differs)."""
    changed = 0
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        tree = ast.parse(text)
        lines = text.splitlines(True)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and node.body and isinstance(node.body[0], ast.Expr) \
                    and isinstance(node.body[0].value, ast.Constant) \
                    and isinstance(node.body[0].value.value, str):
                first = node.body[0].lineno - 1
                quote = re.search(r'[rRbBuU]?("""|\'\'\'|"|\')', lines[first])
                if quote:  # "fixed a typo" right after the opening quotes
                    at = quote.end()
                    lines[first] = lines[first][:at] + "(fixed a typo) " + lines[first][at:]
        new = "# a course update: documentation only\n" + "".join(lines)
        ast.parse(new)
        if new != text:
            path.write_text(new)
            changed += 1
    return changed


def test_a_docstring_and_comment_update_keeps_every_grid(tree):
    before = _pristine_fingerprints(tree)
    assert len(before) >= 8
    assert _rewrite_docs(tree) > 50
    assert _fingerprints(tree) == before


def test_the_old_key_lost_every_grid_on_a_docstring_update(tree):
    """The planted fault (the key before issue #39): every genviz source file's bytes."""
    def raw(root):
        return sorted((p.relative_to(root).as_posix(), p.read_bytes()) for p in root.rglob("*.py"))

    before = raw(tree)
    _rewrite_docs(tree)
    assert raw(tree) != before


@pytest.mark.parametrize("module", sorted(USERS))
def test_a_change_to_a_studys_maths_changes_exactly_the_grids_that_use_it(tree, module):
    before = _pristine_fingerprints(tree)
    path = tree.joinpath(*module.split(".")[1:]).with_suffix(".py")
    # the maths changed: every floating-point constant of its code scaled by 1.01 (a real
    # change of what it computes, whatever the study); docstrings untouched
    class Scale(ast.NodeTransformer):
        n = 0

        def visit_Constant(self, node):
            if isinstance(node.value, float):
                Scale.n += 1
                return ast.copy_location(ast.Constant(node.value * 1.01), node)
            return node

    new = ast.unparse(Scale().visit(ast.parse(path.read_text())))
    if not Scale.n:
        new += "\n_MATHS_CHANGED = 1.01\n"
    path.write_text(new)
    after = _fingerprints(tree)
    changed = {f for f in before if after[f] != before[f]}
    assert changed == USERS[module], (module, changed)


def test_a_change_to_the_exercises_code_keeps_every_grid(tree):
    """A fix to a feedback message (new code in genviz/exercises/, not a docstring) keeps
    every factory's fingerprint: the exercises never draw a state (_keys.NOT_DRAWING); the
    same change to a module that draws (plots/style.py) changes them all."""
    before = _pristine_fingerprints(tree)
    for path in (tree / "exercises").rglob("*.py"):
        path.write_text(path.read_text() + "\n\ndef _stop_fixed(text):\n    return text + '.'\n")
    assert _fingerprints(tree) == before
    style = tree / "plots" / "style.py"
    style.write_text(style.read_text() + "\n\n_SCALE = 1.01\n")
    after = _fingerprints(tree)
    assert all(after[f] != before[f] for f in before), "plots.style draws every explorer"


def test_no_explorer_draws_with_the_exercises():
    """NOT_DRAWING holds: no module an explorer's painter or study runs imports the exercises
    except the states machinery (which reads an observation's setting to say what moves
    offline); read from the import lines, not the walk under test."""
    found = {}
    factories = [GENVIZ.joinpath(*f.split(".")[1:]).with_suffix(".py") for f in _factories(GENVIZ)]
    assert factories
    for path in (list((GENVIZ / "plots").rglob("*.py")) + list((GENVIZ / "studies").rglob("*.py"))
                 + factories):
        if re.search(r"^\s*(from genviz\.exercises|import genviz\.exercises)", path.read_text(), re.M):
            found[path.name] = True
    assert found == {}
    _forget()
    users = [m for m in genviz_imports("genviz.widgets.gaussian") if m.startswith("genviz.exercises")]
    assert users, "the planted case: without skip, the walk reaches the exercises (via states)"
    assert not [m for m in genviz_imports("genviz.widgets.gaussian", skip=_keys.NOT_DRAWING)
                if m.startswith("genviz.exercises")]


def test_the_oracle_agrees_with_the_import_lines():
    """USERS by hand, against the modules' import lines read with a regular expression (not
    the ast walk under test): a module using another names it in an import."""
    _forget()
    for module, users in USERS.items():
        for user in users:
            assert module in genviz_imports(user)
        short = module.rsplit(".", 1)[1]
        for f in _factories(GENVIZ):
            text = (GENVIZ.joinpath(*f.split(".")[1:]).with_suffix(".py")).read_text()
            direct = re.search(rf"^\s*from {re.escape(module)} import|^\s*from "
                               rf"{re.escape(module.rsplit('.', 1)[0])} import .*\b{short}\b",
                               text, re.M)
            if direct:
                assert f in users, (module, f)


def test_a_real_explorers_key_survives_a_docstring_update_and_follows_its_study(tree, monkeypatch):
    from genviz.widgets.kde import kde_explorer
    from genviz.widgets.knn import knn_regression_explorer

    monkeypatch.setattr(_keys, "_ROOT", tree)
    x = np.linspace(-1, 1, 7)
    kde, knn = kde_explorer(x, h=0.3), knn_regression_explorer()
    try:
        _forget()
        keys = (grid_key(kde), grid_key(knn))
        assert None not in keys
        _rewrite_docs(tree)
        _forget()
        assert (grid_key(kde), grid_key(knn)) == keys
        path = tree / "knn.py"
        path.write_text(path.read_text() + "\n_MATHS_CHANGED = 1\n")
        _forget()
        assert grid_key(kde) == keys[0] and grid_key(knn) != keys[1]
    finally:
        kde.close()
        knn.close()


def test_a_factory_outside_genviz_falls_back_to_every_source():
    _forget()
    assert code_fingerprint("__main__") == _keys.source_fingerprint()
    assert genviz_imports("numpy") == [] and genviz_imports("genviz.no_such_module") == []


def test_relative_and_function_level_imports_are_followed(tmp_path):
    pkg = tmp_path / "genviz"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from genviz.sub.b import thing\n")
    (pkg / "sub" / "a.py").write_text("from . import b\ndef f():\n    from ..c import g\n")
    (pkg / "sub" / "b.py").write_text("thing = 1\n")
    (pkg / "c.py").write_text("import genviz.d\ng = 2\n")
    (pkg / "d.py").write_text("from genviz.sub import thing\n")
    assert genviz_imports("genviz.sub.a", pkg) == [
        "genviz.c", "genviz.d", "genviz.sub", "genviz.sub.a", "genviz.sub.b"]


def _key_with_backend(backend: str, root: Path = ROOT) -> str:
    import os
    import subprocess
    import sys

    code = ("import numpy as np\nfrom genviz.widgets.kde import kde_explorer\n"
            "print(kde_explorer(np.linspace(-1, 1, 7), h=0.3).grid_key)")
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": backend}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True, cwd=root).stdout.split()[-1]


def test_a_kernels_inline_backend_and_the_builds_agg_give_the_same_key(tmp_path):
    """A Jupyter kernel runs with MPLBACKEND=module://matplotlib_inline.backend_inline (ipykernel
    sets it), `make states` and the hub's rebuild with Agg: the only rcParam that differs is
    the backend (checked in a real kernel), which never changes a recorded state."""
    inline = _key_with_backend("module://matplotlib_inline.backend_inline")
    assert inline == _key_with_backend("Agg")
    # the planted fault: the backend in the key again (a copy of genviz with NOT_DRAWN empty)
    copy = tmp_path / "genviz"
    shutil.copytree(GENVIZ, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    keys = copy / "widgets" / "_keys.py"
    keys.write_text(keys.read_text().replace(
        'NOT_DRAWN = frozenset({"backend", "backend_fallback", "interactive"})',
        "NOT_DRAWN = frozenset()"))
    assert _key_with_backend("module://matplotlib_inline.backend_inline", tmp_path) != \
        _key_with_backend("Agg", tmp_path)
