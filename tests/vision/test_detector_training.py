"""The detector trainer's command line (training itself needs the `train` extra and hours)."""

from __future__ import annotations

from vision.training.detector import build_parser


def test_a_fine_tune_may_freeze_the_backbone_and_set_its_optimizer_and_learning_rate() -> None:
    args = build_parser().parse_args(["--freeze", "10", "--optimizer", "AdamW", "--lr0", "0.0005"])
    assert (args.freeze, args.optimizer, args.lr0) == (10, "AdamW", 0.0005)


def test_by_default_nothing_is_frozen_and_ultralytics_picks_the_optimizer() -> None:
    args = build_parser().parse_args([])
    assert (args.freeze, args.optimizer) == (None, "auto")


def test_an_unfolded_batch_norm_gives_back_the_folded_convolution_in_eval_mode() -> None:
    import numpy as np

    from vision.training.recover_checkpoint import unfolded_norm

    rng = np.random.default_rng(3)
    z = rng.normal(2.0, 3.0, size=(4, 1000)) * np.array([[1.0], [0.1], [5.0], [0.01]])
    folded_bias = np.array([0.5, -1.0, 2.0, 0.0])
    eps = 1e-3
    norm = unfolded_norm(folded_bias, z.mean(axis=1), z.var(axis=1), eps)
    as_eval = (z - norm["running_mean"][:, None]) / np.sqrt(norm["running_var"][:, None] + eps)
    as_eval = as_eval * norm["weight"][:, None] + norm["bias"][:, None]
    np.testing.assert_allclose(as_eval, z + folded_bias[:, None], rtol=1e-9, atol=1e-9)
    as_train = (z - z.mean(axis=1, keepdims=True)) / np.sqrt(z.var(axis=1, keepdims=True) + eps)
    as_train = as_train * norm["weight"][:, None] + norm["bias"][:, None]
    np.testing.assert_allclose(as_train, z + folded_bias[:, None], rtol=1e-9, atol=1e-9)


def test_recovering_a_checkpoint_from_a_missing_onnx_file_says_so(tmp_path, capsys) -> None:
    from vision.training.recover_checkpoint import main

    assert main([str(tmp_path / "nothing.onnx"), str(tmp_path / "out.pt"), "--images", str(tmp_path)]) == 2
    assert "no ONNX file" in capsys.readouterr().err
