"""Each rack box the shipped detector keeps before `bare_tile_clusters`: its tiles' count, the box below them
(in tile heights), their share of the box, their rows, and whether the rule drops it; on real-dev (no racks
at all), real-racks (one each) and the hold-out renders. Tab-separated lines on stdout."""

import glob

import numpy as np

import vision.detector as detector
from vision.frames import load_scaled
from vision.reader import load_reader

rows: list[tuple] = []
source = {"set": "", "photo": ""}
rule = detector.bare_tile_clusters


def recorded(rack_xyxy: np.ndarray, tile_xyxy: np.ndarray) -> np.ndarray:
    racks = np.asarray(rack_xyxy, np.float64).reshape(-1, 4)
    tiles = np.asarray(tile_xyxy, np.float64).reshape(-1, 4)
    members = detector.share_inside(tiles, racks) >= detector.RACK_MEMBER_OVERLAP
    bare = rule(rack_xyxy, tile_xyxy)
    for k, rack in enumerate(racks):
        inside = tiles[members[:, k]]
        if len(inside) == 0:
            rows.append((source["set"], source["photo"], 0, 0, 0, 0, bool(bare[k])))
            continue
        height = float(np.median(inside[:, 3] - inside[:, 1]))
        below = (rack[3] - inside[:, 3].max()) / height
        area = float((rack[2:] - rack[:2]).prod())
        share = float((inside[:, 2:] - inside[:, :2]).prod(axis=1).sum()) / area
        middles = np.sort((inside[:, 1] + inside[:, 3]) / 2)
        tile_rows = 1 + int((np.diff(middles) > 0.6 * height).sum())
        rows.append((source["set"], source["photo"], len(inside), round(below, 2), round(share, 2), tile_rows,
                     bool(bare[k])))
    return bare


detector.bare_tile_clusters = recorded
reader = load_reader()
for name, pattern in [("real-dev", "/work/shared/real-dev/images/*.jpg"),
                      ("real-racks", "/work/shared/real-racks/images/*.jpg"),
                      ("holdout", "/work/runs/size-exp/holdout/images/*.jpg")]:
    for path in sorted(glob.glob(pattern)):
        source.update(set=name, photo=path.split("/")[-1][:14])
        reader.read(load_scaled(path).frame)
for row in rows:
    print(*row, sep="\t")
