"""Randomized course updates: every course change arrives or is named, no student edit is lost.

Each trial (seeded) builds a course notebook with ids, clones it with nbgitpuller's flow
(``SafePuller``), lets the student run it (nbclient, on one kernel shared by the trials, saved
as jupyter-server saves: ``nbformat.write``), edit, insert, delete and move cells, publishes a
course update (edits, inserts, deletes, moves, type changes), clicks again, and sometimes does
a second round on top. After every pull an oracle that knows what each side did checks:

- the notebook is valid (nbformat) and its cell ids are unique;
- no student edit is lost: every edited or inserted cell has the student's content, deleted
  cells stay deleted, the outputs of cells the course did not change are the student's;
- every course change is in the notebook or named in the record (``genviz-updates.json``);
  the course's cells are in the course's order (except cells only the student moved);
- no false notice: each item named is a real change that did not arrive, of the right kind.

``GENVIZ_UPDATE_TRIALS`` sets the number of trials (default 100 in ``make test``); the report
of a run (trials, kinds of changes) goes to stdout with ``-s``. The last test plants the
violation: plain nbgitpuller (``git merge -Xours`` with no drivers) fails the same oracle.
"""

from __future__ import annotations

import collections
import os
import random
import subprocess
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("nbgitpuller")
nbclient = pytest.importorskip("nbclient")

from nbgitpuller import GitPuller  # noqa: E402

from genviz_updates.notebooks import _in_place  # noqa: E402
from genviz_updates.notices import read_state  # noqa: E402
from genviz_updates.puller import SafePuller  # noqa: E402
from test_deploy_updates import drivers  # noqa: E402,F401  (autouse: the hub's git drivers)

ROOT = Path(__file__).resolve().parent.parent
NB = "notebooks/lesson.ipynb"
TRIALS = int(os.environ.get("GENVIZ_UPDATE_TRIALS", "100"))
KINDS: collections.Counter = collections.Counter()

pytestmark = pytest.mark.slow


