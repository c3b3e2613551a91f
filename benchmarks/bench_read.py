"""Time `rummi read` on a 1000x750 photo, models loaded once, with a per-step breakdown.

    python benchmarks/bench_read.py [IMAGE] [--runs 30] [--threads 2]

Without IMAGE a rendered 1000x750 table scene is used. Prints the median and 90th percentile of each step
and of the whole read (decode, detect, classify, layout, JSON) in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.detector import TileDetector  # noqa: E402
from vision.frames import load_image  # noqa: E402
from vision.read import read_document  # noqa: E402
from vision.reader import TileReader, load_classifier  # noqa: E402


def _example_photo(folder: Path, min_tiles: int = 30) -> Path:
    """A rendered 1000x750 table scene with at least `min_tiles` tiles (the first such scene of seed 9100)."""
    from datasets.render import render_indexed

    for index in range(200):
        image, truth, _ = render_indexed(9100, index, long_side=1000, kind="game")
        if image.shape[:2] == (750, 1000) and sum(t.labelled for t in truth.tiles) >= min_tiles:
            break
    path = folder / "bench_table.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("image", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2, help="onnxruntime threads per model")
    args = parser.parse_args(argv)
    from assistant.rules import find_preset

    rules = find_preset("standard")
    with tempfile.TemporaryDirectory() as folder:
        image_path = args.image or _example_photo(Path(folder))
        detector = TileDetector(threads=args.threads)
        classifier = load_classifier()
        reader = TileReader(detector, classifier)
        steps: dict[str, list[float]] = {
            k: [] for k in ("decode", "detect", "classify", "layout+json", "total")
        }
        tiles = 0
        for run in range(args.runs + 2):
            t0 = time.perf_counter()
            frame = load_image(image_path)
            t1 = time.perf_counter()
            found = reader.read(frame)
            t2 = time.perf_counter()
            document, _ = read_document(str(image_path), frame, found, rules)
            json.dumps(document)
            t3 = time.perf_counter()
            if run < 2:  # warm-up
                continue
            tiles = len(found)
            steps["decode"].append((t1 - t0) * 1000)
            steps["detect"].append(reader.timings.detect_ms)
            steps["classify"].append(reader.timings.classify_ms)
            steps["layout+json"].append((t3 - t2) * 1000)
            steps["total"].append((t3 - t0) * 1000)
        print(
            f"image {image_path} ({frame.shape[1]}x{frame.shape[0]}), {tiles} tiles, detector input "
            f"{detector.input_size}, classifier: {'yes' if classifier else 'no'}, {args.runs} runs"
        )
        for name, values in steps.items():
            print(f"  {name:12} median {np.median(values):7.1f} ms   p90 {np.percentile(values, 90):7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
