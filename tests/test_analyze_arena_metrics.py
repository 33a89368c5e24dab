"""analyze's metrics as their papers define them, on invented games and traces: the seer's stated verdict
(Werewolf Arena), bids apart when named, a talk share comparable across languages, Strategy Adaptation's Est,
and a model's unreadable moves beside its results."""

from __future__ import annotations

from fake_llm import FakeCompletion

from werealign.analysis.aggregate import aggregate
from werealign.analysis.corpus import Group, load_groups
from werealign.analysis.metrics import game_metrics
from werealign.arena.board import BoardSpec, make_board
from werealign.arena.record import Recorder
from werealign.arena.run import run_arena
from werealign.schema.models import ACTOR, EVERYONE, Provenance


def seer_game(language: str, says: str):
    """Five seats: the seer (1) checked wolf 2; on day 1 it says `says`; 2 is exiled 3 to 1."""
    board = make_board("tiny", BoardSpec(roles=["seer", "werewolf", "villager", "villager", "villager"]))
    rec = Recorder("tiny-1", board, list(board.spec.roles), language, Provenance(source="invented"))
    rec.begin("night", 1)
    rec.say("host", "...")
    rec.event("skill_use", ACTOR, actor=1, target=2, skill="seer_check", result="wolf")
    rec.begin("day", 1)
    rec.say("host", "...")
    rec.say(1, says)
    rec.say(3, "...")
    seg = rec.say("host", "...")
    for voter, target in ((1, 2), (3, 2), (4, 2), (2, 3)):
        rec.event("vote", EVERYONE, segment=seg, actor=voter, target=target, round=1)
    rec.event("elimination", EVERYONE, segment=seg, target=2, result="voted_out")
    return rec.build("good", None)


def test_unmasked_wolf_counts_what_the_seer_said_not_whom_it_named():
    called = game_metrics(seer_game("en", "I am the seer. Seat 2 is a werewolf."))
    assert called.seer["target_reveals"] == 1 and called.seer["wolf_reveals"] == 1 and called.seer["believed"] == 1
    covered = game_metrics(seer_game("en", "I am the seer. Seat 2 is good, trust me."))
    assert covered.seer["target_reveals"] == 1 and covered.seer["wolf_reveals"] == 0, "naming a checked wolf as good unmasks nobody"
    zh = game_metrics(seer_game("zh", "我是预言家，昨晚查验了2号，2号是狼人。"))
    assert zh.seer["wolf_reveals"] == 1
    zh_good = game_metrics(seer_game("zh", "我是预言家，2号是金水。"))
    assert zh_good.seer["target_reveals"] == 1 and zh_good.seer["wolf_reveals"] == 0
    m = aggregate(Group("g", "human", [(covered, frozenset(covered.seats)), (called, frozenset(called.seats))]))
    assert m["seer"]["unmasked_wolf"]["value"] == 0.5


def test_bids_apart_when_named_talk_share_and_est():
    game = seer_game("en", "I am the seer. Seat 2 is a werewolf.")
    trace = [
        {"kind": "bid", "seat": 3, "day": 1, "choice": 4, "mentioned": True, "estimates": {}},
        {"kind": "bid", "seat": 4, "day": 1, "choice": 0, "mentioned": False, "estimates": {}},
        {"kind": "bid", "seat": 5, "day": 1, "choice": 1, "mentioned": False, "estimates": {}},
        # Strategy Adaptation's Est from 0-4 ratings: Acc(i, j) = the rating of j's true role over i's ratings of j.
        # Wolf 2 on day 1: seat 3 rates it 4/4 werewolf (1.0); seat 4's last rating of the day 1/(1+3) (0.25); seat 5
        # rates it all 0 (no Acc) -> Est 0.625. Villager 4: seat 3 0.5, wolf 2 1.0 (every other agent rates) -> 0.75.
        {"kind": "vote", "seat": 3, "day": 1, "choice": 2, "estimates": {"2": "wolf", "4": "good"},
         "ratings": {"2": {"werewolf": 4, "villager": 0, "seer": 0}, "4": {"villager": 2, "werewolf": 2}}},
        {"kind": "speak", "seat": 4, "day": 1, "choice": None, "estimates": {}, "ratings": {"2": {"werewolf": 4}}},
        {"kind": "vote", "seat": 4, "day": 1, "choice": 3, "estimates": {"2": "good"}, "ratings": {"2": {"werewolf": 1, "villager": 3}}},
        {"kind": "vote", "seat": 5, "day": 1, "choice": 2, "estimates": {"2": "wolf"}, "ratings": {"2": {"werewolf": 0, "villager": 0}}},
        {"kind": "vote", "seat": 2, "day": 1, "choice": 3, "estimates": {"4": "good"}, "ratings": {"4": {"villager": 4}, "2": {"werewolf": 4}}},
    ]
    gm = game_metrics(game, trace)
    assert gm.bids_mentioned == {3: [4]} and gm.bids == {4: [0], 5: [1]}
    assert gm.est == {2: {1: 0.625}, 4: {1: 0.75}}, "a rater's own seat is never rated"
    assert gm.estimates[3][1] == [True, True] and gm.estimates[4][1] == [False]
    assert game_metrics(game, [r for r in trace if r["kind"] == "bid"]).missing["est"].startswith("no 0-4 role ratings")
    # Day 1's characters: the seer's turn and seat 3's "...": the top talker's share of them.
    said = len("I am the seer. Seat 2 is a werewolf.")
    assert gm.top_share == [said / (said + 3)]
    m = aggregate(Group("g", "arena", [(gm, frozenset(gm.seats))]))
    p = m["participation"]
    assert (p["mean_bid_named"], p["mean_bid_not_named"], p["named_bid_4"]["value"]) == (4, 0.5, 1.0)
    assert m["est_by_day"] == {"wolf": {"1": 0.625}, "good": {"1": 0.75}}


