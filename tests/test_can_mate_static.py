"""The shortcuts of the static analysis (``arbitro.adjudication.static``): each must give the
answers the plain analysis gives, on composed positions and on positions reached by random
play."""

from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

import positions
from arbitro.adjudication import can_checkmate, search
from arbitro.adjudication import static as analysis

# Positions to play from: locked pawns, boxed pieces, pawns about to promote, castling rights.
STARTS = [
    chess.STARTING_FEN,
    "2k5/p1p1p1p1/P1P1P1P1/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/3BK3 w - - 0 1",
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    "6k1/5p1p/5P1P/8/1p6/1P6/P4P2/B5BK w - - 0 1",
    "8/8/8/p7/P5p1/6Pk/7P/7K w - - 0 1",
    "1k6/pPb5/P1p5/2P5/8/6p1/6P1/7K w - - 0 1",
]


def walk(start: str, choices: list[int]) -> chess.Board:
    """The position after playing, from ``start`` (a valid position), the legal moves the
    ``choices`` pick."""
    assert chess.Board(start).is_valid()
    return positions.walk(start, choices)


def worlds(found: analysis._Analysis) -> list[tuple[int, ...]]:
    """Everything the analysis derives, round by round (not the squares the men start on)."""
    rounds = []
    index = 0
    while True:
        world = found._world(index)
        facts = [world.walls, world.wattacks_white, world.wattacks_black]
        for side in (world.white, world.black):
            regions = sorted(region for _, region in side.quiet + side.movers)
            facts += [side.king, side.occupy, side.checks, side.captures]
            facts += [hash(tuple(sorted(side.blockers))), hash(tuple(regions))]
        rounds.append(tuple(facts))
        if found._final(index):
            return rounds
        index += 1


def test_quick_exit_at_the_first_world_where_a_mate_is_possible() -> None:
    # With every hypothesis (no pawn ever captures, no man is ever captured) the locked pawns
    # are walls and nothing can ever check; the kings may take them, and in that second world
    # White's pawn may promote: the analysis stops there, before its fixed point.
    board = chess.Board("2k5/8/6K1/8/p7/P7/8/8 w - - 0 1")
    found = analysis._Analysis(board)
    assert found.mate(chess.WHITE) is True
    assert len(found.worlds) == 2 and found.final_at == -1
    assert can_checkmate(board, chess.WHITE, "quick").answer == "unknown"


def test_forced_line_through_a_shared_analysis() -> None:
    # White's only move, Kg1, keeps the analysis (a quiet king move), and leaves Black
    # stalemated: neither side can mate.
    board = chess.Board("8/8/8/p7/P5p1/6Pk/7P/7K w - - 0 1")
    found = analysis._Analysis(board)
    assert analysis._same_analysis(board, chess.Move.from_uci("h1g1"), found)
    for color in chess.COLORS:
        verdict = can_checkmate(board, color, "quick")
        assert verdict.answer == "no" and "forced line" in verdict.reason


@pytest.mark.parametrize(
    ("fen", "uci"),
    [
        ("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3d5"),  # a capture
        ("4k3/8/8/3p4/8/2N5/4P3/4K3 w - - 0 1", "e2e3"),  # a pawn move
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"),  # castling
        ("4k3/8/8/3pP3/8/2N5/8/4K3 w - d6 0 1", "c3b5"),  # an en passant square
        # the king leaves a square the locked pawn e5 attacks
        ("4k3/8/8/4p3/4PK2/8/8/8 w - - 0 1", "f4g3"),
    ],
)
def test_no_shared_analysis_across_other_moves(fen: str, uci: str) -> None:
    board = chess.Board(fen)
    assert not analysis._same_analysis(board, chess.Move.from_uci(uci), analysis._Analysis(board))


