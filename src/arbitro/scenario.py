"""Scenario files: an arbiter's incident, written down and replayed (``spec/scenarios.md``).

A scenario sets up a game, lists what happens at the board with the time it happens, and says
what the Laws make of it. :func:`load` reads and validates files (YAML or JSON, one scenario or
a list); :func:`run` replays one through the same :class:`~arbitro.game.Game` that serves live
games and audits, and reports every expectation that failed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import yaml

from arbitro.color import BLACK, WHITE, color_name
from arbitro.errors import ArbitroError, GameError
from arbitro.game import Event, Game, GameSetup, GameState
from arbitro.game.state import RESULTS, TERMINATIONS
from arbitro.i18n import N_

TOP_KEYS = {
    "title", "edition", "time_control", "kind", "board", "supervision", "start", "notation",
    "players", "actions", "expect",
    # Optional extensions: a game without a clock; whether a quickplay finish was announced.
    "clock", "quickplay_finish",
}  # fmt: skip
EXPECT_KEYS = {
    "accepted", "error", "result", "termination", "clock", "to_move", "fen", "penalties",
    "illegal_moves", "points", "claim", "pending", "sealed",
}  # fmt: skip
ACTION_KEYS: dict[str, set[str]] = {
    "start": set(),
    "move": {"move"},
    "press": set(),
    "play": {"move"},
    "moves": {"moves", "each"},
    "offer-draw": set(),
    "accept-draw": set(),
    "decline-draw": set(),
    "claim": {"claim", "move"},
    "resign": set(),
    "stop-clocks": set(),
    "restart-clocks": set(),
    "arbiter": {
        "action", "player", "seconds", "white", "black", "penalty", "decision", "ply", "result",
        "reason",
    },
    # Optional extensions: the session's nominal end and the resumption's date, time and
    # place (A1, A2); a move written without stopping the clocks yet (A1); a missing envelope
    # (A11).
    "adjourn": {"session_end", "date", "time", "place"},
    "seal": {"move", "stop"},
    "resume": {"present", "missing"},
}  # fmt: skip

#: Longest time a scenario can name (about three years): beyond it, a number is a typo.
MAX_SECONDS = 100_000_000

#: Remaining times in expectations are compared to a tenth of a second.
CLOCK_TOLERANCE_MS = 100


class ScenarioError(ArbitroError):
    """A file that cannot be read or is not a valid scenario."""

    default_code = "bad-scenario"


@dataclass(frozen=True, slots=True)
class Action:
    index: int  # 1-based, as people count
    at: int
    by: str
    do: str
    args: Mapping[str, Any]
    expect: Mapping[str, Any] | None


@dataclass(frozen=True, slots=True)
class Scenario:
    path: str
    title: str
    setup: GameSetup
    actions: tuple[Action, ...]
    expect: Mapping[str, Any] | None


@dataclass(slots=True)
class Report:
    """The outcome of running one scenario."""

    scenario: Scenario
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.scenario.path,
            "title": self.scenario.title,
            "passed": self.passed,
            "failures": list(self.failures),
        }


# -- reading -------------------------------------------------------------------------------------


def parse_time(value: Any) -> int:
    """Seconds as a number, or ``"m:ss"`` / ``"h:mm:ss"`` with optional decimals, in ms.

    >>> parse_time(2.5), parse_time("1:05.5"), parse_time("1:00:00")
    (2500, 65500, 3600000)

    :raises ValueError: for anything else.
    """
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    seconds: float | None = None
    if isinstance(value, int | float):
        if value < 0 or value != value:  # noqa: PLR0124 - NaN is the value unequal to itself
            raise ValueError(f"a time cannot be negative or NaN: {value!r}")
        seconds = float(value) if value <= MAX_SECONDS else math.inf
    elif isinstance(value, str) and re.fullmatch(r"\d+(:\d{1,2}){0,2}(\.\d+)?", value.strip()):
        seconds = 0.0
        for part in value.strip().split(":"):
            seconds = seconds * 60 + float(part)
    if seconds is None or math.isnan(seconds):
        raise ValueError(f"not a time (seconds, m:ss or h:mm:ss): {value!r}")
    if seconds > MAX_SECONDS:
        raise ValueError(f"a time of more than {MAX_SECONDS} seconds: {value!r}")
    return round(seconds * 1000)


def files_in(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named, with folders searched for ``*.yaml``, ``*.yml``, ``*.json``.

    :raises ScenarioError: for a path that does not exist.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))
            )
        elif path.is_file():
            found.append(path)
        else:
            raise ScenarioError(N_("{path}: no such file or folder."), path=str(path))
    return found


def load(path: str | Path) -> list[Scenario]:
    """Every scenario in a file.

    :raises ScenarioError: naming the file, the action and the problem.
    """
    name = str(path)
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(
            N_("{path}: cannot be read: {error}."), path=name, error=str(error)
        ) from None
    except yaml.YAMLError as error:
        raise ScenarioError(
            N_("{path}: not valid YAML: {error}."), path=name, error=str(error)
        ) from None
    items = data if isinstance(data, list) else [data]
    if not items:
        raise ScenarioError(N_("{path}: the file holds no scenario."), path=name)
    return [_scenario(name, item, number, len(items)) for number, item in enumerate(items, 1)]


def _fail(where: str, problem: str) -> ScenarioError:
    return ScenarioError(N_("{where}: {problem}"), where=where, problem=problem)


def _scenario(path: str, data: Any, number: int, count: int) -> Scenario:
    where = path if count == 1 else f"{path} (scenario {number})"
    if not isinstance(data, dict):
        raise _fail(where, "a scenario is a mapping of keys (title, edition, actions, ...)")
    unknown = sorted(str(key) for key in set(data) - TOP_KEYS)
    if unknown:
        raise _fail(
            where, f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(TOP_KEYS))}"
        )
    title = data.get("title")
    if not isinstance(title, str) or not title.strip():
        raise _fail(where, "'title' is required (one line)")
    no_clock = data.get("clock") == "none"
    control = data.get("time_control")
    if control is None and not no_clock:
        raise _fail(where, "'time_control' is required unless 'clock: none'")
    players = data.get("players")
    if players is not None and not (
        isinstance(players, dict) and {"white", "black"} <= set(players)
    ):
        raise _fail(where, "'players' must give 'white' and 'black'")
    try:
        setup = GameSetup.create(
            str(data.get("edition", "fide-2023")),
            None if no_clock else str(control),
            kind=data.get("kind"),
            board=str(data.get("board", "enforced")),
            supervision=str(data.get("supervision", "adequate")),
            start=None if data.get("start") is None else str(data.get("start")),
            notation=str(data.get("notation", "en")),
            players=(str(players["white"]), str(players["black"])) if players else None,
            quickplay_finish=bool(data.get("quickplay_finish", True)),
        )
    except ArbitroError as error:
        raise _fail(where, error.message()) from None
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not raw_actions:
        raise _fail(where, "'actions' must be a non-empty list")
    actions = []
    previous = 0
    for index, raw in enumerate(raw_actions, start=1):
        action = _action(where, index, raw)
        if action.at < previous:
            raise _fail(f"{where}, action {index}", "actions must be in time order ('at')")
        previous = action.at
        actions.append(action)
    expect = data.get("expect")
    _check_expect(where, expect)
    return Scenario(path, title.strip(), setup, tuple(actions), expect)


def _action(where: str, index: int, raw: Any) -> Action:
    here = f"{where}, action {index}"
    if not isinstance(raw, dict):
        raise _fail(here, "an action is a mapping with 'at', 'by' and 'do'")
    for key in ("at", "by", "do"):
        if key not in raw:
            raise _fail(here, f"'{key}' is missing")
    do = str(raw["do"])
    if do not in ACTION_KEYS:
        raise _fail(here, f"unknown 'do: {do}'; known: {', '.join(ACTION_KEYS)}")
    by = str(raw["by"])
    if by not in ("white", "black", "arbiter"):
        raise _fail(here, f"'by' must be white, black or arbiter, not {by!r}")
    try:
        at = parse_time(raw["at"])
    except ValueError as error:
        raise _fail(here, f"'at': {error}") from None
    extra = set(raw) - {"at", "by", "do", "expect"}
    unknown = sorted(str(key) for key in extra - ACTION_KEYS[do])
    if unknown:
        raise _fail(here, f"unknown key(s) for '{do}': {', '.join(unknown)}")
    if do in ("move", "play", "seal") and "move" not in raw:
        raise _fail(here, f"'{do}' needs 'move'")
    if do == "moves" and not isinstance(raw.get("moves"), str | list):
        raise _fail(here, "'moves' needs a move list")
    if do == "claim" and "claim" not in raw:
        raise _fail(here, "'claim' needs 'claim' (threefold, fifty-moves, time, ...)")
    if do == "arbiter" and "action" not in raw:
        raise _fail(here, "'arbiter' needs 'action'")
    if do == "moves" and "each" in raw:
        try:
            parse_time(raw["each"])
        except ValueError as error:
            raise _fail(here, f"'each': {error}") from None
    expect = raw.get("expect")
    _check_expect(here, expect)
    args = {k: v for k, v in raw.items() if k in extra}
    return Action(index, at, by, do, args, expect)


def _check_expect(where: str, expect: Any) -> None:
    if expect is None:
        return
    if not isinstance(expect, dict):
        raise _fail(where, "'expect' must be a mapping")
    unknown = sorted(str(key) for key in set(expect) - EXPECT_KEYS)
    if unknown:
        raise _fail(
            where,
            f"unknown expectation(s) {', '.join(unknown)}; known: {', '.join(sorted(EXPECT_KEYS))}",
        )
    if "result" in expect and expect["result"] not in RESULTS:
        raise _fail(where, f"'result' must be one of {', '.join(RESULTS)}")
    if "termination" in expect and expect["termination"] not in TERMINATIONS:
        raise _fail(where, f"unknown termination {expect['termination']!r}")
    clock = expect.get("clock")
    if clock is not None:
        if not isinstance(clock, dict) or not set(clock) <= {"white", "black"}:
            raise _fail(where, "'clock' must map white and/or black to a time")
        for value in clock.values():
            try:
                parse_time(value)
            except ValueError as error:
                raise _fail(where, f"'clock': {error}") from None


# -- running --------------------------------------------------------------------------------


def move_list(moves: str | list[Any]) -> list[str]:
    """The moves of ``"1.e4 e5 2.Cf3 Cc6"`` (numbers, results and draw offers dropped).

    >>> move_list("1.e4 e5 2.Cf3 Cc6 3...a6 1-0")
    ['e4', 'e5', 'Cf3', 'Cc6', 'a6']
    """
    tokens = moves.split() if isinstance(moves, str) else [str(m) for m in moves]
    result = []
    for token in tokens:
        move = re.sub(r"^\d+\.+", "", token)
        if not move or move in RESULTS or move == "(=)":
            continue
        result.append(move)
    return result


def run(scenario: Scenario) -> Report:
    """Replay a scenario and check its expectations."""
    report = Report(scenario)
    game = Game(scenario.setup)
    last_at = 0
    for action in scenario.actions:
        label = f"action {action.index} ({action.do})"
        error: GameError | None = None
        try:
            last_at = _perform(game, action)
        except GameError as refused:
            error = refused
            last_at = action.at
        expected = action.expect or {}
        if error is not None and "accepted" not in expected and "error" not in expected:
            report.failures.append(f"{label}: refused [{error.code}] {error.message()}")
        report.failures.extend(
            f"{label}: {problem}" for problem in _compare(expected, game, last_at, error)
        )
    if scenario.expect:
        report.failures.extend(
            f"final: {problem}" for problem in _compare(scenario.expect, game, last_at, None)
        )
    return report


def _perform(game: Game, action: Action) -> int:
    """Apply an action; returns the instant its expectations are checked at."""
    if action.do != "moves":
        game.apply(Event(action.at, action.by, action.do, dict(action.args)))
        return action.at
    each = parse_time(action.args.get("each", 1))
    at = action.at
    moves = move_list(action.args["moves"])
    for number, move in enumerate(moves):
        at = action.at + number * each
        side = color_name(game.state(at).to_move)
        game.apply(Event(at, side, "play", {"move": move}))
    return at


def _clock_text(ms: int) -> str:
    minutes, rest = divmod(ms, 60_000)
    return f"{minutes}:{rest / 1000:04.1f}"


def _compare(
    expected: Mapping[str, Any], game: Game, at: int, error: GameError | None
) -> Iterator[str]:
    if not expected:
        return
    if "accepted" in expected and bool(expected["accepted"]) != (error is None):
        got = "refused" if error else "accepted"
        detail = f" [{error.code}] {error.message()}" if error else ""
        yield f"accepted: expected {expected['accepted']}, got {got}{detail}"
    if "error" in expected:
        code = error.code if error else None
        if code != expected["error"]:
            yield f"error: expected {expected['error']}, got {code}"
    state = game.state(at)
    yield from _compare_state(expected, state)


def _compare_state(expected: Mapping[str, Any], state: GameState) -> Iterator[str]:
    for key in ("result", "termination", "claim", "pending"):
        if key in expected:
            got: Any = getattr(state, key)
            if key == "claim" and got is None:
                got = None
            if expected[key] != got:
                yield f"{key}: expected {expected[key]}, got {got}"
    if "to_move" in expected and expected["to_move"] != color_name(state.to_move):
        yield f"to_move: expected {expected['to_move']}, got {color_name(state.to_move)}"
    if "sealed" in expected and bool(expected["sealed"]) != state.sealed:
        yield f"sealed: expected {expected['sealed']}, got {state.sealed}"
    if "clock" in expected:
        if state.clock is None:
            yield "clock: the game has no clock"
        else:
            for side, value in expected["clock"].items():
                want = parse_time(value)
                have = state.clock.white if side == "white" else state.clock.black
                if abs(want - have) >= CLOCK_TOLERANCE_MS:
                    yield (f"clock.{side}: expected {_clock_text(want)}, got {_clock_text(have)}")
    if "fen" in expected:
        want_fen, have_fen = _fen_key(str(expected["fen"])), _fen_key(state.fen)
        if want_fen != have_fen:
            yield f"fen: expected {' '.join(want_fen)}, got {' '.join(have_fen)}"
    if "illegal_moves" in expected:
        for side, count in expected["illegal_moves"].items():
            have = state.illegal_moves.white if side == "white" else state.illegal_moves.black
            if have != count:
                yield f"illegal_moves.{side}: expected {count}, got {have}"
    if "points" in expected:
        got_points = (
            None
            if state.points is None
            else {"white": state.points.white, "black": state.points.black}
        )
        want_points = {k: float(v) for k, v in (expected["points"] or {}).items()}
        if got_points is None or any(got_points[k] != v for k, v in want_points.items()):
            yield f"points: expected {expected['points']}, got {got_points}"
    if "penalties" in expected:
        yield from _compare_penalties(expected["penalties"] or [], state)


def _fen_key(fen: str) -> tuple[str, ...]:
    """Placement, side to move, castling, and the en-passant square only where a capture
    there is legal."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return tuple(fen.split()[:4])
    return tuple(board.fen(en_passant="legal").split()[:4])


def _compare_penalties(expected: list[Any], state: GameState) -> Iterator[str]:
    have = [p.to_dict() for p in state.penalties]
    remaining = list(have)
    for want in expected:
        match = next(
            (
                p
                for p in remaining
                if p["player"] == want.get("player")
                and p["kind"] == want.get("kind")
                and ("seconds" not in want or p.get("seconds") == want["seconds"])
            ),
            None,
        )
        if match is None:
            yield f"penalties: expected {want}, not among {have}"
        else:
            remaining.remove(match)
    if remaining and len(have) != len(expected):
        yield f"penalties: unexpected {remaining}"


__all__ = [
    "BLACK",
    "WHITE",
    "Action",
    "Report",
    "Scenario",
    "ScenarioError",
    "files_in",
    "load",
    "move_list",
    "parse_time",
    "run",
]
