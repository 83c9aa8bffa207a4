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
    answers, choices, one-digit answers, open questions): no earlier markdown, checked output,
    or explanation or solution of an earlier item (what a learner may have revealed) matches
    the item's key claim (``claims``), and each such item has claims, each of which matches its
    own answer, explanation or solution. (Numbers: tests/test_teaching.py, (b).)

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

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("[0-9][0-9]_*.ipynb"))
TOPICS = [p for p in NOTEBOOKS if not p.name.startswith("00")]
ITEM_CLASSES_NOT_PRACTICE = ("Prediction", "Observation")


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
                              cells(path)) == []


# --- (b) an item per objective ------------------------------------------------------------------

def objectives_without_items(records, number: str, n_objectives: int) -> list[str]:
    named = {r.get("objective") for r in practice(records)}
    return [f"{number}.{k}" for k in range(1, n_objectives + 1) if f"{number}.{k}" not in named]


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_every_objective_has_a_practice_item(path):
    assert len(objectives(path)) >= 2
    assert objectives_without_items(item_records(path), _number(path), len(objectives(path))) \
        == []


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


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_practice_climbs_from_fluency_to_transfer(path):
    counts = kind_counts(item_records(path), _number(path))
    assert missing_kinds(counts, _number(path)) == [], counts


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
    for r in practice(records):
        if not needs_claims(r):
            continue
        where = f"{r['prompt'][:60]!r} (cell {r['cell']})"
        if not r["claims"]:
            out.append(f"{where}: no claims (its answer's key claim, as regular expressions)")
            continue
        own = " ".join([r["text"], r["explanation"], r["solution"]])
        for claim in r["claims"]:
            if not matching_claims([claim], own):
                out.append(f"{where}: the claim {claim!r} is not in its own answer, explanation "
                           f"or solution")
        earlier = [(f"cell {i}", source(c) if c["cell_type"] == "markdown" else checked_output(c))
                   for i, c in enumerate(nb_cells[:r["cell"]])]
        earlier += [(f"the explanation of {e['prompt'][:40]!r}",
                     " ".join([e["explanation"], e["solution"]]))
                    for e in records if e["cell"] < r["cell"]]
        for label, text in earlier:
            hits = matching_claims(r["claims"], text) if text else []
            if hits:
                out.append(f"{where}: {label} says {hits[0]!r} before it is asked")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", TOPICS, ids=_number)
def test_no_practice_item_is_answered_by_scrolling_up(path):
    assert scrolled_claims(item_records(path), cells(path)) == []


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
