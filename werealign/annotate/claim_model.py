"""A claim reader backed by a language model (issue 42, must-have 4): each table turn is put to the model with the
board's roles and the labelling rules (werealign.render.claim_prompt), and its reply, a JSON object
{"claim": <a board role id or null>}, is the turn's claim.

Every call goes through werealign.llm: `connect` (model resolution, a served built-in, the api base), the client's
retries (`call_with_retries`) and the shared response cache, keyed by request (model, params, messages) plus the
endpoint, so a second run over the same turns sends nothing. Temperature 0. A reply that does not parse, that names
a role off the board, or a request that failed (after retries) is an unreadable reply: counted with its reason, read
as no claim (so it scores as a miss against a labelled claim), never guessed. Not wired into `werealign derive`.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from werealign.errors import UserError
from werealign.game.claim_labels import FIELD  # the reply names the role in the field a label does
from werealign.game.claims import board_roles
from werealign.llm.builtin_models import count_tokens
from werealign.llm.cache import ResponseCache, cache_enabled, worth_caching
from werealign.llm.call_engine import stored_row
from werealign.llm.client import RetryPolicy, call_with_retries, litellm_cost
from werealign.llm.connect import Acompletion, Connection, connect
from werealign.llm.keys import request_key
from werealign.llm.model_limits import default_max_attempts, default_timeout
from werealign.llm.store import StoredResponse
from werealign.llm.workers import run_workers
from werealign.render.claim_prompt import claim_messages
from werealign.schema import GameLog, Utterance

MAX_TOKENS = 64  # the reply is one short JSON object (a model that reasons before replying needs more: --max-tokens)
_OBJECT = re.compile(r"\{[^{}]*\}")  # the reply's JSON object, fenced or after a sentence


class Unreadable(ValueError):
    """A reply that is not {"claim": <a board role id or null>}."""


@dataclass
class ModelReads:
    """What the model read: by (game id, turn index) the claimed role or None; every unreadable reply with its reason."""

    reads: dict[tuple[str, int], str | None] = field(default_factory=dict)
    unreadable: list[dict[str, Any]] = field(default_factory=list)  # {"game", "utterance", "reason"}
    sent: int = 0  # requests sent (not answered from the cache)
    cached: int = 0  # answered from the cache


def parse_claim(reply: str, roles: Iterable[str]) -> str | None:
    """The role a reply names (None: no claim); Unreadable when it is no such object or names a role off `roles`."""
    found = _OBJECT.findall(reply or "")
    if len(found) != 1:
        raise Unreadable(f"{'no' if not found else len(found)} JSON object{'s' if found else ''} in the reply")
    try:
        obj = json.loads(found[0])
    except ValueError as exc:
        raise Unreadable(f"the reply's object is not JSON ({exc})") from None
    if not isinstance(obj, dict) or FIELD not in obj:
        raise Unreadable(f'the reply has no "{FIELD}" field')
    claim = obj[FIELD]
    if claim is None:
        return None
    if not isinstance(claim, str) or claim.strip() not in set(roles):
        raise Unreadable(f"the reply names {claim!r}, not a role of the board")
    return claim.strip()


def estimate(turns: Iterable[tuple[GameLog, Utterance]]) -> tuple[int, int]:
    """(calls, prompt tokens) for reading `turns` from scratch: tokens counted one per CJK character, word or symbol
    (werealign.llm.builtin_models.count_tokens; a provider's tokenizer differs, the order of magnitude holds)."""
    calls = tokens = 0
    for game, turn in turns:
        calls += 1
        tokens += sum(count_tokens(m["content"]) for m in claim_messages(game, turn))
    return calls, tokens


def read_claims(turns: list[tuple[GameLog, Utterance]], model: str, *, api_base: str | None = None, concurrency: int = 4,
                max_tokens: int = MAX_TOKENS, acompletion: Acompletion | None = None,
                policy: RetryPolicy | None = None) -> ModelReads:
    """Read each turn's claim with `model` (at most `concurrency` requests in flight), at temperature 0."""
    with ExitStack() as stack:
        conn = stack.enter_context(connect(model, api_base, acompletion=acompletion))
        if conn.in_process:  # a baseline answers an item from the item itself, and a claim prompt is no item
            raise UserError(f"--model {model}: a built-in baseline reads no prompt; name a language model")
        cache = (stack.enter_context(ResponseCache(api_base)) if cache_enabled() and worth_caching(model) else None)
        if policy is None:  # a served built-in (local/smollm2) states its own timeout and attempts
            policy = RetryPolicy(timeout=default_timeout(model), max_attempts=default_max_attempts(model))
        params = {"temperature": 0, "max_tokens": max_tokens}
        return asyncio.run(_read_all(turns, conn, cache, conn.connections(concurrency), policy, params))


async def _read_all(turns: list[tuple[GameLog, Utterance]], conn: Connection, cache: ResponseCache | None,
                    concurrency: int, policy: RetryPolicy, params: dict[str, Any]) -> ModelReads:
    out = ModelReads()
    keyed = []
    for game, turn in turns:
        messages = claim_messages(game, turn)
        keyed.append((request_key(conn.routed, params, messages), messages, game, turn))
    hits: Mapping[str, StoredResponse] = cache.lookup(k for k, *_ in keyed) if cache is not None else {}

    async def work(item: tuple[str, list[dict[str, str]], GameLog, Utterance], rng: random.Random) -> None:
        key, messages, game, turn = item
        row = hits.get(key)
        if row is not None:
            out.cached += 1
            reply, error, cut = row.response, None, row.finish_reason == "length"
        else:
            out.sent += 1
            outcome = await call_with_retries(conn.acompletion, model=conn.routed, messages=messages,
                                              kwargs={**conn.kwargs, **params}, policy=policy, rng=rng,
                                              cost_of=litellm_cost if conn.priced else (lambda resp: None))
            reply, error = outcome.text, None if outcome.ok else f"{outcome.error_class}: {outcome.error_message}"
            cut = outcome.finish_reason == "length"
            if cache is not None:  # successes only (ResponseCache.add)
                cache.add(stored_row(key, {"model": conn.model, "params": params, "messages": messages}, outcome))
        where = (game.game_id, turn.index)
        try:
            if error is not None:
                raise Unreadable(f"the request failed ({error})")
            out.reads[where] = parse_claim(reply or "", board_roles(game))
        except Unreadable as exc:
            out.reads[where] = None
            reason = f"{exc} (the reply was cut at max_tokens)" if cut else str(exc)
            out.unreadable.append({"game": game.game_id, "utterance": turn.index, "reason": reason})

    await run_workers(keyed, concurrency, work, lambda i: random.Random(i))
    out.unreadable.sort(key=lambda u: (u["game"], u["utterance"]))
    return out
