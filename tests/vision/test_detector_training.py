"""The detector trainer's command line (training itself needs the `train` extra and hours)."""

from __future__ import annotations

from vision.training.detector import build_parser


def test_a_fine_tune_may_freeze_the_backbone_and_set_its_optimizer_and_learning_rate() -> None:
    args = build_parser().parse_args(["--freeze", "10", "--optimizer", "AdamW", "--lr0", "0.0005"])
    assert (args.freeze, args.optimizer, args.lr0) == (10, "AdamW", 0.0005)


def test_by_default_nothing_is_frozen_and_ultralytics_picks_the_optimizer() -> None:
    args = build_parser().parse_args([])
    assert (args.freeze, args.optimizer) == (None, "auto")
