"""Running a solver on one sample against the stored steps: replay what is stored, send what is missing.

Sending belongs to the caller (eval's execute, or any other user of the call engine): it passes `send`,
an async function that makes, stores and returns one keyed request. Without `send` the run is a replay:
it stops at the first step with no stored reply (the sample is missing) and pays for nothing. Replay
needs no event loop: a solver awaits only `Steps.ask`, which then never suspends.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from werealign.llm.keys import request_key
from werealign.llm.store import StoredResponse
from werealign.solvers.base import Solver, State, StepFailed, StepRecord

Send = Callable[[str, list[dict[str, str]], dict[str, Any]], Awaitable[StoredResponse]]


class _Missing(Exception):
    """Replay reached a step with no stored reply."""


@dataclass(frozen=True)
class Solved:
    """One sample's steps and outcome: a reply, a failed request, or missing steps (an interrupted run)."""

    steps: tuple[StepRecord, ...]
    reply: str | None
    failed: StepRecord | None = None
    missing: bool = False

    def total(self, what: str) -> int | None:
        """Tokens of every model step summed (None when no step reported them)."""
        values = [s.usage.get(what) for s in self.steps if s.kind == "model" and s.usage.get(what) is not None]
        return sum(values) if values else None

    @property
    def cost(self) -> float | None:
        """Summed price, None unless every model step is priced."""
        costs = [s.cost for s in self.steps if s.kind == "model"]
        return sum(costs) if costs and None not in costs else None  # type: ignore[arg-type]


class _Steps:
    def __init__(self, model: str, state: State, known: Mapping[str, StoredResponse], send: Send | None) -> None:
        self._model, self._state, self._known, self._send = model, state, known, send
        self.records: list[StepRecord] = []

    async def ask(self, step: str, messages: list[dict[str, str]], *, params: dict[str, Any] | None = None) -> str:
        merged = {**self._state.params, **(params or {})}
        planned = self._state.key is not None and messages is self._state.messages and not params
        key = self._state.key if planned else request_key(self._model, merged, messages, self._state.decode)
        row = self._known.get(key)
        if row is None or (not row.ok and self._send is not None):  # a stored error is asked again when sending
            if self._send is None:
                raise _Missing(key)
            row = await self._send(key, messages, merged)
        record = step_record(step, row)
        self.records.append(record)
        if not row.ok:
            raise StepFailed(record.error)
        return row.response or ""

    def note(self, step: str, output: str) -> None:
        self.records.append(StepRecord(name=step, kind="python", output=output))


def step_record(step: str, row: StoredResponse) -> StepRecord:
    return StepRecord(
        name=step, kind="model", key=row.key, output=row.response if row.ok else None,
        error=None if row.ok else f"{row.error_class}: {row.error_message}",
        usage=dict(row.usage or {}) if row.ok else {}, cost=row.cost if row.ok else None,
        latency=row.latency, attempts=row.attempts, finish_reason=row.finish_reason if row.ok else None,
    )


async def run_solver(solver: Solver, model: str, state: State, known: Mapping[str, StoredResponse], send: Send | None = None) -> Solved:
    """Run `solver` on `state`: stored steps from `known`, missing ones through `send` (None = replay only)."""
    steps = _Steps(model, state, known, send)
    try:
        reply = await solver.solve(state, steps)
    except _Missing:
        return Solved(tuple(steps.records), None, missing=True)
    except StepFailed:
        return Solved(tuple(steps.records), None, failed=steps.records[-1])
    return Solved(tuple(steps.records), reply)


def replay(solver: Solver, model: str, states: Sequence[State], known: Mapping[str, StoredResponse]) -> list[Solved]:
    """Every state's outcome from the stored replies alone; nothing is sent."""
    return [drive(run_solver(solver, model, state, known)) for state in states]


def drive(coro: Any) -> Any:
    """Run a coroutine that awaits only `Steps.ask` of steps that never suspend (stored or placeholder replies)."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("a solver awaited something other than Steps.ask; replaying stored steps needs none")
