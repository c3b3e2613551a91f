"""`rummi calibrate --out PROFILE [--empty PHOTO]... [--tiles PHOTO [--layout LAYOUT]]...` (CONTRACT.md).

Plug-in of `assistant.cli`: `configure(parser)` adds the arguments, `run(args, rules)` prints the JSON
`{"profile", "empty_photos", "tile_photos", "tiles_learned"}` and returns 0, or 2 for a photo that cannot
be read or a tile photo that does not match its layout (the message says what did not match).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from assistant.rules import Rules
from assistant.table import count_problems
from assistant.tiles import NotationError, Tile, parse_layout

EXIT_OK = 0
EXIT_UNREADABLE = 2


class _TilePhoto(argparse.Action):
    """`--tiles PHOTO` starts a tile photo; a `--layout` right after it belongs to that photo."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        photos = getattr(namespace, "tile_photos", None) or []
        if option_string == "--tiles":
            photos.append([values, None])
        elif not photos:
            parser.error("--layout must follow the --tiles PHOTO it describes")
        elif photos[-1][1] is not None:
            parser.error(f"--tiles {photos[-1][0]} already has a --layout: give each --tiles PHOTO one")
        else:
            photos[-1][1] = values
        namespace.tile_photos = photos


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, metavar="PROFILE", help="profile file to write")
    parser.add_argument(
        "--empty", action="append", default=[], metavar="PHOTO", help="a photo of the bare table (repeatable)"
    )
    parser.add_argument(
        "--tiles", action=_TilePhoto, dest="tile_photos", metavar="PHOTO",
        help="a photo of your tiles in the calibration layout: rows black, blue, red, orange 1-13, then the "
             "jokers (repeatable)",
    )
    parser.add_argument(
        "--layout", action=_TilePhoto, dest="tile_photos", metavar="LAYOUT",
        help="the layout of the --tiles photo before it, sets as rows in reading order (CONTRACT notation)",
    )


def _fail(message: str) -> int:
    print(f"rummi calibrate: error: {message}", file=sys.stderr)
    return EXIT_UNREADABLE


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (also through links, `..` or a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare where they would be
        return Path(a).resolve() == Path(b).resolve()


def _photo_at(out: str, args: argparse.Namespace, tile_photos: list[list[Any]]) -> str | None:
    """The option and input photo that `out` would overwrite, e.g. `--empty table.jpg`; None if none."""
    inputs = [("--empty", p) for p in args.empty] + [("--tiles", p) for p, _ in tile_photos]
    for option, photo in inputs:
        if _same_file(out, photo):
            return f"{option} {photo}"
    return None


class LayoutError(ValueError):
    """A --layout that no photo can show: empty, unreadable, or more copies of a tile than the edition has."""


def tile_layout(photo: str, text: str, rules: Rules) -> list[list[Tile]]:
    """The layout of the --tiles photo `photo`, from its --layout text.

    Raises:
        LayoutError: the message names the photo and what is wrong (the offending token or tile).
    """
    if not text.strip():
        raise LayoutError(f"--layout for {photo} is empty")
    try:
        layout = parse_layout(text)
    except NotationError as error:
        raise LayoutError(f"--layout for {photo}: {error}") from error
    if not layout:
        raise LayoutError(f"--layout for {photo} is empty")
    # One photo shows one box's tiles at most (000_*.txt section 2: two copies of each tile and two jokers
    # in 106 tiles; 002_*.txt: 160 tiles, three copies and 4 jokers).
    problems = count_problems((t for row in layout for t in row), rules, where="in the layout")
    if problems:
        raise LayoutError(f"--layout for {photo}: {'; '.join(problems)}")
    return layout


def run(args: argparse.Namespace, rules: Rules) -> int:
    from vision.calibration import (
        STANDARD_LAYOUT,
        BareTableError,
        CalibrationError,
        RowOrderError,
        calibrate_photos,
    )
    from vision.frames import ImageError, load_image
    from vision.onnx_models import ModelLoadError
    from vision.profile import save_profile
    from vision.reader import TileReader

    tile_photos = getattr(args, "tile_photos", None) or []
    if not args.out:
        return _fail("--out is empty: give the profile file to write")
    if not args.empty and not tile_photos:
        return _fail("give at least one --empty PHOTO or --tiles PHOTO")
    overwritten = _photo_at(args.out, args, tile_photos)
    if overwritten is not None:
        return _fail(f"--out {args.out} is the photo given as {overwritten}: the profile would overwrite it")
    layouts: list[list[list[Tile]]] = []
    for photo, text in tile_photos:
        if text is None:
            layouts.append(STANDARD_LAYOUT)
            continue
        try:
            layouts.append(tile_layout(photo, text, rules))
        except LayoutError as error:
            return _fail(str(error))
    try:
        empty_frames = [load_image(path) for path in args.empty]
        tile_frames = [
            (load_image(photo), layout) for (photo, _), layout in zip(tile_photos, layouts, strict=True)
        ]
    except ImageError as error:
        return _fail(str(error))
    try:
        reader = TileReader()
    except ModelLoadError as error:
        return _fail(str(error))
    if reader.classifier is None:
        return _fail("the tile classifier model is missing: calibration needs it")
    started = time.perf_counter()
    try:
        profile = calibrate_photos(reader, empty_frames, tile_frames)
    except BareTableError as error:
        return _fail(
            f"--empty {args.empty[error.photo]}: {error.tiles} tiles found on it; --empty needs a photo of "
            "the bare table, with no tiles on it"
        )
    except CalibrationError as error:
        names = [photo for photo, _ in tile_photos]
        hint = " (or give --layout with the rows as they lie)" if isinstance(error, RowOrderError) else ""
        return _fail(
            f"{names[0] if len(names) == 1 else 'a tile photo'} does not match its layout: {error}{hint}"
        )
    try:
        save_profile(args.out, profile)
    except OSError as error:
        return _fail(f"cannot write {args.out}: {error.strerror or error}")
    document = {
        "profile": str(args.out),
        "empty_photos": profile.empty_photos,
        "tile_photos": profile.tile_photos,
        "tiles_learned": profile.tiles_learned,
    }
    if getattr(args, "json", False):
        print(json.dumps(document))
    else:
        print(
            f"wrote {args.out}: {profile.empty_photos} empty photo(s) "
            f"({profile.false_finds} false finds learned), "
            f"{profile.tile_photos} tile photo(s) ({profile.tiles_learned} tiles learned"
            f"{', inks mapped' if profile.map_inks else ''}) in {time.perf_counter() - started:.1f}s"
        )
    return EXIT_OK
