"""vision.evaluation.scenes: the rack order figure."""

from __future__ import annotations

from types import SimpleNamespace

from vision.evaluation.scenes import KindScores, score_rack_order


def _layout(*racks: list[int]) -> SimpleNamespace:
    return SimpleNamespace(racks=[[SimpleNamespace(index=i) for i in rack] for rack in racks])


def test_a_rack_counts_in_order_only_when_every_pair_is() -> None:
    scene = {"rack_rows": [[[10, 11, 12], [13, 14]]]}  # the owner reads 10 11 12, then 13 14
    matched = {0: 10, 1: 11, 2: 12, 3: 13, 4: 14}  # reported tile -> scene tile
    scores = KindScores()
    score_rack_order(scores, scene, _layout([0, 1, 2, 3, 4]), matched)
    score_rack_order(scores, scene, _layout([0, 3, 1, 4, 2]), matched)  # tiers interleaved
    figures = scores.figures()
    assert (scores.racks_read, scores.racks_in_owner_order) == (2, 1)
    assert figures["racks_in_owner_order"] == 0.5
    assert (scores.rack_pairs, scores.rack_pairs_in_order) == (20, 10 + 7)


def test_table_tiles_and_unmatched_tiles_on_a_rack_are_left_out_of_its_order() -> None:
    scene = {"rack_rows": [[[10, 11], []]]}
    matched = {0: 10, 1: 11, 2: 99}  # 99: a table tile the layout put on the rack; 3 matched nothing
    scores = KindScores()
    score_rack_order(scores, scene, _layout([1, 2, 0, 3]), matched)
    assert (scores.racks_read, scores.racks_in_owner_order, scores.rack_pairs) == (1, 0, 1)
    score_rack_order(scores, {}, _layout([0, 1]), matched)  # a scene without racks: nothing to order
    assert scores.racks_read == 1


def test_a_misread_is_counted_as_a_wrong_number_a_wrong_colour_or_both() -> None:
    from vision.evaluation.scenes import misread_parts

    assert misread_parts("r7", "r1") == (True, False)
    assert misread_parts("r7", "k7") == (False, True)
    assert misread_parts("b10", "k1") == (True, True)
    assert misread_parts("J", "o7") == (True, True)
    assert misread_parts("o7", "J") == (True, True)


def test_a_table_set_is_whole_only_as_one_set_of_exactly_its_tiles_and_exact_only_read_right() -> None:
    from vision.evaluation.scenes import score_table_sets

    tiles = [{"token": t} for t in ("r6", "r7", "r8", "k1", "b9", "o2", "k5")]
    tiles[6]["on_rack"] = True
    scene = {"tiles": tiles, "sets": [[0, 1, 2], [3, 4, 5], [6, 0, 1]]}  # a valid run, loose tiles, a rack's
    matched = {p: p for p in range(7)}
    read = {"tiles": [{"tile": t["token"]} for t in tiles]}

    def scored(table: list[list[int]], document: dict = read) -> tuple[int, int, int]:
        scores = KindScores()
        layout = SimpleNamespace(table=[[SimpleNamespace(index=i) for i in s] for s in table])
        score_table_sets(scores, scene, document, layout, matched)
        return scores.table_sets, scores.table_sets_whole, scores.table_sets_exact

    assert scored([[0, 1, 2], [3], [4], [5]]) == (1, 1, 1)
    assert scored([[0, 1], [2]]) == (1, 0, 0)  # split
    assert scored([[0, 1, 2, 3]]) == (1, 0, 0)  # a loose tile joined
    assert scored([[0, 1]]) == (1, 0, 0)  # r8 off the table (on a rack, or not found)
    misread = {"tiles": [{"tile": "r1" if i == 1 else t["token"]} for i, t in enumerate(tiles)]}
    assert scored([[0, 1, 2]], misread) == (1, 1, 0)
