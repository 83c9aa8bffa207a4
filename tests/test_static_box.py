"""genviz.widgets._static_box.static_card: the one card every item box shows where no widget
manager runs (the course website, GitHub, nbviewer).

Oracle: the HTML the five boxes wrote by hand before they shared the card (each f-string as it
stood in widgets/exercises.py, practice.py, observations.py and predictions.py, kept here),
compared byte for byte with what each box shows now, on the same items: markup-special text
(``<``, ``&``, quotes) included.
"""

from __future__ import annotations

import html

import pytest

from genviz.exercises import Choice, Exercise, OpenQuestion, Prediction
from genviz.exercises._core import _markdown_to_html as _md
from genviz.exercises._core import _stop
from genviz.exercises.observation import Observation
from genviz.widgets._static_box import static_card
from genviz.widgets.exercises import answer_box, choice_box, observation_box, prediction_box
from genviz.widgets.practice import open_box

_OPTIONS = ["p < q & \"r\"", "it <b>drops</b>", "no change"]


def _exercise(hint):
    return Exercise("What is φ?", 0.5, hint=hint, solution="φ = 3/6 = 0.5 (*not* < 0.4).")


def _choice(prompt):
    return Choice(prompt, _OPTIONS, _OPTIONS[1], explanation="Because *counts* add up.",
                  reasons={_OPTIONS[0]: "REASON <0>"})


def _prediction(prompt):
    obs = Observation("Set ρ = 0.9. What is the peak?", 0.3651, setting={"rho": 0.9},
                      labels={"rho": "ρ"}, read="peak", what="the peak", atol=6e-4)
    return Prediction(prompt, _OPTIONS, _OPTIONS[0], id="99-static-card",
                      explanation="It is *taller*.", observation=obs,
                      reasons={_OPTIONS[2]: "REASON & 2"})


def _open(prompt):
    return OpenQuestion(prompt, "Most cells are *empty* (2^13 = 8192 of them).",
                        key_points={"counts the cells": r"cells|8192",
                                    "most cells are empty": r"empty"},
                        objective="01.4", claims=[r"most cells are empty"])


PROMPTS = ["Which is it?", "Is $p(x) < 1$ & *why*?"]


# --- the old markup, as each box wrote it --------------------------------------------------------

def _old_answer(ex):
    return (f'<div class="genviz-exercise tex2jax_process">'
            f"<p><i>Answer ({html.escape(ex.answer_format)}): run this notebook to type it "
            f"in a box and check it.</i></p>"
            f"<details><summary>Hint</summary><p>{html.escape(ex.hint)}</p></details>"
            f"<details><summary>Solution</summary>{ex.solution().to_html()}</details>"
            f"</div>")


def _old_choice(choice):
    items = "".join(f"<li>({choice.label(i)}) {html.escape(o)}</li>"
                    for i, o in enumerate(choice.options))
    reasons = "".join(f"<li>({choice.label(i)}) {_md(r)}</li>"
                      for i, r in enumerate(choice.reasons) if r)
    reasons = f"<ul>{reasons}</ul>" if reasons else ""
    return (f'<div class="genviz-exercise genviz-choice tex2jax_process">'
            f"<p><b>Question.</b> {_md(choice.prompt)}</p>"
            f'<ul class="genviz-options" style="list-style:none;padding-left:1em">{items}</ul>'
            f"<p><i>Choose before you open the answer (run this notebook to commit to a "
            f"choice in a box).</i></p>"
            f"<details><summary>Answer</summary>"
            f"<p><b>{html.escape(choice.answer_text())}{_stop(choice.answer_text())}</b> "
            f"{_md(choice.explanation)}</p>"
            f"{reasons}</details></div>")


def _option(p, i):
    return f"({p.label(i)}) {p.options[i]}"


def _old_prediction(p):
    items = "".join(f"<li>{html.escape(_option(p, i))}</li>" for i in range(len(p.options)))
    return (f'<div class="genviz-exercise genviz-choice genviz-prediction tex2jax_process">'
            f"<p><b>Predict.</b> {_md(p.prompt)}</p>"
            f'<ul class="genviz-options" style="list-style:none;padding-left:1em">{items}</ul>'
            f"<p><i>Choose one before you read on (run this notebook to commit to it in a "
            f"box); what happens, and why, is under the explorer.</i></p></div>")


def _old_observation(p):
    obs = p.observation
    reasons = "".join(f"<li>{html.escape(_option(p, i))}: {_md(r)}</li>"
                      for i, r in enumerate(p.reasons) if r and i not in p.correct)
    reasons = f"<ul>{reasons}</ul>" if reasons else ""
    answer = " or ".join(html.escape(_option(p, i)) for i in p.correct)
    return (f'<div class="genviz-exercise genviz-choice genviz-observation tex2jax_process">'
            f"<p><b>Observe.</b> {_md(obs.prompt)}</p>"
            f"<p><i>Record what you see (run this notebook to record it in a box), then open "
            f"the explanation.</i></p>"
            f"<details><summary>What happens, and why</summary>"
            f"<p><b>{answer}{_stop(answer)}</b> {_md(p.explanation)}</p>{reasons}"
            f"</details></div>")


def _old_open(q):
    points = "".join(f"<li>{html.escape(p)}</li>" for p in q.key_points)
    return (f'<div class="genviz-exercise genviz-open tex2jax_process">'
            f"<p><b>Open question.</b> {_md(q.prompt)}</p>"
            f"<p><i>Write your answer first (run this notebook to write it in a box), "
            f"then open the model answer.</i></p>"
            f"<details><summary>Model answer</summary>"
            f"<p>{_md(q.model_answer)}</p>"
            f"<p>A good answer says:</p><ul>{points}</ul></details></div>")


def _page(box):
    return box._repr_mimebundle_()["text/html"]


@pytest.mark.parametrize("prompt", PROMPTS)
def test_every_box_shows_the_card_it_wrote_by_hand(prompt):
    ex = _exercise(hint=f"Count the ones: {prompt}")
    assert _page(answer_box(ex)) == _old_answer(ex)
    ch = _choice(prompt)
    assert _page(choice_box(ch)) == _old_choice(ch)
    p = _prediction(prompt)
    assert _page(prediction_box(p, lecture=False)) == _old_prediction(p)
    assert _page(observation_box(p)) == _old_observation(p)
    q = _open(prompt)
    assert _page(open_box(q)) == _old_open(q)


def test_the_card_s_parts_in_reading_order():
    card = static_card("genviz-x", ("Lead", "L-HTML"), "DO-THIS", options=["O1", "O2"],
                       folds=[("S1", "B1"), ("S2", "B2")])
    order = ['class="genviz-exercise genviz-x tex2jax_process"', "<b>Lead.</b> L-HTML",
             "<li>O1</li><li>O2</li>", "<i>DO-THIS</i>",
             "<details><summary>S1</summary>B1</details>",
             "<details><summary>S2</summary>B2</details></div>"]
    at = [card.index(part) for part in order]
    assert at == sorted(at)
    assert "<details open" not in card


def test_without_a_lead_options_or_folds_only_the_instruction():
    assert static_card("", None, "Run it.") == (
        '<div class="genviz-exercise tex2jax_process"><p><i>Run it.</i></p></div>')
