"""The detector trainer's command line (training itself needs the `train` extra and hours)."""

from __future__ import annotations

import pytest

from vision.training.detector import KEEP_NORM_MARKER, build_parser, keeps_norm_statistics


def test_a_fine_tune_may_freeze_the_backbone_and_set_its_optimizer_and_learning_rate() -> None:
    args = build_parser().parse_args(["--freeze", "10", "--optimizer", "AdamW", "--lr0", "0.0005"])
    assert (args.freeze, args.optimizer, args.lr0) == (10, "AdamW", 0.0005)


def test_by_default_nothing_is_frozen_and_ultralytics_picks_the_optimizer() -> None:
    args = build_parser().parse_args([])
    assert (args.freeze, args.optimizer) == (None, "auto")


def test_batch_norms_learn_their_statistics_unless_a_recovered_checkpoint_keeps_them() -> None:
    # One epoch at learning rate 0 from the recovered shipped detector, its batch norms taking the training
    # batches' statistics: hold-out rack tiles in racks 88.60 -> 60.40 %, no real rack found (twenty-seventh
    # session, docs/experiments/scripts-s27/first-epoch-trial.sh).
    assert build_parser().parse_args([]).keep_norm_statistics is False
    args = build_parser().parse_args(["--resume", "--keep-norm-statistics"])
    assert args.keep_norm_statistics is True


def test_a_run_that_kept_its_norm_statistics_keeps_them_when_resumed_without_the_flag(tmp_path) -> None:
    run = tmp_path / "detector"
    assert keeps_norm_statistics(run, asked=True, resume=False) is True
    assert (run / KEEP_NORM_MARKER).exists()
    assert keeps_norm_statistics(run, asked=False, resume=True) is True


def test_a_run_started_without_kept_statistics_resumes_without_them(tmp_path) -> None:
    run = tmp_path / "detector"
    assert keeps_norm_statistics(run, asked=False, resume=False) is False
    assert not (run / KEEP_NORM_MARKER).exists()
    assert keeps_norm_statistics(run, asked=False, resume=True) is False
    # asked for on a resume: remembered from then on
    assert keeps_norm_statistics(run, asked=True, resume=True) is True
    assert keeps_norm_statistics(run, asked=False, resume=True) is True


def test_an_export_is_a_fixed_square_unless_any_input_size_is_asked_for() -> None:
    assert build_parser().parse_args(["--export-only", "w.pt"]).dynamic is False
    assert build_parser().parse_args(["--export-only", "w.pt", "--dynamic"]).dynamic is True


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


def _real_folder(tmp_path, name: str, lines: list[str], racks: dict | None = None):
    import json

    (tmp_path / "images").mkdir(exist_ok=True)
    (tmp_path / "labels").mkdir(exist_ok=True)
    (tmp_path / "images" / f"{name}.jpg").write_bytes(b"")
    (tmp_path / "labels" / f"{name}.txt").write_text("\n".join(lines) + "\n")
    if racks is not None:
        (tmp_path / "racks.json").write_text(json.dumps(racks))
    return tmp_path / "images" / f"{name}.jpg"


def test_a_real_photos_tiles_become_tile_boxes_and_its_rack_a_box_around_them(tmp_path) -> None:
    from vision.training.detector import RACK_MARGIN, real_images, real_label_lines

    photo = _real_folder(
        tmp_path, "rummy4-1",
        ["5 0.1 0.4 0.2 0.4 0.2 0.6 0.1 0.6", "7 0.3 0.4 0.4 0.4 0.4 0.6 0.3 0.6",
         "9 0.5 0.5 0.6 0.5 0.6 0.7 0.5 0.7"],
        {"rummy4-1.jpg": {"racks": [{"tiles": ["k2", "k4"], "label_lines": [0, 1]}], "table": []}},
    )
    lines = real_label_lines(photo, real_images(f"{tmp_path}:3")[2])
    assert [line.split()[0] for line in lines] == ["0", "0", "0", "1"]
    _, cx, cy, w, h = (float(v) for v in lines[-1].split())
    assert cx - w / 2 == pytest.approx(0.1 - RACK_MARGIN[0] * 0.1, abs=1e-5)  # the third tile is not on it
    assert cx + w / 2 == pytest.approx(0.4 + RACK_MARGIN[2] * 0.1, abs=1e-5)
    assert cy + h / 2 == pytest.approx(0.6 + RACK_MARGIN[3] * 0.2, abs=1e-5)
    photos, copies, _ = real_images(f"{tmp_path}:3@rummy4-1,rummy4-9")
    assert (len(photos), copies) == (1, 3)
    with pytest.raises(SystemExit):
        real_images(f"{tmp_path}@rummy5")


def test_real_validation_photos_replace_the_rendered_validation_share(tmp_path) -> None:
    from vision.training.detector import build_dataset

    real = tmp_path / "real"
    real.mkdir()
    _real_folder(real, "a-1", ["3 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2"])
    renders = tmp_path / "render"
    (renders / "images").mkdir(parents=True)
    (renders / "labels_det").mkdir()
    for k in range(4):
        (renders / "images" / f"{k:06d}.jpg").write_bytes(b"")
        (renders / "labels_det" / f"{k:06d}.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    build_dataset([renders], tmp_path / "ds", 0.25, 0, real_train=[f"{real}:2"], real_val=[str(real)])
    assert len(list((tmp_path / "ds" / "train" / "images").iterdir())) == 4 + 2
    val = sorted((tmp_path / "ds" / "val" / "labels").iterdir())
    assert len(val) == 1 and val[0].read_text().startswith("0 ")
