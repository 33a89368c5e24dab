"""Context attacks (werealign.shortcuts.context) on invented games: each finds the artifact planted for it with
games held out, and not one that is absent; the speech floor carries the best; minimal pairs change only
the move."""

from __future__ import annotations

import random

from test_generate_human import DEAD, WORDS, invented_game
from werealign.audit import audit_items
from werealign.shortcuts.context import CONTEXT_FLOOR, LEARNED, context_attacks, context_floor, features
from werealign.shortcuts.seats import mentions
from werealign.dataset import Dataset
from werealign.game.derive import alive_at
from werealign.generation import minimal
from werealign.schema import DatasetCounts, DatasetManifest, Option, RoleCount, SpeechItem
from werealign.tasks import TASKS

GAMES = 8
CUTOFF = 90  # after seat DEAD is out, with turns of the viewpoint before it


def _item(game, i: int, texts: list[str], answer_at: int, seat: int) -> SpeechItem:
    keys = "ABCDEFGHI"
    return SpeechItem(item_id=f"{game.game_id}-c{i}", game_id=game.game_id, language="xx", dimension="PS", viewpoint_seat=seat,
                      cutoff_segment=CUTOFF, question="What do you say now?",
                      options=[Option(key=keys[j], text=t, origin="imported") for j, t in enumerate(texts)], answer=keys[answer_at])


def _population(plant) -> tuple[list[SpeechItem], dict]:
    """Six items per invented game; `plant(game, rng, texts, answer_at, seat)` plants one artifact in the key."""
    games, items = {}, []
    for n in range(GAMES):
        game = invented_game(n)
        games[game.game_id] = game
        rng = random.Random(n)
        for i in range(6):
            seat = 4
            texts = [" ".join(rng.sample(WORDS, 5)) + f" seat {rng.choice([s for s in alive_at(game, CUTOFF) if s != seat])}" for _ in range(9)]
            at = (n * 6 + i) % 9
            plant(game, rng, texts, at, seat)
            items.append(_item(game, i, texts, at, seat))
    return items, games


def _dataset(items, games) -> Dataset:
    manifest = DatasetManifest(name="invented", version="0", languages=["xx"], licence="CC0",
                               counts=DatasetCounts(games=len(games), speech=len(items), vote=0, opponent=0), content_hashes={})
    return Dataset(manifest=manifest, games=games, items={"speech": items})


def _accuracy(items, games, attack):
    return context_attacks(items, games).accuracy(items, attack)


def test_a_key_naming_the_dead_seat_is_found_in_every_seat_form():
    forms = [f"seat {DEAD}", "二号", f"{DEAD} 号位", f"{DEAD}号"]

    def plant(game, rng, texts, at, seat):
        texts[at] = texts[at].rsplit(" seat ", 1)[0] + " " + rng.choice(forms)

    items, games = _population(plant)
    assert _accuracy(items, games, "dead-seat") > 0.9
    report = audit_items(_dataset(items, games))
    assert report.find("dead-seat").verdict == "fail" and report.find("context").verdict == "fail"
    assert all(0 <= s["context_score"] <= 1 for s in report.item_scores.values())
    # no artifact planted: the dead-seat attack is near chance and the check passes or has nothing to say
    clean, games = _population(lambda *a: None)
    assert _accuracy(clean, games, "dead-seat") < 0.3
    assert audit_items(_dataset(clean, games)).find("dead-seat").verdict in ("pass", "skip")


def test_a_key_in_the_viewpoints_own_words_is_found_with_games_held_out():
    def plant(game, rng, texts, at, seat):
        own = next(u.text for u in game.utterances if u.speaker == seat and max(u.segment_ids) <= CUTOFF)
        texts[at] = " ".join(own.split()[1:6])  # this game's own wording: nothing another game's keys share

    items, games = _population(plant)
    attacks = context_attacks(items, games)
    assert attacks.held_out == "games"
    assert attacks.accuracy(items, "own-words") > 0.8 and attacks.accuracy(items, LEARNED) > 0.6
    floor = context_floor([(games[it.game_id], it) for it in items], "macro_accuracy")
    assert floor[CONTEXT_FLOOR] >= attacks.accuracy(items, "own-words") - 1e-9
    assert TASKS["speech"].scorer.truth_floors([(games[it.game_id], it) for it in items], "accuracy")[CONTEXT_FLOOR] > 0.8


def test_features_read_only_what_the_prompt_shows():
    game = invented_game(0)
    late = next(u for u in game.utterances if min(u.segment_ids) > CUTOFF)
    words = late.text.split()[:6]
    item = _item(game, 0, [" ".join(words)] + [" ".join(random.Random(k).sample(WORDS, 6)) for k in range(8)], 0, 4)
    rows = features([item], {game.game_id: game})[0]
    # a turn after the cut-off is not in the transcript the attack reads: its words score nothing special there
    col = 1  # "transcript"
    assert rows[0][col] <= max(r[col] for r in rows[1:]) + 0.2


