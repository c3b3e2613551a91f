"""The photos of a real-dev half where DET puts other tiles on racks than the shipped detector (real-dev holds
no rack: every rack found there is false).

    python racks_diff.py DET [REAL_DEV_HALF]   (default /work/runs/real-dev-measure)
"""

import glob
import sys

from vision.detector import TileDetector
from vision.path import read_photo
from vision.reader import TileReader, load_classifier

classifier = load_classifier()
readers = {name: TileReader(detector=TileDetector(path), classifier=classifier)
           for name, path in [("shipped", "models/tile_detector.onnx"), ("other", sys.argv[1])]}
half = sys.argv[2] if len(sys.argv) > 2 else "/work/runs/real-dev-measure"
for image in sorted(glob.glob(f"{half}/images/*.jpg")):
    counts = {name: [len(rack) for rack in read_photo(reader, image).layout.racks]
              for name, reader in readers.items()}
    if counts["shipped"] != counts["other"]:
        print(image.split("/")[-1][:24], counts)
