"""Choices are variants too (issue #38 item 4): over a simulated class, a choice question's right
letter and right text are each student's own. The oracle is counting: with k options shuffled
uniformly per student, another student's right letter is right for a student with probability
1/k (one right option), so over a class of N the share of classmates it is right for is a
Binomial(N - 1, 1/k) count over N - 1; and the self-study notebook's letter is right for a
Binomial(N, 1/k) count of students. The bounds below are 1/k plus four standard deviations of
those counts (for N = 60 and k = 3: at most 58 % of the classmates; k = 4: 48 %; the shuffle gives about
33 % and 25 %, no shuffle 100 %)."""

import math

import pytest

from course import grade as G
from course.assignments import ASSIGNMENTS, WORDINGS, build_exercises, variant
from course.cells import is_choice
from course.variants import Draw, permute_choice, seed

SECRET = bytes(range(32))
CLASS = [f"student{k:02d}" for k in range(60)]
#: the assignments whose variants are quick to build (a few seconds for 60 students); the
#: others take the same code path with slower setups (learning curves, the spam corpus)
FAST = ["a01_joint", "a02_gaussian", "a03_gda"]
#: a10's setup (the sweep and the full-dictionary fits, about 10 s) is the same for every
#: student: run once, then 60 variants take a few seconds
ONCE = ["a10_capstone"]
#: measured once each (the same 60 students): a04 q5 (630 s: 60 sets of learning curves and
#: their redraws) self-study letter right for 15/60, a classmate's at most 22/59; a07 q4 28/60
#: and 27/59; a08 q4 14/60 and 22/59; a09 q5 14/60 and 22/59 (k = 3 each: bound 58 %)
#: (measured before issue #40 item 6 dropped computations from a04, a05, a08, a09 and a10: the
#: choices are q3 or q4 now, and the variants were redrawn)
SLOW = [pytest.param(n, marks=pytest.mark.slow)
        for n in ["a05_density", "a06_naive_bayes", "a07_spam", "a08_continuous", "a09_knn"]]


_CACHE = {}


def _class_choices(name, students=CLASS, *, cached=True):
    """Per choice question of the assignment: (index, self-study Choice, each student's)."""
    if cached:
        key = (name, tuple(students))
        if key not in _CACHE:
            _CACHE[key] = _class_choices(name, students, cached=False)
        return _CACHE[key]
    a = ASSIGNMENTS[name]
    own = build_exercises(a)
    theirs = [variant(a, s, SECRET)[1] for s in students]
    return [(i, ex, [t[i] for t in theirs]) for i, ex in enumerate(own) if is_choice(ex)]


def _right_letter(ex):
    return ex.label(ex.correct[0])


def _bound(k, n):
    """The most a share of n students may be for a thing that happens with probability 1/k to
    each: 1/k + 4 standard deviations of the Binomial(n, 1/k) share."""
    p = 1 / k
    return p + 4 * math.sqrt(p * (1 - p) / n)


def check_letters_do_not_transfer(own, class_):
    """The class-level claims of the issue, for one choice question (AssertionError if not)."""
    k, n = len(own.options), len(class_)
    assert all(len(ex.options) == k and len(ex.correct) == 1 for ex in class_)
    # a classmate's right letter: right for at most the bound's share of the others
    for s, ex in enumerate(class_):
        share = sum(other.check(_right_letter(ex)).correct
                    for t, other in enumerate(class_) if t != s) / (n - 1)
        assert share <= _bound(k, n - 1), (s, share, k)
    # the self-study notebook's right letter ("Show solution"): right for about 1/k of them
    share = sum(ex.check(_right_letter(own)).correct for ex in class_) / n
    assert share <= _bound(k, n), (share, k)
    # the right letter takes every value a..: nobody can answer "what everyone answers"
    assert len({_right_letter(ex) for ex in class_}) == k
    return share


@pytest.mark.parametrize("name", FAST + ONCE + SLOW)
def test_a_classmates_letter_and_the_self_study_letter_are_right_for_about_one_in_k(name):
    for i, own, class_ in _class_choices(name):
        check_letters_do_not_transfer(own, class_)


def test_without_the_shuffle_the_class_check_fails(monkeypatch):
    """The planted fault: options left in the notebook's order for every student. A classmate's
    letter (and the self-study one) is then right for everyone, and the check says so."""
    monkeypatch.setattr(Draw, "permutation", lambda self, n: list(range(n)))
    for i, own, class_ in _class_choices("a03_gda", CLASS[:20], cached=False):
        with pytest.raises(AssertionError):
            check_letters_do_not_transfer(own, class_)


def _own_option(own, option) -> int:
    """The self-study option that ``option`` (a student's text) words."""
    return next(j for j, o in enumerate(own.options)
                if option == o or option in WORDINGS[own.id].get(o, ()))


def check_texts_are_worded(name, cached=True):
    """Where the course words the options in several ways (w wordings of the right option), the
    self-study notebook's right text is a student's right text for at most the bound's share
    of the class (about 1/w), and so is a classmate's; every wording says the same option (it
    keeps that option's reason and verdict). Where the right option depends on the student's
    data (a02: is *this* matrix a covariance?), the same holds among the students whose right
    option is the same one."""
    for i, own, class_ in _class_choices(name, cached=cached):
        groups = {}
        for ex in class_:
            text = ex.options[ex.correct[0]]
            groups.setdefault(_own_option(own, text), []).append(text)
        for j, texts in groups.items():
            wordings = 1 + len(WORDINGS[own.id][own.options[j]])
            if len(texts) >= 10:
                assert len(set(texts)) == wordings, (j, set(texts))
            assert texts.count(own.options[j]) / len(texts) <= _bound(wordings, len(texts))
            for s, text in enumerate(texts):
                others = [t for u, t in enumerate(texts) if u != s]
                if others:
                    assert others.count(text) / len(others) <= _bound(wordings, len(others))
        for ex in class_:
            right = _own_option(own, ex.options[ex.correct[0]])  # own.correct[0] unless the
            for k, option in enumerate(ex.options):             # data decide it
                j = _own_option(own, option)
                assert ex.reasons[k] == own.reasons[j]
                assert ex.check(ex.label(k)).correct == (j == right)
        if len(groups) == 1:
            assert set(groups) == set(own.correct)


