"""Colour vs number misreads of the reader on render folders (found tiles only)."""

import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from assistant.rules import STANDARD
from vision.evaluation.reading import match_boxes
from vision.read import read_document
from vision.reader import TileReader

reader = TileReader()
for folder in map(Path, sys.argv[1:]):
    c = Counter()
    for sf in sorted((folder / "scenes").glob("*.json")):
        scene = json.loads(sf.read_text())
        frame = cv2.imread(str(folder / "images" / f"{sf.stem}.jpg"))
        doc, _ = read_document(sf.stem, frame, reader.read(frame), STANDARD, floor=0.0)
        tiles = scene["tiles"]
        lab = [i for i, t in enumerate(tiles) if t.get("labelled", True)]
        tb = np.array([tiles[i]["box"] for i in lab], float).reshape(-1, 4)
        pb = np.array([t["box"] for t in doc["tiles"]], float).reshape(-1, 4)
        for p, t in match_boxes(pb, tb):
            truth, got = tiles[lab[t]]["token"], doc["tiles"][p]["tile"]
            c["found"] += 1
            if truth == got:
                continue
            tc, gc = truth[0], got[0]
            if truth == "J" or got == "J" or got == "?":
                c["joker/?"] += 1
            elif tc != gc and truth[1:] == got[1:]:
                c[f"colour {tc}->{gc}"] += 1
            elif tc == gc:
                c["number"] += 1
            else:
                c["both"] += 1
    print(folder.name, dict(c.most_common()))
