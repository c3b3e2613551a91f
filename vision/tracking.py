"""Stability over video: a vote over recent frames per tile position, and a "table settled" signal.

A hand passing over the table hides tiles for a few frames and a glare flips a reading for one; neither
should change the verdict. `TileVote` keeps a track per tile position and reports, each frame, the tiles
seen in at least half of the recent frames with the reading most of those frames agree on. `SettleWatch`
says when the voted table has stayed the same, with every tile in view, for `frames` frames in a row: the
moment the app can take a before/after snapshot of a turn.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.classifier import CropReadings, TileClassifier
from vision.crops import cut_crops
from vision.detections import UNKNOWN_CLASS, Detections, box_iou
from vision.layout import rebuild
from vision.placed import Layout
from vision.reader import video_reader

if TYPE_CHECKING:
    from assistant.rules import Rules


@dataclass
class _Track:
    center: np.ndarray
    box: np.ndarray
    angle: float
    height: float
    seen: deque[int | None]  # class id per recent frame (UNKNOWN_CLASS read-less, None unseen)
    scores: deque[dict[int, float]]
    detector_score: float = 0.0


@dataclass
class TileVote:
    """Per-position vote over the last `window` frames.

    Attributes:
        window: frames remembered per tile.
        min_share: share of those frames a tile must be seen in to be reported.
        match_radius: how far (in tile heights) a detection may be from a track to continue it.
    """

    window: int = 8
    min_share: float = 0.5
    match_radius: float = 0.5
    _tracks: list[_Track] = field(default_factory=list, repr=False)
    _frames: int = field(default=0, repr=False)
    last_all_seen: bool = field(default=True, repr=False)

    def update(self, detections: Detections) -> Detections:
        """Add one frame; returns the voted tiles (positions from their latest sighting)."""
        self._frames += 1
        xyxy = np.asarray(detections.xyxy, dtype=np.float64)
        centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
        heights = np.maximum(xyxy[:, 3] - xyxy[:, 1], xyxy[:, 2] - xyxy[:, 0])
        matched_tracks: set[int] = set()
        matched_dets: set[int] = set()
        if self._tracks and len(detections):
            track_centers = np.array([t.center for t in self._tracks])
            dist = np.linalg.norm(track_centers[:, None] - centers[None], axis=2)
            radius = self.match_radius * np.maximum(
                np.array([t.height for t in self._tracks])[:, None], heights[None]
            )
            # Greedy nearest pairs first: tiles in a row are a tile apart, so this does not cross over.
            for flat in np.argsort(dist, axis=None):
                ti, di = np.unravel_index(flat, dist.shape)
                if dist[ti, di] > radius[ti, di]:
                    break
                if ti in matched_tracks or di in matched_dets:
                    continue
                matched_tracks.add(int(ti))
                matched_dets.add(int(di))
                self._observe(self._tracks[ti], detections, int(di), xyxy, centers, heights)
        for ti, track in enumerate(self._tracks):
            if ti not in matched_tracks:
                track.seen.append(None)
                track.scores.append({})
        for di in range(len(detections)):
            if di not in matched_dets:
                track = _Track(centers[di], xyxy[di], 0.0, float(heights[di]),
                               deque(maxlen=self.window), deque(maxlen=self.window))
                self._observe(track, detections, di, xyxy, centers, heights)
                self._tracks.append(track)
        self._tracks = [t for t in self._tracks if any(s is not None for s in t.seen)]
        reported = [t for t in self._tracks if self._is_present(t)]
        self.last_all_seen = all(t.seen[-1] is not None for t in reported)
        return self._as_detections(reported, detections)

    def _is_present(self, track: _Track) -> bool:
        sightings = sum(s is not None for s in track.seen)
        frames = min(self.window, self._frames)
        return sightings >= max(1.0, self.min_share * frames)

    @staticmethod
    def _observe(track: _Track, detections: Detections, di: int, xyxy: np.ndarray, centers: np.ndarray,
                 heights: np.ndarray) -> None:
        track.center, track.box, track.height = centers[di], xyxy[di], float(heights[di])
        track.angle = float(detections.angle[di])
        track.detector_score = float(detections.confidence[di])
        track.seen.append(int(detections.class_id[di]))
        scores: dict[int, float] = {}
        ids, vals = detections.topk_class_ids, detections.topk_scores
        if ids.ndim == 2 and ids.shape[1]:
            for cid, score in zip(ids[di], vals[di], strict=True):
                if cid != UNKNOWN_CLASS:
                    scores[int(cid)] = scores.get(int(cid), 0.0) + float(score)
        elif detections.class_id[di] != UNKNOWN_CLASS:
            scores[int(detections.class_id[di])] = float(detections.class_confidence[di])
        track.scores.append(scores)

    def _as_detections(self, tracks: list[_Track], latest: Detections) -> Detections:
        """The voted tiles, with the racks the detector found in the `latest` frame (the voted tiles stand
        where they were last seen)."""
        if not tracks:
            return Detections.empty()
        k = 3
        ids = np.full((len(tracks), k), UNKNOWN_CLASS, dtype=np.int64)
        scores = np.zeros((len(tracks), k), dtype=np.float32)
        for row, track in enumerate(tracks):
            total: Counter[int] = Counter()
            for frame_scores in track.scores:
                total.update(frame_scores)
            sightings = max(1, sum(s is not None for s in track.seen))
            # The vote: summed scores over the frames the tile was seen in, as a mean score.
            for col, (cid, score) in enumerate(total.most_common(k)):
                ids[row, col], scores[row, col] = cid, score / sightings
        voted = Detections(
            xyxy=np.array([t.box for t in tracks]),
            confidence=np.array([t.detector_score for t in tracks]),
            angle=np.array([t.angle for t in tracks]),
            rack_xyxy=latest.rack_xyxy,
            rack_confidence=latest.rack_confidence,
            rack_quad=latest.rack_quad,
        )
        return voted.with_readings(ids, scores, np.array([t.angle for t in tracks]))


def table_signature(layout: Layout) -> tuple[tuple[str, ...], ...]:
    """What must not change for the table to count as settled: each set's and rack's tokens."""
    return tuple(tuple(t.token for t in s) for s in layout.table) + (("|rack|",),) + tuple(
        tuple(t.token for t in r) for r in layout.racks
    )


@dataclass
class SettleWatch:
    """Says when a signature has stayed the same for `frames` frames in a row.

    `update` returns True while settled; `just_settled` is True on the one frame where it became so.
    """

    frames: int = 10
    _last: object = field(default=None, repr=False)
    _steady: int = field(default=0, repr=False)
    just_settled: bool = field(default=False, repr=False)

    def update(self, signature: object, in_view: bool = True) -> bool:
        was = self.settled
        if in_view and signature == self._last:
            self._steady += 1
        else:
            self._steady = 1 if in_view else 0
        self._last = signature
        self.just_settled = self.settled and not was
        return self.settled

    @property
    def settled(self) -> bool:
        return self._steady >= self.frames

    def reset(self) -> None:
        self._last, self._steady, self.just_settled = None, 0, False


@dataclass(frozen=True)
class TrackedFrame:
    """One frame's stable view: the voted layout, whether the table is settled, and the voted tiles."""

    layout: Layout
    detections: Detections
    settled: bool
    just_settled: bool


