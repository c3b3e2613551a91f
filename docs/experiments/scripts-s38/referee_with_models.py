"""benchmarks/measure_referee_set.py with the classifier files, classifiers.json, confidence.json and
tile_stance.onnx of MODELS_DIR where it has them (the detector stays the shipped one), as
`scripts-s13/classify_settings.py --models` does for the evaluation modules.

    .venv/bin/python docs/experiments/scripts-s38/referee_with_models.py MODELS_DIR NAME OUT FOLDER...
"""
import runpy
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(root))

from vision import classifier, confidence, onnx_models, rack_check, reader  # noqa: E402

models = Path(sys.argv[1])
shipped_path = onnx_models.model_path


def model_path(filename: str) -> Path:
    mine = models / filename
    return mine if mine.is_file() and filename != "tile_detector.onnx" else shipped_path(filename)


for module in (classifier, confidence, rack_check, reader):
    module.model_path = model_path
sys.argv = [str(root / "benchmarks/measure_referee_set.py"), *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
