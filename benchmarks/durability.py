"""Nothing acknowledged is lost: the server killed (SIGKILL) at random points under a stream of
moves from several clients, and restarted, again and again.

Run: ``.venv/bin/python benchmarks/durability.py [--kills 50] [--clients 4] [--database URL]``
(SQLite in a temporary folder unless ``--database``; for PostgreSQL give a URL such as
``postgresql+psycopg://127.0.0.1/test``: the games are added to that database).

Each client plays the moves of a long game in games of its own over HTTP, alternating White's
and Black's tokens, and keeps every move the server acknowledged (HTTP 200). A separate game,
started and left alone, watches the clocks. Between kills the server runs for a random 0.2 to 1 s;
after each restart every client checks, before going on, what became of the move it had in
flight (kept whole, or not there at all: nothing else is allowed), and the watched game's
running clock must have gone down by the wall time that passed while the server was dead.

At the end every game is read back and checked: each acknowledged move is there, in its place,
once; the log holds the start and one event per move, no more. Printed: the counts, and the
exit status is 1 when anything was lost, duplicated or half-written, or a clock was off by more
than ``--clock-tolerance`` ms.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from servers import LONG_GAME, free_port, start_server

CONTROL = "90+30"  # long enough that no flag falls during a run


@dataclass
class Tally:
    kills: int = 0
    acknowledged: int = 0
    in_flight_kept: int = 0
    in_flight_dropped: int = 0
    refused: int = 0
    anomalies: list[str] = field(default_factory=list)
    clock_errors: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, problem: str) -> None:
        with self.lock:
            self.anomalies.append(problem)


def _token(links: dict[str, str], role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {links[role].split('#', 1)[1]}"}


class Server:
    """The server process, killed and started again on the same database and port."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.up = threading.Event()
        self.process: subprocess.Popen[bytes] = start_server(database, self.port)
        self.up.set()

    def kill(self) -> None:
        self.up.clear()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def start(self) -> None:
        self.process = start_server(self.database, self.port)
        self.up.set()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


