"""Model calls and tokens per sample of each solver, measured against the mock server, beside `--dry-run`.

For each solver: `werealign eval --dry-run` (its estimate), then the same eval against bench/mock_server.py
on 127.0.0.1; the measured figures come from the run's samples.jsonl (model steps per sample, the
provider-reported prompt and completion tokens summed over them). Prints one Markdown table row per solver.

    python bench/solver_costs.py                                   # the bundled sample dataset, --limit 3
    python bench/solver_costs.py --dataset DIR --limit 2 --solvers xu,sa

The mock counts a request's prompt tokens as its characters / 4 (as --dry-run estimates them) and replies
in a few dozen characters; --dry-run assumes replies of REPLY_TOKENS (werealign.eval.dry_run) where a later
step quotes them, so the gap between the two columns is the replies' length, and is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import mock_server  # noqa: E402

WEREALIGN = [sys.executable, "-m", "werealign.cli"]


def _cli(*args: str, env: dict[str, str]) -> str:
    proc = subprocess.run([*WEREALIGN, *args], env=env, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        sys.exit(f"failed: werealign {' '.join(args)}\n{proc.stderr[-2000:]}")
    return proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default=None, help="a dataset directory (default: the bundled sample)")
    ap.add_argument("--limit", type=int, default=3)
    ap.add_argument("--solvers", default="single,cot,self-consistency,sa,xu,mg")
    ap.add_argument("--max-tokens", type=int, default=None, help="passed to both: the mock cuts its replies there, --dry-run assumes it")
    args = ap.parse_args()
    env = {**os.environ, "OPENAI_API_KEY": "sk-unused", "WEREALIGN_CACHE": "off", "PYTHONPATH": str(REPO)}
    data = ["--dataset", args.dataset] if args.dataset else []
    print("| solver | samples | calls/sample | dry-run calls/sample | prompt tokens/sample | dry-run | dry-run vs measured | completion tokens/sample |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with mock_server.spawn() as base, tempfile.TemporaryDirectory() as tmp:
        for solver in args.solvers.split(","):
            common = ["--model", "openai/mock", *data, "--limit", str(args.limit), "--decodes", "1", "--solver", solver,
                      *(["--max-tokens", str(args.max_tokens)] if args.max_tokens else [])]
            line = _cli("eval", *common, "--dry-run", env=env)
            dry = re.search(r"(\d+) samples, (\d+) model calls, ~(\d+) prompt tokens", line)
            out = Path(tmp) / solver
            _cli("eval", *common, "--api-base", base + "/v1", "--out", str(out), "--quiet", env=env)
            rows = [json.loads(x) for x in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
            calls = sum(len([s for s in r["steps"] if s["kind"] == "model"]) if r.get("steps") else 1 for r in rows)
            n = len(rows)
            prompt = sum(r.get("prompt_tokens") or 0 for r in rows)  # summed over the row's model steps
            completion = sum(r.get("completion_tokens") or 0 for r in rows)
            d_samples, d_calls, d_prompt = (int(x) for x in dry.groups())
            assert d_samples == n, (d_samples, n)
            print(f"| {solver} | {n} | {calls / n:.2f} | {d_calls / n:.2f} | {prompt / n:.0f} | {d_prompt / n:.0f} | "
                  f"{100 * (d_prompt - prompt) / prompt:+.1f}% | {completion / n:.0f} |", flush=True)


if __name__ == "__main__":
    main()
