"""The chess clock: every mode with worked numbers, errors, and invariants (Hypothesis)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitro.clock import Clock
from arbitro.color import BLACK, WHITE, ByColor, Color
from arbitro.errors import ClockError, TimeControlError
from arbitro.timecontrol import DelayKind, Period, TimeControl

MIN = 60_000
SEC = 1_000


def mmss(text: str) -> int:
    """'31:30' -> ms; 'h:mm:ss' too."""
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total * SEC


def play(clock: Clock, start: int, thinking: list[int]) -> tuple[Clock, int]:
    """Press the clock after each thinking time in turn; returns the clock and the instant."""
    now = start
    for spent in thinking:
        now += spent
        clock = clock.press(now)
    return clock, now


# -- start and press ---------------------------------------------------------------------------


@pytest.mark.law("6.5")
def test_start_runs_whites_clock() -> None:
    clock = Clock.new("3+2").start(0)
    assert clock.running and clock.turn == WHITE
    assert clock.remaining(WHITE, 10 * SEC) == 170 * SEC
    assert clock.remaining(BLACK, 10 * SEC) == 180 * SEC


def test_a_game_from_a_position_with_black_to_move_starts_blacks_clock() -> None:
    clock = Clock.new("3+2").start(0, BLACK)
    assert clock.remaining(BLACK, 1 * SEC) == 179 * SEC


def test_before_the_start_nothing_runs() -> None:
    clock = Clock.new("5+0")
    assert clock.remaining(WHITE, 10 * MIN) == 5 * MIN
    assert clock.flag_at(WHITE) is None


@pytest.mark.law("6.7")
def test_pressing_completes_the_move_and_starts_the_opponents_clock() -> None:
    clock = Clock.new("5+0").start(0).press(7 * SEC)
    assert clock.turn == BLACK
    assert clock.moves == ByColor(1, 0)
    assert clock.remaining(WHITE, 60 * SEC) == 293 * SEC
    assert clock.remaining(BLACK, 60 * SEC) == 247 * SEC


# -- Fischer increment --------------------------------------------------------------------------


@pytest.mark.law("6.2")
def test_increment_credited_on_each_completed_move_from_move_1() -> None:
    # The spec's example: White uses 2 s for 1.e4 and receives 2 s: 3:00.
    clock = Clock.new("3+2").start(0).press(2 * SEC)
    assert clock.remaining(WHITE, 2 * SEC) == mmss("3:00")
    # Black takes 4 s: 2:56 + 2 s = 2:58.
    clock = clock.press(6 * SEC)
    assert clock.remaining(BLACK, 6 * SEC) == mmss("2:58")
    # White's clock then runs from 6.0 to 7.0: 2:59.
    assert clock.remaining(WHITE, 7 * SEC) == mmss("2:59")


@pytest.mark.law("6.2")
def test_forty_moves_in_ninety_then_thirty_with_thirty_seconds_from_move_1() -> None:
    # 40/90 + 30 min + 30 s: White spends 2 min a move, Black 1 min.
    clock = Clock.new("40/90, 30 + 30s").start(0)
    now = 0
    for _ in range(39):
        now += 2 * MIN
        clock = clock.press(now)
        now += 1 * MIN
        clock = clock.press(now)
    # After move 39: 90:00 - 39 x 2:00 + 39 x 0:30 = 31:30; Black 90 - 39 + 19:30 = 70:30.
    assert clock.remaining(WHITE, now) == mmss("31:30")
    assert clock.remaining(BLACK, now) == mmss("70:30")
    assert clock.period_of(WHITE) == 0
    now += 2 * MIN
    clock = clock.press(now)
    # Move 40 completes the period: 31:30 - 2:00 + 0:30 + 30:00 = 60:00.
    assert clock.remaining(WHITE, now) == mmss("60:00")
    assert clock.period_of(WHITE) == 1
    assert clock.period_of(BLACK) == 0
    now += 1 * MIN
    clock = clock.press(now)
    # Black: 70:30 - 1:00 + 0:30 + 30:00 = 100:00.
    assert clock.remaining(BLACK, now) == mmss("100:00")
    # Move 41 on: the second period keeps the increment.
    now += 1 * MIN
    clock = clock.press(now)
    assert clock.remaining(WHITE, now) == mmss("59:30")


def test_the_next_period_is_added_even_after_a_flag_fell() -> None:
    # 2 moves in 1 min, then 10 min: White's flag falls before his second move; completing
    # the period still adds the next period's time (the flag stays recorded).
    clock = Clock.new("2/1, 10").start(0).press(10 * SEC).press(11 * SEC)
    clock = clock.press(80 * SEC)
    assert clock.flags.white == 61 * SEC
    assert clock.remaining(WHITE, 80 * SEC) == 10 * MIN
    assert clock.period_of(WHITE) == 1


def test_no_increment_is_credited_to_a_fallen_flag() -> None:
    clock = Clock.new("1+2").start(0).press(61 * SEC)
    assert clock.flags.white == 60 * SEC
    assert clock.remaining(WHITE, 61 * SEC) == 0


def test_periods_with_their_own_increments() -> None:
    # PGN: 40 moves in 90 min without increment, then 30 min with 30 s.
    clock = Clock.new(TimeControl.from_pgn("40/5400:1800+30")).start(0)
    clock, now = play(clock, 0, [1 * MIN] * 80)
    assert clock.remaining(WHITE, now) == mmss("80:00")  # 90 - 40 + 30, no increment
    clock, now = play(clock, now, [1 * MIN, 1 * MIN])
    assert clock.remaining(WHITE, now) == mmss("79:30")  # move 41: -1:00 + 0:30


def test_a_last_period_with_a_move_count_repeats() -> None:
    clock = Clock.new("2/1").start(0)
    clock, now = play(clock, 0, [10 * SEC] * 4)
    # After two moves each: 60 - 20 + 60 = 100 s.
    assert clock.remaining(WHITE, now) == 100 * SEC
    clock, now = play(clock, now, [10 * SEC] * 4)
    assert clock.remaining(WHITE, now) == 140 * SEC
    assert clock.period_of(WHITE) == 2


# -- delays ----------------------------------------------------------------------------------


@pytest.mark.law("6.2")
def test_bronstein_delay_gives_back_the_time_used_up_to_the_delay() -> None:
    clock = Clock.new("5 b3").start(0)
    # The clock runs from the start of the turn.
    assert clock.remaining(WHITE, 2 * SEC) == mmss("4:58")
    clock = clock.press(2 * SEC)
    assert clock.remaining(WHITE, 2 * SEC) == mmss("5:00")  # 2 s given back
    clock = clock.press(12 * SEC)
    assert clock.remaining(BLACK, 12 * SEC) == mmss("4:53")  # 10 s used, 3 s back
    assert clock.remaining(WHITE, 12 * SEC) == mmss("5:00")


def test_bronstein_flag_that_falls_during_the_move_stays_fallen() -> None:
    clock = Clock.new("5s b3").start(0)
    assert clock.flag_at(WHITE) == 5 * SEC
    clock = clock.press(6 * SEC)
    assert clock.flags.white == 5 * SEC
    # The fallen flag shows 0:00: no time is given back.
    assert clock.remaining(WHITE, 6 * SEC) == 0


def test_bronstein_never_gives_back_more_than_was_taken() -> None:
    clock = Clock.new("5 b3").start(0).stop(1 * SEC).add_time(WHITE, 10 * SEC, 1 * SEC)
    clock = clock.restart(2 * SEC).press(3 * SEC)
    # 2 s used in the turn, 2 s given back.
    assert clock.remaining(WHITE, 3 * SEC) == 5 * MIN + 10 * SEC


@pytest.mark.law("6.2")
def test_us_delay_waits_before_counting_down() -> None:
    clock = Clock.new("G/5;d3").start(0)
    assert clock.remaining(WHITE, 2 * SEC) == mmss("5:00")
    assert clock.remaining(WHITE, 3 * SEC) == mmss("5:00")
    assert clock.remaining(WHITE, 4 * SEC) == mmss("4:59")
    clock = clock.press(2 * SEC)
    assert clock.remaining(WHITE, 2 * SEC) == mmss("5:00")
    clock = clock.press(12 * SEC)  # Black: 10 s used, 3 s free
    assert clock.remaining(BLACK, 12 * SEC) == mmss("4:53")
    assert clock.flag_at(WHITE) == 12 * SEC + 3 * SEC + 5 * MIN


def test_us_delay_left_over_survives_a_stop() -> None:
    clock = Clock.new("5 d3").start(0).stop(1 * SEC).restart(10 * SEC)
    # 1 s of the delay was used before the stop; 2 s are left.
    assert clock.remaining(WHITE, 12 * SEC) == mmss("5:00")
    assert clock.remaining(WHITE, 13 * SEC) == mmss("4:59")


# -- periods without a move count and the hourglass ----------------------------------------------


def test_a_period_without_a_move_count_ends_for_both_when_one_runs_out() -> None:
    clock = Clock.new("90 min, 30 min").start(0)
    clock = clock.press(10 * MIN)  # Black's clock now runs
    later = clock.advance(10 * MIN + 90 * MIN)
    # Black's time ran out: his flag fell, and both players start the second period.
    assert later.flags.black == 100 * MIN
    assert later.flags.white is None
    assert later.remaining(BLACK, 100 * MIN) == 30 * MIN
    assert later.remaining(WHITE, 100 * MIN) == 80 * MIN + 30 * MIN
    assert later.period_index == ByColor(1, 1)
    # Black's clock goes on running in the second period.
    assert clock.remaining(BLACK, 101 * MIN) == 29 * MIN


def test_hourglass_moves_the_time_used_to_the_opponent() -> None:
    clock = Clock.new("*60").start(0)
    assert clock.remaining(WHITE, 10 * SEC) == 50 * SEC
    assert clock.remaining(BLACK, 10 * SEC) == 70 * SEC
    clock = clock.press(10 * SEC).press(40 * SEC)
    assert clock.remaining(WHITE, 40 * SEC) == 80 * SEC
    assert clock.remaining(BLACK, 40 * SEC) == 40 * SEC
    # White's flag falls after 80 s more; Black's time stops growing at 120 s.
    assert clock.flag_at(WHITE) == 120 * SEC
    assert clock.remaining(BLACK, 200 * SEC) == 120 * SEC
    assert clock.remaining(WHITE, 200 * SEC) == 0


# -- flags -----------------------------------------------------------------------------------


@pytest.mark.law("6.9")
def test_flag_falls_exactly_when_the_time_reaches_zero() -> None:
    clock = Clock.new("1+0").start(0)
    assert clock.flag_at(WHITE) == 60 * SEC
    assert clock.flag_at(BLACK) is None
    assert clock.remaining(WHITE, 60 * SEC - 1) == 1
    assert clock.remaining(WHITE, 60 * SEC) == 0
    assert clock.remaining(WHITE, 90 * SEC) == 0  # never negative
    assert clock.fallen(60 * SEC - 1).white is None
    assert clock.fallen(60 * SEC).white == 60 * SEC
    assert clock.first_flag(59 * SEC) is None
    assert clock.first_flag(70 * SEC) == WHITE


def test_which_flag_fell_first() -> None:
    clock = Clock.new("1+0").start(0).press(59 * SEC)  # White keeps 1 s
    clock = clock.press(120 * SEC)  # Black's flag fell at 119 s; he presses late
    clock = clock.advance(125 * SEC)  # White's falls at 121 s
    assert clock.flags == ByColor(121 * SEC, 119 * SEC)
    assert clock.first_flag(125 * SEC) == BLACK


def test_flag_instant_is_kept_after_time_is_added() -> None:
    clock = Clock.new("1+0").start(0).advance(61 * SEC).add_time(WHITE, 2 * MIN, 61 * SEC)
    assert clock.remaining(WHITE, 61 * SEC) == 2 * MIN
    assert clock.flag_at(WHITE) == 60 * SEC


def test_set_time_resets_the_flag() -> None:
    clock = Clock.new("1+0").start(0).advance(61 * SEC).set_time(WHITE, 30 * SEC, 61 * SEC)
    assert clock.flags.white is None
    assert clock.flag_at(WHITE) == 91 * SEC


def test_a_deduction_to_zero_makes_the_flag_fall() -> None:
    clock = Clock.new("5+0").start(0).press(1 * SEC).add_time(WHITE, -10 * MIN, 2 * SEC)
    assert clock.remaining(WHITE, 2 * SEC) == 0
    assert clock.flags.white == 2 * SEC


# -- stop, restart, arbiter ------------------------------------------------------------------


def test_stopped_clocks_do_not_run() -> None:
    clock = Clock.new("5+0").start(0).stop(10 * SEC)
    assert not clock.running
    assert clock.remaining(WHITE, 10 * MIN) == mmss("4:50")
    clock = clock.restart(20 * SEC)
    assert clock.remaining(WHITE, 25 * SEC) == mmss("4:45")


@pytest.mark.law("6.13")
def test_arbiter_adds_and_sets_time() -> None:
    clock = Clock.new("3+2").start(0).press(2 * SEC)
    clock = clock.add_time(WHITE, 2 * MIN, 3 * SEC)
    assert clock.remaining(WHITE, 3 * SEC) == mmss("5:00")
    clock = clock.set_time(BLACK, 90 * SEC, 4 * SEC)
    assert clock.remaining(BLACK, 4 * SEC) == 90 * SEC
    assert clock.remaining(BLACK, 5 * SEC) == 89 * SEC


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "operation", "code"),
    [
        (lambda: Clock.new("3+2"), lambda c: c.press(1), "clock-not-started"),
        (lambda: Clock.new("3+2"), lambda c: c.stop(1), "clock-not-started"),
        (lambda: Clock.new("3+2"), lambda c: c.restart(1), "clock-not-started"),
        (lambda: Clock.new("3+2").start(0), lambda c: c.start(1), "clock-already-started"),
        (lambda: Clock.new("3+2").start(0), lambda c: c.restart(1), "clock-running"),
        (lambda: Clock.new("3+2").start(0).stop(5), lambda c: c.press(6), "clock-stopped"),
        (lambda: Clock.new("3+2").start(0).stop(5), lambda c: c.stop(6), "clock-stopped"),
        (lambda: Clock.new("3+2").start(10), lambda c: c.press(9), "time-goes-backwards"),
        (
            lambda: Clock.new("3+2").start(10),
            lambda c: c.remaining(WHITE, 9),
            "time-goes-backwards",
        ),
        (lambda: Clock.new("3+2").start(0), lambda c: c.press(1, BLACK), "not-your-clock"),
        (lambda: Clock.new("3+2").start(0), lambda c: c.set_time(WHITE, -1, 1), "negative-time"),
    ],
)
def test_refused_operations_change_nothing(make, operation, code: str) -> None:  # type: ignore[no-untyped-def]
    clock = make()
    before = make()
    with pytest.raises(ClockError) as caught:
        operation(clock)
    assert caught.value.code == code
    assert caught.value.message("es") != caught.value.message("en")
    assert clock == before


@pytest.mark.parametrize("text", ["-", "?"])
def test_a_clock_needs_a_time_control(text: str) -> None:
    with pytest.raises(ClockError) as caught:
        Clock.new(text)
    assert caught.value.code == "no-time-control"


def test_a_bad_time_control_text_is_refused() -> None:
    with pytest.raises(TimeControlError):
        Clock.new("3 +")


def test_the_clock_is_an_immutable_value() -> None:
    clock = Clock.new("3+2").start(0)
    pressed = clock.press(5 * SEC)
    assert clock.turn == WHITE and pressed.turn == BLACK
    with pytest.raises(AttributeError):
        clock.running = False  # type: ignore[misc]
    assert "3+2" not in repr(clock)  # the PGN tag form is shown
    assert "180+2" in repr(clock)


# -- invariants (Hypothesis) -------------------------------------------------------------------


@st.composite
def timed_controls(draw: st.DrawFn) -> TimeControl:
    seconds = st.integers(1, 600).map(lambda s: s * SEC)
    if draw(st.integers(0, 5)) == 0:
        return TimeControl.hourglass(draw(seconds))
    count = draw(st.integers(1, 3))
    periods = []
    for index in range(count):
        mode = draw(st.sampled_from(["plain", "increment", "us", "bronstein"]))
        extra = draw(st.integers(1, 30)) * SEC
        increment = extra if mode == "increment" else 0
        delay = extra if mode in ("us", "bronstein") else 0
        kind = {"us": DelayKind.US, "bronstein": DelayKind.BRONSTEIN}.get(mode)
        last = index == count - 1
        moves = draw(st.one_of(st.none(), st.integers(1, 5)))
        periods.append(Period(draw(seconds), moves, increment, delay, kind))
        if not last and moves is None and draw(st.booleans()):
            break
    return TimeControl(tuple(periods))


@dataclass
class Step:
    what: str  # press, stop, restart, add, set
    after: int  # ms after the previous step
    side: Color = WHITE
    ms: int = 0


steps = st.lists(
    st.builds(
        Step,
        st.sampled_from(["press"] * 6 + ["stop", "restart", "add", "set"]),
        st.integers(0, 120_000),
        st.booleans(),
        st.integers(-30_000, 120_000),
    ),
    max_size=40,
)


def run(control: TimeControl, script: list[Step]) -> list[tuple[Step, int, Clock, Clock]]:
    """Apply the steps that the clock accepts; (step, instant, before, after) for each."""
    clock = Clock.new(control).start(0)
    now = 0
    history = []
    for step in script:
        now += step.after
        try:
            if step.what == "press":
                after = clock.press(now)
            elif step.what == "stop":
                after = clock.stop(now)
            elif step.what == "restart":
                after = clock.restart(now)
            elif step.what == "add":
                after = clock.add_time(step.side, step.ms, now)
            else:
                after = clock.set_time(step.side, abs(step.ms), now)
        except ClockError as error:
            assert error.code in ("clock-stopped", "clock-running")
            continue
        history.append((step, now, clock, after))
        clock = after
    return history


@given(timed_controls(), steps)
def test_remaining_time_is_never_negative(control: TimeControl, script: list[Step]) -> None:
    for _, now, before, after in run(control, script):
        for side in (WHITE, BLACK):
            assert before.remaining(side, now) >= 0
            assert after.remaining(side, now + 1_000_000) >= 0


def press_the_long_way(clock: Clock, at: int) -> Clock:
    """A press computed by the clock's general run of time (``_run``): what ``press`` gives,
    and the reference for its shortcut in an ordinary turn."""
    mover = clock.turn
    time, other_time, _, charged, flags, periods, starts = clock._run(at)
    index = periods[mover]
    period = clock.control.period(index)
    if time > 0:
        time += period.increment_ms
        if period.delay_kind is DelayKind.BRONSTEIN:
            time += min(charged, period.delay_ms)
    moves = clock.moves[mover] + 1
    if period.moves is not None and moves - starts[mover] == period.moves:
        periods = periods.replace(mover, index + 1)
        starts = starts.replace(mover, moves)
        time += clock.control.period(index + 1).time_ms
    return replace(
        clock,
        settled=ByColor(time, other_time) if mover == WHITE else ByColor(other_time, time),
        turn=not mover,
        since=at,
        turn_used=0,
        turn_charged=0,
        moves=clock.moves.replace(mover, moves),
        period_index=periods,
        period_start=starts,
        flags=flags,
    )


@given(timed_controls(), steps)
def test_a_press_is_the_general_run_of_time(control: TimeControl, script: list[Step]) -> None:
    for step, now, before, after in run(control, script):
        if step.what == "press":
            assert after == press_the_long_way(before, now)


@given(timed_controls(), steps)
def test_time_only_grows_by_increment_refund_period_or_arbiter(
    control: TimeControl, script: list[Step]
) -> None:
    for step, now, before, after in run(control, script):
        for side in (WHITE, BLACK):
            was = before.remaining(side, now)
            now_ = after.remaining(side, now)
            if step.what in ("add", "set"):
                continue
            if step.what == "press" and side == before.turn:
                settled = before.advance(now)
                period = control.period(settled.period_of(side))
                bound = period.increment_ms + period.delay_ms
                if after.period_of(side) != settled.period_of(side):
                    bound += control.period(after.period_of(side)).time_ms
                assert was <= now_ <= was + bound
            else:
                assert now_ == was
        # Between operations the clock only runs down (hourglass and time-out periods aside).
        if not control.is_hourglass and all(p.moves is not None for p in control.periods[:-1]):
            mover = after.turn
            assert after.remaining(mover, now + 5_000) <= after.remaining(mover, now)
            assert after.remaining(not mover, now + 5_000) == after.remaining(not mover, now)


@given(st.integers(1, 600).map(lambda s: s * SEC), steps)
def test_hourglass_conserves_time(base: int, script: list[Step]) -> None:
    control = TimeControl.hourglass(base)
    moves_only = [s for s in script if s.what in ("press", "stop", "restart")]
    for _, now, _, after in run(control, moves_only):
        for later in (now, now + 7_000, now + 10_000_000):
            both = after.remaining_both(later)
            assert both.white + both.black == 2 * base


@given(timed_controls(), steps)
def test_flag_instant_is_exactly_when_the_time_reaches_zero(
    control: TimeControl, script: list[Step]
) -> None:
    history = run(control, script)
    clock = history[-1][3] if history else Clock.new(control).start(0)
    for side in (WHITE, BLACK):
        instant = clock.flag_at(side)
        if instant is None or clock.flags[side] is not None:
            continue
        assert side == clock.turn and clock.running
        assert clock.fallen(instant)[side] == instant
        if instant > clock.since:
            assert clock.fallen(instant - 1)[side] is None
            assert clock.remaining(side, instant - 1) > 0
        if all(p.moves is not None for p in control.periods[:-1]) or len(control.periods) == 1:
            assert clock.remaining(side, instant) == 0


@given(timed_controls(), steps, st.integers(0, 300_000), st.integers(0, 300_000))
def test_bringing_the_clock_forward_in_steps_changes_nothing(
    control: TimeControl, script: list[Step], first: int, second: int
) -> None:
    history = run(control, script)
    clock = history[-1][3] if history else Clock.new(control).start(0)
    middle = clock.since + first
    end = middle + second
    assert clock.advance(middle).advance(end) == clock.advance(end)
