"""Two boards that differ, corrected from both scoresheets (Appendix F, 2001: F2.7, F2.8)."""

from __future__ import annotations

import argparse
import dataclasses

import chess
import pytest

from arbitro.cli.reconcile import register, run
from arbitro.notation.letters import NotationError
from arbitro.notation.reconcile import Decision, reconcile

START_AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def fen_after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.fen()


@pytest.mark.law("F2.7")
def test_boards_that_agree_need_nothing() -> None:
    decision = reconcile("1.e4 e5 2.Nf3", "1. e4 e5 2. Nf3")
    assert decision.kind == "same"
    assert decision.ply == 3
    assert decision.fen == fen_after("e4", "e5", "Nf3")
    assert decision.moves == "1. e4 e5 2. Nf3"
    assert decision.to_move == "black"
    assert decision.article == "F2.7"
    assert "nothing is corrected" in decision.explain()


@pytest.mark.law("F2.7")
def test_a_transposition_is_the_same_position() -> None:
    decision = reconcile("1.Nf3 Nf6 2.d4", "1.d4 Nf6 2.Nf3")
    assert decision.kind == "same"


@pytest.mark.law("F2.7")
def test_sheets_agree_and_board_a_was_played_wrongly() -> None:
    # The player of board A wrote 2...Nf6 but put the knight on c6.
    decision = reconcile(
        "1.e4 e5 2.Nf3 Nc6",
        "1.e4 e5 2.Nf3 Nf6",
        sheet_a="1.e4 e5 2.Nf3 Nf6",
        sheet_b="1.e4 e5 2.Nf3 Nf6",
    )
    assert decision.kind == "adjust-a"
    assert decision.ply == 3
    assert decision.fen == fen_after("e4", "e5", "Nf3", "Nf6")
    assert decision.moves == "1. e4 e5 2. Nf3 Nf6"
    assert decision.to_move == "white"
    assert decision.article == "F2.7"
    assert decision.behind is None
    assert "board A" in decision.reason()
    assert "2..." in decision.reason()


@pytest.mark.law("F2.7")
def test_sheets_agree_and_board_b_was_played_wrongly() -> None:
    # Scoresheet A is not given: it is taken to be board A's moves, which B wrote too.
    decision = reconcile("1.d4 d5 2.c4", "1.d4 d5 2.e4", sheet_b="1.d4 d5 2.c4")
    assert decision.kind == "adjust-b"
    assert decision.ply == 2
    assert decision.fen == fen_after("d4", "d5", "c4")
    assert decision.to_move == "black"


@pytest.mark.law("F2.7")
def test_sheets_agree_and_both_boards_differ_from_them() -> None:
    decision = reconcile("1.e4 e5 2.Nc3", "1.e4 e6 2.Nf3", "1.e4 e5 2.Nf3", "1.e4 e5 2.Nf3")
    assert decision.kind == "adjust-both"
    assert decision.ply == 1  # board B left the scoresheets first
    assert decision.fen == fen_after("e4", "e5", "Nf3")
    assert "neither board" in decision.explain()


@pytest.mark.law("F2.7")
def test_a_move_not_yet_made_on_one_board_is_an_adjustment() -> None:
    decision = reconcile("1.e4 e5", "1.e4 e5 2.Nf3", "1.e4 e5 2.Nf3", "1.e4 e5 2.Nf3")
    assert decision.kind == "adjust-a"
    assert decision.ply == 2
    assert decision.moves == "1. e4 e5 2. Nf3"


@pytest.mark.law("F2.8")
def test_sheets_that_differ_take_the_moves_back() -> None:
    decision = reconcile("1.e4 e5 2.Nf3", "1.e4 e5 2.Nc3")
    assert decision.kind == "take-back"
    assert decision.ply == 2
    assert decision.fen == START_AFTER_E4_E5
    assert decision.moves == "1. e4 e5"
    assert decision.to_move == "white"
    assert decision.article == "F2.8"
    assert decision.behind is None
    assert "clocks" in decision.explain()


@pytest.mark.law("F2.8")
def test_take_back_goes_to_the_last_point_both_sheets_agree() -> None:
    # The boards differ at move 3, but the scoresheets already differ at 2...: back to 2.Nf3.
    decision = reconcile(
        "1.e4 e5 2.Nf3 Nc6 3.Bb5",
        "1.e4 e5 2.Nf3 Nc6 3.Bc4",
        sheet_a="1.e4 e5 2.Nf3 Nc6 3.Bb5",
        sheet_b="1.e4 e5 2.Nf3 Nf6 3.Bc4",
    )
    assert decision.kind == "take-back"
    assert decision.ply == 3
    assert decision.fen == fen_after("e4", "e5", "Nf3")
    assert decision.to_move == "black"


