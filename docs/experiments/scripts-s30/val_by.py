"""A rack check's scores on collected crops (`python -m vision.training.rack_check collect`), a line for
each source folder, kind of crop (mined by a detector, a true rack moved, a group of table tiles) and truth.

    python docs/experiments/scripts-s30/val_by.py CHECK.onnx CROPS.npz [THRESHOLD]
"""
import sys

import numpy as np

from vision.rack_check import RackCheck, crops_to_input

rc = RackCheck(sys.argv[1])
d = np.load(sys.argv[2])
th = float(sys.argv[3]) if len(sys.argv) > 3 else rc.threshold
(logits,) = rc.session.run(None, {rc.input_name: crops_to_input(d['crops'])})
s = 1 / (1 + np.exp(-logits.reshape(-1)))
src = np.array([x.split('/')[0] for x in d['sources']])
print('threshold', th)
for folder in sorted(set(src)):
    for kind in ('mined', 'rack', 'rows'):
        for lab in (1, 0):
            m = (src == folder) & (d['kinds'] == kind) & (d['labels'] == lab)
            if m.sum():
                truth = "rack" if lab else "none"
                right = np.mean((s[m] >= th) == lab)
                print(f"{folder:28s} {kind:6s} {truth}: {m.sum():5d}  right {right:.3f}")
