"""Issue 35 items 2-4: one connection point (werealign.llm.connect), one worker runner, baselines answered in process
from the request's subject (no litellm, no metadata, no baseline branch in eval), the default solver a solver like the
others (its `planned` flag, not its identity, lets a run look its requests up in bulk)."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest

from cli_inproc import litellm_blocked
from fake_llm import FakeCompletion
from werealign.eval.config import EvalConfig, Execution
from werealign.eval.runner import run_eval
from werealign.llm.builtin_models import MODELS, BuiltinModel
from werealign.llm.client import RetryPolicy
from werealign.llm.connect import connect
from werealign.llm.call_engine import Engine
from werealign.llm.store import Store
from werealign.llm.workers import run_workers
from werealign.solvers import SOLVERS, get_solver


def test_workers_take_each_item_once_and_keep_to_their_count():
    seen: list[int] = []
    in_flight = peak = 0

    async def work(item: int, rng: random.Random) -> None:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.001 * (item % 3))
        seen.append(item)
        in_flight -= 1

    asyncio.run(run_workers(list(range(50)), 4, work, lambda i: random.Random(i)))
    assert sorted(seen) == list(range(50)) and peak == 4
    asyncio.run(run_workers([], 4, work, lambda i: random.Random(i)))  # nothing to do: no error, nothing done
    assert len(seen) == 50


def test_a_baseline_run_never_imports_litellm(tmp_path):
    # The built-ins used to be a litellm custom provider fed through request metadata: a baseline eval imported litellm
    # (~3 s) and paid its per-request overhead. In process, an eval with litellm unimportable still runs.
    with litellm_blocked():
        summary = run_eval(EvalConfig(model="werealign/longest", tasks=("speech", "vote"), decodes=2), Execution(),
                           out=tmp_path / "run", cache=False)
    assert summary.sent == summary.unique_requests > 0 and summary.request_errors == 0
    assert summary.results.totals.parse_failures == 0


def test_an_invented_in_process_model_reads_the_subject_and_a_hosted_one_never_sees_it(tmp_path):
    # Open world: a model of another package, answered in process from whatever subject the caller hands over.
    seen: list[object] = []

    def echo(subject, seed):
        seen.append(subject)
        return f"Answer: Q (asked with seed {seed})"

    model = BuiltinModel("zz-test/echo", "answers Q", answer=echo)
    MODELS.register(model)
    try:
        with connect("zz-test/echo") as conn:
            assert conn.in_process and not conn.priced
            reply = asyncio.run(conn.acompletion(model=conn.routed, messages=[{"role": "user", "content": "hi"}],
                                                 subject=lambda: {"invented": "subject"}, seed=3))
            assert reply.choices[0].message.content == "Answer: Q (asked with seed 3)" and seen == [{"invented": "subject"}]
            asyncio.run(conn.acompletion(model=conn.routed, messages=[{"role": "user", "content": "hi"}]))
            assert seen[-1] is None  # no subject handed over: the model is told so, and decides what that means
        with connect("werealign/random") as conn:  # a baseline refuses a request that is not a benchmark item
            with pytest.raises(ValueError, match="this request carries none"):
                asyncio.run(conn.acompletion(model=conn.routed, messages=[{"role": "user", "content": "hi"}]))
    finally:
        MODELS.unregister("zz-test/echo")

    fake = FakeCompletion()
    with connect("openai/some-model", "http://127.0.0.1:9/v1", acompletion=fake) as conn:
        assert not conn.in_process and conn.kwargs["api_base"] == "http://127.0.0.1:9/v1"

        async def one() -> None:
            with Store(tmp_path / "responses.sqlite") as store:
                async with Engine(store, conn, policy=RetryPolicy(max_attempts=1), cost_of=lambda r: None) as engine:
                    row, outcome = await engine.call("k1", {"model": "m"}, [{"role": "user", "content": "hi"}], {"seed": 1},
                                                     random.Random(0), subject=lambda: pytest.fail("a hosted model read the subject"))
                    assert outcome.ok and row.response == "Answer: A"

        asyncio.run(one())
    assert all("subject" not in call for call in fake.calls)


def test_the_default_solver_is_found_by_what_it_says_not_by_who_it_is(tmp_path):
    # A copy of the default solver under another name, saying it asks the planned prompt, runs as the default does:
    # the same requests (keys), the same scores, looked up in bulk (nothing replayed, nothing sent again).
    copy = dataclasses.replace(get_solver("single"), name="zz-planned-copy")
    SOLVERS.register(copy)
    try:
        fake = FakeCompletion()
        config = EvalConfig(model="openai/fake", tasks=("vote",), decodes=1)
        first = run_eval(config, Execution(), out=tmp_path / "single", acompletion=fake, cache=False)
        other = run_eval(config.model_copy(update={"solver": "zz-planned-copy"}), Execution(), out=tmp_path / "copy", acompletion=fake,
                         cache=False)
        assert other.sent == first.sent > 0
        assert other.results.model_dump()["variants"] == first.results.model_dump()["variants"]
        again = run_eval(config.model_copy(update={"solver": "zz-planned-copy"}), Execution(), out=tmp_path / "copy", acompletion=fake,
                         cache=False)
        assert again.sent == 0 and again.cached == first.sent
    finally:
        SOLVERS.unregister("zz-planned-copy")
