"""Issue 42: rules a player would use are floors of their own kind (werealign.tasks.player_rules, read through
werealign.tasks.table_talk), the claim kind has its own (werealign.tasks.claim_floors), and the learned floors are
averaged over fold draws, never fitted on the game they score. Invented games and invented rows only."""

from __future__ import annotations

import random

from test_decision_claim import _said
from test_decisions import invented_game

from werealign.game.claims import ClaimReader
from werealign.game.decisions import derive_decisions
from werealign.game.visibility import build_context
from werealign.tasks import TASKS
from werealign.tasks.decision_floors import floor_scores
from werealign.tasks.learned_floor import LEARNERS, SEEDS, OptionRows, learned_floors, learned_report
from werealign.tasks.player_rules import KIND_RULES, rule_names
from werealign.tasks.table_talk import read_talk

# day 1: seat 1 claims the seer and names seat 4 a wolf; seat 6 clears seat 5 (no seer claim: no check); seat 4
# counter-claims the seer, calls seat 6 good and gives a badge order
SAID = {3: "I am the seer: I checked seat 4, seat 4 is a wolf.", 4: "Seat 5 is good, I trust seat 5.",
        5: "I am the seer, seat 6 is good. My badge order: seat 7, then seat 8. That is all."}


def _ctx(game, item):
    return build_context(game, item.viewpoint_seat, item.cutoff_segment, **TASKS[item.decision].context_kwargs(game, item, None))


def _ballot(game, seat: int, phase: str = "day-1"):
    return next(i for i in derive_decisions(game, "all").items["ballot"] if i.phase == phase and i.viewpoint_seat == seat)


def test_the_table_talk_reads_accusations_clearings_checks_and_badge_orders():
    game = _said(invented_game(), SAID)
    item = _ballot(game, 2)
    talk = read_talk(_ctx(game, item), ClaimReader(game))
    assert talk.claims == [(1, "seer"), (4, "seer")] and talk.claimed({"seer"}) == [1, 4]
    assert talk.checks == [(1, 4, "wolf"), (4, 6, "good")]  # seat 6's "seat 5 is good" is no check: 6 claimed no seer
    assert talk.accused_in()[4] == 1 and talk.cleared_all()[5] == 2 and talk.cleared_all()[6] == 1
    assert talk.badge_order == {4: 1} and talk.badge_named == [(4, 7), (4, 8)]  # to the sentence's end, not further
    assert "seer" in talk.gods and "villager" not in talk.gods and "werewolf" not in talk.gods
    bare = read_talk(_ctx(invented_game(), item), ClaimReader(invented_game()))
    assert bare.claims == [] and bare.checks == [] and bare.accused_in()[4] == 1  # "I think seat 4 is lying."


def test_kind_rules_name_the_move_a_player_would_make():
    game = _said(invented_game(), SAID)
    voter = _ballot(game, 2)
    ctx, talk = _ctx(game, voter), read_talk(_ctx(game, voter), ClaimReader(game))
    rules = KIND_RULES["ballot"]
    assert rules["checked-wolf"](ctx, voter, talk) == 4  # vote out the seat a seer claimant checked a wolf
    assert rules["net-accused"](ctx, voter, talk) == 4
    assert rules["sheriff-checked-wolf"](ctx, voter, talk) is None  # no sheriff: no reading, scored at chance
    # the witch's save: the victim (seat 6) claimed nothing, so "save a claimed god" says no save
    save = next(i for i in derive_decisions(game, "all").items["witch_save"])
    assert KIND_RULES["witch_save"]["save-claimed-god"](_ctx(game, save), save, read_talk(_ctx(game, save), ClaimReader(game))) == "none"
    # the wolves kill the seer claimant on night 2 (seat 4 is out by then: seat 1 is the last legal one)
    kill = next(i for i in derive_decisions(game, "all").items["wolf_kill"] if i.phase == "night-2")
    kctx = _ctx(game, kill)
    assert KIND_RULES["wolf_kill"]["last-seer-claimant"](kctx, kill, read_talk(kctx, ClaimReader(game))) == 1
    # a seat checked good by a seer claimant votes for that claimant (the rule reads any item with candidates)
    six = _ballot(game, 2).model_copy(update={"viewpoint_seat": 6})
    assert KIND_RULES["sheriff_ballot"]["gave-me-gold"](ctx, six, talk) == 4
    # the first seer claimant who did not check me a wolf: seat 6 follows seat 1; seat 4 (checked a wolf by 1) has
    # only itself left, no candidate of its own ballot
    assert KIND_RULES["sheriff_ballot"]["not-my-checker"](ctx, six, talk) == 1
    four = voter.model_copy(update={"viewpoint_seat": 4, "candidates": [1, 3, 5, 6, 7, 8]})
    assert KIND_RULES["sheriff_ballot"]["not-my-checker"](ctx, four, talk) is None


