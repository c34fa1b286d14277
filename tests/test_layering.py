"""The import graph of the project (every import, at module level or inside a function): no cycle
between modules; the core (`scholarstack/`) imports no Dagster and nothing of the shell, except
the three entry points that run it (cli, demo, mcp_server); evaluations never import orchestration."""

from __future__ import annotations

import ast
import graphlib

from scholarstack.settings import REPO_ROOT

PACKAGES = ("scholarstack", "assets", "orchestration", "resources", "expectations", "evaluations", "benchmarks")
SHELL = ("dagster", "orchestration", "assets", "resources", "expectations")
ENTRY_POINTS = ("scholarstack.cli", "scholarstack.demo", "scholarstack.mcp_server")


def _modules() -> dict[str, ast.Module]:
    out = {}
    for pkg in PACKAGES:
        for path in (REPO_ROOT / pkg).rglob("*.py"):
            parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = (ast.parse(path.read_text()), parts[-1] == "__init__")
    return out


def _imports(name: str, tree: ast.Module, is_package: bool) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing module's package
                pkg = name.split(".") if is_package else name.split(".")[:-1]
                pkg = pkg[:len(pkg) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            found |= {base} | {f"{base}.{a.name}" for a in node.names}
    return found


def graph() -> dict[str, set[str]]:
    mods = _modules()
    edges = {}
    for name, (tree, is_package) in mods.items():
        edges[name] = {m for m in _imports(name, tree, is_package) if m in mods and m != name}
    return edges


def _all_imports() -> dict[str, set[str]]:
    return {name: _imports(name, tree, is_package) for name, (tree, is_package) in _modules().items()}


def test_no_import_cycle():
    edges = graph()
    # A package's __init__ importing its own modules is not a cycle of files; leave those edges out.
    edges = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in edges.items()}
    graphlib.TopologicalSorter(edges).prepare()  # raises CycleError naming the cycle


def test_the_core_imports_no_dagster_and_evaluations_no_orchestration():
    bad = []
    for name, imported in _all_imports().items():
        top = {m.split(".")[0] for m in imported}
        if name.startswith("scholarstack") and name not in ENTRY_POINTS and top & set(SHELL):
            bad.append(f"{name} imports {sorted(top & set(SHELL))}")
        if name.startswith("evaluations") and "orchestration" in top:
            bad.append(f"{name} imports orchestration")
    assert not bad, bad
