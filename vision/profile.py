"""A calibration profile: what `rummi calibrate` learned of one table and one tile set, as a small file.

The profile is JSON (arrays as base64 float16), a few tens of kB. It records the model files it was made
with (a hash of each ONNX file); a profile made with other models is refused (`ProfileError`), since the
descriptors it holds are the classifier's own outputs. Made by `vision.calibration`, used by
`vision.reader.TileReader(profile=...)`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from assistant.errors import shorten
from assistant.user_files import read_user_file

PROFILE_FORMAT = "rummi-profile/1"
MAX_PROFILE_BYTES = 10_000_000
"""A profile is a few tens of kB (1 MB holds thousands of descriptors); a larger file is refused unread."""
MAX_NUMBER_DIGITS = 40
"""No number a profile holds is longer (Python refuses to read an integer of over 4300 digits anyway)."""
COLOR_NAMES = ("black", "blue", "red", "orange")


class ProfileError(ValueError):
    """A profile file cannot be used: unreadable, another format, or made with other models."""


def file_hash(path: str | Path) -> str:
    """The first 16 hex digits of the file's SHA-256: the model version a profile records."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class ModelVersions:
    """Hashes of the detector and classifier files (`file_hash`)."""

    detector: str
    classifier: str

    def __str__(self) -> str:
        return f"detector {self.detector}, classifier {self.classifier}"


@dataclass(frozen=True)
class Ink:
    """One colour's ink as measured on tile crops: hue in degrees, saturation and value 0-1."""

    hue: float
    saturation: float
    value: float

    def to_json(self) -> list[float]:
        return [round(self.hue, 2), round(self.saturation, 4), round(self.value, 4)]

    @classmethod
    def from_json(cls, data: Any, name: str = "ink") -> Ink:
        """Raises ProfileError naming `name` unless `data` is [hue 0-360, saturation 0-1, value 0-1]."""
        expected = "[hue 0-360, saturation 0-1, value 0-1]"
        if not isinstance(data, list) or len(data) != 3:
            raise _damaged(name, expected, data)
        hue, saturation, value = (_number(v, name, expected) for v in data)
        if not (0.0 <= hue <= 360.0 and 0.0 <= saturation <= 1.0 and 0.0 <= value <= 1.0):
            raise _damaged(name, expected, data)
        return cls(hue, saturation, value)


def _array_to_json(array: np.ndarray) -> dict[str, Any]:
    array = np.asarray(array, dtype=np.float16)
    return {"shape": list(array.shape), "float16": base64.b64encode(array.tobytes()).decode("ascii")}


def _damaged(name: str, expected: str, got: Any) -> ProfileError:
    try:
        shown = json.dumps(got)
    except (TypeError, ValueError, RecursionError):
        shown = repr(got)
    return ProfileError(f"the profile is damaged: {name!r} must be {expected}, got {shorten(shown)}")


def _number(value: Any, name: str, expected: str = "a number") -> float:
    # bool is an int to Python, and json.loads reads NaN and Infinity: neither is a measurement.
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _damaged(name, expected, value)
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        number = math.inf
    if not math.isfinite(number):
        raise _damaged(name, expected, value)
    return number


def _count(data: dict[str, Any], name: str) -> int:
    value = _required(data, name)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _damaged(name, "a whole number, 0 or more", value)
    return value


def _required(data: dict[str, Any], name: str) -> Any:
    if name not in data:
        raise ProfileError(f"the profile is damaged: the field {name!r} is missing")
    return data[name]


def _object(data: dict[str, Any], name: str, expected: str = "an object") -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise _damaged(name, expected, value)
    return value


def _inks_from_json(data: dict[str, Any], name: str) -> dict[str, Ink]:
    expected = f"an object of colour ({', '.join(COLOR_NAMES)}): [hue, saturation, value]"
    inks = _object(data, name, expected)
    for colour in inks:
        if colour not in COLOR_NAMES:
            raise _damaged(name, expected, colour)
    return {colour: Ink.from_json(ink, f"{name}.{colour}") for colour, ink in inks.items()}


