"""Game videos for the referee made from the real pixels of labelled photos, with the truth of `game_video`.

    python -m datasets.photo_game OUT_DIR --photos DIR --games N --seed S --players 2 [--fps 10]
        [--long-side 1000] [--zoom-out 1.6]

`DIR` holds `images/*.jpg`, `labels/*.txt` (YOLO: `class x1 y1 x2 y2 ...` polygons or `class cx cy w h`
boxes, normalised) and `data.yaml` (the class names, `black_1` ... `joker`). Writes `OUT_DIR/game-000.mp4`
(`mp4v`) and `game-000.json`: `datasets.game_video`'s truth (`GameTruth.to_json`, `surface` "photo:NAME")
plus `photo`, the photo's file name, so that `python -m vision.evaluation.game_videos OUT_DIR` scores the
referee on them unchanged. Game i of a run is seeded `S * 1000 + i`; its photo is the i-th usable one in an
order drawn from S.

A game is one photo (long side 1000 px). Its labelled tiles are grouped into table sets by geometry
(`group_tiles`: side by side in the tiles' own frame, union-find; a lone tile is a group of one); a photo
with fewer than 3 groups, or of groups that are valid sets, makes no game (skipped, and said). State 0 is
the photo with every tile taken off (`empty_table`: each tile's polygon, grown for its shadow, filled with a
patch of the photo's bare table from nearby, Poisson-blended; `cv2.inpaint` where no patch is clean). Each
turn a seat lays one or two groups (three only where an opening needs them); the last state is the photo as
it is, less its groups that are no set. Legality is `STANDARD`'s (`assistant.sets.check_set`,
`assistant.meld.check_meld`): a play is legal when every group it lays is a valid set and, before the seat
has opened, they are worth the opening threshold. Illegal plays (`game_script.ILLEGAL_KINDS`: an opening
under the threshold; an invalid set, one of the photo's groups that is no set, or a group laid without one of
its tiles) are put back by the same seat at its next hand, as `game_script` records them; a group put back
is laid again later (a photo's group that is no set never is). The seats lay the groups in an order where
each can open (`_Planner`); a seat that cannot open with what is left ends the game (`ended` "no play",
else "photo"). Hands that change nothing are mixed in. The frames (hands, light, shakes, noise, timing) are
`game_video.compose_frames`'s.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.errors import InputError
from assistant.meld import check_meld
from assistant.rules import STANDARD, Rules
from assistant.sets import check_set
from assistant.table import count_problems
from assistant.tiles import Tile, class_id, tile_from_class_id, tile_from_class_name
from datasets.camera import Camera
from datasets.game_script import GameScript, ScriptEvent, Slot, TableGeometry, TableState
from datasets.game_video import (
    CachedStates,
    GameLook,
    GameTruth,
    compose_frames,
    positive_int,
    to_u8,
    write_video,
)
from datasets.scene import _light_direction
from datasets.tile_face import Edition
from vision.evaluation.reading import (
    fix_known_label_errors,
    image_files,
    parse_label_polygons,
    read_class_names,
)
from vision.frames import ImageError, load_image

LONG_SIDE = 1000
"""The photo's long side in the video, pixels."""

SHADOW = 0.15
"""A tile's polygon is grown by this share of its height before it is taken off (its shadow goes with it)."""

GAP = 0.5
"""Two tiles lie in one set when the gap between them is under this share of a tile's width..."""

OVERLAP = 0.5
"""...and they overlap more than this share of a tile's height (both in the tiles' own frame)."""

PARALLEL = 0.9
"""...and their long sides are this parallel (cosine)."""

OFFSETS = (1.5, 2.0, 2.5, 3.0)
"""Distances (tile heights) at which a patch of bare table is looked for: along the table's grain, in the 8
directions, then 8 more (`_offsets`)."""

OPENING_UNDER = 0.2
"""The chance that a seat which has not opened tries an opening under the threshold (`simulate_game`'s)."""

INVALID_SET = 0.15
"""The chance that a seat lays an invalid set: one of the photo's groups that is no set, else a group
without one of its tiles."""

NO_CHANGE = 0.15
"""The chance of a hand that changes nothing before a seat's turn (`simulate_game`'s)."""

PAIRS = 0.4
"""The chance that a legal play lays two groups where one would do."""

MIN_GROUPS = 3
"""A photo with fewer groups that are valid sets makes no game."""

_SEARCH_BUDGET = 20000
"""Plays tried when looking for the order that lays the most groups (seats that cannot open end the game)."""


class PhotoError(InputError):
    """A photo folder that cannot be used: missing, without labels, an unknown class name."""


# ------------------------------------------------------------------------------------------------ photos


@dataclass
class PhotoTile:
    """One labelled tile of a photo, in the video's pixels."""

    tile: Tile
    polygon: np.ndarray  # (k, 2) float
    centre: np.ndarray  # (2,)
    up: np.ndarray  # unit vector along the tile's long side, towards the picture's top
    height: float
    width: float

    @property
    def right(self) -> np.ndarray:
        """Unit vector across the tile, to its right (`up` turned clockwise on screen)."""
        return np.array([-self.up[1], self.up[0]])


