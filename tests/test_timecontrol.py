"""Time controls: every form of ../shared/spec/scenarios.md, valid and invalid."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arbitro.errors import TimeControlError
from arbitro.gamekind import THRESHOLDS, Kind, UnknownEditionError
from arbitro.timecontrol import DelayKind, Period, TimeControl

MIN = 60_000
SEC = 1_000


# -- the forms of the spec ---------------------------------------------------------------------

SPEC_FORMS = [
    # PGN tag forms
    ("300+2", TimeControl.sudden_death(5 * MIN, 2 * SEC)),
    (
        "40/5400+30:1800+30",
        TimeControl((Period(90 * MIN, 40, 30 * SEC), Period(30 * MIN, None, 30 * SEC))),
    ),
    ("5400", TimeControl.sudden_death(90 * MIN)),
    ("*180", TimeControl.hourglass(180 * SEC)),
    ("-", TimeControl.untimed()),
    ("?", TimeControl.unknown()),
    # human forms
    ("3+2", TimeControl.sudden_death(3 * MIN, 2 * SEC)),
    ("90+30", TimeControl.sudden_death(90 * MIN, 30 * SEC)),
    ("15 min + 10 s", TimeControl.sudden_death(15 * MIN, 10 * SEC)),
    (
        "40/90, 30 + 30s",
        TimeControl((Period(90 * MIN, 40, 30 * SEC), Period(30 * MIN, None, 30 * SEC))),
    ),
    ("5 d3", TimeControl((Period(5 * MIN, delay_ms=3 * SEC, delay_kind=DelayKind.US),))),
    ("G/5;d3", TimeControl((Period(5 * MIN, delay_ms=3 * SEC, delay_kind=DelayKind.US),))),
    (
        "5 b3",
        TimeControl((Period(5 * MIN, delay_ms=3 * SEC, delay_kind=DelayKind.BRONSTEIN),)),
    ),
]


@pytest.mark.parametrize(("text", "expected"), SPEC_FORMS)
def test_every_form_of_the_spec_is_read(text: str, expected: TimeControl) -> None:
    assert TimeControl.parse(text) == expected


MORE_FORMS = [
    # The minutes/seconds rule: 180 or less without a unit is minutes, more is seconds.
    ("60", TimeControl.sudden_death(60 * MIN)),
    ("180", TimeControl.sudden_death(180 * MIN)),
    ("181", TimeControl.sudden_death(181 * SEC)),
    ("180+2", TimeControl.sudden_death(180 * MIN, 2 * SEC)),
    ("40/90", TimeControl((Period(90 * MIN, 40),))),
    ("40/5400", TimeControl((Period(90 * MIN, 40),))),
    # Units override the rule.
    ("300 s + 2", TimeControl.sudden_death(5 * MIN, 2 * SEC)),
    ("200 min", TimeControl.sudden_death(200 * MIN)),
    ("2 h + 30 s", TimeControl.sudden_death(120 * MIN, 30 * SEC)),
    ("90 s + 1 s", TimeControl.sudden_death(90 * SEC, 1 * SEC)),
    ("3m+2s", TimeControl.sudden_death(3 * MIN, 2 * SEC)),
    ("15 minutos + 10 segundos", TimeControl.sudden_death(15 * MIN, 10 * SEC)),
    # Hourglass is always seconds, unless a unit says otherwise.
    ("*60", TimeControl.hourglass(60 * SEC)),
    ("* 3 min", TimeControl.hourglass(3 * MIN)),
    # Decimals.
    ("2.5+1", TimeControl.sudden_death(150 * SEC, 1 * SEC)),
    ("2.5 min + 0.5 s", TimeControl.sudden_death(150 * SEC, 500)),
    # The increment of a '+' chain applies to each of its periods.
    (
        "40/90 + 30 + 30 s",
        TimeControl((Period(90 * MIN, 40, 30 * SEC), Period(30 * MIN, None, 30 * SEC))),
    ),
    (
        "40/90 + 30 min + 30 s",
        TimeControl((Period(90 * MIN, 40, 30 * SEC), Period(30 * MIN, None, 30 * SEC))),
    ),
    # With ':' each period keeps its own increment.
    ("40/90:30+30", TimeControl((Period(90 * MIN, 40), Period(30 * MIN, None, 30 * SEC)))),
    (
        "40/120, 20/60, 30",
        TimeControl((Period(120 * MIN, 40), Period(60 * MIN, 20), Period(30 * MIN))),
    ),
    # A period with no move count before another one.
    ("90 min, 30 min", TimeControl((Period(90 * MIN), Period(30 * MIN)))),
    # US forms.
    ("G/90;+30", TimeControl.sudden_death(90 * MIN, 30 * SEC)),
    ("G/90;inc30", TimeControl.sudden_death(90 * MIN, 30 * SEC)),
    ("g/5 b2", TimeControl((Period(5 * MIN, delay_ms=2 * SEC, delay_kind=DelayKind.BRONSTEIN),))),
    ("G/30", TimeControl.sudden_death(30 * MIN)),
    ("  3  +  2  ", TimeControl.sudden_death(3 * MIN, 2 * SEC)),
    ("5 min d 3 s", TimeControl((Period(5 * MIN, delay_ms=3 * SEC, delay_kind=DelayKind.US),))),
]


@pytest.mark.parametrize(("text", "expected"), MORE_FORMS)
def test_other_forms_people_write(text: str, expected: TimeControl) -> None:
    assert TimeControl.parse(text) == expected


INVALID = [
    "",
    "   ",
    "abc",
    "3 +",
    "+2",
    "3++2",
    "3+2+",
    "40/",
    "/90",
    "0",
    "0+0",
    "0/90",
    "5 d0",
    "5 d3 + 2",
    "3 x",
    "3 parsecs",
    "3:2,1",
    "*",
    "*0",
    "*abc",
    "G/",
    "G/5;x3",
    "40/90 + 30 s + 30 s",
    "1.0005 s",
    "3+2 d1",
    "--",
    "??",
    "3,",
    ",3",
    "3 + 2 + 1 s + 4",
    "-5",
    "3+-2",
]


@pytest.mark.parametrize("text", INVALID)
def test_anything_else_is_refused_quoting_the_text(text: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.parse(text)
    error = caught.value
    assert error.code == "bad-time-control"
    assert repr(text) in str(error)
    assert "Expected a form such as" in str(error)
    assert "Se esperaba una forma como" in error.message("es")


# -- PGN tags ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("180+2", TimeControl.sudden_death(3 * MIN, 2 * SEC)),
        ("60+0", TimeControl.sudden_death(1 * MIN)),
        ("600", TimeControl.sudden_death(10 * MIN)),
        ("40/7200:3600", TimeControl((Period(120 * MIN, 40), Period(60 * MIN)))),
        (
            "40/5400+30:1800+30",
            TimeControl((Period(90 * MIN, 40, 30 * SEC), Period(30 * MIN, None, 30 * SEC))),
        ),
        ("*60", TimeControl.hourglass(60 * SEC)),
        ("?", TimeControl.unknown()),
        ("-", TimeControl.untimed()),
        ("0.5+0.25", TimeControl.sudden_death(500, 250)),
    ],
)
def test_pgn_tags_are_all_seconds(tag: str, expected: TimeControl) -> None:
    assert TimeControl.from_pgn(tag) == expected


@pytest.mark.parametrize(
    "tag", ["3 min", "1h", "40/", "3+2s", "G/5", "*", "*0", "", "0", "5d3", "1.0001"]
)
def test_bad_pgn_tags_are_refused(tag: str) -> None:
    with pytest.raises(TimeControlError, match="PGN TimeControl tag"):
        TimeControl.from_pgn(tag)


@pytest.mark.parametrize(
    ("text", "pgn"),
    [
        ("3+2", "180+2"),
        ("90+30", "5400+30"),
        ("40/90, 30 + 30s", "40/5400+30:1800+30"),
        ("40/90:30+30", "40/5400:1800+30"),
        ("*180", "*180"),
        ("-", "-"),
        ("?", "?"),
        ("2.5 s + 0.5 s", "2.5+0.5"),
    ],
)
def test_to_pgn_gives_the_tag_form(text: str, pgn: str) -> None:
    control = TimeControl.parse(text)
    assert control.to_pgn() == pgn
    assert str(control) == pgn
    assert repr(control) == f"TimeControl.from_pgn({pgn!r})"


def test_delays_have_no_pgn_form_but_a_text_form_that_reads_back() -> None:
    control = TimeControl.parse("G/5;d3")
    assert control.to_pgn() is None
    assert str(control) == "5min d3s"
    assert repr(control) == "TimeControl.parse('5min d3s')"
    assert TimeControl.parse(str(control)) == control


# -- descriptions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "english", "spanish"),
    [
        ("3+2", "3 min + 2 s", "3 min + 2 s"),
        ("5400", "90 min", "90 min"),
        (
            "40/90, 30 + 30s",
            "40 moves in 90 min, then 30 min, +30 s per move from move 1",
            "40 jugadas en 90 min, luego 30 min, +30 s por jugada desde la jugada 1",
        ),
        (
            "40/90:30+30",
            "40 moves in 90 min, then 30 min (+30 s per move)",
            "40 jugadas en 90 min, luego 30 min (+30 s por jugada)",
        ),
        ("40/120", "40 moves in 120 min, and so on", "40 jugadas en 120 min, y así sucesivamente"),
        ("1/1", "1 move in 1 min, and so on", "1 jugada en 1 min, y así sucesivamente"),
        ("5 d3", "5 min, US delay 3 s", "5 min, retardo simple (US) de 3 s"),
        ("5 b3", "5 min, Bronstein delay 3 s", "5 min, retardo Bronstein de 3 s"),
        ("*60", "hourglass, 1 min each", "reloj de arena, 1 min para cada jugador"),
        ("2.5+0.5", "2 min 30 s + 0.5 s", "2 min 30 s + 0,5 s"),
        ("-", "no time control", "sin control de tiempo"),
        ("?", "unknown time control", "control de tiempo desconocido"),
    ],
)
def test_describe_in_english_and_spanish(text: str, english: str, spanish: str) -> None:
    control = TimeControl.parse(text)
    assert control.describe() == english
    assert control.describe("en") == english
    assert control.describe("es") == spanish
    assert control.describe("es-ES") == spanish
    # A language without a catalog reads English.
    assert control.describe("xx") == english


# -- kind of game per edition --------------------------------------------------------------------

KINDS = [
    # 2014 onward: blitz T <= 10, rapid 10 < T < 60, standard T >= 60.
    ("fide-2023", "10", Kind.BLITZ),
    ("fide-2023", "5+5", Kind.BLITZ),
    ("fide-2023", "3+2", Kind.BLITZ),
    ("fide-2023", "10+1", Kind.RAPID),
    ("fide-2023", "15+10", Kind.RAPID),
    ("fide-2023", "59", Kind.RAPID),
    ("fide-2023", "60", Kind.STANDARD),
    ("fide-2023", "45+15", Kind.STANDARD),
    ("fide-2023", "40/90, 30 + 30s", Kind.STANDARD),
    ("fide-2014", "10", Kind.BLITZ),
    ("fide-2017", "10+1", Kind.RAPID),
    ("fide-2018", "60", Kind.STANDARD),
    # 2009: blitz T < 15, rapid 15 <= T < 60.
    ("fide-2009", "10", Kind.BLITZ),
    ("fide-2009", "14", Kind.BLITZ),
    ("fide-2009", "15", Kind.RAPID),
    ("fide-2009", "10+5", Kind.RAPID),
    ("fide-2009", "59+1", Kind.STANDARD),
    ("fide-2009", "60", Kind.STANDARD),
    # 2005: blitz T < 15, rapid 15 <= T <= 60, standard T > 60.
    ("fide-2005", "14+0", Kind.BLITZ),
    ("fide-2005", "14+1", Kind.RAPID),
    ("fide-2005", "60", Kind.RAPID),
    ("fide-2005", "60+1", Kind.STANDARD),
    # 2001: the base alone; no increment formula.
    ("fide-2001", "14+30", Kind.BLITZ),
    ("fide-2005", "14+30", Kind.RAPID),
    ("fide-2001", "15", Kind.RAPID),
    ("fide-2001", "60+30", Kind.RAPID),
    ("fide-2001", "61", Kind.STANDARD),
    # club speed-chess rules: "less than 15 minutes", base plus 60 increments.
    ("club-blitz", "5", Kind.BLITZ),
    ("club-blitz", "14", Kind.BLITZ),
    ("club-blitz", "15", Kind.RAPID),
    # Delays count as increments; the hourglass counts its time; no clock is standard play.
    ("fide-2023", "5 d3", Kind.BLITZ),
    ("fide-2023", "10 b3", Kind.RAPID),
    ("fide-2023", "*180", Kind.BLITZ),
    ("fide-2023", "-", Kind.STANDARD),
]


@pytest.mark.law("A.1")
@pytest.mark.law("B.1")
@pytest.mark.parametrize(("edition", "text", "kind"), KINDS)
def test_kind_of_game_per_edition(edition: str, text: str, kind: Kind) -> None:
    assert TimeControl.parse(text).kind(edition) is kind


def test_every_edition_has_thresholds() -> None:
    assert set(THRESHOLDS) == {
        "fide-2001",
        "fide-2005",
        "fide-2009",
        "fide-2014",
        "fide-2017",
        "fide-2018",
        "fide-2023",
        "club-blitz",
    }


def test_unknown_time_control_has_no_kind() -> None:
    with pytest.raises(TimeControlError) as caught:
        TimeControl.unknown().kind("fide-2023")
    assert caught.value.code == "unknown-time-control"


def test_unknown_edition_is_refused() -> None:
    with pytest.raises(UnknownEditionError) as caught:
        TimeControl.parse("3+2").kind("fide-1999")
    assert caught.value.code == "unknown-edition"
    assert "fide-2023" in str(caught.value)


def test_edition_objects_can_carry_the_thresholds() -> None:
    class Edition:
        kind_thresholds = THRESHOLDS["fide-2009"]

    assert TimeControl.parse("10").kind(Edition()) is Kind.BLITZ


def test_time_for_sixty_moves() -> None:
    assert TimeControl.parse("3+2").time_for_moves() == 5 * MIN
    # 90 min for moves 1-40, then 30 min; 30 s for each of 60 moves.
    assert TimeControl.parse("40/90, 30 + 30s").time_for_moves() == 150 * MIN
    # A period starting after move 60 does not count; a repeating one does.
    assert TimeControl.parse("60/120, 30").time_for_moves() == 120 * MIN
    assert TimeControl.parse("30/60").time_for_moves() == 120 * MIN
    assert TimeControl.parse("3+2").time_for_moves(with_increments=False) == 3 * MIN


# -- values --------------------------------------------------------------------------------------


def test_periods_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        Period(-1)
    with pytest.raises(ValueError):
        Period(MIN, moves=0)
    with pytest.raises(ValueError):
        Period(MIN, increment_ms=SEC, delay_ms=SEC, delay_kind=DelayKind.US)
    with pytest.raises(ValueError):
        Period(MIN, delay_ms=SEC)
    with pytest.raises(ValueError):
        TimeControl(())
    with pytest.raises(ValueError):
        TimeControl((Period(MIN, 40), Period(MIN)), TimeControl.hourglass(MIN).form)


def test_the_last_period_with_a_move_count_repeats() -> None:
    control = TimeControl.parse("40/120, 20/60")
    assert control.period(2) == control.period(1) == Period(60 * MIN, 20)
    assert control.has_period(5)
    single = TimeControl.parse("90")
    assert not single.has_period(1)
    with pytest.raises(IndexError):
        single.period(1)


# -- properties ----------------------------------------------------------------------------------

durations = st.integers(min_value=1, max_value=4 * 3_600).map(lambda s: s * SEC)
extras = st.one_of(
    st.tuples(st.integers(0, 60).map(lambda s: s * SEC), st.just(0), st.none()),
    st.tuples(
        st.just(0),
        st.integers(1, 30).map(lambda s: s * SEC),
        st.sampled_from(list(DelayKind)),
    ),
)


@st.composite
def controls(draw: st.DrawFn) -> TimeControl:
    kind = draw(st.sampled_from(["periods", "periods", "periods", "hourglass", "untimed"]))
    if kind == "hourglass":
        return TimeControl.hourglass(draw(durations))
    if kind == "untimed":
        return draw(st.sampled_from([TimeControl.untimed(), TimeControl.unknown()]))
    count = draw(st.integers(1, 3))
    periods = []
    for index in range(count):
        increment, delay, delay_kind = draw(extras)
        last = index == count - 1
        moves = draw(st.one_of(st.none(), st.integers(1, 60))) if last else draw(st.integers(1, 60))
        periods.append(Period(draw(durations), moves, increment, delay, delay_kind))
    return TimeControl(tuple(periods))


@given(controls())
def test_text_form_reads_back_exactly(control: TimeControl) -> None:
    assert TimeControl.parse(control.text()) == control


@given(controls())
def test_pgn_form_reads_back_exactly(control: TimeControl) -> None:
    pgn = control.to_pgn()
    if pgn is None:
        assert any(p.delay_kind for p in control.periods)
    else:
        assert TimeControl.from_pgn(pgn) == control


@given(controls(), st.sampled_from(["en", "es"]))
def test_every_control_can_be_described(control: TimeControl, lang: str) -> None:
    assert control.describe(lang)


@given(st.text(max_size=30))
def test_parse_returns_a_control_or_refuses_cleanly(text: str) -> None:
    try:
        control = TimeControl.parse(text)
    except TimeControlError as error:
        assert error.code == "bad-time-control"
    else:
        assert TimeControl.parse(control.text()) == control


@given(st.from_regex(r"[0-9 /+:,.*?dbgmins;-]{1,20}", fullmatch=True))
def test_parse_near_misses(text: str) -> None:
    with contextlib.suppress(TimeControlError):
        TimeControl.parse(text)


@given(st.text(max_size=30))
def test_from_pgn_returns_a_control_or_refuses_cleanly(text: str) -> None:
    try:
        control = TimeControl.from_pgn(text)
    except TimeControlError as error:
        assert error.code == "bad-time-control"
    else:
        assert control.to_pgn() is not None
