"""Rendered videos of whole games seen by a camera above the table, with exact ground truth for `rummi watch`.

    python -m datasets.game_video OUT_DIR --games N --seed S --players 2 [--turns T] [--fps 10] [--y4m]
        [--hands real|sleeve]

writes `OUT_DIR/game-000.mp4` and `game-000.json` (the truth, below), and with `--y4m` `game-000.y4m`
(`--y4m-size 640x480`, `--y4m-fps 5`: for Chromium's fake camera). Game i of a run is
`simulate_game(S * 1000 + i)`.

Each distinct table state (`datasets.game_script`) is drawn once, with one camera, cloth, edition and light
per game; frames are composed from those images: a hand and arm reaching in from a side of the table while
the state changes under it, sometimes a slow light change or a shaking camera, always sensor noise.
Timeline: the table still for 2.0-3.5 s, a hand for 1.0-2.0 s, the table still again, and so on.

Hands (`--hands`, `HANDS`): each seat's arm comes in over that seat's edge of the frame (`seat_side`: seat 1
at the bottom; two players bottom, top; three bottom, left, top; four all sides). `real` (the CLI's default)
draws each visit's arm from the game's seed (`_real_hand`): bare (skin to the frame's edge) or in a dark,
white or coloured sleeve; skin very dark to very light (`SKIN_TONES`) or, a quarter of the visits, the
cloth's own colour and brightness; `RESTS` (15 %) of the hands stop dead over the table (where they worked,
over the tiles, or partway back) for 2-4 s once the table has changed, then let go and leave, the turn still
judged when the table is still after the hand left. `sleeve` (the functions' default) is the first renders'
mix, a sleeved arm of a few skins, frame for frame as those videos.

Truth (`GameTruth.to_json`): `turns` in the contract's fields, judged at `time_s` = when the table became
still after the hand left (`still_s`) plus `SETTLE_S` (what `rummi watch --settle 1.5` should report; the
first frame at or after that moment where 1.5 s is not a whole number of frames);
`added`/`removed` against the table at the previous reported turn, sorted by colour (k, b, r, o), then
number, jokers last; `table` the sets top to bottom, left to right; `hands` the mix; each hand's event its
`from_seat`, `side`, `hand` (bare, dark sleeve, white sleeve, coloured sleeve; sleeve), `skin` and, resting,
`rest_s` [from, to].
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets import layouts as lay
from datasets.backgrounds import pick_surface
from datasets.camera import Camera
from datasets.effects import color_cast, light_falloff, soft_blur
from datasets.game_script import GameScript, ScriptEvent, simulate_game, table_bounds
from datasets.scene import _background, _light_direction, _Painter
from datasets.tile_face import VARIANTS, Edition

SETTLE_S = 1.5
"""The referee's default `--settle`: a turn is judged this long after the table became still."""

STILL_S = (2.0, 3.5)
HAND_S = (1.0, 2.0)
FIRST_SEAT = 1


@dataclass
class GameLook:
    """What stays the same for a whole game: camera, edition, cloth, light, and the photo's light and cast."""

    camera: Camera
    edition: Edition
    light: np.ndarray  # unit vector towards the lamp
    surface: str
    table: np.ndarray  # the bare table (BGR float32 0-1), before `tone`
    tone: np.ndarray  # (h, w, 3) light falloff times white balance
    tile_px: float  # a tile's height in pixels in the middle of the table
    seed: int
    tone_mean: np.ndarray = field(default_factory=lambda: np.ones(3, np.float32))  # for things over the table
    cloth: np.ndarray = field(default_factory=lambda: np.full(3, 0.5, np.float32))  # the bare table's mean
    # colour as the frame shows it (BGR 0-1)

    @property
    def size(self) -> tuple[int, int]:
        return self.table.shape[1], self.table.shape[0]


def game_look(script: GameScript, size: tuple[int, int] = (1000, 750), variants: str = "train") -> GameLook:
    """One game's camera (from above, up to 15 degrees of tilt, seat 1 at the bottom), edition, cloth and
    light, framing the whole table area; tiles come out about 45-60 px tall at 1000x750. `variants`: the
    editions drawn from (`datasets.tile_face.VARIANTS`; `dark_blue` measures an edition printing its blue in
    navy, never trained on)."""
    width, height = size
    rng = np.random.default_rng([script.seed, 2])
    edition = replace(Edition.sample(rng, variants, other=0.1), aspect=script.geometry.aspect)
    x0, y0, x1, y1 = table_bounds(script)
    corners = np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float)
    target = corners.mean(axis=0)
    hfov = math.radians(rng.uniform(55, 68))
    focal = max(width, height) / 2 / math.tan(hfov / 2)
    radius = float(np.hypot(x1 - x0, y1 - y0)) / 2
    elevation = rng.uniform(75, 90)
    camera = Camera.looking_at(target, radius / math.tan(hfov / 2) * 1.1, -90 + rng.normal(0, 2), elevation,
                               rng.normal(0, 1.5), focal, 0.0, 0.0)
    proj = camera.project(corners)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    fill = rng.uniform(0.93, 0.98)
    scale = min(width * fill / (hi[0] - lo[0]), height * fill / (hi[1] - lo[1]))
    center = (lo + hi) / 2 * scale
    camera.zoom_and_shift(scale, width / 2 - center[0], height / 2 - center[1])
    quad = camera.project(lay.table_tile(lay.JOKER, target[:2], 0.0, edition.aspect).corners)
    tile_px = float(np.linalg.norm(quad[0] - quad[3]))

    surface = pick_surface(rng, 0.2)
    area = lay.Layout(focus=corners)
    table, _ = _background(rng, camera, area, width, height, surface, with_wall=False)
    light = _light_direction(rng)
    ones = np.ones((height, width, 3), np.float32)
    tone = color_cast(light_falloff(ones, rng), rng).astype(np.float32)
    table = table.astype(np.float32)
    return GameLook(camera, edition, light, surface, table, tone, tile_px, script.seed,
                    tone.mean(axis=(0, 1)), (table * tone).mean(axis=(0, 1)))


