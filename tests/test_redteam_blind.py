"""bench/redteam_blind.py: each blind attack family finds a shortcut of its kind planted in invented items, and every
attack stays near chance on items whose key is exchangeable with its distractors (issue 43)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench import redteam  # noqa: E402
from bench.redteam_blind import (RULES, CharLM, Table, agreement, blind_case, learners, roles_named, stance, summed_stance,  # noqa: E402
                                 temporal)
from bench.redteam_core import credit, relational  # noqa: E402

# Invented filler: no word of a game's log. Syllables make per-game vocabularies for the language-model plant.
FILLER = ("all", "should", "listen", "to", "the", "table", "and", "think", "nobody", "knows", "yet", "maybe", "watch", "who",
          "talks", "more", "quietly", "than", "before", "it", "seems", "hard", "tell", "now")
SYLLABLES = [a + b for a in "bdgkmnprstvz" for b in ("a", "e", "i", "o", "u", "ai", "ou")]
NAMES = {"seer": "seer", "witch": "witch", "guard": "guard", "werewolf": "werewolf", "wolf": "werewolf", "villager": "villager"}
BOARD = frozenset({"seer", "witch", "werewolf", "villager"})


def _filler(rng: random.Random, vocab=FILLER) -> str:
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(5, 9))).capitalize() + "."


def _table(rng: random.Random, phase_kind: str = "day", day: int = 2, vocab=FILLER, own: str | None = None,
           alive: frozenset[int] = frozenset(range(1, 13))) -> Table:
    vp = rng.randint(1, 12)
    phase = {"day": f"day-{day}", "sheriff_election": "sheriff-election", "night": f"night-{day}"}[phase_kind]
    turns = [(rng.randint(1, 12), phase, " ".join(_filler(rng, vocab) for _ in range(3))) for _ in range(8)]
    turns.insert(4, (vp, phase, own if own is not None else _filler(rng, vocab)))
    return Table(turns=turns, viewpoint=vp, phase=phase, phase_kind=phase_kind, day=day, alive=alive, board_roles=BOARD,
                 role_names=NAMES)


def _items(plant: str | None, n_items: int = 72, games: int = 12, seed: int = 3):
    """Invented items: nine options drawn alike, the key at a random letter; `plant` gives the key one property."""
    rng = random.Random(seed)
    vocabs = [rng.sample(SYLLABLES, 20) for _ in range(games)]
    cases = []
    for i in range(n_items):
        g = i % games
        texts = [_filler(rng) for _ in range(9)]
        k = rng.randrange(9)
        table = _table(rng)
        if plant == "stance":  # the viewpoint accused seat a and cleared seat b; the key agrees, distractors do not
            a, b = rng.sample(range(1, 13), 2)
            table = _table(rng, own=f"I think seat {a} is a wolf. Seat {b} is good.")
            texts = [t + f" Seat {b} is a wolf." for t in texts]
            texts[k] = _filler(rng) + f" Seat {a} is a wolf."
        elif plant == "discourse":
            texts[k] = "Agree with the previous speaker. " + texts[k]
        elif plant == "phase":  # half the items in the campaign, half by day: the key's words fit its phase
            kind = "sheriff_election" if i % 2 else "day"
            table = _table(rng, phase_kind=kind, day=1)
            fit, unfit = ("the badge", "the exile") if kind == "sheriff_election" else ("the exile", "the badge")
            texts = [t + f" Think of {unfit}." for t in texts]
            texts[k] = texts[k][:-len(f" Think of {unfit}.")] + f" Think of {fit}."
        elif plant == "pronoun":  # the key speaks as the viewpoint does (we / I), distractors the other way
            we = i % 2 == 0
            table = _table(rng, own=("We " if we else "I ") + _filler(rng).lower())
            texts = [("I " if we else "We ") + t.lower() for t in texts]
            texts[k] = ("We " if we else "I ") + texts[k][2:].lstrip()
        elif plant == "temporal":  # day 1: distractors speak of yesterday or day 3
            table = _table(rng, day=1)
            texts = [t + rng.choice([" Since yesterday.", " On day 3."]) for t in texts]
            texts[k] = texts[k].rsplit(" ", 2)[0] + " Since today."
        elif plant == "dead-seat":  # distractors accuse seats already out
            table = _table(rng, alive=frozenset(range(1, 9)))
            texts = [t + f" Seat {rng.randint(9, 12)} is a wolf." for t in texts]
            texts[k] = texts[k].rsplit(" Seat", 1)[0] + f" Seat {rng.randint(1, 8)} is a wolf."
        elif plant == "role":  # distractors name a role the board lacks
            texts = [t + " The guard knows." for t in texts]
            texts[k] = texts[k].replace("The guard knows.", "The witch knows.")
        elif plant == "lm":  # the key is written in this game's own words, the distractors in other games'
            table = _table(rng, vocab=vocabs[g])
            texts = [_filler(rng, vocabs[(g + 1 + j) % games]) for j in range(9)]
            texts[k] = _filler(rng, vocabs[g])
        cases.append(blind_case(f"t-{i}", f"g{g}", texts, {k}, table))
    return cases


def _score(cases, rule: str) -> float:
    return sum(credit(c, c.rules.get(rule)) for c in cases) / len(cases)


PLANTS = {"stance": "stance-agree", "discourse": "reply-opening", "phase": "phase-fit", "pronoun": "pronoun-own",
          "temporal": "temporal-fit", "dead-seat": "no-dead-suspect", "role": "role-on-board", "lm": "lm-table"}


def test_readers():
    assert stance("Seat 3 is a wolf, vote seat 3. Seat 5 is good.") == {3: 2, 5: -1}
    assert agreement(stance("Seat 3 is a wolf."), stance("Seat 3 is suspicious.")) == 1.0
    assert agreement(stance("Seat 3 is good."), stance("Seat 3 is a wolf.")) == -1.0
    # turns add up seat by seat, each read alone: a seat the table cleared stays cleared, and one turn's last clause
    # does not run into the next turn's first (transcribed turns often end with no full stop)
    assert summed_stance(["5号金水，好人", "3号是狼"]) == {5: -1, 3: 1}
    assert agreement(stance("5号是狼"), summed_stance(["5号金水，好人", "3号是狼"])) == -1.0
    assert temporal("Yesterday seat 2 said day 3 and day 1", 1) == (2.0, 1.0)
    assert temporal("Yesterday seat 2", 2) == (0.0, 0.0)
    assert temporal("第三天 第一晚 今天", 2) == (1.0, 1.0)
    assert roles_named("the werewolf and the wolf and a witch", NAMES) == {"werewolf", "witch"}
    lm = CharLM("abcabcabcabc")
    assert lm.score("abcabc") > lm.score("cbacba") > lm.score("xyzxyz")


def test_each_family_finds_its_planted_shortcut():
    for plant, rule in PLANTS.items():
        got = _score(_items(plant, n_items=45, games=9), rule)
        assert got >= 0.6, (plant, rule, got)


def test_options_alone_cannot_read_the_context_plants():
    # the phase and pronoun plants are balanced: read without the table, the key's words are a distractor's half the time
    phase = _items("phase")
    badge = sum(credit(c, [float("badge" in t) for t in c.texts]) for c in phase) / len(phase)
    assert _score(phase, "phase-fit") >= 0.9 and 0.3 <= badge <= 0.7, badge
    pron = _items("pronoun")
    we = sum(credit(c, [float(t.startswith("We ")) for t in c.texts]) for c in pron) / len(pron)
    assert _score(pron, "pronoun-own") >= 0.9 and 0.3 <= we <= 0.7, we


def test_exchangeable_items_score_about_chance():
    cases = _items(None, n_items=135, games=15)
    for rule in RULES:
        assert _score(cases, rule) <= 0.22, (rule, _score(cases, rule))
    mean = sum(_score(cases, r) for r in RULES) / len(RULES)
    assert 0.07 <= mean <= 0.15, mean


def _run_learners(cases, names):
    for c in cases:
        c.rows = relational(c.rows)
    fitters = learners(stack_over=("knn-blind",))  # the boosted and forest learners' 30 inner fits would cost seconds
    return redteam.attack(cases, RULES, {n: fitters[n] for n in names}, seed=0)


def test_learners_find_a_plant_and_not_noise():
    planted = _run_learners(_items("dead-seat", n_items=45, games=9), ("hgb-blind", "knn-blind", "stack-blind"))
    assert planted["hgb-blind"]["accuracy"] >= 0.6 and planted["stack-blind"]["accuracy"] >= 0.6, planted
    assert planted["knn-blind"]["accuracy"] >= 0.3, planted
    family = _run_learners(_items("temporal", n_items=45, games=9), ("hgb-time",))  # one family's columns carry it
    assert family["hgb-time"]["accuracy"] >= 0.6, family
    noise = _run_learners(_items(None, n_items=72, games=9, seed=11), ("knn-blind", "stack-blind"))
    for name, r in noise.items():
        assert r["accuracy"] <= 0.24, (name, r)


def test_command_line_refuses_a_bad_set(tmp_path, capsys):
    from bench.redteam_blind import main

    assert main(["nonsense"]) == 2
    assert main([f"x={tmp_path}"]) == 2
    assert "expected NAME=DATASET_DIR" in capsys.readouterr().err
