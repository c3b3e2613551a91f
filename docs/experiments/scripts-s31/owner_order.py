"""Per rack, the places of its tiles in the owner's order as the layout reads them, for several detectors side
by side on one render folder (one JSON line a scene): where two detectors' racks in owner order differ.

    python docs/experiments/scripts-s31/owner_order.py FOLDER OUT.jsonl shipped|DETECTOR.onnx ...
"""

import json
import sys
from pathlib import Path

from assistant.rules import STANDARD
from vision.confidence import NO_TILE_BELOW
from vision.detector import TileDetector
from vision.evaluation.scenes import match_scene, owner_places, rendered_scenes
from vision.read import read_document
from vision.reader import TileReader, load_classifier

folder, out, detectors = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
readers = {
    d: TileReader(TileDetector(None if d == "shipped" else Path(d)), load_classifier()) for d in detectors
}
rows = []
for image_path, scene, frame in rendered_scenes(folder):
    true_racks = scene.get("rack_rows", [])
    line = {"scene": image_path.stem, "racks_true": [sum(map(len, rack)) for rack in true_racks]}
    for name, reader in readers.items():
        detections = reader.read(frame)
        document, layout = read_document(str(image_path), frame, detections, STANDARD, None, NO_TILE_BELOW)
        matched, _ = match_scene(scene["tiles"], document["tiles"])
        line[name] = owner_places(scene, layout, matched)
    rows.append(line)
    print(json.dumps(line), flush=True)
out.write_text("\n".join(json.dumps(r) for r in rows))
