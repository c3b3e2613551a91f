"""Set-level accuracy of layout rebuilding, every tile read right (ground truth) or as the models read it.

Rendered scenes (`python -m datasets.render`): a scene counts as rebuilt when every ground-truth set comes
out as one set with its tiles in the same order, and (with `--racks`) every rack's tiles are reported as
that rack. Real photos (`../shared/real-dev`, polygon labels): there is no set ground truth, so the report
says how the rows come out: sets of 3+ tiles that the rules accept, tiles left loose, and the share of
photos whose every rebuilt set of 2+ tiles is valid.

    python -m vision.evaluation.layout --scenes data/layout-eval --frames [--racks] [--read] [--annotate out/]
    python -m vision.evaluation.layout --real-dev ../shared/real-dev [--annotate out/]

Real-dev: Roboflow Universe "rummikub-nvypk-8cwem" by "rummikue", CC BY 4.0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from assistant.errors import InputError
from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.detections import Detections
from vision.evaluation.reading import read_class_names
from vision.layout import Layout, rebuild


@dataclass
class SceneResult:
    name: str
    exact: bool
    sets_right: int
    sets_total: int
    racks_right: int
    racks_total: int
    fully_visible: bool
    separable: bool = True
    errors: list[str] = field(default_factory=list)
    rack_tiles_found: int = 0
    rack_tiles_total: int = 0
    table_tiles_on_racks: int = 0
    table_tiles_total: int = 0
    sets_read_right: int = 0
    sets_detected: int = 0
    misread: int = 0
    misread_doubtful: int = 0
    suggestions_right: int = 0
    suggestions_wrong: int = 0
    read_exact: bool | None = None


def scene_detections(scene: dict, with_angle: bool = True) -> tuple[Detections, list[int]]:
    """Detections of a scene's labelled tiles read right; returns them and their tile indices in the scene."""
    keep = [i for i, t in enumerate(scene["tiles"]) if t.get("labelled", True)]
    n = len(keep)
    if n == 0:
        return Detections.empty(), keep
    class_ids = np.array([scene["tiles"][i]["class_id"] for i in keep], dtype=np.int64).reshape(n, 1)
    angles = np.array([scene["tiles"][i]["angle"] for i in keep], dtype=np.float32)
    boxes = np.array([scene["tiles"][i]["box"] for i in keep], dtype=np.float32).reshape(n, 4)
    det = Detections(xyxy=boxes, confidence=np.ones(n, np.float32))
    det = det.with_readings(class_ids, np.ones((n, 1), np.float32),
                            angles if with_angle else np.zeros(n, np.float32))
    return det, keep


def score_scene(name: str, scene: dict, layout: Layout, keep: list[int], check_racks: bool,
                either_direction: bool = False, visible: set[int] | None = None) -> SceneResult:
    """Compare rebuilt sets (as scene tile indices, in order) with the ground truth.

    With `either_direction` a set read backwards counts (boxes alone cannot tell up from down).
    `visible`: the tiles one can see (default: those in `keep`); a visible tile the layout lacks (not
    detected) then spoils its set.
    """
    visible = set(keep) if visible is None else visible
    fully_visible = all(i in visible for s in scene["sets"] for i in s)
    # A tile hidden inside a set (under a hand, out of the frame) leaves what anyone sees: the pieces
    # either side of it, each to be rebuilt as a set of its own.
    truth_sets = [piece for s in scene["sets"] for piece in visible_pieces(s, visible)]
    got = [[keep[t.index] for t in s] for s in layout.table]
    if either_direction:
        truth_order = {tuple(reversed(t)): t for t in truth_sets}
        got = [list(truth_order.get(tuple(s), s)) for s in got]
    got_multi = Counter(tuple(s) for s in got)
    right = sum(1 for s in truth_sets if got_multi[tuple(s)] > 0)
    errors = []
    for s in truth_sets:
        if got_multi[tuple(s)] == 0:
            errors.append("missed " + " ".join(scene["tiles"][i]["token"] for i in s))
    truth_multi = {tuple(s) for s in truth_sets}
    # A rebuilt set of 2+ tiles that is not a ground-truth set (merged, split, or loose tiles joined).
    extra = [s for s in got if len(s) > 1 and tuple(s) not in truth_multi]
    errors += ["wrong " + " ".join(scene["tiles"][i]["token"] if i >= 0 else "(false tile)" for i in s)
               for s in extra]
    on_rack = {i for r in scene.get("racks", []) for i in r}
    # Loose table tiles must stay alone (rack tiles are judged with the racks).
    in_sets = {i for s in scene["sets"] for i in s}
    loose_ok = all(len(s) == 1 or tuple(s) in truth_multi for s in got
                   if any(i not in in_sets and i not in on_rack for i in s))
    truth_racks = [[i for i in r if i in visible] for r in scene.get("racks", [])]
    truth_racks = [r for r in truth_racks if r]
    got_racks = [[keep[t.index] for t in r] for r in layout.racks]
    racks_right = sum(1 for r in truth_racks if any(sorted(g) == sorted(r) for g in got_racks))
    if check_racks and racks_right < len(truth_racks):
        errors.append(f"racks: {racks_right}/{len(truth_racks)} found, {len(got_racks)} reported")
    # Without rack checking, rack tiles may land anywhere but must not spoil table sets (counted above).
    exact = right == len(truth_sets) and not extra_without_rack(extra, on_rack, check_racks) and loose_ok
    if check_racks:
        exact = exact and racks_right == len(truth_racks) and len(got_racks) == len(truth_racks)
    reported_on_rack = {i for r in got_racks for i in r}
    return SceneResult(name, exact, right, len(truth_sets), racks_right, len(truth_racks), fully_visible,
                       separable(scene, visible), errors,
                       rack_tiles_found=len(reported_on_rack & on_rack & visible),
                       rack_tiles_total=len(on_rack & visible),
                       table_tiles_on_racks=len(reported_on_rack - on_rack),
                       table_tiles_total=len(visible - on_rack))


