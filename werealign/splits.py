"""Which items a run evaluates: `--split faithful` (the default) or `all`.

The faithful split leaves out items whose prompt cannot stand where the player stood: the viewpoint lacks a night
fact the rules say it held (`knowledge_missing`, werealign.game.knowledge) or the item's stem or options pin a
true role on a seat the viewpoint could not know (werealign.shortcuts.leaks hidden-role flags). `all` is the dataset as it
is (for comparison with published numbers); every incomplete prompt still names what it lacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from werealign.shortcuts.leaks import hidden_role_flags
from werealign.game.knowledge import missing_knowledge
from werealign.schema import GameLog

SPLITS: dict[str, str] = {
    "faithful": "items whose viewpoint holds every night fact the rules require and whose stem names no hidden role",
    "all": "every item of the dataset (incomplete prompts say what they lack)",
}
DEFAULT_SPLIT = "faithful"

def _knowledge(item: Any, game: GameLog) -> str | None:
    cutoff = getattr(item, "cutoff_segment", None)
    if cutoff is None:
        return None
    # Computed from the game, not read from the item: a dataset written before the field existed is judged the same.
    return "knowledge_missing" if missing_knowledge(game, getattr(item, "viewpoint_seat", None), cutoff) else None


def _hidden_role(item: Any, game: GameLog) -> str | None:
    return "hidden_role" if hidden_role_flags(game, item) else None


def unfaithful(item: Any, game: GameLog) -> str | None:
    """Why the item is left out of the faithful split, or None."""
    for check in (_knowledge, _hidden_role):
        reason = check(item, game)
        if reason:
            return reason
    return None


def apply_split(items: Sequence[Any], games: dict[str, GameLog], split: str) -> tuple[list[Any], Counter[str]]:
    """(the items of `split`, how many were left out by reason). Items whose game is missing are kept: the
    planner names them as an error."""
    if split == "all":
        return list(items), Counter()
    kept: list[Any] = []
    left: Counter[str] = Counter()
    for item in items:
        game = games.get(item.game_id)
        reason = unfaithful(item, game) if game is not None else None
        if reason:
            left[reason] += 1
        else:
            kept.append(item)
    return kept, left


def split_notice(task: str, split: str, total: int, left: Counter[str]) -> str | None:
    """The line saying how many of a task's items the split left out, and why (None: none)."""
    if not left:
        return None
    why = ", ".join(f"{n} {reason}" for reason, n in sorted(left.items()))
    return f"--split {split}: {sum(left.values())} of {total} {task} items left out ({why}); --split all evaluates them"
