"""real-racks (8 photos, tuning) read with the detector's racks switched off: how many of each photo's tiles
the standing tiles alone put on one rack (`vision.layout.STANDING_*`, thirty-sixth session).

    .venv/bin/python docs/experiments/scripts-s36/standing_racks_alone.py [/path/to/real-racks]
"""

import sys
from pathlib import Path

import cv2

from vision.layout import rebuild
from vision.reader import TileReader

folder = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/real-racks")
reader = TileReader()
reader.detector.rack_confidence = 1.01  # no rack box from the detector
placed = total = 0
for path in sorted((folder / "images").glob("*.jpg")):
    image = cv2.imread(str(path))
    found = reader.read(image)
    layout = rebuild(found, image_size=(image.shape[1], image.shape[0]), frame=image)
    biggest = max((len(rack) for rack in layout.racks), default=0)
    placed, total = placed + biggest, total + len(found)
    print(f"{path.name[:9]}: {len(found)} tiles found, racks {[len(rack) for rack in layout.racks]}")
print(f"tiles on each photo's largest rack: {placed} of {total} found")
