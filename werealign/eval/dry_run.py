"""`werealign eval --dry-run`: what a run would send and cost, before anything is sent or written.

A solver of several steps is run on every sample with placeholder replies (werealign.solvers.estimate),
so its calls and the prompts its steps would build are counted as they are; each earlier reply a later
step quotes is assumed REPLY_TOKENS long (or --max-tokens, when smaller). The default solver is one call
with the task's prompt. Tokens are estimated at 4 characters each, the provider's own count is not
known before sending. Replies already in the run directory's store are not subtracted: this prices
the run from scratch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from werealign.dataset import load_dataset
from werealign.eval.plan import plan_run
from werealign.dataset.refs import dataset_path
from werealign.llm.pricing import price_per_token
from werealign.schema.runs import DEFAULT_SOLVER, RunConfig
from werealign.solvers import get_solver

CHARS_PER_TOKEN = 4
REPLY_TOKENS = 150  # an assumed reply length, for the replies a later step quotes (BENCHMARKS.md: solvers)


@dataclass(frozen=True)
class DryRun:
    samples: int
    calls: int
    prompt_tokens: int
    completion_tokens: int | None  # None without --max-tokens (no cap of ours to price)
    cost: float | None  # None when litellm has no price for the model, or without --max-tokens

    def line(self, label: str) -> str:
        completion = f" + at most {self.completion_tokens} completion" if self.completion_tokens is not None else ""
        cost = (f"${self.cost:.4f}" if self.cost is not None else
                "unknown (no --max-tokens to bound the replies)" if self.completion_tokens is None else
                "unknown (litellm has no price for this model)")
        return (f"{label}: {self.samples} samples, {self.calls} model calls, ~{self.prompt_tokens} prompt tokens"
                f"{completion}; estimated cost {cost}; nothing sent")


def estimate_run(config: RunConfig) -> DryRun:
    ds = load_dataset(dataset_path(config.dataset))
    plan = plan_run(ds, config)
    solver = get_solver(config.solver)
    if solver.name == DEFAULT_SOLVER:
        calls, chars = len(plan), sum(len(m["content"]) for p in plan for m in p.messages)
    else:
        from werealign.solvers.estimate import estimate_sample

        reply = CHARS_PER_TOKEN * min(REPLY_TOKENS, config.max_tokens or REPLY_TOKENS)
        try:
            once: dict[tuple, Any] = {}
            found = []
            for p in plan:
                at = (p.task, p.item.item_id, p.variant)  # an item's decodes differ only in option order: one estimate
                if at not in once:
                    once[at] = estimate_sample(solver, p.state(), reply)
                found.append(once[at])
            calls, chars = sum(e.calls for e in found), sum(e.prompt_chars for e in found)
        except RuntimeError:  # a solver of another package that awaits more than its steps: its declared calls
            per_sample = solver.calls(solver.options)
            calls, chars = per_sample * len(plan), per_sample * sum(len(m["content"]) for p in plan for m in p.messages)
    prompt = chars // CHARS_PER_TOKEN
    completion = calls * config.max_tokens if config.max_tokens is not None else None
    price = price_per_token(config.model) if completion is not None else None
    cost = prompt * price[0] + completion * price[1] if price is not None and completion is not None else None
    return DryRun(len(plan), calls, prompt, completion, cost)
