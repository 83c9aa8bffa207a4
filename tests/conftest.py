import os

import matplotlib

matplotlib.use("Agg")
# Explorers made in tests never build precomputed states behind the test's back, nor write to
# the user's cache (tests of genviz.widgets.states set their own mode and directories).
os.environ["GENVIZ_STATES"] = "off"
# the learner's predictions are kept beside the notebook (genviz.widgets.prediction_log): not
# by the tests (nor by the notebooks nbval runs, whose kernels inherit this)
os.environ["GENVIZ_PREDICTION_LOG"] = "off"

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def fresh_prediction_records(monkeypatch):
    """A fresh kernel's prediction records (genviz.widgets.predictions), and no stage sent."""
    from genviz.widgets import predictions

    predictions.clear_prediction_records()
    monkeypatch.setattr(predictions, "report_stage", lambda *args: None)
    yield
    predictions.clear_prediction_records()


@pytest.fixture(autouse=True)
def engine_listeners(monkeypatch):
    """Every SQLAlchemy event listener added while the test runs, ``[(target, name, fn)]``,
    removed afterwards, in every test: deploy/hub_db.py (run by every hub configuration a test
    loads in-process: the trial hub's, TLJH's snippet, Z2JH's extraConfig) listens on every
    Engine of the process, as a hub wants, and later tests in the same worker open sqlite
    databases of their own (nbgrader's gradebook) that must stay as they are.

    Only listeners on engines and pools are removed: SQLAlchemy configures a mapper (nbgrader's
    ``GradeCell``, on the first gradebook a worker opens) with ``event.listen`` too, and removing
    its ``init`` listener left every later gradebook of that worker with NULL polymorphic types
    ("the polymorphic discriminator column 'base_cell.type' is NULL", test_grading_course under
    xdist after test_grading_safety; tests/test_hub_db.py plants that order)."""
    import sqlalchemy.event
    from sqlalchemy.engine import Engine
    from sqlalchemy.pool import Pool

    added, real = [], sqlalchemy.event.listen

    def listen(target, identifier, fn, *args, **kwargs):
        added.append((target, identifier, fn))
        return real(target, identifier, fn, *args, **kwargs)

    def engine_level(target) -> bool:
        kinds = (Engine, Pool)
        return isinstance(target, kinds) or (isinstance(target, type) and issubclass(target, kinds))

    monkeypatch.setattr(sqlalchemy.event, "listen", listen)
    yield added
    for target, identifier, fn in added:
        if engine_level(target) and sqlalchemy.event.contains(target, identifier, fn):
            sqlalchemy.event.remove(target, identifier, fn)
