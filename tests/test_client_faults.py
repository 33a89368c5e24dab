"""One request with retries, against faults injected at the mock server (bench/mock_server.py)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections.abc import Iterator
from email.utils import format_datetime
from datetime import datetime, timedelta, UTC
from pathlib import Path

import pytest

from werealign.llm.client import RetryPolicy, backoff_delay, call_with_retries, classify, parse_retry_after, redact
from werealign.llm.loader import import_litellm

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402

MSG = [{"role": "user", "content": "Which option? A. one B. two"}]
FAST = RetryPolicy(max_attempts=4, timeout=2.0, backoff_base=0.01, backoff_max=0.05)


def run_calls(base: str, n: int, policy: RetryPolicy = FAST, events: list | None = None):
    litellm = import_litellm()

    async def go():
        rng = random.Random(0)
        return await asyncio.gather(
            *(
                call_with_retries(
                    litellm.acompletion,
                    model="openai/mock",
                    messages=MSG,
                    kwargs={"api_base": base + "/v1", "api_key": "sk-unused", "seed": i},
                    policy=policy,
                    rng=rng,
                    on_event=(events.append if events is not None else (lambda e: None)),
                )
                for i in range(n)
            )
        )

    return asyncio.run(go())


@pytest.fixture(scope="module", autouse=True)
def litellm_warmed_up() -> Iterator[str]:
    """litellm's first call in a process loads more of litellm (seconds on a loaded machine): made here, with time to
    spare, so that FAST's 2 s timeout measures the server, whichever test of this file runs first on this worker.
    Yields that fault-free server's URL: the tests that need no fault share it (a mock server is a process to start)."""
    with mock_server.spawn() as base:
        [out] = run_calls(base, 1, RetryPolicy(max_attempts=1, timeout=120.0))
        assert out.ok, out
        yield base


def test_parse_retry_after() -> None:
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("0.25") == 0.25
    assert parse_retry_after("-5") == 0.0
    assert parse_retry_after("99999") == 300.0  # capped
    now = datetime(2030, 1, 1, tzinfo=UTC)
    assert parse_retry_after(format_datetime(now + timedelta(seconds=7), usegmt=True), now=now.timestamp()) == pytest.approx(7.0)
    assert parse_retry_after("soon") is None


def test_backoff_is_jittered_bounded_and_respects_retry_after() -> None:
    rng = random.Random(1)
    p = RetryPolicy(backoff_base=1.0, backoff_max=4.0)
    delays = [backoff_delay(a, p, rng, None) for a in range(1, 10) for _ in range(20)]
    assert all(0.0 <= d <= 4.0 for d in delays)
    assert len({round(d, 6) for d in delays}) > 100  # jittered, not a fixed schedule
    assert all(backoff_delay(1, p, rng, 2.5) >= 2.5 for _ in range(20))


def test_redact_hides_secret_env_values(monkeypatch) -> None:
    monkeypatch.setenv("SOME_PROVIDER_API_KEY", "sk-verysecret-123456")
    assert "sk-verysecret" not in redact("Incorrect API key provided: sk-verysecret-123456 for model")


def test_success_reports_text_usage_and_one_attempt(litellm_warmed_up: str) -> None:
    base = litellm_warmed_up
    before = mock_server.stats(base)["requests"]
    [out] = run_calls(base, 1)
    assert mock_server.stats(base)["requests"] - before == 1
    assert out.ok and out.attempts == 1 and out.text.strip().endswith(tuple(f"Answer: {c}" for c in "ABCDEFGHI"))
    assert out.usage["total_tokens"] > 0 and out.error_class is None


def test_429_retry_after_is_honoured_then_recorded_as_error() -> None:
    with mock_server.spawn("--rate-429", "1", "--retry-after", "0.4") as base:
        t0 = time.perf_counter()
        events: list[str] = []
        [out] = run_calls(base, 1, RetryPolicy(max_attempts=3, timeout=2.0, backoff_base=0.001, backoff_max=0.001), events)
        elapsed = time.perf_counter() - t0
        assert mock_server.stats(base)["requests"] == 3
    assert not out.ok and out.attempts == 3 and out.error_class == "RateLimitError"
    assert elapsed >= 0.8  # two waits of the server's 0.4 s, though our own backoff would be ~1 ms
    assert events.count("retry_wait") == 2 and events.count("retry_done") == 2


@pytest.mark.parametrize(
    ("fault", "error_class"),
    [("--rate-500", "InternalServerError"), ("--rate-garbage", "InternalServerError")],
)
def test_server_errors_and_garbage_are_retried(fault: str, error_class: str) -> None:
    with mock_server.spawn(fault, "1") as base:
        [out] = run_calls(base, 1)
        assert mock_server.stats(base)["requests"] == FAST.max_attempts
    assert not out.ok and out.attempts == FAST.max_attempts and out.error_class == error_class


