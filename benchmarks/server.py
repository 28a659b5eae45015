"""The web application under load: N games played at once over WebSockets on loopback.

Run: ``.venv/bin/python benchmarks/server.py [--games 1,50,200] [--seconds 20] [--database URL]``

For each N, a fresh server process (SQLite in a temporary folder unless ``--database``) serves N
games; each game has two WebSocket clients (White and Black) that play a fixed 58-ply game, one
move as soon as the previous one has reached them. Printed per N: moves per second, and the
p50 / p99 / max time from a move sent by one player to the update showing it at his opponent's
client. Each run is bounded: it stops after ``--seconds`` or when every game has ended. The
clients run in this process, on the same machine as the server: their own work is part of the
figures. By default players answer at once (the server's saturation); ``--think 1`` makes each
player wait a second before moving (a load like N fast games between people). ``--again`` starts
a new game whenever one ends, so that N games are in play for the whole run. The tables open
one after another, ``--ramp`` seconds apart (default 0.025: 40 a second, 500 tables in 12.5 s),
as games are created before they are played, not hundreds in the same instant; every move of
the run is measured, those of the first seconds too (``--ramp 0`` opens all the tables at
once). Games of one table length end at about the same time: with ``--again`` the new games
open in waves as wide as the ramp.

Also printed: errors (refused commands, lost connections, moves that did not reach the opponent
within 5 seconds, ``LOST``) and the server's memory (resident set, sampled every second) at a
quarter, half, three quarters and the end of the run, to show that it stays flat.

The load of the hardening goal: ``--games 500 --seconds 120 --think 1 --again`` (p99 under
100 ms, no errors, memory flat).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from servers import LONG_GAME as MOVES
from servers import free_port, start_server

T = TypeVar("T")

#: Seconds after which a move that has not reached the opponent counts as lost.
LOST = 5.0


class Player:
    """One WebSocket client: a reader task keeps the number of moves its latest view shows."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.moves = 0
        self.over = False
        self.refused = 0
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.socket:
                message = json.loads(raw)
                if message.get("type") == "reply" and not message.get("ok"):
                    self.refused += 1
                if message.get("type") == "state":
                    self.moves = message.get("moves_from", 0) + len(message["moves"])
                    self.over = message["state"]["result"] != "*"
                    self.changed.set()

    async def wait_for(self, moves: int, deadline: float) -> bool:
        while self.moves < moves and not self.over:
            self.changed.clear()
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                return False
            try:
                await asyncio.wait_for(self.changed.wait(), timeout)
            except TimeoutError:
                return False
        return self.moves >= moves


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: int = 0
    memory: list[tuple[float, int]] = field(default_factory=list)


async def game(
    port: int, links: dict[str, str], figures: Figures, deadline: float, think: float
) -> None:
    """One game between two WebSocket clients, move by move until it ends or the run does."""
    url = f"ws://127.0.0.1:{port}/ws/{links['id']}"
    async with (
        connect(url, compression=None) as white_socket,
        connect(url, compression=None) as black_socket,
    ):
        players = []
        for socket, role in ((white_socket, "white"), (black_socket, "black")):
            await socket.send(json.dumps({"token": links[role].split("#", 1)[1]}))
            players.append(Player(socket))
        white, black = players
        await white.socket.send(json.dumps({"id": 0, "do": "start"}))
        for index, move in enumerate(MOVES):
            mover, other = (white, black) if index % 2 == 0 else (black, white)
            if time.monotonic() > deadline or other.over:
                break
            if think:
                # Players do not all move at the same instant: half to one and a half times.
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
            began = time.perf_counter()
            sent = time.monotonic()
            await mover.socket.send(json.dumps({"id": index + 1, "do": "play", "move": move}))
            if not await other.wait_for(index + 1, deadline):
                # The game ended without the move, or the move was lost (it had LOST seconds
                # before the end of the run); one sent just before the end is only cut off.
                if other.over or deadline - sent > LOST:
                    figures.errors += 1
                break
            figures.latencies.append(time.perf_counter() - began)
            figures.moves += 1
        for player in players:
            player.reader.cancel()
            figures.errors += player.refused
        figures.games += 1


