"""Chess notation in every language (Appendix E).

- :mod:`~arbitro.notation.letters`: the national piece letters, as data;
- :mod:`~arbitro.notation.algebraic`: :func:`format` one move (styles ``pgn`` and ``fide``,
  long algebraic, figurines) and :func:`read` one entry (``ok``, ``ambiguous``, ``illegal``,
  ``unreadable``, with the corrections a lenient reading made);
- :mod:`~arbitro.notation.movetext`: whole game scores and PGN text, read, written and
  translated from one language to another;
- :mod:`~arbitro.notation.pgn` and :mod:`~arbitro.notation.scoresheet` (adapters over the Laws
  engine): PGN through python-chess, the engine's games as PGN, and printable scoresheets.

>>> import chess
>>> read("Cf3", chess.Board(), "es").move
Move.from_uci('g1f3')
>>> translate("1.d4 Cf6 2.c4 e6", "es", "en")
'1. d4 Nf6 2. c4 e6'
"""

from arbitro.notation.algebraic import Correction, Reading, format, read
from arbitro.notation.letters import (
    LANGUAGES,
    NotationError,
    PieceLetters,
    letters_for,
    to_english_san,
)
from arbitro.notation.movetext import Score, read_movetext, translate, write_movetext

__all__ = [
    "LANGUAGES",
    "Correction",
    "NotationError",
    "PieceLetters",
    "Reading",
    "Score",
    "format",
    "letters_for",
    "read",
    "read_movetext",
    "to_english_san",
    "translate",
    "write_movetext",
]
