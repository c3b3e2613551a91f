"""Scene composer: a layout of tiles (and racks) seen by a camera, drawn with shadows, distractors and
photographic effects, with exact ground truth.

`render_scene(rng)` is the whole pipeline; it is deterministic for a given generator state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from assistant.tiles import CLASS_INDEX, Tile, class_name
from datasets import layouts as lay
from datasets.backgrounds import GLOSSY, pick_surface, table_surface, wall
from datasets.camera import Camera
from datasets.distractors import add_distractors
from datasets.effects import glare_spots, photograph, soft_blur
from datasets.tile_face import Edition, render_back, render_face

SCENE_KINDS: tuple[str, ...] = (
    "game", "scatter", "closeup", "rack",
    "rack_front", "rack_above", "rack_angle", "empty", "packed", "fill", "texture", "inks", "rack_wood",
    "stacked_rows", "tile_box",
)
# The first four kinds (real-dev's kind of scene) make about 35 % of the default mix; the rest are the
# scenes that fooled the reader on new photos (issue 11).
# rack_wood (wooden racks, most of them single-tier) and stacked_rows (short rows under each other, no rack)
# are rendered only when asked for (`--kind rack_wood`): their weight 0 leaves the default mix, and so every
# seed's scenes, as they were. So is tile_box (tiles lying in the game's box, no rack; thirty-fifth session).
_KIND_WEIGHTS = np.array(
    [0.14, 0.06, 0.05, 0.10, 0.10, 0.09, 0.09, 0.08, 0.08, 0.07, 0.09, 0.05, 0.0, 0.0, 0.0]
)

_TEXTURED_SHARE = {
    "game": 0.2, "scatter": 0.2, "closeup": 0.2, "rack": 0.2, "rack_front": 0.3, "rack_above": 0.3,
    "rack_angle": 0.3, "empty": 0.75, "packed": 0.3, "fill": 0.3, "texture": 1.0, "inks": 0.2,
    "rack_wood": 0.3, "stacked_rows": 0.3, "tile_box": 0.3,
}
"""Chance that a kind's table is one of the strongly textured surfaces."""

RACK_KINDS = frozenset({"rack", "rack_front", "rack_above", "rack_angle", "rack_wood"})

MIN_SHOWN_FOR_RACK_LABEL = 0.35
"""A rack gets a detector label when this share of its outline's in-frame area shows the rack or its tiles
(not hands or objects over it; the gaps of empty slots count against it)..."""

MIN_IN_FRAME_FOR_RACK_LABEL = 0.2
"""...and at least this share of its outline is in the frame (a truncated rack is still a rack)."""

MIN_RACK_BOX_PX = 8.0

MIN_VISIBLE_FOR_LABEL = 0.3
"""A tile gets a YOLO label when at least this fraction of its face is in the frame and not covered."""

MIN_FACING_FOR_LABEL = 0.3
"""...and when its face is turned at most about 72 degrees away from the camera (cosine >= 0.3): faces seen
edge-on cannot be read."""

BACKGROUND = -1
RACK_BODY = -100  # owner value of rack r's plastic: RACK_BODY - r
FACE_DOWN = -2000  # owner value of face-down tile k: FACE_DOWN - k
CONTAINER = -50  # owner value of the tiles' box (`tile_box`)


@dataclass
class TileTruth:
    """Ground truth of one tile in a rendered frame (pixels of that frame)."""

    tile: Tile
    corners: np.ndarray  # (4, 2) face corners: top-left, top-right, bottom-right, bottom-left of the tile
    box: tuple[float, float, float, float]  # the whole tile's outline (face and visible sides), clipped
    angle: float  # direction of the tile's up, degrees counter-clockwise, 0 = upright
    on_rack: bool
    set_index: int | None
    rack_index: int | None
    visible_fraction: float
    facing: float  # cosine between the face's normal and the direction to the camera
    labelled: bool
    in_box: bool = False  # lying in the game's box (`tile_box`): neither on the table nor on a rack

    @property
    def class_id(self) -> int:
        return CLASS_INDEX[class_name(self.tile)]

    def to_json(self) -> dict[str, Any]:
        return {
            "class": class_name(self.tile),
            "class_id": self.class_id,
            "token": str(self.tile),
            "box": [round(v, 2) for v in self.box],
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "angle": round(self.angle, 2),
            "on_rack": self.on_rack,
            "set_index": self.set_index,
            "rack_index": self.rack_index,
            "visible_fraction": round(self.visible_fraction, 3),
            "facing": round(self.facing, 3),
            "labelled": self.labelled,
            **({"in_box": True} if self.in_box else {}),  # only where true: other files as they were
        }


