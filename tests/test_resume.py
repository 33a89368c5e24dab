"""kill -9 in the middle of `werealign eval`, rerun: only what is missing is paid, results match an
uninterrupted run. Requests are counted at the mock server (bench/mock_server.py). The killed run is a forked
process (tests/cli_fork.py); the rerun and the whole run need no process of their own."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402
from cli_fork import fork_cli  # noqa: E402
from test_eval_cli import cli, read_samples, strip_timing, tiny_dataset  # noqa: E402

from werealign.llm.store import Store  # noqa: E402


def ok_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute("SELECT count(*) FROM responses WHERE status = 'ok'").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def test_kill_9_then_resume(tmp_path: Path) -> None:
    ds = tiny_dataset(tmp_path / "ds", n_speech=10)  # 12 items x 4 decodes = 48 requests
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    env = {**os.environ, "OPENAI_API_KEY": "sk-unused"}
    with mock_server.spawn("--latency-ms", "150") as base:
        def args(out: Path) -> list[str]:
            return ["eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(ds), "--out", str(out),
                    "--decodes", "4", "--max-connections", "3", "--quiet"]

        proc = fork_cli(*args(killed), env=env)
        deadline = time.monotonic() + 120
        while ok_rows(killed / "responses.sqlite") < 12 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        proc.kill()
        proc.wait()
        with Store(killed / "responses.sqlite") as store:
            stored_after_kill = store.load(with_request=True)
        n_stored = sum(1 for r in stored_after_kill.values() if r.ok)
        assert 12 <= n_stored < 48, "the kill must land mid-run"
        # nothing half-written: the run config is whole, the outputs of the end do not exist yet
        assert (killed / "run.json").is_file() and not (killed / "results.json").exists()
        time.sleep(0.5)  # let the mock finish the requests that were in flight at the kill (150 ms latency)
        served_before = mock_server.stats(base)["served"]
        mock_server.set_latency(base, 0)  # only the kill needed requests in flight; the rerun's need not wait

        r = cli(*args(killed), env=env)
        assert r.returncode == 0, r.stderr
        served = mock_server.stats(base)["served"]
        # every request stored before the kill was paid exactly once, never again
        for row in stored_after_kill.values():
            fp = mock_server.fingerprint({"messages": row.request["messages"], "seed": row.request["params"]["seed"]})
            assert served[fp] == 1
        # only the requests in flight at the kill (at most --max-connections) were paid twice
        assert sum(served.values()) - 48 <= 3
        assert sum(served.values()) - sum(served_before.values()) == 48 - n_stored

        r = cli(*args(whole), env=env)
        assert r.returncode == 0, r.stderr
    assert (killed / "results.json").read_bytes() == (whole / "results.json").read_bytes()
    assert strip_timing(read_samples(killed)) == strip_timing(read_samples(whole))
