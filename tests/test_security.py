"""Nobody where he does not belong: every route of the API and every WebSocket message, tried
with every wrong credential, is refused in the project's error shape and changes nothing; tokens
are long, random, compared in constant time and never logged; bodies, messages and commands per
second are limited.

The route table below must name every route of the application: a new route fails
``test_every_route_is_in_the_table`` until it says who may use it, and is then tried here.
"""

from __future__ import annotations

import base64
import collections
import json
import os
import signal
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient
from sqlalchemy import event
from starlette.routing import Mount, Route
from starlette.websockets import WebSocketDisconnect

from arbitro.game.events import COMMANDS
from arbitro.store import EventStore, hash_token, new_token
from arbitro.store import store as store_module
from arbitro.web.app import MAX_MESSAGE, MAX_RECONCILE, create_app
from arbitro.web.limits import BURST, MAX_FRAME
from arbitro.web.live import ALLOWED
from servers import LONG_GAME, free_port, start_server
from test_web_adjournment import SECRET_FORMS, adjourned_game

ROLES = ("white", "black", "arbiter")

#: Who may use each route. ``public``: anyone, a credential changes nothing; ``read``: anyone,
#: a role's token shows more (a wrong one shows what a spectator sees); ``command``: a role's
#: token, for what the role may do; ``arbiter``: the arbiter's token only; ``sealer``: the token
#: of the player asked to seal his move only; ``socket``: a token or a spectator id first.
ROUTES: dict[tuple[str, str], str] = {
    ("POST", "/api/games"): "public",
    ("GET", "/api/games/{game_id}"): "read",
    ("POST", "/api/games/{game_id}/commands"): "command",
    ("GET", "/api/games/{game_id}/read"): "read",
    ("POST", "/api/games/{game_id}/reconcile"): "arbiter",
    ("GET", "/api/games/{game_id}/pgn"): "public",
    ("GET", "/api/games/{game_id}/scoresheet"): "public",
    ("GET", "/api/games/{game_id}/envelope"): "public",
    ("POST", "/api/games/{game_id}/seal-check"): "sealer",
    ("WEBSOCKET", "/ws/{game_id}"): "socket",
    ("GET", "/"): "public",
    ("GET", "/play/{game_id}"): "public",
    ("GET", "/arbiter/{game_id}"): "public",
    ("GET", "/watch/{spectator}"): "public",
    ("GET", "/openapi.json"): "public",
    ("GET", "/docs"): "public",
    ("GET", "/docs/oauth2-redirect"): "public",
    ("GET", "/redoc"): "public",
    ("MOUNT", "/static"): "public",
}

#: A body for every command, one that the right role could send in the right state: a
#: refusal then comes from the credential, not from the command.
BODIES: dict[str, dict[str, Any]] = {
    "start": {},
    "move": {"move": "a6"},
    "press": {},
    "play": {"move": "a6"},
    "offer-draw": {},
    "accept-draw": {},
    "decline-draw": {},
    "claim": {"claim": "threefold"},
    "resign": {},
    "stop-clocks": {},
    "restart-clocks": {},
    "arbiter": {"action": "add-time", "player": "white", "seconds": 60},
    "adjourn": {"date": "2026-12-01", "place": "Sala 2"},
    "seal": {"move": "a3"},
    "resume": {"present": ["white", "black"]},
}
#: Messages that are no command of any role.
NOT_COMMANDS: list[dict[str, Any]] = [
    {"do": "hack"},
    {"do": ""},
    {"do": None},
    {"do": ["play"]},
    {"move": "e4"},
]


def test_every_command_has_a_body_here() -> None:
    assert set(BODIES) == set(COMMANDS)


def _routes(client: TestClient) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIWebSocketRoute):
            found.add(("WEBSOCKET", route.path))
        elif isinstance(route, Mount):
            found.add(("MOUNT", route.path))
        elif isinstance(route, APIRoute | Route):
            found.update((method, route.path) for method in route.methods or () if method != "HEAD")
        else:
            found.add((type(route).__name__, getattr(route, "path", "?")))
    return found


# -- the games the matrix runs on --------------------------------------------------------------


