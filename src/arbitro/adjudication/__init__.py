"""Who can still checkmate.

The Laws ask in several places whether a side can checkmate "by any possible series of legal
moves" — the opponent cooperating: a dead position ends the game (5.2.2), a fallen flag only
draws when the opponent cannot mate (6.9), a blitz illegal-move claim draws when the claimant
cannot mate.

Two tools answer it, and :func:`can_checkmate` combines them:

- a sound static analysis (:mod:`arbitro.adjudication.static`) that proves "cannot mate" from
  material, bishops' colours and locked pawn structures — quick mode uses only this;
- a bounded cooperative search (:mod:`arbitro.adjudication.search`) for a mating line, which
  proves "can mate" with the line, or "cannot mate" when it exhausts every continuation;
- when that search gives up, a goal-directed depth-first dive
  (:mod:`arbitro.adjudication.dive`) that only ever proves "can mate", with a line.

Neither ever answers "no" when a mate exists; when neither decides, the answer is ``unknown``.

>>> import chess
>>> can_checkmate(chess.Board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), chess.WHITE).answer
'no'
>>> is_dead_position(chess.Board("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"))
True
"""

from __future__ import annotations

from itertools import islice
from typing import Literal

import chess

from arbitro.adjudication.dive import dive
from arbitro.adjudication.search import COMPILED, find_mate
from arbitro.adjudication.static import AHEAD, prove_cannot_mate
from arbitro.adjudication.verdict import Verdict

__all__ = [
    "DEFAULT_LIMIT",
    "Verdict",
    "can_checkmate",
    "cannot_checkmate",
    "has_bare_material",
    "is_dead_position",
    "may_be_dead",
]

#: Nodes the full mode's best-first search may visit per question (a node is a move generated;
#: a run of the static analysis counts as ``search.STATIC_COST``); the dive that follows when
#: it gives up gets ``_DIVE_SHARE`` times as many of its own, up to ``_DIVE_MAX``. The compiled
#: search visits 5,000,000 in about a second at most (the engine asks at a flag fall, in a
#: worker thread of the server): on the reference positions that leaves 31 of 3,744 questions
#: unanswered. The Python search, where the compiled one could not be built, is some 50 times
#: slower and gets 50,000.
DEFAULT_LIMIT = 5_000_000 if COMPILED else 50_000

# The dive's nodes (moves generated; a move played counts as several) are cheaper than the
# best-first search's: it gets this many times the limit, but no more than ``_DIVE_MAX``.
_DIVE_SHARE = 2
_DIVE_MAX = 100_000

Mode = Literal["quick", "full"]

# The verdicts that carry nothing of the position (a verdict is immutable: one serves all).
_NOT_LEGAL = Verdict("unknown", "not a position of a legal game: nothing can be proved")
_QUICK_UNKNOWN = Verdict("unknown", "the quick analysis proves nothing here")


def can_checkmate(
    board: chess.Board, color: chess.Color, mode: Mode = "full", limit: int = DEFAULT_LIMIT
) -> Verdict:
    """Can ``color`` checkmate by some series of legal moves (the opponent cooperating)?

    ``quick`` only ever proves "cannot mate" (else ``unknown``); ``full`` also searches for a
    mating line within ``limit`` nodes.

    :raises ValueError: for an unknown ``mode``.
    """
    if mode not in ("quick", "full"):
        raise ValueError(f"mode is 'quick' or 'full', not {mode!r}")
    color = bool(color)  # (1 and 0 too: the compiled analysis takes only a bool)
    if not _analysable(board):
        # A position a physical board can hold but the Laws cannot (a king missing, a pawn on
        # its last rank): nothing is proved either way.
        return _NOT_LEGAL
    reason = prove_cannot_mate(board, color)
    if reason is not None:
        if reason == "insufficient material":
            reason = material_reason(board, color)
        return Verdict("no", reason)
    if mode == "quick":
        return _QUICK_UNKNOWN
    work = board.copy(stack=False)
    line, exhausted = find_mate(work, color, limit)
    if line is not None:
        sans = _mating_line(board, color, line)
        if sans is not None:
            return Verdict("yes", "", sans)
    if exhausted:
        return Verdict("no", "every possible continuation was tried: none ends in mate")
    # The best-first search gave up: a goal-directed depth-first dive, with its own budget,
    # finds many of the long mates it misses (a "yes" only, checked like the first).
    line = dive(board.copy(stack=False), color, min(limit * _DIVE_SHARE, _DIVE_MAX))
    if line is not None:
        sans = _mating_line(board, color, line)
        if sans is not None:
            return Verdict("yes", "", sans)
    return Verdict("unknown", f"no mate found within {limit} positions")


