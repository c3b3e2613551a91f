"""Annotators: draw a layout's verdicts on a copy of the frame.

`LayoutAnnotator().annotate(frame, layout)` boxes each set green (valid) or red (invalid) along the tiles'
own orientation, labels it with its number and what it is (`red 4-5-6 · 15`) or why it fails, marks
doubtful tiles amber with the proposed reading, outlines racks, and puts a one-line summary on top.
Shapes are drawn with OpenCV; text with Pillow's built-in font (nothing is downloaded). The frame given is
never changed.

`annotate(reading, set_valid)` is the app's lighter drawing of a `vision.photos.PhotoReading`: sets outlined
by the verdicts of the (possibly corrected) table text, doubtful tiles marked with their proposed reading.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from assistant.slots import UNREAD, count_sets
from vision.placed import Layout, PlacedTile, direction_vectors, reason_text

if TYPE_CHECKING:
    from vision.photos import Doubt, PhotoReading

# BGR colours (OpenCV order); text colours are converted where Pillow draws.
GREEN = (72, 170, 46)
RED = (60, 50, 220)
AMBER = (0, 170, 255)
SLATE = (170, 110, 60)
WHITE = (255, 255, 255)
INK = (40, 36, 32)
# The app's photo boxes (`annotate`) keep colours of their own.
PHOTO_VALID = (60, 170, 60)
PHOTO_INVALID = (40, 40, 220)
PHOTO_DOUBT = (0, 150, 255)
PHOTO_UNJUDGED = (150, 150, 150)


def _rgb(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return bgr[2], bgr[1], bgr[0]


def set_label(index: int, tiles: tuple[PlacedTile, ...], verdict: Any) -> str:
    """`3 · red 4-5-6 · 15` for a valid set, `3 · gap between 5 and 7` for an invalid one."""
    if len(tiles) == 1:
        return f"{index} · loose"
    if verdict is None:
        return f"{index} · not judged" if all(t.tile for t in tiles) else f"{index} · a tile was not read"
    if verdict.valid:
        readings = getattr(verdict, "readings", ())
        best = max(readings, key=lambda r: r.value) if readings else None
        what = best.describe() if best is not None else str(verdict.kind)
        return f"{index} · {what} · {verdict.value}"
    text = reason_text(getattr(verdict, "reasons", ())) or "not a set"
    return f"{index} · {text if len(text) <= 48 else text[:46] + '…'}"


def _box_angle(tiles: tuple[PlacedTile, ...], axis: str = "row") -> float:
    """The angle to box a set along: the line through its tiles (perspective shears a tile's own up away
    from square to its row), or the tile's own for a single tile."""
    if len(tiles) < 2:
        return tiles[0].angle
    centers = np.array([t.center for t in tiles])
    centered = centers - centers.mean(axis=0)
    # Principal direction of the centres = the row; the box's "right" runs along it.
    _, _, vt = np.linalg.svd(centered, full_matrices=False)
    dx, dy = vt[0]
    right_angle = float(np.degrees(np.arctan2(-dy, dx)))  # counter-clockwise, image y grows downwards
    mean_up = float(np.degrees(np.arctan2(np.mean([np.sin(np.radians(t.angle)) for t in tiles]),
                                          np.mean([np.cos(np.radians(t.angle)) for t in tiles]))))
    # A tile turned by `angle` has its right at `angle` counter-clockwise from the image's x axis: the row's
    # angle is the direction of its line, the way round nearer the tiles' own.
    candidates = [right_angle, right_angle + 180.0]
    if axis == "column":  # stacked top to bottom: the line runs along the tiles' up
        candidates = [right_angle + 90.0, right_angle - 90.0]
    return min(candidates, key=lambda a: abs((a - mean_up + 180.0) % 360.0 - 180.0))


def _hull_of_boxes(tiles: tuple[PlacedTile, ...], pad: float) -> np.ndarray:
    """The convex outline of the tiles' detected boxes, padded: a rack's tiles stand, so they are no flat
    rectangles at their angles, and a rack seen at a slant is no rectangle either."""
    points = np.array([(x, y) for t in tiles for x in (t.box[0] - pad, t.box[2] + pad)
                       for y in (t.box[1] - pad, t.box[3] + pad)], np.float32)
    return cv2.convexHull(points).reshape(-1, 2).astype(np.float64)


