import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import rummi
from assistant.cli import PLUGINS, Plugin, build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:
    code = main(["--json", *argv]) if "--json" not in argv else main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


SET_KEYS = {"tiles", "valid", "kind", "value", "jokers", "reason"}


def test_table_valid(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "table", "r5 r6 J | b6 J b8 | r12 k12 o12")
    assert code == 0
    assert doc["valid"] is True and doc["problems"] == []
    assert all(SET_KEYS <= s.keys() for s in doc["sets"])
    assert [s["kind"] for s in doc["sets"]] == ["run", "run", "group"]
    assert [s["jokers"] for s in doc["sets"]] == [["r7"], ["b7"], []]
    assert [s["value"] for s in doc["sets"]] == [18, 21, 36]


def test_table_invalid_set_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "table", "r5 r7 r8 | J k1 k2 | J b2 b3 | J o3 o4")
    assert code == 1
    assert doc["valid"] is False
    assert doc["sets"][0] == {
        **doc["sets"][0],
        "valid": False,
        "kind": None,
        "value": None,
        "reason": "gap between 5 and 7",
    }
    assert any("3 jokers" in p for p in doc["problems"])


def test_table_ambiguous_readings(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "table", "r5 J J")
    assert code == 0
    assert {(r["kind"], r["value"]) for r in doc["sets"][0]["readings"]} == {("run", 18), ("group", 15)}


def test_rules_after_the_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "table", "r5 r6 r7 | r5 b5 k5 | r3 r4 r5", "--rules", "six-player")
    assert code == 0 and doc["valid"]
    code, doc, _ = run(capsys, "--rules", "standard", "table", "r5 r6 r7 | r5 b5 k5 | r3 r4 r5")
    assert code == 1 and not doc["valid"]


def test_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, "meld", "k10 k11 J")
    assert code == 0
    assert (doc["valid"], doc["value"], doc["threshold"], doc["meets_threshold"]) == (True, 33, 30, True)
    code, doc, _ = run(capsys, "meld", "r5 r6 r7")
    assert code == 1 and doc["meets_threshold"] is False
    code, doc, _ = run(capsys, "meld", "r5 r6 r7", "--threshold", "15")
    assert code == 0 and doc["threshold"] == 15
    code, doc, _ = run(capsys, "meld", "r5 r6 r7", "--rules", "standard+no-threshold")
    assert code == 0 and doc["threshold"] == 0


def test_turn_legal_split(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys,
        "turn",
        "--before",
        "r4 r5 r6 r7 r8",
        "--after",
        "r3 r4 r5 | r6 r7 r8",
        "--rack",
        "r3 k9",
        "--opened",
    )
    assert code == 0
    assert {k: doc[k] for k in ("legal", "action", "played", "reasons", "meld_value")} == {
        "legal": True,
        "action": "play",
        "played": ["r3"],
        "reasons": [],
        "meld_value": None,
    }


def test_turn_illegal_before_opening(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys,
        "turn",
        "--before",
        "b8 b9 b10",
        "--after",
        "b9 b10 b11 | b8 k8 o8",
        "--rack",
        "b11 k8 o8",
        "--not-opened",
    )
    assert code == 1
    assert doc["legal"] is False and doc["action"] == "play" and doc["meld_value"] == 27
    assert doc["reason_codes"] == ["manipulation_before_opening", "opening_too_low"]
    assert all(isinstance(r, str) and r for r in doc["reasons"])


def test_turn_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys, "turn", "--before", "r1 r2 r3", "--after", "r1 r2 r3", "--rack", "", "--opened"
    )
    assert code == 0 and doc["action"] == "draw" and doc["played"] == []


def test_score_round_and_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(
        capsys, "score", "--rack", "w=", "--rack", "a=r12", "--rack", "b=k10 b8", "--rack", "c=o13,r12"
    )
    assert code == 0
    assert doc == {
        **doc,
        "blocked": False,
        "winners": ["w"],
        "rack_values": {"w": 0, "a": 12, "b": 18, "c": 25},
        "scores": {"w": 55, "a": -12, "b": -18, "c": -25},
    }
    code, doc, _ = run(
        capsys, "score", "--rack", "a=r8", "--rack", "b=k7 b7", "--rack", "c=o13 r8", "--rack", "d=J"
    )
    assert doc["blocked"] is True and doc["winners"] == ["a"]
    assert doc["scores"] == {"a": 41, "b": -6, "c": -13, "d": -22}


