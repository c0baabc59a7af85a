"""The engine's imports go one way, so each layer can be read and tested on its own.

Every import counts, wherever it stands: at the top, inside a function (a "late" import that
only hides a cycle) or under TYPE_CHECKING. The registry imports the variant
modules through the `rules_engine.variants` package: those imports count as the registry's.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rules_engine"
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for path in PACKAGE.rglob("*.py") if path.name not in ("__init__.py", "__main__.py")
)


def _imports(module: str, path: Path | None = None) -> set[str]:
    path = path or ROOT / (module.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from rules_engine import registry` imports a module, `from x import name` x
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in MODULES)
    if module == "rules_engine.registry":
        found |= _imports("rules_engine.variants", PACKAGE / "variants" / "__init__.py")
    return found - {module}


GRAPH = {module: _imports(module) for module in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def test_the_graph_sees_the_layers():
    # A parser that found nothing would pass the cycle test below for the wrong reason.
    assert "rules_engine.variant" in GRAPH["rules_engine.registry"]
    assert "rules_engine.game" in GRAPH["rules_engine.speed"]
    assert "rules_engine.variants.stress_se" in GRAPH["rules_engine.registry"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [
        frozenset({"a", "b", "c"})]


def test_engine_imports_have_no_cycle():
    assert _cycles(GRAPH) == []


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_on_its_own(module):
    proc = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
