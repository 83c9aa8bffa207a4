"""Course-wide teaching checks (issues #26, #30): learners predict, observe and explain, and
practise without the answer standing above the question.

Notebooks are discovered from ``notebooks/`` (never a hard-coded count); a *topic notebook* is
every ``NN_*.ipynb`` but ``00``. Checked, per notebook:

(a) **Predict, observe, explain around every explorer**: every code cell that builds an
    explorer (``name = name_explorer(...)``) has, in an earlier cell after the previous
    explorer, a ``prediction_box(P)``, and after it, before the next explorer, an
    ``observation_box(P, name)`` with the same prediction and that explorer; a
    ``prediction_review()`` comes before the summary. Run in a kernel (the records of (b)),
    each observation is then read from its explorer set to the observation's setting: it must
    equal what the builder computed, and the cycle must run — commit, record the reading (it
    is accepted), then the explanation, which was not in the page before.
(b) **Nothing answered by scrolling up**. *Earlier text* is the markdown and the committed
    checked outputs before the cell that creates an item, and the *revealed explanations* of
    the predictions and choices created before it (a learner has read them). An item is
    answered above when
    - its numeric answer appears in earlier text at the precision its checker accepts
      (``|x - answer| <= atol + rtol |answer|``, the check of :class:`Exercise`); an array
      answer when all its entries appear in one earlier chunk; numbers given in the item's own
      prompt and answers with one significant digit (3, 0.5, 20: every text holds them) are
      not searched this way;
    - or earlier text says one of its **claims** (its answer's key claim as regular
      expressions, ``Exercise.claims``, read as key terms and numbers by tests/key_terms.py:
      stemmed, in any order, within one sentence, so a paraphrase is found). Text
      answers, choices, predictions and one-digit answers must have claims (a number check
      cannot find them), and every claim must match the item's own answer, right option or
      explanation (so it is the item's claim, not an arbitrary pattern).
    The reference values and claims come from the notebook itself: it is run once in a kernel
    (nbclient) with a first cell that wraps ``Exercise.__init__`` to record every item created
    (the cell creating it counted by a ``pre_run_cell`` event); records are cached in
    ``build/teaching-cache/`` by the hash of the notebook, of genviz/ and of the recording
    code, so only a changed notebook or library re-runs. Numbers in the text are read with a
    regex (``19.3``, ``0.865``, ``86.5%`` read as 0.865).
(c) **Objectives and summary**: every topic notebook's opening markdown (before its first code
    cell) says what "you will be able to" do, as a list; a "Summary" section comes after every
    explorer and exercise (only an "Appendix" may follow it), has at least as many points as
    there are objectives, and links the next notebook (the last links back to 00).
(d) **Practice of every kind**: every topic notebook creates at least one conceptual item
    (kind ``"concept"``, a :class:`~genviz.exercises.Choice` with reasons) and answers with its
    explorer: an observation read from it (kind ``"observation"``) and an investigation searched
    with it (kind ``"investigation"``, no setting given) — from the records of (b). (The items
    that only said which sliders to set and which readout line to copy, kind ``"explorer"``,
    are gone: they repeated the observation, issue #40 item 6.)
(e) **One new idea per markdown cell**, measured by a proxy: at most ``MAX_WORDS`` words of prose
    (maths, code spans, link targets, HTML tags and table rows not counted: a table is reference
    material, read row by row) and at most one display-maths block (a new definition is
    displayed; two displays in one cell are two ideas). Cells allowed more are listed in
    ``ALLOWED_LONG`` with the reason.
(f) **Explanations never state the outcome**: no number of a prediction's prompt, options,
    reasons or explanation is its observation's value (at the observation's tolerance; values
    of one significant digit aside).
(g) **Over the course**: prediction ids are unique; every choice and prediction has at least
    three options; the right option sits at no position (a, b, c, ...) more than
    ``MAX_POSITION_SHARE`` of the time.

``PENDING`` lists notebooks still being converted (xfail, not strict: some checks already pass;
empty it when they are done). (b) has no exceptions: the last practice items it found were
rewritten by issue #30's practice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from course_records import TEACHING_HOOK, TEACHING_REPORT
from prose_numbers import checked_output, source

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
TOPICS = [p for p in NOTEBOOKS if not p.name.startswith("00")]

#: notebooks still being converted, one set per person converting them (two sets, so that
#: emptying one does not conflict with emptying the other); their checks are xfails
PENDING_00_04: set[str] = set()

# (keep these sets apart)

PENDING_05_09: set[str] = set()
PENDING = PENDING_00_04 | PENDING_05_09

MAX_WORDS = 150
#: (g): the largest share of the course's choices and predictions whose right option sits at any
#: one position
MAX_POSITION_SHARE = 0.40
#: (notebook number, first line of the cell) -> why the cell may hold more
ALLOWED_LONG: dict[tuple[str, str], str] = {}

EXPLORER_CALL = re.compile(r"^\s*(?:[A-Za-z_]\w*\s*=\s*)?([a-z][a-z_0-9]*_explorer)\(", re.M)
EXPLORER_ASSIGN = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*[a-z][a-z_0-9]*_explorer\(", re.M)
PREDICTION_CALL = re.compile(r"\bprediction_box\(")
PREDICTION_ARG = re.compile(r"\bprediction_box\(\s*([A-Za-z_]\w*)\s*[,)]")
OBSERVATION_CALL = re.compile(r"\bobservation_box\(\s*([A-Za-z_]\w*)\s*,\s*([A-Za-z_]\w*)\s*[,)]")
REVIEW_CALL = re.compile(r"\bprediction_review\(")
BOX_CALL = re.compile(r"\b(answer_box|choice_box|prediction_box)\(")
NUMBER = re.compile(r"(?<![\w.])([-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s?%)?")


#: where a topic notebook's failure sends its author (tests/test_topics.py's ``step`` wording)
STEPS = "ARCHITECTURE.md, 'How to add a topic'"
#: the file an item's fault is fixed in (the notebook only calls its builders)
EXERCISES = "its builder in genviz/exercises/<topic>.py"


def in_step5(path: Path, what: str) -> str:
    """A per-notebook check's failure message: the notebook, what it must do, and the step of
    "How to add a topic" that says so."""
    return f"notebooks/{path.name}: {what} ({STEPS}, step 5: the notebook)"


def _id(path: Path) -> str:
    return path.name[:2]


def _params(paths):
    return [pytest.param(p, id=_id(p),
                         marks=[pytest.mark.xfail(strict=False, reason="being converted (PENDING)")]
                         if _id(p) in PENDING else []) for p in paths]


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text())["cells"]


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
        in_step5(path, "a topic notebook without an explorer")
    assert unpredicted_explorers(path) == [], in_step5(path, "a prediction_box(P) before every "
                                                          "explorer")


def test_the_explorer_rule_fails_without_a_prediction(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "pred = prediction_box(p)\n"},
                    {"cell_type": "code", "source": "gaussian_explorer(rho=0.5)"},
                    {"cell_type": "code", "source": "e = kde_explorer(x, h=1)\nprediction_box(q)"}]}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    assert unpredicted_explorers(path) == ["cell 2: kde_explorer"]


def broken_cycles(path: Path) -> list[str]:
    """Explorers not inside predict -> explore -> observe: the last ``prediction_box(P)`` before
    the explorer (since the previous explorer) and an ``observation_box(P, name)`` after it
    (before the next explorer) must name the same prediction, and ``name`` the variable the
    explorer is assigned to; a notebook with explorers has a ``prediction_review()`` after its
    last explorer and before its summary."""
    nb_cells = cells(path)
    code = [(i, source(c)) for i, c in enumerate(nb_cells) if c["cell_type"] == "code"]
    explorers = [k for k, (_, t) in enumerate(code) if EXPLORER_CALL.search(t)]
    problems = []
    for n, k in enumerate(explorers):
        i, text = code[k]
        lo = explorers[n - 1] + 1 if n else 0
        hi = explorers[n + 1] if n + 1 < len(explorers) else len(code)
        preds = [m.group(1) for _, t in code[lo:k] for m in PREDICTION_ARG.finditer(t)]
        assigned = EXPLORER_ASSIGN.search(text)
        observed = [m.groups() for _, t in code[k:hi] for m in OBSERVATION_CALL.finditer(t)]
        if not preds:
            problems.append(f"cell {i}: no prediction_box(P) (P a name) before the explorer")
        elif assigned is None:
            problems.append(f"cell {i}: the explorer is not assigned to a name, so no "
                            f"observation_box can read it")
        elif (preds[-1], assigned.group(1)) not in observed:
            problems.append(f"cell {i}: no observation_box({preds[-1]}, {assigned.group(1)}) "
                            f"after the explorer")
    if explorers:
        reviews = [i for i, t in code if REVIEW_CALL.search(t)]
        heads = [i for i, c in enumerate(nb_cells) if c["cell_type"] == "markdown"
                 and re.search(r"^#+\s*Summary\b", source(c), re.M)]
        last = code[explorers[-1]][0]
        if not any(last < r < (heads[-1] if heads else len(nb_cells)) for r in reviews):
            problems.append("no prediction_review() after the last explorer and before the "
                            "summary")
    return problems


@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_explorer_goes_through_predict_observe_explain(path):
    assert broken_cycles(path) == [], in_step5(
        path, "predict, observe, explain: prediction_box(P) before each explorer, "
              "observation_box(P, explorer) after it (P a Prediction with an observation=, "
              f"{EXERCISES}), prediction_review() after the last explorer, before the summary")


def test_the_cycle_rule_fails_on_each_missing_step(tmp_path):
    def nb(*sources, summary=True):
        out = [{"cell_type": "code", "source": src} for src in sources]
        if summary:
            out.append({"cell_type": "markdown", "source": "## Summary\n* a\n* b"})
        path = tmp_path / "nb.ipynb"
        path.write_text(json.dumps({"cells": out}))
        return path

    good = ["p = ex.predict_x()\nprediction_box(p)", "e = kde_explorer(x)\ne",
            "observation_box(p, e)", "prediction_review()"]
    assert broken_cycles(nb(*good)) == []
    assert broken_cycles(nb(*good[1:])) == ["cell 0: no prediction_box(P) (P a name) before "
                                            "the explorer"]
    assert "no observation_box(p, e)" in broken_cycles(nb(*good[:2], good[3]))[0]
    assert "no observation_box(p, e)" in broken_cycles(
        nb(good[0], good[1], "observation_box(q, e)", good[3]))[0]  # another prediction
    assert "no observation_box(p, e)" in broken_cycles(
        nb(good[0], good[1], "observation_box(p, f)", good[3]))[0]  # another explorer
    assert "not assigned to a name" in broken_cycles(
        nb(good[0], "kde_explorer(x)", "observation_box(p, e)", good[3]))[0]
    assert broken_cycles(nb(*good[:3])) == ["no prediction_review() after the last explorer "
                                            "and before the summary"]
    # an observation after the next explorer does not count for this one
    late = ["p = f()\nprediction_box(p)", "e = kde_explorer(x)", "q = g()\nprediction_box(q)",
            "f2 = kde_explorer(y)", "observation_box(p, e)\nobservation_box(q, f2)",
            "prediction_review()"]
    assert broken_cycles(nb(*late)) == ["cell 1: no observation_box(p, e) after the explorer"]


# --- (b) no answer by scrolling ---------------------------------------------------------------

# The recording hook (TEACHING_HOOK) lives in tests/course_records.py: one kernel run of each
# notebook serves these tests and tests/test_practice.py (course_records.notebook_run).
HOOK, REPORT = TEACHING_HOOK, TEACHING_REPORT



def exercise_records(path: Path) -> list[dict]:
    """Every exercise the notebook creates, with ``cell`` = the index of the creating cell.

    Runs the notebook once in a kernel (nbclient; genviz from this work tree) with the recording
    hook as first cell; cached by the hash of the notebook and of genviz/."""
    return notebook_run(path)["items"]


def cycle_records(path: Path) -> list[dict]:
    """One record per observation box the notebook makes: what its explorer showed at the
    observation's setting, and the problems met going through the cycle (see (a))."""
    return notebook_run(path)["cycles"]


