"""Where tiles lie: table sets in rows, loose tiles, racks with two rows; all in world units (tile height 1).

Nothing here draws. A layout is a list of `PlacedTile` (face corners in 3D) plus `Rack` bodies, with the
ground truth of which tiles form which set (in the order the player laid them) and which rack row.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from assistant.tiles import COLORS, JOKER, NUMBERS, Tile

TILE_THICKNESS = 0.22


@dataclass
class PlacedTile:
    """One tile in the world. `corners` are the face's top-left, top-right, bottom-right, bottom-left."""

    tile: Tile
    corners: np.ndarray  # (4, 3)
    normal: np.ndarray  # (3,) out of the face
    on_rack: bool = False
    set_index: int | None = None
    rack_index: int | None = None
    in_box: bool = False  # lying in the game's box (`tile_box_layout`)


@dataclass
class Box:
    """An axis-aligned box in a rack's frame, mapped to the world by the rack's transform."""

    corners: np.ndarray  # (8, 3) world
    color: np.ndarray  # BGR 0-1


@dataclass
class Rack:
    boxes_behind: list[Box]  # drawn before the rack's tiles
    boxes_front: list[Box]  # drawn after them (the front lip)
    rows: list[list[int]]  # tile indices, top (back) row first, left to right
    yaw_deg: float = 0.0  # direction of the rack's length; its player sits on the -y side of that frame
    style: str = "black"  # plastic colour: black, grey, white, ivory


@dataclass
class Layout:
    tiles: list[PlacedTile] = field(default_factory=list)
    sets: list[list[int]] = field(default_factory=list)
    racks: list[Rack] = field(default_factory=list)
    face_down: list[PlacedTile] = field(default_factory=list)  # tiles lying face down: not tiles to read
    containers: list[Box] = field(default_factory=list)  # the tiles' box: its floor and walls, no rack
    focus: np.ndarray | None = None  # (n, 3) points the camera frames when there are no tiles


