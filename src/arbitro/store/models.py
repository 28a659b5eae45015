"""The tables: a game's setup and its append-only log of events.

The schema itself is made by the migrations in ``migrations/versions`` (written by hand, and
checked against these models by the tests), never by ``create_all``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, MetaData, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names fixed by convention, so that the migrations name them the same way on
#: every database (and a later migration can find them to change them).
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_name)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: Longest id the columns accept (the store makes 16-character ones).
ID_LENGTH = 64
#: A sha256 digest in hexadecimal.
HASH_LENGTH = 64


class Base(DeclarativeBase):
    """The declarative base of the store's tables."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameRow(Base):
    """One game: how it is played, who may act in it, and whether it is still live."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    #: ``GameSetup.to_dict()`` as JSON text (text rather than a JSON type: it reads back
    #: byte for byte the same on SQLite and PostgreSQL).
    setup: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: UTC epoch ms of the game clock's origin, set by the web layer when it starts the game.
    started_wall_ms: Mapped[int | None] = mapped_column(BigInteger)
    #: Indexed: a starting server lists the games that are still live.
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    # sha256 hex of each role's secret token: a leaked database gives no one a seat.
    white_token_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    black_token_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    arbiter_token_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    #: The public id spectators use; unique so that it names one game.
    spectator_id: Mapped[str] = mapped_column(String(ID_LENGTH), unique=True)


class EventRow(Base):
    """One event of a game's log, at position ``seq``.

    The primary key (game_id, seq) is what makes the log safe with several writers: two of
    them can never both write the same position, whatever they believed the next one was.
    """

    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(
        String(ID_LENGTH), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: 0-based position in the game's log.
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: ``Event.to_dict()`` as JSON text.
    event: Mapped[str] = mapped_column(Text)
    #: UTC epoch ms at which the event was committed (stamped by the caller).
    wall_ms: Mapped[int] = mapped_column(BigInteger)
