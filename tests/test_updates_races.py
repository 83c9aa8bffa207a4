"""Course updates meet what a student does *during* a click, and what git's text merge does
at one (issue #39, red team).

nbgitpuller's click commits the student's changes, then merges. A tab's save (an autosave, a
Ctrl-S in the tab the student left open while clicking the course link) can land between
the two: git then refuses to overwrite the saved file. Before, that refusal took the
rescue path, whose copies named only the files committed before the click and whose reset
then overwrote the save: the typing gone, no copy, no notice, ``status`` saying every change
had arrived. These tests put the save exactly there (a ``SafePuller`` whose merge step
writes the notebook first, as jupyter-server's atomic save does) and read what is left.

Oracle: the sources written by each story, ``git status``, nbformat's validator.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytest.importorskip("nbgitpuller")

from nbgitpuller.pull import GitPuller  # noqa: E402
from test_deploy_updates import (B_EDIT, EXERCISE_FIX, FIX_X, NB, ben_clone, edit_cell,  # noqa: E402
                                 flat, items, publish, publish_fix, pull, sources, valid)
from test_deploy_updates import course, drivers  # noqa: E402,F401 (fixtures)

from genviz_updates import puller as puller_module  # noqa: E402
from genviz_updates.notices import read_state, repo_notice  # noqa: E402
from genviz_updates.puller import SafePuller  # noqa: E402

TYPED = "print('typed during the click')\n"


@pytest.fixture()
def saves(monkeypatch):
    """``saves(student, n)``: the next ``n`` merges of the course into ``student``'s clone
    each meet a tab's save of ``TYPED`` into cell 3, written just before ``git merge`` runs
    (after nbgitpuller committed the student's changes)."""
    original = GitPuller.merge
    pending = {}

    def merge_after_a_save(self):
        student = Path(self.repo_dir)
        if pending.get(student):
            pending[student] -= 1
            edit_cell(student / NB, 3, TYPED + f"# save {pending[student]}\n")
        yield from original(self)

    monkeypatch.setattr(GitPuller, "merge", merge_after_a_save)

    def plan(student, n=1):
        pending[Path(student)] = n
    return plan


def click(url, student):
    return "".join(SafePuller(url, str(student), branch="main", depth=1).pull())


def status(student):
    return subprocess.run(["git", "status", "--porcelain"], cwd=student, capture_output=True,
                          text=True, check=True).stdout


def test_a_save_landing_during_the_click_is_merged_with_the_update(course, tmp_path, saves):
    """The save lands after nbgitpuller's commit: it is committed too and merged; the update
    arrives, the typing stays, nothing is moved aside, nothing false is said."""
    url, work, ben = ben_clone(course, tmp_path, edit=True)
    publish_fix(work, url)
    saves(ben)
    out = click(url, ben)
    assert "saved during the update" in out and "copies" not in out
    got = sources(ben / NB)
    assert got[1] == FIX_X                              # the update arrived
    assert got[2] == B_EDIT                             # the edit committed before the click
    assert got[3].startswith(TYPED)                     # and the save made during it
    valid(ben / NB)
    assert [i["kind"] for i in items(ben)] == ["kept-yours"]  # B_EDIT over the course's fix
    assert status(ben) == ""


def test_a_save_landing_during_the_click_of_a_student_who_changed_nothing(course, tmp_path, saves):
    """The tab's first change since the last click lands during it (nothing was committed
    before): the same."""
    url, work, ben = ben_clone(course, tmp_path)
    publish_fix(work, url)
    saves(ben)
    click(url, ben)
    got = sources(ben / NB)
    assert got[1:4] == [FIX_X, EXERCISE_FIX, got[3]] and got[3].startswith(TYPED)
    assert items(ben) == []


def test_a_save_the_merge_still_refuses_is_kept_as_a_named_copy(course, tmp_path, saves,
                                                                monkeypatch):
    """Saves land before every try, more often than the click tries again (here: never): the
    rescue takes the course's version, and the save -- never committed, the student's first
    change since the last click -- is among the copies it keeps and names."""
    monkeypatch.setattr(puller_module, "SAVED_DURING_CLICK_RETRIES", 0)
    url, work, ben = ben_clone(course, tmp_path)
    publish_fix(work, url)
    saves(ben, 5)
    out = click(url, ben)
    assert "kept your notebooks/lesson.ipynb as" in out
    copies = [p for p in (ben / "notebooks").iterdir() if p.name != "lesson.ipynb"]
    assert len(copies) == 1 and sources(copies[0])[3].startswith(TYPED)
    assert sources(ben / NB)[1] == FIX_X
    assert [f["path"] for f in read_state(ben / ".git")["files"] if f["kind"] == "kept-copy"] == [NB]


def test_a_click_that_drops_a_course_change_next_to_the_students_says_so(course, tmp_path):
    """At a click, nbgitpuller's ``git merge -Xours`` takes the student's side of a conflict
    hunk, and git makes one hunk of edits next to each other: the student changed g's last
    line, the course added h after it -- h does not arrive. The notice said "you and the
    course changed the same lines"; it now says neighbouring lines too, and that the course's
    are not in the copy (the way to get them stays)."""
    url, work, ben = ben_clone(course, tmp_path)
    helper = "notebooks/helper.py"
    v1 = "def g(x):\n    return 2 * x\n"
    (work / helper).write_text(v1)
    publish(work, url, "helper")
    pull(url, ben)
    (ben / helper).write_text(v1.replace("2 * x", "2 * x  # mine"))
    (work / helper).write_text(v1 + "\n\ndef h(x):\n    return 3\n")
    publish(work, url, "h")
    pull(url, ben)
    assert "def h" not in (ben / helper).read_text()      # git's -Xours: h did not arrive
    told = flat(repo_notice(read_state(ben / ".git")))
    assert f"{helper}: you and the course changed the same or neighbouring lines" in told
    assert "the course's are not in your copy" in told
