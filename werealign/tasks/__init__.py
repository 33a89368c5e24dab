"""The task registry: one module per item kind, registered here and nowhere else.

Each kind is a `werealign.tasks.base.Task`: its item model, the ablation variants it can be asked in,
the question part of its prompt, answer parsing, the gold answer, the shape and placeholder of its answer
line (what the built-in models answer by; every prompt ends with it: `task_of_prompt`); its `Scorer` (scores,
floors, leaderboard columns, card text) and its `ItemChecks` (validation). Everything else asks this
registry instead of branching on kind names (tests/test_kind_names.py keeps it so, beside a short allow-list). A kind from another package: a `Task` whose `templates` is
its folder of `<lang>/<kind>.v1.j2` (each ending with one of its `answer_forms`), declared in the
`werealign.tasks` entry point group (werealign.registry) or added with `TASKS.register` (tests, notebooks).
A built-in kind: a module here defining `TASK`, its templates in `werealign/render/templates/`, and a line
in `_builtins` below. Either way the kind says where its items come from (`Task.derive`, which `werealign derive`
calls for every registered kind, or `Task.items_from`).
"""

from __future__ import annotations

import re
from typing import Any

from werealign.errors import UserError
from werealign.registry import Registry
from werealign.tasks.answers import answer_value
from werealign.tasks.base import ItemChecks, Parsed, Scorer, Task  # noqa: F401

# Ablation variants, defined once: base (as recorded), rr (a rule reminder is prepended; an item must
# carry one), osr (speeches replaced by their objective rewrites; the game must have them), and the two
# context ablations (issue 19): no-context (the rules, the viewpoint's own role and what that role knows,
# the question and the options: no transcript, no public events) and options-only (the options or
# candidates under a fixed instruction: no question, no game). Base minus no-context is the context gain.
VARIANTS: tuple[str, ...] = ("base", "rr", "osr", "no-context", "options-only")
# The variants whose prompt shows none of the game's events or speech (werealign.eval.prompts).
WITHOUT_GAME: tuple[str, ...] = ("no-context", "options-only")

ENTRY_POINT_GROUP = "werealign.tasks"


def _builtins() -> tuple[Task, ...]:
    from werealign.tasks import claim, decisions, opponent, speech, vote

    return (speech.TASK, vote.TASK, opponent.TASK, *decisions.TASKS, claim.TASK)  # the order of tasks in every output


# Names a kind may not take: the other files and configs of a dataset and its release (werealign.dataset,
# werealign.release), and the counts beside the kinds' in dataset.json.
RESERVED_NAMES = frozenset({"games", "osr", "manifest", "osr_games", "variants"})


def _name_problem(task: Task) -> str | None:
    """A kind's name is a file name (items/<name>.jsonl), a release config and a results key; a mode asking its own
    question is one of the kind's modes and asks the kind's own items under its name."""
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", task.name):
        return f"task kind name {task.name!r}: use lower-case letters, digits, - and _, starting with a letter"
    if task.name in RESERVED_NAMES:
        return f"task kind name {task.name!r} is taken by a dataset file or count; choose another"
    if task.derive is not None and not callable(task.derive):
        return f"task kind {task.name!r}: derive must be a function of one game (werealign.game.derivation.Deriving) or None"
    for mode, asked in task.asks.items():
        if mode not in task.modes:
            return f"task kind {task.name!r}: asks[{mode!r}] is not one of its modes ({', '.join(task.modes) or 'none'})"
        if asked.name != task.name or asked.item_model is not task.item_model:
            return f"task kind {task.name!r}: mode {mode!r} must ask the kind's own items under its name (dataclasses.replace of it)"
    return None


TASKS: Registry[Task] = Registry("task", ENTRY_POINT_GROUP, _builtins, kind=Task, problem=_name_problem)


def task_names() -> tuple[str, ...]:
    """Every known task kind, in output order (built-ins first)."""
    return TASKS.names()


def get_task(name: str) -> Task:
    return TASKS.get_or_fail(name)


