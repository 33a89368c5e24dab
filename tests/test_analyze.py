"""`werealign analyze`: metrics computed from what a log records (on invented games), reasons instead
of guesses when a game lacks something, and human and arena groups side by side."""

from __future__ import annotations

import json
import math

import pytest
from cli_inproc import run_cli

from werealign.analysis.aggregate import aggregate
from werealign.analysis.corpus import Group
from werealign.analysis.metrics import game_metrics
from werealign.arena.board import BoardSpec, make_board
from werealign.arena.record import Recorder
from werealign.dataset import bundled_sample_path
from werealign.schema.models import ACTOR, EVERYONE, Audience, Provenance


def invented_game(language: str = "en"):
    """Five seats: the seer (1) checks wolf 2, claims on day 1 and names it; 2 is voted out 3 to 1."""
    board = make_board("tiny", BoardSpec(roles=["seer", "werewolf", "villager", "villager", "villager"]))
    rec = Recorder("tiny-1", board, list(board.spec.roles), language, Provenance(source="invented"))
    rec.begin("night", 1)
    rec.say("host", "Night.")
    rec.event("skill_use", ACTOR, actor=1, target=2, skill="seer_check", result="wolf")
    rec.event("skill_use", Audience(kind="team", team="wolf"), actor=2, target=5, skill="wolf_kill")
    rec.begin("day", 1)
    seg = rec.say("host", "Morning: Seat 5 is dead.")
    rec.event("night_outcome", EVERYONE, target=5, result="night_death")
    rec.event("elimination", EVERYONE, segment=seg, target=5, result="night_death")
    rec.say(1, "I am the seer. Seat 2 is a werewolf.")
    rec.say(2, "Seat 1 is lying, look at Seat 3.")
    rec.say(3, "I doubt Seat 1.")
    rec.say(4, "Seat 2, clearly.")
    rec.say("host", "Vote now.")
    seg = rec.say("host", "Seat 2 is exiled.")
    for voter, target in ((1, 2), (2, 3), (3, 2), (4, 2)):
        rec.event("vote", EVERYONE, segment=seg, actor=voter, target=target, round=1)
    rec.event("elimination", EVERYONE, segment=seg, target=2, result="voted_out")
    return rec.build("good", None)


def test_metrics_of_an_invented_game():
    gm = game_metrics(invented_game())
    assert gm.winner == "good" and gm.days == 1
    assert gm.seer == {"reveals": 2, "first_reveal_day": 1, "target_reveals": 1, "wolf_reveals": 1, "believed": 1, "backfired": 0}
    (rnd,) = gm.rounds
    assert rnd["consensus"] == 0.75
    assert math.isclose(rnd["entropy"], -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25)))
    # Seat 3 named Seat 1 last but voted Seat 2: the one change; seats 1, 2 and 4 voted as they last spoke.
    assert sorted(gm.vote_changes) == [(1, False), (2, False), (3, True), (4, False)]
    assert gm.exiles == [(2, True)]
    assert gm.turns[1] == [1, len("I am the seer. Seat 2 is a werewolf."), 1] and gm.turns[5][2] == 0
    assert "bids" in gm.missing and "votes" not in gm.missing
    m = aggregate(Group("invented", "human", [(gm, frozenset(gm.seats))]))
    assert m["win_rate"]["good"]["value"] == 1.0 and m["seer"]["believed"]["value"] == 1.0
    assert m["participation"]["turns_per_player_day"] == 1.0


def test_a_language_without_seer_names_is_reported_not_guessed():
    gm = game_metrics(invented_game("xq"))  # an invented language tag: the catalogue names no seer in it
    assert gm.seer == {} and "'xq'" in gm.missing["seer"]
    assert gm.rounds, "ballots do not depend on the language"


def test_analyze_puts_arena_models_beside_human_games(tmp_path):
    arena = tmp_path / "arena"
    r = run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "2", "--seed", "3", "--out", arena)
    assert r.returncode == 0, r.stderr
    sample = bundled_sample_path()
    r = run_cli("analyze", sample, arena, "--plots", tmp_path / "plots")
    assert r.returncode == 0, r.stderr
    assert all(len(line) <= 80 for line in r.stdout.splitlines())
    assert "rule/heuristic" in r.stdout and "  vs sample" in r.stdout and "mean bid" in r.stdout
    assert {p.suffix for p in (tmp_path / "plots").iterdir()} == {".png", ".svg", ".pdf"}
    j = json.loads(run_cli("analyze", sample, arena, "--format", "json").stdout)
    labels = [g["label"] for g in j["groups"]]
    assert labels == ["sample", "rule/heuristic", "rule/random"]
    assert set(j["distance_to_human"]) == {"rule/heuristic", "rule/random"}
    heur = j["groups"][1]["metrics"]
    assert heur["participation"]["mean_bid"] is not None and heur["estimation_accuracy_by_day"]
    assert any(g["not_measured"].get("bids") for g in j["games"] if g["group"] == "sample")


def test_analyze_the_release(werebench_import):
    r = run_cli("analyze", werebench_import.path, "--format", "json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    n = len(list((werebench_import.path / "games").glob("*.json")))
    assert j["groups"][0]["metrics"]["games"] == n and len(j["games"]) == n


@pytest.mark.parametrize("extra", [["--format", "xml"], []])
def test_analyze_bad_input_is_one_line(tmp_path, extra):
    (tmp_path / "empty").mkdir()
    target = bundled_sample_path() if extra else tmp_path / "empty"
    r = run_cli("analyze", target, *extra)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_two_arena_runs_of_one_model_stay_apart(tmp_path):
    for seed in ("1", "2"):
        r = run_cli("arena", "--model", "rule/heuristic", "--games", "2", "--seed", seed, "--out", tmp_path / f"run{seed}")
        assert r.returncode == 0, r.stderr
    j = json.loads(run_cli("analyze", bundled_sample_path(), tmp_path / "run1", tmp_path / "run2", "--format", "json").stdout)
    groups = {g["label"]: g["metrics"] for g in j["groups"]}
    assert set(groups) == {"sample", "rule/heuristic@run1", "rule/heuristic@run2"}
    for label in ("rule/heuristic@run1", "rule/heuristic@run2"):
        assert j["distance_to_human"][label]["days"] == round(groups[label]["days"] - groups["sample"]["days"], 3)


def test_a_hand_edited_arena_table_is_one_clear_error_in_analyze_and_the_leaderboard(tmp_path):
    """arena.json is read through its schema (werealign.schema.arena): a broken row names file and field."""
    out = tmp_path / "a"
    assert run_cli("arena", "--model", "rule/heuristic", "--model", "rule/random", "--games", "1", "--seed", "1", "--out", out).returncode == 0
    table = json.loads((out / "arena.json").read_text(encoding="utf-8"))
    del table["games"][0]["wolves"]
    (out / "arena.json").write_text(json.dumps(table), encoding="utf-8")
    r = run_cli("analyze", out)
    assert r.returncode == 1 and "arena.json" in r.stderr and "games" in r.stderr and "wolves" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    from werealign.analysis.rankings import arena_outcomes
    from werealign.errors import UserError

    with pytest.raises(UserError, match="wolves"):
        arena_outcomes([out])
