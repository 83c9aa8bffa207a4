"""genviz_updates (the hub's notebook updater and states rebuild) reaches genviz only through its
public modules: the manifest API is ``genviz.widgets.states``' (``course_fingerprint``,
``find_manifest``, ``write_manifest``), not the private ``genviz.widgets._manifest`` behind it.
Oracle: the import statements of every genviz_updates module (ast, imports inside functions
included)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def private_genviz_imports(source: str) -> list[str]:
    """The genviz modules or names starting with ``_`` that ``source`` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "genviz":
            parts = node.module.split(".") + [a.name for a in node.names]
            found += [f"{node.module}: {p}" for p in parts if p.startswith("_")
                      and p != "__future__"]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "genviz"
                      and any(p.startswith("_") for p in a.name.split("."))]
    return found


def test_genviz_updates_imports_only_public_genviz():
    bad = {p.name: private_genviz_imports(p.read_text(encoding="utf-8"))
           for p in sorted((ROOT / "genviz_updates").glob("*.py"))}
    bad = {name: found for name, found in bad.items() if found}
    assert not bad, (f"genviz_updates imports private genviz modules or names: {bad}; import "
                     f"the public ones (the manifest API: genviz.widgets.states)")


def test_the_check_finds_a_private_import():
    assert private_genviz_imports("def f():\n    from genviz.widgets._manifest import "
                                  "find_manifest\n") == ["genviz.widgets._manifest: _manifest"]
    assert private_genviz_imports("import genviz.widgets._keys\n") == ["genviz.widgets._keys"]
    assert private_genviz_imports("from genviz.widgets.states import find_manifest\n"
                                  "from genviz_updates.notices import _course_changes\n") == []
