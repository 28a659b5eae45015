"""What an audit finds in a recorded game: one :class:`Finding` per problem or missed claim."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "info"]

#: Every finding code, its severity, and what it means.
CODES: dict[str, tuple[Severity, str]] = {
    "illegal-move": ("error", "a move that cannot be played"),
    "moves-after-end": ("error", "the game went on after it had ended"),
    "wrong-result": ("error", "the recorded result differs from what the Laws give"),
    "threefold-claimable": ("info", "a threefold repetition could have been claimed"),
    "fifty-moves-claimable": ("info", "the fifty-move rule could have been claimed"),
    "unreadable-game": ("error", "a game the PGN reader cannot parse"),
    "unsupported-variant": ("info", "a game of another variant (Chess960, ...): not audited"),
}

#: The keys of every finding, in the order they are written.
KEYS = ("file", "game", "ply", "code", "severity", "edition", "article", "detail")


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding: where (file, 1-based game index, 1-based ply where it applies), what
    (``code``, its severity), under which edition and article, a ``detail`` in words, and
    code-specific ``extra`` keys (``termination``, ``expected``, ``recorded``, ``claimant``,
    ``move``)."""

    file: str
    game: int
    ply: int | None
    code: str
    edition: str
    article: str
    detail: str
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def severity(self) -> Severity:
        return CODES[self.code][0]

    def to_dict(self) -> dict[str, Any]:
        """The finding as one JSON object: the common keys first, then the extra ones."""
        data: dict[str, Any] = {
            "file": self.file,
            "game": self.game,
            "ply": self.ply,
            "code": self.code,
            "severity": self.severity,
            "edition": self.edition,
            "article": self.article,
            "detail": self.detail,
        }
        data.update(self.extra)
        return data
