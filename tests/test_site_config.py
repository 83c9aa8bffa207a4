"""The course website's one repository setting and the launch links made from it."""

import ast
import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("set_repository_url",
                                               ROOT / "scripts" / "set_repository_url.py")
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
BEGIN, END, launch_block, set_repository_url = (_mod.BEGIN, _mod.END, _mod.launch_block,
                                                _mod.set_repository_url)


def _setting(root):
    tree = ast.parse((root / "docs" / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "REPOSITORY_URL":
            return node.value.value
    raise AssertionError("docs/conf.py has no REPOSITORY_URL")


def _block(root):
    text = (root / "README.md").read_text()
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def test_readme_launch_links_follow_the_setting_and_no_placeholder_remains():
    url = _setting(ROOT)
    readme = (ROOT / "README.md").read_text()
    assert "OWNER" not in readme
    assert _block(ROOT).strip() == launch_block(url)
    if not url:
        assert "mybinder.org/v2" not in _block(ROOT)


@pytest.fixture
def copy(tmp_path):
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "conf.py", tmp_path / "docs" / "conf.py")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def test_setting_the_url_writes_the_badge_and_unsetting_removes_it(copy):
    set_repository_url("https://github.com/acme/genviz/", root=copy)
    assert _setting(copy) == "https://github.com/acme/genviz"
    assert ("(https://mybinder.org/v2/gh/acme/genviz/HEAD?urlpath=lab/tree/notebooks/"
            "00_start_here.ipynb)") in _block(copy)
    readme = (copy / "README.md").read_text()
    assert readme.count(BEGIN) == 1 and readme.count(END) == 1
    set_repository_url("", root=copy)
    assert _setting(copy) == "" and "mybinder.org/v2" not in _block(copy)
    if not _setting(ROOT):
        assert (copy / "README.md").read_text() == (ROOT / "README.md").read_text()


def test_a_non_github_repository_gets_a_generic_binder_link():
    assert launch_block("https://gitlab.example.org/a/b").startswith(
        "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/git/https%3A")


@pytest.mark.parametrize("bad", ["github.com/acme/genviz", "http://github.com/a/b", "ftp://x/y"])
def test_bad_urls_are_refused(copy, bad):
    with pytest.raises(ValueError, match="url must be an https URL"):
        set_repository_url(bad, root=copy)
