"""Time detectors of several input sizes in one run: the forward pass alone and the whole read of a frame.

    python benchmarks/bench_detector_sizes.py [NAME=DETECTOR.onnx ...] [--images IMAGE ...]
        [--add-images IMAGE ...] [--rounds 20] [--threads N] [--cpu] [--json OUT]

Without NAME=FILE the shipped detector and /work/runs/size-exp/det{416,480,640}.onnx (those that exist) are
timed. Without --images, the rendered 1000x750 game table of about 53 tiles that `benchmarks/bench_read.py`
times (seed 9100) and the bundled vision/examples/table.jpg (19 tiles), then those of --add-images. Every
detector is loaded once in this one process, with the classifier `rummi read` loads; the rounds go through
all detectors in turn (a forward pass, a detect, a whole read with the extra looks, a whole read with one
look: `TileDetector(extra_looks=False)`), so a loaded machine slows all of them alike. Per image it prints
a table of medians (p90 in brackets), in milliseconds:

- `forward`: `session.run` on the letterboxed frame, nothing else;
- `detect`: `TileDetector.detect` alone with every extra look (`passes`: the forward passes it makes);
- `read`: the whole read as `rummi read` does it (`TileReader.read`: detect with every extra look,
  classify; `read_document`: layout, rules, JSON), and `read 1 look` the same with the extra looks off;
- `x fwd320`: each read over the shipped (first) detector's forward pass (issue 37: at most 3);
- `tiles`: tiles the read reports, with the extra looks and with one look.

`--cpu --threads 1` times by the process's CPU time (one thread per model), which other processes hardly
disturb; without it the wall clock, with the threads `rummi read` gives each model.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SIZE_EXP = Path("/work/runs/size-exp")


def default_detectors() -> list[tuple[str, Path]]:
    from vision.onnx_models import model_path

    found = [("shipped", model_path("tile_detector.onnx"))]
    for size in (416, 480, 640):
        path = SIZE_EXP / f"det{size}.onnx"
        if path.is_file():
            found.append((f"shipped@{size}", path))
    return found


def parse_detector(text: str) -> tuple[str, Path]:
    name, _, path = text.rpartition("=")
    return (name or Path(path).stem), Path(path)


def bench(
    detectors: list[tuple[str, Path]], images: list[Path], rounds: int, threads: int | None, cpu: bool
) -> list[dict[str, Any]]:
    import numpy as np

    from assistant.rules import find_preset
    from vision.detector import TileDetector
    from vision.frames import load_image
    from vision.read import read_document
    from vision.reader import TileReader, load_classifier

    rules = find_preset("standard")
    given = {} if threads is None else {"threads": threads}
    if threads is None:
        classifier = load_classifier()
    else:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from bench_read import _shipped_classifier

        classifier = _shipped_classifier(threads)
    readers = []
    for _, path in detectors:
        looks = TileDetector(path, **given)
        one = TileDetector(path, extra_looks=False, **given)
        readers.append((looks, TileReader(looks, classifier), TileReader(one, classifier)))
    frames = [load_image(path) for path in images]
    clock = time.process_time if cpu else time.perf_counter
    results = []
    for path, frame in zip(images, frames, strict=True):
        tensors = [looks.preprocess(frame)[0] for looks, _, _ in readers]
        times = [{"forward": [], "detect": [], "read": [], "one": []} for _ in readers]
        tiles = [[0, 0] for _ in readers]
        passes = [forward_passes(looks, frame) for looks, _, _ in readers]

        def whole_read(reader: TileReader, path: Path = path, frame: Any = frame) -> int:
            found = reader.read(frame)
            document, _ = read_document(str(path), frame, found, rules)
            json.dumps(document)
            return len(document["tiles"])

        for warm in range(rounds + 2):  # the first two rounds warm up and are not kept
            for k, ((looks, reader, one_look), tensor) in enumerate(zip(readers, tensors, strict=True)):
                t0 = clock()
                looks.session.run(None, {looks.input_name: tensor})
                t1 = clock()
                looks.detect(frame)
                t2 = clock()
                tiles[k][0] = whole_read(reader)
                t3 = clock()
                tiles[k][1] = whole_read(one_look)
                t4 = clock()
                if warm >= 2:
                    times[k]["forward"].append((t1 - t0) * 1000)
                    times[k]["detect"].append((t2 - t1) * 1000)
                    times[k]["read"].append((t3 - t2) * 1000)
                    times[k]["one"].append((t4 - t3) * 1000)
        rows = []
        for (name, det_path), (looks, _, _), timed, counts, seen in zip(
            detectors, readers, times, tiles, passes, strict=True
        ):
            rows.append({
                "detector": name,
                "file": str(det_path),
                "input": looks.input_size,
                "passes": seen,
                **{f"{step}_ms": round(float(np.median(v)), 2) for step, v in timed.items()},
                **{f"{step}_p90_ms": round(float(np.percentile(v, 90)), 2) for step, v in timed.items()},
                "tiles": counts[0],
                "tiles_one_look": counts[1],
            })
        base = rows[0]["forward_ms"]
        for row in rows:
            row["read_over_fwd320"] = round(row["read_ms"] / base, 2)
            row["one_over_fwd320"] = round(row["one_ms"] / base, 2)
            row["forward_over_fwd320"] = round(row["forward_ms"] / base, 2)
        results.append({"image": path.name, "size": f"{frame.shape[1]}x{frame.shape[0]}", "rows": rows})
    return results


def forward_passes(detector: Any, frame: Any) -> int:
    """How many forward passes `detector.detect(frame)` makes (its extra looks fired + 1)."""
    session = detector.session
    calls = [0]

    class Counting:
        def run(self, *args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            return session.run(*args, **kwargs)

    detector.session = Counting()
    try:
        detector.detect(frame)
    finally:
        detector.session = session
    return calls[0]


def print_table(results: list[dict[str, Any]]) -> None:
    for result in results:
        print(f"\n{result['image']} ({result['size']}); ratios over the first detector's forward pass")
        print(f"{'detector':14} {'input':>5} {'forward ms':>18} {'detect ms':>18} {'passes':>6} "
              f"{'read ms':>18} {'read 1 look ms':>18} {'fwd x':>6} {'read x':>6} {'1look x':>7} "
              f"{'tiles':>9}")
        for row in result["rows"]:
            cells = [f"{row[f'{s}_ms']:7.1f} ({row[f'{s}_p90_ms']:6.1f})"
                     for s in ("forward", "detect", "read", "one")]
            print(f"{row['detector']:14} {row['input']:>5} {cells[0]:>18} {cells[1]:>18} {row['passes']:>6} "
                  f"{cells[2]:>18} {cells[3]:>18} "
                  f"{row['forward_over_fwd320']:6.2f} {row['read_over_fwd320']:6.2f} "
                  f"{row['one_over_fwd320']:7.2f} {row['tiles']:>4}/{row['tiles_one_look']:<4}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("detectors", nargs="*", type=parse_detector, metavar="NAME=FILE",
                        help="detector ONNX files (the first is the base of the ratios)")
    parser.add_argument("--images", nargs="+", type=Path, default=None, help="instead of the default two")
    parser.add_argument("--add-images", nargs="+", type=Path, default=[], help="after the default two")
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds per image (default 20)")
    parser.add_argument("--threads", type=int, help="onnxruntime threads per model (default: as rummi read)")
    parser.add_argument("--cpu", action="store_true", help="time by the process's CPU time")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    detectors = args.detectors or default_detectors()
    with tempfile.TemporaryDirectory() as folder:
        if args.images:
            images = args.images
        else:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from bench_read import example_frames

            images = [p for p in example_frames(Path(folder)) if "game" in p.name]
            images.append(ROOT / "vision" / "examples" / "table.jpg")
            images += args.add_images
        started = time.strftime("%Y-%m-%d %H:%M")
        results = bench(detectors, [p.resolve() for p in images], args.rounds, args.threads, args.cpu)
    clock = "CPU time" if args.cpu else "wall clock"
    print(f"{started}; threads {args.threads or 'as rummi read'}, {clock}, {args.rounds} rounds, "
          f"load {os.getloadavg()[0]:.1f}")
    for name, path in detectors:
        print(f"  {name}: {path}")
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