def visible_pieces(members: list[int], visible: set[int]) -> list[list[int]]:
    """A set's runs of visible tiles, in order, split wherever a tile is hidden."""
    pieces: list[list[int]] = [[]]
    for i in members:
        if i in visible:
            pieces[-1].append(i)
        elif pieces[-1]:
            pieces.append([])
    return [piece for piece in pieces if piece]


def _quad_distance(a: np.ndarray, b: np.ndarray) -> float:
    """Distance between two convex quadrilaterals (0 when they overlap)."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    if inter > 0:
        return 0.0

    def point_segment(p: np.ndarray, q0: np.ndarray, q1: np.ndarray) -> float:
        d = q1 - q0
        t = float(np.clip((p - q0) @ d / max(float(d @ d), 1e-9), 0, 1))
        return float(np.linalg.norm(p - (q0 + t * d)))

    return min(
        min(point_segment(p, q[k], q[(k + 1) % 4]) for p in x for k in range(4))
        for x, q in ((a, b), (b, a))
    )


def separable(scene: dict, visible: set[int], min_gap: float = 0.25) -> bool:
    """Whether a person could tell the table's sets apart: tiles of different sets (or a loose tile and a
    set) never overlap and lie at least `min_gap` of a tile's width apart (rack tiles are left out)."""
    group_of: dict[int, int] = {}
    for k, members in enumerate(scene["sets"]):
        for i in members:
            group_of[i] = k
    tiles = [i for i, t in enumerate(scene["tiles"]) if i in visible and not t.get("on_rack")]
    corners = {i: np.asarray(scene["tiles"][i]["corners"], dtype=np.float64) for i in tiles}
    width = {i: float(np.linalg.norm(corners[i][1] - corners[i][0])) for i in tiles}
    centers = {i: corners[i].mean(axis=0) for i in tiles}
    for a_pos, a in enumerate(tiles):
        for b in tiles[a_pos + 1:]:
            if a in group_of and group_of.get(b) == group_of[a]:
                continue
            limit = min_gap * min(width[a], width[b])
            if np.linalg.norm(centers[a] - centers[b]) > 3 * max(width[a], width[b]) + limit:
                continue
            if _quad_distance(corners[a], corners[b]) < limit:
                return False
    return True


def extra_without_rack(extra: list[list[int]], on_rack: set[int], check_racks: bool) -> bool:
    """Whether any wrongly rebuilt set involves table tiles (or any tile, when racks are checked)."""
    return any(check_racks or any(i not in on_rack for i in s) for s in extra)


def _load_frame(path: Path) -> np.ndarray | None:
    import cv2

    return cv2.imread(str(path))


