"""The package's layers: no import cycle among modules, no import from a layer up.

The import graph is read from the source (every ``import`` and ``from ... import``,
those inside functions included), so a lazy import counts like any other. Imports
under ``if TYPE_CHECKING:`` never run: they are left out of the cycle check but
still count for the layers (a lower layer should not even name a higher one's
types). The same order is drawn in ``ARCHITECTURE.md``.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "accord"

#: Bottom to top: each layer imports only from the layers before it (and itself). The
#: public API (``accord``, loaded from ``_api``) sits above every family and below the
#: command line, which calls it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "_version"),
    ("data",),
    ("readers",),
    ("inference",),
    ("tables",),
    ("datasets",),
    ("coefficients",),
    ("interpret",),
    ("multilabel",),
    ("spans",),
    ("images",),
    ("evaluation",),
    ("judge",),
    ("annotators",),
    ("engines",),
    ("study",),
    ("history",),
    ("report",),
    ("__init__", "_api"),
    ("cli",),
    ("__main__",),
)
RANK = {name: i for i, names in enumerate(LAYERS) for name in names}

#: Imports that run against the order, each with the reason it has to stay.
ALLOWED: dict[tuple[str, str], str] = {}

#: The modules allowed directly in src/accord/ besides the package's own entry points.
TOP_LEVEL = {"__init__.py", "__main__.py", "_api.py", "errors.py", "_version.py"}
MAX_TOP_LEVEL_EXTRA = 6


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _target(name: str) -> str | None:
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in MODULES else None


def _imports(module: str) -> list[tuple[str, bool]]:
    """(imported module, runs at run time) for every accord import in ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for n in ast.walk(node))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        for name in names:
            target = _target(name) if name.split(".")[0] == "accord" else None
            if target is not None and target != module:
                found.append((target, id(node) not in typing_only))
    return found


GRAPH = {m: _imports(m) for m in MODULES}


def _layer(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def test_every_module_has_a_layer() -> None:
    unplaced = sorted({_layer(m) for m in MODULES} - set(RANK))
    assert not unplaced, f"add these to LAYERS (and ARCHITECTURE.md): {unplaced}"


def test_no_import_runs_up_a_layer() -> None:
    wrong = sorted(
        f"{m} imports {t} ({_layer(m)} is below {_layer(t)})"
        for m, targets in GRAPH.items()
        for t, _ in targets
        if RANK[_layer(m)] < RANK[_layer(t)] and (m, t) not in ALLOWED
    )
    assert not wrong, "\n".join(wrong)


def _cycles(graph: dict[str, list[tuple[str, bool]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan 1972)."""
    edges = {m: sorted({t for t, runs in ts if runs}) for m, ts in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in edges:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle() -> None:
    cycles = _cycles(GRAPH)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle() -> None:
    fake = {"accord.a": [("accord.b", True)], "accord.b": [("accord.c", True)],
            "accord.c": [("accord.a", True)], "accord.d": [("accord.a", True)],
            "accord.e": [("accord.d", False)], "accord.f": []}
    fake["accord.a"].append(("accord.e", True))  # e -> d is typing only: no second cycle
    assert _cycles(fake) == [["accord.a", "accord.b", "accord.c"]]


def test_the_graph_sees_lazy_and_typing_imports() -> None:
    targets = dict(GRAPH["accord.report.output"])
    assert targets["accord.report.html"] is True  # inside a function
    typing_only = dict(GRAPH["accord.report.html"])
    assert typing_only["accord.report.model"] is False  # under TYPE_CHECKING


def test_the_top_level_holds_few_modules() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in TOP_LEVEL)
    assert len(loose) <= MAX_TOP_LEVEL_EXTRA, loose


def test_modules_stay_under_500_lines() -> None:
    long = sorted(
        f"{p.relative_to(SRC)}: {n} lines"
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 500
    )
    assert not long, "\n".join(long)


def test_each_package_says_what_it_is_for() -> None:
    missing = sorted(
        str(p.relative_to(SRC)) for p in PACKAGE.rglob("__init__.py")
        if ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None
    )
    assert not missing, missing
