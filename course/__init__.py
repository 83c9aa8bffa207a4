"""The graded version of the course: nbgrader assignments built from genviz's exercises.

- :mod:`course.assignments` — what each assignment asks (the one place that says it): the
  notebook's own data-loading lines and the ``genviz.exercises`` builder calls of its exercises.
- :mod:`course.build` — writes nbgrader *source* notebooks from those specs and runs
  ``nbgrader generate_assignment`` (``make assignments``).
- :mod:`course.grade` — autogrades every submission of a course directory, writes feedback and
  ``grades.csv`` (``make grade COURSE=DIR``).
- ``nbgrader_config.py`` — the course's nbgrader configuration.

This package is course tooling, not part of the ``genviz`` library: it lives outside ``genviz/``
(no layer of ARCHITECTURE.md; nothing in genviz imports it) and needs nbformat and nbgrader
(the ``grade`` extra). A released notebook imports only genviz's model layer.
"""
