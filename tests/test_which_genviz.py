"""One well-defined genviz (issue #39, item 4): a notebook in the home directory, where the
course clone ``~/genviz`` is a folder without ``__init__.py``, imports the installed genviz,
not that folder as an empty namespace package; a notebook inside the clone imports the
clone's genviz (by design: genviz_updates.kernel); ``genviz.__version__`` and
``genviz.__source__`` say which.

Each case runs in a fresh Python whose working directory is the home (``''`` first on
sys.path, as a kernel started for ``~/x.ipynb`` has it) and whose genviz is "installed" the way
an editable install is (setuptools' finder *after* the path finder, and the distribution's
``direct_url.json``), pointing at this work tree's genviz -- PYTHONPATH is not used, it would
hide the fault."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PRELUDE = r"""
import importlib.util, json, os, sys
ROOT, SITE = sys.argv[1], sys.argv[2]
sys.path.insert(1, SITE)  # the fake distribution's metadata (direct_url.json -> ROOT), first

class EditableFinder:  # what setuptools' editable install appends after the path finder
    def find_spec(self, name, path=None, target=None):
        if name == "genviz":
            init = os.path.join(ROOT, "genviz", "__init__.py")
            return importlib.util.spec_from_file_location(
                "genviz", init, submodule_search_locations=[os.path.dirname(init)])
        if name == "genviz_updates":
            init = os.path.join(ROOT, "genviz_updates", "__init__.py")
            return importlib.util.spec_from_file_location(
                "genviz_updates", init, submodule_search_locations=[os.path.dirname(init)])

# right after the path finder, before the environment's own editable finder (its genviz is
# another checkout's)
import importlib.machinery
at = next(i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder)
sys.meta_path.insert(at + 1, EditableFinder())
"""

KERNEL = r"""
os.environ["JPY_SESSION_NAME"] = sys.argv[3]
import genviz_updates.kernel as k
class Events:
    def register(self, *a): pass
class Shell:
    events = Events()
k.load_ipython_extension(Shell())
"""

REPORT = r"""
import genviz
try:
    version, source = genviz.__version__, genviz.__source__
except AttributeError as e:
    version, source = None, f"AttributeError: {e}"
print(json.dumps({"file": genviz.__file__, "version": version, "source": source}))
"""


@pytest.fixture()
def home(tmp_path):
    """A home with the course clone ~/genviz (a git work tree; its top has no __init__.py, its
    genviz/ package is the course's copy of the library) and the fake install's metadata."""
    home = tmp_path / "home"
    clone = home / "genviz"
    (clone / ".git").mkdir(parents=True)
    (clone / "notebooks").mkdir()
    (clone / "genviz").mkdir()
    shutil.copy(ROOT / "genviz" / "__init__.py", clone / "genviz" / "__init__.py")
    for nb in (home / "mine.ipynb", clone / "notebooks" / "02.ipynb"):
        nb.write_text("{}")
    site = tmp_path / "site"
    dist = site / "genviz-0.1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: genviz\nVersion: 0.1.0\n")
    (dist / "direct_url.json").write_text(json.dumps(
        {"dir_info": {"editable": True}, "url": ROOT.as_uri()}))
    return home, site


def _run(home, site, notebook=None) -> dict:
    code = PRELUDE + (KERNEL if notebook is not None else "") + REPORT
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JPY_SESSION_NAME")}
    args = [sys.executable, "-c", code, str(ROOT), str(site)]
    if notebook is not None:
        args.append(str(notebook))
    out = subprocess.run(args, cwd=home, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_without_the_kernel_extension_the_clone_folder_shadows_the_library(home):
    """The fault of issue #39, reproduced: the planted bug the next tests must not show."""
    home, site = home
    got = _run(home, site)
    assert got["file"] is None and got["version"] is None  # an empty namespace package


def test_a_notebook_in_the_home_imports_the_installed_genviz(home):
    home, site = home
    got = _run(home, site, notebook=home / "mine.ipynb")
    assert got["file"] == str(ROOT / "genviz" / "__init__.py")
    assert got["version"] == "0.1.0"
    assert got["source"] == f"installed at {ROOT / 'genviz'}"


def test_a_notebook_in_the_clone_imports_the_clones_genviz_and_says_so(home):
    home, site = home
    clone = home / "genviz"
    got = _run(home, site, notebook=clone / "notebooks" / "02.ipynb")
    assert got["file"] == str(clone / "genviz" / "__init__.py")
    assert got["version"] == "0.1.0+clone"
    assert got["source"] == f"clone at {clone / 'genviz'}"


def test_a_home_without_a_genviz_folder_is_unchanged(home):
    home, site = home
    shutil.rmtree(home / "genviz")
    got = _run(home, site, notebook=home / "mine.ipynb")
    assert got["version"] == "0.1.0" and got["file"] == str(ROOT / "genviz" / "__init__.py")


def test_the_finder_leaves_other_names_and_a_missing_genviz_alone():
    from genviz_updates.kernel import InstalledFinder

    finder = InstalledFinder()
    assert finder.find_spec("numpy") is None
    saved = list(sys.meta_path)
    try:  # only the finder itself and a path finder that finds nothing regular
        sys.meta_path[:] = [finder]
        assert finder.find_spec("genviz") is None
    finally:
        sys.meta_path[:] = saved


def test_two_of_our_finders_do_not_ask_each_other_forever():
    """Two InstalledFinders on the meta path (the extension loaded twice before genviz was
    imported) find the installed genviz. Planted: skipping only ``self`` -- each asked the
    other until RecursionError (seen when a test process loaded the extension twice)."""
    from genviz_updates.kernel import CloneFinder, InstalledFinder

    saved = list(sys.meta_path)
    try:
        first, second = InstalledFinder(), InstalledFinder()
        sys.meta_path[:] = [first, second, CloneFinder(ROOT / "nowhere")] + [
            f for f in saved if f.__class__.__module__ != "genviz_updates.kernel"]
        spec = first.find_spec("genviz")
        assert spec is not None and spec.origin == str(ROOT / "genviz" / "__init__.py")
    finally:
        sys.meta_path[:] = saved


RELOAD = r"""
os.environ["JPY_SESSION_NAME"] = sys.argv[3]
import genviz_updates.kernel as k
class Events:
    hooks = []
    def register(self, event, f): self.hooks.append(f)
    def unregister(self, event, f): self.hooks.remove(f)
class Shell:
    events = Events()
k.load_ipython_extension(Shell())
k.load_ipython_extension(Shell())  # %reload_ext, or the extension listed twice
ours = [f for f in sys.meta_path if f.__class__.__module__ == "genviz_updates.kernel"]
assert len(ours) == 1 and len(Events.hooks) == 1, (ours, Events.hooks)
"""


def test_the_extension_loaded_twice_keeps_one_finder_and_one_hook(home):
    """Loaded twice before genviz is imported, the extension leaves one finder (genviz still
    imports, the installed one) and one notice hook (one notice a cell, not two). Planted: no
    replacement -- two finders and two hooks."""
    home, site = home
    code = PRELUDE + RELOAD + REPORT
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JPY_SESSION_NAME")}
    argv = [sys.executable, "-c", code, str(ROOT), str(site), str(home / "mine.ipynb")]
    out = subprocess.run(argv, cwd=home, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["version"] == "0.1.0" and got["file"] == str(ROOT / "genviz" / "__init__.py")
