"""Per scene: table tiles put on racks, rack tiles off racks (thirty-sixth session's tuning diagnostics).

    .venv/bin/python docs/experiments/scripts-s36/per_scene.py RENDER_FOLDER... | grep SCENE
"""

import sys

import vision.evaluation.scenes as scenes

score_scene, rendered_scenes = scenes.score_scene, scenes.rendered_scenes


def counts(scores: scenes.KindScores) -> tuple[int, int, int, int]:
    return scores.table_tiles_in_racks, scores.table_tiles, scores.rack_tiles_in_racks, scores.rack_tiles


def scored_and_printed(scores, scene, document, layout):  # noqa: ANN001, ANN201
    before = counts(scores)
    score_scene(scores, scene, document, layout)
    on_racks, table, in_racks, rack = (a - b for a, b in zip(counts(scores), before, strict=True))
    if on_racks or rack - in_racks:
        print(f"SCENE {scene.get('_name', '?')} table_on_racks {on_racks}/{table}"
              f" rack_off {rack - in_racks}/{rack}"
              f" racks_found {len(layout.racks)} true_racks {len(scene.get('racks', []))}")


def named(folder, limit=None):  # noqa: ANN001, ANN201
    for path, scene, frame in rendered_scenes(folder, limit):
        scene["_name"] = str(path)
        yield path, scene, frame


scenes.score_scene = scored_and_printed
scenes.rendered_scenes = named
sys.exit(scenes.main(sys.argv[1:]))
