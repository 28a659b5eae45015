"""Live games: the server's side of a game being played.

The server is the only clock: each command is stamped with the game time in ms, read from a
monotonic clock, applied to the game's :class:`~arbitro.game.Game` (which refuses bad commands
and changes nothing), committed to the store, and only then acknowledged and pushed to every
connected client. After a restart the game time resumes from the last event plus the wall time
that passed since it was committed, so clocks that were running went on running.

Store calls are short and synchronous; they run in a worker thread so that the event loop
keeps serving the other games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import chess

from arbitro.errors import ArbitroError, GameError
from arbitro.game import Event, Game, GameSetup, Ply
from arbitro.game.engine import cannot_mate
from arbitro.game.envelope import envelope_key, key_text, seal_move
from arbitro.game.events import COMMANDS
from arbitro.i18n import N_, gettext
from arbitro.notation.algebraic import format as write_move
from arbitro.notation.algebraic import write_body
from arbitro.notation.board_reading import (
    Command,
    check_style,
    help_text,
    read_clocks,
    read_file,
    read_rank,
)
from arbitro.notation.spoken import announce_known, hear
from arbitro.store import EventStore, StoreConflict
from arbitro.store.store import ROLES, StoredGame, hash_token, new_id, new_token, role_of
from arbitro.web.seal import SealSecret

#: What each role may do (the ``do`` of its commands).
_PLAYER = frozenset(
    {
        "play", "move", "press", "offer-draw", "accept-draw", "decline-draw", "claim", "resign",
        "seal",
    }
)  # fmt: skip
ALLOWED: dict[str, frozenset[str]] = {
    # White may start the clocks where no arbiter does (a game on one device).
    "white": _PLAYER | {"start"},
    "black": _PLAYER,
    "arbiter": frozenset(
        {"start", "stop-clocks", "restart-clocks", "arbiter", "adjourn", "resume"}
    ),
}

#: The commands that may ask whether a side can still mate (``Game.mate_questions``).
_MAY_ASK = frozenset({"resign", "claim", "resume"})

#: Largest whole number a command's argument may be (beyond any clock or ply count).
_LARGEST = 10**15
#: Longest list a command's argument may be (``present``: the players at the board).
_LONGEST = 8

_log = logging.getLogger(__name__)

T = TypeVar("T")

Clock = Callable[[], float]  # seconds, monotonic
WallClock = Callable[[], float]  # seconds since the epoch


def _wall_ms(wall: WallClock) -> int:
    return int(wall() * 1000)


@dataclass(slots=True, eq=False)
class Written:
    """A ply of the move list as shown: what never changes once it is written (its text and
    spoken words, kept as JSON: a server holds hundreds of games' plies, and text is nothing
    for the cycle collector to walk), and its JSON, written again only when its draw offer or
    clock changes."""

    ply: Ply
    #: The ply's fixed members as JSON, without the closing brace.
    fixed: str
    key: tuple[bool, int | None] | None = None
    text: str = ""

    def shown(self) -> dict[str, Any]:
        return json.loads(self.json())  # type: ignore[no-any-return]

    def json(self) -> str:
        key = (self.ply.draw_offer, self.ply.clock_after)
        if key != self.key:
            clock = "null" if key[1] is None else str(key[1])
            offer = "true" if key[0] else "false"
            self.text = f'{self.fixed},"draw_offer":{offer},"clock":{clock}}}'
            self.key = key
        return self.text


@dataclass(eq=False)
class LiveGame:
    """A game in play on this server: the engine's game, its store id, its time origin (the
    monotonic instant of game time 0) and the queues of its connected clients."""

    id: str
    game: Game
    spectator_id: str
    origin: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The move list as shown, kept between views: the plies written so far, and the position
    #: after them (so that a new ply is written without replaying the game).
    written: list[Written] = field(default_factory=list)
    written_board: chess.Board | None = None
    #: How many times plies already written were taken back (a correction, a reload): a client
    #: that saw another count gets the whole move list again.
    rewrites: int = 0
    clients: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    flag_timer: asyncio.TimerHandle | None = None
    #: The latest view text that all roles share, by the first ply sent: (seq, monotonic
    #: instant, text).
    views: dict[int, tuple[int, float, str]] = field(default_factory=dict)
    #: The hashes of the game's tokens (in the order of ROLES), once known: a connection's
    #: token is checked here rather than in the database (tokens never change).
    token_hashes: tuple[str | None, ...] | None = None

    @property
    def seq(self) -> int:
        return len(self.game.events)


class Refused(Exception):
    """A command refused before the engine saw it (role, format): code, message, status."""

    def __init__(self, error: ArbitroError, status: int = 403) -> None:
        super().__init__(error.code)
        self.error = error
        self.status = status


#: Searches for a mate (after a flag fall, a resignation, ...) run at once at most: each takes a
#: core and, in a hard position, some 170 MB for about a second; more would only slow them all.
SEARCHES_AT_ONCE = max(1, os.cpu_count() or 1)


class Hub:
    """Every live game of this server process, backed by the store."""

    def __init__(
        self,
        store: EventStore,
        *,
        clock: Clock = time.monotonic,
        wall: WallClock = time.time,
        seal_secret: Callable[[], bytes] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.wall = wall
        #: The secret envelopes' keys derive from (in memory only unless one is given).
        self.seal_secret = seal_secret or SealSecret(None)
        self.games: dict[str, LiveGame] = {}
        # Events waiting to be committed, and the task that commits them together.
        self._pending: list[tuple[tuple[str, int, dict[str, Any], int], asyncio.Future[None]]]
        self._pending = []
        self._writer: asyncio.Task[None] | None = None
        self._writing = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._searches = asyncio.Semaphore(SEARCHES_AT_ONCE)

    # -- time ------------------------------------------------------------------------------

    def now(self, live: LiveGame) -> int:
        """The game time of ``live`` now, in ms (never before its last event)."""
        at = int((self.clock() - live.origin) * 1000)
        return max(at, live.game.now)

    # -- games ------------------------------------------------------------------------------

    async def create(self, setup: GameSetup) -> tuple[LiveGame, dict[str, str]]:
        """Store a new game; the live game and the secret token of each role."""
        tokens = {role: new_token() for role in ROLES}
        spectator = new_id()
        origin = self.clock()
        game_id = await self._store_write(
            self.store.create_game, setup.to_dict(), tokens, spectator, _wall_ms(self.wall)
        )
        live = LiveGame(game_id, Game(setup), spectator, origin)
        live.token_hashes = tuple(hash_token(tokens[role]) for role in ROLES)
        self.games[game_id] = live
        return live, tokens

    async def get(self, game_id: str) -> LiveGame:
        """The live game ``game_id``, loaded from the store on first use (or after a restart).

        :raises GameError: ``unknown-game``.
        """
        live = self.games.get(game_id)
        if live is not None:
            return live
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
        except ArbitroError:
            raise GameError("unknown-game", N_("There is no such game.")) from None
        live = self.games.get(game_id)  # loaded meanwhile by another request
        if live is None:
            live = self._resume(stored)
            self.games[game_id] = live
        return live

    def _resume(self, stored: StoredGame) -> LiveGame:
        game = stored.replay()
        if stored.events:
            # Game time went on while the server was down: bridge the gap with wall time.
            last = stored.events[-1]
            elapsed = max(0, _wall_ms(self.wall) - last.wall_ms)
            resume_at = int(last.event["at"]) + elapsed
        elif stored.started_wall_ms is not None:
            resume_at = max(0, _wall_ms(self.wall) - stored.started_wall_ms)
        else:
            resume_at = 0
        origin = self.clock() - resume_at / 1000
        return LiveGame(stored.id, game, stored.spectator_id, origin)

    async def by_spectator(self, spectator_id: str) -> LiveGame:
        game_id = await asyncio.to_thread(self.store.game_for_spectator, spectator_id)
        if game_id is None:
            raise GameError("unknown-game", N_("There is no such game."))
        return await self.get(game_id)

    async def role(self, live: LiveGame, token: str | None) -> str | None:
        """The role ``token`` gives in the game (``None``: none)."""
        if not token:
            return None
        if live.token_hashes is None:
            live.token_hashes = await asyncio.to_thread(self.store.token_hashes, live.id)
            if live.token_hashes is None:
                return None
        return role_of(live.token_hashes, token)

    # -- commands ---------------------------------------------------------------------------

    async def command(self, live: LiveGame, role: str, command: dict[str, Any]) -> None:
        """Apply one command of ``role`` now, commit it, then tell every client.

        :raises Refused: a command the role may not send, or one that is not a command.
        :raises ArbitroError: the engine's refusal (nothing changed, nothing stored).
        """
        do = command.get("do")
        if not isinstance(do, str) or do not in ALLOWED.get(role, frozenset()):
            raise Refused(
                GameError(
                    "not-allowed",
                    N_("Your role in this game does not allow {do!r}."),
                    do=do[:40] if isinstance(do, str) else type(do).__name__,
                )
            )
        args = _arguments(do, command)
        text = args.get("move")
        if do in ("play", "move") and isinstance(text, str) and " " in text.strip():
            # Spoken-style words ("Caballo Félix tres"), as blind players announce moves.
            with contextlib.suppress(ArbitroError):
                args["move"] = hear(text, live.game.board).uci()
        async with live.lock:
            for attempt in range(3):
                at = self.now(live)
                if do in ("seal", "resume"):
                    args = self._envelope_args(live, do, args)
                event = Event.from_dict({"at": at, "by": role, "do": do, **args})
                if do in _MAY_ASK:
                    await self._answer_first(live, event)
                seq = live.seq
                try:
                    live.game.apply(event)  # raises on refusal, with nothing changed
                except ArbitroError:
                    raise
                except Exception:
                    # An argument the engine did not foresee (it should have refused it): the
                    # game may be half-changed, so it is read again, and the client is refused.
                    _log.exception("the engine failed on a %r command", do)
                    await self._reload(live)
                    raise GameError(
                        "bad-argument", N_("This command cannot be applied; nothing changed.")
                    ) from None
                try:
                    await self._commit((live.id, seq, event.to_dict(), _wall_ms(self.wall)))
                except StoreConflict:
                    # Another server process wrote this position first: take its log and
                    # try again on the new position.
                    await self._reload(live)
                    if attempt == 2:
                        raise
                    continue
                except BaseException:
                    await self._reload(live)  # the event was not stored: forget it
                    raise
                break
            if live.game.outcome(self.now(live)) is not None:
                await self._store_write(self.store.mark_finished, live.id)
        self.broadcast(live)
        current = self.games.get(live.id)
        if current is not None and current is not live:
            # The game was forgotten and loaded again meanwhile: that copy's clients learn of
            # the event too.
            await self.refresh(live.id, live.seq - 1)
        self._forget(live)

    def _envelope_args(self, live: LiveGame, do: str, args: dict[str, Any]) -> dict[str, Any]:
        """A sealed move never reaches the store in clear: it is encrypted here under its
        envelope's key; and the event that opens an envelope carries that key (A7, A9). A
        client can send neither a ciphertext nor a key of its own."""
        game = live.game
        clean = {k: v for k, v in args.items() if k not in ("envelope", "key", "stop")}
        if do == "resume":
            present = clean.get("present")
            envelope = game.envelope
            names = [str(name) for name in present] if isinstance(present, list) else []
            if envelope is not None and game.opens_envelope(names):
                key = envelope_key(self.seal_secret(), live.id, envelope.number)
                clean["key"] = key_text(key)
            return clean
        text = clean.pop("move", None)
        if not isinstance(text, str) or not text.strip():
            return clean  # the engine refuses it, saying what is missing
        lang = clean.get("lang", game.setup.notation)
        written = text.strip()
        if " " in written:
            # Spoken words ("Caballo Félix tres") are sealed as the move they name, written in
            # the game's notation, so that the opening reads what the player meant.
            with contextlib.suppress(ArbitroError, ValueError):
                board = game.board
                written = write_move(hear(written, board), board, game.setup.notation)
                lang = game.setup.notation
        key = envelope_key(self.seal_secret(), live.id, len(game.envelopes) + 1)
        return {**clean, "lang": lang, "envelope": seal_move(written, key, os.urandom(12))}

    async def _commit(self, item: tuple[str, int, dict[str, Any], int]) -> None:
        """Commit one event; returns once it is committed (group commit: the events of all
        games that arrive while a commit runs are written by the next one, together).

        :raises ArbitroError: the store's refusal of this event (nothing written).
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        await future

    async def _store_write(self, write: Callable[..., T], *args: Any) -> T:
        """Run a store call that writes, in a worker thread, one at a time in this process:
        SQLite has one writer at a time, and a writer that finds the database locked sleeps
        in steps of many ms, however soon the lock is free (all moves would wait on it)."""
        async with self._writing:
            return await asyncio.to_thread(write, *args)

    async def _write_loop(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:256], self._pending[256:]
            try:
                results = await self._store_write(
                    self.store.append_many, [item for item, _ in batch]
                )
            except BaseException as error:  # the database failed: nothing of it is written
                for _, future in batch:
                    if not future.done():
                        future.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
                continue
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if result is None:
                    future.set_result(None)
                else:
                    future.set_exception(result)

    async def _reload(self, live: LiveGame) -> None:
        stored = await asyncio.to_thread(self.store.load, live.id)
        live.game = stored.replay()

    async def refresh(self, game_id: str, seq: int) -> None:
        """Another process committed event ``seq`` of ``game_id``: catch up and tell clients."""
        live = self.games.get(game_id)
        if live is None or live.seq > seq:
            return
        async with live.lock:
            if live.seq <= seq:
                await self._reload(live)
        self.broadcast(live)

    # -- clients ----------------------------------------------------------------------------

    def subscribe(self, live: LiveGame) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=64)
        live.clients.add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[dict[str, Any]]) -> None:
        live.clients.discard(queue)
        self._forget(live, finished_only=False)

    def _forget(self, live: LiveGame, *, finished_only: bool = True) -> None:
        """A game that no client follows leaves the server's memory: it is in the store, and
        loaded again when asked for, its clocks resumed from the wall time (an abandoned game
        goes on, in the store). Memory stays flat however many games are played. After an HTTP
        command only a finished game is forgotten (clients without WebSockets come back)."""
        if live.clients:
            return
        if finished_only and live.game.outcome(self.now(live)) is None:
            return
        if self.games.get(live.id) is live:
            del self.games[live.id]
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        live.views.clear()

    def view_text(
        self, live: LiveGame, role: str | None, known: tuple[int, int] | None = None
    ) -> tuple[str, tuple[int, int]]:
        """The view of ``role`` now, as JSON text, for a client that already has ``known``
        (how many plies of the move list, and the game's rewrite count it saw; ``None``: a new
        client). Only the plies it lacks are sent, and the last one it has (which may have
        gained a clock or a draw offer): ``moves_from`` says where they go. Returns the text and
        what the client then knows. All clients share what does not depend on the role while
        the game has not changed (within a few ms)."""
        written = _write(live)
        start = 0
        if known is not None and known[1] == live.rewrites:
            start = max(0, min(known[0], len(written)) - 1)
        now = self.clock()
        cached = live.views.get(start)
        if cached is not None and cached[0] == live.seq and now - cached[1] < 0.02:
            body = cached[2]
        else:
            # What every role sees alike, and the move list spliced in as JSON written once
            # per ply: a view costs what changed, not the length of the game nor the number
            # of clients.
            shared = json.dumps(_shared_view(live, self.now(live)), separators=(",", ":"))
            moves = ",".join(item.json() for item in written[start:])
            body = f'{shared[1:-1]},"moves_from":{start},"moves":[{moves}]}}'
            if any(seq != live.seq for seq, _, _ in live.views.values()):
                live.views.clear()  # texts of earlier positions: no client needs them again
            live.views[start] = (live.seq, now, body)
        head = json.dumps(_role_view(live, role), separators=(",", ":"))
        return f"{head[:-1]},{body}", (len(written), live.rewrites)

    def broadcast(self, live: LiveGame) -> None:
        """Tell every client of ``live`` that it changed (they ask for their own view), and
        set a timer for the next flag fall, which changes the game without any command."""
        notice = {"type": "changed", "seq": live.seq}
        for queue in list(live.clients):
            with contextlib.suppress(asyncio.QueueFull):  # a slow client catches up later
                queue.put_nowait(notice)
        self._arm_flag_timer(live)

    def _arm_flag_timer(self, live: LiveGame) -> None:
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        now = self.now(live)
        # None also when the flag has fallen already: the players (or the arbiter) act on it.
        fall = live.game.next_flag_fall(now)
        if fall is None:
            return
        loop = asyncio.get_running_loop()
        live.flag_timer = loop.call_later((fall - now) / 1000 + 0.05, self._flag_fell, live)

    def _flag_fell(self, live: LiveGame) -> None:
        """A flag has fallen: whether the opponent can still mate (6.9) is answered in a worker
        thread (a search may take a second or more, while every game of the server would
        wait), then every client hears of it."""
        live.flag_timer = None
        question = live.game.flag_question(self.now(live))
        if question is None:
            self.broadcast(live)
            return
        task = asyncio.get_running_loop().create_task(self._answer_flag(live, question))
        self._tasks.add(task)  # a task nothing refers to may be collected before it ends
        task.add_done_callback(self._tasks.discard)

    async def _answer_first(self, live: LiveGame, event: Event) -> None:
        """Answer in a worker thread the "can this side still mate?" questions ``event`` may
        ask (a resignation, a claim of an illegal move, a sealed move opened): the game then
        finds them remembered, and no search runs while every game of the server waits."""
        for question in live.game.mate_questions(event):
            await self._search(question)

    async def _answer_flag(self, live: LiveGame, question: tuple[chess.Board, bool]) -> None:
        await self._search(question)
        self.broadcast(live)

    async def _search(self, question: tuple[chess.Board, bool]) -> None:
        """Answer one "can this side still mate?" in a worker thread, ``SEARCHES_AT_ONCE`` at
        most at a time (the answer is remembered for the game to find)."""
        async with self._searches:
            with contextlib.suppress(Exception):  # the game then asks it itself
                await asyncio.to_thread(cannot_mate, *question)