def match_to_scene(found: Detections, scene: dict, min_iou: float = 0.5) -> list[int]:
    """Each detection's tile index in the scene (its labelled box overlapping best, IoU > `min_iou`, each
    tile matched once); a false detection gets its own negative index, so it never matches a set."""
    from vision.detections import box_iou

    labelled = [i for i, t in enumerate(scene["tiles"]) if t.get("labelled", True)]
    boxes = np.array([scene["tiles"][i]["box"] for i in labelled], np.float32).reshape(-1, 4)
    iou = box_iou(np.asarray(found.xyxy, np.float32), boxes) if len(found) and len(boxes) else None
    keep = [-1 - k for k in range(len(found))]
    taken: set[int] = set()
    if iou is not None:
        for k in np.argsort(-iou.max(axis=1)):
            for j in np.argsort(-iou[k]):
                if iou[k, j] <= min_iou:
                    break
                if labelled[j] not in taken:
                    keep[k] = labelled[j]
                    taken.add(labelled[j])
                    break
    return keep


def evaluate_scenes(folder: Path, with_angle: bool, check_racks: bool, annotate: Path | None,
                    limit: int | None, use_frames: bool = False, reader: object | None = None,
                    ) -> list[SceneResult]:
    """Rebuild each rendered scene from its ground-truth tiles (read right) or, given a `reader`
    (`vision.reader.TileReader`), from what the models read in the image."""
    files = sorted((folder / "scenes").glob("*.json"))[:limit]
    if not files:
        raise InputError(f"no scenes/*.json under {str(folder)!r} (render with python -m datasets.render)")
    results = []
    for path in files:
        scene = json.loads(path.read_text())
        image_path = folder / "images" / f"{path.stem}.jpg"
        frame = _load_frame(image_path) if use_frames or reader is not None else None
        if reader is not None:
            if frame is None:
                raise InputError(f"cannot read {str(image_path)!r}")
            det = reader.read(frame)  # type: ignore[attr-defined]
            keep = match_to_scene(det, scene)
        else:
            det, keep = scene_detections(scene, with_angle)
        layout = rebuild(det, image_size=(scene["width"], scene["height"]), frame=frame)
        labelled = {i for i, t in enumerate(scene["tiles"]) if t.get("labelled", True)}
        result = score_scene(path.stem, scene, layout, keep, check_racks, either_direction=not with_angle,
                             visible=labelled)
        if reader is not None:
            _score_readings(result, scene, layout, keep, labelled)
        results.append(result)
        if annotate is not None and (not result.exact or len(results) <= 5):
            _save_annotated(folder / "images" / f"{path.stem}.jpg", layout, annotate / f"{path.stem}.png")
    return results


def _score_readings(result: SceneResult, scene: dict, layout: Layout, keep: list[int],
                    visible: set[int]) -> None:
    """With the models' readings: sets rebuilt exactly whose every tile is also read right."""
    from assistant.tiles import class_id

    truth = {tuple(piece) for s in scene["sets"] for piece in visible_pieces(s, visible)}
    found = set(keep)
    result.sets_detected = sum(1 for piece in truth if found.issuperset(piece))
    for tiles in layout.table:
        members = tuple(keep[t.index] for t in tiles)
        if members in truth:
            read_right = all(t.tile is not None and class_id(t.tile) == scene["tiles"][i]["class_id"]
                             for t, i in zip(tiles, members, strict=True))
            result.sets_read_right += read_right
    result.read_exact = result.exact and result.sets_read_right == result.sets_total
    for tile in layout.all_tiles():
        i = keep[tile.index]
        if i < 0 or tile.tile is None:
            continue
        truth_id = scene["tiles"][i]["class_id"]
        misread = class_id(tile.tile) != truth_id
        result.misread += misread
        result.misread_doubtful += misread and tile.doubtful
        if tile.suggestion is not None:
            if class_id(tile.suggestion) == truth_id:
                result.suggestions_right += 1
            else:
                result.suggestions_wrong += 1


def _save_annotated(image_path: Path, layout: Layout, out: Path) -> None:
    import cv2

    from vision.annotate import LayoutAnnotator

    frame = cv2.imread(str(image_path))
    if frame is None:
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), LayoutAnnotator().annotate(frame, layout))


# ---------------------------------------------------------------------------------------------- real-dev


