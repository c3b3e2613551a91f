"""Each game's table profile (what `rummi calibrate` or the Setup screen learned of its table and tiles).

Opaque bytes with the name of their format: the domain stores them and never reads them (the reader's side,
`vision.profile`, makes and reads them). A table of its own, so reading a game never carries the blob, and
a game's profile goes with the game.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_profiles",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("format", sa.Text, sa.CheckConstraint("length(format) > 0"), nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_profiles")
