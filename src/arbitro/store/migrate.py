"""Bring a database to the newest schema with the migrations kept in this package.

No ``alembic.ini`` is needed: the configuration is built here. :func:`upgrade` is idempotent
and safe to call at every server start, by several servers at once.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Engine, text

from arbitro.store.db import WRITE, database_url, make_engine

MIGRATIONS = Path(__file__).parent / "migrations"

#: Key of the PostgreSQL advisory lock that serialises migrations ("arbi" in ASCII).
_MIGRATION_LOCK = 0x61726269


def alembic_config() -> Config:
    """The Alembic configuration of the store's migrations (no file behind it)."""
    config = Config()
    # '%' would start an interpolation in Alembic's configparser.
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    return config


def head() -> str:
    """The newest revision of the schema."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(url: str | URL | Engine) -> str | None:
    """The revision the database at ``url`` is at (``None``: never migrated)."""
    engine = url if isinstance(url, Engine) else make_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        if engine is not url:
            engine.dispose()


def upgrade(url: str | URL | Engine) -> None:
    """Migrate the database at ``url`` to :func:`head`; a database already there is left as
    it is."""
    engine = url if isinstance(url, Engine) else make_engine(url)
    try:
        with engine.connect() as conn:
            # WRITE: on SQLite the whole migration holds the write lock from its BEGIN.
            conn.execution_options(**{WRITE: True})
            with conn.begin():
                if engine.dialect.name == "postgresql":
                    # Servers starting together would otherwise both create the tables; the
                    # second waits here, then finds the database at head. The lock goes with
                    # the transaction (DDL is transactional on PostgreSQL).
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK}
                    )
                config = alembic_config()
                # env.py runs the migrations on this connection, inside this transaction.
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
    finally:
        if engine is not url:
            engine.dispose()


__all__ = ["MIGRATIONS", "alembic_config", "current", "database_url", "head", "upgrade"]