@given(st.sampled_from(STARTS), st.lists(st.integers(min_value=0, max_value=400), max_size=40))
def test_a_shared_analysis_is_the_childs_own(start: str, choices: list[int]) -> None:
    board = walk(start, choices)
    found = analysis._Analysis(board)
    before = None
    for move in board.legal_moves:
        if not analysis._same_analysis(board, move, found):
            continue
        if before is None:
            before = worlds(analysis._Analysis(board))
        child = board.copy(stack=False)
        child.push(move)
        assert worlds(analysis._Analysis(child)) == before, (board.fen(), move)


@pytest.mark.parametrize(
    "fen",
    [
        "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",  # in check
        "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1",  # a pinned bishop
        "k7/2K5/1P6/8/8/8/8/8 b - - 0 1",  # stalemate
        "7k/P7/8/8/8/8/8/K7 w - - 0 1",  # a promotion: four moves
        "1n5k/P7/8/8/8/8/8/K7 w - - 0 1",  # promotions by push and by capture
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",  # en passant
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",  # castling
    ],
)
def test_move_count_from_bitboards_matches_python_chess(fen: str) -> None:
    check_moves(chess.Board(fen))


@given(st.sampled_from(STARTS), st.lists(st.integers(min_value=0, max_value=400), max_size=60))
def test_move_count_from_bitboards_on_played_positions(start: str, choices: list[int]) -> None:
    check_moves(walk(start, choices))


def check_moves(board: chess.Board) -> None:
    legal = list(board.legal_moves)
    decided, moves = analysis._scan_moves(board)
    if decided and moves is None:
        assert len(legal) > analysis._WIDTH, board.fen()
    elif decided:
        assert moves == legal, board.fen()


def test_answers_do_not_depend_on_what_is_remembered() -> None:
    fens = [start for start in STARTS if start != chess.STARTING_FEN]
    warm = [can_checkmate(chess.Board(fen), color, "quick") for fen in fens for color in (1, 0)]
    analysis._CACHE.clear()
    analysis._FILLS.clear()
    analysis._REPLIES.clear()
    analysis._CHILDREN.clear()
    cold = [can_checkmate(chess.Board(fen), color, "quick") for fen in fens for color in (1, 0)]
    assert warm == cold


def test_a_king_capture_that_stalemates_breaks_no_hypothesis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Black's king has only h5 and h6; White's king can take g7 only with it on h5, and Black
    # is then stalemated: the locked pawns stay walls and neither side can mate. The plain
    # search, without any static pruning, agrees (it exhausts every continuation).
    board = chess.Board("8/6p1/5pP1/5P1k/5P1p/5K1P/8/8 w - - 0 1")
    for color in chess.COLORS:
        assert analysis.prove_cannot_mate(board, color) is not None
    monkeypatch.setattr(search, "prove_cannot_mate", lambda board, color: None)
    assert search._Search(chess.WHITE, 10_000).run(board.copy(stack=False)) == (None, True)


def test_a_king_capture_is_not_spared_when_another_man_can_move() -> None:
    # The same with a black knight: Black is not stalemated after Kxg7 (and White can mate).
    board = chess.Board("8/6p1/5pP1/5P1k/5P1p/5K1P/8/n7 w - - 0 1")
    assert analysis.prove_cannot_mate(board, chess.WHITE) is None
    assert can_checkmate(board, chess.WHITE).answer == "yes"


def test_a_discovered_check_is_seen_past_the_kings_square() -> None:
    bb = chess.BB_SQUARES
    # a king on a1, the enemy king leaving b2, a slider on d4: a check may be uncovered
    assert analysis._discovers(chess.A1, bb[chess.B2], 0, bb[chess.D4])
    assert not analysis._discovers(chess.A1, bb[chess.B2], bb[chess.C3], bb[chess.D4])
    assert analysis._discovers(chess.A1, bb[chess.B2], bb[chess.C3], bb[chess.C3])
    assert not analysis._discovers(chess.A1, bb[chess.C3], 0, bb[chess.B2])
    assert not analysis._discovers(chess.A1, bb[chess.B2], 0, bb[chess.D5])
