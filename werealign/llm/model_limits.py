"""What a model can take, from its metadata: its default reply budget, timeout and attempts, its context window,
and how to count a prompt's tokens for it.

A built-in model says so itself (`BuiltinModel`: local/smollm2 reads 8192 tokens, prompt and reply together, and
answers slowly on the CPU). A model litellm routes is looked up in litellm's model map (`max_input_tokens`) and
counted with `litellm.token_counter` (the provider's tokenizer where litellm has it, else cl100k). A model neither
knows (a custom --api-base model) has no known context: nothing is cut unless --context-budget is given.
"""

from __future__ import annotations

import importlib.machinery
import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from werealign.llm.builtin_models import builtin, count_tokens

DEFAULT_TIMEOUT = 120.0  # seconds per attempt for a hosted model
DEFAULT_MAX_ATTEMPTS = 6

Messages = list[dict[str, str]]
MESSAGE_OVERHEAD = 8  # a chat template's tokens around each message (role markers, separators)


def default_max_tokens(model: str) -> int | None:
    """The reply budget when --max-tokens is not given: the model's own (a local model), else none of ours."""
    found = builtin(model)
    return found.reply_tokens if found is not None else None


def default_timeout(model: str) -> float:
    found = builtin(model)
    return found.timeout if found is not None and found.timeout is not None else DEFAULT_TIMEOUT


def default_max_attempts(model: str) -> int:
    found = builtin(model)
    return found.max_attempts if found is not None and found.max_attempts is not None else DEFAULT_MAX_ATTEMPTS


def default_context_budget(model: str, max_tokens: int | None) -> int | None:
    """The prompt tokens a model reads where its metadata says so: a built-in's window less the reply budget (the
    two share it), a model's `max_input_tokens` in litellm's model map; None when unknown (a baseline reads anything)."""
    found = builtin(model)
    if found is not None:
        if found.context_tokens is None:
            return None
        return found.context_tokens - (max_tokens or 0)
    entry = litellm_model_entry(model)
    window = entry.get("max_input_tokens") or entry.get("max_tokens") if entry else None
    return int(window) if isinstance(window, int | float) and window > 0 else None


def litellm_model_entry(model: str) -> dict | None:
    """`model`'s entry in the model map litellm ships (read as data: a rerun served from the store never imports
    litellm), by its name or, as litellm routes it, by the name after its provider prefix."""
    table = _litellm_model_map()
    entry = table.get(model)
    provider, _, rest = model.partition("/")
    if entry is None and rest:
        candidate = table.get(rest)
        entry = candidate if isinstance(candidate, dict) and candidate.get("litellm_provider") == provider else None
    return entry if isinstance(entry, dict) else None


@lru_cache(maxsize=1)
def _litellm_model_map() -> dict:
    # The path finder, not importlib.util.find_spec: that one answers from sys.modules, where a test (or a caller) that
    # blocks `import litellm` leaves None, and the empty map would then be cached for the process.
    spec = importlib.machinery.PathFinder.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(list(spec.submodule_search_locations)[0]) / "model_prices_and_context_window_backup.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def bytes_bound(messages: Messages) -> int:
    """At least as many tokens as any byte-level tokenizer makes of the prompt: its UTF-8 bytes (a token covers at
    least one byte), plus each message's chat-template tokens. A prompt this short needs no tokenizer to fit."""
    return sum(len(str(m.get("content") or "").encode()) + MESSAGE_OVERHEAD for m in messages)


def prompt_counter(model: str) -> Callable[[Messages], int]:
    """Counts a prompt's tokens as `model` reads them (an upper bound for a built-in that says how)."""
    found = builtin(model)
    if found is not None:
        count = found.count_tokens or count_tokens
        return lambda messages: sum(count(str(m.get("content") or "")) + MESSAGE_OVERHEAD for m in messages)

    def by_litellm(messages: Messages) -> int:
        from werealign.llm.loader import import_litellm  # only when a prompt is long enough to need counting

        return import_litellm().token_counter(model=model, messages=messages)

    return by_litellm
