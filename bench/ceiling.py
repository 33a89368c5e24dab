"""The throughput ceiling: a plain asyncio + litellm loop with no werealign machinery.

Sends the given requests (a JSON list of {"messages", "params"}) to an OpenAI-compatible endpoint
with `concurrency` requests in flight, and writes the replies to a JSON file. Run by run_bench.py.

    python bench/ceiling.py REQUESTS.json OUT.json --api-base http://127.0.0.1:PORT/v1 --concurrency 32
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys


async def run(requests: list[dict], api_base: str, model: str, concurrency: int) -> list[str]:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # the same offline price list as werealign
    import litellm

    sem = asyncio.Semaphore(concurrency)

    async def one(req: dict) -> str:
        async with sem:
            resp = await litellm.acompletion(
                model=model, messages=req["messages"], api_base=api_base, num_retries=0, max_retries=0, timeout=120,
                drop_params=True, **req["params"],
            )
            return resp.choices[0].message.content

    return await asyncio.gather(*(one(r) for r in requests))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("requests")
    p.add_argument("out")
    p.add_argument("--api-base", required=True)
    p.add_argument("--model", default="openai/mock")
    p.add_argument("--concurrency", type=int, default=32)
    a = p.parse_args()
    with open(a.requests, encoding="utf-8") as f:
        requests = json.load(f)
    replies = asyncio.run(run(requests, a.api_base, a.model, a.concurrency))
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(replies, f)


if __name__ == "__main__":
    sys.exit(main())
