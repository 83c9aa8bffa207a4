"""scripts/build_site.py: the notebook cache follows the library, not only the notebooks.

The site's figures come from genviz, so its fingerprint (every file under genviz/) names the
cache directory: any change to genviz's code or data gives a new fingerprint (a new cache, every
notebook executed again); the same tree gives the same one. Staging says what was added,
changed and removed, and a page added or removed makes Sphinx write every page (each sidebar
lists every page). The notebooks the cache lacks are executed before Sphinx, several at once,
into the cache MyST-NB reads, under MyST-NB's key and with docs/conf.py's settings.
"""

import importlib
import os
import pathlib
import re
import shutil
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# imported by name (not from a file spec): execute_missing's workers are spawned processes, which
# import the module of the function they run by its name (sys.path travels with them; the root
# conftest.py puts scripts/ on it for every test)
if str(ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(ROOT / "scripts"))
build_site = importlib.import_module("build_site")


def test_fingerprint_changes_with_any_genviz_file_and_only_then(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "genviz", tmp_path / "genviz",
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(build_site, "ROOT", tmp_path)
    first = build_site.library_fingerprint()
    assert build_site.library_fingerprint() == first
    (tmp_path / "genviz" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "genviz" / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    assert build_site.library_fingerprint() == first  # bytecode is not the library
    view = tmp_path / "genviz" / "plots" / "kde.py"
    view.write_text(view.read_text() + "\n# a comment\n")
    second = build_site.library_fingerprint()
    assert second != first
    data = next((tmp_path / "genviz" / "data").iterdir())
    data.write_bytes(data.read_bytes() + b"\0")
    assert build_site.library_fingerprint() not in (first, second)


def test_staging_reports_added_changed_and_removed_sources(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "docs" / "_static").mkdir(parents=True)
    (root / "notebooks").mkdir()
    (root / "docs" / "conf.py").write_text("# read in place\n")
    (root / "docs" / "_static" / "site.css").write_text("a {}\n")
    (root / "docs" / "api.md").write_text("# API\n")
    (root / "notebooks" / "01.ipynb").write_text("{}")
    monkeypatch.setattr(build_site, "ROOT", root)
    dest = tmp_path / "src"
    assert sorted(build_site.stage(dest)) == ["added api.md", "added notebooks/01.ipynb"]
    assert build_site.stage(dest) == []
    (root / "docs" / "api.md").write_text("# API reference\n")
    (root / "docs" / "api-models.md").write_text("# Models\n")
    assert sorted(build_site.stage(dest)) == ["added api-models.md", "api.md"]
    (root / "notebooks" / "01.ipynb").unlink()
    assert build_site.stage(dest) == ["removed notebooks/01.ipynb"]
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == \
        ["api-models.md", "api.md"]


def test_every_page_is_written_again_only_when_a_page_came_or_went(tmp_path):
    def writes_all(changed):
        cmd = build_site.sphinx_command(tmp_path / "src", tmp_path / "out", tmp_path / "d", changed)
        assert cmd[-2:] == [str(tmp_path / "src"), str(tmp_path / "out")]
        return "-a" in cmd

    assert not writes_all([])
    assert not writes_all(["api.md", "notebooks/01.ipynb"])
    assert writes_all(["api.md", "added api-models.md"])
    assert writes_all(["removed notebooks/01.ipynb"])


def _notebook(path: pathlib.Path, *sources: str) -> pathlib.Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(src) for src in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path


@pytest.mark.slow  # three kernels started
def test_execute_missing_caches_what_myst_nb_looks_up_and_only_what_ran(tmp_path):
    """Two notebooks run at once, each in its own folder as working directory and with the
    environment given; MyST-NB's reader and key then find both in the cache, with their outputs.
    A notebook whose cell raises is reported and not cached (MyST-NB runs it again and fails
    the build); a notebook already cached is not run again."""
    from jupyter_cache import get_cache
    from myst_nb.core.read import standard_nb_read

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _notebook(tmp_path / "a" / "first.ipynb",
                      "import os, pathlib\nprint(pathlib.Path.cwd().name, os.environ['GV_PROBE'])")
    second = _notebook(tmp_path / "b" / "second.ipynb", "print(6 * 7)")
    broken = _notebook(tmp_path / "b" / "broken.ipynb", "raise ValueError('planted')")
    cache_path = tmp_path / "cache"
    env = {**os.environ, "GV_PROBE": "from-env", "PYTHONPATH": str(ROOT)}
    lines = build_site.execute_missing([first, second, broken], cache_path, env, jobs=2)
    assert sorted(line.split(":")[0] for line in lines) == ["broken.ipynb", "first.ipynb", "second.ipynb"]
    assert [line for line in lines if "FAILED" in line] == [next(l for l in lines if l.startswith("broken"))]
    cache = get_cache(str(cache_path))
    outputs = {}
    for path in (first, second):
        nb = standard_nb_read(path.read_text(encoding="utf-8"))  # as MyST-NB reads it
        cache.match_cache_notebook(nb)  # KeyError if MyST-NB would not find it
        _, merged = cache.merge_match_into_notebook(nb)
        outputs[path.name] = "".join(o.get("text", "") for o in merged.cells[0].outputs)
    assert outputs == {"first.ipynb": "a from-env\n", "second.ipynb": "42\n"}
    with pytest.raises(KeyError):
        cache.match_cache_notebook(standard_nb_read(broken.read_text(encoding="utf-8")))
    assert build_site.execute_missing([first, second], cache_path, env, jobs=2) == []


def test_execute_missing_runs_with_the_execution_settings_of_docs_conf():
    """MyST-NB's settings in docs/conf.py are the ones execute_missing applies: a changed
    timeout, allowed errors or a temporary working directory there must be changed here too."""
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    timeout = re.search(r"^nb_execution_timeout\s*=\s*(\d+)", conf, re.M)
    assert timeout and int(timeout.group(1)) == build_site.EXECUTION_TIMEOUT
    assert not re.search(r"^nb_execution_allow_errors\s*=\s*True", conf, re.M)
    assert build_site.ALLOW_ERRORS is False
    assert not re.search(r"^nb_execution_in_temp\s*=\s*True", conf, re.M)
    assert re.search(r'^nb_execution_mode\s*=\s*"cache"', conf, re.M)
