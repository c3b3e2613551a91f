"""Average the weights of a training run's kept epochs (EMA weights, as ultralytics exports them).

    python docs/experiments/scripts-s21/average_checkpoints.py OUT.pt EPOCH.pt [EPOCH.pt ...]

The late epochs of a fine-tuning run at a small learning rate lie near one another and each drifts its own
way on the few real photos (false racks here, rack tiles there); their average is one model that may keep
what they share. Float tensors are averaged, integer ones (BatchNorm's counters) taken from the last file.
"""

from __future__ import annotations

import copy
import sys

import torch


def main(out: str, paths: list[str]) -> None:
    checkpoints = [torch.load(path, weights_only=False, map_location="cpu") for path in paths]
    states = [checkpoint["ema"].float().state_dict() for checkpoint in checkpoints]
    averaged = {}
    for name, last in states[-1].items():
        if last.is_floating_point():
            averaged[name] = torch.stack([state[name] for state in states]).mean(dim=0)
        else:
            averaged[name] = last
    result = copy.copy(checkpoints[-1])
    model = copy.deepcopy(checkpoints[-1]["ema"]).float()
    model.load_state_dict(averaged)
    result["ema"] = model.half()
    result["model"] = None
    result["optimizer"] = None
    result["averaged_from"] = paths
    torch.save(result, out)
    print(f"averaged {len(paths)} checkpoints -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
