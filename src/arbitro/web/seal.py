"""The server's secret for sealed-move envelopes, kept outside the game store.

Every envelope's key is derived from this secret (:func:`arbitro.game.envelope.envelope_key`),
so the store alone — a database dump, a backup, the arbiter's view of the log — never opens
an envelope: the key enters the log only with the event that opens it. The secret comes from
``ARBITRO_SEAL_SECRET`` (the same value for every server process sharing a database), or from a
file beside the SQLite database (``games.db.seal-key``; ``arbitro-seal.key`` in the working
folder for other databases), created on first use, readable by its owner only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from arbitro.errors import ArbitroError
from arbitro.i18n import N_

SECRET_BYTES = 32
ENVIRONMENT = "ARBITRO_SEAL_SECRET"


class SealSecretError(ArbitroError):
    default_code = "seal-secret"


def default_path(database: str | URL) -> Path | None:
    """Where the secret of ``database``'s server lives (``None``: in memory only, for an
    in-memory database)."""
    url = make_url(database)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            return None
        return Path(f"{url.database}.seal-key")
    return Path("arbitro-seal.key")


class SealSecret:
    """The secret, read (or made) once, on first use."""

    def __init__(self, path: Path | None, environment: str | None = None) -> None:
        self.path = path
        self._environment = environment
        self._value: bytes | None = None
        self._lock = threading.Lock()

    @classmethod
    def for_database(cls, database: str | URL) -> SealSecret:
        return cls(default_path(database), os.environ.get(ENVIRONMENT))

    def __call__(self) -> bytes:
        with self._lock:
            if self._value is None:
                self._value = self._load()
            return self._value

    def _load(self) -> bytes:
        if self._environment:
            return hashlib.sha256(self._environment.encode()).digest()
        if self.path is None:
            return os.urandom(SECRET_BYTES)
        if not self.path.exists():
            # Written aside, then linked into place: another process never reads half a secret,
            # and the first one to link wins.
            aside = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(os.urandom(SECRET_BYTES))
            try:
                with contextlib.suppress(FileExistsError):
                    os.link(aside, self.path)
            finally:
                aside.unlink()
        value = self.path.read_bytes()
        if len(value) != SECRET_BYTES:
            raise SealSecretError(
                N_("The envelope secret {path} is damaged ({size} bytes)."),
                path=str(self.path),
                size=len(value),
            )
        return value
