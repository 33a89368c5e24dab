"""A fake completion function for in-process eval tests: injected at the client seam (run_eval's
`acompletion`), so no litellm import, no server and no subprocess. Replies are deterministic."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any


@dataclass
class FakeCompletion:
    """Answers every prompt with a valid answer line (option A / the first candidate) and counts calls."""

    calls: list[dict[str, Any]] = field(default_factory=list)
    fail_with: Exception | None = None
    reply_for: Callable[[str], str] | None = None  # the user message -> the reply (a fake with a policy of its own)

    async def __call__(self, *, model: str, messages: list[dict[str, str]], **kwargs: Any) -> Any:
        self.calls.append({"model": model, "messages": messages, **kwargs})
        if self.fail_with is not None:
            raise self.fail_with
        user = messages[-1]["content"]
        m = re.search(r"^(?:Candidates|候选座位)\s*[:：]\s*(\d+)", user, re.M)
        reply = f"Answer: {m.group(1)}" if m else "Answer: A"
        if self.reply_for is not None:
            reply = self.reply_for(user)
        return SimpleNamespace(
            choices=[SimpleNamespace(message=SimpleNamespace(content=reply), finish_reason="stop")],
            usage=SimpleNamespace(prompt_tokens=len(user) // 4, completion_tokens=3, total_tokens=len(user) // 4 + 3),
            _hidden_params={"response_cost": 0.001},
        )
