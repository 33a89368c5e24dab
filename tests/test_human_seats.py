"""Human-voiced distractors' seats (werealign.generation.seat_model) on invented games whose talk plants the shortcut
the real keys carried (issue 43): each turn mostly answers the last one, naming the seats it named, so the key (the
viewpoint's next turn) names the seats of the last shown turn, while a distractor is another game's span renumbered
onto this table. With its seats drawn evenly the key is the option that names the last turn's seats and the seats
accused so far (the test can fail); drawn with the weights learnt from the other games' keys, the key's rank among
the nine is uniform on both, and on the seats it shares with the other eight options."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter

import pytest
from scipy.stats import chisquare

from werealign.generation import seat_model
from werealign.generation.human import Moment, Picker, build_pool, key_opening
from werealign.generation.human_shown import shown_for
from werealign.schema import GameLog, Mvp, Phase, Provenance, RoleCount, Rules, SeatInfo, Utterance
from werealign.shortcuts.seats import seats_named

GAMES = 16
SEATS = 9
TURNS = 26
FIRST_KEY = 12
WORDS = ("amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra harbor "
         "saffron glacier willow ember quartz").split()
MOVES = ("vote", "wolf", "suspect", "trust")
ANSWERS = 0.8  # the share of a turn's seats taken from the last turn's


def _game(n: int) -> GameLog:
    rng = random.Random(f"seats-{n}")
    utts, last = [], [rng.randint(1, SEATS)]
    for i in range(TURNS):
        speaker = 1 + i % SEATS
        named, sentences = [], []
        for _ in range(rng.randint(2, 3)):
            pool = [s for s in last if s != speaker]
            seat = rng.choice(pool) if pool and rng.random() < ANSWERS else rng.choice([s for s in range(1, SEATS + 1) if s != speaker])
            named.append(seat)
            words = rng.sample(WORDS, rng.randint(3, 6))
            sentences.append(" ".join([words[0], f"seat {seat}", rng.choice(MOVES), *words[1:]]))
        utts.append(Utterance(index=i, segment_ids=[10 * i], start=10 * i, end=10 * i + 5, phase="day-1", speaker=speaker,
                              text=". ".join(sentences) + "."))
        last = named
    return GameLog(game_id=f"seats-{n:02d}", language="xx", provenance=Provenance(source="invented for a test"),
                   rules=Rules(text="Invented rules.", variant="invented", composition=[
                       RoleCount(role="werewolf", faction="wolf", count=3), RoleCount(role="villager", faction="good", count=6)]),
                   seats=[SeatInfo(seat=s, role="villager" if s % 3 else "werewolf", faction="good" if s % 3 else "wolf")
                          for s in range(1, SEATS + 1)],
                   phases=[Phase(id="day-1", kind="day", day=1, start=0, end=10_000)], utterances=utts, mvp=Mvp(seat=1), winner="good")


@pytest.fixture(scope="module")
def table():
    """The invented games, their keyed moments (what each prompt shows) and a Picker of their pool of spans that never
    picks: the same for both draws below, which differ only in the seat weights."""
    games = {g.game_id: g for g in (_game(n) for n in range(GAMES))}
    ds = type("D", (), {"games": games})()
    moments = [Moment(g.game_id, u.speaker, u, min(u.segment_ids) - 1, "test") for g in games.values() for u in g.utterances[FIRST_KEY:]]
    keyed = [(m, k, shown_for(games[m.game_id], m)) for m in moments if (k := key_opening(m.turn, frozenset(), "0")) is not None]
    return games, keyed, Picker(build_pool(ds, frozenset()), 0, {(m.game_id, m.turn.index) for m, _, _ in keyed})


def _ranks(table, learnt: bool) -> tuple[dict[str, list[int]], int, int]:
    """Per statistic, the count of keys at each rank 0..8 (ties broken by a seeded draw); items; moments."""
    games, keyed, unused = table
    weights = (seat_model.moment_weights([(m.game_id, m.turn.index, m.seat, k, sh, "xx") for m, k, sh in keyed])
               if learnt else {})
    # the pool's vectors (and the likeness answers they give) shared; reuse counted afresh
    picker = copy.copy(unused)
    picker.used = [list(u) for u in unused.used]
    counts: dict[str, list[int]] = {name: [0] * 9 for name in ("last-turn", "shared", "accused")}
    items = 0
    for m, key, shown in keyed:
        uid = f"{m.game_id}-{m.turn.index}"
        negatives, why = picker.pick(games[m.game_id], m, uid, key, shown, 0, weights.get((m.game_id, m.turn.index)))
        if why is not None:
            continue
        items += 1
        texts = [key, *(n["text"] for n in negatives)]
        named = [set(seats_named(t)) - {m.seat} for t in texts]
        last = set(seats_named(shown.turns[-1][1]))
        accused = Counter(s for _, t in shown.turns for c in re.split(r"[.,]", t) if re.search("wolf|suspect|vote", c) for s in seats_named(c))
        stats = {"last-turn": [len(ns & last) for ns in named],
                 "shared": [sum(len(ns & named[j]) for j in range(9) if j != i) for i, ns in enumerate(named)],
                 "accused": [sum(accused[s] for s in ns) for ns in named]}
        rng = random.Random(f"{uid}:rank")
        for name, values in stats.items():
            below, tied = sum(v < values[0] for v in values), sum(v == values[0] for v in values) - 1
            counts[name][below + rng.randint(0, tied)] += 1
    return counts, items, len(keyed)


@pytest.fixture(scope="module")
def even(table):
    return _ranks(table, learnt=False)


@pytest.fixture(scope="module")
def learnt(table):
    return _ranks(table, learnt=True)


def test_the_invented_talk_plants_the_shortcut_the_test_finds(even):
    """Seats drawn evenly: the key names the last turn's seats, and shares the fewest with the other options."""
    counts, items, moments = even
    assert items >= 0.9 * moments
    assert chisquare(counts["last-turn"]).pvalue < 1e-4
    assert sum(counts["last-turn"][6:]) > 0.5 * items
    assert chisquare(counts["accused"]).pvalue < 1e-4


def test_seats_drawn_as_keys_of_other_games_name_them_leave_the_keys_rank_uniform(learnt):
    counts, items, moments = learnt
    assert items >= 0.9 * moments
    for name, ranks in counts.items():
        assert chisquare(ranks).pvalue > 0.01, (name, ranks)


def test_the_weights_are_learnt_from_other_games_keys_only():
    """A game's weights do not move when its own keys change: each fold's model never saw its games."""
    t = seat_model.table_of([(2, "seat 5 wolf"), (3, "seat 5 vote, seat 7 trust")], 1, range(1, 10), "xx")
    assert t.seats == (2, 3, 4, 5, 6, 7, 8, 9)
    rows = [(f"g{n}", t, {5} if n % 2 else {9}) for n in range(10)]
    flipped = [(g, tt, {9} if g == "g0" else named) for g, tt, named in rows]
    a, b = seat_model.SeatModel(rows), seat_model.SeatModel(flipped)
    assert a.weights("g0", t) == b.weights("g0", t)
    assert a.weights("g1", t)[5] > a.weights("g1", t)[4]  # the last turn's seat, named by half the keys, outweighs one never named

