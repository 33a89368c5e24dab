"""An OpenAI-compatible mock of /v1/chat/completions for benchmarks and fault-injection tests.

Listens on 127.0.0.1 only. Every reply is a deterministic function of the request (so two runs of the
same eval give the same answers), answers in werealign's answer format ("Answer: X"), and reports usage.
The two formats the `sa` solver asks for are filled in too: role-rating lines and a strategy choice.
Faults are drawn per request from a seeded generator, so a retried request may succeed:

    python bench/mock_server.py --port 0 --latency-ms 50 --rate-429 0.05 --retry-after 1 \
        --rate-500 0.05 --rate-timeout 0.01 --rate-garbage 0.02

On start it prints one line `listening http://127.0.0.1:PORT` (flushed) so a parent process can read the
port. `GET /stats` returns request counts and the fingerprint of every request that got a 200 reply;
`POST /reset` clears them; `POST /latency?ms=N` sets the latency from then on. A request's fingerprint is
`fingerprint(body)` below: sha256 of the messages and the seed, which is what tests compare against the stored requests.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from aiohttp import web

LETTERS = "ABCDEFGHI"


def fingerprint(body: dict) -> str:
    """Identity of a request as the mock sees it: the messages and the per-decode seed."""
    blob = json.dumps({"messages": body.get("messages"), "seed": body.get("seed")}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def make_app(
    *,
    latency_ms: float = 0.0,
    rate_429: float = 0.0,
    retry_after: str = "1",
    rate_500: float = 0.0,
    rate_timeout: float = 0.0,
    hang_s: float = 3600.0,
    rate_garbage: float = 0.0,
    rate_400: float = 0.0,
    rate_401: float = 0.0,
    seed: int = 0,
    reply: str = "hash",
    prompt_cache: bool = False,
) -> web.Application:
    rng = random.Random(seed)
    delay = {"ms": latency_ms}  # POST /latency changes it: a test slows the requests it must catch in flight, not the rest
    seen_prefixes: set[str] = set()  # --prompt-cache: hashes of every prompt prefix served, in 256-character blocks
    stats: dict = {"requests": 0, "ok": 0, "faults": Counter(), "served": Counter(), "auth_headers": Counter(), "t_first": None, "t_last": None}

    async def chat(request: web.Request) -> web.StreamResponse:
        stats["requests"] += 1
        if stats["t_first"] is None:
            stats["t_first"] = time.time()
        auth = request.headers.get("Authorization", "")
        stats["auth_headers"]["present" if auth else "absent"] += 1
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return web.json_response({"error": {"message": "bad json", "type": "invalid_request_error"}}, status=400)
        if delay["ms"]:
            await asyncio.sleep(delay["ms"] / 1000.0)
        r = rng.random()
        edge = 0.0
        for kind, rate in (("429", rate_429), ("500", rate_500), ("timeout", rate_timeout), ("garbage", rate_garbage), ("400", rate_400), ("401", rate_401)):
            edge += rate
            if r < edge:
                stats["faults"][kind] += 1
                if kind == "429":
                    return web.json_response(
                        {"error": {"message": "rate limited (mock)", "type": "rate_limit_error"}},
                        status=429,
                        headers={"Retry-After": retry_after},
                    )
                if kind == "500":
                    return web.json_response({"error": {"message": "internal error (mock)", "type": "server_error"}}, status=500)
                if kind == "timeout":
                    await asyncio.sleep(hang_s)
                    return web.Response(status=504)
                if kind == "401":
                    # Like providers that quote the key they were given: the client must not store it.
                    msg = f"Incorrect API key provided: {auth.removeprefix('Bearer ')}"
                    return web.json_response({"error": {"message": msg, "type": "invalid_request_error"}}, status=401)
                if kind == "400":
                    return web.json_response({"error": {"message": "bad request (mock)", "type": "invalid_request_error"}}, status=400)
                return web.Response(status=200, body=b"<html>this is not json", content_type="application/json")
        fp = fingerprint(body)
        stats["ok"] += 1
        stats["served"][fp] += 1
        stats["t_last"] = time.time()
        content = _reply_text(body, fp, reply)
        # Like a real server, stop at max_tokens (about 4 characters a token) and say so.
        finish_reason = "stop"
        max_tokens = body.get("max_tokens")
        if isinstance(max_tokens, int) and max_tokens > 0 and len(content) > 4 * max_tokens:
            content, finish_reason = content[: 4 * max_tokens], "length"
        n_prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4 + 1
        n_completion = max(1, len(content) // 4)
        usage = {"prompt_tokens": n_prompt, "completion_tokens": n_completion, "total_tokens": n_prompt + n_completion}
        if prompt_cache:
            usage["prompt_tokens_details"] = {"cached_tokens": _cached_tokens(body, seen_prefixes)}
        return web.json_response(
            {
                "id": "chatcmpl-mock-" + fp[:12],
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "mock"),
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
                "usage": usage,
            }
        )

    async def get_stats(request: web.Request) -> web.Response:
        return web.json_response(
            {
                "requests": stats["requests"],
                "ok": stats["ok"],
                "faults": dict(stats["faults"]),
                "served": dict(stats["served"]),
                "auth_headers": dict(stats["auth_headers"]),
                "t_first": stats["t_first"],  # wall clock of the first request and of the last 200 reply
                "t_last": stats["t_last"],
            }
        )

    async def reset(request: web.Request) -> web.Response:
        stats["requests"] = stats["ok"] = 0
        stats["t_first"] = stats["t_last"] = None
        for k in ("faults", "served", "auth_headers"):
            stats[k].clear()
        return web.json_response({"reset": True})

    async def set_latency(request: web.Request) -> web.Response:
        delay["ms"] = float(request.query["ms"])
        return web.json_response({"latency_ms": delay["ms"]})

    async def models(request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "mock", "object": "model"}]})

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_post("/chat/completions", chat)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/stats", get_stats)
    app.router.add_post("/reset", reset)
    app.router.add_post("/latency", set_latency)
    return app


def _cached_tokens(body: dict, seen: set[str], block: int = 256) -> int:
    """Like a provider's automatic prompt cache: the longest prefix (whole 256-character blocks) of the
    prompt that an earlier request began with, in tokens of about 4 characters. Nothing is evicted."""
    text = "".join(_text_of(m.get("content")) for m in body.get("messages", []))
    cached = 0
    for end in range(block, len(text) + 1, block):
        digest = hashlib.sha256(text[:end].encode("utf-8")).hexdigest()
        if digest in seen:
            cached = end
        seen.add(digest)
    return cached // 4


def _text_of(content: object) -> str:
    """A message's text, whether a string or a list of content blocks (cache markers)."""
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return str(content or "")