@dataclass
class TableTracker:
    """Votes tiles over recent frames, rebuilds the layout from the vote and watches for a settled table."""

    window: int = 8
    settle_frames: int = 10
    vote: TileVote = field(init=False)
    watch: SettleWatch = field(init=False)

    def __post_init__(self) -> None:
        self.vote = TileVote(window=self.window)
        self.watch = SettleWatch(frames=self.settle_frames)

    def update(self, detections: Detections, rules: Rules | None = None,
               image_size: tuple[int, int] | None = None, frame: np.ndarray | None = None) -> TrackedFrame:
        """Add one frame's detections (and optionally the frame, for racks); returns the stable view."""

        voted = self.vote.update(detections)
        layout = rebuild(voted, rules, image_size=image_size, frame=frame)
        # A tile out of view (a hand over it) keeps the vote but not the settle count.
        settled = self.watch.update(table_signature(layout), in_view=self.vote.last_all_seen)
        return TrackedFrame(layout, voted, settled, self.watch.just_settled)


LIVE_THUMBNAIL = (64, 48)
"""Size at which a live frame is compared with the last one read (averaging away the camera's noise)."""


@dataclass(frozen=True)
class LiveFrame:
    """What the live screen shows for one frame: the layout, the tiles, and how it was worked out.

    Attributes:
        step: "kept" (the picture had not changed: the last reading stands), "tracked" (detected again,
            tiles that had not changed kept their readings) or "read" (read in full).
        classified: tiles the classifier read for this frame.
    """

    layout: Layout
    detections: Detections
    step: str
    classified: int = 0


