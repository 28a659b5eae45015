"""Adjourned games (Appendix A of the 2001 Laws): the engine, the envelope and its secrecy.

The scenarios under ``scenarios/`` replay A1 to A13 at the board; these tests check what a
scenario cannot see: the record on the envelope (A2, A3), the sealed move kept unreadable until
the envelope is opened (A7), and that a refused action changes nothing.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.errors import GameError
from arbitro.game import Event, Game
from arbitro.game.envelope import envelope_key, key_text, open_sealed, seal_move
from arbitro.notation.envelope_sheet import render_html, render_text

SECRET = b"a secret kept outside the store"


def adjourned(sealed: str | None = "Nf3") -> Game:
    """1.e4 e5, adjourned with White to seal (at 10 s): A1."""
    game = Game.create("fide-2001", "40/7200+30:1800", players=("Ana", "Luis"))
    game.start(0)
    game.play("white", "e4", 1_000)
    game.play("black", "e5", 2_000)
    game.adjourn(10_000, date="2026-12-01", time="10:00", place="Sala 2")
    if sealed is not None:
        game.seal("white", sealed, 20_000)
    return game


def sealed_with_key(move: str = "Nf3") -> tuple[Game, bytes]:
    game = adjourned(None)
    key = envelope_key(SECRET, "game-1", 1)
    token = seal_move(move, key, nonce=b"\x01" * 12)
    game.apply(Event(20_000, "white", "seal", {"envelope": token, "lang": "en"}))
    return game, key


@pytest.mark.law("A2")
def test_a2_the_envelope_records_everything_but_the_move() -> None:
    game = adjourned()
    game.offer_draw("white", 21_000)  # made with the sealed move: it stands (A2)
    envelope = game.envelope
    assert envelope is not None
    record = envelope.to_dict()
    assert record["players"] == {"white": "Ana", "black": "Luis"}
    assert record["sealer"] == "white"
    assert record["move_number"] == 2
    assert record["fen"] == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    # White's clock ran 1 s, then 2 s to 20 s (18 s): 19 s; Black's 1 s. Each got 30 s.
    assert record["used"] == {"white": 19_000, "black": 1_000}
    assert record["clock"] == {"white": 7_200_000 + 30_000 - 19_000, "black": 7_229_000}
    assert record["resumption"] == {"date": "2026-12-01", "time": "10:00", "place": "Sala 2"}
    assert record["opened"] is False
    assert "move" not in record
    assert game.state().sealed is True
    assert game.state().adjournment == "sealed"


@pytest.mark.law("A2")
def test_a2_a_draw_offer_standing_at_the_sealing_goes_on_the_envelope() -> None:
    game = adjourned(None)
    game.offer_draw("black", 15_000)
    game.seal("white", "Nf3", 20_000)
    envelope = game.envelope
    assert envelope is not None and envelope.to_dict()["draw_offer"] == "black"


@pytest.mark.law("A7")
def test_a7_the_move_appears_only_once_the_envelope_is_opened() -> None:
    game = adjourned()
    assert "Nf3" not in json.dumps(game.state().to_dict())
    game.resume(3_600_000, ["white", "black"])
    envelope = game.envelope
    assert envelope is not None and envelope.opened and envelope.move == "Nf3"
    assert game.state().adjournment is None


@pytest.mark.law("A7")
def test_a7_a_sealed_envelope_needs_its_key_and_the_log_never_holds_the_move() -> None:
    game, key = sealed_with_key("Nf3")
    log = game.to_json()
    assert "Nf3" not in log and "g1f3" not in log
    assert game.opens_envelope(["black"]) and not game.opens_envelope(["white"])
    before = (game.to_json(), game.state(3_600_000))
    with pytest.raises(GameError) as missing:
        game.resume(3_600_000, ["white", "black"])
    assert missing.value.code == "envelope-key-missing"
    wrong = key_text(envelope_key(SECRET, "game-2", 1))
    with pytest.raises(GameError) as refused:
        game.resume(3_600_000, ["white", "black"], key=wrong)
    assert refused.value.code == "envelope-key-wrong"
    assert (game.to_json(), game.state(3_600_000)) == before  # nothing changed
    game.resume(3_600_000, ["white", "black"], key=key_text(key))
    assert game.state().fen.startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/")
    # The log replays to the same game, now that the key is in it.
    again = Game.from_json(game.to_json())
    assert again.state() == game.state()


@pytest.mark.law("A9")
def test_a9_with_the_answerer_absent_the_key_is_not_asked_for() -> None:
    game, key = sealed_with_key("Nf3")
    game.resume(3_600_000, ["white"])  # opens nothing: no key needed
    assert game.state().sealed and "key" not in game.to_json()
    game.resume(3_700_000, ["black"], key=key_text(key))
    assert not game.state().sealed
    assert game.plies[-1].pressed_at == 3_600_000  # completed on the clock at the resumption


def test_envelope_crypto_round_trip_and_tampering() -> None:
    key = envelope_key(SECRET, "g", 1)
    token = seal_move("Caballo Félix tres", key, nonce=bytes(range(12)))
    assert open_sealed(token, key) == "Caballo Félix tres"
    tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    with pytest.raises(GameError) as error:
        open_sealed(tampered, key)
    assert error.value.code == "envelope-key-wrong"
    with pytest.raises(ValueError):
        seal_move("e4", key, nonce=b"short")
    assert envelope_key(SECRET, "g", 1) != envelope_key(SECRET, "g", 2)


@pytest.mark.law("A1")
def test_a1_only_an_adjourned_game_has_a_move_to_seal() -> None:
    game = Game.create("fide-2001", "90+30")
    game.start(0)
    with pytest.raises(GameError) as error:
        game.seal("white", "e4", 1_000)
    assert error.value.code == "no-adjournment"
    game.adjourn(2_000)
    with pytest.raises(GameError) as error:
        game.seal("black", "e5", 3_000)
    assert error.value.code == "not-your-turn"
    with pytest.raises(GameError) as error:
        game.adjourn(3_000)
    assert error.value.code == "already-adjourned"
    with pytest.raises(GameError) as error:
        game.resume(3_000, ["white", "black"])
    assert error.value.code == "not-adjourned"
    with pytest.raises(GameError) as error:
        game.apply(Event(3_000, "white", "adjourn"))
    assert error.value.code == "not-arbiter"


@pytest.mark.law("A11")
def test_a11_a_missing_envelope_is_declared_when_the_resumption_begins() -> None:
    game = adjourned()
    game.resume(3_600_000, ["white"])
    with pytest.raises(GameError) as error:
        game.resume(3_700_000, ["black"], missing=True)
    assert error.value.code == "bad-argument"


def test_resume_needs_a_list_of_players() -> None:
    game = adjourned()
    for bad in ("white", ["white", "pink"], None):
        with pytest.raises(GameError) as error:
            game.apply(Event(3_600_000, "arbiter", "resume", {"present": bad}))
        assert error.value.code == "bad-argument"


COMMANDS = [
    ("white", "play", {"move": "Nf3"}),
    ("white", "press", {}),
    ("black", "play", {"move": "Nc6"}),
    ("white", "claim", {"claim": "threefold"}),
    ("black", "claim", {"claim": "time"}),
    ("white", "stop-clocks", {}),
    ("arbiter", "restart-clocks", {}),
    ("white", "seal", {"move": "d4"}),
    ("arbiter", "adjourn", {}),
    ("arbiter", "arbiter", {"action": "restore", "ply": 0}),
    ("black", "accept-draw", {}),
    ("arbiter", "resume", {"present": "both"}),
    ("arbiter", "resume", {"present": ["black"], "missing": "yes"}),
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(COMMANDS), max_size=6), st.integers(20_000, 10_000_000))
def test_while_adjourned_a_refused_action_changes_nothing(
    commands: list[tuple[str, str, dict[str, object]]], at: int
) -> None:
    game = adjourned()
    for by, do, args in commands:
        before = (game.to_json(), game.state(at), game.envelopes)
        try:
            game.apply(Event(at, by, do, args))
        except GameError:
            assert (game.to_json(), game.state(at), game.envelopes) == before


@pytest.mark.law("A2")
def test_a2_the_printed_envelope_never_shows_the_move() -> None:
    game = adjourned("Nf3")
    game.resume(3_600_000, ["white", "black"])  # even once it has been opened
    envelope = game.envelope
    assert envelope is not None and envelope.move == "Nf3"
    page = render_html(envelope, lang="es")
    text = render_text(envelope, lang="es")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="es">' in page
    for shown in (page, text):
        assert "Nf3" not in shown and "Cf3" not in shown and "g1f3" not in shown
        assert "Ana" in shown and "Luis" in shown and "Sala 2" in shown
    assert "Sobre de jugada sellada" in page or "Sealed-move envelope" in page


@pytest.mark.law("A8")
def test_a8_only_a_sealed_move_that_cannot_be_played_asks_whether_the_opponent_can_mate() -> None:
    """A server answers that question in a worker thread before the envelope is opened; a
    valid sealed move asks nothing, and asking changes nothing."""
    resume = Event(3_600_000, "arbiter", "resume", {"present": ["white", "black"]})
    valid = adjourned("Nf3")
    assert valid.mate_questions(resume) == []
    invalid = adjourned("Nf4")  # no knight reaches f4
    before = invalid.to_json()
    [(board, side)] = invalid.mate_questions(resume)
    assert side is False and board.board_fen() == invalid.board.board_fen()
    assert invalid.mate_questions(Event(3_600_000, "arbiter", "resume", {"present": []})) == []
    assert invalid.to_json() == before
