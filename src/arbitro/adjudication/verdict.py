"""The answer to "can this side still checkmate?"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Answer = Literal["yes", "no", "unknown"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """``yes`` with a mating line (SAN, from the position to the mate), ``no`` with the reason,
    or ``unknown`` when the search limit was reached."""

    answer: Answer
    reason: str = ""
    line: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        """True only for ``yes``."""
        return self.answer == "yes"

    def explain(self) -> str:
        if self.answer == "yes":
            return " ".join(self.line) if self.line else "mate"
        return self.reason