def notebook_run(path: Path) -> dict:
    """The notebook run once in a kernel with the recording hook: ``items`` (every exercise
    created, with ``cell``) and ``cycles``; cached by the hash of the notebook, genviz/ and
    the hook, and shared with tests/test_practice.py (course_records.notebook_run)."""
    from course_records import notebook_run as shared_run
    return shared_run(path)


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


def revealed_text(record: dict) -> str:
    """What a learner has read of a choice or prediction once it is answered: its right
    option(s), their reasons and the explanation ("" for other items)."""
    if "options" not in record:
        return ""
    right = [record["options"][k] for k in record["correct"]]
    reasons = [record["reasons"][k] or "" for k in record["correct"]]
    return " ".join(right + reasons + [record["explanation"]])


def earlier_text(record: dict, nb_cells: list[dict], records=()) -> list[tuple[str, str]]:
    """(where, text) of everything a learner has read before the record's cell: markdown,
    committed checked outputs, and the revealed explanations of the choices and predictions
    created in earlier cells."""
    chunks = []
    for i, cell in enumerate(nb_cells[:record["cell"]]):
        text = source(cell) if cell["cell_type"] == "markdown" else checked_output(cell)
        if text:
            chunks.append((f"cell {i}", text))
    for r in records:
        if r["cell"] < record["cell"] and revealed_text(r):
            chunks.append((f"the explanation of {r.get('id') or r['prompt'][:30]!r}",
                           revealed_text(r)))
    return chunks