async def table(
    port: int,
    client: httpx.AsyncClient,
    figures: Figures,
    deadline: float,
    *,
    think: float,
    again: bool,
    opens: float = 0.0,
) -> None:
    """One table, open ``opens`` seconds after the run starts: a game, and (with ``again``) a
    new one each time a game ends."""
    await asyncio.sleep(opens)
    while True:
        try:
            links = (await client.post("/api/games", json={"time_control": "90+30"})).json()
            await game(port, links, figures, deadline, think)
        except (OSError, httpx.HTTPError, WebSocketException):
            figures.errors += 1
        if not again or time.monotonic() >= deadline:
            return


def _rss(pid: int) -> int:
    """The resident set of process ``pid`` in kB (0 where /proc is not there)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def set_apart() -> None:
    """As the server does: what has lived ten seconds is kept out of the cycle collector's
    passes (a run is too short for the garbage cycles among them to matter)."""
    while True:
        await asyncio.sleep(10)
        gc.freeze()


async def sample_memory(pid: int, figures: Figures, began: float, deadline: float) -> None:
    while time.monotonic() < deadline:
        figures.memory.append((time.monotonic() - began, _rss(pid)))
        await asyncio.sleep(1.0)


async def run(
    n: int, port: int, pid: int, seconds: float, *, think: float, again: bool, ramp: float
) -> tuple[Figures, float]:
    figures = Figures()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=30, limits=limits
    ) as client:
        began = time.monotonic()
        deadline = began + seconds
        sampler = asyncio.create_task(sample_memory(pid, figures, began, deadline))
        setting_apart = asyncio.create_task(set_apart())
        await asyncio.gather(
            *(
                table(port, client, figures, deadline, think=think, again=again, opens=i * ramp)
                for i in range(n)
            )
        )
        sampler.cancel()
        setting_apart.cancel()
    return figures, time.monotonic() - began


def _memory_line(figures: Figures, seconds: float) -> str:
    if not figures.memory:
        return "memory: not measured"
    points = []
    for fraction in (0.25, 0.5, 0.75, 1.0):
        at = seconds * fraction
        kb = min(figures.memory, key=lambda sample: abs(sample[0] - at))[1]
        points.append(f"{kb / 1024:.0f}")
    return "server memory (MB) at 1/4, 1/2, 3/4, end: " + " / ".join(points)


def _event_loop_run(work: Coroutine[Any, Any, T]) -> T:
    """Run the clients on uvloop where it is installed (uvicorn's own event loop, as the
    server's), with the cycle collector kept from pausing them long (see :func:`set_apart`):
    the clients' own work is part of every figure, and should weigh as little as it can."""
    gc.collect()
    gc.freeze()
    try:
        import uvloop  # noqa: PLC0415 - optional
    except ImportError:
        return asyncio.run(work)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,50,200", help="comma-separated numbers of games")
    parser.add_argument("--seconds", type=float, default=20.0, help="bound of each run")
    parser.add_argument("--database", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument(
        "--again", action="store_true", help="start a new game at each table when one ends"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.025,
        help="seconds between the opening of two tables (default 0.025)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player waits before each move (default 0: as fast as possible)",
    )
    args = parser.parse_args()
    print(
        f"{'games':>6}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'errors':>8}"
    )
    notes = []
    for n in (int(part) for part in args.games.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            database = args.database or f"sqlite:///{folder}/bench.db"
            port = free_port()
            server = start_server(database, port)
            try:
                figures, elapsed = _event_loop_run(
                    run(
                        n,
                        port,
                        server.pid,
                        args.seconds,
                        think=args.think,
                        again=args.again,
                        ramp=args.ramp,
                    )
                )
            finally:
                server.kill()
                server.wait()
        ordered = sorted(figures.latencies) or [0.0]
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        print(
            f"{n:>6}{figures.moves:>8}{figures.moves / elapsed:>10,.0f}{p50:>9.1f}{p99:>9.1f}"
            f"{ordered[-1] * 1000:>9.1f}{figures.errors:>8}"
        )
        notes.append(f"{n} games ({figures.games} played): {_memory_line(figures, elapsed)}")
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