def state_layout(script: GameScript, state: int) -> tuple[lay.Layout, list[int]]:
    """The table state as a `datasets.layouts.Layout` (tiles in reading order) and the tile id of each."""
    table = script.states[state]
    layout = lay.Layout()
    ids: list[int] = []
    for k in table.reading_order():
        members = []
        for i in table.sets[k]:
            x, y, up = table.places[i]
            placed = lay.table_tile(script.tiles[i], np.array([x, y]), up, script.geometry.aspect)
            placed.set_index = len(layout.sets)
            members.append(len(layout.tiles))
            layout.tiles.append(placed)
            ids.append(i)
        layout.sets.append(members)
    return layout, ids


def render_state(script: GameScript, state: int, look: GameLook) -> np.ndarray:
    """The table state as a still frame shows it without noise: BGR float32 0-1. Each tile is drawn with
    its own seed, so it looks the same in every state of the game."""
    layout, ids = state_layout(script, state)
    img = look.table.copy()
    painter = _Painter(img, look.camera, look.edition, look.light, np.random.default_rng([look.seed, 3]))
    if layout.tiles:
        painter.shadows(layout, look.tile_px)
    depth = [float(look.camera.depth(t.corners.mean(axis=0)[None])[0]) for t in layout.tiles]
    for k in sorted(range(len(layout.tiles)), key=lambda k: -depth[k]):
        painter.rng = np.random.default_rng([look.seed, 4, ids[k]])
        painter.tile(k, layout.tiles[k])
    img *= look.tone
    return np.clip(img, 0.0, 1.0)


# ------------------------------------------------------------------------------------------------ hands


@dataclass
class HandVisit:
    """A hand over the table from frame `start` to `end` (exclusive); the table under it shows state
    `before` until frame `switch`, then `after`. A resting hand (`rest_at` set) stops dead at `rest_at`
    from frame `rest_start` to `rest_end` (after the switch), then lets go and leaves."""

    start: int
    switch: int
    end: int
    before: int
    after: int
    entry: np.ndarray  # palm centre (pixels) at the first and last frame, just outside the frame
    focus: np.ndarray  # palm centre (pixels) while it works
    skin: np.ndarray  # BGR 0-1
    sleeve: np.ndarray
    fingers: np.ndarray  # (4,) finger lengths in tile heights
    wobble: np.ndarray  # (2,) phases
    shake: bool
    event: ScriptEvent
    side: str = ""  # the frame's edge the arm comes in over: bottom, left, top, right
    kind: str = "sleeve"  # bare, dark sleeve, white sleeve, coloured sleeve; sleeve: the first renders' mix
    tone: str = ""  # the skin's name (`SKIN_TONES`, or "like the table")
    rest_start: int = 0
    rest_end: int = 0
    rest_at: np.ndarray | None = None

    @property
    def bare(self) -> bool:
        return self.kind == "bare"

    @property
    def inward(self) -> np.ndarray:
        """Unit vector (pixels) along the arm towards the fingertips."""
        inward = self.focus - self.entry
        return inward / max(1e-9, float(np.linalg.norm(inward)))

    def resting(self, frame: int) -> bool:
        return self.rest_at is not None and self.rest_start <= frame < self.rest_end

    def palm(self, frame: int, fps: int) -> np.ndarray:
        """Palm centre at a frame: in, a moment at work (moving a little), [still at rest,] out; eased."""
        if self.rest_at is not None:
            return self._palm_resting(frame, fps)
        total = self.end - self.start
        moving = max(1, round(0.35 * fps))
        moving = min(moving, max(1, (total - 1) // 3))
        k = frame - self.start
        if k < moving:
            t = _ease(k / moving)
            return self.entry * (1 - t) + self.focus * t
        if k >= total - moving:
            t = _ease((total - 1 - k) / moving)
            return self.entry * (1 - t) + self.focus * t
        return self._at_work(k)

    def _at_work(self, k: int) -> np.ndarray:
        wobble = np.array([math.sin(k * 0.9 + self.wobble[0]), math.sin(k * 0.7 + self.wobble[1])])
        return self.focus + 6.0 * wobble

    def _palm_resting(self, frame: int, fps: int) -> np.ndarray:
        assert self.rest_at is not None
        k = frame - self.start
        shift = _rest_shift(fps)
        work = self.rest_start - self.start - shift
        moving = min(max(1, round(0.35 * fps)), max(1, (work - 1) // 2))
        if k < moving:
            t = _ease(k / moving)
            return self.entry * (1 - t) + self.focus * t
        if k < work:
            return self._at_work(k)
        if frame < self.rest_start:
            t = _ease((k - work + 1) / shift)
            return self.focus * (1 - t) + self.rest_at * t
        if frame < self.rest_end:
            return self.rest_at.copy()
        out = self.end - self.rest_end
        t = _ease((self.end - 1 - frame) / out)
        return self.entry * (1 - t) + self.rest_at * t


def _rest_shift(fps: int) -> int:
    """Frames a resting hand takes from where it worked to where it rests."""
    return max(1, round(0.3 * fps))


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3 - 2 * t)


_SKIN = np.array([[0.55, 0.68, 0.85], [0.42, 0.55, 0.75], [0.30, 0.40, 0.58], [0.20, 0.27, 0.40],
                  [0.62, 0.74, 0.90]], np.float32)
_SKIN_NAMES = ["light", "medium", "brown", "dark", "light"]
"""The first renders' skins (`--hands sleeve`)."""

SKIN_TONES: dict[str, tuple[float, float, float]] = {
    "very dark": (0.09, 0.12, 0.18),
    "dark": (0.17, 0.24, 0.36),
    "brown": (0.28, 0.38, 0.56),
    "medium": (0.42, 0.55, 0.75),
    "light": (0.57, 0.69, 0.86),
    "very light": (0.74, 0.81, 0.93),
}
"""Bare skin (BGR 0-1, before the arm's shading and the photo's light), very dark to very light."""

HAND_KINDS = {"bare": 0.4, "dark sleeve": 0.2, "white sleeve": 0.15, "coloured sleeve": 0.25}
"""`--hands real`: the chance of each kind of arm on a visit."""

LIKE_THE_TABLE = 0.25
"""`--hands real`: the chance that a visit's skin is the cloth's own colour and brightness."""

RESTS = 0.15
"""`--hands real`: the chance that a hand rests dead still over the table before it leaves."""

REST_S = (2.0, 4.0)

HANDS = ("real", "sleeve")
"""Hand mixes: `real`, the kinds a real table sees (bare arms of every skin, one like the cloth, dark, white
and coloured sleeves, hands that rest); `sleeve`, the first renders' (a sleeved arm; frames byte for byte as
then)."""

_ARM_SHADE = 1.05
"""About the mean of `_compose_hand`'s shading over an arm: skin "like the table" is divided by it."""


def _hand_colors(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, str]:
    index = int(rng.integers(0, len(_SKIN)))
    skin = _SKIN[index] * rng.uniform(0.9, 1.1)
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 255), rng.integers(40, 240)]]])
    sleeve = _hsv(hsv)
    return np.clip(skin, 0, 1).astype(np.float32), sleeve, _SKIN_NAMES[index]


