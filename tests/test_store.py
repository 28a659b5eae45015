"""The event store, on SQLite (a file) and on PostgreSQL (a schema of its own per test).

PostgreSQL is expected at ``postgresql+psycopg://postgres@127.0.0.1:5432/test`` (override with
``ARBITRO_TEST_POSTGRES``); where it cannot be reached its tests are skipped, except in CI
(``CI=true``), where that is a failure.
"""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, make_url, text

import arbitro
from arbitro.errors import ArbitroError
from arbitro.game.engine import Game
from arbitro.game.events import GameSetup
from arbitro.store import (
    EventStore,
    StoreConflict,
    StoreError,
    UnknownGame,
    current,
    hash_token,
    head,
    new_token,
    notifications,
    upgrade,
)
from arbitro.store.db import make_engine
from arbitro.store.models import Base

POSTGRES = os.environ.get(
    "ARBITRO_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
SRC = Path(arbitro.__file__).resolve().parents[1]


def _conninfo() -> dict[str, Any]:
    base = make_url(POSTGRES)
    conninfo = {
        "host": base.host,
        "port": base.port,
        "user": base.username,
        "password": base.password,
        "dbname": base.database,
        "connect_timeout": 3,
    }
    return {k: v for k, v in conninfo.items() if v is not None}


@functools.cache
def _postgres_unreachable() -> str | None:
    """Why PostgreSQL cannot be used (asked once: a dead host would cost each test a timeout)."""
    try:
        psycopg.connect(**_conninfo()).close()
    except psycopg.OperationalError as error:
        first_line = str(error).strip().splitlines()[0]
        return f"PostgreSQL unreachable at {POSTGRES}: {first_line}"
    return None


def _postgres_url() -> Iterator[str]:
    """A URL whose connections work in a fresh schema, dropped afterwards."""
    reason = _postgres_unreachable()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    admin = psycopg.connect(autocommit=True, **_conninfo())
    schema = f"arbitro_test_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield (
                make_url(POSTGRES)
                .update_query_dict({"options": f"-csearch_path={schema}"})
                .render_as_string(hide_password=False)
            )
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty (unmigrated) database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
    else:
        yield from _postgres_url()


@pytest.fixture
def store(url: str) -> Iterator[EventStore]:
    with EventStore(url) as opened:
        yield opened


@pytest.fixture(scope="module")
def sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EventStore]:
    """One SQLite store for every example of a property test (each example makes new games)."""
    with EventStore(f"sqlite:///{tmp_path_factory.mktemp('store') / 'games.db'}") as opened:
        yield opened


def _setup() -> dict[str, Any]:
    return GameSetup.create("fide-2023", "3+2").to_dict()


def _event(at: int, by: str = "arbiter") -> dict[str, Any]:
    return {"at": at, "by": by, "do": "stop-clocks"}


def _rows(store: EventStore) -> list[tuple[Any, ...]]:
    """Every row of every table of the store's database."""
    rows: list[tuple[Any, ...]] = []
    with store._engine.connect() as conn:
        for table in inspect(conn).get_table_names():
            rows.extend(tuple(row) for row in conn.execute(text(f"SELECT * FROM {table}")))
    return rows


# -- migrations -----------------------------------------------------------------------------


def test_migrations_reach_head_and_are_idempotent(url: str) -> None:
    assert current(url) is None
    upgrade(url)
    upgrade(url)
    assert current(url) == head() == "0001"
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            # The hand-written migration makes exactly the tables the models describe.
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, Base.metadata) == []
    finally:
        engine.dispose()


def test_servers_starting_together_migrate_once(url: str) -> None:
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda _: upgrade(url), range(4)))
    assert current(url) == head()


def test_connections_opening_together_on_a_new_sqlite_file_all_open(tmp_path: Path) -> None:
    # Each connection switches the file to WAL; SQLite refused the switch at once, busy timeout
    # or not, to some of the connections racing for a new file (servers starting together).
    def open_one(url: str, barrier: threading.Barrier) -> str:
        engine = make_engine(url)
        barrier.wait()
        try:
            with engine.connect() as connection:
                return str(connection.exec_driver_sql("PRAGMA journal_mode").scalar())
        finally:
            engine.dispose()

    for round_ in range(40):
        url = f"sqlite:///{tmp_path}/race-{round_}.db"
        barrier = threading.Barrier(6)
        with ThreadPoolExecutor(6) as pool:
            modes = list(pool.map(open_one, [url] * 6, [barrier] * 6))
        assert modes == ["wal"] * 6