def test_timeouts_are_retried() -> None:
    with mock_server.spawn("--rate-timeout", "1", "--hang-s", "30") as base:
        [out] = run_calls(base, 1, RetryPolicy(max_attempts=2, timeout=0.5, backoff_base=0.01, backoff_max=0.01))
        assert mock_server.stats(base)["requests"] == 2
    assert not out.ok and out.error_class == "Timeout" and out.attempts == 2


def test_other_4xx_is_not_retried() -> None:
    with mock_server.spawn("--rate-400", "1") as base:
        [out] = run_calls(base, 1)
        assert mock_server.stats(base)["requests"] == 1
    assert not out.ok and out.attempts == 1 and out.error_class == "BadRequestError"


def test_connection_refused_is_retried_and_classified() -> None:
    [out] = run_calls("http://127.0.0.1:9", 1, RetryPolicy(max_attempts=2, timeout=2.0, backoff_base=0.01, backoff_max=0.01))
    assert not out.ok and out.attempts == 2 and classify(RuntimeError("x")).retryable is False


def test_missing_api_key_is_not_retried(monkeypatch) -> None:
    """litellm reports a missing key as a 500; it never reached a server, so it must not be retried."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    litellm = import_litellm()

    async def go():
        return await call_with_retries(
            litellm.acompletion, model="openai/mock", messages=MSG, kwargs={"api_base": "http://127.0.0.1:9/v1"},
            policy=FAST, rng=random.Random(0),
        )

    out = asyncio.run(go())
    assert not out.ok and out.attempts == 1 and "OPENAI_API_KEY" in out.error_message


def test_mixed_faults_end_in_a_complete_set_of_answers() -> None:
    """30% of attempts fail in every way the mock knows; with enough attempts every request succeeds."""
    args = ["--rate-429", "0.1", "--retry-after", "0.05", "--rate-500", "0.1", "--rate-garbage", "0.05",
            "--rate-timeout", "0.05", "--hang-s", "30", "--seed", "7"]
    # Only the server's hangs may time out: with 0.5 s, 40 concurrent calls on a loaded machine (CI, two test
    # workers) timed out in litellm before reaching the server (102 attempts, 62 requests seen). 3 s still ends
    # every 30 s hang long before it would answer.
    policy = RetryPolicy(max_attempts=12, timeout=3.0, backoff_base=0.01, backoff_max=0.05)
    with mock_server.spawn(*args) as base:
        events: list[str] = []
        outs = run_calls(base, 40, policy, events)
        st = mock_server.stats(base)
    assert all(o.ok for o in outs)
    assert sum(st["faults"].values()) > 0 and st["ok"] == 40
    assert st["requests"] == sum(o.attempts for o in outs) == events.count("attempt")


def test_eval_through_faults_equals_a_fault_free_run(tmp_path: Path, litellm_warmed_up: str) -> None:
    """429+Retry-After, 500, hangs and garbage bodies on ~35% of attempts: the run still completes, every
    fault is retried, and the results are byte-identical to a run against a well-behaved server."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_eval_cli import cli, tiny_dataset

    ds = tiny_dataset(tmp_path / "ds")
    env = {"OPENAI_API_KEY": "sk-unused"}
    common = ["--model", "openai/mock", "--dataset", str(ds), "--decodes", "2", "--quiet", "--timeout", "1", "--max-attempts", "10"]
    faults = ["--rate-429", "0.1", "--retry-after", "0.2", "--rate-500", "0.1", "--rate-timeout", "0.05", "--hang-s", "30",
              "--rate-garbage", "0.1", "--seed", "11"]
    with mock_server.spawn(*faults) as base:
        r = cli("eval", *common, "--api-base", base + "/v1", "--out", str(tmp_path / "faulty"), env=env)
        st = mock_server.stats(base)
    assert r.returncode == 0, r.stderr
    assert sum(st["faults"].values()) > 0 and st["ok"] == 14
    r = cli("eval", *common, "--api-base", litellm_warmed_up + "/v1", "--out", str(tmp_path / "clean"), env=env)
    assert r.returncode == 0, r.stderr
    faulty = json.loads((tmp_path / "faulty" / "results.json").read_text())
    assert faulty["complete"] and faulty["totals"]["request_errors"] == 0
    assert (tmp_path / "faulty" / "results.json").read_bytes() == (tmp_path / "clean" / "results.json").read_bytes()
    attempts = [json.loads(line)["attempts"] for line in (tmp_path / "faulty" / "samples.jsonl").read_text().splitlines()]
    assert sum(attempts) == st["requests"] > 14
