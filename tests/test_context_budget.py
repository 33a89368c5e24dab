"""Issue 36: `eval --context-budget TOKENS` fits prompts to a small model's context (older turns cut first, per sample
counted; a prompt that still does not fit is reported and never sent), and a local model's defaults come from its
metadata (reply budget, timeout, context)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fake_llm import FakeCompletion
from werealign.dataset import load_dataset
from werealign.eval.config import EvalConfig
from werealign.eval.context_budget import OVER_BUDGET_ERROR, run_budget
from werealign.eval.plan import plan_run
from werealign.eval.runner import Execution, run_eval
from werealign.llm.builtin_models import byte_bpe_upper_bound, count_tokens as _count_tokens
from werealign.llm.model_limits import prompt_counter

SAMPLE = load_dataset(None)


def _plan(budget: int | None, model: str = "openai/fake", **kw):
    config = EvalConfig(model=model, decodes=2, context_budget=budget, **kw)
    return config, plan_run(SAMPLE, config)


def _lines(p) -> list[str]:
    return p.messages[1]["content"].splitlines()


def test_a_budget_cuts_the_oldest_turns_first_and_keeps_what_the_seat_knows() -> None:
    _, full = _plan(0)  # 0: no budget
    count = prompt_counter("werealign/random")  # the rough count: no tokenizer needed
    sizes = sorted(count(p.messages) for p in full)
    budget = sizes[len(sizes) // 2]  # about half the prompts are too long
    config, cut = _plan(budget, model="werealign/random")
    assert len(cut) == len(full)
    fitted = [p for p in cut if p.turns_cut]
    assert fitted and all(p.over_budget is None for p in cut)
    for p in cut:
        assert count(p.messages) <= budget
    by_id = {(p.item.item_id, p.variant, p.decode): p for p in full}
    for p in fitted:
        whole = by_id[(p.item.item_id, p.variant, p.decode)]
        shown, was = p.prepared.kw["ctx"].utterances, whole.prepared.kw["ctx"].utterances
        assert shown == was[p.turns_cut:]  # the most recent turns, in order: only the oldest are gone
        text, before = p.messages[1]["content"], whole.messages[1]["content"]
        assert f"The {p.turns_cut} oldest turn(s) are left out" in text
        for kept in ("## Rules", "## Who you are", "## Public events so far", "Options:", "Answer:"):
            assert (kept in text) == (kept in before)
        for line in _lines(whole):  # rules, role, private knowledge and events survive whole
            if line.startswith("- [") or line.startswith("Your role:"):
                assert line in text
        # fewest cut: one turn fewer would not fit
        assert count(p.prepared.__class__.with_turns_cut(whole.prepared, p.turns_cut - 1).messages(p.option_order)) > budget
    assert run_budget(config).tokens == budget


def test_a_prompt_over_budget_with_every_turn_cut_is_reported_and_never_sent(tmp_path: Path) -> None:
    fake = FakeCompletion()
    config = EvalConfig(model="werealign/random", decodes=1, context_budget=900, tasks=("vote",))
    summary = run_eval(config, Execution(), out=tmp_path / "r", acompletion=fake, cache=False)
    rows = [json.loads(line) for line in (tmp_path / "r" / "samples.jsonl").read_text().splitlines()]
    over = [r for r in rows if (r["request_error"] or "").startswith(OVER_BUDGET_ERROR)]
    sent = [r for r in rows if not r["request_error"]]
    assert over and sent, "the budget is chosen so that some vote prompts fit and some do not"
    # the over-budget prompts never reached the model (a built-in, answered in process: its stored replies are what it got)
    with sqlite3.connect(tmp_path / "r" / "responses.sqlite") as db:
        assert db.execute("SELECT count(*) FROM responses").fetchone()[0] == len(sent) == summary.sent
    assert fake.calls == []  # a built-in never goes to the completion function a test passes for hosted models
    assert all("over the context budget of 900" in r["request_error"] and r["attempts"] == 0 for r in over)
    totals = summary.results.totals
    assert totals.over_budget == len(over) and totals.request_errors == len(over)
    assert totals.turns_cut == sum(r.get("turns_cut", 0) for r in rows) > 0
    assert totals.samples_cut == sum(1 for r in rows if r.get("turns_cut"))
    assert any("do not fit the context budget (900 tokens)" in w for w in summary.warnings)
    assert any("had their oldest turns cut" in w for w in summary.warnings)
    # a rerun sends nothing again: the fitted prompts are stored, the over-budget ones are still never sent
    assert run_eval(config, Execution(), out=tmp_path / "r", acompletion=fake, cache=False).sent == 0


def test_no_budget_and_no_known_context_leave_every_prompt_whole() -> None:
    _, whole = _plan(None, model="werealign/lexical")  # a baseline reads anything: no default budget
    assert all(p.turns_cut == 0 and p.over_budget is None for p in whole)
    assert run_budget(EvalConfig(model="openai/not-in-any-map")) is None
    assert EvalConfig(model="x/y").model_dump().get("context_budget", "absent") == "absent"  # run identity unchanged


def test_the_local_model_takes_its_defaults_from_its_metadata() -> None:
    from werealign.commands.eval import _config, _execution
    from werealign.llm.builtin_models import DEFAULT_N_CTX, SMOLLM2_REPLY_TOKENS, SMOLLM2_TIMEOUT

    config = _config("local/smollm2", None, None, "base", "paired", 1, True, 0, 2, 0.7, None, None, None)
    assert config.max_tokens == SMOLLM2_REPLY_TOKENS
    assert run_budget(config).tokens == DEFAULT_N_CTX - SMOLLM2_REPLY_TOKENS
    execution = _execution("local/smollm2", None, 16, None, None)
    assert execution.timeout == SMOLLM2_TIMEOUT and execution.max_attempts == 2
    hosted = _execution("openai/gpt-4o-mini", None, 16, None, None)
    assert hosted.timeout == 120.0 and hosted.max_attempts == 6
    assert _config("openai/gpt-4o-mini", None, None, "base", "paired", 1, True, 0, None, 0.7, None, None, None).max_tokens is None
    # given options win
    assert _config("local/smollm2", None, None, "base", "paired", 1, True, 0, 2, 0.7, 64, None, None).max_tokens == 64
    assert _execution("local/smollm2", None, 16, 30.0, 5).timeout == 30.0


def test_the_byte_bpe_bound_counts_cjk_as_its_bytes_and_never_below_the_word_count() -> None:
    invented = "甲乙丙丁戊己庚辛"  # eight CJK characters, 24 UTF-8 bytes
    assert byte_bpe_upper_bound(invented) == len(invented.encode())
    english = "Seat 7 claims the seer card and names seat 3 as a wolf, again."
    assert byte_bpe_upper_bound(english) > _count_tokens(english)
    assert byte_bpe_upper_bound(english + invented) == byte_bpe_upper_bound(english) + 24


@pytest.mark.werebench
def test_release_prompts_fit_a_small_budget(werebench_dataset) -> None:
    """The real release's prompts (about 20k tokens) cut to 6000 as local/smollm2 counts them."""
    ds = werebench_dataset  # the session's one load of the shared import (conftest)
    config = EvalConfig(model="local/smollm2", decodes=1, limit=2, context_budget=6000, max_tokens=256)
    plan = plan_run(ds, config)
    count = prompt_counter("local/smollm2")
    assert any(p.turns_cut for p in plan)
    assert all(count(p.messages) <= 6000 for p in plan if p.over_budget is None)


def test_a_hosted_models_context_comes_from_litellms_map_without_importing_litellm() -> None:
    import sys

    from werealign.llm.model_limits import default_context_budget, litellm_model_entry

    imported = "litellm" in sys.modules
    assert default_context_budget("openai/gpt-4o-mini", None) == litellm_model_entry("gpt-4o-mini")["max_input_tokens"] > 8000
    assert default_context_budget("gpt-4o-mini", 512) == default_context_budget("openai/gpt-4o-mini", None)
    assert default_context_budget("anthropic/gpt-4o-mini", None) is None  # another provider's name is not that model
    assert default_context_budget("openai/an-invented-model", None) is None
    assert ("litellm" in sys.modules) == imported
