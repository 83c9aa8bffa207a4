"""Multiple-choice items and predictions (genviz.exercises.Choice/Prediction): checking, reading
what was selected or typed, ids and the options' shuffled order, claims, bad input; the choice
box (genviz.widgets.exercises.choice_box) and its static rendering. The prediction's own boxes
(predict, observe, explain) are tested in tests/test_predict_observe_explain.py."""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import genviz.exercises.choice as choice_module
from genviz.exercises import KINDS, Choice, Exercise, Prediction
from genviz.exercises.choice import ID_PATTERN, shuffled_order
from genviz.widgets.exercises import ChoiceBox, PredictionBox, choice_box

EXPLAIN = "Because the determinant shrinks, EXPLANATION-MARK."


def _pred(**kw):
    return Prediction("Which way does the peak move?", ["up", "down", "it stays"], "up",
                      explanation=EXPLAIN, id="99-test-peak", **kw)


def _choice(**kw):
    return Choice("Can smoothing flip a decision?", ["yes", "no"], "yes",
                  explanation=EXPLAIN, reasons={"no": "REASON-NO: think of a rare word."}, **kw)


# --- the question ---------------------------------------------------------------------------------

def test_choice_is_an_exercise_with_a_kind():
    q = _choice()
    assert isinstance(q, Exercise) and q.kind == "concept" and _pred().kind == "prediction"
    assert Exercise("q", 1.0, hint="h", solution="s").kind == "compute"
    assert Exercise("q", 1.0, hint="h", solution="s", kind="explorer").kind == "explorer"
    assert set(KINDS) == {"compute", "explorer", "concept", "prediction", "observation",
                          "investigation", "derivation", "open", "transfer"}
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
    right, wrong = p.check("up"), p.check("down")
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


# --- ids, shuffled options, claims ---------------------------------------------------------------

def test_an_id_shuffles_the_options_and_keeps_the_right_one_and_its_reasons():
    plain = Choice("q", ["a1", "b2", "c3", "d4"], "c3", explanation="e",
                   reasons={"a1": "RA", "d4": "RD"})
    shuffled = Choice("q", ["a1", "b2", "c3", "d4"], "c3", explanation="e",
                      reasons={"a1": "RA", "d4": "RD"}, id="05-some-item")
    order = shuffled_order("05-some-item", 4)
    assert plain.options == ("a1", "b2", "c3", "d4") and plain.id is None
    assert shuffled.options == tuple(plain.options[i] for i in order) != plain.options
    assert shuffled.options[shuffled.correct[0]] == "c3"
    assert dict(zip(shuffled.options, shuffled.reasons)) == dict(zip(plain.options, plain.reasons))
    assert shuffled.check("c3").correct and not shuffled.check("a1").correct
    assert "RA" in str(shuffled.check("a1"))
    # the same on every call (a fresh hash, no global random state)
    again = Choice("q", ["a1", "b2", "c3", "d4"], 2, explanation="e", id="05-some-item")
    assert again.options == shuffled.options and again.correct == shuffled.correct


@settings(max_examples=60, deadline=None)
@given(item_id=st.from_regex(ID_PATTERN, fullmatch=True), n=st.integers(2, 8),
       data=st.data())
def test_property_shuffling_is_a_permutation_that_tracks_every_right_option(item_id, n, data):
    order = shuffled_order(item_id, n)
    assert sorted(order) == list(range(n)) and order == shuffled_order(item_id, n)
    options = [f"option {k}" for k in range(n)]
    right = data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    q = Choice("q", options, right, explanation="e", id=item_id)
    assert sorted(q.options) == sorted(options)
    assert {q.options[i] for i in q.correct} == {options[i] for i in right}


def test_ids_spread_the_right_option_over_the_positions():
    """Over many ids the right option (written first) lands on every position about equally:
    the order carries no signal. (The course's own items are checked in test_teaching.py.)"""
    n, ids = 4, [f"99-item-{k}" for k in range(400)]
    counts = [0] * n
    for item_id in ids:
        counts[shuffled_order(item_id, n).index(0)] += 1
    assert all(70 <= c <= 130 for c in counts), counts


