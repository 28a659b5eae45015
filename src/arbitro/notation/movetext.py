"""Whole game scores in any language: reading, writing, and translating movetext and PGN.

A game score is read token by token — move numbers, moves, comments, NAGs, variations, the
``(=)`` of a draw offer (E13), results — and every move is read on its own board with
:func:`~arbitro.notation.algebraic.read`, so a mistake is reported with its move number.

>>> score = read_movetext("1.d4 Cf6 2.c4 e6 (=) 3.Cc3 Ab4", "es")
>>> [m.uci() for m in score.moves][:3], sorted(score.offers)
(['d2d4', 'g8f6', 'c2c4'], [3])
>>> write_movetext(score.moves, "en", offers=score.offers)
'1. d4 Nf6 2. c4 e6 (=) 3. Nc3 Bb4'
>>> translate("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O", "en", "de", "fide")
'1.e4 e5 2.Sf3 Sc6 3.Lb5 a6 4.0-0'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

import chess

from arbitro.i18n import N_, Text
from arbitro.notation.algebraic import Reading, Style, format_last, read_and_push, write_body
from arbitro.notation.letters import NotationError, letters_for

__all__ = [
    "Score",
    "read_movetext",
    "split_games",
    "translate",
    "translate_movetext",
    "write_movetext",
]

_TOKEN = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
    |(?P<line>;[^\n]*)
    |(?P<escape>^%[^\n]*)
    |(?P<nag>\$\d+)
    |(?P<offer>\(=\))
    |(?P<open>\()
    |(?P<close>\))
    |(?P<result>(?:1-0|0-1|1/2-1/2|½-½|\*)(?=[\s)]|$))
    |(?P<number>\d+\s*\.(?:\s*\.)*)
    |(?P<word>[^\s{}();]+)
    """,
    re.VERBOSE | re.MULTILINE,
)
# Words that belong to the move before them: e.p. marks, check marks, annotations.
_ATTACHED = re.compile(r"^(?=.)(?:e\.\s?p\.|a\.\s?p\.|ep|ap)?(?:\+\+|\+|#)?(?:[!?]{1,2})?$")
_HEADER = re.compile(r'^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*", "½-½"}


@dataclass(frozen=True, slots=True)
class Score:
    """A game's mainline: the start position (FEN), the moves, the plies (0-based) followed
    by a draw offer, the result token, and the readings of the moves (with their corrections)."""

    start: str
    moves: tuple[chess.Move, ...]
    offers: frozenset[int] = frozenset()
    result: str = "*"
    readings: tuple[Reading, ...] = field(default=(), compare=False, repr=False)

    def board(self) -> chess.Board:
        """The final position."""
        board = chess.Board(self.start)
        for move in self.moves:
            board.push(move)
        return board


@dataclass(slots=True)
class _Token:
    kind: str
    text: str


def _tokens(text: str) -> Iterator[_Token]:
    pending: _Token | None = None
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "word"
        value = match.group(kind)
        if kind == "word" and pending is not None and _ATTACHED.match(value):
            sep = " " if value[0] in "ea" else ""
            pending.text += sep + value
            continue
        if pending is not None:
            yield pending
            pending = None
        token = _Token(kind, value)
        if kind == "word":
            pending = token
        else:
            yield token
    if pending is not None:
        yield pending


def _number(board: chess.Board) -> str:
    return f"{board.fullmove_number}{'.' if board.turn else '...'}"


def _refusal(reading: Reading, board: chess.Board, game: int | None) -> NotationError:
    code = {"ambiguous": "ambiguous-move", "illegal": "illegal-move"}.get(
        reading.status, "unreadable-move"
    )
    reason = reading.reason or Text(N_("it cannot be read"))
    if game is None:
        return NotationError(
            N_("Move {number} {entry!r}: {reason}"),
            code=code,
            number=_number(board),
            entry=reading.entry,
            reason=reason,
        )
    return NotationError(
        N_("Game {game}, move {number} {entry!r}: {reason}"),
        code=code,
        game=game,
        number=_number(board),
        entry=reading.entry,
        reason=reason,
    )


def _walk(
    text: str,
    lang: str,
    board: chess.Board,
    *,
    lenient: bool,
    game: int | None,
    visit: _Visitor | None = None,
) -> Score:
    """Read movetext on ``board``, calling ``visit`` for every token (moves already read)."""
    start = board.fen()
    moves: list[chess.Move] = []
    readings: list[Reading] = []
    offers: set[int] = set()
    result = "*"
    # A variation starts from the position before the last move; the stack keeps the line left.
    stack: list[tuple[chess.Board, int]] = []
    depth = 0
    for token in _tokens(text):
        kind = token.kind
        if kind == "word":
            reading = read_and_push(
                token.text,
                board,
                lang,
                lenient=lenient,
                before_push=None if visit is None else partial(visit.before, board),
            )
            if not reading.ok:
                raise _refusal(reading, board, game)
            assert reading.move is not None
            if visit is not None:
                visit.move(board, reading, depth)
            if depth == 0:
                moves.append(reading.move)
                readings.append(reading)
                if reading.draw_offer:
                    offers.add(len(moves) - 1)
            continue
        if kind == "open":
            if not board.move_stack:
                raise NotationError(
                    N_("A variation opens before any move: {text!r}."),
                    code="unreadable-move",
                    text=text[:40],
                )
            stack.append((board, depth))
            board = board.copy(stack=1)
            board.pop()
            depth += 1
        elif kind == "close":
            if not stack:
                raise NotationError(
                    N_("A variation closes that was never opened."), code="unreadable-move"
                )
            board, depth = stack.pop()
        elif (kind == "offer" or (kind == "comment" and "(=)" in token.text)) and (
            depth == 0 and moves
        ):
            offers.add(len(moves) - 1)
        elif kind == "result" and depth == 0:
            result = "1/2-1/2" if token.text == "½-½" else token.text
        if visit is not None:
            visit.other(token, depth)
    return Score(start, tuple(moves), frozenset(offers), result, tuple(readings))


class _Visitor(Protocol):
    """What a score walk tells as it reads (the translator is one)."""

    def before(self, board: chess.Board, move: chess.Move) -> None:
        """A move is about to be played on ``board``."""

    def move(self, board: chess.Board, reading: Reading, depth: int) -> None:
        """The move has been played (``board`` shows the position after it)."""

    def other(self, token: _Token, depth: int) -> None:
        """A token that is no move: a number, comment, NAG, variation, offer or result."""


def read_movetext(
    text: str, lang: str = "en", *, board: chess.Board | None = None, lenient: bool = True
) -> Score:
    """Read a game score (the moves of the mainline; variations are read and checked too).

    :raises NotationError: at the first entry that is not ``ok``, naming its move number,
        the entry and why (code ``unreadable-move``, ``illegal-move`` or ``ambiguous-move``).
    """
    letters_for(lang)
    return _walk(text, lang, (board or chess.Board()).copy(stack=False), lenient=lenient, game=None)


def write_movetext(
    moves: Iterable[chess.Move],
    lang: str = "en",
    style: Style = "pgn",
    *,
    board: chess.Board | None = None,
    figurines: bool = False,
    long: bool = False,
    offers: Iterable[int] = (),
    result: str | None = None,
) -> str:
    """The moves (legal from ``board``, default the initial position) as movetext in ``lang``.
    ``offers`` are the plies (0-based) after which ``(=)`` is written."""
    position = (board or chess.Board()).copy(stack=False)
    offered = set(offers)
    out = _Writer(style)
    for index, move in enumerate(moves):
        out.number(position)
        position.push(move)
        out.add(format_last(position, lang, style, figurines=figurines, long=long))
        if index in offered:
            out.add("(=)")
            out.broken = True
    if result is not None:
        out.add(result)
    return out.text()


class _Writer:
    """Joins movetext tokens, writing move numbers where they are due."""

    def __init__(self, style: Style, width: int | None = None) -> None:
        self.parts: list[str] = []
        self.broken = True  # the next black move needs "N..."
        self.style = style
        self.width = width

    def number(self, board: chess.Board, *, after: bool = False) -> None:
        """The number before a move on ``board`` (``after``: the move is already played)."""
        if after:
            white = board.turn == chess.BLACK
            number = board.fullmove_number if white else board.fullmove_number - 1
        else:
            white = board.turn == chess.WHITE
            number = board.fullmove_number
        if white:
            self.parts.append(f"{number}.")
        elif self.broken:
            self.parts.append(f"{number}...")
        else:
            self.broken = False
            return
        if self.style == "fide":
            self.parts[-1] += "\0"  # glued to the move
        self.broken = False

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        words: list[str] = []
        glue = False
        for part in self.parts:
            if glue or (part == ")" and words):
                words[-1] += part
            else:
                words.append(part)
            glue = part.endswith("\0")
            if glue:
                words[-1] = words[-1][:-1]
        if self.width is None:
            return " ".join(words)
        lines: list[str] = []
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > self.width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            lines.append(line)
        return "\n".join(lines)


class _Translator:
    def __init__(self, target: str, style: Style, figurines: bool, long: bool, width: int | None):
        self.out = _Writer(style, width)
        self.target = target
        self.style: Style = style
        self.figurines = figurines
        self.long = long
        self.body = ""

    def before(self, board: chess.Board, move: chess.Move) -> None:
        self.out.number(board)
        self.body = write_body(
            move, board, self.target, self.style, figurines=self.figurines, long=self.long
        )

    def move(self, board: chess.Board, reading: Reading, depth: int) -> None:
        mark = "++" if self.style == "fide" and reading.mark == "#" else reading.mark
        self.out.add(self.body + mark)
        if reading.draw_offer:
            self.out.add("(=)")
            self.out.broken = True

    def other(self, token: _Token, depth: int) -> None:
        kind = token.kind
        if kind == "number":
            return  # numbers are written afresh
        if kind == "open":
            self.out.add("(\0")
        elif kind == "close":
            if self.out.parts and self.out.parts[-1].endswith("\0"):
                self.out.parts[-1] = self.out.parts[-1][:-1]
            self.out.add(")")
        else:
            self.out.add(token.text.strip() if kind != "comment" else token.text)
        self.out.broken = True


def translate_movetext(
    text: str,
    source: str,
    target: str,
    style: Style = "pgn",
    *,
    board: chess.Board | None = None,
    figurines: bool = False,
    long: bool = False,
    width: int | None = None,
    game: int | None = None,
) -> str:
    """The same movetext (comments, NAGs, variations and results kept) in ``target``'s
    letters and ``style``.

    :raises NotationError: as :func:`read_movetext`.
    """
    letters_for(source)
    letters_for(target)
    translator = _Translator(target, style, figurines, long, width)
    _walk(
        text,
        source,
        (board or chess.Board()).copy(stack=False),
        lenient=True,
        game=game,
        visit=translator,
    )
    return translator.out.text()


@dataclass(slots=True)
class PgnText:
    """One game of a PGN file as text: its tag lines (kept verbatim) and its movetext."""

    tags: list[str]
    movetext: str

    def headers(self) -> dict[str, str]:
        found: dict[str, str] = {}
        for line in self.tags:
            match = _HEADER.match(line)
            if match:
                found[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
        return found

    def start(self) -> chess.Board:
        """The start position (``FEN`` tag, else the initial position).

        :raises NotationError: ``bad-fen`` for an unreadable ``FEN`` tag.
        """
        headers = self.headers()
        fen = headers.get("FEN")
        chess960 = (
            "960" in headers.get("Variant", "") or "fischer" in headers.get("Variant", "").lower()
        )
        if not fen:
            return chess.Board(chess960=chess960)
        try:
            return chess.Board(fen, chess960=chess960)
        except ValueError:
            raise NotationError(
                N_("The FEN tag {fen!r} is not a position."), code="bad-fen", fen=fen
            ) from None


def split_games(text: str) -> list[PgnText]:
    """The games of a PGN text (or one game of bare movetext without tags)."""
    games: list[PgnText] = []
    tags: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        if _HEADER.match(line) and not _open_comment("\n".join(body)):
            if body and any(part.strip() for part in body):
                games.append(PgnText(tags, "\n".join(body)))
                tags, body = [], []
            tags.append(line.strip())
        else:
            body.append(line)
    if tags or any(part.strip() for part in body):
        games.append(PgnText(tags, "\n".join(body)))
    return games


def _open_comment(text: str) -> bool:
    return text.count("{") > text.count("}")


def translate(
    text: str,
    source: str,
    target: str,
    style: Style = "pgn",
    *,
    figurines: bool = False,
    long: bool = False,
) -> str:
    """Translate PGN (tags kept, movetext re-lettered, 80 columns) or bare movetext (one line
    per game).

    :raises NotationError: at the first entry that cannot be read, naming the game (when
        there are several), the move number, the entry and why.
    """
    games = split_games(text)
    many = len(games) > 1
    out: list[str] = []
    for index, pgn in enumerate(games, start=1):
        body = translate_movetext(
            pgn.movetext,
            source,
            target,
            style,
            board=pgn.start(),
            figurines=figurines,
            long=long,
            width=79 if pgn.tags else None,
            game=index if many else None,
        )
        if pgn.tags:
            out.append("\n".join(pgn.tags) + "\n\n" + body + "\n")
        else:
            out.append(body)
    return "\n".join(out)


def scores(text: str, lang: str = "en", *, lenient: bool = True) -> Sequence[Score]:
    """Every game of a PGN text (or bare movetext) read as a :class:`Score`."""
    games = split_games(text)
    many = len(games) > 1
    return [
        _walk(
            pgn.movetext,
            lang,
            pgn.start(),
            lenient=lenient,
            game=index if many else None,
        )
        for index, pgn in enumerate(games, start=1)
    ]
