"""A calibration profile: what `rummi calibrate` learned of one table and one tile set, as a small file.

The profile is JSON (arrays as base64 float16), a few tens of kB. It records the model files it was made
with (a hash of each ONNX file); a profile made with other models is refused (`ProfileError`), since the
descriptors it holds are the classifier's own outputs. Made by `vision.calibration`, used by
`vision.reader.TileReader(profile=...)`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

PROFILE_FORMAT = "rummi-profile/1"
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
    def from_json(cls, data: Any) -> Ink:
        hue, saturation, value = (float(v) for v in data)
        return cls(hue, saturation, value)


def _array_to_json(array: np.ndarray) -> dict[str, Any]:
    array = np.asarray(array, dtype=np.float16)
    return {"shape": list(array.shape), "float16": base64.b64encode(array.tobytes()).decode("ascii")}


def _array_from_json(data: Any) -> np.ndarray:
    shape = tuple(int(v) for v in data["shape"])
    raw = base64.b64decode(data["float16"], validate=True)
    return np.frombuffer(raw, dtype=np.float16).reshape(shape).astype(np.float32)


@dataclass
class Profile:
    """What was learned. Fields left at their defaults change nothing in the reader.

    Attributes:
        models: the model files the profile was made with.
        empty_photos, tile_photos, tiles_learned: what it was made from.
        false_descriptors: (m, d) descriptors (`vision.calibration.describe_crops`) of what the reader finds
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
        try:
            min_score = data.get("min_score")
            return cls(
                models=ModelVersions(str(data["models"]["detector"]), str(data["models"]["classifier"])),
                empty_photos=int(data["empty_photos"]),
                tile_photos=int(data["tile_photos"]),
                tiles_learned=int(data["tiles_learned"]),
                false_descriptors=_array_from_json(data["false_descriptors"]),
                false_radius=float(data["false_radius"]),
                keep_above=float(data["keep_above"]),
                min_score=None if min_score is None else float(min_score),
                inks={str(k): Ink.from_json(v) for k, v in data.get("inks", {}).items()},
                reference_inks={str(k): Ink.from_json(v) for k, v in data.get("reference_inks", {}).items()},
                map_inks=bool(data.get("map_inks", False)),
                tile_descriptors=_array_from_json(data["tile_descriptors"]),
                notes=dict(data.get("notes", {})),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ProfileError(f"the profile is damaged: {type(error).__name__}: {error}") from error

    def to_bytes(self) -> bytes:
        return json.dumps(self.to_json(), separators=(",", ":")).encode("utf-8")

    @classmethod
    def from_bytes(cls, raw: bytes) -> Profile:
        """Raises ProfileError: not JSON, or not a profile."""
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ProfileError(f"not a rummi calibration profile (not JSON: {error})") from error
        return cls.from_json(data)


def save_profile(path: str | Path, profile: Profile) -> None:
    Path(path).write_bytes(profile.to_bytes())


def load_profile(path: str | Path) -> Profile:
    """Raises ProfileError: the file is missing, unreadable or not a profile (the message names it)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise ProfileError(f"cannot read profile {str(path)!r}: {error.strerror or error}") from error
    try:
        return Profile.from_bytes(raw)
    except ProfileError as error:
        raise ProfileError(f"{path}: {error}") from error
