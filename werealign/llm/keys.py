"""Request keys: the content identity of a paid model call, shared by every caller of the model layer."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def request_key(model: str, params: dict[str, Any], messages: list[dict[str, str]], decode: int) -> str:
    """sha256 of (model, sampling params, messages, decode index): the identity of a paid request."""
    blob = canonical_json({"model": model, "params": params, "messages": messages, "decode": decode})
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
