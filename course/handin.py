"""A submission made from a student's release: their notebook with answer cells filled in.

Used by :mod:`course.hostile`, the tests and ``benchmarks/bench_grading.py`` (through
:mod:`course.submissions`, which re-exports these names).
"""

from __future__ import annotations

import json
import pathlib

import nbformat

from course.assignments import ASSIGNMENTS, variant
from course.build import student_notebook
from course.cells import is_choice, literal, reference, solution_literal


def _exercises(assignment: str, student=None, secret=None):
    return variant(ASSIGNMENTS[assignment], student, secret)[1]


def right_answers(assignment: str, student=None, secret=None) -> dict[int, str]:
    """Question number -> ``answer_qN = <reference>`` for ``student``'s variant (None: the
    notebook's own data, i.e. the self-study solution)."""
    return {i: f"answer_q{i} = {solution_literal(ex)}"
            for i, ex in enumerate(_exercises(assignment, student, secret), 1)}


def wrong_answers(assignment: str, student=None, secret=None) -> dict[int, str]:
    """Question number -> an answer of the right form and the wrong value (a choice: the
    letter of a wrong option)."""
    out = {}
    for i, ex in enumerate(_exercises(assignment, student, secret), 1):
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


def release(assignment: str, student: str, secret: bytes):
    """The student's released notebook."""
    return student_notebook(ASSIGNMENTS[assignment], student, secret)[0]


def fill(nb_or_path, answers: dict[int, str], working: str | None = None):
    """The notebook with answer cells replaced (and manual answers written)."""
    if isinstance(nb_or_path, (str, pathlib.Path)):
        nb = nbformat.read(nb_or_path, as_version=4)
    else:
        nb = nbformat.reads(nbformat.writes(nb_or_path), as_version=4)  # a copy
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
    # ASCII JSON: a hostile notebook may hold lone surrogates (as a student's can)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=True), encoding="ascii")
    return path


def cell_of(nb, grade_id):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def self_study_code(assignment: str) -> str:
    """Python that computes every answer of the self-study notebook (the notebook's own data)
    with genviz's own exercise builders — what the "Show solution" button and the website
    show — as a student could paste it into a graded notebook."""
    a = ASSIGNMENTS[assignment]
    lines = [f"import {a.exercises} as exercises", a.setup_code()]
    for i, q in enumerate(a.questions, 1):
        call = a.call_code(q)
        lines.append(f"_ex = {call}")
        lines.append(f"answer_q{i} = ('abcdefgh'[_ex.correct[0]] if hasattr(_ex, 'options') "
                     "else _ex._answer)")
    return "\n".join(lines)
