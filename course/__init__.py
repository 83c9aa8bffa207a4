"""The graded version of the course: assignments built from genviz's exercises, a variant per
student, graded in a sandbox (docs/grade-a-class.md).

- :mod:`course.assignments` — what each assignment asks (the one place that says it): the
  notebook's own data-loading lines and ``genviz.exercises`` builder calls, with the values
  that vary per student named, and how each student's values are drawn.
- :mod:`course.variants` — the course secret and a student's variant (HMAC of the id).
- :mod:`course.build` — the instructor's source notebooks, each student's release and solved
  variant, the gradebook's records (``make assignments``, ``make solution``).
- :mod:`course.sandbox` (with ``_runner.py``, run inside it) — a notebook run by a Jupyter kernel
  in a bubblewrap sandbox; only the answer values leave.
- :mod:`course.plain` — the strict decoder of what leaves the sandbox.
- :mod:`course.grade` — read, run, check and report every submission of a course directory
  (``make grade COURSE=DIR``); :mod:`course.gradebook` — the scores in nbgrader's gradebook.
- :mod:`course.submissions` — generated submissions and the hostile corpus (tests, benchmark).
- ``nbgrader_config.py`` — the course's nbgrader configuration (Formgrader, export).

This package is course tooling, not part of the ``genviz`` library: it lives outside ``genviz/``
(no layer of ARCHITECTURE.md; nothing in genviz imports it) and needs nbformat and nbgrader
(the ``grade`` extra). A released notebook imports only genviz's model layer.
"""