#: a04 (its 60 variants take about 10 minutes: learning curves) is covered by the check
#: below that every wording names an option of its choice, and shares the code path
@pytest.mark.parametrize("name", ["a01_joint", "a02_gaussian", "a03_gda", *ONCE, *(
    pytest.param(n, marks=pytest.mark.slow) for n in ["a05_density", "a06_naive_bayes",
                                                       "a07_spam", "a08_continuous",
                                                       "a09_knn"])])
def test_the_right_text_is_worded_per_student(name):
    check_texts_are_worded(name)


def test_every_choice_has_wordings_and_every_wording_names_one_of_its_options():
    """Each graded choice of the assignments has other wordings for each of its options
    (a key that is not an option's exact text would silently word nothing), and no wording
    is another option's text."""
    from course.submissions import _exercises

    seen = set()
    for name in ASSIGNMENTS:
        for ex in _exercises(name, None, None):
            if not is_choice(ex):
                continue
            seen.add(ex.id)
            table = WORDINGS[ex.id]
            assert set(table) == set(ex.options), (name, set(table) ^ set(ex.options))
            texts = [t for o in ex.options for t in (o, *table[o])]
            assert len(texts) == len(set(texts)) and all(len(table[o]) >= 2 for o in ex.options)
    assert seen == set(WORDINGS)


def test_the_wording_check_fails_without_wordings(monkeypatch):
    """The planted fault: no wording drawn (the notebook's texts for everyone)."""
    import course.assignments as CA

    monkeypatch.setattr(CA, "_wording", lambda choice, d: None)
    with pytest.raises(AssertionError):
        check_texts_are_worded("a01_joint", cached=False)


@pytest.mark.parametrize("name", FAST + ONCE)
def test_each_student_is_graded_on_their_own_variant(name):
    """A student's own right letter earns the question's points, a classmate's right letter
    earns them only where it happens to be the same letter, and the self-study text earns
    nothing (the grader takes the letter only)."""
    a = ASSIGNMENTS[name]
    own_ex = build_exercises(a)
    for s in CLASS[:12]:
        _, exercises = variant(a, s, SECRET)
        for i, ex in enumerate(exercises):
            if not is_choice(ex):
                continue
            q = f"q{i + 1}"
            for value, right in ((_right_letter(ex), True),
                                 (_right_letter(own_ex[i]),
                                  ex.correct[0] == ex.index(_right_letter(own_ex[i]))),
                                 (own_ex[i].options[own_ex[i].correct[0]], False)):
                o = G.Outcome(s, name)
                G.check_answers(exercises, {f"answer_q{i + 1}": {"value": value}}, o, a)
                assert (o.verdicts[q] == "right") is right, (s, value, o.feedback[q])
                assert o.earned[f"test_q{i + 1}"] == (a.questions[i].points if right else 0.0)


def test_variants_are_unchanged_by_the_wordings():
    """The wordings come from a stream of their own: the values and the option orders of a
    student are those drawn before the course had wordings (recorded once)."""
    var, _ = variant(ASSIGNMENTS["a03_gda"], "alice", SECRET)
    assert var.orders == {2: [2, 3, 1, 0]}  # the choice, its third question
    assert var.params == {"X_EX": [[4, 3], [3, 5], [6, 6], [4, 4], [3, 3], [3, 2], [5, 4]],
                          "Y_EX": [1, 1, 1, 0, 1, 0, 1], "X1_LINE": 4.0}
    assert seed(SECRET, "a03_gda", "alice", stream="wording") != seed(SECRET, "a03_gda", "alice")
    with pytest.raises(ValueError, match="stream"):
        seed(SECRET, "a03_gda", "alice", stream="other")


def test_permute_choice_words_options_and_refuses_bad_texts():
    from genviz.exercises import Choice

    q = Choice("q?", ["w", "x", "y"], "y", explanation="e", reasons={"w": "no w"})
    p = permute_choice(q, [2, 0, 1], ["W", "X", "Y"])
    assert p.options == ("Y", "W", "X") and p.correct == (0,) and p.reasons[1] == "no w"
    for bad in (["W", "X"], "WXY", ["W", "", "Y"], ["W", 2, "Y"]):
        with pytest.raises(ValueError, match="texts"):
            permute_choice(q, [0, 1, 2], bad)


def test_the_release_shows_the_students_own_words_and_order():
    """What the student reads is what the grader checks: the release lists the student's
    options, lettered in the student's order."""
    from course.build import student_notebook

    a = ASSIGNMENTS["a01_joint"]
    own = build_exercises(a)[3]  # the concept choice
    for s in CLASS[:6]:
        nb, var, exercises = student_notebook(a, s, SECRET)
        text = "\n".join(c.source for c in nb.cells)
        ex = exercises[3]
        for k, option in enumerate(ex.options):
            assert f"({ex.label(k)}) {option}" in text
        assert var.wordings[3] == tuple(ex.options[var.orders[3].index(j)]
                                        for j in range(len(own.options)))
