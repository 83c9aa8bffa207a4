"""nbgrader configuration of the genviz course (read by course/gradebook.py for the CSV export;
an instructor running nbgrader's Formgrader copies this file next to their course directory and
points ``CourseDirectory.root`` at it).

nbgrader is used for its gradebook (``gradebook.db``), the Formgrader (the hand-graded cells) and
the CSV export — never to run student code: course/grade.py runs each notebook in a sandbox and
writes the scores itself (docs/grade-a-class.md). Do not run ``nbgrader autograde`` on a course
directory: it executes the students' notebooks in your own process tree, next to the gradebook.

The course directory comes from the environment so that the tests can point nbgrader elsewhere
without editing this file:

- GENVIZ_COURSE_ROOT   the course directory (source/, release/, submitted/, autograded/,
                       feedback/, gradebook.db); default build/course
"""

import os
import pathlib

c = get_config()  # noqa: F821 (defined by traitlets when it loads this file)

REPO = pathlib.Path(__file__).resolve().parents[1]

c.CourseDirectory.course_id = "genviz"
c.CourseDirectory.root = os.environ.get("GENVIZ_COURSE_ROOT", str(REPO / "build" / "course"))

# The Formgrader shows the autograded notebooks that course/grade.py writes (sources only; the
# Markdown of the students' working with its raw HTML neutralised).

# nbgrader's autograde (the Formgrader's lightning button, `nbgrader autograde`) is refused:
# it would run the students' notebooks unsandboxed, in your process tree, next to the
# gradebook. If the server cannot import `course`, nbgrader cannot load this preprocessor and
# autograde fails all the same.
c.Autograde.sanitize_preprocessors = ["course._nbg.NoAutograde"]
c.Autograde.autograde_preprocessors = ["course._nbg.NoAutograde"]

# No exchange: releases are per student (each student's own variant) and are handed out and
# collected as files (docs/grade-a-class.md); nbgrader's exchange hands everybody one file.
