"""How big the run-time reader is: the project's modules a read loads, their lines and their module-level
numeric settings (issue 37: "the run-time reader smaller and with fewer special cases").

It reads the bundled example in this process as `rummi read PHOTO --json` does, then counts the project's own
modules in `sys.modules` (`assistant`, `vision`, `datasets`, `rummi`): what a read needs, not what a test or
another command imports. A setting is a top-level assignment whose value holds a number (`A = 0.4`,
`B = (3, 5)`, `C: float = 1 / 3`); a name bound to a string, a class or a call without numbers is not one.

    .venv/bin/python benchmarks/reader_size.py [--by-module] [--photo PHOTO] [--profile TABLE.profile]

With `--profile` the read uses a table's calibration (`rummi calibrate`), and what that loads is counted too.

Run it in an older checkout (`git worktree add /tmp/old COMMIT`, then this file copied there) to compare.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("assistant", "vision", "datasets", "rummi")


def numeric_settings(tree: ast.Module) -> int:
    """Top-level assignments whose value holds a number (not a bool)."""
    count = 0
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        if value is not None and any(
            isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
            for node in ast.walk(value)
        ):
            count += 1
    return count


def loaded_modules() -> dict[str, Path]:
    """The project's modules now loaded, by name, with their source files."""
    found = {}
    for name, module in sys.modules.items():
        path = getattr(module, "__file__", None)
        if name.split(".")[0] in PACKAGES and path and Path(path).resolve().is_relative_to(ROOT):
            found[name] = Path(path)
    return dict(sorted(found.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", default=str(ROOT / "vision/examples/table.jpg"))
    parser.add_argument("--profile", help="read with this calibration profile")
    parser.add_argument("--by-module", action="store_true", help="a line per module")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from rummi import main as rummi_main

    profile = ["--profile", args.profile] if args.profile else []
    with contextlib.redirect_stdout(io.StringIO()):
        code = rummi_main(["read", args.photo, "--json", *profile])
    if code != 0:
        print(f"rummi read {args.photo} failed (exit {code})", file=sys.stderr)
        return 1
    totals: dict[str, list[int]] = {}
    for name, path in loaded_modules().items():
        tree = ast.parse(path.read_text())
        lines = len(path.read_text().splitlines())
        settings = numeric_settings(tree)
        package = name.split(".")[0]
        total = totals.setdefault(package, [0, 0, 0])
        total[0] += 1
        total[1] += lines
        total[2] += settings
        if args.by_module:
            print(f"{name:32s} {lines:6d} lines {settings:4d} settings")
    for package, (modules, lines, settings) in totals.items():
        print(f"{package:10s} {modules:3d} modules {lines:6d} lines {settings:4d} numeric settings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
