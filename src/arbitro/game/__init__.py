"""The Laws engine: one :class:`Game` for live games, scenario files and audits."""

from arbitro.game.engine import Game, Ply
from arbitro.game.events import BoardMode, Event, GameSetup
from arbitro.game.state import GameState, Outcome, Penalty

__all__ = ["BoardMode", "Event", "Game", "GameSetup", "GameState", "Outcome", "Penalty", "Ply"]
