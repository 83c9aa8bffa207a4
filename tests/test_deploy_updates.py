"""Course updates through nbgitpuller deliver every fix and lose no student's work (issue #33).

A local bare repository stands for the course's GitHub repository; each student's copy is
cloned and updated by ``genviz_updates.puller.SafePuller`` -- nbgitpuller's own ``GitPuller``
flow (fetch, commit the student's changes, ``git merge -Xours``) with the repairs of
genviz_updates -- with the merge drivers defined in the environment as the hub's server
extension defines them. The scenarios are the issue's: what a course team publishes mid-term
and what students do meanwhile. The randomized version is tests/test_updates_random.py.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgitpuller")

from genviz_updates import notices  # noqa: E402
from genviz_updates.__main__ import main as cli  # noqa: E402
from genviz_updates.driver import git_config, git_config_env, merge_file  # noqa: E402
from genviz_updates.kernel import CloneFinder, clone_of, load_ipython_extension  # noqa: E402
from genviz_updates.notices import Watcher, read_state  # noqa: E402
from genviz_updates.puller import SafePuller  # noqa: E402
from genviz_updates.server import pre_save_hook, stale_model  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NB = "notebooks/lesson.ipynb"
FIX_X = "x = 2  # fixed: the notes use 2\n"
EXERCISE = "answer = None  # compute x + 1\n"
EXERCISE_FIX = "answer = None  # compute x + 1 (hint: x is 2 now)\n"
B_EDIT = "answer = 3  # my try\n"


def git(cwd, *args):
    return subprocess.run(["git", "-c", "user.name=Instructor", "-c", "user.email=i@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def lesson(x_src="x = 1\n", exercise=EXERCISE, extra=()):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A lesson"),
                nbformat.v4.new_code_cell(x_src), nbformat.v4.new_code_cell(exercise),
                nbformat.v4.new_code_cell("print(x)"), nbformat.v4.new_markdown_cell("The end.")]
    for i, cell in enumerate(nb.cells):
        cell.id = f"cell-{i}"
    for pos, cell in extra:
        nb.cells.insert(pos, cell)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    return nb


@pytest.fixture(autouse=True)
def drivers(monkeypatch):
    """The drivers as the hub's server extension defines them (GIT_CONFIG_* in the env)."""
    for key, value in git_config_env(os.environ).items():
        monkeypatch.setenv(key, value)


def pull(url, target):
    """One click on the course link: SafePuller, i.e. nbgitpuller's flow; returns its output."""
    return "".join(SafePuller(url, str(target), branch="main", depth=1).pull())


def ben_clone(course, tmp_path, edit=False):
    """The course's ``(url, work)`` and ben's first click: his clone, with ``B_EDIT`` in cell 2
    if ``edit``."""
    url, work = course
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    if edit:
        edit_cell(b / NB, 2, B_EDIT)
    return url, work, b


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


def cells(path):
    return [(c.get("id"), c.cell_type, c.source) for c in nbformat.read(path, as_version=4).cells]


def sources(path):
    return [c.source for c in nbformat.read(path, as_version=4).cells]


