"""Hear of events committed by other server processes (PostgreSQL LISTEN/NOTIFY).

Every :meth:`~arbitro.store.store.EventStore.append` on PostgreSQL announces
``"<game_id>:<seq>"`` on the channel ``arbitro_events`` when it commits. A server listens,
then reads what it has not seen with :meth:`~arbitro.store.store.EventStore.events`.

Notifications are not kept: one sent while no one listens is lost. So a server listens
first, then loads the games it serves (``ready`` tells when the first step is done), and after
a lost connection it listens again and reloads.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import psycopg
from sqlalchemy import URL

from arbitro.i18n import N_
from arbitro.store.db import DEFAULT_URL, database_url, is_postgresql
from arbitro.store.errors import StoreError


def parse_payload(payload: str) -> tuple[str, int] | None:
    """``"<game_id>:<seq>"`` as ``(game_id, seq)``; ``None`` for anything else."""
    game_id, colon, seq = payload.rpartition(":")
    if not colon or not game_id or not seq.isdigit():
        return None
    return game_id, int(seq)


def _connect_args(url: URL) -> dict[str, Any]:
    # libpq's own parameters, so that the password needs no quoting; the URL's query (e.g.
    # sslmode, options) passes through as it does for SQLAlchemy's psycopg dialect.
    args: dict[str, Any] = {
        "host": url.host,
        "port": url.port,
        "user": url.username,
        "password": url.password,
        "dbname": url.database,
    }
    args.update({k: v for k, v in url.query.items() if isinstance(v, str)})
    return {k: v for k, v in args.items() if v is not None}


async def notifications(
    url: str | URL = DEFAULT_URL, *, ready: asyncio.Event | None = None
) -> AsyncGenerator[tuple[str, int]]:
    """``(game_id, seq)`` for every event appended to the store at ``url``, by any process,
    as it is committed; ``ready`` is set once listening has begun.

    Runs until the caller stops iterating (``aclose()``) or the connection fails
    (``psycopg.OperationalError``: listen again, then reload).

    :raises StoreError: ``unsupported`` when ``url`` is not PostgreSQL: a SQLite store serves
        one process, which sees its own appends without being told.
    """
    parsed = database_url(url)
    if not is_postgresql(parsed):
        raise StoreError(
            N_("Notifications need PostgreSQL; a {backend} store serves a single process."),
            code="unsupported",
            backend=parsed.get_backend_name(),
        )
    # autocommit: LISTEN inside a transaction would take effect only at its commit.
    conn = await psycopg.AsyncConnection.connect(autocommit=True, **_connect_args(parsed))
    async with conn:
        # The channel is store.CHANNEL; LISTEN takes no parameters, hence the literal.
        await conn.execute("LISTEN arbitro_events")
        if ready is not None:
            ready.set()
        async for note in conn.notifies():
            parsed_note = parse_payload(note.payload)
            if parsed_note is not None:
                yield parsed_note
