"""The web application's API and WebSocket, and a server killed mid-game and restarted."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from arbitro.web.app import create_app
from servers import free_port, start_server
from webclient import new_game, token


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/web.db")) as test_client:
        yield test_client


def command(client: TestClient, links: dict[str, str], role: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/games/{links['id']}/commands", json=body, headers=token(links, role))


def test_create_a_game_and_its_links(client: TestClient) -> None:
    links = new_game(client)
    assert {"id", "white", "black", "arbiter", "spectator"} <= set(links)
    secrets = {links[role].split("#", 1)[1] for role in ("white", "black", "arbiter")}
    assert len(secrets) == 3 and all(len(s) >= 32 for s in secrets)
    view = client.get(f"/api/games/{links['id']}").json()
    assert view["role"] == "spectator" and view["setup"]["white"] == "Ana"
    assert view["setup"]["kind"] == "blitz" and view["state"]["result"] == "*"
    assert view["spectator"] is None  # only the arbiter sees the spectator link
    text = json.dumps(view)
    assert not any(secret in text for secret in secrets)


def test_a_bad_game_is_refused_with_the_reason(client: TestClient) -> None:
    response = client.post("/api/games?lang=es", json={"time_control": "tres minutos"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad-time-control"


@pytest.mark.law("6.2.1")
def test_commands_play_a_game_and_refusals_change_nothing(client: TestClient) -> None:
    links = new_game(client)
    assert command(client, links, "white", do="start").status_code == 200
    played = command(client, links, "white", do="play", move="e4").json()
    assert played["moves"][0]["text"] == "e4" and played["state"]["to_move"] == "black"
    before = client.get(f"/api/games/{links['id']}").json()
    refused = client.post(
        f"/api/games/{links['id']}/commands?lang=es",
        json={"do": "play", "move": "Ke7"},
        headers=token(links, "black"),
    )
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "illegal-move" and error["article"] == "3.10.1"
    assert "No hay rey" in error["message"]
    assert command(client, links, "white", do="play", move="d4").json()["error"]["code"] == (
        "not-your-turn"
    )
    after = client.get(f"/api/games/{links['id']}").json()
    assert after["seq"] == before["seq"] and after["log"] == before["log"]
    # Roles and tokens: a player cannot act as the arbiter, a spectator not at all.
    assert command(client, links, "black", do="arbiter", action="add-time").status_code == 403
    anonymous = client.post(f"/api/games/{links['id']}/commands", json={"do": "resign"})
    assert anonymous.status_code == 403
    wrong = client.post(
        f"/api/games/{links['id']}/commands",
        json={"do": "resign"},
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert wrong.status_code == 403
    assert client.get("/api/games/nope").status_code == 404


@pytest.mark.law("9.1.2")
def test_draw_offer_declined_then_resignation_and_downloads(client: TestClient) -> None:
    links = new_game(client)
    command(client, links, "white", do="start")
    command(client, links, "white", do="play", move="e4")
    command(client, links, "white", do="offer-draw")
    view = command(client, links, "black", do="decline-draw").json()
    assert view["state"]["draw_offer"] is None and view["moves"][0]["draw_offer"] is True
    view = command(client, links, "black", do="resign").json()
    assert view["state"]["result"] == "1-0" and view["state"]["termination"] == "resignation"
    pgn = client.get(f"/api/games/{links['id']}/pgn").text
    assert '[Result "1-0"]' in pgn and "[%clk" in pgn and "(=)" in pgn
    sheet = client.get(f"/api/games/{links['id']}/scoresheet").text
    assert "<table" in sheet and "Ana" in sheet


@pytest.mark.law("F1")
def test_moves_are_typed_as_san_uci_or_spoken_words(client: TestClient) -> None:
    links = new_game(client, notation="es")
    command(client, links, "white", do="start")
    view = command(client, links, "white", do="play", move="Caballo Félix tres").json()
    assert view["moves"][0]["text"] == "Cf3"
    view = command(client, links, "black", do="play", move="g8f6").json()
    view = command(client, links, "white", do="play", move="d4").json()
    assert [m["text"] for m in view["moves"]] == ["Cf3", "Cf6", "d4"]


def test_the_arbiter_adds_time(client: TestClient) -> None:
    links = new_game(client)
    command(client, links, "arbiter", do="start")
    view = command(
        client, links, "arbiter", do="arbiter", action="add-time", player="black", seconds=60
    ).json()
    assert view["state"]["clock"]["black"] == 240_000
    assert view["spectator"] and view["role"] == "arbiter"


def test_websocket_players_and_spectators(client: TestClient) -> None:
    links = new_game(client)
    game = links["id"]
    spectator = links["spectator"].rsplit("/", 1)[1]
    with (
        client.websocket_connect(f"/ws/{game}") as white,
        client.websocket_connect(f"/ws/{game}") as black,
        client.websocket_connect("/ws/spectator") as watcher,
    ):
        white.send_json({"token": links["white"].split("#")[1]})
        black.send_json({"token": links["black"].split("#")[1]})
        watcher.send_json({"spectator": spectator})
        assert white.receive_json()["role"] == "white"
        assert black.receive_json()["role"] == "black"
        assert watcher.receive_json()["role"] == "spectator"
        white.send_json({"id": 1, "do": "start"})
        white.send_json({"id": 2, "do": "play", "move": "e4"})
        replies = [white.receive_json() for _ in range(4)]
        assert {"reply"} <= {m["type"] for m in replies}
        # Everyone is told; the last view shows the move.
        seen = _until(black, lambda m: m.get("type") == "state" and m["moves"])
        assert seen["moves"][0]["text"] == "e4"
        assert _until(watcher, lambda m: m.get("type") == "state" and m["moves"])
        watcher.send_json({"id": 3, "do": "resign"})
        reply = _until(watcher, lambda m: m.get("type") == "reply")
        assert reply["ok"] is False and reply["error"]["code"] == "not-allowed"
        black.send_json({"id": 4, "do": "play", "move": "e4"})
        refused = _until(black, lambda m: m.get("type") == "reply")
        assert refused["ok"] is False and refused["error"]["code"] == "illegal-move"
    with client.websocket_connect(f"/ws/{game}") as intruder:
        intruder.send_json({"token": "guess"})
        assert intruder.receive_json()["type"] == "error"


def _until(ws: Any, wanted: Any, limit: int = 10) -> dict[str, Any]:
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("message not received")


# -- a real server, killed and restarted -----------------------------------------------------


def test_a_killed_server_resumes_every_game_with_correct_clocks(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path}/kill.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port)
    try:
        links = httpx.post(f"{base}/api/games", json={"time_control": "5+0"}).json()
        game = links["id"]
        headers = {role: token(links, role) for role in ("white", "black")}
        moves = ["e4", "e5", "Nf3", "Nc6", "Bb5"]
        for index, move in enumerate(["start", *moves]):
            role = "white" if index % 2 == 1 or index == 0 else "black"
            body = {"do": "start"} if move == "start" else {"do": "play", "move": move}
            response = httpx.post(
                f"{base}/api/games/{game}/commands", json=body, headers=headers[role]
            )
            assert response.status_code == 200, response.text
        before = httpx.get(f"{base}/api/games/{game}").json()
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        time.sleep(1.0)  # Black's clock runs while the server is down
        server = start_server(database, port)
        after = httpx.get(f"{base}/api/games/{game}").json()
        assert after["log"] == before["log"] and len(after["moves"]) == len(moves)
        assert after["state"]["to_move"] == "black" and after["state"]["running"]
        spent = before["state"]["clock"]["black"] - after["state"]["clock"]["black"]
        assert 900 <= spent <= 10_000, spent
        assert after["state"]["clock"]["white"] == before["state"]["clock"]["white"]
        # The game goes on.
        response = httpx.post(
            f"{base}/api/games/{game}/commands",
            json={"do": "play", "move": "a6"},
            headers=headers["black"],
        )
        assert response.status_code == 200
    finally:
        server.kill()
        server.wait()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    from test_store import _postgres_url  # noqa: PLC0415 - the store tests' fresh schema

    yield from _postgres_url()


def test_two_server_processes_on_postgresql_share_live_games(postgres_url: str) -> None:
    """An event committed through one process reaches the other's clients (LISTEN/NOTIFY)."""
    from websockets.sync.client import connect  # noqa: PLC0415

    ports = free_port(), free_port()
    first = start_server(postgres_url, ports[0])
    second = start_server(postgres_url, ports[1])
    try:
        base = [f"http://127.0.0.1:{port}" for port in ports]
        links = httpx.post(f"{base[0]}/api/games", json={"time_control": "5+0"}).json()
        game = links["id"]
        black_token = links["black"].split("#", 1)[1]
        with connect(f"ws://127.0.0.1:{ports[1]}/ws/{game}") as black:
            black.send(json.dumps({"token": black_token}))
            assert json.loads(black.recv(timeout=10))["role"] == "black"
            for body in ({"do": "start"}, {"do": "play", "move": "e4"}):
                response = httpx.post(
                    f"{base[0]}/api/games/{game}/commands", json=body, headers=token(links, "white")
                )
                assert response.status_code == 200, response.text
            deadline = time.monotonic() + 10
            seen: dict[str, Any] = {}
            while time.monotonic() < deadline and not seen.get("moves"):
                seen = json.loads(black.recv(timeout=10))
            assert seen["moves"][0]["text"] == "e4"
            # Black answers through the second process; the first sees it.
            black.send(json.dumps({"id": 1, "do": "play", "move": "e5"}))
            while (reply := json.loads(black.recv(timeout=10)))["type"] != "reply":
                pass
            assert reply["ok"], reply
        view = httpx.get(f"{base[0]}/api/games/{game}").json()
        assert [m["text"] for m in view["moves"]] == ["e4", "e5"]
    finally:
        for process in (first, second):
            process.kill()
            process.wait()