def test_a_game_created_with_its_start_is_as_one_started_afterwards(store: EventStore) -> None:
    setup = _setup()
    at_once = store.create_game(setup, {}, started_wall_ms=1_767_225_600_000)
    afterwards = store.create_game(setup, {})
    store.set_started(afterwards, 1_767_225_600_000)
    assert store.load(at_once).started_wall_ms == store.load(afterwards).started_wall_ms
    with pytest.raises(StoreError):
        store.create_game(setup, {}, started_wall_ms=-1)


# -- the log --------------------------------------------------------------------------------


def test_a_stored_game_replays_to_the_same_state(store: EventStore) -> None:
    game = Game(GameSetup.create("fide-2023", "3+2"))
    game_id = store.create_game(game.setup.to_dict(), {"white": "w", "black": "b"})
    store.set_started(game_id, 1_767_225_600_000)
    game.start(0)
    for by, move, at in [
        ("white", "e4", 1_000),
        ("black", "e5", 4_000),
        ("white", "Nf3", 6_500),
        ("black", "Nc6", 11_000),
    ]:
        game.play(by, move, at)
    for seq, event in enumerate(game.events):
        store.append(game_id, seq, event.to_dict(), 1_767_225_600_000 + event.at)
    stored = store.load(game_id)
    assert stored.started_wall_ms == 1_767_225_600_000
    assert stored.next_seq == len(game.events) == 5
    assert [e.wall_ms - 1_767_225_600_000 for e in stored.events] == [e.at for e in game.events]
    rebuilt = Game.from_dict({"setup": stored.setup, "events": [e.event for e in stored.events]})
    assert rebuilt.state(20_000) == game.state(20_000)
    assert stored.replay().to_dict() == game.to_dict()
    assert store.events(game_id, 3) == stored.events[3:]


def test_a_refused_append_changes_nothing(store: EventStore) -> None:
    game_id = store.create_game(_setup(), {})
    store.append(game_id, 0, _event(0), 10)
    before = store.load(game_id)
    with pytest.raises(ArbitroError) as refused:
        store.append(game_id, 1, {"by": "white", "do": "resign"}, 20)  # no 'at'
    assert refused.value.code == "bad-event"
    with pytest.raises(StoreError) as not_json:
        store.append(game_id, 1, {**_event(1), "move": object()}, 20)
    assert not_json.value.code == "bad-event"
    for seq in (0, 2, 7):  # taken, a gap, far ahead
        with pytest.raises(StoreConflict) as conflict:
            store.append(game_id, seq, _event(1), 20)
        assert conflict.value.code == "conflict"
    for seq, wall in ((-1, 20), (True, 20), (1, -5)):
        with pytest.raises(StoreError):
            store.append(game_id, seq, _event(1), wall)
    with pytest.raises(UnknownGame) as unknown:
        store.append("no-such-game", 0, _event(0), 10)
    assert unknown.value.code == "unknown-game"
    assert store.load(game_id) == before
    assert not any(row[0] == "no-such-game" for row in _rows(store))


def test_append_many_writes_a_batch_and_refuses_item_by_item(store: EventStore) -> None:
    """The group commit of the web server: events of several games in one transaction; each
    refused event is reported and changes nothing, the others are written."""
    first = store.create_game(_setup(), {})
    second = store.create_game(_setup(), {})
    results = store.append_many(
        [
            (first, 0, _event(0), 10),
            (second, 0, _event(0), 11),
            (first, 1, _event(1), 12),
            (first, 5, _event(5), 13),  # a gap
            ("no-such-game", 0, _event(0), 14),
            (second, 1, {"by": "white"}, 15),  # not an event
            (second, 1, _event(1), 16),
        ]
    )
    assert [None if r is None else r.code for r in results] == [
        None,
        None,
        None,
        "conflict",
        "unknown-game",
        "bad-event",
        None,
    ]
    assert store.load(first).next_seq == 2 and store.load(second).next_seq == 2
    # A position taken meanwhile (as by another server process) is a conflict for that event.
    again = store.append_many([(first, 1, _event(1), 20), (second, 2, _event(2), 21)])
    assert [None if r is None else r.code for r in again] == ["conflict", None]
    assert store.append_many([]) == []


