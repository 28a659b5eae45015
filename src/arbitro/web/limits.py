"""Limits that keep one client from taking the server: the size of what it sends, and how many
commands per second.

A request body is counted as it arrives and refused (413) as soon as it passes its route's
limit, so the server never holds more than the limit of it; WebSocket frames are bounded by the
server (``arbitro serve`` passes :data:`MAX_FRAME` to uvicorn) and messages above
``MAX_MESSAGE`` are refused by the application. Commands are metered by a token bucket per
WebSocket connection and per credential over HTTP: a command over the limit is refused with
``rate-limited`` before the game sees it, so an accepted command is never dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Commands per second a connection (or a credential) may send, sustained…
RATE = 20.0
#: …and at once. A game between people never comes near; a benchmark client sends at most one
#: game's moves (30) per connection, within the burst.
BURST = 60
#: Largest WebSocket frame uvicorn reads (larger ones close the connection, code 1009).
MAX_FRAME = 64 * 1024

Clock = Callable[[], float]


@dataclass(slots=True)
class TokenBucket:
    """``burst`` commands at once, then ``rate`` per second."""

    rate: float = RATE
    burst: int = BURST
    clock: Clock = time.monotonic
    tokens: float = field(init=False)
    stamp: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)  # a new client may send a burst at once
        self.stamp = self.clock()

    def take(self) -> bool:
        """Spend one token; ``False`` (and nothing spent) when none is left."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def idle(self) -> bool:
        """Whether the bucket would be full now: forgetting it changes nothing."""
        return self.tokens + (self.clock() - self.stamp) * self.rate >= self.burst


@dataclass
class Buckets:
    """A bucket per key (a game and a role), forgotten once full again so that the table stays
    as small as the number of clients sending right now."""

    rate: float = RATE
    burst: int = BURST
    clock: Clock = time.monotonic
    most: int = 10_000
    buckets: dict[Any, TokenBucket] = field(default_factory=dict)

    def take(self, key: Any) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.idle()}
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()


class BodyLimit:
    """ASGI middleware: a request body longer than ``limit_for(path)`` bytes is answered with
    ``refuse(scope, limit)`` (a 413) without reaching the application. A declared
    Content-Length is checked before anything is read; a streamed body is read up to the limit
    and handed on whole."""

    def __init__(
        self,
        app: ASGIApp,
        limit_for: Callable[[str], int],
        refuse: Callable[[Scope, int], Response],
    ) -> None:
        self.app = app
        self.limit_for = limit_for
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        # A length of more digits than any limit is too large without reading it as a number.
        if (
            declared is not None
            and declared.isdigit()
            and (len(declared) > 12 or int(declared) > limit)
        ):
            await self.refuse(scope, limit)(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break  # the client left: the application hears it too
            size += len(message.get("body", b""))
            if size > limit:
                await self.refuse(scope, limit)(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)
