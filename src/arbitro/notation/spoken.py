"""Moves as they are spoken to and by blind players (Appendix F): announcing and hearing them.

Styles (``../shared/spec/notation.md``, "Spoken moves"): ``fide`` (the German names of the
official text: Anna, Bella, Cesar ... and eins, zwei, drei ...), ``es`` (Ana, Bella, César ...
uno, dos, tres ...) and ``en`` (Anna, Bella, Cesar ... one, two, three ...).

>>> import chess
>>> board = chess.Board()
>>> announce(chess.Move.from_uci("g1f3"), board, "es")
'Caballo Félix tres'
>>> announce(chess.Move.from_uci("g1f3"), board, "fide")
'Springer Felix drei'
>>> hear("caballo felix tres", board).uci()
'g1f3'
>>> hear("Peón Eva cuatro", board, "es").uci()
'e2e4'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import chess

from arbitro.i18n import N_
from arbitro.notation.algebraic import origin_parts
from arbitro.notation.letters import NotationError

__all__ = ["STYLES", "SpokenStyle", "announce", "hear"]


@dataclass(frozen=True, slots=True)
class SpokenStyle:
    """The words of one style: files a–h, ranks 1–8, pieces (pawn … king), castling (short,
    long), and the words for captures, check, mate and en passant."""

    code: str
    files: tuple[str, ...]
    ranks: tuple[str, ...]
    pieces: tuple[str, ...]
    castling: tuple[str, str]
    takes: str
    check: str
    mate: str
    en_passant: str


STYLES: dict[str, SpokenStyle] = {
    style.code: style
    for style in (
        SpokenStyle(
            "fide",
            ("Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"),
            ("eins", "zwei", "drei", "vier", "fuenf", "sechs", "sieben", "acht"),
            ("Bauer", "Springer", "Laeufer", "Turm", "Dame", "Koenig"),
            ("Kurze Rochade", "Lange Rochade"),
            "schlaegt",
            "Schach",
            "Matt",
            "en passant",
        ),
        SpokenStyle(
            "es",
            ("Ana", "Bella", "César", "David", "Eva", "Félix", "Gustavo", "Héctor"),
            ("uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho"),
            ("peón", "Caballo", "Alfil", "Torre", "Dama", "Rey"),
            ("enroque corto", "enroque largo"),
            "captura",
            "jaque",
            "jaque mate",
            "al paso",
        ),
        SpokenStyle(
            "en",
            ("Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"),
            ("one", "two", "three", "four", "five", "six", "seven", "eight"),
            ("pawn", "Knight", "Bishop", "Rook", "Queen", "King"),
            ("short castling", "long castling"),
            "takes",
            "check",
            "checkmate",
            "en passant",
        ),
    )
}


def _style(code: str) -> SpokenStyle:
    try:
        return STYLES[code]
    except KeyError:
        raise NotationError(
            N_("Unknown spoken style {style!r}; known: {known}."),
            code="unknown-language",
            style=code,
            known=", ".join(STYLES),
        ) from None


def _square(style: SpokenStyle, square: int) -> str:
    return f"{style.files[chess.square_file(square)]} {style.ranks[chess.square_rank(square)]}"


def announce(move: chess.Move, board: chess.Board, style: str = "fide") -> str:
    """``move`` (legal on ``board``) as it is announced: the piece, the square it leaves for
    a capture by a pawn, the arrival square, the captured piece is not named; castling by its
    name; the piece a pawn becomes; check or mate.

    :raises ValueError: for a move that is not legal on ``board``.
    """
    return announce_styles(move, board, (style,))[style]


def announce_styles(
    move: chess.Move, board: chess.Board, styles: Iterable[str] = STYLES
) -> dict[str, str]:
    """``move`` announced in each of ``styles``, as :func:`announce` says it (whether it gives
    check or mate is found once for all of them).

    :raises ValueError: for a move that is not legal on ``board``, or an unknown style.
    """
    chosen = tuple(styles)
    for code in chosen:
        _style(code)  # an unknown style is refused first
    if not board.is_legal(move):
        raise ValueError(f"{move.uci()} is not a legal move in {board.fen()}")
    board.push(move)
    try:
        ending: Literal["check", "mate"] | None = (
            "mate" if board.is_checkmate() else "check" if board.is_check() else None
        )
    finally:
        board.pop()
    return announce_known(move, board, ending, chosen)


def announce_known(
    move: chess.Move,
    board: chess.Board,
    ending: Literal["check", "mate"] | None,
    styles: Iterable[str] = STYLES,
) -> dict[str, str]:
    """:func:`announce_styles` for a move already known to be legal on ``board``, and known
    to give check, mate or neither (``ending``): for a writer that has played it already.

    :raises ValueError: for an unknown style.
    """
    facts = _Facts.of(move, board)
    texts = {}
    for code in styles:
        words = _style(code)
        text = facts.words(words)
        if ending is not None:
            text += f", {words.mate if ending == 'mate' else words.check}"
        texts[code] = text
    return texts


@dataclass(frozen=True, slots=True)
class _Facts:
    """What an announcement says of a move, found once for every style: the castling side
    (0 short, 1 long) or the piece, whether it captures, and which of the square it leaves is
    said (E10: the file when it tells two such pieces apart, else the rank, else both)."""

    move: chess.Move
    castling: int | None
    piece: int
    capture: bool
    en_passant: bool
    say_file: bool
    say_rank: bool

    @classmethod
    def of(cls, move: chess.Move, board: chess.Board) -> _Facts:
        if board.is_castling(move):
            side = 1 if board.is_queenside_castling(move) else 0
            return cls(move, side, chess.KING, False, False, False, False)
        piece = board.piece_type_at(move.from_square) or chess.PAWN
        capture = board.is_capture(move)
        if piece == chess.PAWN:
            say_file, say_rank = capture, False
        else:
            say_file, say_rank = origin_parts(board, move, piece)
        return cls(move, None, piece, capture, board.is_en_passant(move), say_file, say_rank)

    def words(self, words: SpokenStyle) -> str:
        if self.castling is not None:
            return words.castling[self.castling]
        move = self.move
        parts = [words.pieces[self.piece - 1]]
        if self.say_file:
            parts.append(words.files[chess.square_file(move.from_square)])
        if self.say_rank:
            parts.append(words.ranks[chess.square_rank(move.from_square)])
        if self.capture:
            parts.append(words.takes)
        parts.append(_square(words, move.to_square))
        if self.en_passant:
            parts.append(words.en_passant)
        if move.promotion:
            parts.append(words.pieces[move.promotion - 1])
        return " ".join(parts)


def _plain(text: str) -> str:
    """Lower case without accents or umlauts written out (Läufer = Laeufer = Laufer)."""
    text = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue")
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _vocabulary(styles: list[SpokenStyle]) -> dict[str, tuple[str, object]]:
    words: dict[str, tuple[str, object]] = {}
    for style in styles:
        for index, name in enumerate(style.files):
            words[_plain(name)] = ("file", index)
        for index, name in enumerate(style.ranks):
            words[_plain(name)] = ("rank", index)
        for index, name in enumerate(style.pieces):
            words[_plain(name)] = ("piece", index + 1)
        for index, name in enumerate(style.castling):
            words[_plain(name)] = ("castle", index == 1)
        for word in (style.takes, style.check, style.mate, style.en_passant):
            words[_plain(word)] = ("noise", None)
    # Spellings people use besides the table's.
    for alias, meaning in {
        "laufer": ("piece", chess.BISHOP),
        "konig": ("piece", chess.KING),
        "fuenf": ("rank", 4),
        "funf": ("rank", 4),
        "peon": ("piece", chess.PAWN),
        "x": ("noise", None),
        "mate": ("noise", None),
        "por": ("noise", None),
        "a": ("noise", None),
        "toma": ("noise", None),
        "come": ("noise", None),
        "on": ("noise", None),
        "to": ("noise", None),
        "nach": ("noise", None),
    }.items():
        words.setdefault(alias, meaning)
    return words


def hear(text: str, board: chess.Board, style: str | None = None) -> chess.Move:
    """The move meant by spoken words (any style when ``style`` is None), tolerant of case,
    accents and filler words ("Caballo Félix tres", "enroque corto", "peón Eva cuatro",
    "Springer Felix drei").

    :raises NotationError: ``unreadable-move`` (words that name no move), ``illegal-move``
        (no legal move fits) or ``ambiguous-move`` (several do).
    """
    styles = [_style(style)] if style else list(STYLES.values())
    vocabulary = _vocabulary(styles)
    plain = _plain(text).replace(",", " ").replace("-", " ").strip()
    for phrase, (kind, value) in vocabulary.items():
        if kind == "castle" and plain.startswith(phrase):
            for move in board.generate_castling_moves():
                if board.is_queenside_castling(move) == value:
                    return move
            raise NotationError(
                N_("{text!r}: castling is not possible here."), code="illegal-move", text=text
            )
    for phrase, (kind, _) in vocabulary.items():
        if kind == "noise" and " " in phrase:
            plain = plain.replace(phrase, " ")
    piece = None
    files: list[int] = []
    ranks: list[int] = []
    promotion = None
    for word in plain.split():
        meaning = vocabulary.get(word)
        if meaning is None:
            raise NotationError(
                N_("{text!r}: the word {word!r} names no piece, file or rank."),
                code="unreadable-move",
                text=text,
                word=word,
            )
        kind, value = meaning
        if kind == "piece":
            if piece is None and not files:
                piece = int(str(value))
            else:
                promotion = int(str(value))
        elif kind == "file":
            files.append(int(str(value)))
        elif kind == "rank":
            ranks.append(int(str(value)))
    if not files or not ranks:
        raise NotationError(
            N_("{text!r}: a move names its arrival square (a file and a rank)."),
            code="unreadable-move",
            text=text,
        )
    to = chess.square(files[-1], ranks[-1])
    from_file = files[0] if len(files) > 1 else None
    from_rank = ranks[0] if len(ranks) > 1 else None
    candidates = [
        move
        for move in board.generate_legal_moves(
            board.pieces_mask(piece or chess.PAWN, board.turn), chess.BB_SQUARES[to]
        )
        if (from_file is None or chess.square_file(move.from_square) == from_file)
        and (from_rank is None or chess.square_rank(move.from_square) == from_rank)
        and move.promotion == promotion
        and not board.is_castling(move)
    ]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise NotationError(
            N_("{text!r}: no legal move fits these words."), code="illegal-move", text=text
        )
    raise NotationError(
        N_("{text!r} could mean {count} moves: name the file or rank the piece leaves."),
        code="ambiguous-move",
        text=text,
        count=len(candidates),
    )