@dataclass
class SceneTruth:
    width: int
    height: int
    kind: str
    tiles: list[TileTruth] = field(default_factory=list)
    sets: list[list[int]] = field(default_factory=list)
    racks: list[list[int]] = field(default_factory=list)
    rack_rows: list[list[list[int]]] = field(default_factory=list)
    rack_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    rack_visible: list[float] = field(default_factory=list)
    rack_labelled: list[bool] = field(default_factory=list)
    rack_styles: list[str] = field(default_factory=list)
    objects: list[dict[str, Any]] = field(default_factory=list)
    surface: str = ""
    glare: int = 0
    camera_elevation: float = 0.0
    edition: dict[str, Any] = field(default_factory=dict)
    variants: str = "train"

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "kind": self.kind,
            "tiles": [t.to_json() for t in self.tiles],
            "sets": self.sets,
            "racks": self.racks,
            "rack_rows": self.rack_rows,
            "rack_boxes": [[round(v, 2) for v in b] for b in self.rack_boxes],
            "rack_visible": [round(v, 3) for v in self.rack_visible],
            "rack_labelled": self.rack_labelled,
            "rack_styles": self.rack_styles,
            "objects": self.objects,
            "surface": self.surface,
            "glare": self.glare,
            "camera_elevation": round(self.camera_elevation, 2),
            "edition": self.edition,
            "variants": self.variants,
        }

    def det_lines(self) -> list[str]:
        """Detector labels: `0 cx cy w h` per labelled tile (order of `tiles`), then `1 ...` per labelled
        rack (the whole stand, order of `racks`)."""
        boxes = [(0, t.box) for t in self.tiles if t.labelled]
        boxes += [(1, b) for b, ok in zip(self.rack_boxes, self.rack_labelled, strict=True) if ok]
        return [
            f"{c} {(x1 + x2) / 2 / self.width:.6f} {(y1 + y2) / 2 / self.height:.6f} "
            f"{(x2 - x1) / self.width:.6f} {(y2 - y1) / self.height:.6f}"
            for c, (x1, y1, x2, y2) in boxes
        ]

    def yolo_lines(self) -> list[str]:
        """`class cx cy w h` (normalised) for each labelled tile, in the order of `tiles`."""
        lines = []
        for t in self.tiles:
            if not t.labelled:
                continue
            x1, y1, x2, y2 = t.box
            lines.append(
                f"{t.class_id} {(x1 + x2) / 2 / self.width:.6f} {(y1 + y2) / 2 / self.height:.6f} "
                f"{(x2 - x1) / self.width:.6f} {(y2 - y1) / self.height:.6f}"
            )
        return lines


def _frame_size(rng: np.random.Generator, long_side: int) -> tuple[int, int]:
    ratio = float(rng.choice([4 / 3, 16 / 9, 1.0], p=[0.72, 0.2, 0.08]))
    short = int(round(long_side / ratio))
    if rng.random() < 0.25:
        return short, long_side  # portrait: width, height
    return long_side, short


def _outline(corners: np.ndarray, radius: float, steps: int = 4) -> np.ndarray:
    """Points along the rounded outline of a rectangular face given by its 4 corners in 3D."""
    tl, tr, _br, bl = corners
    right = tr - tl
    down = bl - tl
    ru = radius
    rv = radius * np.linalg.norm(right) / max(1e-9, np.linalg.norm(down))
    pts = []
    for (cu, cv), start in (((ru, rv), 180), ((1 - ru, rv), 270), ((1 - ru, 1 - rv), 0), ((ru, 1 - rv), 90)):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            pts.append(tl + right * (cu + ru * math.cos(a)) + down * (cv + rv * math.sin(a)))
    return np.array(pts)


def _hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(np.asarray(points, np.float32)).reshape(-1, 2)


def _fill(canvas: np.ndarray, poly: np.ndarray, value: Any, antialias: bool = True) -> None:
    pts = [np.round(np.asarray(poly) * 4).astype(np.int32)]
    cv2.fillPoly(canvas, pts, value, cv2.LINE_AA if antialias else cv2.LINE_8, shift=2)


