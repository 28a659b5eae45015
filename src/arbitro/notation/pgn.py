"""PGN: reading games into the Laws engine, writing the engine's games, any language.

:func:`read_pgn` and :func:`write_pgn` read and write PGN with python-chess underneath (tags,
``[%clk]``/``[%emt]`` comments, ``FEN``/``SetUp`` kept), in any language of
:mod:`arbitro.notation.letters` (the movetext is translated to and from English SAN).
:func:`game_to_pgn` writes a game of the Laws engine: the clock after every move, the draw
offers as ``(=)``, the result the engine decided and its ``Termination``.

The fast path reads a game's headers and its mainline as text (SAN tokens and the
``[%clk]``/``[%emt]`` clock comments) through a python-chess visitor that skips python-chess's
own move parsing: the :class:`~arbitro.game.Game` parses each move once, on its own board.

>>> import io
>>> record = read_mainline(io.StringIO('[TimeControl "180+2"]\\n\\n1. e4 { [%clk 0:03:01] } 1-0'))
>>> record.sans, record.clocks, record.result
(['e4'], [181000], '1-0')
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

import chess
import chess.pgn

from arbitro.editions import Edition
from arbitro.errors import ArbitroError, TimeControlError
from arbitro.game import Game, GameSetup
from arbitro.i18n import N_
from arbitro.notation.algebraic import Style
from arbitro.notation.letters import NotationError
from arbitro.notation.movetext import translate
from arbitro.timecontrol import TimeControl

_CLK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")
_EMT = re.compile(r"\[%emt\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")


@dataclass(slots=True)
class MainlineRecord:
    """A PGN game as text: headers, mainline SAN, the clock after each move (ms or None),
    the time spent on each move from ``[%emt]`` (ms or None), the result token, and the errors
    the reader met."""

    headers: dict[str, str] = field(default_factory=dict)
    sans: list[str] = field(default_factory=list)
    clocks: list[int | None] = field(default_factory=list)
    spent: list[int | None] = field(default_factory=list)
    result: str = "*"
    errors: list[str] = field(default_factory=list)

    @property
    def has_clocks(self) -> bool:
        return bool(self.clocks) and all(c is not None for c in self.clocks)


def _hms(match: re.Match[str]) -> int:
    hours, minutes, seconds = match.groups()
    return round((int(hours) * 3600 + int(minutes) * 60 + float(seconds)) * 1000)


class MainlineCollector(chess.pgn.BaseVisitor[MainlineRecord]):
    """A visitor that keeps the headers, the mainline SAN and its clock comments, and tells
    the reader not to parse moves or enter variations."""

    def begin_game(self) -> None:
        self.record = MainlineRecord()

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.record.headers[tagname] = tagvalue

    def begin_variation(self) -> chess.pgn.SkipType:
        return chess.pgn.SKIP

    def begin_parse_san(self, board: chess.Board, san: str) -> chess.pgn.SkipType:
        if not board.move_stack:
            # The reader recognises a variation only after a move on its board; as its board
            # never moves here, give it a null move so that variations are still skipped.
            board.push(chess.Move.null())
        record = self.record
        record.sans.append(san)
        record.clocks.append(None)
        record.spent.append(None)
        return chess.pgn.SKIP

    def visit_comment(self, comment: str) -> None:
        record = self.record
        if not record.sans:
            return
        if "%clk" in comment:
            clk = _CLK.search(comment)
            if clk:
                record.clocks[-1] = _hms(clk)
        if "%emt" in comment:
            emt = _EMT.search(comment)
            if emt:
                record.spent[-1] = _hms(emt)

    def visit_result(self, result: str) -> None:
        self.record.result = result

    def handle_error(self, error: Exception) -> None:
        self.record.errors.append(str(error))

    def result(self) -> MainlineRecord:
        return self.record


def read_mainline(handle: TextIO) -> MainlineRecord | None:
    """The next game of ``handle`` as a :class:`MainlineRecord`, or ``None`` at the end."""
    return chess.pgn.read_game(handle, Visitor=MainlineCollector)


# A game in the plain form online servers export: tag lines, one blank line, then movetext of
# move numbers, moves (with check marks and !? annotations), one-line comments, NAGs and
# results, a space or an end of line apart, and then only ends of line. No character that
# str.splitlines takes for the end of a line may appear but "\n" (the audit's check for stray
# words reads the text by those lines, python-chess's reader by "\n").
_NOT_ON_A_LINE = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_PLAIN_TAG = r'\[([A-Za-z0-9][A-Za-z0-9_+#=:-]*) +"([^"\\' + _NOT_ON_A_LINE + r']*)"\] *\n'
_PLAIN_MOVE = r"(?:[NBKRQ]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?|O-O(?:-O)?|0-0(?:-0)?)"
_PLAIN_COMMENT = r"\{[^{}" + _NOT_ON_A_LINE + r"]*\}"
_PLAIN_GAME = re.compile(
    rf"(?P<tags>(?:{_PLAIN_TAG})+)\n"
    r"(?P<moves>(?:\d+\.(?:\.\.)?(?=[NBKRQa-hO])"  # a move number, its move right after it
    rf"|(?:\d+\.(?:\.\.)?|{_PLAIN_MOVE}[+#]?(?:[!?]{{1,2}})?|{_PLAIN_COMMENT}|\$\d+"
    r"|1-0|0-1|1/2-1/2|\*)(?:[ \n]|\Z))+)\n*"
)
_PLAIN_HEADER = re.compile(_PLAIN_TAG)
_PLAIN_TOKEN = re.compile(rf"({_PLAIN_MOVE})|\{{([^}}]*)\}}|(1-0|0-1|1/2-1/2|\*)")
# Without comments, moves and results are all there is to read (neither can match inside a
# move number, a NAG or the other).
_PLAIN_MOVES = re.compile(_PLAIN_MOVE)
_PLAIN_RESULTS = re.compile(r"1-0|0-1|1/2-1/2|\*")


def read_plain_mainline(text: str) -> MainlineRecord | None:
    """The record :func:`read_mainline` reads from ``text`` (one game), read with two regular
    expressions when the game is in the plain form online servers export (no ``FEN`` tag, no
    variant but standard, nothing but moves, numbers, one-line comments, NAGs and results in
    the movetext); ``None`` for any other text, to be read with :func:`read_mainline`.

    >>> record = read_plain_mainline('[Result "1-0"]\\n\\n1. e4 { [%clk 0:03:01] } 1-0\\n')
    >>> record is not None and (record.sans, record.clocks, record.result)
    (['e4'], [181000], '1-0')
    """
    match = _PLAIN_GAME.fullmatch(text)
    if match is None:
        return None
    record = MainlineRecord()
    headers = record.headers
    for tag in _PLAIN_HEADER.finditer(match.group("tags")):
        headers[tag.group(1)] = tag.group(2)
    if "FEN" in headers or headers.get("Variant", "Standard") != "Standard":
        return None  # a board python-chess might refuse: its reader says why
    moves = match.group("moves")
    if "{" not in moves:
        record.sans = _PLAIN_MOVES.findall(moves)
        record.clocks = [None] * len(record.sans)
        record.spent = [None] * len(record.sans)
        results = _PLAIN_RESULTS.findall(moves)
        if results:
            record.result = results[-1]
        return record
    sans, clocks, spent = record.sans, record.clocks, record.spent
    for token in _PLAIN_TOKEN.finditer(moves):
        san, comment, result = token.groups()
        if san is not None:
            sans.append(san)
            clocks.append(None)
            spent.append(None)
        elif comment is not None:
            if sans:  # as MainlineCollector.visit_comment
                if "%clk" in comment:
                    clk = _CLK.search(comment)
                    if clk:
                        clocks[-1] = _hms(clk)
                if "%emt" in comment:
                    emt = _EMT.search(comment)
                    if emt:
                        spent[-1] = _hms(emt)
        else:
            record.result = result
    return record


def iter_mainlines(handle: TextIO) -> Iterator[MainlineRecord]:
    while (record := read_mainline(handle)) is not None:
        yield record


def pgn_date(headers: dict[str, str]) -> datetime.date | None:
    """The game's date from ``UTCDate`` or ``Date`` (``YYYY.MM.DD``), if complete."""
    for name in ("UTCDate", "Date"):
        value = headers.get(name, "")
        match = re.fullmatch(r"(\d{4})\.(\d{2})\.(\d{2})", value)
        if match:
            try:
                return datetime.date(*map(int, match.groups()))
            except ValueError:
                continue
    return None


