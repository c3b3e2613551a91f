"""Read every scene of render folders once with a detector and keep the detections (pickle), so that changes
after the detector (the layout, the racks' tiers) are scored without reading again (`score_cache.py`).

    python docs/experiments/scripts-s31/cache_dets.py OUT.pkl DETECTOR.onnx|shipped FOLDER...
"""

import pickle
import sys
from pathlib import Path

from vision.detector import TileDetector
from vision.evaluation.scenes import rendered_scenes
from vision.reader import TileReader, load_classifier

out, detector = Path(sys.argv[1]), sys.argv[2]
folders = [Path(f) for f in sys.argv[3:]]
reader = TileReader(TileDetector(None if detector == "shipped" else Path(detector)), load_classifier())
cache = []
for folder in folders:
    for image_path, scene, frame in rendered_scenes(folder):
        cache.append((folder.name, str(image_path), scene, reader.read(frame)))
out.write_bytes(pickle.dumps(cache))
print("cached", len(cache))
