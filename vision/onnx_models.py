"""Loading the shipped ONNX models: where they lie and an onnxruntime session on the CPU."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any


class ModelLoadError(RuntimeError):
    """A model file is missing or unusable: the message names the file and the cause."""


def model_path(filename: str) -> Path:
    """Path of a model shipped in the `models` package (works from an installed package too).

    Raises:
        ModelLoadError: the file is not shipped.
    """
    try:
        resource = importlib.resources.files("models").joinpath(filename)
    except ModuleNotFoundError as exc:  # pragma: no cover - the package is part of this project
        raise ModelLoadError(f"the 'models' package is not installed: {exc}") from exc
    path = Path(str(resource))
    if not path.is_file():
        raise ModelLoadError(f"model file {filename!r} not found in the models package ({path})")
    return path


def onnx_session(path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    # Idle pool threads sleep instead of spinning for the next run: a read spends half its time outside
    # this session (crops, classifier, layout), where spinning threads only take the cores from that
    # work and from the next image's read-ahead (`vision.read.read_frames`). 138 photos read with
    # `rummi read`: user CPU 10.7-12.9 s spinning, 7.6-8.1 s not, wall 5.7-7.0 / 5.0-5.5 s; one frame
    # alone the same within the machine's noise (benchmarks/README_read.md).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own unrelated exception types
        raise ModelLoadError(f"cannot load model {path}: {exc}") from exc