def test_score_joker_penalty_follows_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, doc, _ = run(capsys, "score", "--rack", "a=", "--rack", "b=J", "--rules", "tournament")
    assert doc["scores"] == {"a": 50, "b": -50}


def test_score_partnership_and_failed_opening(capsys: pytest.CaptureFixture[str]) -> None:
    racks = ["--rack", "a=", "--rack", "b=r5", "--rack", "c=r6", "--rack", "d=r7"]
    _, doc, _ = run(capsys, "score", *racks, "--rules", "standard+partnership")
    assert doc["partnership_scores"] == {"a+c": 12, "b+d": -12}
    _, doc, _ = run(capsys, "score", *racks, "--rules", "tournament", "--failed-opening", "d=chose-not")
    assert doc["scores"] == {"a": 218, "b": -5, "c": -6, "d": -207}
    code, _, err = run(capsys, "score", *racks, "--failed-opening", "d=chose-not")
    assert code == 2 and "failed-opening" in err


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["table", "r14 r5 r6"], "r14"),
        (["table", "x5 r5 r6"], "x5"),
        (["table", "r5 r6 r7 | | k1 k2 k3"], "empty set"),
        (["table", "r1 r2 r3 | , | k1 k2 k3"], "empty set (position 2)"),
        (["table", "r1 r2 r3;;k1 k2 k3"], "empty set (position 2)"),
        (["table", " , "], "empty set (position 1)"),
        (["table", ";"], "empty set (position 1)"),
        (["meld", "r5 r6 q7"], "q7"),
        (["turn", "--before", "", "--after", "r5 r6 r7", "--rack", "r5 r6 r77", "--opened"], "r77"),
        (["score", "--rack", "alice"], "alice"),
        (["score", "--rack", "a=r1", "--rack", "b=z9"], "z9"),
        (["--rules", "chess", "table", "r5 r6 r7"], "chess"),
        (["table", "r5 r6 r7", "--rules", "standard+fancy"], "fancy"),
    ],
)
def test_unreadable_input_exits_2_naming_the_token(
    capsys: pytest.CaptureFixture[str], argv: list[str], token: str
) -> None:
    assert main(["--json", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and token in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["table", "r\uff15"], "digits 0-9"),
        (["table", "r\u0665 r\u0666 r\u0667"], "digits 0-9"),
        (["meld", "r10 r11 r12", "--threshold", "\uff15"], "digits 0-9"),
        (["meld", "r10 r11 r12", "--threshold", "-5"], "cannot be negative"),
        (["turn", "--before", "", "--after", "", "--opened", "--threshold", "\u0663"], "digits 0-9"),
        (["solve", "--rack", "r1 r2 r3", "--opened", "--threshold", "\uff13"], "digits 0-9"),
        (["solve", "--rack", "r1 r2 r3", "--opened", "--time-limit", "\uff12"], "digits 0-9"),
    ],
)
def test_numbers_are_ascii_digits_only(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err and "Traceback" not in err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["turn", "--before", "", "--after", ""]) == 2
    assert "--opened" in capsys.readouterr().err


def test_human_output_is_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "r5 r7 r8"]) == 1
    out = capsys.readouterr().out
    assert "gap between 5 and 7" in out and not out.lstrip().startswith("{")


