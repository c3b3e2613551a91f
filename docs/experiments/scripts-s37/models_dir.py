"""The shipped reader with the crop classifier files and classifiers.json of another folder (the detector
stays models/'s), as `scripts-s13/classify_settings.py --models` sets it up; for this folder's scripts."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from vision import reader as reader_module  # noqa: E402


def reader_with_classifiers(models: Path) -> reader_module.TileReader:
    shipped_path = reader_module.model_path

    def model_path(filename: str) -> Path:
        mine = models / filename
        return mine if mine.is_file() and filename != "tile_detector.onnx" else shipped_path(filename)

    reader_module.model_path = model_path
    return reader_module.TileReader(classifier=reader_module.load_classifier())