class Deck:
    """Tiles to draw from: two copies of each face and two jokers, refilled when empty."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.counts: dict[Tile, int] = {}
        self._refill()

    def _refill(self) -> None:
        for c in COLORS:
            for n in NUMBERS:
                self.counts[Tile(c, n)] = 2
        self.counts[JOKER] = 2

    def take(self, tile: Tile) -> bool:
        if self.counts.get(tile, 0) <= 0:
            return False
        self.counts[tile] -= 1
        return True

    def draw(self) -> Tile:
        left = [t for t, k in self.counts.items() if k > 0]
        if not left:
            self._refill()
            left = list(self.counts)
        tile = left[int(self.rng.integers(0, len(left)))]
        self.counts[tile] -= 1
        return tile

    def random_set(self) -> list[Tile]:
        """A run or group as players lay them (mostly valid, sometimes with a joker, rarely invalid)."""
        rng = self.rng
        for _ in range(20):
            roll = rng.random()
            if roll < 0.5:
                length = int(rng.integers(3, 8)) if rng.random() < 0.85 else int(rng.integers(8, 14))
                color = COLORS[int(rng.integers(0, 4))]
                start = int(rng.integers(1, 15 - length))
                tiles = [Tile(color, n) for n in range(start, start + length)]
            elif roll < 0.92:
                number = int(rng.integers(1, 14))
                colors = list(rng.permutation(4))[: int(rng.integers(3, 5))]
                tiles = [Tile(COLORS[c], number) for c in colors]
            else:
                tiles = [
                    Tile(COLORS[int(rng.integers(0, 4))], int(rng.integers(1, 14)))
                    for _ in range(int(rng.integers(2, 6)))
                ]
            if rng.random() < 0.12:
                tiles[int(rng.integers(0, len(tiles)))] = JOKER
            needed: dict[Tile, int] = {}
            for t in tiles:
                needed[t] = needed.get(t, 0) + 1
            if all(self.counts.get(t, 0) >= k for t, k in needed.items()):
                for t in tiles:
                    self.take(t)
                return tiles
        return [self.draw() for _ in range(3)]


def _rot2(deg: float) -> np.ndarray:
    r = np.radians(deg)
    return np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])


def table_tile(tile: Tile, center: np.ndarray, up_deg: float, aspect: float, z: float = 0.0) -> PlacedTile:
    """A tile lying face up, its top pointing `up_deg` (counter-clockwise from +y) on the table."""
    up = _rot2(up_deg) @ np.array([0.0, 1.0])
    right = np.array([up[1], -up[0]])
    hw, hh = aspect / 2, 0.5
    c = np.asarray(center, float)
    pts2 = [
        c + up * hh - right * hw,
        c + up * hh + right * hw,
        c - up * hh + right * hw,
        c - up * hh - right * hw,
    ]
    top = z + TILE_THICKNESS
    corners = np.array([[p[0], p[1], top] for p in pts2])
    return PlacedTile(tile=tile, corners=corners, normal=np.array([0.0, 0.0, 1.0]))


def place_row(
    layout: Layout,
    tiles: list[Tile],
    start: np.ndarray,
    up_deg: float,
    aspect: float,
    rng: np.random.Generator,
    set_index: int | None,
    gap: float,
) -> np.ndarray:
    """Lay `tiles` touching, left to right as seen by the player; returns the point after the last one."""
    up = _rot2(up_deg) @ np.array([0.0, 1.0])
    right = np.array([up[1], -up[0]])
    pos = np.asarray(start, float).copy()
    indices = []
    for k, tile in enumerate(tiles):
        center = pos + right * aspect / 2 + up * rng.normal(0, 0.015)
        z = 0.0
        if k > 0 and rng.random() < 0.04:
            # Pushed in carelessly: the tile rides up onto its left neighbour's edge.
            center = center - right * aspect * rng.uniform(0.1, 0.3)
            z = TILE_THICKNESS
        placed = table_tile(tile, center, up_deg + rng.normal(0, 1.5), aspect, z=z)
        placed.set_index = set_index
        indices.append(len(layout.tiles))
        layout.tiles.append(placed)
        pos = pos + right * (aspect + max(0.0, gap + rng.normal(0, 0.01)))
    if set_index is not None:
        layout.sets.append(indices)
    return pos


RACK_STYLES: tuple[str, ...] = ("black", "grey", "white", "ivory")


def _rack_color(rng: np.random.Generator, style: str) -> np.ndarray:
    """BGR 0-1 of a rack's plastic."""
    if style == "black":
        v = rng.uniform(0.04, 0.14)
    elif style == "grey":
        v = rng.uniform(0.18, 0.4)
    elif style == "white":
        return np.array([rng.uniform(0.82, 0.95)] * 3) * rng.uniform(0.97, 1.03, 3)
    elif style == "wood":  # varnished wood, light to dark brown (BGR)
        v = rng.uniform(0.45, 1.0)
        return np.array([rng.uniform(0.12, 0.25), rng.uniform(0.3, 0.45), rng.uniform(0.5, 0.7)]) * v
    else:  # ivory: warm off-white, like the tiles
        return np.array([rng.uniform(0.7, 0.8), rng.uniform(0.82, 0.9), rng.uniform(0.88, 0.96)])
    return np.array([v] * 3) * np.array([rng.uniform(0.8, 1.2), rng.uniform(0.8, 1.1), rng.uniform(0.8, 1.2)])


def _world_box(bounds: tuple[float, ...], rot: np.ndarray, origin: np.ndarray, color: np.ndarray) -> Box:
    """The box x0..x1, y0..y1, z0..z1 of a local frame (turned by `rot`, placed at `origin`) in the world."""
    x0, x1, y0, y1, z0, z1 = bounds
    pts = np.array([[x, y, z] for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)], float)
    return Box(corners=pts @ rot.T + origin, color=np.clip(color, 0, 1))


