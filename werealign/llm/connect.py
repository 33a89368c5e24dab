"""One place that turns a model string into a connection: eval, generation and the arena all connect here.

`connect(model, api_base)` checks the name, starts what serves it (the local llama.cpp server of `local/smollm2`)
and yields a `Connection`: the completion function, the routed model string, the arguments every request carries
(`api_base`, a placeholder key for a keyless local endpoint, built-ins' zero prices), whether replies are priced,
and how many requests the model can usefully take at once. Retries are the call engine's (werealign.llm.call_engine).

Models answered in process (the built-in baselines) never go through litellm: their replies are computed here from
the request's `subject`, a zero-argument callable the caller hands the engine with each request (eval: the sample's
solver State). A hosted or served model never sees the subject.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from werealign.llm import builtin_models

Acompletion = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class Connection:
    """A connected model. `acompletion(model=routed, messages=..., **kwargs, **params)` answers one request."""

    model: str  # as the user named it (e.g. werealign/random, openai/gpt-4o-mini)
    routed: str  # the model string `acompletion` is called with
    acompletion: Acompletion
    kwargs: dict[str, Any] = field(default_factory=dict)
    priced: bool = True  # False: a built-in (offline) model, free: litellm is never asked for its price
    max_connections: int | None = None  # the model's own limit (a CPU server answers one at a time); None: ours
    # Answered in process, from the request's subject (a baseline), not from its text; no network to wait on.
    in_process: bool = False

    def connections(self, wanted: int) -> int:
        """How many requests to keep in flight: `wanted`, at most the model's own limit."""
        return min(wanted, self.max_connections) if self.max_connections is not None else wanted


@contextmanager
def connect(model: str, api_base: str | None = None, *, acompletion: Acompletion | None = None,
            check: bool = True) -> Iterator[Connection]:
    """Connect to `model` for the duration of the block (a served built-in is started here and stopped on exit).

    `acompletion` replaces litellm.acompletion for a model litellm would serve (tests' fake providers); a model
    answered in process is answered in process either way. `check=False` skips the name check (a resumed run
    already passed it)."""
    if check:
        builtin_models.check_model_name(model, api_base)
    found = builtin_models.builtin(model)
    limit = found.max_connections if found is not None else None
    if found is not None and found.answer is not None:
        yield Connection(model, model, _in_process(found), {}, priced=False, max_connections=limit, in_process=True)
        return
    priced = not builtin_models.is_builtin(model)
    with builtin_models.resolve_model(model, api_base) as (routed, extra):
        if acompletion is None:
            from werealign.llm.loader import import_litellm

            acompletion = import_litellm().acompletion
        yield Connection(model, routed, acompletion, {"drop_params": True, **extra}, priced=priced, max_connections=limit)


def _in_process(model: builtin_models.BuiltinModel) -> Acompletion:
    """A completion function computing the model's reply from the request's subject, shaped like litellm's reply
    (content, finish reason, usage, a 0.0 cost), so storage and scoring treat it as any model's."""
    name, answer = model.name, model.answer

    async def acompletion(*, model: str, messages: list[dict[str, Any]], subject: Callable[[], Any] | None = None,
                          seed: Any = None, **ignored: Any) -> _Reply:
        text = answer(subject() if subject is not None else None, seed)
        prompt_tokens = sum(builtin_models.count_tokens(str(m.get("content") or "")) for m in messages)
        completion_tokens = builtin_models.count_tokens(text)
        return _Reply(text, prompt_tokens, completion_tokens, name)

    return acompletion


class _Reply:
    """The few attributes of litellm's ModelResponse the client reads (werealign.llm.client)."""

    def __init__(self, text: str, prompt_tokens: int, completion_tokens: int, model: str) -> None:
        self.choices = [_Choice(text)]
        self.usage = _Usage(prompt_tokens, completion_tokens)
        self.model = model
        self._hidden_params = {"response_cost": 0.0}  # a baseline costs nothing (and litellm is never asked)


@dataclass
class _Message:
    content: str


class _Choice:
    def __init__(self, text: str) -> None:
        self.message = _Message(text)
        self.finish_reason = "stop"


@dataclass
class _Usage:
    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens
