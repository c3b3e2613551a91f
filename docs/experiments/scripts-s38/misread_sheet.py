"""A contact sheet of the found tiles a models folder's reader reads with a wrong number, on rendered scenes:
each the detector's box widened a little, titled truth > read (thirty-eighth session: what the crops of the
misreads look like).

    .venv/bin/python docs/experiments/scripts-s38/misread_sheet.py MODELS_DIR OUT.png FOLDER [LIMIT]
"""
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts-s37"))

from models_dir import found_readings, reader_with_classifiers  # noqa: E402

from vision.evaluation.scenes import misread_parts  # noqa: E402

reader = reader_with_classifiers(Path(sys.argv[1]))
cells = []
limit = int(sys.argv[4]) if len(sys.argv) > 4 else None
for scene, frame, true_tile, reported in found_readings(reader, Path(sys.argv[3]), limit):
    truth, read = true_tile["token"], reported["tile"]
    if truth == read or not misread_parts(truth, read)[0]:
        continue
    x0, y0, x1, y1 = reported["box"]
    pad = 0.15 * max(x1 - x0, y1 - y0)
    h, w = frame.shape[:2]
    crop = frame[max(0, int(y0 - pad)):min(h, int(y1 + pad)), max(0, int(x0 - pad)):min(w, int(x1 + pad))]
    side = 96
    scale = side / max(crop.shape[:2])
    crop = cv2.resize(crop, (max(1, int(crop.shape[1] * scale)), max(1, int(crop.shape[0] * scale))))
    cell = np.full((side + 18, side, 3), 255, np.uint8)
    cell[18:18 + crop.shape[0], :crop.shape[1]] = crop
    label = f"{truth}>{read} {scene['kind'][:6]}"
    cv2.putText(cell, label, (1, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.36, (0, 0, 0), 1)
    cells.append(cell)
columns = 10
blank = np.full_like(cells[0], 255)
rows = [np.hstack(cells[i:i + columns] + [blank] * (columns - len(cells[i:i + columns])))
        for i in range(0, len(cells), columns)]
cv2.imwrite(sys.argv[2], np.vstack(rows))
print(f"{len(cells)} misread numbers on {sys.argv[2]}")