class FrameRate:
    """Frames a second over the last `window_s` seconds, for a screen to show; ticked from a video thread."""

    def __init__(self, window_s: float = 2.0) -> None:
        self.window_s = window_s
        self._lock = threading.Lock()
        self._times: deque[float] = deque()

    def tick(self, now: float) -> None:
        """One frame handled at `now` (seconds)."""
        with self._lock:
            self._times.append(now)
            while self._times and self._times[0] < now - self.window_s:
                self._times.popleft()

    @property
    def fps(self) -> float:
        """Frames a second over the last `window_s` seconds (0 before two frames)."""
        with self._lock:
            times = list(self._times)
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])


class LiveReader:
    """Reads a camera stream for the live screen without running the whole read on every frame.

    Each frame is compared with the last frame read, at thumbnail size. While the picture stays the same
    (no hand over the table, the camera still), the last reading stands. When it changes, the detector
    runs again; each tile whose crop is the same as when it was last read (same place, same pixels) keeps
    its reading, so the classifier only reads tiles that are new or changed; then the layout is rebuilt.
    At least every `refresh_s` seconds the frame is read in full.

    `fps` is the rate of frames handled over the last `window_s` seconds, for the screen to show.

    Args:
        reader: a `vision.reader.TileReader` (any object with `read(frame)` works, read in full each time).
        change_above: mean grey-level difference of the thumbnails (0-255) that counts as a change.
        crop_change_above: mean difference of a tile's crop (0-255) above which it is read again.
        same_place_iou: a tile is in the same place as one read before when their boxes overlap this much.
    """

    def __init__(self, reader: Any, rules: Rules | None = None, *, change_above: float = 2.0,
                 crop_change_above: float = 6.0, same_place_iou: float = 0.8, refresh_s: float = 2.0,
                 window_s: float = 2.0, clock: Any = time.monotonic) -> None:
        self.reader = video_reader(reader)
        self.rules = rules
        self.change_above = change_above
        self.crop_change_above = crop_change_above
        self.same_place_iou = same_place_iou
        self.refresh_s = refresh_s
        self._clock = clock
        self._rate = FrameRate(window_s)
        self._last: LiveFrame | None = None
        self._thumbnail: np.ndarray | None = None
        self._read_at = -math.inf
        self._boxes = np.zeros((0, 4), np.float32)
        self._crops = np.zeros((0, 1, 1, 3), np.uint8)
        self._readings: Any = None

    @property
    def fps(self) -> float:
        """Frames handled a second over the last `window_s` seconds (0 before two frames)."""
        return self._rate.fps

    def update(self, frame: np.ndarray) -> LiveFrame:
        """Handle one BGR frame; returns what the screen shows for it."""
        now = self._clock()
        thumbnail = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), LIVE_THUMBNAIL,
                               interpolation=cv2.INTER_AREA).astype(np.float32)
        same = (self._last is not None and self._thumbnail is not None
                and self._thumbnail.shape == thumbnail.shape
                and float(np.abs(thumbnail - self._thumbnail).mean()) <= self.change_above
                and now - self._read_at < self.refresh_s)
        if same:
            assert self._last is not None
            shown = LiveFrame(self._last.layout, self._last.detections, "kept")
        else:
            shown = self._read(frame, full=now - self._read_at >= self.refresh_s)
            self._last, self._thumbnail = shown, thumbnail
            if shown.step == "read":
                self._read_at = now
        self._rate.tick(now)
        return shown

    def _read(self, frame: np.ndarray, full: bool) -> LiveFrame:
        height, width = frame.shape[:2]
        classifier = getattr(self.reader, "classifier", None)
        # With a table profile every frame is read in full: its threshold, cloth filter and inks apply to
        # the whole read, not to readings kept from earlier frames.
        if not isinstance(classifier, TileClassifier) or getattr(self.reader, "profile", None) is not None:
            detections = self.reader.read(frame)
            layout = rebuild(detections, self.rules, image_size=(width, height), frame=frame)
            self._boxes = np.zeros((0, 4), np.float32)
            return LiveFrame(layout, detections, "read", len(detections))
        found = self.reader.detector.detect(frame)
        crops = cut_crops(frame, found.xyxy, size=classifier.crop_size, margin=classifier.crop_margin)
        kept = np.zeros(len(found), bool)
        source = np.zeros(len(found), np.int64)
        if not full and len(found) and len(self._boxes) and self._readings is not None:
            overlap = box_iou(found.xyxy, self._boxes)
            source = overlap.argmax(axis=1)
            before = self._crops[source].astype(np.int16)
            difference = np.abs(crops.astype(np.int16) - before).mean(axis=(1, 2, 3))
            kept = (overlap.max(axis=1) >= self.same_place_iou) & (difference <= self.crop_change_above)
        fresh = classifier.read_crops(crops[~kept])
        readings = CropReadings.merge(self._readings.take(source[kept]), kept, fresh) if kept.any() else fresh
        detections = self.reader.read_faces(frame, found, readings)
        self._boxes, self._crops, self._readings = found.xyxy, crops, readings
        layout = rebuild(detections, self.rules, image_size=(width, height), frame=frame)
        return LiveFrame(layout, detections, "tracked" if kept.any() else "read", int((~kept).sum()))


