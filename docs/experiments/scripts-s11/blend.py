"""Blend two ONNX detectors of the same graph: each initialiser (1 - a) * A + a * B (WiSE-FT).

    python blend.py models/tile_detector.onnx NEW.onnx 0.5 OUT.onnx
"""

import sys

import numpy as np
import onnx
from onnx import numpy_helper

first, second, share, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
a, b = onnx.load(first), onnx.load(second)
other = {i.name: numpy_helper.to_array(i) for i in b.graph.initializer}
for k, init in enumerate(a.graph.initializer):
    mine = numpy_helper.to_array(init)
    if np.issubdtype(mine.dtype, np.floating) and init.name in other and other[init.name].shape == mine.shape:
        mixed = ((1 - share) * mine + share * other[init.name]).astype(mine.dtype)
        a.graph.initializer[k].CopyFrom(numpy_helper.from_array(mixed, init.name))
onnx.save(a, out)
print(f"{out}: {1 - share:.2f} {first} + {share:.2f} {second}")
