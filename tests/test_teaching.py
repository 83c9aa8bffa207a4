"""Course-wide teaching checks (issue #26): learners predict before they watch, and practise.

Notebooks are discovered from ``notebooks/`` (never a hard-coded count); a *topic notebook* is
every ``NN_*.ipynb`` but ``00``. Checked, per notebook:

(a) **A prediction before every explorer**: every code cell that builds an explorer
    (``name_explorer(...)``) has, in an earlier cell after the previous explorer, a
    ``prediction_box(...)`` (genviz.widgets.exercises).
(b) **No exercise answered by scrolling up**: an exercise's reference value, at the precision
    its checker accepts (``|x - answer| <= atol + rtol |answer|``, the check of
    :class:`genviz.exercises.Exercise`), must not appear in the notebook's markdown or
    committed checked outputs *before* the cell that creates the exercise. The reference values
    come from the notebook itself: it is run once in a kernel (nbclient) with a first cell that
    wraps ``Exercise.__init__`` to record every item created (its kind, answer, tolerances and
    the cell creating it, counted by a ``pre_run_cell`` event); records are cached in
    ``build/teaching-cache/`` by the hash of the notebook and of genviz/, so only a changed
    notebook or library re-runs. Numbers in the text are read with a regex (``19.3``, ``0.865``,
    ``86.5%`` read as 0.865). Not searched: answers with one significant digit (3, 0.5, 20:
    every text holds them), answers equal to a number of the exercise's own prompt (given data), and
    text answers (choices). An array answer counts as shown when all its entries appear in one
    earlier cell.
(c) **Objectives and summary**: every topic notebook's opening markdown (before its first code
    cell) says what "you will be able to" do, as a list; a "Summary" section comes after every
    explorer and exercise (only an "Appendix" may follow it), has at least as many points as
    there are objectives, and links the next notebook (the last links back to 00).
(d) **Practice of every kind**: every topic notebook creates at least one conceptual item
    (kind ``"concept"``, a :class:`~genviz.exercises.Choice` with reasons) and at least one item
    answered with its explorer (kind ``"explorer"``) — from the records of (b).
(e) **One new idea per markdown cell**, measured by a proxy: at most ``MAX_WORDS`` words of prose
    (maths, code spans, link targets, HTML tags and table rows not counted: a table is reference
    material, read row by row) and at most one display-maths block (a new definition is
    displayed; two displays in one cell are two ideas). Cells allowed more are listed in
    ``ALLOWED_LONG`` with the reason.

``PENDING`` lists notebooks still being converted (xfail, not strict: some checks already pass;
empty it when they are done).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
TOPICS = [p for p in NOTEBOOKS if not p.name.startswith("00")]
CACHE = ROOT / "build" / "teaching-cache"

#: notebooks still being converted, one set per person converting them (two sets, so that
#: emptying one does not conflict with emptying the other); their checks are xfails
PENDING_00_04: set[str] = set()

# (keep these sets apart)

PENDING_05_09: set[str] = set()
PENDING = PENDING_00_04 | PENDING_05_09

MAX_WORDS = 150
#: (notebook number, first line of the cell) -> why the cell may hold more
ALLOWED_LONG: dict[tuple[str, str], str] = {}

EXPLORER_CALL = re.compile(r"^\s*(?:[A-Za-z_]\w*\s*=\s*)?([a-z][a-z_0-9]*_explorer)\(", re.M)
PREDICTION_CALL = re.compile(r"\bprediction_box\(")
BOX_CALL = re.compile(r"\b(answer_box|choice_box|prediction_box)\(")
NUMBER = re.compile(r"(?<![\w.])([-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s?%)?")


def _id(path: Path) -> str:
    return path.name[:2]


def _params(paths):
    return [pytest.param(p, id=_id(p),
                         marks=[pytest.mark.xfail(strict=False, reason="being converted (PENDING)")]
                         if _id(p) in PENDING else []) for p in paths]


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


def source(cell) -> str:
    return "".join(cell["source"])


def checked_output(cell) -> str:
    """The committed text output of a ``# NBVAL_CHECK_OUTPUT`` cell ("" for any other cell)."""
    if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" not in source(cell):
        return ""
    out = []
    for o in cell.get("outputs", []):
        out.append("".join(o.get("text", "")) or "".join(o.get("data", {}).get("text/plain", "")))
    return "\n".join(out)


