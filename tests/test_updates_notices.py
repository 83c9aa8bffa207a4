"""Nothing replaced without a copy, and notices complete and true (issue #39, items 2 and 3).

The same course and clicks as tests/test_deploy_updates.py (a bare repository, nbgitpuller's
flow through ``SafePuller``, the drivers defined in the environment). Oracles: the bytes the
student had (a kept copy must hold exactly them), the course's notebook as published, and the
words a notice must (and must not) contain for what actually happened.
"""

from __future__ import annotations

import base64
import time

import nbformat
import pytest

pytest.importorskip("nbgitpuller")

import test_deploy_updates  # noqa: E402
from test_deploy_updates import (B_EDIT, EXERCISE_FIX, NB, ben_clone, edit_cell, flat,  # noqa: E402
                                 git, items, lesson, publish, publish_fix, pull, run_and_save,
                                 sources, valid)

from genviz_updates import notices  # noqa: E402
from genviz_updates.__main__ import main as cli  # noqa: E402
from genviz_updates.notices import Watcher, read_state  # noqa: E402

#: the fixtures of tests/test_deploy_updates.py (``drivers``: autouse, the hub's git drivers)
course, drivers = test_deploy_updates.course, test_deploy_updates.drivers


def files(student):
    return (read_state(student / ".git") or {}).get("files", [])


# --- item 2: nothing replaced without a copy -------------------------------------------------------

