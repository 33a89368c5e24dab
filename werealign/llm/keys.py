"""Request keys: the content identity of a paid model call. Eval, generation and the solvers key their requests
here; the arena keys its own the same way (werealign/arena/llm_agent.py `request_key`, without a decode index)."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def derived_int(*parts: object) -> int:
    """A 63-bit integer from sha256 of the parts: stable across processes, platforms and Python versions
    (the seeds of option orders, variants and sampled decodes)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def request_key(model: str, params: dict[str, Any], messages: list[Any], decode: int | None = None) -> str:
    """sha256 of (model, sampling params, messages, decode index): the identity of a paid request.

    Without a decode index (generation, which has no decodes) the key is that of the same object
    without the field, as generation has always keyed its stored requests."""
    body: dict[str, Any] = {"model": model, "params": params, "messages": messages}
    if decode is not None:
        body["decode"] = decode
    blob = canonical_json(body)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
