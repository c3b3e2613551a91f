"""Start-up: a command loads only what it uses (issue 16). The rules commands never load OpenCV, numpy,
onnxruntime or the vision package; `rummi read --help` does not load the models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("cv2", "numpy", "onnxruntime", "vision", "torch", "PIL")


def loaded_after(argv: list[str]) -> tuple[int, set[str]]:
    """Run `rummi ARGV` in a fresh interpreter; its exit code and the top-level packages it imported."""
    probe = (
        "import json, sys\n"
        "from rummi import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        "print(json.dumps([code, sorted({m.split('.')[0] for m in sys.modules})]))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr
    code, modules = json.loads(result.stdout.strip().splitlines()[-1])
    return code, set(modules)


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "r1 r2 r3"],
        ["table", "--json", "r1 r2 r3 | k5 b5 o5"],
        ["meld", "r10 r11 r12"],
        ["table", "r1 r2"],  # a rule breach (exit 1) loads no more
    ],
)
def test_the_rules_commands_load_no_vision(argv: list[str]) -> None:
    code, modules = loaded_after(argv)
    assert code in (0, 1)
    assert "assistant" in modules
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_read_help_loads_no_model_runtime() -> None:
    code, modules = loaded_after(["read", "--help"])
    assert code == 0
    assert "vision" in modules  # the plug-in was configured
    assert "onnxruntime" not in modules