def test_an_unreadable_notebook_is_kept_beside_the_courses_version_and_named(course, tmp_path, capsys):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    raw = (b / NB).read_bytes()
    cut = raw[: len(raw) * 2 // 3]                      # an interrupted save
    (b / NB).write_bytes(cut)
    assert cli(["status", str(b / NB)]) == 1            # not "every change has reached"
    assert "not a readable notebook" in capsys.readouterr().out
    publish_fix(work, url)
    pull(url, b)
    assert sources(b / NB) == sources(work / NB) and valid(b / NB)
    copy = b / f"notebooks/lesson.unreadable-{time.strftime('%Y-%m-%d')}.ipynb"
    assert copy.read_bytes() == cut                     # exactly the student's bytes
    (kept,) = [f for f in files(b) if f["kind"] == "kept-copy"]
    assert kept["path"] == NB and kept["copy"] == copy.relative_to(b).as_posix()
    text = flat(notices.repo_notice(read_state(b / ".git")))
    assert copy.name in text and "could not be read" in text
    assert cli(["status", str(b / NB)]) == 1            # status names the copy
    assert copy.name in capsys.readouterr().out
    assert "unreadable" in flat(Watcher(b / NB, started=0).check())


def test_a_readable_notebook_is_never_copied_as_unreadable(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    run_and_save(b / NB)
    publish_fix(work, url)
    pull(url, b)
    assert not list(b.glob("notebooks/*.unreadable-*")) and files(b) == []


# --- item 3: notices complete and true ------------------------------------------------------------

def _with_output(nb, text):
    nb.cells[3].outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
    nb.cells[3].execution_count = 1
    return nb


def test_an_output_only_change_arrives_or_is_named(course, tmp_path, capsys):
    url, work = course
    nbformat.write(_with_output(lesson(), "1\n"), work / NB)
    publish(work, url, "stored output")
    ran, edited = tmp_path / "ran" / "genviz", tmp_path / "edited" / "genviz"
    for s in (ran, edited):
        pull(url, s)
    run_and_save(ran / NB)                               # ran it: their own output
    edit_cell(edited / NB, 2, B_EDIT)                    # edited another cell, did not run
    nbformat.write(_with_output(lesson(), "2\n"), work / NB)
    publish(work, url, "new stored output only")
    for s in (ran, edited):
        pull(url, s)
    out = nbformat.read(edited / NB, as_version=4).cells[3].outputs
    assert out[0]["text"] == "2\n" and items(edited) == []     # delivered
    assert nbformat.read(ran / NB, as_version=4).cells[3].outputs[0]["text"] == "ran 2\n"
    (item,) = items(ran)                                         # named
    assert (item["kind"], item["id"]) == ("output-not-updated", "cell-3")
    text = flat(notices.notice_for(read_state(ran / ".git"), NB))
    assert "stored output" in text and "Run the cell again" in text
    assert cli(["status", str(ran / NB)]) == 1 and "stored output" in flat(capsys.readouterr().out)


PNG1 = base64.b64encode(b"\x89PNG first").decode()
PNG2 = base64.b64encode(b"\x89PNG second").decode()


def test_an_attachment_change_is_named_with_the_image(course, tmp_path):
    url, work = course

    def with_image(data):
        nb = lesson()
        nb.cells[0] = nbformat.v4.new_markdown_cell("# A lesson\n![fig](attachment:fig.png)")
        nb.cells[0].id = "cell-0"
        nb.cells[0].attachments = {"fig.png": {"image/png": data}}
        return nb

    nbformat.write(with_image(PNG1), work / NB)
    publish(work, url, "image")
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    edit_cell(b / NB, 0, "# A lesson, my notes\n![fig](attachment:fig.png)")
    nbformat.write(with_image(PNG2), work / NB)          # the same text, a new image
    publish(work, url, "new image")
    pull(url, b)
    (item,) = items(b)
    assert (item["kind"], item["attachments"]) == ("kept-yours", ["fig.png"])
    assert item["images"] == [{"name": "fig.png", "mime": "image/png", "data": PNG2}]
    text = flat(notices.notice_for(read_state(b / ".git"), NB))
    assert "changed image (attachment:fig.png) (shown below the notice in a notebook)" in text
    # a kernel shows the new image under the notice (the text names it), once
    watcher = Watcher(b / NB, started=0)
    assert "attachment:fig.png" in flat(watcher.check())
    assert watcher.images == item["images"]
    assert watcher.check() == "" and watcher.images == []


def test_a_notices_image_is_displayed_by_the_kernel(monkeypatch):
    """What IPython is given: the PNG's bytes (base64 decoded) or the SVG's XML."""
    from genviz_updates.kernel import show_image

    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    show_image({"name": "fig.png", "mime": "image/png", "data": PNG2})
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    show_image({"name": "fig.svg", "mime": "image/svg+xml", "data": svg})
    assert shown[0].data == base64.b64decode(PNG2) and shown[0].format == "png"
    assert "<rect" in shown[1].data


def test_attachment_images_keeps_image_types_within_the_size_bound():
    from genviz_updates.notebooks import MAX_IMAGE_TEXT, attachment_images

    cell = {"attachments": {"a.png": {"image/png": PNG1}, "b.txt": {"text/plain": "x"},
                            "c.jpg": {"image/jpeg": ["ab", "cd"]},
                            "big.png": {"image/png": "A" * MAX_IMAGE_TEXT}}}
    assert attachment_images(cell, ["a.png", "b.txt", "c.jpg"]) == [
        {"name": "a.png", "mime": "image/png", "data": PNG1},
        {"name": "c.jpg", "mime": "image/jpeg", "data": "abcd"}]
    assert attachment_images(cell, ["a.png", "big.png"]) == [
        {"name": "a.png", "mime": "image/png", "data": PNG1}]   # over the bound: named only


def test_conflict_details_are_kept_across_later_clicks_until_seen(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    publish_fix(work, url)
    pull(url, b)
    for n in range(2):                                   # two more clicks, no cell run
        (work / "README.md").write_text(f"news {n}\n")
        publish(work, url)
        pull(url, b)
    first = Watcher(b / NB, started=0).check()
    assert EXERCISE_FIX.strip() in first and "earlier" not in first  # in full, not a count
    (work / "README.md").write_text("more news\n")
    publish(work, url)
    pull(url, b)
    later = flat(Watcher(b / NB, started=0).check())     # shown once: now a count
    assert "1 earlier course change you were shown" in later and EXERCISE_FIX.strip() not in later


def test_status_of_a_renamed_notebook_does_not_claim_the_updates_reached_it(course, tmp_path, capsys):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    (b / NB).rename(b / "notebooks" / "mine.ipynb")
    publish_fix(work, url)
    pull(url, b)
    assert cli(["status", str(b / "notebooks" / "mine.ipynb")]) == 1
    out = flat(capsys.readouterr().out)
    assert "looks like your copy (or renamed version) of notebooks/lesson.ipynb" in out
    assert "every course change" not in out
    nbformat.write(nbformat.v4.new_notebook(), b / "scratch.ipynb")
    assert cli(["status", str(b / "scratch.ipynb")]) == 0
    assert "not one of the course's notebooks" in capsys.readouterr().out


def test_a_kernel_in_a_renamed_notebook_says_what_status_says(course, tmp_path, capsys):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    mine = b / "notebooks" / "mine.ipynb"
    (b / NB).rename(mine)                                # saved as mine.ipynb, the old name gone
    kernel = Watcher(mine, started=0)                    # running in the copy before the click
    assert kernel.check() == ""
    publish_fix(work, url)
    pull(url, b)
    told = flat(kernel.check())
    assert cli(["status", str(mine)]) == 1
    said = flat(capsys.readouterr().out).replace(str(mine), "notebooks/mine.ipynb")
    assert "looks like your copy (or renamed version) of notebooks/lesson.ipynb" in said
    assert said in told and "every course change" not in told
    assert Watcher(mine, started=0).check() == ""        # once per click: a second kernel is quiet
    # a notebook of the student's own (no course twin) and the course's notebook: no such words
    nbformat.write(nbformat.v4.new_notebook(), b / "scratch.ipynb")
    assert "not one of the course's notebooks" not in Watcher(b / "scratch.ipynb", started=0).check()
    assert "not one of the course's notebooks" not in Watcher(b / NB, started=0).check()
    (b / "broken.ipynb").write_bytes(b'{"cells": [')       # unreadable: no twin, and no error
    assert "not one of the course's notebooks" not in Watcher(b / "broken.ipynb", started=0).check()
    # the next click tells the copy's kernel again
    (work / "README.md").write_text("news\n")
    publish(work, url)
    pull(url, b)
    assert said in flat(kernel.check())


@pytest.mark.parametrize("edit, word", [(False, "did not edit"), (True, "edited copy")])
def test_a_notebook_the_course_removed_is_called_edited_only_if_edited(course, tmp_path, edit, word):
    url, work, b = ben_clone(course, tmp_path)
    run_and_save(b / NB)                                 # ran it
    if edit:
        edit_cell(b / NB, 2, B_EDIT)
    git(work, "rm", "-q", NB)
    (work / "other.md").write_text("the lesson moved\n")
    publish(work, url, "remove the lesson")
    pull(url, b)
    assert (b / NB).exists()                             # kept, and recoverable
    text = flat(notices.repo_notice(read_state(b / ".git")))
    assert word in text and NB in text
    if not edit:
        assert "edited" not in text


def test_an_object_named_by_its_id_is_read_once_and_by_its_whole_name(tmp_path, monkeypatch):
    """genviz_updates.git_object: a read of ``<commit id>:<path>`` or ``blob <id>`` is kept (the
    bytes never change) and not read again; another path of the same commit, a name that is not
    an id (``HEAD:...``) and a failed read are read by git each time."""
    import genviz_updates

    repo = tmp_path / "r"
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.name", "t"], ["config", "user.email", "t@t"]):
        genviz_updates.git(repo, *args, check=True)
    (repo / "a.txt").write_text("first a\n")
    (repo / "b.txt").write_text("first b\n")
    genviz_updates.git(repo, "add", "-A", check=True)
    genviz_updates.git(repo, "commit", "-q", "-m", "1", check=True)
    one = genviz_updates.git(repo, "rev-parse", "HEAD").stdout.strip()
    (repo / "a.txt").write_text("second a\n")
    genviz_updates.git(repo, "commit", "-q", "-am", "2", check=True)
    two = genviz_updates.git(repo, "rev-parse", "HEAD").stdout.strip()
    blob = genviz_updates.git(repo, "rev-parse", f"{one}:b.txt").stdout.strip()
    runs = []
    real = genviz_updates.git
    monkeypatch.setattr(genviz_updates, "git", lambda *a, **k: runs.append(a[1:]) or real(*a, **k))
    read = genviz_updates.git_object
    expected = [(("-p", f"{one}:a.txt"), b"first a\n"), (("-p", f"{two}:a.txt"), b"second a\n"),
                (("-p", f"{one}:b.txt"), b"first b\n"), (("blob", blob), b"first b\n")]
    for _ in range(2):
        for args, data in expected:
            assert read(repo, *args).stdout == data
    assert len(runs) == len(expected)  # each read once
    assert read(repo, "-p", "HEAD:a.txt").stdout == b"second a\n"
    assert read(repo, "-p", "HEAD:a.txt").stdout == b"second a\n"
    assert read(repo, "-p", f"{one}:gone.txt").returncode != 0
    assert read(repo, "-p", f"{one}:gone.txt").returncode != 0
    assert len(runs) == len(expected) + 4
    # bounded in all, not only per read: with room for 20 bytes the oldest reads go first
    monkeypatch.setattr(genviz_updates, "_OBJECTS_MAX_TOTAL", 20)
    genviz_updates._OBJECTS.clear()
    runs.clear()
    for args, _ in expected:  # 9 + 10 + 8 + 8 bytes: only the last two stay
        read(repo, *args)
    assert sum(len(d.stdout) for d in genviz_updates._OBJECTS.values()) <= 20
    for args, data in reversed(expected):
        assert read(repo, *args).stdout == data
    assert len(runs) == 2 * len(expected) - 2  # the two kept were not read again
