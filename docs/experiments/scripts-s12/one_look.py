"""Run an evaluation module with the detector's extra looks switched off (one forward pass a frame).

    .venv/bin/python docs/experiments/scripts-s12/one_look.py vision.evaluation.reading --images I \
        --labels L --detector D

Every `vision.detector.TileDetector` built in this process gets `extra_looks=False` unless told otherwise;
the module then runs as `python -m MODULE ARGS` would.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from vision import detector  # noqa: E402

_init = detector.TileDetector.__init__


def _one_look_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("extra_looks", False)
    _init(self, *args, **kwargs)


detector.TileDetector.__init__ = _one_look_init  # type: ignore[method-assign]

if __name__ == "__main__":
    module, sys.argv = sys.argv[1], [sys.argv[1], *sys.argv[2:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
