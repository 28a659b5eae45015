"""The event store: games and their append-only logs in SQLite or PostgreSQL.

Each method is one short transaction, and a write is committed before the method returns: the
web layer acknowledges an event only after :meth:`EventStore.append` came back. The store
keeps logs; it does not judge them (the web layer applies each event to a
:class:`~arbitro.game.engine.Game` first), beyond checking that a setup and an event are what
:class:`~arbitro.game.events.GameSetup` and :class:`~arbitro.game.events.Event` can read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, NamedTuple, Self

from sqlalchemy import URL, Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from arbitro.errors import ArbitroError
from arbitro.game.engine import Game
from arbitro.game.events import Event, GameSetup
from arbitro.i18n import N_
from arbitro.store.db import DEFAULT_URL, WRITE, database_url, is_postgresql, make_engine
from arbitro.store.errors import StoreConflict, StoreError, UnknownGame
from arbitro.store.migrate import upgrade
from arbitro.store.models import ID_LENGTH, EventRow, GameRow

#: The roles a token can give, in the order role_for tries them.
ROLES = ("white", "black", "arbiter")

#: The PostgreSQL channel on which every append is announced as ``"<game_id>:<seq>"``.
CHANNEL = "arbitro_events"

#: SQLite: an event inserted only as the next position of its game's log (see _append_next).
_INSERT_NEXT = (
    f"INSERT INTO {EventRow.__tablename__} (game_id, seq, event, wall_ms) "
    f"SELECT ?, ?, ?, ? WHERE ? = 0 OR EXISTS "
    f"(SELECT 1 FROM {EventRow.__tablename__} WHERE game_id = ? AND seq = ?)"
)

_HASH_COLUMNS = {
    "white": GameRow.white_token_hash,
    "black": GameRow.black_token_hash,
    "arbiter": GameRow.arbiter_token_hash,
}

#: Statements compiled once (a statement built for each call costs SQLAlchemy more than the
#: database its work).
_INSERT_GAME = insert(GameRow)
#: A game's token hashes, in the order of ROLES (looked up at every connection).
_TOKEN_HASHES = select(*_HASH_COLUMNS.values()).where(GameRow.id == bindparam("game_id"))
#: A game taken off the unfinished ones (at the end of every game).
_FINISH = update(GameRow).where(GameRow.id == bindparam("game_id")).values(finished=True)


def new_id() -> str:
    """A fresh random URL-safe id: 16 characters, 96 bits (no one guesses another's game)."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A fresh secret token for a role (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """The sha256 hex digest of ``token``: what the store keeps instead of the token.

    A plain hash is enough for tokens made by :func:`new_token` (192 random bits: nothing to
    guess from a digest); it is not meant for passwords people choose.
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def role_of(hashes: Sequence[str | None], token: str) -> str | None:
    """The role whose token hash, in ``hashes`` (in the order of :data:`ROLES`), is that of
    ``token``; ``None`` for none. Every role is compared, in constant time, without stopping
    at a match: the time taken says nothing of the token."""
    digest = hash_token(token)
    found: str | None = None
    for role, stored in zip(ROLES, hashes, strict=True):
        if stored is not None and hmac.compare_digest(stored, digest) and found is None:
            found = role
    return found


def _json(value: Mapping[str, Any], what: str) -> str:
    try:
        # No NaN or Infinity: the text stays JSON that any reader accepts.
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise StoreError(
            N_("The {what} is not JSON: {error}."), code=f"bad-{what}", what=what, error=str(error)
        ) from None


def _whole(value: object, name: str, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise StoreError(
            N_("{name!r} must be a whole number from {minimum}: {value!r}."),
            code="bad-argument",
            name=name,
            minimum=minimum,
            value=value,
        )
    return value


class StoredEvent(NamedTuple):
    """An event of a log as stored: ``Event.to_dict()`` and when it was committed."""

    event: dict[str, Any]
    wall_ms: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: enough to rebuild it (:meth:`replay`) and to serve it."""

    id: str
    setup: dict[str, Any]
    events: list[StoredEvent]
    created_at: datetime
    started_wall_ms: int | None
    finished: bool
    spectator_id: str
    #: role -> sha256 hex of its token; a role without a token is absent.
    token_hashes: dict[str, str]

    @property
    def next_seq(self) -> int:
        """The position the next event of the log goes to."""
        return len(self.events)

    def replay(self) -> Game:
        """The game rebuilt from its setup and log.

        :raises ArbitroError: when the engine refuses an event of the log.
        """
        game = Game(GameSetup.from_dict(self.setup))
        for stored in self.events:
            game.apply(Event.from_dict(stored.event))
        return game


class EventStore:
    """Games and their logs in the database at ``url`` (SQLite or PostgreSQL).

    ``migrate`` brings the database to the newest schema first (cheap when it is there).
    Thread-safe: each call takes its own connection from the pool.
    """

    def __init__(self, url: str | URL = DEFAULT_URL, *, migrate: bool = True) -> None:
        self.url = database_url(url)
        self._engine = make_engine(self.url)
        self._postgresql = is_postgresql(self.url)
        if migrate:
            upgrade(self._engine)

    # -- transactions -----------------------------------------------------------------------

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A transaction that writes, committed when the block ends without an error."""
        with self._engine.connect() as conn:
            conn.execution_options(**{WRITE: True})
            with conn.begin():
                yield conn

    # -- games ------------------------------------------------------------------------------

    def create_game(
        self,
        setup: Mapping[str, Any],
        tokens: Mapping[str, str],
        spectator_id: str | None = None,
        started_wall_ms: int | None = None,
    ) -> str:
        """Store a new game; its id.

        ``setup`` is stored as ``GameSetup.from_dict(setup).to_dict()`` (what a replay reads);
        ``tokens`` maps roles (white, black, arbiter) to their secret tokens, of which only
        the hashes are kept. ``spectator_id`` defaults to a fresh random one.
        ``started_wall_ms``: as :meth:`set_started` records it, in the same transaction.

        :raises ArbitroError: a setup that ``GameSetup.from_dict`` refuses (its own error).
        :raises StoreError: ``bad-token`` for an unknown role, an empty token or one token for
            two roles (``role_for`` could not tell them apart).
        :raises StoreConflict: the spectator id belongs to another game.
        """
        setup_text = _json(GameSetup.from_dict(setup).to_dict(), "setup")
        hashes: dict[str, str] = {}
        for role, token in tokens.items():
            if role not in ROLES:
                raise StoreError(N_("Unknown role {role!r}."), code="bad-token", role=role)
            if not isinstance(token, str) or not token:
                raise StoreError(N_("The {role} token is empty."), code="bad-token", role=role)
            hashes[role] = hash_token(token)
        if len(set(hashes.values())) < len(hashes):
            raise StoreError(N_("Two roles have the same token."), code="bad-token")
        if spectator_id is not None and len(spectator_id) > ID_LENGTH:
            raise StoreError(
                N_("A spectator id has at most {most} characters."),
                code="bad-argument",
                most=ID_LENGTH,
            )
        game_id = new_id()
        row = {
            "id": game_id,
            "setup": setup_text,
            "created_at": datetime.now(UTC),
            "started_wall_ms": (
                None if started_wall_ms is None else _whole(started_wall_ms, "wall_ms")
            ),
            "finished": False,
            "white_token_hash": hashes.get("white"),
            "black_token_hash": hashes.get("black"),
            "arbiter_token_hash": hashes.get("arbiter"),
            "spectator_id": spectator_id or new_id(),
        }
        try:
            with self._write() as conn:
                # The row as parameters of a statement compiled once (``values(row)`` would
                # make SQLAlchemy build and hash a new statement for every game).
                conn.execute(_INSERT_GAME, row)
        except IntegrityError:
            # The id is 96 random bits: a clash is the spectator id given by the caller.
            raise StoreConflict(
                N_("The spectator id {spectator_id!r} is taken."), spectator_id=spectator_id
            ) from None
        return game_id

    def set_started(self, game_id: str, wall_ms: int) -> None:
        """Record the UTC epoch ms of the game clock's origin.

        :raises UnknownGame:
        """
        self._update(game_id, started_wall_ms=_whole(wall_ms, "wall_ms"))

    def mark_finished(self, game_id: str) -> None:
        """Take the game off :meth:`unfinished` (the log stays open to the arbiter).

        :raises UnknownGame:
        """
        with self._write() as conn:
            if conn.execute(_FINISH, {"game_id": game_id}).rowcount == 0:
                raise UnknownGame(N_("No game has the id {game_id!r}."), game_id=game_id)

    def _update(self, game_id: str, **values: object) -> None:
        with self._write() as conn:
            result = conn.execute(update(GameRow).where(GameRow.id == game_id).values(values))
            if result.rowcount == 0:
                raise UnknownGame(N_("No game has the id {game_id!r}."), game_id=game_id)

    def unfinished(self) -> list[str]:
        """The ids of the games not marked finished, oldest first: what a server resumes."""
        with self._read() as conn:
            query = (
                select(GameRow.id)
                .where(GameRow.finished.is_(False))
                .order_by(GameRow.created_at, GameRow.id)
            )
            return list(conn.scalars(query))

    def game_for_spectator(self, spectator_id: str) -> str | None:
        """The id of the game that ``spectator_id`` shows, if any."""
        with self._read() as conn:
            query = select(GameRow.id).where(GameRow.spectator_id == spectator_id)
            return conn.scalar(query)

    def role_for(self, game_id: str, token: str) -> str | None:
        """The role (white, black, arbiter) that ``token`` gives in the game; ``None`` for a
        wrong token or an unknown game.

        The token never reaches the database, not even as a query parameter: its hash is
        compared here, in constant time.
        """
        if not isinstance(token, str) or not token:
            return None
        hashes = self.token_hashes(game_id)
        return None if hashes is None else role_of(hashes, token)

    def token_hashes(self, game_id: str) -> tuple[str | None, ...] | None:
        """The hashes of the game's tokens, in the order of :data:`ROLES` (``None`` for a role
        without a token), for :func:`role_of`; ``None`` for an unknown game."""
        with self._read() as conn:
            row = conn.execute(_TOKEN_HASHES, {"game_id": game_id}).one_or_none()
        return None if row is None else tuple(row)

    # -- the log ----------------------------------------------------------------------------

    def append(self, game_id: str, seq: int, event: Mapping[str, Any], wall_ms: int) -> None:
        """Write ``event`` at position ``seq`` of the game's log and commit.

        ``event`` is stored as ``Event.from_dict(event).to_dict()``. On PostgreSQL the same
        transaction announces ``"<game_id>:<seq>"`` on :data:`CHANNEL`, so the other servers
        hear of the event exactly when it is committed.

        :raises ArbitroError: an event that ``Event.from_dict`` refuses (its own error).
        :raises StoreConflict: ``seq`` is not the next position of the log, or another writer
            took it first.
        :raises UnknownGame:
        """
        seq = _whole(seq, "seq")
        wall_ms = _whole(wall_ms, "wall_ms")
        text = _json(Event.from_dict(event).to_dict(), "event")
        try:
            with self._write() as conn:
                self._insert(conn, game_id, seq, text, wall_ms)
        except IntegrityError:
            # The primary key (game_id, seq): a writer that read the same next position
            # committed first (on PostgreSQL the check above cannot see its uncommitted row).
            raise StoreConflict(
                N_("Position {seq} of game {game_id!r} was taken by another writer."),
                game_id=game_id,
                seq=seq,
            ) from None

    def append_many(
        self, items: Sequence[tuple[str, int, Mapping[str, Any], int]]
    ) -> list[ArbitroError | None]:
        """:meth:`append` for several events, of any games, in one transaction (one commit:
        a server under load writes its pending events together). The result lists, in order,
        ``None`` for an event written or the error that refused it (as :meth:`append` raises
        them). Everything written is committed before this returns.

        The next positions of all the games are read with one query and the rows inserted
        with one statement; only when another writer took a position meanwhile are the events
        written one by one, each in its own savepoint.
        """
        results: list[ArbitroError | None] = [None] * len(items)
        valid: list[tuple[int, str, int, str, int]] = []
        for index, (game_id, raw_seq, event, raw_wall) in enumerate(items):
            try:
                seq = _whole(raw_seq, "seq")
                wall_ms = _whole(raw_wall, "wall_ms")
                valid.append(
                    (index, game_id, seq, _json(Event.from_dict(event).to_dict(), "event"), wall_ms)
                )
            except ArbitroError as error:
                results[index] = error
        if not valid:
            return results
        if not self._postgresql and self._append_next(valid):
            return results
        with self._write() as conn:
            ids = sorted({game_id for _, game_id, _, _, _ in valid})
            last = (
                select(EventRow.game_id, func.max(EventRow.seq))
                .where(EventRow.game_id.in_(ids))
                .group_by(EventRow.game_id)
            )
            known = {row[0] for row in conn.execute(select(GameRow.id).where(GameRow.id.in_(ids)))}
            nexts = dict.fromkeys(known, 0)
            nexts.update({row[0]: int(row[1]) + 1 for row in conn.execute(last)})
            rows: list[tuple[int, str, int, str, int]] = []
            for index, game_id, seq, text, wall_ms in valid:
                expected = nexts.get(game_id)
                if expected is None:
                    results[index] = UnknownGame(
                        N_("No game has the id {game_id!r}."), game_id=game_id
                    )
                elif seq != expected:
                    results[index] = StoreConflict(
                        N_("Position {seq} of game {game_id!r} is not the next one ({expected})."),
                        game_id=game_id,
                        seq=seq,
                        expected=expected,
                    )
                else:
                    rows.append((index, game_id, seq, text, wall_ms))
                    nexts[game_id] = seq + 1
            if not rows:
                return results
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(EventRow),
                        [
                            {"game_id": g, "seq": q, "event": t, "wall_ms": w}
                            for _, g, q, t, w in rows
                        ],
                    )
                    if self._postgresql:
                        for _, game_id, seq, _, _ in rows:
                            conn.execute(select(func.pg_notify(CHANNEL, f"{game_id}:{seq}")))
            except IntegrityError:
                # Another server process took some of these positions: one by one.
                for index, game_id, seq, text, wall_ms in rows:
                    try:
                        with conn.begin_nested():
                            self._insert(conn, game_id, seq, text, wall_ms)
                    except IntegrityError:
                        results[index] = StoreConflict(
                            N_("Position {seq} of game {game_id!r} was taken by another writer."),
                            game_id=game_id,
                            seq=seq,
                        )
                    except ArbitroError as error:
                        results[index] = error
        return results

    def _append_next(self, rows: Sequence[tuple[int, str, int, str, int]]) -> bool:
        """SQLite: write all ``rows`` in one transaction if each is the next position of its
        game, else write nothing and return False (the careful path then says which is not).

        Each row is inserted only where the position before it exists (or it is the first),
        and the database's keys refuse a position taken or a game unknown: what SQLite counts
        as inserted tells whether all went in. Straight on the driver's connection: a server
        under load commits a few events at a time, and SQLAlchemy's statement machinery would
        cost more than SQLite's own work."""
        raw = self._engine.raw_connection()
        try:
            cursor = raw.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                try:
                    cursor.executemany(
                        _INSERT_NEXT, [(g, q, t, w, q, g, q - 1) for _, g, q, t, w in rows]
                    )
                    written = cursor.rowcount == len(rows)
                except self._engine.dialect.loaded_dbapi.IntegrityError:
                    written = False
                cursor.execute("COMMIT" if written else "ROLLBACK")
                return written
            finally:
                cursor.close()
        finally:
            raw.close()  # back to the pool, which rolls back whatever was left open

    def _insert(self, conn: Connection, game_id: str, seq: int, text: str, wall_ms: int) -> None:
        expected = self._next_seq(conn, game_id)
        if expected is None:
            raise UnknownGame(N_("No game has the id {game_id!r}."), game_id=game_id)
        if seq != expected:
            raise StoreConflict(
                N_("Position {seq} of game {game_id!r} is not the next one ({expected})."),
                game_id=game_id,
                seq=seq,
                expected=expected,
            )
        conn.execute(insert(EventRow).values(game_id=game_id, seq=seq, event=text, wall_ms=wall_ms))
        if self._postgresql:
            # Sent at COMMIT, and only if it commits.
            conn.execute(select(func.pg_notify(CHANNEL, f"{game_id}:{seq}")))

    def _next_seq(self, conn: Connection, game_id: str) -> int | None:
        """The next position of the game's log; ``None`` for an unknown game."""
        last = select(func.max(EventRow.seq)).where(EventRow.game_id == game_id).scalar_subquery()
        row = conn.execute(select(GameRow.id, last).where(GameRow.id == game_id)).one_or_none()
        if row is None:
            return None
        return 0 if row[1] is None else int(row[1]) + 1

    def events(self, game_id: str, start: int = 0) -> list[StoredEvent]:
        """The game's events from position ``start`` on (what a notification announced).

        :raises UnknownGame:
        """
        with self._read() as conn:
            if conn.scalar(select(GameRow.id).where(GameRow.id == game_id)) is None:
                raise UnknownGame(N_("No game has the id {game_id!r}."), game_id=game_id)
            return self._events(conn, game_id, start)

    def _events(self, conn: Connection, game_id: str, start: int) -> list[StoredEvent]:
        rows = conn.execute(
            select(EventRow.seq, EventRow.event, EventRow.wall_ms)
            .where(EventRow.game_id == game_id, EventRow.seq >= start)
            .order_by(EventRow.seq)
        ).all()
        for expected, row in enumerate(rows, start):
            # append never leaves a gap; a log with one was written by something else, and
            # replaying it would rebuild a different game.
            if row.seq != expected:
                raise StoreError(
                    N_("The log of game {game_id!r} has no event at position {seq}."),
                    code="corrupt-log",
                    game_id=game_id,
                    seq=expected,
                )
        return [StoredEvent(json.loads(row.event), row.wall_ms) for row in rows]

    def load(self, game_id: str) -> StoredGame:
        """The game and its whole log, read in one transaction.

        :raises UnknownGame:
        """
        with self._read() as conn:
            game = conn.execute(
                select(
                    GameRow.id,
                    GameRow.setup,
                    GameRow.created_at,
                    GameRow.started_wall_ms,
                    GameRow.finished,
                    GameRow.spectator_id,
                    *_HASH_COLUMNS.values(),
                ).where(GameRow.id == game_id)
            ).one_or_none()
            if game is None:
                raise UnknownGame(N_("No game has the id {game_id!r}."), game_id=game_id)
            events = self._events(conn, game_id, 0)
        created = game.created_at
        if created.tzinfo is None:
            # SQLite keeps no time zone; the store writes UTC only.
            created = created.replace(tzinfo=UTC)
        hashes = {
            role: value
            for role, value in zip(
                ROLES,
                (game.white_token_hash, game.black_token_hash, game.arbiter_token_hash),
                strict=True,
            )
            if value is not None
        }
        return StoredGame(
            id=game.id,
            setup=json.loads(game.setup),
            events=events,
            created_at=created,
            started_wall_ms=game.started_wall_ms,
            finished=bool(game.finished),
            spectator_id=game.spectator_id,
            token_hashes=hashes,
        )

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the pool's connections (the store can still be used: it reopens them)."""
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
