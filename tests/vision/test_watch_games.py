"""End to end: a rendered game on video (the solver plays, an illegal turn put back, hands over the table,
light and a shaking camera) judged by `rummi watch`'s path with the shipped models, nobody tapping."""

from __future__ import annotations

from pathlib import Path

import pytest

from datasets.game_script import simulate_game
from datasets.game_video import render_game_video
from vision.evaluation.game_videos import score_calls, watch_game
from vision.reader import load_reader


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("game")
    # Seed 11: seat 2's opening under the threshold put back, a hand that changes nothing, a nudge.
    script = simulate_game(11, players=2, turns=5, opening_under=0.5, no_change=0.3, nudge=0.3)
    truth = render_game_video(script, folder / "game-000.mp4", fps=10, shakes=0.5, light_changes=0.5)
    return folder / "game-000.mp4", truth.to_json()


def test_every_turn_of_a_rendered_game_is_called_with_no_turn_missed_or_invented(
    game: tuple[Path, dict],
) -> None:
    video, truth = game
    assert any(not t["legal"] for t in truth["turns"]), "the game should hold an illegal turn"
    assert any(t["action"] == "put back" for t in truth["turns"])
    calls, timing = watch_game(video, load_reader(), truth["players"], truth["first_seat"])
    score = score_calls(truth["turns"], calls)
    assert (score.missed, score.invented) == (0, 0), score.wrong
    assert score.right >= score.turns - 1, score.wrong
    # Each verdict on the frame the table had been still for the settle time (5 frames a second looked at).
    assert max(abs(d) for d in score.delays_s) <= 0.35
