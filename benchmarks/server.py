"""The web application under load: N games played at once over WebSockets on loopback.

Run: ``.venv/bin/python benchmarks/server.py [--games 1,50,200] [--seconds 20] [--database URL]``

For each N, a fresh server process (SQLite in a temporary folder unless ``--database``) serves N
games; each game has two WebSocket clients (White and Black) that play a fixed 58-ply game, one
move as soon as the previous one has reached them. Printed per N: moves per second, and the
p50 / p99 / max time from a move sent by one player to the update showing it at his opponent's
client. Each run is bounded: it stops after ``--seconds`` or when every game has ended. The
clients run in this process, on the same machine as the server: their own work is part of the
figures. By default players answer at once (the server's saturation); ``--think 1`` makes each
player wait a second before moving (a load like N fast games between people).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from servers import LONG_GAME as MOVES
from servers import free_port, start_server


class Player:
    """One WebSocket client: a reader task keeps the number of moves its latest view shows."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.moves = 0
        self.over = False
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.socket:
                message = json.loads(raw)
                if message.get("type") == "state":
                    self.moves = len(message["moves"])
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


async def game(
    port: int, links: dict[str, str], latencies: list[float], deadline: float, think: float
) -> int:
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
        played = 0
        for index, move in enumerate(MOVES):
            mover, other = (white, black) if index % 2 == 0 else (black, white)
            if time.monotonic() > deadline or other.over:
                break
            if think:
                # Players do not all move at the same instant: half to one and a half times.
                await asyncio.sleep(think * random.uniform(0.5, 1.5))
            began = time.perf_counter()
            await mover.socket.send(json.dumps({"id": index + 1, "do": "play", "move": move}))
            if not await other.wait_for(index + 1, deadline):
                break
            latencies.append(time.perf_counter() - began)
            played += 1
        for player in players:
            player.reader.cancel()
        return played


async def run(n: int, port: int, seconds: float, think: float) -> tuple[int, float, list[float]]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        links = []
        for _ in range(n):
            response = await client.post("/api/games", json={"time_control": "90+30"})
            links.append(response.json())
    latencies: list[float] = []
    began = time.monotonic()
    deadline = began + seconds
    played = await asyncio.gather(*(game(port, link, latencies, deadline, think) for link in links))
    return sum(played), time.monotonic() - began, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1,50,200", help="comma-separated numbers of games")
    parser.add_argument("--seconds", type=float, default=20.0, help="bound of each run")
    parser.add_argument("--database", default=None, help="default: SQLite in a temporary folder")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a player waits before each move (default 0: as fast as possible)",
    )
    args = parser.parse_args()
    print(f"{'games':>6}{'moves':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for n in (int(part) for part in args.games.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            database = args.database or f"sqlite:///{folder}/bench.db"
            port = free_port()
            server = start_server(database, port)
            try:
                moves, elapsed, latencies = asyncio.run(run(n, port, args.seconds, args.think))
            finally:
                server.kill()
                server.wait()
        ordered = sorted(latencies) or [0.0]
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
        print(
            f"{n:>6}{moves:>8}{moves / elapsed:>10,.0f}{p50:>9.1f}{p99:>9.1f}"
            f"{ordered[-1] * 1000:>9.1f}"
        )


if __name__ == "__main__":
    main()
