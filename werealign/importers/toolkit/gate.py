"""The import's last step before writing: every game and item through the checks `werealign validate` runs.

An import never writes what its own validator rejects. Each converted game is checked as the JSON it will be
written as (schema, then the semantic game checks); each item against its game (werealign.validate). What fails:
- an entry of a game's list that a game can lose and stay itself (an MVP vote, an event, a highlight) is
  dropped from the game, with the validator's finding as the reason (`mvp_vote_invalid`, `event_invalid`,
  `highlight_invalid`), and the game is checked again;
- anything else wrong with a game drops the game (`game_unusable`, the finding as the reason), and with it
  every item standing on it;
- an item with an error is dropped (`item_invalid`, the finding as the reason).
Warnings are the validator's "usable but suspicious": they are kept, as `validate` keeps them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.report import ImportReport
from werealign.schema import GameLog
from werealign.tasks import TASKS, task_of
from werealign.validate.findings import Finding, Sink
from werealign.validate.game_checks import check_game
from werealign.validate.index import GameIndex
from werealign.validate.item_checks import check_item, check_item_refs

# A list entry a game can lose and stay itself, by its JSON path -> the report code of dropping it.
REMOVABLE = {"mvp.votes": "mvp_vote_invalid", "events": "event_invalid", "highlights": "highlight_invalid"}
GATE_DROP_CODES = frozenset(REMOVABLE.values()) | {"item_invalid"}
_ENTRY = re.compile(r"^(" + "|".join(re.escape(k) for k in REMOVABLE) + r")\[(\d+)\]")
# Each round removes every failing entry at once; a removal can only remove errors (nothing refers into
# these lists), so a second round is a safety net, not a loop.
MAX_ROUNDS = 3


def game_errors(game: GameLog) -> list[Finding]:
    """The errors of `werealign validate`'s semantic game checks. (Its JSON Schema is generated from the
    models the game was built with, so a model holds to it; the property test validates whole outputs.)"""
    out = Sink(file=f"games/{game.game_id}.json", game_id=game.game_id)
    check_game(game, out)
    return [f for f in out.findings if f.severity == "error"]


def gate_game(game: GameLog, report: ImportReport, source_file: str) -> GameLog | None:
    """The game with the entries the validator rejects removed (each reported), or None when the game itself
    is rejected (reported as `game_unusable`)."""
    for _ in range(MAX_ROUNDS):
        errors = game_errors(game)
        if not errors:
            return game
        fatal = [f for f in errors if not _ENTRY.match(f.field)]
        if fatal:
            f = fatal[0]
            more = f" (and {len(fatal) - 1} more)" if len(fatal) > 1 else ""
            report.add("dropped", "game_unusable", source_file=source_file, game=game.game_id, field=f.field or None,
                       what=f"game {game.game_id}: {f.message} [{f.code}]{more}",
                       why="dropped: `werealign validate` rejects it and no rule repairs it")
            return None
        gone: dict[str, set[int]] = {}
        for f in errors:
            m = _ENTRY.match(f.field)
            assert m is not None
            name, i = m.group(1), int(m.group(2))
            if i in gone.setdefault(name, set()):
                continue
            gone[name].add(i)
            entry = _entry(game, name, i)
            report.add("dropped", REMOVABLE[name], source_file=source_file, game=game.game_id, field=f.field,
                       item=getattr(entry, "original_label", None),
                       what=f"{f.message} [{f.code}]", why=f"removed from the game's {name}: `werealign validate` rejects it")
        game = _without(game, gone)
    report.add("dropped", "game_unusable", source_file=source_file, game=game.game_id, field=None,
               what=f"game {game.game_id} still fails `werealign validate` after {MAX_ROUNDS} rounds of repair", why="dropped")
    return None


def _entry(game: GameLog, name: str, i: int):
    return _list(game, name)[i]


def _list(game: GameLog, name: str) -> list:
    if name == "mvp.votes":
        return game.mvp.votes if game.mvp is not None else []
    return getattr(game, name)


def _without(game: GameLog, gone: dict[str, set[int]]) -> GameLog:
    update = {}
    for name, idxs in gone.items():
        kept = [x for i, x in enumerate(_list(game, name)) if i not in idxs]
        if name == "mvp.votes":
            update["mvp"] = game.mvp.model_copy(update={"votes": kept})
        else:
            update[name] = kept
    return game.model_copy(update=update)


class _ErrorsOnlyIndex(GameIndex):
    """The game index validate uses, minus the stem-leak reading: it yields warnings only (the audit's
    business, werealign.audit), and reading every stem would triple the import's time."""

    def stem_leaks(self, item, stem: str) -> list[str]:
        return []


def gate_items(items: dict[str, Sequence], games: dict[str, GameLog], report: ImportReport,
               source_file_of) -> tuple[dict[str, list], dict[str, int]]:
    """Per kind, the items `werealign validate` accepts against their games, and how many it rejected; each
    one rejected is reported (`item_invalid`, with its first error). `source_file_of(item)`: where it came from."""
    indexes = {gid: _ErrorsOnlyIndex.build(g) for gid, g in games.items()}
    out: dict[str, list] = {}
    rejected: dict[str, int] = {}
    seen_ids: set[str] = set()
    for kind, kind_items in items.items():
        assert kind in TASKS, kind
        kept = []
        for it in kind_items:
            sink = Sink(file=f"items/{kind}.jsonl", game_id=it.game_id, item_id=it.item_id)
            check_item(it, sink)
            idx = indexes.get(it.game_id)
            if idx is None:
                sink.error("unknown-game", "game_id", f"game {it.game_id!r} is not in the dataset")
            else:
                check_item_refs(it, idx, sink)
            if it.item_id in seen_ids:  # ids key responses and scores across the three files
                sink.error("duplicate-item-id", "item_id", f"item id {it.item_id} is already used")
            f = next((f for f in sink.findings if f.severity == "error"), None)
            if f is not None:
                report.add("dropped", "item_invalid", source_file=source_file_of(it), game=it.game_id, item=it.item_id, field=f.field or None,
                           what=f"{task_of(it).name} item: {f.message} [{f.code}]", why="dropped: `werealign validate` rejects it")
                continue
            seen_ids.add(it.item_id)
            kept.append(it)
        out[kind] = kept
        rejected[kind] = len(kind_items) - len(kept)
    return out, rejected
