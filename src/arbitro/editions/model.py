"""The shape of an edition: its data fields and the few policies that really differ.

Every edition is an :class:`Edition` value; nothing else in arbitro asks "which edition is
this?" — it asks the edition (``edition.illegal_move(kind, supervision)``,
``edition.incorrect_claim_penalty(kind)``, ...). Values the research marks as unconfirmed are
listed in ``Edition.uncertain`` and flagged in ``docs/editions.md``.

The editions themselves are in :mod:`arbitro.editions.data`, which registers each one here.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from arbitro.errors import ArbitroError
from arbitro.gamekind import Kind, KindThresholds, UnknownEditionError
from arbitro.i18n import N_

#: Every edition, by id, in the order registered (FIDE editions by date, then club rules).
_REGISTRY: dict[str, Edition] = {}

__all__ = [
    "ClaimDeadline",
    "Edition",
    "FlagDrawRule",
    "IllegalMovePolicy",
    "Kind",
    "QuickplayFinish",
    "Supervision",
]


class Supervision(StrEnum):
    """Rapid and blitz from 2014: one arbiter for at most three games (adequate), or not."""

    ADEQUATE = "adequate"
    INADEQUATE = "inadequate"


class ClaimDeadline(StrEnum):
    """Until when a completed illegal move can be acted upon."""

    #: Whenever it is found during the game (standard play: 7.4 / 7.5.1).
    ANY_TIME = "any-time"
    #: Only before the claimant (the offender's opponent) makes his own move.
    BEFORE_NEXT_MOVE = "before-next-move"


class FlagDrawRule(StrEnum):
    """When a fallen flag draws instead of losing."""

    #: The opponent cannot checkmate by any series of legal moves (FIDE, 6.9).
    CANNOT_CHECKMATE = "cannot-checkmate"
    #: The opponent has only a king, or a king and one minor piece (club rules).
    BARE_MATERIAL = "bare-material"


@dataclass(frozen=True, slots=True)
class IllegalMovePolicy:
    """What a completed illegal move costs, for one kind of game and supervision."""

    #: Whether the arbiter acts on his own (the engine does when the arbiter claims it);
    #: otherwise only the opponent's claim counts.
    arbiter_acts: bool
    deadline: ClaimDeadline
    #: Seconds added to the opponent's clock for the 1st, 2nd, ... illegal move that does not
    #: lose.
    penalties_s: tuple[int, ...]
    #: The illegal move (1st, 2nd, 3rd) that loses the game; ``None`` if none does.
    loses_at: int | None
    #: Whether that losing illegal move is only a draw when the opponent cannot checkmate.
    draw_if_cannot_checkmate: bool
    #: Whether the position before the irregularity is reinstated (else the claim ends the game).
    reinstate: bool = True
    #: The arbiter may act alone when both kings are in check or a promotion is incomplete
    #: (2001–2009 rapid, B6).
    arbiter_acts_on_obvious: bool = False
    #: Club rules: in a sequence of illegal moves the first one decides; capturing the king loses.
    first_illegal_decides: bool = False
    article: str = ""

    def penalty_for(self, count: int) -> int:
        """Seconds given to the opponent for the ``count``-th illegal move (1-based)."""
        if not self.penalties_s:
            return 0
        return self.penalties_s[min(count, len(self.penalties_s)) - 1]

    def loses(self, count: int) -> bool:
        return self.loses_at is not None and count >= self.loses_at

    def describe(self) -> str:
        parts = []
        for index, seconds in enumerate(self.penalties_s, start=1):
            if self.loses_at is None or index < self.loses_at:
                parts.append(f"{_ordinal(index)}: +{seconds} s to opponent")
        if self.loses_at is not None:
            text = f"{_ordinal(self.loses_at)} loses"
            if self.draw_if_cannot_checkmate:
                text += " (draw if the opponent cannot mate)"
            parts.append(text)
        who = "arbiter or claim" if self.arbiter_acts else "claim only"
        when = "any time" if self.deadline is ClaimDeadline.ANY_TIME else "before next move"
        return f"{'; '.join(parts)}; {who}, {when}"


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


@dataclass(frozen=True, slots=True)
class QuickplayFinish:
    """Where a player with under two minutes may claim a draw (10.2, App. G, Guidelines III)."""

    kinds: frozenset[Kind]
    #: Only for time controls without increment (2014 onward).
    without_increment_only: bool
    article: str
    #: Seconds added to the opponent when the arbiter rejects the claim.
    reject_penalty_s: int = 120


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of the Laws (or the club speed-chess rules)."""

    id: str
    name: str
    adopted: str
    in_force: datetime.date
    appendices: str
    kind_thresholds: KindThresholds
    #: Illegal moves, per (kind, supervision).
    illegal_moves: Mapping[tuple[Kind, Supervision], IllegalMovePolicy]
    #: Seconds added to the opponent after an incorrect threefold/fifty-moves claim, per kind.
    incorrect_claim_s: Mapping[Kind, int]
    #: 2001/2005: the claimant also loses half his time (at most 3 min) when he has more than
    #: 2 min, and is set to 1 min when he has 1–2 min.
    incorrect_claim_halves_claimant: bool
    incorrect_claim_article: str
    #: Automatic draws beyond checkmate/stalemate/dead position.
    fivefold: str | None  # None, "consecutive" or "any"
    seventy_five_moves: bool
    #: Who makes a flag fall: per (kind, supervision), whether the arbiter (the engine) calls it.
    arbiter_calls_flag: Mapping[tuple[Kind, Supervision], bool]
    flag_draw_rule: FlagDrawRule
    #: Both flags down: a draw always (True) or only in the last period (False: play on).
    both_flags_always_draw: bool
    press_without_move_is_illegal: bool
    #: 2014 onward: an unpromoted pawn on the last rank is illegal and becomes a queen.
    unpromoted_pawn_becomes_queen: bool
    resign_against_bare_king_draws: bool
    agreement_needs_a_move_each: bool
    quickplay_finish: QuickplayFinish | None
    #: The article for each rule, by the keys used across arbitro (``"checkmate"``, ...).
    articles: Mapping[str, str]
    #: Fields whose value the research has not confirmed (shown with "(?)" in the docs).
    uncertain: frozenset[str] = field(default_factory=frozenset)
    notes: str = ""

    # -- lookup ------------------------------------------------------------------------------

    @staticmethod
    def get(edition_id: str) -> Edition:
        """The edition with this id.

        :raises UnknownEditionError: for an unknown id.
        """
        try:
            return _REGISTRY[edition_id]
        except KeyError:
            raise UnknownEditionError(
                N_("Unknown edition {edition!r}; known editions: {known}."),
                edition=edition_id,
                known=", ".join(_REGISTRY),
            ) from None

    @staticmethod
    def all() -> tuple[Edition, ...]:
        """Every edition, FIDE editions by date, then the club rules."""
        return tuple(_REGISTRY.values())

    @staticmethod
    def for_date(date: datetime.date) -> Edition:
        """The FIDE edition in force on ``date`` (the 2001 edition for earlier dates).

        :raises ArbitroError: ``no-edition`` — never for real dates; kept for a clear message.
        """
        fide = [e for e in Edition.all() if e.id.startswith("fide-")]
        in_force = [e for e in fide if e.in_force <= date]
        if in_force:
            return max(in_force, key=lambda e: e.in_force)
        if fide:
            return min(fide, key=lambda e: e.in_force)
        raise ArbitroError(N_("No edition is known."), code="no-edition")  # pragma: no cover

    # -- policies ----------------------------------------------------------------------------

    def illegal_move(self, kind: Kind, supervision: Supervision) -> IllegalMovePolicy:
        return self.illegal_moves[(kind, supervision)]

    def arbiter_sees_flags(self, kind: Kind, supervision: Supervision) -> bool:
        return self.arbiter_calls_flag[(kind, supervision)]

    def incorrect_claim_penalty(self, kind: Kind, claimant_ms: int) -> tuple[int, int]:
        """(ms added to the opponent, ms the claimant's clock is reduced by) for an incorrect
        threefold or fifty-moves claim."""
        added = self.incorrect_claim_s[kind] * 1000
        deducted = 0
        if self.incorrect_claim_halves_claimant:
            if claimant_ms > 120_000:
                deducted = min(claimant_ms // 2, 180_000)
            elif claimant_ms >= 60_000:
                deducted = claimant_ms - 60_000
        return added, deducted

    def article(self, rule: str) -> str:
        """The article for ``rule`` in this edition ("" when the edition has none)."""
        return self.articles.get(rule, "")

    def __repr__(self) -> str:
        return f"Edition.get({self.id!r})"


def register(edition: Edition) -> Edition:
    """Make ``edition`` known to :meth:`Edition.get`, :meth:`Edition.all` and
    :meth:`Edition.for_date`."""
    _REGISTRY[edition.id] = edition
    return edition
