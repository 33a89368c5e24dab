"""Issue 35: no built-in task kind's name is written outside werealign/tasks/ (and the kinds' own modules beyond
it). Whatever needs a kind's columns, titles, card text, scores, modes or checks asks the registry, so a kind from
another package gets all of them as the built-ins do (tests/test_toy_kind.py).

The scan reads every module's string constants (docstrings aside: prose may name a kind) and flags one that is a
built-in kind's name, its mode alias or its short label ("speech", "vote", "va", "seer_check", ...). Some of these
names are also the game's own words: an event's kind ("vote"), a skill id ("seer_check"), a legal move. A name
compared with, or passed as, an event's `kind`/`skill`/`fact` or an item's `decision` is that vocabulary and is not
flagged; the rest is listed below, each module with how many names it may hold and why. The list may only shrink:
a count above its number fails, and so does one below it (lower the number, or drop the entry).
"""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "werealign"
pytestmark = pytest.mark.xdist_group("kind-names")  # one worker scans the package (scan() is cached)
GAME_FIELDS = {"kind", "skill", "fact", "decision"}  # fields whose values are the game's vocabulary

GAME_WORDS = "the game's own words (event kinds, skill ids, moves and their phrasing), not item kinds"
ALLOWED: dict[str, tuple[int, str]] = {
    # The built-in kinds' own modules outside tasks/: where the kinds' items are defined and derived.
    "schema/decisions.py": (21, "the decision kinds' item models (one Literal per kind)"),
    "game/decisions.py": (11, "derives the decision kinds' items from a game: which move each kind asks"),
    "game/claims.py": (1, "reads the claims the claim kind asks about"),
    "game/derive.py": (2, "derives VA and OI items; their item-id tags"),
    "game/claim_labels.py": (1, "the claim labels file's field naming the claimed role (a file format)"),
    # The game's vocabulary that is not an event's kind or skill compared in place.
    "schema/models.py": (4, GAME_WORDS),
    "game/knowledge.py": (3, GAME_WORDS),
    "game/knowledge_gaps.py": (3, GAME_WORDS),
    "render/phrases.py": (16, GAME_WORDS),
    "arena/board.py": (2, GAME_WORDS),
    "arena/moderator.py": (6, GAME_WORDS),
    "arena/sheriff.py": (2, GAME_WORDS),
    "arena/heuristic.py": (2, GAME_WORDS),
    "arena/lines.py": (6, GAME_WORDS),
    "annotate/agreement.py": (1, GAME_WORDS),
    "shortcuts/leaks.py": (1, GAME_WORDS),
    "importers/toolkit/nights/claims.py": (6, GAME_WORDS),
    "importers/werebench/game.py": (1, GAME_WORDS),
    "importers/toolkit/nights/nights.py": (2, GAME_WORDS),
    "importers/toolkit/nights/night_words.py": (4, GAME_WORDS),
    "importers/toolkit/nights/night_clauses.py": (1, GAME_WORDS),
    "importers/toolkit/nights/night_record.py": (1, GAME_WORDS),
    "solvers/agent_designs.py": (2, "a step named 'vote' (a majority vote over sampled replies), not an item kind"),
    # Files of a given format that hold the built-in kinds by definition.
    "schema/runs.py": (2, "reading a version-1 run.json: that version asked VA with the voter's speech shown"),
    "importers/werebench/importer.py": (11, "the WereBench release's three item configs"),
    "commands/eval.py": (2, "the --va-mode/--oi-mode shorthands typer declares; the kind each sets is the registry's"),
}


def builtin_names() -> set[str]:
    from werealign.tasks import _builtins

    names = set()
    for task in _builtins():
        names |= {task.name, task.mode_alias, task.scorer.label.lower()}
    return names - {""}


def _game_vocabulary(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """A constant compared with `x.kind`/`x.skill`/... (alone or in a tuple), or passed as `kind=`/`skill=`."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.keyword):
        return parent.arg in GAME_FIELDS
    if isinstance(parent, (ast.Tuple, ast.List, ast.Set)):
        parent = parents.get(id(parent))
    if isinstance(parent, ast.Compare):
        return any(isinstance(side, ast.Attribute) and side.attr in GAME_FIELDS for side in (parent.left, *parent.comparators))
    return False


def kind_names_in(path: Path, names: set[str]) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                  and node.value.lower() in names and not _game_vocabulary(node, parents))


@cache
def scan() -> dict[str, list[tuple[int, str]]]:
    names = builtin_names()
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("tasks/"):
            continue
        hits = kind_names_in(path, names)
        if hits:
            found[rel] = hits
    return found


def test_no_builtin_kind_name_outside_tasks_beyond_the_allow_list() -> None:
    found = scan()
    new = {rel: hits for rel, hits in found.items() if rel not in ALLOWED}
    assert not new, f"a built-in kind's name outside werealign/tasks/: ask the registry instead: {new}"
    grown = {rel: hits for rel, hits in found.items() if rel in ALLOWED and len(hits) > ALLOWED[rel][0]}
    assert not grown, f"more kind names than the allow-list grants: {grown}"


def test_the_allow_list_only_shrinks() -> None:
    """An entry whose module now holds fewer names must be lowered (or dropped): the list records the debt exactly."""
    found = scan()
    stale = {rel: (allowed, len(found.get(rel, ()))) for rel, (allowed, _) in ALLOWED.items() if len(found.get(rel, ())) < allowed}
    assert not stale, f"lower these allow-list entries to what is left (module: (allowed, found)): {stale}"


def test_the_scan_sees_a_kind_name_and_lets_game_words_pass(tmp_path) -> None:
    """The scanner itself: a kind name as data is flagged; the same word as an event's kind or skill is not."""
    module = tmp_path / "m.py"
    module.write_text('"""Speech items are scored by speech."""\n'
                      'TITLES = {"speech": "accuracy"}\n'
                      'def f(e, item):\n'
                      '    """vote"""\n'
                      '    return e.kind == "vote" or e.skill in ("seer_check", "wolf_kill") or g(skill="guard_protect") or item.task == "opponent"\n',
                      encoding="utf-8")
    assert kind_names_in(module, builtin_names()) == [(2, "speech"), (5, "opponent")]
    assert Counter(v for hits in scan().values() for _, v in hits)  # the real package is scanned (the list is not vacuous)
