"""Photo games whose truth the game maker of today would script otherwise (a fix of `datasets.photo_game`
changed its choices): their videos are stale and are made again. Prints one path a line, or nothing.

    python docs/experiments/scripts-s20/stale_photo_games.py FOLDER... [--delete]

A game is stale when `photo_script(photo, seed, players)` of today gives other turns (seat, action, added,
removed, legal, kind) than its JSON holds. `--delete` removes a stale game's .json and .mp4 (and every later
game of its folder, for referee_photos.sh renders a folder whole when its last game is missing).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from datasets.photo_game import load_photo, photo_folder, photo_script

KEYS = ("seat", "action", "added", "removed", "legal", "kind")
PHOTOS = {"others": "/work/runs/real-dev-train", "zoom-holdout": "/work/runs/real-dev-train"}


def main(argv: list[str]) -> int:
    delete = "--delete" in argv
    for folder in (Path(a) for a in argv if a != "--delete"):
        set_name = folder.parent.name
        source = Path(PHOTOS.get(set_name, PHOTOS["others"] if set_name.startswith("others")
                                 else "/work/runs/real-dev-measure"))
        paths, labels, classes = photo_folder(source)
        by_name = {p.name: p for p in paths}
        for game in sorted(folder.glob("game-*.json")):
            data = json.loads(game.read_text())
            long_side = round(max(data["width"], data["height"]) / data.get("zoom_out", 1.0))
            photo = load_photo(by_name[data["photo"]], labels, classes, long_side)
            script = photo_script(photo, data["seed"], data["players"])
            now = [{k: r[k] for k in KEYS} for r in script.turn_records()]
            was = [{k: t[k] for k in KEYS} for t in data["turns"]]
            if now != was:
                print(game)
                if delete:
                    for later in sorted(folder.glob("game-*.json")):
                        if later.name >= game.name:
                            later.unlink()
                            later.with_suffix(".mp4").unlink(missing_ok=True)
                    break
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
