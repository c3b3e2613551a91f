"""Gaps between sets lying end to end at one frame of a game video, as the referee's watcher reads it
(thirty-sixth session: hands hold-out 3's miss).

    .venv/bin/python docs/experiments/scripts-s36/set_gaps.py GAME.mp4 FRAME
"""
import sys

import cv2
import numpy as np

from vision.layout import rebuild
from vision.placed import direction_vectors
from vision.reader import TileReader, video_reader
from vision.watch import seen_sets, table_only

video, frame_index = sys.argv[1], int(sys.argv[2])
cap = cv2.VideoCapture(video)
cap.set(cv2.CAP_PROP_POS_FRAMES, frame_index)
ok, frame = cap.read()
reader = video_reader(TileReader())
found = table_only(reader.read(frame))
layout = rebuild(found, image_size=(frame.shape[1], frame.shape[0]))
seen, rows = seen_sets(layout, found)
by_index = {p.index: p for tiles in layout.table for p in tiles}
names = [" ".join(str(s.tile) for s in tiles) for tiles in seen]
for a, r in enumerate(rows):
    last = by_index[r[-1]]
    right, up = direction_vectors(last.angle)
    width, height = last.size
    # steps between neighbours inside the set, for scale
    for b, r2 in enumerate(rows):
        if a == b:
            continue
        first = by_index[r2[0]]
        step = np.asarray(first.center) - np.asarray(last.center)
        along, across = float(step @ right), float(step @ up)
        if 0 < along < 3 * width and abs(across) < 0.5 * height:
            print(f"({names[a]}) -> ({names[b]}): centre step {along / width:.2f} widths")
    centers = [np.asarray(by_index[i].center) for i in r]
    inner = [float((centers[k + 1] - centers[k]) @ right) / width for k in range(len(r) - 1)]
    print(f"  set ({names[a]}) inner steps {np.round(inner, 2).tolist()}")