# --- (a) a prediction before every explorer ---------------------------------------------------

def unpredicted_explorers(path: Path) -> list[str]:
    """Explorer calls with no prediction_box in an earlier cell since the previous explorer."""
    missing, predicted = [], False
    for i, cell in enumerate(cells(path)):
        if cell["cell_type"] != "code":
            continue
        text = source(cell)
        found = EXPLORER_CALL.findall(text)
        if found:
            if not predicted:
                missing.append(f"cell {i}: {found[0]}")
            predicted = False
        elif PREDICTION_CALL.search(text):
            predicted = True
    return missing


@pytest.mark.parametrize("path", _params(TOPICS))
def test_a_prediction_comes_before_every_explorer(path):
    assert EXPLORER_CALL.search("\n".join(source(c) for c in cells(path) if c["cell_type"] == "code")), \
        "a topic notebook without an explorer"
    assert unpredicted_explorers(path) == []


def test_the_explorer_rule_fails_without_a_prediction(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "pred = prediction_box(p)\n"},
                    {"cell_type": "code", "source": "gaussian_explorer(rho=0.5)"},
                    {"cell_type": "code", "source": "e = kde_explorer(x, h=1)\nprediction_box(q)"}]}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    assert unpredicted_explorers(path) == ["cell 2: kde_explorer"]


# --- (b) no answer by scrolling ---------------------------------------------------------------

HOOK = r'''
import json as _gv_json
import numpy as _gv_np
import genviz.exercises._core as _gv_core
_gv_records = []
_gv_ordinal = [0]  # the notebook's code cells run so far (this cell not counted)
def _gv_next(*_):
    _gv_ordinal[0] += 1
get_ipython().events.register("pre_run_cell", _gv_next)
_gv_init = _gv_core.Exercise.__init__
def _gv_record(self, *args, **kwargs):
    _gv_init(self, *args, **kwargs)
    a = self._answer
    try:
        value = None if isinstance(a, (str, bool, _gv_np.bool_)) else _gv_np.asarray(a, dtype=float).tolist()
    except (TypeError, ValueError):
        value = None
    _gv_records.append({"ordinal": _gv_ordinal[0], "cls": type(self).__name__,
                        "kind": self.kind, "prompt": self.prompt, "value": value,
                        "text": str(a), "rtol": self.rtol, "atol": self.atol})
_gv_core.Exercise.__init__ = _gv_record
'''
REPORT = 'print("GENVIZ-RECORDS " + _gv_json.dumps(_gv_records))'


def _fingerprint() -> str:
    spec = importlib.util.spec_from_file_location("_build_site", ROOT / "scripts" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.library_fingerprint()


def exercise_records(path: Path) -> list[dict]:
    """Every exercise the notebook creates, with ``cell`` = the index of the creating cell.

    Runs the notebook once in a kernel (nbclient; genviz from this work tree) with the recording
    hook as first cell; cached by the hash of the notebook and of genviz/."""
    key = hashlib.sha256(path.read_bytes() + _fingerprint().encode()).hexdigest()[:20]
    cached = CACHE / f"{path.stem}-{key}.json"
    if cached.exists():
        return json.loads(cached.read_text())
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    n_cells = len(nb.cells)
    nb.cells.insert(0, nbformat.v4.new_code_cell(HOOK))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NB_DIR)}})
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits it: it imports this work tree's genviz
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    records = json.loads(text.split("GENVIZ-RECORDS ", 1)[1])
    code_cells = [i for i, c in enumerate(nb.cells[1:n_cells + 1]) if c.cell_type == "code"]
    for r in records:
        r["cell"] = code_cells[r.pop("ordinal") - 1]
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(records))
    return records


def numbers_in(text: str) -> list[tuple[str, float]]:
    """The numbers a reader sees in ``text`` (``86.5 %`` also as 0.865)."""
    out = []
    for m in NUMBER.finditer(text):
        raw = m.group(1).replace("−", "-")
        try:
            x = float(raw)
        except ValueError:
            continue
        out.append((m.group(0), x))
        if m.group(2):
            out.append((m.group(0), x / 100))
    return out


def _close(x, want, record) -> bool:
    return abs(x - want) <= record["atol"] + record["rtol"] * abs(want)


