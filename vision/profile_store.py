"""Where the app keeps each game's calibration profile until the database holds it: a file next to the
database, `profiles/game-<id>.profile` (the bytes of `Profile.to_bytes`)."""

from __future__ import annotations

from pathlib import Path

from vision.profile import Profile, ProfileError


def _beside(db: str | Path) -> Path:
    """The folder the profiles live in: next to an SQLite file (a path or an `sqlite:///` URL), else in the
    user's data folder (a server database has no folder of its own here)."""
    text = str(db)
    if "://" not in text:
        return Path(text).expanduser().parent
    if text.startswith("sqlite") and ":///" in text and not text.endswith(":memory:"):
        return Path(text.split(":///", 1)[1]).expanduser().parent
    return Path.home() / ".local" / "share" / "rummi-assistant"


def game_profile_path(db_path: str | Path, game_id: int) -> Path:
    return _beside(db_path) / "profiles" / f"game-{int(game_id)}.profile"


def store_game_profile(db_path: str | Path, game_id: int, profile: Profile | None) -> None:
    """Keep `profile` for the game (None forgets it). Written to a new file, then moved into place."""
    path = game_profile_path(db_path, game_id)
    if profile is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_bytes(profile.to_bytes())
    partial.replace(path)


def load_game_profile(db_path: str | Path, game_id: int) -> Profile | None:
    """The game's profile, or None where it has none.

    Raises:
        ProfileError: the stored file cannot be read as a profile.
    """
    path = game_profile_path(db_path, game_id)
    if not path.is_file():
        return None
    try:
        return Profile.from_bytes(path.read_bytes())
    except OSError as error:
        raise ProfileError(f"cannot read {path}: {error}") from error
