"""What a task (an item kind) is, split by job: the task proper (`Task`: its items, prompt, answer reading and
gold), how its samples are scored and shown (`Scorer`, werealign.tasks.scorer) and how its items are checked
(`ItemChecks`, werealign.tasks.item_checks). The rest of werealign asks the registry (werealign.tasks) rather
than naming a kind (tests/test_kind_names.py lists the few modules that still do, and why).

A task module builds one `Task` and registers it in `werealign.tasks`. Prompts are rendered from the
template `<lang>/<template or name>.<prompt version>.j2` (werealign/render/templates/), so adding a kind is one
module plus its templates. The module says too where its items come from: `derive`, made from a game log by
`werealign derive` (werealign.game.derivation), or `items_from` (generation, an importer). A mode that asks a
different question of the same items (`Task.asks`) is a `Task` of its own: its own template, question, answer,
gold and scorer, under the kind's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from werealign.game.derivation import DeriveNote, Deriving, Made
from werealign.schema import GameLog
from werealign.tasks.item_checks import ItemChecks
from werealign.tasks.scorer import Sample, Scorer  # noqa: F401 - Sample: the row type every task module scores

__all__ = ["DeriveNote", "Deriving", "ItemChecks", "Made", "Parsed", "Sample", "Scorer", "Task"]


@dataclass(frozen=True)
class Parsed:
    answer: str | int | tuple[int, ...] | dict[str, str] | None
    error: str | None  # why parsing failed; None when answer is set


def _recorded_answer(item: Any, game: GameLog | None) -> Any:
    return item.answer


@dataclass(frozen=True)
class Task:
    name: str  # the item kind: items/<name>.jsonl, samples' `task`, results' task key, the template name
    item_model: type[BaseModel]  # one item, as items/<name>.jsonl holds it
    variants: tuple[str, ...]  # the ablation variants (werealign.tasks.VARIANTS) this kind can be asked in
    # Template variables of the question part (the context part is common to every task): (game, item, template
    # language, option order). They also carry the answer space as data, for the built-in models
    # (what eval's prompts show as werealign.solvers.base.Shown), under these names by answer shape: "option": `options` [{key, text}]
    # in shown order (and `question`, the stem); "seat"/"seats": `candidate_seats` [int]; "roles": `candidate_seats`
    # and `role_card_names` [str] as shown.
    question_vars: Callable[[GameLog, Any, str, list[int] | None], dict[str, Any]]
    # The value of the reply's answer line -> the answer in the gold's terms (original option key, seats):
    # (value, item, option order, the item's game).
    parse: Callable[[str, Any, list[int] | None, GameLog | None], Parsed]
    scorer: Scorer  # this kind's scores, floors and how leaderboards and the release card show it
    # What the answer line asks for: "option" (one letter), "seat" (one seat), "seats" (a set of seats) or "roles".
    # The built-in baselines answer by this shape (werealign.baselines.view.ItemView.shape).
    answer_shape: str
    # The placeholder that ends this task's prompts (the last line of each <lang>/<name>.*.j2, e.g.
    # "Answer: <letter>"), one per template language: how a rendered prompt shows its task (tasks.prompt_shape).
    answer_forms: tuple[str, ...]
    checks: ItemChecks = ItemChecks()  # validation and de-duplication of its items
    # The item's answer as samples.jsonl records it: (item, its game). The default suits a kind whose items
    # record their answer (one letter, one seat).
    gold: Callable[[Any, GameLog | None], Any] = _recorded_answer
    # Options shown in a per-decode order (--permute). Its templates must only print the question's strings,
    # never test or filter them: eval renders the prompt once and fills each order in (werealign.eval.prompts).
    permutes_options: bool = False
    # Extra arguments of werealign.game.visibility.build_context for an item of this kind: (game, item, mode).
    context_kwargs: Callable[[GameLog, Any, str | None], dict[str, Any]] = lambda game, item, mode: {}
    # Named ways of asking or scoring this kind (e.g. how much of the VA voter's own speech is shown); the
    # first is the default. A run records the mode of every task it evaluates (run.json config.modes).
    modes: tuple[str, ...] = ()
    modes_about: dict[str, str] = field(default_factory=dict)  # mode -> one line for `werealign list`
    mode_alias: str = ""  # a short name for its mode option: `--<alias>-mode MODE`, shorthand of `--mode <name>=MODE`
    # Modes that ask a different question of the same items: mode -> the Task that asks it (same name and items;
    # its own template, question, answer shape and forms, parse, gold and scorer).
    asks: dict[str, Task] = field(default_factory=dict)
    # The template's name when it is not the kind's (a mode asking its own question).
    template: str = ""

    # Where this kind's prompt templates are: a folder (path or importlib.resources Traversable) holding
    # `<lang>/<name>.v1.j2`; None for werealign's own kinds (werealign/render/templates/). Such a template
    # may include werealign's shared parts ("en/context.v1.j2", "en/options_only.v1.j2").
    templates: Any = None
    # A short note of what a variant needs and this kind lacks, for messages when it does not apply.
    variant_note: str = ""
    description: str = ""  # one line for `werealign list`
    # How `werealign derive` makes its items from one game log: (the game being derived, the command's options) ->
    # its items and the notes of what gave none (werealign.game.derivation). None: the kind is not derived; derive
    # keeps the dataset's items of it as they are, and `items_from` says where they come from.
    derive: Callable[[Deriving], Made] | None = None
    items_from: str = ""  # e.g. "generation (werealign generate)", for derive's report of a kind it does not make

    def asked_in(self, mode: str | None) -> Task:
        """The task that asks this kind's question in `mode`: a mode's own (`asks`) or this one."""
        return self.asks.get(mode or "", self)

    def metric_for(self, mode: str | None) -> str:
        """The primary metric of this kind's results in `mode`."""
        return self.asked_in(mode).scorer.metric_for(mode)

    @property
    def template_name(self) -> str:
        return self.template or self.name
