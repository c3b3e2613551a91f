"""The shipped reader with the detector's tile threshold lowered (the floor and doubt line of
vision.confidence deciding instead): tuning renders, real-dev and real-racks.

    python docs/experiments/scripts-s11/tile_threshold.py 0.3 /work/runs/eval/tune8800-*/
"""

import sys
from pathlib import Path

from vision.detector import TileDetector
from vision.evaluation import reading, real_racks, scenes
from vision.reader import TileReader

threshold = float(sys.argv[1])
reader = TileReader(detector=TileDetector(confidence=threshold))
total = scenes.KindScores()
for folder in sys.argv[2:]:
    total.add(scenes.evaluate_folder(Path(folder), reader))
f = total.figures()
print("tuning renders:", {k: f[k] for k in ("recall", "precision", "end_to_end", "false_tiles_per_scene",
                                            "rack_tiles_in_racks", "table_tiles_put_on_racks")})
dev = Path("/work/shared/real-dev")
results, _, _ = reading.evaluate(dev / "images", dev / "labels", dev / "data.yaml", reader, True,
                                 floor=reading.NO_TILE_BELOW)
f = reading.summarize(results)["all"].figures()
keys = ("detection_recall", "false_tiles", "end_to_end_accuracy", "tiles_put_on_racks")
print("real-dev:", {k: f[k] for k in keys})
scores, _ = real_racks.evaluate(Path("/work/shared/real-racks"), reader)
print("real-racks:", scores.figures())
