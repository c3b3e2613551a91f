"""Table links: the unguessable token each table's device opens the app with (roles, README "Who can do
what"). A token grants one club game, or one table number of one tournament, and nothing else; the
director's pages show it again (so it is kept as it was handed out), and "New link" replaces it.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("token", sa.Text, sa.CheckConstraint("length(token) >= 32"), nullable=False, unique=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), unique=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE")),
        sa.Column("table_no", sa.Integer, sa.CheckConstraint("table_no >= 1")),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "table_no"),
        # A link is a club game's or a tournament table's, never both, never neither.
        sa.CheckConstraint(
            "(game_id IS NOT NULL AND tournament_id IS NULL AND table_no IS NULL) OR "
            "(game_id IS NULL AND tournament_id IS NOT NULL AND table_no IS NOT NULL)",
            name="one_table",
        ),
    )


def downgrade() -> None:
    op.drop_table("table_links")
