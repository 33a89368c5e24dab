"""The task registry: one module per item kind, registered here and nowhere else.

Each kind (speech, vote, opponent) is a `werealign.tasks.base.Task`: its item model, the ablation
variants it can be asked in, the question part of its prompt, answer parsing, the gold answer and its
scores. Everything else asks this registry instead of branching on kind names. To add a kind: write
`werealign/tasks/<kind>.py` defining `TASK`, add its templates `werealign/eval/templates/<lang>/<kind>.v1.j2`,
and add the module to `_MODULES` below.
"""

from __future__ import annotations

from typing import Any

from werealign.errors import UserError
from werealign.tasks import opponent, speech, vote
from werealign.tasks.base import Parsed, Task  # noqa: F401

# Ablation variants, defined once: base (as recorded), rr (a rule reminder is prepended; an item must
# carry one), osr (speeches replaced by their objective rewrites; the game must have them).
VARIANTS: tuple[str, ...] = ("base", "rr", "osr")

_MODULES = (speech, vote, opponent)  # the order of tasks in every output
TASKS: dict[str, Task] = {m.TASK.name: m.TASK for m in _MODULES}
TASK_NAMES: tuple[str, ...] = tuple(TASKS)


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        raise UserError(f"unknown task '{name}'; choose from {', '.join(TASK_NAMES)}") from None


def task_of(item: Any) -> Task:
    """The task an item object belongs to (by its model class)."""
    for task in TASKS.values():
        if type(item) is task.item_model:
            return task
    raise TypeError(f"not an item: {type(item).__name__}")


def tasks_with_variant(variant: str) -> tuple[str, ...]:
    return tuple(name for name, task in TASKS.items() if variant in task.variants)
