"""Two clients at the same instant: exactly one wins, the other is refused, typed; the log has
every accepted event once and nothing else.

Real server processes (``arbitro serve``), real connections (HTTP and WebSocket), real threads
released together by a barrier, many rounds: two devices of the player to move send his move,
two press the clock after a move on a wooden board, two arbiter consoles stop and restart the
clocks. On SQLite, on PostgreSQL, and on two server processes sharing one PostgreSQL database
with each racer on a different process (the loser's process finds the position taken in the
store, reads the log again and refuses the command on the new position).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from servers import LONG_GAME, free_port, start_server

#: What the loser of a race may be told: every one a 409 (HTTP) or a refused reply (WebSocket).
LOSING_CODES = {"not-your-turn", "move-already-made", "conflict", "clocks-stopped",
                "clocks-running"}  # fmt: skip
PLIES = 24  # per race of moves: 12 per connection, far within the rate limit


@dataclass(frozen=True)
class Outcome:
    ok: bool
    code: str | None
    status: int  # HTTP status; 0 over a WebSocket


class Servers:
    """One or two server processes on one database, and the URL of each."""

    def __init__(self, database: str, count: int, folder: Path) -> None:
        self.ports = [free_port() for _ in range(count)]
        self.logs = [folder / f"server-{port}.log" for port in self.ports]
        # One after the other: the first migrates the database, the second finds it ready
        # (started together they wait on each other's migration, and take longer).
        self.processes: list[Any] = []
        try:
            for port, log in zip(self.ports, self.logs, strict=True):
                self.processes.append(start_server(database, port, output=log))
        except BaseException:
            self.stop()
            raise
        self.bases = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.sockets = [f"ws://127.0.0.1:{port}" for port in self.ports]

    def base(self, index: int) -> str:
        return self.bases[index % len(self.bases)]

    def socket(self, index: int) -> str:
        return self.sockets[index % len(self.sockets)]

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    from test_store import _postgres_url  # noqa: PLC0415 - the store tests' fresh schema

    yield from _postgres_url()


# One server on SQLite; two on one PostgreSQL database (a race there is a race between two
# processes, the strongest form: each racer's process may find the position taken).
@pytest.fixture(scope="module", params=["sqlite", "postgresql, two processes"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Servers]:
    folder = tmp_path_factory.mktemp("race")
    if request.param == "sqlite":
        database = f"sqlite:///{folder}/race.db"
    else:
        database = request.getfixturevalue("postgres_url")
    running = Servers(database, 2 if "two" in request.param else 1, folder)
    try:
        yield running
    finally:
        running.stop()
    for log in running.logs:  # no server error behind a typed answer
        text = log.read_text("utf-8", "replace")
        assert "Traceback" not in text, text


def race(actions: list[Callable[[], Outcome]]) -> list[Outcome]:
    """Run the actions in threads released at the same instant; their outcomes, in order."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[Outcome | None] = [None] * len(actions)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = actions[index]()
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert all(outcome is not None for outcome in outcomes)
    return [outcome for outcome in outcomes if outcome is not None]


def one_wins(outcomes: list[Outcome]) -> int:
    """The index of the only winner; every other outcome a typed refusal."""
    winners = [index for index, outcome in enumerate(outcomes) if outcome.ok]
    assert len(winners) == 1, outcomes
    for outcome in outcomes:
        if not outcome.ok:
            assert outcome.code in LOSING_CODES, outcome
            assert outcome.status in (0, 409), outcome
    return winners[0]


