"""Issue 44 must-have 5: N arena games one at a time vs side by side (`--parallel N`), against the mock server with
latency (127.0.0.1 only), through the real CLI and litellm. Both runs must write the same files (responses aside).

    python bench/arena_parallel.py --solver xu --games 4 --latency-ms 1000 --board eight1 --out /tmp/bench-arena

Prints the wall time of each run, the requests the mock served, and whether the two directories are identical.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mock_server  # noqa: E402

BOARDS = {  # small boards a mock run can afford; on 5 seats games share more of their early prompts than on 8
    "short5": {"roles": ["seer", "werewolf", "villager", "villager", "villager"], "debate": "round-robin", "max_days": 2},
    "eight1": {"roles": ["seer", "doctor", "werewolf", "werewolf", "villager", "villager", "villager", "villager"],
               "debate": "round-robin", "max_days": 1, "win": "parity", "exile": "majority"},
}


def tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "responses.sqlite"}


def run(base: str, out: Path, board: Path, args: argparse.Namespace, parallel: int) -> tuple[float, int, str]:
    before = mock_server.stats(base)["ok"]
    cmd = [sys.executable, "-m", "werealign.cli", "arena", "--model", "openai/mock", "--api-base", base + "/v1",
           "--games", str(args.games), "--seed", str(args.seed), "--board", str(board), "--solver", args.solver, "--no-cache",
           "--max-connections", str(args.max_connections), "--parallel", str(parallel), "--max-failed", "1", "--out", str(out)]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env={**os.environ, "OPENAI_API_KEY": "mock"})
    secs = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"arena failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return secs, mock_server.stats(base)["ok"] - before, done.stdout


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--solver", default="xu")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--latency-ms", type=float, default=200.0)
    p.add_argument("--max-connections", type=int, default=16)
    p.add_argument("--timeout", type=float, default=3000.0, help="seconds either run may take")
    p.add_argument("--board", choices=sorted(BOARDS), default="short5")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    args.out.mkdir(parents=True)
    board = args.out / "board.json"
    board.write_text(json.dumps(BOARDS[args.board]))
    with mock_server.spawn("--latency-ms", str(args.latency_ms)) as base:
        seq, seq_req, _ = run(base, args.out / "in-a-row", board, args, 1)
        par, par_req, stdout = run(base, args.out / "parallel", board, args, args.games)
    same = tree(args.out / "in-a-row") == tree(args.out / "parallel")
    print(json.dumps({"solver": args.solver, "games": args.games, "latency_ms": args.latency_ms, "board": args.board,
                      "in_a_row_s": round(seq, 1), "parallel_s": round(par, 1), "ratio": round(par / seq, 3),
                      "requests_in_a_row": seq_req, "requests_parallel": par_req, "identical_output": same}, indent=1))
    print(stdout[-1500:])


if __name__ == "__main__":
    main()
