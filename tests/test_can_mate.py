"""Who can still checkmate: composed positions for every reason, the reference positions, the
command line, and the engine using the answers."""

from __future__ import annotations

import csv
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import chess
import pytest

from arbitro.adjudication import can_checkmate, is_dead_position, may_be_dead
from arbitro.adjudication.search import COMPILED
from arbitro.cli import main

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "unwinnability"
NEEDS_DATA = pytest.mark.skipif(
    not DATA.is_dir() and os.environ.get("CI") != "true",
    reason="the reference positions (../shared/data/unwinnability) are not on this machine",
)

NO = [
    # (position, side, words of the reason)
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", chess.WHITE, "only a king"),
    ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", chess.WHITE, "only king and knight"),
    ("8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1", chess.WHITE, "squares of one colour"),
    # A locked wall of pawns keeps each king on its own side.
    (
        "2k5/p1p1p1p1/P1P1P1P1/8/8/8/8/4K3 w - - 0 1",
        chess.WHITE,
        "no piece can ever attack a square the enemy king can reach",
    ),
    # The light-squared bishop can never get past the white pawns on the light squares.
    (
        "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1",
        chess.WHITE,
        "no piece can ever attack a square the enemy king can reach",
    ),
    # Black's king can reach White's, but Black has nothing to cover its escape squares.
    (
        "3k4/p1p1p1p1/P1P1P1P1/2p5/8/8/2P3P1/4K3 w - - 0 1",
        chess.BLACK,
        "escape squares can never all be covered or blocked",
    ),
    # Black's king shuttles between a6 and a5, its pawns locked. A mate on a5 needs a6
    # covered, and only White's king can cover a light square; but Black's last move brought
    # its king from a6, where White's king could not stand next to it.
    (
        "8/1p6/kPp5/2P5/p1P5/P7/5B1B/6K1 b - - 0 1",
        chess.WHITE,
        "can never step onto a square where it could be mated",
    ),
    (
        "8/1p6/kPp5/2P5/p1P5/P7/8/2B1B1K1 w - - 0 1",
        chess.WHITE,
        "can never step onto a square where it could be mated",
    ),
    ("k7/2K5/1P6/8/8/8/8/8 b - - 0 1", chess.WHITE, "stalemate"),
    ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", chess.BLACK, "already checkmated"),
    # Black's only move takes the last pawn: king against king.
    ("k7/P7/2K5/8/8/8/8/8 b - - 0 1", chess.WHITE, "forced line"),
]


@pytest.mark.law("5.2.2")
@pytest.mark.parametrize(("fen", "color", "words"), NO)
def test_composed_positions_where_a_side_cannot_mate(
    fen: str, color: chess.Color, words: str
) -> None:
    for mode in ("quick", "full"):
        verdict = can_checkmate(chess.Board(fen), color, mode)  # type: ignore[arg-type]
        assert verdict.answer == "no", (mode, verdict)
        assert words in verdict.reason


YES = [
    "8/8/4k3/8/8/3QK3/8/8 w - - 0 1",  # king and queen
    "8/8/4k3/8/8/3RK3/8/8 w - - 0 1",  # king and rook
    "8/8/4k3/8/8/2BBK3/8/8 w - - 0 1",  # two bishops
    "8/8/4k3/4p3/8/4K3/8/2N5 w - - 0 1",  # a knight, with a pawn to block its own king
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",  # a pawn that promotes
    # A bishop alone: Black's pawn must promote on b1 to block its own king in the corner (a
    # long line, found by the goal-directed dive).
    "8/8/8/B7/2k5/1p6/1K6/8 b - - 0 1",
]


@pytest.mark.parametrize("fen", YES)
def test_full_mode_finds_a_mating_line_that_mates(fen: str) -> None:
    board = chess.Board(fen)
    verdict = can_checkmate(board, chess.WHITE)
    assert verdict.answer == "yes", verdict
    for san in verdict.line:
        board.push_san(san)
    assert board.is_checkmate() and board.turn == chess.BLACK
    # Quick mode never claims more than it can prove.
    assert can_checkmate(chess.Board(fen), chess.WHITE, "quick").answer == "unknown"


def test_the_board_is_left_as_it_was() -> None:
    board = chess.Board("8/8/4k3/8/8/3QK3/8/8 w - - 0 1")
    before = board.fen()
    can_checkmate(board, chess.WHITE)
    assert board.fen() == before


