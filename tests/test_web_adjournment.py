"""Adjourned games in the web application (Appendix A): the arbiter adjourns, the player to
move checks and seals his move, and nobody — the opponent, a spectator, the arbiter, a copy of
the database — can read it before the envelope is opened at the resumption (A7)."""

from __future__ import annotations

import json
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute
from fastapi.testclient import TestClient

from arbitro.notation.spoken import STYLES, announce
from arbitro.web.app import create_app
from webclient import token as auth

AFTER_E4_E5 = chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
BC4 = chess.Move.from_uci("f1c4")
# Every way the sealed move 2.Bc4 could be written or spoken.
SECRET_FORMS = (
    "Bc4", "Ac4", "f1c4", "f1-c4", "Lc4", "Fc4",
    *(announce(BC4, AFTER_E4_E5, style) for style in STYLES),
)  # fmt: skip


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/adjourned.db"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database)) as test_client:
        yield test_client


def send(client: TestClient, links: dict[str, str], role: str, **body: Any) -> Any:
    response = client.post(
        f"/api/games/{links['id']}/commands", json=body, headers=auth(links, role)
    )
    assert response.status_code == 200, response.text
    return response.json()


def adjourned_game(client: TestClient) -> dict[str, str]:
    """1.e4 e5, adjourned; White seals 2.Ac4 (written in Spanish)."""
    response = client.post(
        "/api/games",
        json={"white": "Ana", "black": "Luis", "time_control": "90+30", "notation": "es"},
    )
    links: dict[str, str] = response.json()
    send(client, links, "arbiter", do="start")
    send(client, links, "white", do="play", move="e4")
    send(client, links, "black", do="play", move="e5")
    view = send(client, links, "arbiter", do="adjourn", date="2026-12-01", place="Sala 2")
    assert view["state"]["adjournment"] == "ordered"
    check = client.post(
        f"/api/games/{links['id']}/seal-check", json={"move": "Ac4"}, headers=auth(links, "white")
    ).json()
    assert check["ok"] and check["move"] == "Ac4"
    view = send(client, links, "white", do="seal", move="Ac4")
    assert view["state"]["sealed"] and view["envelope"]["sealer"] == "white"
    return links


def everything_readable(client: TestClient, links: dict[str, str], database: str) -> list[str]:
    """What every GET route of the API shows to every role, every WebSocket view, and the raw
    database file and rows."""
    game = links["id"]
    spectator = links["spectator"].rsplit("/", 1)[1]
    roles: list[dict[str, str]] = [{}, auth(links, "white"), auth(links, "black"),
                                   auth(links, "arbiter")]  # fmt: skip
    texts: list[str] = []
    app = client.app
    covered = 0
    for route in app.routes:  # type: ignore[attr-defined]
        if isinstance(route, APIRoute) and "GET" in route.methods:
            path = route.path.replace("{game_id}", game).replace("{spectator}", spectator)
            for headers in roles:
                for query in ("", "?lang=en", "?text=repeat&style=es", "?text=help&style=en"):
                    texts.append(client.get(path + query, headers=headers).text)
            covered += 1
        elif isinstance(route, APIWebSocketRoute):
            for hello in (
                {"token": links[role].split("#", 1)[1]} for role in ("white", "black", "arbiter")
            ):
                with client.websocket_connect(f"/ws/{game}") as socket:
                    socket.send_text(json.dumps(hello))
                    texts.append(socket.receive_text())
            with client.websocket_connect(f"/ws/{game}") as socket:
                socket.send_text(json.dumps({"spectator": spectator}))
                texts.append(socket.receive_text())
    assert covered >= 8  # the routes under test, including the pages
    path = database.removeprefix("sqlite:///")
    texts.append(Path(path).read_bytes().decode("latin-1"))
    with sqlite3.connect(path) as connection:
        for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            texts.append(repr(connection.execute(f'SELECT * FROM "{table}"').fetchall()))
    return texts


