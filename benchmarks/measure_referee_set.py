"""The referee on a set of game-video folders (`benchmarks/referee_hands.sh`, `benchmarks/referee_photos.sh`):
today's watcher on each folder (`vision.evaluation.game_videos`, the reader loaded once), one line per folder
and for the set, everything (wrong calls included) written to OUT as JSON.

    python benchmarks/measure_referee_set.py NAME OUT FOLDER... [--no-photo-blue]

`--no-photo-blue`: the reader without `vision.inks` (tiles read black in a photo's navy left black), to
measure what it buys.
"""

import argparse
import json
import os
from pathlib import Path

from assistant.rules import STANDARD
from vision.evaluation import game_videos
from vision.reader import load_reader

parser = argparse.ArgumentParser(prog="measure_referee_set.py")
parser.add_argument("name")
parser.add_argument("out")
parser.add_argument("folders", nargs="+")
parser.add_argument("--no-photo-blue", action="store_true", help="the reader without vision.inks")
args = parser.parse_args()
name, out, folders = args.name, args.out, args.folders
reader = load_reader()
reader.photo_blue = not args.no_photo_blue
total = game_videos.GameScore()
result = {"set": name, "folders": {}, "load": os.getloadavg()}


def line(label, figures):
    share = 100 * (figures["right_share"] or 0)
    print(f"{label}: turns {figures['turns']}, fully right {figures['right']} ({share:.1f} %), missed "
          f"{figures['missed']}, invented {figures['invented']}, {figures['video_s_per_wall_s']:.1f} video s "
          f"per wall s", flush=True)


for folder in folders:
    score = game_videos.evaluate(Path(folder), reader, 1.5, STANDARD)
    figures = score.to_json()
    for wrong in figures["wrong"]:
        wrong["folder"] = Path(folder).name
    result["folders"][Path(folder).name] = figures
    line(f"{name} {Path(folder).name}", figures)
    total.add(score)
result["all"] = total.to_json()
result["load_after"] = os.getloadavg()
line(f"{name} all", result["all"])
Path(out).write_text(json.dumps(result, indent=1) + "\n")
print(f"written {out}")
