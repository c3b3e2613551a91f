"""Features of each rack box the detector finds (members, rows, the box beyond its tiles), true against false:
the tuning rack renders (seed 8800) and real-racks true, real-dev false. Twenty-ninth session, lab notes.

    python docs/experiments/scripts-s29/rack_features.py DETECTOR.onnx OUT.json
"""

import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detector import TileDetector
from vision.evaluation.reading import image_files, labelled_photos
from vision.racks import rack_owners

det = TileDetector(sys.argv[1])
det.rack_confidence = 0.2
rows_out = []


def feats(found, h_img, w_img):
    xyxy = np.asarray(found.xyxy).reshape(-1, 4)
    racks = np.asarray(found.rack_xyxy).reshape(-1, 4)
    conf = np.asarray(found.rack_confidence)
    owner = rack_owners(xyxy, racks, found.rack_quad) if len(xyxy) and len(racks) else np.full(len(xyxy), -1)
    out = []
    for r, box in enumerate(racks):
        m = np.flatnonzero(owner == r)
        if len(m) == 0:
            continue
        t = xyxy[m]
        th = np.median(np.maximum(t[:, 3] - t[:, 1], t[:, 2] - t[:, 0]))
        tw = np.median(np.minimum(t[:, 3] - t[:, 1], t[:, 2] - t[:, 0]))
        x1, y1, x2, y2 = box
        mask = np.zeros((int(y2 - y1) + 2, int(x2 - x1) + 2), np.uint8)
        for a in t:
            cv2.rectangle(
                mask,
                (int(max(a[0], x1) - x1), int(max(a[1], y1) - y1)),
                (int(min(a[2], x2) - x1), int(min(a[3], y2) - y1)),
                1,
                -1,
            )
        cy = np.sort((t[:, 1] + t[:, 3]) / 2)
        nrows = 1 + int((np.diff(cy) > 0.5 * th).sum())
        out.append(
            dict(
                score=float(conf[r]),
                n=len(m),
                rows=nrows,
                H=(y2 - y1) / th,
                W=(x2 - x1) / tw,
                below=(y2 - t[:, 3].max()) / th,
                above=(t[:, 1].min() - y1) / th,
                cover=float(mask.mean()),
                box=box.tolist(),
            )
        )
    return out


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    i = ix * iy
    return i / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i)


for kind in ["rack_front", "rack_above", "rack_angle", "rack_wood"]:
    f = Path(f"/work/runs/eval/tune8800-{kind}")
    for img in sorted((f / "images").iterdir()):
        scene = json.load(open(f / "scenes" / (img.stem + ".json")))
        frame = cv2.imread(str(img))
        for r in feats(det.detect(frame), *frame.shape[:2]):
            r["true"] = any(iou(r["box"], b) > 0.4 for b in scene["rack_boxes"])
            r["set"] = kind
            rows_out.append(r)
for folder, truth in [
    (Path("/work/shared/real-racks"), True),
    (Path("/work/runs/real-dev-measure"), False),
    (Path("/work/runs/real-dev-train"), False),
]:
    for photo, frame, _b, _i in labelled_photos(
        image_files(folder / "images"), folder / "labels", folder / "data.yaml"
    ):
        for r in feats(det.detect(frame), *frame.shape[:2]):
            r["true"] = truth and r["n"] >= 3
            r["set"] = folder.name
            r["photo"] = photo.name[:20]
            rows_out.append(r)
json.dump(rows_out, open(sys.argv[2], "w"), default=float)
