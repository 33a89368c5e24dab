"""Minimal pairs (werealign.generation.minimal) on invented games whose talk plants the shortcut the real keys
carry: the key names the seat the table talks about most, bound to the role word the talk binds it to. Over
many keys, the key's rank among its nine options is uniform on every per-option statistic the audit ranks
(chi-square), a rule reading the binding from the talk is at chance, and the options form a grid in which
the key is not the centre; seat-only swaps of the same keys fail the same test (the test can fail)."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from werealign.shortcuts.context import shown_to
from werealign.shortcuts.ensemble import option_stats
from werealign.shortcuts.exchange import rank_tests
from werealign.shortcuts.seats import mentions, renumber
from werealign.shortcuts.text import roles_named
from werealign.generation import minimal
from werealign.schema import GameLog, Mvp, Option, Phase, Provenance, RoleCount, Rules, SeatInfo, SpeechItem, Utterance

SEATS = 12
ROLES = ("seer", "witch", "hunter", "guard", "villager", "wolf")
BOARD = (("werewolf", "wolf", 4), ("villager", "good", 4), ("seer", "good", 1), ("witch", "good", 1), ("hunter", "good", 1),
         ("guard", "good", 1))
OPENINGS = ("I am sure that", "honestly I think", "listen, everyone:", "my read is that", "after last night")
ME = 1
CUTOFF = 1000
pytestmark = pytest.mark.xdist_group("minimal-exchange")  # one worker builds the cached grid population


def _game(n: int) -> tuple[GameLog, int, str]:
    """An invented game whose talk binds seats to role words, some far more than others; returns the game and the
    key's seat and role word: in one game of three the seat talked about most and the word it is bound to."""
    rng = random.Random(n)
    seats = [s for s in range(2, SEATS + 1)]
    bound = {s: rng.choice(ROLES) for s in seats}
    weight = {s: rng.choice((1, 1, 2, 3, 6)) for s in seats}
    top = max(seats, key=lambda s: (weight[s], -s))
    weight[top] += 2
    utts, seg = [], 0
    for i in range(40):
        s = rng.choices(seats, [weight[x] for x in seats])[0]
        other = rng.choice([x for x in seats if x != s])
        text = (f"seat {s} is the {bound[s]}, " if rng.random() < 0.7 else f"seat {s} spoke well, ") + \
            f"and seat {other} {rng.choice(('was quiet', 'voted late', 'looked nervous', 'said little'))}."
        utts.append(Utterance(index=i, segment_ids=[seg], start=seg, end=seg + 1, phase="day-1", speaker=rng.choice(seats + [ME]),
                              text=text))
        seg += 10
    game = GameLog(game_id=f"invented-{n}", language="en", provenance=Provenance(source="invented for a test"),
                   rules=Rules(text="Invented rules.", variant="invented",
                               composition=[RoleCount(role=r, faction=f, count=c) for r, f, c in BOARD]),
                   seats=[SeatInfo(seat=s, role="villager", faction="good") for s in range(1, SEATS + 1)],
                   phases=[Phase(id="day-1", kind="day", day=1, start=0, end=10_000)], utterances=utts, mvp=Mvp(seat=ME), winner="good")
    if n % 3:
        top = rng.choice(seats)
    return game, top, bound[top]


def _key(n: int, seat: int, role: str) -> str:
    rng = random.Random(f"key{n}")
    return f"{rng.choice(OPENINGS)} seat {seat} is the {role}, so I vote seat {seat} out today."


def _item(n: int, key: str, distractors: list[str]) -> SpeechItem:
    options = [Option(key="ABCDEFGHI"[i], text=t, origin="ground_truth" if i == 0 else "m1_role_perturbation")
               for i, t in enumerate([key, *distractors])]
    at = n % 9  # the key's letter varies; its rank is what is tested
    options = options[1:at + 1] + [options[0]] + options[at + 1:]
    options = [o.model_copy(update={"key": "ABCDEFGHI"[i]}) for i, o in enumerate(options)]
    return SpeechItem(item_id=f"it-{n}", game_id=f"invented-{n}", language="en", dimension="PS", viewpoint_seat=ME, cutoff_segment=CUTOFF,
                      question="What do you say now?", options=options, answer="ABCDEFGHI"[at])


def _binding_pick(item: SpeechItem, game: GameLog) -> str:
    """The fixed rule of the shortcut: the option whose (seat, role) pair the talk names together most."""
    turns = [({m.seat for m in mentions(u.text)}, roles_named(u.text)) for u in game.utterances]

    def score(text: str) -> int:
        seats, roles = {m.seat for m in mentions(text)}, roles_named(text)
        return sum(s in ts and r in rs for ts, rs in turns for s in seats for r in roles)
    return max(item.options, key=lambda o: (score(o.text), o.key)).key


