"""Found tiles read wrong on rendered scenes, by the scene's edition (numeral font style, blue ink), with the
reader of a models folder (thirty-seventh session: where a crop classifier's number and colour errors lie).

    .venv/bin/python docs/experiments/scripts-s37/misreads_by_edition.py MODELS_DIR FOLDER...
"""
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from models_dir import found_readings, reader_with_classifiers  # noqa: E402

from vision.evaluation.scenes import misread_parts  # noqa: E402

reader = reader_with_classifiers(Path(sys.argv[1]))
found, number, colour, pairs, places = Counter(), Counter(), Counter(), Counter(), Counter()
for folder in sys.argv[2:]:
    for scene, _, true_tile, reported in found_readings(reader, Path(folder)):
        edition = scene.get("edition", {})
        key = f"{edition.get('font', '?')}/{edition.get('inks', {}).get('blue', '?')}"
        found[key] += 1
        truth, read = true_tile["token"], reported["tile"]
        if truth != read:
            n, c = misread_parts(truth, read)
            number[key] += int(n)
            pairs[(truth, read)] += 1
            places[("rack" if true_tile.get("on_rack") else "table", scene["kind"])] += 1
            colour[key] += int(c)
for key in sorted(found):
    n, c, f = number[key], colour[key], found[key]
    print(f"{key:20s} found {f:5d}  number wrong {n:4d} ({100 * n / f:.2f} %)"
          f"  colour wrong {c:4d} ({100 * c / f:.2f} %)")
commonest = ", ".join(f"{a}->{b} {n}" for (a, b), n in pairs.most_common(25))
print("most frequent misreads (truth -> read):", commonest)
by_place = ", ".join(f"{a}/{b} {n}" for (a, b), n in places.most_common())
print("number misreads by place and scene kind:", by_place)
