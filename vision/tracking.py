"""Stability over video: a vote over recent frames per tile position, and a "table settled" signal.

A hand passing over the table hides tiles for a few frames and a glare flips a reading for one; neither
should change the verdict. `TileVote` keeps a track per tile position and reports, each frame, the tiles
seen in at least half of the recent frames with the reading most of those frames agree on. `SettleWatch`
says when the voted table has stayed the same, with every tile in view, for `frames` frames in a row: the
moment the app can take a before/after snapshot of a turn.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from vision.detections import UNKNOWN_CLASS, Detections
from vision.layout import rebuild
from vision.placed import Layout

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
        return self._as_detections(reported)

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

    def _as_detections(self, tracks: list[_Track]) -> Detections:
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
