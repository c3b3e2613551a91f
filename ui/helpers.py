"""What the Streamlit app needs beyond the rules engine: photos in, layouts out, verdicts drawn, turns.

The app keeps the table as text in the contract's notation, with `?` for a tile whose face was not read
(`vision.layout.PlacedTile.token`). A photo's `Layout` is kept beside it so the picture can be boxed with the
verdicts of the corrected text as long as the sets keep their shape.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from assistant.errors import InputError
from assistant.tiles import ALL_FACES, JOKER, Tile, format_tiles, tile_from_class_id
from vision.frames import CorruptImageError, ImageError, decode_image

if TYPE_CHECKING:
    from assistant.rules import Rules
    from assistant.sets import SetVerdict
    from vision.layout import Layout

MAX_PHOTO_BYTES = 25 * 1024 * 1024
MIN_PHOTO_SIDE = 32
BLANK_FRAME_STD = 2.0
EXAMPLE_PHOTO = Path(__file__).resolve().parents[1] / "vision" / "examples" / "table.jpg"
UNREAD = "?"
TILE_CHOICES: tuple[Tile, ...] = (*ALL_FACES, JOKER)

Slot = Tile | None
"""A place on the table: the tile there, or None where its face was not read yet."""


class PhotoError(InputError):
    """A photo the app cannot use: the message says what is wrong and what to do."""


# Photos ----------------------------------------------------------------------------------------------------


def decode_photo(data: bytes | None, name: str = "photo") -> np.ndarray:
    """BGR pixels of an uploaded or camera photo.

    Raises:
        PhotoError: no data, too large, not an image, or a blank frame (camera covered or disconnected).
    """
    if not data:
        raise PhotoError(f"{name} is empty (0 bytes): the camera sent no picture; take the photo again")
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoError(
            f"{name} is {len(data) / 1024 / 1024:.1f} MB; photos up to {MAX_PHOTO_BYTES // 1024 // 1024} MB "
            "are read: use the camera's normal size"
        )
    if not _looks_like_image(data):
        raise PhotoError(f"{name} is not a picture (JPEG, PNG or WebP expected)")
    # One decoder for files and photos: it refuses oversized images from the header, before decoding.
    try:
        frame = decode_image(data, name)
    except CorruptImageError as error:
        raise PhotoError(f"{name} is damaged: it starts like a picture but cannot be decoded") from error
    except ImageError as error:
        raise PhotoError(str(error)) from error
    height, width = frame.shape[:2]
    if min(width, height) < MIN_PHOTO_SIDE:
        raise PhotoError(f"{name} is only {width}x{height} pixels: too small to see tiles")
    if float(frame.std()) < BLANK_FRAME_STD:
        raise PhotoError(f"{name} is a blank frame (one flat colour): is the camera covered or disconnected?")
    return frame


def _looks_like_image(data: bytes) -> bool:
    signatures = (b"\xff\xd8\xff", b"\x89PNG", b"RIFF", b"GIF8", b"BM", b"II*\x00", b"MM\x00*")
    return data.startswith(signatures)


def load_example_photo() -> bytes:
    """The bundled example: a rendered table scene.

    Raises:
        PhotoError: the example is not shipped.
    """
    if not EXAMPLE_PHOTO.is_file():
        raise PhotoError(f"the bundled example {EXAMPLE_PHOTO} is missing; type the layout or upload a photo")
    return EXAMPLE_PHOTO.read_bytes()


def load_tile_reader() -> Any:
    """The shipped `vision.reader.TileReader` (loaded once per process by the detector module).

    Raises:
        vision.onnx_models.ModelLoadError: the model files are missing or broken.
    """
    from vision.reader import load_reader

    return load_reader()


@dataclass
class PhotoReading:
    """One photo as the app shows it: the frame, the grouped layout, and each detection's alternatives."""

    frame: np.ndarray
    layout: Layout
    alternatives: dict[int, tuple[Tile, ...]] = field(default_factory=dict)

    @property
    def table_text(self) -> str:
        return format_slots([[placed.tile for placed in tiles] for tiles in self.layout.table])

    @property
    def rack_slots(self) -> list[Slot]:
        return [placed.tile for rack in self.layout.racks for placed in rack]

    @property
    def tiles_seen(self) -> int:
        return len(self.layout.all_tiles())


def read_photo(frame: np.ndarray, reader: Any, rules: Rules) -> PhotoReading:
    """Find and read the tiles in `frame`, group them into sets and racks, and keep runner-up readings."""
    from vision.layout import rebuild

    detections = reader.read(frame)
    height, width = frame.shape[:2]
    layout = rebuild(detections, rules, image_size=(width, height), frame=frame)
    alternatives: dict[int, tuple[Tile, ...]] = {}
    topk = np.asarray(detections.topk_class_ids)
    for index in range(len(detections)):
        if topk.ndim == 2 and topk.shape[1]:
            alternatives[index] = tuple(tile_from_class_id(int(c)) for c in topk[index] if int(c) >= 0)
    return PhotoReading(frame=frame, layout=layout, alternatives=alternatives)