def _arguments(do: str, command: dict[str, Any]) -> dict[str, Any]:
    """The arguments of a client's command: only the keys its event may carry (anything else
    would be stored in the log for nothing), each a text, a number, true/false or a short list
    of them — a nested or enormous value could make the log unreadable for every client.

    :raises Refused: an argument of another kind (422).
    """
    args = {key: command[key] for key in COMMANDS.get(do, ()) if key in command}
    for name, value in args.items():
        items = value if isinstance(value, list) and len(value) <= _LONGEST else [value]
        if not all(_plain(item) for item in items):
            raise Refused(
                GameError(
                    "bad-argument",
                    N_("{name!r} must be a text, a number or a short list of them."),
                    name=name,
                ),
                422,
            )
    return args


def _plain(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) <= _LARGEST
    if isinstance(value, int):  # and bool
        return abs(value) <= _LARGEST
    return value is None or isinstance(value, str)


def view(live: LiveGame, at: int, role: str | None, *, moves: bool = True) -> dict[str, Any]:
    """What a client of ``role`` (``None``: a spectator) sees at game time ``at`` (without the
    move list when ``moves`` is false: :meth:`Hub.view_text` adds it as JSON)."""
    data = {**_role_view(live, role), **_shared_view(live, at)}
    if moves:
        data["moves"] = _moves(live)
    return data


