"""Run the solver on the planned samples not yet answered, sending the requests not yet stored (asyncio, `max_connections` workers) and store each outcome
the moment it arrives. The one module of eval that sends requests to a model (through the model layer's engine);
the others use the model layer for its store, cache, keys, prices and model names, and the floors ask the
built-in baselines in process (werealign.eval.floors).

Several runs (one per model) can be sent in ONE event loop (`send_all`): their workers then share one
semaphore, so `--max-connections` bounds the requests in flight across every model, not per model.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from werealign.eval.plan import Planned, derived_int
from werealign.llm.cache import ResponseCache
from werealign.llm.client import Outcome, RetryPolicy, litellm_cost
from werealign.llm.call_engine import Engine
from werealign.llm.connect import Connection, connect
from werealign.llm.store import Store, StoredResponse
from werealign.llm.workers import run_workers
from werealign.schema.runs import RunConfig, RunExecution
from werealign.solvers import get_solver
from werealign.solvers.base import Solver
from werealign.solvers.replay import Solved, run_solver

ProgressHooks = Any  # werealign.eval.progress.Progress (duck-typed to keep this module display-free)


async def execute(
    todo: Sequence[Planned],
    store: Store,
    *,
    connection: Connection,
    execution: RunExecution,
    cost_of: Callable[[Any], float | None],
    progress: ProgressHooks | None = None,
    seed: int = 0,
    cache: ResponseCache | None = None,
    budget: asyncio.Semaphore | None = None,
    solver: Solver,
    known: Mapping[str, StoredResponse] | None = None,
    cache_hits: list[str] | None = None,
) -> list[Outcome]:
    """Run the solver on every planned sample with at most `max_connections` requests in flight; store each
    request on arrival.

    `budget`: a semaphore shared with other runs in the same loop; a request (retries included) holds
    one of its slots while in flight, so the runs together never exceed it. `known`: the stored successes
    a multi-step solver replays (the default solver's todo has none). The shared `cache` is looked up per
    step only for other solvers: the default solver's requests were looked up in bulk when the run opened;
    `cache_hits` collects the keys those look-ups served (not sent, not paid).
    """
    policy = RetryPolicy(
        max_attempts=execution.max_attempts,
        timeout=execution.timeout,
        backoff_base=execution.backoff_base,
        backoff_max=execution.backoff_max,
    )
    outcomes: list[Outcome] = []

    # Progress counts samples (its total): one call each for the default solver; a multi-step sample
    # is reported once, when its solver is done, with its calls' tokens and cost summed.
    per_call = progress is not None and solver.planned

    def done(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if per_call:
            progress.done(outcome)

    lookup_each = cache is not None and not solver.planned
    engine = Engine(store, connection, policy=policy, cost_of=cost_of, cache=cache, budget=budget,
                    on_event=progress.event if progress is not None else (lambda event: None), on_done=done)

    async def answer(p: Planned, rng: random.Random) -> None:
        state = p.state()

        async def send(key: str, messages: list[dict[str, str]], params: dict[str, Any]) -> StoredResponse:
            if lookup_each and (hit := cache.lookup([key]).get(key)) is not None:
                await engine.keep(hit)
                if cache_hits is not None:
                    cache_hits.append(key)
                return hit
            request = {"model": p.model, "params": params, "messages": messages, "decode": p.decode}
            # The sample, for a model answered in process (a baseline); never part of the request's key or record.
            return (await engine.call(key, request, messages, params, rng, subject=lambda: state))[0]

        solved = await run_solver(solver, p.model, state, known or {}, send)
        if progress is not None and not per_call:
            progress.done(_sample_outcome(solved))

    async with engine:  # every response handed to the writer is committed before we return
        await run_workers(todo, execution.max_connections, answer, lambda index: random.Random(derived_int("jitter", seed, index)))
    return outcomes


def _sample_outcome(solved: Solved) -> Outcome:
    """A multi-step sample as one outcome for the progress display."""
    calls = [s for s in solved.steps if s.kind == "model"]
    usage = {"total_tokens": sum(s.usage.get("total_tokens", 0) for s in calls)}
    return Outcome(ok=solved.failed is None, text=solved.reply, usage=usage, cost=solved.cost,
                   latency=sum(s.latency or 0.0 for s in calls), attempts=sum(s.attempts for s in calls))


def request_record(p: Planned) -> dict[str, Any]:
    """The request as sent, minus transport settings (api_base, api_key never get here)."""
    return {"model": p.model, "params": p.params, "messages": p.messages, "decode": p.decode}


@dataclass
class Job:
    """One run's share of a send: its missing requests, its store and its progress hooks."""

    todo: list[Planned]
    store: Store
    config: RunConfig
    execution: RunExecution
    solver: Solver  # werealign.solvers.get_solver(config.solver)
    progress: ProgressHooks | None = None
    cache: ResponseCache | None = None
    known: Mapping[str, StoredResponse] | None = None
    cache_hits: list[str] | None = None  # filled with the keys a multi-step solver found in the shared cache


def send(
    todo: list[Planned],
    store: Store,
    config: RunConfig,
    execution: RunExecution,
    progress: ProgressHooks | None,
    acompletion: Callable[..., Any] | None = None,
    cache: ResponseCache | None = None,
    solver: Solver | None = None,
    known: Mapping[str, StoredResponse] | None = None,
    cache_hits: list[str] | None = None,
) -> list[Outcome]:
    """Resolve the model (starting a local server if it is one), then send `todo`.

    `acompletion` replaces litellm.acompletion (a fake completion function in tests); by default litellm's. A model
    answered in process (a baseline) is answered in process either way (werealign.llm.connect).
    """
    solver = solver if solver is not None else get_solver(config.solver)
    [result] = send_all([Job(todo, store, config, execution, solver, progress, cache, known, cache_hits)], acompletion=acompletion,
                        display=progress)
    if isinstance(result, BaseException):
        raise result
    return result


def send_all(
    jobs: Sequence[Job],
    *,
    acompletion: Callable[..., Any] | None = None,
    max_connections: int | None = None,
    display: Any = None,
) -> list[list[Outcome] | BaseException]:
    """Send every job's requests in one event loop; with `max_connections`, that many in flight in all.

    Each job gets its outcomes, or the exception that stopped it (a store that cannot be written, a local
    server that does not start): one run failing never stops the others. `display` (start/stop) is the
    progress display around the whole send.
    """
    with ExitStack() as stack:
        prepared: list[tuple[Job, RunExecution, Connection | BaseException]] = []
        for job in jobs:
            try:
                conn: Connection | BaseException = stack.enter_context(
                    connect(job.config.model, job.execution.api_base, acompletion=acompletion, check=False))
            except Exception as e:  # noqa: BLE001 - with one job this is raised by send(); with several, it is that job's outcome
                conn = e
            execution = job.execution
            if isinstance(conn, Connection) and conn.connections(execution.max_connections) < execution.max_connections:
                # A CPU-bound local server answers one request at a time; more would only queue and time out.
                execution = execution.model_copy(update={"max_connections": conn.connections(execution.max_connections)})
            prepared.append((job, execution, conn))

        async def run_all() -> list[list[Outcome] | BaseException]:
            budget = asyncio.Semaphore(max_connections) if max_connections is not None else None

            async def one(job: Job, execution: RunExecution, conn: Connection | BaseException) -> list[Outcome]:
                if isinstance(conn, BaseException):
                    raise conn
                return await execute(
                    job.todo,
                    job.store,
                    connection=conn,
                    execution=execution,
                    cost_of=litellm_cost,
                    progress=job.progress,
                    seed=job.config.seed,
                    cache=job.cache,
                    budget=budget,
                    solver=job.solver,
                    known=job.known,
                    cache_hits=job.cache_hits,
                )

            return await asyncio.gather(*(one(*p) for p in prepared), return_exceptions=True)

        try:
            if display is not None:
                display.start()
            return asyncio.run(run_all())
        finally:
            if display is not None:
                display.stop()