def add_rack(
    layout: Layout,
    rows: list[list[Tile | None]],
    origin: np.ndarray,
    yaw_deg: float,
    aspect: float,
    rng: np.random.Generator,
    style: str | None = None,
    tiers: int = 2,
) -> None:
    """A rack on the table: its front edge at `origin`, length along `yaw_deg`, the player in front (-y).

    `rows[0]` is the back (upper) row; `None` leaves a slot empty. `tiers` 1: a single-tier stand (a low
    board with a lip behind its one row, `rows[0]`), as wooden racks often are.
    """
    slots = max(1, max(len(r) for r in rows))
    length = slots * aspect + 0.5
    lean = np.radians(rng.uniform(10, 22))
    if style is None:
        style = str(rng.choice(RACK_STYLES, p=[0.5, 0.15, 0.2, 0.15]))
    color = _rack_color(rng, style)
    rot = np.eye(3)
    rot[:2, :2] = _rot2(yaw_deg)
    o = np.array([origin[0], origin[1], 0.0])

    def world(p: np.ndarray) -> np.ndarray:
        return p @ rot.T + o

    def box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float, shade: float) -> Box:
        return _world_box((x0, x1, y0, y1, z0, z1), rot, o, color * shade)

    step_h = rng.uniform(0.4, 0.55)
    behind = [
        box(0, length, -0.1, 1.6, 0.0, 0.12, 1.0),
        box(0, length, 0.75, 1.6, 0.0, step_h, 1.1),
        box(0, length, 1.45, 1.6, 0.0, step_h + rng.uniform(0.3, 0.6), 0.9),
    ]
    if tiers == 1:
        behind = [box(0, length, -0.1, 1.0, 0.0, 0.12, 1.0), box(0, length, 0.8, 1.0, 0.0, step_h, 0.9)]
    front = [box(0, length, -0.1, 0.02, 0.0, 0.22, 1.15)]
    rack = Rack(boxes_behind=behind, boxes_front=front, rows=[], yaw_deg=yaw_deg, style=style)
    up_local = np.array([0.0, np.sin(lean), np.cos(lean)])
    normal_local = np.array([0.0, -np.cos(lean), np.sin(lean)])
    bases = [(0.85, step_h), (0.06, 0.12)]  # (y, z) of the face's bottom edge: back row, front row
    if tiers == 1:
        bases = [(0.06, 0.12)]
    rack_index = len(layout.racks)
    for row, (y0, z0) in zip(rows, bases, strict=False):
        row_indices = []
        x = 0.25 + (slots - len(row)) * aspect * 0.0
        for tile in row:
            if tile is not None:
                bl = np.array([x, y0, z0])
                br = bl + np.array([aspect, 0, 0])
                tl, tr = bl + up_local, br + up_local
                corners = world(np.array([tl, tr, br, bl]))
                placed = PlacedTile(
                    tile=tile, corners=corners, normal=rot @ normal_local, on_rack=True, rack_index=rack_index
                )
                row_indices.append(len(layout.tiles))
                layout.tiles.append(placed)
            x += aspect + max(0.0, rng.normal(0.01, 0.01))
        rack.rows.append(row_indices)
    layout.racks.append(rack)


def _free(centers: list[np.ndarray], p: np.ndarray, min_dist: float) -> bool:
    return all(np.hypot(*(p - c)) >= min_dist for c in centers)


def _closer_than(a: np.ndarray, b: np.ndarray, clearance: float) -> bool:
    """Whether two tile faces (4x2 corners, rectangles) come within `clearance` of each other (or overlap).

    Separating-axis test on the rectangles' edge normals, the intervals widened by `clearance`.
    """
    for quad in (a, b):
        for edge in (quad[1] - quad[0], quad[3] - quad[0]):
            axis = edge / np.linalg.norm(edge)
            pa, pb = a @ axis, b @ axis
            if pb.min() > pa.max() + clearance or pa.min() > pb.max() + clearance:
                return False
    return True


def _place_set_clear(
    layout: Layout,
    tiles: list[Tile],
    start: np.ndarray,
    up_deg: float,
    aspect: float,
    rng: np.random.Generator,
    gap: float,
    away: np.ndarray,
    clearance: float = 0.1,
) -> None:
    """`place_row` for a table set, pushed along `away` until it keeps `clearance` from every set laid before.

    Real tiles cannot lie on top of another set's tiles, and players leave space between sets; without
    this a slightly turned long set or a set laid from another side could cover its neighbours.
    """
    others = [layout.tiles[i].corners[:, :2] for members in layout.sets for i in members]
    other_centers = np.array([q.mean(axis=0) for q in others]).reshape(-1, 2)
    reach = float(np.hypot(aspect, 1.0)) + clearance  # centres a diagonal (+ clearance) apart cannot touch
    first = len(layout.tiles)
    for attempt in itertools.count():  # ends: each try lies 0.1 further away from the sets laid
        place_row(layout, tiles, start + away * 0.1 * attempt, up_deg, aspect, rng, len(layout.sets), gap)
        touching = False
        for placed in layout.tiles[first:]:
            quad = placed.corners[:, :2]
            near = np.flatnonzero(np.hypot(*(other_centers - quad.mean(axis=0)).T) < reach)
            if any(_closer_than(quad, others[j], clearance) for j in near):
                touching = True
                break
        if not touching:
            return
        del layout.tiles[first:]
        layout.sets.pop()