def _role_view(live: LiveGame, role: str | None) -> dict[str, Any]:
    """The part of a view that depends on the role."""
    game = live.game
    return {
        "type": "state",
        "role": role or "spectator",
        "orientation": "black" if role == "black" else "white",
        # The log is the arbiter's: players and spectators follow the moves and the state.
        "log": [_shown(event) for event in game.events] if role == "arbiter" else [],
        "spectator": live.spectator_id if role == "arbiter" else None,
    }


def _shared_view(live: LiveGame, at: int) -> dict[str, Any]:
    """The part of a view that every role sees alike (computed once for all of them)."""
    game = live.game
    setup = game.setup
    state = game.state(at)
    white, black = setup.players or ("", "")
    return {
        "id": live.id,
        "seq": live.seq,
        "at": at,
        "setup": {
            "white": white,
            "black": black,
            "edition": game.edition.id,
            "time_control": setup.control.text() if setup.control.is_timed else None,
            "board": setup.board.value,
            "notation": setup.notation,
            "kind": state.kind,
        },
        "state": {
            **state.to_dict(),
            "flags": {"white": state.flags.white, "black": state.flags.black},
        },
        "started": game.started,
        # What is written on the envelope of an adjourned game (A2): never the sealed move
        # before the envelope is opened.
        "envelope": None if game.envelope is None else game.envelope.to_dict(),
    }


