"""Games, players, rounds, scores and turns: the schema the SQLite-only storage created (commit 3f06407).

A file written before migrations existed already has these tables and no version: each table is created
only where it is missing, so such a file is adopted as it is, every score kept.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in existing:
        op.create_table(
            "games",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("name", sa.Text, sa.CheckConstraint("length(name) > 0"), nullable=False),
            sa.Column("preset", sa.Text, nullable=False),
            sa.Column("variants", sa.Text, nullable=False, server_default="[]"),
            sa.Column("camera", sa.Text, nullable=False, server_default="example"),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("table_layout", sa.Text, nullable=False, server_default=""),
            sa.Column("table_photo", sa.Text, nullable=False, server_default=""),
            sa.Column("agreed_layout", sa.Text, nullable=False, server_default=""),
            sa.Column("turn_seat", sa.Integer, nullable=False, server_default="0"),
            sa.Column("pending_seat", sa.Integer),
            sa.Column("pending_before", sa.Text),
            sa.Column("pending_rack", sa.Text),
            sa.Column("pending_started_at", sa.Float),
        )
    if "players" not in existing:
        op.create_table(
            "players",
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
            sa.Column("seat", sa.Integer, sa.CheckConstraint("seat >= 0"), nullable=False),
            sa.Column("name", sa.Text, sa.CheckConstraint("length(name) > 0"), nullable=False),
            sa.Column("opened", sa.Integer, nullable=False, server_default="0"),
            sa.PrimaryKeyConstraint("game_id", "seat"),
            sa.UniqueConstraint("game_id", "name"),
        )
    if "rounds" not in existing:
        op.create_table(
            "rounds",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
            sa.Column("number", sa.Integer, sa.CheckConstraint("number >= 1"), nullable=False),
            sa.Column("blocked", sa.Integer, nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.UniqueConstraint("game_id", "number"),
        )
    if "scores" not in existing:
        op.create_table(
            "scores",
            sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False),
            sa.Column("game_id", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("rack", sa.Text, nullable=False),
            sa.Column("rack_value", sa.Integer, sa.CheckConstraint("rack_value >= 0"), nullable=False),
            sa.Column("score", sa.Integer, nullable=False),
            sa.Column("winner", sa.Integer, nullable=False),
            sa.PrimaryKeyConstraint("round_id", "seat"),
            sa.ForeignKeyConstraint(["game_id", "seat"], ["players.game_id", "players.seat"]),
        )
    if "turns" not in existing:
        op.create_table(
            "turns",
            sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
            sa.Column("number", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("before", sa.Text, nullable=False),
            sa.Column("after", sa.Text, nullable=False),
            sa.Column("rack", sa.Text, nullable=False),
            sa.Column("legal", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("played", sa.Text, nullable=False),
            sa.Column("reasons", sa.Text, nullable=False),
            sa.Column("penalty_tiles", sa.Integer, nullable=False, server_default="0"),
            sa.Column("started_at", sa.Float, nullable=False),
            sa.Column("ended_at", sa.Float, nullable=False),
            sa.UniqueConstraint("game_id", "number"),
            sa.ForeignKeyConstraint(["game_id", "seat"], ["players.game_id", "players.seat"]),
        )


def downgrade() -> None:
    for table in ("turns", "scores", "rounds", "players", "games"):
        op.drop_table(table)
