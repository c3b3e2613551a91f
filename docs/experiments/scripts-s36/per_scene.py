"""Per scene: table tiles put on racks, rack tiles off racks (thirty-sixth session's tuning diagnostics).

    .venv/bin/python docs/experiments/scripts-s36/per_scene.py RENDER_FOLDER... | grep SCENE
"""
import sys
import vision.evaluation.scenes as S
orig = S.score_scene
def per(scores, scene, document, layout):
    before = (scores.table_tiles_in_racks, scores.table_tiles, scores.rack_tiles_in_racks, scores.rack_tiles)
    orig(scores, scene, document, layout)
    d = [a - b for a, b in zip((scores.table_tiles_in_racks, scores.table_tiles, scores.rack_tiles_in_racks, scores.rack_tiles), before)]
    if d[0] or d[3] - d[2]:
        print(f"SCENE {scene.get('_name', '?')} table_on_racks {d[0]}/{d[1]} rack_off {d[3]-d[2]}/{d[3]} racks_found {len(layout.racks)} true_racks {len(scene.get('racks', []))}")
S.score_scene = per
orig_rs = S.rendered_scenes
def named(folder, limit=None):
    for path, scene, frame in orig_rs(folder, limit):
        scene["_name"] = str(path)
        yield path, scene, frame
S.rendered_scenes = named
sys.exit(S.main(sys.argv[1:]))
