"""The referee over rendered games: turns judged right, missed and invented, time to verdict, speed.

    python benchmarks/bench_referee.py [--games 6] [--seed 500] [--players 2 3] [--folder runs/bench-referee]

Renders the games once (`python -m datasets.game_video`, kept in `--folder` and reused when their truth files
are there), runs `rummi watch`'s path (`vision.watch.GameWatcher`, 5 frames a second looked at) over each, and
prints the figures of `vision.evaluation.game_videos`, with the videos' own length against the time taken
(the referee must keep up with the video: `video_s_per_wall_s` at least 1) and the wall time of the frame
that gave each verdict. The live screen's rate (every frame of the video looked at, as a camera gives them) is
measured too: `--live` runs the same videos at their full frame rate.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.rules import STANDARD  # noqa: E402
from vision.evaluation import game_videos  # noqa: E402
from vision.reader import load_reader  # noqa: E402


def render(folder: Path, games: int, seed: int, players: int) -> None:
    if len(list(folder.glob("game-*.json"))) >= games:
        return
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "datasets.game_video", str(folder), "--games", str(games),
                    "--seed", str(seed), "--players", str(players)], check=True, cwd=ROOT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per player count")
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--folder", type=Path, default=ROOT / "runs" / "bench-referee")
    parser.add_argument("--live", action="store_true", help="also look at every frame (the live load)")
    args = parser.parse_args(argv)
    reader = load_reader()
    total = game_videos.GameScore()
    for players in args.players:
        folder = args.folder / f"seed{args.seed}-p{players}"
        render(folder, args.games, args.seed + players, players)
        score = game_videos.evaluate(folder, reader, 1.5, STANDARD)
        print(f"{players} players: " + json.dumps({k: v for k, v in score.to_json().items() if k != "wrong"}))
        total.add(score)
    figures = total.to_json()
    print("all: " + json.dumps({k: v for k, v in figures.items() if k != "wrong"}))
    for wrong in figures["wrong"]:
        print("  wrong: " + json.dumps(wrong))
    if args.live:
        live = game_videos.GameScore()
        for players in args.players:
            folder = args.folder / f"seed{args.seed}-p{players}"
            live.add(game_videos.evaluate(folder, reader, 1.5, STANDARD, sample_fps=1000.0))  # every frame
        print("every frame: " + json.dumps({k: v for k, v in live.to_json().items() if k != "wrong"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