class Game:
    """A game on the servers, with a persistent HTTP client per racer and per server."""

    def __init__(self, servers: Servers, **setup: Any) -> None:
        self.servers = servers
        self.http = [httpx.Client(base_url=base, timeout=20) for base in servers.bases]
        response = self.http[0].post("/api/games", json={"time_control": "90+30", **setup})
        assert response.status_code == 201, response.text
        links = response.json()
        self.id: str = links["id"]
        self.tokens = {role: links[role].split("#", 1)[1] for role in ("white", "black", "arbiter")}
        # Two racers' HTTP clients per server (each keeps its own connection).
        self.racers = [httpx.Client(base_url=servers.base(index), timeout=20) for index in range(2)]
        self.accepted: list[dict[str, Any]] = []

    def close(self) -> None:
        for client in (*self.http, *self.racers):
            client.close()

    def headers(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def post(self, client: httpx.Client, role: str, body: dict[str, Any]) -> Outcome:
        response = client.post(
            f"/api/games/{self.id}/commands", json=body, headers=self.headers(role)
        )
        if response.status_code == 200:
            return Outcome(True, None, 200)
        return Outcome(False, response.json()["error"]["code"], response.status_code)

    def send(self, role: str, body: dict[str, Any]) -> None:
        """One command, not raced; it must be accepted."""
        outcome = self.post(self.racers[0], role, body)
        assert outcome.ok, outcome
        self.accepted.append({"by": role, **body})

    def race_http(self, role: str, body: dict[str, Any]) -> None:
        outcomes = race([lambda c=client: self.post(c, role, body) for client in self.racers])
        one_wins(outcomes)
        self.accepted.append({"by": role, **body})
        self.settle()

    def settle(self) -> None:
        """Every server has heard of every accepted event (a client acts on what it sees)."""
        deadline = time.monotonic() + 10
        for client in self.http:
            while client.get(f"/api/games/{self.id}").json()["seq"] < len(self.accepted):
                assert time.monotonic() < deadline, "a server never heard of an event"
                time.sleep(0.005)

    def check_log(self) -> None:
        """The arbiter's log on every server: the accepted commands, each once, in order."""
        self.settle()
        for client in self.http:
            log = client.get(f"/api/games/{self.id}", headers=self.headers("arbiter")).json()["log"]
            shown = [{k: v for k, v in event.items() if k != "at"} for event in log]
            assert shown == self.accepted


class Device:
    """A WebSocket client: one player's or arbiter's device (closed with ``stack``)."""

    def __init__(self, stack: contextlib.ExitStack, url: str, token: str) -> None:
        self.socket: ClientConnection = stack.enter_context(connect(url, compression=None))
        self.socket.send(json.dumps({"token": token}))
        assert json.loads(self.socket.recv(timeout=10))["type"] == "state"
        self.next_id = 0

    def command(self, body: dict[str, Any]) -> Outcome:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, **body}))
        while True:
            message = json.loads(self.socket.recv(timeout=20))
            if message.get("type") == "reply" and message.get("id") == self.next_id:
                error = message.get("error") or {}
                return Outcome(bool(message["ok"]), error.get("code"), 0)


def test_two_devices_send_the_same_move_at_once_over_http(servers: Servers) -> None:
    game = Game(servers)
    try:
        game.send("arbiter", {"do": "start"})
        for index, move in enumerate(LONG_GAME[:PLIES]):
            game.race_http(("white", "black")[index % 2], {"do": "play", "move": move})
        game.check_log()
    finally:
        game.close()


def test_two_devices_send_the_same_move_at_once_over_websockets(servers: Servers) -> None:
    game = Game(servers)
    with contextlib.ExitStack() as stack:
        stack.callback(game.close)
        devices = {
            role: [
                Device(stack, f"{servers.socket(i)}/ws/{game.id}", game.tokens[role])
                for i in range(2)
            ]
            for role in ("white", "black")
        }
        game.send("arbiter", {"do": "start"})
        for index, move in enumerate(LONG_GAME[:PLIES]):
            role = ("white", "black")[index % 2]
            body = {"do": "play", "move": move}
            outcomes = race([lambda d=device, b=body: d.command(b) for device in devices[role]])
            one_wins(outcomes)
            game.accepted.append({"by": role, **body})
            game.settle()
        game.check_log()


def test_two_presses_of_one_clock_and_two_arbiter_consoles(servers: Servers) -> None:
    """On a wooden board a move is made, then the clock pressed: two presses at once (a
    player's two devices) make one. Two arbiter consoles stopping, then restarting, the
    clocks at once make one stop and one restart."""
    game = Game(servers, board="physical")
    try:
        game.send("arbiter", {"do": "start"})
        for index, move in enumerate(LONG_GAME[:12]):
            role = ("white", "black")[index % 2]
            game.send(role, {"do": "move", "move": move})
            game.settle()
            game.race_http(role, {"do": "press"})
        for _ in range(8):
            game.race_http("arbiter", {"do": "stop-clocks"})
            game.race_http("arbiter", {"do": "restart-clocks"})
        game.check_log()
    finally:
        game.close()