def test_the_view_sent_over_websockets_is_the_view() -> None:
    """The JSON text written for clients (the move list spliced in, each ply's JSON written
    once, only the plies a client lacks) says exactly what the view says, after moves, a draw
    offer and a correction."""
    from arbitro.game import Game  # noqa: PLC0415
    from arbitro.web.live import Hub, LiveGame, view  # noqa: PLC0415

    game = Game.create("fide-2023", "3+2", players=('Ana "la" <B>', "Bea"))
    live = LiveGame("g", game, "s", 0.0)
    hub = Hub(None, clock=lambda: 100.0)  # type: ignore[arg-type]  # the store is not used
    clients: dict[str | None, tuple[list[dict[str, Any]], tuple[int, int] | None]] = {
        role: ([], None) for role in (None, "white", "arbiter")
    }

    def check() -> None:
        for role, (had, seen) in clients.items():
            live.views.clear()
            text, known = hub.view_text(live, role, seen)
            sent = json.loads(text)
            assert sent["moves_from"] <= len(had)
            moves = had[: sent.pop("moves_from")] + sent.pop("moves")
            clients[role] = (moves, known)
            expected = view(live, hub.now(live), role)
            assert moves == expected.pop("moves")
            assert sent == expected

    game.start(0)
    for at, (side, move) in enumerate([("white", "e4"), ("black", "e5"), ("white", "Nf3")], 1):
        game.play(side, move, at * 1000)
        check()
    game.offer_draw("white", 4000)  # marks White's last move (=): it is sent again
    check()
    game.arbiter("restore", 5000, ply=1)  # the list starts again from the first move
    check()
    assert [m["text"] for m in clients["white"][0]] == ["e4"]