def _hsv(hsv: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(np.uint8(hsv).reshape(1, 1, 3), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32) / 255.0


def _real_hand(rng: np.random.Generator, look: GameLook) -> tuple[str, str, np.ndarray, np.ndarray]:
    """(kind, skin tone's name, skin, sleeve) of a visit in the `real` mix. Skin "like the table" is the
    cloth's mean colour as the frame shows it, undone of the photo's light and the arm's shading."""
    draws = rng.random(3)
    chances = np.cumsum(list(HAND_KINDS.values()))
    kind = list(HAND_KINDS)[min(len(HAND_KINDS) - 1, int(np.searchsorted(chances, draws[0] * chances[-1])))]
    jitter = rng.uniform(0.96, 1.04, 3)
    if draws[1] < LIKE_THE_TABLE:
        tone = "like the table"
        skin = look.cloth / np.maximum(look.tone_mean, 1e-3) / _ARM_SHADE * jitter
    else:
        tone = list(SKIN_TONES)[int(draws[2] * len(SKIN_TONES))]
        skin = np.array(SKIN_TONES[tone]) * rng.uniform(0.92, 1.08) * jitter
    hue, a, b = int(rng.integers(0, 180)), float(rng.random()), float(rng.random())
    if kind == "dark sleeve":
        sleeve = _hsv(np.array([hue, 150 * a, 12 + 45 * b]))
    elif kind == "white sleeve":
        sleeve = _hsv(np.array([hue, 25 * a, 222 + 30 * b]))
    elif kind == "coloured sleeve":
        sleeve = _hsv(np.array([hue, 110 + 145 * a, 80 + 160 * b]))
    else:
        sleeve = np.zeros(3, np.float32)
    return kind, tone, np.clip(skin, 0, 1).astype(np.float32), sleeve


_SIDE_INWARD = {"bottom": np.array([0.0, -1.0]), "top": np.array([0.0, 1.0]), "left": np.array([1.0, 0.0]),
                "right": np.array([-1.0, 0.0])}


def seat_side(seat: int, players: int) -> str:
    """The frame's edge a seat's arm comes in over: seat 1 at the bottom, then (two players) the top, or
    (three, four) left, top, right."""
    four = ["bottom", "left", "top", "right"]
    sides = {2: ["bottom", "top"], 3: ["bottom", "left", "top"]}.get(players, four)
    return sides[(seat - 1) % len(sides)]


def _seat_direction(seat: int, players: int) -> np.ndarray:
    """Unit vector (pixels) from a seat's edge of the picture into the table (`seat_side`)."""
    return _SIDE_INWARD[seat_side(seat, players)].copy()


def _rotated(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([v[0] * c - v[1] * s, v[0] * s + v[1] * c])


def _entry_point(focus: np.ndarray, inward: np.ndarray, size: tuple[int, int], unit: float, reach: float
                 ) -> np.ndarray:
    """Where the palm starts: back along `inward` from the focus until fingertips `reach` tile heights
    from the palm's centre are 0.4 tile heights inside the frame (every frame of a visit shows the hand)."""
    w, h = size
    outward = -inward
    ts = []
    for axis, limit in ((0, w), (1, h)):
        if outward[axis] > 1e-9:
            ts.append((limit - focus[axis]) / outward[axis])
        elif outward[axis] < -1e-9:
            ts.append(-focus[axis] / outward[axis])
    edge = focus + outward * min(ts)
    return edge + outward * (reach - 0.4) * unit


def _entry_from_side(focus: np.ndarray, side: str, angle: float, size: tuple[int, int], unit: float,
                     reach: float, margin: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """(entry, inward) for an arm that crosses the frame's `side` edge (never a neighbouring one): turned
    `angle` (radians) from straight in, where it crosses kept `margin` of the edge's length from its ends;
    the palm starts as in `_entry_point`."""
    w, h = size
    inward = _rotated(_SIDE_INWARD[side], angle)
    across = 1 if side in ("bottom", "top") else 0  # the axis the edge lies across
    along = 1 - across
    limit = (w, h)[across]
    edge_at = limit if side in ("bottom", "right") else 0.0
    edge = focus.astype(float).copy()
    edge[across] = edge_at
    edge[along] = focus[along] - inward[along] / inward[across] * (focus[across] - edge_at)
    span = (w, h)[along]
    edge[along] = min(max(edge[along], margin * span), (1 - margin) * span)
    towards = focus - edge
    if float(np.linalg.norm(towards)) > unit:
        inward = towards / float(np.linalg.norm(towards))
    else:
        inward = _SIDE_INWARD[side].copy()
    return edge - inward * (reach - 0.4) * unit, inward


_FINGER_BASE = 0.9
"""Where the fingers start, in tile heights from the palm's centre towards the fingertips."""


def _draw_hand(palm: np.ndarray, inward: np.ndarray, unit: float, fingers: np.ndarray, size: tuple[int, int],
               factor: int, bare: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(skin mask, sleeve mask), uint8 at 1/`factor` of the frame size; a `bare` arm is skin to the frame's
    edge, its sleeve mask empty."""
    w, h = size[0] // factor, size[1] // factor
    skin = np.zeros((h, w), np.uint8)
    sleeve = np.zeros((h, w), np.uint8)
    p = palm / factor
    u = unit / factor
    perp = np.array([-inward[1], inward[0]])

    def pt(v: np.ndarray) -> tuple[int, int]:
        return int(round(v[0] * 4)), int(round(v[1] * 4))

    def line(mask: np.ndarray, a: np.ndarray, b: np.ndarray, width: float) -> None:
        cv2.line(mask, pt(a), pt(b), 255, max(1, int(round(width))), cv2.LINE_AA, shift=2)

    wrist = p - inward * 1.3 * u
    angle = math.degrees(math.atan2(inward[1], inward[0]))
    axes = (int(1.35 * u * 4), int(1.15 * u * 4))
    cv2.ellipse(skin, pt(p), axes, angle, 0, 360, 255, -1, cv2.LINE_AA, shift=2)
    line(skin, wrist, p, 1.9 * u)
    line(skin, wrist, wrist - inward * 1.0 * u, 1.8 * u)
    for k in range(4):
        base = p + perp * (k - 1.5) * 0.52 * u + inward * _FINGER_BASE * u
        tip = base + inward * fingers[k] * u + perp * (k - 1.5) * 0.12 * u
        line(skin, base, tip, 0.45 * u)
    thumb = p + perp * 1.0 * u - inward * 0.2 * u
    line(skin, thumb, thumb + (perp * 0.8 + inward * 0.7) * u, 0.5 * u)
    if bare:  # the forearm, a little wider towards the elbow
        line(skin, wrist - inward * 0.5 * u, wrist - inward * 5 * u, 2.0 * u)
        line(skin, wrist - inward * 4.5 * u, wrist - inward * 40 * u, 2.3 * u)
    else:
        line(sleeve, wrist - inward * 0.9 * u, wrist - inward * 40 * u, 2.5 * u)
    return skin, sleeve


def hand_masks(visit: HandVisit, frame: int, look: GameLook, fps: int, factor: int = 1
               ) -> tuple[np.ndarray, np.ndarray]:
    """(skin mask, sleeve mask) of a visit's hand and arm at a frame, uint8, at 1/`factor` of the frame's
    size."""
    return _draw_hand(visit.palm(frame, fps), visit.inward, look.tile_px, visit.fingers, look.size, factor,
                      visit.bare)


def _compose_hand(
    base: np.ndarray, base_u8: np.ndarray, visit: HandVisit, palm: np.ndarray, inward: np.ndarray,
    look: GameLook, gain: np.ndarray,
) -> np.ndarray:
    """The frame (BGR uint8) with the hand and arm over `base` (float32 0-1, times `gain`; `base_u8` is it in
    bytes, gain 1) and its soft
    shadow on the table; only the part of the frame they touch is composed in floats."""
    factor = 2
    h, w = base.shape[:2]
    unit = look.tile_px
    skin_m, sleeve_m = _draw_hand(palm, inward, unit, visit.fingers, (w, h), factor, visit.bare)
    both = cv2.max(skin_m, sleeve_m).astype(np.float32) / 255.0
    shift = np.array([look.light[0], -look.light[1]]) * unit * 1.2 / factor + 2
    m = np.float32([[1, 0, -shift[0]], [0, 1, -shift[1]]])
    shadow = soft_blur(cv2.warpAffine(both, m, (both.shape[1], both.shape[0])), unit * 0.5 / factor)
    # Round like an arm: lit along its axis, darker towards its sides; thicker parts a little brighter.
    yy, xx = np.mgrid[0:both.shape[0], 0:both.shape[1]].astype(np.float32)
    centre = palm / factor
    across = ((xx - centre[0]) * -inward[1] + (yy - centre[1]) * inward[0]) / (1.3 * unit / factor)
    shade = (0.85 + 0.25 * soft_blur(both, unit * 0.35 / factor)) * (1.08 - 0.3 * np.minimum(1.0, across**2))
    frame = to_u8(base * gain) if not np.allclose(gain, 1.0) else base_u8.copy()
    touched = np.argwhere(cv2.max(both, shadow) > 0.004)
    if not len(touched):
        return frame
    (y0, x0), (y1, x1) = touched.min(axis=0), touched.max(axis=0) + 1
    small = np.dstack([skin_m[y0:y1, x0:x1].astype(np.float32) / 255.0,
                       sleeve_m[y0:y1, x0:x1].astype(np.float32) / 255.0,
                       shadow[y0:y1, x0:x1], shade[y0:y1, x0:x1]])
    fy0, fx0 = y0 * factor, x0 * factor
    fy1, fx1 = min(h, y1 * factor), min(w, x1 * factor)
    full = cv2.resize(small, (fx1 - fx0, fy1 - fy0), interpolation=cv2.INTER_LINEAR)
    skin_a, sleeve_a, shadow_a, shade_a = (full[..., i:i + 1] for i in range(4))
    sleeve_a = sleeve_a * (1 - skin_a)
    region = base[fy0:fy1, fx0:fx1] * gain * (1 - 0.45 * shadow_a)
    cover = skin_a + sleeve_a
    colour = (skin_a * visit.skin + sleeve_a * visit.sleeve) * shade_a * look.tone_mean * gain
    frame[fy0:fy1, fx0:fx1] = to_u8(region * (1 - cover) + colour)
    return frame


# ------------------------------------------------------------------------------------------------ truth


@dataclass
class GameTruth:
    """What a referee should report for a rendered game, and what else happened in it."""

    video: str
    seed: int
    players: int
    fps: int
    frames: int
    width: int
    height: int
    start_table: list[list[str]]
    turns: list[dict[str, Any]]
    events: list[dict[str, Any]]
    ended: str
    first_seat: int = FIRST_SEAT
    settle_s: float = SETTLE_S
    rules: str = "standard"
    surface: str = ""
    tile_px: float = 0.0
    frame_states: list[int] = field(default_factory=list)  # the table state each frame shows (hands aside)
    hands: str = "sleeve"
    visits: list[HandVisit] = field(default_factory=list)  # the hands as drawn (not written out)

    def to_json(self) -> dict[str, Any]:
        return {
            "video": self.video,
            "seed": self.seed,
            "players": self.players,
            "first_seat": self.first_seat,
            "rules": self.rules,
            "fps": self.fps,
            "frames": self.frames,
            "duration_s": round(self.frames / self.fps, 3),
            "width": self.width,
            "height": self.height,
            "settle_s": self.settle_s,
            "tile_px": round(self.tile_px, 1),
            "surface": self.surface,
            "hands": self.hands,
            "order": "added/removed: by colour k, b, r, o, then number, jokers last; table: sets top to "
                     "bottom, left to right, tiles left to right",
            "start_table": self.start_table,
            "turns": self.turns,
            "events": self.events,
            "ended": self.ended,
        }


def save_truth(truth: GameTruth, path: Path) -> None:
    path.write_text(json.dumps(truth.to_json(), indent=1) + "\n")


# ---------------------------------------------------------------------------------------------- timeline


@dataclass
class _Timeline:
    visits: list[HandVisit]
    lights: list[tuple[int, int, np.ndarray, np.ndarray]]  # (start, end, gain from, gain to)
    frames: int


def _plan(script: GameScript, look: GameLook, fps: int, rng: np.random.Generator, light_changes: float,
          shakes: float, hands: str = "sleeve", rests: float = RESTS) -> _Timeline:
    """When each hand comes and goes, what it looks like, and when the light drifts. `hands`: `HANDS`; with
    `real`, each visit's arm (`_real_hand`), whether it rests and where are drawn from the game's seed apart
    from the rest, so the timing of the hands is the `sleeve` mix's but for the rests."""
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {HANDS}, got {hands!r}")
    real = hands == "real"
    hand_rng = np.random.default_rng([script.seed, 7])
    size = look.size
    frame = round(rng.uniform(*STILL_S) * fps)
    visits: list[HandVisit] = []
    lights: list[tuple[int, int, np.ndarray, np.ndarray]] = []
    gain = np.ones(3, np.float32)
    state = 0
    homography = look.camera.table_homography()
    for event in script.events:
        length = max(4, round(rng.uniform(*HAND_S) * fps))
        side = seat_side(event.from_seat, script.players)
        angle = math.radians(rng.normal(0, 15))
        inward = _rotated(_seat_direction(event.from_seat, script.players), angle)
        spot = np.array(event.focus)
        if event.kind == "no-change" and script.states[event.state].places:
            # A hand that changes nothing still passes over tiles (straightening them, pointing at one).
            places = np.array([p[:2] for p in script.states[event.state].places.values()])
            spot = places[int(np.argmin(np.hypot(*(places - spot).T)))]
        p = homography @ np.array([spot[0], spot[1], 1.0])
        focus = np.clip(p[:2] / p[2], [0, 0], [size[0] - 1, size[1] - 1])
        skin, sleeve, tone = _hand_colors(rng)
        kind = "sleeve"
        fingers = rng.uniform(1.4, 2.0, 4)
        reach = _FINGER_BASE + float(fingers.min())
        if real:
            kind, tone, skin, sleeve = _real_hand(hand_rng, look)
            turned = float(np.clip(angle, -0.6, 0.6))
            entry, _ = _entry_from_side(focus, side, turned, size, look.tile_px, reach)
        else:
            entry = _entry_point(focus, inward, size, look.tile_px, reach)
        visit = HandVisit(
            start=frame, switch=frame + length // 2, end=frame + length, before=state, after=event.state,
            entry=entry, focus=focus, skin=skin, sleeve=sleeve, fingers=fingers,
            wobble=rng.uniform(0, 2 * math.pi, 2), shake=bool(rng.random() < shakes), event=event, side=side,
            kind=kind, tone=tone,
        )
        if real:
            draws = hand_rng.random(3)
            if draws[0] < rests:
                # It stops dead where it worked (over the tiles it laid) or partway back, then lets go.
                along = 0.0 if draws[1] < 0.5 else 0.25 + 0.35 * float(draws[2])
                visit.rest_at = focus + (entry - focus) * along * 0.8
                visit.rest_start = frame + length + _rest_shift(fps)
                visit.rest_end = visit.rest_start + round(hand_rng.uniform(*REST_S) * fps)
                visit.end = visit.rest_end + max(1, round(0.35 * fps))
        visits.append(visit)
        state = event.state
        still = round(rng.uniform(*STILL_S) * fps)
        frame = visit.end
        if rng.random() < light_changes:
            start = frame + round(rng.uniform(0.0, 0.5) * fps)
            end = start + round(rng.uniform(1.5, 3.0) * fps)
            target = (rng.uniform(0.88, 1.08) * rng.uniform(0.97, 1.03, 3)).astype(np.float32)
            lights.append((start, end, gain, target))
            gain = target
        frame += still
    return _Timeline(visits, lights, frame)


def _gain_at(lights: list[tuple[int, int, np.ndarray, np.ndarray]], frame: int) -> np.ndarray:
    gain = np.ones(3, np.float32)
    for start, end, g0, g1 in lights:
        if frame >= end:
            gain = g1
        elif frame >= start:
            t = (frame - start) / max(1, end - start)
            gain = g0 * (1 - t) + g1 * t
    return gain


# ---------------------------------------------------------------------------------------------- video


def _noise_fields(rng: np.random.Generator, size: tuple[int, int], count: int = 6) -> list[np.ndarray]:
    """Sensor noise (int16, grey levels), luma plus coarser chroma, cycled through the frames."""
    w, h = size
    sigma = float(rng.uniform(1.2, 3.0))
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    fields = []
    for _ in range(count):
        luma = np.empty((h, w), np.float32)
        cv2.randn(luma, 0.0, sigma)
        chroma = np.empty((h // 2, w // 2, 3), np.float32)
        cv2.randn(chroma, (0.0, 0.0, 0.0), (sigma * 0.6,) * 3)
        noise = cv2.resize(chroma, (w, h)) + luma[..., None]
        fields.append(np.round(noise).astype(np.int16))
    return fields


def to_u8(img: np.ndarray) -> np.ndarray:
    """BGR float 0-1 as uint8, rounded."""
    return (np.clip(img, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


def _shaken(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.normal(0, 0.12)), 1.0)
    m[:, 2] += rng.normal(0, 0.9, 2)
    return cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class CachedStates:
    """Each table state's still image (BGR float32 0-1, no noise) and its bytes, drawn when first asked for
    (`_draw`); the last `keep` kept (frames visit the states in order). States of one `_key` are drawn
    once."""

    def __init__(self, keep: int = 3) -> None:
        self.keep = keep
        self._cache: dict[Any, tuple[np.ndarray, np.ndarray]] = {}

    def _key(self, state: int) -> Any:
        return state

    def _draw(self, state: int) -> np.ndarray:
        raise NotImplementedError

    def _get(self, state: int) -> tuple[np.ndarray, np.ndarray]:
        key = self._key(state)
        if key not in self._cache:
            image = self._draw(state)
            self._cache[key] = (image, to_u8(image))
            while len(self._cache) > self.keep:
                del self._cache[next(iter(self._cache))]
        return self._cache[key]

    def __getitem__(self, state: int) -> np.ndarray:
        return self._get(state)[0]

    def u8(self, state: int) -> np.ndarray:
        return self._get(state)[1]


class StateImages(CachedStates):
    """A rendered script's states (`render_state`)."""

    def __init__(self, script: GameScript, look: GameLook, keep: int = 3) -> None:
        super().__init__(keep)
        self.script = script
        self.look = look

    def _key(self, state: int) -> Any:
        # A put back shows the very state the table had before the illegal turn: drawn once.
        return id(self.script.states[state])

    def _draw(self, state: int) -> np.ndarray:
        return render_state(self.script, state, self.look)


def render_frames(
    script: GameScript,
    fps: int = 10,
    size: tuple[int, int] = (1000, 750),
    light_changes: float = 0.2,
    shakes: float = 0.3,
    hands: str = "sleeve",
    rests: float = RESTS,
    variants: str = "train",
) -> tuple[Iterator[np.ndarray], GameTruth, StateImages]:
    """(frames as BGR uint8, lazily; the truth; each table state's still image). `hands`: the mix of hands
    (`HANDS`); `rests`: with `real`, the chance a hand rests still before it leaves; `variants`: as
    `game_look`.

    Raises:
        ValueError: `hands` is not one of `HANDS`.
    """
    look = game_look(script, size, variants)
    images = StateImages(script, look)
    frames, truth = compose_frames(script, look, images, fps, light_changes, shakes, hands, rests)
    return frames, truth, images


def compose_frames(
    script: GameScript,
    look: GameLook,
    images: CachedStates,
    fps: int = 10,
    light_changes: float = 0.2,
    shakes: float = 0.3,
    hands: str = "sleeve",
    rests: float = RESTS,
) -> tuple[Iterator[np.ndarray], GameTruth]:
    """(frames as BGR uint8, lazily; the truth) of a script whose states' still images are `images` (the
    frame's size is `look.size`): the hands, light changes, shakes and noise of `render_frames`.

    Raises:
        ValueError: `hands` is not one of `HANDS`.
    """
    size = look.size
    rng = np.random.default_rng([script.seed, 5])
    timeline = _plan(script, look, fps, rng, light_changes, shakes, hands, rests)
    noise = _noise_fields(rng, size)

    frame_states = [0] * timeline.frames
    hand_at: dict[int, HandVisit] = {}
    for visit in timeline.visits:
        for f in range(visit.start, visit.end):
            hand_at[f] = visit
        for f in range(visit.switch, timeline.frames):
            frame_states[f] = visit.after
    truth = _truth(script, look, timeline, fps, size, frame_states)
    truth.hands = hands

    def frames() -> Iterator[np.ndarray]:
        shake_rng = np.random.default_rng([script.seed, 6])
        for f in range(timeline.frames):
            state = frame_states[f]
            gain = _gain_at(timeline.lights, f)
            visit = hand_at.get(f)
            if visit is None:
                img = images.u8(state)
                if not np.allclose(gain, 1.0):
                    img = cv2.multiply(img, (float(gain[0]), float(gain[1]), float(gain[2]), 0.0))
            else:
                img = _compose_hand(images[state], images.u8(state), visit, visit.palm(f, fps), visit.inward,
                                    look, gain)
                if visit.shake and not visit.resting(f):  # a resting hand: nothing moves but the noise
                    img = _shaken(img, shake_rng)
            yield cv2.add(img, noise[f % len(noise)], dtype=cv2.CV_8U)

    return frames(), truth


def _truth(script: GameScript, look: GameLook, timeline: _Timeline, fps: int, size: tuple[int, int],
           frame_states: list[int]) -> GameTruth:
    settle = math.ceil(SETTLE_S * fps - 1e-9)
    turns = []
    events: list[dict[str, Any]] = []
    records = iter(script.turn_records())
    for visit in timeline.visits:
        event = visit.event
        still_frame = visit.end
        entry: dict[str, Any] = {
            "kind": "hand", "change": "turn" if event.kind == "turn" else event.kind,
            "start_s": round(visit.start / fps, 3), "still_s": round(still_frame / fps, 3),
            "from_seat": event.from_seat, "side": visit.side, "hand": visit.kind, "skin": visit.tone,
            "shake": visit.shake,
        }
        if visit.rest_at is not None:
            entry["rest_s"] = [round(visit.rest_start / fps, 3), round(visit.rest_end / fps, 3)]
        if event.kind == "turn":
            record = next(records)
            judged = still_frame + settle
            turns.append({
                "turn": record["turn"], "seat": record["seat"], "time_s": round(judged / fps, 3),
                "frame": judged, "action": record["action"], "added": record["added"],
                "removed": record["removed"], "legal": record["legal"], "table": record["table"],
                "still_s": round(still_frame / fps, 3), "kind": record["kind"],
            })
            entry["turn"] = record["turn"]
        elif event.kind == "nudge" and event.tile is not None:
            entry["tile"] = str(script.tiles[event.tile])
        events.append(entry)
    for start, end, g0, g1 in timeline.lights:
        events.append({"kind": "light", "start_s": round(start / fps, 3), "end_s": round(end / fps, 3),
                       "gain_from": [round(float(v), 3) for v in g0],
                       "gain_to": [round(float(v), 3) for v in g1]})
    events.sort(key=lambda e: e["start_s"])
    return GameTruth(
        video="", seed=script.seed, players=script.players, fps=fps, frames=timeline.frames, width=size[0],
        height=size[1], start_table=script.tokens(0), turns=turns, events=events, ended=script.ended,
        rules=script.rules.label, surface=look.surface, tile_px=look.tile_px, frame_states=frame_states,
        visits=timeline.visits,
    )


def render_game_video(
    script: GameScript,
    out_path: Path,
    fps: int = 10,
    size: tuple[int, int] = (1000, 750),
    light_changes: float = 0.2,
    shakes: float = 0.3,
    truth_path: Path | None = None,
    hands: str = "sleeve",
    rests: float = RESTS,
    variants: str = "train",
) -> GameTruth:
    """Write the game as an mp4 (`mp4v`) and its truth as JSON beside it (`out_path` with `.json`, or
    `truth_path`); returns the truth. `hands`, `rests`, `variants`: as `render_frames`.

    Raises:
        OSError: the video could not be written, or does not read back with every frame.
        ValueError: `hands` is not one of `HANDS`.
    """
    out_path = Path(out_path)
    frames, truth, _ = render_frames(script, fps, size, light_changes, shakes, hands, rests, variants)
    write_video(frames, out_path, fps, size, truth.frames)
    truth.video = out_path.name
    save_truth(truth, truth_path or out_path.with_suffix(".json"))
    return truth


def write_video(frames: Iterable[np.ndarray], out_path: Path, fps: int, size: tuple[int, int], count: int
                ) -> None:
    """Write frames (BGR uint8, `size`) as an mp4 (`mp4v`), its folder made if need be.

    Raises:
        OSError: the video could not be written, or does not read back with `count` frames.
    """
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    writer = cv2.VideoWriter(str(out_path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise OSError(f"cannot write a video to {str(out_path)!r}")
    try:
        for frame in frames:
            writer.write(frame)
    finally:
        writer.release()
    capture = cv2.VideoCapture(str(out_path))
    counted = int(capture.get(cv2.CAP_PROP_FRAME_COUNT))
    capture.release()
    if counted != count:
        raise OSError(f"{str(out_path)!r} reads back {counted} frames, not the {count} written")


def read_frames(video: Path) -> Iterator[np.ndarray]:
    """The frames of a video file, BGR uint8.

    Raises:
        OSError: the file cannot be read as a video.
    """
    capture = cv2.VideoCapture(str(video))
    if not capture.isOpened():
        raise OSError(f"cannot read a video from {str(video)!r}")
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                return
            yield frame
    finally:
        capture.release()


def write_y4m(
    source: Path | Iterable[np.ndarray],
    out_path: Path,
    fps: int = 5,
    size: tuple[int, int] = (640, 480),
    source_fps: float | None = None,
) -> int:
    """Write frames (or a video file's frames) as a YUV4MPEG2 file (4:2:0, `C420jpeg`) for Chromium's
    `--use-file-for-fake-video-capture`, resized to `size` and thinned from `source_fps` (a file's own
    rate; frames given directly: `fps` unless said) to `fps`. Returns the number of frames written.

    Raises:
        ValueError: `size` is not even both ways, or a rate is not positive.
    """
    w, h = size
    if w % 2 or h % 2 or w <= 0 or h <= 0:
        raise ValueError(f"y4m size must be even and positive, got {w}x{h}")
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    if isinstance(source, (str, Path)):
        capture = cv2.VideoCapture(str(source))
        rate = source_fps or capture.get(cv2.CAP_PROP_FPS) or fps
        capture.release()
        frames: Iterable[np.ndarray] = read_frames(Path(source))
    else:
        rate = source_fps or fps
        frames = source
    if rate <= 0:
        raise ValueError(f"source rate must be positive, got {rate}")
    written = 0
    with open(out_path, "wb") as out:
        out.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode("ascii"))
        for index, frame in enumerate(frames):
            if written * rate / fps > index + 1e-9:  # keep frame k when k reaches the next output time
                continue
            small = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
            out.write(b"FRAME\n")
            out.write(cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420).tobytes())
            written += 1
    return written


# ---------------------------------------------------------------------------------------------- CLI


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WIDTHxHEIGHT, got {text!r}") from None
    if w < 64 or h < 64 or w % 2 or h % 2:
        raise argparse.ArgumentTypeError(f"size must be even and at least 64x64, got {text!r}")
    return w, h


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m datasets.game_video", description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="folder for game-NNN.mp4 and game-NNN.json")
    p.add_argument("--games", type=positive_int, default=1)
    p.add_argument("--seed", type=int, default=0, help="game i is simulate_game(seed * 1000 + i)")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--turns", type=positive_int, default=8, help="seat turns per game")
    p.add_argument("--start-rounds", type=int, default=0,
                   help="rounds played before the video starts (0: the game starts on a bare table)")
    p.add_argument("--fps", type=positive_int, default=10)
    p.add_argument("--size", type=_size, default=(1000, 750), help="WIDTHxHEIGHT (default 1000x750)")
    p.add_argument("--y4m", action="store_true", help="also write game-NNN.y4m for Chromium's fake camera")
    p.add_argument("--y4m-size", type=_size, default=(640, 480), help="WIDTHxHEIGHT of the y4m (640x480)")
    p.add_argument("--y4m-fps", type=positive_int, default=5, help="frames a second in the y4m (5)")
    p.add_argument("--hands", choices=HANDS, default="real",
                   help="real (default): bare arms of every skin (some like the cloth), dark, white and "
                        "coloured sleeves, now and then a hand resting still before it leaves; sleeve: the "
                        "first renders' sleeved arms, frames byte for byte")
    p.add_argument("--light-changes", type=_share, default=0.2,
                   help="the chance the light changes as the table settles after each hand (default 0.2)")
    p.add_argument("--variants", choices=VARIANTS, default="train",
                   help="editions: train (default); holdout: the reserved palette or font; dark_blue: blue "
                        "printed in navy (measuring only)")
    p.add_argument("--quiet", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.games):
        started = time.perf_counter()
        script = simulate_game(args.seed * 1000 + i, players=args.players, turns=args.turns,
                               start_rounds=max(0, args.start_rounds))
        video = args.out / f"game-{i:03d}.mp4"
        truth = render_game_video(script, video, fps=args.fps, size=args.size, hands=args.hands,
                                  variants=args.variants, light_changes=args.light_changes)
        if args.y4m:
            write_y4m(video, video.with_suffix(".y4m"), fps=args.y4m_fps, size=args.y4m_size)
        if not args.quiet:
            illegal = sum(not t["legal"] for t in truth.turns)
            print(f"{video}: {len(truth.turns)} turns ({illegal} illegal), {truth.frames} frames, "
                  f"{time.perf_counter() - started:.1f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