def _analysable(board: chess.Board) -> bool:
    """One king each, no pawn on a last rank, and the side not to move not in check."""
    kings = board.kings
    white = kings & board.occupied_co[chess.WHITE]
    black = kings & board.occupied_co[chess.BLACK]
    if (
        not white
        or white & (white - 1)
        or not black
        or black & (black - 1)
        or board.pawns & chess.BB_BACKRANKS
    ):
        return False
    waiting = (black if board.turn else white).bit_length() - 1
    return not board.attackers_mask(board.turn, waiting)


def material_reason(board: chess.Board, color: chess.Color) -> str:
    """Why ``color``'s material cannot mate, in words."""
    own = board.occupied_co[color] & ~board.kings
    if not own:
        return "only a king"
    if own & board.knights:
        return "only king and knight"
    bishops = "bishop" if chess.popcount(own) == 1 else "bishops"
    return f"only king and {bishops}, and every bishop on the board on squares of one colour"


def _mating_line(
    board: chess.Board, color: chess.Color, line: list[chess.Move]
) -> tuple[str, ...] | None:
    """The line in SAN, checked move by move: ``None`` unless every move is legal and the last
    one checkmates ``color``'s opponent (a "yes" is never taken on trust)."""
    replay = board.copy(stack=False)
    sans = []
    for move in line:
        if not replay.is_legal(move):
            return None
        sans.append(replay.san(move))
        replay.push(move)
    if not replay.is_checkmate() or replay.turn == color:
        return None
    return tuple(sans)


def cannot_checkmate(board: chess.Board, color: chess.Color) -> bool:
    """True only when ``color`` provably cannot checkmate (the full analysis says ``no``).

    Where the analysis cannot decide, the answer is False: a loss on time stands unless it is
    proved that the opponent could not have mated.
    """
    return can_checkmate(board, color).answer == "no"


def is_dead_position(board: chess.Board) -> bool:
    """Neither side can checkmate by any series of legal moves (5.2.2), as the quick (static)
    analysis proves it."""
    return (
        _analysable(board)
        and prove_cannot_mate(board, chess.WHITE) is not None
        and prove_cannot_mate(board, chess.BLACK) is not None
    )


def may_be_dead(board: chess.Board) -> bool:
    """A cheap filter for the engine's check after every capture, pawn move or promotion.

    True when the material alone cannot mate; when every pawn is blocked head-on by a pawn;
    with no rook or queen, when every pawn has a man ahead of it on its file, or when there is
    no pawn and at most two minor pieces; and when the side to move is in check with at most
    two legal moves (a forced line). A dead position it holds back is found when a later
    capture or pawn move lets it through.
    """
    if board.is_insufficient_material():
        return True
    pawns = board.pawns
    white_pawns = pawns & board.occupied_co[chess.WHITE]
    black_pawns = pawns & board.occupied_co[chess.BLACK]
    heavy = board.rooks | board.queens
    if pawns:
        if not ((white_pawns << 8) & chess.BB_ALL | (black_pawns >> 8)) & ~pawns:
            return True  # every pawn is blocked head-on
        if not heavy and not _unobstructed(board):
            return True
    elif not heavy and chess.popcount(board.occupied & ~board.kings) <= 2:
        return True
    return board.is_check() and len(list(islice(board.generate_legal_moves(), 3))) <= 2


def _unobstructed(board: chess.Board) -> bool:
    """Has some pawn no man ahead of it on its file?"""
    occupied = board.occupied
    for color in (chess.WHITE, chess.BLACK):
        ahead = AHEAD[color]
        for sq in chess.scan_forward(board.pawns & board.occupied_co[color]):
            if not ahead[sq] & occupied:
                return True
    return False


def has_bare_material(board: chess.Board, color: chess.Color) -> bool:
    """``color`` has only its king, or its king and one knight or bishop (the club rule)."""
    own = board.occupied_co[color]
    others = own & ~board.kings
    if not others:
        return True
    minor = board.knights | board.bishops
    return bool(others & minor) and chess.popcount(others) == 1
