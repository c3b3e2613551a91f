"""Run an evaluation module with some of the detector's extra looks switched off; or time a read per set.

    python docs/experiments/scripts-s13/looks.py --off rack vision.evaluation.scenes FOLDER --json OUT
    python docs/experiments/scripts-s13/looks.py --off close_up,edge_rack vision.evaluation.reading ...
    python docs/experiments/scripts-s13/looks.py --time [--rounds 20] [--json OUT] [IMAGE ...]

`--off NAME[,NAME]` (repeatable; names: close_up, edge_rack, sloped_rack, rack, all; none or no `--off`:
every look on): every `vision.detector.TileDetector` built in this process gets those switches
(`close_up_look`, `edge_rack_look`, `sloped_rack_look`, `rack_look`) set False right after its `__init__`;
the module then runs as `python -m MODULE ARGS` would. At exit one line goes to stderr (`looks.py: ...`;
with `--counts JSON` also that file): frames detected, forward passes of the detectors, and per look the
frames it was asked about, the passes it made, the frames whose tiles or racks it changed and the tiles and
racks it added, so that what each look costs and does on a set is counted in the run that measures it.

`--time`: one process, one reader (the shipped detector and the classifier `rummi read` loads, one
onnxruntime thread each, CPU time), the whole read of the rendered 1000x750 game table of about 53 tiles
that `benchmarks/bench_read.py` times (seed 9100), then of each IMAGE, timed per set of looks in rounds that
go through every set in turn (all on, each look off alone, close_up and edge_rack off, all off); the first
two rounds warm up. A read is `TileReader.read`, `read_document` and the JSON, as
`benchmarks/bench_detector_sizes.py` times it.

`--table [FIG]`: the Markdown tables of what `looks.sh` (measure, closeups, kinds, time) wrote to FIG.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import runpy
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from vision import detector  # noqa: E402

LOOKS = {
    "close_up": "close_up_look",
    "edge_rack": "edge_rack_look",
    "sloped_rack": "sloped_rack_look",
    "rack": "rack_look",
}
STEPS = {  # the method each look runs in (`TileDetector.detect`)
    "close_up": "_with_close_ups",
    "edge_rack": "_with_edge_racks",
    "sloped_rack": "_with_sloped_racks",
    "rack": "_with_rack_looks",
}
CONFIGS = [
    ("all on", ()),
    *((f"{name} off", (name,)) for name in LOOKS),
    ("close_up+edge_rack off", ("close_up", "edge_rack")),  # the two that do not earn their place
    ("all off", tuple(LOOKS)),
]



class Tally:
    """A count that the read-ahead thread (`vision.path`) may add to while the main thread does."""

    def __init__(self) -> None:
        self.value = 0
        self._lock = threading.Lock()

    def add(self, amount: int = 1) -> None:
        with self._lock:
            self.value += amount


_passes = Tally()
_frames = Tally()
_asked = {name: Tally() for name in LOOKS}
_look_passes = {name: Tally() for name in LOOKS}
_changed = {name: Tally() for name in LOOKS}  # frames whose tiles or racks the look changed
_tiles_added = {name: Tally() for name in LOOKS}
_racks_added = {name: Tally() for name in LOOKS}
_off: set[str] = set()
_counts_file: list[Path] = []


def parse_off(values: list[str]) -> set[str]:
    names: set[str] = set()
    for value in values:
        for name in filter(None, (part.strip() for part in value.split(","))):
            if name == "all":
                names |= set(LOOKS)
            elif name in LOOKS:
                names.add(name)
            elif name != "none":
                raise SystemExit(f"looks.py: no look {name!r} (close_up, edge_rack, sloped_rack, rack, all)")
    return names


class _CountingSession:
    """The detector's onnxruntime session, each `run` counted (everything else passed through)."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def run(self, *args: Any, **kwargs: Any) -> Any:
        _passes.add()
        return self._session.run(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def _patch() -> None:
    import numpy as np

    init = detector.TileDetector.__init__
    detect = detector.TileDetector.detect

    def patched_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        init(self, *args, **kwargs)
        self.session = _CountingSession(self.session)
        for name in _off:
            setattr(self, LOOKS[name], False)

    def counted_detect(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        _frames.add()
        return detect(self, *args, **kwargs)

    def counted(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def step(self, image, found, *args, **kwargs):  # type: ignore[no-untyped-def]
            _asked[name].add()
            before = _passes.value
            try:
                after = method(self, image, found, *args, **kwargs)
            finally:
                _look_passes[name].add(_passes.value - before)
            racks = [0 if d.rack_xyxy is None else len(d.rack_xyxy) for d in (found, after)]
            if len(after) != len(found) or racks[0] != racks[1] or not np.array_equal(after.xyxy, found.xyxy):
                _changed[name].add()
            _tiles_added[name].add(len(after) - len(found))
            _racks_added[name].add(racks[1] - racks[0])
            return after

        return step

    detector.TileDetector.__init__ = patched_init  # type: ignore[method-assign]
    detector.TileDetector.detect = counted_detect  # type: ignore[method-assign]
    for name, attribute in STEPS.items():
        setattr(detector.TileDetector, attribute, counted(name, getattr(detector.TileDetector, attribute)))


def counts() -> dict[str, Any]:
    return {
        "off": sorted(_off),
        "frames": _frames.value,
        "forward_passes": _passes.value,
        "looks": {
            name: {
                "asked": _asked[name].value,
                "passes": _look_passes[name].value,
                "changed": _changed[name].value,
                "tiles_added": _tiles_added[name].value,
                "racks_added": _racks_added[name].value,
            }
            for name in LOOKS
        },
    }


def _report() -> None:
    found = counts()
    looks = ", ".join(
        f"{name} asked {v['asked']} passes {v['passes']} changed {v['changed']} "
        f"(tiles {v['tiles_added']:+d}, racks {v['racks_added']:+d})"
        for name, v in found["looks"].items()
    )
    print(f"looks.py: off {','.join(found['off']) or 'none'}: {found['frames']} frames detected, "
          f"{found['forward_passes']} forward passes; {looks}", file=sys.stderr)
    for path in _counts_file:
        path.write_text(json.dumps(found, indent=2) + "\n")


def example_frame(folder: Path) -> list[Path]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_read import example_frames

    return [path for path in example_frames(folder) if "game" in path.name]


def time_reads(images: list[Path], rounds: int) -> list[dict[str, Any]]:
    import numpy as np

    from assistant.rules import find_preset
    from vision.frames import load_image
    from vision.read import read_document
    from vision.reader import TileReader

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_read import _shipped_classifier

    rules = find_preset("standard")
    looks = detector.TileDetector(threads=1)
    reader = TileReader(looks, _shipped_classifier(1))
    results = []
    for path in images:
        frame = load_image(path)
        times: dict[str, list[float]] = {name: [] for name, _ in CONFIGS}
        seen: dict[str, tuple[int, int]] = {}
        for warm in range(rounds + 2):  # the first two rounds warm up and are not kept
            for name, off in CONFIGS:
                for look, attribute in LOOKS.items():
                    setattr(looks, attribute, look not in off)
                passes = _passes.value
                t0 = time.process_time()
                found = reader.read(frame)
                document, _ = read_document(str(path), frame, found, rules)
                json.dumps(document)
                t1 = time.process_time()
                seen[name] = (_passes.value - passes, len(document["tiles"]))
                if warm >= 2:
                    times[name].append((t1 - t0) * 1000)
        base = float(np.median(times["all on"]))
        rows = []
        for name, _ in CONFIGS:
            median = float(np.median(times[name]))
            rows.append({
                "config": name,
                "read_ms": round(median, 2),
                "read_p90_ms": round(float(np.percentile(times[name], 90)), 2),
                "relative": round(median / base, 3),
                "passes": seen[name][0],
                "tiles": seen[name][1],
            })
        results.append({"image": path.name, "size": f"{frame.shape[1]}x{frame.shape[0]}", "rows": rows})
    return results


def main_time(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="time a whole read per set of extra looks (CPU time)")
    parser.add_argument("images", nargs="*", type=Path, help="after bench_read.py's 53-tile game table")
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds (default 20)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        images = example_frame(Path(folder)) + [p.resolve() for p in args.images]
        started = time.strftime("%Y-%m-%d %H:%M")
        results = time_reads(images, args.rounds)
    print(f"{started}; one thread a model, CPU time, {args.rounds} rounds, load {os.getloadavg()[0]:.1f}")
    for result in results:
        print(f"\n{result['image']} ({result['size']})")
        print(f"{'looks':16} {'read ms':>9} {'p90':>9} {'x all on':>9} {'passes':>7} {'tiles':>6}")
        for row in result["rows"]:
            print(f"{row['config']:16} {row['read_ms']:9.1f} {row['read_p90_ms']:9.1f} "
                  f"{row['relative']:9.3f} {row['passes']:7} {row['tiles']:6}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}"


def table_rows(fig: Path) -> list[str]:
    """The Markdown rows of the figures `looks.sh measure` and `looks.sh time` wrote to `fig`."""
    timing = {}
    if (fig / "timing-cpu.json").is_file():
        timing = {row["config"]: row for row in json.loads((fig / "timing-cpu.json").read_text())[0]["rows"]}
    rows = []
    for config, _ in CONFIGS:
        name = file_name(config)
        try:
            hold = json.loads((fig / f"{name}-holdout.json").read_text())["all"]
            dev = json.loads((fig / f"{name}-dev.json").read_text())["all"]
            racks = json.loads((fig / f"{name}-racks.json").read_text())
        except FileNotFoundError:
            continue
        passes = []
        for part in ("holdout", "dev", "racks"):
            path = fig / f"{name}-{part}.counts.json"
            seen = json.loads(path.read_text()) if path.is_file() else None
            passes.append(f"{seen['forward_passes'] / max(1, seen['frames']):.2f}" if seen else "-")
        timed = timing.get(config)
        rows.append(" | ".join([
            config,
            f"{pct(hold['recall'])} / {pct(hold['precision'])} / {pct(hold['end_to_end'])} / "
            f"{hold['false_tiles_per_scene']} / {pct(hold['rack_tiles_in_racks'])} / "
            f"{pct(hold['table_tiles_put_on_racks'])} / {pct(hold['racks_in_owner_order'])}",
            f"{pct(dev['end_to_end_accuracy'])} / {dev['missed_tiles']} / {dev['false_tiles']}",
            f"{pct(racks['rack_tiles_in_their_rack'])} / "
            f"{racks['racks_found']}-{racks['racks_in_order']}-{racks['racks_read_exactly']}",
            " / ".join(passes),
            "-" if timed is None else f"{timed['relative']:.2f} ({timed['read_ms']:.0f} ms, "
            f"{timed['passes']})",
        ]))
    return rows


def file_name(config: str) -> str:
    """The name `looks.sh` gives a configuration's files: on, close_up-off, ..., all-off."""
    return "on" if config == "all on" else config.replace(" ", "-")


def kinds_row(path: Path) -> str:
    report = json.loads(path.read_text())
    every, fill = report["all"], report["holdout-fill"]
    seen = json.loads(path.with_suffix(".counts.json").read_text())
    racks = " / ".join(pct(report[f"holdout-{kind}"]["rack_tiles_in_racks"])
                       for kind in ("rack_above", "rack_angle", "rack_front", "game"))
    return (f"{pct(every['recall'])} / {pct(every['precision'])} / {pct(every['end_to_end'])} / "
            f"{every['false_tiles_per_scene']} / {pct(every['rack_tiles_in_racks'])} / "
            f"{pct(every['table_tiles_put_on_racks'])} / {pct(every['racks_in_owner_order'])} | {racks} | "
            f"{pct(fill['recall'])} / {pct(fill['end_to_end'])} | "
            f"{seen['forward_passes'] / max(1, seen['frames']):.2f}")


def main_table(argv: list[str]) -> int:
    fig = Path(argv[0]) if argv else Path("/work/runs/s13/looks/fig")
    print("| looks | hold-out renders (never tuned on): recall / precision / end to end / "
          "false tiles a scene / rack tiles in racks / table tiles on racks / racks in owner order (%) "
          "| real-dev (tuning): end to end % / missed / false "
          "| real-racks (tuning): rack tiles in their rack % / racks found-in order-read exactly "
          "| forward passes a frame: hold-out / real-dev / real-racks "
          "| read time x all on (53-tile render: ms, passes) |")
    print("|---|---|---|---|---|---|")
    for row in table_rows(fig):
        print(f"| {row} |")
    if (fig / "timing-cpu.json").is_file():
        timed = json.loads((fig / "timing-cpu.json").read_text())
        print("\n| looks | " + " | ".join(f"{r['image'][:24]} ({r['size']})" for r in timed) + " |")
        print("|---|" + "---|" * len(timed))
        for k, (config, _) in enumerate(CONFIGS):
            cells = [f"{r['rows'][k]['read_ms']:.0f} ms x{r['rows'][k]['relative']:.2f}, "
                     f"{r['rows'][k]['passes']} passes, {r['rows'][k]['tiles']} tiles" for r in timed]
            print(f"| {config} | " + " | ".join(cells) + " |")
    what = "frames asked / passes / frames changed / tiles added / racks added"
    parts = ("hold-out", "real-dev", "real-racks")
    print("\n| look (all on) | " + " | ".join(f"{part}: {what}" for part in parts) + " |")
    print("|---|---|---|---|")
    seen = [fig / f"on-{part}.counts.json" for part in ("holdout", "dev", "racks")]
    seen_looks = [json.loads(path.read_text())["looks"] if path.is_file() else {} for path in seen]
    for name in LOOKS:
        cells = ["-" if name not in part else " / ".join(
            str(part[name][key]) for key in ("asked", "passes", "changed", "tiles_added", "racks_added")
        ) for part in seen_looks]
        print(f"| {name} | " + " | ".join(cells) + " |")
    closeups = [(config, fig / f"{file_name(config)}-closeups.json") for config in ("all on", "close_up off")]
    if all(path.is_file() for _, path in closeups):
        print("\n| looks | " + " | ".join(f"{folder}: recall / precision / end to end / false tiles a scene"
                                          for folder in ("fill renders", "closeup renders")) + " |")
        print("|---|---|---|")
        for config, path in closeups:
            report = json.loads(path.read_text())
            cells = [f"{pct(r['recall'])} / {pct(r['precision'])} / {pct(r['end_to_end'])} / "
                     f"{r['false_tiles_per_scene']}" for r in (report["fill"], report["closeup"])]
            print(f"| {config} | " + " | ".join(cells) + " |")
    kinds = [(config, fig / f"{file_name(config)}-kinds.json") for config, _ in CONFIGS]
    if any(path.is_file() for _, path in kinds):
        print("\n| looks | per-kind hold-out, all 400: recall / precision / end to end / false tiles a "
              "scene / rack tiles in racks / table tiles on racks / racks in owner order (%) | rack tiles in "
              "racks: from above / at an angle / front / game tables (%) | fill: recall / end to end (%) "
              "| forward passes a frame |")
        print("|---|---|---|---|---|")
        for config, path in kinds:
            if path.is_file():
                print(f"| {config} | {kinds_row(path)} |")
    return 0


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--time":
        _patch()
        return main_time(argv[1:])
    if argv and argv[0] == "--table":
        return main_table(argv[1:])
    off = []
    while len(argv) > 1 and argv[0] in ("--off", "--counts"):  # before the module
        if argv[0] == "--off":
            off.append(argv[1])
        else:
            _counts_file[:] = [Path(argv[1])]
        argv = argv[2:]
    if not argv or argv[0].startswith("-"):
        raise SystemExit(
            "usage: looks.py [--off NAME[,NAME]] [--counts JSON] MODULE [ARGS ...] | --time [...] "
            "| --table [FIG]"
        )
    _off.update(parse_off(off))
    _patch()
    atexit.register(_report)
    sys.argv = list(argv)
    runpy.run_module(argv[0], run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
