"""Chess notation in many languages.

For now: the national piece letters of ``../shared/spec/notation.md`` and a reader that turns
SAN written in any of those languages into a move on a python-chess board.
"""

from arbitro.notation.letters import LANGUAGES, PieceLetters, letters_for, to_english_san

__all__ = ["LANGUAGES", "PieceLetters", "letters_for", "to_english_san"]
