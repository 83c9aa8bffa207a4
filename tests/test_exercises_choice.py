"""Multiple-choice items and predictions (genviz.exercises.Choice/Prediction) and their boxes
(genviz.widgets.exercises.choice_box/prediction_box): checking, reading what was selected or
typed, bad input, the explanation absent from the widget's state until the learner commits,
lecture mode's Reveal toggle, and the static rendering (question, options, answer folded)."""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import genviz.exercises.choice as choice_module
from genviz.exercises import KINDS, Choice, Exercise, Prediction
from genviz.plots.style import lecture_mode
from genviz.widgets.exercises import ChoiceBox, choice_box, prediction_box

EXPLAIN = "Because the determinant shrinks, EXPLANATION-MARK."


def _pred(**kw):
    return Prediction("Which way does the peak move?", ["up", "down", "it stays"], "up",
                      explanation=EXPLAIN, **kw)


def _choice(**kw):
    return Choice("Can smoothing flip a decision?", ["yes", "no"], "yes",
                  explanation=EXPLAIN, reasons={"no": "REASON-NO: think of a rare word."}, **kw)


# --- the question ---------------------------------------------------------------------------------

def test_choice_is_an_exercise_with_a_kind():
    q = _choice()
    assert isinstance(q, Exercise) and q.kind == "concept" and _pred().kind == "prediction"
    assert Exercise("q", 1.0, hint="h", solution="s").kind == "compute"
    assert Exercise("q", 1.0, hint="h", solution="s", kind="explorer").kind == "explorer"
    assert set(KINDS) == {"compute", "explorer", "concept", "prediction"}
    assert q.correct == (0,) and q.options == ("yes", "no")


@pytest.mark.parametrize("selection", [0, "yes", " YES ", "a", "(a)", "A)", "a."])
def test_every_way_of_naming_the_right_option(selection):
    assert _choice().check(selection).correct is True


@pytest.mark.parametrize("selection", [1, "no", "b", "(B)"])
def test_wrong_option_gives_its_reason_never_the_right_option(selection):
    fb = _choice().check(selection)
    assert fb.correct is False and "REASON-NO" in str(fb)
    assert "yes" not in str(fb).lower() and EXPLAIN not in str(fb)


def test_unanswered_and_unreadable_selections():
    q = _choice()
    assert q.check(...).correct is None and q.check(None).correct is None
    assert q.check_text("  ").correct is None
    for bad in ("c", "maybe", 2, -1):
        fb = q.check(bad)
        assert fb.correct is False and "not an option" in str(fb) or "out of range" in str(fb)
    assert "letter a-b" in str(q.check("maybe"))
    assert q.check(True).correct is False  # a bool is not an index
    assert q.check_text("(a)").correct and not q.check_text("b").correct
    assert q.answer_format == "one of the letters a-b"


def test_index_raises_naming_the_argument():
    q = _choice()
    with pytest.raises(TypeError, match="selection"):
        q.index(1.5)
    with pytest.raises(ValueError, match="selection 5 is out of range"):
        q.index(5)
    with pytest.raises(ValueError, match="selection 'z' is not an option"):
        q.index("z")


def test_prediction_reveals_the_explanation_only_in_the_verdict():
    p = _pred(reasons=["UP-REASON", "DOWN-REASON", None])
    right, wrong = p.check("up"), p.check("b")
    assert right.correct and str(right).startswith("Your prediction was right.")
    assert EXPLAIN in str(right) and "UP-REASON" in str(right)
    assert not wrong.correct and str(wrong).startswith("Not what happens.")
    assert "DOWN-REASON" in str(wrong) and EXPLAIN in str(wrong)
    assert EXPLAIN not in str(p.check(...))


def test_several_right_options_and_solution():
    q = Choice("Pick a prime", ["2", "4", "5"], [0, "5"], explanation="2 and 5 are prime.")
    assert q.correct == (0, 2) and q.check("2") and q.check("c") and not q.check("b")
    assert q.solution().answer == "(a) 2 or (c) 5"
    assert "(a) 2" in str(_choice().solution()) or "(a) yes" in str(_choice().solution())
    assert "EXPLANATION-MARK" in _choice().solution().text


@pytest.mark.parametrize("kwargs, error, match", [
    ({"options": "yes no"}, TypeError, "options must be a list"),
    ({"options": ["only"]}, ValueError, "at least two"),
    ({"options": ["a", 3]}, TypeError, r"options\[1\] must be a string"),
    ({"options": ["a", " "]}, ValueError, r"options\[1\] must be a non-empty"),
    ({"options": ["Yes", "yes "]}, ValueError, "options must be distinct"),
    ({"answer": "maybe"}, ValueError, "answer 'maybe' is not one of the options"),
    ({"answer": 7}, ValueError, "answer index 7 is out of range"),
    ({"answer": 1.0}, TypeError, "answer must be an option's index or text"),
    ({"answer": True}, TypeError, "answer must be"),
    ({"answer": []}, ValueError, "answer must name at least one option"),
    ({"explanation": ""}, ValueError, "explanation must be a non-empty string"),
    ({"hint": ""}, ValueError, "hint must be None or a non-empty string"),
    ({"reasons": ["x"]}, ValueError, "reasons must give one entry per option"),
    ({"reasons": {"maybe": "x"}}, ValueError, "reasons: key 'maybe'"),
    ({"reasons": "x"}, TypeError, "reasons must be a mapping or a list"),
    ({"reasons": ["x", ""]}, ValueError, r"reasons\[1\]"),
    ({"prompt": ""}, ValueError, "prompt must be a non-empty string"),
    ({"kind": "quiz"}, ValueError, "kind must be one of"),
])
def test_bad_construction_names_the_argument(kwargs, error, match):
    args = {"prompt": "q", "options": ["yes", "no"], "answer": "yes", "explanation": "e"}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        Choice(args.pop("prompt"), args.pop("options"), args.pop("answer"), **args)


