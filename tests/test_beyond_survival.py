"""Beyond survival: `werealign leaderboard RUNS --arena DIR` ranks the same models both ways and
prints their Kendall tau with a bootstrap interval over arena games."""

from __future__ import annotations

import json

from cli_inproc import run_cli
from fake_llm import FakeCompletion
from run_factory import write_run
from scipy.stats import kendalltau

from werealign.analysis.rankings import arena_outcomes, beyond_survival, win_rates
from werealign.arena.run import run_arena

MODELS = ["rule/heuristic", "rule/random", "openai/fake-a"]


def test_leaderboard_puts_the_arena_ranking_beside_the_human_aligned_one(tmp_path):
    arena = tmp_path / "arena"
    run_arena(MODELS, games=2, seed=4, out=arena, acompletion=FakeCompletion(), use_cache=False)
    runs = [write_run(tmp_path / f"run-{i}", m, skill) for i, (m, skill) in enumerate(zip(MODELS, (0.7, 0.3, 0.5)))]
    r = run_cli("leaderboard", *runs, "--arena", arena, "--resamples", "200")
    assert r.returncode == 0, r.stderr
    block = r.stdout[r.stdout.index("Beyond survival"):]
    assert all(len(line) <= 80 for line in block.splitlines())
    # The tau printed is the one of the two rankings, recomputed here from the files.
    human = {m: json.loads((run / "results.json").read_text())["variants"]["base"]["speech"]["macro_accuracy"] for m, run in zip(MODELS, runs)}
    rates = win_rates(arena_outcomes([arena]))
    expected = kendalltau([human[m] for m in MODELS], [rates[m] for m in MODELS]).statistic
    result = beyond_survival(human, [arena], resamples=200)
    if expected == expected:
        assert result["kendall_tau"] == float(expected) and f"Kendall tau {expected:+.2f}" in block
        lo, hi = result["ci95"]
        assert -1 <= lo <= hi <= 1
    assert sorted(row["model"] for row in result["models"]) == sorted(MODELS)


def test_too_few_models_say_so(tmp_path):
    arena = tmp_path / "arena"
    run_arena(MODELS[:2], games=2, seed=4, out=arena)
    result = beyond_survival({"rule/heuristic": 0.5, "rule/random": 0.4}, [arena])
    assert result["kendall_tau"] is None and "at least 3 models" in result["note"]
    r = run_cli("leaderboard", write_run(tmp_path / "r", "rule/random"), "--arena", tmp_path)
    assert r.returncode == 1 and "not an arena directory" in r.stderr