def test_analyze_shows_a_models_unreadable_moves(tmp_path):
    fake = FakeCompletion(reply_for=lambda user: "no idea" if "Answer:" in user else "Hello.")
    out = tmp_path / "a"
    r = run_arena(["openai/fake-a", "rule/heuristic"], games=1, seed=2, out=out, acompletion=fake, use_cache=False)
    groups = {g.label: aggregate(g) for g in load_groups([out])}
    row = r.summary["models"]["openai/fake-a"]
    assert groups["openai/fake-a"]["unreadable_moves"]["k"] == row["unreadable"] > 0
    assert groups["openai/fake-a"]["flagged_games"] == 1 and groups["rule/heuristic"]["unreadable_moves"]["k"] == 0


def test_the_arena_ranking_is_read_from_one_board_in_one_language(tmp_path):
    import pytest

    from werealign.analysis.rankings import beyond_survival, text_block
    from werealign.errors import UserError

    models = ["rule/heuristic", "rule/random"]
    run_arena(models, games=2, seed=1, out=tmp_path / "en", board="arena8")
    run_arena(models, games=2, seed=1, out=tmp_path / "zh", board="wwk12")
    human = {"rule/heuristic": 0.6, "rule/random": 0.2}
    result = beyond_survival(human, [tmp_path / "zh"], resamples=50)
    assert (result["board"], result["language"], result["games"]) == ("wwk12", "zh", 2)
    assert all(r["arena_games"] == 2 for r in result["models"])
    assert "board wwk12 (zh), 2 games between models" in text_block(result)
    with pytest.raises(UserError, match="rank one board in one language") as e:
        beyond_survival(human, [tmp_path / "en", tmp_path / "zh"])
    assert "arena8 (en)" in str(e.value) and "wwk12 (zh)" in str(e.value)


def test_voting_entropy_per_debate_turn_from_polled_votes(tmp_path):
    import math

    out = tmp_path / "p"
    run_arena(["rule/heuristic", "rule/random"], games=1, seed=1, out=out, poll_votes=True)
    from werealign.analysis.corpus import TRACES
    from werealign.dataset import load_dataset
    from werealign.files import read_jsonl

    (trace_path,) = (out / TRACES).glob("*.jsonl")
    rows = [row for _, row in read_jsonl(trace_path)]
    polls = [r for r in rows if r["kind"] == "poll"]
    assert polls and all("turn" in r for r in polls)
    (game,) = load_dataset(out).games.values()
    ballots = [e for e in game.events if e.kind == "vote"]
    assert len(ballots) == sum(r["kind"] == "vote" for r in rows), "a poll is never a ballot in the log"
    # H of day 1, turn 1, recomputed here from the polled choices.
    first = [r["choice"] for r in polls if r["day"] == 1 and r["turn"] == 1 and r["choice"] is not None]
    n = len(first)
    h = -sum(first.count(c) / n * math.log2(first.count(c) / n) for c in set(first))
    groups = {g.label: aggregate(g) for g in load_groups([out])}
    assert groups["rule/heuristic"]["voting_entropy_by_turn"]["1"]["1"] == round(h, 3)
