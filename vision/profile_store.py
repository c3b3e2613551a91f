"""Each game's calibration profile, kept in the game database (`assistant.storage`, table `game_profiles`):
the bytes of `Profile.to_bytes` with their format. The storage never reads them; this module turns them into
a `Profile` and back.

The previous version kept the profile as a file next to an SQLite database, `profiles/game-<id>.profile`.
Such a file is imported into the database the first time the game's profile is asked for, then renamed
`game-<id>.profile.imported` (kept, never read again), so a forgotten profile does not come back.
"""

from __future__ import annotations

from pathlib import Path

from assistant.storage import Storage
from vision.profile import PROFILE_FORMAT, Profile, ProfileError

LEGACY_FOLDER = "profiles"
IMPORTED_SUFFIX = ".imported"


def legacy_profile_path(storage: Storage, game_id: int) -> Path | None:
    """Where the previous version kept the game's profile: beside the SQLite file. None for a server
    database or one in memory (its files lay in a folder shared by every server, so whose game a file
    belonged to cannot be known)."""
    if storage.path is None:
        return None
    return storage.path.parent / LEGACY_FOLDER / f"game-{int(game_id)}.profile"


def import_legacy_profile(storage: Storage, game_id: int) -> bool:
    """Move a profile file of the previous version into the database (unless the game already has one
    there), then rename the file so it is imported once. Returns whether a profile was imported.

    The bytes are imported as they are, readable or not: a damaged file is reported when the profile is
    used, like any damaged profile, and the user decides (calibrate again or forget it).
    """
    path = legacy_profile_path(storage, game_id)
    if path is None or not path.is_file():
        return False
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ProfileError(f"cannot read the profile file {path}: {error.strerror or error}") from error
    imported = bool(data) and storage.set_game_profile(game_id, data, PROFILE_FORMAT, replace=False)
    try:
        path.replace(path.with_name(path.name + IMPORTED_SUFFIX))
    except FileNotFoundError:
        pass  # another tab imported it at the same moment
    return imported


def store_game_profile(storage: Storage, game_id: int, profile: Profile | None) -> None:
    """Keep `profile` for the game in its database (None forgets it).

    Raises:
        StorageError: no such game, or the database could not be written.
    """
    if profile is None:
        import_legacy_profile(storage, game_id)  # so that a forgotten profile's old file is not read later
        storage.forget_game_profile(game_id)
        return
    storage.set_game_profile(game_id, profile.to_bytes(), PROFILE_FORMAT)


def load_game_profile(storage: Storage, game_id: int) -> Profile | None:
    """The game's profile, or None where it has none.

    Raises:
        ProfileError: the stored profile cannot be read (damaged, another format); the message says which
            game's profile it is and what to do. The game and its scores are untouched.
        StorageError: the database could not be read.
    """
    import_legacy_profile(storage, game_id)
    stored = storage.game_profile(game_id)
    if stored is None:
        return None
    what = f"the table profile stored for game {game_id}"
    remedy = "set up the table again on the Setup screen (or forget the profile)"
    if stored.format != PROFILE_FORMAT:
        raise ProfileError(
            f"{what} has format {stored.format!r}, this program reads {PROFILE_FORMAT!r}: {remedy}"
        )
    try:
        return Profile.from_bytes(stored.data)
    except ProfileError as error:
        raise ProfileError(f"{what} cannot be read ({error}): {remedy}") from error