def _shown(event: Event) -> dict[str, Any]:
    """An event of the log as the arbiter's console shows it: a sealed envelope and its key are
    not for reading (the move appears once the envelope is opened, on the board)."""
    data = event.to_dict()
    if "envelope" in data:
        data["envelope"] = "sealed"
    if "key" in data:
        data["key"] = "released"
    return data


def _write(live: LiveGame) -> list[Written]:
    """The move list, written once per ply: only the plies added since the last view are
    written (the list starts again when earlier plies changed, after a correction)."""
    game = live.game
    plies = game.plies
    written = live.written
    keep = 0
    while keep < len(written) and keep < len(plies) and written[keep].ply is plies[keep]:
        keep += 1
    board = live.written_board
    if keep < len(written) or board is None:
        if keep < len(written):
            live.rewrites += 1
        del written[keep:]
        board = chess.Board(game.setup.start_fen)
        for ply in plies[:keep]:
            board.push(ply.move)
    lang = game.setup.notation
    for number, ply in enumerate(plies[keep:], start=keep + 1):
        text, spoken = _written(ply, board, lang)
        entry = {
            "ply": number,
            "color": "white" if ply.color else "black",
            "text": text,
            "legal": ply.legal,
            "spoken": spoken,
        }
        written.append(Written(ply, json.dumps(entry, separators=(",", ":"))[:-1]))
        board.push(ply.move)
    board.clear_stack()  # only the position is needed: no stack of earlier ones to keep
    live.written_board = board
    return written