class _Painter:
    """Draws tiles and rack parts into one frame, keeping an owner map of who is visible where."""

    def __init__(
        self, img: np.ndarray, camera: Camera, edition: Edition, light: np.ndarray, rng: np.random.Generator
    ) -> None:
        self.img = img
        self.owner = np.full(img.shape[:2], BACKGROUND, np.int32)
        self.camera = camera
        self.edition = edition
        self.light = light
        self.rng = rng
        self.h, self.w = img.shape[:2]
        self.silhouettes: dict[int, np.ndarray] = {}  # tile index -> outline polygon in pixels

    def lambert(self, normal: np.ndarray) -> float:
        return 0.78 + 0.25 * max(0.0, float(normal @ self.light))

    def box(self, box: lay.Box, owner_value: int) -> None:
        c = box.corners  # index bits: x (1), y (2), z (4)
        faces = [(0, 1, 3, 2), (4, 5, 7, 6), (0, 1, 5, 4), (2, 3, 7, 6), (0, 2, 6, 4), (1, 3, 7, 5)]
        center = c.mean(axis=0)
        drawn = []
        for f in faces:
            quad = c[list(f)]
            fc = quad.mean(axis=0)
            n = np.cross(quad[1] - quad[0], quad[3] - quad[0])
            if np.linalg.norm(n) < 1e-9:
                continue
            n /= np.linalg.norm(n)
            if n @ (fc - center) < 0:
                n = -n
            if n @ (self.camera.center - fc) <= 0:
                continue
            drawn.append((float(self.camera.depth(fc[None])[0]), quad, n))
        for _, quad, n in sorted(drawn, key=lambda d: -d[0]):
            poly = self.camera.project(quad)
            color = np.clip(box.color * self.lambert(n), 0, 1)
            _fill(self.img, poly, color.tolist())
            _fill(self.owner, poly, owner_value, antialias=False)

    def tile(self, index: int, placed: lay.PlacedTile, back: bool = False) -> None:
        """Draw a tile; `back`: a face-down tile showing its plain back (`index` is then its owner value)."""
        cam = self.camera
        ed = self.edition
        thickness = lay.TILE_THICKNESS
        radius = ed.corner_radius
        face_outline = _outline(placed.corners, radius)
        back_outline = face_outline - placed.normal * thickness
        hull = _hull(cam.project(np.concatenate([face_outline, back_outline])))
        self.silhouettes[index] = hull
        side = np.clip(
            ed.side_bgr * self.lambert(np.array([0.3, -0.3, 0.4])) * self.rng.uniform(0.9, 1.05), 0, 1
        )
        _fill(self.img, hull, side.tolist())
        cv2.polylines(
            self.img,
            [np.round(hull * 4).astype(np.int32)],
            True,
            (side * 0.6).tolist(),
            1,
            cv2.LINE_AA,
            shift=2,
        )
        _fill(self.owner, hull, index, antialias=False)

        face_center = placed.corners.mean(axis=0)
        if placed.normal @ (cam.center - face_center) <= 0:
            return
        quad = cam.project(placed.corners)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(self.w, x1), min(self.h, y1)
        if x1 <= x0 or y1 <= y0:
            return
        edge = max(
            np.linalg.norm(quad[0] - quad[3]),
            np.linalg.norm(quad[1] - quad[2]),
            (np.linalg.norm(quad[0] - quad[1]) + np.linalg.norm(quad[3] - quad[2])) / 2 / ed.aspect,
        )
        tex_h = int(np.clip(math.ceil(edge * 1.25 / 8) * 8, 24, 640))
        if back:
            face, alpha = render_back(ed, tex_h, self.rng)
        else:
            face, alpha = render_face(placed.tile, ed, tex_h, self.rng)
        th, tw = alpha.shape
        src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
        m = cv2.getPerspectiveTransform(src, (quad - np.array([x0, y0])).astype(np.float32))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[
            ..., None
        ]
        warped *= self.lambert(placed.normal)
        roi = self.img[y0:y1, x0:x1]
        roi *= 1.0 - a
        roi += warped * a

    def shadows(self, layout: lay.Layout, tile_px: float) -> None:
        """Cast shadows of tiles and racks onto the table along the light, then darken the frame."""
        mask = np.zeros((self.h, self.w), np.uint8)
        contact = np.zeros((self.h, self.w), np.uint8)
        light = self.light
        solids = []
        for t in layout.tiles + layout.face_down:
            solids.append(np.concatenate([t.corners, t.corners - t.normal * lay.TILE_THICKNESS]))
        for rack in layout.racks:
            solids.extend(b.corners for b in rack.boxes_behind + rack.boxes_front)
        solids.extend(b.corners for b in layout.containers)
        for pts in solids:
            ground = pts - light[None, :] * (pts[:, 2:3] / max(0.2, light[2]))
            ground[:, 2] = 0.0
            base = pts.copy()
            base[:, 2] = 0.0
            _fill(mask, _hull(self.camera.project(np.concatenate([ground, base]))), 255)
            _fill(contact, _hull(self.camera.project(base)), 255)
        soft = soft_blur(mask.astype(np.float32) / 255.0, max(1.0, tile_px * 0.06))
        tight = soft_blur(contact.astype(np.float32) / 255.0, max(1.0, tile_px * 0.05))
        strength = self.rng.uniform(0.25, 0.5)
        self.img *= (1.0 - strength * soft - 0.25 * tight).clip(0.2, 1.0)[..., None]