def game_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """A table mid-game: sets in rows with gaps between them, a few loose tiles, sometimes a rack.

    Positions are planned in the table's frame (rows along +x, later rows towards -y) and turned by the
    table's `base_up`, so rows stay straight lines as players lay them and the sets of one row never
    step into the next.
    """
    layout = Layout()
    n_sets = int(rng.integers(2, 10))
    max_row = rng.uniform(9, 20) * aspect
    # Real-dev photos (the layout engineer's comparison): players leave at least about a third of a tile
    # between sets in a row (issue 3: "sets in rows with gaps between them, as players lay them"), well
    # above the <= 0.08-width slack inside a set, so a person can always see where a set ends.
    min_set_gap = aspect / 3
    set_gap = rng.uniform(0.35, 1.0) * aspect
    row_step = rng.uniform(1.12, 1.6)
    tight = rng.random() < 0.5
    x, y = 0.0, 0.0
    base_up = rng.normal(0, 4)
    table = _rot2(base_up)
    down, across = table @ np.array([0.0, -1.0]), table @ np.array([1.0, 0.0])
    turned: list[tuple[list[Tile], float]] = []
    for _ in range(n_sets):
        tiles = deck.random_set()
        if rng.random() < 0.12:  # laid by a player on another side of the table: placed after the rows
            turned.append((tiles, float(rng.choice([90.0, 180.0, 270.0]))))
            continue
        width = len(tiles) * aspect
        if x > 0 and x + width > max_row:
            x, y = 0.0, y - row_step
        start = table @ np.array([x, y + rng.normal(0, 0.05)])
        gap = 0.0 if tight else rng.uniform(0.0, 0.06)
        _place_set_clear(layout, tiles, start, base_up + rng.normal(0, 2.5), aspect, rng, gap, down)
        x += width + max(min_set_gap, set_gap * rng.uniform(0.6, 1.4))
    bottom = y - row_step
    right_edge = max(max_row, x) + 0.3
    for tiles, turn in turned:
        # Each turned set starts at its own far end (place_row lays tiles along the reader's right), so it
        # lies below the rows (180) or in a column right of them (90, 270), never across other sets.
        width = len(tiles) * aspect
        if turn == 180.0:  # upside down, read from the far side: starts at the right end
            start, away = np.array([width, bottom]), down
            bottom -= row_step
        elif turn == 90.0:  # reads upwards, in a column to the right of the rows
            start, away = np.array([right_edge + 0.5, 0.5 - width]), across
            right_edge += row_step
        else:  # reads downwards
            start, away = np.array([right_edge + 0.5, 0.5]), across
            right_edge += row_step
        gap = 0.0 if tight else rng.uniform(0.0, 0.06)
        up_deg = base_up + turn + rng.normal(0, 3)
        _place_set_clear(layout, tiles, table @ start, up_deg, aspect, rng, gap, away)
    # A loose tile lies clear of the sets (a third of a tile, as between sets): one dropped touching a set's
    # end, square to it, is that set's tile to anyone looking, so the scene's truth would be a guess.
    _add_loose(layout, rng, deck, aspect, int(rng.integers(0, 8)), clearance=aspect / 3)
    if rng.random() < 0.25:
        pts = np.concatenate([t.corners[:, :2] for t in layout.tiles])
        lo = pts.min(axis=0)
        rows = [[deck.draw() for _ in range(int(rng.integers(3, 14)))] for _ in range(2)]
        add_rack(layout, rows, np.array([lo[0], lo[1] - 2.5]), rng.normal(0, 5), aspect, rng)
    return layout


