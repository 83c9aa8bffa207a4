"""Write the nbgrader source notebooks of the graded assignments and generate their releases.

    python -m course.build [--root build/course] [ASSIGNMENT ...]

For every assignment of :mod:`course.assignments` this writes
``ROOT/source/<assignment>/<assignment>.ipynb`` and runs ``nbgrader generate_assignment``, which
writes ``ROOT/release/<assignment>/`` (what students get) and records the graded cells, with
their hidden tests and checksums, in ``ROOT/gradebook.db``.

A source notebook has, per question: the Exercise's prompt (a read-only Markdown cell), an
answer cell ``answer_qN = ...`` (nbgrader solution cell: the reference answer sits between
``### BEGIN SOLUTION``/``### END SOLUTION`` and is cleared in the release) and a read-only grade
cell: public tests of the answer's form, then a ``### BEGIN HIDDEN TESTS`` block that rebuilds
the Exercise from its reference value (computed here, by genviz, from the notebook's data) with
the same tolerance and hint and calls its own ``check``: the graded verdict is the self-check's
verdict, and a wrong answer's feedback is the Exercise's hint. Derivations are manually graded
Markdown answer cells (the worked solution is the grader's reference in the source only).

The release imports only what the setup needs (the model layer): it never calls an exercise
builder, so no Exercise object holding an answer exists in the student's kernel.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys

import nbformat
import numpy as np
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from course import _nbg
from course.assignments import ASSIGNMENTS, Assignment, build_exercises

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


# -- what an Exercise holds (genviz.exercises keeps the answer private: read it here only) --------

def reference(exercise):
    """The Exercise's right answer (the private ``_answer``: genviz.exercises has no public
    accessor, on purpose, so that a notebook cannot print it)."""
    return exercise._answer


def worked_solution(exercise) -> str:
    return exercise.solution().text


def is_choice(exercise) -> bool:
    """A multiple-choice item (:class:`genviz.exercises.choice.Choice`): it has options and the
    indices of the right ones."""
    return hasattr(exercise, "options") and hasattr(exercise, "correct")


def answer_kind(answer):
    """('text'|'yes/no'|'labels'|'number'|'array', shape or length)."""
    if isinstance(answer, str):
        return "text", None
    if isinstance(answer, (bool, np.bool_)):
        return "yes/no", None
    if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer):
        return "labels", len(answer)
    shape = np.shape(answer)
    return ("number", ()) if shape == () else ("array", tuple(shape))


def literal(answer) -> str:
    """Python source that rebuilds ``answer`` exactly (floats by repr: they round-trip)."""
    kind, _ = answer_kind(answer)
    if kind == "text":
        return repr(str(answer))
    if kind == "yes/no":
        return repr(bool(answer))
    if kind == "labels":
        return repr([str(a) for a in answer])
    arr = np.asarray(answer, dtype=float)
    return repr(float(arr)) if arr.ndim == 0 else repr(arr.tolist())


# -- cells ----------------------------------------------------------------------------------------

def solution_literal(exercise) -> str:
    """Python source of the right answer as the student writes it (a choice: its letter)."""
    if is_choice(exercise):
        return repr(exercise.label(exercise.correct[0]))
    return literal(reference(exercise))


def choice_public_test(name: str, exercise) -> str:
    letters = ", ".join(repr(exercise.label(i)) for i in range(len(exercise.options)))
    return "\n".join([
        "# Checks the FORM of your answer only; its value is checked when your notebook is graded.",
        "try:",
        f"    {name}",
        "except NameError:",
        f'    raise AssertionError("{name} is not defined: write your answer in the cell above '
        f'as {name} = ...") from None',
        f'assert {name} is not ..., "{name} is still ...: replace the ... with your answer"',
        f"assert isinstance({name}, str) and {name}.strip().strip('()').lower() in ({letters}), "
        f'"{name} should be the letter of one option, as a string: one of {letters}"',
        f'print("{name} has the right form.")',
    ])


def choice_hidden_test(name: str, exercise) -> str:
    """A Choice rebuilt (options, right options, reasons, hint) and checked by its own code."""
    hint = exercise.hint if getattr(exercise, "_has_hint", True) else None
    return "\n".join([
        "### BEGIN HIDDEN TESTS",
        f"from {type(exercise).__module__} import {type(exercise).__name__} as _Choice",
        "",
        "",
        "class _WrongAnswer(AssertionError):",
        "    def _render_traceback_(self):",
        '        return [f"{type(self).__name__}: {self}"]',
        "",
        "",
        f"_verdict = _Choice({exercise.prompt!r}, {list(exercise.options)!r}, "
        f"{list(exercise.correct)!r}, explanation='(graded)', reasons={list(exercise.reasons)!r}, "
        f"hint={hint!r}).check({name})",
        "del _Choice",
        "if not _verdict.correct:",
        "    raise _WrongAnswer(str(_verdict))",
        "### END HIDDEN TESTS",
    ])


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _meta(grade_id, *, grade=False, solution=False, locked=False, points=None):
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": False}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def answer_format(answer) -> str:
    """How to write the answer in Python (never the answer: no example is one of the options)."""
    kind, shape = answer_kind(answer)
    if kind == "text":
        return "a string in quotes"
    if kind == "yes/no":
        return "`True` or `False`"
    if kind == "labels":
        return f"a list of {shape} strings"
    if kind == "number":
        return "a number (e.g. `1.5e-3`, `7/8`, `np.log(2)/3`, or a value you computed)"
    if len(shape) == 1:
        return f"a vector of {shape[0]} numbers (a list such as `[1, 2.5]` or a NumPy array)"
    return (f"a {shape[0]}x{shape[1]} matrix (a nested list such as `[[1, 0], [0, 1]]` or a "
            "NumPy array)")


def public_test(name: str, answer) -> str:
    """The visible part of a grade cell: is ``name`` defined, answered, of the right form?"""
    kind, shape = answer_kind(answer)
    lines = [
        "# Checks the FORM of your answer only; its value is checked when your notebook is graded.",
        "import numpy as np",
        "",
        "try:",
        f"    {name}",
        "except NameError:",
        f'    raise AssertionError("{name} is not defined: write your answer in the cell above '
        f'as {name} = ...") from None',
        f'assert {name} is not ..., "{name} is still ...: replace the ... with your answer"',
    ]
    if kind == "text":
        lines.append(f'assert isinstance({name}, str), "{name} should be a string (text in quotes)"')
    elif kind == "yes/no":
        lines.append(f'assert isinstance({name}, (bool, np.bool_)), '
                     f'"{name} should be True or False"')
    elif kind == "labels":
        lines.append(f'assert isinstance({name}, (list, tuple)) and len({name}) == {shape} and '
                     f'all(isinstance(v, str) for v in {name}), '
                     f'"{name} should be a list of {shape} strings"')
    else:
        want = "a single number" if kind == "number" else f"an array of shape {shape}"
        lines += [
            f'assert np.asarray({name}).dtype.kind in "iuf", '
            f'f"{name} should be {want}, got {{type({name}).__name__}}"',
            f'assert np.shape({name}) == {shape!r}, '
            f'f"{name} should be {want}, got shape {{np.shape({name})}}"',
        ]
    lines.append(f'print("{name} has the right form.")')
    return "\n".join(lines)


def hidden_test(name: str, exercise, label: str) -> str:
    """The hidden part: the Exercise rebuilt from its reference value, checked by its own code.

    A wrong answer raises an error whose traceback is the verdict alone (IPython shows an
    exception's ``_render_traceback_`` instead of the source lines around the failing line,
    which would show the reference value in the feedback)."""
    return "\n".join([
        "### BEGIN HIDDEN TESTS",
        "from genviz.exercises import Exercise as _Exercise",
        "",
        "",
        "class _WrongAnswer(AssertionError):",
        "    def _render_traceback_(self):",
        '        return [f"{type(self).__name__}: {self}"]',
        "",
        "",
        f"_verdict = _Exercise({label!r}, {literal(reference(exercise))}, "
        f"hint={exercise.hint!r}, solution='(graded)', rtol={exercise.rtol!r}, "
        f"atol={exercise.atol!r}).check({name})",
        "del _Exercise",
        "if not _verdict.correct:",
        "    raise _WrongAnswer(str(_verdict))",
        "### END HIDDEN TESTS",
    ])


def source_notebook(assignment: Assignment, exercises=None):
    """The nbgrader source notebook of ``assignment`` (with reference answers and hidden tests)."""
    exercises = build_exercises(assignment) if exercises is None else exercises
    auto_points = sum(q.points for q in assignment.questions)
    total = auto_points + assignment.working_points * len(assignment.working)
    cells = [
        new_markdown_cell(
            f"# {assignment.title}: graded exercises\n\n"
            f"The exercises of the notebook `{assignment.notebook}`, graded ({total} points). "
            "For each question write your answer in the cell below it as `answer_qN = ...` (keep "
            "the name), then run the test cell after it: it says whether your answer has the "
            "right form (a number, a vector, a word); whether it is *right* is checked when your "
            "notebook is graded. Questions marked *graded by hand* want your working in words "
            "and maths. Do not delete or edit the read-only cells, and keep computing with "
            "`genviz` and NumPy: any code is allowed.\n\n"
            "Before you hand in: *Kernel → Restart Kernel and Run All Cells*, and check every "
            "cell runs.", metadata=_meta("intro", locked=True)),
        new_code_cell(assignment.setup.rstrip(), metadata=_meta("setup", locked=True)),
    ]
    for i, (question, exercise) in enumerate(zip(assignment.questions, exercises), start=1):
        name = f"answer_q{i}"
        note = f"\n\n{question.note}" if question.note else ""
        if is_choice(exercise):
            options = "\n".join(f"- ({exercise.label(k)}) {o}"
                                for k, o in enumerate(exercise.options))
            letters = ", ".join(f"`'{exercise.label(k)}'`" for k in range(len(exercise.options)))
            how, tests = (f"{options}\n\n*Answer:* the letter of your option as a string ({letters})",
                          choice_public_test(name, exercise) + "\n\n"
                          + choice_hidden_test(name, exercise))
        else:
            how, tests = (f"*Answer:* {answer_format(reference(exercise))}",
                          public_test(name, reference(exercise)) + "\n\n"
                          + hidden_test(name, exercise, f"{assignment.name} question {i}"))
        cells.append(new_markdown_cell(
            f"### Question {i} ({_points(question.points)})\n\n{exercise.prompt}{note}\n\n"
            f"{how}, as `{name}` in the cell below.",
            metadata=_meta(f"question_q{i}", locked=True)))
        cells.append(new_code_cell(
            f"{name} = ...\n### BEGIN SOLUTION\n{name} = {solution_literal(exercise)}\n"
            "### END SOLUTION", metadata=_meta(name, solution=True)))
        cells.append(new_code_cell(
            tests, metadata=_meta(f"test_q{i}", grade=True, locked=True, points=question.points)))
    for k, i in enumerate(assignment.working, start=len(assignment.questions) + 1):
        cells.append(new_markdown_cell(
            f"### Question {k} ({assignment.working_points} points, graded by hand)\n\n"
            f"Show your working for question {i}: the formula you used, why it applies, and the "
            "numbers you put into it. Write in the cell below (Markdown; maths as `$...$`).",
            metadata=_meta(f"question_q{k}", locked=True)))
        cells.append(new_markdown_cell(
            worked_solution(exercises[i - 1]),
            metadata=_meta(f"working_q{k}", grade=True, solution=True,
                           points=assignment.working_points)))
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": KERNELSPEC, "language_info": {"name": "python"}})
    nbformat.validate(nb)
    return nb


def write_sources(root, names=None) -> list[pathlib.Path]:
    """Write ``root/source/<name>/<name>.ipynb`` for each assignment; return the paths."""
    root = pathlib.Path(root)
    paths = []
    for name in names or ASSIGNMENTS:
        folder = root / "source" / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        path = folder / f"{name}.ipynb"
        nbformat.write(source_notebook(ASSIGNMENTS[name]), path)
        paths.append(path)
    return paths


def generate(root, names=None) -> None:
    """``nbgrader generate_assignment`` for each assignment (release + gradebook)."""
    grader = _nbg.api(root)
    for name in names or ASSIGNMENTS:
        result = grader.generate_assignment(name, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n"
                               f"{result.get('log', '')}\n{result.get('error', '')}")


def build(root=_nbg.DEFAULT_ROOT, names=None) -> pathlib.Path:
    """Sources, then releases, of the given assignments (all by default) in ``root``."""
    unknown = sorted(set(names or ()) - set(ASSIGNMENTS))
    if unknown:
        raise ValueError(f"unknown assignments {unknown}; the assignments are {list(ASSIGNMENTS)}")
    write_sources(root, names)
    generate(root, names)
    return pathlib.Path(root) / "release"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=str(_nbg.DEFAULT_ROOT),
                        help="nbgrader course directory (default: build/course)")
    parser.add_argument("assignments", nargs="*", help=f"default: all of {list(ASSIGNMENTS)}")
    args = parser.parse_args(argv)
    release = build(args.root, args.assignments or None)
    for name in args.assignments or ASSIGNMENTS:
        print(f"released {release / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