def test_kind_rules_are_reported_for_their_own_kind_only():
    game = _said(invented_game(), SAID)
    items = derive_decisions(game, "all").items
    ballots = floor_scores([(game, i) for i in items["ballot"]], TASKS["ballot"].context_kwargs)
    assert set(rule_names({"ballot"})) <= set(ballots) and "save-claimed-god" not in ballots
    saves = floor_scores([(game, i) for i in items["witch_save"]], TASKS["witch_save"].context_kwargs)
    assert "save-claimed-god" in saves and "checked-wolf" not in saves
    assert all(v is None or 0 <= v <= 1 for v in [*ballots.values(), *saves.values()])


def test_claim_rules_a_player_would_use():
    game = _said(invented_game(), {3: "Seat 6 is the witch, I am sure.", 4: "Nothing to claim.", 5: "I suspect seat 7, seat 7 is a wolf.",
                                   10: "I am the villager."})
    items = derive_decisions(game, "all").items["claim"]
    floors = TASKS["claim"].scorer.truth_floors([(game, i) for i in items], "accuracy")
    assert {"repeat-own", "said-of-me", "own-if-accused", "counter-claim", "own-if-god", "own-if-election"} <= set(floors)
    # seat 7's turn (day 2, a villager claim) comes after seat 4 accused it: own-if-accused claims its own role there
    seven = next(i for i in items if i.viewpoint_seat == 7)
    assert TASKS["claim"].scorer.truth_floors([(game, seven)], "accuracy")["own-if-accused"] == 1.0
    # seat 6 heard "seat 6 is the witch" in the last turn before its own: said-of-me picks the witch (its key is none)
    six = next(i for i in items if i.viewpoint_seat == 6)
    assert six.answer is None and TASKS["claim"].scorer.truth_floors([(game, six)], "accuracy")["said-of-me"] == 0.0


def _rows(seed: int, games: int, leak: bool) -> list[OptionRows]:
    """Options with a noise feature; with `leak`, the key carries a code its own game alone uses (a model fitted on
    that game would learn it; one fitted on the others cannot)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        code = rng.random()
        for _ in range(10):
            n = rng.randint(3, 6)
            key = rng.randrange(n)
            out.append(OptionRows(f"g{g}", [[code if leak and i == key else rng.random(), rng.random()] for i in range(n)], key))
    return out


def test_the_learned_floors_average_fold_draws_and_never_see_the_game_they_score():
    rows = _rows(7, 4, leak=True)
    floors, spread = learned_report(rows, seeds=(0, 1))
    assert set(floors) == set(LEARNERS) and all(len(spread[k]) == 2 for k in LEARNERS) and len(SEEDS) >= 2
    assert all(v < 0.5 for v in floors.values()), floors  # a code of its own game only: about chance (3-6 options)
    assert learned_floors(_rows(7, 2, leak=True)) == dict.fromkeys(LEARNERS)  # two games: nothing to hold out
