"""One model request with retries: per-attempt timeout, jittered backoff, Retry-After, error classes.

litellm's own retries are switched off (num_retries=0, max_retries=0) so that every attempt is visible
here: counted, classified and spaced out by one policy. Retried: 429, 408, 409, every 5xx (litellm maps
a connection failure and an unreadable body to 500), timeouts and connection errors. Not retried: any
other 4xx (bad request, authentication, not found, ...) and errors that are not litellm's (a bug in a
built-in provider, say): asking again would fail the same way and, with a paid API, cost money.
"""

from __future__ import annotations

import asyncio
import email.utils
import os
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

RETRYABLE_STATUS = frozenset({408, 409, 429})
RETRY_AFTER_CAP = 300.0  # never sleep longer than this on a server's say-so
_SECRET_ENV = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD)", re.I)


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 6
    timeout: float = 120.0  # seconds, per attempt
    backoff_base: float = 1.0
    backoff_max: float = 60.0


@dataclass(frozen=True)
class Outcome:
    ok: bool
    text: str | None
    usage: dict[str, int] | None
    cost: float | None
    latency: float  # seconds of the successful (or last) attempt
    attempts: int
    error_class: str | None = None
    error_message: str | None = None
    finish_reason: str | None = None  # "length": the reply was cut at max_tokens


@dataclass(frozen=True)
class Failure:
    retryable: bool
    error_class: str
    message: str
    retry_after: float | None


# Called with "attempt", "retry_wait", "retry_done" so a progress display can show retries in flight.
EventHook = Callable[[str], None]


def classify(exc: BaseException) -> Failure:
    """Decide whether an exception from litellm.acompletion is worth another attempt."""
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if isinstance(exc, asyncio.TimeoutError | TimeoutError):
        return Failure(True, "Timeout", "request timed out", None)
    mod = type(exc).__module__ or ""
    from_provider = mod.startswith(("litellm", "openai", "httpx", "aiohttp"))
    if not from_provider:
        return Failure(False, name, redact(str(exc)), None)
    if _client_side_config_error(exc):
        return Failure(False, name, redact(str(exc)), None)
    if name in ("Timeout", "APITimeoutError", "APIConnectionError", "ServiceUnavailableError", "BadGatewayError"):
        retryable = True
    elif isinstance(status, int):
        retryable = status in RETRYABLE_STATUS or status >= 500
    else:
        retryable = name in ("InternalServerError", "APIError")
    return Failure(retryable, name, redact(str(exc)), retry_after_seconds(exc))


def _client_side_config_error(exc: BaseException) -> bool:
    """litellm reports some local mistakes (e.g. no API key set) as a 500; they never reached a server.

    The chain of causes ends in the openai SDK's bare OpenAIError (not an APIError, which every
    over-the-wire failure is); asking again cannot help.
    """
    seen = 0
    link: BaseException | None = exc
    while link is not None and seen < 10:
        cls = type(link)
        if cls.__name__ == "OpenAIError" and cls.__module__.split(".")[0] == "openai":
            return True
        link = link.__cause__ or link.__context__
        seen += 1
    return False


def retry_after_seconds(exc: BaseException) -> float | None:
    """The server's Retry-After (seconds or an HTTP date), wherever litellm kept the response headers."""
    for headers in (
        getattr(exc, "litellm_response_headers", None),
        getattr(getattr(exc, "response", None), "headers", None),
        getattr(exc, "headers", None),
    ):
        if not headers:
            continue
        try:
            value = headers.get("retry-after") or headers.get("Retry-After")
        except AttributeError:
            continue
        if value:
            return parse_retry_after(str(value))
    return None


def parse_retry_after(value: str, now: float | None = None) -> float | None:
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return min(max(seconds, 0.0), RETRY_AFTER_CAP)


def backoff_delay(attempt: int, policy: RetryPolicy, rng: random.Random, retry_after: float | None) -> float:
    """Full jitter (uniform in [0, min(max, base * 2^(attempt-1))]); a Retry-After is a lower bound."""
    jitter = rng.uniform(0.0, min(policy.backoff_max, policy.backoff_base * 2 ** (attempt - 1)))
    return max(jitter, retry_after) if retry_after is not None else jitter


