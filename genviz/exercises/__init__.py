"""Exercises that check themselves.

An :class:`Exercise` holds the right answer (computed by genviz from the notebook's own data, so
the answer never appears in the notebook), a hint and a worked solution. The learner computes a
value and calls ``exercise.check(value)``: the feedback says right or wrong, with the hint, and
never shows the answer. ``exercise.solution()`` shows the worked solution when asked (in a
notebook, ``genviz.widgets.solution_toggle(exercise)`` hides it behind a button).

In a notebook the learner does not edit code: ``genviz.widgets.exercises.answer_box(exercise)``
shows a text box and a Check button (it works in JupyterLab and in Voila, where code is hidden).
:meth:`Exercise.check_text` reads what was typed — a number, a fraction such as ``3/4``, a short
expression such as ``log(2)/3``, a vector ``[1, 2]``, a matrix ``[[1, 0], [0, 1]]``, a word, yes/no
— and checks it. Left unanswered (``...`` or an empty box), the check says so without failing, so
notebooks run top to bottom under nbval. Solutions are Markdown with LaTeX maths (``$...$``),
typeset by MathJax in the notebook, in Voila and in an HTML export. Each topic defines its exercises in
``genviz/exercises/<topic>.py`` as functions that take the notebook's data and return an
``Exercise``.

Examples
--------
>>> ex = Exercise("What is 1/4 as a decimal?", 0.25, hint="Divide 1 by 4.", solution="1/4 = 0.25")
>>> print(ex.check(...))
Not answered yet: type your answer in the box and press Check.
>>> print(ex.check(0.3))
Not quite. Hint: Divide 1 by 4.
>>> print(ex.check(0.25))
Correct!
>>> ex.check(0.25).correct
True
>>> print(ex.check_text("1/4"))
Correct!
>>> print(ex.check_text("a quarter"))
Could not read 'a quarter' as a number: type a number such as 1.5e-3, a fraction such as 7/8 or an expression such as log(2)/3.
"""

from genviz.exercises._core import (KINDS, OBJECTIVE_PATTERN, PRACTICE_KINDS, Exercise, Feedback,
                                    Solution, _markdown_to_html, claim_text, format_number,
                                    matching_claims, parse_answer)
from genviz.exercises.choice import Choice, Prediction
from genviz.exercises.derivation import Derivation, Step, Symbol
from genviz.exercises.observation import Observation
from genviz.exercises.open import OpenQuestion

__all__ = ["Exercise", "Feedback", "Solution", "parse_answer", "format_number", "KINDS",
           "PRACTICE_KINDS", "OBJECTIVE_PATTERN", "Choice", "Prediction", "Observation",
           "OpenQuestion", "Derivation", "Step", "Symbol", "claim_text", "matching_claims"]
