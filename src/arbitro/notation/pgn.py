"""Reading PGN games into the Laws engine.

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
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

import chess
import chess.pgn

from arbitro.editions import Edition
from arbitro.errors import ArbitroError, TimeControlError
from arbitro.game import Game, GameSetup
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
