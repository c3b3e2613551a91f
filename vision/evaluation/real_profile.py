"""A tiles profile from labelled real photos (their labels give every tile's identity, as a layout does),
for measuring calibration on ../shared/real-dev: calibrate on some photos, measure on the others.

    python -m vision.evaluation.real_profile --images ../shared/real-dev/images \\
        --labels ../shared/real-dev/labels \\
        --calibrate rummy-1_ rummy-3_ --out /tmp/real.profile --rest /tmp/real-rest
    python -m vision.evaluation.reading --images /tmp/real-rest/images --labels /tmp/real-rest/labels \\
        --data-yaml ../shared/real-dev/data.yaml [--profile /tmp/real.profile]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from assistant.tiles import tile_from_class_name
from vision.calibration import TilePhotoSample, calibrate
from vision.crops import cut_crops
from vision.evaluation.reading import parse_label_text, read_class_names
from vision.frames import load_image
from vision.profile import save_profile
from vision.reader import TileReader


def painted_out(image: Path, label: Path) -> np.ndarray:
    """The photo with its labelled tiles (boxes grown by a fifth) painted over from their surroundings."""
    frame = load_image(str(image))
    boxes, _ = parse_label_text(label.read_text(), frame.shape[1], frame.shape[0])
    mask = np.zeros(frame.shape[:2], np.uint8)
    for x1, y1, x2, y2 in boxes:
        grow_x, grow_y = (x2 - x1) * 0.1, (y2 - y1) * 0.1
        corners = (int(x1 - grow_x), int(y1 - grow_y)), (int(x2 + grow_x), int(y2 + grow_y))
        cv2.rectangle(mask, *corners, 255, -1)
    return cv2.inpaint(frame, mask, 5, cv2.INPAINT_TELEA)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.evaluation.real_profile")
    parser.add_argument("--images", type=Path, required=True)
    parser.add_argument("--labels", type=Path, required=True)
    parser.add_argument(
        "--calibrate", nargs="+", required=True, help="file-name prefixes of the photos to learn from"
    )
    parser.add_argument(
        "--empty-from", nargs="*", default=[], metavar="PREFIX",
        help="photos made bare by painting their labelled tiles out (cv2.inpaint), learned as empty tables",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rest", type=Path, required=True, help="folder for links to the other photos")
    args = parser.parse_args(argv)
    names = read_class_names(args.labels.parent / "data.yaml")
    reader = TileReader()
    samples = []
    empty_frames = []
    for image in sorted(args.images.iterdir()):
        label = args.labels / f"{image.stem}.txt"
        chosen = any(image.name.startswith(prefix) for prefix in args.calibrate)
        bare = any(image.name.startswith(prefix) for prefix in args.empty_from)
        if bare:
            empty_frames.append(painted_out(image, label))
            print(f"bare table from {image.name} (its tiles painted out)")
        if not chosen and not bare:
            for kind, path in (("images", image), ("labels", label)):
                (args.rest / kind).mkdir(parents=True, exist_ok=True)
                link = args.rest / kind / path.name
                if not link.exists():
                    link.symlink_to(path.resolve())
            continue
        if not chosen:
            continue
        frame = load_image(str(image))
        boxes, classes = parse_label_text(label.read_text(), frame.shape[1], frame.shape[0])
        crops = cut_crops(
            frame, boxes, size=reader.classifier.crop_size, margin=reader.classifier.crop_margin
        )
        samples.append(TilePhotoSample(crops, [tile_from_class_name(names[c]) for c in classes], boxes))
        print(f"calibrating on {image.name}: {len(boxes)} tiles")
    profile = calibrate(reader, empty_frames, samples)
    save_profile(args.out, profile)
    print(f"{args.out}: {profile.tiles_learned} tiles, inks mapped: {profile.map_inks}, {profile.notes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
