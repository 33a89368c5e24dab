"""Provider prompt caching: most of a prompt (rules, role, transcript) repeats across the items of a game
and viewpoint, so providers that cache a prompt's prefix bill it at a fraction of the price.

Some providers cache by themselves (OpenAI, DeepSeek, xAI); Anthropic's Claude, wherever it is served,
caches only up to a `cache_control` marker. For those we mark the system message and the user message's
context: everything before its last markdown section ("## ..."), which is the question. Markers are
transport, like the endpoint: request keys and the stored request keep the plain messages.
"""

from __future__ import annotations

from typing import Any

_MARK = {"type": "ephemeral"}


def needs_markers(model: str) -> bool:
    """Claude caches only where marked: Anthropic's API, or Claude served by Bedrock, Vertex, OpenRouter, ..."""
    provider, _, name = model.partition("/")
    return provider == "anthropic" or "claude" in name.lower()


def split_context(text: str) -> tuple[str, str]:
    """(context, question): the text before its last "## " section heading, and that section on."""
    cut = text.rfind("\n## ")
    return (text[: cut + 1], text[cut + 1 :]) if cut > 0 else ("", text)


def prefix_of(messages: list[dict[str, Any]]) -> tuple[str, ...]:
    """The part of a prompt that other prompts of the same game and viewpoint repeat."""
    *head, last = messages
    return (*(str(m.get("content")) for m in head), split_context(str(last.get("content")))[0])


def with_markers(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with Anthropic-style cache markers on the system message and the last user context."""
    out: list[dict[str, Any]] = []
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    for i, m in enumerate(messages):
        content = m.get("content")
        if not isinstance(content, str):
            out.append(m)
        elif m.get("role") == "system":
            out.append({**m, "content": [{"type": "text", "text": content, "cache_control": _MARK}]})
        elif i == last_user and (parts := split_context(content))[0]:
            out.append({**m, "content": [{"type": "text", "text": parts[0], "cache_control": _MARK},
                                         {"type": "text", "text": parts[1]}]})
        else:
            out.append(m)
    return out
