"""The one worker runner: `count` workers take items from one shared queue until it is empty (eval's samples,
generation's drafts). Each worker gets its own random generator for backoff jitter, which never affects results."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


async def run_workers(items: Sequence[T], count: int, work: Callable[[T, random.Random], Awaitable[object]],
                      jitter: Callable[[int], random.Random]) -> None:
    """Run `work(item, rng)` on every item, at most `count` at once (at least one worker, at most one per item);
    `jitter(index)` is worker `index`'s generator. Each item is taken by exactly one worker."""
    queue = iter(items)  # shared: a worker takes the next item when it is done with its last

    async def worker(index: int) -> None:
        rng = jitter(index)
        for item in queue:
            await work(item, rng)

    await asyncio.gather(*(worker(i) for i in range(max(1, min(count, len(items))))))
