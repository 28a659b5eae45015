"""Standard, rapid or blitz: the kind of game a time control makes under each edition.

Each edition defines rapid and blitz by T, the time a player has for 60 moves: the base time
plus 60 times the increment (2005 onward; 2001 counts the base time alone). The thresholds are
data, one row per edition id; the edition objects of :mod:`arbitro.editions` carry the same
:class:`KindThresholds` value.

>>> THRESHOLDS["fide-2023"].kind_for(10 * 60_000)
<Kind.BLITZ: 'blitz'>
>>> THRESHOLDS["fide-2009"].kind_for(10 * 60_000)
<Kind.BLITZ: 'blitz'>
>>> THRESHOLDS["fide-2009"].kind_for(15 * 60_000)
<Kind.RAPID: 'rapid'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from arbitro.errors import ArbitroError
from arbitro.i18n import N_

MINUTE_MS = 60_000


class Kind(StrEnum):
    """The kind of game, which decides which articles and appendices apply."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


@dataclass(frozen=True, slots=True)
class KindThresholds:
    """Where blitz ends and rapid ends, in minutes of T.

    A game is blitz when ``T < blitz_limit`` (``<=`` when ``blitz_inclusive``), else rapid when
    ``T < rapid_limit`` (``<=`` when ``rapid_inclusive``), else standard.
    """

    blitz_limit: int
    blitz_inclusive: bool
    rapid_limit: int
    rapid_inclusive: bool
    #: Whether T counts 60 times the increment (from 2005; the 2001 text has only the base).
    counts_increment: bool
    #: The articles that define rapid and blitz in this edition.
    rapid_article: str
    blitz_article: str

    def kind_for(self, t_ms: int) -> Kind:
        """The kind for a value of T given in milliseconds."""
        blitz = self.blitz_limit * MINUTE_MS
        rapid = self.rapid_limit * MINUTE_MS
        if t_ms < blitz or (self.blitz_inclusive and t_ms == blitz):
            return Kind.BLITZ
        if t_ms < rapid or (self.rapid_inclusive and t_ms == rapid):
            return Kind.RAPID
        return Kind.STANDARD

    def article_for(self, kind: Kind) -> str | None:
        """The article that defines ``kind`` (standard play has none of its own)."""
        return {Kind.RAPID: self.rapid_article, Kind.BLITZ: self.blitz_article}.get(kind)


_2001 = KindThresholds(15, False, 60, True, False, "B1", "C1")
_2005 = KindThresholds(15, False, 60, True, True, "B1", "C1")
_2009 = KindThresholds(15, False, 60, False, True, "A1", "B1")
_2014 = KindThresholds(10, True, 60, False, True, "A.1", "B.1")

#: Thresholds per edition id (`../shared/spec/editions.md`, "Kind of game"). ``club-blitz``
#: follows its own seed text: blitz is "less than 15 minutes", base plus 60 increments.
THRESHOLDS: dict[str, KindThresholds] = {
    "fide-2001": _2001,
    "fide-2005": _2005,
    "fide-2009": _2009,
    "fide-2014": _2014,
    "fide-2017": _2014,
    "fide-2018": _2014,
    "fide-2023": _2014,
    "club-blitz": _2005,
}


class HasKindThresholds(Protocol):
    """Anything that knows its thresholds (an edition object)."""

    @property
    def kind_thresholds(self) -> KindThresholds: ...


class UnknownEditionError(ArbitroError, ValueError):
    """An edition id that arbitro does not know."""

    default_code = "unknown-edition"


def thresholds_for(edition: str | HasKindThresholds) -> KindThresholds:
    """The thresholds of an edition id or edition object.

    :raises UnknownEditionError: for an id not in :data:`THRESHOLDS`.
    """
    if not isinstance(edition, str):
        return edition.kind_thresholds
    try:
        return THRESHOLDS[edition]
    except KeyError:
        raise UnknownEditionError(
            N_("Unknown edition {edition!r}; known editions: {known}."),
            edition=edition,
            known=", ".join(THRESHOLDS),
        ) from None