def shown_before(record: dict, nb_cells: list[dict], records=()) -> list[str]:
    """Where the record's reference value appears before its cell (empty: not shown)."""
    if record["value"] is None:
        return []
    values = [float(v) for v in _flat(record["value"])]
    given = [x for _, x in numbers_in(record["prompt"])]
    chunks = [(where, numbers_in(text)) for where, text in earlier_text(record, nb_cells, records)]
    hits = []
    if len(values) == 1:
        want = values[0]
        if _round_at(want, record) or any(_close(g, want, record) for g in given):
            return []
        for where, nums in chunks:
            hits += [f"{where}: {raw}" for raw, x in nums if _close(x, want, record)]
        return hits
    if all(_round_at(v, record) for v in values):
        return []
    for where, nums in chunks:
        seen = [next((raw for raw, x in nums if _close(x, want, record)), None) for want in values]
        if None not in seen:
            hits.append(f"{where}: {', '.join(seen)}")
    return hits


def claimed_before(record: dict, nb_cells: list[dict], records=()) -> list[str]:
    """Where earlier text states the record's key claim: a sentence says one of its ``claims``,
    read as key terms and numbers (tests/key_terms.py), so a paraphrase counts."""
    from key_terms import said_claims

    if not record.get("claims"):
        return []
    return [f"{where}: /{claim}/" for where, text in earlier_text(record, nb_cells, records)
            for claim in said_claims(record["claims"], text)]


def own_text(record: dict) -> str:
    """The item's own answer, right option(s), reasons for them, explanation and solution:
    where each of its claims must match."""
    return " ".join([record["text"], record.get("solution", ""), revealed_text(record)])


def needs_claims(record: dict) -> bool:
    """A text answer, a choice, a prediction or an answer with one significant digit: items a
    number check cannot find above (observations are read from the explorer, not recalled)."""
    if record["kind"] == "observation":
        return False
    if "options" in record or record["value"] is None:
        return True
    return all(_round(float(v)) for v in _flat(record["value"]))


def claim_problems(records) -> list[str]:
    """Items that need claims and have none, and claims that do not match their item's own
    text."""
    from genviz.exercises import matching_claims
    from key_terms import said_claims

    out = []
    for r in records:
        name = r.get("id") or repr(r["prompt"][:50])
        if needs_claims(r) and not r.get("claims"):
            out.append(f"{name}: no claims (a {r['kind']} item whose answer numbers cannot find)")
        for claim in r.get("claims", []):
            if not (matching_claims([claim], own_text(r)) or said_claims([claim], own_text(r))):
                out.append(f"{name}: claim /{claim}/ does not match its own answer or explanation")
    return out


def _round(x: float) -> bool:
    """One significant digit (3, 0.5, 20, 0.01): such numbers are in every text."""
    return float(f"{x:.0e}") == x


def _round_at(x: float, tol: dict) -> bool:
    """One significant digit at the checker's tolerance: 0.99996 read to 3 decimals is 1."""
    return _round(x) or _close(float(f"{x:.0e}"), x, tol)


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def answered_above(nb_cells: list[dict], records) -> dict[str, list[str]]:
    """Item (its prompt's first 60 characters) -> where it is answered above (numbers or
    claims)."""
    out = {}
    for r in records:
        hits = shown_before(r, nb_cells, records) + claimed_before(r, nb_cells, records)
        if hits:
            out[r["prompt"][:60]] = hits[:3]
    return out


def scrollable_exercises(path: Path) -> list[str]:
    """The items of the notebook answered above."""
    found = answered_above(cells(path), exercise_records(path))
    return [f"{prompt!r} answered at {hits}" for prompt, hits in found.items()]


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_no_exercise_is_answered_by_scrolling_up(path):
    assert scrollable_exercises(path) == [], in_step5(
        path, "an item's answer stands above it (in markdown, a checked output or an earlier "
              f"explanation): change the item's data or the text above ({EXERCISES})")


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_item_numbers_cannot_find_has_a_key_claim_of_its_own(path):
    assert claim_problems(exercise_records(path)) == [], in_step5(
        path, "text answers, choices, predictions and one-digit answers need claims=, each "
              f"matching the item's own answer or explanation ({EXERCISES})")


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
    assert shown_before({**rec, "value": 3.0004, "atol": 1e-3}, nb) == []  # 3 at its tolerance
    assert shown_before({**rec, "value": 0.3, "prompt": "rho = 0.3"}, nb) == []  # given data
    assert shown_before({**rec, "value": [[4, -0.3], [-0.3, 0.25]]}, nb) == \
        ["cell 2: 4, -0.3, -0.3, 0.25"]
    assert shown_before({**rec, "value": [[4, -0.3], [-0.3, 0.5]]}, nb) == []
    assert shown_before({**rec, "value": None, "text": "yes"}, nb) == []


