"""The package's modules import one another without cycles, local imports included."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """dizhu modules that ``path`` imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = node.module or ""
            if node.level:
                target = f"{base}.{target}" if target else base
            if target.startswith("dizhu"):
                found.add(target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("dizhu")}
    return found


def test_no_import_cycles() -> None:
    modules = {module_name(p): p for p in (SRC / "dizhu").rglob("*.py")}
    graph = {m: {t for t in imports_of(p) if t in modules and t != m} for m, p in modules.items()}
    # importing a package runs its __init__, which is not a cycle with its own submodules
    graph = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in graph[m]:
            if state.get(t) == 1:
                cycles.append(path[path.index(t):] + [t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []
    assert "dizhu.ranks" in graph["dizhu.variants"]  # the test reads the imports it should
