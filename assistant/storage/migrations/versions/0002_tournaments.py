"""Tournaments (004_*.txt): registered players, seating per round, games per table with their scores.

Two devices recording the same game record it once: a game is unique by its request key (a retried
submission) and by its place (round, table, the table's game number), enforced by the database.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, sa.CheckConstraint("length(name) > 0"), nullable=False, unique=True),
        sa.Column("preset", sa.Text, nullable=False),
        sa.Column("table_size", sa.Integer, sa.CheckConstraint("table_size >= 2"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False, server_default="1"),
        # The last game number handed out: writers take it with one UPDATE, which also serializes them.
        sa.Column("games_recorded", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.Text, sa.CheckConstraint("length(name) > 0"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "name"),
        sa.UniqueConstraint("tournament_id", "position"),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer, sa.CheckConstraint("number >= 1"), nullable=False),
        sa.Column("seating", sa.Text, nullable=False),  # "raffle" or "standings"
        sa.Column("seed", sa.Text),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("table_no", sa.Integer, sa.CheckConstraint("table_no >= 1"), nullable=False),
        sa.Column("seat", sa.Integer, sa.CheckConstraint("seat >= 0"), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "round", "player"),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "seat"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_rounds.tournament_id", "tournament_rounds.number"],
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player"], ["tournament_players.tournament_id", "tournament_players.name"]
        ),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("table_game", sa.Integer, sa.CheckConstraint("table_game >= 1"), nullable=False),
        sa.Column("request_key", sa.Text, nullable=False),
        sa.Column("blocked", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("tournament_id", "number"),
        sa.UniqueConstraint("tournament_id", "round", "table_no", "table_game"),
        sa.UniqueConstraint("tournament_id", "request_key", name="uq_tournament_games_request_key"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"], ["tournament_rounds.tournament_id", "tournament_rounds.number"]
        ),
    )
    op.create_table(
        "tournament_scores",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("tournament_games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("rack", sa.Text, nullable=False),
        sa.Column("rack_value", sa.Integer, sa.CheckConstraint("rack_value >= 0"), nullable=False),
        sa.Column("penalty", sa.Integer, nullable=False, server_default="0"),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "player"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player"], ["tournament_players.tournament_id", "tournament_players.name"]
        ),
    )
    op.create_index("ix_tournament_scores_player", "tournament_scores", ["tournament_id", "player"])


def downgrade() -> None:
    op.drop_index("ix_tournament_scores_player", "tournament_scores")
    for table in ("tournament_scores", "tournament_games", "tournament_seats", "tournament_rounds"):
        op.drop_table(table)
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