@pytest.mark.law("A7")
def test_a7_nobody_reads_the_sealed_move_before_the_envelope_is_opened(
    client: TestClient, database: str
) -> None:
    links = adjourned_game(client)
    for text in everything_readable(client, links, database):
        for form in SECRET_FORMS:
            assert form not in text, form
    # The arbiter cannot slip a key of his own into the resumption, nor a player an envelope.
    refused = client.post(
        f"/api/games/{links['id']}/commands",
        json={"do": "seal", "envelope": "forged"},
        headers=auth(links, "white"),
    )
    assert refused.status_code == 409
    view = send(client, links, "arbiter", do="resume", present=["white"], key="AAAA")
    assert view["state"]["sealed"]
    assert all(event.get("key") != "AAAA" for event in view["log"])
    # Black arrives: the envelope is opened, the move is on the board.
    view = send(client, links, "arbiter", do="resume", present=["black"])
    assert not view["state"]["sealed"]
    assert [m["text"] for m in view["moves"]] == ["e4", "e5", "Ac4"]
    assert view["envelope"]["opened"] and view["envelope"]["move"] == "Ac4"
    assert {e.get("key") for e in view["log"] if e["do"] == "resume"} == {None, "released"}


def test_the_envelope_is_opened_after_a_restart_with_the_secret_beside_the_database(
    database: str,
) -> None:
    with TestClient(create_app(database)) as client:
        links = adjourned_game(client)
    secret = Path(database.removeprefix("sqlite:///") + ".seal-key")
    assert secret.exists() and stat.S_IMODE(secret.stat().st_mode) == 0o600
    with TestClient(create_app(database)) as client:
        view = send(client, links, "arbiter", do="resume", present=["white", "black"])
        assert view["moves"][-1]["text"] == "Ac4"


def test_without_the_secret_the_envelope_stays_closed(database: str, tmp_path: Path) -> None:
    with TestClient(create_app(database)) as client:
        links = adjourned_game(client)
    with TestClient(create_app(database, seal_key=tmp_path / "another.key")) as client:
        response = client.post(
            f"/api/games/{links['id']}/commands",
            json={"do": "resume", "present": ["white", "black"]},
            headers=auth(links, "arbiter"),
        )
        assert response.status_code == 409
        assert response.json()["error"]["code"] == "envelope-key-wrong"
        assert client.get(f"/api/games/{links['id']}").json()["state"]["sealed"]


@pytest.mark.law("A8")
def test_a8_the_seal_check_warns_the_sealer_only(client: TestClient) -> None:
    response = client.post("/api/games", json={"time_control": "90+30", "notation": "es"})
    links = response.json()
    send(client, links, "arbiter", do="start")
    for index, move in enumerate(("e4", "e5", "Cf3", "Cc6", "d3", "d6")):
        send(client, links, ("white", "black")[index % 2], do="play", move=move)
    url = f"/api/games/{links['id']}/seal-check"
    assert client.post(url, json={"move": "Cf3"}, headers=auth(links, "white")).status_code == 403
    send(client, links, "arbiter", do="adjourn")
    ambiguous = client.post(url, json={"move": "Cd2"}, headers=auth(links, "white")).json()
    assert not ambiguous["ok"] and ambiguous["status"] == "ambiguous"
    for role in ("black", "arbiter"):
        assert client.post(url, json={"move": "Cf3"}, headers=auth(links, role)).status_code == 403
    assert client.post(url, json={"move": ""}, headers=auth(links, "white")).status_code == 422
    # Spoken words are sealed as the move they name.
    send(client, links, "white", do="seal", move="Alfil Eva dos")
    view = send(client, links, "arbiter", do="resume", present=["white", "black"])
    assert view["moves"][-1]["text"] == "Ae2"


@pytest.mark.law("A2")
def test_the_printable_envelope(client: TestClient) -> None:
    links = adjourned_game(client)
    page = client.get(f"/api/games/{links['id']}/envelope")
    assert page.status_code == 200 and "Sobre de jugada sellada" in page.text
    assert "Sala 2" in page.text and "Ana" in page.text
    english = client.get(f"/api/games/{links['id']}/envelope?lang=en").text
    assert "Sealed-move envelope" in english
    fresh = client.post("/api/games", json={"time_control": "5+0"}).json()
    missing = client.get(f"/api/games/{fresh['id']}/envelope")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no-envelope"


@pytest.mark.law("A1")
def test_only_the_arbiter_adjourns_and_resumes(client: TestClient) -> None:
    links = client.post("/api/games", json={"time_control": "90+30"}).json()
    send(client, links, "arbiter", do="start")
    for role, do in (("white", "adjourn"), ("black", "resume"), ("arbiter", "seal")):
        response = client.post(
            f"/api/games/{links['id']}/commands", json={"do": do}, headers=auth(links, role)
        )
        assert response.status_code == 403, (role, do)