def shown_before(record: dict, nb_cells: list[dict]) -> list[str]:
    """Where the record's reference value appears before its cell (empty: not shown)."""
    if record["value"] is None:
        return []
    values = [float(v) for v in _flat(record["value"])]
    given = [x for _, x in numbers_in(record["prompt"])]
    chunks = []
    for i, cell in enumerate(nb_cells[:record["cell"]]):
        text = source(cell) if cell["cell_type"] == "markdown" else checked_output(cell)
        if text:
            chunks.append((i, numbers_in(text)))
    hits = []
    if len(values) == 1:
        want = values[0]
        if _round(want) or any(_close(g, want, record) for g in given):
            return []
        for i, nums in chunks:
            hits += [f"cell {i}: {raw}" for raw, x in nums if _close(x, want, record)]
        return hits
    if all(_round(v) for v in values):
        return []
    for i, nums in chunks:
        seen = [next((raw for raw, x in nums if _close(x, want, record)), None) for want in values]
        if None not in seen:
            hits.append(f"cell {i}: {', '.join(seen)}")
    return hits


def _round(x: float) -> bool:
    """One significant digit (3, 0.5, 20, 0.01): such numbers are in every text."""
    return float(f"{x:.0e}") == x


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def scrollable_exercises(path: Path) -> list[str]:
    nb_cells = cells(path)
    out = []
    for r in exercise_records(path):
        hits = shown_before(r, nb_cells)
        if hits:
            out.append(f"{r['prompt'][:70]!r} (answer {r['text'][:30]}) shown at {hits[:3]}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_no_exercise_is_answered_by_scrolling_up(path):
    assert scrollable_exercises(path) == []


def test_the_scrolling_rule_finds_a_printed_answer():
    """The rule on hand-made records: the notebook-02 cases it was written for (a 19.3 deg
    angle printed above, 0.865 in an earlier checked output), and what it leaves alone."""
    nb = [{"cell_type": "markdown", "source": "the major axis is at about $19.3^\\circ$"},
          {"cell_type": "code", "source": "# NBVAL_CHECK_OUTPUT\nprint(x)",
           "outputs": [{"text": "k = 2: theory 0.865, fraction of samples 0.864\n"}]},
          {"cell_type": "markdown", "source": "Sigma = [[4, -0.3], [-0.3, 0.25]], 3 cats, 86.5 %"},
          {"cell_type": "code", "source": "ex = ...", "outputs": []}]
    rec = {"cell": 3, "rtol": 5e-3, "atol": 1e-9, "prompt": "q"}
    assert shown_before({**rec, "value": 19.29, "atol": 0.5}, nb) == ["cell 0: 19.3"]
    assert shown_before({**rec, "value": 0.8647}, nb)[:2] == ["cell 1: 0.865", "cell 1: 0.864"]
    assert shown_before({**rec, "value": 0.8647, "cell": 1}, nb) == []  # only what comes before
    assert shown_before({**rec, "value": 0.855}, nb) == []  # 0.864 is not 0.855 at rtol 5e-3
    assert shown_before({**rec, "value": 3.0}, nb) == []  # round numbers are everywhere
    assert shown_before({**rec, "value": 0.5}, nb) == []
    assert shown_before({**rec, "value": 0.3, "prompt": "rho = 0.3"}, nb) == []  # given data
    assert shown_before({**rec, "value": [[4, -0.3], [-0.3, 0.25]]}, nb) == \
        ["cell 2: 4, -0.3, -0.3, 0.25"]
    assert shown_before({**rec, "value": [[4, -0.3], [-0.3, 0.5]]}, nb) == []
    assert shown_before({**rec, "value": None, "text": "yes"}, nb) == []


# --- (c) objectives and summary ---------------------------------------------------------------

def _bullets(text: str) -> int:
    return len(re.findall(r"^\s*(?:[*-]|\d+\.)\s+\S", text, re.M))


def objectives_and_summary(path: Path) -> list[str]:
    """What is missing from the notebook's objectives and summary (empty: both are there)."""
    problems = []
    nb_cells = cells(path)
    first_code = next(i for i, c in enumerate(nb_cells) if c["cell_type"] == "code")
    opening = "\n".join(source(c) for c in nb_cells[:first_code] if c["cell_type"] == "markdown")
    m = re.search(r"you will be able to", opening, re.I)
    objectives = 0
    if m:  # the first list after the phrase (a list is one paragraph: no blank line inside)
        blocks = [b for b in re.split(r"\n\s*\n", opening[m.end():]) if _bullets(b)]
        objectives = _bullets(blocks[0]) if blocks else 0
    if not m or objectives < 2:
        problems.append("no objectives ('you will be able to' and a list) before the first code cell")
    heads = [i for i, c in enumerate(nb_cells) if c["cell_type"] == "markdown"
             and re.search(r"^#+\s*Summary\b", source(c), re.M)]
    if not heads:
        return problems + ["no 'Summary' section"]
    start = heads[-1]
    end = next((i for i in range(start + 1, len(nb_cells)) if nb_cells[i]["cell_type"] == "markdown"
                and re.match(r"\s*#+\s*Appendix", source(nb_cells[i]))), len(nb_cells))
    summary = "\n".join(source(c) for c in nb_cells[start:end])
    late = [i for i, c in enumerate(nb_cells[start:end], start) if c["cell_type"] == "code"
            and (EXPLORER_CALL.search(source(c)) or BOX_CALL.search(source(c)))]
    if late:
        problems.append(f"explorers or exercises after the summary (cells {late})")
    if _bullets(summary) < max(objectives, 2):
        problems.append(f"the summary has {_bullets(summary)} points for {objectives} objectives")
    following = [p for p in NOTEBOOKS if p.name > path.name]
    target = following[0] if following else NOTEBOOKS[0]
    if f"({target.name})" not in summary:
        problems.append(f"the summary does not link the next notebook, {target.name}")
    return problems


@pytest.mark.parametrize("path", _params(TOPICS))
def test_objectives_open_and_a_summary_closes_every_topic_notebook(path):
    assert objectives_and_summary(path) == []


# --- (d) a conceptual item and an explorer item -------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_topic_notebook_has_a_conceptual_and_an_explorer_item(path):
    kinds = [r["kind"] for r in exercise_records(path)]
    assert "concept" in kinds, "no conceptual item (a Choice with reasons)"
    assert "explorer" in kinds, "no item answered by using the explorer (kind='explorer')"
    assert kinds.count("prediction") >= 1


# --- (e) one new idea per markdown cell ---------------------------------------------------------

def prose_words(text: str) -> int:
    """Words of prose in a markdown cell: maths, code, link targets, HTML tags, table rows and
    headings' '#' are not words."""
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"\\begin\{(\w+\*?)\}.*?\\end\{\1\}", " ", text, flags=re.S)
    text = re.sub(r"\$[^$]+\$", " MATH ", text)
    text = re.sub(r"`[^`]*`", " CODE ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("|"))
    return len(re.findall(r"[A-Za-z0-9][\w'’-]*", text))


def display_blocks(text: str) -> int:
    return len(re.findall(r"\$\$.*?\$\$", text, flags=re.S)) + \
        len(re.findall(r"^\\begin\{", text, flags=re.M))


def heavy_cells(path: Path) -> list[str]:
    out = []
    for i, cell in enumerate(cells(path)):
        if cell["cell_type"] != "markdown":
            continue
        text = source(cell)
        key = (_id(path), text.strip().splitlines()[0] if text.strip() else "")
        if key in ALLOWED_LONG:
            continue
        words, blocks = prose_words(text), display_blocks(text)
        if words > MAX_WORDS or blocks > 1:
            out.append(f"cell {i} ({key[1][:40]!r}): {words} words, {blocks} display blocks")
    return out


@pytest.mark.parametrize("path", _params(NOTEBOOKS))
def test_one_new_idea_per_markdown_cell(path):
    assert heavy_cells(path) == []


def test_the_word_count_reads_prose_only():
    assert prose_words("The density $p(x; \\mu)$ is `mvn_pdf`.\n\n$$\na + b = c\n$$\n") == 5
    assert prose_words("| a | b |\n|---|---|\n| one two | three |\nTwo words") == 2
    assert prose_words("See [notebook 3](03_gda.ipynb) and <b>bold</b>.") == 5
    assert display_blocks("$$a$$\n\ntext\n\n$$\nb\n$$") == 2
