"""What a task (an item kind) is: everything the rest of werealign needs to know about one kind of item.

A task module builds one `Task` and registers it in `werealign.tasks`. Prompts are rendered from the
template `<lang>/<task name>.<prompt version>.j2` (werealign/render/templates/), so adding a kind is one
module plus its templates; the runner, scoring, answer parsing and validation ask the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from werealign.schema import GameLog

Sample = dict[str, Any]  # one samples.jsonl row as a dict (see werealign.schema.runs.SampleRow)


@dataclass(frozen=True)
class Parsed:
    answer: str | int | tuple[int, ...] | None
    error: str | None  # why parsing failed; None when answer is set


@dataclass(frozen=True)
class Ask:
    """A mode that asks the same items a different question: its own template, answer line, gold and scores.

    The gold and the answer reading need the item's game (e.g. the seats' true roles, the game's role names)."""

    template: str  # template name: werealign/eval/templates/<lang>/<template>.<version>.j2
    question_vars: Callable[[GameLog, Any, str], dict[str, Any]]  # (game, item, template language); see Task.question_vars
    answer_shape: str  # what the built-in models answer (werealign.llm.builtin_models), e.g. "roles"
    answer_forms: tuple[str, ...]  # the placeholders that end its prompts, one per template language
    gold: Callable[[GameLog, Any], Any]
    parse: Callable[[str, GameLog, Any], Parsed]  # the answer line's value -> the answer in the gold's terms
    score: Callable[[Sequence[Sample]], dict[str, Any]]
    metric: str
    shortcuts: tuple[str, ...]  # the built-in shortcut models whose scores are the floors in this mode
    # (expected correct units, units) of werealign/random's policy on one item: the chance floor, micro-averaged.
    chance: Callable[[GameLog, Any], tuple[float, int]]
    is_correct: Callable[[Any, Any], bool] = lambda answer, gold: answer == gold


@dataclass(frozen=True)
class Task:
    name: str  # the item kind: items/<name>.jsonl, samples' `task`, results' task key, the template name
    item_model: type[BaseModel]
    variants: tuple[str, ...]  # the ablation variants (werealign.tasks.VARIANTS) this kind can be asked in
    metric: str  # the primary score's field in results.json
    # Template variables of the question part (the context part is common to every task). They also carry
    # the answer space as data, for the built-in models (werealign.llm.builtin_models.ItemView), under these
    # names by answer shape: "option": `options` [{key, text}] in shown order (and `question`, the stem);
    # "seat"/"seats": `candidate_seats` [int]; "roles": `candidate_seats` and `role_card_names` [str] as shown.
    question_vars: Callable[[GameLog, Any, str, list[int] | None], dict[str, Any]]
    # The value of the reply's answer line -> the answer in the gold's terms (original option key, seats).
    parse: Callable[[str, Any, list[int] | None], Parsed]
    score: Callable[[Sequence[Sample]], dict[str, Any]]  # this task's samples -> its results.json block
    # What the answer line asks for: "option" (one letter), "seat" (one seat) or "seats" (a set of seats).
    # The built-in models answer by this shape (werealign.baselines.policies.ItemView.shape).
    answer_shape: str
    # The placeholder that ends this task's prompts (the last line of each <lang>/<name>.*.j2, e.g.
    # "Answer: <letter>"), one per template language: how a rendered prompt shows its task (tasks.prompt_shape).
    answer_forms: tuple[str, ...]
    # The defaults suit a single-answer kind (one letter, one seat): right or wrong.
    gold: Callable[[Any], Any] = lambda item: item.answer  # the item's answer as samples.jsonl records it
    is_correct: Callable[[Any, Any], bool] = lambda answer, gold: answer == gold  # answer is never None here
    # Options shown in a per-decode order (--permute). Its templates must only print the question's strings,
    # never test or filter them: eval renders the prompt once and fills each order in (werealign.eval.prompts).
    permutes_options: bool = False
    # The built-in shortcut models whose scores are this task's floors (werealign.eval.floors).
    shortcuts: tuple[str, ...] = ()
    # (item, metric) -> the expected score of werealign/random's policy on the item: the chance floor (None: unknown).
    chance: Callable[[Any, str], float] | None = None
    # Floors that need the game's truth rather than a prompt: ([(game, item)], metric) -> {name: score}.
    truth_floors: Callable[[Sequence[tuple[GameLog, Any]], str], dict[str, float | None]] = lambda asked, metric: {}
    # Extra arguments of werealign.game.visibility.build_context for an item of this kind: (game, item, mode).
    context_kwargs: Callable[[GameLog, Any, str | None], dict[str, Any]] = lambda game, item, mode: {}
    # Named ways of asking or scoring this kind (e.g. how much of the VA voter's own speech is shown); the
    # first is the default. A run records the mode of every task it evaluates (run.json config.modes).
    modes: tuple[str, ...] = ()
    # The primary metric per mode, when a mode changes it (default: `metric`).
    mode_metrics: dict[str, str] = field(default_factory=dict)
    # Modes that ask a different question of the same items (their own prompt, answer and scores).
    asks: dict[str, Ask] = field(default_factory=dict)
    # Validation (werealign.validate asks these; `out` is a werealign.validate.findings.Sink, `idx` a GameIndex):
    # does a JSON object of an unnamed items file look like an item of this kind (first match in registry order)?
    looks_like: Callable[[dict[str, Any]], bool] = lambda row: False
    check: Callable[[Any, Any], None] = lambda item, out: None  # the item alone
    # Against its game: the phase the cut-off must lie in (None: any), reporting what makes it unknown ...
    cutoff_phase: Callable[[Any, Any, Any], str | None] = lambda item, idx, out: None
    check_refs: Callable[[Any, Any, Any], None] = lambda item, idx, out: None  # ... and the rest, after the cut-off
    # What makes two items of this kind the same question, whatever their ids.
    same_question: Callable[[Any], tuple] = lambda item: (item.game_id, item.viewpoint_seat, item.cutoff_segment)

    # Where this kind's prompt templates are: a folder (path or importlib.resources Traversable) holding
    # `<lang>/<name>.v1.j2`; None for werealign's own kinds (werealign/render/templates/). Such a template
    # may include werealign's shared parts ("en/context.v1.j2", "en/options_only.v1.j2").
    templates: Any = None
    # A short note of what a variant needs and this kind lacks, for messages when it does not apply.
    variant_note: str = ""
    description: str = ""  # one line for `werealign list`

    def metric_for(self, mode: str | None) -> str:
        ask = self.asks.get(mode or "")
        return ask.metric if ask else self.mode_metrics.get(mode or "", self.metric)
