"""Fit a prompt to a context budget (`eval --context-budget TOKENS`): the oldest transcript turns are cut first.

What a seat knows that no turn repeats stays whole: the rules, its own role and private knowledge, the events,
the question and its options, and the most recent turns. A prompt still too long with every turn cut is over
budget: it is never sent, and its samples are reported (results.json `totals.over_budget`) and count as wrong.
The cut is decided once per item and variant, on the first decode's prompt; a decode differs from it only in
the order of the options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from werealign.errors import UserError
from werealign.eval.prompts import Prepared
from werealign.llm.model_limits import bytes_bound
from werealign.schema.runs import RunConfig

OVER_BUDGET_ERROR = "ContextBudgetExceeded"


@dataclass(frozen=True)
class Budget:
    tokens: int
    count: Callable[[list[dict[str, str]]], int]  # a prompt's tokens as the model reads them
    given: bool  # --context-budget was given (else it is the model's context, from its metadata)


@dataclass(frozen=True)
class Fitted:
    prepared: Prepared
    turns_cut: int = 0
    over_budget: str | None = None  # why it was not sent: the prompt's tokens with every turn cut, and the budget


def run_budget(config: RunConfig) -> Budget | None:
    """The run's budget: --context-budget, else the model's context where known; None = no budget."""
    from werealign.llm.model_limits import default_context_budget, prompt_counter

    if config.context_budget is not None and config.context_budget < 0:
        raise UserError("--context-budget: must be at least 0 (0: no budget)")
    if config.context_budget == 0:
        return None
    tokens = config.context_budget if config.context_budget is not None else default_context_budget(config.model, config.max_tokens)
    if tokens is None:
        return None
    if tokens < 1:
        raise UserError(f"--model {config.model}: its context is all taken by the reply budget (--max-tokens {config.max_tokens})")
    return Budget(tokens, prompt_counter(config.model), config.context_budget is not None)


def fit(prepared: Prepared, budget: Budget, order: list[int] | None) -> Fitted:
    """The fewest oldest turns cut so the prompt (rendered with `order`) fits; over budget if none does."""
    messages = prepared.messages(order)
    if bytes_bound(messages) <= budget.tokens or budget.count(messages) <= budget.tokens:
        return Fitted(prepared)
    turns = prepared.turns
    low, high = 1, turns  # the answer lies in [low, high] when cutting every turn fits
    bare = prepared.with_turns_cut(turns)
    if (tokens := budget.count(bare.messages(order))) > budget.tokens:
        where = f"{prepared.task.name} item {prepared.item.item_id}"
        return Fitted(bare, turns, f"{where}: its prompt takes about {tokens} tokens with all {turns} turns cut, over the "
                                   f"context budget of {budget.tokens}")
    while low < high:  # the prompt shrinks as more turns are cut: binary search for the fewest
        mid = (low + high) // 2
        if budget.count(prepared.with_turns_cut(mid).messages(order)) <= budget.tokens:
            high = mid
        else:
            low = mid + 1
    return Fitted(prepared.with_turns_cut(low), low)


def over_budget_line(over: int, samples: int, budget: int | None, first: str | None) -> str:
    return (f"{over} of {samples} sample(s) do not fit the context budget ({budget} tokens) even with every turn cut: "
            f"not sent, counted as wrong (first: {first}). A model with a longer context, or a larger --context-budget, reads them")