def _add_loose(
    layout: Layout,
    rng: np.random.Generator,
    deck: Deck,
    aspect: float,
    count: int,
    area: tuple[np.ndarray, np.ndarray] | None = None,
    clearance: float | None = None,
) -> None:
    """`count` tiles dropped at random angles: centres a tile apart or, given `clearance`, faces that far
    from every tile already there (tried 30 times; the last try stays when none is free)."""
    if layout.tiles:
        pts = np.concatenate([t.corners[:, :2] for t in layout.tiles])
        lo, hi = pts.min(axis=0) - 1.5, pts.max(axis=0) + 1.5
    else:
        lo, hi = np.array([-3.0, -3.0]), np.array([3.0, 3.0])
    if area is not None:
        lo, hi = area
    centers = [t.corners[:, :2].mean(axis=0) for t in layout.tiles]
    quads = [t.corners[:, :2] for t in layout.tiles]
    reach = float(np.hypot(aspect, 1.0)) + (clearance or 0.0)
    for _ in range(count):
        if clearance is None:
            for _attempt in range(30):
                p = rng.uniform(lo, hi)
                if _free(centers, p, 1.05):
                    break
            placed = table_tile(deck.draw(), p, rng.uniform(0, 360), aspect)
        else:
            tile = deck.draw()
            for _attempt in range(30):
                placed = table_tile(tile, rng.uniform(lo, hi), rng.uniform(0, 360), aspect)
                p = placed.corners[:, :2].mean(axis=0)
                if not any(_closer_than(placed.corners[:, :2], q, clearance)
                           for c, q in zip(centers, quads, strict=True) if np.hypot(*(c - p)) < reach):
                    break
        centers.append(p)
        quads.append(placed.corners[:, :2])
        layout.tiles.append(placed)


def scatter_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """Many loose tiles at any rotation, as poured out of the box."""
    layout = Layout()
    n = int(rng.integers(12, 51))
    side = np.sqrt(n / rng.uniform(0.15, 0.45))
    half = np.array([side * rng.uniform(0.6, 0.8), side * rng.uniform(0.45, 0.6)])
    _add_loose(layout, rng, deck, aspect, n, (-half, half))
    return layout


