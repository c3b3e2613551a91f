"""Found tiles read wrong on rendered scenes, by the scene's edition (numeral font style, blue ink), with the
reader of a models folder (thirty-seventh session: where a crop classifier's number and colour errors lie).

    .venv/bin/python docs/experiments/scripts-s37/misreads_by_edition.py MODELS_DIR FOLDER...
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from models_dir import reader_with_classifiers  # noqa: E402

from assistant.rules import STANDARD  # noqa: E402
from vision.confidence import NO_TILE_BELOW  # noqa: E402
from vision.evaluation.scenes import match_scene, misread_parts, rendered_scenes  # noqa: E402
from vision.read import read_document  # noqa: E402

reader = reader_with_classifiers(Path(sys.argv[1]))
found, number, colour, pairs, places = Counter(), Counter(), Counter(), Counter(), Counter()
for folder in sys.argv[2:]:
    for image_path, scene, frame in rendered_scenes(Path(folder)):
        document, _ = read_document(str(image_path), frame, reader.read(frame), STANDARD, None, NO_TILE_BELOW)
        matched, _ = match_scene(scene["tiles"], document["tiles"])
        edition = scene.get("edition", {})
        key = f"{edition.get('font', '?')}/{edition.get('inks', {}).get('blue', '?')}"
        for p, t in matched.items():
            found[key] += 1
            truth, read = scene["tiles"][t]["token"], document["tiles"][p]["tile"]
            if truth != read:
                n, c = misread_parts(truth, read)
                number[key] += int(n)
                pairs[(truth, read)] += 1
                places[("rack" if scene["tiles"][t].get("on_rack") else "table", scene["kind"])] += 1
                colour[key] += int(c)
for key in sorted(found):
    n, c, f = number[key], colour[key], found[key]
    print(f"{key:20s} found {f:5d}  number wrong {n:4d} ({100 * n / f:.2f} %)"
          f"  colour wrong {c:4d} ({100 * c / f:.2f} %)")
commonest = ", ".join(f"{a}->{b} {n}" for (a, b), n in pairs.most_common(25))
print("most frequent misreads (truth -> read):", commonest)
by_place = ", ".join(f"{a}/{b} {n}" for (a, b), n in places.most_common())
print("number misreads by place and scene kind:", by_place)
