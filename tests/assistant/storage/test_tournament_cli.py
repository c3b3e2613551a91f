"""`rummi tournament new | game | standings | round` per ../shared/CONTRACT.md, on both databases, and from
eight processes at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.hall import open_hall

ROOT = Path(__file__).resolve().parents[3]
PLAYERS = "ann,bob,cid,dee,eve,fay,gus,hal"


def rummi(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and "--json" in argv else {}), err


def _new(capsys: pytest.CaptureFixture[str], db: str, seed: str = "7") -> list[list[str]]:
    code, document, err = rummi(
        capsys, "tournament", "new", "Cup", "--players", PLAYERS, "--seed", seed, "--db", db, "--json"
    )
    assert code == 0, err
    return document["tables"]


def test_new_draws_the_tables_by_seed(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = _new(capsys, db_url)
    assert sorted(sum(tables, [])) == sorted(PLAYERS.split(","))
    assert [len(t) for t in tables] == [4, 4]
    code, document, _ = rummi(
        capsys,
        "tournament",
        "new",
        "Cup",
        "--players",
        PLAYERS,
        "--seed",
        "7",
        "--db",
        str(tmp_path / "other.sqlite3"),
        "--json",
    )
    assert code == 0 and document["tables"] == tables and document["tournament"] == "Cup"
    assert document["rules"] == "tournament"


def test_game_and_standings(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _new(capsys, db_url)
    racks = [
        f"--rack={first[0]}=",
        f"--rack={first[1]}=r5 J",
        f"--rack={first[2]}=k1",
        f"--rack={first[3]}=o13",
    ]
    code, game, err = rummi(
        capsys, "tournament", "game", "Cup", "--table", "1", *racks, "--db", db_url, "--json"
    )
    assert code == 0, err
    assert game["game"] == 1 and game["table"] == 1
    assert game["scores"] == {first[0]: 69, first[1]: -55, first[2]: -1, first[3]: -13}  # joker 50 (004)
    racks2 = [
        f"--rack={second[0]}=r2",
        f"--rack={second[1]}=r3",
        f"--rack={second[2]}=",
        f"--rack={second[3]}=r4",
    ]
    assert (
        rummi(capsys, "tournament", "game", "Cup", "--table", "2", *racks2, "--db", db_url, "--json")[0] == 0
    )
    code, document, _ = rummi(capsys, "tournament", "standings", "Cup", "--db", db_url, "--json")
    assert code == 0 and document["tournament"] == "Cup" and document["games"] == 2
    ranked = [(p["name"], p["games_won"], p["score"]) for p in document["players"]]
    assert ranked[:2] == [(first[0], 1, 69), (second[2], 1, 9)]
    assert ranked[-1] == (first[1], 0, -55)
    assert sum(score for _, _, score in ranked) == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["game", "Nope", "--table", "1", "--rack", "ann="], "no tournament called 'Nope'"),
        (["game", "Cup", "--table", "1", "--rack", "zed=", "--rack", "ann=r1"], "'zed' is not a player"),
        (["game", "Cup", "--table", "3", "--rack", "ann="], "no table 3"),
        (["game", "Cup", "--table", "1", "--rack", "ann=r14"], "r14"),
        (["game", "Cup", "--table", "1", "--rack", "ann"], "not PLAYER=TILES"),
        (["standings", "Nope"], "no tournament called 'Nope'"),
        (["new", "Cup", "--players", "x,y"], "'Cup' already exists"),
        (["new", "Solo", "--players", "x"], "at least 2 players"),
        (["new", "Big", "--players", "a,b,c", "--table-size", "9"], "2 to 4 players"),
        (["new", "Odd", "--players", "a,b,c", "--table-size", "2"], "leave one player alone"),
        (["new", "Big", "--players", "a,b,c", "--table-size", "\uff13"], "digits 0-9"),
        (["new", "Big", "--players", "a,b,c", "--seed", "\uff17"], "ASCII"),
        (["game", "Cup", "--table", "\u0661", "--rack", "ann="], "digits 0-9"),
    ],
)
def test_bad_input_is_exit_code_2_with_a_message(
    db_url: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    _new(capsys, db_url)
    code, _, err = rummi(capsys, "tournament", *args, "--db", db_url, "--json")
    assert code == 2
    assert message in err and "Traceback" not in err
    assert rummi(capsys, "tournament", "standings", "Cup", "--db", db_url, "--json")[1]["games"] == 0


def test_player_names_are_compared_ignoring_case(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = rummi(capsys, "tournament", "new", "Twins", "--players", "a,A", "--db", db_url)
    assert code == 2 and "'a' and 'A' are the same name" in err
    assert rummi(capsys, "tournament", "new", "Duo", "--players", "ann,HAL", "--db", db_url)[0] == 0
    game = ["tournament", "game", "Duo", "--table", "1", "--db", db_url, "--json"]
    code, _, err = rummi(capsys, *game, "--rack", "hal=", "--rack", "HAL=r4")
    assert code == 2 and "'HAL' is given two racks" in err
    code, document, err = rummi(capsys, *game, "--rack", "hal=", "--rack", "Ann=r4")
    assert code == 0, err
    assert document["scores"] == {"HAL": 4, "ann": -4}  # the stored spelling


def test_a_player_at_another_table(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = _new(capsys, db_url)
    racks = [f"--rack={p}=" if i == 0 else f"--rack={p}=r{i}" for i, p in enumerate(first[:3] + [second[0]])]
    code, _, err = rummi(capsys, "tournament", "game", "Cup", "--table", "1", *racks, "--db", db_url)
    assert code == 2 and f"'{second[0]}' plays at table 2, not at table 1" in err


def test_the_same_key_twice_records_once(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    first, _ = _new(capsys, db_url)
    racks = [f"--rack={p}=" if i == 0 else f"--rack={p}=b{i}" for i, p in enumerate(first)]
    command = ["tournament", "game", "Cup", "--table", "1", *racks, "--key", "k1", "--db", db_url, "--json"]
    once, twice = rummi(capsys, *command)[1], rummi(capsys, *command)[1]
    assert (once["game"], once["already_recorded"]) == (1, False)
    assert (twice["game"], twice["already_recorded"]) == (1, True)


def test_a_key_reused_for_another_result_is_exit_2(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    first, _ = _new(capsys, db_url)
    game = ["tournament", "game", "Cup", "--table", "1", "--db", db_url]
    racks = [f"--rack={p}=" if i == 0 else f"--rack={p}=b{i}" for i, p in enumerate(first)]
    other = [f"--rack={p}=" if i == 1 else f"--rack={p}=b{i + 1}" for i, p in enumerate(first)]
    assert rummi(capsys, *game, *racks, "--key", "K1")[0] == 0
    code, _, err = rummi(capsys, *game, *other, "--key", "K1")
    assert code == 2 and "Traceback" not in err
    assert "key 'K1' already recorded game 1" in err
    assert f"{first[1]}=b1 -1" in err and f"{first[1]}= +" in err  # the stored result and the given one
    code, _, err = rummi(capsys, *game, *other, "--key", "")
    assert code == 2 and "--key is empty" in err
    assert rummi(capsys, *game, *racks, "--key", "K1")[0] == 0  # the same result again
    assert rummi(capsys, "tournament", "standings", "Cup", "--db", db_url, "--json")[1]["games"] == 1


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///", "sqlite+pysqlite:///:memory:", "sqlite:///file:h?mode=memory&uri=true"]
)
def test_a_database_in_memory_is_refused(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It would be gone when the command ends: `new` said 0 and kept nothing.
    code, _, err = rummi(capsys, "tournament", "new", "X", "--players", "a,b", "--db", url)
    assert code == 2 and "in memory" in err and "Traceback" not in err
    monkeypatch.setenv("RUMMI_DB", url)
    code, _, err = rummi(capsys, "tournament", "new", "X", "--players", "a,b")
    assert code == 2 and "in memory" in err


@pytest.mark.parametrize(
    "action", [["standings"], ["round", "--by", "raffle"], ["game", "--table", "1", "--rack", "a="]]
)
def test_a_missing_database_is_not_created_to_answer(
    action: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for db in (str(tmp_path / "none" / "fresh.db"), f"sqlite:///{tmp_path}/fresh.db"):
        code, _, err = rummi(capsys, "tournament", action[0], "T1", *action[1:], "--db", db)
        assert code == 2 and "no such tournament 'T1': there is no database at" in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_db_in_a_folder_that_does_not_exist_is_refused_and_nothing_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "hall").mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    typo = str(tmp_path / "hal" / "club.db")  # the folder is "hall"
    for db in (typo, f"sqlite:///{typo}"):
        code, _, err = rummi(capsys, "tournament", "new", "Cup", "--players", PLAYERS, "--db", db)
        assert code == 2 and "Traceback" not in err
        assert f"no folder {str(tmp_path / 'hal')!r} for the database {typo!r}: is the path mistyped?" in err
    monkeypatch.setenv("RUMMI_DB", typo)
    code, _, err = rummi(capsys, "tournament", "new", "Cup", "--players", PLAYERS)
    assert code == 2 and "is the path mistyped?" in err
    assert [p.name for p in tmp_path.iterdir()] == ["hall"]
    # The folder as it is: the database is made in it.
    code, document, err = rummi(
        capsys, "tournament", "new", "Cup", "--players", PLAYERS, "--db", str(tmp_path / "hall" / "club.db"),
        "--json",
    )
    assert code == 0, err
    assert (tmp_path / "hall" / "club.db").exists()


def test_standings_and_round_check_the_rules(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    _new(capsys, db_url)
    for action in (["standings"], ["round", "--by", "standings"]):
        code, _, err = rummi(
            capsys, "tournament", action[0], "Cup", *action[1:], "--rules", "nope", "--db", db_url
        )
        assert code == 2 and "unknown rules preset 'nope'" in err
        code, _, err = rummi(
            capsys, "tournament", action[0], "Cup", *action[1:], "--rules", "standard", "--db", db_url
        )
        assert code == 2 and "played under the tournament rules, not standard" in err
    assert rummi(capsys, "tournament", "standings", "Cup", "--rules", "tournament", "--db", db_url)[0] == 0
    assert rummi(capsys, "tournament", "standings", "Cup", "--db", db_url, "--json")[1]["games"] == 0
    assert open_hall(db_url).load("Cup").current_round == 1  # the refused rounds did not start


def test_an_empty_db_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = rummi(capsys, "tournament", "standings", "T1", "--db", "")
    assert code == 2 and "--db is empty" in err


def test_rounds_from_the_cli(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    _new(capsys, db_url)
    code, document, err = rummi(
        capsys, "tournament", "round", "Cup", "--by", "raffle", "--seed", "9", "--db", db_url, "--json"
    )
    assert code == 0, err
    assert document["round"] == 2 and document["seating"] == "raffle" and document["seed"] == "9"


def test_rummi_db_names_the_database(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMI_DB", db_url)
    assert rummi(capsys, "tournament", "new", "Env", "--players", "a,b", "--json")[0] == 0
    assert rummi(capsys, "tournament", "standings", "Env", "--db", db_url, "--json")[1]["tournament"] == "Env"


def _processes(commands: list[list[str]]) -> list[tuple[int, str, str]]:
    """Run `rummi` commands as separate processes, all at once: (exit code, stdout, stderr) of each."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "assistant", *command],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    return [(run.returncode, out, err) for run, (out, err) in zip(runs, outputs, strict=True)]


