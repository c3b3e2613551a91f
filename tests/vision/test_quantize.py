"""The int8 copy of a crop classifier (vision.training.quantize) on a tiny random model built here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from tests.vision.tiny_models import conv_classifier
from vision.classifier import TileClassifier
from vision.crops import CROP_SIZE
from vision.training.quantize import int8_path, main, quantize_classifier


def _crops(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # Smooth blobs rather than noise: the small net's activations then spread as on real crops.
    base = rng.integers(0, 256, (count, 4, 4, 3), dtype=np.uint8)
    return np.ascontiguousarray(base.repeat(CROP_SIZE // 4, axis=1).repeat(CROP_SIZE // 4, axis=2))


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("quantize")
    source = conv_classifier(folder / "tiny.onnx", seed=3)
    return source, quantize_classifier(source, int8_path(source), _crops(96, seed=1))


def test_int8_file_lies_beside_the_source_or_in_the_given_folder(tmp_path: Path) -> None:
    assert int8_path(Path("models/a.onnx")) == Path("models/a_int8.onnx")
    assert int8_path(Path("models/a.onnx"), tmp_path) == tmp_path / "a_int8.onnx"


def test_weights_are_int8_but_first_conv_and_softmax_stay_float(models: tuple[Path, Path]) -> None:
    _, target = models
    graph = onnx.load(str(target)).graph
    ops = [node.op_type for node in graph.node]
    assert "QuantizeLinear" in ops and "DequantizeLinear" in ops
    int8_weights = {init.name.removesuffix("_quantized") for init in graph.initializer
                    if init.data_type == onnx.TensorProto.INT8 and init.name.endswith("_quantized")}
    assert int8_weights == {"w2", "wc", "wa"}  # second conv and both heads
    first_conv = next(node for node in graph.node if node.op_type == "Conv")
    assert first_conv.input[0] == "crops" and first_conv.input[1] == "w1"  # float input and weights
    producers = {out: node.op_type for node in graph.node for out in node.output}
    assert [producers[out.name] for out in graph.output] == ["Softmax", "Softmax"]


def test_metadata_is_copied_and_says_where_it_came_from(models: tuple[Path, Path]) -> None:
    _, target = models
    meta = {prop.key: prop.value for prop in onnx.load(str(target)).metadata_props}
    assert meta["temperature"] == "0.7" and meta["angle_bins"] == "8"
    assert meta["class_names"].endswith(",not_a_tile")
    assert meta["quantized_from"] == "tiny.onnx"
    assert "96 calibration crops" in meta["quantization"]


def test_int8_copy_reads_as_the_float_model(models: tuple[Path, Path]) -> None:
    source, target = models
    crops = _crops(64, seed=2)
    float_probs, _, float_angles = TileClassifier(source, threads=1, turns=1).probabilities(crops)
    int8_probs, _, int8_angles = TileClassifier(target, threads=1, turns=1).probabilities(crops)
    assert (float_probs.argmax(axis=1) == int8_probs.argmax(axis=1)).mean() >= 0.9
    assert np.abs(float_probs - int8_probs).max() < 0.1
    assert np.abs(float_angles - int8_angles).max() < 0.1
    assert not np.array_equal(float_probs, int8_probs)  # it is another model, not a copy


def test_no_calibration_crops_is_a_value_error(tmp_path: Path) -> None:
    source = conv_classifier(tmp_path / "tiny.onnx")
    with pytest.raises(ValueError, match="no calibration crops"):
        quantize_classifier(source, tmp_path / "out.onnx", np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8))


def test_cli_names_a_missing_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "absent.onnx")]) == 2
    assert "no such model file" in capsys.readouterr().err


def test_cli_names_a_missing_detector(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = conv_classifier(tmp_path / "tiny.onnx")
    assert main([str(source), "--detector", str(tmp_path / "absent_detector.onnx")]) == 2
    assert "absent_detector.onnx" in capsys.readouterr().err
    assert not int8_path(source).exists()