@pytest.mark.law("F2.8")
def test_sheets_that_differ_from_the_first_move_go_back_to_the_start() -> None:
    decision = reconcile("1.e4", "1.d4")
    assert decision.kind == "take-back"
    assert decision.ply == 0
    assert decision.fen == chess.STARTING_FEN
    assert decision.moves == ""
    assert "1." in decision.explain()


@pytest.mark.law("F2.8")
@pytest.mark.parametrize(("short", "behind"), [("a", "a"), ("b", "b")])
def test_a_move_not_yet_written_is_taken_back(short: str, behind: str) -> None:
    # Both boards differ at 2...; one scoresheet has not recorded it yet, so the scoresheets
    # agree only up to 2.Nf3.
    long, brief = "1.e4 e5 2.Nf3 Nf6", "1.e4 e5 2.Nf3"
    sheets = (brief, long) if short == "a" else (long, brief)
    decision = reconcile("1.e4 e5 2.Nf3 Nc6", "1.e4 e5 2.Nf3 Nf6", *sheets)
    assert decision.kind == "take-back"
    assert decision.behind == behind
    assert decision.ply == 3
    assert decision.fen == fen_after("e4", "e5", "Nf3")
    assert f"Scoresheet {behind.upper()}" in decision.explain()


@pytest.mark.law("F2.7")
def test_spanish_notation() -> None:
    decision = reconcile(
        "1.d4 Cf6 2.c4 e6 3.Cc3 Ab4",
        "1.d4 Cf6 2.c4 e6 3.Cc3 Ae7",
        sheet_a="1.d4 Cf6 2.c4 e6 3.Cc3 Ae7",
        lang="es",
    )
    assert decision.kind == "adjust-a"
    assert decision.ply == 5
    assert decision.moves == "1. d4 Cf6 2. c4 e6 3. Cc3 Ae7"
    assert decision.fen == fen_after("d4", "Nf6", "c4", "e6", "Nc3", "Be7")
    assert decision.explain("es")  # a sentence, in Spanish once the catalog has it


def test_a_decision_is_a_frozen_value() -> None:
    decision = reconcile("1.e4", "1.e4")
    assert isinstance(decision, Decision)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decision.kind = "take-back"  # type: ignore[misc]
    assert decision == reconcile("1. e4", "1.e4")


@pytest.mark.law("F2.7")
@pytest.mark.parametrize(
    ("arguments", "where"),
    [
        (("1.e4 e5 2.Xz9", "1.e4"), "board A"),
        (("1.e4", "1.e4 Ke7 2.Ke2 Ke6 3.Kd9"), "board B"),
        (("1.e4", "1.d4", "1.e4 e4"), "scoresheet A"),
        (("1.e4", "1.d4", None, "1.Nf6"), "scoresheet B"),
    ],
)
def test_a_bad_entry_names_where_and_the_move(
    arguments: tuple[str | None, ...], where: str
) -> None:
    with pytest.raises(NotationError) as caught:
        reconcile(*arguments)  # type: ignore[arg-type]
    message = caught.value.message("en")
    assert message.startswith(f"{where}: Move ")
    assert caught.value.message("es")


def test_spanish_letters_are_not_english() -> None:
    # C is no English piece letter; in Spanish it is the knight (caballo).
    with pytest.raises(NotationError):
        reconcile("1.Cf3", "1.Cf3")
    assert reconcile("1.Cf3", "1.Cf3", lang="es").moves == "1. Cf3"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lang", default="en")
    sub = parser.add_subparsers()
    register(sub)
    return parser.parse_args(argv)


@pytest.mark.law("F2.7")
def test_cli_adjust(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(
        [
            "reconcile",
            "--board-a",
            "1.e4 e5 2.Nf3 Nc6",
            "--board-b",
            "1.e4 e5 2.Nf3 Nf6",
            "--sheet-a",
            "1.e4 e5 2.Nf3 Nf6",
        ]
    )
    assert run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("adjust-a (F2.7): Both scoresheets agree")
    assert out[1] == f"fen: {fen_after('e4', 'e5', 'Nf3', 'Nf6')}"
    assert out[2] == "moves: 1. e4 e5 2. Nf3 Nf6"
    assert out[3] == "to move: white"


@pytest.mark.law("F2.8")
def test_cli_take_back_in_spanish(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(
        [
            "--lang",
            "es",
            "reconcile",
            "--board-a",
            "1.d4 Cf6 2.c4",
            "--board-b",
            "1.d4 Cf6 2.Cf3",
            "--lang",
            "es",
        ]
    )
    assert args.lang == "es"
    assert args.notation_lang == "es"
    assert run(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("take-back (F2.8): ")
    assert out[2] == "moves: 1. d4 Cf6"
    assert out[3] == "to move: white"


def test_cli_bad_movetext_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["reconcile", "--board-a", "1.e4 e5 2.Qh9", "--board-b", "1.e4"])
    assert run(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("arbitro: board A: Move 2. 'Qh9'")
