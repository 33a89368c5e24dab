"""Issue 21 item 5: the package has layers. No import loop between modules or between packages (imports inside
functions count: they run too; only `if TYPE_CHECKING:` imports, which never run, are left out), the leaderboards
never import eval, and no module grows past 500 lines. Issue 35: no import along a forbidden arrow (game -> render,
solvers -> tasks, eval -> leaderboards) beyond the few listed, which may only shrink. Issue 46: no arrow into the audit
from below it."""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "werealign"
MAX_LINES = 500
pytestmark = pytest.mark.xdist_group("import-graph")  # one worker parses the package (cached below)


def _modules() -> dict[str, Path]:
    out = {}
    for f in PACKAGE.rglob("*.py"):
        parts = list(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        test = getattr(node, "test", None)
        if isinstance(node, ast.If) and getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING":
            skip |= {id(n) for n in ast.walk(node)}
    return skip


def import_graph() -> dict[str, set[str]]:
    """module -> the werealign modules it imports, anywhere in its body. A fresh copy each call (a test may index
    the defaultdict); the parse itself is done once per session, as the package does not change under the tests."""
    return defaultdict(set, {m: set(ts) for m, ts in _parsed_graph().items()})


@functools.lru_cache(maxsize=1)
def _parsed_graph() -> dict[str, frozenset[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "werealign":
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    graph[name].add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name.split(".")[0] == "werealign"}
    return {m: frozenset(ts) for m, ts in graph.items()}


def package_of(module: str) -> str:
    """werealign.eval.plan -> eval; a top-level module (werealign.dataset) is a package of its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_module_imports_itself_back():
    graph = import_graph()
    assert cycles({m: {t for t in ts if t != m} for m, ts in graph.items()}) == []


def test_no_package_imports_itself_back_and_leaderboards_never_import_eval():
    packages: dict[str, set[str]] = defaultdict(set)
    for module, targets in import_graph().items():
        packages[package_of(module)] |= {package_of(t) for t in targets if package_of(t) != package_of(module)}
    assert cycles(packages) == []
    assert "eval" not in packages["leaderboards"]


# Issue 35: arrows that run the wrong way. The game decides what a seat knows, not how it is worded (render);
# a solver answers a state, whatever its task (tasks); eval scores a run, the leaderboards compare runs. The baselines
# answer a solver State above the tasks: the model layer finds them through its entry points, never by import, and
# neither the tasks nor the solvers know them.
# Issue 46: the audit consumes items. What the tasks, the dataset layer, generation and the audit all use (shallow
# attacks, context floors, the learned ensemble, leaks, filtering) is werealign.shortcuts, below all of them; nothing
# that makes, holds or scores items imports the audit (generation is handed `audit_items` by its command).
BELOW_AUDIT = ("shortcuts", "tasks", "dataset", "generation", "game", "schema", "text", "render", "splits", "validate",
               "eval", "solvers", "llm", "importers", "annotate", "arena", "baselines", "files", "stats")
FORBIDDEN = {("game", "render"), ("solvers", "tasks"), ("eval", "leaderboards"),
             ("llm", "baselines"), ("tasks", "baselines"), ("solvers", "baselines")} | {(p, "audit") for p in BELOW_AUDIT}
# Forbidden imports still there (module -> module): none since issue 35 moved the release reader into the dataset
# layer, the rules' wording into render and the answer reader into the State. The set may only shrink.
REMAINING: set[tuple[str, str]] = set()


def test_no_forbidden_arrow_but_the_ones_listed():
    found = {(m, t) for m, ts in import_graph().items() for t in ts if (package_of(m), package_of(t)) in FORBIDDEN}
    assert found - REMAINING == set(), "a new forbidden import"
    assert REMAINING - found == set(), "gone at last: take it off REMAINING"


def test_the_baselines_sit_above_the_tasks_and_the_model_layer_reaches_them_by_entry_point():
    """Issue 35 must-have 3: the baselines read a State with the tasks' help; the model layer lists them only through
    the `werealign.models` entry points werealign declares (pyproject.toml), each naming a model of baselines.models."""
    import tomllib

    from werealign.baselines import models
    from werealign.llm.builtin_models import MODELS

    uses = {package_of(t) for m, ts in import_graph().items() if package_of(m) == "baselines" for t in ts}
    assert {"tasks", "solvers"} <= uses
    declared = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]["werealign.models"]
    assert {m.name for m in models.BASELINES} == set(declared)
    for name, target in declared.items():
        module, attr = target.split(":")
        assert module == "werealign.baselines.models" and getattr(models, attr).name == name
        assert MODELS[name] is getattr(models, attr), f"{name}: not found through the installed entry points"


def test_the_cycle_finder_finds_a_loop_it_is_shown():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_over_500_lines():
    long = {str(p.relative_to(PACKAGE.parent)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_nothing_below_the_audit_imports_it():
    """Issue 46 must-have 3: the audit reads items and the shortcuts below it; no package it sits above reaches it, and
    only the CLI shells and the release card (which prints the audit) import it."""
    graph = import_graph()
    into = {package_of(m) for m, ts in graph.items() for t in ts if package_of(t) == "audit" and package_of(m) != "audit"}
    assert into <= {"commands", "release"}, into
    assert {package_of(m) for m, ts in graph.items() if any(package_of(t) == "shortcuts" for t in ts)} >= {"tasks", "generation", "dataset", "audit"}


def test_the_importer_toolkit_never_imports_an_importer():
    """Issue 46 must-have 2: the steps any human-game importer needs sit below the WereBench importer, which uses them."""
    graph = import_graph()
    toolkit = {m: ts for m, ts in graph.items() if m.startswith("werealign.importers.toolkit")}
    assert {"werealign.importers.toolkit.tallies", "werealign.importers.toolkit.gate", "werealign.importers.toolkit.crosscheck",
            "werealign.importers.toolkit.nights.night_facts", "werealign.importers.toolkit.role_words"} <= set(toolkit)
    assert {(m, t) for m, ts in toolkit.items() for t in ts if t.startswith("werealign.importers.werebench")} == set()
    assert any(t.startswith("werealign.importers.toolkit") for t in graph["werealign.importers.werebench.importer"])