# The layout as text ----------------------------------------------------------------------------------------

_SET_SPLIT = re.compile(r"[|\n;]")
_TILE_SPLIT = re.compile(r"[\s,]+")


def parse_slots(text: str) -> list[list[Slot]]:
    """`parse_layout` that also accepts `?` for a tile not read yet.

    Raises:
        NotationError: a token is unreadable.
    """
    sets: list[list[Slot]] = []
    for part in _SET_SPLIT.split(text):
        tokens = [token for token in _TILE_SPLIT.split(part.strip()) if token]
        if tokens:
            sets.append([None if token == UNREAD else Tile.parse(token) for token in tokens])
    return sets


def format_slots(sets: Sequence[Sequence[Slot]]) -> str:
    return " | ".join(" ".join(UNREAD if slot is None else str(slot) for slot in tiles) for tiles in sets)


def unread_count(sets: Sequence[Sequence[Slot]]) -> int:
    return sum(slot is None for tiles in sets for slot in tiles)


def known_sets(sets: Sequence[Sequence[Slot]]) -> list[list[Tile]]:
    """The sets with every tile read. Raises: InputError naming how many tiles are still unread."""
    missing = unread_count(sets)
    if missing:
        raise InputError(f"{missing} tile(s) not read yet (shown as ?): fix them before judging")
    return [[slot for slot in tiles if slot is not None] for tiles in sets]


def replace_slot(text: str, set_index: int, position: int, tile: Tile | None) -> str:
    """The layout with one tile replaced, or removed when `tile` is None (an emptied set disappears)."""
    sets = parse_slots(text)
    if not (0 <= set_index < len(sets) and 0 <= position < len(sets[set_index])):
        raise InputError(f"there is no tile {position + 1} in set {set_index + 1}")
    if tile is None:
        del sets[set_index][position]
    else:
        sets[set_index][position] = tile
    return format_slots([tiles for tiles in sets if tiles])


def same_shape(sets: Sequence[Sequence[Slot]], layout: Layout) -> bool:
    """The text still has the photo's sets, tile for tile in place (so the photo's boxes still apply)."""
    return [len(tiles) for tiles in sets] == [len(tiles) for tiles in layout.table]


@dataclass(frozen=True)
class Doubt:
    """A tile whose reading is not trusted, still as read: where it is, and the reading proposed instead."""

    set_index: int
    position: int
    read: Tile | None
    suggestion: Tile | None
    note: str | None

    def describe(self) -> str:
        where = f"set {self.set_index + 1}, tile {self.position + 1}"
        read = "not read" if self.read is None else f"reads {self.read}"
        maybe = f", maybe {self.suggestion}" if self.suggestion is not None else ""
        return f"{where} {read}{maybe}"


def doubts(reading: PhotoReading | None, sets: Sequence[Sequence[Slot]]) -> list[Doubt]:
    """Doubtful tiles of the photo that nobody has changed yet (a changed tile counts as checked)."""
    if reading is None or not same_shape(sets, reading.layout):
        return []
    found = []
    for set_index, tiles in enumerate(reading.layout.table):
        for position, placed in enumerate(tiles):
            if (placed.doubtful or placed.tile is None) and sets[set_index][position] == placed.tile:
                found.append(Doubt(set_index, position, placed.tile, placed.suggestion, placed.note))
    return found


def choices_for(
    reading: PhotoReading | None, layout_shape_ok: bool, set_index: int, position: int
) -> list[Tile]:
    """Readings to offer first for one tile: the correction's suggestion, then the classifier's runners-up."""
    if reading is None or not layout_shape_ok:
        return []
    placed = reading.layout.table[set_index][position]
    offered: list[Tile] = []
    for tile in (placed.suggestion, *reading.alternatives.get(placed.index, ())):
        if tile is not None and tile not in offered:
            offered.append(tile)
    return offered


def set_label(verdict: SetVerdict) -> str:
    """`red 5-6-7 · 18 points` for a valid set, the reason for an invalid one."""
    if verdict.valid:
        readings = getattr(verdict, "readings", ()) or ()
        described = readings[0].describe() if readings else (verdict.kind or "set")
        jokers = [str(j) for j in verdict.jokers if j is not None]
        joker_text = f" · joker as {', '.join(jokers)}" if jokers else ""
        return f"{described} · {verdict.value} points{joker_text}"
    reasons = [str(getattr(r, "text", r)) for r in verdict.reasons]
    if not reasons:
        return "not a valid set"
    # A badly misread set can break many rules at once; the first says enough on a phone.
    return reasons[0] + (f" (+{len(reasons) - 1} more)" if len(reasons) > 1 else "")