def _pick_kind(rng: np.random.Generator, kind: str | None) -> str:
    if kind is not None:
        if kind not in SCENE_KINDS:
            raise ValueError(f"unknown scene kind {kind!r} (use one of {', '.join(SCENE_KINDS)})")
        return kind
    return SCENE_KINDS[int(rng.choice(len(SCENE_KINDS), p=_KIND_WEIGHTS / _KIND_WEIGHTS.sum()))]


def _layout_points(layout: lay.Layout) -> np.ndarray:
    pts = [t.corners for t in layout.tiles + layout.face_down] + [b.corners for b in layout.containers]
    for rack in layout.racks:
        pts.extend(b.corners for b in rack.boxes_behind)
    if layout.focus is not None:
        pts.append(layout.focus)
    return np.concatenate(pts)


def _camera_pose(
    rng: np.random.Generator, layout: lay.Layout, kind: str, vfov_half: float
) -> tuple[float, float, float]:
    """(azimuth, elevation, height of the point looked at) for a kind of scene."""
    if kind in RACK_KINDS:
        front = layout.racks[0].yaw_deg - 90  # the owner's side of the first rack
        if kind == "rack":
            return front + rng.normal(0, 18), rng.uniform(max(28.0, vfov_half + 10), 60), 0.0
        if kind == "rack_wood":  # from the front at eye level, or from the owner's side and above
            if rng.random() < 0.5:
                return front + rng.normal(0, 15), rng.uniform(0.0, 20.0), rng.uniform(0.2, 0.5)
            return front + rng.normal(0, 25), rng.uniform(20.0, 65.0), 0.2
        if kind == "rack_front":  # eye level: the camera about as high as the rack, looking across
            return front + rng.normal(0, 15), rng.uniform(0.0, 16.0), rng.uniform(0.4, 0.8)
        if kind == "rack_above":  # from the table's edge, looking down over the rack onto the table
            return front + rng.normal(0, 12), rng.uniform(50.0, 82.0), 0.0
        if rng.random() < 0.2:  # from behind: an opponent's rack
            return front + 180 + rng.normal(0, 35), rng.uniform(12.0, 55.0), 0.3
        side = 1.0 if rng.random() < 0.5 else -1.0
        return front + side * rng.uniform(25.0, 80.0), rng.uniform(12.0, 55.0), 0.3
    azimuth = rng.uniform(0, 360)
    low = max(45.0 if kind == "fill" else 38.0, vfov_half + 10)
    return azimuth, float(np.clip(90 - abs(rng.normal(0, 22)), low, 90)), 0.0


def _target_tile_px(rng: np.random.Generator, kind: str, width: int, height: int) -> float:
    if kind == "fill":  # one to three tiles filling most of the frame
        return rng.uniform(0.45, 0.95) * min(width, height)
    if kind == "packed":
        return float(np.exp(rng.uniform(np.log(35), np.log(140))))
    return float(np.exp(rng.uniform(np.log(40), np.log(260))))


def _place_camera(
    rng: np.random.Generator, layout: lay.Layout, kind: str, width: int, height: int
) -> tuple[Camera, float]:
    """A camera framing the layout as the kind asks; also returns its elevation in degrees."""
    pts = _layout_points(layout)
    target = (pts.min(axis=0) + pts.max(axis=0)) / 2
    radius = float(np.linalg.norm(pts[:, :2].max(axis=0) - pts[:, :2].min(axis=0))) / 2 + 0.5
    hfov = math.radians(rng.uniform(50, 72))
    focal = max(width, height) / 2 / math.tan(hfov / 2)
    vfov_half = math.degrees(math.atan(min(width, height) / 2 / focal))
    azimuth, elevation, target[2] = _camera_pose(rng, layout, kind, vfov_half)
    roll = rng.normal(0, 4) + (float(rng.choice([-90.0, 90.0])) if rng.random() < 0.08 else 0.0)
    distance = radius / math.tan(hfov / 2) * rng.uniform(1.0, 1.4)
    camera = Camera.looking_at(target, distance, azimuth, elevation, roll, focal, 0.0, 0.0)

    proj = camera.project(pts)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    fill = rng.uniform(0.7, 1.0)
    scale = min(width * fill / max(1e-6, hi[0] - lo[0]), height * fill / max(1e-6, hi[1] - lo[1]))
    center = (lo + hi) / 2
    # Phones are often held close: zoom in towards a target tile size (real-dev: median 88 px), cutting
    # off part of the layout, centred somewhere on it.
    candidates = layout.tiles
    middle = target[:2]
    if kind in RACK_KINDS and kind != "rack":  # the rack is the subject: zoom in on it, not on the table
        candidates = [t for t in layout.tiles if t.on_rack and t.rack_index == 0]
        middle = np.concatenate([b.corners for b in layout.racks[0].boxes_behind]).mean(axis=0)[:2]
    seen = [t for t in candidates if _facing(t, camera) >= MIN_FACING_FOR_LABEL] or candidates
    seen = seen or layout.face_down
    if seen:
        references = [camera.project(t.corners) for t in seen]
    else:  # nothing but the table (and empty racks): a tile lying there sets the scale
        references = [camera.project(lay.table_tile(lay.JOKER, middle, 0.0, 0.74).corners)]
    tile_heights = [np.linalg.norm(q[0] - q[3]) for q in references]
    target_px = _target_tile_px(rng, kind, width, height)
    wanted = target_px / max(1e-6, float(np.median(tile_heights)))
    always = kind == "fill"
    zoom_chance = 0.9 if kind in RACK_KINDS and kind != "rack" else 0.75  # the rack is the subject
    if wanted > scale and (always or rng.random() < zoom_chance):
        zoom = wanted if always else min(wanted, scale * 2.5)
        # Centre on a tile whose face the camera sees (not the back of a rack).
        anchor = references[int(rng.integers(0, len(references)))].mean(axis=0)
        mix = min(1.0, (zoom / scale - 1.0))
        center = center * (1 - mix) + anchor * mix
        scale = zoom
    center = center * scale
    dx = width / 2 + rng.normal(0, 0.05) * width - center[0]
    dy = height / 2 + rng.normal(0, 0.05) * height - center[1]
    camera.zoom_and_shift(scale, dx, dy)
    return camera, elevation


