"""Editions of the Laws: what differs between them, as data plus a few policies.

Every edition is an :class:`Edition` value; nothing else in arbitro asks "which edition is
this?" — it asks the edition (``edition.illegal_move(kind, supervision)``,
``edition.incorrect_claim_penalty(kind, ms)``, ...). Values the research marks as unconfirmed
are listed in ``Edition.uncertain`` and flagged in ``docs/editions.md``.

>>> Edition.get("fide-2023").illegal_move(Kind.BLITZ, Supervision.ADEQUATE).penalties_s
(60,)
>>> import datetime
>>> Edition.for_date(datetime.date(2010, 5, 1)).id
'fide-2009'
"""

from arbitro.editions import data as _data  # registers the editions
from arbitro.editions.model import (
    ClaimDeadline,
    Edition,
    FlagDrawRule,
    IllegalMovePolicy,
    Kind,
    QuickplayFinish,
    Supervision,
)

EDITIONS = _data.EDITIONS

__all__ = [
    "EDITIONS",
    "ClaimDeadline",
    "Edition",
    "FlagDrawRule",
    "IllegalMovePolicy",
    "Kind",
    "QuickplayFinish",
    "Supervision",
]
