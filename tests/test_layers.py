"""The pipeline's layering, checked: imports point down the stages only, and nothing imports in a circle.

Every module of the shipped ``harness`` package belongs to one stage of the path board file -> build ->
runner -> log stream -> format -> pytest item (``LAYERS``, lowest first). A module may import modules of
its own stage or of a lower one, at the top of the file, inside a function or under ``if TYPE_CHECKING:``
alike (a type a module names is a dependency too). A new module must be given a stage
here, so the map stays complete. Test modules (``*_test.py`` beside their module) and the test support in
``harness/testing`` are not part of the product and are not checked.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from harness import REPO_ROOT

PACKAGE = REPO_ROOT / "harness"

# Lowest first. Within a stage, imports go either way (but never in a circle).
LAYERS: list[tuple[str, set[str]]] = [
    ("foundation", {"harness", "harness.core", "harness.core.*", "harness.outcome"}),
    ("board", {"harness.board", "harness.board.*"}),
    ("build", {"harness.build", "harness.build.*"}),
    ("formats", {"harness.formats", "harness.formats.*", "harness.run_result"}),
    ("runners", {"harness.runners", "harness.runners.*"}),
    ("resources", {"harness.hil", "harness.hil.*", "harness.farm", "harness.farm.*"}),
    ("session", {"harness.session"}),
    ("coverage", {"harness.coverage", "harness.coverage.build", "harness.coverage.collect", "harness.coverage.report",
                  "harness.coverage.stream"}),
    ("front ends", {"harness.pytest", "harness.pytest.*", "harness.cli", "harness.cli.*", "harness.robot",
                    "harness.robot.*", "harness.__main__", "harness.coverage.plugin"}),
]


# Product modules whose names end like a test module's.
NOT_TESTS = {PACKAGE / "formats" / "micro_test.py"}


def _is_test(path: Path) -> bool:
    return (path.stem.endswith("_test") and path not in NOT_TESTS) or "testing" in path.relative_to(PACKAGE).parts


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if _is_test(path) or "testdata" in path.parts:
            continue
        parts = path.relative_to(REPO_ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(path: Path, known: set[str]) -> set[str]:
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_Import(self, node: ast.Import) -> None:
            found.update(alias.name for alias in node.names if alias.name.startswith("harness"))

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.module and node.module.startswith("harness"):
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names
                             if f"{node.module}.{alias.name}" in known)

    Visitor().visit(ast.parse(path.read_text()))
    return {name for name in found if name in known}


def _stage(module: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if module == member or (member.endswith(".*") and module.startswith(member[:-1])):
                return index
    return None


GRAPH = {name: _imports(path, set(_modules())) - {name} for name, path in _modules().items()}


def test_every_module_has_a_stage() -> None:
    missing = sorted(name for name in GRAPH if _stage(name) is None)
    assert not missing, f"give these modules a stage in tests/test_layers.py LAYERS: {missing}"


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    upward = []
    for module, imported in sorted(graph.items()):
        here = _stage(module)
        for target in sorted(imported):
            there = _stage(target)
            if here is not None and there is not None and there > here:
                upward.append(f"{module} ({LAYERS[here][0]}) imports {target} ({LAYERS[there][0]})")
    return upward


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, set()):
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


def test_imports_point_down_only() -> None:
    upward = upward_imports(GRAPH)
    assert not upward, "imports that point up the pipeline:\n" + "\n".join(upward)


def test_no_import_circles() -> None:
    assert not import_circles(GRAPH), f"import circles: {import_circles(GRAPH)}"


def test_the_checks_see_violations(tmp_path: Path) -> None:
    """The checks can fail: a function-local upward import is found and reported, and so is a circle."""
    module = tmp_path / "probe.py"
    module.write_text("def f():\n    from harness.pytest.plugin import BINARY_ITEM\n    return BINARY_ITEM\n"
                      "if TYPE_CHECKING:\n    from harness.cli.main import main\n")
    assert _imports(module, set(GRAPH)) == {"harness.pytest.plugin", "harness.cli.main"}
    bad = {**GRAPH, "harness.board.boards": GRAPH["harness.board.boards"] | {"harness.pytest.plugin"}}
    assert any(line.startswith("harness.board.boards (board) imports harness.pytest.plugin")
               for line in upward_imports(bad))
    looped = {**GRAPH, "harness.outcome": {"harness.core.run_token"}, "harness.core.run_token": {"harness.outcome"}}
    assert ["harness.core.run_token", "harness.outcome"] in [sorted(circle) for circle in import_circles(looped)]


SPINE = {"__init__.py", "__main__.py", "outcome.py", "run_result.py", "run_result_test.py", "session.py",
         "session_test.py"}


def test_the_root_holds_only_the_spine() -> None:
    """The pipeline's stages are folders; the package root keeps only the result types and the session."""
    loose = sorted(path.name for path in PACKAGE.glob("*.py") if path.name not in SPINE)
    assert not loose, f"put these modules in the folder of their stage (see docs/architecture.md): {loose}"


def test_every_folder_says_what_it_owns_and_may_import() -> None:
    for folder in sorted(path for path in PACKAGE.iterdir() if path.is_dir() and path.name not in
                         {"testdata", "__pycache__", "_data"}):
        init = folder / "__init__.py"
        assert init.is_file(), f"{folder} has no __init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert doc, f"{init} needs a docstring saying what the folder owns and what it may import"
        if folder.name not in {"testing"}:
            assert "May import" in doc, f"{init}'s docstring does not say what the folder may import"


LONG_MODULE = 420  # "about 400 lines"


def test_long_modules_say_why_at_their_top() -> None:
    """A module well over 400 lines states the reason in its docstring (``Size: ...``), or is split."""
    unexplained = []
    for name, path in _modules().items():
        text = path.read_text()
        if text.count("\n") > LONG_MODULE and "Size: " not in (ast.get_docstring(ast.parse(text)) or ""):
            unexplained.append(f"{name} ({text.count(chr(10))} lines)")
    assert not unexplained, f"split these or say why at their top ('Size: ...'): {unexplained}"


def test_the_architecture_page_maps_every_folder() -> None:
    """docs/architecture.md names every folder of the package (and no folder that is gone)."""
    page = (REPO_ROOT / "docs" / "architecture.md").read_text()
    folders = {path.name for path in PACKAGE.iterdir() if path.is_dir() and (path / "__init__.py").is_file()}
    named = set(re.findall(r"`harness/([a-z_]+)/`", page))
    assert folders - {"testdata"} == named, f"docs/architecture.md: missing {folders - named}, gone {named - folders}"
