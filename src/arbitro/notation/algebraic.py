"""Algebraic notation (Appendix E) in every language: writing a move, and reading an entry.

:func:`format` writes a legal move the way PGN does (``pgn``: ``O-O``, ``e8=Q``, ``#``) or the
way the FIDE appendix does (``fide``: ``0-0``, ``e8D``, ``++``, ``exd6a.p.``), with the piece
letters of any language of :data:`~arbitro.notation.letters.LANGUAGES`, in short or long form,
with letters or figurines.

:func:`read` decides what a written entry means on a given board: ``ok`` with the one move
(and, in lenient mode, the corrections it made), ``ambiguous`` with every move it could mean,
``illegal`` with the reason, or ``unreadable``. This is the ruling Appendix A8 needs for a
sealed move.

>>> import chess
>>> board = chess.Board()
>>> format(chess.Move.from_uci("g1f3"), board, "es")
'Cf3'
>>> reading = read("Cf3", board, "es")
>>> reading.status, reading.move.uci()
('ok', 'g1f3')
>>> board = chess.Board("4k3/8/8/8/8/8/6p1/4K3 b - - 0 1")
>>> print(read("g1R", board, "es").explain())
In Spanish, R is the king: a pawn cannot become a king. The rook is T.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import chess

from arbitro.i18n import N_, Text
from arbitro.notation.letters import PieceLetters, letters_for

__all__ = ["Correction", "Reading", "Style", "format", "read"]

Style = Literal["pgn", "fide"]
Status = Literal["ok", "ambiguous", "illegal", "unreadable"]

_ENGLISH = "PNBRQK"  # index + 1 is python-chess's piece type
_WHITE_FIGURINES = "♙♘♗♖♕♔"
_BLACK_FIGURINES = "♟♞♝♜♛♚"

PIECE_NAMES = {
    chess.PAWN: N_("pawn"),
    chess.KNIGHT: N_("knight"),
    chess.BISHOP: N_("bishop"),
    chess.ROOK: N_("rook"),
    chess.QUEEN: N_("queen"),
    chess.KING: N_("king"),
}


def _letter(letters: PieceLetters, piece_type: int) -> str:
    return (letters.pawn, *letters.pieces)[piece_type - 1]


def figurine(piece_type: int, color: chess.Color) -> str:
    """The Unicode figurine of a piece."""
    return (_WHITE_FIGURINES if color else _BLACK_FIGURINES)[piece_type - 1]


# -- writing ------------------------------------------------------------------------------------


def format(
    move: chess.Move,
    board: chess.Board,
    lang: str = "en",
    style: Style = "pgn",
    *,
    figurines: bool = False,
    long: bool = False,
) -> str:
    """``move`` (legal on ``board``) written in ``lang``.

    >>> import chess
    >>> board = chess.Board("4k3/3P4/8/8/8/8/8/4K3 w - - 0 1")
    >>> promotion = chess.Move.from_uci("d7d8q")
    >>> format(promotion, board, "es"), format(promotion, board, "es", "fide")
    ('d8=D+', 'd8D+')
    >>> format(promotion, board, "de", long=True), format(promotion, board, figurines=True)
    ('d7-d8=D+', 'd8=♕+')

    :raises ValueError: when ``move`` is not legal on ``board``.
    """
    if style not in ("pgn", "fide"):
        raise ValueError(f"style is 'pgn' or 'fide', not {style!r}")
    if not board.is_legal(move):
        raise ValueError(f"{move.uci()} is not a legal move in {board.fen()}")
    board.push(move)
    try:
        return format_last(board, lang, style, figurines=figurines, long=long)
    finally:
        board.pop()


def format_last(
    board: chess.Board,
    lang: str = "en",
    style: Style = "pgn",
    *,
    figurines: bool = False,
    long: bool = False,
) -> str:
    """The last move of ``board``'s move stack, written as :func:`format` writes it (the move
    stays on the board; a score writer saves a push that way)."""
    mark = ("#" if board.is_checkmate() else "+") if board.is_check() else ""
    move = board.pop()
    try:
        return _body(
            move, board, letters_for(lang), style=style, figurines=figurines, long=long
        ) + ("++" if style == "fide" and mark == "#" else mark)
    finally:
        board.push(move)


def write_body(
    move: chess.Move,
    board: chess.Board,
    lang: str = "en",
    style: Style = "pgn",
    *,
    figurines: bool = False,
    long: bool = False,
) -> str:
    """:func:`format` without the check mark (for a writer that knows it already)."""
    return _body(move, board, letters_for(lang), style=style, figurines=figurines, long=long)


def _body(
    move: chess.Move,
    board: chess.Board,
    letters: PieceLetters,
    *,
    style: Style,
    figurines: bool,
    long: bool,
) -> str:
    color = board.turn

    def name(piece_type: int) -> str:
        if figurines:
            return figurine(piece_type, color)
        return _letter(letters, piece_type) if piece_type != chess.PAWN else ""

    if board.is_castling(move):
        castle = "O-O-O" if board.is_queenside_castling(move) else "O-O"
        return castle.replace("O", "0") if style == "fide" else castle
    piece_type = board.piece_type_at(move.from_square) or chess.PAWN
    capture = board.is_capture(move)
    if long:
        body = (
            name(piece_type)
            + chess.square_name(move.from_square)
            + ("x" if capture else "-")
            + chess.square_name(move.to_square)
        )
    else:
        body = _short(board, move, piece_type, capture, name(piece_type))
    if move.promotion:
        body += ("" if style == "fide" else "=") + name(move.promotion)
    if style == "fide" and board.is_en_passant(move):
        body += letters.en_passant
    return body


def origin_parts(board: chess.Board, move: chess.Move, piece_type: int) -> tuple[bool, bool]:
    """Which parts of the square a piece (not a pawn) leaves are written or said, as
    ``(file, rank)``: none when no other such piece can go to the same square; else E10's
    choice, the file when it tells the pieces apart, else the rank, else both."""
    rivals = [
        other.from_square
        for other in board.generate_legal_moves(
            board.pieces_mask(piece_type, board.turn) & ~chess.BB_SQUARES[move.from_square],
            chess.BB_SQUARES[move.to_square],
        )
        if not board.is_castling(other)
    ]
    if not rivals:
        return False, False
    file, rank = chess.square_file(move.from_square), chess.square_rank(move.from_square)
    if all(chess.square_file(sq) != file for sq in rivals):
        return True, False
    if all(chess.square_rank(sq) != rank for sq in rivals):
        return False, True
    return True, True


def _short(board: chess.Board, move: chess.Move, piece_type: int, capture: bool, name: str) -> str:
    to = chess.square_name(move.to_square)
    if piece_type == chess.PAWN:
        return f"{chess.FILE_NAMES[chess.square_file(move.from_square)]}x{to}" if capture else to
    say_file, say_rank = origin_parts(board, move, piece_type)
    hint = chess.FILE_NAMES[chess.square_file(move.from_square)] if say_file else ""
    if say_rank:
        hint += chess.RANK_NAMES[chess.square_rank(move.from_square)]
    return f"{name}{hint}{'x' if capture else ''}{to}"


# -- reading ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Correction:
    """Something a lenient reading put right: a stable ``code`` and a message."""

    code: str
    text: Text

    def message(self, lang: str = "en") -> str:
        return self.text.translate(lang)


@dataclass(frozen=True, slots=True)
class Reading:
    """What an entry means on a board.

    ``status`` is ``ok`` (``move`` is the move; ``corrections`` lists what a lenient reading
    put right), ``ambiguous`` (``candidates`` holds every move it could mean), ``illegal`` or
    ``unreadable`` (``reason`` says why). ``draw_offer`` is True when the entry carries the
    ``(=)`` of E13.
    """

    entry: str
    status: Status
    move: chess.Move | None = None
    candidates: tuple[chess.Move, ...] = ()
    corrections: tuple[Correction, ...] = ()
    reason: Text | None = None
    draw_offer: bool = False
    #: For ``ok``: the check mark the move deserves (``+``, ``#`` or ``""``).
    mark: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def explain(self, lang: str = "en") -> str:
        """The reason (or, for ``ok``, the corrections) in ``lang``."""
        if self.reason is not None:
            return self.reason.translate(lang)
        return "; ".join(c.message(lang) for c in self.corrections)


# Corrections a strict reading still accepts: a check mark left out changes no move.
_STRICT_ALLOWED = frozenset({"check-missing"})

_SUFFIX = re.compile(
    r"(?:\s*(?P<offer>\(=\))|\s*(?P<note>[!?]{1,2})|(?P<check>\+\+|\+|#|‡|†)"
    r"|\s*(?P<ep>e\.\s?p\.|a\.\s?p\.|ep|ap|e\.p|a\.p))$"
)
_CASTLING = re.compile(r"^(?P<c>[0Oo])(?P<dash>-?)(?P=c)(?P<long>(?P=dash)(?P=c))?$")
_PIECE = r"Кр|КР|[A-ZА-ЯЁ]|[♔-♟]"
_MOVE = re.compile(
    rf"^(?P<piece>{_PIECE})?(?P<ff>[a-h])?(?P<fr>[1-8])?(?P<sep>[x:×\-])?(?P<to>[a-h][1-8])"
    rf"(?:(?P<psep>=|/|\()?(?P<promo>{_PIECE}|[qrbn])\)?)?$"
)
_EP_FORMS = frozenset({"a.p.", "ep"})
_SEP_OK = frozenset({"", "x"})


@dataclass(slots=True)
class _Parts:
    entry: str
    check: str = ""
    ep: str = ""
    note: str = ""
    offer: bool = False


def _strip_suffixes(text: str, parts: _Parts) -> str:
    while True:
        match = _SUFFIX.search(text)
        if match is None or match.start() == 0:
            return text
        if match.group("offer"):
            parts.offer = True
        elif match.group("note"):
            parts.note = match.group("note") + parts.note
        elif match.group("check"):
            if parts.check:
                return text  # two groups of check marks: leave it to the move pattern
            parts.check = match.group("check")
        else:
            parts.ep = re.sub(r"\s", "", match.group("ep"))
        text = text[: match.start()]


def _fix(code: str, template: str, **params: object) -> Correction:
    return Correction(code, Text(template, params))


class _Refusal(Exception):
    def __init__(self, status: Status, reason: Text, candidates: tuple[chess.Move, ...] = ()):
        super().__init__(status)
        self.status = status
        self.reason = reason
        self.candidates = candidates


def _refuse(status: Status, template: str, **params: object) -> _Refusal:
    return _Refusal(status, Text(template, params))


def read(entry: str, board: chess.Board, lang: str = "en", *, lenient: bool = True) -> Reading:
    """Read a written move (``entry``) for the side to move on ``board``.

    Lenient mode (for importing scores) also accepts ``O-O``, ``=D``, ``:`` or ``×`` for
    captures, a missing or superfluous ``x``, ``e.p.``, superfluous disambiguation, long
    algebraic and UCI, the pawn's letter, English letters where ``lang`` has none of its own
    for them, annotations (``!?``) and wrong check marks — and lists what it corrected. Strict
    mode accepts only what Appendix E writes (a check mark may be left out).

    >>> import chess
    >>> board = chess.Board("r3k3/8/8/8/8/2N3N1/8/R3K3 w Q - 0 1")
    >>> reading = read("O-O-O", board, "es")
    >>> reading.status, [c.code for c in reading.corrections]
    ('ok', ['castling-letters'])
    >>> read("O-O-O", board, "es", lenient=False).status
    'unreadable'
    >>> reading = read("Ce4", board, "es")
    >>> reading.status, sorted(m.uci() for m in reading.candidates)
    ('ambiguous', ['c3e4', 'g3e4'])
    """
    return read_and_push(entry, board, lang, lenient=lenient, keep=False)


def read_and_push(
    entry: str,
    board: chess.Board,
    lang: str = "en",
    *,
    lenient: bool = True,
    keep: bool = True,
    before_push: Callable[[chess.Move], object] | None = None,
) -> Reading:
    """:func:`read`, leaving the move played on ``board`` when the reading is ``ok`` and
    ``keep`` is True (a score reader saves a push that way); ``before_push`` is called with
    the move while the board still shows the position before it."""
    letters = letters_for(lang)
    parts = _Parts(entry)
    text = _strip_suffixes(entry.strip(), parts)
    corrections: list[Correction] = []
    try:
        move = _interpret(
            text, board, letters, lenient=lenient, parts=parts, corrections=corrections
        )
    except _Refusal as refusal:
        return Reading(
            entry,
            refusal.status,
            candidates=refusal.candidates,
            reason=refusal.reason,
            draw_offer=parts.offer,
        )
    if before_push is not None:
        before_push(move)
    board.push(move)
    mark = _check_marks(board, parts, corrections)
    if not lenient:
        refused = [c for c in corrections if c.code not in _STRICT_ALLOWED]
        if refused:
            board.pop()
            return Reading(
                entry,
                "unreadable",
                reason=Text(
                    N_("Appendix E does not write it this way: {what}."),
                    {"what": refused[0].text},
                ),
                draw_offer=parts.offer,
            )
    if not keep:
        board.pop()
    return Reading(
        entry, "ok", move, (move,), tuple(corrections), draw_offer=parts.offer, mark=mark
    )


def _interpret(
    text: str,
    board: chess.Board,
    letters: PieceLetters,
    *,
    lenient: bool,
    parts: _Parts,
    corrections: list[Correction],
) -> chess.Move:
    if not text:
        raise _refuse("unreadable", N_("The entry is empty."))
    if parts.note:
        corrections.append(
            _fix("annotation", N_("the annotation {note} was left out"), note=parts.note)
        )
    castling = _CASTLING.match(text)
    if castling:
        if castling.group("c") != "0" or not castling.group("dash"):
            corrections.append(
                _fix(
                    "castling-letters",
                    N_("castling is written with zeros: {castling}"),
                    castling="0-0-0" if castling.group("long") else "0-0",
                )
            )
        return _castle(board, bool(castling.group("long")), parts, corrections)
    match = _MOVE.match(text)
    if match is None:
        raise _refuse(
            "unreadable",
            N_(
                "It is not written in algebraic notation (a piece letter, the square, "
                "e.g. {example})."
            ),
            entry=parts.entry,
            example=_letter(letters, chess.KNIGHT) + "f3",
        )
    piece_type = _piece(match.group("piece"), letters, parts, corrections) or chess.PAWN
    ff, fr, sep = match.group("ff"), match.group("fr"), match.group("sep") or ""
    if not match.group("piece") and ff and fr:
        # UCI, or long algebraic without the piece letter: the piece is the one standing there
        standing = board.piece_at(chess.parse_square(ff + fr))
        if standing is not None and standing.color == board.turn:
            piece_type = standing.piece_type
            if piece_type != chess.PAWN:
                corrections.append(
                    _fix(
                        "piece-letter-missing",
                        N_("the piece letter {letter} was missing"),
                        letter=_letter(letters, piece_type),
                    )
                )
    to = chess.parse_square(match.group("to"))
    promotion = None
    if match.group("promo"):
        promotion = _promotion(match.group("promo"), letters, parts, corrections)
        if match.group("psep"):
            corrections.append(
                _fix(
                    "promotion-form",
                    N_("the new piece follows the square directly: {form}"),
                    form=match.group("to") + _letter(letters, promotion),
                )
            )
    if sep not in _SEP_OK:
        if sep == "-":
            if not (ff and fr):
                raise _refuse(
                    "unreadable",
                    N_("A hyphen needs the full departure square (long algebraic, e.g. e2-e4)."),
                    entry=parts.entry,
                )
            corrections.append(_fix("long-algebraic", N_("long algebraic notation was read")))
        else:
            corrections.append(
                _fix("capture-sign", N_("a capture is written with x, not {sign}"), sign=sep)
            )
    mask = board.pieces_mask(piece_type, board.turn)
    if ff:
        mask &= chess.BB_FILES[chess.FILE_NAMES.index(ff)]
    if fr:
        mask &= chess.BB_RANKS[int(fr) - 1]
    target = chess.BB_SQUARES[to]
    moves = [m for m in board.generate_legal_moves(mask, target) if not board.is_castling(m)]
    says_capture = sep in ("x", ":", "×")
    if piece_type == chess.PAWN and not ff:
        pushes = [m for m in moves if chess.square_file(m.from_square) == chess.square_file(to)]
        if pushes and not says_capture:
            moves = pushes
        else:
            moves = [m for m in moves if m not in pushes]
            if moves:
                corrections.append(
                    _fix(
                        "pawn-file",
                        N_("a pawn capture names the pawn's file: {form}"),
                        form=chess.FILE_NAMES[chess.square_file(moves[0].from_square)]
                        + "x"
                        + chess.square_name(to),
                    )
                )
    if promotion is not None:
        chosen = [m for m in moves if m.promotion == promotion]
        if not chosen and moves and all(m.promotion is None for m in moves):
            raise _refuse(
                "illegal",
                N_(
                    "Only a pawn that reaches the last rank is promoted; this entry names a new "
                    "piece."
                ),
                entry=parts.entry,
            )
        moves = chosen
    elif len({m.promotion for m in moves}) > 1 or any(m.promotion for m in moves):
        raise _Refusal(
            "ambiguous",
            Text(
                N_(
                    "The pawn reaches the last rank: the entry must name the new piece "
                    "(e.g. {example})."
                ),
                {"example": chess.square_name(to) + _letter(letters, chess.QUEEN)},
            ),
            tuple(sorted(moves, key=chess.Move.uci)),
        )
    if not moves:
        raise _illegal(board, parts.entry, piece_type, mask=mask, to=to, letters=letters)
    if len(moves) > 1:
        raise _Refusal(
            "ambiguous",
            Text(
                N_("{count} moves fit: {moves}. Write the departure file or rank."),
                {
                    "count": len(moves),
                    "entry": parts.entry,
                    "moves": ", ".join(format(m, board, letters.code, "fide") for m in moves),
                },
            ),
            tuple(sorted(moves, key=chess.Move.uci)),
        )
    move = moves[0]
    capture = board.is_capture(move)
    if capture and not says_capture and sep != "-" and (ff or piece_type != chess.PAWN):
        corrections.append(_fix("capture-missing", N_("the capture sign x was missing")))
    elif says_capture and not capture:
        corrections.append(
            _fix("capture-wrong", N_("x was written, but the move captures nothing"))
        )
    if sep != "-" and piece_type != chess.PAWN and (ff or fr) and match.group("piece"):
        written = (ff or "") + (fr or "")
        needed = _short(board, move, piece_type, capture, "")
        needed = needed[: len(needed) - 2].rstrip("x")
        if len(written) > len(needed):
            corrections.append(
                _fix(
                    "superfluous-disambiguation",
                    N_("the departure square is only written when two pieces can go there: {form}"),
                    form=format(move, board, letters.code, "fide").rstrip("+#"),
                )
            )
    if piece_type == chess.PAWN and ff and fr and sep != "-":
        corrections.append(_fix("long-algebraic", N_("long algebraic notation was read")))
    if parts.ep:
        if not board.is_en_passant(move):
            corrections.append(
                _fix(
                    "en-passant-wrong",
                    N_("{mark} was written, but the move is not an en passant capture"),
                    mark=parts.ep,
                )
            )
        elif parts.ep not in _EP_FORMS:
            corrections.append(
                _fix(
                    "en-passant-form",
                    N_("en passant is written a.p. or ep, not {mark}"),
                    mark=parts.ep,
                )
            )
    return move


def _piece(
    letter: str | None, letters: PieceLetters, parts: _Parts, corrections: list[Correction]
) -> int | None:
    if not letter:
        return None
    if letter in _WHITE_FIGURINES or letter in _BLACK_FIGURINES:
        index = (_WHITE_FIGURINES + _BLACK_FIGURINES).index(letter) % 6
        if index == 0:
            corrections.append(_fix("pawn-letter", N_("a pawn is written without a letter")))
        return index + 1
    if letter.upper() == "КР":
        letter = "Кр"
    if letter in letters.pieces:
        return letters.pieces.index(letter) + 2
    if letters.pawn and letter == letters.pawn:
        corrections.append(_fix("pawn-letter", N_("a pawn is written without a letter")))
        return chess.PAWN
    if letter in _ENGLISH and letters.code != "en":
        piece_type = _ENGLISH.index(letter) + 1
        corrections.append(
            _fix(
                "english-letter",
                N_("{letter} was read as the English letter of the {piece} ({language}: {own})"),
                letter=letter,
                piece=Text(PIECE_NAMES[piece_type]),
                language=Text(letters.language),
                own=_letter(letters, piece_type) or Text(N_("no letter")),
            ),
        )
        return piece_type
    raise _refuse(
        "unreadable",
        N_("{letter!r} is not a piece letter in {language} ({letters})."),
        letter=letter,
        language=Text(letters.language),
        letters=" ".join(letters.pieces),
    )


def _promotion(
    letter: str, letters: PieceLetters, parts: _Parts, corrections: list[Correction]
) -> int:
    if letter in "qrbn":
        corrections.append(
            _fix("promotion-letter", N_("the new piece is written with a capital letter"))
        )
        letter = letter.upper()
        if letters.code != "en" and letter not in letters.pieces:
            letter = _letter(letters, _ENGLISH.index(letter) + 1)  # UCI's English letters
    piece_type = _piece(letter, letters, parts, corrections) or chess.PAWN
    if piece_type in (chess.KING, chess.PAWN):
        english = _ENGLISH.index(letter) + 1 if letter in _ENGLISH else None
        if english and english not in (piece_type, chess.KING, chess.PAWN):
            raise _refuse(
                "illegal",
                N_(
                    "In {language}, {letter} is the {piece}: a pawn cannot become a {piece}. "
                    "The {english} is {own}."
                ),
                language=Text(letters.language),
                letter=letter,
                piece=Text(PIECE_NAMES[piece_type]),
                english=Text(PIECE_NAMES[english]),
                own=_letter(letters, english),
            )
        raise _refuse(
            "illegal",
            N_("A pawn cannot become a {piece}: it becomes a queen, rook, bishop or knight."),
            piece=Text(PIECE_NAMES[piece_type]),
        )
    return piece_type


def _castle(
    board: chess.Board, long: bool, parts: _Parts, corrections: list[Correction]
) -> chess.Move:
    side = Text(N_("long castling") if long else N_("short castling"))
    for move in board.generate_castling_moves():
        if board.is_queenside_castling(move) == long:
            return move
    color = board.turn
    backrank = chess.BB_RANK_1 if color else chess.BB_RANK_8
    rook_file_side = chess.BB_FILE_A if long else chess.BB_FILE_H
    rights = board.clean_castling_rights() & backrank & rook_file_side
    if not rights:
        raise _refuse(
            "illegal",
            N_("{castling} is not allowed: the king or that rook has already moved."),
            castling=side,
        )
    if board.is_check():
        raise _refuse(
            "illegal", N_("{castling} is not allowed: the king is in check."), castling=side
        )
    king = board.king(color)
    assert king is not None
    rook = chess.lsb(rights)
    between = chess.between(king, rook)
    if board.occupied & between:
        raise _refuse(
            "illegal",
            N_("{castling} is not allowed: a piece stands between the king and the rook."),
            castling=side,
        )
    raise _refuse(
        "illegal",
        N_("{castling} is not allowed: the king would cross or reach an attacked square."),
        castling=side,
    )


def _illegal(
    board: chess.Board, entry: str, piece_type: int, *, mask: int, to: int, letters: PieceLetters
) -> _Refusal:
    name = Text(PIECE_NAMES[piece_type])
    square = chess.square_name(to)
    if not board.pieces_mask(piece_type, board.turn):
        return _refuse(
            "illegal",
            N_("There is no {piece} of the side to move."),
            entry=entry,
            piece=name,
        )
    pseudo = [
        m
        for m in board.generate_pseudo_legal_moves(mask, chess.BB_SQUARES[to])
        if not board.is_castling(m)
    ]
    if pseudo:
        return _refuse("illegal", N_("The move would leave the king in check."), entry=entry)
    letter = _letter(letters, piece_type)
    if letters.code != "en" and letter in _ENGLISH and _ENGLISH.index(letter) + 1 != piece_type:
        english = _ENGLISH.index(letter) + 1
        if any(
            True
            for _ in board.generate_legal_moves(
                board.pieces_mask(english, board.turn), chess.BB_SQUARES[to]
            )
        ):
            return _refuse(
                "illegal",
                N_(
                    "No {piece} can move to {square}. In {language} {letter} is the "
                    "{piece}; the {english} is {own}."
                ),
                entry=entry,
                piece=name,
                square=square,
                language=Text(letters.language),
                letter=letter,
                english=Text(PIECE_NAMES[english]),
                own=_letter(letters, english) or Text(N_("no letter")),
            )
    return _refuse(
        "illegal",
        N_("No {piece} can move to {square}."),
        entry=entry,
        piece=name,
        square=square,
    )


def _check_marks(board: chess.Board, parts: _Parts, corrections: list[Correction]) -> str:
    """Compare the written check mark with the position after the move (on ``board``);
    the right mark."""
    written = parts.check
    if written in ("‡", "†"):
        written = "#" if written == "‡" else "+"
    actual = ("#" if board.is_checkmate() else "+") if board.is_check() else ""
    if written == actual or (actual == "#" and written == "++"):
        return actual
    if not written:
        corrections.append(
            _fix("check-missing", N_("the check mark {mark} was missing"), mark=actual)
        )
    elif not actual:
        corrections.append(
            _fix(
                "check-wrong",
                N_("{mark} was written, but the move does not give check"),
                mark=written,
            )
        )
    else:
        corrections.append(
            _fix(
                "check-wrong",
                N_("{mark} was written, but the right mark is {right}"),
                mark=written,
                right=actual,
            )
        )
    return actual