def _array_from_json(data: Any, name: str) -> np.ndarray:
    """Raises ProfileError naming `name` unless `data` is a 2-D float16 array as `_array_to_json` writes."""
    expected = '{"shape": [rows, columns], "float16": base64 of rows x columns float16 numbers}'
    if not isinstance(data, dict):
        raise _damaged(name, expected, data)
    shape, encoded = data.get("shape"), data.get("float16")
    if (
        not isinstance(shape, list)
        or len(shape) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in shape)
    ):
        raise _damaged(f"{name}.shape", "[rows, columns], two whole numbers", shape)
    if not isinstance(encoded, str):
        raise _damaged(f"{name}.float16", "a base64 string", encoded)
    try:
        raw = base64.b64decode(encoded, validate=True)
    except binascii.Error as error:
        raise ProfileError(f"the profile is damaged: '{name}.float16' is not base64 ({error})") from error
    if len(raw) != 2 * shape[0] * shape[1]:
        raise ProfileError(
            f"the profile is damaged: {name + '.float16'!r} holds {len(raw) // 2} numbers, "
            f"its shape {shape} says {shape[0] * shape[1]}"
        )
    array = np.frombuffer(raw, dtype=np.float16).reshape(shape).astype(np.float32)
    if not np.isfinite(array).all():
        raise ProfileError(f"the profile is damaged: {name!r} holds numbers that are not finite")
    return array