@dataclass
class Photo:
    """A labelled photo scaled for the video: its pixels, tiles and the table sets they form."""

    name: str
    image: np.ndarray  # BGR uint8, long side `LONG_SIDE`
    tiles: list[PhotoTile]
    groups: list[list[int]] = field(default_factory=list)  # tile indices, left to right
    rows: list[int] = field(default_factory=list)  # each group's row, top to bottom

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    @property
    def tile_px(self) -> float:
        """The median labelled tile's height in pixels."""
        return float(np.median([t.height for t in self.tiles])) if self.tiles else 0.0

    def faces(self, group: Sequence[int]) -> list[Tile]:
        return [self.tiles[i].tile for i in group]


def _tile_frame(polygon: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(centre, up, height, width) of a tile's polygon from its smallest enclosing rectangle; `up` along the
    long side, pointing up the picture."""
    box = cv2.boxPoints(cv2.minAreaRect(polygon.astype(np.float32))).astype(np.float64)
    e1, e2 = box[1] - box[0], box[2] - box[1]
    l1, l2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
    up, height, width = (e1 / max(l1, 1e-9), l1, l2) if l1 >= l2 else (e2 / max(l2, 1e-9), l2, l1)
    if up[1] > 0 or (up[1] == 0 and up[0] < 0):
        up = -up
    return box.mean(axis=0), up, height, width


def class_tiles(data_yaml: Path) -> list[Tile]:
    """The tile of each class of a YOLO data.yaml, in its order (`reading.read_class_names`).

    Raises:
        PhotoError: no data.yaml, no names in it, or a name that is no tile.
    """
    if not data_yaml.is_file():
        raise PhotoError(f"no {data_yaml.name} in {str(data_yaml.parent)!r} (the label classes' names)")
    try:
        names = read_class_names(data_yaml)
    except ValueError as exc:
        raise PhotoError(str(exc)) from None
    tiles = []
    for name in names:
        try:
            tiles.append(tile_from_class_name(name))
        except InputError:
            raise PhotoError(f"{data_yaml}: unknown class name {name!r} (expected colour_number, e.g. "
                             f"black_1 ... orange_13, or joker)") from None
    return tiles


def load_photo(image_path: Path, labels: Path, classes: Sequence[Tile], long_side: int = LONG_SIDE) -> Photo:
    """A photo scaled to `long_side` (even sizes), its labelled tiles and their groups.

    Raises:
        PhotoError: the image cannot be read, its labels are no YOLO lines, or a label's class is not in
            data.yaml.
    """
    try:
        image = load_image(image_path)  # as `vision.evaluation.reading` reads a labelled photo
    except ImageError as exc:
        raise PhotoError(str(exc)) from None
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    size = (max(2, round(w * scale / 2) * 2), max(2, round(h * scale / 2) * 2))
    image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    label_file = labels / f"{image_path.stem}.txt"
    text = label_file.read_text() if label_file.exists() else ""
    try:
        polygons = parse_label_polygons(text, *size)
    except ValueError:
        raise PhotoError(f"{label_file}: not YOLO label lines (class x1 y1 ... or class cx cy w h)") from None
    for cls, _ in polygons:
        if not 0 <= cls < len(classes):
            raise PhotoError(f"{label_file}: class {cls} is not in data.yaml ({len(classes)} names)")
    # real-dev's labels are wrong on one photo (rummy-2: its black run labelled blue), as every measure of
    # the reader on it corrects them: a game's truth from them called the right reading wrong.
    boxes = np.array([[*pts.min(axis=0), *pts.max(axis=0)] for _, pts in polygons]).reshape(-1, 4)
    labelled = np.array([class_id(classes[c]) for c, _ in polygons], np.int64)
    ids = fix_known_label_errors(image_path.name, boxes, labelled)
    tiles = []
    for tile_class, (_, polygon) in zip(ids, polygons, strict=True):
        centre, up, height, width = _tile_frame(polygon)
        tiles.append(PhotoTile(tile_from_class_id(int(tile_class)), polygon, centre, up, height, width))
    photo = Photo(image_path.name, image, tiles)
    photo.groups = group_tiles(tiles)
    photo.rows = _rows(photo)
    return photo


def _side_by_side(a: PhotoTile, b: PhotoTile) -> bool:
    """Touching or nearly touching side by side (`GAP`, `OVERLAP`, `PARALLEL`), in the tiles' own frame."""
    if abs(float(a.up @ b.up)) < PARALLEL:
        return False
    up = a.up + b.up * np.sign(a.up @ b.up)
    up /= np.linalg.norm(up)
    right = np.array([-up[1], up[0]])
    d = b.centre - a.centre
    height, width = (a.height + b.height) / 2, (a.width + b.width) / 2
    return height - abs(float(d @ up)) > OVERLAP * height and abs(float(d @ right)) - width < GAP * width


def group_tiles(tiles: Sequence[PhotoTile]) -> list[list[int]]:
    """The table sets the tiles form: tiles side by side in a row (`_side_by_side`) are joined (union-find);
    a lone tile is a group of one. Each group's tiles left to right along the row (reversed where only the
    reverse is a valid set: a row read the other way up); groups in no particular order."""
    parent = list(range(len(tiles)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(tiles)), 2):
        if _side_by_side(tiles[i], tiles[j]):
            parent[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(len(tiles)):
        members.setdefault(root(i), []).append(i)
    groups = []
    for group in members.values():
        right = np.sum([tiles[i].right for i in group], axis=0)
        group.sort(key=lambda i: float(tiles[i].centre @ right))
        faces = [tiles[i].tile for i in group]
        if not check_set(faces).valid and check_set(faces[::-1]).valid:
            group.reverse()
        groups.append(group)
    groups.sort(key=lambda g: min(g))
    return groups


def _rows(photo: Photo) -> list[int]:
    """Each group's row: groups by their centres top to bottom, a new row where a centre lies more than
    half a tile height below the row's first."""
    centres = [np.mean([photo.tiles[i].centre for i in g], axis=0) for g in photo.groups]
    rows = [0] * len(photo.groups)
    row, top = -1, -math.inf
    for k in sorted(range(len(centres)), key=lambda k: centres[k][1]):
        if centres[k][1] > top + 0.5 * photo.tile_px:
            row, top = row + 1, centres[k][1]
        rows[k] = row
    return rows


def unusable(photo: Photo, rules: Rules = STANDARD) -> str | None:
    """Why a photo makes no game (fewer than `MIN_GROUPS` groups, or of valid sets; more copies of a tile
    than the edition has), or None."""
    valid = sum(check_set(photo.faces(g), rules).valid for g in photo.groups)
    if len(photo.groups) < MIN_GROUPS:
        count = len(photo.groups)
        return f"{count} group{'' if count == 1 else 's'} of tiles (at least {MIN_GROUPS} needed)"
    if valid < MIN_GROUPS:
        return f"only {valid} of its {len(photo.groups)} groups are valid sets (at least {MIN_GROUPS} needed)"
    problems = count_problems((t.tile for t in photo.tiles), rules)
    if problems:
        return "; ".join(problems)
    return None


# ------------------------------------------------------------------------------------------------ pixels


def _kernel(radius: float) -> np.ndarray:
    r = max(1, int(round(radius)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def tile_masks(photo: Photo) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(core, grown) uint8 masks (0/255, the frame's size) of each tile: its polygon, and the polygon grown by
    `SHADOW` of the tile's height."""
    w, h = photo.size
    cores, grown = [], []
    for t in photo.tiles:
        core = np.zeros((h, w), np.uint8)
        cv2.fillPoly(core, [np.round(t.polygon * 4).astype(np.int32)], 255, cv2.LINE_8, shift=2)
        cores.append(core)
        grown.append(cv2.dilate(core, _kernel(SHADOW * t.height)))
    return cores, grown


_DIRECTIONS = [np.array([math.cos(a), math.sin(a)]) for a in np.arange(16) * math.pi / 8]
"""16 directions, every 22.5 degrees from +x; the even ones are the 8 compass directions."""


@dataclass
class FillReport:
    """How state 0 was made: regions filled with a patch of bare table, and pixels left to `cv2.inpaint`."""

    patched_groups: int = 0  # regions of touching tiles (grown polygons) filled with one patch of the photo
    patched_tiles: int = 0  # tiles of the other regions filled one by one with a patch of the photo
    refilled_tiles: int = 0  # tiles filled with a patch that takes in table filled before
    inpainted_tiles: int = 0  # tiles with no clean patch at all
    inpainted_px: int = 0


def _bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return None
    return int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1


def grain_direction(image: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Unit vector (pixels) along the table's texture (a wood's grain): across its strongest gradients, from
    the structure tensor of the bare pixels."""
    grey = cv2.cvtColor(to_u8(image), cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)[bare]
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)[bare]
    tensor = np.array([[float(gx @ gx), float(gx @ gy)], [float(gx @ gy), float(gy @ gy)]])
    across = np.linalg.eigh(tensor)[1][:, 1]
    return np.array([-across[1], across[0]])


def _offsets(region: np.ndarray, unit: float, grain: np.ndarray, whole: bool) -> list[tuple[int, int]]:
    """Shifts to look for a patch at: along the grain first, then the 8 directions, then 8 more; `OFFSETS`
    tile heights away and, for a `whole` region of several tiles, just past the region's own extent."""
    ys, xs = np.nonzero(region)
    points = np.stack([xs, ys], axis=1).astype(np.float64)
    shifts: list[tuple[int, int]] = []
    for direction in [grain, -grain, *_DIRECTIONS[::2], *_DIRECTIONS[1::2]]:
        distances = [d * unit for d in OFFSETS]
        if whole:
            along = points @ direction
            extent = float(along.max() - along.min()) + 1
            distances += [extent + k * unit for k in (0.1, 0.5, 1.0)]
        for distance in sorted(distances):
            shift = (int(round(direction[0] * distance)), int(round(direction[1] * distance)))
            if shift not in shifts:
                shifts.append(shift)
    return shifts


def _patch(out: np.ndarray, source_image: np.ndarray, region: np.ndarray, avoid: np.ndarray,
           unfilled: np.ndarray, unit: float, feather: int, shifts: Sequence[tuple[int, int]]) -> bool:
    """Fill `region` (uint8 mask) of `out` with a same-shaped patch of `source_image` shifted by one of
    `shifts` whose pixels (the feather included) touch no `avoid` pixel: the one whose surroundings match
    the region's best (its surroundings that are table, not `unfilled`), Poisson-blended
    (`cv2.seamlessClone`). False when no patch is clean."""
    h, w = region.shape
    blend = cv2.dilate(region, _kernel(feather))
    ring = cv2.dilate(blend, _kernel(0.25 * unit))
    box = _bbox(ring)
    if box is None:
        return True
    y0, y1, x0, x1 = box
    win_blend = blend[y0:y1, x0:x1] > 0
    win_ring = (ring[y0:y1, x0:x1] > 0) & ~win_blend & ~(unfilled[y0:y1, x0:x1] > 0)
    target = out[y0:y1, x0:x1]
    best: tuple[float, int, int] | None = None
    for dx, dy in shifts:
        if y0 + dy < 0 or x0 + dx < 0 or y1 + dy > h or x1 + dx > w:
            continue
        if (avoid[y0 + dy:y1 + dy, x0 + dx:x1 + dx][win_blend] > 0).any():
            continue
        source = source_image[y0 + dy:y1 + dy, x0 + dx:x1 + dx]
        clean_ring = win_ring & ~(avoid[y0 + dy:y1 + dy, x0 + dx:x1 + dx] > 0)
        score = 0.0
        if clean_ring.sum() > 20:
            score = float(np.abs(target[clean_ring] - source[clean_ring]).mean())
        if best is None or score < best[0] - 1e-9:
            best = (score, dx, dy)
    if best is None:
        return False
    _, dx, dy = best
    patch = source_image[y0 + dy:y1 + dy, x0 + dx:x1 + dx].copy()
    # Poisson: the patch's texture with the light of its surroundings (`out` holds a smooth guess of the
    # table where tiles are still to be filled); the window mirrored at the frame's edges.
    m = 4
    dst = cv2.copyMakeBorder(to_u8(target), m, m, m, m, cv2.BORDER_REFLECT)
    src = cv2.copyMakeBorder(to_u8(patch), m, m, m, m, cv2.BORDER_REFLECT)
    mask = cv2.copyMakeBorder(blend[y0:y1, x0:x1], m, m, m, m, cv2.BORDER_CONSTANT, value=0)
    mbox = _bbox(mask)
    assert mbox is not None
    my0, my1, mx0, mx1 = mbox
    centre = (mx0 + (mx1 - mx0) // 2, my0 + (my1 - my0) // 2)
    cloned = cv2.seamlessClone(src[my0:my1, mx0:mx1], dst, mask[my0:my1, mx0:mx1], centre, cv2.NORMAL_CLONE)
    cloned = cloned[m:-m, m:-m].astype(np.float32) / 255.0
    out[y0:y1, x0:x1] = np.where(win_blend[..., None], cloned, target)
    return True


def empty_table(photo: Photo, masks: tuple[list[np.ndarray], list[np.ndarray]] | None = None
                ) -> tuple[np.ndarray, FillReport]:
    """The photo with every tile taken off (BGR float32 0-1). Each region of touching tiles (their grown
    polygons) is filled with one patch of the photo's bare table from nearby (`_patch`, shifts
    `_offsets`); where none is clean, tile by tile; then tiles still left with a patch that may take in
    table filled before; pixels with no patch at all keep `cv2.inpaint`'s (Telea) smooth guess."""
    _, grown = masks or tile_masks(photo)
    image = photo.image.astype(np.float32) / 255.0
    out = image.copy()
    report = FillReport()
    if not photo.tiles:
        return out, report
    unit = photo.tile_px
    feather = max(2, int(round(0.06 * unit)))
    taken = np.zeros(image.shape[:2], np.uint8)
    for g in grown:
        taken = cv2.max(taken, g)
    grain = grain_direction(image, taken == 0)
    unfilled = taken.copy()
    # A smooth guess of the table under the tiles: the light the patches take on, and what is left where
    # no patch is clean.
    base = cv2.inpaint(photo.image, cv2.dilate(taken, _kernel(2)), max(3.0, 0.1 * unit), cv2.INPAINT_TELEA)
    out = base.astype(np.float32) / 255.0
    count, labels = cv2.connectedComponents(taken, connectivity=8)
    owner = [int(np.bincount(labels[g > 0]).argmax()) for g in grown]
    left: list[int] = []
    for component in range(1, count):
        members = [i for i, o in enumerate(owner) if o == component]
        region = np.where(labels == component, 255, 0).astype(np.uint8)
        shifts = _offsets(region, unit, grain, len(members) > 1)
        if _patch(out, image, region, taken, unfilled, unit, feather, shifts):
            report.patched_groups += 1
            unfilled[region > 0] = 0
            continue
        for i in members:
            shifts = _offsets(grown[i], unit, grain, False)
            if _patch(out, image, grown[i], taken, unfilled, unit, feather, shifts):
                report.patched_tiles += 1
                unfilled[grown[i] > 0] = 0
            else:
                left.append(i)
    for i in left:  # the photo's own table is too crowded here: take in table filled before
        shifts = _offsets(grown[i], unit, grain, False)
        if _patch(out, out.copy(), grown[i], unfilled, unfilled, unit, feather, shifts):
            report.refilled_tiles += 1
            unfilled[grown[i] > 0] = 0
        else:
            report.inpainted_tiles += 1
    report.inpainted_px = int((unfilled > 0).sum())
    return out.astype(np.float32), report


def zoomed_out(photo: Photo, empty: np.ndarray, factor: float) -> tuple[Photo, np.ndarray]:
    """The photo in the middle of a table `factor` times as wide and high, and its empty table: the new table
    around it is the photo's own empty table mirrored at each edge (no seam where no tile lies; a mirror
    copies no tile, since the empty table has none). The tiles keep their pixels and sizes: against the
    frame they are `factor` times smaller, as a camera further up sees them (a close photo's tiles are
    69-123 px tall at 1000 px, a rendered game's 45-60)."""
    if not 1.0 <= factor <= 3.0:
        raise ValueError(f"a photo is zoomed out from 1 to 3 times, not {factor}")
    if factor == 1.0:
        return photo, empty
    w, h = photo.size
    width, height = round(w * factor / 2) * 2, round(h * factor / 2) * 2
    left, top = (width - w) // 2, (height - h) // 2
    # Each border is at most the photo's own size (factor <= 3): one mirror fills it.
    canvas_empty = np.ascontiguousarray(cv2.copyMakeBorder(
        empty, top, height - h - top, left, width - w - left, cv2.BORDER_REFLECT_101), np.float32)
    image = to_u8(canvas_empty)
    image[top:top + h, left:left + w] = photo.image
    shift = np.array([left, top], np.float64)
    tiles = [PhotoTile(t.tile, t.polygon + shift, t.centre + shift, t.up, t.height, t.width)
             for t in photo.tiles]
    zoomed = Photo(photo.name, image, tiles, [list(g) for g in photo.groups], list(photo.rows))
    return zoomed, canvas_empty


class PhotoStates(CachedStates):
    """Each table state's still image (BGR float32 0-1 and bytes): the empty table with the photo's pixels
    of the tiles on the table (grown polygons, feathered; a tile off the table next to one on it keeps its
    own polygon empty). Drawn when first asked for; the last `keep` kept."""

    def __init__(self, script: GameScript, photo: Photo, empty: np.ndarray,
                 masks: tuple[list[np.ndarray], list[np.ndarray]], keep: int = 3) -> None:
        super().__init__(keep)
        self.script = script
        self.photo = photo.image.astype(np.float32) / 255.0
        self.empty = empty
        self.cores, self.grown = masks
        self.feather = max(2, int(round(0.04 * photo.tile_px)))

    def alpha(self, shown: Sequence[int]) -> np.ndarray:
        """(h, w, 1) float32: how much of the photo shows, the tiles `shown` on the table."""
        h, w = self.empty.shape[:2]
        on = np.zeros((h, w), np.uint8)
        core = np.zeros((h, w), np.uint8)
        off = np.zeros((h, w), np.uint8)
        shown_set = set(shown)
        for i in range(len(self.cores)):
            if i in shown_set:
                on = cv2.max(on, self.grown[i])
                core = cv2.max(core, self.cores[i])
            else:
                off = cv2.max(off, self.cores[i])
        sigma = max(0.5, self.feather / 2)
        soft_on = cv2.GaussianBlur(on.astype(np.float32) / 255.0, (0, 0), sigma)
        soft_off = cv2.GaussianBlur(cv2.dilate(off, _kernel(self.feather)).astype(np.float32) / 255.0, (0, 0),
                                    sigma)
        alpha = np.maximum(core.astype(np.float32) / 255.0, soft_on * (1 - soft_off))
        return alpha[..., None]

    def _key(self, state: int) -> Any:
        return tuple(sorted(self.script.states[state].ids()))

    def _draw(self, state: int) -> np.ndarray:
        shown = self._key(state)
        if not shown:
            return self.empty
        alpha = self.alpha(shown)
        return (self.empty * (1 - alpha) + self.photo * alpha).astype(np.float32)


# ------------------------------------------------------------------------------------------------ the game


Play = frozenset[int]  # groups (indices into Photo.groups) laid in one turn


class _Planner:
    """The order of legal plays that lays the most groups, seats in turn: a seat that has not opened lays
    groups worth the threshold; a seat with no legal play left ends the game."""

    def __init__(self, photo: Photo, playable: Sequence[int], players: int, rules: Rules,
                 rng: np.random.Generator) -> None:
        self.photo = photo
        self.players = players
        self.rules = rules
        self.rng = rng
        self.playable = list(playable)
        self._legal: dict[tuple[Play, bool], bool] = {}
        self._memo: dict[tuple[Play, int, frozenset[int]], tuple[Play, ...]] = {}
        self._budget = 0

    def legal(self, play: Play, opened: bool) -> bool:
        """Every group a valid set and, before the seat has opened, an opening meld worth the threshold."""
        key = (play, opened)
        if key not in self._legal:
            sets = [self.photo.faces(self.photo.groups[g]) for g in sorted(play)]
            if opened:
                self._legal[key] = all(check_set(s, self.rules).valid for s in sets)
            else:
                self._legal[key] = check_meld(sets, self.rules).accepted
        return self._legal[key]

    def candidates(self, pool: Play, opened: bool) -> list[Play]:
        singles = [frozenset([g]) for g in sorted(pool)]
        pairs = [frozenset(p) for p in itertools.combinations(sorted(pool), 2)]
        order = [singles, pairs]
        for part in order:
            self.rng.shuffle(part)  # type: ignore[arg-type]
        if self.rng.random() < PAIRS:
            order.reverse()
        found = [p for part in order for p in part if self.legal(p, opened)]
        if not opened and not found:  # an opening that needs three groups
            triples = [frozenset(t) for t in itertools.combinations(sorted(pool), 3)]
            self.rng.shuffle(triples)  # type: ignore[arg-type]
            found = [p for p in triples if self.legal(p, opened)]
        return found

    def plan(self, pool: Play, turn: int, opened: frozenset[int]) -> tuple[Play, ...]:
        """The plays from seat turn `turn` (0: seat 1's first) on, laying as many of `pool` as can be."""
        self._budget = _SEARCH_BUDGET
        return self._plan(pool, turn % self.players, opened)

    def _plan(self, pool: Play, seat_index: int, opened: frozenset[int]) -> tuple[Play, ...]:
        if not pool:
            return ()
        key = (pool, seat_index, opened)
        if key in self._memo:
            return self._memo[key]
        seat = seat_index + 1
        if len(opened) == self.players:  # everyone may lay anything now: one or two groups a turn
            left = sorted(pool)
            self.rng.shuffle(left)
            plays: list[Play] = []
            while left:
                take = 2 if len(left) >= 2 and self.rng.random() < PAIRS else 1
                plays.append(frozenset(left[:take]))
                left = left[take:]
            best: tuple[Play, ...] = tuple(plays)
        else:
            best = ()
            for play in self.candidates(pool, seat in opened):
                if self._budget <= 0:
                    break
                self._budget -= 1
                rest = self._plan(pool - play, (seat_index + 1) % self.players, opened | {seat})
                if len(play) + _laid(rest) > _laid(best):
                    best = (play, *rest)
                if _laid(best) == len(pool):
                    break
        if self._budget > 0:
            self._memo[key] = best
        return best


def _laid(plays: Sequence[Play]) -> int:
    return sum(len(p) for p in plays)


def photo_script(photo: Photo, seed: int, players: int = 2, rules: Rules = STANDARD) -> GameScript:
    """The game a photo makes (`GameScript`, world units the photo's pixels, `states[0]` the empty table),
    deterministic per seed: seats in turn from 1 lay the photo's valid groups (`_Planner`), illegal plays
    put back at the seat's next hand, hands that change nothing. `ended`: "photo" (every valid group laid)
    or "no play" (the seat to play could not open with what was left)."""
    rng = np.random.default_rng([seed, 1])
    valid = [g for g, group in enumerate(photo.groups) if check_set(photo.faces(group), rules).valid]
    no_sets = [g for g in range(len(photo.groups)) if g not in valid]
    rng.shuffle(no_sets)
    planner = _Planner(photo, valid, players, rules, rng)
    tiles = {i: t.tile for i, t in enumerate(photo.tiles)}
    states = [TableState()]
    events: list[ScriptEvent] = []
    laid: list[list[int]] = []  # the sets on the table (tile ids)
    pool: Play = frozenset(valid)
    opened: frozenset[int] = frozenset()
    turn = 0
    ended = "photo"
    w, h = photo.size

    def state_of(sets: Sequence[Sequence[int]]) -> int:
        states.append(_table_state(photo, sets))
        return len(states) - 1

    def add_turn(state: int, seat: int, kind: str, action: str, legal: bool) -> None:
        before = states[events[-1].state if events else 0]
        events.append(ScriptEvent(
            kind="turn", state=state, focus=_focus(before, states[state]), from_seat=seat, seat=seat,
            turn_kind=kind, action=action, legal=legal, opened_before=seat in opened,
        ))

    while pool:
        seat = turn % players + 1
        if rng.random() < NO_CHANGE:
            events.append(ScriptEvent(kind="no-change", state=len(states) - 1,
                                      focus=(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
                                      from_seat=int(rng.integers(1, players + 1))))
        plan = planner.plan(pool, turn, opened)
        if not plan:
            ended = "no play"
            break
        illegal = _illegal(photo, planner, pool, seat in opened, no_sets, rng)
        if illegal is not None and _laid(planner.plan(pool, turn + 1, opened)) >= _laid(plan):
            sets, kind, retired = illegal
            start = len(states) - 1
            add_turn(state_of([*laid, *sets]), seat, kind, "play", False)
            states.append(states[start])  # put back as it was: the very state (its image drawn once)
            add_turn(len(states) - 1, seat, "put-back", "put back", True)
            if retired is not None:
                no_sets.remove(retired)
            turn += 1
            continue
        play = plan[0]
        laid = laid + [list(photo.groups[g]) for g in sorted(play)]
        add_turn(state_of(laid), seat, "legal", "play", True)
        opened = opened | {seat}
        pool = pool - play
        turn += 1
    return GameScript(seed=seed, players=players, rules=rules, geometry=TableGeometry(), tiles=tiles,
                      states=states, events=events, racks={}, ended=ended)


def _illegal(photo: Photo, planner: _Planner, pool: Play, opened: bool, no_sets: Sequence[int],
             rng: np.random.Generator) -> tuple[list[list[int]], str, int | None] | None:
    """Maybe an illegal play: (sets laid, kind, the photo's no-set group it uses up or None), or None."""
    roll = rng.random()
    if roll < OPENING_UNDER:
        if opened:
            return None
        cheap = [p for p in planner.candidates(pool, True) if not planner.legal(p, False)]
        if not cheap:
            return None
        play = cheap[int(rng.integers(0, len(cheap)))]
        return [list(photo.groups[g]) for g in sorted(play)], "opening-under-threshold", None
    if roll >= OPENING_UNDER + INVALID_SET:
        return None
    if no_sets:
        bad = no_sets[0]
        sets = [list(photo.groups[bad])]
        if pool and rng.random() < 0.5:
            sets.append(list(photo.groups[sorted(pool)[int(rng.integers(0, len(pool)))]]))
        return sets, "invalid-set", bad
    options = []
    for g in sorted(pool):
        group = photo.groups[g]
        for pos in range(len(group)):
            # A tile kept back from inside a row leaves its place empty: the row is two sets on the table
            # (r1-r8, a gap, r10-r13 is two valid runs, a legal play, not one invalid set).
            parts = [part for part in (group[:pos], group[pos + 1:]) if part]
            # ...and a row whose rest is a set read whole is no invalid play either: o13 (gap) k13 b13, r13
            # kept back, is a group of three with a tile's room in it, and the referee (as a player would)
            # reads the two parts as one set where that makes the play legal (`vision.watch.joinable_sets`;
            # photo game zoom 3201-p3 game 1: the truth called that legal play "invalid", and the seat that
            # "put it back" then took tiles).
            rest = group[:pos] + group[pos + 1:]
            if check_set(photo.faces(rest), planner.rules).valid:
                continue
            if any(not check_set(photo.faces(part), planner.rules).valid for part in parts):
                options.append(parts)
    if not options:
        return None
    return options[int(rng.integers(0, len(options)))], "invalid-set", None


def _table_state(photo: Photo, sets: Sequence[Sequence[int]]) -> TableState:
    """The table with `sets` (tile ids) as a `TableState`: each set's slot is its group's row and its left
    edge in pixels (so `reading_order` is top to bottom, left to right), each tile's place its centre."""
    group_of = {i: g for g, group in enumerate(photo.groups) for i in group}
    state = TableState()
    for s in sets:
        xs = np.concatenate([photo.tiles[i].polygon[:, 0] for i in s])
        state.sets.append(list(s))
        state.slots.append(Slot(photo.rows[group_of[s[0]]], float(xs.min()), float(xs.max())))
        for i in s:
            x, y = photo.tiles[i].centre
            state.places[i] = (float(x), float(y), 0.0)
    return state


def _focus(before: TableState, after: TableState) -> tuple[float, float]:
    """Where the hand works: the middle of the tiles that appear or go."""
    moved = [after.places[i] for i in after.places if i not in before.places]
    moved += [before.places[i] for i in before.places if i not in after.places]
    if not moved:
        moved = list(after.places.values()) or [(0.0, 0.0, 0.0)]
    return float(np.mean([p[0] for p in moved])), float(np.mean([p[1] for p in moved]))


# ------------------------------------------------------------------------------------------------ video


def photo_look(photo: Photo, seed: int, empty: np.ndarray, taken: np.ndarray) -> GameLook:
    """The `GameLook` `compose_frames` needs: the photo as the table, no light falloff or cast of our own
    (tone ones), a camera whose table plane is the picture (world units are pixels: the identity homography),
    the cloth the mean colour of the photo's pixels under no tile, a lamp direction for the hands' shadows."""
    rng = np.random.default_rng([seed, 2])
    camera = Camera(rotation=np.eye(3), center=np.array([0.0, 0.0, -1.0]), focal=1.0, cx=0.0, cy=0.0)
    table = photo.image.astype(np.float32) / 255.0
    bare = taken == 0
    cloth = (table[bare].mean(axis=0) if bare.any() else empty.reshape(-1, 3).mean(axis=0)).astype(np.float32)
    edition = Edition.sample(rng)  # carried only: the tiles are the photo's
    return GameLook(camera=camera, edition=edition, light=_light_direction(rng),
                    surface=f"photo:{photo.name}", table=table, tone=np.ones_like(table),
                    tile_px=photo.tile_px, seed=seed, tone_mean=np.ones(3, np.float32), cloth=cloth)


def render_photo_game(photo: Photo, out_path: Path, seed: int, players: int = 2, fps: int = 10,
                      hands: str = "real", zoom_out: float = 1.0
                      ) -> tuple[GameTruth, dict[str, Any], FillReport]:
    """Write one photo's game as an mp4 (`mp4v`) and its truth beside it (`.json`); returns the truth, the
    JSON written and how state 0 was filled. `zoom_out` > 1: the photo in the middle of a table that many
    times its size (`zoomed_out`), its tiles that much smaller against the frame.

    Raises:
        OSError: the video could not be written, or does not read back with every frame.
    """
    out_path = Path(out_path)
    masks = tile_masks(photo)
    empty, report = empty_table(photo, masks)
    if zoom_out > 1.0:
        photo, empty = zoomed_out(photo, empty, zoom_out)
        masks = tile_masks(photo)
    taken = np.zeros(photo.image.shape[:2], np.uint8)
    for g in masks[1]:
        taken = cv2.max(taken, g)
    script = photo_script(photo, seed, players)
    look = photo_look(photo, seed, empty, taken)
    images = PhotoStates(script, photo, empty, masks)
    frames, truth = compose_frames(script, look, images, fps, hands=hands)
    write_video(frames, out_path, fps, photo.size, truth.frames)
    truth.video = out_path.name
    data = {**truth.to_json(), "photo": photo.name, **({"zoom_out": zoom_out} if zoom_out > 1.0 else {})}
    out_path.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    return truth, data, report


# ------------------------------------------------------------------------------------------------ CLI


def photo_folder(folder: Path) -> tuple[list[Path], Path, list[Tile]]:
    """(images, labels folder, class tiles) of a labelled photo folder.

    Raises:
        PhotoError: no such folder, no images, no labels, or a data.yaml that names no tiles.
    """
    if not folder.is_dir():
        raise PhotoError(f"no folder {str(folder)!r}")
    images_dir, labels = folder / "images", folder / "labels"
    if not images_dir.is_dir():
        raise PhotoError(f"no images/ folder in {str(folder)!r}")
    photos = image_files(images_dir)
    if not photos:
        raise PhotoError(f"no images in {str(images_dir)!r}")
    if not labels.is_dir() or not any(labels.glob("*.txt")):
        raise PhotoError(f"no labels in {str(folder)!r} (expected labels/NAME.txt beside images/NAME.jpg)")
    return photos, labels, class_tiles(folder / "data.yaml")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m datasets.photo_game", description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="folder for game-NNN.mp4 and game-NNN.json")
    p.add_argument("--photos", type=Path, required=True,
                   help="folder with images/, labels/ (YOLO polygons or boxes) and data.yaml")
    p.add_argument("--games", type=positive_int, default=1)
    p.add_argument("--seed", type=int, default=0, help="game i is seeded seed * 1000 + i")
    p.add_argument("--players", type=int, default=2, choices=(2, 3))
    p.add_argument("--fps", type=positive_int, default=10)
    p.add_argument("--long-side", type=positive_int, default=LONG_SIDE,
                   help=f"the photo's long side in the video, pixels ({LONG_SIDE})")
    p.add_argument("--zoom-out", type=_zoom, default=1.0, metavar="F",
                   help="the photo in the middle of a table F times its size, its own empty table mirrored "
                        "around it: tiles F times smaller against the frame (1: the photo as it is)")
    p.add_argument("--quiet", action="store_true")
    return p


def _zoom(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 1.0 <= value <= 3.0:
        raise argparse.ArgumentTypeError(f"must be from 1 to 3, not {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        paths, labels, classes = photo_folder(args.photos)
    except PhotoError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    order = [paths[int(k)] for k in np.random.default_rng([args.seed, 11]).permutation(len(paths))]
    usable: list[Photo] = []
    checked = 0

    def next_photo(game: int) -> Photo | None:
        nonlocal checked
        while len(usable) <= game and checked < len(order):
            path = order[checked]
            checked += 1
            # Zoomed out, the photo is scaled so that the whole frame keeps the long side asked for.
            photo = load_photo(path, labels, classes, max(2, round(args.long_side / args.zoom_out)))
            why = unusable(photo)
            if why is None:
                usable.append(photo)
            else:
                print(f"skipped {path.name}: {why}", file=sys.stderr)
        if not usable:
            return None
        return usable[game % len(usable)] if len(usable) <= game else usable[game]

    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        started = time.perf_counter()
        try:
            photo = next_photo(i)
        except PhotoError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if photo is None:
            print(f"error: no photo in {str(args.photos)!r} makes a game", file=sys.stderr)
            return 2
        video = args.out / f"game-{i:03d}.mp4"
        truth, _, report = render_photo_game(photo, video, args.seed * 1000 + i, args.players, args.fps,
                                             zoom_out=args.zoom_out)
        if not args.quiet:
            illegal = sum(not t["legal"] for t in truth.turns)
            print(f"{video}: {photo.name}, {len(photo.groups)} groups, {len(truth.turns)} turns ({illegal} "
                  f"illegal), ended {truth.ended}, {truth.frames} frames; filled {report.patched_groups} "
                  f"regions and {report.patched_tiles} tiles with patches, {report.inpainted_tiles} tiles "
                  f"inpainted; {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
