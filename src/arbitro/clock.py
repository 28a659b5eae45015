"""The chess clock as a pure, deterministic value.

A :class:`Clock` never reads the wall clock: every operation takes ``at``, the time in integer
milliseconds since an origin the caller chooses, and returns a new clock (the value itself never
changes). An operation that cannot be performed raises :class:`~arbitro.errors.ClockError` and,
the clock being immutable, changes nothing.

>>> clock = Clock.new("3+2").start(0)
>>> clock = clock.press(2_000)            # White completes 1.e4 after 2 s: 3:00 with the increment
>>> clock.remaining(WHITE, 2_000), clock.remaining(BLACK, 7_000)
(180000, 175000)
>>> clock.flag_at(BLACK)                  # if Black never moves, his flag falls at 3:02
182000

What digital clocks do, as arbitro models it (``../shared/spec/editions.md``, "Clocks"):

- Fischer increment: credited when a move is completed by pressing the clock, from move 1.
- Bronstein delay: the clock runs from the start of the turn; on completing the move the time
  used is given back, up to the delay (never more than was taken off).
- US (simple) delay: the countdown starts only once the delay has passed.
- Periods with a move count: the next period's time is added when a player completes the last
  move of his period; a last period with a move count repeats.
- A period without a move count that is not the last: when one player's time reaches zero, the
  next period starts for both players.
- Hourglass: the time the player to move uses is added to his opponent.
- Remaining time is never negative. A flag falls at the instant the remaining time reaches zero,
  and that instant is kept: later time added by the arbiter or a new period does not raise it
  again (only :meth:`Clock.set_time` does, as a reset of that side's clock). A clock at zero
  shows 0:00: pressing it credits no increment and no delay; only the time of a new period
  (when the period's move count is reached) or the arbiter gives it time again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from arbitro.color import BLACK, WHITE, ByColor, Color, color_name
from arbitro.errors import ClockError
from arbitro.i18n import N_
from arbitro.timecontrol import DelayKind, TimeControl

__all__ = ["BLACK", "WHITE", "Clock"]

_ZEROS: ByColor[int] = ByColor(0, 0)
_NO_FLAGS: ByColor[int | None] = ByColor(None, None)


@dataclass(frozen=True, slots=True)
class Clock:
    """A two-sided chess clock under a :class:`~arbitro.timecontrol.TimeControl`.

    Create one with :meth:`new`. The fields are the clock's state as of the instant ``since``;
    ask for the time at any later instant with :meth:`remaining`.
    """

    control: TimeControl
    #: Each side's remaining time at the instant ``since``.
    settled: ByColor[int]
    #: The side whose clock runs (or will run again when the clocks are restarted).
    turn: Color = WHITE
    #: Whether the clocks have been started.
    started: bool = False
    #: Whether ``turn``'s clock is running now (false before the start and while stopped).
    running: bool = False
    #: The instant of the last operation.
    since: int = 0
    #: Time the current turn has run before ``since`` (a US delay is used up first).
    turn_used: int = 0
    #: Time actually taken off the running side in this turn (a Bronstein delay gives back
    #: at most this).
    turn_charged: int = 0
    #: Moves each side has completed (by pressing the clock).
    moves: ByColor[int] = _ZEROS
    #: The 0-based period each side is in.
    period_index: ByColor[int] = _ZEROS
    #: Moves each side had completed when its current period began.
    period_start: ByColor[int] = _ZEROS
    #: The instant each side's flag fell, or ``None``.
    flags: ByColor[int | None] = _NO_FLAGS

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def new(cls, control: TimeControl | str) -> Clock:
        """A clock set for ``control`` (a value, or any text :meth:`TimeControl.parse` reads),
        not yet started.

        :raises ClockError: ``no-time-control`` for ``-`` or ``?``.
        :raises TimeControlError: for text that is not a time control.
        """
        if isinstance(control, str):
            control = TimeControl.parse(control)
        if not control.is_timed:
            raise ClockError(
                "no-time-control",
                N_("A clock needs a time control; {control!r} has none."),
                control=str(control),
            )
        return cls(control, ByColor.both(control.initial_ms))

    # -- operations -----------------------------------------------------------------------

    def start(self, at: int, side: Color = WHITE) -> Clock:
        """Start the clocks at ``at``: ``side``'s clock runs (White's, Law 6.5, unless the game
        starts from a position with Black to move).

        :raises ClockError: ``clock-already-started``.
        """
        if self.started:
            raise ClockError("clock-already-started", N_("The clocks have already been started."))
        return replace(self, turn=side, started=True, running=True, since=at)

    def press(self, at: int, side: Color | None = None) -> Clock:
        """The running side presses its clock at ``at``: its move is completed, its clock stops
        and the opponent's starts (Law 6.2). Increments, delay refunds and the time of a new
        period are credited here.

        ``side``, when given, must be the side whose clock runs.

        :raises ClockError: ``clock-not-started``, ``clock-stopped``, ``not-your-clock`` or
            ``time-goes-backwards``.
        """
        self._check_running()
        if side is not None and side != self.turn:
            raise ClockError(
                "not-your-clock",
                N_("White's clock is running, not Black's.")
                if self.turn == WHITE
                else N_("Black's clock is running, not White's."),
            )
        self._check_time(at)
        mover = self.turn
        control = self.control
        settled = self.settled
        index = self.period_index.white if mover else self.period_index.black
        period = control.period(index)
        time = settled.white if mover else settled.black
        elapsed = at - self.since
        if period.delay_kind is None and elapsed < time and not control.is_hourglass:
            # The usual turn, no delay and time left: what _run would find, without its loop.
            time += period.increment_ms - elapsed
            other_time = settled.black if mover else settled.white
            flags, periods, starts = self.flags, self.period_index, self.period_start
        else:
            time, other_time, _, charged, flags, periods, starts = self._run(at)
            index = periods[mover]
            period = control.period(index)
            # A clock at zero (its flag down) gets no increment or delay; only a new period's
            # time (as digital clocks do when the move count of the period is reached).
            if time > 0:
                time += period.increment_ms
                if period.delay_kind is DelayKind.BRONSTEIN:
                    time += min(charged, period.delay_ms)
        moves = (self.moves.white if mover else self.moves.black) + 1
        if period.moves is not None and moves - starts[mover] == period.moves:
            # The last move of the period: the next period's time is added (it repeats).
            periods = periods.replace(mover, index + 1)
            starts = starts.replace(mover, moves)
            time += self.control.period(index + 1).time_ms
        # Built once, field by field: this is the hot path of every replay.
        return Clock(
            self.control,
            ByColor(time, other_time) if mover == WHITE else ByColor(other_time, time),
            not mover,
            True,
            True,
            at,
            0,
            0,
            self.moves.replace(mover, moves),
            periods,
            starts,
            flags,
        )

    def stop(self, at: int) -> Clock:
        """Stop both clocks (the arbiter, or a player who stops them to call the arbiter).

        :raises ClockError: ``clock-not-started``, ``clock-stopped`` or ``time-goes-backwards``.
        """
        self._check_running()
        return replace(self._settle(at), running=False)

    def restart(self, at: int) -> Clock:
        """Restart the clocks: the side whose turn it is runs again, with what was left of its
        turn (a US delay continues where it stopped).

        :raises ClockError: ``clock-not-started``, ``clock-running`` or ``time-goes-backwards``.
        """
        if not self.started:
            raise ClockError("clock-not-started", N_("The clocks have not been started."))
        if self.running:
            raise ClockError("clock-running", N_("The clocks are already running."))
        self._check_time(at)
        return replace(self, running=True, since=at)

    def add_time(self, side: Color, ms: int, at: int) -> Clock:
        """Add ``ms`` to ``side``'s clock at ``at`` (negative to deduct; the result is never
        below zero, and a deduction to zero makes the flag fall).

        :raises ClockError: ``time-goes-backwards``.
        """
        clock = self._settle(at)
        time = max(0, clock.settled[side] + ms)
        flags = clock.flags
        if time == 0 and flags[side] is None:
            flags = flags.replace(side, at)
        return replace(clock, settled=clock.settled.replace(side, time), flags=flags)

    def set_time(self, side: Color, ms: int, at: int) -> Clock:
        """Set ``side``'s clock to ``ms`` at ``at``. This resets that side's flag: a positive
        time raises it again; zero makes it fall now.

        :raises ClockError: ``negative-time`` or ``time-goes-backwards``.
        """
        if ms < 0:
            raise ClockError(
                "negative-time", N_("A clock cannot be set to a negative time ({ms} ms)."), ms=ms
            )
        clock = self._settle(at)
        flag = None if ms > 0 else at
        charged = 0 if side == clock.turn else clock.turn_charged
        return replace(
            clock,
            settled=clock.settled.replace(side, ms),
            flags=clock.flags.replace(side, flag),
            turn_charged=charged,
        )

    def hand_over(self, side: Color, at: int) -> Clock:
        """Give the turn to ``side`` at ``at`` without completing a move (no increment, no move
        counted): the arbiter reinstating a position in which ``side`` is to move. If the
        clocks run, ``side``'s clock runs from ``at``.

        :raises ClockError: ``time-goes-backwards``.
        """
        clock = self._settle(at)
        if clock.turn == side:
            return clock
        return replace(clock, turn=side, turn_used=0, turn_charged=0)

    def advance(self, at: int) -> Clock:
        """The same clock with its state brought forward to ``at`` (flags that fell by then are
        recorded; periods that began by then have begun). Nothing else changes.

        :raises ClockError: ``time-goes-backwards``.
        """
        return self._settle(at)

    # -- queries --------------------------------------------------------------------------

    def remaining(self, side: Color, at: int) -> int:
        """``side``'s remaining time at ``at``, in ms, never negative.

        :raises ClockError: ``time-goes-backwards`` for an instant before the last operation.
        """
        return self._settle(at).settled[side]

    def remaining_both(self, at: int) -> ByColor[int]:
        """Both sides' remaining time at ``at``."""
        return self._settle(at).settled

    def flag_at(self, side: Color) -> int | None:
        """The instant ``side``'s flag fell, or will fall if nothing else happens; ``None`` when
        it has not fallen and will not while the clocks stand as they are.
        """
        fallen = self.flags[side]
        if fallen is not None:
            return fallen
        if not self.running or side != self.turn:
            return None
        time = self.settled[side]
        if time == 0:
            return self.since
        return self.since + self._free_time() + time

    def fallen(self, at: int) -> ByColor[int | None]:
        """The instant each flag fell, as of ``at``."""
        return self._settle(at).flags

    def first_flag(self, at: int) -> Color | None:
        """The side whose flag fell first, as of ``at``; ``None`` when no flag has fallen.

        (Two flags cannot fall at the same instant while a clock runs; if the arbiter sets both
        clocks to zero at once, White's is taken as first.)
        """
        flags = self.fallen(at)
        if flags.white is None:
            return None if flags.black is None else BLACK
        if flags.black is None or flags.white <= flags.black:
            return WHITE
        return BLACK

    def period_of(self, side: Color) -> int:
        """The 0-based period ``side`` is in (as of the last operation)."""
        return self.period_index[side]

    # -- internals ------------------------------------------------------------------------

    def _check_running(self) -> None:
        if not self.started:
            raise ClockError("clock-not-started", N_("The clocks have not been started."))
        if not self.running:
            raise ClockError("clock-stopped", N_("The clocks are stopped."))

    def _check_time(self, at: int) -> None:
        if at < self.since:
            raise ClockError(
                "time-goes-backwards",
                N_("Time cannot go backwards: {at} ms is before {since} ms."),
                at=at,
                since=self.since,
            )

    def _free_time(self) -> int:
        """What is left of a US delay in the current turn."""
        period = self.control.period(self.period_index[self.turn])
        if period.delay_kind is DelayKind.US:
            return max(0, period.delay_ms - self.turn_used)
        return 0

    def _settle(self, at: int) -> Clock:
        """The clock brought forward from ``since`` to ``at``."""
        self._check_time(at)
        if not self.running or at == self.since:
            return self if at == self.since else replace(self, since=at)
        time, other_time, used, charged, flags, index, start = self._run(at)
        mover = self.turn
        settled = ByColor(time, other_time) if mover == WHITE else ByColor(other_time, time)
        return Clock(
            self.control,
            settled,
            mover,
            True,
            True,
            at,
            used,
            charged,
            self.moves,
            index,
            start,
            flags,
        )

    def _run(
        self, at: int
    ) -> tuple[int, int, int, int, ByColor[int | None], ByColor[int], ByColor[int]]:
        """Run the mover's clock from ``since`` to ``at`` (``at >= since``, clocks running):
        (mover's time, opponent's time, turn used, turn charged, flags, periods, period
        starts)."""
        mover = self.turn
        other = not mover
        now = self.since
        used = self.turn_used
        charged = self.turn_charged
        time = self.settled[mover]
        other_time = self.settled[other]
        hourglass = self.control.is_hourglass
        flags = self.flags
        index = self.period_index
        start = self.period_start
        while True:
            period = self.control.period(index[mover])
            if time > 0:
                free = 0
                if period.delay_kind is DelayKind.US:
                    free = max(0, period.delay_ms - used)
                zero_at = now + free + time
                if zero_at > at:
                    taken = max(0, at - now - free)
                    time -= taken
                    charged += taken
                    if hourglass:
                        other_time += taken
                    used += at - now
                    break
                # The remaining time reaches zero at zero_at: the flag falls then.
                charged += time
                if hourglass:
                    other_time += time
                time = 0
                used += zero_at - now
                now = zero_at
            if flags[mover] is None:
                flags = flags.replace(mover, now)
            current = index[mover]
            if period.moves is None and current + 1 < len(self.control.periods):
                # A period without a move count ends for both when one side's time runs out.
                added = self.control.period(current + 1).time_ms
                time += added
                start = start.replace(mover, self.moves[mover])
                if index[other] == current:
                    other_time += added
                    index = index.replace(other, current + 1)
                    start = start.replace(other, self.moves[other])
                index = index.replace(mover, current + 1)
                continue
            used += at - now
            break
        return time, other_time, used, charged, flags, index, start

    def __repr__(self) -> str:
        state = "running" if self.running else ("stopped" if self.started else "not started")
        return (
            f"<Clock {self.control} {state} at {self.since} ms: "
            f"white {self.settled.white} ms, black {self.settled.black} ms, "
            f"{color_name(self.turn)} to move>"
        )
