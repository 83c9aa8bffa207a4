"""Practice that climbs (issue #30, item 3) and what checks it (item 6): per topic notebook.

Read from the items the notebook creates when it runs (tests/course_records.py). A **practice
item** is an exercise of a kind in ``genviz.exercises.PRACTICE_KINDS`` (predictions and their
observations belong to the explorers: tests/test_teaching.py and
tests/test_predict_observe_explain.py). Checked, for every topic notebook:

(a) **Every practice item names an objective that exists** (``objective="05.3"``: objective 3 of
    notebook 05's list, "you will be able to ..."), of this notebook or an earlier one, and the
    markdown cell that introduces it says so ("(objective 3)"; for an earlier notebook's
    "(notebook 1, objective 4)"), so the learner sees what the item practises.
(b) **Every objective of the notebook has a practice item** naming it.
(c) **The item kinds climb**: at least one fluency item (``"compute"``: a formula of the
    notebook), one *investigation* (an answer found by searching with an explorer), one
    *derivation* (a step or result of a derivation, the worked derivation behind the solution
    button), one *open* transfer question (the model answer after an attempt) and — from
    notebook 02 on — one *retrieval* item (an earlier notebook's objective). Formula plug-ins
    do not dominate: fluency items are at most half of the practice items.
(d) **Nothing is answered by scrolling up**, for the items a number check cannot see (text
    answers, choices, one-digit answers, open questions) and for every prediction: no earlier
    markdown (the objectives included), checked output, or explanation or solution of an
    earlier item (what a learner may have revealed) says the item's key claim (``claims``), and
    each such item has claims, each of which matches its own answer, explanation or solution.
    A claim is read as key terms and numbers (tests/key_terms.py: stemmed, in any order, within
    one sentence), so a paraphrase is found, not only the claim's wording (issue #40, item 4).
    (Numbers: tests/test_teaching.py, (b).)

Each rule is also run on planted notebooks and records here, so a check that cannot fail
would show.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from course_records import item_records
from genviz.exercises import PRACTICE_KINDS, matching_claims
from genviz.topics import by_notebook
from key_terms import said_claims

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
TOPICS = [p for p in NOTEBOOKS if not p.name.startswith("00")]
ITEM_CLASSES_NOT_PRACTICE = ("Prediction", "Observation")
STEP = ("ARCHITECTURE.md, 'How to add a topic', step 5: the practice items (objectives tagged, "
        "the kinds, claims)")


def cells(path: Path) -> list[dict]:
    return json.loads(Path(path).read_text())["cells"]


def source(cell) -> str:
    return "".join(cell["source"])


def checked_output(cell) -> str:
    if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" not in source(cell):
        return ""
    return "\n".join("".join(o.get("text", "")) or "".join(o.get("data", {}).get("text/plain", ""))
                     for o in cell.get("outputs", []))


def objectives(path: Path) -> list[str]:
    """The notebook's objectives: the first list after "you will be able to", before its first
    code cell."""
    nb_cells = cells(path)
    first_code = next(i for i, c in enumerate(nb_cells) if c["cell_type"] == "code")
    opening = "\n".join(source(c) for c in nb_cells[:first_code] if c["cell_type"] == "markdown")
    m = re.search(r"you will be able to", opening, re.I)
    if not m:
        return []
    items, started = [], False
    for line in opening[m.end():].splitlines():
        bullet = re.match(r"^\s*(?:[*-]|\d+\.)\s+(\S.*)$", line)
        if bullet:
            items.append(bullet.group(1))
            started = True
        elif started and line.strip() and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()
        elif started:
            break
    return items


def practice(records: list[dict]) -> list[dict]:
    return [r for r in records if r["kind"] in PRACTICE_KINDS
            and r["cls"] not in ITEM_CLASSES_NOT_PRACTICE]


def _number(path: Path) -> str:
    return Path(path).name[:2]


def _objective_counts() -> dict[str, int]:
    return {_number(p): len(objectives(p)) for p in TOPICS}


# --- (a) an objective per item, named where the item is introduced ----------------------------

def objective_problems(records, number: str, counts: dict[str, int], nb_cells) -> list[str]:
    out = []
    for r in practice(records):
        obj, where = r.get("objective"), f"{r['prompt'][:60]!r} (cell {r['cell']})"
        if not obj:
            out.append(f"{where}: names no objective (objective='{number}.k')")
            continue
        nb, k = obj.split(".")
        if nb > number or nb not in counts or not 1 <= int(k) <= counts[nb]:
            out.append(f"{where}: objective {obj} does not exist (notebook {nb} has "
                       f"{counts.get(nb, 0)} objectives; items may name this notebook's or an "
                       f"earlier one's)")
            continue
        intro = next((source(c) for c in reversed(nb_cells[:r["cell"]])
                      if c["cell_type"] == "markdown"), "")
        said = re.search(r"objective (\d+)", intro)
        said_nb = re.search(r"notebook (\d+), objective", intro)
        want_nb = None if nb == number else int(nb)
        if not said or int(said.group(1)) != int(k) or \
                (int(said_nb.group(1)) if said_nb else None) != want_nb:
            wording = f"(objective {int(k)})" if want_nb is None else \
                f"(notebook {want_nb}, objective {int(k)})"
            out.append(f"{where}: the markdown before it does not say {wording}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_every_practice_item_names_an_existing_objective_where_it_is_introduced(path):
    assert objective_problems(item_records(path), _number(path), _objective_counts(),
                              cells(path)) == [], STEP


# --- (b) an item per objective ------------------------------------------------------------------

def objectives_without_items(records, number: str, n_objectives: int) -> list[str]:
    named = {r.get("objective") for r in practice(records)}
    return [f"{number}.{k}" for k in range(1, n_objectives + 1) if f"{number}.{k}" not in named]


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_every_objective_has_a_practice_item(path):
    assert len(objectives(path)) >= 2
    assert objectives_without_items(item_records(path), _number(path), len(objectives(path))) \
        == [], STEP


# --- (c) the kinds climb -----------------------------------------------------------------------

def kind_counts(records, number: str) -> dict[str, int]:
    items = practice(records)
    counts = {k: sum(r["kind"] == k for r in items) for k in PRACTICE_KINDS}
    counts["fluency"] = counts.pop("compute")
    counts["retrieval"] = sum((r.get("objective") or number)[:2] < number for r in items)
    counts["all"] = len(items)
    return counts


def missing_kinds(counts: dict[str, int], number: str) -> list[str]:
    need = ["fluency", "investigation", "derivation", "open"] + (["retrieval"] if number > "01"
                                                                 else [])
    out = [f"no {k} item" for k in need if counts[k] < 1]
    if counts["fluency"] > counts["all"] / 2:
        out.append(f"formula plug-ins dominate: {counts['fluency']} fluency items of "
                   f"{counts['all']}")
    return out


def picked_derivations(records) -> list[str]:
    """Derivation items the learner picks among options instead of writing (issue #40 item 6:
    "a derivation the learner writes": a :class:`genviz.exercises.Derivation`)."""
    return [f"{r['prompt'][:60]!r} is a {r['cls']}, not a written Derivation"
            for r in practice(records) if r["kind"] == "derivation" and r["cls"] != "Derivation"]


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_practice_climbs_from_fluency_to_transfer(path):
    counts = kind_counts(item_records(path), _number(path))
    assert missing_kinds(counts, _number(path)) == [], (counts, STEP)
    assert picked_derivations(item_records(path)) == [], STEP
    declared = by_notebook(path.name).practice
    absent = [k for k in declared if counts.get("fluency" if k == "compute" else k, 0) < 1]
    assert not absent, (f"genviz/topics.py declares practice kinds {absent} that {path.name} has "
                        f"no item of", STEP)


# --- (d) nothing answered by scrolling up -------------------------------------------------------

def _one_digit(value) -> bool:
    return isinstance(value, (int, float)) and float(f"{value:.0e}") == value


def needs_claims(r) -> bool:
    """Items a number check cannot find in earlier text: choices, text answers, open questions,
    one-significant-digit numbers."""
    return (r["value"] is None or r["cls"] in ("Choice", "OpenQuestion")
            or _one_digit(r["value"]))


def scrolled_claims(records, nb_cells) -> list[str]:
    out = []
    checked = practice(records) + [r for r in records if r["cls"] == "Prediction"]
    for r in sorted(checked, key=lambda r: r["cell"]):
        if r["cls"] != "Prediction" and not needs_claims(r):
            continue
        where = f"{r['prompt'][:60]!r} (cell {r['cell']})"
        if not r["claims"]:
            out.append(f"{where}: no claims (its answer's key claim, as regular expressions)")
            continue
        own = " ".join([r["text"], r["explanation"], r["solution"]])
        for claim in r["claims"]:
            if not (matching_claims([claim], own) or said_claims([claim], own)):
                out.append(f"{where}: the claim {claim!r} is not in its own answer, explanation "
                           f"or solution")
        earlier = [(f"cell {i}", source(c) if c["cell_type"] == "markdown" else checked_output(c))
                   for i, c in enumerate(nb_cells[:r["cell"]])]
        earlier += [(f"the explanation of {e['prompt'][:40]!r}",
                     " ".join([e["explanation"], e["solution"]]))
                    for e in records if e["cell"] < r["cell"]]
        for label, text in earlier:
            hits = said_claims(r["claims"], text) if text else []
            if hits:
                out.append(f"{where}: {label} says {hits[0]!r} before it is asked")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_no_practice_item_is_answered_by_scrolling_up(path):
    assert scrolled_claims(item_records(path), cells(path)) == [], STEP


# --- the rules on planted notebooks and records -----------------------------------------------

def _nb(*texts):
    return [{"cell_type": "markdown" if t.startswith("MD:") else "code",
             "source": t.removeprefix("MD:"), "outputs": []} for t in texts]


def _rec(cell, kind="compute", objective="05.1", value=0.1234, cls="Exercise", claims=(),
         text="0.1234", explanation="", solution="worked", prompt="q"):
    return {"cell": cell, "kind": kind, "objective": objective, "value": value, "cls": cls,
            "claims": list(claims), "text": text, "explanation": explanation,
            "solution": solution, "prompt": prompt}


def test_objectives_are_read_from_the_opening_list(tmp_path):
    nb = {"cells": _nb("MD:# 5 · Title\n\nYou will be able to:\n\n* one thing;\n* another\n"
                       "  thing, continued;\n\nMore text.", "x = 1", "MD:- not an objective")}
    path = tmp_path / "05_x.ipynb"
    path.write_text(json.dumps(nb))
    assert objectives(path) == ["one thing;", "another thing, continued;"]
    assert len(objectives(NB_DIR / "05_density_estimation.ipynb")) == 4


def test_the_objective_rules_fail_on_planted_items():
    counts = {"01": 4, "05": 3}
    nb = _nb("MD:**Exercise 1** (objective 2).", "ex1", "MD:**Exercise 2**.", "ex2",
             "MD:(notebook 1, objective 4)", "ex3", "MD:(objective 4)", "ex4")
    good = [_rec(1, objective="05.2"), _rec(5, objective="01.4")]
    assert objective_problems(good, "05", counts, nb) == []
    assert objectives_without_items(good, "05", 3) == ["05.1", "05.3"]
    bad = [_rec(1, objective=None), _rec(3, objective="05.1"), _rec(5, objective="01.3"),
           _rec(7, objective="05.4"), _rec(7, objective="06.1")]
    problems = objective_problems(bad, "05", counts, nb)
    assert len(problems) == 5
    assert "names no objective" in problems[0] and "does not say (objective 1)" in problems[1]
    assert "(notebook 1, objective 3)" in problems[2]
    assert "05.4 does not exist" in problems[3] and "06.1 does not exist" in problems[4]
    # predictions and observations are not practice
    assert objective_problems([_rec(1, kind="prediction", objective=None, cls="Prediction")],
                              "05", counts, nb) == []


def test_the_kind_rule_counts_each_kind_and_fails_when_one_is_missing():
    items = [_rec(1), _rec(1, kind="investigation"), _rec(1, kind="derivation", cls="Choice"),
             _rec(1, kind="open", cls="OpenQuestion"), _rec(1, kind="concept", objective="02.1"),
             _rec(1, kind="prediction", cls="Prediction")]
    counts = kind_counts(items, "05")
    assert counts == {"fluency": 1, "explorer": 0, "concept": 1, "investigation": 1,
                      "derivation": 1, "open": 1, "retrieval": 1, "all": 5}
    assert missing_kinds(counts, "05") == []
    assert missing_kinds(kind_counts(items[:4], "05"), "05") == ["no retrieval item"]
    assert missing_kinds(kind_counts(items[:4], "01"), "01") == []
    plug_ins = items[:5] + [_rec(1)] * 4
    assert missing_kinds(kind_counts(plug_ins, "05"), "05") == \
        ["formula plug-ins dominate: 5 fluency items of 9"]
    assert set(missing_kinds(kind_counts([], "05"), "05")) == \
        {"no fluency item", "no investigation item", "no derivation item", "no open item",
         "no retrieval item"}
    assert picked_derivations(items) == \
        ["'q' is a Choice, not a written Derivation"]
    assert picked_derivations([_rec(1, kind="derivation", cls="Derivation")]) == []


def test_the_scrolling_rule_finds_a_claim_above_the_item():
    claim = r"(fewer points|n shrinks)[^.]{0,60}larger h"
    q = _rec(3, kind="concept", cls="Choice", value=None, text="noise", claims=[claim],
             explanation="With fewer points the best trade-off moves to a larger h.")
    assert scrolled_claims([q], _nb("MD:Kernels.", "x", "MD:Try it.", "q")) == []
    told = _nb("MD:With **fewer points** cross-validation picks a *larger* $h$.", "x", "MD:.", "q")
    assert scrolled_claims([q], told) == [f"{q['prompt']!r} (cell 3): cell 0 says {claim!r} "
                                          f"before it is asked"]
    output = _nb("MD:.", "# NBVAL_CHECK_OUTPUT\nprint(h)", "MD:.", "q")
    output[1]["outputs"] = [{"text": "as n shrinks the best is a larger h\n"}]
    assert "cell 1 says" in scrolled_claims([q], output)[0]
    earlier = _rec(1, kind="concept", cls="Choice", value=None, claims=["x"], text="x",
                   explanation="x: with fewer points CV picks a larger h")
    assert "the explanation of" in scrolled_claims([earlier, q], _nb("MD:.", "e", "MD:.", "q"))[-1]
    # only what comes before the item; and an item's claims must be its own
    assert scrolled_claims([q], _nb("MD:.", "x", "MD:.", "q", "MD:fewer points, larger h")) == []
    stray = {**q, "claims": [r"bandwidth doubles"]}
    assert "is not in its own answer" in scrolled_claims([stray], _nb("MD:.", "x", "MD:.", "q"))[0]
    # items a number check cannot see need claims; a 4-digit number does not
    assert "no claims" in scrolled_claims([{**q, "claims": []}], _nb("MD:.", "x", "MD:.", "q"))[0]
    assert scrolled_claims([_rec(3, value=0.1234)], _nb("MD:.", "x", "MD:.", "q")) == []
    assert needs_claims(_rec(3, value=3.0)) and needs_claims(_rec(3, value=0.5))


# the paraphrases that passed the one-regex-per-item reader (issue #40, item 4): the item, the
# claim its builder declares, and the text that answered it from above (the course before #40)
PARAPHRASES = {
    "02 c34 derivation of p(μ)": (r"σ ?1 ?\^ ?2 ?σ ?2 ?\^ ?2 ?\( ?1 ?- ?ρ ?\^ ?2",
                                  "MD:Its height is $p(\\mu) = 1/(2\\pi|\\Sigma|^{1/2})$, and "
                                  "$|\\Sigma| = \\sigma_1^2\\sigma_2^2(1-\\rho^2)$ shrinks."),
    "04 c22 which learner at n = 1000": (
        r"logistic regression (is|stays|keeps) (ahead|lower|better)",
        "MD:When the data are non-Gaussian, in the limit of large training sets logistic "
        "regression will almost always do better than GDA."),
    "06 c46 smoothing and the decision": (
        r"(raise|larger|increase)\w* α[^.]{0,60}decision",
        "MD:Raising $\\alpha$ far enough, the **decision** of the query builder flips."),
    "08 c46 an area on an edge": (r"(400\W+2\b|800\W+3\b|1200\W+4\b|1600\W+5\b)",
                                  "OUT:{350: 1, 890: 3, 1200: 4, 1599: 4, 2400: 5}"),
    "09 c78 k against h": (r"(larger|more) (k|neighbours)[^.]{0,60}(smooth|averag)",
                           "MD:Right: the 7-nearest-neighbour average — \"much more smooth\", as "
                           "the notes say."),
    "10 c32 the gap at the largest size": (
        r"(wrong|independence) (model|assumption)[^.]{0,60}(emails|data)",
        "MD:Words are not independent given the class, and no number of emails corrects a "
        "wrong model: the curve levels off."),
    "10.3 the objective": (r"so the curves cross",
                           "MD:You will be able to:\n\n* train both on growing subsets and find "
                           "where their learning curves cross;\n* another."),
}


def _planted(text):
    if text.startswith("OUT:"):
        nb = _nb("MD:.", "# NBVAL_CHECK_OUTPUT\nprint(bins)", "MD:.", "q")
        nb[1]["outputs"] = [{"text": text.removeprefix("OUT:")}]
        return nb
    return _nb(text, "x", "MD:.", "q")


@pytest.mark.parametrize("name", PARAPHRASES)
def test_the_scrolling_rule_reads_a_paraphrase_of_each_leak_of_issue_40(name):
    claim, text = PARAPHRASES[name]
    kind = "Prediction" if name.startswith("10.3") else "Choice"
    q = _rec(3, kind="concept", cls=kind, value=None, text="the answer", claims=[claim],
             explanation=text.split(":", 1)[1])  # its own explanation says it too
    problems = scrolled_claims([q], _planted(text))
    assert len(problems) == 1 and "says" in problems[0] and "before it is asked" in problems[0]
    # the same text below the item, or with the key terms cut into two sentences, says nothing
    assert scrolled_claims([{**q, "cell": 0}], _planted(text)) == []


def test_the_key_terms_find_what_the_one_regex_per_item_missed():
    from key_terms import said_claims
    missed = [n for n, (claim, text) in PARAPHRASES.items()
              if not matching_claims([claim], text.split(":", 1)[1])]
    assert {"04 c22 which learner at n = 1000", "06 c46 smoothing and the decision",
            "09 c78 k against h", "10.3 the objective"} <= set(missed)
    for n in missed:
        claim, text = PARAPHRASES[n]
        assert said_claims([claim], text.split(":", 1)[1]) == [claim], n
    # one sentence: the key terms spread over two sentences are not a claim
    assert said_claims([r"so the curves cross"], "The curves rise. Prices cross.") == []
    assert said_claims([r"so the curves cross"], "Where do the curves cross?") != []
    # stemmed, in any order; a negation is a key term; a phrase claim is read as its words
    assert said_claims([r"narrow bins[^.]{0,60}fit"], "It fits the training data with a "
                       "narrower bin.") != []
    assert said_claims([r"not positive definite"], "Σ is symmetric and positive definite.") == []
    assert said_claims([r"(?#phrase)naive bayes answers yes"],
                       "Naive Bayes answers No; P(yes) is small.") == []


# --- numbering: the exercises of a notebook are Exercise 1, 2, ... in reading order -------------

EXERCISE_HEADING = re.compile(r"\*\*Exercise(?: (\d+))?\*\*")
EXERCISE_VARIABLE = re.compile(r"^(ex\d+)\s*=", re.M)


def numbering_problems(nb_cells) -> list[str]:
    """Each ``**Exercise**`` heading carries a number, the numbers run 1, 2, ... in reading
    order (an item above the exercise section counts as the exercise it is), and a variable
    ``exK = ...`` stands under Exercise K (the heading nearest above it)."""
    out, expected, current = [], 1, None
    for i, cell in enumerate(nb_cells):
        text = source(cell)
        if cell["cell_type"] == "markdown":
            for m in EXERCISE_HEADING.finditer(text):
                if m.group(1) is None:
                    out.append(f"cell {i}: an unnumbered **Exercise** (it is Exercise {expected})")
                elif int(m.group(1)) != expected:
                    out.append(f"cell {i}: Exercise {m.group(1)} where Exercise {expected} is next")
                current, expected = expected, expected + 1
        else:
            for name in EXERCISE_VARIABLE.findall(text):
                if name != f"ex{current}":
                    out.append(f"cell {i}: {name} under Exercise {current}")
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_number)
def test_exercises_are_numbered_in_reading_order(path):
    assert numbering_problems(cells(path)) == [], \
        "number the exercises 1, 2, ... in reading order; exK under Exercise K"


def test_the_numbering_rule_fails_on_planted_notebooks():
    assert numbering_problems(_nb("MD:**Exercise 1** (objective 2).", "ex1 = 1",
                                  "MD:**Exercise 2**.", "ex2 = 2")) == []
    assert numbering_problems(_nb("MD:**Exercise** (objective 4).", "x = 1",
                                  "MD:**Exercise 1** (objective 2).", "ex1 = 1")) == [
        "cell 0: an unnumbered **Exercise** (it is Exercise 1)",
        "cell 2: Exercise 1 where Exercise 2 is next", "cell 3: ex1 under Exercise 2"]
    assert numbering_problems(_nb("MD:**Exercise 1**.", "MD:**Exercise 3**.", "ex3 = 3")) == [
        "cell 1: Exercise 3 where Exercise 2 is next", "cell 2: ex3 under Exercise 2"]