def _oriented_box(tiles: tuple[PlacedTile, ...], angle: float, pad: float) -> np.ndarray:
    """(4, 2) corners of the smallest box along `angle` holding every tile's corners, padded."""
    right, up = direction_vectors(angle)
    points = np.concatenate([t.corners() for t in tiles])
    u, v = points @ right, points @ up
    u0, u1, v0, v1 = u.min() - pad, u.max() + pad, v.min() - pad, v.max() + pad
    return np.array([right * a + up * b for a, b in ((u0, v1), (u1, v1), (u1, v0), (u0, v0))])


@dataclass
class LayoutAnnotator:
    """Draws a `Layout` on a BGR frame.

    Attributes:
        fill_alpha: opacity of the tint inside each set's box.
        show_summary: draw the one-line summary bar at the top.
    """

    fill_alpha: float = 0.16
    show_summary: bool = True

    def annotate(self, frame: np.ndarray, layout: Layout) -> np.ndarray:
        """A copy of `frame` (BGR uint8) with the layout's verdicts drawn on it."""
        canvas = np.ascontiguousarray(frame).copy()
        if canvas.ndim == 2:
            canvas = cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR)
        scale = max(canvas.shape[:2]) / 1000.0
        line = max(2, round(3 * scale))
        pad = max(3.0, 0.08 * layout.tile_height)
        labels: list[tuple[str, np.ndarray, tuple[int, int, int]]] = []

        tint = canvas.copy()
        boxes = []
        for index, tiles in enumerate(layout.table):
            verdict = layout.verdicts[index] if index < len(layout.verdicts) else None
            valid = verdict is not None and verdict.valid
            colour = GREEN if valid else RED
            axis = layout.set_axes[index] if index < len(layout.set_axes) else "row"
            box = _oriented_box(tiles, _box_angle(tiles, axis), pad)
            boxes.append((box, colour, len(tiles) == 1))
            cv2.fillPoly(tint, [np.round(box).astype(np.int32)], colour)
            labels.append((set_label(index + 1, tiles, verdict), box, colour))
        for rack_index, rack in enumerate(layout.racks):
            box = _hull_of_boxes(rack, pad)
            boxes.append((box, SLATE, False))
            known = [t.tile for t in rack if t.tile is not None]
            points = sum(t.points for t in known)
            jokers = sum(t.is_joker for t in known)
            text = f"rack {rack_index + 1} · {len(rack)} tiles · {points} points" + (
                f" + {jokers} joker{'s' if jokers > 1 else ''}" if jokers else "")
            labels.append((text, box, SLATE))
        cv2.addWeighted(tint, self.fill_alpha, canvas, 1 - self.fill_alpha, 0, dst=canvas)
        for box, colour, loose in boxes:
            pts = np.round(box).astype(np.int32)
            if loose:
                _dashed_polygon(canvas, pts, colour, line)
            else:
                cv2.polylines(canvas, [pts], True, colour, line, cv2.LINE_AA)

        doubtful = [t for t in layout.all_tiles() if t.doubtful]
        for tile in doubtful:
            cv2.polylines(canvas, [np.round(tile.corners()).astype(np.int32)], True, AMBER,
                          max(1, line - 1), cv2.LINE_AA)
        return self._draw_text(canvas, layout, labels, doubtful, scale)

    def _draw_text(self, canvas: np.ndarray, layout: Layout,
                   labels: list[tuple[str, np.ndarray, tuple[int, int, int]]],
                   doubtful: list[PlacedTile], scale: float) -> np.ndarray:
        image = Image.fromarray(cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB))
        draw = ImageDraw.Draw(image)
        size = max(12, round(17 * scale))
        font = ImageFont.load_default(size=size)
        small = ImageFont.load_default(size=max(11, round(14 * scale)))
        height, width = canvas.shape[:2]
        summary_lines = _wrap(self.summary(layout).split(" · "), draw, font, width - size) \
            if self.show_summary else []
        line_height = round(size * 1.25)
        top_margin = size + line_height * len(summary_lines) if summary_lines else 0
        # Rectangles to keep clear: every set's and rack's box, then each label as it is placed.
        taken = [(b[:, 0].min(), b[:, 1].min(), b[:, 0].max(), b[:, 1].max()) for _, b, _ in labels]
        for text, box, colour in labels:
            x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
            w, h = x1 - x0 + size, y1 - y0 + size // 2
            x, y = _place_label(box, w, h, taken, width, height, top_margin)
            taken.append((x, y, x + w, y + h))
            draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 3, fill=_rgb(colour))
            draw.text((x + size // 2, y + size // 4 - y0), text, font=font, fill=_rgb(WHITE))

        for tile in doubtful:
            corner = tile.corners()[1]
            badge = max(9, round(11 * scale))
            cx, cy = float(corner[0]), float(corner[1])
            draw.ellipse((cx - badge, cy - badge, cx + badge, cy + badge), fill=_rgb(AMBER),
                         outline=_rgb(WHITE), width=max(1, round(scale * 1.5)))
            draw.text((cx, cy), "?", font=small, fill=_rgb(INK), anchor="mm")
            if tile.suggestion is not None:
                # The proposed reading in a pill on the tile's lower part: "maybe r6" (the raw reading
                # stays in the set's label and verdict).
                text = f"{tile.suggestion}?"
                x1, y1, x2, y2 = tile.box
                px, py = (x1 + x2) / 2, y2 - 0.22 * (y2 - y1)
                bx0, by0, bx1, by1 = draw.textbbox((px, py), text, font=font, anchor="mm")
                pad = max(3, round(3 * scale))
                draw.rounded_rectangle((bx0 - pad, by0 - pad, bx1 + pad, by1 + pad), radius=pad + 2,
                                       fill=_rgb(AMBER), outline=_rgb(INK), width=1)
                draw.text((px, py), text, font=font, fill=_rgb(INK), anchor="mm")

        if summary_lines:
            y0 = draw.textbbox((0, 0), summary_lines[0], font=font)[1]
            bar = Image.new("RGBA", image.size, (0, 0, 0, 0))
            ImageDraw.Draw(bar).rectangle((0, 0, width, top_margin - y0), fill=(20, 20, 20, 170))
            image = Image.alpha_composite(image.convert("RGBA"), bar).convert("RGB")
            text_draw = ImageDraw.Draw(image)
            for k, text in enumerate(summary_lines):
                text_draw.text((size // 2, size // 2 - y0 + k * line_height), text, font=font,
                               fill=(255, 255, 255))
        return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)

    @staticmethod
    def summary(layout: Layout) -> str:
        """`5 sets: 2 valid, 3 invalid (3 single tiles) · 1 rack · 1 doubtful tile`: sets counted as the
        CLI and the app count them (`assistant.slots.count_sets`: a tile lying alone is a set of one)."""
        verdicts = list(layout.verdicts or [None] * len(layout.table))
        valid = [None if v is None else bool(v.valid) for v in verdicts]
        # A loose tile is never a valid set, judged or not.
        valid = [False if len(s) == 1 else v for s, v in zip(layout.table, valid, strict=False)]
        parts = [count_sets(layout.table, valid).describe()]
        if layout.racks:
            parts.append(f"{len(layout.racks)} rack{'s' if len(layout.racks) > 1 else ''}")
        doubtful = sum(t.doubtful for t in layout.all_tiles())
        if doubtful:
            parts.append(f"{doubtful} doubtful tile{'s' if doubtful > 1 else ''}")
        if layout.suggestions:
            count = len(layout.suggestions)
            parts.append(f"{count} reading{'s' if count > 1 else ''} to check")
        parts.extend(layout.problems)
        return " · ".join(parts)


def _wrap(parts: list[str], draw: ImageDraw.ImageDraw, font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
          max_width: float) -> list[str]:
    """The summary's parts joined with " · " into lines no wider than `max_width` (a part never split)."""
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and draw.textlength(joined, font=font) <= max_width:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def _place_label(box: np.ndarray, w: float, h: float, taken: list[tuple[float, float, float, float]],
                 width: int, height: int, top_margin: float) -> tuple[float, float]:
    """Where a `w x h` label of a set's box covers least of other boxes and labels: above, below, beside."""
    left, top = float(box[:, 0].min()), float(box[:, 1].min())
    right, bottom = float(box[:, 0].max()), float(box[:, 1].max())
    own = (left, top, right, bottom)
    candidates = [
        (left, top - h - 3), (left, bottom + 3), (right - w, top - h - 3), (right - w, bottom + 3),
        (right + 3, top), (left - w - 3, top), (left, top - 2 * h - 6), (left, bottom + h + 6),
    ]
    best: tuple[float, float, float] | None = None
    for order, (x, y) in enumerate(candidates):
        x = float(np.clip(x, 2, max(2, width - w - 2)))
        y = float(np.clip(y, top_margin + 2, max(top_margin + 2, height - h - 2)))
        covered = sum(
            max(0.0, min(x + w, bx1) - max(x, bx0)) * max(0.0, min(y + h, by1) - max(y, by0))
            for bx0, by0, bx1, by1 in taken if (bx0, by0, bx1, by1) != own
        )
        # The label of a set should not cover the set itself either, but that matters less than others.
        own_cover = max(0.0, min(x + w, right) - max(x, left)) * max(0.0, min(y + h, bottom) - max(y, top))
        covered += 0.3 * own_cover
        score = covered + order * 1e-3
        if best is None or score < best[0]:
            best = (score, x, y)
    assert best is not None
    return best[1], best[2]


def _dashed_polygon(canvas: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], width: int) -> None:
    dash = 4 * width
    for a, b in zip(pts, np.roll(pts, -1, axis=0), strict=True):
        length = float(np.linalg.norm(b - a))
        steps = max(1, int(length // dash))
        for k in range(0, steps, 2):
            p = a + (b - a) * (k / steps)
            q = a + (b - a) * (min(k + 1, steps) / steps)
            cv2.line(canvas, tuple(int(v) for v in p), tuple(int(v) for v in q), colour, width, cv2.LINE_AA)


# The formats offered when a file's suffix is one OpenCV cannot write (those of them this OpenCV writes).
_OFFERED_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")


def can_write(path: str | Path) -> bool:
    """Whether OpenCV has a writer for the format the path's suffix names."""
    try:
        return bool(cv2.haveImageWriter(str(path)))
    except cv2.error:
        return False


def writable_suffixes() -> list[str]:
    """The usual image suffixes `save_annotated` can write."""
    return [suffix for suffix in _OFFERED_SUFFIXES if can_write(f"image{suffix}")]


MAX_DRAWN_PIXELS = 50_000_000
"""A larger frame is drawn shrunk to this many pixels: drawing copies the frame some six times (a 200
megapixel photo took 5.4 GB and 17 s at full size); a 48 MP phone photo is still drawn whole."""


def scaled_layout(layout: Layout, factor: float) -> Layout:
    """`layout` with every tile's box, centre and size (and the scene's tile height) times `factor`."""

    def scaled(tile: PlacedTile) -> PlacedTile:
        return replace(
            tile,
            box=tuple(v * factor for v in tile.box),  # type: ignore[arg-type]
            center=(tile.center[0] * factor, tile.center[1] * factor),
            size=(tile.size[0] * factor, tile.size[1] * factor),
        )

    return replace(
        layout,
        table=tuple(tuple(scaled(t) for t in tiles) for tiles in layout.table),
        racks=tuple(tuple(scaled(t) for t in rack) for rack in layout.racks),
        tile_height=layout.tile_height * factor,
    )


def save_annotated(path: str, frame: np.ndarray, layout: Layout) -> None:
    """Write the annotated frame as PNG (or any format OpenCV knows from the suffix, `can_write`); a frame
    of more than `MAX_DRAWN_PIXELS` is drawn shrunk to that size.

    Raises:
        OSError: the file could not be written.
    """
    if not can_write(path):
        raise OSError(
            f"could not write the annotated image to {path!r}: no image format for its suffix "
            f"(use {', '.join(writable_suffixes())})"
        )
    height, width = frame.shape[:2]
    if width * height > MAX_DRAWN_PIXELS:
        factor = math.sqrt(MAX_DRAWN_PIXELS / (width * height))
        size = (max(1, int(width * factor)), max(1, int(height * factor)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
        layout = scaled_layout(layout, size[0] / width)
    try:
        written = cv2.imwrite(path, LayoutAnnotator().annotate(frame, layout))
    except cv2.error as error:
        raise OSError(f"could not write the annotated image to {path!r}: {error.err}") from error
    if not written:
        raise OSError(f"could not write the annotated image to {path!r}")


def annotate(
    reading: PhotoReading,
    set_valid: Sequence[bool | None],
    doubtful: Sequence[Doubt] | None = None,
) -> np.ndarray:
    """RGB copy of the photo: each set outlined green (valid), red (invalid) or grey (not judged) along its
    own slant and numbered as in the verdict list; the `doubtful` tiles (default: every tile the reader
    doubted) outlined orange with the suggested reading."""
    canvas = reading.frame.copy()
    scale = max(1.0, max(canvas.shape[:2]) / 900)
    thickness = max(2, round(2 * scale))
    for set_index, tiles in enumerate(reading.layout.table):
        outline = _outline([placed.corners() for placed in tiles], pad=4 * scale)
        valid = set_valid[set_index] if set_index < len(set_valid) else None
        color = PHOTO_UNJUDGED if valid is None else PHOTO_VALID if valid else PHOTO_INVALID
        cv2.polylines(canvas, [outline], True, color, thickness, cv2.LINE_AA)
        top = outline[np.argmin(outline[:, 1] + 0.25 * outline[:, 0])]
        _label(canvas, str(set_index + 1), (int(top[0]), int(top[1])), color, scale)
    if doubtful is None:
        doubtful = reading.doubted()
    for doubt in doubtful:
        placed = reading.layout.table[doubt.set_index][doubt.position]
        corners = _outline([placed.corners()], pad=0)
        cv2.polylines(canvas, [corners], True, PHOTO_DOUBT, thickness, cv2.LINE_AA)
        guess = doubt.suggestion or doubt.read
        bottom = corners[np.argmax(corners[:, 1])]
        _label(
            canvas,
            f"{guess}?" if guess else UNREAD,
            (int(bottom[0]), int(bottom[1] + 18 * scale)),
            PHOTO_DOUBT,
            scale,
        )
    for rack in reading.layout.racks:
        for placed in rack:
            outline = _outline([placed.corners()], pad=0)
            cv2.polylines(canvas, [outline], True, PHOTO_UNJUDGED, max(1, thickness // 2))
    return cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB)


def _outline(corner_sets: Sequence[np.ndarray], pad: float) -> np.ndarray:
    """The smallest rotated rectangle around the given tile corners, grown by `pad` pixels, as int points."""
    points = np.concatenate([np.asarray(c, dtype=np.float32).reshape(-1, 2) for c in corner_sets])
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    return cv2.boxPoints(((cx, cy), (w + 2 * pad, h + 2 * pad), angle)).astype(np.int32)


def _label(
    canvas: np.ndarray, text: str, corner: tuple[int, int], color: tuple[int, int, int], scale: float
) -> None:
    font_scale = 0.6 * scale
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, max(1, round(scale)))
    x, y = max(0, corner[0]), max(height + 4, corner[1])
    cv2.rectangle(canvas, (x, y - height - 6), (x + width + 6, y), color, -1)
    cv2.putText(
        canvas,
        text,
        (x + 3, y - 4),
        cv2.FONT_HERSHEY_SIMPLEX,
        font_scale,
        (255, 255, 255),
        max(1, round(scale)),
        cv2.LINE_AA,
    )
