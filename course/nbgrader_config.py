"""nbgrader configuration of the genviz course (read by course/build.py and course/grade.py;
an instructor running nbgrader by hand copies this file next to their course directory).

The paths come from the environment so that `make assignments`, `make grade COURSE=DIR` and the
tests can point nbgrader elsewhere without editing this file:

- GENVIZ_COURSE_ROOT   the nbgrader course directory (source/, release/, submitted/,
                       autograded/, feedback/, gradebook.db); default build/course
- GENVIZ_CELL_TIMEOUT  seconds a single cell may run when a submission is graded (default 60:
                       an infinite loop is interrupted, that cell fails, the rest is graded)
"""

import os
import pathlib

c = get_config()  # noqa: F821 (defined by traitlets when it loads this file)

REPO = pathlib.Path(__file__).resolve().parents[1]

c.CourseDirectory.course_id = "genviz"
c.CourseDirectory.root = os.environ.get("GENVIZ_COURSE_ROOT", str(REPO / "build" / "course"))

# Grading runs the student's notebook top to bottom in a fresh kernel. One cell may run at most
# this long; then the kernel is interrupted (KeyboardInterrupt in that cell, graded as failed)
# and the remaining cells still run.
c.Execute.timeout = int(os.environ.get("GENVIZ_CELL_TIMEOUT", "60"))
c.Execute.interrupt_on_timeout = True
c.Execute.allow_errors = True
# A cell whose outputs arrive late (a slow `%matplotlib widget` start on a loaded machine) must
# not fail the whole submission: nbgrader's default raises, and the notebook is not graded.
c.Execute.raise_on_iopub_timeout = False
c.Execute.iopub_timeout = 10
# No front end while grading: a submission that switches to `%matplotlib widget` or displays
# widgets still runs (the widget messages go nowhere); keep its outputs small in the feedback.
c.LimitOutput.max_lines = 200

# The release shows the stub `answer_qN = ...` (written outside the solution region by
# course/build.py) and this line in place of the reference solution.
c.ClearSolutions.code_stub = {"python": "# (your working, if any, above or here)"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Hidden tests (### BEGIN HIDDEN TESTS) hold the reference values; they are stripped from the
# release and restored from the gradebook when grading. A deleted test cell is put back (and
# reported); an edited one is overwritten by the original (nbgrader's checksums, reported).
c.ClearHiddenTests.enforce_metadata = True
c.OverwriteCells.add_missing_cells = True
# The feedback shows each test's verdict (a wrong answer: the exercise's hint) but not the hidden
# tests' source, which holds the reference values.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# No exchange by default: `make assignments`/`make grade` work on files only (the assignments
# are handed out and collected by copying; see docs/grade-a-class.md). A JupyterHub that uses
# nbgrader's exchange sets c.Exchange.root in the instructor's own nbgrader_config.py.
