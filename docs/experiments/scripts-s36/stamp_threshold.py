"""Copy an ONNX model with one metadata entry set (a network's threshold, e.g. `tile_stance` or `rack_check`).

    .venv/bin/python docs/experiments/scripts-s36/stamp_threshold.py SRC.onnx DST.onnx KEY VALUE
"""

import sys

import onnx

source, target, key, value = sys.argv[1:5]
model = onnx.load(source)
entries = [entry for entry in model.metadata_props if entry.key == key]
if not entries:
    sys.exit(f"{source} has no metadata entry {key}")
for entry in entries:
    entry.value = value
onnx.save(model, target)
