"""How well a detector's rack scores tell real racks from tables with none, whatever the threshold: the best
score of a rack box holding most of each real-racks photo's rack tiles, and the best rack score on each
real-dev photo (no racks there), then for thresholds between them how many real racks are kept against how
many rack-free photos get a rack. Tuning photos all.

    python docs/experiments/scripts-s27/rack_scores.py DETECTOR.onnx [...]
"""

import sys
from pathlib import Path

import numpy as np

from vision.detector import TileDetector
from vision.evaluation.reading import image_files, labelled_photos
from vision.racks import rack_owners

REAL_RACKS = Path("/work/shared/real-racks")
REAL_DEV = [Path("/work/runs/real-dev-measure"), Path("/work/runs/real-dev-train")]


def rack_scores(detector: TileDetector, folder: Path, holding_labelled: bool) -> list[float]:
    photos = image_files(folder / "images")
    scores = []
    for _photo, frame, true_boxes, _ids in labelled_photos(photos, folder / "labels", folder / "data.yaml"):
        found = detector.detect(frame)
        racks, conf = np.asarray(found.rack_xyxy).reshape(-1, 4), np.asarray(found.rack_confidence)
        if not holding_labelled:
            scores.append(float(conf.max()) if len(conf) else 0.0)
            continue
        owner = rack_owners(true_boxes, racks, found.rack_quad)  # the reader's own rule: half a tile inside
        best = max((float(score) for rack, score in enumerate(conf) if (owner == rack).mean() >= 0.5),
                   default=0.0)
        scores.append(best)
    return scores


for path in sys.argv[1:]:
    detector = TileDetector(path)
    detector.rack_confidence = 0.05
    true = rack_scores(detector, REAL_RACKS, True)
    false = [s for folder in REAL_DEV for s in rack_scores(detector, folder, False)]
    print(f"{path}\n  real racks' best scores: {' '.join(f'{s:.2f}' for s in sorted(true))}")
    highest = sorted(false)[::-1][:12]
    print(f"  rack-free photos' best rack score, top 12: {' '.join(f'{s:.2f}' for s in highest)}")
    for threshold in (0.35, 0.4, 0.45):
        print(f"  at {threshold}: {sum(s >= threshold for s in true)} of {len(true)} real racks kept, "
              f"{sum(s >= threshold for s in false)} of {len(false)} rack-free photos get a rack")
    for kept in range(len(true), 2, -1):
        threshold = sorted(true)[::-1][kept - 1]
        print(f"  keeping {kept} of {len(true)} real racks (threshold {threshold:.2f}): "
              f"{sum(s >= threshold for s in false)} of {len(false)} rack-free photos get a rack")
