"""benchmarks/measure_referee_set.py with the model files of MODELS_DIR where it has them (the detector stays
the shipped one: `scripts-s37/models_dir.use_models`).

    .venv/bin/python docs/experiments/scripts-s38/referee_with_models.py MODELS_DIR NAME OUT FOLDER...
"""
import runpy
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(root / "docs/experiments/scripts-s37"))

from models_dir import use_models  # noqa: E402

use_models(Path(sys.argv[1]))
sys.argv = [str(root / "benchmarks/measure_referee_set.py"), *sys.argv[2:]]
runpy.run_path(sys.argv[0], run_name="__main__")
