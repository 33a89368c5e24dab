"""The model layer as generation uses it: the ONE module that imports the shared litellm client, its
response store and the built-in models (so moving those modules is a one-line change here).

Requests are keyed by their content (model, parameters, messages): a request whose reply is already
in the store is never sent again, and a changed prompt is a new request.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from werealign.llm import builtin_models, loader as llm
from werealign.llm.client import Outcome, RetryPolicy, litellm_cost
from werealign.llm.call_engine import Engine
from werealign.llm.keys import request_key
from werealign.llm.pricing import price_per_token
from werealign.llm.store import STORE_NAME, Store, StoredResponse

__all__ = ["STORE_NAME", "Outcome", "Request", "RetryPolicy", "Store", "StoredResponse", "connect", "decodes_under_schema", "request_key", "send_all", "price_per_token"]

Acompletion = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Request:
    stage: str
    unit: str  # what the request is about: an item id, or game:turn for OSR
    template: str  # template name with its version, e.g. "question.v1"
    messages: list[dict[str, str]]
    params: dict[str, Any] = field(default_factory=dict)
    model: str = ""

    @property
    def key(self) -> str:
        return request_key(self.model, self.params, self.messages)


@contextmanager
def connect(model: str, api_base: str | None = None) -> Iterator[tuple[Acompletion, str, dict[str, Any]]]:
    """litellm's acompletion, the routed model name and its extra arguments (a built-in or local model
    is started here and stopped on exit)."""
    builtin_models.check_model_name(model, api_base)
    litellm = llm.import_litellm()
    with builtin_models.resolve_model(model, api_base) as (routed, extra):
        yield litellm.acompletion, routed, {"drop_params": True, **extra}


def max_connections_for(model: str, wanted: int) -> int:
    hint = builtin_models.max_connections_hint(model)
    return min(wanted, hint) if hint is not None else wanted


def decodes_under_schema(model: str) -> bool:
    """Whether each request should carry its stage's JSON Schema (see replies.py). Only for the local
    llama.cpp server, which compiles the whole schema to a grammar; hosted structured-output modes
    reject parts of it (length bounds, prefixItems) with a 400, and would re-key every stored reply."""
    return builtin_models.schema_grammar(model)


async def send_all(
    requests: Sequence[Request],
    store: Store,
    *,
    acompletion: Acompletion,
    routed_model: str,
    kwargs: dict[str, Any],
    policy: RetryPolicy,
    max_connections: int = 4,
    seed: int = 0,
    on_event: Callable[[str], None] = lambda e: None,
    on_done: Callable[[Outcome], None] = lambda o: None,
) -> None:
    """Send each request (none of them stored yet) and store its outcome the moment it arrives, through
    the one call engine (werealign.llm.call_engine) eval uses; generation's keys and request records stay its own."""
    queue = iter(requests)
    engine = Engine(store, acompletion=acompletion, model=routed_model, kwargs=kwargs, policy=policy, cost_of=litellm_cost,
                    on_event=on_event, on_done=on_done, priced=not builtin_models.is_builtin(routed_model))

    async def worker(index: int) -> None:
        rng = random.Random(f"gen-jitter-{seed}-{index}")  # backoff jitter only
        for r in queue:
            await engine.call(r.key, _record(r), r.messages, r.params, rng)

    async with engine:
        await asyncio.gather(*(worker(i) for i in range(max(1, min(max_connections, len(requests))))))


def _record(r: Request) -> dict[str, Any]:
    return {"model": r.model, "params": r.params, "messages": r.messages, "stage": r.stage, "template": r.template}