def redact(message: str, limit: int = 500) -> str:
    """Strip any secret-looking environment value from a provider's message before it is stored."""
    for name, value in os.environ.items():
        if len(value) >= 8 and _SECRET_ENV.search(name) and value in message:
            message = message.replace(value, "***")
    message = " ".join(message.split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


async def call_with_retries(
    acompletion: Callable[..., Awaitable[Any]],
    *,
    model: str,
    messages: list[dict[str, str]],
    kwargs: dict[str, Any],
    policy: RetryPolicy,
    rng: random.Random,
    cost_of: Callable[[Any], float | None] = lambda resp: None,
    on_event: EventHook = lambda event: None,
) -> Outcome:
    attempt = 0
    latency = 0.0
    while True:
        attempt += 1
        on_event("attempt")
        started = time.perf_counter()
        try:
            # A backstop for providers that ignore `timeout` (e.g. a custom in-process one); unlike
            # wait_for, asyncio.timeout adds no task per request.
            async with asyncio.timeout(policy.timeout + 5.0):
                resp = await acompletion(model=model, messages=messages, timeout=policy.timeout, num_retries=0, max_retries=0, **kwargs)
            latency = time.perf_counter() - started
            return Outcome(
                ok=True,
                text=_content(resp),
                usage=_usage(resp),
                finish_reason=_finish_reason(resp),
                cost=cost_of(resp),
                latency=round(latency, 4),
                attempts=attempt,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - every failure is classified and recorded, never lost
            latency = time.perf_counter() - started
            failure = classify(exc)
        if not failure.retryable or attempt >= policy.max_attempts:
            return Outcome(
                ok=False,
                text=None,
                usage=None,
                cost=None,
                latency=round(latency, 4),
                attempts=attempt,
                error_class=failure.error_class,
                error_message=failure.message,
            )
        on_event("retry_wait")
        try:
            await asyncio.sleep(backoff_delay(attempt, policy, rng, failure.retry_after))
        finally:
            on_event("retry_done")


def _content(resp: Any) -> str:
    try:
        content = resp.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        return ""
    return content if isinstance(content, str) else ""


def _finish_reason(resp: Any) -> str | None:
    try:
        reason = resp.choices[0].finish_reason
    except (AttributeError, IndexError, TypeError):
        return None
    return reason if isinstance(reason, str) else None


def _usage(resp: Any) -> dict[str, int] | None:
    usage = getattr(resp, "usage", None)
    if usage is None:
        return None
    out = {}
    for field in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = getattr(usage, field, None)
        if isinstance(value, int):
            out[field] = value
    # Prompt tokens the provider read from its prompt cache: OpenAI's field, where litellm also puts
    # Anthropic's cache_read_input_tokens (read directly too, for responses litellm did not normalise).
    details = getattr(usage, "prompt_tokens_details", None)
    cached = details.get("cached_tokens") if isinstance(details, dict) else getattr(details, "cached_tokens", None)
    if not isinstance(cached, int) or not cached:
        cached = getattr(usage, "cache_read_input_tokens", None)
    if isinstance(cached, int) and cached > 0:
        out["cached_tokens"] = cached
    return out or None


def cache_saving(model: str, cached_tokens: int) -> float | None:
    """USD saved by `cached_tokens` read from the provider's cache instead of billed as fresh input
    (litellm's price table; None when it has no cache price for the model)."""
    from werealign.llm.loader import import_litellm

    try:
        info = import_litellm().get_model_info(model)
    except Exception:  # noqa: BLE001 - unknown model: the saving is unknown, not zero
        return None
    fresh, cached = info.get("input_cost_per_token"), info.get("cache_read_input_token_cost")
    if not isinstance(fresh, int | float) or not isinstance(cached, int | float):
        return None
    return round(cached_tokens * (fresh - cached), 10)


def litellm_cost(resp: Any) -> float | None:
    """litellm's price for a response, or None when it has no price for the model (never guessed)."""
    hidden = getattr(resp, "_hidden_params", None) or {}
    if "response_cost" in hidden:
        cost = hidden.get("response_cost")
        return float(cost) if isinstance(cost, int | float) else None
    model = getattr(resp, "model", None)
    if isinstance(model, str) and model in _UNPRICED:
        return None
    from werealign.llm.loader import import_litellm

    litellm = import_litellm()
    try:
        return float(litellm.completion_cost(completion_response=resp))
    except Exception:  # noqa: BLE001 - unknown model or provider: cost is unknown, not zero
        if isinstance(model, str) and model not in litellm.model_cost and model.split("/", 1)[-1] not in litellm.model_cost:
            # litellm's price table does not change during a run: asking again for every reply of an
            # unpriced model cost about a tenth of the request phase against a local endpoint.
            _UNPRICED.add(model)
        return None


_UNPRICED: set[str] = set()  # models litellm could not price in this process
