"""Storage for games and tournaments: SQLite by default, PostgreSQL for a hall of tables (one URL)."""

from assistant.storage.database import (
    APP_DIR_NAME,
    DB_ENV_VAR,
    DB_FILE_NAME,
    Database,
    StorageError,
    StorageUnavailable,
    default_db_path,
    default_db_url,
    is_url,
)
from assistant.storage.games import (
    Game,
    PendingTurn,
    Player,
    RoundRecord,
    RoundScore,
    Storage,
    StoredProfile,
    TurnRecord,
    rounds_to_csv,
)

__all__ = [
    "APP_DIR_NAME",
    "DB_ENV_VAR",
    "DB_FILE_NAME",
    "Database",
    "Game",
    "PendingTurn",
    "Player",
    "RoundRecord",
    "RoundScore",
    "Storage",
    "StoredProfile",
    "StorageError",
    "StorageUnavailable",
    "TurnRecord",
    "default_db_path",
    "default_db_url",
    "is_url",
    "rounds_to_csv",
]