def edition_for(headers: dict[str, str]) -> Edition:
    """The edition in force on the game's date; ``fide-2023`` without a usable date."""
    date = pgn_date(headers)
    return Edition.for_date(date) if date else Edition.get("fide-2023")


def control_for(headers: dict[str, str]) -> TimeControl:
    """The PGN ``TimeControl`` tag (seconds), or no clock when absent or unreadable."""
    try:
        return TimeControl.from_pgn(headers.get("TimeControl", "-"))
    except TimeControlError:
        return TimeControl.untimed()


@dataclass(slots=True)
class Replay:
    """A PGN game replayed through the engine: the game, and where it stopped if it did."""

    game: Game
    record: MainlineRecord
    #: 0-based index of the first move the engine refused, with the refusal.
    stopped_at: int | None = None
    error: ArbitroError | None = None


def replay(record: MainlineRecord, edition: Edition | None = None) -> Replay:
    """Replay a recorded game: each move played (made and pressed) at the instant the recorded
    clocks give, or one second apart when the game has no clock comments.

    :raises ArbitroError: when the setup itself cannot be built (a bad ``FEN`` tag).
    """
    headers = record.headers
    chosen = edition or edition_for(headers)
    control = control_for(headers)
    use_clock = control.is_timed and record.has_clocks and not control.is_hourglass
    fen = headers.get("FEN") if headers.get("SetUp") == "1" or "FEN" in headers else None
    setup = GameSetup.create(
        chosen,
        control if use_clock else None,
        kind=None if use_clock or control.is_known is False else _kind(control, chosen),
        start=fen,
    )
    game = Game(setup)
    result = Replay(game, record)
    game.start(0)
    turn = game.board.turn
    at = 0
    remaining = [control.initial_ms, control.initial_ms] if use_clock else None
    for index, san in enumerate(record.sans):
        color = turn
        if remaining is not None:
            clock_after = record.clocks[index]
            assert clock_after is not None
            period = control.periods[0]
            spent = remaining[color] - clock_after + period.increment_ms
            at += max(0, spent)
            remaining[color] = clock_after
        else:
            at += 1000
        try:
            game.play("white" if color else "black", san, at)
        except ArbitroError as error:
            result.stopped_at = index
            result.error = error
            break
        turn = not turn
    return result