@pytest.mark.parametrize(("module", "main_of"), [("assistant", "assistant.cli"), ("rummi", "rummi")])
def test_python_dash_m(module: str, main_of: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", module, "table", "--json", "r5 r6 r7"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0
    assert json.loads(result.stdout)["valid"] is True
    # The rules commands do not pull in the vision stack, from either entry.
    probe = (
        f"import sys; from {main_of} import main; main(['table','r1 r2 r3']); "
        "print('cv2' in sys.modules, 'vision' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.stdout.strip().endswith("False False"), result.stderr


@pytest.mark.parametrize("command", ["read", "calibrate", "watch"])
def test_python_dash_m_assistant_runs_the_whole_rummi_as_the_contract_says(command: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "assistant", command, "--help"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert f"usage: rummi {command}" in result.stdout


def test_the_domain_cli_has_the_domain_commands_only(capsys: pytest.CaptureFixture[str]) -> None:
    """`assistant.cli` has the domain's commands; the reader's are added by `rummi` (rummi.py)."""
    assert set(PLUGINS) == {"solve", "tournament", "replay"}
    assert main(["read", "table.jpg"]) == 2
    assert "invalid choice: 'read'" in capsys.readouterr().err
    assert {"solve", "tournament", "replay", "read", "calibrate", "watch"} == set(rummi.PLUGINS)
    assert rummi.main(["read", "--help"]) == 0
    assert "IMAGE" in capsys.readouterr().out


def test_main_is_given_more_plugins(capsys: pytest.CaptureFixture[str]) -> None:
    """A plug-in is loaded only when named, gets `--json` and `--rules`, and its `run` gives the exit code."""
    loaded: list[str] = []

    def load() -> ModuleType:
        loaded.append("echo")
        module = ModuleType("echo")
        module.configure = lambda parser: parser.add_argument("word")  # type: ignore[attr-defined]
        module.run = lambda args, rules: print(args.word, rules.label, args.json) or 1  # type: ignore[attr-defined]
        return module

    plugins = {**PLUGINS, "echo": Plugin(load, "say a word")}
    assert main(["table", "r1 r2 r3"], plugins) == 0
    assert loaded == [] and "valid" in capsys.readouterr().out
    assert main(["echo", "hi", "--json", "--rules", "american"], plugins) == 1
    assert loaded == ["echo"]
    out = capsys.readouterr().out.split()
    assert (out[0], out[-1]) == ("hi", "True")
    parser, module = build_parser("echo", plugins)
    assert module is not None and module.__name__ == "echo"


def test_a_plugin_that_cannot_be_imported_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    def load() -> ModuleType:
        raise ModuleNotFoundError("No module named 'cv2'")

    assert main(["see", "x.jpg"], {"see": Plugin(load, "needs OpenCV")}) == 2
    assert "'see' is not available" in capsys.readouterr().err


# --- american turns, drawn tiles, the supply check, long tokens, closed pipes -----------------------

AMERICAN_PLAY = ["turn", "--rules", "american", "--before", "b4 b5 b6", "--after", "b4 b5 b6 b7", "--opened"]


def test_american_turn_with_a_discard(capsys: pytest.CaptureFixture[str]) -> None:
    # 003_*.txt: "The discarded tile is always the last tile put on the table".
    code, doc, _ = run(capsys, *AMERICAN_PLAY, "--rack", "b7 k1 k2", "--discard", "k1")
    assert code == 0 and doc["legal"] is True
    assert doc["discard"] == "k1" and doc["rack_after"] == ["k2"] and doc["went_out"] is False


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        (["--rack", "b7 k1"], "no_discard", "the turn must end with a discard"),
        (
            ["--rack", "b7 k1", "--discard", "o9"],
            "discard_not_from_rack",
            "the discard must come from your rack",
        ),
        (
            ["--rack", "b7 k1", "--took-discard", "r9", "--discard", "k1"],
            "taken_discard_not_played",
            "the discard you took (red 9) must be played this turn",
        ),
    ],
)
def test_american_turn_reasons(
    capsys: pytest.CaptureFixture[str], extra: list[str], code: str, words: str
) -> None:
    exit_code, doc, _ = run(capsys, *AMERICAN_PLAY, *extra)
    assert exit_code == 1 and doc["legal"] is False
    assert doc["reason_codes"] == [code] and words in doc["reasons"][0]


def test_took_discard_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, _ = run(capsys, *AMERICAN_PLAY, "--rack", "k1", "--took-discard", "b7", "--discard", "k1")
    assert code == 0 and doc["played"] == ["b7"] and doc["went_out"] is True


def test_drawn_tile_cannot_be_played_this_turn(capsys: pytest.CaptureFixture[str]) -> None:
    # 000_*.txt section 4; 002_*.txt: "Players cannot play a tile they just drew".
    argv = [
        "turn",
        "--before",
        "b4 b5 b6",
        "--after",
        "b4 b5 b6 b7",
        "--rack",
        "k1",
        "--drew",
        "b7",
        "--opened",
    ]
    code, doc, _ = run(capsys, *argv)
    assert code == 1 and doc["reason_codes"] == ["drawn_tile_played"]
    code, doc, _ = run(capsys, *argv, "--rules", "standard+immediate-draw")
    assert code == 0 and doc["played"] == ["b7"]


@pytest.mark.parametrize("option", ["--discard", "--took-discard", "--drew", "--took-trump"])
def test_one_tile_options_take_one_tile(capsys: pytest.CaptureFixture[str], option: str) -> None:
    assert main([*AMERICAN_PLAY, "--rack", "b7 k1", option, "r5 r6"]) == 2
    assert f"{option} takes exactly one tile" in capsys.readouterr().err
    assert main([*AMERICAN_PLAY, "--rack", "b7 k1", option, "r55"]) == 2
    assert "r55" in capsys.readouterr().err


def test_every_command_refuses_more_tiles_than_the_box_with_one_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    expected = "table and racks hold 3 copies of red 5 (r5), but the standard edition (106 tiles) has only 2"
    racks_only = expected.replace("table and racks", "the racks")  # score is given no table
    commands = [
        [
            "turn",
            "--before",
            "r5 r6 r7 | r5 b5 k5",
            "--after",
            "r5 r6 r7 | r5 b5 k5",
            "--rack",
            "r5",
            "--opened",
        ],
        ["solve", "--table", "r5 r6 r7 | r5 b5 k5", "--rack", "r5", "--opened"],
        ["score", "--rack", "a=", "--rack", "b=r5 r5", "--rack", "c=r5"],
    ]
    for argv in commands:
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        message = racks_only if argv[0] == "score" else expected
        assert out == "" and err.strip() == f"rummi: error: {message}"
    rack = " ".join(f"{c}{n} {c}{n} {c}{n} {c}{n}" for c in "kbro" for n in range(1, 14))
    assert main(["turn", "--before", "", "--after", "", "--rack", rack, "--opened"]) == 2


def test_score_names_compared_ignoring_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--rack", "Ann=", "--rack", "ann=r5"]) == 2
    err = capsys.readouterr().err
    assert "'ann'" in err and "ignoring case" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["table", "r" * 100_000],
        ["table", "r5 r6 | | " + "k" * 100_000],
        ["--rules", "x" * 100_000, "table", "r5 r6 r7"],
        ["x" * 100_000],
        ["score", "--rack", "y" * 100_000],
        ["turn", "--before", "", "--after", "", "--opened", "--drew", "z" * 100_000],
    ],
)
def test_huge_tokens_are_not_echoed_whole(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err) < 1000 and "…" in err and "Traceback" not in err