def polygon_detections(label_text: str, names: list[str], width: int, height: int,
                       with_angle: bool = True) -> Detections:
    """Detections from YOLO polygon lines, the tile's up axis from the polygon's long side.

    The polygon gives the tile's axis up to a half turn (the half nearer the image's up is taken; rebuild
    with `orientation_known=False`). Classes are mapped by name to `CLASS_NAMES`.
    """
    import cv2

    boxes, classes, angles = [], [], []
    for line in label_text.splitlines():
        parts = line.split()
        if len(parts) < 7:
            continue
        points = np.array([float(v) for v in parts[1:]], dtype=np.float64).reshape(-1, 2) * (width, height)
        name = names[int(parts[0])]
        classes.append(CLASS_INDEX[name])
        boxes.append([*points.min(axis=0), *points.max(axis=0)])
        (_, _), (w, h), rot = cv2.minAreaRect(points.astype(np.float32))
        # OpenCV's angle is clockwise in image coordinates for the side of length w; the tile's up runs
        # along the long side.
        long_axis = rot + (90.0 if w > h else 0.0)
        up = -long_axis  # to counter-clockwise
        up = (up + 90.0) % 180.0 - 90.0  # the half turn nearest upright
        angles.append(up)
    n = len(boxes)
    det = Detections(xyxy=np.array(boxes, np.float32).reshape(n, 4), confidence=np.ones(n, np.float32))
    angle = np.array(angles, np.float32) if with_angle else np.zeros(n, np.float32)
    # An exact 0 would read as "no angle known"; a hair off keeps upright tiles upright.
    angle = np.where(with_angle & (angle == 0), 1e-3, angle).astype(np.float32)
    return det.with_readings(np.array(classes, np.int64).reshape(n, 1), np.ones((n, 1), np.float32), angle)


def evaluate_real_dev(folder: Path, with_angle: bool, annotate: Path | None, classify: bool = False,
                      read: bool = False) -> dict:
    """Per photo series, how the rows come out; with `classify`, the classifier reads the labelled boxes and
    the correction is scored against the labels (misreads, doubtful marks, suggestions right or wrong);
    with `read`, the shipped detector and classifiers read each photo and the sets they give are compared
    with the sets rebuilt from the labels (as tile sets: the labels do not say which way is up)."""
    import cv2

    reader = None
    if read:
        from vision.reader import load_reader

        reader = load_reader()
    classifier = None
    if classify:  # the crop reader `rummi read` uses (the ensemble classifiers.json lists)
        from vision.reader import load_classifier

        classifier = load_classifier(threads=1)

    names = read_class_names(folder / "data.yaml")
    if sorted(names) != sorted(CLASS_NAMES):
        raise InputError(f"{folder / 'data.yaml'} does not list the 53 tile classes")
    images = sorted((folder / "images").glob("*.jpg"))
    if not images:
        raise InputError(f"no images under {str(folder / 'images')!r}")
    per_series: dict[str, Counter] = {}
    for image_path in images:
        label = folder / "labels" / f"{image_path.stem}.txt"
        frame = cv2.imread(str(image_path))
        if frame is None or not label.exists():
            continue
        height, width = frame.shape[:2]
        det = polygon_detections(label.read_text(), names, width, height, with_angle)
        truth = det.class_id.copy()
        if classifier is not None:
            ids, scores, _ = classifier.classify(frame, det.xyxy)
            det = det.with_readings(ids, scores, det.angle)
        # Polygons give each tile's axis but not which end is up: the rules pick each row's direction.
        layout = rebuild(det, image_size=(width, height), orientation_known=False, frame=frame)
        series = image_path.name.split("-")[0]
        counts = per_series.setdefault(series, Counter())
        if classifier is not None:
            _score_correction(layout, det, truth, counts)
        if reader is not None:
            _score_reading(reader.read(frame), frame, det, layout, counts)
        multi = [(s, v) for s, v in zip(layout.table, layout.verdicts, strict=True) if len(s) > 1]
        counts["photos"] += 1
        counts["tiles"] += len(det)
        counts["loose"] += len(layout.loose)
        counts["sets3"] += sum(1 for s, _ in multi if len(s) >= 3)
        counts["valid3"] += sum(1 for s, v in multi if len(s) >= 3 and v is not None and v.valid)
        counts["pairs"] += sum(1 for s, _ in multi if len(s) == 2)
        counts["all_valid"] += int(bool(multi) and all(v is not None and v.valid for _, v in multi))
        counts["columns"] += sum(1 for s, axis in zip(layout.table, layout.set_axes, strict=True)
                                 if axis == "column" and len(s) > 1)
        counts["racks"] += len(layout.racks)
        if annotate is not None:
            _save_annotated(image_path, layout, annotate / f"{image_path.stem[:12]}.png")
    return {k: dict(v) for k, v in per_series.items()}