def _kind(control: TimeControl, edition: Edition) -> str | None:
    try:
        return control.kind(edition).value
    except TimeControlError:
        return None


# -- PGN in any language, and the engine's games as PGN ----------------------------------------


def read_pgn(handle: TextIO, lang: str = "en") -> chess.pgn.Game | None:
    """The next game of ``handle`` (python-chess's reader; ``lang`` is the language of the
    movetext), or ``None`` at the end.

    :raises NotationError: for a move that cannot be read in ``lang``.
    """
    if lang == "en":
        return _read_game(handle)
    text = _next_game_text(handle)
    if text is None:
        return None
    return _read_game(io.StringIO(translate(text, lang, "en", "pgn")))


def _read_game(handle: TextIO) -> chess.pgn.Game | None:
    try:
        return chess.pgn.read_game(handle)
    except (IndexError, KeyError, AssertionError) as error:
        # python-chess's game builder can trip over badly nested variations and comments
        # (e.g. a ')' with no '(' before a comment): a text that is not PGN, not a crash.
        raise NotationError(
            N_("This is not PGN that can be read ({error})."),
            code="unreadable-pgn",
            error=type(error).__name__,
        ) from None


def _next_game_text(handle: TextIO) -> str | None:
    """The text of the next game (its tags and movetext) of a PGN stream."""
    lines: list[str] = []
    seen_moves = False
    while True:
        position = handle.tell() if handle.seekable() else None
        line = handle.readline()
        if not line:
            break
        is_tag = line.lstrip().startswith("[") and line.rstrip().endswith("]")
        if is_tag and seen_moves and position is not None:
            handle.seek(position)
            break
        if not is_tag and line.strip():
            seen_moves = True
        lines.append(line)
    text = "".join(lines)
    return text if text.strip() else None


