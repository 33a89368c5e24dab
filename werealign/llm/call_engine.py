"""The call engine: one keyed request in, one stored outcome out, for eval, generation and the arena, over a
connection (werealign.llm.connect).

What every caller shares: retries (werealign.llm.client), durable storage on arrival (one writer thread
per engine: a caller waits until its row is committed, while the event loop keeps serving the other
connections; a model answered in process has nothing in flight, so its rows are committed on the loop's
thread), the shared response cache, provider prompt-cache markers and their reported saving, and
one concurrency budget (a semaphore a request holds while in flight, retries included).
Keys are the callers' own (werealign.llm.keys for eval; generation keeps its older keys readable).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import replace
from typing import Any

from werealign.llm.cache import ResponseCache
from werealign.llm.client import Outcome, RetryPolicy, cache_saving, call_with_retries
from werealign.llm.connect import Connection
from werealign.llm.prompt_cache import needs_markers, with_markers
from werealign.llm.store import Store, StoredResponse


class Engine:
    """Use as an async context manager inside the event loop that sends (the writer is shut down on exit,
    after every row handed to it is committed)."""

    def __init__(
        self,
        store: Store,
        connection: Connection,
        *,
        policy: RetryPolicy,
        cost_of: Callable[[Any], float | None],
        cache: ResponseCache | None = None,
        budget: asyncio.Semaphore | None = None,
        on_event: Callable[[str], None] = lambda event: None,
        on_done: Callable[[Outcome], None] = lambda outcome: None,
    ) -> None:
        self.store, self.cache, self.budget, self.connection = store, cache, budget, connection
        self._policy, self._cost_of, self._on_event, self._on_done = policy, cost_of, on_event, on_done
        self._marked = needs_markers(connection.routed)
        self._writer: ThreadPoolExecutor | None = None

    async def __aenter__(self) -> Engine:
        return self.start()

    async def __aexit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> Engine:
        """Start the store writer (a caller that drives the loop itself, one request at a time: the arena)."""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="werealign-store")
        return self

    def stop(self) -> None:
        """Stop the writer once every row handed to it is committed."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None

    async def keep(self, row: StoredResponse) -> None:
        """Commit `row` to the store (then the shared cache) before returning."""
        if self.connection.in_process:
            # Nothing in flight to keep serving while the row is committed: handing it to the writer thread only
            # made the two threads fight over the GIL (a baseline's hashing waited on the writer's turn).
            _keep(self.store, self.cache, row)
            return
        await asyncio.get_running_loop().run_in_executor(self._writer, _keep, self.store, self.cache, row)

    async def call(self, key: str, request: dict[str, Any], messages: list[dict[str, Any]], params: dict[str, Any],
                   rng: random.Random, subject: Callable[[], Any] | None = None) -> tuple[StoredResponse, Outcome]:
        """Send one request (retries included), store its outcome under `key` with `request` as its record.
        `subject`: what the request is about (eval: the sample's solver State), read only by a model answered
        in process (werealign.llm.connect); never part of the request, its key or its record."""
        conn = self.connection
        kwargs = {**conn.kwargs, **params, **({"subject": subject} if conn.in_process else {})}
        async with self.budget if self.budget is not None else nullcontext():
            outcome = await call_with_retries(
                conn.acompletion, model=conn.routed, messages=with_markers(messages) if self._marked else messages,
                kwargs=kwargs, policy=self._policy, rng=rng, cost_of=self._cost_of, on_event=self._on_event)
        if conn.priced and outcome.usage and outcome.usage.get("cached_tokens"):
            saving = cache_saving(conn.routed, outcome.usage["cached_tokens"])
            if saving is not None:
                outcome = replace(outcome, usage={**outcome.usage, "cache_saving_usd": saving})
        row = stored_row(key, request, outcome)
        await self.keep(row)
        self._on_done(outcome)
        return row, outcome


def _keep(store: Store, cache: ResponseCache | None, row: StoredResponse) -> None:
    store.put(row)  # the run's store first: it is the source of truth
    if cache is not None:
        cache.add(row)


def stored_row(key: str, request: dict[str, Any], outcome: Outcome) -> StoredResponse:
    return StoredResponse(
        key=key, request=request, status="ok" if outcome.ok else "error", response=outcome.text, usage=outcome.usage,
        cost=outcome.cost, latency=outcome.latency, error_class=outcome.error_class, error_message=outcome.error_message,
        attempts=outcome.attempts, finish_reason=outcome.finish_reason,
    )