def test_eight_processes_at_once_from_a_fresh_database(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nothing created yet: eight processes bring the schema up at once (one at a time, under a lock) and each
    # creates a tournament; the one whose name was taken first is refused.
    hall = ",".join(f"p{n}" for n in range(1, 33))
    names = ["Hall", *(f"T{n}" for n in range(6)), "Hall"]
    done = _processes(
        [
            ["tournament", "new", name, "--players", hall, "--seed", "1", "--db", db_url, "--json"]
            for name in names
        ]
    )
    assert sorted(code for code, _, _ in done) == [0] * 7 + [2], [err for _, _, err in done]
    assert sum("'Hall' already exists" in err for _, _, err in done) == 1
    [tables] = {
        json.dumps(json.loads(out)["tables"]) for code, out, _ in done if code == 0 and '"Hall"' in out
    }

    # Then one game per table of Hall, from eight processes at once.
    commands = []
    for table, seated in enumerate(json.loads(tables), start=1):
        racks = [f"--rack={p}=" if i == 0 else f"--rack={p}=o{i + table}" for i, p in enumerate(seated)]
        commands.append(
            ["tournament", "game", "Hall", "--table", str(table), *racks, "--db", db_url, "--json"]
        )
    done = _processes(commands)
    assert [code for code, _, _ in done] == [0] * 8, [err for _, _, err in done]
    assert sorted(json.loads(out)["game"] for _, out, _ in done) == list(range(1, 9))
    standing = rummi(capsys, "tournament", "standings", "Hall", "--db", db_url, "--json")[1]
    assert standing["games"] == 8
    assert sum(p["games_won"] for p in standing["players"]) == 8
    assert sum(p["score"] for p in standing["players"]) == 0
    for name in names[1:7]:
        assert rummi(capsys, "tournament", "standings", name, "--db", db_url, "--json")[1]["games"] == 0
