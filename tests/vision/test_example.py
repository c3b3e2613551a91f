"""The bundled example: a rendered photo (never a real one: real photos stay outside the repository) the
shipped models read as rendered."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rummi import main

EXAMPLES = Path(__file__).resolve().parents[2] / "vision" / "examples"


def test_the_example_is_a_small_render_with_its_truth() -> None:
    assert (EXAMPLES / "table.jpg").stat().st_size < 1_000_000
    truth = json.loads((EXAMPLES / "table.json").read_text())
    assert truth["kind"] == "game" and truth["variants"] == "train"
    assert not (EXAMPLES / "ATTRIBUTION.md").exists()


def test_the_shipped_models_read_the_example_as_rendered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(EXAMPLES / "table.jpg"), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    truth = json.loads((EXAMPLES / "table.json").read_text())
    labelled = [t for t in truth["tiles"] if t["labelled"]]
    assert Counter(t["tile"] for t in document["tiles"]) == Counter(t["token"] for t in labelled)
    assert sorted(sorted(entry["tiles"]) for entry in document["table"]) == sorted(
        sorted(truth["tiles"][i]["token"] for i in members) for members in truth["sets"]
    )
    assert [entry["valid"] for entry in document["table"]] == [True, False, True, False, True]
    assert document["racks"] == []