def test_a_finished_game_nobody_follows_leaves_memory(tmp_path: Path) -> None:
    """Memory stays flat however many games are played: a game over with no client connected
    is dropped from the server's memory, and read again from the store when asked for."""
    from arbitro.store import EventStore  # noqa: PLC0415
    from arbitro.web.live import Hub  # noqa: PLC0415

    with EventStore(f"sqlite:///{tmp_path}/flat.db") as store:
        hub = Hub(store)
        with TestClient(create_app(hub=hub)) as client:
            links = new_game(client)
            command(client, links, "white", do="start")
            command(client, links, "white", do="play", move="e4")
            assert links["id"] in hub.games
            with client.websocket_connect(f"/ws/{links['id']}") as socket:
                socket.send_text(json.dumps({"token": links["black"].split("#", 1)[1]}))
                socket.receive_text()
                command(client, links, "black", do="resign")
                assert links["id"] in hub.games  # Black still watches the final position
            deadline = time.monotonic() + 5  # the server notices the closed socket soon after
            while links["id"] in hub.games and time.monotonic() < deadline:
                time.sleep(0.01)
            assert links["id"] not in hub.games
            view = client.get(f"/api/games/{links['id']}").json()
            assert view["state"]["termination"] == "resignation"


def test_a_resignation_asks_whether_the_winner_can_mate_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the 2023 Laws resigning against a side that cannot mate draws, and the search
    that tells may be long: the server runs it in a worker thread, then applies the
    resignation, which finds the answer remembered."""
    import asyncio  # noqa: PLC0415

    from arbitro.game import engine  # noqa: PLC0415
    from arbitro.store import EventStore  # noqa: PLC0415
    from arbitro.web.live import Hub  # noqa: PLC0415

    searched_in_loop: list[bool] = []
    search = engine.cannot_checkmate

    def spy(board: Any, color: bool) -> bool:
        try:
            asyncio.get_running_loop()
            searched_in_loop.append(True)
        except RuntimeError:
            searched_in_loop.append(False)
        return search(board, color)

    monkeypatch.setattr(engine, "cannot_checkmate", spy)
    monkeypatch.setattr(engine, "_VERDICTS", {})  # nothing remembered from other tests
    with (
        EventStore(f"sqlite:///{tmp_path}/resign.db") as store,
        TestClient(create_app(hub=Hub(store))) as client,
    ):
        links = new_game(client, edition="fide-2023")
        command(client, links, "white", do="start")
        assert command(client, links, "black", do="resign").status_code == 200
        view = client.get(f"/api/games/{links['id']}").json()
    assert view["state"]["termination"] == "resignation"
    assert searched_in_loop == [False]


def test_a_client_that_leaves_while_its_reply_is_sent_costs_no_error(tmp_path: Path) -> None:
    """A player who closes the connection right after his last command (as a client does when
    the game ends) is simply gone: the server writes no error and no traceback (formatting one
    costs more than the whole game's moves)."""
    from websockets.sync.client import connect  # noqa: PLC0415

    port = free_port()
    output = tmp_path / "server.txt"
    server = start_server(f"sqlite:///{tmp_path}/web.db", port, output=output)
    try:
        for _ in range(5):
            links = httpx.post(
                f"http://127.0.0.1:{port}/api/games", json={"time_control": "5+0"}
            ).json()
            url = f"ws://127.0.0.1:{port}/ws/{links['id']}"
            with connect(url) as white, connect(url) as black:
                for socket, role in ((white, "white"), (black, "black")):
                    socket.send(json.dumps({"token": links[role].split("#", 1)[1]}))
                    socket.recv(timeout=10)
                white.send(json.dumps({"id": 0, "do": "start"}))
                for index, move in enumerate(("e4", "e5", "Nf3")):
                    mover = (white, black)[index % 2]
                    mover.send(json.dumps({"id": index + 1, "do": "play", "move": move}))
                    mover.recv(timeout=10)
                white.send(json.dumps({"id": 9, "do": "resign"}))
                white.recv(timeout=10)  # the first answer; the rest meets a closed connection
        time.sleep(0.5)
    finally:
        server.kill()
        server.wait()
    written = output.read_text()
    assert "Traceback" not in written and "Exception" not in written, written[-2000:]


@pytest.mark.law("6.9")
def test_flag_falls_search_no_more_at_once_than_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search for a mate takes a core and up to some 170 MB: when many flags fall together,
    the server runs no more than ``SEARCHES_AT_ONCE`` of them at a time."""
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    from arbitro.game import Game  # noqa: PLC0415
    from arbitro.web import live as live_module  # noqa: PLC0415

    running = 0
    most = 0
    lock = threading.Lock()
    answer = live_module.cannot_mate

    def spy(board: Any, color: bool) -> bool:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1
        return answer(board, color)

    monkeypatch.setattr(live_module, "cannot_mate", spy)
    monkeypatch.setattr(live_module, "SEARCHES_AT_ONCE", 2)

    async def flags_fall() -> list[str]:
        hub = live_module.Hub(None, clock=lambda: 61.0)  # type: ignore[arg-type] - no store
        games = []
        queues = []
        for number in range(6):
            game = Game.create("fide-2023", "1+0", start="4k3/8/8/8/8/8/8/4K2Q w - - 0 1")
            game.start(0)
            live = live_module.LiveGame(f"g{number}", game, "s", 0.0)
            queues.append(hub.subscribe(live))
            games.append(game)
            hub._flag_fell(live)
        for queue in queues:
            await asyncio.wait_for(queue.get(), 10)
        return [game.state(61_000).termination or "" for game in games]

    assert asyncio.run(flags_fall()) == ["time-forfeit-draw"] * 6
    assert most == 2


def test_a_flag_fall_is_decided_in_a_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether the opponent can still mate may take a search of a second or more: the server
    answers it off its event loop, then tells the clients."""
    import asyncio  # noqa: PLC0415
    import threading  # noqa: PLC0415

    from arbitro.game import Game  # noqa: PLC0415
    from arbitro.web import live as live_module  # noqa: PLC0415

    asked_in_loop: list[bool] = []
    answer = live_module.cannot_mate

    def spy(board: Any, color: bool) -> bool:
        asked_in_loop.append(threading.current_thread() is threading.main_thread())
        return answer(board, color)

    monkeypatch.setattr(live_module, "cannot_mate", spy)

    async def flag_falls() -> tuple[dict[str, Any], str]:
        hub = live_module.Hub(None, clock=lambda: 61.0)  # type: ignore[arg-type] - no store
        game = Game.create("fide-2023", "1+0", start="4k3/8/8/8/8/8/8/4K2Q w - - 0 1")
        game.start(0)
        live = live_module.LiveGame("g", game, "s", 0.0)
        queue = hub.subscribe(live)
        hub._flag_fell(live)
        notice = await asyncio.wait_for(queue.get(), 10)
        return notice, game.state(61_000).termination or ""

    notice, termination = asyncio.run(flag_falls())
    assert notice["type"] == "changed"
    assert asked_in_loop == [False]
    assert termination == "time-forfeit-draw"
