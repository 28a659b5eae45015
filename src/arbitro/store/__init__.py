"""The persistence of games: setups and append-only event logs in SQLite or PostgreSQL.

A game is stored as its :class:`~arbitro.game.events.GameSetup` and its list of
:class:`~arbitro.game.events.Event` values, each committed before the web layer acknowledges
it; a restarted server rebuilds every unfinished game from them.

>>> import tempfile
>>> from arbitro.game.engine import Game
>>> folder = tempfile.TemporaryDirectory()
>>> store = EventStore(f"sqlite:///{folder.name}/games.db")
>>> game = Game.create("fide-2023", "3+2")
>>> game_id = store.create_game(game.setup.to_dict(), {"white": "w-secret", "black": "b-secret"})
>>> game.start(0)
>>> store.append(game_id, 0, game.events[-1].to_dict(), wall_ms=1_767_225_600_000)
>>> store.role_for(game_id, "b-secret"), store.role_for(game_id, "guess")
('black', None)
>>> store.load(game_id).replay().state().running
True
>>> store.close()
>>> folder.cleanup()
"""

from arbitro.store.db import DEFAULT_URL
from arbitro.store.errors import StoreConflict, StoreError, UnknownGame
from arbitro.store.listen import notifications
from arbitro.store.migrate import current, head, upgrade
from arbitro.store.store import (
    CHANNEL,
    ROLES,
    EventStore,
    StoredEvent,
    StoredGame,
    hash_token,
    new_token,
)

__all__ = [
    "CHANNEL",
    "DEFAULT_URL",
    "ROLES",
    "EventStore",
    "StoreConflict",
    "StoreError",
    "StoredEvent",
    "StoredGame",
    "UnknownGame",
    "current",
    "hash_token",
    "head",
    "new_token",
    "notifications",
    "upgrade",
]