class Games:
    """Games in every state the credentials matter in, each with its links."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        # Black to move, White's draw offer standing.
        self.black_to_move = self.new()
        self.send(self.black_to_move, "arbiter", do="start")
        self.send(self.black_to_move, "white", do="play", move="e4")
        self.send(self.black_to_move, "white", do="offer-draw")
        # White to move, Black's draw offer standing.
        self.white_to_move = self.new()
        self.send(self.white_to_move, "arbiter", do="start")
        self.send(self.white_to_move, "white", do="play", move="e4")
        self.send(self.white_to_move, "black", do="play", move="e5")
        self.send(self.white_to_move, "black", do="offer-draw")
        # Not started.
        self.waiting = self.new()
        # Adjourned, White asked to seal his move.
        self.to_seal = self.new()
        self.send(self.to_seal, "arbiter", do="start")
        self.send(self.to_seal, "white", do="play", move="e4")
        self.send(self.to_seal, "black", do="play", move="e5")
        self.send(self.to_seal, "arbiter", do="adjourn")
        # Adjourned, White's move (2.Ac4) sealed: nobody may read it.
        self.sealed = adjourned_game(client)
        self.other = self.new()
        self.all = {
            "black-to-move": self.black_to_move,
            "white-to-move": self.white_to_move,
            "waiting": self.waiting,
            "to-seal": self.to_seal,
            "sealed": self.sealed,
        }

    def new(self) -> dict[str, str]:
        response = self.client.post("/api/games", json={"time_control": "90+30"})
        assert response.status_code == 201, response.text
        links: dict[str, str] = response.json()
        return links

    def send(self, links: dict[str, str], role: str, **body: Any) -> None:
        response = self.client.post(
            f"/api/games/{links['id']}/commands", json=body, headers=bearer(secret(links, role))
        )
        assert response.status_code == 200, response.text

    def snapshot(self) -> dict[str, Any]:
        """What the arbiter sees of every game, but the time (the clocks run)."""
        return {name: frozen(self.client, links) for name, links in self.all.items()}


def secret(links: dict[str, str], role: str) -> str:
    return links[role].split("#", 1)[1]


def spectator(links: dict[str, str]) -> str:
    return links["spectator"].rsplit("/", 1)[1]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def frozen(client: TestClient, links: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{links['id']}", headers=bearer(secret(links, "arbiter")))
    assert response.status_code == 200
    view: dict[str, Any] = response.json()
    view.pop("at")
    view["state"] = {k: v for k, v in view["state"].items() if k not in ("at", "clock")}
    return view


def wrong_tokens(links: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """Every token that is no credential in the game of ``links``."""
    arbiter = secret(links, "arbiter")
    return {
        "empty": "",
        "malformed": "not-a-token",
        "one character changed": arbiter[:-1] + ("A" if arbiter[-1] != "A" else "B"),
        "longer": arbiter + "x",
        "shorter": arbiter[:-1],
        "other case": arbiter.swapcase(),
        "the hash": hash_token(arbiter),
        "very long": "A" * 4000,
        "another game's arbiter": secret(other, "arbiter"),
        "another game's white": secret(other, "white"),
        "the spectator id": spectator(links),
        "the game id": links["id"],
    }


def wrong_credentials(links: dict[str, str], other: dict[str, str]) -> dict[str, dict[str, str]]:
    """Every Authorization header that is no credential in the game of ``links``."""
    arbiter = secret(links, "arbiter")
    return {
        "none": {},
        "no scheme": {"Authorization": arbiter},
        "other scheme": {"Authorization": f"Basic {arbiter}"},
        **{name: bearer(token) for name, token in wrong_tokens(links, other).items()},
    }


def assert_refused(response: httpx.Response, *statuses: int, code: str | None = None) -> None:
    """A typed refusal: one of ``statuses``, the project's error shape, the ``code`` if given."""
    assert response.status_code in (statuses or (403, 404, 409, 422)), response.text
    error = response.json()["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code, response.text


def assert_secret_kept(text: str) -> None:
    for form in SECRET_FORMS:
        assert form not in text, form


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = f"sqlite:///{tmp_path_factory.mktemp('security')}/security.db"
    with TestClient(create_app(database)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def games(client: TestClient) -> Games:
    return Games(client)


def test_every_route_is_in_the_table(client: TestClient) -> None:
    assert _routes(client) == set(ROUTES), "say in ROUTES who may use each route"


# -- HTTP ---------------------------------------------------------------------------------------


def _path(template: str, links: dict[str, str]) -> str:
    if template == "/static":
        return "/static/game.js"
    return template.replace("{game_id}", links["id"]).replace("{spectator}", spectator(links))


def _request(
    client: TestClient, method: str, path: str, headers: dict[str, str], body: Any = None
) -> httpx.Response:
    if method == "POST":
        return client.post(path, json=body if body is not None else {}, headers=headers)
    query = "?text=repeat&style=en" if path.endswith("/read") else ""
    return client.get(path + query, headers=headers)


_POST_BODIES = {
    "/api/games": {"time_control": "5+3"},
    "/reconcile": {"board_a": "1.e4 e5", "board_b": "1.e4 e6"},
    "/seal-check": {"move": "Ac4"},
}


def _post_body(template: str) -> Any:
    for end, body in _POST_BODIES.items():
        if template.endswith(end):
            return body
    return None


def _allowed(role: str, body: dict[str, Any]) -> bool:
    do = body.get("do")
    return isinstance(do, str) and do in ALLOWED[role]


def test_every_http_route_refuses_every_wrong_credential(client: TestClient, games: Games) -> None:
    before = games.snapshot()
    tried = 0
    for (kind_of_route, template), kind in ROUTES.items():
        if kind_of_route == "WEBSOCKET":
            continue
        method = "GET" if kind_of_route == "MOUNT" else kind_of_route
        # A route that reads no game is tried once; a public one on two games (one sealed).
        if "{" not in template:
            tried_on = ["waiting"]
        elif kind == "public":
            tried_on = ["black-to-move", "sealed"]
        else:
            tried_on = list(games.all)
        for name in tried_on:
            links = games.all[name]
            anonymous = _request(client, method, _path(template, links), {}, _post_body(template))
            assert anonymous.status_code < 500, (template, anonymous.text)
            wrong = wrong_credentials(links, games.other)
            if kind == "command":
                # Every command with every wrong credential in one game, and in the others
                # each credential with one command (the credential is refused first).
                dos = list(BODIES)
                for index, headers in enumerate(wrong.values()):
                    chosen = dos if name == "black-to-move" else [dos[index % len(dos)]]
                    for do in chosen:
                        response = client.post(
                            _path(template, links), json={"do": do, **BODIES[do]}, headers=headers
                        )
                        assert_refused(response, 403, code="not-allowed")
                        tried += 1
                continue
            if kind == "arbiter":
                wrong |= {role: bearer(secret(links, role)) for role in ("white", "black")}
            if kind == "sealer":
                sealer = {"white"} if name == "to-seal" else set()
                wrong |= {r: bearer(secret(links, r)) for r in ROLES if r not in sealer}
            for credential, headers in wrong.items():
                response = _request(client, method, _path(template, links), headers,
                                    _post_body(template))  # fmt: skip
                tried += 1
                where = (template, name, credential)
                if kind in ("arbiter", "sealer"):
                    assert_refused(response, 403, code="not-allowed")
                elif kind == "read":
                    # A wrong token reads exactly what no token reads: a spectator's view.
                    assert response.status_code == 200, where
                    assert _timeless(response.json()) == _timeless(anonymous.json()), where
                elif template == "/api/games":
                    assert response.status_code == 201, where
                else:
                    assert response.status_code == anonymous.status_code, where
                if name == "sealed":
                    assert_secret_kept(response.text)
        # An unknown game is a typed 404, whatever the credential.
        if "{game_id}" in template and template.startswith("/api/"):
            for headers in ({}, bearer(secret(games.other, "arbiter"))):
                path = template.replace("{game_id}", "no-such-game")
                response = _request(client, method, path, headers, {"do": "resign"})
                assert_refused(response, 404, code="unknown-game")
    assert games.snapshot() == before
    assert tried > 500


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in ("at", "clock")}
    return value


def test_a_token_acts_only_for_its_role_and_side(client: TestClient, games: Games) -> None:
    before = games.snapshot()
    url = "/api/games/{}/commands"
    for name, links in games.all.items():
        for role in ROLES:
            headers = bearer(secret(links, role))
            for do, body in BODIES.items():
                if _allowed(role, {"do": do}):
                    continue
                # A player's token for the arbiter's commands, the arbiter's for the players'.
                response = client.post(url.format(links["id"]), json={"do": do, **body},
                                       headers=headers)  # fmt: skip
                assert_refused(response, 403, code="not-allowed")
                if name == "sealed":
                    assert_secret_kept(response.text)
            for body in NOT_COMMANDS:
                response = client.post(url.format(links["id"]), json=body, headers=headers)
                assert_refused(response, 403, code="not-allowed")
    # White's token for Black's actions and Black's for White's: the side not to move.
    for links, idle, mover_move in (
        (games.black_to_move, "white", "e5"),
        (games.white_to_move, "black", "Nf3"),
    ):
        headers = bearer(secret(links, idle))
        for body in (
            {"do": "play", "move": mover_move},
            {"do": "play", "move": mover_move, "by": "black" if idle == "white" else "white"},
            {"do": "move", "move": mover_move},
            {"do": "press"},
            {"do": "accept-draw"},  # his own offer
            {"do": "decline-draw"},
            {"do": "claim", "claim": "threefold"},
            {"do": "seal", "move": mover_move},
        ):
            response = client.post(url.format(links["id"]), json=body, headers=headers)
            assert_refused(response, 409)
        response = client.post(
            url.format(links["id"]), json={"do": "play", "move": mover_move}, headers=headers
        )
        assert_refused(response, 409, code="not-your-turn")
    # Black may not start the clocks (White may, on a game without an arbiter).
    response = client.post(url.format(games.waiting["id"]), json={"do": "start"},
                           headers=bearer(secret(games.waiting, "black")))  # fmt: skip
    assert_refused(response, 403, code="not-allowed")
    # Only the player asked to seal seals.
    response = client.post(url.format(games.to_seal["id"]), json={"do": "seal", "move": "a6"},
                           headers=bearer(secret(games.to_seal, "black")))  # fmt: skip
    assert_refused(response, 409, code="not-your-turn")
    assert games.snapshot() == before


# -- WebSocket ----------------------------------------------------------------------------------


def _closed(socket: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_text()
    return closed.value.code


def _hello_refused(client: TestClient, game_id: str, hello: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_text(hello)
        message: dict[str, Any] = socket.receive_json()
        assert message["type"] == "error", message
        assert message["error"]["code"] and message["error"]["message"]
        assert _closed(socket) in (1003, 1009, 4403, 4404)
        return message


def test_a_socket_opens_only_with_a_credential(client: TestClient, games: Games) -> None:
    before = games.snapshot()
    for links in games.all.values():
        hellos = [
            json.dumps({"token": token}) for token in wrong_tokens(links, games.other).values()
        ]
        hellos += [
            json.dumps(hello)
            for hello in (
                {},
                {"token": None},
                {"token": 5},
                {"token": [secret(links, "arbiter")]},
                {"role": "arbiter"},
                {"spectator": "no-such-spectator"},
                {"spectator": secret(links, "arbiter")},
                {"spectator": links["id"]},
            )
        ]
        hellos += ["not json", "[]", '"token"', json.dumps({"token": "x" * MAX_MESSAGE})]
        for hello in hellos:
            message = _hello_refused(client, links["id"], hello)
            assert_secret_kept(json.dumps(message))
    assert games.snapshot() == before


def _replies(socket: Any, count: int) -> list[dict[str, Any]]:
    """The next ``count`` replies (views pushed meanwhile are skipped)."""
    replies = []
    while len(replies) < count:
        message = socket.receive_json()
        if message.get("type") == "reply":
            replies.append(message)
    return replies


def _socket_refusals(
    client: TestClient, links: dict[str, str], hello: dict[str, str], bodies: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    with client.websocket_connect(f"/ws/{links['id']}") as socket:
        socket.send_json(hello)
        first = socket.receive_json()
        assert first["type"] == "state"
        for number, body in enumerate(bodies):
            socket.send_json({"id": number, **body})
        replies = _replies(socket, len(bodies))
        socket.send_json({"id": "last", "do": "state"})
        while (view := socket.receive_json()).get("type") != "state":
            pass
        texts = [json.dumps(first), json.dumps(view), *map(json.dumps, replies)]
    assert [reply["id"] for reply in replies] == list(range(len(bodies)))
    for reply in replies:
        assert reply["ok"] is False, reply
        assert reply["error"]["code"] and reply["error"]["message"]
    if links.get("sealed"):
        for text in texts:
            assert_secret_kept(text)
    return replies


def test_every_socket_message_with_the_wrong_role_is_refused(
    client: TestClient, games: Games
) -> None:
    before = games.snapshot()
    every = [{"do": do, **body} for do, body in BODIES.items()] + NOT_COMMANDS
    for name, game in games.all.items():
        links = {**game, "sealed": "yes"} if name == "sealed" else game
        # Spectator links are read-only: every command is refused.
        replies = _socket_refusals(client, links, {"spectator": spectator(links)}, every)
        assert {reply["error"]["code"] for reply in replies} == {"not-allowed"}
        for role in ROLES:
            bodies = [body for body in every if not _allowed(role, body)]
            replies = _socket_refusals(client, links, {"token": secret(links, role)}, bodies)
            assert {reply["error"]["code"] for reply in replies} == {"not-allowed"}
    for links, idle, move in ((games.black_to_move, "white", "e5"),
                              (games.white_to_move, "black", "Nf3")):  # fmt: skip
        bodies = [
            {"do": "play", "move": move},
            {"do": "play", "move": move, "by": "black" if idle == "white" else "white"},
            {"do": "press"},
            {"do": "accept-draw"},
            {"do": "decline-draw"},
        ]
        replies = _socket_refusals(client, links, {"token": secret(links, idle)}, bodies)
        assert replies[0]["error"]["code"] == replies[1]["error"]["code"] == "not-your-turn"
    assert games.snapshot() == before


def test_a_socket_message_that_is_no_command_is_refused(client: TestClient, games: Games) -> None:
    links = games.black_to_move
    for text, code in (("not json", 1003), ("[1, 2]", 1003), ("x" * (MAX_MESSAGE + 1), 1009)):
        with client.websocket_connect(f"/ws/{links['id']}") as socket:
            socket.send_json({"token": secret(links, "black")})
            assert socket.receive_json()["type"] == "state"
            socket.send_text(text)
            message = socket.receive_json()
            assert message["type"] == "error" and message["error"]["code"] in (
                "bad-message",
                "too-large",
            )
            assert _closed(socket) == code


# -- tokens -------------------------------------------------------------------------------------


def test_tokens_are_long_and_random() -> None:
    tokens = [new_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for token in tokens[:50]:
        assert len(token) >= 32 and set(token) <= alphabet
        assert len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))) * 8 >= 192
    # Every one of the 64 characters about equally often (a CSPRNG's output, not a pattern).
    counts = collections.Counter("".join(tokens))
    expected = sum(counts.values()) / 64
    assert len(counts) == 64
    assert all(0.8 * expected < n < 1.2 * expected for n in counts.values()), counts


def test_a_token_is_compared_in_constant_time_and_never_sent_to_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store looks the game up by its id and compares the token's hash with every role's
    hash with ``hmac.compare_digest`` (no early exit): no query depends on the token, so no
    index lookup or string comparison in the database can leak it by its timing."""
    compared: list[tuple[str, str]] = []
    real = store_module.hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(store_module.hmac, "compare_digest", spy)
    with EventStore(f"sqlite:///{tmp_path}/tokens.db") as store:
        tokens = {role: new_token() for role in ROLES}
        game = store.create_game({"time_control": "3+2"}, tokens)
        sent: list[str] = []

        @event.listens_for(store._engine, "before_cursor_execute")
        def record(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
            sent.append(f"{statement} {parameters!r}")

        for role, token in tokens.items():
            compared.clear()
            assert store.role_for(game, token) == role
            assert len(compared) == 3  # every role is compared, the match included
        white = tokens["white"]
        altered = white[:-1] + ("x" if white[-1] != "x" else "y")  # always a different token
        assert store.role_for(game, altered) is None
    text = "\n".join(sent)
    assert sent and game in text
    for token in tokens.values():
        assert token not in text and hash_token(token) not in text


def test_no_token_is_ever_logged(tmp_path: Path) -> None:
    """A real server, its stdout and stderr kept: tokens in headers, WebSocket messages, bad
    requests and refusals, and the server's shutdown; no token appears in what it wrote. A
    WebSocket frame over the server's limit closes the connection."""
    from websockets.exceptions import ConnectionClosed  # noqa: PLC0415
    from websockets.sync.client import connect  # noqa: PLC0415

    output = tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(f"sqlite:///{tmp_path}/logged.db", port, output=output)
    tokens: list[str] = []
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            links = http.post("/api/games", json={"time_control": "3+2"}).json()
            tokens += [secret(links, role) for role in ROLES]
            game = links["id"]
            for role, body in (
                ("arbiter", {"do": "start"}),
                ("white", {"do": "play", "move": "e4"}),
                ("white", {"do": "play", "move": "e5"}),
                ("black", {"do": "arbiter", "action": "add-time"}),
                ("black", {"do": "play", "move": [[1]]}),
            ):
                http.post(f"/api/games/{game}/commands", json=body,
                          headers=bearer(secret(links, role)))  # fmt: skip
            http.post(f"/api/games/{game}/commands", content=b"{", headers=bearer(tokens[0]))
            http.get(f"/api/games/{game}", headers=bearer(tokens[2]))
            http.get(f"/api/games/{game}?token={tokens[2]}")
            http.post(f"/api/games/{game}/reconcile", json={}, headers=bearer(tokens[0]))
        url = f"ws://127.0.0.1:{port}/ws/{game}"
        with connect(url) as socket:
            socket.send(json.dumps({"token": tokens[1]}))
            socket.recv(timeout=10)
            socket.send(json.dumps({"id": 1, "do": "play", "move": "e5", "token": tokens[1]}))
            socket.send(json.dumps({"id": 2, "do": "resign", "key": tokens[2]}))
            socket.send("{not json " + tokens[1])
            with pytest.raises(ConnectionClosed):
                while True:
                    socket.recv(timeout=10)
        with connect(url) as socket:
            socket.send(json.dumps({"token": tokens[2] + "x"}))
            with pytest.raises(ConnectionClosed):
                while True:
                    socket.recv(timeout=10)
        with connect(url, max_size=None) as socket:
            socket.send(json.dumps({"token": tokens[0], "pad": "x" * MAX_FRAME}))
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    socket.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        os.kill(server.pid, signal.SIGTERM)  # a clean shutdown writes what it writes, too
        try:
            server.wait(timeout=10)
        except Exception:
            server.kill()
            server.wait()
    written = output.read_text("utf-8", "replace")
    assert "arbitro: http://" in written  # the output was kept
    for token in tokens:
        assert token not in written
        assert token[:12] not in written


# -- limits -------------------------------------------------------------------------------------


def test_bodies_over_the_limit_are_refused_before_they_are_read(
    client: TestClient, games: Games
) -> None:
    links = games.black_to_move
    before = games.snapshot()
    url = f"/api/games/{links['id']}/commands"
    headers = bearer(secret(links, "black"))
    big = {"do": "play", "move": "e5", "pad": "x" * MAX_MESSAGE}
    assert_refused(client.post(url, json=big, headers=headers), 413, code="too-large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"do": "play", "move": "e5", "pad": "'
        for _ in range(1000):
            yield b"x" * 1024
        yield b'"}'

    streamed = client.post(url, content=chunks(),
                           headers={**headers, "Content-Type": "application/json"})  # fmt: skip
    assert_refused(streamed, 413, code="too-large")
    created = client.post("/api/games", json={"white": "x" * MAX_MESSAGE})
    assert_refused(created, 413, code="too-large")
    # The movetexts to reconcile are longer, within their own limit.
    reconcile = f"/api/games/{links['id']}/reconcile"
    arbiter = bearer(secret(links, "arbiter"))
    long_text = {"board_a": "1.e4 " * 4000, "board_b": "1.e4"}
    assert client.post(reconcile, json=long_text, headers=arbiter).status_code == 422
    huge = {"board_a": "x" * MAX_RECONCILE, "board_b": "1.e4"}
    assert_refused(client.post(reconcile, json=huge, headers=arbiter), 413, code="too-large")
    assert games.snapshot() == before


def test_command_arguments_are_plain_values(client: TestClient, games: Games) -> None:
    """A nested or enormous argument is refused: stored in the log, it could make the game
    unreadable for everyone (found by fuzzing: a 300-deep list made every view fail)."""
    links = games.black_to_move
    before = games.snapshot()
    url = f"/api/games/{links['id']}/commands"
    deep = "[" * 300 + "]" * 300
    for body, role in (
        ('{"do": "play", "move": ' + deep + "}", "black"),
        ('{"do": "arbiter", "action": "add-time", "player": "white", "seconds": 1e308}', "arbiter"),
        ('{"do": "arbiter", "action": "add-time", "player": "white", "seconds": NaN}', "arbiter"),
        ('{"do": "arbiter", "action": "add-time", "player": "white", "seconds": 1' + "0" * 30 + "}",
         "arbiter"),
        ('{"do": "resume", "present": ' + json.dumps(["white"] * 100) + "}", "arbiter"),
        ("[" * 2000 + "]" * 2000, "black"),
    ):  # fmt: skip
        headers = {**bearer(secret(links, role)), "Content-Type": "application/json"}
        response = client.post(url, content=body, headers=headers)
        assert_refused(response, 409, 413, 422)
    # Over a WebSocket too, and in the first message; nothing nested is echoed back.
    nested = "[" * 900 + "]" * 900
    for hello in ('{"token": %s}', '{"spectator": %s}'):
        _hello_refused(client, links["id"], hello % nested)
    with client.websocket_connect(f"/ws/{links['id']}") as socket:
        socket.send_json({"token": secret(links, "black")})
        socket.receive_json()
        for text in ('{"id": %s, "do": "stop-clocks"}', '{"id": 1, "do": %s}',
                     '{"id": 2, "do": "play", "move": %s}'):  # fmt: skip
            socket.send_text(text % nested)
        replies = _replies(socket, 3)
    assert [reply["id"] for reply in replies] == [None, 1, 2]
    assert [reply["error"]["code"] for reply in replies] == ["not-allowed", "not-allowed",
                                                             "bad-argument"]  # fmt: skip
    # Keys no event carries are not stored.
    other = games.new()
    games.send(other, "arbiter", do="start")
    games.send(other, "white", do="play", move="e4", note=[[["kept?"]]], at=5, by="black")
    log = frozen(client, other)["log"]
    assert log[-1] == {"at": log[-1]["at"], "by": "white", "do": "play", "move": "e4"}
    assert games.snapshot() == before


def test_commands_over_the_rate_limit_are_refused_and_never_half_applied(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/rate.db", rate=1, burst=5)) as client:
        links = client.post("/api/games", json={"time_control": "90+30"}).json()
        url = f"/api/games/{links['id']}/commands"
        arbiter = bearer(secret(links, "arbiter"))
        add = {"do": "arbiter", "action": "add-time", "player": "white", "seconds": 1}
        statuses = [client.post(url, json=add, headers=arbiter) for _ in range(20)]
        accepted = [r for r in statuses if r.status_code == 200]
        for response in statuses:
            if response.status_code != 200:
                assert_refused(response, 429, code="rate-limited")
        assert 5 <= len(accepted) < 20
        # Another credential has its own allowance.
        white = bearer(secret(links, "white"))
        assert client.post(url, json={"do": "start"}, headers=white).status_code == 200
        log = frozen(client, links)["log"]
        assert len(log) == len(accepted) + 1
        # Over a WebSocket: per connection; every command is answered, the accepted ones are
        # in the log, the refused ones are not.
        with client.websocket_connect(f"/ws/{links['id']}") as socket:
            socket.send_json({"token": secret(links, "arbiter")})
            socket.receive_json()
            for number in range(20):
                socket.send_json({"id": number, **add})
            replies = _replies(socket, 20)
        ok = [reply for reply in replies if reply["ok"]]
        assert 5 <= len(ok) < 20
        assert {r["error"]["code"] for r in replies if not r["ok"]} == {"rate-limited"}
        assert len(frozen(client, links)["log"]) == len(log) + len(ok)


def test_a_fast_game_is_never_rate_limited(client: TestClient) -> None:
    """The default limits leave room for a whole game played as fast as a machine can, one
    move at a time per connection (as ``benchmarks/server.py`` plays it)."""
    links = client.post("/api/games", json={"time_control": "90+30"}).json()
    assert len(LONG_GAME) // 2 + 1 < BURST
    with (
        client.websocket_connect(f"/ws/{links['id']}") as white,
        client.websocket_connect(f"/ws/{links['id']}") as black,
    ):
        for socket, role in ((white, "white"), (black, "black")):
            socket.send_json({"token": secret(links, role)})
            socket.receive_json()
        white.send_json({"id": 0, "do": "start"})
        assert _replies(white, 1)[0]["ok"]
        for index, move in enumerate(LONG_GAME):
            mover = (white, black)[index % 2]
            mover.send_json({"id": index + 1, "do": "play", "move": move})
            reply = _replies(mover, 1)[0]
            assert reply["ok"], reply
