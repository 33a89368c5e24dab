"""Samples: one SampleRow per planned sample the solver finished from stored replies, parsed and judged."""

from __future__ import annotations

from collections.abc import Sequence

from werealign.eval.context_budget import OVER_BUDGET_ERROR
from werealign.eval.plan import Planned
from werealign.llm.store import StoredResponse
from werealign.schema import GameLog
from werealign.schema.runs import DEFAULT_SOLVER, SampleRow, StepRow
from werealign.solvers import get_solver
from werealign.solvers.base import Solver, StepRecord
from werealign.solvers.replay import Solved, replay, step_record
from werealign.tasks import TASKS, VARIANTS, task_names
from werealign.tasks import parse_reply
from werealign.tasks.values import primary_value
from werealign.tasks.common import OBSERVER_ROLE


def viewpoint_role(game: GameLog, seat: int | None) -> str | None:
    if seat is None:  # observer item: asked from no seat, so there is no role to break down by
        return OBSERVER_ROLE
    for s in game.seats:
        if s.seat == seat:
            return s.role
    return None


def step_row(step: StepRecord) -> StepRow:
    return StepRow(
        name=step.name, kind=step.kind, key=step.key, output=step.output, error=step.error,
        prompt_tokens=step.usage.get("prompt_tokens"), completion_tokens=step.usage.get("completion_tokens"),
        cached_tokens=step.usage.get("cached_tokens"), cost=step.cost,
    )


def build_sample(p: Planned, solved: Solved | StoredResponse | None) -> SampleRow:
    """The row of one sample; a bare stored reply is read as the default solver's one step."""
    if p.over_budget is not None:  # never sent: it does not fit the context budget
        solved = StoredResponse(key=p.key, request={}, status="error", response=None, usage=None, cost=None, latency=None,
                                error_class=OVER_BUDGET_ERROR, error_message=p.over_budget, attempts=0)
    if isinstance(solved, StoredResponse):
        record = step_record("answer", solved)
        solved = Solved((record,), solved.response) if solved.ok else Solved((record,), None, failed=record)
    asked = TASKS[p.task].asked_in(p.mode)  # a mode asking its own question judges by its own gold
    gold = asked.gold(p.item, p.game)
    answer = parse_error = correct = None
    ok = solved.failed is None
    if ok:
        parsed = parse_reply(solved.reply, p.item, p.option_order, game=p.game, mode=p.mode)
        answer = list(parsed.answer) if isinstance(parsed.answer, tuple) else parsed.answer
        parse_error = parsed.error
        correct = answer is not None and asked.scorer.is_correct(answer, gold)
    calls = [s for s in solved.steps if s.kind == "model"]
    last = calls[-1] if calls else None
    latencies = [s.latency for s in calls if s.latency is not None]
    row = SampleRow(
        task=p.task,
        item_id=p.item.item_id,
        game_id=p.item.game_id,
        dimension=getattr(p.item, "dimension", None),
        viewpoint_seat=p.item.viewpoint_seat,
        viewpoint_role=viewpoint_role(p.game, p.item.viewpoint_seat),
        variant=p.variant,
        decode=p.decode,
        option_order=p.option_order,
        key=p.key,
        gold=gold,
        reply=solved.reply if ok else None,
        answer=answer,
        correct=correct,
        parse_error=parse_error,
        request_error=None if ok else solved.failed.error,
        attempts=sum(s.attempts for s in calls),
        finish_reason=last.finish_reason if ok and last is not None else None,
        prompt_tokens=solved.total("prompt_tokens") if ok else None,
        completion_tokens=solved.total("completion_tokens") if ok else None,
        cost=solved.cost if ok else None,
        latency=sum(latencies) if latencies else None,
        cached_tokens=solved.total("cached_tokens") if ok else None,
        cache_saving_usd=_saving(calls) if ok else None,
        steps=[step_row(s) for s in solved.steps],
    )
    # The per-sample score the leaderboard reads: a failed request scores 0, as in the headline.
    return row.model_copy(update={"score": float(primary_value(row.model_dump())), "turns_cut": p.turns_cut})


def _saving(calls: list[StepRecord]) -> float | None:
    """The steps' cache savings summed; None when no step read the cache or one saving is unpriced."""
    hit = [s for s in calls if s.usage.get("cached_tokens")]
    savings = [s.usage.get("cache_saving_usd") for s in hit]
    return round(sum(savings), 10) if hit and None not in savings else None


def build_samples(plan: Sequence[Planned], stored: dict[str, StoredResponse], solver: Solver | str = DEFAULT_SOLVER) -> tuple[list[SampleRow], int]:
    """One sample per planned sample the solver finishes from `stored`; returns (samples, missing count)."""
    solver = get_solver(solver) if isinstance(solver, str) else solver
    over = [p for p in plan if p.over_budget is not None]
    plan = [p for p in plan if p.over_budget is None]
    if solver.planned:  # its one step is the planned request: no replay needed to find it
        samples = [build_sample(p, stored[p.key]) for p in plan if p.key in stored]
    else:
        solved = replay(solver, plan[0].model if plan else "", [p.state() for p in plan], stored)
        samples = [build_sample(p, s) for p, s in zip(plan, solved, strict=True) if not s.missing]
    samples += [build_sample(p, None) for p in over]
    order = task_names()
    samples.sort(key=lambda s: (order.index(s.task), s.item_id, VARIANTS.index(s.variant), s.decode))
    return samples, len(plan) + len(over) - len(samples)
