"""The cells of a graded assignment's notebook, rendered from its Exercises (no file, no I/O).

What :mod:`course.build` writes and :mod:`course.assignments` checks a draw against (a number
printed in a student's own release must not pass one of their questions): one floor below both,
so neither imports the other (course/ARCHITECTURE.md: the course wing's floors). An
``assignment`` here is a :class:`course.assignments.Assignment`, used by its attributes only.
"""

from __future__ import annotations

import nbformat
import numpy as np
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
STUB = "YOUR ANSWER HERE"


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


def solution_literal(exercise) -> str:
    """Python source of the right answer as the student writes it (a choice: its letter)."""
    if is_choice(exercise):
        return repr(exercise.label(exercise.correct[0]))
    return literal(reference(exercise))


# -- cells ----------------------------------------------------------------------------------------

def _form_head(name: str) -> list[str]:
    return [
        "# Checks the FORM of your answer only; its value is checked when your notebook is graded.",
        "try:",
        f"    {name}",
        "except NameError:",
        f'    raise AssertionError("{name} is not defined: write your answer in the cell above '
        f'as {name} = ...") from None',
        f'assert {name} is not ..., "{name} is still ...: replace the ... with your answer"',
    ]


def choice_public_test(name: str, exercise) -> str:
    letters = ", ".join(repr(exercise.label(i)) for i in range(len(exercise.options)))
    return "\n".join(_form_head(name) + [
        f"assert isinstance({name}, str) and {name}.strip().strip('()').lower() in ({letters}), "
        f'"{name} should be the letter of one option, as a string: one of {letters}"',
        f'print("{name} has the right form.")',
    ])


def public_test(name: str, answer) -> str:
    """The form check of an answer: is ``name`` defined, answered, of the right form?"""
    kind, shape = answer_kind(answer)
    lines = _form_head(name)
    lines.insert(1, "import numpy as np\n")
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


def _intro(assignment, total: int, student: str | None) -> str:
    text = (f"# {assignment.title}: graded exercises\n\n"
            f"The exercises of the notebook `{assignment.notebook}`, graded ({total} points). ")
    if student is not None:
        text += (f"**This notebook is for `{student}`**: its data and the order of the options "
                 "are yours (a classmate's notebook asks the same questions on other data). "
                 "Hand in this notebook, under your own name. ")
    else:
        text += ("**Instructor's reference** on the notebook's own data (the self-study "
                 "variant): no student gets this variant. ")
    text += ("\n\nFor each question write your answer in the cell below it as `answer_qN = ...` "
             "(keep the name), then run the cell after it: it says whether your answer has the "
             "right form (a number, a vector, a word, a letter); whether it is *right* is "
             "checked when your notebook is graded. Questions marked *graded by hand* want "
             "your working in words and maths. Do not delete or edit the read-only cells (the "
             "grader uses its own copy of them), and compute with `genviz` and NumPy as you "
             "like: any code is allowed.\n\n"
             "Before you hand in: *Kernel → Restart Kernel and Run All Cells*, and check every "
             "cell runs.")
    return text


def notebook(assignment, var, exercises, *, solved: bool = False, tag: str = ""):
    """A notebook of ``assignment`` (a :class:`course.assignments.Assignment`) for a variant (``var.student`` None: the notebook's own
    data): the release (``solved=False``) or the solved version (answers, worked solutions)."""
    auto_points = sum(q.points for q in assignment.questions)
    total = auto_points + assignment.working_points * len(assignment.working)
    cells = [
        new_markdown_cell(_intro(assignment, total, var.student),
                          metadata=_meta("intro", locked=True)),
        new_code_cell(assignment.setup_code(var.params).rstrip(),
                      metadata=_meta("setup", locked=True)),
    ]
    for i, (question, exercise) in enumerate(zip(assignment.questions, exercises), start=1):
        name = f"answer_q{i}"
        note = assignment.note_text(question, var.params)
        note = f"\n\n{note}" if note else ""
        if is_choice(exercise):
            options = "\n".join(f"- ({exercise.label(k)}) {o}"
                                for k, o in enumerate(exercise.options))
            letters = ", ".join(f"`'{exercise.label(k)}'`" for k in range(len(exercise.options)))
            how = f"{options}\n\n*Answer:* the letter of your option as a string ({letters})"
            test = choice_public_test(name, exercise)
        else:
            how = f"*Answer:* {answer_format(reference(exercise))}"
            test = public_test(name, reference(exercise))
        cells.append(new_markdown_cell(
            f"### Question {i} ({_points(question.points)})\n\n{exercise.prompt}{note}\n\n"
            f"{how}, as `{name}` in the cell below.",
            metadata=_meta(f"question_q{i}", locked=True)))
        answer = solution_literal(exercise) if solved else "..."
        cells.append(new_code_cell(f"{name} = {answer}", metadata=_meta(name, solution=True)))
        cells.append(new_code_cell(
            test, metadata=_meta(f"test_q{i}", grade=True, locked=True, points=question.points)))
    if solved:  # a cell of its own (the read-only cells stay the release's)
        cells.insert(1, new_markdown_cell("**Solved**: the answers and the worked solutions "
                                          "are filled in."))
    for k, i in enumerate(assignment.working, start=len(assignment.questions) + 1):
        cells.append(new_markdown_cell(
            f"### Question {k} ({assignment.working_points} points, graded by hand)\n\n"
            f"Show your working for question {i}: the formula you used, why it applies, and the "
            "numbers you put into it. Write in the cell below (Markdown; maths as `$...$`).",
            metadata=_meta(f"question_q{k}", locked=True)))
        cells.append(new_markdown_cell(
            worked_solution(exercises[i - 1]) if solved else STUB,
            metadata=_meta(f"working_q{k}", grade=True, solution=True,
                           points=assignment.working_points)))
    meta = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"},
            "genviz": {"assignment": assignment.name, "student": var.student}}
    if tag:
        meta["genviz"]["release"] = tag
    nb = new_notebook(cells=cells, metadata=meta)
    nbformat.validate(nb)
    return nb