def test_the_claim_rule_finds_a_stated_answer_and_a_revealed_explanation():
    """Planted: a text answer stated in earlier markdown, a choice answered by an earlier
    prediction's explanation, a one-digit answer in an earlier checked output; and what the
    rule leaves alone."""
    nb = [{"cell_type": "markdown", "source": "From $n = 30$ on logistic regression is *ahead*."},
          {"cell_type": "code", "source": "# NBVAL_CHECK_OUTPUT\nprint(b)",
           "outputs": [{"text": "{350: 1, 890: 3, 1200: 4, 1599: 4}\n"}]},
          {"cell_type": "code", "source": "p", "outputs": []},
          {"cell_type": "code", "source": "ex", "outputs": []}]
    text = {"cell": 3, "value": None, "text": "logistic regression", "prompt": "who?",
            "claims": [r"logistic regression (is|stays) ahead"], "rtol": 0.0, "atol": 0.0}
    assert claimed_before(text, nb) == ["cell 0: /logistic regression (is|stays) ahead/"]
    assert claimed_before({**text, "cell": 0}, nb) == []  # only what comes before
    digit = {**text, "value": 4.0, "text": "4", "claims": [r"1200\s*:\s*4\b"]}
    assert claimed_before(digit, nb) == ["cell 1: /1200\\s*:\\s*4\\b/"]
    pred = {"cell": 2, "cls": "Prediction", "id": "05-cv", "prompt": "p", "value": None,
            "options": ["larger h", "smaller h", "same"], "correct": [0], "reasons": [None] * 3,
            "explanation": "With fewer points the noise grows, so a larger h wins.",
            "text": "larger h", "claims": [], "rtol": 0.0, "atol": 0.0}
    concept = {**text, "claims": [r"fewer points[^.]{0,60}larger h"], "prompt": "why?"}
    assert claimed_before(concept, nb) == []  # without the earlier prediction's record
    assert claimed_before(concept, nb, [pred]) == \
        ["the explanation of '05-cv': /fewer points[^.]{0,60}larger h/"]
    # numbers revealed by an earlier explanation count too
    number = {"cell": 3, "value": 0.3651, "prompt": "peak?", "rtol": 5e-3, "atol": 1e-9}
    assert shown_before(number, nb, [{**pred, "explanation": "the peak goes to 0.3651"}]) == \
        ["the explanation of '05-cv': 0.3651"]



def test_the_claim_rule_reads_a_paraphrase():
    """Planted (issue #40): objective 10.3 as it was ("find where their learning curves cross")
    gives away a prediction whose claim is "so the curves cross"; one regex did not see it."""
    from genviz.exercises import matching_claims

    objective = "You will be able to:\n\n* train both on growing subsets and find where their " \
                "learning curves cross;\n* choose between them."
    nb = [{"cell_type": "markdown", "source": objective},
          {"cell_type": "code", "source": "p", "outputs": []}]
    pred = {"cell": 1, "value": None, "text": "naive bayes, then logistic regression",
            "prompt": "who?", "claims": [r"so the curves cross"], "rtol": 0.0, "atol": 0.0}
    assert matching_claims(pred["claims"], objective) == []
    assert claimed_before(pred, nb) == ["cell 0: /so the curves cross/"]
    # the words of the claim in two sentences are not the claim
    nb[0] = {"cell_type": "markdown", "source": "The curves rise. Both lines cross zero."}
    assert claimed_before(pred, nb) == []

@pytest.mark.slow
def test_the_rule_finds_the_thirteen_items_issue_30_found_on_main():
    """The seven practice items and six predictions issue #30 found answered above (or settled
    by common sense) on main, with the text that answered each (tests/data/
    main_answered_above.json): the claims of the item as the notebooks now build it, or of the
    replaced item, match that text."""
    from genviz.exercises import matching_claims
    from key_terms import said_claims

    cases = json.loads((ROOT / "tests" / "data" / "main_answered_above.json").read_text())["cases"]
    assert len(cases) == 13
    assert sum(c["kind"].startswith("practice") for c in cases) == 7
    records = course_records()
    for case in cases:
        if "old_item" in case:
            claims = case["old_item"]["claims"]
            assert all(matching_claims([c], case["old_item"]["own"]) for c in claims), case
        else:
            found = [r for r in records if r["notebook"] == case["notebook"]
                     and r["prompt"].startswith(case["item"])]
            assert len(found) == 1, case["item"]
            claims = found[0]["claims"]
        earlier = " ".join(case["earlier"])
        assert matching_claims(claims, earlier) or said_claims(claims, earlier), \
            (case["kind"], case["where"], claims)


def test_claims_are_required_where_numbers_cannot_look_and_must_be_the_item_s_own():
    base = {"prompt": "q", "kind": "compute", "text": "", "solution": "s", "rtol": 0.0,
            "atol": 0.0, "claims": []}
    assert claim_problems([{**base, "value": 0.3651}]) == []  # a number: the number check
    assert claim_problems([{**base, "value": [4.0, 0.25]}]) == []
    assert claim_problems([{**base, "value": 4.0, "kind": "observation"}]) == []
    for missing in ({**base, "value": 4.0}, {**base, "value": None, "text": "Yes"},
                    {**base, "value": [0.5, 20.0]},
                    {**base, "value": None, "id": "02-x", "options": ["a", "b", "c"],
                     "correct": [0], "reasons": [None] * 3, "explanation": "e"}):
        assert "no claims" in claim_problems([missing])[0]
    stray = {**base, "value": None, "text": "Yes", "solution": "the word part doubles",
             "claims": [r"word part doubles", r"something else entirely"]}
    assert claim_problems([stray]) == \
        ["'q': claim /something else entirely/ does not match its own answer or explanation"]


