"""Tiny ONNX models built in the test, so the reader's handling of a model's classes is tested exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.classifier import NOT_A_TILE
from vision.crops import CROP_MARGIN, CROP_SIZE


def brightness_classifier(path: Path, bright_class: str = "red_5", temperature: float = 1.0) -> Path:
    """A classifier that reads a bright crop as `bright_class` and calls a dark crop "not a tile"."""
    classes = (*CLASS_NAMES, NOT_A_TILE)
    weights = np.zeros((3, len(classes)), np.float32)
    weights[:, CLASS_INDEX[bright_class]] = 4.0
    weights[:, len(CLASS_NAMES)] = -4.0
    angle_bias = np.zeros(8, np.float32)
    angle_bias[0] = 5.0
    nodes = [
        helper.make_node("ReduceMean", ["crops", "axes"], ["mean"], keepdims=0),
        helper.make_node("MatMul", ["mean", "w"], ["logits"]),
        helper.make_node("Softmax", ["logits"], ["class_probs"], axis=1),
        helper.make_node("MatMul", ["mean", "w_angle"], ["angle_raw"]),
        helper.make_node("Add", ["angle_raw", "angle_bias"], ["angle_logits"]),
        helper.make_node("Softmax", ["angle_logits"], ["angle_probs"], axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "brightness",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, CROP_SIZE, CROP_SIZE])],
        [
            helper.make_tensor_value_info("class_probs", TensorProto.FLOAT, ["n", len(classes)]),
            helper.make_tensor_value_info("angle_probs", TensorProto.FLOAT, ["n", 8]),
        ],
        initializer=[
            numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
            numpy_helper.from_array(weights, "w"),
            numpy_helper.from_array(np.zeros((3, 8), np.float32), "w_angle"),
            numpy_helper.from_array(angle_bias, "angle_bias"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    for key, value in {
        "class_names": ",".join(classes),
        "crop_size": str(CROP_SIZE),
        "crop_margin": str(CROP_MARGIN),
        "angle_bins": "8",
        "temperature": str(temperature),
    }.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def conv_classifier(path: Path, seed: int = 0, not_a_tile: bool = True, temperature: float = 0.7) -> Path:
    """A small random convolutional classifier shaped like the shipped ones (convolutions, ReLU, pooling,
    two heads with softmax), for quantisation and ensemble tests."""
    rng = np.random.default_rng(seed)
    classes = (*CLASS_NAMES, NOT_A_TILE) if not_a_tile else CLASS_NAMES

    def weights(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) / np.sqrt(np.prod(shape[1:]))).astype(np.float32)

    nodes = [
        helper.make_node("Conv", ["crops", "w1", "b1"], ["c1"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                         strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("MaxPool", ["r2"], ["p2"], kernel_shape=[4, 4], strides=[4, 4]),
        helper.make_node("Flatten", ["p2"], ["flat"]),
        helper.make_node("Gemm", ["flat", "wc", "bc"], ["logits"], transB=1),
        helper.make_node("Gemm", ["flat", "wa", "ba"], ["angle_logits"], transB=1),
        helper.make_node("Softmax", ["logits"], ["class_probs"], axis=1),
        helper.make_node("Softmax", ["angle_logits"], ["angle_probs"], axis=1),
    ]
    features = 16 * (CROP_SIZE // 16) ** 2
    initializers = {
        "w1": weights(8, 3, 3, 3), "b1": np.zeros(8, np.float32),
        "w2": weights(16, 8, 3, 3), "b2": np.zeros(16, np.float32),
        "wc": 3 * weights(len(classes), features), "bc": np.zeros(len(classes), np.float32),
        "wa": 3 * weights(8, features), "ba": np.zeros(8, np.float32),
    }
    graph = helper.make_graph(
        nodes,
        "conv",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, CROP_SIZE, CROP_SIZE])],
        [
            helper.make_tensor_value_info("class_probs", TensorProto.FLOAT, ["n", len(classes)]),
            helper.make_tensor_value_info("angle_probs", TensorProto.FLOAT, ["n", 8]),
        ],
        initializer=[numpy_helper.from_array(value, name) for name, value in initializers.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for key, value in {
        "class_names": ",".join(classes),
        "crop_size": str(CROP_SIZE),
        "crop_margin": str(CROP_MARGIN),
        "angle_bins": "8",
        "temperature": str(temperature),
    }.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path