def _moves(live: LiveGame) -> list[dict[str, Any]]:
    """The move list as data (draw offers and clocks read fresh: a ply gains them after it is
    written)."""
    return [item.shown() for item in _write(live)]


def _written(ply: Ply, board: chess.Board, lang: str) -> tuple[str, dict[str, str] | None]:
    """The ply as the move list writes it in ``lang``, and as it is announced in every spoken
    style (Appendix F: a blind player's page speaks the very words of ``arbitro announce``);
    a move that was not legal is written in UCI, and not announced. Check and mate are found
    once for both."""
    move = ply.move
    if not ply.legal or not board.is_legal(move):
        return move.uci(), None
    board.push(move)
    check = board.is_check()
    mate = check and board.is_checkmate()
    board.pop()
    ending: Literal["check", "mate"] | None = "mate" if mate else "check" if check else None
    text = write_body(move, board, lang) + ("#" if mate else "+" if check else "")
    return text, announce_known(move, board, ending)


def read_aloud(
    live: LiveGame, at: int, role: str | None, command: Command, *, style: str, lang: str
) -> str:
    """The answer to a blind player's command at game time ``at``: a rank or file of the
    position in the words of ``style``, both clocks, the opponent's last move (the last move,
    for an arbiter or a spectator) or the list of commands, in ``lang``.

    :raises NotationError: ``unknown-language`` for an unknown style.
    """
    check_style(style)
    game = live.game
    if command.kind in ("rank", "file"):
        fen = game.board.fen()
        index = command.index or 0
        if command.kind == "rank":
            return read_rank(fen, index, style)
        return read_file(fen, index, style)
    if command.kind == "clocks":
        state = game.state(at)
        if state.clock is None:
            return read_clocks(None, None, lang)
        text = read_clocks(state.clock.white, state.clock.black, lang)
        if not state.running:
            text += " " + gettext(N_("The clocks are stopped."), lang)
        return text
    if command.kind == "repeat":
        for entry in reversed(_moves(live)):
            if entry["color"] != role:
                side = gettext(N_("White") if entry["color"] == "white" else N_("Black"), lang)
                spoken = entry["spoken"] or {}
                move = spoken.get(style, entry["text"])
                return gettext(N_("{side} played {move}."), lang).format(side=side, move=move)
        return gettext(N_("No move to repeat yet."), lang)
    return help_text(lang)
