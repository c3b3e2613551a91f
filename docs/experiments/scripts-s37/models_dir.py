"""The shipped reader with the model files of another folder where it has them (the detector stays
models/'s), as `scripts-s13/classify_settings.py --models` sets it up; for the s37 and s38 scripts."""
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from assistant.rules import STANDARD  # noqa: E402
from vision import classifier, confidence, onnx_models, rack_check  # noqa: E402
from vision import reader as reader_module  # noqa: E402
from vision.confidence import NO_TILE_BELOW  # noqa: E402
from vision.evaluation.scenes import match_scene, rendered_scenes  # noqa: E402
from vision.read import read_document  # noqa: E402


def use_models(models: Path) -> None:
    """From now on in this process, every model file (the crop classifiers, classifiers.json,
    confidence.json, rack_check.onnx, tile_stance.onnx) comes from `models` where it has that file."""
    shipped_path = onnx_models.model_path

    def model_path(filename: str) -> Path:
        mine = models / filename
        return mine if mine.is_file() and filename != "tile_detector.onnx" else shipped_path(filename)

    for module in (classifier, confidence, rack_check, reader_module):
        module.model_path = model_path


def reader_with_classifiers(models: Path) -> reader_module.TileReader:
    use_models(models)
    return reader_module.TileReader(classifier=reader_module.load_classifier())


def found_readings(
    reader: reader_module.TileReader, folder: Path, limit: int | None = None
) -> Iterator[tuple[dict[str, Any], np.ndarray, dict[str, Any], dict[str, Any]]]:
    """(scene, frame, true tile, reported tile) of each tile found in the rendered scenes of `folder` (the
    first `limit`), read as `rummi read` reports them."""
    for image_path, scene, frame in rendered_scenes(folder, limit):
        document, _ = read_document(str(image_path), frame, reader.read(frame), STANDARD, None, NO_TILE_BELOW)
        matched, _ = match_scene(scene["tiles"], document["tiles"])
        for p, t in matched.items():
            yield scene, frame, scene["tiles"][t], document["tiles"][p]