def test_a_closed_pipe_ends_quietly() -> None:
    # `rummi ... | head -1`: the reader goes away before the output is written.
    layout = " | ".join(["r1 r2 r3"] * 3000)
    process = subprocess.Popen(
        [sys.executable, "-m", "assistant", "--json", "table", layout],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def readme_block(heading: str) -> list[str]:
    """The command lines of the first ```bash block under README.md's `## heading` (comments left out)."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_the_readme_tournament_hall_runs_as_written(tmp_path: Path) -> None:
    """Every command of README's "A tournament hall", as written, on a temporary SQLite file standing in
    for the hall's server (the one line that names the server, `export RUMMI_DB=...`, is replaced by it)."""
    import os
    import shlex

    lines = readme_block("A tournament hall")
    export, rummi_lines, app_lines = lines[0], lines[1:-1], lines[-1:]
    assert export.startswith("export RUMMI_DB=postgresql+psycopg://")
    assert rummi_lines and all(line.startswith("rummi tournament ") for line in rummi_lines)
    bin_dir = tmp_path / "bin"  # `rummi` as the activated .venv gives it, for this checkout
    bin_dir.mkdir()
    (bin_dir / "rummi").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m rummi "$@"\n')
    (bin_dir / "rummi").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": str(ROOT),
        "RUMMI_DB": str(tmp_path / "hall.sqlite3"),
    }
    outputs = []
    for line in rummi_lines:
        done = subprocess.run(
            ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"{line}\n{done.stderr}"
        assert "Traceback" not in done.stderr
        outputs.append(done.stdout)
    assert "Game 1 recorded: table 1" in outputs[1]
    assert "1 game recorded" in outputs[2] and "round 2" in outputs[3]
    # The app's line: streamlit's own options, this checkout's app (a server is not started here).
    (app,) = app_lines
    argv = shlex.split(app, comments=True)
    assert argv[:3] == [".venv/bin/streamlit", "run", "app.py"] and (ROOT / "app.py").is_file()
    from streamlit import config

    ours = argv.index("--") if "--" in argv else len(argv)  # after `--`: the app's own (--db, --director-key)
    options = [arg[2:] for arg in argv[3:ours] if arg.startswith("--")]
    assert options == ["server.address"]
    assert {arg for arg in argv[ours + 1 :] if arg.startswith("--")} <= {"--db", "--director-key"}
    for option in options:
        config.get_option(option)  # RuntimeError for an option streamlit does not have