def _shown(game, talk: str, dead=(DEAD,)):
    from werealign.shortcuts.context import Shown

    return Shown(talk, talk, "", frozenset(dead), {}, turns=(talk,))


ANY_GAP = 10**6  # the structure of a set, whatever the key's ranks


def test_minimal_pairs_change_only_the_move():
    game = invented_game(3, seats=12)
    key = "I vote seat 7 out, seat 7 is a wolf"
    found, why = minimal.variants(key, game, 4, _shown(game, "seat 5 seat 9"), "s", max_gap=ANY_GAP)
    assert why is None and len(found) == 8 and len({t for t, _, _ in found}) == 8 and key not in {t for t, _, _ in found}
    for text, origin, change in found:
        assert origin.startswith("m1_")
        (seat,) = {m.seat for m in mentions(text)}  # both mentions of the target changed together
        assert seat != 4  # never the viewpoint's
        if "role" not in change and "result" not in change:
            assert seat != 7 and text.replace(f"seat {seat}", "seat 7") == key  # only the seat changed
        else:
            assert "wolf" not in text and text.split(" is a ")[0] == key.split(" is a ")[0].replace("seat 7", f"seat {seat}")
    # every seat form of the target is renumbered in its own form
    zh, _ = minimal.variants("我投七号，7 号位是狼", game, 4, _shown(game, ""), "s", max_gap=ANY_GAP)
    assert zh and all(len({m.seat for m in mentions(t)}) == 1 and "号位" in t for t, _, _ in zh)
    assert minimal.variants("amber lantern river meadow", game, 4, _shown(game, ""), "s", max_gap=ANY_GAP)[1]  # no move to change: none
    # a key naming two seats: every seat form of each changed seat is renumbered alike
    zh, _ = minimal.variants("我投七号，7 号位是狼，相信六号", game, 4, _shown(game, "五号 九号"), "s", max_gap=ANY_GAP)
    assert zh and all(len({m.seat for m in mentions(t)}) == 2 and "号位" in t for t, _, _ in zh)


def test_minimal_pairs_are_cells_of_a_grid_with_the_key_one_cell():
    """The options are the cells of a grid over the key's slots (here seat x role label), the cells beyond nine dropped
    at random among the non-key ones: the key's seat and label are not shared by more options than another's."""
    from collections import Counter

    game = invented_game(5, seats=12)
    game = game.model_copy(update={"rules": game.rules.model_copy(update={"composition": [
        *game.rules.composition, RoleCount(role="seer", faction="good", count=1), RoleCount(role="witch", faction="good", count=1)]})})
    key = "seat 7 is the seer, I vote seat 7 out"
    mates = {"key": 0, "other": 0, "n": 0}
    for n in range(40):
        found, why = minimal.variants(key, game, 4, _shown(game, "seat 7 seer seat 5 witch seat 8"), f"s{n}", max_gap=ANY_GAP)
        assert why is None
        texts = [key, *(t for t, _, _ in found)]
        seat = Counter(t.split(" is ")[0] for t in texts)
        role = Counter(t.split(" the ")[1].split(",")[0] for t in texts)
        for i, t in enumerate(texts):
            shared = seat[t.split(" is ")[0]] + role[t.split(" the ")[1].split(",")[0]] - 2
            mates["key" if i == 0 else "other"] += shared * (8 if i == 0 else 1)
        mates["n"] += 1
    # the key is no centre of its options: 0.03 as drawn; a grid keeping first the cells that share the key's seat or
    # role (the most central draw the dropped cells allow) reads 0.11, so a bound of 0.25 could not fail (measured)
    assert abs(mates["key"] - mates["other"]) / mates["other"] < 0.07


def test_the_filtered_split_drops_what_a_context_attack_answers():
    from werealign.shortcuts.filtering import adversarial_filter, verify

    planted = []

    def plant(game, rng, texts, at, seat):
        if rng.random() < 0.5:  # half the items: the key in the viewpoint's own words, shaped like every option
            own = " ".join(u.text for u in game.utterances if u.speaker == seat and u.phase == "day-1" and max(u.segment_ids) <= CUTOFF)
            words = [w.strip(",") for w in own.split() if w.strip(",") in WORDS][:5]
            if len(words) == 5:
                texts[at] = " ".join(words) + " " + texts[at].rsplit(" ", 2)[-2] + " " + texts[at].rsplit(" ", 1)[-1]
                planted.append(texts[at])

    items, games = _population(plant)
    own = {it.item_id for it in items if next(o.text for o in it.options if o.key == it.answer) in planted}
    assert len(own) > 10
    report = audit_items(_dataset(items, games))
    context = {i: s["context_score"] for i, s in report.item_scores.items()}
    kept = adversarial_filter(items, {it.item_id: [] for it in items}, context=context).kept
    blind = adversarial_filter(items, {it.item_id: [] for it in items}).kept
    # options-only attacks alone keep planted items; with the context attack most of them go
    assert sum(it.item_id in own for it in kept) < sum(it.item_id in own for it in blind) / 2
    check = verify(kept, items, games)
    assert check["by_dimension"] == {"PS": len(kept)} and check["context_top1"] is not None