@functools.cache  # the grid population serves two tests
def _population(build) -> tuple[list[SpeechItem], list, list[GameLog]]:
    items, stats, games = [], [], []
    for n in range(90):
        game, seat, role = _game(n)
        key = _key(n, seat, role)
        shown = shown_to(game, ME, CUTOFF)
        distractors = build(n, key, game, shown)
        if distractors is None:  # no grid places this key like a drawn option: no item
            continue
        item = _item(n, key, distractors)
        items.append(item)
        stats.append(option_stats(item, shown))
        games.append(game)
    return items, stats, games


def _grid(n, key, game, shown):
    sets, why = minimal.drafts(key, game, ME, shown, f"s{n}", 4, role_rates={"seer": 0.3, "wolf": 0.4}, candidates=24)
    return None if why else [t for t, _, _ in sets[0]]


def _seats_only(n, key, game, shown):
    seat = next(m.seat for m in mentions(key))
    rng = random.Random(n)
    return [renumber(key, {seat: s}) for s in rng.sample([s for s in range(2, SEATS + 1) if s != seat], 8)]


def test_the_keys_rank_is_uniform_on_every_statistic_but_binding_and_the_key_is_no_centre():
    items, stats, games = _population(_grid)
    assert len(items) >= 45  # the keys the talk gives away (a third) are dropped, not the others
    tests = rank_tests(items, stats)
    low = {name: round(p, 4) for name, (p, _) in tests.items() if p < 0.01 and name != "binding"}
    assert not low, f"the key's rank departs from uniform: {low}"
    hits = sum(_binding_pick(it, g) == it.answer for it, g in zip(items, games))
    assert hits / len(items) < 0.3, hits  # the seat-only control below: over 0.5
    # a grid: each option shares its seat (and its role) with as many options as the key does, on average
    share = {"key": [], "other": []}
    for it in items:
        seat_of = {o.key: frozenset(m.seat for m in mentions(o.text)) for o in it.options}
        role_of = {o.key: roles_named(o.text) for o in it.options}
        for o in it.options:
            mates = sum(seat_of[x.key] == seat_of[o.key] or role_of[x.key] == role_of[o.key] for x in it.options if x.key != o.key)
            share["key" if o.key == it.answer else "other"].append(mates)
    assert abs(sum(share["key"]) / len(share["key"]) - sum(share["other"]) / len(share["other"])) < 0.5


@pytest.mark.xfail(strict=True, reason="not met: a key always bound in the talk beside distractors some of which are not "
                   "(seats the talk never binds) still ranks high on binding (p about 0.001 on this world)")
def test_the_keys_rank_on_binding_is_uniform():
    items, stats, _ = _population(_grid)
    assert rank_tests(items, stats)["binding"][0] > 0.01


def test_seat_only_swaps_of_the_same_keys_fail_the_test():
    items, stats, games = _population(_seats_only)
    tests = rank_tests(items, stats)
    assert min(p for p, _ in tests.values()) < 1e-4  # the talk statistics read the key
    hits = sum(_binding_pick(it, g) == it.answer for it, g in zip(items, games))
    assert hits / len(items) > 0.5


def test_a_grid_is_nine_distinct_edits_of_the_keys_slots():
    game, seat, role = _game(1)
    key = _key(1, seat, role)
    shown = shown_to(game, ME, CUTOFF)
    found = minimal.slots(key, game, ME, shown)
    assert {s.kind for s in found} == {"seat", "role"}
    sets, why = minimal.drafts(key, game, ME, shown, "s", 3, candidates=16, max_gap=10**6)
    assert why is None and len(sets) == 3
    assert minimal.drafts(key, game, ME, shown, "s", 3, candidates=16, max_gap=10**6) == (sets, why)  # seeded: the same sets
    for distractors in sets:
        texts = [t for t, _, _ in distractors]
        assert len(set(texts)) == 8 and key not in texts
        for text, origin, change in distractors:
            assert origin == "m1_role_perturbation" and change
            # the seat changed in every one of its mentions, the role label in its place: the rest is the key's
            seats = {m.seat for m in mentions(text)}
            assert len(seats) == 1 and ME not in seats
            assert text.split(" seat ")[0] == key.split(" seat ")[0]
        counts = Counter(frozenset(m.seat for m in mentions(t)) for t in [key, *texts])
        assert len(counts) in (2, 3, 4, 5, 9)  # the seat values of a grid (x2..x5 roles, or nine seats)
    # a key whose move has nothing to change gives no set, and says why
    assert minimal.drafts("amber lantern river meadow", game, ME, shown, "s")[1]
