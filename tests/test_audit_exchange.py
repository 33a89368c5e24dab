"""Exchangeable keys (issue 43): the key-rank test, the learned ensemble with games held out, the future-option
check, the adversarial choice of distractor sets, and clean option spans, all on invented items and turns."""

from __future__ import annotations

import random

from werealign.shortcuts.context import Shown
from werealign.shortcuts.ensemble import cross_fitted, option_stats
from werealign.shortcuts.exchange import check_ensemble, check_key_rank, future_options, key_rank
from werealign.generation import human_text as ht
from werealign.generation.choose import choose
from werealign.schema import GameLog, ItemProvenance, Option, Phase, Provenance, RoleCount, Rules, SeatInfo, SpeechItem, Utterance

WORDS = "amber lantern river copper meadow violet thunder marble orchid falcon pepper walnut cobalt tundra quartz".split()
NOTHING = Shown("", "", "", frozenset(), {})


def _item(n: int, texts: list[str], key: int, game: str | None = None, ref: dict | None = None, cutoff: int = 0) -> SpeechItem:
    keys = "ABCDEFGHI"
    return SpeechItem(item_id=f"i{n}", game_id=game or f"g{n % 10}", language="en", dimension="PS", viewpoint_seat=1, cutoff_segment=cutoff,
                      question="What do you say now?", options=[Option(key=k, text=t, origin="ground_truth" if i == key else "human_utterance")
                                                                for i, (k, t) in enumerate(zip(keys, texts))],
                      answer=keys[key], provenance=ItemProvenance(source_ref=ref or {}))


def _texts(rng: random.Random, lengths: list[int]) -> list[str]:
    return [" ".join(rng.choice(WORDS) for _ in range(n)) + "." for n in lengths]


