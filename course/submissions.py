"""Generated submissions: what a student hands in, made from a released notebook.

Used by the tests (right, wrong and broken submissions of every kind) and by
``benchmarks/bench_grading.py`` (a class of 100). A submission is the release with answer cells
filled in (``answers``: question number -> cell source) and optionally other edits.
"""

from __future__ import annotations

import pathlib

import nbformat

from course.assignments import ASSIGNMENTS, build_exercises
from course.build import is_choice, literal, reference, solution_literal


def right_answers(assignment: str) -> dict[int, str]:
    """Question number -> ``answer_qN = <reference>`` (the value genviz computes; a choice's
    right letter)."""
    exercises = build_exercises(ASSIGNMENTS[assignment])
    return {i: f"answer_q{i} = {solution_literal(ex)}" for i, ex in enumerate(exercises, 1)}


def wrong_answers(assignment: str) -> dict[int, str]:
    """Question number -> an answer of the right form and the wrong value (a choice: the
    letter of a wrong option)."""
    out = {}
    for i, ex in enumerate(build_exercises(ASSIGNMENTS[assignment]), 1):
        ref = reference(ex)
        if is_choice(ex):
            value = repr(next(ex.label(k) for k in range(len(ex.options)) if k not in ex.correct))
        elif isinstance(ref, str):
            value = repr(ref + " not")
        elif isinstance(ref, bool):
            value = repr(not ref)
        elif isinstance(ref, (list, tuple)) and ref and all(isinstance(a, str) for a in ref):
            value = repr([a + "x" for a in ref])
        else:
            value = f"(np.asarray({literal(ref)}) + 1.0) * 2.0 + 7.0"
        out[i] = f"import numpy as np\nanswer_q{i} = {value}"
    return out


def fill(release: pathlib.Path, answers: dict[int, str], working: str | None = None):
    """The released notebook with answer cells replaced (and manual answers written)."""
    nb = nbformat.read(release, as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("answer_q") and int(grade_id[8:]) in answers:
            cell.source = answers[int(grade_id[8:])]
        elif grade_id.startswith("working_q") and working is not None:
            cell.source = working
    return nb


def write(course: pathlib.Path, student: str, assignment: str, nb) -> pathlib.Path:
    folder = pathlib.Path(course) / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{assignment}.ipynb"
    nbformat.write(nb, path)
    return path
