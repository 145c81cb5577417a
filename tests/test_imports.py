"""Item 13: the package's imports form no circle, and every module imports alone.

The graph counts every ``import`` and ``from … import`` anywhere in a module:
inside functions, and under ``if TYPE_CHECKING:`` too (an import only the type
checker follows is still a dependency of the design, and a deferred import only
hides a circle), and every ``importlib.import_module("literal")``. The
registries' lazy tables name modules by path in data, which is the one
direction allowed.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "decklab"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str | None:
    """The decklab module an import names (a module, or the package holding a name)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, source: str | None = None) -> set[str]:
    """The decklab modules that module ``name`` imports (from ``source`` if given)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    out = {_resolve(f) for f in found if f.startswith("decklab")}
    return {m for m in out if m is not None and m != name}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One import circle through each tangle of ``graph`` (each strongly connected
    component of more than one module), so that a failure names every circle at once.

    Tarjan's algorithm, iterative; then a breadth-first search inside the component
    from its first module back to itself gives the shortest circle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    circles = []
    for component in sorted(components):
        members = set(component)
        start = component[0]
        came_from: dict[str, str] = {}
        frontier = [start]
        while start not in came_from:
            following = []
            for node in frontier:
                for child in sorted(graph.get(node, set()) & members):
                    if child not in came_from:
                        came_from[child] = node
                        following.append(child)
            frontier = following
        backwards = [start]
        node = came_from[start]
        while node != start:
            backwards.append(node)
            node = came_from[node]
        circles.append([start, *reversed(backwards)])
    return circles


def test_item13_find_cycles_finds_every_circle() -> None:
    """The checker itself: each circle is found, once, and a tree gives none."""
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    two = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"a"}}
    assert find_cycles(two) == [["a", "b", "a"], ["c", "d", "e", "c"]]


def test_item13_hidden_imports_count() -> None:
    """An import under ``if TYPE_CHECKING:``, inside a function or through
    ``importlib`` with a literal name is an edge, like a plain one."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "import typing\n"
        "if TYPE_CHECKING:\n"
        "    from decklab.engine.state import GameState\n"
        "if typing.TYPE_CHECKING:\n"
        "    from .frames import Frame\n"
        "def f() -> None:\n"
        "    from decklab.server import tokens\n"
        "    importlib.import_module('decklab.server.trace')\n"
    )
    assert imports_of("decklab.server.logline", source) == {
        "decklab.engine.state",
        "decklab.server.frames",
        "decklab.server.tokens",
        "decklab.server.trace",
    }


def test_item13_no_import_cycle_in_decklab() -> None:
    graph = {name: imports_of(name) for name in MODULES}
    circles = find_cycles(graph)
    assert circles == [], "import circles:\n" + "\n".join(" → ".join(c) for c in circles)


def test_item13_registries_import_none_of_what_they_register() -> None:
    """The two registries name their entries by module path in data, and import none of them."""
    games = imports_of("decklab.engine.registry")
    assert not {m for m in games if m.startswith("decklab.games.") and m != "decklab.games.catalog"}
    assert imports_of("decklab.games.catalog") == set()
    assert imports_of("decklab.games") == set()
    # The agents' registry imports their interface and the spec grammar, which import no agent.
    interface = {"decklab.bots.base", "decklab.bots.spec"}
    bots = imports_of("decklab.bots.registry")
    assert {m for m in bots if m.startswith("decklab.bots.")} <= interface
    for name in interface:
        assert {m for m in imports_of(name) if m.startswith("decklab.bots.")} <= interface
    from decklab.bots.registry import BUILTIN_AGENTS
    from decklab.games.catalog import GAMES

    for target in [*GAMES.values(), *BUILTIN_AGENTS.values()]:
        assert target.split(":")[0] in MODULES


def _run_by_alembic(name: str) -> bool:
    """Migration scripts are executed by Alembic (which provides their context), not imported."""
    return name.startswith("decklab.server.migrations.") and name != "decklab.server.migrations"


def test_item13_every_module_imports_alone() -> None:
    """Each module, imported first, loads (one process for all, decklab's modules dropped
    before each: cheap, and an import-order bug still shows)."""
    names = sorted(n for n in MODULES if n != "decklab.__main__" and not _run_by_alembic(n))
    script = (
        "import importlib, sys\n"
        "base = set(sys.modules)\n"
        "bad = []\n"
        f"for name in {names!r}:\n"
        "    for m in [m for m in sys.modules if m not in base and m.split('.')[0] == 'decklab']:\n"
        "        del sys.modules[m]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        bad.append(f'{name}: {type(exc).__name__}: {exc}')\n"
        "print('\\n'.join(bad))\n"
        "sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=240,
        # Pure Python: compiled modules share one extension, which cannot be loaded
        # again once its modules are dropped from sys.modules (the import structure,
        # which is what this checks, is the same on both builds).
        env={**os.environ, "DECKLAB_PURE": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["decklab.bots.cheat", "decklab.games.cabin.state"])
def test_item13_registry_finds_a_module_loaded_first(name: str) -> None:
    """Importing an agent or a game first, then asking the registry, works."""
    code = (
        f"import {name}\n"
        "from decklab.bots.registry import make_agent\n"
        "from decklab.engine.registry import get_game\n"
        "make_agent('cheat:iters=2'); get_game('cabin')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
