"""Play for blind players (Appendix F) in the web application: the commands typed in the move
box and the words that answer them, the spoken announcement of every move, and the arbiter's
reconciliation of two boards that differ (F2.7, F2.8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import httpx
import pytest
from fastapi.testclient import TestClient

from arbitro.notation.board_reading import (
    Command,
    check_style,
    help_text,
    parse_command,
    read_clocks,
    read_file,
    read_rank,
)
from arbitro.notation.letters import NotationError
from arbitro.web.app import create_app
from webclient import new_game, token

START = chess.STARTING_FEN
# White: King e1, Queen d1, Rook a1; Black: King e8, Queen d8 (colour agreement in es/fide).
SPARSE = "3qk3/8/8/8/8/8/8/R2QK3 w - - 0 1"

# -- the commands ----------------------------------------------------------------------------


@pytest.mark.law("F1")
@pytest.mark.parametrize(
    ("text", "command"),
    [
        # Spanish
        ("fila 1", Command("rank", 0)),
        ("Fila uno", Command("rank", 0)),
        ("FILA 8", Command("rank", 7)),
        ("fila1", Command("rank", 0)),
        ("columna e", Command("file", 4)),
        ("columna Eva", Command("file", 4)),
        ("Columna FÉLIX", Command("file", 5)),
        ("columna felix", Command("file", 5)),
        ("columna Héctor", Command("file", 7)),
        ("relojes", Command("clocks")),
        ("Relojes.", Command("clocks")),
        ("reloj", Command("clocks")),
        ("repetir", Command("repeat")),
        ("REPETIR", Command("repeat")),
        ("ayuda", Command("help")),
        ("¿ayuda?", Command("help")),
        # English
        ("rank 1", Command("rank", 0)),
        ("Rank five", Command("rank", 4)),
        ("file e", Command("file", 4)),
        ("file Eva", Command("file", 4)),
        ("File cesar", Command("file", 2)),
        ("clocks", Command("clocks")),
        ("Clock", Command("clocks")),
        ("repeat", Command("repeat")),
        ("help", Command("help")),
        ("  HELP  ", Command("help")),
        # The German of the fide style
        ("Reihe fünf", Command("rank", 4)),
        ("reihe funf", Command("rank", 4)),
        ("Linie Gustav", Command("file", 6)),
        ("Uhren", Command("clocks")),
        ("wiederholen", Command("repeat")),
        ("Hilfe", Command("help")),
    ],
)
def test_commands_in_spanish_english_and_german(text: str, command: Command) -> None:
    assert parse_command(text) == command


@pytest.mark.parametrize(
    "text",
    ["e4", "Nf3", "Cf3", "Caballo Félix tres", "peón Eva cuatro", "enroque corto", "O-O", "", " "],
)
def test_anything_else_is_a_move(text: str) -> None:
    assert parse_command(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "fila",
        "fila 9",
        "fila 0",
        "rank nine",
        "fila 1 2",
        "columna",
        "columna z",
        "file i",
        "columna Eva 3",
        "relojes ya",
        "repeat please",
        "ayuda 2",
    ],
)
def test_a_command_with_a_wrong_argument_is_refused(text: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_command(text)
    assert refused.value.code == "unreadable-command"
    assert text.strip() in refused.value.message("en")


# -- ranks and files -------------------------------------------------------------------------


@pytest.mark.law("F1")
def test_a_rank_is_read_square_by_square_in_each_style() -> None:
    assert read_rank(START, 1, "es") == (
        "Fila dos: Ana dos, peón blanco; Bella dos, peón blanco; César dos, peón blanco; "
        "David dos, peón blanco; Eva dos, peón blanco; Félix dos, peón blanco; "
        "Gustavo dos, peón blanco; Héctor dos, peón blanco."
    )
    assert read_rank(SPARSE, 0, "es") == (
        "Fila uno: Ana uno, Torre blanca; David uno, Dama blanca; Eva uno, Rey blanco."
    )
    assert (
        read_rank(SPARSE, 7, "en") == "Rank eight: David eight, black Queen; Eva eight, black King."
    )
    assert read_rank(SPARSE, 0, "fide") == (
        "Reihe eins: Anna eins, weisser Turm; David eins, weisse Dame; Eva eins, weisser Koenig."
    )
    assert read_rank(SPARSE, 7, "fide") == (
        "Reihe acht: David acht, schwarze Dame; Eva acht, schwarzer Koenig."
    )
    assert read_rank(START, 3, "es") == "Fila cuatro: vacía."
    assert read_rank(START, 3, "en") == "Rank four: empty."
    assert read_rank(START, 3, "fide") == "Reihe vier: leer."


def test_a_file_is_read_from_the_first_rank_to_the_eighth() -> None:
    assert read_file(START, 6, "es") == (
        "Columna Gustavo: Gustavo uno, Caballo blanco; Gustavo dos, peón blanco; "
        "Gustavo siete, peón negro; Gustavo ocho, Caballo negro."
    )
    assert (
        read_file(SPARSE, 3, "en")
        == "File David: David one, white Queen; David eight, black Queen."
    )
    assert read_file(SPARSE, 0, "fide") == "Linie Anna: Anna eins, weisser Turm."
    assert read_file(SPARSE, 7, "es") == "Columna Héctor: vacía."


def test_odd_readings_are_refused() -> None:
    with pytest.raises(NotationError) as unknown:
        read_rank(START, 0, "klingon")
    assert unknown.value.code == "unknown-language"
    with pytest.raises(NotationError):
        check_style("ES ")
    check_style("fide")
    for call in (lambda: read_rank(START, 8, "en"), lambda: read_file(START, -1, "en")):
        with pytest.raises(ValueError, match="no"):
            call()
    with pytest.raises(ValueError):
        read_rank("not a position", 0, "en")


def test_clocks_and_help_in_words() -> None:
    assert read_clocks(175_000, 180_000) == "White 2 minutes 55 seconds, Black 3 minutes."
    assert read_clocks(3_661_900, 999) == "White 1 hour 1 minute 1 second, Black 0 seconds."
    assert read_clocks(-5, 7_200_000) == "White 0 seconds, Black 2 hours."
    assert read_clocks(None, None) == "This game is played without clocks."
    text = help_text("en")
    for word in ("rank 1", "file e", "file Eva", "clocks", "repeat", "help"):
        assert f"'{word}'" in text


# -- the web application ---------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/blind.db")) as test_client:
        yield test_client


def play(client: TestClient, links: dict[str, str], moves: str) -> dict[str, Any]:
    """Start the clocks and play ``moves`` (separated by ";"), White first; the last view."""
    assert client.post(
        f"/api/games/{links['id']}/commands", json={"do": "start"}, headers=token(links, "white")
    ).is_success
    view: dict[str, Any] = {}
    for index, move in enumerate(moves.split(";")):
        role = "white" if index % 2 == 0 else "black"
        response = client.post(
            f"/api/games/{links['id']}/commands",
            json={"do": "play", "move": move},
            headers=token(links, role),
        )
        assert response.status_code == 200, response.text
        view = response.json()
    return view


def read(
    client: TestClient, links: dict[str, str], text: str, style: str, role: str | None = None
) -> httpx.Response:
    return client.get(
        f"/api/games/{links['id']}/read",
        params={"text": text, "style": style, "lang": "en"},
        headers=token(links, role) if role else {},
    )


@pytest.mark.law("F1")
def test_every_move_carries_its_spoken_announcement_in_each_style(client: TestClient) -> None:
    links = new_game(client, notation="es")
    view = play(client, links, "e4;d5;exd5;Nf6;Bb5+;c6;dxc6;Qb6;Nf3;Qxb5;cxb7;a5;bxa8=Q")
    spoken = [move["spoken"] for move in view["moves"]]
    assert spoken[0] == {"fide": "Bauer Eva vier", "es": "peón Eva cuatro", "en": "pawn Eva four"}
    assert spoken[2]["es"] == "peón Eva captura David cinco"  # a capture
    assert spoken[4]["es"] == "Alfil Bella cinco, jaque"  # check
    assert spoken[4]["fide"] == "Laeufer Bella fuenf, Schach"
    assert spoken[12] == {  # a capture that promotes, with the piece
        "fide": "Bauer Bella schlaegt Anna acht Dame",
        "es": "peón Bella captura Ana ocho Dama",
        "en": "pawn Bella takes Anna eight Queen",
    }
    castled = play(client, new_game(client), "e4;Nf6;e5;d5;exd6;Nc6;Nf3;Bf5;Be2;Qd7;O-O;O-O-O")
    assert castled["moves"][4]["spoken"]["es"] == "peón Eva captura David seis al paso"
    assert castled["moves"][10]["spoken"]["es"] == "enroque corto"
    assert castled["moves"][11]["spoken"]["en"] == "long castling"
    mated = play(client, new_game(client), "f3;e5;g4;Qh4#")
    assert mated["moves"][3]["spoken"] == {
        "fide": "Dame Hector vier, Matt",
        "es": "Dama Héctor cuatro, jaque mate",
        "en": "Queen Hector four, checkmate",
    }


def test_an_illegal_move_on_a_physical_board_has_no_announcement(client: TestClient) -> None:
    links = new_game(client, board="physical")
    base = f"/api/games/{links['id']}/commands"
    client.post(base, json={"do": "start"}, headers=token(links, "white"))
    view = client.post(base, json={"do": "move", "move": "e2e5"}, headers=token(links, "white"))
    move = view.json()["moves"][0]
    assert move["legal"] is False and move["spoken"] is None


@pytest.mark.law("F1")
def test_the_commands_are_answered_in_words(client: TestClient) -> None:
    links = new_game(client, notation="es")
    assert read(client, links, "repeat", "en", "white").json()["text"] == "No move to repeat yet."
    stopped = read(client, links, "clocks", "en", "white").json()
    assert stopped == {
        "command": "clocks",
        "text": "White 3 minutes, Black 3 minutes. The clocks are stopped.",
    }
    play(client, links, "Caballo Félix tres;Knight Felix six;e4")
    rank = read(client, links, "fila 1", "es", "black").json()
    assert rank["command"] == "rank"
    assert rank["text"].startswith("Fila uno: Ana uno, Torre blanca; Bella uno, Caballo blanco;")
    assert "Gustavo uno" not in rank["text"]  # the knight left g1
    assert read(client, links, "Rank SIX", "en").json()["text"] == (
        "Rank six: Felix six, black Knight."
    )
    assert read(client, links, "columna Eva", "fide").json()["text"] == (
        "Linie Eva: Eva eins, weisser Koenig; Eva vier, weisser Bauer; "
        "Eva sieben, schwarzer Bauer; Eva acht, schwarzer Koenig."
    )
    assert read(client, links, "file e", "en").json()["command"] == "file"
    clocks = read(client, links, "relojes", "es", "white").json()
    assert clocks["command"] == "clocks" and clocks["text"].startswith("White ")
    assert "stopped" not in clocks["text"]
    # Each player hears his opponent's last move; a spectator the last one.
    assert read(client, links, "repetir", "es", "white").json()["text"] == (
        "Black played Caballo Félix seis."
    )
    assert (
        read(client, links, "repeat", "en", "black").json()["text"] == "White played pawn Eva four."
    )
    assert read(client, links, "repeat", "fide").json()["text"] == "White played Bauer Eva vier."
    assert "'rank 1'" in read(client, links, "ayuda", "es").json()["text"]
    assert read(client, links, "help", "en").json()["command"] == "help"
    # A move is no command: the page plays it.
    assert read(client, links, "Caballo Bella seis", "es").json() == {"command": None, "text": None}


def test_odd_commands_are_refused_with_a_typed_error(client: TestClient) -> None:
    links = new_game(client)
    for text, style, code in [
        ("fila 9", "es", "unreadable-command"),
        ("columna zeta", "es", "unreadable-command"),
        ("clocks now", "en", "unreadable-command"),
        ("fila 1", "klingon", "unknown-language"),
        ("x" * 500, "en", "bad-request"),
    ]:
        response = read(client, links, text, style, "white")
        assert response.status_code == 422, text
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["message"]
    assert client.get("/api/games/nope/read", params={"text": "fila 1"}).status_code == 404


# -- reconciliation (F2.7, F2.8) -------------------------------------------------------------


def reconcile(
    client: TestClient, links: dict[str, str], role: str | None, body: Any, lang: str = "en"
) -> httpx.Response:
    return client.post(
        f"/api/games/{links['id']}/reconcile?lang={lang}",
        json=body,
        headers=token(links, role) if role else {},
    )


@pytest.mark.law("F2.7")
@pytest.mark.law("F2.8")
def test_the_arbiter_reconciles_two_boards(client: TestClient) -> None:
    links = new_game(client)
    adjust = reconcile(
        client,
        links,
        "arbiter",
        {
            "board_a": "1.e4 e5 2.Nf3 Nc6",
            "board_b": "1.e4 e5 2.Nf3 Nf6",
            "sheet_a": "1.e4 e5 2.Nf3 Nc6",
            "sheet_b": "1.e4 e5 2.Nf3 Nc6",
        },
    )
    assert adjust.status_code == 200, adjust.text
    decision = adjust.json()
    assert decision["kind"] == "adjust-b" and decision["article"] == "F2.7"
    assert decision["moves"] == "1. e4 e5 2. Nf3 Nc6" and decision["to_move"] == "white"
    assert (
        decision["fen"]
        == chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").fen()
    )
    assert "board B" in decision["explanation"] and decision["ply"] == 3
    # Empty scoresheets count as not given: the boards stand for them, and they differ.
    back = reconcile(
        client,
        links,
        "arbiter",
        {"board_a": "1.e4 e5 2.Nf3", "board_b": "1.e4 e5 2.Nc3", "sheet_a": "", "sheet_b": None},
    ).json()
    assert back["kind"] == "take-back" and back["article"] == "F2.8"
    assert back["moves"] == "1. e4 e5" and back["ply"] == 2 and back["to_move"] == "white"


def test_reconcile_reads_the_game_notation_unless_told(client: TestClient) -> None:
    links = new_game(client, notation="es")
    body = {"board_a": "1.e4 e5 2.Cf3 Cc6", "board_b": "1.e4 e5 2.Cf3 Cf6"}
    decision = reconcile(client, links, "arbiter", body).json()
    assert decision["kind"] == "take-back" and decision["moves"] == "1. e4 e5 2. Cf3"
    english = {"board_a": "1.e4 e5 2.Nf3", "board_b": "1.e4 e5 2.Nf3", "notation": "en"}
    assert reconcile(client, links, "arbiter", english).json()["kind"] == "same"


def test_only_the_arbiter_may_reconcile(client: TestClient) -> None:
    links = new_game(client)
    body = {"board_a": "1.e4", "board_b": "1.d4"}
    for role in ("white", "black", None):
        refused = reconcile(client, links, role, body)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "not-allowed"
    wrong = client.post(
        f"/api/games/{links['id']}/reconcile",
        json=body,
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert wrong.status_code == 403
    assert reconcile(client, {**links, "id": "nope"}, "arbiter", body).status_code == 404


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"board_a": "1.e4"}, "bad-request"),
        ({"board_b": "1.e4"}, "bad-request"),
        ({"board_a": 1, "board_b": "1.e4"}, "bad-request"),
        ({"board_a": "1.e4", "board_b": ["1.e4"]}, "bad-request"),
        ({"board_a": "1.e4", "board_b": "1.d4", "sheet_a": 5}, "bad-request"),
        ({"board_a": "1." + " e4" * 10_000, "board_b": "1.e4"}, "bad-request"),
        (["1.e4", "1.d4"], "bad-request"),
        ("1.e4", "bad-request"),
        (None, "bad-request"),
        ({"board_a": "1.e4", "board_b": "1.d4", "notation": "xx"}, "unknown-language"),
        ({"board_a": "1.e4 e5 2.Ke3", "board_b": "1.e4"}, "illegal-move"),
        ({"board_a": "1.e4", "board_b": "1.Zz9"}, "unreadable-move"),
        ({"board_a": "1.e4", "board_b": "1.d4", "sheet_b": "1.d4 Nf3"}, "illegal-move"),
    ],
)
def test_bad_reconcile_input_is_refused_with_a_typed_error(
    client: TestClient, body: Any, code: str
) -> None:
    links = new_game(client)
    response = reconcile(client, links, "arbiter", body, lang="es")
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and error["full"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    links = new_game(client)
    response = client.post(
        f"/api/games/{links['id']}/reconcile",
        content=b"board_a=1.e4",
        headers={**token(links, "arbiter"), "Content-Type": "text/plain"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad-request"


def test_the_pages_offer_blind_mode_and_reconciliation(client: TestClient) -> None:
    links = new_game(client)
    play_page = client.get(f"/play/{links['id']}").text
    assert 'id="blind-mode"' in play_page and 'id="blind-style"' in play_page
    assert 'id="reconcile-form"' not in play_page
    arbiter_page = client.get(f"/arbiter/{links['id']}").text
    assert 'id="reconcile-form"' in arbiter_page and 'id="blind-mode"' not in arbiter_page
    spectator = links["spectator"].rsplit("/", 1)[1]
    watch_page = client.get(f"/watch/{spectator}").text
    assert 'id="reconcile-form"' not in watch_page