def task_of(item: Any) -> Task:
    """The task an item object belongs to (by its model class)."""
    for task in TASKS.values():
        if type(item) is task.item_model:
            return task
    raise TypeError(f"not an item: {type(item).__name__}")


def kind_of_model(model: type) -> str:
    """The name of the kind whose items are `model` instances: how a module that makes such items (generation,
    an importer, derive) names their kind without writing it."""
    for task in TASKS.values():
        if task.item_model is model:
            return task.name
    raise TypeError(f"{model.__name__} is the item model of no registered task kind")


def task_of_prompt(text: str) -> Task | None:
    """The task a rendered prompt asks (None if none): the one whose answer form ends its last non-blank line.
    A check of the template contract (every prompt ends with its task's answer line), not how anything answers."""
    found = prompt_shape(text)
    return found[0] if found else None


def prompt_shape(text: str) -> tuple[Task, str] | None:
    """The task a rendered prompt asks and the shape of answer its answer line wants (a mode asking its own
    question, `Task.asks`, has its own forms and shape), or None."""
    last = next((line.rstrip() for line in reversed(text.splitlines()) if line.strip()), "")
    forms = [(form, task, asked.answer_shape) for task in TASKS.values() for asked in (task, *task.asks.values())
             for form in asked.answer_forms]
    # The longest form first, so that a form that ends another one ("<x>" in "<x>, <x>") never shadows it.
    forms.sort(key=lambda fts: -len(fts[0]))
    return next(((task, shape) for form, task, shape in forms if last.endswith(form)), None)


def task_of_mode_alias(alias: str) -> Task | None:
    """The kind whose mode option has this short name (`--<alias>-mode`), or None."""
    found = [task for task in TASKS.values() if task.mode_alias == alias]
    if len(found) > 1:
        raise UserError(f"--{alias}-mode: task kinds {', '.join(t.name for t in found)} all take this shorthand; use --mode TASK=MODE")
    return found[0] if found else None


def results_shapes() -> dict[str, tuple[type, ...]]:
    """kind -> the typed shapes of its results.json block (werealign.schema.runs.read_results checks them)."""
    return {name: task.scorer.results_models for name, task in TASKS.items() if task.scorer.results_models}


def tasks_with_variant(variant: str) -> tuple[str, ...]:
    return tuple(name for name, task in TASKS.items() if variant in task.variants)


def resolve_mode(task: Task, mode: str | None) -> str | None:
    """The mode a task is asked in: the given one (checked) or the task's default; None for a task without modes."""
    if mode is None:
        return task.modes[0] if task.modes else None
    if mode not in task.modes:
        named = f"one of {', '.join(task.modes)}" if task.modes else "none (it has no modes)"
        raise UserError(f"{task.name} mode '{mode}': not a mode of {task.name} items; choose {named}")
    return mode


def modes_of(config_modes: dict[str, str], tasks: tuple[str, ...]) -> dict[str, str]:
    """The mode of every selected task that has modes: the chosen one or its default (what run.json records)."""
    unknown = sorted(set(config_modes) - set(tasks))
    if unknown:
        raise UserError(f"a mode is set for {unknown[0]}, which is not among the evaluated tasks ({', '.join(tasks)})")
    out = {}
    for name in tasks:
        mode = resolve_mode(get_task(name), config_modes.get(name))
        if mode is not None:
            out[name] = mode
    return out


def parse_reply(reply: str | None, item: Any, option_order: list[int] | None = None, *, game: Any = None, mode: str | None = None) -> Parsed:
    """Read the model's answer strictly; the item's task in `mode` reads the value (speech: back to the ORIGINAL
    key), with the item's `game` (a mode that asks its own question, `Task.asks`, needs it)."""
    if reply is None or not reply.strip():
        return Parsed(None, "empty reply")
    value = answer_value(reply)
    if value is None:
        return Parsed(None, "no answer line (expected a final line 'Answer: ...')")
    if not value:
        return Parsed(None, "answer line is empty")
    task = task_of(item)
    asked = task.asked_in(mode)
    if asked is not task and game is None:
        raise ValueError(f"{task.name} mode {mode}: reading an answer needs the item's game")
    return asked.parse(value, item, option_order, game)
