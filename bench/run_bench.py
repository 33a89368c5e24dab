"""End-to-end benchmark of `werealign eval` against the mock server, beside a plain asyncio+litellm ceiling.

In one run it: imports the real WereBench data (../shared/werebench/dataset, never copied into the repo)
into a temporary directory; starts bench/mock_server.py on 127.0.0.1 with the given latency; runs
`werealign eval` as a subprocess on ITEMS speech items x DECODES decodes with CONNECTIONS connections;
reruns the same command (fully cached); replays the very same requests with bench/ceiling.py (plain
asyncio + litellm.acompletion + a semaphore); and prints wall time, requests/s and peak RSS side by side.

    python bench/run_bench.py                      # 200 items x 5 decodes, 50 ms, 32 connections, aiohttp
    python bench/run_bench.py --transport both     # also litellm's httpx transport

Wall time is measured from process start to results written (the whole CLI, imports included); the
request phase is measured at the mock server (first request in to last reply out). Peak RSS comes from
/usr/bin/time -v when present.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import mock_server  # noqa: E402

WEREALIGN = [sys.executable, "-m", "werealign.cli"]
TIME = Path("/usr/bin/time")


def measured(cmd: list[str], env: dict[str, str]) -> dict:
    """Run a command; return wall seconds (process start to exit) and peak RSS in MB when measurable."""
    full = [str(TIME), "-v", *cmd] if TIME.exists() else cmd
    t0 = time.perf_counter()
    proc = subprocess.run(full, env=env, capture_output=True, text=True, cwd=REPO)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    return {"wall_s": wall, "peak_rss_mb": int(m.group(1)) / 1024 if m else None}


def reset(base: str) -> None:
    urllib.request.urlopen(urllib.request.Request(base + "/reset", method="POST"), timeout=10).read()


def request_phase(base: str) -> dict:
    st = mock_server.stats(base)
    span = (st["t_last"] - st["t_first"]) if st["t_first"] and st["t_last"] else None
    return {"requests": st["requests"], "ok": st["ok"], "request_phase_s": span,
            "request_phase_rps": (st["ok"] / span) if span else None}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--werebench", type=Path, default=REPO.parent / "shared" / "werebench" / "dataset")
    p.add_argument("--items", type=int, default=200)
    p.add_argument("--decodes", type=int, default=5)
    p.add_argument("--latency-ms", type=float, default=50.0)
    p.add_argument("--connections", type=int, default=32)
    p.add_argument("--transport", choices=["aiohttp", "httpx", "both"], default="aiohttp")
    p.add_argument("--repeat", type=int, default=1,
                   help="alternate werealign and the ceiling this many times (a busy machine: compare each pair, report the median ratio)")
    p.add_argument("--cold-floors", action="store_true",
                   help="give every werealign run a fresh cache directory, so each computes its floors (the options-only and "
                        "context attacks' training included) instead of reading them from the floors cache")
    p.add_argument("--json", type=Path, help="also write the measurements here")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    a = p.parse_args()
    if not (a.werebench / "WereBench" / "WereBench.json").is_file():
        sys.exit(f"{a.werebench}: WereBench release not found (pass --werebench)")

    tmp = Path(tempfile.mkdtemp(prefix="werealign-bench-"))
    base_env = {k: v for k, v in os.environ.items() if k != "DISABLE_AIOHTTP_TRANSPORT"}
    base_env["OPENAI_API_KEY"] = "sk-bench-not-a-key"
    # The floors cache lives beside the shared response cache: a private one, so the user's own never decides the figures
    # (the first run computes the floors, later ones read them, unless --cold-floors).
    base_env["WEREALIGN_CACHE_DIR"] = str(tmp / "cache")
    try:
        ds = tmp / "werebench"
        subprocess.run([*WEREALIGN, "import", "werebench", str(a.werebench), "--out", str(ds)], check=True,
                       capture_output=True, cwd=REPO)
        n = a.items * a.decodes
        rows = []
        transports = ["aiohttp", "httpx"] if a.transport == "both" else [a.transport]
        with mock_server.spawn("--latency-ms", str(a.latency_ms)) as base:
            for transport in transports:
                env = dict(base_env)
                if transport == "httpx":
                    env["DISABLE_AIOHTTP_TRANSPORT"] = "True"
                for rep in range(a.repeat):
                    tag = f" #{rep + 1}" if a.repeat > 1 else ""
                    run = tmp / f"run-{transport}-{rep}"
                    cmd = [*WEREALIGN, "eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(ds),
                           "--tasks", "speech", "--limit", str(a.items), "--decodes", str(a.decodes),
                           "--max-connections", str(a.connections), "--out", str(run), "--quiet",
                           "--no-cache"]  # measure sending: the shared cache would answer the second transport
                    if a.cold_floors:
                        env["WEREALIGN_CACHE_DIR"] = str(tmp / f"cache-{transport}-{rep}")
                    reset(base)
                    cold = measured(cmd, env) | request_phase(base)
                    assert cold["ok"] == n, f"expected {n} requests at the mock, saw {cold['ok']}"
                    rows.append({"what": f"werealign eval ({transport}){tag}", **cold})
                    if rep == 0:
                        reset(base)
                        cached = measured(cmd, env) | request_phase(base)
                        assert cached["requests"] == 0, "the cached rerun sent requests"
                        rows.append({"what": f"werealign eval, cached rerun ({transport})", **cached})

                    # the same request bodies, replayed by a plain loop
                    con = sqlite3.connect(run / "responses.sqlite")
                    reqs = [json.loads(r[0]) for r in con.execute("SELECT request FROM responses ORDER BY rowid")]
                    con.close()
                    req_file = tmp / "requests.json"
                    req_file.write_text(json.dumps([{"messages": r["messages"], "params": r["params"]} for r in reqs]))
                    reset(base)
                    ceil = measured([sys.executable, str(HERE / "ceiling.py"), str(req_file), str(tmp / "ceiling-out.json"),
                                     "--api-base", base + "/v1", "--concurrency", str(a.connections)], env) | request_phase(base)
                    assert ceil["ok"] == n
                    rows.append({"what": f"plain asyncio+litellm ceiling ({transport}){tag}", **ceil})
        for r in rows:
            r["rps"] = (n / r["wall_s"]) if r["requests"] else None
        print(f"\n{a.items} WereBench speech items x {a.decodes} decodes = {n} requests, mock latency {a.latency_ms:g} ms, "
              f"{a.connections} connections, python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
        print(f"{'':46} {'wall s':>8} {'req/s':>8} {'req-phase req/s':>16} {'peak RSS MB':>12}")
        for r in rows:
            fmt = lambda x, f: (f.format(x) if x is not None else "-")  # noqa: E731
            print(f"{r['what']:46} {r['wall_s']:8.2f} {fmt(r['rps'], '{:8.1f}'):>8} "
                  f"{fmt(r['request_phase_rps'], '{:16.1f}'):>16} {fmt(r['peak_rss_mb'], '{:12.0f}'):>12}")
        print()
        for transport in transports:
            k = next(r for r in rows if r["what"] == f"werealign eval, cached rerun ({transport})")
            ratios, phase = [], []
            for rep in range(a.repeat):
                tag = f" #{rep + 1}" if a.repeat > 1 else ""
                w = next(r for r in rows if r["what"] == f"werealign eval ({transport}){tag}")
                c = next(r for r in rows if r["what"] == f"plain asyncio+litellm ceiling ({transport}){tag}")
                ratios.append(w["rps"] / c["rps"])
                phase.append(w["request_phase_rps"] / c["request_phase_rps"])
            print(f"{transport}: werealign / ceiling throughput = {statistics.median(ratios):.0%} end to end, "
                  f"{statistics.median(phase):.0%} in the request phase (median of {a.repeat}: "
                  f"{', '.join(f'{x:.0%}' for x in ratios)}); cached rerun {k['wall_s']:.2f} s")
        if a.json:
            a.json.write_text(json.dumps({"items": a.items, "decodes": a.decodes, "latency_ms": a.latency_ms,
                                          "connections": a.connections, "rows": rows}, indent=2) + "\n")
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
