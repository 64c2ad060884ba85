"""The package's modules import one another one way: no circle, not even through an
import made only for annotations (`if TYPE_CHECKING:`)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "zermelo"


def imports():
    """Each module of the package and the modules of the package it imports."""
    graph = {}
    for path in PACKAGE.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = found
    return graph


def circle(graph):
    """One circle of imports in `graph`, or None."""
    done = set()

    def visit(module, path):
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        done.add(module)
        for other in sorted(graph.get(module, ())):
            found = visit(other, path + [module])
            if found:
                return found
        return None

    return next(filter(None, (visit(m, []) for m in sorted(graph))), None)


def test_no_module_imports_back():
    graph = imports()
    assert "_state" in graph["_game"] and "_results" in graph["_state"]
    assert circle(graph) is None, " -> ".join(circle(graph))


def test_a_circle_is_found():
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b"}, "b": set()}) is None
