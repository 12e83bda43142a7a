"""No upstream twin. The house's floors, checked: who may import whom, and no import cycles.

minikcm is built in floors (dev/CONTRACTS.md, "Floors"). A module may import its
own floor and the floors below it, never one above: the step contract and the
clock sit on the ground floor so that every loop can speak them without reaching
up into the simulation. Imports under `if TYPE_CHECKING:` are for type checkers
only and do not count; every other import does, wherever it stands in the file
(a function-level import runs too, and a cycle through it is still a cycle).
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "minikcm"

# Bottom up. A module belongs to the first prefix it matches, most specific first.
FLOORS: list[tuple[int, str]] = [
    (0, "minikcm"),  # the package's own __init__ names the version only
    (0, "minikcm.upstream"), (0, "minikcm.clock"), (0, "minikcm.driver"), (0, "minikcm.features"),
    (0, "minikcm.logs"), (0, "minikcm.signals"),
    (1, "minikcm.apimachinery"), (1, "minikcm.api"),
    (2, "minikcm.apiserver"),
    (3, "minikcm.client"),
    (4, "minikcm.util"),
    (5, "minikcm.tools"),
    (6, "minikcm.informers"),
    (7, "minikcm.controller"),
    (8, "minikcm.cmd"),
    (9, "minikcm.sim"),
    (10, "minikcm.harness"),
    (11, "minikcm.up"), (11, "minikcm.cli"), (11, "minikcm.exercises"), (11, "minikcm.__main__"),
]


def module_names() -> dict[str, pathlib.Path]:
    """Every module of the package, by dotted name (a package by its own name)."""
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


MODULES = module_names()


def owning_module(name: str) -> str | None:
    """The module an import statement loads last: `a.b.c` may name a class in module `a.b`."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


class RuntimeImports(ast.NodeVisitor):
    """Collects the minikcm modules a module imports at run time (skipping `if TYPE_CHECKING:` bodies)."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.startswith("minikcm") and (target := owning_module(alias.name)):
                self.found.add(target)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if not source.startswith("minikcm"):
            return
        for alias in node.names:
            full = f"{source}.{alias.name}"
            target = full if full in MODULES else owning_module(source)
            if target:
                self.found.add(target)


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name, path in MODULES.items():
        visitor = RuntimeImports(name, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
        visitor.found.discard(name)
        graph[name] = visitor.found
    return graph


def within(module: str, package: str) -> bool:
    """True when `module` is `package` or inside it (`minikcm.cli` is not inside `minikcm.client`)."""
    return module == package or module.startswith(package + ".")


def floor_of(module: str) -> int:
    for floor, prefix in sorted(FLOORS, key=lambda fp: -len(fp[1])):
        if within(module, prefix):
            return floor
    raise AssertionError(f"{module} is on no floor: add its package to FLOORS")


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
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
                    found.append(sorted(component))
    return found


GRAPH = import_graph()


def test_every_module_is_on_a_floor():
    for module in MODULES:
        floor_of(module)


def test_no_module_imports_a_floor_above_its_own():
    upward = sorted(f"{m} (floor {floor_of(m)}) imports {d} (floor {floor_of(d)})"
                    for m, deps in GRAPH.items() for d in deps if floor_of(d) > floor_of(m))
    assert upward == [], "\n".join(upward)


def test_only_the_top_floors_import_the_simulation():
    """The issue's wording of the same rule: sim, cmd, up and cli are imported only from above them."""
    top = ("minikcm.sim", "minikcm.cmd", "minikcm.up", "minikcm.cli")
    allowed = top + ("minikcm.harness", "minikcm.exercises", "minikcm.__main__")
    offenders = sorted(f"{m} imports {d}" for m, deps in GRAPH.items() for d in deps
                       if any(within(d, t) for t in top) and not any(within(m, a) for a in allowed))
    assert offenders == [], "\n".join(offenders)


def test_the_client_side_never_imports_the_api_server():
    """The API server has no upstream twin: the ported client side reaches it only through a clientset.

    `tools`, `util`, `informers`, `controller` and `cmd` sit above `apiserver`, so the floor test
    alone would let them import it; this fence forbids it.
    """
    client_side = ("minikcm.tools", "minikcm.util", "minikcm.informers", "minikcm.controller", "minikcm.cmd")
    leaks = sorted(f"{m} imports {d}" for m, deps in GRAPH.items() for d in deps
                   if within(d, "minikcm.apiserver") and any(within(m, c) for c in client_side))
    assert leaks == [], "\n".join(leaks)


def test_no_runtime_import_cycles():
    found = cycles(GRAPH)
    assert found == [], "\n".join(" <-> ".join(c) for c in found)


CYCLE_CASES = [
    pytest.param({"a": {"b"}, "b": {"a"}}, [["a", "b"]], id="two-modules"),
    pytest.param({"a": {"b"}, "b": {"c"}, "c": set()}, [], id="a-chain-is-no-cycle"),
    pytest.param({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]], id="three-and-a-visitor"),
]


@pytest.mark.parametrize("graph, want", CYCLE_CASES)
def test_cycle_finder(graph, want):
    assert cycles(graph) == want


def test_type_checking_imports_do_not_count():
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from minikcm.cli import main\n"
    visitor = RuntimeImports("minikcm.clock", False)
    visitor.visit(ast.parse(source))
    assert visitor.found == set()
    visitor.visit(ast.parse("def f():\n    from minikcm.cli import main\n"))
    assert visitor.found == {"minikcm.cli"}
