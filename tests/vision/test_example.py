"""The bundled example: a real photo (CC BY 4.0, attributed beside it) the shipped models read right."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rummi import main

EXAMPLES = Path(__file__).resolve().parents[2] / "vision" / "examples"
EXAMPLE_SETS = [
    "b7 k7 J",
    "o3 o5 o4",
    "o1 b1 r1",
    "k6 o6 J",
    "b12 r12 o12",
    "k11 r11 o11",
    "r8 r9 r10",
]


def test_the_example_is_a_small_attributed_photo() -> None:
    assert (EXAMPLES / "table.jpg").stat().st_size < 1_000_000
    attribution = (EXAMPLES / "ATTRIBUTION.md").read_text()
    assert "CC BY 4.0" in attribution and "rummikue" in attribution
    truth = json.loads((EXAMPLES / "table.json").read_text())
    assert truth["licence"] == "CC BY 4.0"
    assert truth["photo"] in attribution


def test_the_shipped_models_read_the_example_as_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(EXAMPLES / "table.jpg"), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    truth = json.loads((EXAMPLES / "table.json").read_text())
    assert Counter(t["tile"] for t in document["tiles"]) == Counter(t["token"] for t in truth["tiles"])
    assert [" ".join(entry["tiles"]) for entry in document["table"]] == EXAMPLE_SETS
    assert [entry["valid"] for entry in document["table"]] == [True, False, True, True, True, True, True]
    assert document["racks"] == []
