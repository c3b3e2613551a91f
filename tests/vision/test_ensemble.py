"""The classifier ensemble the reader loads (vision.reader.load_classifier, models/classifiers.json)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from tests.vision.tiny_models import conv_classifier
from vision import reader as reader_module
from vision.classifier import ClassifierEnsemble, TileClassifier
from vision.crops import CROP_SIZE, crops_to_batch
from vision.onnx_models import ModelLoadError


def _crops(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 256, (count, 4, 4, 3), dtype=np.uint8)
    return np.ascontiguousarray(base.repeat(CROP_SIZE // 4, axis=1).repeat(CROP_SIZE // 4, axis=2))


@pytest.fixture(scope="module")
def members(tmp_path_factory: pytest.TempPathFactory) -> list[TileClassifier]:
    folder = tmp_path_factory.mktemp("ensemble")
    faces = conv_classifier(folder / "faces.onnx", seed=1)
    older = conv_classifier(folder / "older.onnx", seed=2, not_a_tile=False, temperature=1.0)
    return [TileClassifier(faces, threads=1), TileClassifier(older, threads=1)]


def test_one_batch_for_all_members_reads_as_each_member_alone(members: list[TileClassifier]) -> None:
    crops = _crops(40, seed=5)
    ensemble = ClassifierEnsemble(members, [0.7, 0.3])
    tile, not_tile, angle = ensemble.probabilities(crops)
    alone = [member.probabilities(crops) for member in members]
    first, second = ensemble.weights  # 0.7, 0.3 as float64
    assert np.array_equal(tile, first * alone[0][0] + second * alone[1][0])
    assert np.array_equal(angle, first * alone[0][2] + second * alone[1][2])
    assert np.array_equal(not_tile, alone[0][1])  # only the member that knows "not a tile" says it


def test_turning_the_batch_is_turning_the_crops(members: list[TileClassifier]) -> None:
    crops = _crops(6, seed=6)
    for k in (1, 2, 3):
        assert np.array_equal(np.rot90(crops_to_batch(crops), k, axes=(2, 3)),
                              crops_to_batch(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2)))))


def test_joint_recheck_rereads_the_crops_the_mean_doubts(members: list[TileClassifier]) -> None:
    crops = _crops(40, seed=7)
    batch = crops_to_batch(crops)
    passes = [member.first_pass(batch) for member in members]
    mean = 0.5 * np.pad(passes[0][0], ((0, 0), (0, 0))) + 0.5 * np.pad(passes[1][0], ((0, 0), (0, 1)))
    # The random nets are unsure of everything: doubt the less sure half.
    below = float(np.median(mean.max(axis=1)))
    members = [TileClassifier(member.path, threads=1, recheck_below=below) for member in members]
    doubtful = np.flatnonzero(mean.max(axis=1) < below)
    assert 0 < len(doubtful) < len(crops)  # the test means something
    expected = [member.settled(batch, p.copy(), a.copy(), doubtful)
                for member, (p, a) in zip(members, passes, strict=True)]
    tile, _, angle = ClassifierEnsemble(members, joint_recheck=True).probabilities(crops)
    assert np.allclose(tile, 0.5 * expected[0][0] + 0.5 * expected[1][0], atol=1e-7)
    assert np.allclose(angle, 0.5 * expected[0][2] + 0.5 * expected[1][2], atol=1e-7)
    # Rows no one doubts keep the first reading (temperature aside), as without a joint recheck.
    sure = np.setdiff1d(np.arange(len(crops)), doubtful)
    assert np.allclose(angle[sure], 0.5 * passes[0][1][sure] + 0.5 * passes[1][1][sure], atol=1e-7)


class CountingMember(TileClassifier):
    """A member that counts the crops it reads."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, threads=1)
        self.crops_read = 0

    def first_pass(self, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.crops_read += len(batch)
        return super().first_pass(batch)


def test_the_lead_reads_every_crop_the_others_only_those_it_doubts(members: list[TileClassifier]) -> None:
    crops = _crops(40, seed=8)
    batch = crops_to_batch(crops)
    lead_probs, _ = members[0].first_pass(batch)
    below = float(np.median(lead_probs[:, :-1].max(axis=1)))  # the random net doubts half the crops
    counted = [CountingMember(m.path) for m in members]
    for m in counted:
        m.recheck_below = 1e-9  # no turned rereads: count only the first readings
    led = ClassifierEnsemble(counted, [0.7, 0.3], joint_recheck=True, consult_below=below, lead=0)
    tile, not_tile, angle = led.probabilities(crops)
    consulted = np.flatnonzero(lead_probs[:, :-1].max(axis=1) < below)
    assert 0 < len(consulted) < len(crops)
    assert counted[0].crops_read == len(crops)  # once each: its readings of the consulted ones are reused
    assert counted[1].crops_read == len(consulted)
    mixed = ClassifierEnsemble(counted, [0.7, 0.3], joint_recheck=True).probabilities(crops)
    sure = np.setdiff1d(np.arange(len(crops)), consulted)
    alone = counted[0].probabilities(crops)
    assert np.allclose(tile[consulted], mixed[0][consulted], atol=1e-6)
    assert np.allclose(tile[sure], alone[0][sure], atol=1e-6)
    assert np.allclose(not_tile[sure], alone[1][sure], atol=1e-6)
    assert np.allclose(angle[sure], alone[2][sure], atol=1e-6)


def test_consulting_needs_the_joint_recheck_and_a_lead_member(members: list[TileClassifier]) -> None:
    with pytest.raises(ValueError, match="joint_recheck"):
        ClassifierEnsemble(members, consult_below=0.9)
    with pytest.raises(ValueError, match="lead"):
        ClassifierEnsemble(members, joint_recheck=True, consult_below=0.9, lead=2)


def test_listing_names_the_lead_and_when_the_others_are_consulted(shipped: Path) -> None:
    _listing(shipped, joint_recheck=True, consult_below=0.95, lead=1)
    loaded = reader_module.load_classifier(threads=1)
    assert isinstance(loaded, ClassifierEnsemble)
    assert (loaded.lead, loaded.consult_below) == (1, 0.95)


@pytest.fixture
def shipped(tmp_path: Path, members: list[TileClassifier], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A models folder with two fp32 members and their (here: swapped) "int8" files."""
    for member, name in zip(members, ("a", "b"), strict=True):
        (tmp_path / f"{name}.onnx").write_bytes(member.path.read_bytes())
    (tmp_path / "a_int8.onnx").write_bytes(members[1].path.read_bytes())
    (tmp_path / "b_int8.onnx").write_bytes(members[0].path.read_bytes())

    def model_path(filename: str) -> Path:
        path = tmp_path / filename
        if not path.is_file():
            raise ModelLoadError(f"model file {filename!r} not found")
        return path

    monkeypatch.setattr(reader_module, "model_path", model_path)
    return tmp_path


def _listing(folder: Path, second_turns: int | None = None, **settings: object) -> None:
    members: list[dict[str, object]] = [{"file": "a.onnx", "int8": "a_int8.onnx", "weight": 0.7},
                                        {"file": "b.onnx", "int8": "b_int8.onnx", "weight": 0.3}]
    if second_turns is not None:
        members[1]["turns"] = second_turns
    (folder / "classifiers.json").write_text(json.dumps({"members": members, **settings}))


def test_listing_without_settings_loads_fp32_members_four_turns(shipped: Path) -> None:
    _listing(shipped)
    loaded = reader_module.load_classifier(threads=1)
    assert isinstance(loaded, ClassifierEnsemble)
    assert [m.path.name for m in loaded.members] == ["a.onnx", "b.onnx"]
    assert [m.turns for m in loaded.members] == [4, 4]
    assert [m.recheck_below for m in loaded.members] == [0.8, 0.8]
    assert not loaded.joint_recheck
    assert np.allclose(loaded.weights, [0.7, 0.3])


def test_listing_settings_choose_int8_turns_and_joint_recheck(shipped: Path) -> None:
    _listing(shipped, precision="int8", turns=2, joint_recheck=True, recheck_below=0.6)
    loaded = reader_module.load_classifier(threads=1)
    assert isinstance(loaded, ClassifierEnsemble)
    assert [m.path.name for m in loaded.members] == ["a_int8.onnx", "b_int8.onnx"]
    assert [m.turns for m in loaded.members] == [2, 2]
    assert [m.recheck_below for m in loaded.members] == [0.6, 0.6] and loaded.recheck_below == 0.6
    assert loaded.joint_recheck


def test_a_member_may_read_in_its_own_turns(shipped: Path) -> None:
    _listing(shipped, second_turns=1, turns=4, joint_recheck=True)
    loaded = reader_module.load_classifier(threads=1)
    assert isinstance(loaded, ClassifierEnsemble)
    assert [m.turns for m in loaded.members] == [4, 1]


@pytest.mark.parametrize(
    "settings", [{"precision": "int4"}, {"turns": 3}, {"turns": "many"}, {"recheck_below": "often"}]
)
def test_bad_listing_settings_are_a_model_load_error_naming_the_file(shipped: Path, settings: dict) -> None:
    _listing(shipped, **settings)
    with pytest.raises(ModelLoadError, match="classifiers.json"):
        reader_module.load_classifier()


def test_shipped_listing_loads() -> None:
    """The shipped classifiers.json names files that are shipped, with settings the loader accepts."""
    loaded = reader_module.load_classifier(threads=1)
    assert isinstance(loaded, ClassifierEnsemble) and len(loaded.members) == 2
    assert all(member.path.is_file() for member in loaded.members)


def test_int8_without_int8_files_says_how_to_make_them(shipped: Path) -> None:
    members = [{"file": "a.onnx", "weight": 1.0}]
    (shipped / "classifiers.json").write_text(json.dumps({"members": members, "precision": "int8"}))
    with pytest.raises(ModelLoadError, match="vision.training.quantize"):
        reader_module.load_classifier()