def valid(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    ids = [c.get("id") for c in nb.cells]
    assert len(ids) == len(set(ids)), ids
    return nb


def flat(text):
    """A notice with its line wrapping undone."""
    return " ".join(text.split())


def items(student, rel=NB):
    state = read_state(student / ".git") or {}
    return state.get("notebooks", {}).get(rel, {}).get("items", [])


def publish(work, url, message="update"):
    git(work, "add", "-A")
    git(work, "commit", "-m", message)
    git(work, "push", url, "HEAD:main")


@pytest.fixture()
def course(tmp_path):
    """(bare repository URL, the instructor's working copy), with the course's .gitattributes."""
    bare, work = tmp_path / "course.git", tmp_path / "instructor"
    git(tmp_path, "init", "--bare", str(bare))
    git(tmp_path, "init", str(work))
    (work / "notebooks").mkdir()
    nbformat.write(lesson(), work / NB)
    (work / ".gitattributes").write_text((ROOT / ".gitattributes").read_text())
    publish(work, f"file://{bare}", "lesson 1")
    return f"file://{bare}", work


def publish_fix(work, url):
    nbformat.write(lesson(FIX_X, EXERCISE_FIX), work / NB)
    publish(work, url, "fix lesson 1")


def test_the_drivers_are_defined_for_git_by_the_environment(tmp_path):
    env = git_config_env({"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.x",
                          "GIT_CONFIG_VALUE_0": "y"}, python="/opt/py")
    assert env["GIT_CONFIG_KEY_0"] == "core.x" and env["GIT_CONFIG_COUNT"] == str(1 + 4)
    assert git_config_env(env, python="/opt/py") == env  # idempotent
    out = subprocess.run(["git", "config", "--get", "merge.genviz-notebook.driver"],
                         env=env, capture_output=True, text=True, cwd=tmp_path).stdout
    assert f"PYTHONPATH={ROOT}" in out
    assert "/opt/py -m genviz_updates.driver notebook %O %A %B %P || true" in out
    assert "/opt/py -m genviz_updates.driver course" in dict(git_config("/opt/py"))[
        "merge.genviz-course.driver"]


def test_run_only_student_gets_every_kind_of_course_change_and_no_notice(course, tmp_path):
    """The issue's first finding: inserts next to run cells, deletes, moves, a code cell
    replaced by markdown -- all lost or mangled by -Xours text merges -- all arrive."""
    url, work = course
    a = tmp_path / "ada" / "genviz"
    pull(url, a)
    run_and_save(a / NB)
    nb = lesson(FIX_X)
    inserted = nbformat.v4.new_code_cell("y = x * 10  # new")
    inserted.id = "new-1"
    nb.cells.insert(2, inserted)                       # an insert next to a cell the student ran
    del nb.cells[4]                                    # delete "print(x)"
    nb.cells.insert(0, nb.cells.pop(-1))               # move "The end." to the top
    code = nb.cells[3]
    nb.cells[3] = nbformat.v4.new_markdown_cell("Now explained in words.")  # code -> markdown
    nb.cells[3].id = code.id
    nbformat.write(nb, work / NB)
    publish(work, url)
    pull(url, a)
    merged = valid(a / NB)
    assert cells(a / NB) == cells(work / NB)           # exactly the course's cells
    assert merged.cells[2].outputs == []               # the fixed cell: the course's (no output)
    assert items(a) == [] and notices.notice_for(read_state(a / ".git"), NB) == ""


def test_student_who_edited_the_fixed_cell_keeps_it_and_is_told_with_the_course_version(course, tmp_path):
    url, work = course
    a, b = tmp_path / "ada" / "genviz", tmp_path / "ben" / "genviz"
    for s in (a, b):
        pull(url, s)
        run_and_save(s / NB)
    edit_cell(b / NB, 2, B_EDIT)
    publish_fix(work, url)
    pull(url, a)
    pull(url, b)
    assert sources(a / NB) == sources(work / NB) and items(a) == []
    assert nbformat.read(a / NB, as_version=4).cells[3].outputs  # a's run of an unchanged cell
    assert sources(b / NB)[1] == FIX_X and sources(b / NB)[2] == B_EDIT  # fix in, edit kept
    (item,) = items(b)
    assert (item["kind"], item["id"], item["index"], item["course"]) == (
        "kept-yours", "cell-2", 3, EXERCISE_FIX)
    raw = notices.notice_for(read_state(b / ".git"), NB)
    text = flat(raw)
    assert "cell 3" in text and "your version is kept" in text and EXERCISE_FIX.strip() in raw
    assert cli(["status", str(b / NB)]) == 1 and cli(["status", str(a / NB)]) == 0


def test_an_edit_on_another_line_of_the_fixed_cell_is_reported_truthfully(course, tmp_path):
    """A cell is the unit: the student's cell is kept whole and the notice says so (the old
    line merge delivered the fix and *said* it had not)."""
    url, work, b = ben_clone(course, tmp_path)
    edit_cell(b / NB, 1, "x = 1\nprint('my line')\n")
    nbformat.write(lesson("x = 2\n"), work / NB)
    publish(work, url)
    pull(url, b)
    assert sources(b / NB)[1] == "x = 1\nprint('my line')\n"
    assert [(i["kind"], i["course"]) for i in items(b)] == [("kept-yours", "x = 2\n")]


def test_course_changes_the_student_did_not_get_are_all_named_and_nothing_else(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    nb = nbformat.read(b / NB, as_version=4)
    nb.cells[2].source = B_EDIT            # edits the exercise the course will fix
    nb.cells[3].source = "print(x, 'mine')"  # edits the cell the course will delete
    del nb.cells[1]                         # deletes the cell the course will fix
    nbformat.write(nb, b / NB)
    course_nb = lesson(FIX_X, EXERCISE_FIX)
    del course_nb.cells[3]
    nbformat.write(course_nb, work / NB)
    publish(work, url)
    pull(url, b)
    valid(b / NB)
    got = {(i["kind"], i["id"]) for i in items(b)}
    assert got == {("kept-yours", "cell-2"), ("you-deleted", "cell-1"), ("kept-deleted", "cell-3")}
    raw = notices.notice_for(read_state(b / ".git"), NB)
    assert FIX_X.strip() in raw and EXERCISE_FIX.strip() in raw and "removed this cell" in flat(raw)


def test_once_per_merge_and_a_student_who_took_the_fix_is_not_nagged(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    publish_fix(work, url)
    pull(url, b)
    first, second = Watcher(b / NB, started=0), Watcher(b / NB, started=0)
    assert "did not reach your copy" in first.check()
    assert first.check() == "" and second.check() == ""  # told once, whichever kernel
    # a later update of something else: the kept cell is carried, listed as earlier
    (work / "README.md").write_text("news\n")
    publish(work, url)
    pull(url, b)
    assert [i["id"] for i in items(b)] == ["cell-2"]
    assert "earlier course change" in flat(Watcher(b / NB, started=0).check())
    # the student copies the fix and edits it further: nothing more is said
    edit_cell(b / NB, 2, EXERCISE_FIX.replace("None", "3"))
    (work / "README.md").write_text("more news\n")
    publish(work, url)
    pull(url, b)
    assert items(b) == []


def test_course_renames_a_notebook_the_student_edited(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    run_and_save(b / NB)
    edit_cell(b / NB, 3, "print(x, 'mine')")
    git(work, "mv", NB, "notebooks/01_lesson.ipynb")
    nbformat.write(lesson(FIX_X), work / "notebooks/01_lesson.ipynb")
    publish(work, url, "rename")
    pull(url, b)
    new = b / "notebooks/01_lesson.ipynb"
    assert not (b / NB).exists() and sources(new)[1] == FIX_X and sources(new)[3] == "print(x, 'mine')"
    assert items(b, "notebooks/01_lesson.ipynb") == []  # no cell reported: the rename is followed
    text = flat(notices.notice_for(read_state(b / ".git"), NB))  # a tab still open on the old name
    assert "renamed this notebook to notebooks/01_lesson.ipynb" in text


def test_course_rename_after_a_student_rename_does_not_wedge(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    (b / NB).rename(b / "notebooks" / "mine.ipynb")           # the student's rename
    git(work, "mv", NB, "notebooks/01_lesson.ipynb")           # then the course's
    publish(work, url, "rename")
    for _ in range(2):  # and every later click works too
        pull(url, b)
    assert sources(b / "notebooks/01_lesson.ipynb") == sources(work / "notebooks/01_lesson.ipynb")
    assert sources(b / "notebooks/mine.ipynb")[2] == B_EDIT
    assert git(b, "status", "--porcelain", "--untracked-files=no") == ""


def test_student_deleted_a_notebook_the_course_renames_and_edits(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    pull(url, b)  # the edit is committed by nbgitpuller
    (b / NB).unlink()
    git(work, "mv", NB, "notebooks/01_lesson.ipynb")
    nbformat.write(lesson(FIX_X), work / "notebooks/01_lesson.ipynb")
    publish(work, url, "rename + fix")
    out = pull(url, b)
    assert "restored for the merge" in out
    assert sources(b / "notebooks/01_lesson.ipynb") == sources(work / "notebooks/01_lesson.ipynb")
    state = read_state(b / ".git")
    assert any(f["kind"] == "note" and "renamed it to notebooks/01_lesson.ipynb" in f["what"]
               for f in state["files"])


def test_a_student_file_where_the_course_adds_a_folder_is_kept_aside(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    (b / "notebooks" / "data").write_text("my notes\n")        # a file ...
    (work / "notebooks" / "data").mkdir()
    (work / "notebooks" / "data" / "table.csv").write_text("a,b\n1,2\n")  # ... course's folder
    (b / "extras").mkdir()
    (b / "extras" / "x.txt").write_text("mine")                 # a folder ...
    (work / "extras").write_text("course file\n")               # ... course's file
    publish(work, url, "data folder")
    pull(url, b)
    assert (b / "notebooks/data/table.csv").read_text() == "a,b\n1,2\n"
    assert (b / "extras").read_text() == "course file\n"
    kept = {f["path"]: f["copy"] for f in read_state(b / ".git")["files"] if f["kind"] == "kept-copy"}
    assert (b / kept["notebooks/data"]).read_text() == "my notes\n"
    assert (b / kept["extras"] / "x.txt").read_text() == "mine"
    assert ".student-" in kept["extras"]
    assert "your version is kept as" in flat(notices.repo_notice(read_state(b / ".git")))


def test_a_data_file_changed_on_both_sides_takes_the_course_bytes_and_keeps_a_copy(course, tmp_path):
    url, work = course
    data = work / "genviz" / "data"
    data.mkdir(parents=True)
    (data / "t.csv.gz").write_bytes(gzip.compress(b"a\n1\n", mtime=0))
    (data / "t.csv.gz.json").write_text('{"sha256": "one"}\n')
    publish(work, url, "data")
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    (b / "genviz/data/t.csv.gz").write_bytes(gzip.compress(b"a\n9\n", mtime=0))  # student's
    (data / "t.csv.gz").write_bytes(gzip.compress(b"a\n2\n", mtime=0))           # course's
    (data / "t.csv.gz.json").write_text('{"sha256": "two"}\n')
    publish(work, url, "data fix")
    pull(url, b)
    assert (b / "genviz/data/t.csv.gz").read_bytes() == (data / "t.csv.gz").read_bytes()
    assert (b / "genviz/data/t.csv.gz.json").read_text() == '{"sha256": "two"}\n'
    (kept,) = [f for f in read_state(b / ".git")["files"] if f["kind"] == "kept-copy"]
    assert gzip.decompress((b / kept["copy"]).read_bytes()) == b"a\n9\n"
    assert kept["copy"].startswith("genviz/data/t.student-") and read_state(b / ".git")["library_changed"]


def test_a_notebook_without_cell_ids_merges_by_content(course, tmp_path):
    """The course's notebook is nbformat 4.4 (no ids); JupyterLab gave the student's copy new
    random ids when it saved it (4.5). Cells are matched by content."""
    url, work = course
    path = work / NB
    data = json.loads(path.read_text())
    for cell in data["cells"]:
        cell.pop("id")
    data["nbformat_minor"] = 4
    path.write_text(json.dumps(data, indent=1))
    publish(work, url, "4.4")
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    nb = nbformat.read(b / NB, as_version=4)  # upgraded to 4.5 with random ids, as Lab does
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"random-{k}"
        if cell.cell_type == "code":
            cell["outputs"] = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
    nb.nbformat_minor = 5
    nb.cells[2].source = B_EDIT
    nbformat.write(nb, b / NB)
    data["cells"][1]["source"] = FIX_X
    data["cells"][2]["source"] = EXERCISE_FIX
    data["cells"].insert(3, {"cell_type": "markdown", "metadata": {}, "source": "Inserted."})
    path.write_text(json.dumps(data, indent=1))
    publish(work, url, "fix, 4.4")
    pull(url, b)
    merged = valid(b / NB)
    assert [c.source for c in merged.cells] == ["# A lesson", FIX_X, B_EDIT, "Inserted.",
                                                "print(x)", "The end."]
    assert merged.cells[4].outputs  # matched by content: the student's run kept
    assert [(i["kind"], i["index"]) for i in items(b)] == [("kept-yours", 3)]


def test_duplicate_ids_left_by_an_old_text_merge_are_made_unique(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    data = json.loads((b / NB).read_text())
    data["cells"].append(dict(data["cells"][3]))  # the same id twice
    (b / NB).write_text(json.dumps(data, indent=1))
    publish_fix(work, url)
    pull(url, b)
    merged = valid(b / NB)
    assert [c.source for c in merged.cells].count("print(x)") == 2 and items(b) == []


def test_a_failing_driver_keeps_the_students_notebook_valid_and_the_notice_names_every_change(
        course, tmp_path, monkeypatch):
    url, work, b = ben_clone(course, tmp_path)
    run_and_save(b / NB)
    mine = (b / NB).read_text()
    fail = f"{sys.executable} -c 'raise SystemExit(3)' %O %A %B || true"  # as a crash would
    n = int(os.environ["GIT_CONFIG_COUNT"])
    key = next(i for i in range(n) if os.environ[f"GIT_CONFIG_KEY_{i}"] == "merge.genviz-notebook.driver")
    monkeypatch.setenv(f"GIT_CONFIG_VALUE_{key}", fail)
    nb = lesson(FIX_X, extra=[(2, nbformat.v4.new_markdown_cell("Inserted."))])
    nb.cells[2].id = "new"
    nbformat.write(nb, work / NB)
    publish(work, url)
    pull(url, b)
    assert (b / NB).read_text() == mine and valid(b / NB)
    assert {(i["kind"], i["id"]) for i in items(b)} == {("not-changed", "cell-1"), ("not-added", "new")}


def test_the_driver_keeps_the_students_version_on_any_failure(tmp_path):
    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    nbformat.write(lesson(), base)
    nbformat.write(lesson(exercise=B_EDIT), ours)
    theirs.write_text("{ not json")
    assert merge_file("notebook", str(base), str(ours), str(theirs)) == "ours"
    assert nbformat.read(ours, as_version=4).cells[2].source == B_EDIT
    ours.write_text("garbage")  # the student's file is no notebook: the course's is taken
    nbformat.write(lesson(FIX_X), theirs)
    assert merge_file("notebook", str(base), str(ours), str(theirs)) == "theirs"
    valid(ours)
    with pytest.raises(ValueError, match="mode must be"):
        merge_file("text", str(base), str(ours), str(theirs))
    from genviz_updates.driver import main
    assert main(["nope"]) == 2 and main(["notebook", "/missing", str(ours), "/missing"]) == 0


def test_a_stale_merge_left_behind_does_not_block_later_pulls(course, tmp_path):
    url, work, b = ben_clone(course, tmp_path)
    (b / ".git" / "MERGE_HEAD").write_text(git(b, "rev-parse", "HEAD"))
    publish_fix(work, url)
    pull(url, b)
    assert sources(b / NB)[1] == FIX_X


def test_a_merge_that_fails_anyway_is_rescued_with_copies(course, tmp_path, monkeypatch):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    publish_fix(work, url)

    def broken(self):
        raise subprocess.CalledProcessError(1, ["git", "merge"])
        yield  # pragma: no cover

    monkeypatch.setattr("nbgitpuller.pull.GitPuller.merge", broken)
    out = pull(url, b)
    assert "keeping your versions as copies" in out
    assert sources(b / NB) == sources(work / NB)
    (kept,) = [f for f in read_state(b / ".git")["files"] if f["kind"] == "kept-copy"]
    assert sources(b / kept["copy"])[2] == B_EDIT
    monkeypatch.undo()
    for key, value in git_config_env(os.environ).items():
        monkeypatch.setenv(key, value)
    (work / "README.md").write_text("news\n")
    publish(work, url)
    pull(url, b)  # the next click merges normally
    assert (b / "README.md").read_text() == "news\n"


class FakeEvents:
    def __init__(self):
        self.callbacks = []

    def register(self, event, fn):
        assert event == "pre_run_cell"
        self.callbacks.append(fn)

    def unregister(self, event, fn):  # as IPython's EventManager: ValueError if not there
        self.callbacks.remove(fn)

    def trigger(self):
        for fn in list(self.callbacks):
            fn(None)


def test_a_kernel_started_before_the_click_tells_at_its_next_cell(course, tmp_path, monkeypatch,
                                                                  capsys):
    url, work, b = ben_clone(course, tmp_path, edit=True)
    monkeypatch.setenv("JPY_SESSION_NAME", str(b / NB))
    shell = type("Shell", (), {"events": FakeEvents()})()
    load_ipython_extension(shell)  # the kernel is running ...
    shell.events.trigger()
    assert capsys.readouterr().out == ""
    publish_fix(work, url)
    pull(url, b)                   # ... when the student clicks
    shell.events.trigger()         # the next cell
    out = flat(capsys.readouterr().out)
    assert "did not reach your copy" in out and "Reload Notebook from Disk" in out
    shell.events.trigger()
    assert capsys.readouterr().out == ""  # once
    monkeypatch.setenv("JPY_SESSION_NAME", "console-1")  # not a notebook: never fails
    load_ipython_extension(shell)
    shell.events.trigger()


def test_kernels_import_the_genviz_of_the_students_clone(tmp_path):
    clone = tmp_path / "genviz"
    (clone / ".git").mkdir(parents=True)
    (clone / "genviz").mkdir()
    (clone / "genviz" / "__init__.py").write_text("WHERE = 'clone'\n")
    (clone / "notebooks").mkdir()
    nb = clone / "notebooks" / "a.ipynb"
    nbformat.write(lesson(), nb)
    assert clone_of(nb) == clone and clone_of(tmp_path / "x.ipynb") is None
    code = (f"import sys; from genviz_updates.kernel import CloneFinder; "
            f"sys.meta_path.insert(0, CloneFinder({str(clone)!r})); import genviz; "
            f"print(genviz.WHERE, genviz.__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True).stdout
    assert out.startswith("clone " + str(clone / "genviz"))
    assert CloneFinder(clone).find_spec("numpy") is None


def test_a_library_update_tells_a_running_kernel_to_restart(course, tmp_path):
    url, work = course
    (work / "genviz").mkdir()
    (work / "genviz" / "__init__.py").write_text("VERSION = 1\n")
    publish(work, url)
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    watcher = Watcher(b / NB, started=0)
    (work / "genviz" / "__init__.py").write_text("VERSION = 2\n")
    publish(work, url)
    pull(url, b)
    assert "Restart the kernel" in flat(watcher.check(library_loaded=True))
    assert "Restart" not in Watcher(b / NB).check(library_loaded=True)  # a kernel started after


def test_a_save_from_a_tab_opened_before_the_merge_keeps_the_update(course, tmp_path):
    """JupyterLab's "File Changed" > Overwrite (or an autosave) from a tab that still shows
    the notebook as it was: the pre-save hook merges instead of reverting the update."""
    url, work, b = ben_clone(course, tmp_path)
    run_and_save(b / NB)
    tab = json.loads((b / NB).read_text())  # what the open tab holds
    nb = lesson(FIX_X, extra=[(2, nbformat.v4.new_markdown_cell("Inserted."))])
    nb.cells[2].id = "new"
    nbformat.write(nb, work / NB)
    publish(work, url)
    pull(url, b)
    tab["cells"][2]["source"] = B_EDIT  # typed in the old tab after the click
    model = {"type": "notebook", "content": tab}
    manager = type("CM", (), {"_get_os_path": lambda self, p: str(b / p),
                              "log": type("L", (), {"info": lambda *a: None})()})()
    pre_save_hook(model, NB, manager)
    got = [(c.get("id"), "".join(c["source"])) for c in model["content"]["cells"]]
    assert ("new", "Inserted.") in got and ("cell-1", FIX_X) in got and ("cell-2", B_EDIT) in got
    # a save from a tab that has the update is left alone
    fresh = json.loads((b / NB).read_text())
    assert not stale_model(fresh["cells"], read_state(b / ".git")["notebooks"][NB]["delivered"])
    model = {"type": "notebook", "content": fresh}
    pre_save_hook(model, NB, manager)
    assert model["content"] is fresh


def test_command_line_bad_input(tmp_path, capsys):
    assert cli([]) == 2 and cli(["status", str(tmp_path / "none.ipynb")]) == 2
    (tmp_path / "a.txt").write_text("x")
    assert cli(["status", str(tmp_path / "a.txt")]) == 2
    assert "notebook must be" in capsys.readouterr().err
    nbformat.write(lesson(), tmp_path / "loose.ipynb")  # outside any repository
    assert cli(["status", str(tmp_path / "loose.ipynb")]) == 0


def test_the_course_repository_names_the_drivers():
    text = (ROOT / ".gitattributes").read_text()
    assert "*.ipynb merge=genviz-notebook" in text and "genviz/data/** merge=genviz-course" in text
    from genviz_updates.puller import ATTRIBUTES
    assert all(line in text for line in ATTRIBUTES.splitlines())


def test_the_drivers_can_be_written_into_gits_config(tmp_path, monkeypatch):
    """TLJH's setup.sh: ``python -m genviz_updates.driver install --system`` (here --global
    into a scratch home, which is where git looks for --global)."""
    from genviz_updates.driver import main

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "0")
    assert main(["install", "--global"]) == 0
    out = subprocess.run(["git", "config", "--global", "--get", "merge.genviz-notebook.driver"],
                         capture_output=True, text=True, cwd=tmp_path).stdout
    assert "-m genviz_updates.driver notebook %O %A %B %P" in out
    assert "genviz_updates.driver notebook" in (tmp_path / ".gitconfig").read_text()


def test_paths_with_spaces_and_accents(course, tmp_path):
    """git quotes such paths unless asked not to (-z): every step must still find them."""
    url, work = course
    odd = "notebooks/Lektion 1 – Übung.ipynb"
    git(work, "mv", NB, odd)
    publish(work, url, "odd name")
    b = tmp_path / "ben" / "genviz"
    pull(url, b)
    edit_cell(b / odd, 2, B_EDIT)
    pull(url, b)
    (b / odd).unlink()  # deleted by the student, then renamed and fixed by the course
    git(work, "mv", odd, "notebooks/Lektion 2 – Übung.ipynb")
    nbformat.write(lesson(FIX_X, EXERCISE_FIX), work / "notebooks/Lektion 2 – Übung.ipynb")
    publish(work, url, "rename again")
    assert "restored for the merge" in pull(url, b)
    assert sources(b / "notebooks/Lektion 2 – Übung.ipynb")[1] == FIX_X


def test_tiny_and_empty_notebooks_merge(tmp_path):
    empty = nbformat.v4.new_notebook()
    one = lesson()
    one.cells = one.cells[:1]
    for name, nb in (("base", empty), ("ours", empty), ("theirs", one)):
        nbformat.write(nb, tmp_path / name)
    assert merge_file("notebook", *(str(tmp_path / n) for n in ("base", "ours", "theirs"))) \
        == "merged"
    assert cells(tmp_path / "ours") == [("cell-0", "markdown", "# A lesson")]
    (tmp_path / "base").write_text("")  # git's empty base when both sides added the file
    nbformat.write(empty, tmp_path / "ours")
    assert merge_file("notebook", *(str(tmp_path / n) for n in ("base", "ours", "theirs"))) \
        == "merged"
    valid(tmp_path / "ours")


def test_the_course_branch_is_checked_with_one_ls_remote_as_nbgitpuller_checks_it(tmp_path,
                                                                                 monkeypatch):
    """SafePuller.branch_exists (one ``git ls-remote --heads --tags``) accepts and refuses
    exactly the names nbgitpuller's (two ls-remote) does: heads, tags, a name with a slash."""
    from nbgitpuller import GitPuller
    from nbgitpuller.errors import BranchExistError

    work = tmp_path / "course"
    subprocess.run(["git", "init", "-q", "-b", "main", str(work)], check=True)
    g = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    (work / "a.txt").write_text("a\n")
    for args in (["add", "-A"], ["commit", "-q", "-m", "1"], ["tag", "-a", "v1", "-m", "v1"],
                 ["branch", "feature/x"]):
        subprocess.run([*g, *args], check=True)
    url = f"file://{work}"
    puller = SafePuller(url, str(tmp_path / "student"), branch="main")
    expected = {"main": True, "v1": True, "feature/x": True, "v1^{}": True, "nope": False,
                "x": False, "heads": False, "feature": False}
    for name, exists in expected.items():
        answers = []
        for check in (GitPuller.branch_exists, SafePuller.branch_exists):
            try:
                check(puller, name)
                answers.append(True)
            except BranchExistError:
                answers.append(False)
        assert answers == [exists, exists], name
    calls, real_run = [], subprocess.run
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a[0]) or real_run(*a, **k))
    puller.branch_exists("main")
    monkeypatch.undo()
    assert [c[:2] for c in calls] == [["git", "ls-remote"]]
    with pytest.raises(BranchExistError):
        SafePuller(url, str(tmp_path / "student"), branch="nope")
