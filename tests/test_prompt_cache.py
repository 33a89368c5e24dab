"""Paying less (issue 21): requests sharing a prompt prefix go out together, Claude gets cache markers
(transport only: keys and stored requests stay plain), and cached input tokens reported by the provider
are summed per step, per sample and in results.json, with their saving when litellm prices the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import mock_server  # noqa: E402
from test_eval_cli import cli, read_samples, tiny_dataset  # noqa: E402

from werealign.dataset import load_dataset  # noqa: E402
from werealign.eval.plan import plan_run  # noqa: E402
from werealign.eval.runner import EvalConfig, Execution, by_prefix, run_eval  # noqa: E402
from werealign.llm.prompt_cache import needs_markers, prefix_of, with_markers  # noqa: E402
from werealign.llm.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> Path:
    return tiny_dataset(tmp_path_factory.mktemp("ds") / "tiny", n_speech=6)


def test_markers_split_the_context_from_the_question() -> None:
    # invented prompt text; any template whose question is its last "## " section
    messages = [{"role": "system", "content": "Play well."},
                {"role": "user", "content": "## Board\nfour seats\n## Talk\nseat 2: hello\n## Ask\nwho? A. x\nAnswer: <letter>"}]
    marked = with_markers(messages)
    system, user = marked
    assert system["content"] == [{"type": "text", "text": "Play well.", "cache_control": {"type": "ephemeral"}}]
    context, question = user["content"]
    assert context["cache_control"] == {"type": "ephemeral"} and "cache_control" not in question
    assert context["text"] + question["text"] == messages[1]["content"] and question["text"].startswith("## Ask")
    assert messages[1]["content"].startswith("## Board")  # the input is not changed
    assert with_markers([{"role": "user", "content": "no sections at all"}]) == [{"role": "user", "content": "no sections at all"}]
    assert needs_markers("anthropic/claude-sonnet-4-5") and needs_markers("openrouter/anthropic/claude-3.5-haiku")
    assert needs_markers("bedrock/us.anthropic.claude-3-7-sonnet") and not needs_markers("openai/gpt-4o-mini")


def test_requests_sharing_a_prefix_are_sent_together(tiny: Path) -> None:
    plan = plan_run(load_dataset(tiny), EvalConfig(model="m", dataset=str(tiny), decodes=2))
    grouped = by_prefix(plan)
    assert sorted(p.key for p in grouped) == sorted(p.key for p in plan)
    prefixes = [prefix_of(p.messages) for p in grouped]
    # each prefix forms one run of consecutive requests
    runs = [a for i, a in enumerate(prefixes) if i == 0 or prefixes[i - 1] != a]
    assert len(runs) == len(set(prefixes)) < len(plan)


class Capture:
    """Answers 'Answer: A' with usage reporting cached tokens; keeps the messages it was sent."""

    def __init__(self) -> None:
        self.sent: list[list[dict]] = []

    async def __call__(self, *, model: str, messages: list, **kwargs):
        self.sent.append(messages)
        usage = SimpleNamespace(prompt_tokens=1000, completion_tokens=3, total_tokens=1003,
                                prompt_tokens_details=SimpleNamespace(cached_tokens=800))
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content="Answer: A"), finish_reason="stop")],
                               usage=usage, _hidden_params={"response_cost": 0.001})


def test_claude_gets_markers_but_keys_and_store_stay_plain(tiny: Path, tmp_path: Path) -> None:
    config = EvalConfig(model="anthropic/claude-invented", dataset=str(tiny), decodes=1, tasks=("speech",))
    fake = Capture()
    run_eval(config, Execution(max_connections=2), out=tmp_path / "run", acompletion=fake, cache=False)
    assert fake.sent and all(isinstance(m[0]["content"], list) and isinstance(m[1]["content"], list) for m in fake.sent)
    plan = plan_run(load_dataset(tiny), config)
    with Store(tmp_path / "run" / "responses.sqlite") as store:
        stored = store.load(with_request=True)
    assert set(stored) == {p.key for p in plan}
    assert all(stored[p.key].request["messages"] == p.messages for p in plan)
    samples = read_samples(tmp_path / "run")
    assert all(s["cached_tokens"] == 800 and s["steps"][0]["cached_tokens"] == 800 for s in samples)
    results = json.loads((tmp_path / "run" / "results.json").read_text())
    assert results["usage"]["cached_prompt_tokens"] == 800 * len(samples)
    assert results["usage"]["cache_saving_usd"] is None  # an invented model has no price: unknown, not zero


def test_mock_reporting_cached_tokens_is_summed_and_priced(tiny: Path, tmp_path: Path) -> None:
    with mock_server.spawn("--prompt-cache") as base:
        for model in ("openai/mock", "openai/gpt-4o-mini"):
            out = tmp_path / model.replace("/", "_")
            r = cli("eval", "--model", model, "--api-base", base + "/v1", "--dataset", str(tiny), "--out", str(out),
                    "--decodes", "2", "--max-connections", "1", "--quiet", env={"OPENAI_API_KEY": "sk-unused"})
            assert r.returncode == 0, r.stderr
            samples = read_samples(out)
            usage = json.loads((out / "results.json").read_text())["usage"]
            cached = sum(s["cached_tokens"] or 0 for s in samples)
            assert cached > 0 and usage["cached_prompt_tokens"] == cached
            assert cached == sum(st["cached_tokens"] or 0 for s in samples for st in s["steps"])
            assert "input tokens" in r.stderr and "read from cache" in r.stderr
            if model == "openai/mock":
                assert usage["cache_saving_usd"] is None and "saved $" not in r.stderr
            else:  # litellm prices gpt-4o-mini's cached input below its fresh input
                assert usage["cache_saving_usd"] > 0 and "saved $" in r.stderr


def test_an_unpriced_model_is_asked_for_its_price_once() -> None:
    """litellm's price lookup is slow; a model its table does not hold is not looked up for every reply."""
    import litellm

    from werealign.llm import client

    calls = []
    real = litellm.completion_cost

    def counting(**kw):
        calls.append(kw)
        return real(**kw)

    resp = SimpleNamespace(model="invented-unpriced-model-x", _hidden_params={}, usage=None, choices=[])
    litellm.completion_cost = counting
    try:
        assert client.litellm_cost(resp) is None and client.litellm_cost(resp) is None
    finally:
        litellm.completion_cost = real
    assert len(calls) == 1
