"""A position's FEN, written faster than python-chess writes it (the same text).

A live server writes the FEN of every position for every view: python-chess asks each of the
64 squares for its piece; here each piece's bitboard is walked once and the empty squares are
counted by replacing runs of them.

>>> import chess
>>> fen(chess.Board())
'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
"""

from __future__ import annotations

import chess

_SYMBOLS = {chess.WHITE: "PNBRQK", chess.BLACK: "pnbrqk"}
#: Runs of empty squares, longest first (a run never crosses a rank: "/" stands between).
_RUNS = tuple(("1" * n, str(n)) for n in range(8, 1, -1))


def board_fen(board: chess.BaseBoard) -> str:
    """The piece placement field, as ``board.board_fen()`` writes it."""
    cells = ["1"] * 64
    for color, symbols in _SYMBOLS.items():
        for piece_type, symbol in enumerate(symbols, start=chess.PAWN):
            for square in chess.scan_forward(board.pieces_mask(piece_type, color)):
                cells[square] = symbol
    text = "/".join("".join(cells[rank * 8 : rank * 8 + 8]) for rank in range(7, -1, -1))
    for run, count in _RUNS:
        if run in text:
            text = text.replace(run, count)
    return text


def fen(board: chess.Board) -> str:
    """The FEN of a standard board, as ``board.fen()`` writes it (en passant square only when
    a capture there is legal)."""
    ep = chess.SQUARE_NAMES[board.ep_square] if board.has_legal_en_passant() else "-"  # type: ignore[index]
    castling = board.castling_xfen()
    turn = "w" if board.turn else "b"
    return (
        f"{board_fen(board)} {turn} {castling} {ep} {board.halfmove_clock} {board.fullmove_number}"
    )
