"""Issue 42: every trivial rule is a floor, the learned shallow floor is fitted with games held out, and the decision
kinds' headline is skill over each kind's best floor. Invented games, invented option features; nothing from real data."""

from __future__ import annotations

import random

import pytest
from test_decision_claim import _said
from test_decisions import invented_game

from werealign.game.decisions import derive_decisions
from werealign.game.visibility import build_context
from werealign.leaderboards.collect import ModelEntry
from werealign.leaderboards.table_model import Column, main_columns
from werealign.stats.observation import Observation
from werealign.tasks import TASKS
from werealign.tasks.decision_floors import NAMED, call, floor_scores, last_said, night_one_save
from werealign.tasks.learned_floor import LEARNERS, OptionRows, learned_floor, learned_floors


def _ctx(game, item):
    return build_context(game, item.viewpoint_seat, item.cutoff_segment, **TASKS[item.decision].context_kwargs(game, item, None))


def test_the_day_call_floor_follows_the_last_call_to_vote_a_seat_out():
    game = _said(invented_game(), {3: "I call the vote on seat 5.", 4: "No: everyone vote out seat 4."})
    ballots = [i for i in derive_decisions(game, "all").items["ballot"] if i.phase == "day-1"]
    voter2 = next(i for i in ballots if i.viewpoint_seat == 2)
    assert call(_ctx(game, voter2), voter2) == 4  # the last call shown wins
    voter6 = next(i for i in ballots if i.viewpoint_seat == 6)  # seat 6's own call is withheld from its ballot prompt
    assert call(_ctx(game, voter6), voter6) == 5


def test_the_last_said_floor_takes_the_last_legal_seat_anyone_named():
    game = _said(invented_game(), {3: "Seat 5 worries me, and seat 2 too.", 4: "Seat 3 is odd.", 5: "I trust seat 6; seat 9 is not even playing."})
    ballots = [i for i in derive_decisions(game, "all").items["ballot"] if i.phase == "day-1"]
    voter2 = next(i for i in ballots if i.viewpoint_seat == 2)
    named = last_said(_ctx(game, voter2), voter2)
    assert named == 6 and named in voter2.candidates  # the turn at segment 5 came last; seat 9 is no candidate


def test_night_one_save_and_every_named_floor_is_reported():
    game = invented_game()
    items = derive_decisions(game, "all").items
    save = items["witch_save"][0]
    assert save.phase == "night-1" and night_one_save(_ctx(game, save), save) == save.candidates[0]
    floors = floor_scores([(game, i) for i in items["ballot"]], TASKS["ballot"].context_kwargs)
    assert set(NAMED) <= set(floors) and floors["learned"] is None is floors["learned-hgb"]  # one game: nothing to hold out, never a fitted score
    assert all(v is None or 0 <= v <= 1 for v in floors.values())


def _rows(seed: int, games: int, signal: bool) -> list[OptionRows]:
    rng = random.Random(seed)
    out = []
    for g in range(games):
        for _ in range(12):
            n = rng.randint(3, 8)
            key = rng.randrange(n)
            feats = [[float(i == key) if signal else rng.random(), rng.random(), i / n] for i in range(n)]
            out.append(OptionRows(f"g{g}", feats, key))
    return out


def test_the_learned_floor_finds_a_rule_nobody_listed_and_no_rule_where_there_is_none():
    assert learned_floor(_rows(1, 8, signal=True)) == 1.0  # a shallow feature that names the key: the floor sees it
    noise = learned_floor(_rows(2, 8, signal=False))
    assert noise is not None and noise < 0.45  # no signal: about chance (options 3-8), never a fit on its own items
    assert learned_floor(_rows(3, 2, signal=True)) is None  # two games: nothing to hold a game out from


def _switch_rows(seed: int, games: int) -> list[OptionRows]:
    """Items whose key follows a rule that switches on the item's situation: the option flagged `a` when the item's
    flag `c` is on (every option carries it), else the option flagged `b`; the other options are noise."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        for _ in range(12):
            n = rng.randint(4, 7)
            a, b = rng.sample(range(n), 2)
            c = rng.random() < 0.5
            feats = [[float(i == a), float(i == b), float(c), rng.random()] for i in range(n)]
            out.append(OptionRows(f"g{g}", feats, a if c else b))
    return out


def test_the_boosted_floor_finds_a_rule_that_switches_with_the_situation():
    """Issue 42: a rule a weighted vote cannot express (the situation picks which reading counts) is found by the
    boosted floor, not the logistic one; both are reported, so the best floor is at least the better of the two."""
    floors = learned_floors(_switch_rows(4, 10))
    assert set(floors) == set(LEARNERS)
    assert floors["learned-hgb"] >= 0.9 and floors["learned"] <= 0.65, floors
    assert learned_floors(_switch_rows(5, 2)) == dict.fromkeys(LEARNERS)  # two games: nothing to hold out


def _entry(scores: dict, observations=()) -> ModelEntry:
    return ModelEntry("m", (), {"base": scores}, tuple(observations))


def test_the_decisions_macro_is_skill_over_each_kinds_best_floor():
    scores = {"ballot": {"score": 0.6, "floors": {"best_score": 0.5}},
              "claim": {"score": 0.9, "floors": {"best_score": 0.8}},
              "witch_save": {"score": 0.7, "floors": {"best_score": 0.8}}}
    macro = next(c for c in main_columns([_entry(scores)]) if c.tasks)
    assert macro.over_floor and macro.name == "decisions"
    assert macro.value(_entry(scores), "base") == pytest.approx((0.2 + 0.5 - 0.5) / 3)  # a kind below its floor counts negative
    obs = [Observation("ballot", "base", f"i{k}", "g", None, "villager", 0, float(k % 2)) for k in range(4)]
    rescaled = macro.observations(_entry(scores, obs), "base")
    assert sorted({o.value for o in rescaled}) == [-1.0, 1.0]  # each answer on the kind's skill scale: (v - .5) / .5
    plain = Column("decisions", "decisions", ("score",), tasks=("ballot", "claim"))
    assert plain.value(_entry(scores), "base") == pytest.approx(0.75)
    assert macro.value(_entry({"ballot": {"score": 0.6}}), "base") is None  # no floor reported: left out, not guessed
