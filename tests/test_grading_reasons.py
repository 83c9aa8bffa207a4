"""course/reasons.py: why a question earned nothing (issue #38), on planted cases, no sandbox.

The oracle of "right for that variant" is each variant's own Exercise (course.assignments
``variant``): a planted answer is built from it, never from the code under test.
"""

import json
import pathlib

import nbformat
import numpy as np
import pytest

from course import _runner as R
from course import grade as G
from course import reasons as W
from course import submissions as S
from course.assignments import ASSIGNMENTS, variant
from course.cells import solution_literal

A = "a03_gda"
SECRET = bytes(range(32))


def _exercises(student):
    return variant(ASSIGNMENTS[A], student, SECRET)[1]


def _answer(exercise):
    """The right answer as the student writes it, decoded as the grader decodes it (JSON)."""

    return np.asarray(eval(solution_literal(exercise)), dtype=float).tolist()  # noqa: S307


def _graded(student, answers: dict):
    """An outcome as the worker leaves it: each answer checked by the student's own Exercise."""
    exercises = _exercises(student)
    o = G.Outcome(student, A, graded=True, submitted=True)
    for q, value in answers.items():
        ex = exercises[int(q[1:]) - 1]
        o.values[q] = json.dumps(value)
        o.verdicts[q] = "right" if ex.check(value).correct else "wrong"
    o.rights = W.rights(exercises)
    o.prompts = [ex.prompt for ex in exercises]
    return o, exercises


def test_a_self_study_answer_is_named_as_such():
    own = variant(ASSIGNMENTS[A], None, None)[1]
    letter = eval(solution_literal(_exercises("nora")[2]))  # noqa: S307 (the choice's letter)
    o, exercises = _graded("nora", {"q1": _answer(own[0]), "q2": _answer(own[1]), "q3": letter})
    assert o.verdicts == {"q1": "wrong", "q2": "wrong", "q3": "right"}
    lines = W.self_study_lines(o, exercises, own)
    assert lines == ["q1: the self-study notebook's answer, not your variant's",
                     "q2: the self-study notebook's answer, not your variant's"]
    # a wrong answer of its own (not the self-study one) gets no such line
    o.values["q1"] = json.dumps((np.asarray(_answer(own[0])) + 1.0).tolist())
    assert W.self_study_lines(o, exercises, own) == [lines[1]]


def test_another_students_right_answer_is_named_in_the_report_not_in_the_feedback(tmp_path):
    alice, ex_a = _graded("alice", {"q1": _answer(_exercises("alice")[0]),
                                    "q2": _answer(_exercises("alice")[1])})
    bob, _ = _graded("bob", {"q1": _answer(ex_a[0]), "q2": _answer(ex_a[1])})
    carol, _ = _graded("carol", {"q1": 0.123})
    assert alice.verdicts == {"q1": "right", "q2": "right"}
    assert bob.verdicts == {"q1": "wrong", "q2": "wrong"}
    found = W.classmate_lines([alice, bob, carol])
    assert set(found) == {id(bob)}
    assert found[id(bob)] == [
        ("q1: the right answer of another student's variant (alice)",
         "q1: the right answer of another student's variant"),
        ("q2: the right answer of another student's variant (alice)",
         "q2: the right answer of another student's variant")]
    G.add_classmates(tmp_path, [alice, bob, carol])
    assert bob.problems[0] == "q1: the right answer of another student's variant (alice)"
    page = (tmp_path / "feedback" / "bob" / A / f"{A}.html").read_text()
    assert "another student&#x27;s variant" in page and "alice" not in page
    assert bob.prompts[0][:40] in page  # the questions, as released to bob
    assert alice.problems == [] and carol.problems == []


def test_the_first_error_is_named_when_a_question_is_not_right():
    cells = [("code", "setup", "setup"), ("code", "x = 1", None),
             ("code", "answer_q1 = y", "answer_q1"), ("code", "1/0", None)]
    events = [{"event": "cell", "index": 2, "status": "ok"},
              {"event": "cell", "index": 3, "status": "error", "ename": "NameError",
               "evalue": "name 'y' is not defined\n\x1b]0;second line" + "z" * 300},
              {"event": "cell", "index": 4, "status": "error", "ename": "ZeroDivisionError",
               "evalue": "division by zero"}]
    lines = W.run_lines(None, cells, events, {"q1": "not defined", "q2": "right"})
    assert lines == ["q1 is not right after an error: the first, cell 3 (answer_q1) raised "
                     "NameError: name 'y' is not defined"]
    long = [dict(events[1], evalue="\x1b]52;c;x\x07" + "z" * 300)]
    (line,) = W.run_lines(None, cells, long, {"q1": "wrong", "q3": "not answered"})
    assert line.startswith("q1, q3 are not right after an error: the first, cell 3") \
        and "\\x1b]52" in line and "\x1b" not in line and line.endswith("\u2026")
    assert len(line) <= 90 + W.ERROR_CHARS <= G.MAX_PROBLEM_CHARS
    assert W.run_lines(None, cells, events, {"q1": "right"}) == []