@dataclass
class Profile:
    """What was learned. Fields left at their defaults change nothing in the reader.

    Attributes:
        models: the model files the profile was made with.
        empty_photos, tile_photos, tiles_learned: what it was made from.
        false_descriptors: (m, d) descriptors (`vision.profiled.describe_crops`) of what the reader finds
            on the bare table: a later detection this close to one of them is dropped.
        false_radius: the distance under which a detection counts as one of them.
        keep_above: a detection whose best reading scores at least this is kept even when it is close.
        min_score: detector score a tile needs on this table (None: the reader's own).
        inks: the set's inks as measured (by colour name); `reference_inks`: the inks the classifier knows,
            measured the same way; `map_inks`: whether crops are recoloured from one to the other.
        tile_descriptors: (p, d) descriptors of the set's own tiles (from the tile photos), for the radius.
    """

    models: ModelVersions
    empty_photos: int = 0
    tile_photos: int = 0
    tiles_learned: int = 0
    false_descriptors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    false_radius: float = 0.0
    keep_above: float = 1.01
    min_score: float | None = None
    inks: dict[str, Ink] = field(default_factory=dict)
    reference_inks: dict[str, Ink] = field(default_factory=dict)
    map_inks: bool = False
    tile_descriptors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def false_finds(self) -> int:
        return len(self.false_descriptors)

    def check_models(self, versions: ModelVersions) -> None:
        """Raises ProfileError when the profile was made with other model files than `versions`."""
        if versions != self.models:
            raise ProfileError(
                f"this profile was made with other models ({self.models}) than the reader's ({versions}): "
                "calibrate again with these models (rummi calibrate)"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": PROFILE_FORMAT,
            "models": {"detector": self.models.detector, "classifier": self.models.classifier},
            "empty_photos": self.empty_photos,
            "tile_photos": self.tile_photos,
            "tiles_learned": self.tiles_learned,
            "false_descriptors": _array_to_json(self.false_descriptors),
            "false_radius": self.false_radius,
            "keep_above": self.keep_above,
            "min_score": self.min_score,
            "inks": {name: ink.to_json() for name, ink in self.inks.items()},
            "reference_inks": {name: ink.to_json() for name, ink in self.reference_inks.items()},
            "map_inks": self.map_inks,
            "tile_descriptors": _array_to_json(self.tile_descriptors),
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        """Raises ProfileError: not a profile, another format, or a field that cannot be read."""
        if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
            found = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise ProfileError(
                f"not a rummi calibration profile (format {found!r}, expected {PROFILE_FORMAT!r})"
            )
        models = _required(data, "models")
        if not isinstance(models, dict):
            raise _damaged("models", 'an object {"detector": hash, "classifier": hash}', models)
        for part in ("detector", "classifier"):
            if not isinstance(models.get(part), str) or not models[part]:
                raise _damaged(f"models.{part}", "the model file's hash, a string", models.get(part))
        min_score = data.get("min_score")
        if min_score is not None and not 0.0 <= _number(min_score, "min_score", "null or 0-1") <= 1.0:
            raise _damaged("min_score", "null or 0-1", min_score)
        false_radius = _number(_required(data, "false_radius"), "false_radius", "a number, 0 or more")
        if false_radius < 0:
            raise _damaged("false_radius", "a number, 0 or more", false_radius)
        map_inks = data.get("map_inks", False)
        if not isinstance(map_inks, bool):
            raise _damaged("map_inks", "true or false", map_inks)
        false_descriptors = _array_from_json(_required(data, "false_descriptors"), "false_descriptors")
        tile_descriptors = _array_from_json(_required(data, "tile_descriptors"), "tile_descriptors")
        # Both are compared with the same crops' descriptors (`vision.profiled.nearest_distance`).
        if len(false_descriptors) and len(tile_descriptors) and (
            false_descriptors.shape[1] != tile_descriptors.shape[1]
        ):
            raise ProfileError(
                "the profile is damaged: 'false_descriptors' and 'tile_descriptors' have "
                f"{false_descriptors.shape[1]} and {tile_descriptors.shape[1]} columns, not the same"
            )
        return cls(
            models=ModelVersions(models["detector"], models["classifier"]),
            empty_photos=_count(data, "empty_photos"),
            tile_photos=_count(data, "tile_photos"),
            tiles_learned=_count(data, "tiles_learned"),
            false_descriptors=false_descriptors,
            false_radius=false_radius,
            keep_above=_number(_required(data, "keep_above"), "keep_above"),
            min_score=None if min_score is None else float(min_score),
            inks=_inks_from_json(data, "inks"),
            reference_inks=_inks_from_json(data, "reference_inks"),
            map_inks=map_inks,
            tile_descriptors=tile_descriptors,
            notes=dict(_object(data, "notes")),
        )

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, raw: bytes) -> Profile:
        """Raises ProfileError: over MAX_PROFILE_BYTES, not JSON (a number of hundreds of digits, arrays
        nested thousands deep), or not a profile."""
        if len(raw) > MAX_PROFILE_BYTES:
            raise ProfileError(
                f"not a rummi calibration profile ({len(raw) / 1e6:.0f} MB; a profile is at most "
                f"{MAX_PROFILE_BYTES // 10**6} MB)"
            )
        try:
            data = json.loads(raw.decode("utf-8"), parse_int=_whole_number)
        except ProfileError:
            raise
        except RecursionError as error:
            raise ProfileError("not a rummi calibration profile (JSON nested too deep to read)") from error
        except (UnicodeDecodeError, ValueError) as error:  # json.JSONDecodeError is a ValueError
            raise ProfileError(f"not a rummi calibration profile (not JSON: {error})") from error
        return cls.from_json(data)


def _whole_number(text: str) -> int:
    """A JSON integer, refused when longer than MAX_NUMBER_DIGITS (before Python converts it)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_NUMBER_DIGITS:
        raise ProfileError(f"not a rummi calibration profile (it holds a number of {digits} digits)")
    return int(text)


def save_profile(path: str | Path, profile: Profile) -> None:
    Path(path).write_bytes(profile.to_bytes())


def load_profile(path: str | Path) -> Profile:
    """The profile in the file at `path`: a regular file of at most MAX_PROFILE_BYTES (at most one byte more
    is read; a named pipe or a device is refused unread, `assistant.user_files`).

    Raises:
        ProfileError: the file is missing, not a regular file, too large, unreadable or not a profile (the
            message names it).
    """
    raw = read_user_file(path, MAX_PROFILE_BYTES, "a profile file", ProfileError)
    try:
        return Profile.from_bytes(raw)
    except ProfileError as error:
        raise ProfileError(f"{path}: {error}") from error
