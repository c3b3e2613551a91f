"""Run an evaluation module with the crop classifiers read otherwise than `models/classifiers.json` says, or
time the classify stage so.

    python docs/experiments/scripts-s13/classify_settings.py [--consult S] [--recheck S] [--turns N] \
        vision.evaluation.scenes FOLDER --json OUT
    python docs/experiments/scripts-s13/classify_settings.py --time IMAGE [--rounds 15]

`--consult S`: the lead reads every crop, the other members only crops it scores under S (shipped 0.95; 0:
the lead alone). `--recheck S`: crops the ensemble scores under S are read again in their other turns
(shipped 0.7; 0: none). `--turns N`: in how many quarter turns (1, 2 or 4; shipped 4). The settings are set
on the classifier `vision.reader.load_classifier` loads in this process, which then runs the module as
`python -m MODULE ARGS` would. `--time` prints the classify stage's CPU time (one onnxruntime thread per
model) on IMAGE for the shipped settings and for these, rounds alternating. `--models DIR`: the classifier
files and `classifiers.json` are taken from DIR instead of `models/`, and so are its confidence.json,
rack_check.onnx and tile_stance.onnx where it has them (the detector stays the shipped one).
"""

from __future__ import annotations

import argparse
import runpy
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from vision import reader  # noqa: E402


def apply(classifier: Any, consult: float | None, recheck: float | None, turns: int | None) -> Any:
    members = getattr(classifier, "members", [classifier])
    if consult is not None and hasattr(classifier, "consult_below"):
        classifier.consult_below = consult if consult > 0 else 1e-9
    for member in [classifier, *members]:
        if recheck is not None:
            member.recheck_below = recheck
        if turns is not None:
            member.turns = turns
    return classifier


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--consult", type=float)
    parser.add_argument("--recheck", type=float)
    parser.add_argument("--turns", type=int, choices=(1, 2, 4))
    parser.add_argument("--time", metavar="IMAGE")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--models", type=Path, help="classifier files and classifiers.json from here")
    parser.add_argument("--not-a-tile", type=float, help="a crop read not a tile above this is left out")
    args, rest = parser.parse_known_args()
    if args.not_a_tile is not None:
        plain_init = reader.TileReader.__init__

        def init(self: Any, *given: Any, **named: Any) -> None:
            named.setdefault("not_a_tile_above", args.not_a_tile)
            plain_init(self, *given, **named)

        reader.TileReader.__init__ = init  # type: ignore[method-assign]
    if args.models is not None:
        from vision import classifier as classifier_module
        from vision import onnx_models

        shipped_path = onnx_models.model_path

        def model_path(filename: str) -> Path:
            mine = args.models / filename
            return mine if mine.is_file() and filename != "tile_detector.onnx" else shipped_path(filename)

        reader.model_path = classifier_module.model_path = model_path  # type: ignore[attr-defined]
        from vision import confidence as confidence_module

        confidence_module.model_path = model_path  # DIR's confidence.json too (fourteenth session)
        from vision import rack_check as rack_check_module

        rack_check_module.model_path = model_path  # DIR's tile_stance.onnx too (thirty-eighth session)
    if args.time:
        import numpy as np

        from vision.frames import load_scaled

        frame = load_scaled(args.time).frame
        changed = apply(reader.load_classifier(threads=1), args.consult, args.recheck, args.turns)
        if args.models is not None:
            reader.model_path = classifier_module.model_path = shipped_path  # type: ignore[attr-defined]
        shipped = reader.load_classifier(threads=1)
        found = reader.TileReader(classifier=shipped).find(frame)
        times: dict[str, list[float]] = {"shipped": [], "these": []}
        for _ in range(args.rounds):
            for name, classifier in (("shipped", shipped), ("these", changed)):
                view = reader.TileReader(classifier=classifier)
                started = time.process_time()
                view.read_faces(frame, found)
                times[name].append((time.process_time() - started) * 1000)
        for name, values in times.items():
            print(f"{name}: classify {np.median(values[2:]):.1f} ms CPU ({len(found)} boxes)")
        return
    loader = reader.load_classifier

    def load(threads: int = reader.CLASSIFIER_THREADS) -> Any:
        return apply(loader(threads), args.consult, args.recheck, args.turns)

    reader.load_classifier = load  # type: ignore[assignment]
    sys.argv = [rest[0], *rest[1:]]
    runpy.run_module(rest[0], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