def _reply_text(body: dict, fp: str, mode: str) -> str:
    """A deterministic answer; 'hash' picks a letter, and a seat list when the prompt asks for seats."""
    h = int(fp[:8], 16)
    if mode == "garbage-answer":
        return "I cannot decide."
    prompt = _text_of(body.get("messages", [{}])[-1].get("content", ""))
    letter = LETTERS[h % 9]
    if "<0-4>" in prompt:  # a role-rating step (solver sa): its rating lines filled in, after a line of evidence
        rng = random.Random(h)
        lines = [re.sub(r"<0-4>", lambda _: str(rng.randint(0, 4)), ln) for ln in prompt.splitlines() if "<0-4>" in ln and ":" in ln]
        return "Evidence: the claims and the votes so far.\n" + "\n".join(lines)
    for line in prompt.splitlines():  # a strategy choice (solver sa): one of the strategies its template offers
        found = re.match(r"^(Strategy|策略)\s*[:：]\s*(\S+)\|(\S+)", line.strip())
        if found:
            return f"{found.group(1)}: {found.group(2 + h % 2)} - the mock's reason\nDone."
    # An arena move (its answer format, then its legal choices): one of them. Eval's vote prompts list their
    # candidates before the answer format and keep the older reply below.
    listed = re.findall(r"(?:Answer|答案)\s*[:：]\s*<[^>\n]*>\s*\n(?:Candidates|候选座位)\s*[:：]\s*(.+)$", prompt, re.M)
    if listed:
        seats = re.findall(r"\d+", listed[-1])
        return f"Thinking it over.\nAnswer: {seats[h % len(seats)] if seats else 'none'}"
    if "Answer: <level>" in prompt or "答案：<等级>" in prompt:  # an arena bid for the floor (0-4)
        return f"Answer: {h % 5}"
    if "seat" in prompt.lower() and "A." not in prompt and "A)" not in prompt:
        seat = 1 + h % 12
        return f"Thinking it over.\nAnswer: {seat}"
    return f"<think>option {LETTERS[(h >> 4) % 9]} looks tempting</think>\nLet me reason.\nAnswer: {letter}"


async def serve(args: argparse.Namespace) -> None:
    app = make_app(
        latency_ms=args.latency_ms,
        rate_429=args.rate_429,
        retry_after=args.retry_after,
        rate_500=args.rate_500,
        rate_timeout=args.rate_timeout,
        hang_s=args.hang_s,
        rate_garbage=args.rate_garbage,
        rate_400=args.rate_400,
        rate_401=args.rate_401,
        seed=args.seed,
        reply=args.reply,
        prompt_cache=args.prompt_cache,
    )
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", args.port, backlog=1024)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # the real port when --port 0
    print(f"listening http://127.0.0.1:{port}", flush=True)
    await asyncio.Event().wait()


@contextmanager
def spawn(*args: str, start_timeout: float = 20.0) -> Iterator[str]:
    """Run the mock in a child process for a test or a benchmark; yields its base URL; always stops it."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--port", "0", *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=start_timeout):
            raise RuntimeError("mock server did not start in time")
        line = proc.stdout.readline()
        if not line.startswith("listening "):
            raise RuntimeError(f"mock server failed to start: {line!r}")
        yield line.split()[1]
    finally:
        proc.kill()
        proc.wait(timeout=10)


def stats(base_url: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(base_url + "/stats", timeout=10) as r:
        return json.load(r)


def set_latency(base_url: str, ms: float) -> None:
    import urllib.request

    with urllib.request.urlopen(urllib.request.Request(f"{base_url}/latency?ms={ms}", method="POST"), timeout=10) as r:
        r.read()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=0, help="0 = any free port (printed on start)")
    p.add_argument("--latency-ms", type=float, default=0.0)
    p.add_argument("--rate-429", type=float, default=0.0)
    p.add_argument("--retry-after", default="1", help="Retry-After header value sent with 429s (seconds or HTTP date)")
    p.add_argument("--rate-500", type=float, default=0.0)
    p.add_argument("--rate-timeout", type=float, default=0.0, help="fraction of requests that hang for --hang-s")
    p.add_argument("--hang-s", type=float, default=3600.0)
    p.add_argument("--rate-garbage", type=float, default=0.0, help="fraction answered 200 with a non-JSON body")
    p.add_argument("--rate-400", type=float, default=0.0, help="fraction answered 400 (must not be retried)")
    p.add_argument("--rate-401", type=float, default=0.0, help="fraction answered 401 quoting the API key received")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--prompt-cache", action="store_true", help="report cached prompt tokens (usage.prompt_tokens_details) like a provider's prompt cache")
    p.add_argument("--reply", choices=["hash", "garbage-answer"], default="hash")
    args = p.parse_args(argv)
    try:
        asyncio.run(serve(args))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