@pytest.mark.law("5.2.2")
@pytest.mark.parametrize(
    "fen",
    [
        "2k5/p1p1p1p1/P1P1P1P1/8/8/8/8/4K3 w - - 0 1",  # every pawn blocked head-on
        "4k3/2p5/8/p1p1p1p1/P1P1P1P1/8/4P3/3K4 b - - 0 1",  # c7 and e2 can still step
        "8/8/3K4/8/8/8/6Qk/8 b - - 0 1",  # the only move takes the queen
    ],
)
def test_dead_positions_pass_the_engine_filter(fen: str) -> None:
    board = chess.Board(fen)
    assert may_be_dead(board) and is_dead_position(board)


def test_live_positions() -> None:
    assert not is_dead_position(chess.Board())
    assert not may_be_dead(chess.Board())


def test_bad_mode() -> None:
    with pytest.raises(ValueError):
        can_checkmate(chess.Board(), chess.WHITE, "slow")  # type: ignore[arg-type]


def reference() -> list[tuple[chess.Board, bool, bool]]:
    with (DATA / "positions.tsv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        (chess.Board(r["fen"] + " 0 1"), r["white_can_mate"] == "yes", r["black_can_mate"] == "yes")
        for r in rows
    ]


@NEEDS_DATA
def test_quick_mode_on_the_reference_positions_is_never_wrong() -> None:
    proved = 0
    for board, white, black in reference():
        for color, truth in ((chess.WHITE, white), (chess.BLACK, black)):
            answer = can_checkmate(board, color, "quick").answer
            assert answer in ("no", "unknown")
            assert not (answer == "no" and truth), (board.fen(), color)
            proved += answer == "no"
    # CHA's quick mode proves 1,368 of them; ours 1,526 (a shortcut must not lose one).
    assert proved >= 1526


@NEEDS_DATA
def test_the_engine_filter_on_the_reference_dead_positions() -> None:
    missed = [
        board.fen()
        for board, white, black in reference()
        if not white and not black and is_dead_position(board) and not may_be_dead(board)
    ]
    # 52 of the 676 that the analysis proves: mostly rooks or queens locked in behind pawns,
    # and stalemates (the engine tells those apart first). A later capture or pawn move that
    # lets the position through ends the game then.
    assert len(missed) <= 52


def full_answer(job: tuple[str, bool]) -> str:
    """One reference question in full mode at the default limit (run in a worker process)."""
    fen, color = job
    return can_checkmate(chess.Board(fen), color).answer


@NEEDS_DATA
def test_full_mode_on_the_reference_positions_is_never_wrong() -> None:
    # The goal: no wrong answer, and at least 99% of the 3,744 questions answered.
    if not COMPILED:
        # (CI builds it: tests/test_compiled.py)
        assert os.environ.get("CI") != "true", "the compiled search was not built"
        pytest.skip("the compiled search was not built: the Python search would take hours")
    questions = [
        (board.fen(), color, truth)
        for board, white, black in reference()
        for color, truth in ((chess.WHITE, white), (chess.BLACK, black))
    ]
    # (two processes: about a minute on two cores; spawned, as the web tests leave threads)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        answers = list(pool.map(full_answer, [(f, c) for f, c, _ in questions], chunksize=8))
    wrong = [
        (fen, color, answer)
        for (fen, color, truth), answer in zip(questions, answers, strict=True)
        if answer != "unknown" and (answer == "yes") != truth
    ]
    assert wrong == []
    unknown = answers.count("unknown")
    # measured: 31 unknown (the goal allows 37)
    assert unknown <= len(questions) // 100


def test_cli_lines_errors_and_explanations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "positions.txt"
    path.write_text(
        "8/8/4k3/8/8/3NK3/8/8 w - -\nnot a fen\n8/8/4k3/8/8/3QK3/8/8 w - - 0 1\n",
        encoding="utf-8",
    )
    assert main(["can-mate", "--explain", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("8/8/4k3/8/8/3NK3/8/8 w - -\tno (only king and knight)\tno (only a king)")
    assert lines[1].startswith("error\t")
    _, white, black = lines[2].split("\t")
    assert white.startswith("yes (") and black == "no (only a king)"
    assert main(["can-mate", "--mode", "quick", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[2].split("\t")[1] == "unknown"
    assert main(["can-mate", str(tmp_path / "missing.txt")]) == 2
