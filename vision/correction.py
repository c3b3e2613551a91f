"""Rules-aware correction: a set that is invalid as read may be valid with a runner-up reading of one tile.

The classifier's runner-up readings of each tile (a 6 read as 9, red read as orange) are tried on invalid
sets; a change that makes the set valid is proposed, never applied silently: the tile keeps its raw reading,
is marked doubtful and carries the suggestion. The edition's tile counts are a second check (three red 5s
in a two-copy game means one was misread; 000_*.txt section 1: 106 tiles, two of each).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.tiles import Tile, tile_from_class_id
from vision.placed import Layout, PlacedTile, Suggestion

if TYPE_CHECKING:
    from assistant.rules import Rules
    from assistant.sets import SetVerdict
    from vision.detections import Detections

Marker = Callable[[list[PlacedTile], int, str, "Tile | None"], None]
"""Marks tile `pos` of a set doubtful with a note and, optionally, a proposed reading."""

MIN_RUNNER_UP_SCORE = 0.01
"""Runner-up readings the classifier gave less than this are not worth proposing."""
MIN_COUNT_RUNNER_UP = 0.1
"""A runner-up proposed only to keep a tile count within the edition scores at least this share of the top."""


def runner_ups(detections: Detections, index: int) -> list[tuple[Tile, float]]:
    """Alternative readings of one detection, best first, without its top reading."""
    ids = detections.topk_class_ids
    scores = detections.topk_scores
    if ids.ndim != 2 or ids.shape[1] < 2:
        return []
    out = []
    for cid, score in zip(ids[index, 1:], scores[index, 1:], strict=True):
        if int(cid) < 0 or float(score) < MIN_RUNNER_UP_SCORE:
            continue
        out.append((tile_from_class_id(int(cid)), float(score)))
    return out


def _check(tiles: list[Tile | None], rules: Rules) -> SetVerdict | None:
    from assistant.sets import check_set

    if any(t is None for t in tiles):
        return None
    return check_set([t for t in tiles if t is not None], rules)


class SetChecks:
    """The rules' verdict on each sequence of readings, worked out once per frame: the layout's judge
    (every combination of doubtful cuts) and the correction ask about the same sets again and again.

    Calling it gives the `SetVerdict` of the readings in that order, None where one is not read.
    """

    def __init__(self, rules: Rules | None = None) -> None:
        from assistant.rules import STANDARD

        self.rules = rules or STANDARD
        self._verdicts: dict[tuple[Tile | None, ...], SetVerdict | None] = {}
        self._valid: dict[tuple[Tile | None, ...], bool] = {}

    def __call__(self, tiles: list[Tile | None] | tuple[Tile | None, ...]) -> SetVerdict | None:
        key = tuple(tiles)
        if key not in self._verdicts:
            self._verdicts[key] = _check(list(key), self.rules)
        return self._verdicts[key]

    def valid(self, tiles: list[Tile | None] | tuple[Tile | None, ...]) -> bool:
        """Whether the readings in that order form a valid set (False where one is not read): the
        verdict's `valid` without its readings and reasons, which only the sets reported need."""
        from assistant.sets import is_valid_set

        key = tuple(tiles)
        known = self._valid.get(key)
        if known is None:
            verdict = self._verdicts.get(key)
            if verdict is not None:
                known = verdict.valid
            else:
                known = all(t is not None for t in key) and is_valid_set(key, self.rules)  # type: ignore[arg-type]
            self._valid[key] = known
        return known


def _top_score(detections: Detections, index: int, fallback: float) -> float:
    scores = detections.topk_scores
    if scores.ndim == 2 and scores.shape[1] > 0:
        return float(scores[index, 0])
    return fallback


def _best_fix(
    tiles: tuple[PlacedTile, ...], detections: Detections, checks: SetChecks, max_changes: int
) -> list[tuple[int, Tile]] | None:
    """The most likely change of up to `max_changes` tiles to runner-up readings that makes the set valid.

    Likelihood is the product over changed tiles of runner-up score / top score, so a confident tile is
    changed only when nothing likelier works.
    """
    options: list[list[tuple[int, Tile, float]]] = []
    for pos, placed in enumerate(tiles):
        top = max(_top_score(detections, placed.index, placed.confidence), 1e-6)
        options.append([(pos, tile, score / top) for tile, score in runner_ups(detections, placed.index)])
    for changes in range(1, max_changes + 1):
        # One change may touch any tile; several only touch tiles already doubtful.
        pool = range(len(tiles)) if changes == 1 else [p for p, t in enumerate(tiles) if t.doubtful]
        combos = [combo for positions in itertools.combinations(pool, changes)
                  if all(options[p] for p in positions)
                  for combo in itertools.product(*(options[p] for p in positions))]
        # Likeliest first (ties in the order tried): the first change that makes the set valid is the best.
        likelihoods = [math.prod(c[2] for c in combo) for combo in combos]
        for k in sorted(range(len(combos)), key=lambda k: -likelihoods[k]):
            readings = [t.tile for t in tiles]
            for pos, tile, _ in combos[k]:
                readings[pos] = tile
            if checks.valid(readings):
                return [(pos, tile) for pos, tile, _ in combos[k]]
    return None