_options = st.lists(st.text(alphabet=string.ascii_letters + " ", min_size=1, max_size=12)
                    .filter(lambda s: s.strip()), min_size=2, max_size=8,
                    unique_by=lambda s: " ".join(s.lower().split()))


@settings(max_examples=80, deadline=None)
@given(options=_options, data=st.data())
def test_property_exactly_the_right_option_is_accepted_by_index_letter_and_text(options, data):
    right = data.draw(st.integers(0, len(options) - 1))
    q = Choice("q", options, right, explanation="e")
    for i, opt in enumerate(options):
        want = i == right
        assert q.check(i).correct is want
        assert q.check(opt).correct is want
        # a letter names option i unless some option's own text is that letter
        letter = string.ascii_lowercase[i]
        if not any(" ".join(o.lower().split()) in (letter, f"({letter})") for o in options):
            assert q.check_text(f"({letter})").correct is want


# --- the widgets ----------------------------------------------------------------------------------

def _state_text(box):
    """Everything the widget tree holds as text (what a front end could show)."""
    out, todo = [], [box]
    while todo:
        w = todo.pop()
        for attr in ("value", "description", "tooltip", "options", "_options_labels"):
            v = getattr(w, attr, None)
            if v is not None:
                out.append(str(v))
        todo.extend(getattr(w, "children", ()))
    return " ".join(out)


def test_prediction_box_hides_the_explanation_until_commit_and_locks_the_choice():
    box = prediction_box(_pred(), lecture=False)
    assert box.mode == "commit" and box.button.description == "Commit"
    assert EXPLAIN not in _state_text(box)
    box.commit()  # nothing selected: asks for a choice, reveals nothing
    assert box.committed is None and "choose an option" in box.feedback.value
    assert EXPLAIN not in _state_text(box) and not box.radio.disabled
    box.select(1)
    assert EXPLAIN not in _state_text(box)  # selecting is not committing
    box.button.click()
    assert box.committed == 1 and box.radio.disabled and box.button.disabled
    assert EXPLAIN in box.feedback.value and "Not what happens" in box.feedback.value
    box.radio.value = 0  # a locked box ignores a later commit
    box.commit()
    assert box.committed == 1 and "Not what happens" in box.feedback.value


def test_choice_box_checks_again_and_folds_the_solution():
    box = choice_box(_choice())
    assert box.mode == "check" and box.button.description == "Check"
    assert EXPLAIN not in _state_text(box)
    box.select("no")
    box.button.click()
    assert "REASON-NO" in box.feedback.value and EXPLAIN not in _state_text(box)
    box.select(0)
    box.button.click()
    assert "Correct!" in box.feedback.value and not box.radio.disabled
    toggle = box.children[-1].children[0]
    toggle.value = True
    assert EXPLAIN in _state_text(box)


def test_lecture_mode_is_a_question_to_the_room_with_a_reveal_toggle():
    with lecture_mode():
        box = prediction_box(_pred())
    assert box.mode == "reveal" and box.button.description == "Reveal answer"
    assert EXPLAIN not in _state_text(box)
    box.select(2)  # marking the room's vote reveals nothing
    assert EXPLAIN not in _state_text(box)
    box.button.value = True
    assert EXPLAIN in box.feedback.value and "(a) up" in box.feedback.value
    box.button.value = False
    assert box.feedback.value == "" and box.button.description == "Reveal answer"
    assert prediction_box(_pred()).mode == "commit"  # outside lecture mode


def test_static_rendering_shows_the_question_and_folds_the_answer():
    box = prediction_box(_pred(), lecture=False)
    bundle = box._repr_mimebundle_()
    page = bundle["text/html"]
    assert "Which way does the peak move?" in page and "(c) it stays" in page
    before, _, folded = page.partition("<details>")
    assert EXPLAIN not in before and EXPLAIN in folded and "genviz-exercise" in page
    assert "<details open" not in page
    assert EXPLAIN not in bundle["text/plain"] and "ChoiceBox(" not in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_box_bad_input():
    with pytest.raises(TypeError, match="choice must be a genviz.exercises.Choice"):
        ChoiceBox(Exercise("q", 1.0, hint="h", solution="s"))
    with pytest.raises(ValueError, match="mode must be one of"):
        ChoiceBox(_pred(), mode="vote")


def test_the_package_re_exports_the_choice_module_s_classes():
    assert Choice is choice_module.Choice and Prediction is choice_module.Prediction
    assert issubclass(Prediction, Choice) and issubclass(Choice, Exercise)
