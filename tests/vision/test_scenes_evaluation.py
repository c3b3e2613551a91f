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
