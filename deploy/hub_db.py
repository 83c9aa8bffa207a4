"""The hub's sqlite database in write-ahead-log mode: a login no longer waits for the disk.

JupyterHub owns its database and talks to it synchronously from its one process: while a commit
waits, the hub answers nothing (JupyterHub's docs, "The Hub's Database"). In sqlite's default
mode (a rollback journal, ``synchronous=FULL``) every commit waits for an fsync, and a first
login commits several times (the user, its roles, its spawner, the OAuth code, the token). With
300 phones arriving within 10 s on a 2-core hub whose disk other jobs were using, the logins
queued behind those flushes: the join's p95 was 44.3 and 43.9 s with the default mode against
15.7 and 11.4 s with this module, in alternating runs (benchmarks/lecture.md, 2026-12-01).

:data:`PRAGMAS` put every sqlite connection the hub opens in WAL mode with
``synchronous=NORMAL`` (sqlite's documented pairing for WAL): a commit appends to the log and
returns; the log is flushed at checkpoints. The database survives a crash of the hub intact; a
power cut can lose the last few commits (a login, a token: the student logs in again), never
corrupt the file. The poll service's own database does the same (deploy/poll/genviz_poll.py).

Only sqlite connections are touched: a hub on PostgreSQL or MySQL is left as it is. WAL keeps
its index in shared memory, so the database must sit on a local filesystem (sqlite's docs: not
a network filesystem): the trial hub's state folder, TLJH's ``/opt/tljh/state`` and Z2JH's
default ``sqlite-pvc`` volume (mounted in the one hub pod) all are. A deployment that keeps
the hub's sqlite on NFS must leave this module out.

The three deployments load it: the trial hub (deploy/jupyterhub_config.py) and TLJH's snippet
(deploy/tljh/jupyterhub_config.d/genviz.py) run this file; Z2JH carries it, verbatim, as
``hub.extraConfig.genviz-hub-db`` (deploy/z2jh/sync_extra_config.py writes the copy;
tests/test_hub_db.py checks it). Run, imported or executed as hub configuration, it registers
its listener once per process (:func:`use_wal`).
"""

import sqlite3

from sqlalchemy import event
from sqlalchemy.engine import Engine

#: Run on every new sqlite connection of the hub's process, in this order.
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def wal_on_connect(dbapi_connection, _connection_record=None) -> None:
    """SQLAlchemy's ``connect`` event: the :data:`PRAGMAS` on a sqlite connection, nothing on
    any other database's."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    try:
        for pragma in PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def use_wal() -> None:
    """Listen on every engine of this process (JupyterHub makes one, after its configuration is
    loaded); a second call adds nothing."""
    if not event.contains(Engine, "connect", wal_on_connect):
        event.listen(Engine, "connect", wal_on_connect)


use_wal()
