"""National piece letters, as data (``../shared/spec/notation.md``, "Piece letters").

>>> to_english_san("Cxf3", "es")
'Nxf3'
>>> to_english_san("d8D", "es")
'd8=Q'
>>> to_english_san("0-0-0", "de")
'O-O-O'
>>> to_english_san("Be4", "de")   # German B is the pawn (Bauer)
'e4'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arbitro.errors import ArbitroError
from arbitro.i18n import N_, Text

# English letters for pawn, knight, bishop, rook, queen, king.
_ENGLISH = ("", "N", "B", "R", "Q", "K")


@dataclass(frozen=True, slots=True)
class PieceLetters:
    """The letters a language writes for pawn, knight, bishop, rook, queen and king."""

    code: str
    language: str
    pawn: str
    knight: str
    bishop: str
    rook: str
    queen: str
    king: str
    #: What a FIDE-style score adds after an en passant capture (Appendix E: ``a.p.`` in the
    #: Spanish text, ``ep`` in the English one).
    en_passant: str = " ep"

    @property
    def pieces(self) -> tuple[str, str, str, str, str]:
        """Knight, bishop, rook, queen, king."""
        return (self.knight, self.bishop, self.rook, self.queen, self.king)


def _row(code: str, language: str, letters: str, en_passant: str = " ep") -> PieceLetters:
    pawn, knight, bishop, rook, queen, king = letters.split()
    # Russian writes no pawn letter ("-" in the table).
    pawn = "" if pawn == "-" else pawn
    return PieceLetters(code, language, pawn, knight, bishop, rook, queen, king, en_passant)


LANGUAGES: dict[str, PieceLetters] = {
    row.code: row
    for row in (
        _row("en", N_("English"), "P N B R Q K"),
        _row("es", N_("Spanish"), "P C A T D R", "a.p."),
        _row("it", N_("Italian"), "P C A T D R"),
        _row("fr", N_("French"), "P C F T D R"),
        _row("pt", N_("Portuguese"), "P C B T D R"),
        _row("ro", N_("Romanian"), "P C N T D R"),
        _row("de", N_("German"), "B S L T D K"),
        _row("nl", N_("Dutch"), "O P L T D K"),
        _row("da", N_("Danish"), "B S L T D K"),
        _row("no", N_("Norwegian"), "B S L T D K"),
        _row("sv", N_("Swedish"), "B S L T D K"),
        _row("cs", N_("Czech"), "P J S V D K"),
        _row("pl", N_("Polish"), "P S G W H K"),
        _row("hu", N_("Hungarian"), "G H F B V K"),
        _row("fi", N_("Finnish"), "P R L T D K"),
        _row("et", N_("Estonian"), "P R O V L K"),
        _row("is", N_("Icelandic"), "P R B H D K"),
        _row("ru", N_("Russian"), "- К С Л Ф Кр"),
    )
}

_FIGURINES = {
    "♘": "N", "♗": "B", "♖": "R", "♕": "Q", "♔": "K",
    "♞": "N", "♝": "B", "♜": "R", "♛": "Q", "♚": "K",
    "♙": "", "♟": "",
}  # fmt: skip


class NotationError(ArbitroError, ValueError):
    """An entry that cannot be read in the given language."""

    default_code = "unreadable-move"


def letters_for(lang: str) -> PieceLetters:
    """The letters of ``lang``.

    :raises NotationError: ``unknown-language`` for a language not in the table.
    """
    try:
        return LANGUAGES[lang.lower()]
    except KeyError:
        raise NotationError(
            N_("Unknown notation language {lang!r}; known: {known}."),
            code="unknown-language",
            lang=lang,
            known=", ".join(LANGUAGES),
        ) from None


_CASTLING = re.compile(r"^([0O])-?\1(-?\1)?")
_EN_PASSANT = re.compile(r"\s*(e\.?p\.?|a\.?p\.?)\s*$", re.IGNORECASE)
_BODY = re.compile(r"^(?P<piece>\D*?)(?P<rest>[a-h]?[1-8]?[x:\-]?[a-h][1-8])(?P<promo>=?\D*?)$")


def to_english_san(entry: str, lang: str = "en") -> str:
    """``entry``, written with the piece letters of ``lang`` (or figurines), rewritten with
    English letters so that python-chess can read it. Check marks, ``e.p.``/``a.p.`` and draw
    offers ``(=)`` are dropped; zeros in castling become letter O.

    :raises NotationError: when a piece letter is not one of ``lang``'s.
    """
    letters = letters_for(lang)
    text = entry.strip().replace("(=)", "").strip()
    text = text.rstrip("+#!?").rstrip()
    text = _EN_PASSANT.sub("", text)
    castling = _CASTLING.match(text)
    if castling:
        return "O-O-O" if castling.group(2) else "O-O"
    match = _BODY.match(text)
    if match is None:
        return text  # not SAN-shaped; let the move reader refuse it
    piece = _piece(match.group("piece"), letters, entry, lang)
    rest = match.group("rest").replace(":", "x").replace("-", "")
    promo = match.group("promo").lstrip("=")
    if promo:
        english = _piece(promo, letters, entry, lang)
        if not english:
            raise NotationError(
                N_(
                    "In {entry!r}, {letter!r} is a pawn in {language}: a pawn cannot promote "
                    "to a pawn."
                ),
                entry=entry,
                letter=promo,
                language=Text(letters.language),
            )
        return f"{piece}{rest}={english}"
    return f"{piece}{rest}"


def _piece(letter: str, letters: PieceLetters, entry: str, lang: str) -> str:
    if not letter:
        return ""
    if letter in _FIGURINES:
        return _FIGURINES[letter]
    if letter == letters.pawn:
        return ""
    for english, own in zip(_ENGLISH[1:], letters.pieces, strict=True):
        if letter == own:
            return english
    raise NotationError(
        N_("In {entry!r}, {letter!r} is not a piece letter in {language} ({letters})."),
        entry=entry,
        letter=letter,
        language=Text(letters.language),
        letters=" ".join(letters.pieces),
    )
