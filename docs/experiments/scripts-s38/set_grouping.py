"""How the layout keeps a set whole when the crop classifier reads a tile's up direction wrong (thirty-eighth
session, issue 36: "tiles touching in a row are one set whatever their faces"; a photo game's r6 r7 r8 was
called three loose tiles when r8's up was read 25 degrees off r7's).

Reads each rendered scene once with the shipped reader (cached in CACHE), then rebuilds the layout with the
angles as read and with one tile of every true table set turned DELTA degrees further (either way, seeded),
and counts the true table sets of two or more tiles, every tile found, that come out as exactly one set.

    .venv/bin/python docs/experiments/scripts-s38/set_grouping.py CACHE.pkl FOLDER [--max-turn 25 30 ...]
"""
import argparse
import pickle
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from assistant.rules import STANDARD  # noqa: E402
from vision.evaluation.reading import match_boxes  # noqa: E402
from vision.evaluation.scenes import rendered_scenes  # noqa: E402
from vision.layout import LayoutParams, rebuild  # noqa: E402
from vision.path import Found, read_found  # noqa: E402
from vision.reader import load_reader  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("cache", type=Path)
parser.add_argument("folder", type=Path)
parser.add_argument("--max-turn", type=float, nargs="+", default=[25.0])
parser.add_argument("--deltas", type=float, nargs="+", default=[0.0, 10.0, 15.0, 20.0, 25.0, 30.0])
parser.add_argument("--show", action="store_true", help="print each set not kept exact")
args = parser.parse_args()

if args.cache.exists():
    scenes = pickle.loads(args.cache.read_bytes())
else:
    from vision.frames import Decoded

    reader = load_reader()
    scenes = []
    for image_path, scene, frame in rendered_scenes(args.folder):
        decoded = Decoded(frame, frame.shape[1], frame.shape[0], "png")
        found = Found(str(image_path), decoded, reader.find(frame), {})
        reading = read_found(reader, found, STANDARD)
        scenes.append((scene, reading.tiles, str(image_path)))
    args.cache.write_bytes(pickle.dumps(scenes))

rng_seed = 38
frames: dict[str, np.ndarray] = {}  # the stance network looks at the frame
for max_turn in args.max_turn:
    params = LayoutParams(max_turn=max_turn)
    for delta in args.deltas:
        rng = np.random.default_rng(rng_seed)
        whole = total = merged = 0
        for number, (scene, tiles, image_path) in enumerate(scenes):
            frame = frames.setdefault(image_path, cv2.imread(image_path))
            height, width = frame.shape[:2]
            truth = scene["tiles"]
            boxes = np.array([t["box"] for t in truth], float).reshape(-1, 4)
            matched = {p: t for p, t in match_boxes(tiles.xyxy, boxes)}
            found_as = {t: p for p, t in matched.items()}
            sets = [s for s in scene["sets"] if len(s) >= 2 and all(i in found_as for i in s)
                    and not any(truth[i].get("on_rack") for i in s)]
            angles = np.array(tiles.angle, float).copy()
            for s in sets:
                turned = found_as[s[int(rng.integers(len(s)))]]
                angles[turned] += delta * (1 if rng.random() < 0.5 else -1)
            layout = rebuild(replace(tiles, angle=angles % 360), STANDARD, image_size=(width, height),
                             params=params, frame=frame)
            set_of = {p.index: k for k, tiles_of in enumerate(layout.table) for p in tiles_of}
            for s in sets:
                total += 1
                places = {set_of.get(found_as[i]) for i in s}
                if len(places) == 1 and None not in places:
                    (k,) = places
                    whole += int(len(layout.table[k]) == len(s))
                    merged += int(len(layout.table[k]) > len(s))
                    if len(layout.table[k]) == len(s):
                        continue
                if args.show:
                    parts = sorted({set_of[found_as[i]] for i in s if found_as[i] in set_of})
                    print(f"  scene {number} ({scene['kind']}): {' '.join(truth[i]['token'] for i in s)} "
                          f"angles {' '.join(f'{angles[found_as[i]] % 360:.0f}' for i in s)} -> "
                          + " | ".join(" ".join(str(p.tile) for p in layout.table[k])
                                       for k in parts)
                          + (" (some off the table)" if None in places else ""))
        print(f"max_turn {max_turn:4.0f}  one tile turned {delta:4.0f} deg: {whole}/{total} sets exact "
              f"({100 * whole / max(total, 1):.2f} %), {merged} merged with other tiles", flush=True)
