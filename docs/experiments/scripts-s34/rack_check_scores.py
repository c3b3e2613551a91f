"""Rack checks side by side on collected crops (`python -m vision.training.rack_check collect`): for each
check, the share of rack crops it keeps and of no-rack crops it drops at its own threshold, by source
(the part of a source before its first "/", "real-dev-measure" and the real-racks alike), mined boxes apart.

    .venv/bin/python docs/experiments/scripts-s34/rack_check_scores.py CROPS.npz CHECK.onnx...
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np
import onnxruntime as ort

from vision.rack_check import crops_to_input


def scores(path: str, crops: np.ndarray) -> tuple[np.ndarray, float]:
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    threshold = float(session.get_modelmeta().custom_metadata_map.get("rack_check", 0.5))
    name = session.get_inputs()[0].name
    logits = np.concatenate([session.run(None, {name: crops_to_input(crops[k:k + 256])})[0].reshape(-1)
                             for k in range(0, len(crops), 256)])
    return 1 / (1 + np.exp(-logits)), threshold


def main(crops_file: str, checks: list[str]) -> None:
    data = np.load(crops_file)
    groups: dict[tuple[str, int, bool], list[int]] = defaultdict(list)
    rows = zip(data["sources"], data["labels"], data["kinds"], strict=True)
    for i, (source, label, kind) in enumerate(rows):
        groups[(str(source).split("/")[0].split("@")[0], int(label), kind == "mined")].append(i)
    results = {check: scores(check, data["crops"]) for check in checks}
    print("source, rack?, mined: n, then per check the share it gets right")
    for (source, label, mined), members in sorted(groups.items()):
        cells = []
        for check in checks:
            score, threshold = results[check]
            right = score[members] >= threshold if label else score[members] < threshold
            cells.append(f"{right.mean():.3f}")
        print(f"{source:28s} {'rack' if label else 'none':4s} {'mined' if mined else 'cut':5s} "
              f"{len(members):5d}  " + "  ".join(cells))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
