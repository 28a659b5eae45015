"""``arbitro clock``: a two-sided chess clock in the terminal.

Space starts the clocks and then presses them, ``p`` pauses and resumes, ``q`` quits. The side
to move is highlighted, a fallen flag is shown, and under 20 seconds the time shows tenths.

The clock itself is the pure :class:`~arbitro.clock.Clock`; this module is the adapter that
reads the keyboard and the monotonic clock and draws with Rich. :class:`ClockFace` holds no
terminal state, so it can be driven and drawn in tests with any times.
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import termios
import time
import tty
from typing import Any

from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from arbitro.clock import Clock
from arbitro.color import BLACK, WHITE, Color
from arbitro.errors import ArbitroError, ClockError
from arbitro.i18n import N_, gettext, ngettext
from arbitro.timecontrol import TimeControl

#: Under this remaining time the display shows tenths of a second.
TENTHS_BELOW_MS = 20_000
#: How often the screen is redrawn while waiting for a key, in seconds.
FRAME_SECONDS = 0.05

# A five-row block font for the digits, the colon and the decimal point.
_FONT = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": ("  █", "  █", "  █", "  █", "  █"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", "███", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", "  █", "  █"),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    ":": (" ", "█", " ", "█", " "),
    ".": (" ", " ", " ", " ", "█"),
}


def format_time(ms: int) -> str:
    """Remaining time as a clock shows it: ``h:mm:ss`` from an hour, ``m:ss`` below, and
    ``m:ss.t`` under 20 seconds. Never negative; digits are cut, not rounded, as clocks do.

    >>> format_time(3_723_000), format_time(185_000), format_time(19_470), format_time(-5)
    ('1:02:03', '3:05', '0:19.4', '0:00.0')
    """
    ms = max(0, ms)
    if ms < TENTHS_BELOW_MS:
        seconds, rest = divmod(ms, 1000)
        return f"0:{seconds:02d}.{rest // 100}"
    total = ms // 1000
    hours, rest_seconds = divmod(total, 3600)
    minutes, seconds = divmod(rest_seconds, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


def big(text: str) -> str:
    """``text`` (digits, ``:`` and ``.``) drawn in five rows of block characters."""
    rows = ["", "", "", "", ""]
    for char in text:
        glyph = _FONT.get(char, (" ",) * 5)
        for row in range(5):
            rows[row] += glyph[row] + " "
    return "\n".join(row.rstrip() for row in rows)


class ClockFace:
    """The terminal clock's state and drawing, driven by keys and instants in ms."""

    def __init__(self, control: TimeControl, lang: str = "en") -> None:
        self.clock = Clock.new(control)
        self.lang = lang
        self.message = ""

    def _(self, message: str) -> str:
        return gettext(message, self.lang)

    def key(self, key: str, now: int) -> bool:
        """Handle one key pressed at ``now``; false when the user asked to quit."""
        if key in ("q", "Q", "\x1b"):
            return False
        try:
            if key == " ":
                self.press(now)
            elif key in ("p", "P"):
                self.pause(now)
        except ClockError as error:  # pragma: no cover - guarded by the state checks above
            self.message = error.message(self.lang)
        return True

    def press(self, now: int) -> None:
        clock = self.clock
        if not clock.started:
            self.clock = clock.start(now)
            self.message = ""
        elif clock.running:
            self.clock = clock.press(now)
        else:
            self.message = self._(N_("Paused: press p to resume."))

    def pause(self, now: int) -> None:
        clock = self.clock
        if not clock.started:
            return
        if clock.running:
            self.clock = clock.stop(now)
            self.message = self._(N_("Paused: press p to resume."))
        else:
            self.clock = clock.restart(now)
            self.message = ""

    def side(self, color: Color, now: int, large: bool) -> Panel:
        clock = self.clock
        remaining = clock.remaining(color, max(now, clock.since))
        fell = clock.fallen(max(now, clock.since))[color] is not None
        active = clock.started and clock.turn == color
        shown = format_time(remaining)
        body: list[RenderableType] = [
            Align.center(Text(big(shown) if large else shown, style="bold")),
        ]
        moves = clock.moves[color]
        info = ngettext("{n} move", "{n} moves", moves, self.lang).format(n=moves)
        if len(clock.control.periods) > 1:
            period = clock.period_of(color) + 1
            info += " · " + self._(N_("period {n}")).format(n=period)
        body.append(Align.center(Text(info, style="dim")))
        if fell:
            body.append(Align.center(Text("⚑ " + self._(N_("flag fell")), style="bold red")))
        title = self._(N_("White")) if color == WHITE else self._(N_("Black"))
        if active and clock.running:
            style, border = "black on bright_white", "bold bright_yellow"
            title = "▶ " + title
        else:
            style, border = "", "dim"
        if fell:
            border = "bold red"
        return Panel(Group(*body), title=title, border_style=border, style=style, padding=(1, 2))

    def render(self, now: int, width: int = 80) -> RenderableType:
        """The whole screen at ``now``, for a terminal ``width`` columns wide."""
        large = width >= 70
        grid = Table.grid(expand=True, padding=(0, 1))
        grid.add_column(ratio=1)
        grid.add_column(ratio=1)
        grid.add_row(self.side(WHITE, now, large), self.side(BLACK, now, large))
        clock = self.clock
        if not clock.started:
            help_text = self._(N_("space: start White's clock · q: quit"))
        elif clock.running:
            help_text = self._(N_("space: press the clock · p: pause · q: quit"))
        else:
            help_text = self._(N_("p: resume · q: quit"))
        lines: list[RenderableType] = [
            Text(clock.control.describe(self.lang), style="bold", justify="center"),
            grid,
            Text(help_text, style="dim", justify="center"),
        ]
        if self.message:
            lines.append(Text(self.message, style="yellow", justify="center"))
        return Group(*lines)

    def summary(self, now: int) -> str:
        """One line for the terminal after quitting."""
        clock = self.clock
        at = max(now, clock.since)
        parts = []
        for color in (WHITE, BLACK):
            name = self._(N_("White")) if color == WHITE else self._(N_("Black"))
            moves = clock.moves[color]
            text = f"{name} {format_time(clock.remaining(color, at))}, " + ngettext(
                "{n} move", "{n} moves", moves, self.lang
            ).format(n=moves)
            if clock.fallen(at)[color] is not None:
                text += " (" + self._(N_("flag fell")) + ")"
            parts.append(text)
        return " · ".join(parts)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "clock",
        help="a two-sided chess clock in the terminal",
        description=(
            "A chess clock in the terminal. Space starts White's clock, then each press ends "
            "the running side's move; p pauses and resumes; q quits. Any time control that "
            "'arbitro timecontrol' reads works: '3+2', '90+30', '40/90, 30 + 30s', 'G/5;d3', "
            "'5 b3', '*60'."
        ),
    )
    parser.add_argument("control", metavar="TIME_CONTROL", nargs="?", default="3+2")
    parser.add_argument("--pgn", action="store_true", help="read TIME_CONTROL as a PGN tag")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    control = TimeControl.from_pgn(args.control) if args.pgn else TimeControl.parse(args.control)
    face = ClockFace(control, args.lang)  # raises for '-' and '?' before the screen changes
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise ArbitroError(
            N_("The terminal clock needs an interactive terminal (standard input and output)."),
            code="no-terminal",
        )
    return loop(face, Console())


def loop(face: ClockFace, console: Console) -> int:
    """Read keys and redraw until the user quits."""
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    origin = time.monotonic_ns()

    def now() -> int:
        return (time.monotonic_ns() - origin) // 1_000_000

    status = 0
    try:
        tty.setcbreak(fd)
        with console.screen(hide_cursor=True) as screen:
            while True:
                ready, _, _ = select.select([fd], [], [], FRAME_SECONDS)
                if ready:
                    keys = os.read(fd, 64).decode("utf-8", errors="ignore")
                    instant = now()
                    if not all(face.key(key, instant) for key in keys):
                        break
                screen.update(face.render(now(), console.width))
    except KeyboardInterrupt:
        status = 130
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    console.print(face.summary(now()), highlight=False, markup=False)
    return status