def _median_key_items(count: int, seed: int = 0) -> list[SpeechItem]:
    """The key is always the option of median length: the exchangeability test must see it."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        lengths = sorted(rng.sample(range(3, 20), 9))
        texts = _texts(rng, lengths)
        order = list(range(9))
        rng.shuffle(order)
        out.append(_item(n, [texts[i] for i in order], order.index(4)))
    return out


def _exchangeable_items(count: int, seed: int = 1) -> list[SpeechItem]:
    rng = random.Random(seed)
    return [_item(n, _texts(rng, [rng.randint(3, 20) for _ in range(9)]), rng.randrange(9)) for n in range(count)]


def test_key_rank_fails_a_median_key_and_passes_an_exchangeable_one():
    median = _median_key_items(120)
    check = check_key_rank(median, "all", [option_stats(it, NOTHING) for it in median])
    assert check.verdict == "fail" and "length" in check.detail
    fair = _exchangeable_items(120)
    assert check_key_rank(fair, "all", [option_stats(it, NOTHING) for it in fair]).verdict == "pass"


def test_key_rank_breaks_ties_by_a_seeded_draw():
    it = _item(0, ["same length."] * 9, 3)
    ranks = {key_rank(it.model_copy(update={"item_id": f"x{n}"}), [1.0] * 9) for n in range(60)}
    assert ranks == set(range(9))  # all tied: any rank, so a shared statistic says nothing
    assert key_rank(it, [1.0] * 9) == key_rank(it, [1.0] * 9)


def test_the_ensemble_learns_a_relational_shortcut_with_games_held_out():
    # the key is the option with the most commas, whatever the lengths: no single number, a relation
    rng = random.Random(5)
    items = []
    for n in range(150):
        texts = _texts(rng, [rng.randint(4, 12) for _ in range(9)])
        key = rng.randrange(9)
        texts[key] = texts[key].replace(" ", ", ", 3)
        items.append(_item(n, texts, key))
    stats = [option_stats(it, NOTHING) for it in items]
    probs = cross_fitted(items, stats)
    check = check_ensemble(items, "all", probs, "games")
    assert check.verdict == "fail" and check.value > 0.5 and "95%" in check.detail
    fair = _exchangeable_items(150)
    assert check_ensemble(fair, "all", cross_fitted(fair, [option_stats(it, NOTHING) for it in fair]), "games").value < 0.3


def _game() -> GameLog:
    texts = ["I am the seer and seat 4 is my check.", "Seat 6 is a wolf, I vote seat 6.", "The witch saved seat 3 on night one, I am that witch.",
             "I trust seat 2 completely today.", "Seat 5 is quiet today and I will vote him out later."]
    utts = [Utterance(index=i, segment_ids=[10 * i], start=i, end=i + 1, phase="day-1", speaker=1 + i % 3, text=t) for i, t in enumerate(texts)]
    return GameLog(game_id="g", language="en", provenance=Provenance(source="invented"), rules=Rules(text="r", variant="v", composition=[
        RoleCount(role="werewolf", faction="wolf", count=1), RoleCount(role="villager", faction="good", count=5)]),
        seats=[SeatInfo(seat=s, role="villager", faction="good") for s in range(1, 7)],
        phases=[Phase(id="day-1", kind="day", day=1, start=0, end=100)], utterances=utts, winner="good")


def test_future_options_flag_later_turns_of_the_items_game_only():
    game = _game()
    fine = ["Seat 5 is the one I doubt most today.", *(f"Option number {w} about seat 2." for w in WORDS[:8])]
    clean = _item(0, fine, 0, game="g", cutoff=15)
    assert future_options(clean, game) == []
    cut_later = _item(1, fine, 0, game="g", cutoff=15, ref={"option_B": "g#3", "option_C": "other#3"})
    assert [w.split(":")[0] for w in future_options(cut_later, game)] == ["option B"]
    # another game's words that this game says later (the witch's report, after the cut-off at segment 15)
    told = fine[:5] + ["The witch saved seat 3 on night one, I am that witch."] + fine[6:]
    assert [w.split(":")[0] for w in future_options(_item(2, told, 0, game="g", cutoff=15), game)] == ["option F"]
    # the viewpoint's own next turn is the key's: repeating it is no future
    assert future_options(_item(3, told, 0, game="g", cutoff=15).model_copy(update={"viewpoint_seat": 3}), game) == []
    assert future_options(clean, None) is None


def test_choose_keeps_the_set_the_ensemble_finds_least_predictable():
    rng = random.Random(9)
    moments = []
    for n in range(90):
        key = rng.randrange(9)
        said = " ".join(rng.choice(WORDS) for _ in range(12)) + "."  # the key, the same in both sets
        longest = _texts(rng, [rng.randint(3, 7) for _ in range(9)])  # a: every distractor shorter
        fair = _texts(rng, [rng.randint(4, 20) for _ in range(9)])  # b: the key's length among theirs
        longest[key] = fair[key] = said
        moments.append([_item(n, longest, key).model_copy(update={"item_id": f"i{n}-a"}), _item(n, fair, key).model_copy(update={"item_id": f"i{n}-b"})])
    chosen = choose(moments, [NOTHING] * len(moments), seed=0)
    kept = [c.item.item_id for c in chosen if c.item is not None]
    assert sum(k.endswith("-b") for k in kept) > 0.9 * len(kept) and len(kept) > 45
    assert all(c.why for c in chosen if c.item is None)


def test_spans_are_whole_sentences_and_never_garbled_in_either_script():
    turn = Utterance(index=0, segment_ids=[0], start=0, end=1, phase="d", speaker=1,
                     text="Seat 3 passed the badge to seat 5 because seat 12 is his wolf partner. vote vote seat 6, "
                          "when seat 1 turns out good")
    parts, ends = ht.clause_pieces(turn, frozenset())
    spans = [text for _, _, text in ht.move_windows(parts, False, 200, ends)]
    assert "Seat 3 passed the badge to seat 5 because seat 12 is his wolf partner." in spans  # not "becauseat"
    assert all("becauseat" not in s and "vote vote" not in s for s in spans)
    assert "Vote seat 6, when seat 1 turns out good." in spans and "Vote seat 6." not in spans  # a comma ends no span
    # a clause longer than MAX_CLAUSE is cut in pieces: no span stops inside it, none opens inside it
    long = Utterance(index=1, segment_ids=[1], start=0, end=1, phase="d", speaker=1,
                     text="I vote seat 4 because he attacked seat 3 and then lied about the badge he never held. Seat 2 is good.")
    parts, ends = ht.clause_pieces(long, frozenset())
    assert len(parts) > 2 and ht.PIECE in ends
    spans = [text for _, _, text in ht.move_windows(parts, False, 200, ends)]
    assert spans and all(s.endswith(("held.", "good.")) for s in spans)
    zh = Utterance(index=2, segment_ids=[2, 3], start=0, end=1, phase="d", speaker=1, text="",
                   segments=[{"id": 2, "start": 0, "end": 1, "text": "我是预言家，查杀7号"}, {"id": 3, "start": 1, "end": 2, "text": "5号是金水，我建议投7号"}])
    parts, ends = ht.clause_pieces(zh, frozenset())
    spans = [text for _, _, text in ht.move_windows(parts, True, 200, ends)]
    # a segment's end is a sentence's: every span ends at one
    assert "我是预言家，查杀7号。" in spans and all(s.endswith(("7号。",)) for s in spans)