def closeup_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """A few large tiles: short touching rows and singles, any rotation, sometimes overlapping."""
    layout = Layout()
    n_groups = int(rng.integers(2, 6))
    base_up = rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 5)
    for g in range(n_groups):
        center = np.array([(g % 3) * 3.3 * aspect, -(g // 3) * 1.5]) + rng.normal(0, 0.3, 2)
        if rng.random() < 0.5:
            tiles = deck.random_set()[: int(rng.integers(2, 5))]
            place_row(
                layout,
                tiles,
                center,
                base_up + rng.normal(0, 8),
                aspect,
                rng,
                set_index=len(layout.sets),
                gap=rng.uniform(0.0, 0.03),
            )
        else:
            for k in range(int(rng.integers(1, 3))):
                z = TILE_THICKNESS if rng.random() < 0.15 else 0.0
                p = center + np.array([k * aspect * 1.3, 0]) + rng.normal(0, 0.2, 2)
                layout.tiles.append(table_tile(deck.draw(), p, rng.uniform(0, 360), aspect, z=z))
    return layout


def rack_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """One or two racks seen from the player's side, and some sets on the table in front."""
    layout = Layout()
    n_racks = 1 if rng.random() < 0.75 else 2
    for r in range(n_racks):
        slots = int(rng.integers(8, 16))
        rows: list[list[Tile | None]] = []
        for _ in range(2):
            count = int(rng.integers(2, slots + 1))
            row: list[Tile | None] = [deck.draw() for _ in range(count)]
            while len(row) < slots and rng.random() < 0.3:
                row.insert(int(rng.integers(0, len(row) + 1)), None)
            rows.append(row)
        add_rack(layout, rows, np.array([r * (slots * aspect + 1.5), 0.0]), rng.normal(0, 4), aspect, rng)
    if rng.random() < 0.7:
        x = 0.0
        for _ in range(int(rng.integers(1, 5))):
            tiles = deck.random_set()
            # Sets lie between the rack and the middle of the table, i.e. behind the rack (+y).
            place_row(
                layout,
                tiles,
                np.array([x, rng.uniform(2.5, 4.5)]),
                rng.normal(0, 4),
                aspect,
                rng,
                set_index=len(layout.sets),
                gap=rng.uniform(0, 0.04),
            )
            x += len(tiles) * aspect + rng.uniform(0.3, 1.0)
    return layout


def _add_face_down(
    layout: Layout,
    rng: np.random.Generator,
    deck: Deck,
    aspect: float,
    count: int,
    area: tuple[np.ndarray, np.ndarray] | None = None,
    clearance: float | None = None,
) -> None:
    """`count` tiles lying face down (the draw pool, a player's spare tiles): not tiles to read, so they go to
    `layout.face_down`, never to `layout.tiles`. Placed as loose tiles are, clear of the tiles there."""
    if count <= 0:
        return
    first = len(layout.tiles)
    existing = layout.tiles[:first] + layout.face_down
    saved = layout.tiles
    layout.tiles = list(existing)
    _add_loose(layout, rng, deck, aspect, count, area, clearance)
    layout.face_down.extend(layout.tiles[len(existing):])
    layout.tiles = saved


def rack_rows(rng: np.random.Generator, deck: Deck, slots: int, fill: str) -> list[list[Tile | None]]:
    """The two tiers of a rack: `fill` "empty" (no tiles), "half" (some slots) or "full"."""
    rows: list[list[Tile | None]] = []
    for _ in range(2):
        if fill == "empty":
            rows.append([None] * slots)
            continue
        share = rng.uniform(0.2, 0.7) if fill == "half" else rng.uniform(0.85, 1.0)
        count = int(np.clip(round(slots * share), 1, slots))
        if rng.random() < 0.5:  # packed from the left, the rest of the tier empty
            row: list[Tile | None] = [deck.draw() for _ in range(count)] + [None] * (slots - count)
        else:  # groups with gaps between them
            filled = set(rng.choice(slots, size=count, replace=False).tolist())
            row = [deck.draw() if k in filled else None for k in range(slots)]
        rows.append(row)
    return rows


def _table_sets(
    layout: Layout,
    rng: np.random.Generator,
    deck: Deck,
    aspect: float,
    n_sets: int,
    y_range: tuple[float, float],
) -> None:
    """A few sets in a row on the table between `y_range`, left to right."""
    x = rng.uniform(-1.0, 1.0)
    for _ in range(n_sets):
        tiles = deck.random_set()
        place_row(layout, tiles, np.array([x, rng.uniform(*y_range)]), rng.normal(0, 4), aspect, rng,
                  set_index=len(layout.sets), gap=rng.uniform(0, 0.04))
        x += len(tiles) * aspect + rng.uniform(0.4, 1.0)


def rack_view_layout(rng: np.random.Generator, deck: Deck, aspect: float, view: str) -> Layout:
    """Racks to be seen from the front at eye level (`view` "front"), from above at the table's edge
    ("above") or at an angle ("angle"): empty, half full or full, black, grey, white or ivory plastic.
    A second rack, when there is one, stands beside the first or across the table facing it."""
    layout = Layout()
    fill = str(rng.choice(["empty", "half", "full"], p=[0.15, 0.35, 0.5]))
    slots = int(rng.integers(10, 18))
    add_rack(layout, rack_rows(rng, deck, slots, fill), np.array([0.0, 0.0]), rng.normal(0, 4), aspect, rng)
    length = slots * aspect + 0.5
    if rng.random() < (0.15 if view == "front" else 0.35):
        other_fill = str(rng.choice(["empty", "half", "full"], p=[0.2, 0.4, 0.4]))
        other_slots = int(rng.integers(10, 18))
        rows = rack_rows(rng, deck, other_slots, other_fill)
        if view == "front" or rng.random() < 0.4:  # side by side
            add_rack(layout, rows, np.array([length + rng.uniform(0.5, 3.0), rng.uniform(-1, 1)]),
                     rng.normal(0, 6), aspect, rng)
        else:  # across the table, its back towards this rack's player
            across = rng.uniform(8.5, 12.0)
            add_rack(layout, rows, np.array([length + rng.uniform(-2, 2), across]), 180 + rng.normal(0, 6),
                     aspect, rng)
    wants_sets = {"front": 0.2, "above": 0.8, "angle": 0.5}[view]
    if rng.random() < wants_sets:
        _table_sets(layout, rng, deck, aspect, int(rng.integers(1, 5)), (2.6, 5.5))
    if rng.random() < 0.3:
        lo, hi = np.array([-2.0, 2.6]), np.array([length + 2.0, 6.5])
        _add_face_down(layout, rng, deck, aspect, int(rng.integers(1, 12)), (lo, hi))
    return layout


def wooden_rack_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """One wooden rack, single-tier (its one row of 8-15 tiles) two times in three, else two tiers; now
    and then a second one beside it."""
    layout = Layout()
    for k in range(1 + int(rng.random() < 0.2)):
        tiers = 1 if rng.random() < 2 / 3 else 2
        slots = int(rng.integers(8, 16)) if tiers == 1 else int(rng.integers(10, 18))
        fill = str(rng.choice(["half", "full"], p=[0.3, 0.7]))
        rows = rack_rows(rng, deck, slots, fill)
        rows = [[t for row in rows for t in row if t is not None][:slots]] if tiers == 1 else rows
        origin = np.array([k * (slots * aspect + rng.uniform(1.0, 3.0)), rng.uniform(-0.5, 0.5)])
        add_rack(layout, rows, origin, rng.normal(0, 5), aspect, rng, style="wood", tiers=tiers)
    if rng.random() < 0.3:
        _table_sets(layout, rng, deck, aspect, int(rng.integers(1, 4)), (2.6, 5.5))
    return layout


def packed_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """Long tightly packed rows: 10-13 touching tiles each, rows almost touching, several rows.

    Each row is one set (a long run, or a row of mixed tiles as a player sorts them)."""
    layout = Layout()
    n_rows = int(rng.integers(2, 7))
    base_up = rng.normal(0, 4)
    table = _rot2(base_up)
    down = table @ np.array([0.0, -1.0])
    row_step = rng.uniform(1.02, 1.15)
    for r in range(n_rows):
        length = int(rng.integers(10, 14))
        if rng.random() < 0.5:
            color = COLORS[int(rng.integers(0, 4))]
            start = int(rng.integers(1, 15 - length))
            tiles = [Tile(color, n) for n in range(start, start + length)]
            for t in tiles:
                deck.take(t)
        else:
            tiles = [deck.draw() for _ in range(length)]
        start_xy = table @ np.array([rng.normal(0, 0.1), -r * row_step])
        _place_set_clear(layout, tiles, start_xy, base_up + rng.normal(0, 1.0), aspect, rng, 0.0, down,
                         clearance=0.0)
    return layout


def tile_box_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """The game's box (its tray: a floor and four low walls) with tiles lying loose in it, face up and face
    down, and sometimes a few sets on the table beside it (issue 37: photos taken at real tables had the
    tiles in the box taken for a rack). The box is no rack: its tiles are table tiles in no set."""
    layout = Layout()
    length, width = rng.uniform(5.5, 8.5), rng.uniform(3.8, 5.5)  # inside, in tile heights (a 28 x 20 cm box)
    wall, floor, height = 0.12, 0.08, rng.uniform(0.5, 1.3)
    yaw = rng.uniform(0, 360) if rng.random() < 0.5 else rng.normal(0, 8)
    rot = np.eye(3)
    rot[:2, :2] = _rot2(yaw)
    color = _rack_color(rng, str(rng.choice(RACK_STYLES + ("wood",), p=[0.35, 0.2, 0.2, 0.1, 0.15])))

    def box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float, shade: float) -> Box:
        return _world_box((x0, x1, y0, y1, z0, z1), rot, np.zeros(3), color * shade)

    hx, hy = length / 2, width / 2
    layout.containers = [
        box(-hx - wall, hx + wall, -hy - wall, hy + wall, 0.0, floor, 1.0),
        box(-hx - wall, hx + wall, hy, hy + wall, 0.0, height, 0.9),
        box(-hx - wall, hx + wall, -hy - wall, -hy, 0.0, height, 1.1),
        box(-hx - wall, -hx, -hy, hy, 0.0, height, 0.95),
        box(hx, hx + wall, -hy, hy, 0.0, height, 1.05),
    ]
    inside = (np.array([-hx, -hy]) + 0.55, np.array([hx, hy]) - 0.55)
    loose = Layout()
    _add_loose(loose, rng, deck, aspect, int(rng.integers(8, 30)), inside, clearance=0.02)
    for placed in loose.tiles:
        placed.corners[:, :2] = placed.corners[:, :2] @ rot[:2, :2].T
        placed.corners[:, 2] += floor
        placed.in_box = True
    down = rng.random(len(loose.tiles)) < rng.uniform(0.1, 0.6)
    layout.tiles = [t for t, d in zip(loose.tiles, down, strict=True) if not d]
    layout.face_down = [t for t, d in zip(loose.tiles, down, strict=True) if d]
    if rng.random() < 0.5:  # sets on the table beside the box
        side = rot[:2, :2] @ np.array([0.0, -1.0])
        for k in range(int(rng.integers(1, 4))):
            start = side * (hy + 1.2 + 1.6 * k) + rot[:2, :2] @ np.array([-hx + rng.uniform(0, 1.5), 0.0])
            _place_set_clear(layout, deck.random_set(), start, yaw + rng.normal(0, 3), aspect, rng,
                             rng.uniform(0.0, 0.08), side)
    return layout


def stacked_rows_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """Short rows stacked close under each other on the bare table, no rack: a hand laid out in two to
    four rows of two to five tiles, staggered, or table sets in a column (issue 37: the detectors called
    such piles on real tables racks). Each row is one set."""
    layout = Layout()
    n_rows = int(rng.integers(2, 5))
    base_up = rng.normal(0, 4) if rng.random() < 0.8 else rng.uniform(0, 360)
    table = _rot2(base_up)
    down = table @ np.array([0.0, -1.0])
    as_sets = rng.random() < 0.5
    row_step = rng.uniform(1.6, 2.6) if as_sets else rng.uniform(1.0, 1.3)
    for r in range(n_rows):
        if as_sets:
            tiles = deck.random_set()[: int(rng.integers(2, 6))]
        else:
            tiles = [deck.draw() for _ in range(int(rng.integers(2, 6)))]
        shift = rng.uniform(-0.6, 0.6) * aspect
        start_xy = table @ np.array([shift, -r * row_step])
        _place_set_clear(layout, tiles, start_xy, base_up + rng.normal(0, 2.5), aspect, rng,
                         rng.uniform(0.0, 0.08), down, clearance=0.0)
    return layout


def fill_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """One to three tiles, to be seen so close that they fill most of the frame."""
    layout = Layout()
    roll = rng.random()
    up = rng.normal(0, 6) if rng.random() < 0.6 else rng.uniform(0, 360)
    if roll < 0.5:
        layout.tiles.append(table_tile(deck.draw(), np.zeros(2), up, aspect))
    elif roll < 0.85:
        tiles = deck.random_set()[: int(rng.integers(2, 4))]
        place_row(layout, tiles, np.zeros(2), up, aspect, rng, set_index=len(layout.sets),
                  gap=rng.uniform(0.0, 0.03))
    else:
        for k in range(int(rng.integers(2, 4))):
            p = np.array([k * aspect * rng.uniform(1.3, 1.8), rng.normal(0, 0.3)])
            layout.tiles.append(table_tile(deck.draw(), p, up + rng.normal(0, 20), aspect))
    return layout


def empty_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """No tile to read: a bare table, maybe empty racks and face-down tiles (distractors come later)."""
    layout = Layout()
    half = rng.uniform(2.0, 8.0, 2)
    layout.focus = np.array([[-half[0], -half[1], 0.0], [half[0], half[1], 0.0]])
    if rng.random() < 0.35:
        slots = int(rng.integers(10, 18))
        add_rack(layout, rack_rows(rng, deck, slots, "empty"), np.array([-slots * aspect / 2, -half[1]]),
                 rng.normal(0, 8), aspect, rng)
    if rng.random() < 0.4:
        _add_face_down(layout, rng, deck, aspect, int(rng.integers(2, 25)), (-half[:2] + 0.5, half[:2] - 0.5))
    return layout


def texture_game_layout(rng: np.random.Generator, deck: Deck, aspect: float) -> Layout:
    """A game table (sets, loose tiles), sometimes with face-down tiles: to be laid on a strong texture."""
    layout = game_layout(rng, deck, aspect)
    if rng.random() < 0.4:
        _add_face_down(layout, rng, deck, aspect, int(rng.integers(1, 10)), clearance=aspect / 3)
    return layout
