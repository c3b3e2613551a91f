"""Average the weights of several epochs of one run (their EMA models, as ultralytics keeps them) into one
checkpoint: with --keep-norm-statistics every epoch shares the batch norms' statistics, so the average is a
network of the same function family, not a blend of differently normalised ones. The rack class's figures
move by several points from one epoch to the next (models-v30 epochs 4-8: hold-out rack tiles in racks
87.6-91.2 %); an average of neighbouring epochs is steadier (Izmailov et al. 2018, stochastic weight
averaging).

    python docs/experiments/scripts-s27/average_epochs.py OUT.pt EPOCH_A.pt EPOCH_B.pt ...
then export OUT.pt as any checkpoint (`python -m vision.training.detector --export-only OUT.pt ...`). A run's
final last.pt holds its EMA as `model` (ultralytics strips it at the end) and is read from there; the last
file given must be an epoch's own checkpoint (epochN.pt), which keeps `ema`.
"""

import sys

import torch

out, paths = sys.argv[1], sys.argv[2:]
checkpoints = [torch.load(path, map_location="cpu", weights_only=False) for path in paths]
states = [(ckpt.get("ema") or ckpt["model"]).float().state_dict() for ckpt in checkpoints]
averaged = {}
for key, value in states[0].items():
    if value.is_floating_point():
        averaged[key] = sum(state[key] for state in states) / len(states)
    else:
        averaged[key] = value
for key in ("running_mean", "running_var"):  # the same in every epoch when the statistics were kept
    spread = max(float((s[k] - states[0][k]).abs().max()) for s in states for k in s if k.endswith(key))
    print(f"largest difference in {key} between the epochs: {spread:.3g}")
target = checkpoints[-1]
target["ema"] = target["ema"].float()
target["ema"].load_state_dict(averaged)
target["ema"] = target["ema"].half()
torch.save(target, out)
print(f"averaged {len(paths)} epochs -> {out}")
