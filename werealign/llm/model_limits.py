"""What a model can take, from its metadata: its default reply budget, timeout and attempts, its context window,
and how to count a prompt's tokens for it.

A built-in model says so itself (`BuiltinModel`: local/smollm2 reads 8192 tokens, prompt and reply together, and
answers slowly on the CPU). A model litellm routes is looked up in litellm's model map (`max_input_tokens`) and
counted with `litellm.token_counter` (the provider's tokenizer where litellm has it, else cl100k). A model neither
knows (a custom --api-base model) has no known context: nothing is cut unless --context-budget is given.
"""

from __future__ import annotations

from collections.abc import Callable

from werealign.llm.builtin_models import _count_tokens, builtin

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
    two share it), a litellm-mapped model's max_input_tokens; None when unknown (a baseline reads anything)."""
    found = builtin(model)
    if found is not None:
        if found.context_tokens is None:
            return None
        return found.context_tokens - (max_tokens or 0)
    try:
        from werealign.llm.loader import import_litellm

        info = import_litellm().get_model_info(model)
    except Exception:  # noqa: BLE001 - litellm raises for a model its map does not hold: no known context
        return None
    window = info.get("max_input_tokens") or info.get("max_tokens")
    return int(window) if window else None


def prompt_counter(model: str) -> Callable[[Messages], int]:
    """Counts a prompt's tokens as `model` reads them (an upper bound for a built-in that says how)."""
    found = builtin(model)
    if found is not None:
        count = found.count_tokens or _count_tokens
        return lambda messages: sum(count(str(m.get("content") or "")) + MESSAGE_OVERHEAD for m in messages)

    from werealign.llm.loader import import_litellm

    litellm = import_litellm()

    def by_litellm(messages: Messages) -> int:
        # A byte-level tokenizer never makes more tokens than UTF-8 bytes: a prompt that short needs no count.
        size = sum(len(str(m.get("content") or "").encode()) + MESSAGE_OVERHEAD for m in messages)
        return size if size < 4096 else litellm.token_counter(model=model, messages=messages)

    return by_litellm
