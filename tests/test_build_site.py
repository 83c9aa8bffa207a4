"""scripts/build_site.py: the notebook cache follows the library, not only the notebooks.

The site's figures come from genviz, so its fingerprint (every file under genviz/) names the
cache directory: any change to genviz's code or data gives a new fingerprint (a new cache, every
notebook executed again); the same tree gives the same one. Staging says what was added,
changed and removed, and a page added or removed makes Sphinx write every page (each sidebar
lists every page).
"""

import importlib.util
import pathlib
import shutil

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_site)


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