def git(cwd, *args):
    return subprocess.run(["git", "-c", "user.name=I", "-c", "user.email=i@example.org",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    kc.stop_channels()
    yield km
    km.shutdown_kernel(now=True)


def new_cell(kind, src, cid):
    cell = nbformat.v4.new_code_cell(src) if kind == "code" else nbformat.v4.new_markdown_cell(src)
    cell.id = cid
    return cell


def content(cell):
    return (cell.cell_type, cell.source)


class Trial:
    def __init__(self, seed, tmp: Path, kernel, puller=SafePuller):
        self.rng = random.Random(seed)
        self.tmp, self.kernel, self.puller = tmp, kernel, puller
        self.bare, self.work, self.student = tmp / "c.git", tmp / "work", tmp / "student"
        self.url = f"file://{self.bare}"
        self.counter = 0
        tmp.mkdir(parents=True)
        git(tmp, "init", "--bare", str(self.bare))
        git(tmp, "init", str(self.work))
        (self.work / "notebooks").mkdir()
        if puller is SafePuller:
            (self.work / ".gitattributes").write_text((ROOT / ".gitattributes").read_text())
        nb = nbformat.v4.new_notebook()
        nb.cells = [self.fresh() for _ in range(self.rng.randint(3, 8))]
        self.publish(nb)
        self.pull()

    def fresh(self, who="c"):
        self.counter += 1
        k = self.counter
        kind = self.rng.choice(["code", "code", "markdown"])
        src = f"v{k} = {k}\nprint(v{k})" if kind == "code" else f"Text {k}."
        return new_cell(kind, src, f"{who}{k}")

    def publish(self, nb):
        nbformat.write(nb, self.work / NB)
        git(self.work, "add", "-A")
        git(self.work, "commit", "-m", "update", "--allow-empty")
        git(self.work, "push", self.url, "HEAD:main")

    def pull(self):
        for _ in self.puller(self.url, str(self.student), branch="main", depth=1).pull():
            pass

    # --- the two sides' random actions ----------------------------------------------------------
    def course_update(self):
        nb = nbformat.read(self.work / NB, as_version=4)
        ops = self.rng.sample(["edit", "insert", "delete", "move", "type"], self.rng.randint(1, 4))
        for op in ops:
            cells = nb.cells
            if op == "edit" and cells:
                for c in self.rng.sample(cells, self.rng.randint(1, min(2, len(cells)))):
                    c.source += f"\n# course fix {self.rng.randint(0, 99)}" \
                        if c.cell_type == "code" else " (fixed)"
            elif op == "insert":
                for _ in range(self.rng.randint(1, 2)):
                    cells.insert(self.rng.randint(0, len(cells)), self.fresh("c"))
            elif op == "delete" and len(cells) > 1:
                del cells[self.rng.randrange(len(cells))]
            elif op == "move" and len(cells) > 2:
                c = cells.pop(self.rng.randrange(len(cells)))
                cells.insert(self.rng.randint(0, len(cells)), c)
            elif op == "type" and cells:
                i = self.rng.randrange(len(cells))
                old = cells[i]
                kind = "markdown" if old.cell_type == "code" else "code"
                src = f"Now words {self.counter}." if kind == "markdown" else f"print('code {i}')"
                cells[i] = new_cell(kind, src, old.id)
            KINDS[op] += 1
        self.publish(nb)

    def student_acts(self):
        path = self.student / NB
        nb = nbformat.read(path, as_version=4)
        if self.rng.random() < 0.7:
            KINDS["student-run"] += 1
            client = nbclient.NotebookClient(nb, km=self.kernel, allow_errors=True, timeout=60)
            client.execute()
        cells = nb.cells
        if cells and self.rng.random() < 0.5:
            for c in self.rng.sample(cells, self.rng.randint(1, min(2, len(cells)))):
                c.source += f"\n# my edit {self.rng.randint(0, 99)}"
                KINDS["student-edit"] += 1
        if self.rng.random() < 0.3:
            cells.insert(self.rng.randint(0, len(cells)), self.fresh("s"))
            KINDS["student-insert"] += 1
        if len(cells) > 1 and self.rng.random() < 0.2:
            del cells[self.rng.randrange(len(cells))]
            KINDS["student-delete"] += 1
        if len(cells) > 2 and self.rng.random() < 0.1:
            c = cells.pop(self.rng.randrange(len(cells)))
            cells.insert(self.rng.randint(0, len(cells)), c)
            KINDS["student-move"] += 1
        nbformat.write(nb, path)

    # --- one round and its oracle ---------------------------------------------------------------
    def round(self) -> list[str]:
        B = nbformat.read(self.work / NB, as_version=4)  # what the student last pulled
        self.student_acts()
        O = nbformat.read(self.student / NB, as_version=4)
        self.course_update()
        T = nbformat.read(self.work / NB, as_version=4)
        self.pull()
        M = nbformat.read(self.student / NB, as_version=4)
        state = read_state(self.student / ".git") or {}
        items = [i for i in state.get("notebooks", {}).get(NB, {}).get("items", [])
                 if i.get("merge") == state.get("merge")]
        return check(B, O, T, M, items)


def moved(base_ids, side_ids):
    pos = {cid: k for k, cid in enumerate(base_ids)}
    seq = [cid for cid in side_ids if cid in pos]
    keep = _in_place([pos[c] for c in seq])
    return {c for k, c in enumerate(seq) if k not in keep}


def check(B, O, T, M, items) -> list[str]:
    """The oracle: the list of violations (empty when the update is right)."""
    problems = []
    b, o, t = ({c.id: c for c in x.cells} for x in (B, O, T))
    try:
        nbformat.validate(M)
    except nbformat.ValidationError as exc:
        problems.append(f"invalid notebook: {str(exc).splitlines()[0]}")
    m_ids = [c.get("id") for c in M.cells]
    if len(m_ids) != len(set(m_ids)):
        problems.append(f"duplicate ids {m_ids}")
    m = {c.get("id"): c for c in M.cells}
    edited = {i for i in b.keys() & o.keys() if content(b[i]) != content(o[i])}
    course_changed = {i for i in b.keys() & t.keys() if content(b[i]) != content(t[i])}
    named = {(i["kind"], i["id"]) for i in items}
    named_ids = {i["id"] for i in items}
    # no student edit lost
    for i in edited | (o.keys() - b.keys()):
        if i not in m or content(m[i]) != content(o[i]):
            problems.append(f"student's cell {i} lost or changed")
    for i in b.keys() - o.keys():
        if i in m:
            problems.append(f"cell {i} the student deleted is back")
    for i in (b.keys() & o.keys()) - edited - course_changed:
        if i in t and i in m and o[i].cell_type == "code" and m[i].outputs != o[i].outputs:
            problems.append(f"student's outputs of cell {i} lost")
    # every course change arrived or is named
    for i in course_changed | (t.keys() - b.keys()):
        if (i not in m or content(m[i]) != content(t[i])) and i not in named_ids:
            problems.append(f"course change of cell {i} neither arrived nor named")
    for i in b.keys() - t.keys():
        if i in m and i not in named_ids:
            problems.append(f"course deleted cell {i}: still there, not named")
    keep_out = moved(list(b), list(o)) - moved(list(b), list(t))
    order_t = [c.id for c in T.cells if c.id in m and c.id not in keep_out]
    order_m = [c.get("id") for c in M.cells if c.get("id") in set(order_t)]
    if order_m != order_t and not any(k == "not-moved" for k, _ in named):
        problems.append(f"course order not kept: {order_m} != {order_t}")
    # no false notice
    for kind, i in named:
        real = {
            "kept-yours": i in edited and i in course_changed and i in m
            and content(o[i]) != content(t[i]) and content(m[i]) == content(o[i]),
            "you-deleted": i in b and i not in o and i in course_changed,
            "kept-deleted": i in b and i not in t and i in edited and i in m,
        }.get(kind, False)
        if not real:
            problems.append(f"false or unexpected notice {kind} {i}")
    return problems


def _run_trials(n_trials, make, step, repeats, what) -> list:
    """``step(trial)`` ``repeats(seed)`` times on each ``make(seed)``, seeds 0..n_trials-1;
    prints the count and the notice kinds seen, returns the failures as (seed, problems)."""
    failures, steps = [], 0
    KINDS.clear()
    for seed in range(n_trials):
        trial = make(seed)
        for _ in range(repeats(seed)):
            steps += 1
            problems = step(trial)
            if problems:
                failures.append((seed, problems))
    print(f"\n{n_trials} trials, {steps} {what}; kinds: {dict(sorted(KINDS.items()))}")
    return failures


def test_randomized_updates_deliver_or_name_every_course_change(tmp_path, kernel):
    failures = _run_trials(TRIALS, lambda seed: Trial(seed, tmp_path / f"t{seed}", kernel),
                           Trial.round, lambda seed: 1 + (seed % 3 == 0), "updates")
    assert not failures, failures[:5]


@pytest.mark.filterwarnings("ignore::nbformat.warnings.DuplicateCellId")  # what it plants
def test_plain_nbgitpuller_fails_the_same_oracle(tmp_path, kernel, monkeypatch):
    """The planted violation: without the drivers (nbgitpuller's text merge with -Xours) the
    oracle finds lost course changes, false states or broken notebooks."""
    monkeypatch.setenv("GIT_CONFIG_COUNT", "0")
    bad = 0
    for seed in range(12):
        trial = Trial(seed, tmp_path / f"t{seed}", kernel, puller=GitPuller)
        try:
            bad += bool(trial.round())
        except (subprocess.CalledProcessError, nbformat.reader.NotJSONError, ValueError):
            bad += 1  # a pull that fails, or a notebook that no longer parses
    assert bad >= 3, bad


# --- saves from browser tabs opened at random earlier points (issue #39, item 1) ---------------------

TAB_TRIALS = int(os.environ.get("GENVIZ_TAB_TRIALS", "20"))


class Contents:
    """The two contents-API calls a tab makes, through the functions the server extension
    wires into jupyter-server: ``stamp_model`` (GET with content) and ``pre_save_hook`` (PUT),
    then the write jupyter-server does."""

    def __init__(self, root):
        import logging

        self.root, self.log = root, logging.getLogger("genviz-test")

    def _get_os_path(self, path):
        return str(self.root / path)

    def load(self):
        import json

        from genviz_updates.server import stamp_model

        model = {"type": "notebook", "path": NB,
                 "content": json.loads((self.root / NB).read_text())}
        assert stamp_model(model, self)
        return model["content"]

    def save(self, content):
        import copy

        from genviz_updates.server import pre_save_hook

        model = {"type": "notebook", "content": copy.deepcopy(content)}
        pre_save_hook(model, NB, self)
        nbformat.write(nbformat.from_dict(model["content"]), self.root / NB)


def view(cells) -> dict:
    return {c["id"]: (c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list)
                      else c["source"]) for c in cells}


class TabTrial(Trial):
    """Each round: maybe a new tab opens; the course publishes and the student clicks (once or
    twice); one of the open tabs -- opened at a random earlier point -- edits, inserts,
    deletes, runs, or deliberately reverts a cell to an earlier course version, and saves."""

    def __init__(self, seed, tmp, kernel=None):
        super().__init__(seed, tmp, kernel)
        self.contents = Contents(self.student)
        self.tabs = []  # [content, base view (last load or save)]
        self.history = collections.defaultdict(list)  # course versions per cell id
        self.note(nbformat.read(self.work / NB, as_version=4))

    def note(self, nb):
        for c in nb.cells:
            if content(c) not in self.history[c.id]:
                self.history[c.id].append(content(c))

    def open_tab(self):
        tab = self.contents.load()
        self.tabs.append([tab, view(tab["cells"])])
        KINDS["tab-open"] += 1

    def act(self, tab) -> None:
        cells = tab["cells"]
        r = self.rng.random
        if cells and r() < 0.6:
            c = self.rng.choice(cells)
            c["source"] = "".join(c["source"]) + f"\n# typed {self.rng.randint(0, 999)}"
            KINDS["tab-edit"] += 1
        if cells and r() < 0.3:
            revertible = [c for c in cells if len(self.history[c["id"]]) > 1
                          and (c["cell_type"], c["source"]) != self.history[c["id"]][0]]
            if revertible:
                c = self.rng.choice(revertible)
                kind, src = self.history[c["id"]][0]
                if kind == c["cell_type"]:
                    c["source"] = src  # typed back the course's earlier version
                    KINDS["tab-revert"] += 1
        if r() < 0.3:
            cells.insert(self.rng.randint(0, len(cells)), dict(self.fresh("s")))
            KINDS["tab-insert"] += 1
        if len(cells) > 1 and r() < 0.3:
            del cells[self.rng.randrange(len(cells))]
            KINDS["tab-delete"] += 1
        if r() < 0.3:
            for c in cells:
                if c["cell_type"] == "code":
                    c["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "ran\n"}]
            KINDS["tab-run"] += 1

    def tab_round(self) -> list[str]:
        problems = []
        if not self.tabs or self.rng.random() < 0.5:
            self.open_tab()
        for _ in range(self.rng.randint(1, 2)):
            B = nbformat.read(self.work / NB, as_version=4)
            O = nbformat.read(self.student / NB, as_version=4)
            self.course_update()
            T = nbformat.read(self.work / NB, as_version=4)
            self.note(T)
            self.pull()
            M = nbformat.read(self.student / NB, as_version=4)
            state = read_state(self.student / ".git") or {}
            items = [i for i in state.get("notebooks", {}).get(NB, {}).get("items", [])
                     if i.get("merge") == state.get("merge")]
            problems += check(B, O, T, M, items)
        entry = self.rng.choice(self.tabs)
        tab, base = entry
        self.act(tab)
        before = view(nbformat.read(self.student / NB, as_version=4).cells)
        had = read_state(self.student / ".git") or {}
        self.contents.save(tab)
        after_nb = nbformat.read(self.student / NB, as_version=4)
        problems += check_save(base, view(tab["cells"]), before, after_nb,
                               had, read_state(self.student / ".git") or {})
        entry[1] = view(tab["cells"])
        KINDS["tab-save"] += 1
        return problems


def check_save(base, saved, disk, after_nb, state_before, state_after) -> list[str]:
    """The oracle of one save: base = what the tab last loaded or saved, saved = its content,
    disk = the file before the save. What the tab did since base stands; what happened on
    disk since base (a click, another tab) that the tab did not touch stays."""
    problems = []
    try:
        nbformat.validate(after_nb)
    except nbformat.ValidationError as exc:
        problems.append(f"invalid notebook after a save: {str(exc).splitlines()[0]}")
    after = view(after_nb.cells)
    if len(after) != len(after_nb.cells):
        problems.append("duplicate ids after a save")
    tab_changed = {i for i in saved if base.get(i) != saved[i]}
    for i in tab_changed:                       # the tab's edits, inserts, reverts
        if after.get(i) != saved[i]:
            problems.append(f"save: the tab's version of cell {i} lost")
    for i in base.keys() - saved.keys():        # the tab's deletions
        if i in after and not (i in disk and disk[i] != base[i]):
            problems.append(f"save: cell {i} the tab deleted is back")
    for i in disk:                              # what disk got since the tab's base
        if i in tab_changed or (i in base and i not in saved):
            continue
        if base.get(i) != disk[i] and after.get(i) != disk[i]:
            problems.append(f"save: cell {i} as on disk ({'new' if i not in base else 'changed'}) "
                            f"lost")
    for i in base.keys() - disk.keys():         # deleted on disk since, the tab did not edit
        if i not in tab_changed and i in after:
            problems.append(f"save: cell {i} deleted on disk came back")
    old = {(i.get("kind"), i.get("id")) for i in state_before.get("notebooks", {}).get(NB, {})
           .get("items", [])}
    for item in state_after.get("notebooks", {}).get(NB, {}).get("items", []):
        key, i = (item.get("kind"), item.get("id")), item.get("id")
        if key in old:
            continue
        real = {"kept-yours": i in tab_changed and i in disk and disk[i] != base.get(i)
                and after.get(i) == saved.get(i),
                "kept-deleted": i in tab_changed and i in base and i not in disk,
                "you-deleted": i in base and i not in saved and i in disk and disk[i] != base[i]
                }.get(item["kind"], False)
        if not real:
            problems.append(f"save: false notice {key}")
    return problems


def test_randomized_saves_from_tabs_opened_at_random_earlier_points(tmp_path):
    failures = _run_trials(TAB_TRIALS, lambda seed: TabTrial(seed, tmp_path / f"t{seed}"),
                           TabTrial.tab_round, lambda seed: 4, "saves")
    assert not failures, failures[:5]
