"""How fast a served built-in model (a local model) reads and writes on this machine now: one short timed request.

A model on the CPU answers in seconds on an idle machine and in minutes on a busy one (SmolLM2-135M on two shared
cores read 11 prompt tokens/s, on an idle core hundreds), so its wall time can only be known by asking it. The probe
starts the model's server, sends one prompt (the caller picks a real one) with a reply of a few tokens, and reads the
server's own timings (llama.cpp reports `timings`: prompt_n, prompt_ms, predicted_n, predicted_ms); a server that
reports none is timed by the clock, the whole time counted as reading the prompt.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from werealign.errors import UserError
from werealign.llm.builtin_models import builtin

PROBE_REPLY_TOKENS = 8


@dataclass(frozen=True)
class Speed:
    prompt_tokens_per_s: float  # prompt tokens read per second
    reply_tokens_per_s: float  # reply tokens written per second
    prompt_tokens: int  # the probe prompt's tokens, as the model counted them
    seconds: float  # the probe's wall time (server start not included)


def is_local(model: str) -> bool:
    """A built-in model werealign serves itself (its wall time depends on this machine)."""
    found = builtin(model)
    return found is not None and found.serve is not None


def probe_speed(model: str, messages: list[dict[str, str]], timeout: float) -> Speed:
    """Start `model`'s server, time one request of `messages` with a reply of PROBE_REPLY_TOKENS tokens, stop it."""
    found = builtin(model)
    if found is None or found.serve is None:
        raise ValueError(f"{model} is not a served built-in model")
    with found.serve() as (_, kwargs):
        body = json.dumps({"messages": messages, "max_tokens": PROBE_REPLY_TOKENS, "temperature": 0.0}).encode()
        request = urllib.request.Request(f"{kwargs['api_base']}/chat/completions", data=body, headers={"Content-Type": "application/json"})
        start = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                reply = json.load(r)
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise UserError(f"{model}: the timing probe failed ({e}); nothing of the run was sent") from None
        seconds = time.monotonic() - start
    t = reply.get("timings") if isinstance(reply, dict) else None
    usage = reply.get("usage") or {} if isinstance(reply, dict) else {}
    if isinstance(t, dict) and t.get("prompt_ms") and t.get("predicted_ms") and t.get("prompt_n") and t.get("predicted_n"):
        return Speed(1000 * t["prompt_n"] / t["prompt_ms"], 1000 * t["predicted_n"] / t["predicted_ms"], int(t["prompt_n"]), seconds)
    prompt = int(usage.get("prompt_tokens") or 0)
    if not prompt:
        raise UserError(f"{model}: the timing probe's reply reports no token counts; its wall time cannot be estimated")
    per_token = seconds / (prompt + PROBE_REPLY_TOKENS)  # no split between reading and writing: both at one rate
    return Speed(1 / per_token, 1 / per_token, prompt, seconds)
