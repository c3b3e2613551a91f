"""The house rules of the code's layout, read from the source: no import circles, no dynamic imports, and
nothing a user runs (`app.py`, `rummi`) reaches the trainers or the evaluation tools."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("assistant", "vision", "datasets", "models", "ui")
ENTRY_POINTS = {"app": ROOT / "app.py", "assistant.cli": ROOT / "assistant" / "cli.py"}
OFF_THE_RUN_PATH = ("vision.training", "vision.evaluation")


def project_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {"app": ROOT / "app.py"}
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


def imports_of(name: str, path: Path) -> set[str]:
    """Project modules `name` imports at run time (top level and inside functions alike)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


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


def test_the_module_graph_is_read() -> None:
    assert "vision.layout" in GRAPH["vision.read"]
    assert "vision.racks" in GRAPH["vision.layout"]
    assert len(MODULES) > 40


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
    banned = {"importlib.import_module", "import_module", "__import__", "inspect.signature", "signature"}
    assert not calls & banned


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_what_a_user_runs_never_reaches_training_or_evaluation(entry: str) -> None:
    reached = reachable(entry)
    assert "vision.read" in reached or entry == "app"
    assert not {m for m in reached if m.startswith(OFF_THE_RUN_PATH)}


def test_the_domain_stays_free_of_pixels() -> None:
    for name, path in MODULES.items():
        if name.startswith("assistant") and name != "assistant.cli":
            text = path.read_text()
            assert "import cv2" not in text and "import torch" not in text, name
            assert not {m for m in GRAPH[name] if m.startswith(("vision", "ui"))}, name