@settings(max_examples=40, deadline=None)
@given(
    batches=st.lists(
        st.lists(st.tuples(st.integers(0, 2), st.integers(-1, 4)), min_size=1, max_size=6),
        min_size=1,
        max_size=5,
    )
)
def test_append_many_writes_exactly_the_next_positions(
    sqlite_store: EventStore, batches: list[list[tuple[int, int]]]
) -> None:
    """Batches of (game, position): an event is written exactly when its position is the next
    one of its game at its turn in the batch (SQLite writes a batch of only such events in one
    statement, and any other batch event by event); a refused one changes nothing."""
    games = [sqlite_store.create_game(_setup(), {}) for _ in range(2)] + ["no-such-game"]
    model = dict.fromkeys(games[:2], 0)
    for batch in batches:
        expected: list[str | None] = []
        for game, seq in ((games[g], q) for g, q in batch):
            if seq < 0:
                expected.append("bad-argument")
            elif game not in model:
                expected.append("unknown-game")
            elif seq != model[game]:
                expected.append("conflict")
            else:
                expected.append(None)
                model[game] += 1
        items = [(games[g], q, _event(max(q, 0)), 10) for g, q in batch]
        results = sqlite_store.append_many(items)
        assert [None if r is None else r.code for r in results] == expected
    for game in games[:2]:
        assert sqlite_store.load(game).next_seq == model[game]


def test_a_refused_game_is_not_written(store: EventStore) -> None:
    with pytest.raises(ArbitroError):
        store.create_game({**_setup(), "edition": "no-such-edition"}, {})
    for tokens in ({"referee": "x"}, {"white": ""}, {"white": "same", "black": "same"}):
        with pytest.raises(StoreError) as refused:
            store.create_game(_setup(), tokens)
        assert refused.value.code == "bad-token"
    with pytest.raises(StoreError):
        store.create_game(_setup(), {}, spectator_id="x" * 65)
    assert store.unfinished() == []
    taken = store.create_game(_setup(), {}, spectator_id="watch-me")
    with pytest.raises(StoreConflict):
        store.create_game(_setup(), {}, spectator_id="watch-me")
    assert store.unfinished() == [taken]
    with pytest.raises(UnknownGame):
        store.load("no-such-game")
    with pytest.raises(UnknownGame):
        store.events("no-such-game")


