"""Plan a run: dataset + config -> one Planned request per item x variant x decode, rendered and keyed.

Everything here is deterministic: option orders, variant assignment and per-request sampling seeds are
drawn from sha256 of (seed, item, decode), stable across processes, platforms and Python versions.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from werealign.dataset import Dataset
from werealign.errors import UserError
from werealign.eval.config import validate_config
from werealign.splits import split_notice
from werealign.llm.keys import canonical_json, derived_int, request_key  # noqa: F401 - canonical_json: rundir; derived_int: execute
from werealign.schema import GameLog
from werealign.schema.runs import RunConfig
from werealign.solvers.base import Shown, State
from werealign.tasks import TASKS, modes_of, parse_reply, resolve_mode
from werealign.eval.answer_grammar import answer_grammar
from werealign.llm.builtin_models import answers_under_grammar
from werealign.schema.runs import DEFAULT_SOLVER


@dataclass(frozen=True)
class Planned:
    model: str
    task: str
    item: Any
    game: GameLog
    variant: str
    decode: int
    option_order: list[int] | None
    messages: list[dict[str, str]]
    params: dict[str, Any]
    key: str
    mode: str | None = None  # the task's mode in this run (werealign.tasks.resolve_mode)
    games: tuple[GameLog, ...] = ()  # every game of the dataset (one shared tuple): solvers' experience pools
    prepared: Any = field(default=None, compare=False, repr=False)  # werealign.eval.prompts.Prepared of the item
    turns_cut: int = 0  # the oldest turns left out to fit the context budget (werealign.eval.context_budget)
    over_budget: str | None = None  # why the prompt is never sent: it does not fit the budget even with every turn cut

    def shown(self) -> Shown:
        """What `messages` show, as data: what a built-in baseline answers from (werealign.baselines)."""
        return self.prepared.shown(self.option_order)

    def state(self) -> State:
        """The sample as a solver sees it (werealign.solvers); `others` never holds the item's own game."""
        others = tuple(g for g in self.games if g.game_id != self.game.game_id)
        return State(messages=self.messages, params=self.params, decode=self.decode, task=self.task, item=self.item,
                     game=self.game, option_order=self.option_order, mode=self.mode, variant=self.variant, key=self.key,
                     others=others, read=self.read_answer, shown=self.shown)

    def read_answer(self, reply: str | None) -> Any:
        """The answer the run would score for `reply` (None when none can be read)."""
        return parse_reply(reply, self.item, self.option_order, game=self.game, mode=self.mode).answer


def option_order_for(seed: int, item_id: str, decode: int, n: int = 9) -> list[int]:
    order = list(range(n))
    random.Random(derived_int("options", seed, item_id, decode)).shuffle(order)
    return order


def assign_variant(seed: int, task: str, item_id: str, variants: Sequence[str]) -> str:
    """The paper's randomized protocol: one variant per base item, drawn with a seed."""
    return random.Random(derived_int("variant", seed, task, item_id)).choice(list(variants))


def _check_variant_data(ds: Dataset, task: str, items: list[Any], item: Any, variant: str) -> None:
    """Missing rewrites or rule reminders are found before anything is sent, with how many are missing."""
    if variant == "osr" and not ds.osr.get(item.game_id):
        missing = sorted({i.game_id for i in items if not ds.osr.get(i.game_id)})
        raise UserError(
            f"variant osr: {len(missing)} game(s) have no objective rewrites "
            f"(variants/osr/<game_id>.jsonl), first {item.game_id} needed by {task} item {item.item_id}"
        )
    if variant == "rr" and not getattr(item, "rule_reminder", None):
        missing = [i.item_id for i in items if not getattr(i, "rule_reminder", None)]
        raise UserError(f"variant rr: {len(missing)} of {len(items)} {task} items have no rule_reminder, first {item.item_id}")


