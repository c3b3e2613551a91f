"""How far the reader's up direction of each found tile is from the truth on rendered scenes (thirty-seventh
session: a new lead classifier read a tilted tile's up 15 degrees off its neighbours and split a set on a
photo game). Prints the median, 90th percentile and share over 10 / 20 degrees; the models folder's classifier
files as scripts-s13/classify_settings.py --models reads them.

    .venv/bin/python docs/experiments/scripts-s37/angle_errors.py MODELS_DIR FOLDER...
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from models_dir import reader_with_classifiers  # noqa: E402

from vision.evaluation.scenes import match_scene, rendered_scenes  # noqa: E402

reader = reader_with_classifiers(Path(sys.argv[1]))
errors = []
for folder in sys.argv[2:]:
    for _, scene, frame in rendered_scenes(Path(folder)):
        found = reader.read(frame)
        reported = [{"box": [float(v) for v in box]} for box in found.xyxy]
        matched, _ = match_scene(scene["tiles"], reported)
        for p, t in matched.items():
            truth = scene["tiles"][t]["angle"]
            errors.append([abs((sign * float(found.angle[p]) + truth + shift + 180.0) % 360.0 - 180.0)
                           for sign in (1, -1) for shift in (0, 90, 180, 270)])
errors = np.array(errors)
errors = errors[:, int(np.argmin(np.median(errors, axis=0)))]  # the two programs' conventions
print(f"{len(errors)} tiles: median {np.median(errors):.1f} deg, p90 {np.percentile(errors, 90):.1f}, "
      f"over 10 deg {np.mean(errors > 10):.4f}, over 20 deg {np.mean(errors > 20):.4f}, "
      f"over 45 {np.mean(errors > 45):.4f}")
