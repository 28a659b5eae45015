"""Alembic's entry point for the store's migrations.

:func:`arbitro.store.migrate.upgrade` hands over an open connection already inside a
transaction (``config.attributes["connection"]``); the migrations run in it, and it commits.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from arbitro.store.models import Base


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


# Alembic's ``context`` has a ``config`` only while Alembic runs this file; anything else that
# imports it (pytest's --doctest-modules does) must find a harmless module.
_config = getattr(context, "config", None)
if _config is not None:
    _connection = _config.attributes.get("connection")
    if not isinstance(_connection, Connection):
        raise RuntimeError("run the store's migrations with arbitro.store.upgrade(url)")
    run_migrations(_connection)
