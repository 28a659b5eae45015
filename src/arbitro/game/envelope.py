"""The envelope of an adjourned game (Appendix A): what is written on it, and the sealed move
kept unreadable until the envelope is opened.

The record on the envelope (A2) is public: names, the position before the sealed move, the
time on each clock, who sealed, the move number, a standing draw offer, and where and when play
resumes. The move inside is not. A live game never stores it in clear: the adapter seals it
with :func:`seal_move` under a key only it can derive (:func:`envelope_key`), and the key enters
the game's log only with the event that opens the envelope (A7, A9).

>>> key = envelope_key(b"server secret", "game-1", 1)
>>> token = seal_move("Cf3", key, nonce=bytes(12))
>>> "Cf3" in token
False
>>> open_sealed(token, key)
'Cf3'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from arbitro.color import Color, color_name
from arbitro.errors import GameError
from arbitro.i18n import N_

NONCE_BYTES = 12


def envelope_key(secret: bytes, game: str, number: int) -> bytes:
    """The key of a game's ``number``-th envelope, derived from a secret kept outside the
    game's store (so a copy of the store alone cannot open an envelope)."""
    message = f"arbitro-envelope:{game}:{number}".encode()
    return hmac.new(secret, message, hashlib.sha256).digest()


def seal_move(text: str, key: bytes, nonce: bytes) -> str:
    """The move as written, encrypted (AES-GCM) under ``key``; ``nonce`` must be 12 random
    bytes never used with this key before (the caller draws them: the core draws nothing)."""
    if len(nonce) != NONCE_BYTES:
        raise ValueError("the nonce must be 12 bytes")
    sealed = AESGCM(key).encrypt(nonce, text.encode(), b"arbitro-envelope")
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


def open_sealed(token: str, key: bytes) -> str:
    """The move written in a sealed envelope.

    :raises GameError: ``envelope-key-wrong`` when ``key`` does not open ``token`` (or the
        token was altered).
    """
    try:
        raw = base64.urlsafe_b64decode(token.encode("ascii"))
        nonce, sealed = raw[:NONCE_BYTES], raw[NONCE_BYTES:]
        return AESGCM(key).decrypt(nonce, sealed, b"arbitro-envelope").decode()
    except (InvalidTag, ValueError, binascii.Error, UnicodeError):
        raise GameError(
            "envelope-key-wrong",
            N_("This key does not open the envelope (or the envelope was tampered with)."),
        ) from None


def key_text(key: bytes) -> str:
    """A key as text, for the event that opens the envelope."""
    return base64.urlsafe_b64encode(key).decode("ascii")


def key_bytes(text: str) -> bytes:
    """:raises GameError: ``bad-argument`` for text that is not a key."""
    try:
        key = base64.urlsafe_b64decode(text.encode("ascii"))
    except (ValueError, binascii.Error, UnicodeError):
        key = b""
    if len(key) != 32:
        raise GameError("bad-argument", N_("'key' is not an envelope key."))
    return key


@dataclass(frozen=True, slots=True)
class Envelope:
    """What is written on the envelope (A2), everything but the move; and, once the envelope is
    opened, the move as it was written.

    ``clock`` is the time left on each clock and ``used`` the time each player's clock ran, in
    ms (``None`` without a clock); ``draw_offer`` is the player whose offer stands.
    """

    number: int
    sealer: Color
    move_number: int
    fen: str
    players: tuple[str, str] | None
    clock: tuple[int, int] | None  # white, black
    used: tuple[int, int] | None  # white, black
    draw_offer: Color | None
    sealed_at: int
    resumption: dict[str, str]
    opened: bool = False
    move: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as plain data; the move appears only once the envelope is opened."""
        data: dict[str, Any] = {
            "number": self.number,
            "sealer": color_name(self.sealer),
            "move_number": self.move_number,
            "fen": self.fen,
            "players": None
            if self.players is None
            else {"white": self.players[0], "black": self.players[1]},
            "clock": None
            if self.clock is None
            else {"white": self.clock[0], "black": self.clock[1]},
            "used": None if self.used is None else {"white": self.used[0], "black": self.used[1]},
            "draw_offer": None if self.draw_offer is None else color_name(self.draw_offer),
            "sealed_at": self.sealed_at,
            "resumption": dict(self.resumption),
            "opened": self.opened,
        }
        if self.opened:
            data["move"] = self.move
        return data
