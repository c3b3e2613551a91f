"""Rebuild a fine-tunable ultralytics checkpoint from the shipped ONNX detector.

The training runs' `.pt` files live outside git (`runs/`) and are lost with a machine; the ONNX file in
`models/` is all that is certain to survive. Its export folded every batch norm into the convolution before
it (`W x + b`). To train on from it, each `Conv` gets the folded weights back with a batch norm whose
statistics are those its convolution actually sees on real frames (`mu`, `var`, measured here) and whose
scale and shift undo them (`weight = sqrt(var + eps)`, `bias = mu + b`): in eval mode the network computes
exactly what the ONNX file does, and in training mode, where batches are normalised by their own statistics,
nearly so (a batch norm left as the identity would normalise every channel afresh at the first step). Train
on from it with `--keep-norm-statistics`: the statistics of training batches (mosaics of every scene kind)
are not those measured here, and a batch norm that takes them on changes the function the rest of the
network was recovered for (one epoch at learning rate 0 lost the rack class).

    python -m vision.training.recover_checkpoint models/tile_detector.onnx runs/recovered.pt \\
        --images DIR_OF_RENDERS
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.detector import detector_input
from vision.training.detector import offline_environment


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    meta = {prop.key: prop.value for prop in model.metadata_props}
    return weights, meta


def unfolded_norm(
    folded_bias: np.ndarray, mean: np.ndarray, var: np.ndarray, eps: float
) -> dict[str, np.ndarray]:
    """A batch norm's parameters that give back `z + folded_bias` for a convolution's output `z` whose
    channels have mean `mean` and variance `var`: eval mode computes `(z - mean) / sqrt(var + eps) *
    weight + bias`, and training mode, normalising a batch by its own statistics, nearly the same."""
    scale = np.sqrt(var + eps)
    return {"weight": scale, "bias": mean + folded_bias, "running_mean": mean, "running_var": var}


def frames_for_statistics(folder: Path, size: int, count: int) -> np.ndarray:
    """Up to `count` letterboxed RGB 0-1 frames (N, 3, size, size) from the images under `folder`."""
    paths = sorted(p for p in folder.rglob("*.jpg"))[:count]
    if not paths:
        raise SystemExit(f"no .jpg images under {folder}")
    images = (cv2.imread(str(path)) for path in paths)
    return np.concatenate([detector_input(image, size)[0] for image in images if image is not None])


def recover(onnx_path: Path, images: Path, target: Path, yaml: str = "yolo11n.yaml", count: int = 64) -> Path:
    import torch
    from ultralytics.nn.modules.conv import Conv
    from ultralytics.nn.tasks import DetectionModel

    weights, meta = onnx_weights(onnx_path)
    names = {int(k): str(v) for k, v in ast.literal_eval(meta["names"]).items()}
    imgsz = ast.literal_eval(meta.get("imgsz", "[320, 320]"))[0]
    model = DetectionModel(yaml, nc=len(names), verbose=False)
    model.names = names
    convs = {name: module for name, module in model.named_modules() if isinstance(module, Conv)}
    state = model.state_dict()
    used = set()
    with torch.no_grad():
        for name, module in convs.items():
            module.conv.weight.copy_(torch.from_numpy(weights[f"{name}.conv.weight"].copy()))
            bias = torch.from_numpy(weights[f"{name}.conv.bias"].copy())
            used |= {f"{name}.conv.weight", f"{name}.conv.bias"}
            bn = module.bn
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(bias)
        for key, value in weights.items():  # the head's last convolutions and the DFL: not folded
            if key in used or key not in state:
                continue
            state[key].copy_(torch.from_numpy(value.copy()))
            used.add(key)
    missing = sorted(k for k in weights if k not in used)
    if missing:
        raise SystemExit(f"{onnx_path}: weights with no place in {yaml}: {missing[:5]}")

    frames = torch.from_numpy(frames_for_statistics(images, imgsz, count))
    # Per channel: count, sum and sum of squares of what each convolution puts out, over every frame.
    moments: dict[str, list[torch.Tensor | int]] = {name: [0, 0.0, 0.0] for name in convs}

    def recorder(name: str):
        def hook(_module, _inputs, output):
            seen = output.detach().transpose(0, 1).flatten(1).double()
            moment = moments[name]
            moment[0] += seen.shape[1]
            moment[1] = moment[1] + seen.sum(dim=1)
            moment[2] = moment[2] + (seen * seen).sum(dim=1)

        return hook

    model.eval()
    handles = [module.conv.register_forward_hook(recorder(name)) for name, module in convs.items()]
    with torch.no_grad():
        outputs = [model(frames[start : start + 8])[0].numpy() for start in range(0, len(frames), 8)]
    reference = outputs[0][:4]  # eval mode: a frame's output does not depend on its batch
    for handle in handles:
        handle.remove()
    with torch.no_grad():
        for name, module in convs.items():
            n, total, squares = moments[name]
            mean = (total / n).numpy()
            var = ((squares - n * (total / n) ** 2) / (n - 1)).clamp(min=0.0).numpy()
            bn = module.bn
            norm = unfolded_norm(bn.bias.numpy().astype(np.float64), mean, var, bn.eps)
            for key, value in norm.items():
                getattr(bn, key).copy_(torch.from_numpy(value.astype(np.float32)))
        after = model(frames[:4])[0].numpy()
    drift = float(np.abs(after - reference).max())

    import onnxruntime as ort

    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    (onnx_out,) = session.run(None, {session.get_inputs()[0].name: frames[:1].numpy()})
    gap = float(np.abs(onnx_out - reference[:1]).max())
    if gap > 1e-2 or drift > 1e-2:
        raise SystemExit(f"recovered network differs from {onnx_path}: {gap:.4g} (ONNX), {drift:.4g} (BN)")
    model.args = {"imgsz": imgsz, "task": "detect"}
    target.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {"model": model.float(), "train_args": model.args, "epoch": -1, "recovered_from": str(onnx_path)},
        target,
    )
    print(f"recovered {onnx_path} -> {target} (largest output gap to ONNX {gap:.2e}, {len(frames)} frames)")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.recover_checkpoint",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("onnx", type=Path)
    parser.add_argument("target", type=Path)
    parser.add_argument("--images", type=Path, required=True, help="a folder of frames for the statistics")
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--config-dir", default=".yolo", help="YOLO_CONFIG_DIR (settings and font)")
    args = parser.parse_args(argv)
    if not args.onnx.is_file():
        print(f"error: no ONNX file at {args.onnx}", file=sys.stderr)
        return 2
    offline_environment(Path(args.config_dir).resolve())
    recover(args.onnx, args.images, args.target, count=args.count)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