def _score_reading(found: Detections, frame: np.ndarray, labelled: Detections, reference: Layout,
                   counts: Counter) -> None:
    """Sets of 2+ from the detector's reading that hold exactly the labelled tiles of a reference set."""
    from vision.detections import box_iou

    height, width = frame.shape[:2]
    layout = rebuild(found, image_size=(width, height), frame=frame)
    iou = box_iou(found.xyxy, labelled.xyxy)
    match = {i: int(np.argmax(iou[i])) for i in range(len(found)) if iou.shape[1] and iou[i].max() > 0.5}
    counts["label_tiles_found"] += len(set(match.values()))
    ref_sets = {frozenset(t.index for t in s) for s in reference.table if len(s) > 1}
    got = {frozenset(match.get(t.index, -1 - t.index) for t in s) for s in layout.table if len(s) > 1}
    counts["ref_sets"] += len(ref_sets)
    counts["read_sets_same"] += len(ref_sets & got)


def _score_correction(layout: Layout, det: Detections, truth: np.ndarray, counts: Counter) -> None:
    from assistant.sets import check_set
    from assistant.tiles import class_id

    for tiles in layout.table:
        readings = [t.corrected for t in tiles]
        if len(tiles) >= 3 and all(r is not None for r in readings):
            counts["valid3_corrected"] += check_set([r for r in readings if r is not None]).valid

    for tile in layout.all_tiles():
        misread = int(det.class_id[tile.index]) != int(truth[tile.index])
        counts["misread"] += misread
        counts["misread_doubtful"] += misread and tile.doubtful
        counts["right_doubtful"] += (not misread) and tile.doubtful
        if tile.suggestion is not None:
            right = class_id(tile.suggestion) == int(truth[tile.index])
            counts["suggestion_right" if right else "suggestion_wrong"] += 1