def _background(
    rng: np.random.Generator,
    camera: Camera,
    layout: lay.Layout,
    width: int,
    height: int,
    surface: str,
    with_wall: bool,
) -> tuple[np.ndarray, np.ndarray | None]:
    """The table warped into the frame, and where a wall stands behind it (a mask, or None)."""
    pts = _layout_points(layout)[:, :2]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    margin = max(4.0, float((hi - lo).max()))
    lo, hi = lo - margin, hi + margin
    span = hi - lo
    tex_long = 900
    px = float(span.max()) / tex_long
    tw, th = int(span[0] / px) + 1, int(span[1] / px) + 1
    texture = table_surface(rng, th, tw, unit=1.0 / px, name=surface)
    tex_to_plane = np.array([[px, 0, lo[0]], [0, px, lo[1]], [0, 0, 1.0]])
    m = camera.table_homography() @ tex_to_plane
    if with_wall:
        # A low camera sees the table shrink fast towards the wall: warped at twice the size and reduced,
        # a fine weave turns to an even blur there, as through a lens, instead of to moire.
        twice = np.array([[2.0, 0, 0.5], [0, 2.0, 0.5], [0, 0, 1.0]]) @ m  # pixel centres stay put
        big = cv2.warpPerspective(
            texture, twice, (2 * width, 2 * height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
        )
        img = cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
    else:
        img = cv2.warpPerspective(
            texture, m, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
        )
    wall_mask = _add_wall(rng, camera, layout, img) if with_wall else None
    return img, wall_mask


def _add_wall(rng: np.random.Generator, camera: Camera, layout: lay.Layout, img: np.ndarray) -> np.ndarray:
    """A low camera sees past the table: a wall (or splashback) standing beyond the layout's far edge.

    Only for cameras looking within about 35 degrees of horizontal, so every ray in the frame runs towards
    the wall and the plane's homography holds for the whole image."""
    height, width = img.shape[:2]
    pts = _layout_points(layout)
    target = (pts.min(axis=0) + pts.max(axis=0)) / 2
    far = target - camera.center
    far[2] = 0.0
    far /= max(1e-9, float(np.linalg.norm(far)))
    reach = float(((pts - target) @ far).max())
    base = target + far * (reach + rng.uniform(0.5, 6.0))
    base[2] = 0.0
    side = np.array([-far[1], far[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    k = np.array([[camera.focal, 0, camera.cx], [0, camera.focal, camera.cy], [0, 0, 1.0]])
    r = camera.rotation
    plane = k @ np.column_stack([r @ side, r @ up, r @ (base - camera.center)])
    half_u, top_v = 80.0, 80.0
    tex_long = 700
    px = 2 * half_u / tex_long
    tex_w, tex_h = tex_long, int(top_v / px)
    texture = wall(rng, tex_h, tex_w, 1.0 / px)
    tex_to_plane = np.array([[px, 0, -half_u], [0, -px, top_v], [0, 0, 1.0]])
    m = plane @ tex_to_plane
    warped = cv2.warpPerspective(texture, m, (width, height), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.warpPerspective(np.ones((tex_h, tex_w), np.float32), m, (width, height),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)[..., None]
    img *= 1.0 - mask
    img += warped * mask
    return mask[..., 0]


def _angle_of(quad: np.ndarray) -> float:
    up = (quad[0] + quad[1]) / 2 - (quad[3] + quad[2]) / 2
    return float(math.degrees(math.atan2(-up[0], -up[1])) % 360.0)


_BUILDERS = {
    "game": lay.game_layout,
    "scatter": lay.scatter_layout,
    "closeup": lay.closeup_layout,
    "rack": lay.rack_layout,
    "rack_front": lambda rng, deck, aspect: lay.rack_view_layout(rng, deck, aspect, "front"),
    "rack_above": lambda rng, deck, aspect: lay.rack_view_layout(rng, deck, aspect, "above"),
    "rack_angle": lambda rng, deck, aspect: lay.rack_view_layout(rng, deck, aspect, "angle"),
    "empty": lay.empty_layout,
    "packed": lay.packed_layout,
    "fill": lay.fill_layout,
    "texture": lay.texture_game_layout,
    "inks": lay.game_layout,
    "rack_wood": lay.wooden_rack_layout,
    "stacked_rows": lay.stacked_rows_layout,
    "tile_box": lay.tile_box_layout,
}


def _pick_surface(rng: np.random.Generator, kind: str, variants: str) -> str:
    if kind == "rack_front" and variants == "train" and rng.random() < 0.5:  # a rack on a kitchen counter
        return "stone" if rng.random() < 0.7 else "marble"
    return pick_surface(rng, _TEXTURED_SHARE[kind], variants)


def _distractor_count(rng: np.random.Generator, kind: str) -> int:
    if kind == "texture":
        return 2 + int(rng.poisson(2.0))
    if kind == "empty":
        return 1 + int(rng.poisson(2.5))
    if kind == "fill":
        return int(rng.poisson(0.3))
    return int(rng.poisson(0.9)) if rng.random() < 0.6 else 0


def render_scene(
    rng: np.random.Generator, long_side: int = 1024, kind: str | None = None, variants: str = "train",
    harsh_light: float = 0.0,
) -> tuple[np.ndarray, SceneTruth]:
    """Render one scene: (BGR uint8 image, ground truth). `variants="holdout"` draws editions and cloths
    from the reserved set (`tile_face.HOLDOUT_INKS`, `HOLDOUT_FONT`, `backgrounds.HOLDOUT_SURFACES`) that
    "train" never uses. `harsh_light`: the chance of each kind of `effects.harsh_light` (dim, veiled, cast).

    Raises:
        ValueError: `kind` is not one of `SCENE_KINDS`, or `variants` not train or holdout.
    """
    kind = _pick_kind(rng, kind)
    width, height = _frame_size(rng, long_side)
    edition = Edition.sample(rng, variants, other=1.0 if kind == "inks" else 0.25)
    deck = lay.Deck(rng)
    layout = _BUILDERS[kind](rng, deck, edition.aspect)
    camera, elevation = _place_camera(rng, layout, kind, width, height)
    surface = _pick_surface(rng, kind, variants)

    img, wall_mask = _background(rng, camera, layout, width, height, surface, with_wall=elevation < 35)
    light = _light_direction(rng)
    painter = _Painter(img, camera, edition, light, rng)

    quads = [camera.project(t.corners) for t in layout.tiles]
    down_quads = [camera.project(t.corners) for t in layout.face_down]
    sizes = [np.linalg.norm(q[0] - q[3]) for q in quads + down_quads]
    tile_px = float(np.median(sizes)) if sizes else _virtual_tile_px(camera, layout)
    painter.shadows(layout, tile_px)

    # Painter's order: far things first; a raised (overlapping) tile after those it lies on.
    items: list[tuple[tuple[int, float], str, int]] = []
    rack_tiles = {i for rack in layout.racks for row in rack.rows for i in row}
    for i, t in enumerate(layout.tiles):
        if i in rack_tiles:
            continue
        raised = int(t.corners[0, 2] > lay.TILE_THICKNESS + 1e-6)
        items.append(((raised, -float(camera.depth(t.corners.mean(axis=0)[None])[0])), "tile", i))
    for k, t in enumerate(layout.face_down):
        items.append(((0, -float(camera.depth(t.corners.mean(axis=0)[None])[0])), "down", k))
    for r, rack in enumerate(layout.racks):
        center = np.concatenate([b.corners for b in rack.boxes_behind]).mean(axis=0)
        items.append(((0, -float(camera.depth(center[None])[0])), "rack", r))
    for b in layout.containers:  # the box the tiles lie in, under them
        painter.box(b, CONTAINER)
    for _, what, i in sorted(items, key=lambda it: it[0]):
        if what == "tile":
            painter.tile(i, layout.tiles[i])
            continue
        if what == "down":
            painter.tile(FACE_DOWN - i, layout.face_down[i], back=True)
            continue
        rack = layout.racks[i]
        for b in rack.boxes_behind:
            painter.box(b, RACK_BODY - i)
        members = [j for row in rack.rows for j in row]
        for j in sorted(
            members, key=lambda j: -float(camera.depth(layout.tiles[j].corners.mean(axis=0)[None])[0])
        ):
            painter.tile(j, layout.tiles[j])
        for b in rack.boxes_front:
            painter.box(b, RACK_BODY - i)

    glare = 0
    glare_chance = 0.5 if kind in ("texture", "empty") else 0.25
    on_table = painter.owner == BACKGROUND
    if wall_mask is not None:
        on_table &= wall_mask < 0.5
    if surface in GLOSSY and rng.random() < glare_chance:
        glare = glare_spots(img, rng, tile_px, on_table.astype(np.float32))
    found = add_distractors(
        img, painter.owner, rng, tile_px, _distractor_count(rng, kind), camera.table_homography(), on_table
    )
    img = photograph(img, rng, harsh_light)

    truth = SceneTruth(
        width=width, height=height, kind=kind, sets=[list(s) for s in layout.sets], surface=surface,
        glare=glare, camera_elevation=elevation, edition=edition.to_json(), variants=variants,
    )
    for i, (t, q) in enumerate(zip(layout.tiles, quads, strict=True)):
        truth.tiles.append(_tile_truth(i, t, q, painter, camera, width, height))
    for r, rack in enumerate(layout.racks):
        truth.racks.append([i for row in rack.rows for i in row])
        truth.rack_rows.append([list(row) for row in rack.rows])
        box, shown, in_frame = _rack_truth(r, rack, layout, painter, camera, width, height)
        truth.rack_boxes.append(box)
        truth.rack_visible.append(shown * in_frame)
        truth.rack_labelled.append(
            bool(shown >= MIN_SHOWN_FOR_RACK_LABEL and in_frame >= MIN_IN_FRAME_FOR_RACK_LABEL
                 and box[2] - box[0] >= MIN_RACK_BOX_PX and box[3] - box[1] >= MIN_RACK_BOX_PX)
        )
        truth.rack_styles.append(rack.style)
    for k in range(len(layout.face_down)):
        obj = _face_down_truth(k, painter, width, height)
        if obj is not None:
            truth.objects.append(obj)
    truth.objects += [{"kind": name, "box": [round(v, 2) for v in box]} for name, box in found]
    if layout.containers:
        corners = camera.project(np.concatenate([b.corners for b in layout.containers]))
        low, high = (np.clip(c, 0, [width, height]) for c in (corners.min(axis=0), corners.max(axis=0)))
        truth.objects.append({"kind": "tile_box", "box": [round(float(v), 2) for v in (*low, *high)]})
    return (img * 255.0 + 0.5).astype(np.uint8), truth


def _light_direction(rng: np.random.Generator) -> np.ndarray:
    """A unit vector towards the lamp: 10-50 degrees from straight above, from any side."""
    theta, phi = math.radians(rng.uniform(10, 50)), rng.uniform(0, 2 * math.pi)
    return np.array([math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta)])


def _virtual_tile_px(camera: Camera, layout: lay.Layout) -> float:
    pts = _layout_points(layout)
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
    q = camera.project(lay.table_tile(lay.JOKER, centre[:2], 0.0, 0.74).corners)
    return float(np.clip(np.linalg.norm(q[0] - q[3]), 8.0, 400.0))


def _owned_share(owner: np.ndarray, hull: np.ndarray, values: list[int]) -> tuple[float, float]:
    """(share of the hull's in-frame area whose pixels belong to `values`, share of the hull's area that is
    in the frame)."""
    h, w = owner.shape
    area = float(cv2.contourArea(hull.astype(np.float32)))
    lo = np.clip(np.floor(hull.min(axis=0)), 0, [w, h]).astype(int)
    hi = np.clip(np.ceil(hull.max(axis=0)) + 1, 0, [w, h]).astype(int)
    if area < 1 or hi[0] <= lo[0] or hi[1] <= lo[1]:
        return 0.0, 0.0
    mask = np.zeros((hi[1] - lo[1], hi[0] - lo[0]), np.uint8)
    _fill(mask, hull - lo, 1, antialias=False)
    inside = mask > 0
    in_frame = int(inside.sum())
    if in_frame == 0:
        return 0.0, 0.0
    own = np.isin(owner[lo[1] : hi[1], lo[0] : hi[0]], values) & inside
    return min(1.0, float(own.sum()) / in_frame), min(1.0, in_frame / area)


def _rack_truth(
    r: int, rack: lay.Rack, layout: lay.Layout, painter: _Painter, camera: Camera, width: int, height: int
) -> tuple[tuple[float, float, float, float], float, float]:
    """The whole stand's box (both tiers, the tiles on it included; clipped to the frame), the share of its
    in-frame outline that shows the rack or its tiles (not hidden), and the share of it in the frame."""
    corners = np.concatenate([b.corners for b in rack.boxes_behind + rack.boxes_front])
    members = [j for row in rack.rows for j in row]
    for j in members:
        t = layout.tiles[j]
        corners = np.concatenate([corners, t.corners, t.corners - t.normal * lay.TILE_THICKNESS])
    values = [RACK_BODY - r, *members]
    if bool((camera.depth(corners) > 0.05).all()):
        hull = _hull(camera.project(corners))
        shown, in_frame = _owned_share(painter.owner, hull, values)
        frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        area, inside = cv2.intersectConvexConvex(hull.astype(np.float32), frame)
        if inside is None or area <= 0:
            return (0.0, 0.0, 0.0, 0.0), 0.0, 0.0
        inside = inside.reshape(-1, 2)
        lo = np.clip(inside.min(axis=0), 0, [width, height])
        hi = np.clip(inside.max(axis=0), 0, [width, height])
        return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), shown, in_frame
    # Part of the rack is behind the camera: its box is what shows of it, and it is not labelled.
    own = np.isin(painter.owner, values)
    if not own.any():
        return (0.0, 0.0, 0.0, 0.0), 0.0, 0.0
    ys, xs = np.nonzero(own)
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)), 0.0, 0.0


def _face_down_truth(k: int, painter: _Painter, width: int, height: int) -> dict[str, Any] | None:
    hull = painter.silhouettes.get(FACE_DOWN - k)
    if hull is None:
        return None
    shown, in_frame = _owned_share(painter.owner, hull, [FACE_DOWN - k])
    visible = shown * in_frame
    if visible < 0.2:
        return None
    lo = np.clip(hull.min(axis=0), 0, [width, height])
    hi = np.clip(hull.max(axis=0), 0, [width, height])
    if hi[0] - lo[0] < 2 or hi[1] - lo[1] < 2:
        return None
    box = [round(float(v), 2) for v in (lo[0], lo[1], hi[0], hi[1])]
    return {"kind": "face_down_tile", "box": box, "visible_fraction": round(visible, 3)}


def _facing(placed: lay.PlacedTile, camera: Camera) -> float:
    """Cosine between the face's normal and the direction from the face to the camera."""
    to_camera = camera.center - placed.corners.mean(axis=0)
    return float(placed.normal @ to_camera / max(1e-9, float(np.linalg.norm(to_camera))))


def _tile_truth(
    index: int,
    placed: lay.PlacedTile,
    quad: np.ndarray,
    painter: _Painter,
    camera: Camera,
    width: int,
    height: int,
) -> TileTruth:
    facing = _facing(placed, camera)
    d1, d2 = quad[2] - quad[0], quad[3] - quad[1]
    area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
    x1, y1 = np.clip(quad.min(axis=0), 0, [width, height])
    x2, y2 = np.clip(quad.max(axis=0), 0, [width, height])
    visible = 0.0
    if facing > 0 and area > 1 and x2 > x1 and y2 > y1:
        ix0, iy0, ix1, iy1 = int(x1), int(y1), int(math.ceil(x2)), int(math.ceil(y2))
        mask = np.zeros((iy1 - iy0, ix1 - ix0), np.uint8)
        _fill(mask, quad - np.array([ix0, iy0]), 1, antialias=False)
        own = painter.owner[iy0:iy1, ix0:ix1] == index
        visible = float(np.count_nonzero(own & (mask > 0))) / area
    visible = min(1.0, visible)
    # The box bounds the whole tile as seen, its sides included, as real-dev's annotators outlined tiles;
    # visibility above is measured on the face alone.
    outline = painter.silhouettes.get(index, quad)
    x1, y1 = np.clip(outline.min(axis=0), 0, [width, height])
    x2, y2 = np.clip(outline.max(axis=0), 0, [width, height])
    labelled = bool(
        visible >= MIN_VISIBLE_FOR_LABEL and facing >= MIN_FACING_FOR_LABEL and x2 - x1 >= 3 and y2 - y1 >= 3
    )
    return TileTruth(
        tile=placed.tile,
        corners=quad,
        box=(float(x1), float(y1), float(x2), float(y2)),
        angle=_angle_of(quad),
        on_rack=placed.on_rack,
        set_index=placed.set_index,
        rack_index=placed.rack_index,
        visible_fraction=visible,
        facing=facing,
        labelled=labelled,
        in_box=placed.in_box,
    )
