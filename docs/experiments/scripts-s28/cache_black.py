"""Cache per photo the blueness and true colour of tiles read black (photo_blue off)."""
import json
import sys
from pathlib import Path

import numpy as np

from assistant.tiles import CLASS_NAMES
from vision.crops import cut_crops
from vision.detections import box_iou
from vision.evaluation.crops import labelled_photos
from vision.evaluation.scenes import rendered_scenes
from vision.inks import ink_blueness
from vision.reader import TileReader

reader = TileReader()
reader.photo_blue = False
out = {}
for spec in sys.argv[2:]:
    kind, folder = spec.split(":", 1)
    folder = Path(folder)
    if kind == "render":
        items = ((p.stem, f, [t["token"] for t in s["tiles"] if t.get("labelled", True)],
                  np.array([t["box"] for t in s["tiles"] if t.get("labelled", True)], float).reshape(-1, 4))
                 for p, s, f in rendered_scenes(folder))
    else:
        items = ((p.stem, im, [CLASS_NAMES[c] for c in tr], bx) for p, im, tr, bx in labelled_photos(folder))
    for name, frame, toks, boxes in items:
        det = reader.read(frame)
        names = [CLASS_NAMES[c] if c >= 0 else "?" for c in det.class_id]
        black = np.array([n.startswith("black") for n in names], bool)
        if black.sum() < 2:
            continue
        b = ink_blueness(cut_crops(frame, det.xyxy[black]))
        iou = box_iou(det.xyxy[black], boxes) if len(boxes) else np.zeros((black.sum(), 0))
        tc = []
        for i in range(len(b)):
            j = int(iou[i].argmax()) if iou.shape[1] else -1
            t = toks[j] if j >= 0 and iou[i, j] > 0.5 else "-"
            if t.startswith("b") and not t.startswith("black"):
                tc.append("b")
            else:
                tc.append("k" if t.startswith(("k", "black")) else t[:1])
        values = [None if np.isnan(x) else float(x) for x in b]
        out[f"{folder.name}/{name}"] = [[x, c] for x, c in zip(values, tc, strict=True)]
Path(sys.argv[1]).write_text(json.dumps(out))
print(len(out))
