"""Positions for property tests: where random legal play from a start leads."""

from __future__ import annotations

import chess


def walk(start: str, choices: list[int]) -> chess.Board:
    """The position after playing, from ``start``, the legal moves the ``choices`` pick (each
    taken modulo the number of legal moves; play stops where none is left)."""
    board = chess.Board(start)
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board
