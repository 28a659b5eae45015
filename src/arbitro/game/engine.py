"""The Laws engine: a game as an append-only log of events, and what the Laws make of it.

Every command either appends one event and updates the derived state, or raises a
:class:`~arbitro.errors.GameError` (with a stable code and the article) and changes nothing.
Time arrives as integer milliseconds inside the commands; the engine never reads a clock.

>>> game = Game.create("fide-2023", "3+2")
>>> game.start(0)
>>> game.play("white", "e4", 2_000)
>>> game.play("black", "e5", 5_000)
>>> state = game.state(6_000)
>>> state.clock.white, state.clock.black, state.result
(179000, 179000, '*')

Flags are seen where the Laws let the arbiter see them (standard play; rapid and blitz where
the edition and the supervision say so): the game then ends at the instant the flag falls, and
:meth:`Game.state` reports it for any later instant without a new event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import chess

from arbitro.adjudication import (
    cannot_checkmate,
    has_bare_material,
    is_dead_position,
    may_be_dead,
)
from arbitro.clock import Clock
from arbitro.color import BLACK, WHITE, ByColor, Color, parse_color
from arbitro.editions import ClaimDeadline, Edition, FlagDrawRule, IllegalMovePolicy
from arbitro.errors import ClockError, GameError
from arbitro.game.envelope import Envelope, key_bytes, open_sealed
from arbitro.game.events import COMMANDS, BoardMode, Event, GameSetup
from arbitro.game.fen import fen as write_fen
from arbitro.game.moves import Resolved, fast_san, resolve
from arbitro.game.state import (
    RESULTS,
    TERMINATIONS,
    GameState,
    Outcome,
    Penalty,
    points_of,
    win_for,
)
from arbitro.gamekind import Kind
from arbitro.i18n import N_
from arbitro.notation.algebraic import read as read_written
from arbitro.timecontrol import TimeControl

DRAW = "1/2-1/2"
QUICKPLAY_LIMIT_MS = 120_000
PENALTY_KINDS = ("warning", "time-added-to-opponent", "time-deducted", "loss", "expulsion")
#: A10: more than an hour late for the resumption of an adjourned game loses.
LATENESS_MS = 3_600_000


@dataclass(slots=True)
class Ply:
    """A half-move made on the board: its move, who made it, when, and why it is illegal."""

    color: Color
    move: chess.Move
    reason: str | None
    made_at: int
    pressed_at: int | None = None
    #: The mover's remaining time once the clock was pressed (what PGN's ``[%clk]`` records).
    clock_after: int | None = None
    #: A draw offer went with this move (recorded ``(=)`` on the scoresheet, E13).
    draw_offer: bool = False

    @property
    def legal(self) -> bool:
        return self.reason is None


@dataclass(slots=True)
class _Claim:
    """A claim that waits for the arbiter (a quickplay finish)."""

    claimant: Color
    kind: str
    at: int


@dataclass(slots=True)
class _Adjournment:
    """An adjournment in progress (Appendix A).

    ``phase`` is ``ordered`` (the arbiter has asked the player to move to seal), ``sealed``
    (the envelope is closed and the clocks stopped) or ``resuming`` (the resumption has begun;
    the envelope may still be closed while the player who must answer is absent).
    """

    sealer: Color
    phase: str
    session_end: int | None
    resumption: dict[str, str]
    #: What was written (in clear, or sealed with a key), and its notation language.
    text: str | None = None
    token: str | None = None
    lang: str = "en"
    #: Written while the clocks still run: the player may still change it (A1).
    draft: bool = False
    envelope: Envelope | None = None
    #: The sealed move is already completed on the clock: the answerer's clock runs (A9).
    pressed_at: int | None = None
    clock_after: int | None = None
    opened: bool = False
    #: The instant the resumption began, and who has come to the board since.
    started: int | None = None
    present: set[Color] | None = None


def _refuse(code: str, template: str, article: str | None = None, **params: object) -> GameError:
    return GameError(code, template, article=article, **params)


def _actor(by: str) -> Color | None:
    """The colour of a player, ``None`` for the arbiter.

    :raises GameError: ``bad-actor``.
    """
    if by == "arbiter":
        return None
    try:
        return parse_color(by)
    except ValueError:
        raise _refuse(
            "bad-actor", N_("{by!r} is not an actor: white, black or arbiter."), by=by
        ) from None


_PLAYERS: dict[str, Color] = {"white": WHITE, "black": BLACK}


def _player(by: str) -> Color:
    fast = _PLAYERS.get(by)
    if fast is not None:
        return fast
    color = _actor(by)
    if color is None:
        raise _refuse("not-a-player", N_("Only a player can do this, not the arbiter."))
    return color


def _seconds_ms(value: Any, name: str) -> int:
    """Seconds (a number, or 'm:ss') as milliseconds."""
    try:
        if isinstance(value, str) and ":" in value:
            total = 0.0
            for part in value.split(":"):
                total = total * 60 + float(part)
            return round(total * 1000)
        return round(float(value) * 1000)
    except (TypeError, ValueError, OverflowError):
        raise _refuse(
            "bad-argument",
            N_("{name!r} must be seconds or m:ss, not {value!r}."),
            name=name,
            value=value,
        ) from None


#: Verdicts of :func:`cannot_mate` by position and side, for the last positions asked.
_VERDICTS: dict[tuple[Any, Color], bool] = {}
_VERDICTS_KEPT = 256


def cannot_mate(board: chess.Board, color: Color) -> bool:
    """:func:`~arbitro.adjudication.cannot_checkmate`, remembered for the last positions
    asked: the question a flag fall asks (6.9) may take a search of a second or more, which a
    server runs in a worker thread (:meth:`Game.flag_question`) before the game asks it."""
    key = (board._transposition_key(), color)
    known = _VERDICTS.get(key)
    if known is None:
        known = cannot_checkmate(board, color)
        if len(_VERDICTS) >= _VERDICTS_KEPT:
            _VERDICTS.clear()
        _VERDICTS[key] = known
    return known


# The method that applies each command, claim and arbiter action, by name: tables of bound
# methods would make every game a reference cycle, which only the cycle collector frees.
_HANDLERS: dict[str, str] = {
    "start": "_on_start",
    "move": "_on_move",
    "press": "_on_press",
    "play": "_on_play",
    "offer-draw": "_on_offer",
    "accept-draw": "_on_accept",
    "decline-draw": "_on_decline",
    "claim": "_on_claim",
    "resign": "_on_resign",
    "stop-clocks": "_on_stop",
    "restart-clocks": "_on_restart",
    "arbiter": "_on_arbiter",
    "adjourn": "_on_adjourn",
    "seal": "_on_seal",
    "resume": "_on_resume",
}
_CLAIM_HANDLERS: dict[str, str] = {
    "threefold": "_claim_repetition",
    "fifty-moves": "_claim_repetition",
    "time": "_claim_time",
    "both-flags": "_claim_both_flags",
    "illegal-move": "_claim_illegal",
    "quickplay-finish": "_claim_quickplay",
}
_ARBITER_HANDLERS: dict[str, str] = {
    "add-time": "_arbiter_add_time",
    "set-clock": "_arbiter_set_clock",
    "penalty": "_arbiter_penalty",
    "decide": "_arbiter_decide",
    "restore": "_arbiter_restore",
    "result": "_arbiter_result",
}


class Game:
    """A game under one edition of the Laws, driven by commands with time stamps in ms.

    Build one with :meth:`create` (or :meth:`from_json`). Commands are methods named after the
    scenario format's actions (:meth:`start`, :meth:`move`, :meth:`press`, :meth:`play`,
    :meth:`offer_draw`, :meth:`claim`, :meth:`arbiter`, ...); :meth:`apply` takes an
    :class:`Event` and dispatches it.
    """

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.edition: Edition = setup.edition
        self.kind: Kind = setup.kind
        self._physical = setup.board is BoardMode.PHYSICAL
        self._lang = setup.notation
        self._illegal_policy: IllegalMovePolicy = self.edition.illegal_move(
            self.kind, setup.supervision
        )
        self._sees_flags = self.edition.arbiter_sees_flags(self.kind, setup.supervision)
        self._start = chess.Board(setup.start_fen)
        self._events: list[Event] = []
        self._fen_cache: tuple[list[Any], int, str] | None = None
        # The next move of a replay, read ahead on the position it is played in (see
        # replay_move): the position's key list, its length, the text and the move.
        self._ahead: tuple[list[Any], int, str, chess.Move] | None = None
        self._pending_move: Ply | None = None
        self._reset_position([])
        self._clock: Clock | None = Clock.new(setup.control) if setup.control.is_timed else None
        self._started = False
        self._now = 0
        self._offer: Color | None = None
        self._offer_to_mark: Color | None = None
        self._pending_claim: _Claim | None = None
        self._last_claim: str | None = None
        self._penalties: list[Penalty] = []
        self._illegal = [0, 0]  # black, white (indexed by colour)
        self._must_play: chess.Move | None = None
        self._outcome: Outcome | None = None
        self._deadline_clock: Clock | None = None
        self._deadline: int | None = None
        self._deadline_outcome: Outcome | None = None
        self._adjournment: _Adjournment | None = None
        self._envelopes: list[Envelope] = []
        # Time each player's clock has run in completed turns (black, white): for the envelope.
        self._used = [0, 0]

    # -- construction and the log -----------------------------------------------------------

    @classmethod
    def create(
        cls,
        edition: str | Edition = "fide-2023",
        time_control: str | TimeControl | None = None,
        **options: Any,
    ) -> Game:
        """A new game; ``options`` as :meth:`GameSetup.create` takes them."""
        return cls(GameSetup.create(edition, time_control, **options))

    @property
    def events(self) -> tuple[Event, ...]:
        """The log: every event accepted, in order."""
        return tuple(self._events)

    def to_dict(self) -> dict[str, Any]:
        return {"setup": self.setup.to_dict(), "events": [e.to_dict() for e in self._events]}

    def to_json(self) -> str:
        """The setup and the log as JSON; :meth:`from_json` rebuilds the same game."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        game = cls(GameSetup.from_dict(data["setup"]))
        for raw in data.get("events", []):
            game.apply(Event.from_dict(raw))
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Replay a game from :meth:`to_json`.

        :raises ArbitroError: when an event of the log is refused (a log not made by arbitro).
        """
        return cls.from_dict(json.loads(text))

    # -- the commands -----------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event (the same as calling the command it names).

        :raises GameError: for a refused event; nothing is changed.
        """
        name = _HANDLERS.get(event.do)
        if name is None:
            raise _refuse(
                "unknown-command",
                N_("Unknown command {do!r}; known: {known}."),
                do=event.do,
                known=", ".join(COMMANDS),
            )
        if event.at < self._now:
            raise _refuse(
                "time-goes-backwards",
                N_("Time cannot go backwards: {at} ms is before {now} ms."),
                at=event.at,
                now=self._now,
            )
        getattr(self, name)(event)
        self._events.append(event)
        self._now = event.at

    def start(self, at: int, by: str = "arbiter") -> None:
        """Start the clocks: White's runs (6.5), or Black's in a position with Black to move."""
        self.apply(Event(at, by, "start"))

    def move(self, by: str, move: str | chess.Move, at: int) -> None:
        """A move made on the board, not yet completed by pressing the clock."""
        self.apply(Event(at, by, "move", {"move": _move_text(move)}))

    def press(self, by: str, at: int) -> None:
        """The player presses the clock: his move is completed."""
        self.apply(Event(at, by, "press"))

    def play(self, by: str, move: str | chess.Move, at: int) -> None:
        """Move and press at the same instant."""
        self.apply(Event(at, by, "play", {"move": _move_text(move)}))

    def replay_move(self, color: Color, move: str, at: int, following: str | None = None) -> None:
        """The same as :meth:`play` by ``color`` (the same event in the log, the same state
        after it, the same refusal), with less work per move, for replaying a recorded game.

        In an ordinary turn (the game started and not over, no adjournment, no move or
        declared move pending, ``color`` to move with his clock running and no flag down) the
        checks :meth:`play` makes one by one are made at once; anything else goes through
        :meth:`play`. ``following``, the move recorded next, is read ahead once the move is on
        the board: when it is legal there, the side to move has a legal move, which settles
        the test for checkmate and stalemate, and the next call reuses the reading.
        """
        clock = self._clock
        if (
            at < self._now
            or self._outcome is not None
            or not self._started
            or self._adjournment is not None
            or self._pending_move is not None
            or self._must_play is not None
            or not move.strip()
            or (
                self._board.turn != color
                if clock is None
                else not clock.running or clock.turn != color or self._flag_outcome(at) is not None
            )
        ):
            self.play("white" if color else "black", move, at)
            return
        ahead = self._ahead
        keys = self._keys
        if ahead is not None and ahead[0] is keys and ahead[1] == len(keys) and ahead[2] == move:
            resolved = Resolved(ahead[3])
        else:
            resolved = resolve(self._board, move, self._lang, self._physical)
        self._make(color, resolved, at, following)
        if self._outcome is None:
            self._complete(color, at)
        else:
            self._pending_move = None  # the move ended the game: no press is needed
        self._events.append(Event(at, "white" if color else "black", "play", {"move": move}))
        self._now = at

    def offer_draw(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "offer-draw"))

    def accept_draw(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "accept-draw"))

    def decline_draw(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "decline-draw"))

    def claim(self, by: str, claim: str, at: int, move: str | None = None) -> None:
        """Claim: ``threefold``, ``fifty-moves`` (optionally with the declared ``move``),
        ``time``, ``illegal-move``, ``both-flags`` or ``quickplay-finish``."""
        args: dict[str, Any] = {"claim": claim}
        if move is not None:
            args["move"] = move
        self.apply(Event(at, by, "claim", args))

    def resign(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "resign"))

    def stop_clocks(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "stop-clocks"))

    def restart_clocks(self, by: str, at: int) -> None:
        self.apply(Event(at, by, "restart-clocks"))

    def arbiter(self, action: str, at: int, **args: Any) -> None:
        """An arbiter's act: ``add-time``, ``set-clock``, ``penalty``, ``decide``, ``restore``
        or ``result`` (arguments as in the scenario format)."""
        self.apply(Event(at, "arbiter", "arbiter", {"action": action, **args}))

    def adjourn(self, at: int, **args: Any) -> None:
        """The arbiter adjourns the game: the player to move must seal his move (A1).
        ``session_end`` (ms) is the session's nominal end; ``date``, ``time`` and ``place`` of
        the resumption go on the envelope (A2)."""
        self.apply(Event(at, "arbiter", "adjourn", args))

    def seal(self, by: str, move: str, at: int, *, stop: bool = True) -> None:
        """The player writes his sealed move and (unless ``stop`` is false) stops the clocks."""
        args: dict[str, Any] = {"move": move}
        if not stop:
            args["stop"] = False
        self.apply(Event(at, by, "seal", args))

    def resume(self, at: int, present: list[str], **args: Any) -> None:
        """The resumption: ``present`` are the players at the board (A7, A9)."""
        self.apply(Event(at, "arbiter", "resume", {"present": present, **args}))

    # -- queries ----------------------------------------------------------------------------

    @property
    def board(self) -> chess.Board:
        """A copy of the position on the board (with any move made but not yet pressed)."""
        return self._board.copy()

    @property
    def plies(self) -> tuple[Ply, ...]:
        return tuple(self._plies)

    @property
    def started(self) -> bool:
        """Whether the clocks (the game) have been started."""
        return self._started

    @property
    def now(self) -> int:
        """The instant of the last event."""
        return self._now

    def claimable(
        self, *, threefold: bool = True, fifty: bool = True
    ) -> tuple[str, chess.Move | None] | None:
        """A draw the player to move could claim now (9.2 threefold repetition, 9.3 fifty
        moves): ``("threefold" | "fifty-moves", move)`` where ``move`` is the move he would
        write down and declare (``None`` when the present position is enough), or ``None``.

        Cheap enough to ask after every move: the intended-move test only runs when a position
        since the last irreversible move has occurred twice already, or 99 half-moves have passed.
        """
        board = self._board
        keys = self._keys
        if threefold and self._counts[keys[-1]] >= 3:
            return ("threefold", None)
        if fifty and board.halfmove_clock >= 100:
            return ("fifty-moves", None)
        # Positions the opponent will face after a move, since the last pawn move or capture,
        # that have occurred twice: one more occurrence makes a claimable threefold repetition.
        window = min(board.halfmove_clock, len(keys) - 1)
        counts = self._counts
        twice = (
            threefold
            and self._repeated
            and {key for key in keys[-2 : -window - 2 : -2] if counts[key] >= 2}
        )
        if twice:
            for move in board.generate_legal_moves():
                board.push(move)
                key = board._transposition_key()
                board.pop()
                if key in twice:
                    return ("threefold", move)
        if fifty and board.halfmove_clock == 99:
            pawns = board.pawns & board.occupied_co[board.turn]
            for move in board.generate_legal_moves(~pawns & chess.BB_ALL):
                if not board.is_capture(move):
                    return ("fifty-moves", move)
        return None

    def cannot_win_on_time(self, winner: Color) -> bool:
        """Whether, in the present position, a fallen flag of ``winner``'s opponent would draw
        instead of losing (6.9 and its predecessors; the club rule counts bare material)."""
        return self._cannot_win_on_time(winner)

    @property
    def envelope(self) -> Envelope | None:
        """The record on the latest envelope (A2): the move only once it is opened."""
        return self._envelopes[-1] if self._envelopes else None

    @property
    def envelopes(self) -> tuple[Envelope, ...]:
        return tuple(self._envelopes)

    @property
    def adjournment(self) -> str | None:
        """``ordered``, ``sealed`` or ``resuming`` while an adjournment is in progress."""
        adj = self._adjournment
        return None if adj is None or self._outcome is not None else adj.phase

    def opens_envelope(self, present: list[str]) -> bool:
        """Whether a ``resume`` with these players present would open a closed envelope (the
        event that does must carry the key of a sealed envelope)."""
        adj = self._adjournment
        if adj is None or adj.phase == "ordered" or adj.opened or adj.envelope is None:
            return False
        answerer = not adj.sealer
        return any(_PLAYERS.get(name) == answerer for name in present)

    def outcome(self, at: int | None = None) -> Outcome | None:
        """How the game ended, as of ``at`` (default: the last event)."""
        return self._ended(self._now if at is None else max(at, self._now))

    def next_flag_fall(self, at: int) -> int | None:
        """The instant the running clock's flag falls if nothing happens before; ``None`` when
        the game is over as of ``at``, the clocks stand still, or that flag has fallen already
        (a server sets a timer on it: cheaper than the whole :meth:`state`)."""
        clock = self._clock
        if clock is None or not clock.running or self._ended(max(at, self._now)) is not None:
            return None
        fall = clock.flag_at(clock.turn)
        return fall if fall is not None and fall > at else None

    def mate_questions(self, event: Event) -> list[tuple[chess.Board, Color]]:
        """The questions "can this side still mate?" that applying ``event`` may ask, each a
        position (a copy) and a side, for :func:`cannot_mate`: a resignation where the Laws
        draw it against a side that cannot mate, a claim of an illegal move where a side that
        cannot mate only draws, the opening of a sealed move that may be invalid (6.10, 9.6).
        A server answers them in a worker thread before it applies the event, which then finds
        the answers remembered. Nothing in the game changes.
        """
        do = event.do
        try:
            if do == "resign" and self.edition.resign_against_bare_king_draws:
                return [(self._board.copy(stack=False), not _player(event.by))]
            if (
                do == "claim"
                and event.args.get("claim") == "illegal-move"
                and self._illegal_policy.draw_if_cannot_checkmate
            ):
                target = self._illegal_target(_actor(event.by))
                if target is not None:
                    index, ply = target
                    return [(self._position_after(self._plies[:index]), not ply.color)]
            adj = self._adjournment
            if (
                do == "resume"
                and adj is not None
                and adj.envelope is not None
                and self._resumption(adj, event)[2]
            ):
                # the envelope is opened: only a sealed move that cannot be played asks
                reading = read_written(self._sealed_text(adj, event), self._board, adj.lang)
                if not reading.ok or reading.move is None:
                    return [(self._board.copy(stack=False), not adj.sealer)]
        except GameError:
            return []  # the event will be refused: it asks nothing
        return []

    def flag_question(self, at: int) -> tuple[chess.Board, Color] | None:
        """The question a flag fallen by ``at`` asks, when this game asks it: the position
        (a copy) and the side that wins unless it cannot mate (6.9), for :func:`cannot_mate`;
        ``None`` when no flag has fallen, the game ended before, the arbiter does not see
        flags, the edition only counts material, or the game has decided it already."""
        clock = self._clock
        if (
            clock is None
            or not self._started
            or self._outcome is not None
            or not self._sees_flags
            or self.edition.flag_draw_rule is FlagDrawRule.BARE_MATERIAL
            or (self._deadline_clock is clock and self._deadline_outcome is not None)
        ):
            return None
        fallen = clock.fallen(max(at, self._now))
        if fallen.white is None and fallen.black is None:
            return None
        white_first = fallen.white is not None and (
            fallen.black is None or fallen.white <= fallen.black
        )
        return self._board.copy(stack=False), BLACK if white_first else WHITE

    def state(self, at: int | None = None) -> GameState:
        """Everything derived from the log, at ``at`` (default: the instant of the last event;
        never before it)."""
        when = self._now if at is None else max(at, self._now)
        outcome = self._ended(when)
        clock = self._clock
        remaining: ByColor[int] | None = None
        flags: ByColor[int | None] = ByColor(None, None)
        running = False
        if clock is not None:
            frozen_at = when if outcome is None else max(min(when, outcome.at), clock.since)
            remaining = clock.remaining_both(frozen_at)
            flags = clock.fallen(frozen_at)
            running = clock.running and outcome is None
        pending = "none"
        if self._pending_claim is not None:
            pending = "claim"
        elif self._offer is not None:
            pending = "draw-offer"
        return GameState(
            at=when,
            fen=self._fen(),
            to_move=self._to_move(),
            result=outcome.result if outcome else "*",
            termination=outcome.termination if outcome else None,
            article=outcome.article if outcome else None,
            points=points_of(outcome.result) if outcome else None,
            clock=remaining,
            running=running,
            flags=flags,
            illegal_moves=ByColor(self._illegal[WHITE], self._illegal[BLACK]),
            penalties=tuple(self._penalties),
            claim=self._last_claim,
            pending=pending if outcome is None else "none",
            draw_offer=self._offer if outcome is None else None,
            kind=self.kind.value,
            plies=len(self._plies),
            sealed=self._sealed() and outcome is None,
            adjournment=None if outcome is not None else self.adjournment,
        )

    def _fen(self) -> str:
        """The position's FEN, written once per position: every change of the board appends
        to (or replaces) the list of position keys, and views ask for it many times."""
        keys = self._keys
        cached = self._fen_cache
        if cached is not None and cached[0] is keys and cached[1] == len(keys):
            return cached[2]
        fen = write_fen(self._board)
        self._fen_cache = (keys, len(keys), fen)
        return fen

    def _sealed(self) -> bool:
        adj = self._adjournment
        return adj is not None and adj.envelope is not None and not adj.opened

    # -- internals: position ----------------------------------------------------------------

    def _reset_position(self, plies: list[Ply]) -> None:
        """Set the position after ``plies`` from the start, rebuilding the repetition table.
        Cannot fail: every ply was pushed once already."""
        board = self._start.copy(stack=False)
        keys = [board._transposition_key()]
        counts = {keys[0]: 1}
        for ply in plies:
            board.push(ply.move)
            key = board._transposition_key()
            keys.append(key)
            counts[key] = counts.get(key, 0) + 1
        board.clear_stack()
        self._board = board
        self._plies = plies
        self._keys = keys
        self._ahead = None
        self._counts = counts
        # Whether some position has occurred twice: until then no repetition can be claimed.
        self._repeated = any(n >= 2 for n in counts.values())
        self._pending_move = plies[-1] if plies and plies[-1].pressed_at is None else None

    def _position_after(self, plies: list[Ply]) -> chess.Board:
        board = self._start.copy(stack=False)
        for ply in plies:
            board.push(ply.move)
        return board

    def _to_move(self) -> Color:
        if self._pending_move is not None:
            return self._pending_move.color
        if self._clock is not None and self._started:
            return self._clock.turn
        return self._board.turn

    def _has_moved(self, color: Color) -> bool:
        return any(p.color == color and p.pressed_at is not None for p in self._plies)

    # -- internals: time and the end --------------------------------------------------------

    def _flag_outcome(self, at: int) -> Outcome | None:
        """The flag fall the arbiter (the engine) sees by ``at``, if any."""
        clock = self._clock
        if clock is None or not self._started or not self._sees_flags:
            return None
        flags = clock.flags
        if (
            flags.white is None
            and flags.black is None
            and (not clock.running or at - clock.since < clock.settled[clock.turn])
        ):
            # No flag is down, and not enough time has passed for one to fall (a delay only
            # postpones it): the common case, answered without computing the deadline.
            return None
        if clock is not self._deadline_clock:
            # The first instant a flag falls only changes when the clock does: cache it.
            instants = [i for i in (clock.flags.white, clock.flags.black) if i is not None]
            if clock.running:
                projected = clock.flag_at(clock.turn)
                if projected is not None:
                    instants.append(projected)
            self._deadline_clock = clock
            self._deadline = min(instants) if instants else None
            self._deadline_outcome = None
        first = self._deadline
        if first is None or first > at:
            return None
        if self._deadline_outcome is not None:
            return self._deadline_outcome
        fallen = clock.fallen(first)
        loser = WHITE if fallen.white is not None and fallen.white <= first else BLACK
        # Whether the winner could still mate is asked once per flag fall, not per query.
        self._deadline_outcome = self._time_forfeit(loser, first)
        return self._deadline_outcome

    def _time_forfeit(self, loser: Color, at: int) -> Outcome:
        winner = not loser
        if self._cannot_win_on_time(winner):
            return Outcome(DRAW, "time-forfeit-draw", self.edition.article("time-forfeit-draw"), at)
        return Outcome(win_for(winner), "time-forfeit", self.edition.article("time-forfeit"), at)

    def _cannot_win_on_time(self, winner: Color) -> bool:
        if self.edition.flag_draw_rule is FlagDrawRule.BARE_MATERIAL:
            return has_bare_material(self._board, winner)
        return cannot_mate(self._board, winner)

    def _ended(self, at: int) -> Outcome | None:
        if self._outcome is not None:
            return self._outcome
        flag = self._flag_outcome(at)
        adj = self._adjournment
        if adj is not None and adj.started is not None:
            late = self._lateness(adj, at)
            if late is not None and (flag is None or late.at < flag.at):
                return late
        return flag

    def _lateness(self, adj: _Adjournment, at: int) -> Outcome | None:
        """A10: a player more than an hour late for the resumption loses. (With both absent
        the arbiter decides.)"""
        assert adj.started is not None and adj.present is not None
        deadline = adj.started + LATENESS_MS
        absent = [c for c in (WHITE, BLACK) if c not in adj.present]
        if at <= deadline or len(absent) != 1:
            return None
        return Outcome(
            win_for(not absent[0]),
            "adjournment-lateness",
            self.edition.article("adjournment-lateness"),
            deadline,
        )

    def _check_on(self, at: int) -> None:
        if self._ended(at) is not None:
            raise _refuse("game-over", N_("The game is over."))

    def _check_started(self) -> None:
        if not self._started:
            raise _refuse(
                "not-started",
                N_("The game has not started: the clocks must be started first."),
                article=self.edition.article("start"),
            )

    def _check_running(self) -> None:
        if self._clock is not None and not self._clock.running:
            raise _refuse("clocks-stopped", N_("The clocks are stopped."))

    def _end(self, outcome: Outcome) -> None:
        """End the game (the caller has checked everything: this cannot fail)."""
        self._outcome = outcome
        self._adjournment = None
        self._offer = None
        self._pending_claim = None
        clock = self._clock
        if clock is not None and clock.running:
            self._clock = clock.stop(max(outcome.at, clock.since))

    def _outcome_for(self, result: str, termination: str, at: int) -> Outcome:
        return Outcome(result, termination, self.edition.article(termination), at)

    # -- handlers ---------------------------------------------------------------------------

    def _on_start(self, event: Event) -> None:
        _actor(event.by)
        self._check_on(event.at)
        if self._started:
            raise _refuse("already-started", N_("The game has already started."))
        clock = self._clock.start(event.at, self._board.turn) if self._clock else None
        self._clock = clock
        self._started = True
        if is_dead_position(self._board):
            self._end(self._outcome_for(DRAW, "dead-position", event.at))

    def _check_mover(self, color: Color, at: int) -> None:
        clock = self._clock
        if self._outcome is not None or (clock is not None and self._flag_outcome(at)):
            raise _refuse("game-over", N_("The game is over."))
        if not self._started:
            self._check_started()
        if self._adjournment is not None:
            self._check_adjourned(self._adjournment)
        if clock is not None and not clock.running:
            self._check_running()
        pending = self._pending_move
        if pending is not None:
            to_move = pending.color
        elif clock is not None:
            to_move = clock.turn
        else:
            to_move = self._board.turn
        if color != to_move:
            raise _refuse(
                "not-your-turn",
                N_("It is not White's turn.") if color == WHITE else N_("It is not Black's turn."),
                article=self.edition.article("press"),
            )

    def _on_move(self, event: Event) -> None:
        self._move(event, press=False)

    def _on_play(self, event: Event) -> None:
        self._move(event, press=True)

    def _move(self, event: Event, press: bool) -> None:
        color = _player(event.by)
        self._check_mover(color, event.at)
        if press and self._adjournment is not None:
            self._check_not_ordered(self._adjournment)
        if self._pending_move is not None:
            raise _refuse(
                "move-already-made",
                N_("A move has already been made; press the clock to complete it."),
                article=self.edition.article("press"),
            )
        resolved = self._resolve(event.args.get("move"))
        if self._must_play is not None and resolved.move != self._must_play:
            raise _refuse(
                "declared-move-required",
                N_("After the rejected claim the declared move {move} must be played."),
                article=self.edition.article("claim-procedure"),
                move=self._board.san(self._must_play),
            )
        self._make(color, resolved, event.at)
        if press:
            if self._outcome is None:
                self._complete(color, event.at)
            else:
                self._pending_move = None  # the move ended the game: no press is needed

    def _resolve(self, text: Any) -> Resolved:
        if not isinstance(text, str) or not text.strip():
            raise _refuse("bad-argument", N_("A move is needed (SAN or UCI)."))
        return resolve(self._board, text, self._lang, self._physical)

    def _make(
        self, color: Color, resolved: Resolved, at: int, following: str | None = None
    ) -> None:
        """Put a resolved move on the board (everything has been checked). ``following``: the
        next move of a replay, to read ahead (see :meth:`replay_move`)."""
        board = self._board
        move = resolved.move
        # Only a capture, a promotion or a pawn move can make a position dead.
        changes_material = resolved.legal and (
            move.promotion is not None
            or board.pawns & chess.BB_SQUARES[move.from_square] != 0
            or board.is_capture(move)
        )
        board.push(move)
        # The engine keeps its own repetition table: the board's stack of earlier positions
        # would only be more objects for the cycle collector to walk in a long-running server.
        board.clear_stack()
        key = board._transposition_key()
        keys = self._keys
        keys.append(key)
        count = self._counts[key] = self._counts.get(key, 0) + 1
        if count >= 2:
            self._repeated = True
        self._ahead = None
        can_move = False
        if following is not None and self._lang == "en" and not self._physical:
            # A legal next move proves that the side to move has one (the only use of the
            # reading here: it is a move fast_san found legal, as resolve would read it).
            ahead = fast_san(board, following)
            if ahead is not None:
                self._ahead = (keys, len(keys), following, ahead)
                can_move = True
        ply = Ply(color, move, resolved.reason, at)
        if self._offer_to_mark == color:
            ply.draw_offer = True
            self._offer_to_mark = None
        self._plies.append(ply)
        self._pending_move = ply
        self._must_play = None
        if self._offer is not None and self._offer != color:
            self._offer = None  # a move declines the opponent's offer (9.1)
        if resolved.legal:
            ending = self._automatic_end(changes_material, at, can_move)
            if ending is not None:
                self._end(ending)

    def _automatic_end(
        self, structure_changed: bool, at: int, can_move: bool = False
    ) -> Outcome | None:
        """Checkmate, stalemate, dead position, fivefold repetition, 75 moves. ``can_move``:
        the side to move is already known to have a legal move."""
        board = self._board
        edition = self.edition
        if not can_move and not has_legal_move(board):
            if board.is_check():
                return self._outcome_for(win_for(not board.turn), "checkmate", at)
            return self._outcome_for(DRAW, "stalemate", at)
        # After every capture, pawn move or promotion: a dead position ends the game at once
        # (5.2.2), even while some pawns can still step.
        if structure_changed and may_be_dead(board) and is_dead_position(board):
            return self._outcome_for(DRAW, "dead-position", at)
        # Either rule needs the position to have occurred five times: the count says first.
        if edition.fivefold is not None and self._counts[self._keys[-1]] >= 5 and self._fivefold():
            return self._outcome_for(DRAW, "fivefold-repetition", at)
        if edition.seventy_five_moves and board.halfmove_clock >= 150:
            return self._outcome_for(DRAW, "seventy-five-moves", at)
        return None

    def _fivefold(self) -> bool:
        keys = self._keys
        if self.edition.fivefold == "consecutive":
            # The same position after five consecutive alternate moves by each player.
            return len(keys) >= 17 and all(keys[-1] == keys[-1 - 4 * i] for i in range(1, 5))
        return self._counts[keys[-1]] >= 5

    def _on_press(self, event: Event) -> None:
        color = _player(event.by)
        self._check_mover(color, event.at)
        if self._adjournment is not None:
            self._check_not_ordered(self._adjournment)
        if self._pending_move is None:
            if not (self._physical and self.edition.press_without_move_is_illegal):
                raise _refuse(
                    "no-move-made",
                    N_("No move has been made: make a move before pressing the clock."),
                    article=self.edition.article("press"),
                )
            self._make(color, Resolved(chess.Move.null(), "no-move"), event.at)
        self._complete(color, event.at)

    def _complete(self, color: Color, at: int) -> None:
        ply = self._pending_move
        assert ply is not None
        clock = self._clock
        if clock is not None:
            if clock.running:
                self._used[color] += clock.turn_used + at - clock.since
            pressed = self._clock = clock.press(at, color)
            # The pressed clock stands at ``at``: its settled time is what remains then.
            ply.clock_after = pressed.settled[color]
        ply.pressed_at = at
        self._pending_move = None

    # -- draws by agreement -----------------------------------------------------------------

    def _on_offer(self, event: Event) -> None:
        color = _player(event.by)
        self._check_on(event.at)
        if self._offer == color:
            raise _refuse("draw-offer-pending", N_("Your draw offer is still standing."))
        if self._offer is not None:
            raise _refuse(
                "draw-offer-pending",
                N_("Your opponent's draw offer stands: accept or decline it."),
                article=self.edition.article("draw-offer"),
            )
        self._offer = color
        # The offer is written with the offerer's move just made, or with his next one.
        last = self._plies[-1] if self._plies else None
        if last is not None and last.color == color:
            last.draw_offer = True
        else:
            self._offer_to_mark = color

    def _on_accept(self, event: Event) -> None:
        color = _player(event.by)
        self._check_on(event.at)
        if self._offer != (not color):
            raise _refuse(
                "no-draw-offer",
                N_("There is no draw offer from your opponent to answer."),
                article=self.edition.article("draw-offer"),
            )
        if self.edition.agreement_needs_a_move_each and not (
            self._has_moved(WHITE) and self._has_moved(BLACK)
        ):
            raise _refuse(
                "draw-not-allowed",
                N_("A draw by agreement needs both players to have made a move."),
                article=self.edition.article("agreement"),
            )
        self._end(self._outcome_for(DRAW, "agreement", event.at))

    def _on_decline(self, event: Event) -> None:
        color = _player(event.by)
        self._check_on(event.at)
        if self._offer != (not color):
            raise _refuse(
                "no-draw-offer",
                N_("There is no draw offer from your opponent to answer."),
                article=self.edition.article("draw-offer"),
            )
        self._offer = None

    def _on_resign(self, event: Event) -> None:
        color = _player(event.by)
        self._check_on(event.at)
        winner = not color
        if self.edition.resign_against_bare_king_draws and cannot_mate(self._board, winner):
            result = DRAW
        else:
            result = win_for(winner)
        self._end(self._outcome_for(result, "resignation", event.at))

    # -- clocks -----------------------------------------------------------------------------

    def _on_stop(self, event: Event) -> None:
        actor = _actor(event.by)
        self._check_on(event.at)
        self._check_started()
        adj = self._adjournment
        if adj is not None:
            if adj.phase == "ordered" and adj.draft and actor == adj.sealer:
                self._close_envelope(adj, event.at)  # stopping the clocks completes the seal
                return
            self._check_adjourned(adj)
        if self._clock is None:
            raise _refuse("no-clock", N_("This game is played without a clock."))
        if not self._clock.running:
            raise _refuse("clocks-stopped", N_("The clocks are stopped."))
        self._clock = self._clock.stop(event.at)

    def _on_restart(self, event: Event) -> None:
        _actor(event.by)
        self._check_on(event.at)
        self._check_started()
        if self._adjournment is not None:
            self._check_adjourned(self._adjournment)
        if self._clock is None:
            raise _refuse("no-clock", N_("This game is played without a clock."))
        if self._clock.running:
            raise _refuse("clocks-running", N_("The clocks are already running."))
        if self._pending_claim is not None and event.by != "arbiter":
            raise _refuse("claim-pending", N_("A claim waits for the arbiter's decision."))
        self._clock = self._clock.restart(event.at)

    # -- claims -----------------------------------------------------------------------------

    def _on_claim(self, event: Event) -> None:
        kind = event.args.get("claim")
        name = _CLAIM_HANDLERS.get(str(kind))
        if name is None:
            raise _refuse(
                "bad-argument",
                N_("Unknown claim {claim!r}; known: {known}."),
                claim=kind,
                known=", ".join(_CLAIM_HANDLERS),
            )
        self._check_on(event.at)
        self._check_started()
        if self._adjournment is not None:
            self._check_adjourned(self._adjournment)
        getattr(self, name)(event)

    def _claim_repetition(self, event: Event) -> None:
        color = _player(event.by)
        kind = event.args["claim"]
        rule = "threefold-repetition" if kind == "threefold" else "fifty-moves"
        if color != self._to_move() or self._pending_move is not None:
            raise _refuse(
                "claim-not-allowed",
                N_("Only the player to move, before making his move, can claim this draw."),
                article=self.edition.article(rule),
            )
        declared: chess.Move | None = None
        if event.args.get("move") is not None:
            resolved = resolve(self._board, str(event.args["move"]), self._lang, physical=False)
            declared = resolved.move
        correct = self._repetition_claim_holds(kind, declared)
        at = event.at
        if correct:
            self._last_claim = "upheld"
            self._end(self._outcome_for(DRAW, rule, at))
            return
        # Incorrect: the penalty; the claim stands as a draw offer; the declared move must be
        # played (9.5).
        clock = self._clock
        penalties: list[Penalty] = []
        if clock is not None:
            added, deducted = self.edition.incorrect_claim_penalty(
                self.kind, clock.remaining(color, at)
            )
            article = self.edition.incorrect_claim_article
            if added:
                clock = clock.add_time(not color, added, at)
                penalties.append(
                    Penalty(color, "time-added-to-opponent", added // 1000, article, at)
                )
            if deducted:
                clock = clock.add_time(color, -deducted, at)
                penalties.append(Penalty(color, "time-deducted", deducted // 1000, article, at))
        self._clock = clock
        self._penalties.extend(penalties)
        self._last_claim = "rejected"
        self._offer = color
        self._must_play = declared

    def _repetition_claim_holds(self, kind: str, declared: chess.Move | None) -> bool:
        board = self._board
        if declared is not None:
            board.push(declared)
            try:
                if kind == "threefold":
                    return self._counts.get(board._transposition_key(), 0) + 1 >= 3
                return board.halfmove_clock >= 100
            finally:
                board.pop()
        if kind == "threefold":
            return self._counts[self._keys[-1]] >= 3
        return board.halfmove_clock >= 100

    def _claim_time(self, event: Event) -> None:
        color = _player(event.by)
        clock = self._require_clock()
        at = event.at
        fallen = clock.fallen(at)
        if fallen[color] is not None and fallen[not color] is not None:
            self._both_flags(at, fallen)
            return
        if fallen[not color] is not None:
            self._last_claim = "upheld"
            self._end(self._time_forfeit(not color, at))
            return
        self._last_claim = "rejected"

    def _claim_both_flags(self, event: Event) -> None:
        _player(event.by)
        clock = self._require_clock()
        fallen = clock.fallen(event.at)
        if fallen.white is None or fallen.black is None:
            self._last_claim = "rejected"
            return
        self._both_flags(event.at, fallen)

    def _both_flags(self, at: int, fallen: ByColor[int | None]) -> None:
        clock = self._clock
        assert clock is not None
        last_period = all(
            not clock.control.has_period(clock.period_of(side) + 1) for side in (WHITE, BLACK)
        )
        # Where only claims make flags fall (rapid and blitz without an arbiter calling them),
        # both flags down is a draw; where the arbiter sees flags, the edition decides.
        if not self._sees_flags or self.edition.both_flags_always_draw or last_period:
            self._last_claim = "upheld"
            self._end(self._outcome_for(DRAW, "both-flags", at))
        else:
            self._last_claim = "rejected"

    def _require_clock(self) -> Clock:
        if self._clock is None:
            raise _refuse("no-clock", N_("This game is played without a clock."))
        return self._clock

    def _claim_quickplay(self, event: Event) -> None:
        color = _player(event.by)
        clock = self._require_clock()
        rule = self.edition.quickplay_finish
        article = self.edition.article("quickplay-finish")
        control = clock.control
        has_extra = any(p.increment_ms or p.delay_ms for p in control.periods)
        if (
            rule is None
            or not self.setup.quickplay_finish
            or self.kind not in rule.kinds
            or (rule.without_increment_only and has_extra)
        ):
            raise _refuse(
                "claim-not-allowed",
                N_("A quickplay-finish claim is not available in this game."),
                article=article or None,
            )
        if self._pending_claim is not None:
            raise _refuse("claim-pending", N_("A claim waits for the arbiter's decision."))
        at = event.at
        remaining = clock.remaining(color, at)
        if remaining >= QUICKPLAY_LIMIT_MS or clock.fallen(at)[color] is not None:
            raise _refuse(
                "claim-not-allowed",
                N_(
                    "A quickplay finish can be claimed only with less than two minutes left, "
                    "before the flag falls."
                ),
                article=article,
            )
        self._clock = clock.stop(at) if clock.running else clock
        self._pending_claim = _Claim(color, "quickplay-finish", at)
        self._last_claim = "pending"
        self._offer = color  # a claim under 10.2 is also a draw offer (9.1)

    def _claim_illegal(self, event: Event) -> None:
        claimant = _actor(event.by)
        policy = self._illegal_policy
        article = policy.article or self.edition.article("illegal-move")
        target = self._illegal_target(claimant)
        if target is None:
            self._last_claim = "rejected"
            return
        index, ply = target
        offender = ply.color
        at = event.at
        self._illegal[offender] += 1
        count = self._illegal[offender]
        if policy.first_illegal_decides:
            self._last_claim = "upheld"
            self._end(Outcome(win_for(not offender), "illegal-move", article, at))
            return
        if policy.loses(count):
            self._last_claim = "upheld"
            reinstated = self._position_after(self._plies[:index])
            if policy.draw_if_cannot_checkmate and cannot_mate(reinstated, not offender):
                self._end(Outcome(DRAW, "illegal-move-draw", article, at))
            else:
                self._end(Outcome(win_for(not offender), "illegal-move", article, at))
            return
        seconds = policy.penalty_for(count)
        queen = ply.reason == "not-promoted" and self.edition.unpromoted_pawn_becomes_queen
        kept = self._plies[:index]
        if queen:
            promoted = chess.Move(ply.move.from_square, ply.move.to_square, chess.QUEEN)
            kept = [*kept, Ply(offender, promoted, None, ply.made_at, ply.pressed_at)]
        to_move = self._position_after(kept).turn
        clock = self._clock
        if clock is not None:
            clock = clock.hand_over(to_move, at)
            if seconds:
                clock = clock.add_time(not offender, seconds * 1000, at)
        self._clock = clock
        self._reset_position(kept)
        if seconds:
            self._penalties.append(
                Penalty(offender, "time-added-to-opponent", seconds, article, at)
            )
        self._last_claim = "upheld"
        self._offer = None

    def _illegal_target(self, claimant: Color | None) -> tuple[int, Ply] | None:
        """The completed illegal ply the claim is about, or ``None`` when there is none.

        :raises GameError: ``claim-not-allowed`` when the Laws do not let this actor claim now.
        """
        policy = self._illegal_policy
        article = policy.article or self.edition.article("illegal-move")
        plies = self._plies
        completed = [i for i, ply in enumerate(plies) if ply.pressed_at is not None]
        if claimant is None:
            last = plies[completed[-1]] if completed else None
            obvious = last is not None and self._obvious(last)
            if not (policy.arbiter_acts or (policy.arbiter_acts_on_obvious and obvious)):
                raise _refuse(
                    "claim-not-allowed",
                    N_("Here the arbiter acts on an illegal move only when a player claims it."),
                    article=article,
                )
        if policy.deadline is ClaimDeadline.ANY_TIME:
            # The first irregularity still on the board: the position before it is reinstated.
            for index in completed:
                ply = plies[index]
                if not ply.legal and ply.color != claimant:
                    return index, ply
            return None
        if not completed:
            return None
        index = completed[-1]
        ply = plies[index]
        if claimant is None:
            # The arbiter: too late once the offender's opponent has moved.
            too_late = ply.legal
            offender_plies = completed[:-1]
        else:
            too_late = ply.color == claimant or self._pending_move is not None
            offender_plies = [i for i in completed if plies[i].color != claimant]
        if too_late:
            if offender_plies and not plies[offender_plies[-1]].legal:
                raise _refuse(
                    "claim-not-allowed",
                    N_(
                        "Too late: an illegal move can be claimed only before the claimant makes "
                        "his own move."
                    ),
                    article=article,
                )
            return None
        if policy.first_illegal_decides:
            return self._first_in_sequence(index)
        return (index, ply) if not ply.legal else None

    def _first_in_sequence(self, index: int) -> tuple[int, Ply] | None:
        """Club rules: the first illegal move of an unbroken sequence of illegal moves decides;
        capturing a king left in check loses for the capturer."""
        plies = self._plies
        if plies[index].legal:
            return None
        if plies[index].reason == "king-capture":
            return index, plies[index]
        first = index
        while first > 0 and not plies[first - 1].legal:
            first -= 1
        return first, plies[first]

    def _obvious(self, ply: Ply) -> bool:
        """Both kings in check, or a promotion left incomplete (B6)."""
        board = self._board
        if ply.reason == "not-promoted":
            return True
        both = [
            king
            for king in (board.king(WHITE), board.king(BLACK))
            if king is not None and board.is_attacked_by(not board.color_at(king), king)
        ]
        return len(both) == 2

    # -- the arbiter ------------------------------------------------------------------------

    def _on_arbiter(self, event: Event) -> None:
        if event.by != "arbiter":
            raise _refuse("not-arbiter", N_("Only the arbiter can do this."))
        action = event.args.get("action")
        name = _ARBITER_HANDLERS.get(str(action))
        if name is None:
            raise _refuse(
                "bad-argument",
                N_("Unknown arbiter action {action!r}; known: {known}."),
                action=action,
                known=", ".join(_ARBITER_HANDLERS),
            )
        if action != "result":
            self._check_on(event.at)
        if action in ("restore", "decide") and self._adjournment is not None:
            self._check_adjourned(self._adjournment, restore=True)
        getattr(self, name)(event)

    def _named_player(self, event: Event) -> Color:
        try:
            return parse_color(str(event.args.get("player")))
        except ValueError:
            raise _refuse(
                "bad-argument",
                N_("'player' must be white or black, not {player!r}."),
                player=event.args.get("player"),
            ) from None

    def _arbiter_add_time(self, event: Event) -> None:
        player = self._named_player(event)
        ms = _seconds_ms(event.args.get("seconds"), "seconds")
        clock = self._require_clock()
        self._clock = self._clock_op(lambda: clock.add_time(player, ms, event.at))

    def _arbiter_set_clock(self, event: Event) -> None:
        clock = self._require_clock()
        values = {
            side: _seconds_ms(event.args[name], name)
            for side, name in ((WHITE, "white"), (BLACK, "black"))
            if event.args.get(name) is not None
        }
        if not values:
            raise _refuse("bad-argument", N_("set-clock needs 'white', 'black' or both."))

        def op() -> Clock:
            result = clock
            for side, ms in values.items():
                result = result.set_time(side, ms, event.at)
            return result

        self._clock = self._clock_op(op)

    def _clock_op(self, op: Callable[[], Clock]) -> Clock:
        try:
            return op()
        except ClockError as error:
            raise GameError.like(error) from None

    def _arbiter_penalty(self, event: Event) -> None:
        player = self._named_player(event)
        kind = str(event.args.get("penalty"))
        if kind not in PENALTY_KINDS:
            raise _refuse(
                "bad-argument",
                N_("Unknown penalty {penalty!r}; known: {known}."),
                penalty=kind,
                known=", ".join(PENALTY_KINDS),
            )
        article = self.edition.article("penalties")
        at = event.at
        seconds: int | None = None
        clock = self._clock
        if kind in ("time-added-to-opponent", "time-deducted"):
            ms = _seconds_ms(event.args.get("seconds"), "seconds")
            seconds = ms // 1000
            live = self._require_clock()
            if kind == "time-added-to-opponent":
                clock = self._clock_op(lambda: live.add_time(not player, ms, at))
            else:
                clock = self._clock_op(lambda: live.add_time(player, -ms, at))
        self._clock = clock
        self._penalties.append(Penalty(player, kind, seconds, article, at))
        if kind in ("loss", "expulsion"):
            self._end(Outcome(win_for(not player), "arbiter-decision", article, at))

    def _arbiter_decide(self, event: Event) -> None:
        claim = self._pending_claim
        if claim is None:
            raise _refuse("no-pending-claim", N_("No claim waits for a decision."))
        decision = event.args.get("decision")
        at = event.at
        article = self.edition.article("quickplay-finish")
        clock = self._clock
        assert clock is not None
        if decision == "draw":
            self._last_claim = "upheld"
            self._end(Outcome(DRAW, "quickplay-finish", article, at))
            return
        if decision not in ("reject", "postpone"):
            raise _refuse(
                "bad-argument",
                N_("A decision is draw, reject or postpone, not {decision!r}."),
                decision=decision,
            )
        rule = self.edition.quickplay_finish
        if decision == "reject":
            ms = rule.reject_penalty_s * 1000 if rule else 0
        else:
            ms = _seconds_ms(event.args.get("seconds", 0), "seconds")
        if ms:
            clock = clock.add_time(not claim.claimant, ms, at)
        if not clock.running:
            clock = clock.restart(at)
        self._clock = clock
        if ms:
            self._penalties.append(
                Penalty(claim.claimant, "time-added-to-opponent", ms // 1000, article, at)
            )
        if decision == "reject":
            # The claim stays a draw offer until the opponent answers it (9.1).
            self._pending_claim = None
            self._last_claim = "rejected"
        else:
            self._last_claim = "pending"

    def _arbiter_restore(self, event: Event) -> None:
        raw = event.args.get("ply")
        completed = len(self._plies)
        if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw <= completed:
            raise _refuse(
                "bad-argument",
                N_("'ply' must be a half-move number from 0 to {last}, not {ply!r}."),
                last=completed,
                ply=raw,
            )
        kept = self._plies[:raw]
        clock = self._clock
        if clock is not None and self._started:
            clock = clock.hand_over(self._position_after(kept).turn, event.at)
        self._clock = clock
        self._reset_position(kept)
        self._offer = None
        self._must_play = None

    def _arbiter_result(self, event: Event) -> None:
        result = event.args.get("result")
        if result not in RESULTS or result == "*":
            raise _refuse(
                "bad-argument",
                N_("A result is 1-0, 0-1 or 1/2-1/2, not {result!r}."),
                result=result,
            )
        reason = event.args.get("reason")
        termination = reason if reason in TERMINATIONS else "arbiter-decision"
        article = self.edition.article(str(termination)) or self.edition.article("arbiter-decision")
        self._end(Outcome(str(result), str(termination), article, event.at))

    # -- adjournment (Appendix A) -----------------------------------------------------------

    def _check_adjourned(self, adj: _Adjournment, *, restore: bool = False) -> None:
        """Nothing happens at the board between the sealing and the opening of the envelope."""
        if adj.phase == "sealed" or (restore and not adj.opened):
            raise _refuse(
                "game-adjourned",
                N_("The game is adjourned: it continues when the arbiter resumes it."),
                article=self.edition.article("resumption") or None,
            )
        if adj.phase == "resuming" and not adj.opened:
            raise _refuse(
                "envelope-closed",
                N_(
                    "The envelope has not been opened: the sealed move is opened only when the "
                    "player who must answer it is at the board."
                ),
                article=self.edition.article("open-envelope") or None,
            )

    def _check_not_ordered(self, adj: _Adjournment) -> None:
        if adj.phase == "ordered":
            raise _refuse(
                "seal-required",
                N_(
                    "The arbiter has adjourned the game: write your move on the scoresheet and "
                    "seal it instead of pressing the clock."
                ),
                article=self.edition.article("adjourn") or None,
            )

    def _on_adjourn(self, event: Event) -> None:
        if event.by != "arbiter":
            raise _refuse("not-arbiter", N_("Only the arbiter can do this."))
        self._check_on(event.at)
        self._check_started()
        article = self.edition.article("adjourn")
        if not article:
            raise _refuse("adjournment-not-allowed", N_("These rules have no adjourned games."))
        if self._adjournment is not None:
            raise _refuse("already-adjourned", N_("The game is already adjourned."), article)
        if self._pending_claim is not None:
            raise _refuse("claim-pending", N_("A claim waits for the arbiter's decision."))
        raw_end = event.args.get("session_end")
        session_end = None if raw_end is None else _seconds_ms(raw_end, "session_end")
        resumption = {
            key: str(event.args[key])
            for key in ("date", "time", "place")
            if event.args.get(key) is not None
        }
        self._adjournment = _Adjournment(self._to_move(), "ordered", session_end, resumption)

    def _on_seal(self, event: Event) -> None:
        color = _player(event.by)
        at = event.at
        self._check_on(at)
        self._check_started()
        adj = self._adjournment
        article = self.edition.article("adjourn") or None
        # A9: the player who must answer, his opponent absent, may seal his reply instead.
        reply = (
            adj is not None
            and adj.phase == "resuming"
            and adj.opened
            and adj.present is not None
            and (not color) not in adj.present
        )
        if adj is None or (adj.phase != "ordered" and not reply):
            if adj is not None and not adj.opened:
                raise _refuse(
                    "envelope-sealed",
                    N_("The envelope is sealed: the sealed move can no longer be changed."),
                    article,
                )
            raise _refuse(
                "no-adjournment",
                N_("Only a move the arbiter has asked for at an adjournment is sealed."),
                article,
            )
        if color != self._to_move():
            raise _refuse("not-your-turn", N_("Only the player to move seals his move."), article)
        stop = event.args.get("stop", True)
        if not isinstance(stop, bool) or (reply and not stop):
            raise _refuse("bad-argument", N_("'stop' must be true or false."))
        written = text, token, lang = self._written(event)
        pending = self._pending_move
        if pending is not None:
            # A1: a move made on the board after the order is the move to seal.
            before = self._position_after(self._plies[:-1])
            reading = None if text is None else read_written(text, before, lang)
            if reading is None or not reading.ok or reading.move != pending.move:
                raise _refuse(
                    "sealed-move-differs",
                    N_(
                        "The move made on the board after the arbiter's order must be written "
                        "as the sealed move."
                    ),
                    article,
                )
            self._reset_position(self._plies[:-1])  # A5: the position before the sealed move
        if reply:
            self._seal_reply(adj, color, written, at)
            return
        adj.text, adj.token, adj.lang = text, token, lang
        if stop:
            self._close_envelope(adj, at)
        else:
            adj.draft = True

    def _written(self, event: Event) -> tuple[str | None, str | None, str]:
        """The sealed move as the event carries it: in clear (``move``) or sealed with a key
        (``envelope``); and its notation language."""
        text, token = event.args.get("move"), event.args.get("envelope")
        lang = event.args.get("lang", self._lang)
        if (text is None) == (token is None) or not isinstance(lang, str):
            raise _refuse("bad-argument", N_("A sealed move needs either 'move' or 'envelope'."))
        if not isinstance(text or token, str) or not str(text or token).strip():
            raise _refuse("bad-argument", N_("A move is needed (SAN or UCI)."))
        return (
            None if text is None else str(text),
            None if token is None else str(token),
            lang,
        )

    def _record(
        self, sealer: Color, at: int, extra_used: int, resumption: dict[str, str]
    ) -> Envelope:
        clock = self._clock
        readings = used = None
        if clock is not None:
            readings = (clock.remaining(WHITE, at), clock.remaining(BLACK, at))
            used_now = list(self._used)
            used_now[sealer] += extra_used
            used = (used_now[WHITE], used_now[BLACK])
        return Envelope(
            number=len(self._envelopes) + 1,
            sealer=sealer,
            move_number=self._board.fullmove_number,
            fen=self._board.fen(),
            players=self.setup.players,
            clock=readings,
            used=used,
            draw_offer=self._offer,
            sealed_at=at,
            resumption=dict(resumption),
        )

    def _close_envelope(self, adj: _Adjournment, at: int) -> None:
        """The sealer has put the envelope together and stops the clocks (A1)."""
        clock = self._clock
        turn = 0
        if clock is not None:
            if clock.running:
                turn = clock.turn_used + at - clock.since
                clock = clock.stop(at)
            if adj.session_end is not None and at < adj.session_end:
                # A1: sealing before the session's nominal end is charged up to that end.
                charge = adj.session_end - at
                clock = clock.add_time(adj.sealer, -charge, at)
                self._used[adj.sealer] += charge
            self._clock = clock
        envelope = self._record(adj.sealer, at, turn, adj.resumption)
        self._envelopes.append(envelope)
        adj.envelope = envelope
        adj.phase = "sealed"
        adj.draft = False

    def _seal_reply(
        self, adj: _Adjournment, color: Color, written: tuple[str | None, str | None, str], at: int
    ) -> None:
        """A9: the reply sealed in a new envelope; the replier's clock stops and the absent
        player's starts."""
        clock = self._clock
        clock_after = None
        if clock is not None:
            if not clock.running:
                clock = clock.restart(at)
            self._used[color] += clock.turn_used + at - clock.since
            clock = clock.press(at, color)
            clock_after = clock.remaining(color, at)
            self._clock = clock
        envelope = self._record(color, at, 0, adj.resumption)
        self._envelopes.append(envelope)
        text, token, lang = written
        self._adjournment = _Adjournment(
            color,
            "resuming",
            None,
            adj.resumption,
            text=text,
            token=token,
            lang=lang,
            envelope=envelope,
            pressed_at=at,
            clock_after=clock_after,
            started=adj.started,
            present=adj.present,
        )

    def _on_resume(self, event: Event) -> None:
        if event.by != "arbiter":
            raise _refuse("not-arbiter", N_("Only the arbiter can do this."))
        at = event.at
        self._check_on(at)
        adj = self._adjournment
        if adj is None or adj.envelope is None:
            raise _refuse(
                "not-adjourned",
                N_("No sealed envelope waits for the resumption."),
                article=self.edition.article("resumption") or None,
            )
        present, missing, opens = self._resumption(adj, event)
        text = self._sealed_text(adj, event) if opens else None
        first = adj.phase == "sealed"
        if first:
            adj.phase = "resuming"
            adj.started = at
            adj.present = set()
        assert adj.present is not None
        adj.present |= present
        if missing:
            # A11: play goes on from the adjourned position; the sealer makes the move he says
            # he sealed.
            adj.opened = True
            if self._clock is not None and not self._clock.running:
                self._clock = self._clock.restart(at)
        elif first and not opens:
            # A9: the player who must answer is absent: his clock is started.
            self._press_sealed(adj, at)
        if text is not None:
            self._open(adj, text, at, press=first)
        if self._adjournment is adj and adj.opened and len(adj.present) == 2:
            self._adjournment = None

    def _present(self, raw: Any) -> set[Color]:
        names = raw if isinstance(raw, list) else None
        colors = None if names is None else {_PLAYERS.get(str(name)) for name in names}
        if colors is None or None in colors:
            raise _refuse(
                "bad-argument",
                N_("'present' lists the players at the board: white, black, both or none."),
            )
        return {c for c in colors if c is not None}

    def _resumption(self, adj: _Adjournment, event: Event) -> tuple[set[Color], bool, bool]:
        """The players present, whether the envelope is missing (A11), and whether the
        envelope is opened now: it is there, not yet opened, and its answerer is present.

        :raises GameError: ``bad-argument`` for a bad ``present`` or ``missing``.
        """
        present = self._present(event.args.get("present"))
        missing = event.args.get("missing", False)
        if not isinstance(missing, bool) or (missing and adj.phase != "sealed"):
            raise _refuse(
                "bad-argument",
                N_("'missing' (the envelope cannot be found) is said when the resumption begins."),
            )
        opens = not missing and not adj.opened and (not adj.sealer) in present
        return present, missing, opens

    def _sealed_text(self, adj: _Adjournment, event: Event) -> str:
        if adj.text is not None:
            return adj.text
        assert adj.token is not None
        raw = event.args.get("key")
        if not isinstance(raw, str):
            raise _refuse(
                "envelope-key-missing",
                N_("Opening this envelope needs its key."),
                article=self.edition.article("open-envelope") or None,
            )
        return open_sealed(adj.token, key_bytes(raw))

    def _press_sealed(self, adj: _Adjournment, at: int) -> None:
        """The sealed move is completed on the clock (not yet on the board)."""
        clock = self._clock
        if clock is None:
            adj.pressed_at = at
            return
        if not clock.running:
            clock = clock.restart(at)
        self._used[adj.sealer] += clock.turn_used
        clock = clock.press(at, adj.sealer)
        adj.pressed_at = at
        adj.clock_after = clock.remaining(adj.sealer, at)
        self._clock = clock

    def _open(self, adj: _Adjournment, text: str, at: int, *, press: bool) -> None:
        """Open the envelope and make the sealed move on the board (A9); an ambiguous,
        unreadable or illegal sealed move loses (A8)."""
        sealer = adj.sealer
        answerer = not sealer
        adj.opened = True
        assert adj.envelope is not None
        opened = replace(adj.envelope, opened=True, move=text)
        self._envelopes[opened.number - 1] = opened
        adj.envelope = opened
        board = self._board
        reading = read_written(text, board, adj.lang)
        if not reading.ok or reading.move is None:
            # Unless the opponent could not mate anyway (6.10, 9.6).
            drawn = cannot_mate(board, answerer)
            self._end(
                Outcome(
                    DRAW if drawn else win_for(answerer),
                    "sealed-move-invalid",
                    self.edition.article("sealed-move-invalid"),
                    at,
                )
            )
            return
        offer = self._offer
        clock = self._clock
        if press and clock is not None and not clock.running:
            self._clock = clock.restart(at)
        self._make(sealer, Resolved(reading.move), at)
        if self._outcome is not None:
            self._pending_move = None
            return
        if offer == answerer:
            self._offer = offer  # A4: the offer stands until the sealer answers it
        if press:
            self._complete(sealer, at)
        else:
            ply = self._pending_move
            assert ply is not None
            ply.pressed_at = adj.pressed_at
            ply.clock_after = adj.clock_after
            self._pending_move = None

    def __repr__(self) -> str:
        state = self.state()
        return (
            f"<Game {self.edition.id} {self.kind.value} {self.setup.control} "
            f"{len(self._plies)} plies {state.result}>"
        )


def has_legal_move(board: chess.Board) -> bool:
    """Whether the side to move has a legal move; the same answer as
    ``any(board.generate_legal_moves())``, found faster in the usual case.

    When the king is not in check, a piece that is not pinned can go to any square it attacks
    that does not hold one of its own pieces, and a pawn that is not pinned can step onto an
    empty square: either proves a legal move without generating any.
    """
    if board.is_check():
        return any(board.generate_legal_moves())
    turn = board.turn
    own = board.occupied_co[turn]
    king = board.king(turn)
    if king is None:
        return any(board.generate_legal_moves())
    free = own & ~board._slider_blockers(king) & ~board.kings
    pawns = free & board.pawns
    ahead = (pawns << 8) if turn == WHITE else (pawns >> 8)
    if ahead & chess.BB_ALL & ~board.occupied:
        return True
    for square in chess.scan_forward(free & ~board.pawns):
        if board.attacks_mask(square) & ~own:
            return True
    return any(board.generate_legal_moves())


def _move_text(move: str | chess.Move) -> str:
    return move.uci() if isinstance(move, chess.Move) else move


__all__ = ["Game", "GameState", "Outcome", "Penalty", "Ply"]