def write_pgn(game: chess.pgn.Game, lang: str = "en", style: Style = "pgn") -> str:
    """``game`` as PGN text (python-chess's exporter), its moves in ``lang`` and ``style``."""
    text = str(game)
    if lang == "en" and style == "pgn":
        return text + "\n"
    return translate(text, "en", lang, style)


#: The PGN ``Termination`` tag for each way the engine ends a game.
PGN_TERMINATION = {
    "time-forfeit": "time forfeit",
    "time-forfeit-draw": "time forfeit",
    "both-flags": "time forfeit",
    "illegal-move": "rules infraction",
    "illegal-move-draw": "rules infraction",
    "arbiter-decision": "adjudication",
    "quickplay-finish": "adjudication",
    "adjournment-lateness": "time forfeit",
    "sealed-move-invalid": "rules infraction",
    "late-arrival": "time forfeit",
}


def game_to_pgn(game: Game, headers: dict[str, str] | None = None) -> chess.pgn.Game:
    """The engine's ``game`` as a python-chess game: players, ``TimeControl`` (when PGN can
    express it), ``FEN``/``SetUp`` for another start, every legal ply with ``[%clk]`` (the
    mover's time once he pressed) and ``(=)`` for a draw offer, the result the engine decided,
    ``Termination``, and a last comment naming the termination and the article.

    ``headers`` adds or overrides tags (``Event``, ``Site``, ``Date``, ``Round``, ...).
    """
    setup = game.setup
    pgn = chess.pgn.Game()
    start = chess.Board(setup.start_fen)
    if setup.start_fen != chess.STARTING_FEN:
        pgn.setup(start)
    if setup.players is not None:
        pgn.headers["White"], pgn.headers["Black"] = setup.players
    tag = setup.control.to_pgn() if setup.control.is_timed else "-"
    if tag is not None:
        pgn.headers["TimeControl"] = tag
    state = game.state()
    node: chess.pgn.GameNode = pgn
    for ply in game.plies:
        if not ply.legal:
            continue  # an illegal move corrected on the board is not part of the score
        node = node.add_variation(ply.move)
        clock = ply.clock_after
        if clock is None and ply.pressed_at is None and state.clock is not None:
            clock = state.clock[ply.color]  # the last move, which ended the game unpressed
        if clock is not None:
            node.set_clock(clock / 1000)
        if ply.draw_offer:
            node.comment = f"{node.comment} (=)".strip()
    pgn.headers["Result"] = state.result
    if state.termination is not None:
        pgn.headers["Termination"] = PGN_TERMINATION.get(state.termination, "normal")
        note = state.termination.replace("-", " ")
        if state.article:
            note += f", article {state.article} ({game.edition.id})"
        node.comment = f"{node.comment} {note}".strip() if node is not pgn else note
    for name, value in (headers or {}).items():
        pgn.headers[name] = value
    return pgn
