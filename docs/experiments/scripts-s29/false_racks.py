"""Per real-dev photo: tiles the layout puts on racks (none are on racks), for each detector; draws them
into /work/runs/s29/fr. Twenty-ninth session, lab notes.

    python docs/experiments/scripts-s29/false_racks.py DETECTOR.onnx [...]
"""

import sys
from pathlib import Path

import cv2

from assistant.rules import STANDARD
from vision.detector import TileDetector
from vision.evaluation.reading import image_files, labelled_photos
from vision.layout import rebuild
from vision.reader import TileReader

dets = sys.argv[1:]
readers = {d: TileReader(detector=TileDetector(d)) for d in dets}
for folder in [Path("/work/runs/real-dev-measure"), Path("/work/runs/real-dev-train")]:
    for photo, frame, _b, _i in labelled_photos(
        image_files(folder / "images"), folder / "labels", folder / "data.yaml"
    ):
        row = []
        for d, reader in readers.items():
            det = reader.read(frame)
            lay = rebuild(det, STANDARD, image_size=(frame.shape[1], frame.shape[0]), frame=frame)
            n = sum(len(r) for r in lay.racks)
            row.append(n)
            if n:
                img = frame.copy()
                for rack in det.rack_xyxy if det.rack_xyxy is not None else []:
                    x1, y1, x2, y2 = map(int, rack)
                    cv2.rectangle(img, (x1, y1), (x2, y2), (0, 0, 255), 3)
                cv2.imwrite(
                    f"/work/runs/s29/fr/{Path(d).stem}-{photo.stem[:30]}.jpg",
                    cv2.resize(img, None, fx=0.5, fy=0.5),
                )
        if any(row):
            print(folder.name, photo.name[:40], row, flush=True)