def explanation_states_outcome(record: dict) -> list[str]:
    """Numbers of a prediction's prompt, options, reasons and explanation that are its
    observation's value (at the observation's tolerance; one-digit values aside)."""
    obs = record.get("observation")
    if obs is None:
        return []
    shown = " ".join([record["prompt"], *record["options"], *(r or "" for r in record["reasons"]),
                      record["explanation"]])
    return [raw for value in obs.get("values", [obs["value"]]) if not _round_at(value, obs)
            for raw, x in numbers_in(shown) if _close(x, value, obs)]


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_no_explanation_states_its_outcome(path):
    found = {r["id"]: explanation_states_outcome(r) for r in exercise_records(path)
             if r["cls"] == "Prediction"}
    assert {k: v for k, v in found.items() if v} == {}, in_step5(
        path, f"a prediction's explanation must not state its observation's value ({EXERCISES})")


def test_the_outcome_rule_finds_a_printed_outcome():
    rec = {"prompt": "Drag rho to 0.9", "options": ["up", "down", "same"], "reasons": [None] * 3,
           "explanation": "the peak goes from 0.1838 to 0.3651", "id": "02-x",
           "observation": {"value": 0.36515, "rtol": 0.0, "atol": 6e-4}}
    assert explanation_states_outcome(rec) == ["0.3651"]
    assert explanation_states_outcome({**rec, "explanation": "the peak grows"}) == []
    assert explanation_states_outcome({**rec, "observation": {**rec["observation"],
                                                              "value": 1.0}}) == []
    assert explanation_states_outcome({**rec, "explanation": "the area stays 1",
                                       "observation": {**rec["observation"],
                                                       "value": 0.99996}}) == []


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_prediction_reads_its_explorer_and_goes_through_the_cycle(path):
    """Run in a kernel: each observation box's explorer, set to the observation's setting,
    shows what the builder computed; commit -> record the reading -> the explanation."""
    cycles = cycle_records(path)
    predicted = [r["id"] for r in exercise_records(path) if r["cls"] == "Prediction"]
    where = in_step5(path, "every prediction gets an observation_box(P, explorer) whose reading "
                           f"is the explorer's at the observation's setting ({EXERCISES})")
    assert sorted(c["id"] for c in cycles) == sorted(predicted), where
    assert {c["id"]: c["problems"] for c in cycles if c["problems"]} == {}, where


#: A prediction about a change: a control moved from one value to another, or a claim at two
#: settings ("at m = 10 and at all m = 1780").
CHANGE = re.compile(r"\bfrom\b[^.?]{0,80}\bto\b|\b(raise|narrow|shrink|drag|move|flip|switch|add)"
                    r"\b|\bat\b[^.?]{0,60}\band at\b", re.IGNORECASE)


def one_sided_changes(records) -> list[str]:
    """Predictions about a change (``CHANGE`` in the prompt) whose observation records only the
    "after": what decides them is the before/after pair (or its ratio or difference)."""
    return [r["id"] for r in records if r["cls"] == "Prediction" and r.get("observation")
            and CHANGE.search(r["prompt"]) and "before" not in r["observation"]["stages"]]


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_prediction_about_a_change_records_before_and_after(path):
    found = set(one_sided_changes(exercise_records(path)))
    assert found == set(), in_step5(
        path, "a prediction about a change records the reading before and after: "
              f"Observation(before=..., expected_before=...) ({EXERCISES})")


def transfer_problems(records) -> list[str]:
    """Issue #40 item 3: every prediction's cycle ends with an analogous situation, a Choice of
    kind "transfer" with the id ``<prediction id>-transfer``, which the cycle's own prompt and
    explanation do not answer (its claims read as key terms) and whose right option is not the
    prediction's."""
    from key_terms import said_claims

    transfers = {r.get("id"): r for r in records if r["kind"] == "transfer"}
    out = []
    for r in records:
        if r["cls"] != "Prediction":
            continue
        t = transfers.get(f"{r['id']}-transfer")
        if t is None:
            out.append(f"{r['id']}: no analogous situation (Prediction(..., transfer=Choice(..., "
                       f"kind='transfer', id='{r['id']}-transfer')))")
            continue
        if said_claims(t["claims"], r["prompt"] + " " + revealed_text(r)):
            out.append(f"{t['id']}: its cycle's own prompt or explanation already says it")
        right = {t["options"][k] for k in t["correct"]}
        if right & {r["options"][k] for k in r["correct"]}:
            out.append(f"{t['id']}: its right option is the prediction's")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_prediction_ends_with_an_analogous_situation(path):
    assert transfer_problems(exercise_records(path)) == [], in_step5(
        path, "each prediction ends with an analogous situation: "
              f"Prediction(..., transfer=Choice(..., kind='transfer')) ({EXERCISES})")


def test_the_transfer_rule_finds_a_missing_a_given_away_and_a_repeated_transfer():
    pred = {"cls": "Prediction", "kind": "prediction", "id": "99-peak", "prompt": "ρ to 0.9?",
            "options": ["taller", "lower"], "correct": [0], "reasons": [None, None],
            "explanation": "A compressed Gaussian is taller."}
    good = {"cls": "Choice", "kind": "transfer", "id": "99-peak-transfer", "prompt": "cm?",
            "options": ["it falls a hundredfold", "it rises"], "correct": [0],
            "reasons": [None, None], "explanation": "A square centimetre is small.",
            "claims": [r"falls a hundredfold"]}
    assert transfer_problems([pred, good]) == []
    assert transfer_problems([pred])[0].startswith("99-peak: no analogous situation")
    given = {**good, "claims": [r"compressed gaussian is taller"]}
    assert transfer_problems([pred, given]) == \
        ["99-peak-transfer: its cycle's own prompt or explanation already says it"]
    same = {**good, "options": ["taller", "it rises"]}
    assert transfer_problems([pred, same]) == ["99-peak-transfer: its right option is the "
                                               "prediction's"]


