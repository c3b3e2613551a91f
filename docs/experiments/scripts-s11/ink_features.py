"""Ink features (vision.inks.ink_chroma) of found tiles by true colour, on render folders and real photos."""

import json
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
from inks import (
    ink_chroma,  # docs/experiments/scripts-s11/inks.py (run from that folder, PYTHONPATH=.:/work/main)
)

from assistant.tiles import CLASS_INDEX
from vision.evaluation.reading import match_boxes, parse_label_text, read_class_names
from vision.evaluation.real_racks import token_of
from vision.reader import TileReader

reader = TileReader()
rows = []  # (set, photo, true colour, read colour, class conf, a, b, dL)


def add(setname, photo, frame, truth_boxes, truth_tokens):
    det = reader.read(frame)
    tokens = [str(t) if t is not None else "?" for t in det.tiles()]
    feats = ink_chroma(frame, det.xyxy)
    for p, t in match_boxes(det.xyxy, truth_boxes):
        col = tokens[p][0]
        marg = sum(
            float(sc)
            for ci, sc in zip(det.topk_class_ids[p], det.topk_scores[p], strict=True)
            if ci >= 0 and token_of(int(ci))[0] == col
        )
        rows.append((setname, photo, truth_tokens[t][0], col, marg, *feats[p]))


for arg in sys.argv[1:]:
    folder = Path(arg)
    if (folder / "scenes").is_dir():
        for sf in sorted((folder / "scenes").glob("*.json")):
            s = json.loads(sf.read_text())
            frame = cv2.imread(str(folder / "images" / f"{sf.stem}.jpg"))
            lab = [t for t in s["tiles"] if t.get("labelled", True)]
            add(
                folder.name,
                sf.stem,
                frame,
                np.array([t["box"] for t in lab], float).reshape(-1, 4),
                [t["token"] for t in lab],
            )
    else:
        names = read_class_names(folder / "data.yaml")
        tp = np.array([CLASS_INDEX[n] for n in names])
        for img in sorted((folder / "images").iterdir()):
            frame = cv2.imread(str(img))
            boxes, ids = parse_label_text(
                (folder / "labels" / f"{img.stem}.txt").read_text(), frame.shape[1], frame.shape[0]
            )
            add(folder.name, img.stem, frame, boxes, [token_of(int(i)) for i in tp[ids]])
json.dump(rows, open("/work/runs/eval/s11/ink_rows.json", "w"))
by = defaultdict(list)
for r in rows:
    by[(r[0].split("-")[0], r[2])].append(r[5:])
for key in sorted(by):
    v = np.array(by[key], float)
    v = v[~np.isnan(v).any(axis=1)]
    print(
        key,
        len(v),
        "median a,b,dL",
        np.round(np.median(v, axis=0), 1),
        "p10",
        np.round(np.percentile(v, 10, axis=0), 1),
        "p90",
        np.round(np.percentile(v, 90, axis=0), 1),
    )