def banner_height(frame_height: int) -> int:
    """The height of `draw_banner`'s band on a frame this tall."""
    return max(24, round(frame_height * 0.085))


def draw_banner(canvas: np.ndarray, text: str, colour: tuple[int, int, int]) -> np.ndarray:
    """`canvas` (drawn on in place) with a band across its top in `colour` and `text` in white on it, made
    smaller, then cut short with "...", until it fits. A solid square at the band's left end stays free of
    text (the live bench finds the band by it). Characters Hershey fonts cannot draw are left out."""
    height, width = canvas.shape[:2]
    band = banner_height(height)
    cv2.rectangle(canvas, (0, 0), (width - 1, band), colour, -1)
    text = text.replace("\u00b7", "-").replace("\u2013", "-").replace("\u2014", "-")
    text = "".join(c for c in text if 32 <= ord(c) < 127)
    room = width - band - band // 3
    thickness = max(1, round(band / 24))
    scale = band / 36
    while True:
        (text_width, text_height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
        if text_width <= room or len(text) <= 4:
            break
        if scale > band / 60:
            scale *= 0.9
        else:
            text = text[: max(4, len(text) - 5)].rstrip() + "..."
            text = text.replace("......", "...")
    cv2.putText(canvas, text, (band, (band + text_height) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (255, 255, 255), thickness, cv2.LINE_AA)
    return canvas


def draw_rate(canvas: np.ndarray, fps: float, top: int = 0) -> np.ndarray:
    """`canvas` (an image, drawn on in place) with the live screen's frame rate in its top left corner,
    `top` pixels down (under a banner)."""
    text = f"{fps:.1f} fps"
    scale = max(0.5, canvas.shape[1] / 1400)
    thickness = max(1, round(2 * scale))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.rectangle(canvas, (4, top + 4), (12 + w, top + 12 + h + base), (0, 0, 0), -1)
    cv2.putText(canvas, text, (8, top + 8 + h), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thickness,
                cv2.LINE_AA)
    return canvas