def test_the_change_rule_finds_a_prediction_that_records_only_the_after():
    """Planted: the prediction of notebook 02 as it was before issue #40 (one reading at ρ =
    0.9) fails; with its "before" it passes; a prediction about no change needs none."""
    obs = {"prompt": "Set ρ = 0.9. What is the peak?", "value": 0.3651, "stages": ["after"]}
    old = {"cls": "Prediction", "id": "02-peak-with-rho", "observation": obs,
           "prompt": "The explorer starts at ρ = 0.5. When you drag ρ to 0.9, what does the "
                     "peak do?"}
    assert one_sided_changes([old]) == ["02-peak-with-rho"]
    fixed = {**old, "observation": {**obs, "stages": ["before", "after"]}}
    assert one_sided_changes([fixed]) == []
    for prompt in ("Narrow the bins from 1 to 0.1. What happens?",
                   "Who is ahead, at m = 10 and at m = 1780?", "Switch the data to outliers."):
        assert one_sided_changes([{**old, "prompt": prompt}]) == ["02-peak-with-rho"]
    still = {**old, "prompt": "With α = 1, set the query to (Sunny, Hot). What is P(Yes | x)?"}
    assert one_sided_changes([still]) == []


# --- issue #40 item 4: cues (option lengths, paraphrased claims) -----------------------------

def longest_right_count(records) -> tuple[int, float, list[str]]:
    """Over the choices and predictions: how many have their (first) right option as the
    uniquely longest, how many would by chance (the sum of 1/number of options: the fair share)
    and which items they are."""
    items = [r for r in records if "options" in r]
    flagged = []
    for r in items:
        lengths = [len(o) for o in r["options"]]
        right = lengths[r["correct"][0]]
        if lengths.count(max(lengths)) == 1 and right == max(lengths):
            flagged.append(r.get("id") or r["prompt"][:50])
    return len(flagged), sum(1 / len(r["options"]) for r in items), flagged


def test_the_length_rule_finds_a_course_whose_right_option_is_the_longest():
    def item(k, right_longest):
        opts = ["short", "brief", "a much longer and careful option"]
        if not right_longest:
            opts = ["a much longer and careful option", "brief", "short"]
        return {"id": f"99-i{k}", "prompt": "q", "options": opts, "correct": [2]}
    cued = [item(k, True) for k in range(9)]
    count, fair, flagged = longest_right_count(cued)
    assert count == 9 and abs(fair - 3.0) < 1e-9 and count > fair and flagged[0] == "99-i0"
    fair_course = [item(k, k % 3 == 0) for k in range(9)]
    count, fair, _ = longest_right_count(fair_course)
    assert count == 3 and count <= fair
    tie = {"id": "99-tie", "prompt": "q", "options": ["aaaa", "bbbb", "c"], "correct": [0]}
    assert longest_right_count([tie])[0] == 0  # a tie for the longest is no signal


@pytest.mark.slow
def test_option_lengths_carry_no_signal_over_the_course():
    """The right option is the uniquely longest in at most its fair share of the course's
    choices and predictions (what options of random lengths would give)."""
    count, fair, flagged = longest_right_count(course_records())
    assert count <= fair, (count, fair, flagged)


#: an option stands out by its length when the right one is more than STANDOUT_RATIO times the
#: longest wrong one, or under half the shortest wrong one once that one is longer than
#: SHORT_OPTION characters ("GDA's" against "logistic regression's" is two names, no signal)
STANDOUT_RATIO = 1.3
SHORT_OPTION = 24


def standout_options(records) -> list[str]:
    """The choices and predictions whose right option stands out by its length alone: much
    longer than every wrong one (it carries the mechanism, the hedges) or much shorter (a bare
    "Yes" among two explained refusals). The course rule above counts; this one reads each
    item."""
    out = []
    for r in (r for r in records if "options" in r):
        lengths = [len(o) for o in r["options"]]
        right = lengths[r["correct"][0]]
        wrong = [n for k, n in enumerate(lengths) if k not in r["correct"]]
        if right > STANDOUT_RATIO * max(wrong) or (
                min(wrong) > SHORT_OPTION and right * 2 < min(wrong)):
            out.append(f"{r.get('id') or r['prompt'][:50]}: right option {right} characters, "
                       f"wrong ones {wrong}")
    return out


def test_the_standout_rule_finds_a_long_or_a_bare_right_option():
    def item(options, right=0):
        return {"id": "99-x", "prompt": "q", "options": options, "correct": [right]}
    long_right = item(["no: its model is wrong for counts, and a wrong model's error does not "
                       "vanish with more data", "yes: every estimate converges", "yes, with a "
                       "ridge penalty"])
    bare_right = item(["Yes", "No: it changes every estimate by about the same factor",
                       "Only from α = 1 on: smaller pseudo-counts only rescale"])
    names = item(["GDA's", "logistic regression's", "about the same"])
    even = item(["a bias of naive Bayes: its independence assumption",
                 "variance: more emails would close it",
                 "a bias of logistic regression, the more flexible model"])
    assert [s.split(":")[0] for s in standout_options([long_right, bare_right])] == ["99-x"] * 2
    assert standout_options([names, even]) == []


@pytest.mark.slow
def test_no_right_option_stands_out_by_its_length():
    """Issue #40 item 4, item by item: 08's Silverman item (125 characters against 65), 07's
    generative-or-discriminative (142 against 74), 04's Poisson bias, 05's tiny bandwidth, 09's
    k = m, 10's bias or variance, and 06's bare "Yes" stood out before their options were
    rewritten."""
    assert standout_options(course_records()) == []


# Claims read as paraphrases: an item's claim (a regular expression) becomes its key terms — the
# content words outside alternatives, and one term per alternative group — and a sentence of
# earlier text that holds every key term (by the first five letters, in any order) states it
# in other words. ``matching_claims`` reads one regex per item; this reads what it says.
_STOP = set("""that this with from have been were their there which what when where while into
onto than then them they these those each every only also more most less least much many
some same other such very just does done doing over under about after before both either
neither your yours will would could should shall must can may might it's its""".split())
_WORD = re.compile(r"[a-zα-ω0-9]+(?:\.[0-9]+)?")


def _stem(word):
    word = word.lower()
    return word if word.replace(".", "").isdigit() else word[:5]


def _content(text):
    return [w for w in _WORD.findall(text.lower())
            if (len(w) >= 4 and w not in _STOP) or w.replace(".", "").isdigit()]