def correct(
    layout: Layout,
    detections: Detections,
    rules: Rules | None = None,
    *,
    doubt_below: float = 0.6,
    max_changes: int = 2,
    checks: SetChecks | None = None,
) -> Layout:
    """The layout with verdicts, doubtful tiles marked and runner-up readings proposed.

    Args:
        layout: geometry from `vision.layout.group`.
        detections: the same detections (their runner-up readings are used).
        rules: the edition (default standard).
        doubt_below: readings scored under this are doubtful even when their set is valid.
        max_changes: most tiles of one set changed at once (the second only among doubtful tiles).
        checks: the verdicts worked out so far on this frame (`rebuild` shares them with the layout).
    """
    if checks is None or (rules is not None and checks.rules != rules):
        checks = SetChecks(rules)
    table = [list(s) for s in layout.table]
    racks = [list(r) for r in layout.racks]
    suggestions: list[Suggestion] = []

    def mark(where: list[PlacedTile], pos: int, note: str, proposed: Tile | None) -> None:
        where[pos] = replace(where[pos], doubtful=True, note=note,
                             suggestion=proposed if proposed is not None else where[pos].suggestion)

    if not layout.orientation_known:
        table = [_likelier_direction(tiles, checks) for tiles in table]

    for tiles in table + racks:
        for pos, placed in enumerate(tiles):
            if placed.tile is None:
                mark(tiles, pos, "face not read", None)
            elif placed.confidence < doubt_below:
                mark(tiles, pos, f"read as {placed.tile.describe()} with score {placed.confidence:.2f}", None)

    for set_index, tiles in enumerate(table):
        if len(tiles) < 3 or checks.valid([t.tile for t in tiles]):
            continue
        fix = _best_fix(tuple(tiles), detections, checks, max_changes)
        if fix is None:
            continue
        _propose(tiles, fix, f"set {set_index + 1}", "makes the set valid", suggestions, mark)

    problems = _count_check(table, racks, detections, checks, suggestions, mark)

    verdicts = tuple(checks([t.tile for t in s]) for s in table)
    return replace(
        layout,
        table=tuple(tuple(s) for s in table),
        racks=tuple(tuple(r) for r in racks),
        verdicts=verdicts,
        suggestions=tuple(suggestions),
        problems=tuple(problems),
    )


def _likelier_direction(tiles: list[PlacedTile], checks: SetChecks) -> list[PlacedTile]:
    """Without tile orientations a row may be seen from either side: keep the direction that reads as a set.

    A run laid by a player across the table looks descending from here; read backwards it is the run.
    """
    forward = [t.tile for t in tiles]
    if len(tiles) < 2 or any(t is None for t in forward) or checks.valid(forward):
        return tiles
    if checks.valid(forward[::-1]):
        return [replace(t, angle=t.angle + 180.0) for t in reversed(tiles)]
    return tiles


def _propose(tiles: list[PlacedTile], fix: list[tuple[int, Tile]], where: str, why: str,
             suggestions: list[Suggestion], mark: Marker) -> None:
    for pos, proposed in fix:
        raw = tiles[pos].tile
        raw_text = "unread" if raw is None else raw.describe()
        reason = f"read as {raw_text}; {proposed.describe()} {why}"
        suggestions.append(Suggestion(tiles[pos].index, raw, proposed, where, reason))
        mark(tiles, pos, reason, proposed)


def _count_check(
    table: list[list[PlacedTile]],
    racks: list[list[PlacedTile]],
    detections: Detections,
    checks: SetChecks,
    suggestions: list[Suggestion],
    mark: Marker,
) -> list[str]:
    """Flag readings seen more often than the edition has copies; propose a reading that fits."""
    rules = checks.rules
    groups = [("set", i, s) for i, s in enumerate(table)] + [("rack", i, r) for i, r in enumerate(racks)]
    counts = Counter(t.corrected for _, _, s in groups for t in s if t.corrected is not None)
    problems = []
    for tile, count in sorted(counts.items(), key=lambda kv: str(kv[0])):
        limit = rules.jokers if tile.is_joker else rules.copies
        if count <= limit:
            continue
        name = "jokers" if tile.is_joker else f"{tile.describe()}s"
        problems.append(f"{count} {name} seen, but the {rules.name} edition has {limit}: one is misread")
        holders = sorted(
            ((t.confidence, kind, i, pos) for kind, i, s in groups for pos, t in enumerate(s)
             if t.corrected == tile),
        )
        for _, kind, i, pos in holders[: count - limit]:
            where_list = table[i] if kind == "set" else racks[i]
            placed = where_list[pos]
            alternative = None
            top = max(_top_score(detections, placed.index, placed.confidence), 1e-6)
            for candidate, score in runner_ups(detections, placed.index):
                if counts[candidate] >= (rules.jokers if candidate.is_joker else rules.copies):
                    continue
                if kind == "set" and len(where_list) >= 3:
                    readings = [t.corrected for t in where_list]
                    readings[pos] = candidate
                    if not checks.valid(readings):
                        continue
                elif score < MIN_COUNT_RUNNER_UP * top:
                    # Nothing but the count speaks for it (a loose tile, a rack): a reading the classifier
                    # all but ruled out is no suggestion; the tile is still marked.
                    continue
                alternative = candidate
                break
            where = f"{kind} {i + 1}"
            if alternative is None:
                mark(where_list, pos, f"one {tile.describe()} too many for the edition", None)
                continue
            counts[tile] -= 1
            counts[alternative] += 1
            _propose(where_list, [(pos, alternative)], where,
                     f"keeps the count of {tile.describe()}s within {limit}", suggestions, mark)
    return problems
