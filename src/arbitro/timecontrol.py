"""Time controls: how much time each player has, in which periods, with which increment or delay.

A :class:`TimeControl` is an immutable value made of one or more :class:`Period` values, or an
hourglass, or "no time control" (``-``), or "unknown" (``?``). All durations are integer
milliseconds.

Two readers, because the same digits mean different things in the two worlds:

- :meth:`TimeControl.parse` reads what people type (``"3+2"``, ``"15 min + 10 s"``,
  ``"40/90, 30 + 30s"``, ``"G/5;d3"``) and PGN-like forms; a base of 180 or less without a unit
  is minutes, a larger one seconds (``../shared/spec/scenarios.md``).
- :meth:`TimeControl.from_pgn` reads a PGN ``TimeControl`` tag, where every number is seconds
  (``"180+2"`` is three minutes).

>>> tc = TimeControl.parse("40/90, 30 + 30s")
>>> tc.to_pgn()
'40/5400+30:1800+30'
>>> tc.describe("es")
'40 jugadas en 90 min, luego 30 min, +30 s por jugada desde la jugada 1'
>>> TimeControl.parse("3+2") == TimeControl.from_pgn("180+2")
True
>>> TimeControl.parse("3+2").kind("fide-2023")
<Kind.BLITZ: 'blitz'>
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from arbitro.errors import TimeControlError
from arbitro.gamekind import HasKindThresholds, Kind, thresholds_for
from arbitro.i18n import N_, Text, gettext, ngettext

SECOND_MS = 1_000
MINUTE_MS = 60_000
HOUR_MS = 3_600_000

#: A base written without a unit is minutes up to this number, seconds above it.
MINUTES_RULE_LIMIT = 180

#: The forms :meth:`TimeControl.parse` reads, for error messages.
EXPECTED_FORMS = N_(
    '"3+2", "90+30", "15 min + 10 s", "40/90, 30 + 30s", "40/90 + 30 + 30 s", '
    '"300+2", "40/5400+30:1800+30", "5400", "*180" (hourglass), "5 d3" or "G/5;d3" '
    '(US delay), "5 b3" (Bronstein delay), "-" (no time control), "?" (unknown)'
)


class DelayKind(StrEnum):
    """How a delay gives time back."""

    #: Simple (US) delay: the countdown starts only after the delay.
    US = "us"
    #: Bronstein delay: the time used is given back on completing the move, up to the delay.
    BRONSTEIN = "bronstein"


@dataclass(frozen=True, slots=True)
class Period:
    """One period of a time control.

    ``moves`` is the number of moves to be made in the period, or ``None`` for the rest of the
    game (or, for a period that is not the last, until a player's time runs out).

    :raises ValueError: for negative times, a move count below 1, or an increment and a delay
        together.
    """

    time_ms: int
    moves: int | None = None
    increment_ms: int = 0
    delay_ms: int = 0
    delay_kind: DelayKind | None = None

    def __post_init__(self) -> None:
        if self.time_ms < 0 or self.increment_ms < 0 or self.delay_ms < 0:
            raise ValueError("times in a period cannot be negative")
        if self.moves is not None and self.moves < 1:
            raise ValueError("a period's move count must be at least 1")
        if (self.delay_ms > 0) != (self.delay_kind is not None):
            raise ValueError("a delay needs both a duration and a kind")
        if self.delay_ms and self.increment_ms:
            raise ValueError("a period has an increment or a delay, not both")


class _Form(StrEnum):
    PERIODS = "periods"
    HOURGLASS = "hourglass"
    UNTIMED = "untimed"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control. Build one with :meth:`parse`, :meth:`from_pgn` or the constructors
    :meth:`sudden_death`, :meth:`hourglass`, :meth:`untimed` and :meth:`unknown`.

    When the last period has a move count, it repeats (``"40/7200"``: 40 moves in two hours,
    then again 40 moves in two hours, and so on).
    """

    periods: tuple[Period, ...]
    form: _Form = _Form.PERIODS

    def __post_init__(self) -> None:
        timed = self.form in (_Form.PERIODS, _Form.HOURGLASS)
        if timed and not self.periods:
            raise ValueError("a timed control needs at least one period")
        if not timed and self.periods:
            raise ValueError("an untimed or unknown control has no periods")
        if self.form is _Form.HOURGLASS and (
            len(self.periods) != 1 or self.periods[0] != Period(self.periods[0].time_ms)
        ):
            raise ValueError("an hourglass is one plain period")

    # -- constructors -------------------------------------------------------------------------

    @classmethod
    def sudden_death(cls, time_ms: int, increment_ms: int = 0) -> TimeControl:
        """All moves in ``time_ms``, with an optional Fischer increment.

        >>> TimeControl.sudden_death(180_000, 2_000)
        TimeControl.from_pgn('180+2')
        """
        return cls((Period(time_ms, increment_ms=increment_ms),))

    @classmethod
    def hourglass(cls, time_ms: int) -> TimeControl:
        """An hourglass: the time the player to move uses is added to the opponent."""
        return cls((Period(time_ms),), _Form.HOURGLASS)

    @classmethod
    def untimed(cls) -> TimeControl:
        """No time control (PGN ``-``)."""
        return cls((), _Form.UNTIMED)

    @classmethod
    def unknown(cls) -> TimeControl:
        """An unknown time control (PGN ``?``)."""
        return cls((), _Form.UNKNOWN)

    # -- properties ---------------------------------------------------------------------------

    @property
    def is_timed(self) -> bool:
        """Whether a clock can run this control (not ``-`` nor ``?``)."""
        return self.form in (_Form.PERIODS, _Form.HOURGLASS)

    @property
    def is_hourglass(self) -> bool:
        return self.form is _Form.HOURGLASS

    @property
    def is_known(self) -> bool:
        """False only for the unknown control ``?``."""
        return self.form is not _Form.UNKNOWN

    @property
    def initial_ms(self) -> int:
        """Each player's time at the start (0 when untimed)."""
        return self.periods[0].time_ms if self.periods else 0

    def period(self, index: int) -> Period:
        """The period with this 0-based index; past the last one, the last one again when it
        has a move count (it repeats), otherwise :exc:`IndexError`."""
        if index < len(self.periods):
            return self.periods[index]
        last = self.periods[-1]
        if last.moves is not None:
            return last
        raise IndexError(f"no period {index} in {self}")

    def has_period(self, index: int) -> bool:
        """Whether :meth:`period` has a period with this index."""
        return bool(self.periods) and (
            index < len(self.periods) or self.periods[-1].moves is not None
        )

    def time_for_moves(self, moves: int = 60, *, with_increments: bool = True) -> int:
        """The time a player has for his first ``moves`` moves, in ms: the time of every period
        that starts within them, plus (``with_increments``) each move's increment or delay.

        With ``moves=60`` this is the T by which the Laws define rapid and blitz: the base plus
        60 times the increment. A delay counts as an increment here, as the most time it can
        give back per move. A period without a move count that is not the last one starts when
        a player's time runs out, so its time counts too.

        >>> TimeControl.parse("3+2").time_for_moves() // 60_000
        5
        """
        if not self.is_timed:
            return 0
        if self.is_hourglass:
            return self.periods[0].time_ms
        total = 0
        index = 0
        made = 0  # moves made before the current period began
        while True:
            current = self.period(index)
            total += current.time_ms
            span = current.moves
            if span is None:
                # Runs to the end of the game, or until the time runs out (then the next starts).
                if with_increments:
                    total += (moves - made) * (current.increment_ms + current.delay_ms)
                if index + 1 < len(self.periods):
                    index += 1
                    continue
                return total
            within = min(span, moves - made)
            if with_increments:
                total += within * (current.increment_ms + current.delay_ms)
            made += within
            if made >= moves:
                return total
            index += 1

    def kind(self, edition: str | HasKindThresholds) -> Kind:
        """Standard, rapid or blitz under an edition (an id such as ``"fide-2023"`` or an
        edition object).

        No time control (``-``) is standard play.

        :raises TimeControlError: for the unknown control ``?``.
        :raises UnknownEditionError: for an edition id arbitro does not know.
        """
        thresholds = thresholds_for(edition)
        if self.form is _Form.UNKNOWN:
            raise TimeControlError(
                N_("The time control is unknown, so the kind of game cannot be derived."),
                code="unknown-time-control",
            )
        if self.form is _Form.UNTIMED:
            return Kind.STANDARD
        return thresholds.kind_for(
            self.time_for_moves(60, with_increments=thresholds.counts_increment)
        )

    # -- writing ------------------------------------------------------------------------------

    def to_pgn(self) -> str | None:
        """The PGN ``TimeControl`` tag (all numbers in seconds), or ``None`` where PGN has no
        form for this control (delays).

        >>> TimeControl.parse("40/90, 30 + 30s").to_pgn()
        '40/5400+30:1800+30'
        >>> TimeControl.parse("5 d3").to_pgn() is None
        True
        """
        if self.form is _Form.UNKNOWN:
            return "?"
        if self.form is _Form.UNTIMED:
            return "-"
        if self.is_hourglass:
            return "*" + _seconds(self.periods[0].time_ms)
        if any(p.delay_kind is not None for p in self.periods):
            return None
        fields = []
        for p in self.periods:
            text = _seconds(p.time_ms)
            if p.moves is not None:
                text = f"{p.moves}/{text}"
            if p.increment_ms:
                text += "+" + _seconds(p.increment_ms)
            fields.append(text)
        return ":".join(fields)

    def text(self) -> str:
        """A form with explicit units that :meth:`parse` reads back to this exact value.

        >>> TimeControl.parse("G/5;d3").text()
        '5min d3s'
        """
        if not self.is_timed:
            return "-" if self.form is _Form.UNTIMED else "?"
        if self.is_hourglass:
            return "*" + _with_unit(self.periods[0].time_ms)
        fields = []
        for p in self.periods:
            text = _with_unit(p.time_ms)
            if p.moves is not None:
                text = f"{p.moves}/{text}"
            if p.increment_ms:
                text += "+" + _seconds(p.increment_ms) + "s"
            if p.delay_kind is not None:
                letter = "d" if p.delay_kind is DelayKind.US else "b"
                text += f" {letter}{_seconds(p.delay_ms)}s"
            fields.append(text)
        return ":".join(fields)

    def __str__(self) -> str:
        """The PGN tag form, or :meth:`text` where PGN has none."""
        pgn = self.to_pgn()
        return pgn if pgn is not None else self.text()

    def __repr__(self) -> str:
        pgn = self.to_pgn()
        if pgn is not None:
            return f"TimeControl.from_pgn({pgn!r})"
        return f"TimeControl.parse({self.text()!r})"

    def describe(self, lang: str = "en") -> str:
        """A description for people, in Spanish (``"es"``) or English (other languages read
        English until they have a catalog).

        >>> TimeControl.parse("3+2").describe()
        '3 min + 2 s'
        >>> TimeControl.parse("40/90, 30 + 30s").describe()
        '40 moves in 90 min, then 30 min, +30 s per move from move 1'
        """
        if self.form is _Form.UNKNOWN:
            return gettext(N_("unknown time control"), lang)
        if self.form is _Form.UNTIMED:
            return gettext(N_("no time control"), lang)
        if self.is_hourglass:
            return gettext(N_("hourglass, {time} each"), lang).format(
                time=_duration(self.periods[0].time_ms, lang)
            )
        periods = self.periods
        uniform = all(_extra(p) == _extra(periods[0]) for p in periods)
        if len(periods) == 1 and periods[0].moves is None:
            only = periods[0]
            base = _duration(only.time_ms, lang)
            if only.increment_ms:
                return f"{base} + {_duration(only.increment_ms, lang)}"
            return base + _delay_suffix(only, lang)
        phrases = []
        for p in periods:
            phrase = _duration(p.time_ms, lang)
            if p.moves is not None:
                phrase = ngettext(
                    "{moves} move in {time}", "{moves} moves in {time}", p.moves, lang
                ).format(moves=p.moves, time=phrase)
            if not uniform:
                phrase += _per_period_extra(p, lang)
            phrases.append(phrase)
        text = gettext(N_(", then "), lang).join(phrases)
        last = periods[-1]
        if last.moves is not None:
            text += gettext(N_(", and so on"), lang)
        if uniform:
            first = periods[0]
            if first.increment_ms:
                text += gettext(N_(", +{increment} per move from move 1"), lang).format(
                    increment=_duration(first.increment_ms, lang)
                )
            else:
                text += _delay_suffix(first, lang)
        return text

    # -- reading ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read a time control as people write it, or in a PGN-like form.

        A base (or a period's time) of 180 or less without a unit is minutes, a larger one
        seconds; ``min``/``m``/``h``/``s`` override. Increments, delays and the hourglass
        ``*N`` are seconds. In ``"40/90, 30 + 30s"`` an increment written only on the last
        period applies from move 1; with ``:`` between periods each keeps its own.

        >>> TimeControl.parse("15 min + 10 s").to_pgn()
        '900+10'
        >>> TimeControl.parse("G/5;d3").describe()
        '5 min, US delay 3 s'
        >>> TimeControl.parse("3 +")
        Traceback (most recent call last):
        ...
        arbitro.errors.TimeControlError: Cannot read the time control '3 +': ...

        :raises TimeControlError: quoting the text and listing the forms expected.
        """
        return _Parser(text).parse()

    @classmethod
    def from_pgn(cls, tag: str) -> TimeControl:
        """Read a PGN ``TimeControl`` tag: every number is seconds.

        >>> TimeControl.from_pgn("180+2").describe()
        '3 min + 2 s'
        >>> TimeControl.from_pgn("40/7200:3600").to_pgn()
        '40/7200:3600'

        :raises TimeControlError: for a tag that is not in PGN form.
        """
        stripped = tag.strip()
        if stripped == "?":
            return cls.unknown()
        if stripped == "-":
            return cls.untimed()
        if stripped.startswith("*"):
            number = _PGN_NUMBER.fullmatch(stripped[1:])
            if number is None or _to_ms(number.group(0), SECOND_MS, tag) == 0:
                raise _pgn_error(tag)
            return cls.hourglass(_to_ms(number.group(0), SECOND_MS, tag))
        periods = []
        for field in stripped.split(":"):
            match = _PGN_FIELD.fullmatch(field)
            if match is None:
                raise _pgn_error(tag)
            moves, seconds, increment = match.groups()
            try:
                period = _make_period(
                    tag,
                    _to_ms(seconds, SECOND_MS, tag),
                    None if moves is None else int(moves),
                    increment_ms=0 if increment is None else _to_ms(increment, SECOND_MS, tag),
                )
            except TimeControlError:
                raise _pgn_error(tag) from None
            periods.append(period)
        return cls(tuple(periods))


# -- helpers: numbers and durations -----------------------------------------------------------

_NUMBER = r"\d+(?:\.\d+)?"
_PGN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PGN_FIELD = re.compile(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?")


def _pgn_error(tag: str) -> TimeControlError:
    return TimeControlError(
        N_(
            "Cannot read the PGN TimeControl tag {text!r}: expected '?', '-', '*SECONDS', or "
            "periods such as '300+2' or '40/5400+30:1800+30' (all numbers in seconds)."
        ),
        text=tag,
    )


def _to_ms(number: str, unit_ms: int, text: str) -> int:
    try:
        value = Decimal(number.replace(",", ".")) * unit_ms
    except InvalidOperation:  # pragma: no cover - the regular expressions admit only digits
        raise _error(text, N_("{number!r} is not a number"), number=number) from None
    if value != value.to_integral_value():
        raise _error(text, N_("{number!r} is finer than a millisecond"), number=number)
    return int(value)


def _make_period(
    text: str,
    time_ms: int,
    moves: int | None,
    *,
    increment_ms: int = 0,
    delay_ms: int = 0,
    delay_kind: DelayKind | None = None,
) -> Period:
    if moves is not None and moves < 1:
        raise _error(text, N_("a period must have at least one move"))
    if time_ms == 0 and increment_ms == 0 and delay_ms == 0:
        raise _error(text, N_("a period needs some time"))
    if increment_ms and delay_ms:
        raise _error(text, N_("a period has an increment or a delay, not both"))
    return Period(time_ms, moves, increment_ms, delay_ms, delay_kind)


def _seconds(ms: int) -> str:
    """Milliseconds as seconds, without a needless decimal point: 30000 -> '30'."""
    whole, rest = divmod(ms, SECOND_MS)
    if rest == 0:
        return str(whole)
    return f"{whole}.{rest:03d}".rstrip("0")


def _with_unit(ms: int) -> str:
    """Milliseconds with an explicit unit that :meth:`TimeControl.parse` reads back."""
    if ms % MINUTE_MS == 0:
        return f"{ms // MINUTE_MS}min"
    return _seconds(ms) + "s"


def _decimal_seconds(ms: int, lang: str) -> str:
    text = _seconds(ms)
    # Spanish writes decimals with a comma.
    return text.replace(".", ",") if lang.startswith("es") else text


def _duration(ms: int, lang: str) -> str:
    """'90 min', '2 min 30 s', '45 s', '0.5 s' (Spanish: '0,5 s')."""
    minutes, rest = divmod(ms, MINUTE_MS)
    if minutes and rest:
        return f"{minutes} min {_decimal_seconds(rest, lang)} s"
    if minutes:
        return f"{minutes} min"
    return f"{_decimal_seconds(rest, lang)} s"


def _extra(period: Period) -> tuple[int, int, DelayKind | None]:
    return (period.increment_ms, period.delay_ms, period.delay_kind)


def _delay_suffix(period: Period, lang: str) -> str:
    if period.delay_kind is DelayKind.US:
        template = N_(", US delay {delay}")
    elif period.delay_kind is DelayKind.BRONSTEIN:
        template = N_(", Bronstein delay {delay}")
    else:
        return ""
    return gettext(template, lang).format(delay=_duration(period.delay_ms, lang))


def _per_period_extra(period: Period, lang: str) -> str:
    if period.increment_ms:
        return gettext(N_(" (+{increment} per move)"), lang).format(
            increment=_duration(period.increment_ms, lang)
        )
    if period.delay_kind is not None:
        return " (" + _delay_suffix(period, lang).removeprefix(", ") + ")"
    return ""


def _error(text: str, problem: str, **params: object) -> TimeControlError:
    """An error that quotes the text, says what is wrong, and lists the forms expected."""
    return TimeControlError(
        N_("Cannot read the time control {text!r}: {problem}. Expected a form such as {forms}."),
        text=text,
        problem=Text(problem, params),
        forms=Text(EXPECTED_FORMS),
    )


# -- the human reader -------------------------------------------------------------------------

_MINUTE_UNITS = {"m", "min", "mins", "minute", "minutes", "minuto", "minutos", "'"}
_SECOND_UNITS = {"s", "sec", "secs", "second", "seconds", "seg", "segs", "segundo", "segundos", '"'}
_HOUR_UNITS = {"h", "hr", "hrs", "hour", "hours", "hora", "horas"}
_UNIT = r"[a-z]+|'|\""

# A term: an optional move count, a number, an optional unit, an optional delay.
_TERM = re.compile(
    rf"(?:(?P<moves>\d+)\s*/\s*)?(?P<number>{_NUMBER})\s*(?P<unit>{_UNIT})?"
    rf"(?:\s*(?P<delay>[db])\s*(?P<delay_number>{_NUMBER})\s*(?P<delay_unit>{_UNIT})?)?"
)
_US_FORM = re.compile(
    rf"g\s*/\s*(?P<base>{_NUMBER}\s*(?:{_UNIT})?)\s*"
    rf"(?:[;,]?\s*(?P<mod>d|b|\+|inc)\s*(?P<mod_number>{_NUMBER})\s*(?P<mod_unit>{_UNIT})?)?"
)
_HOURGLASS = re.compile(rf"\*\s*(?P<number>{_NUMBER})\s*(?P<unit>{_UNIT})?")


@dataclass(slots=True)
class _Term:
    moves: int | None
    time_ms: int
    unit: str  # "minutes", "seconds" or "" when none was written
    delay_ms: int = 0
    delay_kind: DelayKind | None = None


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.source = " ".join(text.strip().lower().split())

    def fail(self, problem: str, **params: object) -> TimeControlError:
        return _error(self.text, problem, **params)

    def parse(self) -> TimeControl:
        source = self.source
        if not source:
            raise self.fail(N_("it is empty"))
        if source == "?":
            return TimeControl.unknown()
        if source == "-":
            return TimeControl.untimed()
        if source.startswith("*"):
            return self.hourglass(source)
        if source.startswith("g"):
            return self.us_form(source)
        separators = {sep for sep in (",", ":", ";") if sep in source}
        if len(separators) > 1:
            raise self.fail(N_("periods are separated by ',' or ':', not both"))
        separator = separators.pop() if separators else ","
        parts = [part.strip() for part in source.split(separator)]
        if any(not part for part in parts):
            raise self.fail(N_("a period is missing between separators"))
        chains = [self.chain(part) for part in parts]
        periods: list[Period] = []
        # "40/90, 30 + 30s": an increment written only on the last period applies from move 1,
        # as FIDE writes it; with ':' (the PGN separator) each period keeps its own.
        shared_last = (
            separator != ":"
            and len(chains) > 1
            and chains[-1][1] is not None
            and all(increment is None for _, increment in chains[:-1])
        )
        for terms, increment in chains:
            for term in terms:
                inc = increment
                if shared_last:
                    inc = chains[-1][1]
                periods.append(
                    _make_period(
                        self.text,
                        term.time_ms,
                        term.moves,
                        increment_ms=inc or 0,
                        delay_ms=term.delay_ms,
                        delay_kind=term.delay_kind,
                    )
                )
        if any(p.moves is None and p.time_ms == 0 for p in periods[:-1]):
            raise self.fail(N_("a period without a move count needs some time"))
        return TimeControl(tuple(periods))

    def chain(self, part: str) -> tuple[list[_Term], int | None]:
        """A '+'-chain: periods, then an optional increment applying to each of them.

        '3+2' is a base and an increment; '40/90 + 30 + 30 s' is two periods and an increment;
        an item with a minute or hour unit, or a move count, is always a period.
        """
        items = [item.strip() for item in part.split("+")]
        if any(not item for item in items):
            raise self.fail(N_("'+' must stand between two numbers"))
        matches = [self.match(item) for item in items]
        periods = [self.term(matches[0])]
        increment: int | None = None
        for position, match in enumerate(matches[1:], start=1):
            last = position == len(matches) - 1
            unit = self.unit_kind(match.group("unit"))
            if match.group("moves") or unit == "minutes" or (not last and unit == ""):
                periods.append(self.term(match))
            elif last and not match.group("delay"):
                increment, _ = self.duration(match.group("number"), match.group("unit"), base=False)
            else:
                raise self.fail(
                    N_(
                        "{item!r} cannot stand there: only the last item of a '+' chain is an "
                        "increment"
                    ),
                    item=items[position],
                )
        if increment is not None and any(t.delay_kind is not None for t in periods):
            raise self.fail(N_("a period has an increment or a delay, not both"))
        return periods, increment

    def match(self, item: str) -> re.Match[str]:
        match = _TERM.fullmatch(item)
        if match is None:
            raise self.fail(N_("{item!r} is not a time"), item=item)
        return match

    def term(self, match: re.Match[str]) -> _Term:
        moves = match.group("moves")
        time_ms, unit = self.duration(match.group("number"), match.group("unit"), base=True)
        term = _Term(None if moves is None else int(moves), time_ms, unit)
        if match.group("delay"):
            delay_ms, _ = self.duration(
                match.group("delay_number"), match.group("delay_unit"), base=False
            )
            if delay_ms == 0:
                raise self.fail(N_("a delay must be longer than zero"))
            term.delay_ms = delay_ms
            term.delay_kind = DelayKind.US if match.group("delay") == "d" else DelayKind.BRONSTEIN
        return term

    def unit_kind(self, unit: str | None) -> str:
        if unit is None:
            return ""
        if unit in _MINUTE_UNITS or unit in _HOUR_UNITS:
            return "minutes"
        if unit in _SECOND_UNITS:
            return "seconds"
        raise self.fail(N_("{unit!r} is not a unit (use min, s or h)"), unit=unit)

    def duration(self, number: str, unit: str | None, *, base: bool) -> tuple[int, str]:
        """A number and its unit in ms, and which unit was written ('' for none)."""
        if unit is None:
            value = Decimal(number.replace(",", "."))
            if base and value <= MINUTES_RULE_LIMIT:
                return _to_ms(number, MINUTE_MS, self.text), ""
            return _to_ms(number, SECOND_MS, self.text), ""
        if unit in _MINUTE_UNITS:
            return _to_ms(number, MINUTE_MS, self.text), "minutes"
        if unit in _HOUR_UNITS:
            return _to_ms(number, HOUR_MS, self.text), "minutes"
        if unit in _SECOND_UNITS:
            return _to_ms(number, SECOND_MS, self.text), "seconds"
        raise self.fail(N_("{unit!r} is not a unit (use min, s or h)"), unit=unit)

    def hourglass(self, source: str) -> TimeControl:
        match = _HOURGLASS.fullmatch(source)
        if match is None:
            raise self.fail(N_("an hourglass is written '*' and a number of seconds"))
        time_ms, _ = self.duration(match.group("number"), match.group("unit"), base=False)
        if time_ms == 0:
            raise self.fail(N_("a period needs some time"))
        return TimeControl.hourglass(time_ms)

    def us_form(self, source: str) -> TimeControl:
        match = _US_FORM.fullmatch(source)
        if match is None:
            raise self.fail(N_("the US form is 'G/minutes', optionally with ';d3', ';b3' or ';+2'"))
        base = match.group("base")
        number = re.match(_NUMBER, base)
        assert number is not None  # the pattern requires digits
        unit = base[number.end() :].strip() or None
        # 'G/5' is always minutes, as US Chess writes it.
        time_ms, _ = self.duration(number.group(0), unit or "min", base=True)
        mod = match.group("mod")
        if mod is None:
            return TimeControl((_make_period(self.text, time_ms, None),))
        extra_ms, _ = self.duration(match.group("mod_number"), match.group("mod_unit"), base=False)
        if mod in ("+", "inc"):
            return TimeControl((_make_period(self.text, time_ms, None, increment_ms=extra_ms),))
        if extra_ms == 0:
            raise self.fail(N_("a delay must be longer than zero"))
        kind = DelayKind.US if mod == "d" else DelayKind.BRONSTEIN
        return TimeControl(
            (_make_period(self.text, time_ms, None, delay_ms=extra_ms, delay_kind=kind),)
        )
