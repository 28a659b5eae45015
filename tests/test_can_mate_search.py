"""The shortcuts of the cooperative mate search (``arbitro.adjudication.search``): each must
give exactly what python-chess gives, on positions reached by random play; and its compiled
form must be the same search."""

from __future__ import annotations

import os
import threading
import time

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbitro.adjudication import search
from arbitro.adjudication.static import prove_cannot_mate
from positions import walk
from test_can_mate import NEEDS_DATA, reference

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",
    "8/8/4k3/4p3/8/4K3/8/2N5 w - - 0 1",
    "1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - - 0 1",
    "8/8/8/B7/2k5/1p6/1K6/8 b - - 0 1",
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPP2/4K3 w - - 0 1",
]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 10_000), max_size=40))
def test_the_child_key_is_the_key_after_the_move(start: str, choices: list[int]) -> None:
    board = walk(start, choices)
    key = search._key(board)
    for move in board.legal_moves:
        child = search._child_key(key, move)
        after = board.copy(stack=False)
        after.push(move)
        assert child is None or child == search._key(after), (board.fen(), move)
        if not board.castling_rights and board.ep_square is None:
            # only a pawn's double step is left to python-chess then
            double = (
                board.pawns & chess.BB_SQUARES[move.from_square]
                and abs(move.to_square - move.from_square) == 16
            )
            assert (child is None) == bool(double)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 10_000), max_size=40))
def test_gives_check_and_covered_are_python_chess(start: str, choices: list[int]) -> None:
    board = walk(start, choices)
    mover = board.turn
    lk = board.king(not mover)
    assert lk is not None
    mine = board.occupied_co[mover]
    for move in board.legal_moves:
        assert search._gives_check(board, move, lk, mine) == board.gives_check(move)
    expected = 0
    for sq in chess.scan_forward(mine):
        expected |= board.attacks_mask(sq)
    assert search._covered(board, mine, mover) == expected


def test_a_search_finds_a_line_that_mates() -> None:
    board = chess.Board("8/8/4k3/4p3/8/4K3/8/2N5 w - - 0 1")
    line, exhausted = search.find_mate(board, chess.WHITE, 50_000)
    assert line is not None and not exhausted
    for move in line:
        board.push(move)
    assert board.is_checkmate() and board.turn == chess.BLACK


def test_positions_the_static_analysis_proves_dead_are_pruned() -> None:
    # Every line goes through a capture after which White cannot mate (the pawn taken, or
    # the rook or queen taken by the pawn): the pruned search exhausts at once, where the
    # unpruned one wanders among Black's heavy pieces' moves.
    board = chess.Board("k1r5/1P6/K7/2q5/8/8/8/8 b - - 0 1")
    searcher = search._Search(chess.WHITE, 50_000)
    assert searcher.run(board.copy(stack=False)) == (None, True)
    assert searcher.pruned > 0


# The compiled search (``_helpmate.c``) must be the Python one, move for move: the same legal
# moves in python-chess's order, the same keys, the same positions expanded in the same order.

# (under CI it must have been built: the tests then run, and fail without it)
compiled = pytest.mark.skipif(
    search._helpmate is None and os.environ.get("CI") != "true",
    reason="the compiled search was not built (no C compiler)",
)


@compiled
@settings(max_examples=80, deadline=None)
@given(st.sampled_from(STARTS), st.lists(st.integers(0, 10_000), max_size=60))
def test_the_compiled_moves_and_keys_are_python_chess(start: str, choices: list[int]) -> None:
    assert search._helpmate is not None
    board = search._from_key(search._key(walk(start, choices)), False)
    key = search._key(board)
    moves = list(board.generate_legal_moves())
    assert search._helpmate.legal_moves(key) == [
        (m.from_square, m.to_square, m.promotion or 0) for m in moves
    ]
    for move in moves:
        after = board.copy(stack=False)
        after.push(move)
        triple = (move.from_square, move.to_square, move.promotion or 0)
        assert search._helpmate.child_key(key, triple) == search._key(after), (board.fen(), move)


def both_searches(board: chess.Board, color: chess.Color, limit: int) -> None:
    python = search._Search(color, limit)
    expected = python.run(board.copy(stack=False))
    native = search._Search(color, limit)
    assert native.run_compiled(board.copy(stack=False)) == expected, (board.fen(), color)
    assert native.nodes == python.nodes
    assert native.pruned == python.pruned


@compiled
@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/4p3/8/4K3/8/2N5 w - - 0 1",  # a mate (found)
        "k1r5/1P6/K7/2q5/8/8/8/8 b - - 0 1",  # no mate (exhausted, with pruning)
        "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1",  # castling, en passant, promotions
        "1k6/1P1p1p1p/BP6/1P5p/8/5K2/3P1P1P/8 w - - 0 1",  # the limit reached
    ],
)
def test_the_compiled_search_is_the_python_search(fen: str) -> None:
    for color in chess.COLORS:
        both_searches(chess.Board(fen), color, 3_000)


@compiled
@NEEDS_DATA
def test_the_compiled_search_is_the_python_search_on_reference_positions() -> None:
    for board, _, _ in reference()[::4]:
        for color in chess.COLORS:
            if (
                prove_cannot_mate(board, color) is None
                and not board.is_checkmate()
                and not board.is_insufficient_material()
                and board.occupied_co[color] & ~board.kings
            ):
                both_searches(board, color, 1_000)


@compiled
def test_the_compiled_search_lets_other_threads_run() -> None:
    # A search of a second must not stop a server's event loop: the C code gives the GIL back
    # while it searches. The main thread counts the turns it gets while the search runs.
    board = chess.Board("8/8/8/8/3k4/1Bn5/BKB5/1B6 w - - 0 1")  # no mate within the limit
    state = {"running": False, "done": False}

    def run() -> None:
        state["running"] = True
        search._Search(chess.WHITE, 2_000_000).run_compiled(board)
        state["done"] = True

    worker = threading.Thread(target=run)
    worker.start()
    turns = 0
    while not state["done"]:
        if state["running"]:
            turns += 1
        time.sleep(0.001)
    worker.join()
    # (holding the GIL throughout, the search would leave it one or two turns)
    assert turns > 10


@compiled
def test_the_compiled_search_refuses_a_position_without_a_king() -> None:
    assert search._helpmate is not None
    key = search._key(chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1"))
    with pytest.raises(ValueError, match="one king of each side"):
        search._helpmate.legal_moves(key)
    with pytest.raises(ValueError, match="one king of each side"):
        search._helpmate.search(key, True, 1_000, lambda _: False, 500)
