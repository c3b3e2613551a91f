"""Time `rummi read` per frame against the bare detector forward pass, models loaded once, per step.

    python benchmarks/bench_read.py [IMAGE...] [--runs 30] [--threads N]
    python benchmarks/bench_read.py [IMAGE...] --roots /path/to/old/checkout . [--rounds 6]

Without IMAGE two rendered 1000x750 scenes are used: a game table with about 53 tiles and a textured
cloth (many detections). For each frame it prints, in milliseconds (median and 90th percentile):

- `forward`: the detector's own forward pass (`session.run` on the letterboxed frame, nothing else);
  `forward/ort` the same in a plain `onnxruntime.InferenceSession` (its own defaults: a thread per core),
  as someone timing the shipped model by itself would run it (wall clock only, timed after the frames);
- `read`: a whole read of the decoded frame as `rummi read` does it (detect, classify, layout, rules,
  correction, JSON), and `+decode` with the JPEG decoding too;
- `ahead+decode`: per image, reading `--runs` copies of the file one after another as `rummi read` does
  with several images (`vision.read.read_frames`: the next image decoded and detected on a helper thread
  while this one is classified and laid out), decoding included, one figure per round (its median and
  90th percentile are over rounds); compare with `+decode`;
- the steps of `read`: `detect+classify` (`TileReader.read`: pre-processing, forward, post-processing,
  crops, classifier, orientation), `layout+json` (layout, racks, rules, correction, JSON);
- the ratio read / forward (issue 16: at most 1.5 on a 53-tile frame).

Forward and read are timed alternately in one process, so a loaded machine slows both alike. With
`--roots`, one worker process per checkout (e.g. before and after a change) loads its own code and models,
and the workers take turns, `--runs` frames at a time for `--rounds` rounds: the figures of both checkouts
come from one run. The classifier is the one `rummi read` loads (`vision.reader.load_classifier`: the
ensemble models/classifiers.json lists); `--models DIR` uses `tile_detector.onnx` and `tile_classifier.onnx`
from DIR instead. Each model gets the onnxruntime threads `rummi read` gives it (`--threads N`: N each).
On a loaded machine `--cpu --threads 1` times by the process's CPU time (one thread per model, so CPU
time is the work done), which other processes hardly disturb; on a quiet one the wall clock measures
what a user waits for.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STEPS = ("forward", "forward/ort", "read", "+decode", "ahead+decode", "detect+classify", "layout+json")


def example_frames(folder: Path) -> list[Path]:
    """A rendered 1000x750 game table with 49-57 tiles and a textured cloth (seed 9100, first of each)."""
    import cv2

    from datasets.render import render_indexed

    wanted = {"game": (49, 57), "texture": (20, 200)}
    paths = []
    for kind, (low, high) in wanted.items():
        for index in range(300):
            image, truth, _ = render_indexed(9100, index, long_side=1000, kind=kind)
            tiles = sum(t.labelled for t in truth.tiles)
            if image.shape[:2] == (750, 1000) and low <= tiles <= high:
                path = folder / f"bench_{kind}_{index}.jpg"
                cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                paths.append(path)
                break
    return paths


# ------------------------------------------------------------------------------------------------ worker


def _shipped_classifier(threads: int | None) -> Any:
    """The crop classifier `rummi read` loads (`vision.reader.load_classifier`: the ensemble of
    models/classifiers.json), with `threads` onnxruntime threads per model (None: as `rummi read` loads
    it). A checkout whose `load_classifier` takes no thread count gets the same members loaded here."""
    import inspect

    from vision import reader

    if threads is None:
        return reader.load_classifier()
    if "threads" in inspect.signature(reader.load_classifier).parameters:
        return reader.load_classifier(threads=threads)
    from vision.classifier import ClassifierEnsemble, TileClassifier
    from vision.onnx_models import ModelLoadError, model_path

    try:
        listing = json.loads(model_path("classifiers.json").read_text())
    except ModelLoadError:
        return TileClassifier(threads=threads)
    members = [TileClassifier(model_path(m["file"]), threads=threads) for m in listing["members"]]
    return ClassifierEnsemble(members, [float(m["weight"]) for m in listing["members"]])


def _worker(images: list[Path], threads: int | None, models: Path | None, cpu: bool) -> int:
    """Load the code of the checkout on sys.path[0] and the models, then time `n` frames per line of stdin.
    `threads` None: each model with the threads `rummi read` gives it."""
    import onnxruntime as ort

    from assistant.rules import find_preset
    from vision import read as read_module
    from vision.classifier import TileClassifier
    from vision.detector import TileDetector
    from vision.frames import load_image
    from vision.read import read_document
    from vision.reader import TileReader

    read_frames = getattr(read_module, "read_frames", None)

    rules = find_preset("standard")
    given = {} if threads is None else {"threads": threads}
    detector = TileDetector(models / "tile_detector.onnx" if models else None, **given)
    # The forward pass as a plain onnxruntime session runs it (its default threads, one per core, which
    # spin after each run: timed apart, after the frames, and not by CPU time, which the spinning fills).
    plain = None if cpu else ort.InferenceSession(str(detector.path), providers=["CPUExecutionProvider"])
    if models:
        classifier = TileClassifier(models / "tile_classifier.onnx", **given)
    else:
        classifier = _shipped_classifier(threads)
    reader = TileReader(detector, classifier)
    frames = [load_image(path) for path in images]
    tensors = [detector.preprocess(frame)[0] for frame in frames]
    clock = time.process_time if cpu else time.perf_counter
    print(json.dumps({"ready": str(Path(sys.modules["vision"].__file__).parent)}), flush=True)
    for line in sys.stdin:
        runs = int(line)
        out: list[dict[str, Any]] = []
        for path, frame, tensor in zip(images, frames, tensors, strict=True):
            times: dict[str, list[float]] = {step: [] for step in STEPS}
            tiles = 0
            for _ in range(runs):
                t0 = clock()
                detector.session.run(None, {detector.input_name: tensor})
                t1 = clock()
                found = reader.read(frame)
                t2 = clock()
                document, _ = read_document(str(path), frame, found, rules)
                json.dumps(document)
                t3 = clock()
                load_image(path)
                t4 = clock()
                tiles = len(found)
                times["forward"].append((t1 - t0) * 1000)
                times["read"].append((t3 - t1) * 1000)
                times["+decode"].append((t4 - t1) * 1000)
                times["detect+classify"].append((t2 - t1) * 1000)
                times["layout+json"].append((t3 - t2) * 1000)
            for _ in range(runs if plain is not None else 0):
                t0 = clock()
                plain.run(None, {detector.input_name: tensor})
                times["forward/ort"].append((clock() - t0) * 1000)
            if read_frames is not None:  # a checkout that reads the next image ahead
                t0 = clock()
                for name, frame_read, found in read_frames(reader, [str(path)] * runs):
                    document, _ = read_document(name, frame_read, found, rules)
                    json.dumps(document)
                times["ahead+decode"] = [(clock() - t0) * 1000 / runs]  # one figure a round
            out.append({"image": path.name, "tiles": tiles, "times": times,
                        "size": f"{frame.shape[1]}x{frame.shape[0]}"})
        print(json.dumps(out), flush=True)
    return 0


# ------------------------------------------------------------------------------------------------ driver


def _start(
    root: Path, images: list[Path], threads: int | None, models: Path | None, cpu: bool
) -> subprocess.Popen[str]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    if threads is not None:
        command += ["--threads", str(threads)]
    if cpu:
        command.append("--cpu")
    if models:
        command += ["--models", str(models)]
    env = {**os.environ, "PYTHONPATH": str(root.resolve())}
    process = subprocess.Popen(command + [str(p) for p in images], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, cwd=root, env=env)
    assert process.stdout is not None
    ready = json.loads(process.stdout.readline())
    print(f"worker for {root}: code from {ready['ready']}", file=sys.stderr)
    return process


def _ask(process: subprocess.Popen[str], runs: int) -> list[dict[str, Any]]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{runs}\n")
    process.stdin.flush()
    return json.loads(process.stdout.readline())


def report(root: str, results: list[dict[str, Any]]) -> None:
    import numpy as np

    for result in results:
        times = result["times"]
        forward = float(np.median(times["forward"]))
        read = float(np.median(times["read"]))
        decoded = float(np.median(times["+decode"]))
        plain = f"; read / plain session's forward {read / float(np.median(times['forward/ort'])):.2f}" \
            if times.get("forward/ort") else ""
        print(f"{root}: {result['image']} ({result['size']}), {result['tiles']} tiles, "
              f"{len(times['read'])} frames: read / forward {read / forward:.2f}, "
              f"with decoding {decoded / forward:.2f}{plain}")
        for step in STEPS:
            values = times.get(step)
            if not values:  # an older checkout without this step
                continue
            print(f"  {step:12} median {np.median(values):7.1f} ms   p90 {np.percentile(values, 90):7.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("images", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=30, help="frames per image per round (default 30)")
    parser.add_argument("--rounds", type=int, default=1, help="turns of each worker (default 1)")
    parser.add_argument("--threads", type=int,
                        help="onnxruntime threads per model (default: as `rummi read` loads them)")
    parser.add_argument("--models", type=Path, help="folder with tile_detector.onnx and tile_classifier.onnx")
    parser.add_argument("--roots", type=Path, nargs="+", default=[ROOT], help="checkouts to compare")
    parser.add_argument("--cpu", action="store_true",
                        help="time by the process's CPU time (a loaded machine; with --threads 1)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args.images, args.threads, args.models, args.cpu)
    with tempfile.TemporaryDirectory() as folder:
        if args.images:
            images = args.images
        else:
            sys.path.insert(0, str(ROOT))
            images = example_frames(Path(folder))
        images = [p.resolve() for p in images]
        workers = [_start(root, images, args.threads, args.models, args.cpu) for root in args.roots]
        for process in workers:
            _ask(process, 2)  # warm-up
        merged: list[list[dict[str, Any]]] = [[] for _ in workers]
        for _ in range(args.rounds):
            for k, process in enumerate(workers):
                results = _ask(process, args.runs)
                if not merged[k]:
                    merged[k] = results
                    continue
                for into, more in zip(merged[k], results, strict=True):
                    for step in STEPS:
                        into["times"].setdefault(step, []).extend(more["times"].get(step, []))
        for process in workers:
            assert process.stdin is not None
            process.stdin.close()
            process.wait()
        print(f"threads {args.threads or 'as rummi read'}, models {args.models or 'shipped'}, "
              f"load {os.getloadavg()[0]:.1f}, "
              f"{'CPU time' if args.cpu else 'wall clock'}")
        for root, results in zip(args.roots, merged, strict=True):
            report(str(root), results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