def _nb_with_output(outputs):
    nb = S.release(A, "alice", SECRET)
    S.cell_of(nb, "answer_q1").outputs = outputs
    return nbformat.reads(nbformat.writes(nb), as_version=4)


def test_a_stored_output_that_the_rerun_did_not_print_is_named():
    printed = [nbformat.v4.new_output("stream", name="stdout", text="0.42\n")]
    nb = _nb_with_output(printed)
    cells, _ = G.merge(nb, S.release(A, "alice", SECRET))
    k = next(i for i, c in enumerate(cells, 1) if c[2] == "answer_q1")
    rerun = R.Outputs()
    rerun.add("stream", {"name": "stdout", "text": "0."})   # one print, sent in two pieces
    rerun.add("stream", {"name": "stdout", "text": "42\n"})
    same = [{"event": "cell", "index": k, "status": "ok", "outputs": rerun.digest()}]
    assert W.run_lines(nb, cells, same, {}) == []
    forged = _nb_with_output([nbformat.v4.new_output(
        "execute_result", {"text/plain": "'2 points'"}, execution_count=3)])
    assert W.run_lines(forged, cells, same, {}) == [
        f"the stored output of cell {k} (answer_q1) is not what the code printed when run"]
    # no stored output (cleared before hand-in): nothing to compare
    assert W.run_lines(_nb_with_output([]), cells, same, {}) == []


def test_the_runner_and_the_grader_hash_outputs_alike():
    outputs = [nbformat.v4.new_output("stream", name="stdout", text="a\nb"),
               nbformat.v4.new_output("stream", name="stderr", text="warn"),
               nbformat.v4.new_output("execute_result", {"text/plain": "3"}, execution_count=1),
               nbformat.v4.new_output("display_data", {"text/plain": "<Figure>"}),
               nbformat.v4.new_output("error", ename="ValueError", evalue="x", traceback=[])]
    rerun = R.Outputs()
    for out in outputs:
        content = dict(out)
        rerun.add(out["output_type"], content)
    assert rerun.digest() == W.output_digest(outputs)
    assert W.output_digest(outputs[:-1]) != W.output_digest(outputs)


def test_what_the_code_says_it_does():
    cells = [("code", "get_ipython().events.register('pre_run_cell', f)\n"
                      "ip.events.register(\"post_run_cell\", g)", "answer_q1"),
             ("code", "import numpy as np\nnp.allclose = lambda *a: True\nx == np.isclose",
              None),
             ("code", "import subprocess\nsubprocess.Popen(['x'])\nif os.fork() == 0: pass",
              "answer_q2"),
             ("code", "!curl -s http://example.com\n  !ls /\n%%bash", "answer_q3"),
             ("code", "np.allclose = f  # the course's own cell", "setup"),
             ("code", "answer_q4 = 0.5", "answer_q4")]
    assert W.code_lines(cells) == [
        "cell 1 (answer_q1) registers IPython hooks (pre_run_cell, post_run_cell): they run in "
        "the notebook's kernel, where the grader runs no test and checks nothing",
        "cell 2 replaces np.allclose in the notebook's kernel: the answers are checked outside "
        "it",
        "cell 3 (answer_q2) starts processes (subprocess.Popen, os.fork): the sandbox ends them "
        "with the notebook",
        "cell 4 (answer_q3) runs shell commands (curl, ls, %%bash) in the sandbox"]


@pytest.mark.parametrize("text", S.HOSTILE_MARKDOWN.split("\n\n")[:11])
def test_links_and_html_in_the_working_are_named(text):
    cells = [("markdown", text, "working_q6"), ("markdown", "[x](javascript:y)", "intro")]
    assert W.markdown_lines(cells) == [
        "working_q6 holds links, images or HTML: shown to the grader as plain text, never "
        "opened or fetched"]


def test_plain_working_is_not_named():
    assert W.markdown_lines([("markdown", "By Bayes: $p(y|x) = 3/7$, so 0.43.",
                              "working_q6")]) == []


