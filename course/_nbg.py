"""Running nbgrader from Python with the course's configuration (course/nbgrader_config.py)."""

from __future__ import annotations

import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
CONFIG = HERE / "nbgrader_config.py"
DEFAULT_ROOT = REPO / "build" / "course"


def _venv_bin_on_path() -> None:
    # nbgrader's gradebook runs `alembic` as a program: it must find the one of this environment
    bindir = str(pathlib.Path(sys.executable).parent)
    if bindir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bindir + os.pathsep + os.environ.get("PATH", "")


def load_config(root):
    """The course's nbgrader Config with ``CourseDirectory.root`` = ``root``."""
    from traitlets.config.loader import PyFileConfigLoader

    _venv_bin_on_path()
    config = PyFileConfigLoader(CONFIG.name, path=str(HERE)).load_config()
    config.CourseDirectory.root = str(pathlib.Path(root).resolve())
    return config


def api(root):
    """An ``NbGraderAPI`` on the course directory ``root`` (for its CSV export)."""
    import logging

    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    config = load_config(root)
    coursedir = CourseDirectory(config=config)
    # the API lists the exchange when it starts; the course uses none (see nbgrader_config.py)
    quiet = logging.getLogger("traitlets")
    level, quiet.level = quiet.level, logging.CRITICAL + 1
    try:
        grader = NbGraderAPI(coursedir=coursedir, config=config)
    finally:
        quiet.setLevel(level)
    grader.log.setLevel(logging.WARNING)
    return grader


try:  # nbconvert comes with nbgrader (the grade extra)
    from nbconvert.preprocessors import Preprocessor as _Preprocessor
except ImportError:  # pragma: no cover
    _Preprocessor = object


class NoAutograde(_Preprocessor):
    """nbgrader's autograde, refused (course/nbgrader_config.py puts this first in both of its
    steps): it would run the student's notebook in the instructor's own process tree, next to
    the gradebook. A Formgrader whose server cannot import ``course`` refuses too (nbgrader
    cannot load the preprocessor), so the button fails closed either way."""

    enabled = True  # nbconvert runs a preprocessor only when it is enabled

    def preprocess(self, nb, resources):
        raise RuntimeError("nbgrader autograde is disabled for the genviz course: it would run "
                           "students' code unsandboxed. Grade with `make grade COURSE=DIR` "
                           "(docs/grade-a-class.md).")
