"""One item as eval asks it, as a solver State (werealign.solvers.base): what a built-in baseline answers."""

from __future__ import annotations

from werealign.eval.prompts import prepare
from werealign.solvers.base import State
from werealign.tasks import task_of


def item_state(game, item, option_order=None, mode=None, variant: str = "base") -> State:
    """The State eval's plan would build for this item's prompt (decode 0, no sampling params)."""
    prepared = prepare(game, item, mode=mode, variant=variant)
    return State(messages=prepared.messages(option_order), params={}, decode=0, task=task_of(item).name, item=item, game=game,
                 option_order=option_order, mode=mode, variant=variant, shown=lambda: prepared.shown(option_order))
