"""Samples: one SampleRow per planned request with a stored outcome, its reply parsed and judged."""

from __future__ import annotations

from collections.abc import Sequence

from werealign.eval.plan import Planned
from werealign.llm.store import StoredResponse
from werealign.schema import GameLog
from werealign.schema.runs import SampleRow
from werealign.tasks import TASK_NAMES, TASKS, VARIANTS
from werealign.tasks.answers import parse_reply
from werealign.tasks.common import OBSERVER_ROLE


def viewpoint_role(game: GameLog, seat: int | None) -> str | None:
    if seat is None:  # observer item: asked from no seat, so there is no role to break down by
        return OBSERVER_ROLE
    for s in game.seats:
        if s.seat == seat:
            return s.role
    return None


def build_sample(p: Planned, row: StoredResponse) -> SampleRow:
    task = TASKS[p.task]
    ask = task.asks.get(p.mode or "")  # a mode asking its own question judges by its own gold
    gold = ask.gold(p.game, p.item) if ask else task.gold(p.item)
    answer = parse_error = correct = None
    if row.ok:
        parsed = parse_reply(row.response, p.item, p.option_order, game=p.game, mode=p.mode)
        answer = list(parsed.answer) if isinstance(parsed.answer, tuple) else parsed.answer
        parse_error = parsed.error
        correct = answer is not None and (ask.is_correct if ask else task.is_correct)(answer, gold)
    usage = (row.usage or {}) if row.ok else {}
    return SampleRow(
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
        reply=row.response if row.ok else None,
        answer=answer,
        correct=correct,
        parse_error=parse_error,
        request_error=None if row.ok else f"{row.error_class}: {row.error_message}",
        attempts=row.attempts,
        finish_reason=row.finish_reason if row.ok else None,
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        cost=row.cost if row.ok else None,
        latency=row.latency,
    )


def build_samples(plan: Sequence[Planned], stored: dict[str, StoredResponse]) -> tuple[list[SampleRow], int]:
    """One sample per planned request that has a stored outcome; returns (samples, missing count)."""
    samples = [build_sample(p, stored[p.key]) for p in plan if p.key in stored]
    samples.sort(key=lambda s: (TASK_NAMES.index(s.task), s.item_id, VARIANTS.index(s.variant), s.decode))
    return samples, len(plan) - len(samples)
