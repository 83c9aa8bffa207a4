"""Load a Python file that is not an importable module (a script, a deployment config) under
a name of the test's choosing: ``load_file(path, name)``."""

from __future__ import annotations

import importlib.util


def load_file(path, name: str):
    """The module that ``path`` defines, run once, named ``name`` (not put in sys.modules)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