def limited(items: Sequence[Any], limit: int, seed: int, task: str) -> list[Any]:
    """`limit` items sampled with the seed, round-robin across dimensions (items without one form one group),
    so a small --limit still covers every dimension; returned in dataset order. The first N items of a
    file are usually one dimension (the release lists RI first), and a macro average over one dimension
    is no macro average."""
    groups: dict[str, list[Any]] = defaultdict(list)
    for item in items:
        groups[str(getattr(item, "dimension", None) or "")].append(item)
    queues = []
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda it: derived_int("limit", seed, task, it.item_id))
        queues.append(group)
    picked: set[str] = set()
    while len(picked) < min(limit, len(items)):
        for queue in queues:
            if queue and len(picked) < limit:
                picked.add(queue.pop(0).item_id)
    return [it for it in items if it.item_id in picked]


def plan_run(ds: Dataset, config: RunConfig, notices: list[str] | None = None) -> list[Planned]:
    """Every request of the run, rendered and keyed. Raises UserError up front for missing variant data.
    `notices` gets a line per task whose items the split (config.split) shrinks."""
    from werealign.eval.context_budget import fit, run_budget
    from werealign.eval.prompts import prepare
    from werealign.eval.split_cache import judged_split

    validate_config(config)
    budget = run_budget(config)
    # A model too small to reason then answer within its budget answers with the answer line alone (its steps, under
    # another solver, ask other things)
    grammar = config.solver == DEFAULT_SOLVER and answers_under_grammar(config.model)
    modes = modes_of(config.modes, config.tasks)
    games = tuple(ds.games[g] for g in sorted(ds.games))
    plan: list[Planned] = []
    for task_name in config.tasks:
        task = TASKS[task_name]
        every = ds.items_of(task_name)
        items, left = judged_split(ds, task_name, every, config.split)
        if notices is not None and (line := split_notice(task_name, config.split, len(every), left)):
            notices.append(line)  # judged once here: the hidden-role check builds a context per speech item
        if config.limit is not None:
            items = limited(items, config.limit, config.seed, task_name)
        applicable = [v for v in config.variants if v in task.variants]
        for item in items:
            game = ds.games.get(item.game_id)
            if game is None:
                raise UserError(f"{task_name} item {item.item_id}: game_id '{item.game_id}' is not in the dataset")
            if config.protocol == "randomized":
                variants = [assign_variant(config.seed, task_name, item.item_id, applicable)]
            else:
                variants = applicable
            for variant in variants:
                _check_variant_data(ds, task_name, items, item, variant)
                osr = ds.osr.get(item.game_id) if variant == "osr" else None
                unpermuted: list[dict[str, str]] | None = None
                prepared = prepare(game, item, variant=variant, osr=osr, mode=modes.get(task_name))  # once for all decodes
                fitted = None
                shape = task.asked_in(resolve_mode(task, modes.get(task_name))).answer_shape if grammar else None
                if budget is not None:
                    first = option_order_for(config.seed, item.item_id, 0, len(item.options)) if task.permutes_options and config.permute else None
                    fitted = fit(prepared, budget, first)
                    prepared = fitted.prepared
                for decode in range(config.decodes):
                    order = None
                    if task.permutes_options and config.permute:
                        order = option_order_for(config.seed, item.item_id, decode, len(item.options))
                    if order is None and unpermuted is not None:
                        messages = unpermuted  # same prompt for every decode: render once
                    else:
                        messages = prepared.messages(order)
                        if order is None:
                            unpermuted = messages
                    params = {
                        "temperature": config.temperature,
                        "seed": derived_int("decode", config.seed, task_name, item.item_id, decode) % (2**31),
                    }
                    if config.max_tokens is not None:  # no cap of ours by default: the provider's limit applies
                        params["max_tokens"] = config.max_tokens
                    if shape is not None and (rule := answer_grammar(shape, prepared.shown(order))) is not None:
                        params["extra_body"] = {"grammar": rule}
                    key = request_key(config.model, params, messages, decode)
                    plan.append(Planned(config.model, task_name, item, game, variant, decode, order, messages, params, key, modes.get(task_name), games,
                                        prepared, fitted.turns_cut if fitted else 0, fitted.over_budget if fitted else None))
    if not plan:
        why = f" in split {config.split} (--split all evaluates every item)" if config.split != "all" else ""
        raise UserError(f"nothing to evaluate: the dataset has no {'/'.join(config.tasks)} items{why}")
    return plan
