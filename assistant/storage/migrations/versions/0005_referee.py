"""Referee mode (issue 29): a game followed by the camera, each judged turn with its call and a snapshot.

`referee_games` holds one referee run of a game: its settings and the referee's whole state
(`assistant.referee.Referee.to_json`), so a restarted app resumes where the referee stopped. "New referee
game" adds a row; the earlier runs and their turns are kept. `referee_turns` holds each call
(`Call.to_json`) and a small JPEG of the settled table it was made on (none for a draw).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "referee_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("players", sa.Integer, sa.CheckConstraint("players >= 1"), nullable=False),
        sa.Column("first_seat", sa.Integer, sa.CheckConstraint("first_seat >= 1"), nullable=False),
        sa.Column("settle_s", sa.Float, sa.CheckConstraint("settle_s > 0"), nullable=False),
        sa.Column("sound", sa.Integer, nullable=False, server_default="1"),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_referee_games_game", "referee_games", ["game_id"])
    op.create_table(
        "referee_turns",
        sa.Column(
            "referee_id", sa.Integer, sa.ForeignKey("referee_games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer, sa.CheckConstraint("number >= 1"), nullable=False),
        sa.Column("call", sa.Text, nullable=False),
        sa.Column("snapshot", sa.LargeBinary),
        sa.Column("recorded_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("referee_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("referee_turns")
    op.drop_index("ix_referee_games_game", "referee_games")
    op.drop_table("referee_games")
