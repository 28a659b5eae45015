"""Spoken moves (Appendix F): announced in each style and heard back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.notation.letters import NotationError
from arbitro.notation.spoken import STYLES, announce, announce_styles, hear


@pytest.mark.law("F1")
@pytest.mark.parametrize(
    ("style", "knight", "castle", "capture"),
    [
        (
            "fide",
            "Springer Felix drei",
            "Kurze Rochade",
            "Bauer Eva schlaegt David sechs en passant",
        ),
        ("es", "Caballo Félix tres", "enroque corto", "peón Eva captura David seis al paso"),
        ("en", "Knight Felix three", "short castling", "pawn Eva takes David six en passant"),
    ],
)
def test_announcements_in_each_style(style: str, knight: str, castle: str, capture: str) -> None:
    assert announce(chess.Move.from_uci("g1f3"), chess.Board(), style) == knight
    castling = chess.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert announce(chess.Move.from_uci("e1g1"), castling, style) == castle
    passant = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert announce(chess.Move.from_uci("e5d6"), passant, style) == capture


@pytest.mark.law("F1")
def test_the_piece_a_pawn_becomes_and_check_are_announced() -> None:
    board = chess.Board("4k3/3P4/8/8/8/8/8/4K3 w - - 0 1")
    assert announce(chess.Move.from_uci("d7d8q"), board, "es") == "peón David ocho Dama, jaque"
    assert hear("peón David ocho Dama", board).uci() == "d7d8q"
    assert hear("pawn David eight Knight", board, "en").uci() == "d7d8n"


def test_hearing_is_tolerant_of_case_accents_and_umlauts() -> None:
    board = chess.Board()
    assert hear("CABALLO FELIX TRES", board).uci() == "g1f3"
    assert hear("caballo félix tres", board, "es").uci() == "g1f3"
    assert hear("Springer Felix drei", board, "fide").uci() == "g1f3"
    assert hear("peon eva cuatro", board).uci() == "e2e4"
    bishop = chess.Board("4k3/8/8/8/8/8/8/4KB2 w - - 0 1")
    assert hear("Läufer Cesar vier", bishop).uci() == "f1c4"
    assert hear("Laufer Cesar vier", bishop).uci() == "f1c4"


@pytest.mark.parametrize(
    ("words", "code"),
    [
        ("Caballo Félix nueve", "unreadable-move"),
        ("Caballo Félix", "unreadable-move"),
        ("Torre Ana tres", "illegal-move"),
        ("enroque largo", "illegal-move"),
    ],
)
def test_words_that_name_no_move(words: str, code: str) -> None:
    with pytest.raises(NotationError) as refused:
        hear(words, chess.Board())
    assert refused.value.code == code


def test_two_pieces_are_told_apart_as_e10_writes() -> None:
    board = chess.Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    move = chess.Move.from_uci("b1d2")
    assert announce(move, board, "es") == "Caballo Bella David dos"
    assert hear("Caballo Bella David dos", board).uci() == "b1d2"
    with pytest.raises(NotationError) as refused:
        hear("Caballo David dos", chess.Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"))
    assert refused.value.code == "ambiguous-move"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60),
    st.sampled_from(sorted(STYLES)),
)
def test_every_announced_move_is_heard_back(picks: list[int], style: str) -> None:
    board = chess.Board()
    for pick in picks:
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[pick % len(moves)]
        spoken = announce(move, board, style)
        assert hear(spoken, board, style) == move, spoken
        assert hear(spoken, board) == move, spoken
        board.push(move)


def test_cli_announces_and_parses(capsys: pytest.CaptureFixture[str]) -> None:
    from arbitro.cli import main  # noqa: PLC0415

    assert main(["announce", "--style", "es", "1. e4 e5 2. Nf3"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "1. peón Eva cuatro",
        "1... peón Eva cinco",
        "2. Caballo Félix tres",
    ]
    spoken = "peón Eva cuatro; peón Eva cinco; Caballo Félix tres"
    assert main(["announce", "--parse", "--style", "es", "--lang", "es", spoken]) == 0
    assert capsys.readouterr().out.strip() == "1. e4 e5 2. Cf3"
    assert main(["announce", "--parse", "--lang", "es", "peón Eva cuatro; Caballo César seis"]) == 0
    assert capsys.readouterr().out.strip() == "1. e4 Cc6"
    assert main(["announce", "--parse", "Caballo Félix nueve"]) == 2
    assert "names no piece" in capsys.readouterr().err


def test_cli_audio_needs_espeak(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arbitro.cli import main  # noqa: PLC0415

    wav = tmp_path / "game.wav"
    status = main(["announce", "--style", "es", "--audio", str(wav), "1. e4"])
    if shutil.which("espeak-ng"):
        assert status == 0 and wav.stat().st_size > 1000
    else:
        assert status == 2 and "espeak-ng" in capsys.readouterr().err


CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "pgn"


@pytest.mark.skipif(
    not CORPUS.is_dir() and os.environ.get("CI") != "true",
    reason="the game corpus (../shared/data/pgn) is not on this machine",
)
@pytest.mark.parametrize("style", sorted(STYLES))
def test_a_corpus_sample_round_trips_through_spoken_words(style: str) -> None:
    from arbitro.notation.movetext import scores, split_games  # noqa: PLC0415

    for path in sorted(CORPUS.glob("*.pgn")):
        for pgn in split_games(path.read_text(encoding="utf-8"))[:3]:
            if "960" in pgn.headers().get("Variant", ""):
                continue
            (score,) = scores("\n".join(pgn.tags) + "\n" + pgn.movetext)
            board = pgn.start()
            for move in score.moves:
                spoken = announce(move, board, style)
                assert hear(spoken, board, style) == move, (path.name, spoken)
                board.push(move)


def test_announce_styles_says_what_announce_says_in_each_style() -> None:
    for fen in (
        chess.STARTING_FEN,
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "1k6/8/2N1N3/8/2N1N3/8/8/K7 w - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",  # a mate on the back rank
    ):
        board = chess.Board(fen)
        for move in board.legal_moves:
            together = announce_styles(move, board)
            assert together == {style: announce(move, board, style) for style in STYLES}
    with pytest.raises(ValueError):
        announce_styles(chess.Move.from_uci("e2e5"), chess.Board())
