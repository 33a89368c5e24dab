"""Issue 46: a local model that finishes. Before sending, eval estimates a local model's wall time from a timed probe
and refuses a run over an hour (unless --limit or --yes), naming a command that fits; --dry-run shows the estimate;
the local model answers under the answer line's grammar. The probe is replaced by a fixed speed here (the real one
starts the model: tests/test_builtin_models.py runs it against the real server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_inproc import run_cli
from werealign.dataset import load_dataset
from werealign.eval import wall_time
from werealign.eval.answer_grammar import answer_grammar
from werealign.eval.config import EvalConfig
from werealign.eval.plan import plan_run
from werealign.llm.speed_probe import Speed
from werealign.solvers.base import Shown

SLOW = Speed(prompt_tokens_per_s=5.0, reply_tokens_per_s=0.5, prompt_tokens=1000, seconds=60.0)


@pytest.fixture()
def slow_probe(monkeypatch):
    probed = []

    def probe(model, messages, timeout):
        probed.append(messages)
        return SLOW

    monkeypatch.setattr(wall_time, "probe_speed", probe)
    monkeypatch.setattr(wall_time, "SLOWEST", Speed(1e-3, 1e-3, 0, 0.0))  # every run here is then probed
    return probed


def _estimate(**kw) -> wall_time.WallTime:
    return wall_time.estimate_wall_time(EvalConfig(model="local/smollm2", max_tokens=256, **kw), timeout=900.0)


def test_a_local_run_over_an_hour_is_refused_before_sending_with_a_command_that_fits(tmp_path: Path, slow_probe, monkeypatch) -> None:
    import werealign.eval.runner as runner

    monkeypatch.setattr(runner, "run_eval", lambda *a, **k: pytest.fail("nothing may be sent"))
    done = run_cli("eval", "--model", "local/smollm2", "--out", str(tmp_path / "r"))
    assert done.returncode == 1 and len(slow_probe) == 1
    assert "over an hour; nothing was sent" in done.stderr and "estimated wall time" in done.stderr
    assert not (tmp_path / "r").exists()
    whole = _estimate()
    assert whole.seconds > wall_time.HOUR and whole.fits is not None
    assert f"`werealign eval --model local/smollm2 --limit {whole.fits} --decodes 1`" in done.stderr
    # the command it names fits the hour, and one item more per task would not fit its share of it
    fitting = _estimate(limit=whole.fits, decodes=1)
    assert fitting.seconds <= wall_time.FIT_SHARE * wall_time.HOUR
    assert _estimate(limit=whole.fits + 1, decodes=1).seconds > wall_time.FIT_SHARE * wall_time.HOUR


def test_the_estimate_counts_what_each_request_adds_to_the_one_before(slow_probe) -> None:
    """An item's decodes share their context: the estimate of five decodes is far below five times one decode's."""
    one, five = _estimate(decodes=1), _estimate(decodes=5)
    assert five.requests == 5 * one.requests
    assert one.seconds < five.seconds < 3 * one.seconds
    # the reply budget at the probe's writing speed is part of every request
    assert five.seconds >= five.requests * 16 / SLOW.reply_tokens_per_s


def test_yes_or_a_limit_runs_it_and_dry_run_shows_the_estimate(tmp_path: Path, slow_probe, monkeypatch) -> None:
    import werealign.eval.runner as runner

    class Sent(Exception):
        pass

    def sent(*a, **k):
        raise Sent

    monkeypatch.setattr(runner, "run_eval", sent)
    for extra in (["--yes"], ["--limit", "50"]):
        with pytest.raises(Sent):
            run_cli("eval", "--model", "local/smollm2", "--out", str(tmp_path / "r"), *extra)
    dry = run_cli("eval", "--model", "local/smollm2", "--dry-run")
    assert dry.returncode == 0 and "estimated wall time" in dry.stdout and "model calls" in dry.stdout


def test_the_local_models_prompts_carry_the_answer_lines_grammar_and_others_do_not() -> None:
    ds = load_dataset(None)
    local = plan_run(ds, EvalConfig(model="local/smollm2", decodes=1, max_tokens=256))
    assert {p.task for p in local} >= {"speech", "vote", "opponent"}
    for p in local:
        grammar = p.params["extra_body"]["grammar"]
        assert grammar.startswith("root ::= " + ('"答案："' if p.shown().lang == "zh" else '"Answer: "'))
    hosted = plan_run(ds, EvalConfig(model="openai/x", decodes=1))
    assert not any("extra_body" in p.params for p in hosted)
    cot = plan_run(ds, EvalConfig(model="local/smollm2", decodes=1, max_tokens=256, solver="cot", tasks=("vote",)))
    assert not any("extra_body" in p.params for p in cot)  # a solver's steps ask other things


def test_the_answer_grammar_takes_only_what_the_prompt_offers() -> None:
    shown = Shown(lang="en", options=(("A", "x"), ("B", "y")), candidates=(3, 11), role_cards=("werewolf", "seer"))
    assert answer_grammar("option", shown) == 'root ::= "Answer: " value\nvalue ::= ("A" | "B")'
    assert '("3" | "11" | "none" | "abstain")' in answer_grammar("seat", shown)
    assert 'seat (", " seat){0,1}' in answer_grammar("seats", shown)  # no more seats than the candidates
    assert '("werewolf" | "seer")' in answer_grammar("roles", shown)
    assert answer_grammar("seat", Shown(lang="zh")) is None  # nothing to choose from: no grammar


def test_a_run_within_the_hour_at_the_slowest_speed_is_not_probed(monkeypatch) -> None:
    monkeypatch.setattr(wall_time, "probe_speed", lambda *a: pytest.fail("a small run needs no probe"))
    small = _estimate(tasks=("vote",), limit=1, decodes=1)
    assert not small.probed and small.requests == 1 and small.seconds <= wall_time.FIT_SHARE * wall_time.HOUR
    assert "at most" in small.line("local/smollm2") and "no timing probe needed" in small.line("local/smollm2")


def test_the_shared_prefix_is_commonprefixs_length() -> None:
    """The estimate's prefix sharing (a halving search) agrees with os.path.commonprefix on invented strings: equal,
    one a prefix of the other, empty, a difference at every position of a short pair, and long random pairs."""
    import os
    import random

    rng = random.Random(46)
    pairs = [("", ""), ("", "abc"), ("abc", "abc"), ("abc", "abcd"), ("abcd", "abc"), ("答案：A", "答案：B")]
    base = "seat 3 says 世界 is a wolf"
    pairs += [(base, base[:i] + "#" + base[i + 1:]) for i in range(len(base))]
    for _ in range(200):
        a = "".join(rng.choice("ab 答") for _ in range(rng.randrange(0, 3000)))
        cut = rng.randrange(0, len(a) + 1)
        b = a[:cut] + "".join(rng.choice("ab 答") for _ in range(rng.randrange(0, 50)))
        pairs += [(a, b), (b, a)]
    for a, b in pairs:
        assert wall_time.shared_prefix(a, b) == len(os.path.commonprefix([a, b])), (a[:40], b[:40])