def test_the_primary_key_stops_a_writer_with_a_stale_position(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a writer sees when another one commits between its check and its insert.
    game_id = store.create_game(_setup(), {})
    store.append(game_id, 0, _event(0), 10)
    monkeypatch.setattr(store, "_next_seq", lambda conn, game: 0)
    with pytest.raises(StoreConflict):
        store.append(game_id, 0, _event(5, "white"), 20)
    monkeypatch.undo()
    assert store.load(game_id).events == [(_event(0), 10)]


def test_concurrent_appends_at_one_position_one_wins(store: EventStore, url: str) -> None:
    """Two writers race for each position: two threads of one store (two connections of its
    pool), then two stores (two engines, as two server processes would be)."""
    other = EventStore(url, migrate=False)
    game_id = store.create_game(_setup(), {})
    winners: list[str] = []
    with ThreadPoolExecutor(2) as pool:
        for seq in range(40):
            writers = (store, store) if seq % 2 else (store, other)
            barrier = threading.Barrier(2)

            def write(writer: EventStore, by: str, seq: int = seq, barrier: Any = barrier) -> str:
                barrier.wait()
                try:
                    writer.append(game_id, seq, _event(seq, by), seq)
                except StoreConflict:
                    return "conflict"
                return by

            results = list(pool.map(write, writers, ("white", "black")))
            assert results.count("conflict") == 1, results
            winners.append(next(r for r in results if r != "conflict"))
    other.close()
    events = store.load(game_id).events
    assert [e.event for e in events] == [_event(seq, by) for seq, by in enumerate(winners)]


# -- games ----------------------------------------------------------------------------------


def test_tokens_are_stored_hashed_only(store: EventStore, url: str) -> None:
    tokens = {role: new_token() for role in ("white", "black", "arbiter")}
    game_id = store.create_game(_setup(), tokens)
    other = store.create_game(_setup(), {"white": new_token()})
    for role, token in tokens.items():
        assert store.role_for(game_id, token) == role
        assert store.role_for(other, token) is None
    assert store.role_for(game_id, "not-a-token") is None
    assert store.role_for(game_id, "") is None
    assert store.role_for("no-such-game", tokens["white"]) is None
    stored = store.load(game_id)
    assert stored.token_hashes == {role: hash_token(token) for role, token in tokens.items()}
    assert store.load(other).token_hashes.keys() == {"white"}
    store.append(game_id, 0, _event(0), 10)
    everything = repr(_rows(store))
    assert not any(token in everything for token in tokens.values())
    if url.startswith("sqlite"):
        store.close()
        path = Path(make_url(url).database or "")
        for file in path.parent.glob(path.name + "*"):  # the database, its WAL and shm
            data = file.read_bytes()
            assert not any(token.encode() in data for token in tokens.values())


def test_unfinished_spectators_and_start(store: EventStore) -> None:
    first = store.create_game(_setup(), {})
    second = store.create_game(_setup(), {}, spectator_id="board-7")
    assert store.unfinished() == [first, second]
    store.mark_finished(first)
    store.mark_finished(first)
    assert store.unfinished() == [second]
    assert store.load(first).finished
    assert not store.load(second).finished
    assert store.game_for_spectator("board-7") == second
    assert store.game_for_spectator(store.load(first).spectator_id) == first
    assert store.game_for_spectator("nobody") is None
    assert store.load(second).started_wall_ms is None
    store.set_started(second, 1_767_225_600_000)
    assert store.load(second).started_wall_ms == 1_767_225_600_000
    with pytest.raises(UnknownGame):
        store.mark_finished("no-such-game")
    with pytest.raises(UnknownGame):
        store.set_started("no-such-game", 0)


# -- durability -----------------------------------------------------------------------------

WRITER = """
import sys
from arbitro.store import EventStore

store = EventStore(sys.argv[1], migrate=False)
for seq in range(100_000):
    store.append(sys.argv[2], seq, {"at": seq, "by": "arbiter", "do": "stop-clocks"}, seq)
    print(seq, flush=True)  # the acknowledgement: only after append returned
"""


def test_acknowledged_events_survive_a_killed_writer(store: EventStore, url: str) -> None:
    game_id = store.create_game(_setup(), {})
    store.close()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
    }
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, url, game_id], stdout=subprocess.PIPE, text=True, env=env
    )
    assert writer.stdout is not None
    acknowledged: list[int] = []
    try:
        while len(acknowledged) < 40:
            line = writer.stdout.readline()
            assert line, f"the writer stopped early (exit code {writer.poll()})"
            acknowledged.append(int(line))
    finally:
        writer.send_signal(signal.SIGKILL)
        rest, _ = writer.communicate(timeout=10)
    # Whole lines only: a line cut by the kill was not an acknowledgement.
    acknowledged += [int(line) for line in rest.splitlines(keepends=True) if line.endswith("\n")]
    assert writer.returncode == -signal.SIGKILL
    with EventStore(url) as reopened:
        events = reopened.load(game_id).events
    assert len(events) >= len(acknowledged)
    assert acknowledged == list(range(len(acknowledged)))
    assert events == [(_event(seq), seq) for seq in range(len(events))]


# -- notifications --------------------------------------------------------------------------


def test_notifications_announce_appends_from_another_connection(
    store: EventStore, url: str
) -> None:
    if not url.startswith("postgresql"):

        async def first() -> tuple[str, int]:
            return await anext(notifications(url))

        with pytest.raises(StoreError) as refused:
            asyncio.run(first())
        assert refused.value.code == "unsupported"
        return
    game_id = store.create_game(_setup(), {})

    async def hear() -> list[int]:
        ready = asyncio.Event()
        stream = notifications(url, ready=ready)

        async def mine() -> list[int]:
            heard = []
            async for announced, seq in stream:
                if announced == game_id:  # other test runs may share the database
                    heard.append(seq)
                    if seq == 1:
                        return heard
            return heard

        listener = asyncio.create_task(mine())
        await asyncio.wait_for(ready.wait(), 5)
        with EventStore(url, migrate=False) as writer:
            await asyncio.to_thread(writer.append, game_id, 0, _event(0), 10)
            with pytest.raises(StoreConflict):  # refused: announces nothing
                await asyncio.to_thread(writer.append, game_id, 5, _event(1), 20)
            await asyncio.to_thread(writer.append, game_id, 1, _event(1), 20)
        try:
            return await asyncio.wait_for(listener, 5)
        finally:
            await stream.aclose()

    assert asyncio.run(hear()) == [0, 1]