# ------------------------------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluation.layout",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--scenes", type=Path, help="renderer output folder (scenes/*.json, images/)")
    parser.add_argument("--real-dev", type=Path, help="real photos with polygon labels (images/, labels/)")
    parser.add_argument("--no-angle", action="store_true",
                        help="pretend no tile orientation is known (a set read backwards then counts)")
    parser.add_argument("--racks", action="store_true", help="also require racks to be found exactly")
    parser.add_argument("--limit", type=int, help="only the first N scenes")
    parser.add_argument("--frames", action="store_true", help="give the layout the images (racks' dark bar)")
    parser.add_argument("--classify", action="store_true",
                        help="real-dev: read the labelled boxes with the classifier, score the correction")
    parser.add_argument("--read", action="store_true",
                        help="read the images with the shipped models instead of taking the labelled tiles "
                             "(scenes: sets compared with the truth, readings included; real-dev: compared "
                             "with the sets rebuilt from the labels)")
    parser.add_argument("--annotate", type=Path, help="write annotated PNGs of failures (and 5 others) here")
    parser.add_argument("--show", type=int, default=10, help="failures to list")
    args = parser.parse_args(argv)
    if not args.scenes and not args.real_dev:
        parser.error("give --scenes DIR and/or --real-dev DIR")
    try:
        if args.scenes:
            reader = None
            if args.read:
                from vision.reader import load_reader

                reader = load_reader()
            results = evaluate_scenes(args.scenes, not args.no_angle, args.racks, args.annotate, args.limit,
                                      args.frames, reader)
            _report_scenes(results, args.show)
        if args.real_dev:
            _report_real(evaluate_real_dev(args.real_dev, not args.no_angle, args.annotate, args.classify,
                                           args.read))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _report_scenes(results: list[SceneResult], show: int) -> None:
    n = len(results)
    exact = sum(r.exact for r in results)
    visible = [r for r in results if r.fully_visible]
    sets_right = sum(r.sets_right for r in results)
    sets_total = sum(r.sets_total for r in results)
    racks_right = sum(r.racks_right for r in results)
    racks_total = sum(r.racks_total for r in results)
    print(f"scenes rebuilt exactly: {exact}/{n} = {exact / max(n, 1):.1%}")
    for label, subset in (
        ("every set tile visible", visible),
        ("sets apart by >= 1/4 tile and not overlapping", [r for r in results if r.separable]),
        ("both", [r for r in visible if r.separable]),
    ):
        if subset:
            hits = sum(r.exact for r in subset)
            print(f"  of scenes with {label}: {hits}/{len(subset)} = {hits / len(subset):.1%}")
    print(f"sets rebuilt exactly: {sets_right}/{sets_total} = {sets_right / max(sets_total, 1):.1%}")
    if any(r.read_exact is not None for r in results):
        read_right = sum(r.sets_read_right for r in results)
        read_exact = sum(bool(r.read_exact) for r in results)
        detected = sum(r.sets_detected for r in results)
        print(f"with the models' readings: sets whose every visible tile was detected: {detected}/"
              f"{sets_total} = {detected / max(sets_total, 1):.1%}")
        misread = sum(r.misread for r in results)
        right, wrong = sum(r.suggestions_right for r in results), sum(r.suggestions_wrong for r in results)
        print(f"with the models' readings: {misread} detected tiles misread, "
              f"{sum(r.misread_doubtful for r in results)} of them marked doubtful; correction suggested "
              f"{right} right and {wrong} wrong readings")
        print(f"with the models' readings: sets rebuilt exactly and every tile read right: {read_right}/"
              f"{sets_total} = {read_right / max(sets_total, 1):.1%}; scenes with every set so: "
              f"{read_exact}/{n} = {read_exact / max(n, 1):.1%}")
    if racks_total:
        print(f"racks found (all their visible tiles, nothing else): {racks_right}/{racks_total} = "
              f"{racks_right / racks_total:.1%}")
    rack_tiles = sum(r.rack_tiles_total for r in results)
    if rack_tiles or any(r.table_tiles_on_racks for r in results):
        found = sum(r.rack_tiles_found for r in results)
        wrong = sum(r.table_tiles_on_racks for r in results)
        table_tiles = sum(r.table_tiles_total for r in results)
        print(f"rack tiles reported on a rack: {found}/{rack_tiles} = {found / max(rack_tiles, 1):.1%}; "
              f"table tiles put on a rack: {wrong}/{table_tiles} "
              f"(in {sum(1 for r in results if r.table_tiles_on_racks)} scenes)")
    for r in [r for r in results if not r.exact][:show]:
        flags = ("" if r.fully_visible else " [hidden tiles]") + ("" if r.separable else " [sets touch]")
        print(f"  {r.name}{flags}: " + "; ".join(r.errors[:4]))


def _report_real(per_series: dict[str, dict]) -> None:
    for series, c in sorted(per_series.items()):
        sets3 = c.get("sets3", 0)
        print(f"real-dev {series}: {c['photos']} photos, {c['tiles']} tiles; {sets3} sets of 3+ tiles, "
              f"{c.get('valid3', 0)} valid by the rules ({c.get('valid3', 0) / max(sets3, 1):.0%}), "
              f"{c.get('columns', 0)} laid as columns; {c.get('pairs', 0)} pairs; "
              f"{c.get('loose', 0)} loose tiles; "
              f"photos whose every set of 2+ is valid: {c.get('all_valid', 0)}/{c['photos']}; "
              f"racks found: {c.get('racks', 0)}")
        if "ref_sets" in c:
            print(f"  read by the models: {c.get('label_tiles_found', 0)}/{c['tiles']} labelled tiles found; "
                  f"sets of 2+ (from the labels) rebuilt the same: "
                  f"{c.get('read_sets_same', 0)}/{c['ref_sets']}")
        if "misread" in c or "suggestion_right" in c:
            print(f"  classifier: {c.get('misread', 0)}/{c['tiles']} tiles misread, "
                  f"{c.get('misread_doubtful', 0)} of them marked doubtful "
                  f"(and {c.get('right_doubtful', 0)} right readings); suggestions: "
                  f"{c.get('suggestion_right', 0)} right, {c.get('suggestion_wrong', 0)} wrong; sets of 3+ "
                  f"valid with the suggestions taken: {c.get('valid3_corrected', 0)}/{sets3}")


if __name__ == "__main__":
    raise SystemExit(main())
