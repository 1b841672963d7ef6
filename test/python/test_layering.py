"""The package layering of python/shardpy (issue 13): which package may import which.

Stages sit on the layers below them, never on later stages:

    ir < sharding < lowering < ops < propagation < partition
    explain: on ir and sharding (the stages record into it while --explain runs)
    gspmd, runtime: on ir and sharding;  pass_registry, cli: on ir
    passes (shardpy.passes): on the library;  pipeline: on passes (it loads them all)
    frontend (shardpy.jit) on pipeline;  tools on top

Checked over every import in the library, function-level ones included: no package
imports one it may not, nothing imports a private (`_name`) module or name of another
package, and the module import graph has no cycles (imports under `if TYPE_CHECKING:`,
for annotations only, do not count for cycles).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "python" / "shardpy"

LOWER = {
    "ir": set(),
    "sharding": {"ir"},
    "lowering": {"ir", "sharding"},
    "ops": {"ir", "sharding", "lowering"},
    # explain records what the stages decide (--explain) and reads the per-device
    # module: the stages call into it, it knows none of them.
    "explain": {"ir", "sharding"},
    "propagation": {"ir", "sharding", "ops", "explain"},
    "partition": {"ir", "sharding", "lowering", "ops", "explain"},
    "gspmd": {"ir", "sharding"},
    # runtime reads XLA's executables: their shardings are GSPMD (gspmd.codec).
    "runtime": {"ir", "sharding", "gspmd"},
    "pass_registry": {"ir"},
    "cli": {"ir"},
    "pipeline": {"ir", "pass_registry", "passes"},
    "frontend": {"ir", "sharding", "runtime", "pipeline", "explain"},
    "__init__": {"frontend"},
}
LIBRARY_PACKAGES = set(LOWER) - {"pipeline", "pass_registry", "cli", "__init__"}


def modules() -> dict[str, Path]:
    """shardpy.<dotted> -> file, for the library (python/shardpy) and passes/."""
    found = {}
    for path in LIBRARY.rglob("*.py"):
        rel = path.relative_to(LIBRARY).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        found[".".join(["shardpy", *parts])] = path
    for path in (ROOT / "passes").glob("*.py"):
        name = "shardpy.passes" + ("" if path.stem == "__init__" else "." + path.stem)
        found[name] = path
    return found


def package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(module: str, path: Path, runtime_only: bool = False
               ) -> list[tuple[str, str | None, int]]:
    """(imported shardpy module, imported name or None, line) for every import
    (runtime_only: leaving out those under `if TYPE_CHECKING:`, annotations only)."""
    tree = ast.parse(path.read_text(), str(path))
    type_only = {id(n) for node in ast.walk(tree)
                 if isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                 and node.test.id == "TYPE_CHECKING"
                 for child in node.body for n in ast.walk(child)}
    is_package = path.name == "__init__.py"
    base = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if runtime_only and id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("shardpy"):
                    found.append((alias.name, None, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[:len(base) - node.level + 1]
                target = ".".join(anchor + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("shardpy"):
                continue
            for alias in node.names:
                found.append((target, alias.name, node.lineno))
    return found


MODULES = modules()


def _resolve(target: str, name: str | None) -> str:
    """The module an import binds: `from shardpy.x import y` is module shardpy.x.y when
    that is a module, else names something inside shardpy.x."""
    if name is not None and f"{target}.{name}" in MODULES:
        return f"{target}.{name}"
    return target


def test_packages_import_only_lower_layers():
    bad = []
    for module, path in MODULES.items():
        pkg = package_of(module)
        if pkg in ("passes", "tools"):
            continue
        for target, name, line in imports_of(module, path):
            other = package_of(_resolve(target, name))
            if other == pkg or other in LOWER[pkg]:
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line}: {pkg} imports {other} "
                       f"({_resolve(target, name)})")
    assert not bad, "layering violations:\n" + "\n".join(bad)


def test_no_private_names_across_packages():
    bad = []
    for module, path in MODULES.items():
        pkg = package_of(module)
        for target, name, line in imports_of(module, path):
            resolved = _resolve(target, name)
            if package_of(resolved) == pkg:
                continue
            private_module = any(p.startswith("_") and p != "__init__"
                                 for p in resolved.split(".")[1:])
            if private_module or (name and name.startswith("_")
                                  and resolved == target):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {module} imports private "
                           f"{target}{'.' + name if name else ''}")
    assert not bad, "\n".join(bad)


def test_no_import_cycles():
    graph = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, name, _ in imports_of(module, path, runtime_only=True):
            resolved = _resolve(target, name)
            if resolved in graph and resolved != module:
                graph[module].add(resolved)
    # A package __init__ that imports its own modules is not a cycle with them.
    for module in graph:
        graph[module] = {t for t in graph[module] if not module.startswith(t + ".")
                         or MODULES[t].name != "__init__.py"}
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(" -> ".join(stack[stack.index(t):] + [t]))
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("package", sorted(LIBRARY_PACKAGES))
def test_every_package_says_what_it_owns_and_may_import(package):
    doc = ast.get_docstring(ast.parse((LIBRARY / package / "__init__.py").read_text()))
    assert doc and "May import" in doc, f"shardpy.{package} needs a docstring"


def test_library_modules_stay_readable():
    long = [f"{p.relative_to(ROOT)}: {n} lines" for p in LIBRARY.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 650]
    assert not long, "modules over ~600 lines:\n" + "\n".join(long)
