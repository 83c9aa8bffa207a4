"""scripts/build_site.py: the notebook cache follows the library, not only the notebooks.

The site's figures come from genviz, so its fingerprint (every file under genviz/) names the
cache directory: any change to genviz's code or data gives a new fingerprint (a new cache, every
notebook executed again); the same tree gives the same one.
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
