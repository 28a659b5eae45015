"""What happens at the board, as data: the game's setup and its events.

A game's log is its :class:`GameSetup` and the list of its :class:`Event` values; everything
else is derived from them. Both serialise to JSON-able dicts and back exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

import chess

from arbitro.editions import Edition, Supervision
from arbitro.errors import ArbitroError, GameError
from arbitro.gamekind import Kind
from arbitro.i18n import N_
from arbitro.notation.letters import letters_for
from arbitro.timecontrol import TimeControl

ACTORS = ("white", "black", "arbiter")

#: Every ``do`` a game accepts, with the keys its event may carry.
COMMANDS: dict[str, tuple[str, ...]] = {
    "start": (),
    "move": ("move",),
    "press": (),
    "play": ("move",),
    "offer-draw": (),
    "accept-draw": (),
    "decline-draw": (),
    "claim": ("claim", "move"),
    "resign": (),
    "stop-clocks": (),
    "restart-clocks": (),
    "arbiter": (
        "action", "player", "seconds", "white", "black", "penalty", "decision", "ply",
        "result", "reason",
    ),
    # Appendix A: the arbiter adjourns, the player to move seals, the arbiter resumes.
    "adjourn": ("session_end", "date", "time", "place"),
    "seal": ("move", "envelope", "lang", "stop"),
    "resume": ("present", "missing", "key"),
}  # fmt: skip


class BoardMode(StrEnum):
    """How moves are taken: refused when illegal (online), or recorded as made (wooden board)."""

    ENFORCED = "enforced"
    PHYSICAL = "physical"


_NO_ARGS: Mapping[str, Any] = MappingProxyType({})


class Event(NamedTuple):
    """One thing that happened at the board: at ``at`` ms, ``by`` an actor, ``do`` a command,
    with the command's arguments. An immutable value (a named tuple: a replay creates one for
    every move).

    >>> Event(2_000, "white", "play", {"move": "e2e4"}).to_dict()
    {'at': 2000, 'by': 'white', 'do': 'play', 'move': 'e2e4'}
    """

    at: int
    by: str
    do: str
    args: Mapping[str, Any] = _NO_ARGS

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "by": self.by, "do": self.do, **self.args}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """:raises GameError: ``bad-event`` for a dict that is not an event."""
        try:
            at, by, do = data["at"], data["by"], data["do"]
        except (KeyError, TypeError):
            raise GameError(
                "bad-event", N_("An event needs 'at', 'by' and 'do': {data!r}."), data=data
            ) from None
        if not isinstance(at, int) or isinstance(at, bool):
            raise GameError("bad-event", N_("'at' must be whole milliseconds: {at!r}."), at=at)
        args = {k: v for k, v in data.items() if k not in ("at", "by", "do")}
        return cls(at, str(by), str(do), args)


@dataclass(frozen=True, slots=True)
class GameSetup:
    """How a game is played: edition, time control, kind, board mode, supervision, start."""

    edition: Edition
    control: TimeControl
    kind: Kind
    board: BoardMode = BoardMode.ENFORCED
    supervision: Supervision = Supervision.ADEQUATE
    start_fen: str = chess.STARTING_FEN
    notation: str = "en"
    players: tuple[str, str] | None = None
    #: Whether a quickplay finish was announced (2014 onward it must be; default: yes).
    quickplay_finish: bool = True
    #: Whether the kind was declared rather than derived from the time control.
    kind_declared: bool = False

    @classmethod
    def create(
        cls,
        edition: str | Edition = "fide-2023",
        time_control: str | TimeControl | None = None,
        *,
        kind: str | Kind | None = None,
        board: str | BoardMode = BoardMode.ENFORCED,
        supervision: str | Supervision = Supervision.ADEQUATE,
        start: str | None = None,
        notation: str = "en",
        players: tuple[str, str] | None = None,
        quickplay_finish: bool = True,
    ) -> GameSetup:
        """A setup from plain values (ids, texts). ``time_control`` None means no clock.

        :raises ArbitroError: for an unknown edition, an unreadable time control, a bad FEN or
            an unknown kind, board mode or supervision.
        """
        chosen = edition if isinstance(edition, Edition) else Edition.get(edition)
        if time_control is None:
            control = TimeControl.untimed()
        elif isinstance(time_control, TimeControl):
            control = time_control
        else:
            control = TimeControl.parse(time_control)
        declared = kind is not None
        try:
            derived = Kind(kind) if kind is not None else control.kind(chosen)
            mode = BoardMode(board)
            sup = Supervision(supervision)
        except ValueError as error:
            raise GameError("bad-setup", N_("Bad game setup: {error}."), error=str(error)) from None
        try:
            letters_for(notation)
        except ArbitroError as error:
            raise GameError.like(error) from None
        fen = chess.STARTING_FEN if start in (None, "startpos") else str(start)
        try:
            chess.Board(fen)
        except ValueError as error:
            raise GameError(
                "bad-fen", N_("Cannot read the FEN {fen!r}: {error}."), fen=fen, error=str(error)
            ) from None
        return cls(
            chosen, control, derived, mode, sup, fen, notation, players, quickplay_finish, declared
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "edition": self.edition.id,
            "time_control": self.control.text() if self.control.is_timed else None,
            "board": self.board.value,
            "supervision": self.supervision.value,
            "start": self.start_fen,
            "notation": self.notation,
            "quickplay_finish": self.quickplay_finish,
        }
        if self.kind_declared:
            data["kind"] = self.kind.value
        if self.players is not None:
            data["players"] = {"white": self.players[0], "black": self.players[1]}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        players = data.get("players")
        return cls.create(
            data.get("edition", "fide-2023"),
            data.get("time_control"),
            kind=data.get("kind"),
            board=data.get("board", "enforced"),
            supervision=data.get("supervision", "adequate"),
            start=data.get("start"),
            notation=data.get("notation", "en"),
            players=(players["white"], players["black"]) if players else None,
            quickplay_finish=bool(data.get("quickplay_finish", True)),
        )
