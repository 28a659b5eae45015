"""The compiled best-first search (``_helpmate.c``); see :mod:`arbitro.adjudication.search`."""

from collections.abc import Callable

Key = tuple[int, int, int, int, int, int, int, int, bool, int, int | None]
Line = list[tuple[int, int, int]]

def search(
    key: Key, color: bool, limit: int, dead: Callable[[Key], bool], static_cost: int
) -> tuple[Line | None, bool, int]: ...
def legal_moves(key: Key) -> Line: ...
def child_key(key: Key, move: tuple[int, int, int]) -> Key: ...
