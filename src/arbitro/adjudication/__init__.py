"""Who can still checkmate.

The Laws ask in several places whether a side can checkmate "by any possible series of legal
moves": a dead position ends the game (5.2.2), a fallen flag only draws when the opponent
cannot mate (6.9), a blitz illegal-move claim draws when the claimant cannot mate.

For now the answers rest on material alone (king; king and one minor piece; kings and bishops
all on squares of one colour), which is sound — it never says "cannot mate" when a mate exists
— but does not see locked pawn chains and similar positions.

>>> import chess
>>> cannot_checkmate(chess.Board("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"), chess.WHITE)
True
>>> is_dead_position(chess.Board("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"))
True
"""

from __future__ import annotations

import chess

__all__ = ["cannot_checkmate", "has_bare_material", "is_dead_position"]


def cannot_checkmate(board: chess.Board, color: chess.Color) -> bool:
    """True only when ``color`` provably cannot checkmate by any series of legal moves."""
    return board.has_insufficient_material(color)


def is_dead_position(board: chess.Board) -> bool:
    """Neither side can checkmate by any series of legal moves (5.2.2)."""
    return board.is_insufficient_material()


def has_bare_material(board: chess.Board, color: chess.Color) -> bool:
    """``color`` has only its king, or its king and one knight or bishop (the club rule)."""
    own = board.occupied_co[color]
    others = own & ~board.kings
    if not others:
        return True
    minor = board.knights | board.bishops
    return bool(others & minor) and chess.popcount(others) == 1