# Pictures --------------------------------------------------------------------------------------------------

GREEN = (60, 170, 60)
RED = (40, 40, 220)
ORANGE = (0, 150, 255)
GREY = (150, 150, 150)


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
        color = GREY if valid is None else GREEN if valid else RED
        cv2.polylines(canvas, [outline], True, color, thickness, cv2.LINE_AA)
        top = outline[np.argmin(outline[:, 1] + 0.25 * outline[:, 0])]
        _label(canvas, str(set_index + 1), (int(top[0]), int(top[1])), color, scale)
    if doubtful is None:
        doubtful = [
            Doubt(s, p, placed.tile, placed.suggestion, placed.note)
            for s, tiles in enumerate(reading.layout.table)
            for p, placed in enumerate(tiles)
            if placed.doubtful or placed.tile is None
        ]
    for doubt in doubtful:
        placed = reading.layout.table[doubt.set_index][doubt.position]
        corners = _outline([placed.corners()], pad=0)
        cv2.polylines(canvas, [corners], True, ORANGE, thickness, cv2.LINE_AA)
        guess = doubt.suggestion or doubt.read
        bottom = corners[np.argmax(corners[:, 1])]
        _label(
            canvas,
            f"{guess}?" if guess else UNREAD,
            (int(bottom[0]), int(bottom[1] + 18 * scale)),
            ORANGE,
            scale,
        )
    for rack in reading.layout.racks:
        for placed in rack:
            cv2.polylines(canvas, [_outline([placed.corners()], pad=0)], True, GREY, max(1, thickness // 2))
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


# Turns -----------------------------------------------------------------------------------------------------


def added_tiles(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> list[Tile]:
    """Tiles on the table after the turn that were not there before (from a rack), in table order."""
    added = Counter(t for s in after for t in s) - Counter(t for s in before for t in s)
    in_order = []
    for tile in (t for s in after for t in s):
        if added[tile]:
            added[tile] -= 1
            in_order.append(tile)
    return in_order


@dataclass(frozen=True)
class PutBack:
    """How to undo an illegal turn: tiles back to the rack, the sets to rebuild, the sets to take apart."""

    to_rack: tuple[Tile, ...]
    rebuild: tuple[tuple[Tile, ...], ...]
    take_apart: tuple[tuple[Tile, ...], ...]

    def lines(self) -> list[str]:
        out = []
        if self.to_rack:
            out.append(f"Take back to the rack: {format_tiles(self.to_rack)}")
        for tiles in self.take_apart:
            out.append(f"Take apart: {format_tiles(tiles)}")
        for tiles in self.rebuild:
            out.append(f"Put back as it was: {format_tiles(tiles)}")
        if not out:
            out.append("The table is already as it was.")
        return out


def put_back(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> PutBack:
    """Instructions that turn the table `after` back into the agreed table `before`."""
    before_sets = Counter(tuple(s) for s in before)
    after_sets = Counter(tuple(s) for s in after)
    rebuild = [s for s in (before_sets - after_sets).elements()]
    take_apart = [s for s in (after_sets - before_sets).elements()]
    return PutBack(tuple(added_tiles(before, after)), tuple(rebuild), tuple(take_apart))


def time_used(started_at: float, ended_at: float) -> float:
    return max(0.0, ended_at - started_at)


@dataclass(frozen=True)
class JudgedTurn:
    """A turn's verdict with the preset's turn timer applied on top of the rules engine's."""

    legal: bool
    reasons: tuple[str, ...]
    penalty_tiles: int


def judge_time(verdict: Any, started_at: float, ended_at: float, rules: Rules) -> JudgedTurn:
    """Over the time limit, the turn fails like an invalid move: table restored, penalty tiles drawn
    (004_*.txt: 1-minute turns, 3 penalty tiles; 002_*.txt likewise)."""
    reasons = [str(getattr(reason, "text", reason)) for reason in verdict.reasons]
    used = time_used(started_at, ended_at)
    late = rules.turn_seconds is not None and used > rules.turn_seconds
    if late:
        reasons.append(f"time is up: {used:.0f} s used, {rules.turn_seconds} s allowed")
    legal = bool(verdict.legal) and not late
    penalty = 0 if legal else (verdict.penalty_tiles or rules.failed_move_penalty_tiles)
    return JudgedTurn(legal, tuple(reasons), penalty)


def new_set_indexes(agreed: Sequence[Sequence[Slot]], now: Sequence[Sequence[Slot]]) -> list[int]:
    """Indexes of the sets on the table now that were not on the agreed table (in the same form)."""
    remaining = Counter(tuple(s) for s in agreed)
    new = []
    for index, tiles in enumerate(now):
        key = tuple(tiles)
        if remaining[key]:
            remaining[key] -= 1
        else:
            new.append(index)
    return new


def meld_lines(meld: Any) -> list[str]:
    """One line per set of an opening meld: its value, and what each joker counts as."""
    lines = []
    for verdict in meld.sets:
        if not verdict.valid:
            lines.append(f":red[:material/cancel:] {format_tiles(verdict.tiles)}: {verdict.reason}")
            continue
        jokers = [j for j in verdict.jokers if j is not None]
        counted = "; ".join(f"joker counts as {j} ({j.number} points)" for j in jokers)
        lines.append(
            f":green[:material/check_circle:] {format_tiles(verdict.tiles)} = {verdict.value} points"
            + (f" · {counted}" if counted else "")
        )
    lines.extend(f":red[:material/cancel:] {problem}" for problem in meld.problems)
    return lines


def turn_rows(turns: Sequence[Any], names: dict[int, str]) -> list[dict[str, Any]]:
    return [
        {
            "turn": t.number,
            "player": names.get(t.seat, "?"),
            "legal": "yes" if t.legal else "no",
            "action": t.action,
            "played": t.played,
            "seconds": round(time_used(t.started_at, t.ended_at)),
            "why not": "; ".join(t.reasons),
        }
        for t in reversed(turns)
    ]


def round_preview_rows(result: Any) -> list[dict[str, Any]]:
    return [
        {
            "player": name,
            "rack value": result.rack_values[name],
            "score": result.scores[name],
            "won": "yes" if name in result.winners else "",
        }
        for name in result.scores
    ]


def ledger_of(rounds: Sequence[Any], names: Sequence[str], rules: Rules) -> Any:
    """The match ledger rebuilt from stored rounds (`storage.RoundRecord`)."""
    from assistant.scoring import Ledger, RoundResult

    ledger = Ledger(players=tuple(names), rules=rules)
    for record in rounds:
        ledger.rounds.append(
            RoundResult(
                blocked=record.blocked,
                winners=tuple(s.name for s in record.scores if s.winner),
                rack_values={s.name: s.rack_value for s in record.scores},
                scores={s.name: s.score for s in record.scores},
            )
        )
    return ledger


def standings_rows(rounds: Sequence[Any], names: Sequence[str], rules: Rules) -> list[dict[str, Any]]:
    """Best first under the match's ranking (total, or games won); the leaders, tied or not, are all first."""
    ledger = ledger_of(rounds, names, rules)
    leaders = set(ledger.leaders())
    return [
        {"place": 1 if name in leaders else index, "player": name, "total": total, "games won": wins}
        for index, (name, total, wins) in enumerate(ledger.standings(), start=1)
    ]


def round_rows(rounds: Sequence[Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """One row per round: its number, whether it was blocked, and each player's score."""
    rows = []
    for record in rounds:
        scores = {score.name: score.score for score in record.scores}
        rows.append(
            {
                "round": record.number,
                "blocked": "yes" if record.blocked else "",
                **{n: scores.get(n, 0) for n in names},
            }
        )
    return rows


def running_totals(rounds: Sequence[Any], names: Sequence[str]) -> dict[str, list[int]]:
    """Cumulative score of each player after each round, with a `round` column for the chart's x axis."""
    totals = dict.fromkeys(names, 0)
    series: dict[str, list[int]] = {"round": [], **{name: [] for name in names}}
    for record in rounds:
        series["round"].append(record.number)
        for score in record.scores:
            totals[score.name] = totals.get(score.name, 0) + score.score
        for name in names:
            series[name].append(totals[name])
    return series


class LatestFrame:
    """The newest video frame, handed from the stream's thread to the script (thread-safe)."""

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None

    def put(self, frame: np.ndarray) -> None:
        with self._lock:
            self._frame = frame

    def jpeg(self) -> bytes | None:
        """The newest frame as JPEG bytes, or None before the first frame."""
        with self._lock:
            frame = self._frame
        if frame is None:
            return None
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        return encoded.tobytes() if ok else None


def live_video_available() -> bool:
    import importlib.util

    return (
        importlib.util.find_spec("streamlit_webrtc") is not None
        and importlib.util.find_spec("av") is not None
    )


def live_overlay(frame: np.ndarray, reader: Any, rules: Rules) -> np.ndarray:
    """One video frame (BGR) with the sets boxed by verdict; a frame that cannot be read comes back as is."""
    from assistant.sets import check_set

    try:
        reading = read_photo(frame, reader, rules)
    except Exception:  # a failing frame must not stop the stream
        return frame
    sets = [[placed.tile for placed in tiles] for tiles in reading.layout.table]
    valid = [None if any(t is None for t in s) else check_set(s, rules).valid for s in sets]  # type: ignore[arg-type]
    return cv2.cvtColor(annotate(reading, valid), cv2.COLOR_RGB2BGR)
