"""No provider key in any file a run writes, even when the provider quotes the key in an error."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402
from test_eval_cli import cli, tiny_dataset  # noqa: E402


def all_bytes(run: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in run.rglob("*") if p.is_file()}


def test_api_key_never_written(tmp_path: Path, private_response_cache: Path) -> None:
    key = "sk-test-" + secrets.token_hex(16)
    ds = tiny_dataset(tmp_path / "ds")
    env = {"OPENAI_API_KEY": key}
    run = tmp_path / "run"
    # 401s that quote the key back, on a third of the attempts: errors get stored, then retried next run
    with mock_server.spawn("--rate-401", "0.35", "--seed", "2") as base:
        r = cli("eval", "--model", "openai/mock", "--api-base", base + "/v1", "--dataset", str(ds), "--out", str(run),
                "--decodes", "2", "--quiet", env=env)
        assert r.returncode == 0, r.stderr
        st = mock_server.stats(base)
        assert st["faults"].get("401", 0) > 0 and st["auth_headers"].get("present") == st["requests"]  # the key was sent
        assert key not in r.stderr and key not in r.stdout
        r = cli("score", str(run), env=env)
        assert r.returncode == 0, r.stderr
        assert key not in r.stderr + r.stdout
    files = all_bytes(run)
    cached = all_bytes(private_response_cache)  # the shared response cache got this run's replies
    assert cached and all(key.encode() not in data and key[8:].encode() not in data for data in cached.values())
    assert {"run.json", "responses.sqlite", "samples.jsonl", "results.json"} <= set(files)
    assert b"Incorrect API key provided" in files["samples.jsonl"]  # the error message itself is kept...
    for name, data in files.items():
        assert key.encode() not in data, name  # ...but never the key
        assert key[8:].encode() not in data, name
        assert b"OPENAI_API_KEY" not in data, name