def test_a_timestamp_that_is_not_the_hand_in_time_is_named(tmp_path):
    (tmp_path / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")
    collected = 1.8e9
    assert W.timestamp_line(tmp_path, collected) == (
        "timestamp.txt says '2020-01-01 00:00:00.000000 UTC': not used, the hand-in time is "
        "the course's (column handed_in)")
    import datetime

    near = datetime.datetime.fromtimestamp(collected - 60, datetime.timezone.utc)
    (tmp_path / "timestamp.txt").write_text(f"{near:%Y-%m-%d %H:%M:%S}.000000 UTC")
    assert W.timestamp_line(tmp_path, collected) is None   # nbgrader's own, near the time
    assert W.timestamp_line(pathlib.Path(tmp_path / "none"), collected) is None


def test_lone_surrogates_are_found_and_pairs_are_not():
    assert G.LONE_SURROGATE.search(b'{"a": "x\\ud800 y"}')
    assert G.LONE_SURROGATE.search(b'{"a": "\\udc80"}')
    assert not G.LONE_SURROGATE.search(b'{"a": "\\ud83d\\ude00 an emoji"}')


def test_a_wrong_form_says_what_was_expected():
    o, _ = _graded("nora", {})
    o.verdicts["q1"] = "wrong"
    o.feedback["q1"] = "Expected a number or an array of numbers, got str. Not quite. Hint: h"
    o.verdicts["q2"] = "wrong"
    o.feedback["q2"] = "Not quite. Hint: h"
    assert W.form_lines(o) == ["q1: Expected a number or an array of numbers, got str."]


# -- every pattern that reads a student's text is linear (issue #38, kind slow_patterns) -----------

def _unbounded_or_nested(pattern: str, flags: int = 0) -> list[str]:
    """The repeats of ``pattern`` that make a backtracking engine super-linear: a repeat without
    an upper bound (``*``, ``+``, ``{n,}``), or a repeat inside another repeat."""
    import re._constants as C
    import re._parser as P

    found = []
    repeats = (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", C.MAX_REPEAT))

    def walk(items, depth):
        for op, av in items:
            if op in repeats:
                low, high, sub = av
                if high == C.MAXREPEAT:
                    found.append(f"unbounded repeat {op} {low}..")
                if depth:
                    found.append(f"repeat nested in a repeat {op} {low}..{high}")
                walk(sub, depth + 1)
            elif op == C.SUBPATTERN:
                walk(av[-1], depth)
            elif op == C.BRANCH:
                for branch in av[1]:
                    walk(branch, depth)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1], depth)

    walk(P.parse(pattern, flags), 0)
    return found


def test_every_pattern_on_a_students_text_has_bounded_unnested_repeats():
    """course/reasons.py reads each cell's source and Markdown with regular expressions; with a
    bounded repeat that is not inside another, one match attempt costs at most a constant, so a
    search is linear in the text. Planted: the patterns as they were (``^\\s*`` at every line
    start over blank lines, ``<[^>]*`` from every ``<``: an hour on 1 MB) are caught."""
    for pattern in W.LINEAR:
        assert _unbounded_or_nested(pattern.pattern, pattern.flags) == [], pattern.pattern
    assert {W._HOOK, W._PATCH, W._PROCESS, W._SHELL, W._LIVE} == set(W.LINEAR)
    import re

    before = [r"^\s*((?:np|numpy|builtins|math|json)\.\w+)\s*=[^=]",
              r"(?im)<\s*(?:a|img)\b|!\[[^\]]*\]\(|<[^>]*\bon\w+\s*=", r"(a{1,3})*b"]
    assert all(_unbounded_or_nested(p, re.M) for p in before)


def test_the_crafted_texts_of_a_megabyte_are_read_to_the_end():
    """The texts of the slow_patterns kind, and others built to make each pattern backtrack, at
    1 MB each: read to the end (the line after the padding is found). Quadratic in the length,
    as the patterns were, this took hours (600,000 blank lines: about 50 minutes for one
    pattern, measured at 10,000 lines and scaled); no clock is read here."""
    pad = {"blank lines": "\n" * 1_000_000, "spaces": " " * 1_000_000, "bangs": "!" * 1_000_000,
           "angles": "<" * 1_000_000, "angle words": "<on " * 250_000,
           "brackets": "![" * 500_000, "parens": "](" * 500_000,
           "long tags": ("<" + "x" * 199) * 5_000, "long refs": ("\n[" + "x" * 398) * 2_500}
    for name, text in pad.items():
        code = text + "\n!ls\nnp.allclose = 1\nget_ipython().events.register('pre_run_cell', f)"
        lines = W.code_lines([("code", code, "answer_q1")])
        assert [line.split(" ")[3] for line in lines] == ["registers", "replaces", "runs"], name
        assert W.markdown_lines([("markdown", text + "\n[x](javascript:1)", "working_q6")]), name
    assert W.code_lines([("code", S.SLOW_CODE, "answer_q1")]) == [
        "cell 1 (answer_q1) runs shell commands (ls) in the sandbox"]
    assert W.markdown_lines([("markdown", S.SLOW_MARKDOWN, "working_q6")])
