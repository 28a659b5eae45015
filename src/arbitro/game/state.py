"""What the Laws make of a game at an instant: outcome, penalties, and a snapshot of it all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arbitro.color import ByColor, Color, color_name

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

TERMINATIONS = (
    "checkmate",
    "resignation",
    "stalemate",
    "dead-position",
    "agreement",
    "threefold-repetition",
    "fifty-moves",
    "fivefold-repetition",
    "seventy-five-moves",
    "time-forfeit",
    "time-forfeit-draw",
    "both-flags",
    "illegal-move",
    "illegal-move-draw",
    "quickplay-finish",
    "arbiter-decision",
    "adjournment-lateness",
    "sealed-move-invalid",
    "late-arrival",
)


def win_for(color: Color) -> str:
    return "1-0" if color else "0-1"


def points_of(result: str) -> ByColor[float] | None:
    """Law 11.1 (10.1 from 2014): one point for a win, half for a draw, none for a loss."""
    return {
        "1-0": ByColor(1.0, 0.0),
        "0-1": ByColor(0.0, 1.0),
        "1/2-1/2": ByColor(0.5, 0.5),
    }.get(result)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended: the result, the termination code, the article, and when."""

    result: str
    termination: str
    article: str
    at: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "termination": self.termination,
            "article": self.article,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class Penalty:
    """A penalty applied: ``player`` is the one penalised."""

    player: Color
    kind: str
    seconds: int | None
    article: str
    at: int

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player": color_name(self.player), "kind": self.kind}
        if self.seconds is not None:
            data["seconds"] = self.seconds
        data["article"] = self.article
        return data


@dataclass(frozen=True, slots=True)
class GameState:
    """A snapshot of everything derived from the log, at the instant ``at``."""

    at: int
    fen: str
    to_move: Color
    result: str
    termination: str | None
    article: str | None
    points: ByColor[float] | None
    clock: ByColor[int] | None
    running: bool
    flags: ByColor[int | None]
    illegal_moves: ByColor[int]
    penalties: tuple[Penalty, ...]
    claim: str | None
    pending: str
    draw_offer: Color | None
    kind: str
    plies: int
    sealed: bool = False
    #: ``ordered``, ``sealed`` or ``resuming`` while an adjournment is in progress.
    adjournment: str | None = None

    @property
    def is_over(self) -> bool:
        return self.result != "*"

    def to_dict(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "fen": self.fen,
            "to_move": color_name(self.to_move),
            "result": self.result,
            "termination": self.termination,
            "article": self.article,
            "points": None
            if self.points is None
            else {"white": self.points.white, "black": self.points.black},
            "clock": None
            if self.clock is None
            else {"white": self.clock.white, "black": self.clock.black},
            "running": self.running,
            "illegal_moves": {"white": self.illegal_moves.white, "black": self.illegal_moves.black},
            "penalties": [p.to_dict() for p in self.penalties],
            "claim": self.claim,
            "pending": self.pending,
            "draw_offer": None if self.draw_offer is None else color_name(self.draw_offer),
            "kind": self.kind,
            "plies": self.plies,
            "sealed": self.sealed,
            "adjournment": self.adjournment,
        }
