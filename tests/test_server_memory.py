"""A server's objects are freed without the cycle collector.

``arbitro serve`` sets apart from the cycle collector whatever has lived ten seconds (short
pauses at hundreds of games); an object set apart is still freed when its last reference goes,
but a reference cycle among such objects would wait for the full pass every ten minutes. So a
game, its live copy and a connection that became a WebSocket must leave no cycle behind.
"""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from collections.abc import Iterator
from typing import Any

import chess
import pytest

from arbitro.cli.serve import _http_protocol
from arbitro.game import Event, Game, GameSetup
from arbitro.web.live import Hub, LiveGame


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _played(plies: int) -> Game:
    game = Game(GameSetup.create("fide-2023", "3+2"))
    game.apply(Event.from_dict({"at": 0, "by": "white", "do": "start"}))
    rng = random.Random(7)
    at = 0
    for _ in range(plies):
        board = game.board
        moves = list(board.legal_moves)
        if not moves or game.outcome(at) is not None:
            break
        at += 300
        by = "white" if board.turn == chess.WHITE else "black"
        game.apply(Event.from_dict({"at": at, "by": by, "do": "play", "move": moves[0].uci()}))
        if rng.random() < 0.1:
            game.apply(Event.from_dict({"at": at, "by": by, "do": "offer-draw"}))
    return game


def test_a_game_is_freed_by_its_last_reference(no_collector: None) -> None:
    game = _played(40)
    game.state(game.now)
    game.claimable()
    gone = weakref.ref(game)
    del game
    assert gone() is None


def test_a_live_game_with_its_views_is_freed_by_its_last_reference(no_collector: None) -> None:
    live = LiveGame("g", _played(30), "s", 0.0)
    hub = Hub(None)  # type: ignore[arg-type] - views need no store
    for role in ("white", "black", "arbiter", None):
        hub.view_text(live, role)
    gone, game_gone = weakref.ref(live), weakref.ref(live.game)
    del live
    assert gone() is None and game_gone() is None


class _Transport(asyncio.Transport):
    """What uvicorn's protocols write to, kept in memory."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None
        self.closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def close(self) -> None:
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_a_connection_upgraded_to_a_websocket_leaves_no_cycle(no_collector: None) -> None:
    from uvicorn.config import Config  # noqa: PLC0415
    from uvicorn.server import ServerState  # noqa: PLC0415

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()

    async def upgrade() -> tuple[weakref.ref[Any], _Transport]:
        config = Config(app, ws="websockets-sansio", lifespan="off")
        config.load()
        protocol = _http_protocol()(config=config, server_state=ServerState(), app_state={})
        transport = _Transport()
        protocol.connection_made(transport)
        protocol.data_received(
            b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        return weakref.ref(protocol), transport

    gone, transport = asyncio.run(upgrade())
    assert transport.protocol is not None  # the connection is now the WebSocket's
    assert gone() is None