def claim_terms(claim: str) -> list[set[str]]:
    """A claim's key terms: a list of sets of stems (one of each set must be in a sentence)."""
    text = re.sub(r"\[\^[^\]]*\]\{\d*,?\d*\}|\\[wsb][*+?]?|\{\d*,?\d*\}|\[[^\]]*\]", " ", claim)
    terms = []

    def group(m):
        alts = [_content(a) for a in m.group(1).split("|")]
        if all(alts):
            terms.append({_stem(a[-1]) for a in alts})
        return " "
    while re.search(r"\(\??:?([^()]*)\)", text):
        text = re.sub(r"\(\??:?([^()]*)\)\??", group, text)
    text = text.replace("\\", " ")
    terms += [{_stem(w)} for w in _content(text)]
    return terms


def paraphrases(claims, text: str) -> list[str]:
    """The claims whose key terms (at least two) all appear in one sentence of ``text``."""
    sentences = re.split(r"(?<=[.!?;:])\s+|\n+", text.lower())
    out = []
    for claim in claims:
        terms = claim_terms(claim)
        if len(terms) < 2:
            continue
        for s in sentences:
            words = {_stem(w) for w in _WORD.findall(s)}
            if all(t & words for t in terms):
                out.append(claim)
                break
    return out


def test_the_paraphrase_reader_finds_a_claim_said_in_other_words():
    """Planted: 10's objective 10.3 ("find where their learning curves cross") against the
    claim "so the curves cross", which the regex reader does not match; and others."""
    from genviz.exercises import matching_claims
    objective = "- compare two learners by their learning curves and find where their " \
                "learning curves cross (objective 3)."
    assert matching_claims([r"so the curves cross"], objective) == []
    assert paraphrases([r"so the curves cross"], objective) == [r"so the curves cross"]
    claim = r"(larger|large) c[^.]{0,60}(fewer emails|conservative)"
    assert claim_terms(claim) == [{"large"}, {"email", "conse"}]
    said = "With a larger threshold the filter gets conservative: it flags less."
    assert paraphrases([claim], said) == [claim]
    assert paraphrases([claim], "A larger table. The filter is conservative.") == []
    assert paraphrases([r"gda models the correlation"], "GDA, which models the correlation "
                       "between the features, ...") == [r"gda models the correlation"]
    assert paraphrases([r"so the curves cross"], "The curves are far apart.") == []
    assert paraphrases([r"one"], "one") == []  # fewer than two key terms: left to the regex


def test_the_kernel_cycle_check_finds_a_wrong_reference_and_a_missing_control():
    """The function the recording hook runs in the kernel (``_gv_cycle``), on planted boxes: an
    observation whose builder value is not what its explorer shows, one naming a control the
    explorer does not have, one without an explorer; and a sound one."""
    import genviz.exercises._core as core
    from genviz.exercises import Observation, Prediction
    from genviz.widgets import gaussian_explorer
    from genviz.widgets.exercises import observation_box, prediction_box

    namespace = {"_gv_core": core, "_gv_np": np, "_gv_boxes": {"prediction": {}, "observation": []}}
    exec(HOOK[HOOK.index("def _gv_cycle"):], namespace)
    cycle = namespace["_gv_cycle"]
    explorer = gaussian_explorer(rho=0.5)

    def planted(item_id, expected, setting, with_explorer=True):
        obs = Observation("Set rho = 0.9. Peak?", expected, setting=setting, read="peak",
                          what="the peak", atol=6e-4)
        p = Prediction("q", ["taller", "lower", "same"], 0, id=item_id, explanation="e",
                       observation=obs)
        namespace["_gv_boxes"]["prediction"][item_id] = prediction_box(p, lecture=False)
        return observation_box(p, explorer if with_explorer else None, lecture=False)

    sound = cycle(planted("99-sound", 0.36515, {"rho": 0.9}))
    assert sound["problems"] == [] and abs(sound["live"] - 0.36515) < 1e-4 and sound["stages"] == ["after"]
    wrong = cycle(planted("99-wrong", 0.5, {"rho": 0.9}))
    assert "the builder computed 0.5" in wrong["problems"][0]
    missing = cycle(planted("99-missing", 0.36515, {"rho": 0.9, "tilt": 1.0}))
    assert "does not have: ['tilt']" in missing["problems"][0]
    alone = cycle(planted("99-alone", 0.36515, {"rho": 0.9}, with_explorer=False))
    assert alone["problems"] == ["the observation box has no explorer"]
    explorer.close()


def course_records() -> list[dict]:
    return [dict(r, notebook=_id(p)) for p in TOPICS for r in exercise_records(p)]


def position_counts(records) -> list[int]:
    """How often the (first) right option sits at each position, over the choices and
    predictions."""
    items = [r for r in records if "options" in r]
    counts = [0] * max((len(r["options"]) for r in items), default=0)
    for r in items:
        counts[r["correct"][0]] += 1
    return counts


def course_problems(records) -> list[str]:
    """(g): duplicate prediction ids, items with fewer than three options, and a position
    holding the right option more than MAX_POSITION_SHARE of the time."""
    out = []
    ids = [r["id"] for r in records if r["cls"] == "Prediction"]
    out += [f"prediction id {i!r} is used {ids.count(i)} times" for i in sorted(set(ids))
            if ids.count(i) > 1]
    out += [f"{r.get('id') or r['prompt'][:40]!r} has {len(r['options'])} options (at least 3)"
            for r in records if "options" in r and len(r["options"]) < 3]
    counts = position_counts(records)
    total = sum(counts)
    out += [f"the right option is ({chr(97 + k)}) in {c} of {total} items (over "
            f"{MAX_POSITION_SHARE:.0%})" for k, c in enumerate(counts)
            if total and c / total > MAX_POSITION_SHARE]
    return out


@pytest.mark.slow
def test_ids_options_and_right_positions_over_the_course():
    records = [r for r in course_records() if r["notebook"] not in PENDING]
    assert sum("options" in r for r in records) >= 27
    assert course_problems(records) == []


def stale_course_table(tt) -> str | None:
    """What is wrong with docs/predict-observe-explain.md's tables (``tt``: scripts/
    teaching_table.py), naming the step that regenerates them; None when they are current."""
    made = tt.table(tt.course_records())
    if made.count("| `") < 19:
        return "fewer predictions than the course has"
    if tt.documented_table() != made:
        return ("docs/predict-observe-explain.md's course-in-numbers tables are stale: run "
                f"`python scripts/teaching_table.py --write` ({STEPS}, step 8: the generated "
                "tables)")
    return None


