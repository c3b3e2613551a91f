"""The profile file (`vision.profile`): every malformed field is a ProfileError that names the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rummi import main
from vision.profile import Ink, ModelVersions, Profile, ProfileError


def _document() -> dict[str, Any]:
    profile = Profile(
        models=ModelVersions("0123456789abcdef", "fedcba9876543210"),
        empty_photos=1,
        tile_photos=1,
        tiles_learned=54,
        false_descriptors=np.ones((3, 4), np.float32),
        false_radius=6.5,
        keep_above=0.95,
        min_score=0.3,
        inks={"blue": Ink(195.0, 0.8, 0.9)},
        reference_inks={"blue": Ink(228.0, 0.85, 0.7)},
        map_inks=True,
        tile_descriptors=np.ones((2, 4), np.float32),
        notes={"false_finds": 3},
    )
    return profile.to_json()


def test_the_sample_document_reads() -> None:
    assert Profile.from_json(_document()).to_json() == _document()


BASE64_OF_3_NUMBERS = "AAAAAAAA"  # 6 bytes


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("reference_inks", 5, "'reference_inks'"),
        ("inks", "x", "'inks'"),
        ("inks", [], "'inks'"),
        ("inks", {"purple": [1, 0.5, 0.5]}, "'inks'"),
        ("inks", {"blue": "123"}, "'inks.blue'"),
        ("inks", {"blue": [1, 2]}, "'inks.blue'"),
        ("inks", {"blue": [1, "x", 0.5]}, "'inks.blue'"),
        ("inks", {"blue": [400, 0.5, 0.5]}, "'inks.blue'"),
        ("reference_inks", {"red": None}, "'reference_inks.red'"),
        ("map_inks", "yes", "'map_inks'"),
        ("map_inks", 1, "'map_inks'"),
        ("models", [1, 2], "'models'"),
        ("models", {"detector": 5, "classifier": "x"}, "'models.detector'"),
        ("models", {"detector": "x"}, "'models.classifier'"),
        ("empty_photos", "1", "'empty_photos'"),
        ("empty_photos", True, "'empty_photos'"),
        ("tile_photos", 1.5, "'tile_photos'"),
        ("tiles_learned", -3, "'tiles_learned'"),
        ("false_radius", "6", "'false_radius'"),
        ("false_radius", -1, "'false_radius'"),
        ("false_radius", float("nan"), "'false_radius'"),
        ("keep_above", None, "'keep_above'"),
        ("keep_above", 10**400, "'keep_above'"),
        ("min_score", "0.5", "'min_score'"),
        ("min_score", 7, "'min_score'"),
        ("notes", [1], "'notes'"),
        ("false_descriptors", 5, "'false_descriptors'"),
        ("false_descriptors", {"shape": "3x4", "float16": ""}, "'false_descriptors.shape'"),
        ("false_descriptors", {"shape": [12], "float16": ""}, "'false_descriptors.shape'"),
        ("false_descriptors", {"shape": [1, 3], "float16": 5}, "'false_descriptors.float16'"),
        ("false_descriptors", {"shape": [1, 3], "float16": "not base64!"}, "'false_descriptors.float16'"),
        ("tile_descriptors", {"shape": [2, 3], "float16": BASE64_OF_3_NUMBERS}, "'tile_descriptors.float16'"),
        ("tile_descriptors", {"shape": [1, 3], "float16": BASE64_OF_3_NUMBERS}, "'tile_descriptors'"),
        ("tile_descriptors", {"shape": [1, 3], "float16": "AHwAfAB8"}, "'tile_descriptors'"),  # infinities
    ],
)
def test_a_malformed_field_is_a_profile_error_naming_it(field: str, value: Any, named: str) -> None:
    document = _document()
    document[field] = value
    with pytest.raises(ProfileError, match="damaged") as caught:
        Profile.from_json(document)
    assert named in str(caught.value)


@pytest.mark.parametrize("field", ["models", "empty_photos", "false_radius", "false_descriptors"])
def test_a_missing_field_is_named(field: str) -> None:
    document = _document()
    del document[field]
    with pytest.raises(ProfileError, match=f"'{field}' is missing"):
        Profile.from_json(document)


def test_optional_fields_may_be_left_out() -> None:
    document = _document()
    for field in ("inks", "reference_inks", "map_inks", "notes", "min_score"):
        del document[field]
    profile = Profile.from_json(document)
    assert (profile.inks, profile.map_inks, profile.notes, profile.min_score) == ({}, False, {}, None)


@pytest.mark.parametrize(("field", "value"), [("reference_inks", 5), ("inks", "x"), ("map_inks", "yes")])
def test_read_with_a_malformed_profile_exits_2_naming_the_field(
    tmp_path: Path, field: str, value: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document()
    document[field] = value
    profile = tmp_path / "bad.profile"
    profile.write_text(json.dumps(document))
    assert main(["read", str(tmp_path / "any.jpg"), "--profile", str(profile)]) == 2
    err = capsys.readouterr().err
    assert f"'{field}'" in err and str(profile) in err and "Traceback" not in err
