"""The errors the event store raises on purpose.

They are :class:`~arbitro.errors.ArbitroError` values, so the web layer answers them the way it
answers a refused move: with their stable ``code``.

Their messages are not marked for translation yet: marking them (``N_``) needs their Spanish
text in the catalogs (``make catalogs``) in the same change.
"""

from __future__ import annotations

from typing import ClassVar

from arbitro.errors import ArbitroError


class StoreError(ArbitroError):
    """Something the store refuses or cannot do; nothing was written."""

    default_code: ClassVar[str] = "store-error"


class StoreConflict(StoreError):
    """The position in a game's log is taken, or is not the next one.

    Another writer got there first (or the caller's view of the game is stale): reload the
    game and decide again; never retry blindly at the same position.
    """

    default_code: ClassVar[str] = "conflict"


class UnknownGame(StoreError):
    """No game has this id."""

    default_code: ClassVar[str] = "unknown-game"