@pytest.mark.slow
def test_the_course_in_numbers_page_is_current():
    """docs/predict-observe-explain.md's tables (each notebook's boxes, what each prediction's
    observation records and what decides it) are what scripts/teaching_table.py makes from the
    course's records now (the same cached runs as the checks above)."""
    from file_modules import load_file

    tt = load_file(Path(__file__).resolve().parents[1] / "scripts" / "teaching_table.py",
                   "teaching_table")
    problem = stale_course_table(tt)
    assert problem is None, problem


def test_a_stale_course_table_is_told_step_8():
    from types import SimpleNamespace

    rows = "| `11-a` |\n" * 19
    fake = SimpleNamespace(course_records=lambda: [], table=lambda records: rows,
                           documented_table=lambda: rows.replace("11-a", "10-a"))
    assert "teaching_table.py --write" in stale_course_table(fake)
    assert "'How to add a topic', step 8" in stale_course_table(fake)
    assert stale_course_table(SimpleNamespace(**{**vars(fake), "documented_table": lambda: rows})) \
        is None


def test_the_course_rule_finds_duplicates_two_options_and_a_position_bias():
    def item(k, right, n=3, cls="Prediction"):
        return {"cls": cls, "id": f"0{k % 9}-item-{k}", "prompt": f"q{k}",
                "options": [f"o{j}" for j in range(n)], "correct": [right]}
    balanced = [item(k, k % 3) for k in range(9)]
    assert course_problems(balanced) == [] and position_counts(balanced) == [3, 3, 3]
    biased = [item(k, 1 if k < 5 else k % 2 * 2) for k in range(9)]  # (b) in 5 of 9
    assert course_problems(biased) == ["the right option is (b) in 5 of 9 items (over 40%)"]
    twice = balanced + [dict(balanced[0], prompt="again")]
    assert "prediction id '00-item-0' is used 2 times" in course_problems(twice)
    two = balanced + [item(20, 0, n=2, cls="Choice")]
    assert "'02-item-20' has 2 options (at least 3)" in course_problems(two)


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
    assert objectives_and_summary(path) == [], in_step5(
        path, "objectives first ('You will be able to:' and a list), a Summary last with a point "
              "per objective and the link to the next notebook")


# --- (d) a conceptual item, an observation and an investigation ---------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("path", _params(TOPICS))
def test_every_topic_notebook_has_a_conceptual_item_an_observation_and_an_investigation(path):
    kinds = [r["kind"] for r in exercise_records(path)]
    assert "concept" in kinds, in_step5(
        path, f"no conceptual item (a Choice with reasons, {EXERCISES})")
    assert "observation" in kinds, in_step5(
        path, "no observation read from the explorer (an observation_box after it, "
              "kind='observation')")
    assert "investigation" in kinds, in_step5(
        path, f"no item answered by searching with the explorer (kind='investigation', "
              f"{EXERCISES})")
    assert kinds.count("prediction") >= 1, in_step5(path, "no prediction (a prediction_box)")


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
    assert heavy_cells(path) == [], in_step5(
        path, f"one new idea per markdown cell: at most {MAX_WORDS} words of prose and one "
              "display-maths block (split the cell)")


def test_the_word_count_reads_prose_only():
    assert prose_words("The density $p(x; \\mu)$ is `mvn_pdf`.\n\n$$\na + b = c\n$$\n") == 5
    assert prose_words("| a | b |\n|---|---|\n| one two | three |\nTwo words") == 2
    assert prose_words("See [notebook 3](03_gda.ipynb) and <b>bold</b>.") == 5
    assert display_blocks("$$a$$\n\ntext\n\n$$\nb\n$$") == 2


# --- every per-notebook check names the notebook and the step (issue #41, item 1) ---------------

def _per_notebook_checks() -> list:
    """The tests of this file run once per notebook (parametrized over ``path``)."""
    return [f for name, f in sorted(globals().items()) if name.startswith("test_")
            and any(m.name == "parametrize" and m.args[0] == "path"
                    for m in getattr(f, "pytestmark", []))]


def test_every_per_notebook_check_names_the_notebook_and_step_5():
    import inspect

    checks = _per_notebook_checks()
    unnamed = [f.__name__ for f in checks if "in_step5(" not in inspect.getsource(f)]
    assert len(checks) >= 10 and unnamed == [], (
        f"say which notebook and which step with in_step5(path, ...): {unnamed}")


def test_a_planted_notebook_without_an_observation_is_told_step_5(tmp_path):
    path = tmp_path / "11_planted.ipynb"
    path.write_text(json.dumps({"cells": [
        {"cell_type": "code", "source": "p = exercises.predict_x()\nprediction_box(p)"},
        {"cell_type": "code", "source": "e = gaussian_explorer()\ne"},
        {"cell_type": "code", "source": "prediction_review()"},
        {"cell_type": "markdown", "source": "## Summary\n* a\n* b"}]}))
    with pytest.raises(AssertionError) as err:
        test_every_explorer_goes_through_predict_observe_explain(path)
    message = str(err.value).splitlines()[0]
    assert message.startswith("notebooks/11_planted.ipynb: predict, observe, explain")
    assert "observation_box(P, explorer)" in message and "step 5" in message


@pytest.mark.parametrize("kinds, first", [
    (("prediction", "concept", "compute"), "no observation read from the explorer"),
    (("prediction", "concept", "observation", "compute"),
     "no item answered by searching with the explorer"),
    (("prediction", "observation", "investigation"), "no conceptual item")])
def test_a_planted_notebook_without_a_concept_observation_or_investigation_is_told_step_5(
        tmp_path, monkeypatch, kinds, first):
    path = tmp_path / "11_planted.ipynb"
    monkeypatch.setitem(globals(), "exercise_records", lambda p: [{"kind": k} for k in kinds])
    with pytest.raises(AssertionError) as err:
        test_every_topic_notebook_has_a_conceptual_item_an_observation_and_an_investigation(path)
    message = str(err.value).splitlines()[0]
    assert message.startswith(f"notebooks/11_planted.ipynb: {first}")
    assert "step 5" in message