def test_features_of_many_items_are_each_items_own_to_the_last_bit():
    """features() builds each transcript's n-gram counts from an earlier cut-off's of the same game; the rows are the
    ones each item gets read alone (the plain TF-IDF of its whole transcript), whatever order the items come in."""
    from werealign.shortcuts.context import item_features, shown_at

    rng = random.Random(7)
    games = {g.game_id: g for g in (invented_game(n, turns=20) for n in range(3))}
    items = []
    for i in range(24):
        game = games[f"invented-{i % 3}"]
        texts = [" ".join(rng.sample(WORDS, 4)) + f" seat {rng.randint(1, 9)}" for _ in range(9)]
        item = _item(game, i, texts, i % 9, seat=rng.choice([1, 3, 4, 5]))
        items.append(item.model_copy(update={"cutoff_segment": rng.choice([5, 40, 90, 130, 170, 205])}))
    items.append(_item(invented_game(99), 99, [f"option {j}" for j in range(9)], 0, 4))  # its game absent: reads nothing
    rows = features(items, games)
    alone = [item_features(it, shown_at(games.get(it.game_id), it)) for it in items]
    assert [[[x.hex() for x in r] for r in item] for item in rows] == [[[x.hex() for x in r] for r in item] for item in alone]
    assert len({tuple(r[1] for r in item) for item in rows}) > 10  # the transcripts differ: the test compares something


def test_features_and_attacks_are_remembered_by_what_they_read_and_handed_out_as_copies(monkeypatch):
    """The same items of the same games (other objects) are featurised and cross-fitted once per process
    (werealign.shortcuts.context._FEATURES_MEMO, _ATTACKS_MEMO), with what a fresh computation gives; a caller that
    changes its copy spoils no other's; changing any one thing either reads computes anew."""
    from werealign.shortcuts import context

    monkeypatch.setattr(context, "_FEATURES_MEMO", type(context._FEATURES_MEMO)())
    monkeypatch.setattr(context, "_ATTACKS_MEMO", type(context._ATTACKS_MEMO)())
    counted = {"features": 0, "attacks": 0}
    real_features, real_attacks = context._features, context._context_attacks

    def _features(*a):
        counted["features"] += 1
        return real_features(*a)

    def _attacks(*a):
        counted["attacks"] += 1
        return real_attacks(*a)

    monkeypatch.setattr(context, "_features", _features)
    monkeypatch.setattr(context, "_context_attacks", _attacks)
    items, games = _population(lambda game, rng, texts, at, seat: None)
    first = context_attacks(items, games)
    rows = features(items, games)
    first.probs[LEARNED][0][0] = 9.0
    rows[0][0][0] = 9.0  # callers that change what they got
    copies = ([it.model_copy(deep=True) for it in items], {g: x.model_copy(deep=True) for g, x in games.items()})
    again, again_rows = context_attacks(*copies), features(*copies)
    assert counted == {"features": 1, "attacks": 1}
    assert 9.0 not in again.probs[LEARNED][0] and again_rows[0][0][0] != 9.0
    context.clear_memos()
    assert context_attacks(items, games).probs == again.probs and features(items, games) == again_rows
    assert counted == {"features": 2, "attacks": 2}
    # the audit's call (rows given) and a floor's (rows computed) are the same cross-fit
    context_attacks(items, games, rows=features(items, games))
    assert counted == {"features": 2, "attacks": 2}
    moved = [items[0].model_copy(update={"options": [o.model_copy(update={"text": o.text + " x"}) for o in items[0].options]}), *items[1:]]
    noted = {g: x.model_copy(update={"annotator_log": "an invented note no prompt shows"}) for g, x in games.items()}
    rekeyed = [items[0].model_copy(update={"answer": "I" if items[0].answer != "I" else "A"}), *items[1:]]
    # a game changed is read again, though rows that come out equal are the same cross-fit; a key changed is fitted again
    for args, kw, expected in (((moved, games), {}, (3, 3)), ((items, noted), {}, (4, 3)), ((rekeyed, games), {}, (5, 4)),
                               ((items, games), {"seed": 3}, (5, 5)), ((items, games), {"folds": 3}, (5, 6))):
        context_attacks(*args, **kw)
        assert (counted["features"], counted["attacks"]) == expected, (kw, expected)
