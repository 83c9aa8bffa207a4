"""Written derivations (genviz.exercises.derivation, genviz.widgets.practice.derivation_box).

Oracles: a formula read from text is the same function as the Python expression it spells
(evaluated by numpy here, independently of the reader); the equivalence test accepts what
algebra says is equal and refuses what differs, on identities checked by hand; the course's
derivations are checked against the library in tests/test_practice_builders.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genviz.exercises import Derivation, Step, Symbol
from genviz.exercises.derivation import read_formula, same_formula
from genviz.widgets.practice import DerivationBox, derivation_box

SYM = {"a": Symbol("a", 0.5, 2.0), "b": Symbol("b", 0.5, 2.0),
       "rho": Symbol("ρ", -0.9, 0.9), "n": Symbol("n", 2, 40, integer=True)}


def _item(**kw):
    args = dict(steps=[Step("first", "a*b", "ab"),
                       Step("second", "a/(1 - rho^2)", r"a/(1-\rho^2)",
                            mistakes={"a/(1 - rho)": "Squared."})],
                symbols=SYM, explanation="Worked *out*.", hint="Think.")
    args.update(kw)
    return Derivation(kw.pop("prompt", "Derive it."), **args)


# -- reading a formula ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, truth", [
    ("a*b", lambda a, b, rho, n: a * b),
    ("2a b", lambda a, b, rho, n: 2 * a * b),
    ("a^2 - b**2", lambda a, b, rho, n: a**2 - b**2),
    ("(a+b)(a-b)", lambda a, b, rho, n: (a + b) * (a - b)),
    ("√(1 − ρ²)", lambda a, b, rho, n: np.sqrt(1 - rho**2)),
    ("exp(-a)/n", lambda a, b, rho, n: np.exp(-a) / n),
    ("log a + ln(b)", lambda a, b, rho, n: np.log(a) + np.log(b)),
    ("2pi a", lambda a, b, rho, n: 2 * np.pi * a),
    ("1e-3 a", lambda a, b, rho, n: 1e-3 * a),
    ("aρ", lambda a, b, rho, n: a * rho),
    ("a·b×n", lambda a, b, rho, n: a * b * n),
    ("e^a", lambda a, b, rho, n: np.exp(a)),
])
def test_a_typed_formula_computes_what_it_spells(text, truth):
    env = {"a": np.array([0.7, 1.9]), "b": np.array([1.1, 0.6]), "rho": np.array([0.3, -0.8]),
           "n": np.array([3.0, 17.0])}
    got = read_formula(text, SYM)(env)
    assert np.allclose(got, truth(*env.values()))


@pytest.mark.parametrize("same, key", [
    ("(a + b)^2", "a^2 + 2*a*b + b^2"),
    ("sqrt(a^2*b^2*(1 - rho^2))", "a*b*sqrt(1 - rho^2)"),
    ("log(a*b)", "log(a) + log(b)"),
    ("1/(1 + exp(-a))", "exp(a)/(exp(a) + 1)"),
    ("n*a/n^2", "a/n"),
])
def test_algebraically_equal_formulas_are_the_same(same, key):
    assert same_formula(same, key, SYM)


@pytest.mark.parametrize("other, key", [
    ("a^2 + b^2", "(a + b)^2"),               # a classic slip
    ("a*b*(1 - rho^2)", "a*b*sqrt(1 - rho^2)"),
    ("a/n + 1e-6", "a/n"),                      # off by a little everywhere
    ("a*sqrt(n)", "a*n^0.50001"),               # differs in the 5th digit of an exponent
    ("abs(rho)", "rho"),                        # equal on half of the range only
    ("sqrt(-a)", "a"),                          # undefined where the key is defined
])
def test_formulas_that_differ_somewhere_are_not_the_same(other, key):
    assert not same_formula(other, key, SYM)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "n", "(1 + a)", "(2 - rho)"]), min_size=1,
                max_size=4), st.permutations(range(4)))
def test_a_product_is_the_same_in_any_order(factors, order):
    factors = factors + ["1"] * (4 - len(factors))
    assert same_formula("*".join(factors[i] for i in order), "*".join(factors), SYM)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6))
def test_two_different_powers_are_never_the_same(p, q):
    assert same_formula(f"a^{p}*b", f"b*a^{q}", SYM) is (p == q)


@pytest.mark.parametrize("text, says", [
    ("", "empty formula"),
    ("a*tau", "unknown name 'tau'"),
    ("a +", "not a formula"),
    ("__import__('os').system('true')", "a formula may hold"),
    ("a.__class__", "a formula may hold"),
    ("[a, b]", "a formula may hold"),
    ("sin(a)", "unknown function 'sin'"),
    ("log(a, b)", "takes one argument"),
    ("a" + "+a" * 300, "more than 500 characters"),
    ("9" * 400 + "*a", "a number too large"),
])
def test_what_cannot_be_read_is_refused_and_says_what_to_type(text, says):
    with pytest.raises(ValueError, match=says):
        read_formula(text, SYM)


# -- the item ------------------------------------------------------------------------------------

def test_a_step_is_right_wrong_a_known_slip_or_unread_and_never_shows_its_key():
    q = _item()
    assert q.check_step(0, "b a").correct
    assert q.check_step(1, "a/(1-rho)").message == "Not quite: Squared."
    wrong = q.check_step(1, "a")
    assert wrong.correct is False and "Hint: Think." in wrong.message
    assert q.check_step(1, "").correct is None
    unread = q.check_step(0, "a*")
    assert unread.correct is False and "Could not read" in unread.message
    for fb in (wrong, unread, q.check_step(1, "a/(1-rho)")):
        assert "rho^2" not in fb.message and "1 - rho" not in fb.message


def test_the_whole_derivation_is_right_only_when_every_step_is():
    q = _item()
    assert q.check(["a*b", "a/(1-rho^2)"]).correct
    assert q.check(["a*b", "a"]).correct is False
    assert q.check(["a*b", ""]).correct is None
    assert q.check(["a*b"]).correct is False and "Expected 2 formulas" in q.check(["a*b"]).message
    assert q.check(3.5).correct is False and "got float" in q.check(3.5).message
    assert q.check("a/(1-rho^2)").correct and q.check_text("a/(1-rho^2)").correct
    assert q.check(...).correct is None
    sol = q.solution()
    assert sol.text == "Worked *out*." and r"a/(1-\rho^2)" in sol.latex


@pytest.mark.parametrize("kw, error, says", [
    ({"symbols": {}}, TypeError, "symbols must be a non-empty mapping"),
    ({"symbols": {"a": (0, 1)}}, TypeError, "symbols must be a non-empty mapping"),
    ({"symbols": {"a b": Symbol("a")}}, ValueError, "must be an identifier"),
    ({"steps": []}, ValueError, "at least one Step"),
    ({"steps": Step("s", "a", "a")}, TypeError, "steps must be a sequence of Step"),
    ({"steps": [Step("", "a", "a")]}, ValueError, r"steps\[0\].prompt"),
    ({"steps": [Step("s", "a*zeta", "a")]}, ValueError, r"steps\[0\]: unknown name 'zeta'"),
    ({"steps": [Step("s", "sqrt(-a)", "a")]}, ValueError, "undefined at most points"),
    ({"steps": [Step("s", "a*b", "ab", mistakes={"b*a": "same"})]}, ValueError,
     "equals the key"),
    ({"symbols": {"a": Symbol("x"), "b": Symbol("x")}}, ValueError, "spells both"),
    ({"explanation": " "}, ValueError, "solution must be a non-empty string"),
    ({"hint": ""}, ValueError, "hint must be a non-empty string"),
    ({"objective": "5.3"}, ValueError, "objective must be"),
])
def test_a_malformed_derivation_is_refused_naming_the_argument(kw, error, says):
    with pytest.raises(error, match=says):
        _item(**kw)


@pytest.mark.parametrize("kw, says", [
    ({"label": ""}, "label must be a non-empty string"),
    ({"low": 2.0, "high": 1.0}, "low < high"),
    ({"low": 0.0, "high": math.inf}, "low and high must be finite"),
    ({"low": 1, "high": 3, "integer": True}, "at least 4 values"),
])
def test_a_malformed_symbol_is_refused_naming_the_argument(kw, says):
    with pytest.raises(ValueError, match=says):
        Symbol(**{"label": "x", **kw})


def test_check_step_refuses_an_index_out_of_range():
    with pytest.raises(IndexError, match="i must be a step index"):
        _item().check_step(2, "a")


# -- the box -------------------------------------------------------------------------------------

def test_the_box_shows_the_worked_derivation_only_after_every_step_was_attempted():
    box = derivation_box(_item())
    assert isinstance(box, DerivationBox) and not box.worked.value
    box.texts[0].value = "a*b"
    verdicts = box.check()
    assert verdicts[0].correct and verdicts[1].correct is None and not box.worked.value
    assert "Worked" not in str(box._repr_mimebundle_()["text/plain"])
    box.texts[1].value = "a"
    box.check()
    assert "Worked derivation" in box.worked.value and "Not quite" in box.verdicts[1].value
    box.texts[1].value = "a/(1 - rho^2)"          # a verdict does not outlive its formula
    assert box.verdicts[1].value == ""
    assert box.check()[1].correct


def test_the_static_box_folds_the_worked_derivation():
    page, text = derivation_box(_item())._static()
    assert "genviz-derivation" in page and "<details><summary>Worked derivation" in page
    head = page.split("<details>")[0]
    assert "Step 1. first" in head and "Worked *out*" not in head and "a/(1-" not in head
    assert text.startswith("Derivation: Derive it.") and "Worked" not in text


def test_the_box_refuses_what_is_not_a_derivation():
    from genviz.exercises import Exercise
    with pytest.raises(TypeError, match="derivation must be a genviz.exercises.Derivation"):
        derivation_box(Exercise("q", 1.0, hint="h", solution="s"))


def test_a_long_chain_is_read_or_refused_never_a_crash():
    assert same_formula("-" * 498 + "a", "a", SYM) and not same_formula("-" * 499 + "a", "a", SYM)
    with pytest.raises(ValueError, match="not a formula"):
        read_formula("(" * 240 + "a" + ")" * 240, SYM)


def test_a_symbol_before_a_bracket_is_a_product_as_on_paper():
    assert same_formula("a(1 - a)", "a - a^2", SYM) and same_formula("aρ(b + 1)", "a*rho*b + a*rho", SYM)
    with pytest.raises(ValueError, match="unknown function 'tau'"):
        read_formula("tau(a)", SYM)
