"""Run an evaluation module with other `vision.layout.LayoutParams` defaults (thirty-eighth session: the
layout's turn limit measured across the reader's sets without editing the shipped code).

    .venv/bin/python docs/experiments/scripts-s38/with_layout.py max_turn=30 -- MODULE|SCRIPT.py ARGS...
"""
import dataclasses
import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from vision import layout  # noqa: E402

split = sys.argv.index("--")
changes = dict(item.split("=", 1) for item in sys.argv[1:split])
fields = {f.name: f for f in dataclasses.fields(layout.LayoutParams)}
defaults = {name: type(fields[name].default)(value) for name, value in changes.items()}
changed = [(name, fields[name].type, dataclasses.field(default=value)) for name, value in defaults.items()]
shipped = layout.LayoutParams
layout.LayoutParams = dataclasses.make_dataclass("LayoutParams", changed, bases=(shipped,), frozen=True)
print(f"LayoutParams defaults changed: {defaults}", flush=True)
module, sys.argv = sys.argv[split + 1], [sys.argv[split + 1], *sys.argv[split + 2:]]
if module.endswith(".py"):  # a script, as benchmarks/measure_referee_set.py
    runpy.run_path(module, run_name="__main__")
else:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
