"""Engines for the store: SQLite set up for durability, PostgreSQL through psycopg 3."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url

#: Where a store lives when no URL is given: a SQLite file in the working directory.
DEFAULT_URL = "sqlite:///./arbitro.db"

#: Execution option that marks a connection's next transaction as one that writes.
WRITE = "arbitro_write"

#: How long a SQLite writer waits for another one's lock before giving up, in ms.
SQLITE_BUSY_TIMEOUT_MS = 10_000


def database_url(url: str | URL) -> URL:
    """``url`` parsed, with plain ``postgresql://`` taken to mean psycopg 3 (the driver the
    project depends on; SQLAlchemy's own default would be psycopg2)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def is_postgresql(url: URL) -> bool:
    return url.get_backend_name() == "postgresql"


def make_engine(url: str | URL) -> Engine:
    """An engine for ``url``; on SQLite every connection is set up as :func:`_sqlite_setup`
    says, and transactions that write take the database's write lock at BEGIN."""
    parsed = database_url(url)
    if parsed.get_backend_name() != "sqlite":
        # pre_ping: a server process outlives restarts of the database server.
        return create_engine(parsed, pool_pre_ping=True)
    engine = create_engine(parsed)
    event.listen(engine, "connect", _sqlite_setup)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_setup(dbapi_connection: Any, _record: Any) -> None:
    # Take BEGIN away from the sqlite3 module (which delays it to the first write, so that a
    # read-then-write transaction can fail with "database is locked" at once, busy timeout or
    # not); _sqlite_begin emits it instead.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        # WAL: readers never block the writer, nor it them.
        _write_ahead_log(cursor)
        # FULL: a commit is on disk before it returns, so an acknowledged event survives a
        # crash or a power cut (NORMAL, WAL's usual partner, may lose the last commits).
        cursor.execute("PRAGMA synchronous=FULL")
        # SQLite checks foreign keys only when asked, connection by connection.
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _write_ahead_log(cursor: Any) -> None:
    """Switch the database to WAL (it stays so, in the file). The switch needs the database to
    itself, and when servers start together on a new file SQLite may refuse one of them at
    once, busy timeout or not: it tries again until the busy timeout has passed."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def _sqlite_begin(conn: Connection) -> None:
    # A writer takes the write lock at BEGIN (waiting up to the busy timeout), so that what it
    # read in its transaction (the next position of a log) is still true when it writes.
    # Readers begin deferred and never wait.
    immediate = conn.get_execution_options().get(WRITE, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
