"""Generated submissions: what a student hands in, made from their released notebook.

Used by the tests and by ``benchmarks/bench_grading.py``. A submission is the student's release
(:func:`course.build.student_notebook`) with answer cells filled in (``answers``: question
number -> cell source) and optionally other edits (:mod:`course.handin`).

:data:`HOSTILE` is the hostile corpus (:mod:`course.hostile`): one submission per way a student
who knows Python and Linux might try to get marks they did not earn, or to stop, slow down or
fool the grader, or harm the gradebook or classmates, each with a regular expression that the
report row must match. This module only gathers both under one name.
"""

from __future__ import annotations

from course.handin import (_exercises, cell_of, fill, release, right_answers, self_study_code,
                           write, wrong_answers)
from course.hostile import (CONTROL, HOSTILE, HOSTILE_MARKDOWN, MARKER, ODD_FOLDER, SLOW_CODE,
                            SLOW_MARKDOWN, Context, Hostile, _copies, write_hostile)

__all__ = ["_exercises", "cell_of", "fill", "release", "right_answers", "self_study_code",
           "write", "wrong_answers", "CONTROL", "HOSTILE", "HOSTILE_MARKDOWN", "MARKER",
           "ODD_FOLDER", "SLOW_CODE", "SLOW_MARKDOWN", "Context", "Hostile", "_copies", "write_hostile"]
