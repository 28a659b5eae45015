"""Games and their event logs.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("setup", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_wall_ms", sa.BigInteger(), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("white_token_hash", sa.String(64), nullable=True),
        sa.Column("black_token_hash", sa.String(64), nullable=True),
        sa.Column("arbiter_token_hash", sa.String(64), nullable=True),
        sa.Column("spectator_id", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.UniqueConstraint("spectator_id", name="uq_games_spectator_id"),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("wall_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_events_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_events"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_index("ix_games_finished", table_name="games")
    op.drop_table("games")
