"""The house rules of the code's layout, read from the source: no import circles, no dynamic imports, a pure
domain (`assistant/` imports no other package of the project and no pixels), and nothing a user runs (`rummi`,
`app.py`, `ui/`, the reader in `vision/`) reaches the trainers or the evaluation tools."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("assistant", "vision", "datasets", "models", "ui")
TOP_LEVEL = {"app": ROOT / "app.py", "rummi": ROOT / "rummi.py"}
"""The modules at the repository root: the Streamlit app and the `rummi` command (the domain's commands and
the reader's, composed outside both packages)."""
OFF_THE_RUN_PATH = ("vision.training", "vision.evaluation")
TRAINING_LIBRARIES = {"torch", "torchvision", "ultralytics"}

DOMAIN = "assistant"
NOT_FOR_THE_DOMAIN = {
    # the project's other packages and top-level modules: dependencies point one way (STYLE.md, habit 1)
    *(p for p in PACKAGES if p != DOMAIN),
    *TOP_LEVEL,
    # no pixels, no widgets (STYLE.md, habit 1; assistant/__init__.py)
    "cv2",
    "numpy",
    "streamlit",
    "PIL",
    "onnxruntime",
    *TRAINING_LIBRARIES,
}
DOMAIN_EXCEPTIONS = {
    # HiGHS (highspy) takes the model's arrays as numpy arrays, and highspy itself depends on numpy.
    ("assistant.solver", "numpy"),
}
DYNAMIC_IMPORTS = {"importlib.import_module", "import_module", "__import__", "runpy.run_module", "run_module"}


def project_modules() -> dict[str, Path]:
    modules = dict(TOP_LEVEL)
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    return modules


MODULES = project_modules()


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _absolute(target: str, level: int, package: str) -> str:
    if not level:
        return target
    anchor = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join([*anchor, target] if target else anchor)


def imported_names(name: str, path: Path, *, type_checking: bool = False) -> set[str]:
    """Every module `name` imports, as absolute dotted names: import statements at any depth (inside functions
    too), relative ones resolved, and the text given to `importlib.import_module`, `__import__` or
    `runpy.run_module`. `from a import b` names both `a` and `a.b`. Imports under `if TYPE_CHECKING:` count
    only with `type_checking`."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in DYNAMIC_IMPORTS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            text = node.args[0].value
            stripped = text.lstrip(".")
            targets = [_absolute(stripped, len(text) - len(stripped), package)]
        else:
            continue
        if not type_checking and _type_checking_only(node, parents):
            continue
        found.update(t for t in targets if t)
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """Project modules `name` imports at run time (top level and inside functions alike)."""
    found: set[str] = set()
    for target in imported_names(name, path):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def libraries_of(name: str, path: Path) -> set[str]:
    """The top-level names of what `name` imports at run time from outside the project."""
    tops = {target.split(".")[0] for target in imported_names(name, path)}
    return {top for top in tops if top not in PACKAGES and top not in TOP_LEVEL}


def domain_breaches(name: str, path: Path) -> set[str]:
    """What the domain module `name` imports and must not (type-checking imports too), as top-level names."""
    tops = {target.split(".")[0] for target in imported_names(name, path, type_checking=True)}
    return {top for top in tops & NOT_FOR_THE_DOMAIN if (name, top) not in DOMAIN_EXCEPTIONS}


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}
LIBRARIES = {name: libraries_of(name, path) for name, path in MODULES.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the components with more than one module are the circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return circles


def reachable(start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in GRAPH[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


LAUNCHER = f"{DOMAIN}.__main__"
"""`python -m assistant` runs the whole `rummi` (CONTRACT.md), so it hands over to `rummi.py`: a launcher
that no module of the domain imports, not part of the domain."""


def _is_domain(name: str) -> bool:
    return name != LAUNCHER and (name == DOMAIN or name.startswith(f"{DOMAIN}."))


def _run_by_a_user(name: str) -> bool:
    """The `rummi` command, the app, its screens and the reader: not the trainers, evaluation or renderer."""
    if name in TOP_LEVEL or name == f"{DOMAIN}.__main__" or name.split(".")[0] == "ui":
        return True
    return name.split(".")[0] == "vision" and not name.startswith(OFF_THE_RUN_PATH)


USER_RUN = sorted(name for name in MODULES if _run_by_a_user(name))


def test_the_module_graph_is_read() -> None:
    assert "vision.layout" in GRAPH["vision.read"]
    assert "vision.racks" in GRAPH["vision.layout"]
    assert len(MODULES) > 40
    assert {"app", "rummi", "assistant.__main__", "ui.table", "vision.read"} <= set(USER_RUN)
    assert not {m for m in USER_RUN if m.startswith((*OFF_THE_RUN_PATH, "datasets"))}


def test_no_import_circles() -> None:
    assert strongly_connected(GRAPH) == []


def test_the_circle_finder_finds_circles() -> None:
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_dynamic_imports_or_signature_inspection(name: str) -> None:
    tree = ast.parse(MODULES[name].read_text())
    calls = {
        ast.unparse(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
    }
    banned = DYNAMIC_IMPORTS | {"inspect.signature", "signature"}
    assert not calls & banned


@pytest.mark.parametrize("name", USER_RUN)
def test_what_a_user_runs_never_reaches_training_or_evaluation(name: str) -> None:
    reached = reachable(name)
    assert not {m for m in reached if m.startswith(OFF_THE_RUN_PATH)}
    assert not {m: LIBRARIES[m] & TRAINING_LIBRARIES for m in reached if LIBRARIES[m] & TRAINING_LIBRARIES}


def test_the_rummi_command_composes_the_domain_and_the_reader() -> None:
    assert {"assistant.cli", "vision.read", "vision.calibrate_cli", "vision.watch_cli"} <= GRAPH["rummi"]
    assert GRAPH[LAUNCHER] == {"rummi"}
    assert not {m for m in MODULES if LAUNCHER in GRAPH[m]}


@pytest.mark.parametrize("name", sorted(name for name in MODULES if _is_domain(name)))
def test_the_domain_imports_no_other_package_and_no_pixels(name: str) -> None:
    assert domain_breaches(name, MODULES[name]) == set()
    assert not {m for m in reachable(name) if not _is_domain(m)}


def test_the_domain_check_catches_a_planted_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from __future__ import annotations\n"
        "import importlib\n"
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "import numpy as np\n"
        "from assistant.tiles import Tile\n"
        "if TYPE_CHECKING:\n"
        "    from app import main\n"
        "def read(path):\n"
        "    from vision import read\n"
        "    from ..datasets import render\n"
        "    cv2 = __import__('cv2')\n"
        "    return importlib.import_module('ui.table')\n"
        "class Later:\n"
        "    def run(self):\n"
        "        import rummi.sub\n"
    )
    breaches = {"app", "vision", "datasets", "cv2", "ui", "rummi"}
    assert domain_breaches("assistant.planted", planted) == {"numpy", *breaches}
    assert domain_breaches("assistant.solver", planted) == breaches  # the solver's numpy, and only that
    assert imports_of("assistant.planted", planted) >= {"vision.read", "ui.table", "rummi", "assistant.tiles"}
    assert "app" not in imports_of("assistant.planted", planted)  # a type-checking import is not run
    clean = tmp_path / "clean.py"
    clean.write_text(
        "import json\nimport sqlalchemy\nfrom . import tiles\nfrom assistant.rules import RULES\n"
    )
    assert domain_breaches("assistant.clean", clean) == set()
    assert imports_of("assistant.clean", clean) == {"assistant", "assistant.tiles", "assistant.rules"}


def test_the_training_check_catches_a_planted_import(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text("def train():\n    import ultralytics\n    from torch import nn\n")
    assert libraries_of("vision.planted", planted) & TRAINING_LIBRARIES == {"ultralytics", "torch"}
