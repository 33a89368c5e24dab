"""Human-voiced distractors (werealign.generation.human_pick) on invented games whose talk plants the shortcut the
real keys carried (issue 43): each game's players favour their own words, so the key, said in the item's game,
sounds like its transcript and its last turns more than distractors cut from other games do. Over many moments the
key's rank among its nine options is uniform on every per-option statistic the audit ranks (chi-square,
Bonferroni as `audit` reads it); the same population with the first candidate set kept, as the generator did
before it weighed sets (werealign.generation.rankmatch), fails the same test (the test can fail). The first is not
met yet (a strict xfail, its reason measured): the key leaves the top ranks but lands in the middle ones."""

from __future__ import annotations

import random

import pytest

from werealign.generation import rankmatch
from werealign.generation.human import HumanConfig, Moment, _item, build_pool, key_opening
from werealign.generation.human_pick import Picker
from werealign.generation.human_shown import shown_for
from werealign.schema import GameLog, Mvp, Phase, Provenance, RoleCount, Rules, SeatInfo, Utterance
from werealign.shortcuts.context import shown_to
from werealign.shortcuts.ensemble import option_stats
from werealign.shortcuts.exchange import RANKED, rank_tests

pytestmark = pytest.mark.xdist_group("human-exchange")  # one worker builds the cached population

GAMES = 16
SEATS = 9
TURNS = 24
WORDS = ("amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra harbor "
         "saffron glacier willow ember quartz").split()
MOVES = ("vote", "wolf", "trust", "suspect", "good")


def _game(n: int) -> GameLog:
    """An invented game whose players draw their words mostly from the game's own six (a table's topics)."""
    rng = random.Random(n)
    own = rng.sample(WORDS, 6)

    def word() -> str:
        return rng.choice(own) if rng.random() < 0.6 else rng.choice(WORDS)

    utts = []
    for i in range(TURNS):
        sentences = []
        for _ in range(rng.randint(2, 4)):
            seat = rng.randint(1, SEATS)
            move = (f"seat {seat} {rng.choice(MOVES)}" if rng.random() < 0.6 else f"I {rng.choice(MOVES)}")
            sentences.append(" ".join([word(), move, *(word() for _ in range(rng.randint(2, 6)))]))
        utts.append(Utterance(index=i, segment_ids=[10 * i], start=10 * i, end=10 * i + 5, phase="day-1", speaker=1 + i % SEATS,
                              text=". ".join(sentences) + "."))
    return GameLog(game_id=f"inv-{n:02d}", language="xx", provenance=Provenance(source="invented for a test"),
                   rules=Rules(text="Invented rules.", variant="invented", composition=[
                       RoleCount(role="werewolf", faction="wolf", count=3), RoleCount(role="villager", faction="good", count=6)]),
                   seats=[SeatInfo(seat=s, role="villager" if s % 3 else "werewolf", faction="good" if s % 3 else "wolf")
                          for s in range(1, SEATS + 1)],
                   phases=[Phase(id="day-1", kind="day", day=1, start=0, end=10_000)], utterances=utts, mvp=Mvp(seat=1), winner="good")


def _population() -> tuple[list, list, int]:
    """Items, their option statistics and the number of moments: one moment per turn after the first twelve of every
    game, each asked before the turn it keys."""
    games = {g.game_id: g for g in (_game(n) for n in range(GAMES))}
    ds = type("D", (), {"games": games})()
    pool = build_pool(ds, frozenset())
    moments = [Moment(g.game_id, u.speaker, u, min(u.segment_ids) - 1, "test") for g in games.values() for u in g.utterances[12:]
               if isinstance(u.speaker, int)]
    keyed = [(m, key_opening(m.turn, frozenset(), "0")) for m in moments]
    keyed = [(m, k) for m, k in keyed if k is not None]
    picker = Picker(pool, 0, {(m.game_id, m.turn.index) for m, _ in keyed})
    items, stats = [], []
    for m, key in keyed:
        game = games[m.game_id]
        negatives, why = picker.pick(game, m, f"{m.game_id}-{m.turn.index}", key, shown_for(game, m))
        if why is None:
            it = _item(game, m, f"{m.game_id}-{m.turn.index}", key, negatives, HumanConfig())
            items.append(it)
            stats.append(option_stats(it, shown_to(game, m.seat, m.cutoff)))
    return items, stats, len(keyed)


def test_the_invented_talk_plants_the_shortcut_the_test_finds(monkeypatch):
    """Without weighing the sets (the first drawn set kept, none refused), the key is the option most like its
    game's talk: the test can fail."""
    monkeypatch.setattr(rankmatch, "keep", lambda found, rng: (0, 0))
    monkeypatch.setattr(rankmatch, "ends", lambda found, names=RANKED: [])
    items, stats, moments = _population()
    assert len(items) >= 0.9 * moments
    tests = rank_tests(items, stats)
    assert tests["transcript"][0] < 0.01 / len(RANKED)


@pytest.mark.xfail(strict=True, reason="not met (issue 43): the rank-matched sets pull the key to the middle of its options on "
                   "likeness to the last turns and the centroid (16 games: last-turns p=4.6e-9, ranks [2, 4, 6, 10, 17, 21, ...]): "
                   "no set of the 24-candidate pool reaches a target at either end on all 17 statistics at once")
def test_the_keys_rank_is_uniform_on_every_statistic_the_audit_ranks():
    items, stats, moments = _population()
    # the moments the shortcut gives away (the key at an end of every set) give no item; most give one
    assert len(items) >= 0.6 * moments
    tests = rank_tests(items, stats)
    worst = min(tests, key=lambda s: tests[s][0])
    assert tests[worst][0] >= 0.01 / len(RANKED), (worst, tests[worst])
    assert tests["length"][0] > 0.05 and tests["transcript"][0] > 0.05
