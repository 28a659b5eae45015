"""The two sides, and a pair of values indexed by side.

Colours are python-chess colours (``chess.WHITE is True``), so a board and a clock speak of the
same sides without translation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

import chess

Color = chess.Color
WHITE: Color = chess.WHITE
BLACK: Color = chess.BLACK

T = TypeVar("T")
U = TypeVar("U")


def color_name(color: Color) -> str:
    """``"white"`` or ``"black"``, the spelling used in scenario files and JSON.

    >>> color_name(WHITE)
    'white'
    """
    return "white" if color else "black"


def parse_color(name: str) -> Color:
    """The colour named ``"white"``/``"black"`` (``"w"``/``"b"`` too).

    :raises ValueError: for any other name.
    """
    lowered = name.strip().lower()
    if lowered in ("white", "w"):
        return WHITE
    if lowered in ("black", "b"):
        return BLACK
    raise ValueError(f"not a colour: {name!r} (expected 'white' or 'black')")


@dataclass(frozen=True, slots=True)
class ByColor(Generic[T]):
    """One value for White and one for Black, immutable.

    >>> times = ByColor(180_000, 175_500)
    >>> times[BLACK]
    175500
    >>> times.replace(WHITE, 0)
    ByColor(white=0, black=175500)
    """

    white: T
    black: T

    @classmethod
    def both(cls, value: T) -> ByColor[T]:
        """The same value for both sides."""
        return cls(value, value)

    def __getitem__(self, color: Color) -> T:
        return self.white if color else self.black

    def __iter__(self) -> Iterator[T]:
        """White's value, then Black's."""
        yield self.white
        yield self.black

    def replace(self, color: Color, value: T) -> ByColor[T]:
        """A copy with ``color``'s value replaced."""
        return ByColor(value, self.black) if color else ByColor(self.white, value)

    def map(self, function: Callable[[T], U]) -> ByColor[U]:
        """Apply ``function`` to both values."""
        return ByColor(function(self.white), function(self.black))

    def items(self) -> Iterator[tuple[Color, T]]:
        """``(WHITE, white_value)``, then ``(BLACK, black_value)``."""
        yield WHITE, self.white
        yield BLACK, self.black
