"""Score cached detections (`cache_dets.py`) through `read_document` and the scene scores, per folder: rack
tiles in racks, table tiles on racks, racks in their owner's order (with counts). `--out-of-order`: also
list each rack read out of order (the places of its tiles in the owner's order).

    python docs/experiments/scripts-s31/score_cache.py [--out-of-order] CACHE.pkl...
"""

import pickle
import sys
from pathlib import Path

import cv2

from assistant.rules import STANDARD
from vision.confidence import NO_TILE_BELOW
from vision.evaluation.scenes import KindScores, match_scene, owner_places, score_scene
from vision.read import read_document

args = sys.argv[1:]
list_out_of_order = "--out-of-order" in args
for name in [a for a in args if a != "--out-of-order"]:
    per: dict[str, KindScores] = {}
    for folder, image_path, scene, detections in pickle.loads(Path(name).read_bytes()):
        frame = cv2.imread(image_path)
        document, layout = read_document(image_path, frame, detections, STANDARD, None, NO_TILE_BELOW)
        score_scene(per.setdefault(folder, KindScores()), scene, document, layout)
        if list_out_of_order:
            matched, _ = match_scene(scene["tiles"], document["tiles"])
            for places in owner_places(scene, layout, matched):
                if len(places) >= 2 and places != sorted(places):
                    print("  out of order:", folder, Path(image_path).stem, places)
    everything = KindScores()
    for scores in per.values():
        everything.add(scores)
    per["all"] = everything
    print(Path(name).stem)
    for folder, s in per.items():
        f = {k: (v if v is not None else 0.0) for k, v in s.figures().items()}
        print(f"  {folder:24} e2e {f['end_to_end']:.4f}"
              f" rack tiles in racks {f['rack_tiles_in_racks']:.4f} ({s.rack_tiles_in_racks}/{s.rack_tiles})"
              f" table tiles on racks {f['table_tiles_put_on_racks']:.4f}"
              f" ({s.table_tiles_in_racks}/{s.table_tiles})"
              f" owner order {f['racks_in_owner_order']:.4f} ({s.racks_in_owner_order}/{s.racks_read})"
              f" pairs {f['rack_pairs_in_order']:.4f}")
