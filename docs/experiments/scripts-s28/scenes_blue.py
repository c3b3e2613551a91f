import os
import sys
from pathlib import Path

from vision.evaluation.scenes import evaluate_folder
from vision.reader import TileReader

reader = TileReader()
reader.photo_blue = os.environ.get("PHOTO_BLUE", "1") == "1"
for f in sys.argv[1:]:
    s = evaluate_folder(Path(f), reader).figures()
    shown = ("recall", "precision", "end_to_end", "rack_tiles_in_racks")
    print(f, "photo_blue", reader.photo_blue, {k: s[k] for k in shown})
