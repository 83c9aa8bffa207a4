"""Course updates through nbgitpuller never lose a student's work or an instructor's fix.

A local bare repository stands for the course's GitHub repository; nbgitpuller's own
``GitPuller`` (what a student's link click runs) clones and updates each student's copy.
Student A only ran the notebook; student B edited the exercise line that the instructor then
fixed. A receives the fix; B keeps the edit *and* ``genviz.course_updates`` reports the newer
cell (nbgitpuller alone drops the fix silently: checked below, so the notice is needed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from genviz.course_updates import (CellUpdate, _main as main, load_ipython_extension, newer_cells,
                                   update_notice)

nbgitpuller = pytest.importorskip("nbgitpuller")
from nbgitpuller import GitPuller  # noqa: E402

NB = "notebooks/lesson.ipynb"
FIX_X = "x = 2  # fixed: the notes use 2\n"
EXERCISE = "answer = None  # compute x + 1\n"
EXERCISE_FIX = "answer = None  # compute x + 1 (hint: x is 2 now)\n"
B_EDIT = "answer = 3  # my try\n"


def git(cwd, *args):
    return subprocess.run(["git", "-c", "user.name=Instructor", "-c", "user.email=i@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def lesson(x_src="x = 1\n", exercise=EXERCISE):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson"),
                nbformat.v4.new_code_cell(x_src), nbformat.v4.new_code_cell(exercise)]
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


def pull(url, target):
    for _ in GitPuller(url, str(target), branch="main", depth=1).pull():
        pass


def run_and_save(path):
    """What JupyterLab leaves after Run All + save: outputs, execution counts, metadata."""
    nb = nbformat.read(path, as_version=4)
    for n, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        cell.execution_count = n + 1
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"ran {n}\n")]
    nb.metadata["language_info"] = {"name": "python", "version": sys.version.split()[0]}
    nbformat.write(nb, path)


def edit_cell(path, index, source):
    nb = nbformat.read(path, as_version=4)
    nb.cells[index].source = source
    nbformat.write(nb, path)


def sources(path):
    return [c.source for c in nbformat.read(path, as_version=4).cells]


@pytest.fixture()
def course(tmp_path):
    """(bare repository URL, the instructor's working copy)."""
    bare, work = tmp_path / "course.git", tmp_path / "instructor"
    git(tmp_path, "init", "--bare", str(bare))
    git(tmp_path, "init", str(work))
    (work / "notebooks").mkdir()
    nbformat.write(lesson(), work / NB)
    git(work, "add", ".")
    git(work, "commit", "-m", "lesson 1")
    git(work, "push", str(bare), "HEAD:main")
    return f"file://{bare}", work


def publish_fix(work, bare_url):
    nbformat.write(lesson(FIX_X, EXERCISE_FIX), work / NB)
    git(work, "commit", "-am", "fix lesson 1")
    git(work, "push", bare_url, "HEAD:main")


def test_run_only_student_gets_the_fix_and_editing_student_keeps_edit_and_is_told(course, tmp_path):
    url, work = course
    a, b = tmp_path / "alice" / "genviz", tmp_path / "bob" / "genviz"
    pull(url, a)
    pull(url, b)
    run_and_save(a / NB)
    run_and_save(b / NB)
    edit_cell(b / NB, 2, B_EDIT)
    assert newer_cells(a / NB) == [] and newer_cells(b / NB) == []  # nothing new yet

    publish_fix(work, url)
    pull(url, a)
    pull(url, b)

    # A only ran the notebook: every instructor change arrived, outputs kept
    assert sources(a / NB) == sources(work / NB)
    assert nbformat.read(a / NB, as_version=4).cells[1].outputs  # A's outputs survive
    assert newer_cells(a / NB) == []
    # B: the fix to a line B did not touch arrived; B's edit of the exercise line is kept ...
    assert sources(b / NB)[1] == FIX_X
    assert sources(b / NB)[2] == B_EDIT
    # ... and the instructor's fix to that same line did not (nbgitpuller's -Xours), silently:
    assert EXERCISE_FIX not in (b / NB).read_text()
    # which genviz reports
    assert newer_cells(b / NB) == [CellUpdate(2, "cell-2", B_EDIT, EXERCISE_FIX)]
    notice = update_notice(newer_cells(b / NB))
    assert "cell 3" in notice and "Your version is kept" in notice and EXERCISE_FIX.strip() in notice

    # A later pull that does not touch the notebook keeps the notice ...
    (work / "README.md").write_text("news\n")
    git(work, "add", "README.md")
    git(work, "commit", "-m", "news")
    git(work, "push", url, "HEAD:main")
    pull(url, b)
    assert [u.index for u in newer_cells(b / NB)] == [2]
    # ... until the student takes the course's cell; editing it afterwards is not nagged
    edit_cell(b / NB, 2, EXERCISE_FIX)
    assert newer_cells(b / NB) == []
    pull(url, b)
    edit_cell(b / NB, 2, "answer = 3  # second try\n")
    assert newer_cells(b / NB) == []


def test_renaming_and_clicking_again_gives_the_whole_new_notebook(course, tmp_path):
    """The notice's remedy: nbgitpuller restores a missing course file from the course."""
    url, work = course
    b = tmp_path / "bob" / "genviz"
    pull(url, b)
    edit_cell(b / NB, 2, B_EDIT)
    publish_fix(work, url)
    pull(url, b)
    (b / NB).rename(b / "notebooks" / "lesson-mine.ipynb")
    pull(url, b)
    assert sources(b / NB) == sources(work / NB)
    assert sources(b / "notebooks" / "lesson-mine.ipynb")[2] == B_EDIT


def test_repository_without_nbgitpuller_merges_reports_nothing(course, tmp_path):
    url, work = course
    nb = work / NB
    edit_cell(nb, 2, B_EDIT)
    assert newer_cells(nb) == []
    outside = tmp_path / "loose.ipynb"
    nbformat.write(lesson(), outside)
    assert newer_cells(outside) == []  # not in a git repository at all


def test_notebook_without_cell_ids_matches_by_position(course, tmp_path):
    url, work = course
    for path in [work / NB]:
        data = json.loads(path.read_text())
        for cell in data["cells"]:
            cell.pop("id")
        data["nbformat_minor"] = 4
        path.write_text(json.dumps(data, indent=1))
    git(work, "commit", "-am", "no ids")
    git(work, "push", url, "HEAD:main")
    b = tmp_path / "bob" / "genviz"
    pull(url, b)
    data = json.loads((b / NB).read_text())
    data["cells"][2]["source"] = B_EDIT
    (b / NB).write_text(json.dumps(data, indent=1))
    data = json.loads((work / NB).read_text())
    data["cells"][2]["source"] = EXERCISE_FIX
    (work / NB).write_text(json.dumps(data, indent=1))
    git(work, "commit", "-am", "fix")
    git(work, "push", url, "HEAD:main")
    pull(url, b)
    assert newer_cells(b / NB) == [CellUpdate(2, None, B_EDIT, EXERCISE_FIX)]


class FakeEvents:
    def __init__(self):
        self.callbacks = []

    def register(self, event, fn):
        assert event == "pre_run_cell"
        self.callbacks.append(fn)

    def unregister(self, event, fn):
        self.callbacks.remove(fn)

    def trigger(self):
        for fn in list(self.callbacks):
            fn(None)


def test_ipython_extension_prints_the_notice_once_under_the_first_cell(course, tmp_path,
                                                                        monkeypatch, capsys):
    url, work = course
    b = tmp_path / "bob" / "genviz"
    pull(url, b)
    edit_cell(b / NB, 2, B_EDIT)
    publish_fix(work, url)
    pull(url, b)
    monkeypatch.setenv("JPY_SESSION_NAME", str(b / NB))
    shell = type("Shell", (), {"events": FakeEvents()})()
    load_ipython_extension(shell)
    shell.events.trigger()
    assert "newer version of 1 cell" in capsys.readouterr().out
    shell.events.trigger()  # the second cell: nothing more
    assert capsys.readouterr().out == "" and shell.events.callbacks == []
    # a session that is not a notebook file (a console) never fails
    monkeypatch.setenv("JPY_SESSION_NAME", "console-1")
    load_ipython_extension(shell)
    shell.events.trigger()
    assert capsys.readouterr().out == ""


def test_command_line(course, tmp_path, capsys):
    url, work = course
    b = tmp_path / "bob" / "genviz"
    pull(url, b)
    assert main([str(b / NB)]) == 0
    edit_cell(b / NB, 2, B_EDIT)
    publish_fix(work, url)
    pull(url, b)
    assert main([str(b / NB)]) == 1 and "cell 3" in capsys.readouterr().out
    assert main([]) == 2 and main([str(tmp_path / "none.ipynb")]) == 2


@pytest.mark.parametrize("bad, error, match", [
    (3, TypeError, "notebook"),
    (None, TypeError, "notebook"),
    ("notes.txt", ValueError, "notebook must be a .ipynb"),
    ("missing.ipynb", ValueError, "does not exist"),
])
def test_newer_cells_bad_input(bad, error, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(error, match=match):
        newer_cells(bad)


@pytest.mark.parametrize("bad", [None, "cells", [1], [CellUpdate(0, None, "a", "b"), "x"]])
def test_update_notice_bad_input(bad):
    with pytest.raises(TypeError, match="updates"):
        update_notice(bad)


def test_model_layer_module_imports_no_ipython():
    code = "import sys, genviz.course_updates; print('IPython' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent, check=True).stdout
    assert out.strip() == "False"
