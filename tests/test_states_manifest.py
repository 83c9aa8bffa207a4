"""A course's manifest of precomputed states (genviz.widgets._manifest, issue #39): the build
command writes which grids a course needs under the course's fingerprint, so that a hub knows
at start, without running a notebook, whether its states are current.

The fingerprint's oracle is what a grid's key covers (genviz.widgets._keys): a docstring, a
comment, a notebook's markdown or outputs change no key, so they keep the fingerprint; a
change to genviz's code or data, to a notebook's code, a notebook added or renamed, another
Python or numpy can change a key or the set of explorers, so they change it.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
from pathlib import Path

import nbformat
import pytest

from genviz.widgets import _manifest, states

ROOT = Path(__file__).resolve().parent.parent


def _make_course(where: Path) -> Path:
    shutil.copytree(ROOT / "genviz", where / "genviz",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name, code in [("01_a.ipynb", "from genviz.widgets.knn import knn_regression_explorer"
                                      "\nknn_regression_explorer()"),
                       ("02_b.ipynb", "x = 1")]:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_markdown_cell("# A lesson"), nbformat.v4.new_code_cell(code)]
        nbformat.write(nb, where / name)
    return where


@pytest.fixture
def course(tmp_path):
    """A copy of genviz's sources and data, and two notebooks."""
    return _make_course(tmp_path)


@pytest.fixture(scope="module")
def before(tmp_path_factory):
    """The fingerprint of a course as the fixture makes it (computed once)."""
    return _fp(_make_course(tmp_path_factory.mktemp("course")))


def _fp(course: Path) -> str:
    return states.course_fingerprint(sorted(course.glob("*.ipynb")), course / "genviz")


def _edit_notebook(path: Path, fn) -> None:
    nb = nbformat.read(path, as_version=4)
    fn(nb)
    nbformat.write(nb, path)


def test_what_changes_no_key_keeps_the_fingerprint(course, before):
    assert _fp(course) == before  # another folder, the same files
    knn = course / "genviz" / "knn.py"
    text = knn.read_text()
    first_doc = text.index('"""') + 3
    knn.write_text(text[:first_doc] + "A reworded docstring. " + text[first_doc:]
                   + "\n# a comment\n")
    _edit_notebook(course / "01_a.ipynb", lambda nb: (
        nb.cells[0].__setitem__("source", "# Reworded"),
        nb.cells[1].__setitem__("outputs", [nbformat.v4.new_output("stream", text="hi")])))
    (course / "genviz" / "__pycache__").mkdir(exist_ok=True)
    (course / "genviz" / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    assert _fp(course) == before


@pytest.mark.parametrize("change", ["maths", "data", "code cell", "rename", "new notebook",
                                    "numpy", "python"])
def test_what_can_change_a_key_changes_the_fingerprint(course, before, change, monkeypatch):
    if change == "maths":
        knn = course / "genviz" / "knn.py"
        knn.write_text(knn.read_text() + "\n_MATHS_CHANGED = 1.01\n")
    elif change == "data":
        data = course / "genviz" / "data" / "penguins.csv.gz"
        data.write_bytes(data.read_bytes() + b"\n")
    elif change == "code cell":
        _edit_notebook(course / "01_a.ipynb", lambda nb: nb.cells[1].__setitem__(
            "source", nb.cells[1].source.replace("explorer()", "explorer(k=3)")))
    elif change == "rename":
        (course / "02_b.ipynb").rename(course / "03_b.ipynb")
    elif change == "new notebook":
        shutil.copy(course / "02_b.ipynb", course / "04_c.ipynb")
    elif change == "numpy":
        real = importlib.metadata.version
        monkeypatch.setattr(importlib.metadata, "version",
                            lambda name: "0.0.1" if name == "numpy" else real(name))
    elif change == "python":
        monkeypatch.setattr(_manifest.sys, "version_info", (3, 99, 0))
    assert _fp(course) != before


def test_the_default_genviz_is_the_one_imported(course):
    nbs = sorted(course.glob("*.ipynb"))
    assert states.course_fingerprint(nbs) == states.course_fingerprint(nbs, ROOT / "genviz")


def test_bad_arguments_name_themselves(course, tmp_path):
    with pytest.raises(ValueError, match="genviz_dir"):
        states.course_fingerprint([], tmp_path / "nowhere")
    with pytest.raises(ValueError, match="notebooks"):
        states.course_fingerprint([course / "missing.ipynb"], course / "genviz")
    with pytest.raises(ValueError, match="notebooks"):
        states.course_fingerprint([course / "genviz" / "knn.py"], course / "genviz")
    with pytest.raises(ValueError, match="fingerprint"):
        states.write_manifest(tmp_path, "../../etc", ["ab"])
    with pytest.raises(ValueError, match="keys"):
        states.write_manifest(tmp_path, "ab12", ["../x"])


def _grid(directory: Path, key: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{key}.gvgrid").write_bytes(b"grid")


def test_find_manifest_names_the_grids_no_directory_holds(tmp_path):
    image, rebuilt = tmp_path / "image", tmp_path / "rebuilt"
    assert states.find_manifest("f00d", [image, rebuilt]) == (None, [])
    path = states.write_manifest(image, "f00d", ["a1", "b2", "c3", "a1"], ["x/01.ipynb"])
    assert json.loads(path.read_text())["keys"] == ["a1", "b2", "c3"]
    assert json.loads(path.read_text())["notebooks"] == ["01.ipynb"]
    assert states.find_manifest("f00d", [image, rebuilt]) == (path, ["a1", "b2", "c3"])
    _grid(image, "a1")
    _grid(rebuilt, "c3")  # grids may sit in any of the directories
    assert states.find_manifest("f00d", [image, rebuilt]) == (path, ["b2"])
    _grid(rebuilt, "b2")
    assert states.find_manifest("f00d", [image, rebuilt]) == (path, [])
    assert states.find_manifest("beef", [image, rebuilt]) == (None, [])  # other code
    # a complete manifest elsewhere wins over an incomplete one
    (rebuilt / "b2.gvgrid").unlink()
    complete = states.write_manifest(rebuilt, "f00d", ["a1", "c3"])
    assert states.find_manifest("f00d", [image, rebuilt]) == (complete, [])
    # an unreadable manifest is no manifest
    complete.write_text("{not json")
    assert states.find_manifest("f00d", [rebuilt]) == (None, [])


@pytest.mark.slow  # two builds of the k-NN explorer's grid
def test_the_build_command_writes_the_manifest_of_its_notebooks(course, tmp_path):
    out = tmp_path / "out"
    nbs = sorted(course.glob("*.ipynb"))
    states.build_notebooks(nbs, out)
    (grid,) = out.glob("*.gvgrid")
    path, missing = states.find_manifest(states.course_fingerprint(nbs), [out])
    assert path is not None and missing == []
    manifest = json.loads(path.read_text())
    assert manifest["keys"] == [grid.stem] and manifest["notebooks"] == ["01_a.ipynb",
                                                                         "02_b.ipynb"]
    # built again: the grid is found, not built, and still listed
    grid_bytes = grid.read_bytes()
    path.unlink()
    states.build_notebooks(nbs, out)
    assert json.loads(path.read_text())["keys"] == [grid.stem]
    assert grid.read_bytes() == grid_bytes
