"""The Table screen's live picture: CPU time of `ui.table.live_overlay` on a still 1000x750 frame plus
aiortc's VP8 encoding of what it returns, as the stream's thread does for each frame.

    PYTHONPATH=. python docs/experiments/scripts-s18/table_overlay_cost.py
"""
import fractions
import time

import av
import numpy as np
from aiortc.codecs.vpx import Vp8Encoder

from assistant.rules import STANDARD
from datasets.render import render_indexed
from ui.table import live_overlay
from vision.reader import load_reader
from vision.tracking import LiveReader

image, _, _ = render_indexed(9001, 0, long_side=1000, kind="game")
live = LiveReader(load_reader(), STANDARD)
live_overlay(image, live)
enc = Vp8Encoder()
t = []
for i in range(80):
    a = time.process_time()
    frame = av.VideoFrame.from_ndarray(live_overlay(image, live), format="rgb24")
    frame.pts = i * 3000
    frame.time_base = fractions.Fraction(1, 90000)
    enc.encode(frame)
    t.append(time.process_time() - a)
print("overlay+aiortc VP8 encode, CPU ms median", round(np.median(t[10:]) * 1000, 2))
