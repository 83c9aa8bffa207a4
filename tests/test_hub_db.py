"""deploy/hub_db.py: the hub's sqlite in write-ahead-log mode (benchmarks/lecture.md: 300 phones'
logins queued behind the default mode's disk flushes). The oracle is sqlite itself: what
``PRAGMA journal_mode`` and ``PRAGMA synchronous`` report on a connection the hub's engine
opens, against a plain connection's defaults. The trial hub's own database is checked in
tests/test_poll_hub.py, the TLJH snippet and Z2JH's extraConfig in tests/test_deploy_auth.py.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml
from sqlalchemy import create_engine, text

from file_modules import load_file

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
sync = load_file(DEPLOY / "z2jh" / "sync_extra_config.py", "sync_extra_config_hub_db")



def _modes(engine) -> tuple[str, int]:
    with engine.connect() as conn:
        return (conn.execute(text("PRAGMA journal_mode")).scalar(),
                conn.execute(text("PRAGMA synchronous")).scalar())


def test_the_hubs_engine_writes_ahead_where_sqlites_default_does_not(tmp_path):
    plain = sqlite3.connect(tmp_path / "plain.sqlite")
    assert (plain.execute("PRAGMA journal_mode").fetchone()[0],
            plain.execute("PRAGMA synchronous").fetchone()[0]) == ("delete", 2)  # FULL
    plain.close()
    before = create_engine(f"sqlite:///{tmp_path / 'before.sqlite'}")
    assert _modes(before) == ("delete", 2)
    load_file(DEPLOY / "hub_db.py", "hub_db_under_test")
    engine = create_engine(f"sqlite:///{tmp_path / 'hub.sqlite'}")
    assert _modes(engine) == ("wal", 1)  # NORMAL
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE users (name TEXT)"))
        conn.execute(text("INSERT INTO users VALUES ('ada')"))
    assert (tmp_path / "hub.sqlite-wal").exists()
    # the mode is the file's: another process's plain connection reads the row and sees WAL
    other = sqlite3.connect(tmp_path / "hub.sqlite")
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT name FROM users").fetchall() == [("ada",)]
    other.close()
    engine.dispose()
    before.dispose()


def test_a_database_that_is_not_sqlite_is_left_alone():
    hub_db = load_file(DEPLOY / "hub_db.py", "hub_db_not_sqlite")

    class OtherDriver:  # a PostgreSQL or MySQL DBAPI connection: never sent sqlite's pragmas
        def cursor(self):
            raise AssertionError("a pragma was sent to a database that is not sqlite")

    hub_db.wal_on_connect(OtherDriver(), None)


def test_the_listener_is_added_once_per_process(engine_listeners):
    hub_db = load_file(DEPLOY / "hub_db.py", "hub_db_once")
    hub_db.use_wal()
    hub_db.use_wal()
    assert [(name, fn.__name__) for _, name, fn in engine_listeners] == [("connect", "wal_on_connect")]


def test_z2jh_carries_hub_db_verbatim_and_a_stale_copy_is_seen():
    values_text = (DEPLOY / "z2jh" / "values.yaml").read_text()
    values = yaml.safe_load(values_text)
    source = (DEPLOY / "hub_db.py").read_text()
    assert values["hub"]["extraConfig"]["genviz-hub-db"] == source, \
        "run: python deploy/z2jh/sync_extra_config.py"
    assert sync.COPIES["genviz-hub-db"] == "hub_db.py"
    stale = values_text.replace("PRAGMA synchronous=NORMAL", "PRAGMA synchronous=FULL")
    assert stale != values_text
    assert sync.synced(stale, source, "genviz-hub-db") == values_text


# -- conftest.engine_listeners removes the hub's engine listeners and nothing else ---------------
# A mapper's own listeners (its ``init`` event sets the polymorphic type) are added with
# ``event.listen`` when its class is made: nbgrader's GradeCell is made inside whichever test
# first opens a gradebook in a worker. The first test makes a polymorphic class and loads the
# hub's WAL listener; the second (same worker: --dist loadfile) writes a row: its type must
# survive the first test's teardown, and the hub's listener must not.

_MADE = {}


def _polymorphic_class():
    if "Cell" not in _MADE:
        from sqlalchemy import Column, ForeignKey, Integer, String
        from sqlalchemy.orm import declarative_base

        Base = declarative_base()

        class Cell(Base):
            __tablename__ = "cell"
            id = Column(Integer, primary_key=True)
            type = Column(String(20))
            __mapper_args__ = {"polymorphic_identity": "Cell", "polymorphic_on": type}

        class GradedCell(Cell):
            __tablename__ = "graded_cell"
            id = Column(Integer, ForeignKey("cell.id"), primary_key=True)
            __mapper_args__ = {"polymorphic_identity": "GradedCell"}

        _MADE.update(Cell=Cell, GradedCell=GradedCell, Base=Base)
    return _MADE


def test_a_mapper_made_in_one_test(engine_listeners):
    made = _polymorphic_class()
    assert made["GradedCell"]().type == "GradedCell"
    hub_db = load_file(DEPLOY / "hub_db.py", "hub_db_then_removed")  # listens at import
    _MADE["wal"] = hub_db.wal_on_connect
    assert hub_db.wal_on_connect in [fn for _, _, fn in engine_listeners]  # with the mapper's


def test_keeps_its_polymorphic_type_in_the_next(tmp_path):
    from sqlalchemy.orm import Session

    made = _polymorphic_class()
    engine = create_engine(f"sqlite:///{tmp_path / 'cells.sqlite'}")
    made["Base"].metadata.create_all(engine)
    with Session(engine) as session:
        session.add(made["GradedCell"]())
        session.commit()
    assert sqlite3.connect(tmp_path / "cells.sqlite").execute(
        "SELECT type FROM cell").fetchall() == [("GradedCell",)]
    engine.dispose()
    if "wal" in _MADE:  # run after the first test: the hub's listener was removed
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        assert not event.contains(Engine, "connect", _MADE["wal"])
