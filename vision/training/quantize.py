"""Int8 copies of the crop classifiers (onnxruntime static quantisation), re-runnable after every retraining.

    python -m vision.training.quantize models/tile_classifier_faces.onnx models/tile_classifier.onnx \\
        [--scenes 16] [--seed 7300] [--detector models/tile_detector.onnx] [--out DIR]

Each MODEL.onnx gets a MODEL_int8.onnx beside it (`--out DIR` elsewhere): weights int8 per output channel,
activations uint8, QDQ format, calibrated on crops of rendered scenes (`datasets.render`, a seed no training
or evaluation set uses) cut where the shipped detector finds tiles, each in all four quarter turns (the
reader reads doubtful crops turned). The first convolution (3 input channels, where int8 is slower than
float on this CPU) and the softmaxes (probabilities must not be rounded to 1/255: the reader compares them
with thresholds) stay float. The fp32 model stays the source: `models/classifiers.json` says which the
reader loads. The model's metadata (class names, temperature, crop geometry) is copied over.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from vision.crops import crops_to_batch, cut_crops

INT8_SUFFIX = "_int8"
CALIBRATION_SEED = 7300
"""Render seed of the calibration scenes (training renders use others; see models/README.md)."""
BATCH = 64


def int8_path(model: Path, out: Path | None = None) -> Path:
    """Where the int8 copy of `model` goes: MODEL_int8.onnx beside it, or in `out`."""
    return (out or model.parent) / f"{model.stem}{INT8_SUFFIX}{model.suffix}"


def calibration_crops(
    scenes: int, seed: int = CALIBRATION_SEED, long_side: int = 1000, detector_file: Path | None = None
) -> np.ndarray:
    """(n, 64, 64, 3) uint8 BGR crops where the detector (default: the shipped one) finds tiles in `scenes`
    rendered scenes, each also turned one, two and three quarter turns."""
    from datasets.render import render_indexed
    from vision.detector import TileDetector

    detector = TileDetector(detector_file, threads=1)
    stacks = []
    for index in range(scenes):
        image, _, _ = render_indexed(seed, index, long_side=long_side)
        found = detector.detect(image)
        if len(found):
            crops = cut_crops(image, found.xyxy)
            stacks.extend(np.rot90(crops, k, axes=(1, 2)) for k in range(4))
    if not stacks:
        raise ValueError(f"no tiles found in {scenes} calibration scenes")
    return np.ascontiguousarray(np.concatenate(stacks))


def _batches(crops_bgr: np.ndarray, input_name: str) -> Iterator[dict[str, np.ndarray]]:
    for start in range(0, len(crops_bgr), BATCH):
        yield {input_name: crops_to_batch(crops_bgr[start : start + BATCH])}


def quantize_classifier(source: Path, target: Path, crops_bgr: np.ndarray) -> Path:
    """Write the int8 copy of the classifier `source` to `target`, calibrated on `crops_bgr` (n,S,S,3 uint8).

    Raises:
        ValueError: no crops, or `source` is not a classifier with a float first convolution.
    """
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if len(crops_bgr) == 0:
        raise ValueError("no calibration crops")
    model = onnx.load(str(source))
    convs = [node for node in model.graph.node if node.op_type == "Conv"]
    if not convs:
        raise ValueError(f"{source} has no convolution: not a crop classifier")
    input_name = model.graph.input[0].name

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.feeds = _batches(crops_bgr, input_name)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    with tempfile.TemporaryDirectory() as folder:
        prepared = Path(folder) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        graph_model = onnx.load(str(prepared))
        for number, node in enumerate(graph_model.graph.node):  # the float first conv is left out by name
            node.name = node.name or f"{node.op_type}_{number}"
        onnx.save(graph_model, str(prepared))
        first_conv = next(node.name for node in graph_model.graph.node if node.op_type == "Conv")
        target.parent.mkdir(parents=True, exist_ok=True)
        quantize_static(
            str(prepared), str(target), Reader(),
            quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            per_channel=True, op_types_to_quantize=["Conv", "Gemm"], nodes_to_exclude=[first_conv],
        )
    quantized = onnx.load(str(target))
    del quantized.metadata_props[:]
    for prop in model.metadata_props:
        quantized.metadata_props.add(key=prop.key, value=prop.value)
    quantized.metadata_props.add(key="quantized_from", value=source.name)
    quantized.metadata_props.add(
        key="quantization",
        value=f"onnxruntime static QDQ, int8 weights per channel, uint8 activations, first conv and softmax "
              f"float; {len(crops_bgr)} calibration crops",
    )
    onnx.save(quantized, str(target))
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", type=Path, help="fp32 classifier ONNX files")
    parser.add_argument("--scenes", type=int, default=16, help="rendered calibration scenes (default 16)")
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    parser.add_argument("--out", type=Path, default=None, help="folder for the int8 files (default: beside)")
    parser.add_argument("--detector", type=Path, default=None,
                        help="detector that finds the calibration crops (default: the shipped one)")
    args = parser.parse_args(argv)
    missing = [str(path) for path in [*args.models, *([args.detector] if args.detector else [])]
               if not path.is_file()]
    if missing:
        print(f"error: no such model file: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.scenes < 1:
        print("error: --scenes must be at least 1", file=sys.stderr)
        return 2
    crops = calibration_crops(args.scenes, args.seed, detector_file=args.detector)
    print(f"{len(crops)} calibration crops from {args.scenes} scenes (seed {args.seed})")
    for source in args.models:
        target = quantize_classifier(source, int8_path(source, args.out), crops)
        print(f"{source} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
