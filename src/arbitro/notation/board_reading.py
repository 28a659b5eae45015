"""Reading the board aloud to a blind player (Appendix F): the commands he types in the move
box instead of a move, and the words that answer them.

Commands (Spanish, English, and German for the ``fide`` style), tolerant of case and accents:
``fila 1`` / ``rank 1`` (the pieces on a rank), ``columna e`` / ``columna Eva`` / ``file e``
(those on a file), ``relojes`` / ``clocks``, ``repetir`` / ``repeat`` (the opponent's last
move) and ``ayuda`` / ``help``. Anything else is no command: it is a move.

A rank or file is read in the words of a spoken style (:data:`~arbitro.notation.spoken.STYLES`),
as moves are announced; the clocks and the help are read in the page's language.

>>> parse_command("Fila 1")
Command(kind='rank', index=0)
>>> parse_command("columna Félix")
Command(kind='file', index=5)
>>> parse_command("Caballo Félix tres") is None
True
>>> read_rank("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 0, "es")
'Fila uno: Ana uno, Torre blanca; Eva uno, Rey blanco.'
>>> read_file("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 4, "en")
'File Eva: Eva one, white King; Eva eight, black King.'
>>> read_clocks(175_000, 180_000, "en")
'White 2 minutes 55 seconds, Black 3 minutes.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import chess

from arbitro.i18n import N_, gettext, ngettext
from arbitro.notation.letters import NotationError
from arbitro.notation.spoken import STYLES, _plain, _style

__all__ = [
    "Command",
    "CommandKind",
    "check_style",
    "help_text",
    "parse_command",
    "read_clocks",
    "read_file",
    "read_rank",
]

CommandKind = Literal["rank", "file", "clocks", "repeat", "help"]

#: The words that start a command, without accents (as ``_plain`` leaves them).
_COMMANDS: dict[str, CommandKind] = {
    "fila": "rank",
    "rank": "rank",
    "reihe": "rank",
    "columna": "file",
    "file": "file",
    "linie": "file",
    "relojes": "clocks",
    "reloj": "clocks",
    "clocks": "clocks",
    "clock": "clocks",
    "uhren": "clocks",
    "uhr": "clocks",
    "repetir": "repeat",
    "repite": "repeat",
    "repeat": "repeat",
    "wiederholen": "repeat",
    "ayuda": "help",
    "help": "help",
    "hilfe": "help",
}


def _names(kind: Literal["files", "ranks"]) -> dict[str, int]:
    """Every style's names of files or ranks, plain, to their 0-based index; for ranks also the
    digits, for files the letters."""
    names: dict[str, int] = {}
    for style in STYLES.values():
        for index, name in enumerate(getattr(style, kind)):
            names[_plain(name)] = index
    for index in range(8):
        names[str(index + 1) if kind == "ranks" else chess.FILE_NAMES[index]] = index
    if kind == "ranks":
        names["funf"] = 4  # "fünf" typed without its umlaut
    return names


_FILES = _names("files")
_RANKS = _names("ranks")


@dataclass(frozen=True, slots=True)
class Command:
    """A command typed in the move box: ``kind``, and for ``rank`` and ``file`` the 0-based
    ``index`` of the rank (1 → 0) or file (a → 0)."""

    kind: CommandKind
    index: int | None = None


def parse_command(text: str) -> Command | None:
    """The command ``text`` gives, or ``None`` when it is no command (then it is a move).

    :raises NotationError: ``unreadable-command``, for a command word with a missing or wrong
        argument ("fila 9", "columna z", "relojes ya").
    """
    plain = _plain(text)
    # "fila1" is "fila 1"; punctuation a screen reader user may type is a separator.
    plain = re.sub(r"(?<=[a-z])(?=\d)", " ", plain)
    words = [word for word in re.split(r"[\s,.;:!?¿¡'\"]+", plain) if word]
    if not words or words[0] not in _COMMANDS:
        return None
    kind = _COMMANDS[words[0]]
    rest = words[1:]
    if kind in ("rank", "file"):
        names = _RANKS if kind == "rank" else _FILES
        if len(rest) != 1 or rest[0] not in names:
            raise NotationError(
                N_("{text!r}: name one rank, 1 to 8 (for example 'rank 1').")
                if kind == "rank"
                else N_("{text!r}: name one file, a to h or its name (for example 'file e')."),
                code="unreadable-command",
                text=text.strip(),
            )
        return Command(kind, names[rest[0]])
    if rest:
        raise NotationError(
            N_("{text!r}: the command {command!r} takes nothing after it."),
            code="unreadable-command",
            text=text.strip(),
            command=words[0],
        )
    return Command(kind)


@dataclass(frozen=True, slots=True)
class _Reading:
    """The words a style reads a line of the board with: its name for a rank and a file, the
    word for an empty line, and the colour of a piece (adjectives agree with the noun)."""

    rank: str
    file: str
    empty: str
    #: (masculine, feminine) adjective for White's pieces, then for Black's.
    white: tuple[str, str]
    black: tuple[str, str]
    #: The piece types whose noun in this style is feminine.
    feminine: frozenset[int]
    #: English and German put the colour before the piece, Spanish after it.
    colour_first: bool


_READINGS = {
    "fide": _Reading(
        "Reihe",
        "Linie",
        "leer",
        ("weisser", "weisse"),
        ("schwarzer", "schwarze"),
        frozenset({chess.QUEEN}),
        True,
    ),
    "es": _Reading(
        "Fila",
        "Columna",
        "vacía",
        ("blanco", "blanca"),
        ("negro", "negra"),
        frozenset({chess.ROOK, chess.QUEEN}),
        False,
    ),
    "en": _Reading(
        "Rank", "File", "empty", ("white", "white"), ("black", "black"), frozenset(), True
    ),
}


def check_style(style: str) -> None:
    """Nothing, for a known spoken style.

    :raises NotationError: ``unknown-language`` for an unknown one.
    """
    _style(style)


def _piece(piece: chess.Piece, style: str) -> str:
    words = STYLES[style]
    reading = _READINGS[style]
    noun = words.pieces[piece.piece_type - 1]
    forms = reading.white if piece.color == chess.WHITE else reading.black
    colour = forms[1] if piece.piece_type in reading.feminine else forms[0]
    return f"{colour} {noun}" if reading.colour_first else f"{noun} {colour}"


def _read_line(fen: str, squares: list[int], header: str, style: str) -> str:
    words = STYLES[style]
    board = chess.Board(fen)
    parts = []
    for square in squares:
        piece = board.piece_at(square)
        if piece is not None:
            file, rank = chess.square_file(square), chess.square_rank(square)
            parts.append(f"{words.files[file]} {words.ranks[rank]}, {_piece(piece, style)}")
    return f"{header}: {'; '.join(parts) if parts else _READINGS[style].empty}."


def read_rank(fen: str, rank: int, style: str = "fide") -> str:
    """The pieces on ``rank`` (0-based) of the position ``fen``, square by square from the a
    file to the h file, each with its colour, in the words of ``style``.

    :raises NotationError: ``unknown-language`` for an unknown style.
    :raises ValueError: for a rank outside 0–7 or a FEN that cannot be read.
    """
    words = _style(style)
    if not 0 <= rank < 8:
        raise ValueError(f"no rank {rank}")
    header = f"{_READINGS[style].rank} {words.ranks[rank]}"
    return _read_line(fen, [chess.square(file, rank) for file in range(8)], header, style)


def read_file(fen: str, file: int, style: str = "fide") -> str:
    """The pieces on ``file`` (0-based: a is 0) of ``fen``, from the first rank to the eighth,
    each with its colour, in the words of ``style``.

    :raises NotationError: ``unknown-language`` for an unknown style.
    :raises ValueError: for a file outside 0–7 or a FEN that cannot be read.
    """
    words = _style(style)
    if not 0 <= file < 8:
        raise ValueError(f"no file {file}")
    header = f"{_READINGS[style].file} {words.files[file]}"
    return _read_line(fen, [chess.square(file, rank) for rank in range(8)], header, style)


def _spoken_time(ms: int, lang: str) -> str:
    """Remaining time in words ("2 minutes 5 seconds"), whole seconds cut as clocks cut them:
    a screen reader reads "2:05" badly."""
    hours, rest = divmod(max(0, ms) // 1000, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = []
    if hours:
        parts.append(ngettext("{n} hour", "{n} hours", hours, lang).format(n=hours))
    if minutes:
        parts.append(ngettext("{n} minute", "{n} minutes", minutes, lang).format(n=minutes))
    if seconds or not parts:
        parts.append(ngettext("{n} second", "{n} seconds", seconds, lang).format(n=seconds))
    return " ".join(parts)


def read_clocks(white_ms: int | None, black_ms: int | None, lang: str = "en") -> str:
    """Both clocks in words, in ``lang``; a game without clocks says so."""
    if white_ms is None or black_ms is None:
        return gettext(N_("This game is played without clocks."), lang)
    return gettext(N_("White {white}, Black {black}."), lang).format(
        white=_spoken_time(white_ms, lang), black=_spoken_time(black_ms, lang)
    )


def help_text(lang: str = "en") -> str:
    """The list of commands, in ``lang``."""
    return gettext(
        N_(
            "Commands: 'rank 1' reads a rank; 'file e' or 'file Eva' reads a file; 'clocks' "
            "reads both clocks; 'repeat' repeats your opponent's last move; 'help' reads this "
            "list. Anything else is played as a move, in words ('Knight Felix three') or in "
            "algebraic notation ('Nf3')."
        ),
        lang,
    )