class Client(threading.Thread):
    """Plays games move by move; after a failed request, waits for the server and settles what
    became of the move in flight."""

    def __init__(self, server: Server, tally: Tally, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.tally = tally
        self.halt = stop
        self.http = httpx.Client(timeout=10)
        #: Every game this client played: its links and the moves acknowledged, in order.
        self.games: list[tuple[dict[str, str], list[str]]] = []

    def run(self) -> None:
        links: dict[str, str] | None = None
        acked: list[str] = []
        while not self.halt.is_set():
            self.server.up.wait()
            try:
                if links is None or len(acked) == len(LONG_GAME):
                    links, acked = self._new_game(), []
                    if links is None:
                        continue
                    self.games.append((links, acked))
                move = LONG_GAME[len(acked)]
                role = "white" if len(acked) % 2 == 0 else "black"
                response = self.http.post(
                    f"{self.server.base}/api/games/{links['id']}/commands",
                    json={"do": "play", "move": move},
                    headers=_token(links, role),
                )
            except httpx.HTTPError:
                if links is not None and acked is not None:
                    self._settle(links, acked)
                continue
            if response.status_code == 200:
                acked.append(move)
                with self.tally.lock:
                    self.tally.acknowledged += 1
            else:
                with self.tally.lock:
                    self.tally.refused += 1
                self.tally.note(f"{links['id']}: refused {move}: {response.text[:200]}")
                links = None

    def _new_game(self) -> dict[str, str] | None:
        """A new game, started; ``None`` when the server died on the way (a game that was made
        but not started is simply left)."""
        response = self.http.post(f"{self.server.base}/api/games", json={"time_control": CONTROL})
        links: dict[str, str] = response.json()
        started = self.http.post(
            f"{self.server.base}/api/games/{links['id']}/commands",
            json={"do": "start"},
            headers=_token(links, "white"),
        )
        return links if started.status_code == 200 else None

    def _settle(self, links: dict[str, str], acked: list[str]) -> None:
        """The move in flight when the server died is either kept whole or not there."""
        while not self.halt.is_set():
            self.server.up.wait()
            try:
                view = self.http.get(f"{self.server.base}/api/games/{links['id']}").json()
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        else:
            return
        moves = [m["text"] for m in view.get("moves", [])]
        if moves[: len(acked)] != acked:
            self.tally.note(f"{links['id']}: acknowledged moves lost: {acked} vs {moves}")
        if len(moves) == len(acked) + 1 and moves[-1] == LONG_GAME[len(acked)]:
            acked.append(moves[-1])
            with self.tally.lock:
                self.tally.in_flight_kept += 1
        elif len(moves) == len(acked):
            with self.tally.lock:
                self.tally.in_flight_dropped += 1
        else:
            self.tally.note(f"{links['id']}: {len(moves)} moves after a kill, {len(acked)} acked")


def _remaining(http: httpx.Client, base: str, game: str) -> tuple[int, float]:
    """White's remaining time in the watched game, and the wall instant it was read (the middle
    of the request)."""
    sent = time.monotonic()
    state = http.get(f"{base}/api/games/{game}").json()["state"]
    received = time.monotonic()
    return int(state["clock"]["white"]), (sent + received) / 2


def verify(base: str, clients: list[Client], tally: Tally) -> int:
    """Read every game back: each acknowledged move in its place, once; one event per move."""
    checked = 0
    with httpx.Client(timeout=10) as http:
        for client in clients:
            for links, acked in client.games:
                # The arbiter's view: it alone shows the log.
                view = http.get(
                    f"{base}/api/games/{links['id']}", headers=_token(links, "arbiter")
                ).json()
                moves = [m["text"] for m in view["moves"]]
                if moves != acked:
                    tally.note(f"{links['id']}: at the end {moves} != acknowledged {acked}")
                if len(view["log"]) != 1 + len(moves):
                    tally.note(f"{links['id']}: {len(view['log'])} events for {len(moves)} moves")
                checked += 1
    return checked


def run(database: str, kills: int, clients: int, seed: int = 1) -> tuple[Tally, int]:
    """Kill and restart the server ``kills`` times under ``clients`` playing clients."""
    rng = random.Random(seed)
    tally = Tally()
    server = Server(database)
    halt = threading.Event()
    http = httpx.Client(timeout=10)
    try:
        watched = http.post(f"{server.base}/api/games", json={"time_control": CONTROL}).json()
        http.post(
            f"{server.base}/api/games/{watched['id']}/commands",
            json={"do": "start"},
            headers=_token(watched, "white"),
        ).raise_for_status()
        players = [Client(server, tally, halt) for _ in range(clients)]
        for player in players:
            player.start()
        for _ in range(kills):
            time.sleep(rng.uniform(0.2, 1.0))
            before, read_before = _remaining(http, server.base, watched["id"])
            server.kill()
            tally.kills += 1
            time.sleep(rng.uniform(0.05, 0.3))
            server.start()
            after, read_after = _remaining(http, server.base, watched["id"])
            expected = before - round((read_after - read_before) * 1000)
            tally.clock_errors.append(after - expected)
        halt.set()
        server.up.set()
        for player in players:
            player.join(timeout=15)
        checked = verify(server.base, players, tally)
    finally:
        halt.set()
        http.close()
        server.stop()
    return tally, checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=50, help="how many times (default 50)")
    parser.add_argument("--clients", type=int, default=4, help="clients playing (default 4)")
    parser.add_argument("--database", help="a SQLAlchemy URL (default: SQLite in a temp folder)")
    parser.add_argument(
        "--clock-tolerance", type=int, default=500, help="ms a resumed clock may be off"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{folder}/durability.db"
        started = time.monotonic()
        tally, games = run(database, args.kills, args.clients)
        took = time.monotonic() - started
    worst = max((abs(e) for e in tally.clock_errors), default=0)
    print(f"database            {database.split(':', 1)[0]}")
    print(f"kills               {tally.kills} in {took:.0f} s")
    print(f"games checked       {games}")
    print(f"moves acknowledged  {tally.acknowledged} (lost: {len(tally.anomalies)} anomalies)")
    kept, dropped = tally.in_flight_kept, tally.in_flight_dropped
    print(f"moves in flight     {kept} kept whole, {dropped} absent")
    print(f"refused             {tally.refused}")
    print(f"resumed clock error worst {worst} ms over {len(tally.clock_errors)} restarts")
    for problem in tally.anomalies[:20]:
        print(f"  ! {problem}")
    failed = tally.anomalies or tally.refused or worst > args.clock_tolerance
    return 1 if failed else 0


def summary(tally: Tally) -> dict[str, Any]:
    """The counts as a dict (for the tests)."""
    return {
        "kills": tally.kills,
        "acknowledged": tally.acknowledged,
        "kept": tally.in_flight_kept,
        "dropped": tally.in_flight_dropped,
        "refused": tally.refused,
        "anomalies": list(tally.anomalies),
        "worst_clock_error": max((abs(e) for e in tally.clock_errors), default=0),
    }


if __name__ == "__main__":
    sys.exit(main())