def test_a_prediction_needs_an_id_and_checks_its_observation():
    with pytest.raises(TypeError, match="id"):
        Prediction("q", ["a", "b", "c"], 0, explanation="e")
    with pytest.raises(TypeError, match="observation must be"):
        Prediction("q", ["a", "b", "c"], 0, explanation="e", id="02-x", observation="0.5")
    assert _pred().id == "99-test-peak" and _pred().observation is None


@pytest.mark.parametrize("bad, error, match", [
    (3, TypeError, "id must be a string"), ("peak", ValueError, "two digits"),
    ("2-peak", ValueError, "two digits"), ("02-Peak", ValueError, "lower-case"),
    ("02-peak rho", ValueError, "hyphens"), ("02-", ValueError, "two digits")])
def test_bad_ids_are_refused_naming_the_argument(bad, error, match):
    with pytest.raises(error, match=match):
        Choice("q", ["a", "b", "c"], 0, explanation="e", id=bad)


@pytest.mark.parametrize("claims, error, match", [
    ("taller", TypeError, "claims must be a list"), ([""], ValueError, r"claims\[0\]"),
    (["ok", 3], ValueError, r"claims\[1\]"), (["(unclosed"], ValueError, "not a regular")])
def test_bad_claims_are_refused(claims, error, match):
    with pytest.raises(error, match=match):
        Exercise("q", 1.0, hint="h", solution="s", claims=claims)


def test_claims_read_markdown_and_latex_as_words():
    from genviz.exercises import claim_text, matching_claims
    text = r"A **compressed** Gaussian is *taller*: $\rho \to 1$ makes $|\Sigma|$ small."
    assert claim_text(text) == "a compressed gaussian is taller : ρ → 1 makes |σ| small."
    assert matching_claims([r"compressed gaussian is taller", r"wider"], text) == \
        [r"compressed gaussian is taller"]
    q = Choice("q", ["a", "b", "c"], 0, explanation="e", claims=[r"a\b"])
    assert q.claims == (r"a\b",) and Exercise("q", 1.0, hint="h", solution="s").claims == ()


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


def test_choice_box_gives_a_prediction_its_own_box():
    assert isinstance(choice_box(_pred(), lecture=False), PredictionBox)


def test_static_rendering_of_a_choice_folds_the_answer():
    box = choice_box(_choice())
    bundle = box._repr_mimebundle_()
    page = bundle["text/html"]
    assert "Can smoothing flip a decision?" in page and "(b) no" in page
    before, _, folded = page.partition("<details>")
    assert EXPLAIN not in before and EXPLAIN in folded and "genviz-exercise" in page
    assert "<details open" not in page
    assert EXPLAIN not in bundle["text/plain"] and "ChoiceBox(" not in bundle["text/plain"]
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_box_bad_input():
    with pytest.raises(TypeError, match="choice must be a genviz.exercises.Choice"):
        ChoiceBox(Exercise("q", 1.0, hint="h", solution="s"))
    with pytest.raises(ValueError, match="mode must be one of"):
        ChoiceBox(_choice(), mode="commit")


def test_the_package_re_exports_the_choice_module_s_classes():
    assert Choice is choice_module.Choice and Prediction is choice_module.Prediction
    assert issubclass(Prediction, Choice) and issubclass(Choice, Exercise)


def test_a_derivation_s_right_option_is_the_only_candidate_that_holds():
    """_only_option (the derivation choices' right option): the index of the one candidate
    whose value passes the check; none or two are refused with the count, or the caller's
    message (planted candidates: the oracle is the index written by hand)."""
    candidates = {"a": 1.0, "b": 2.0, "c": 3.0}
    assert choice_module._only_option(candidates, lambda v: v == 2.0) == 1
    with pytest.raises(ValueError, match=r"0 of the options \['a', 'b', 'c'\] agree"):
        choice_module._only_option(candidates, lambda v: v > 5)
    with pytest.raises(ValueError, match="2 of the options"):
        choice_module._only_option(candidates, lambda v: v > 1.5)
    with pytest.raises(ValueError, match="^at = 0 makes 3 options equal$"):
        choice_module._only_option(candidates, lambda v: True,
                                   refusal=lambda n: f"at = 0 makes {n} options equal")
