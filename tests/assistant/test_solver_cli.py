"""`rummi solve` (CONTRACT.md): the plug-in's `configure` and `run`, and through `rummi` itself."""

from __future__ import annotations

import argparse
import json

import pytest

from assistant import solver_cli
from assistant.rules import find_preset
from assistant.sets import check_set
from assistant.tiles import NotationError, parse_tiles

STANDARD = find_preset("standard")


def parse(argv: list[str], json_mode: bool = True) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rummi solve")
    solver_cli.configure(parser)
    args = parser.parse_args(argv)
    args.json = json_mode
    return args


def test_json_output_follows_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["--table", "r4 r5 r6 r7 r8", "--rack", "r3 J k5 b5", "--opened"])
    assert solver_cli.run(args, STANDARD) == 0
    document = json.loads(capsys.readouterr().out)
    assert {"placed", "table", "value"} <= document.keys()
    assert sorted(document["placed"]) == sorted(["r3", "J", "k5", "b5"])
    assert document["value"] == 3 + 5 + 5 + 5  # the joker stands for a 5 in the group
    assert document["optimal"] is True
    for tokens in document["table"]:
        assert check_set(parse_tiles(" ".join(tokens)), STANDARD).valid


def test_not_opened_keeps_the_table_and_lays_new_sets(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["--table", "r4 r5 r6", "--rack", "r7 k10 b10 o10", "--not-opened"])
    assert solver_cli.run(args, STANDARD) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["table"][0] == ["r4", "r5", "r6"]
    assert sorted(document["placed"]) == ["b10", "k10", "o10"]
    assert document["value"] == 30


def test_text_output_names_the_play(capsys: pytest.CaptureFixture[str]) -> None:
    args = parse(["--rack", "k1 k2 k3", "--not-opened"], json_mode=False)
    assert solver_cli.run(args, STANDARD) == 0
    assert "No opening meld is possible" in capsys.readouterr().out
    args = parse(["--rack", "k11 k12 k13", "--opened", "--maximize", "value"], json_mode=False)
    solver_cli.run(args, STANDARD)
    assert "Place 3 tiles worth 36 points" in capsys.readouterr().out


def test_unreadable_rack_raises_notation_error() -> None:
    with pytest.raises(NotationError, match="x5"):
        solver_cli.run(parse(["--rack", "r5 x5", "--opened"]), STANDARD)


@pytest.mark.parametrize("bad", [["--time-limit", "0"], ["--time-limit", "soon"], ["--maximize", "fun"]])
def test_bad_options_are_usage_errors(bad: list[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        parse(["--rack", "r5", "--opened", *bad])
    assert stop.value.code == 2


def test_opened_or_not_is_required() -> None:
    with pytest.raises(SystemExit):
        parse(["--rack", "r5"])


def test_through_rummi(capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    assert main(["solve", "--table", "", "--rack", "r6 r7 r8 J", "--opened", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["placed"]) == 4
    assert main(["solve", "--rack", "r5 r5 r5", "--opened"]) == 2
    assert "3 copies of red 5" in capsys.readouterr().err
