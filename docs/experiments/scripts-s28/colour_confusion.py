"""Colour confusions of the reader on render folders: (true colour, read colour) counts for matched tiles."""
import json
import os
import sys
from collections import Counter
from pathlib import Path

from assistant.rules import STANDARD
from vision.confidence import NO_TILE_BELOW
from vision.evaluation.scenes import match_scene, rendered_scenes
from vision.read import read_document
from vision.reader import TileReader

reader = TileReader()

reader.photo_blue = os.environ.get("PHOTO_BLUE", "1") == "1"
for folder in map(Path, sys.argv[1:]):
    confusion = Counter()
    photos_wrong = Counter()
    records = []
    for image_path, scene, frame in rendered_scenes(folder):
        det = reader.read(frame)
        doc, layout = read_document(str(image_path), frame, det, STANDARD, None, NO_TILE_BELOW)
        matched, _ = match_scene(scene["tiles"], doc["tiles"])
        wrong = 0
        for p, i in matched.items():
            t, r = scene["tiles"][i]["token"], doc["tiles"][p]["tile"]
            tc = "J" if t.startswith("J") else t[0]
            rc = "J" if r.startswith("J") else r[0]
            confusion[(tc, rc)] += 1
            wrong += tc != rc
            box = doc["tiles"][p].get("box")
            records.append({"scene": image_path.stem, "truth": t, "read": r, "box": box})
        photos_wrong[wrong > 0] += 1
    print(folder, dict(sorted(confusion.items())), "scenes with a colour wrong:", photos_wrong[True], "of",
          sum(photos_wrong.values()))
    (folder / "colour-records.json").write_text(json.dumps(records))
