"""bench/redteam.py: each rule computes what it says, on invented items (issues 42, 43)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench import redteam  # noqa: E402
from bench.redteam_core import (Case, bound_seats, credit, cross_fit, group_folds, random_jaccard, row_learner,  # noqa: E402
                                seats, wilson, CALL_STRICT, CHECK_WOLF)
from bench.redteam_decisions import NONE, claim_rules, seat_rules  # noqa: E402
from bench.redteam_speech import FEATURES, speech_case  # noqa: E402
from bench.redteam_core import relational_columns  # noqa: E402
from werealign.shortcuts.context import Shown  # noqa: E402
from werealign.schema import SpeechItem  # noqa: E402
from werealign.schema.roles import builtin_catalogue  # noqa: E402

KEYS = "ABCDEFGHI"


def _item(texts: list[str], answer: str = "A", seat: int = 1, question: str = "What do you say now?") -> SpeechItem:
    return SpeechItem(item_id="t-1", game_id="g", language="en", dimension="PS", viewpoint_seat=seat, cutoff_segment=0,
                      question=question, options=[{"key": k, "text": t, "origin": "imported"} for k, t in zip(KEYS, texts)], answer=answer)


def _shown(turns: tuple[str, ...] = (), own: tuple[str, ...] = ()) -> Shown:
    return Shown(" ".join(turns), " ".join(turns[-3:]), " ".join(own), frozenset(), {}, turns, own)


def _pick(case: Case, rule: str) -> set[int]:
    s = case.rules[rule]
    return {i for i, x in enumerate(s) if x == max(s)}


def _filler(n: int, c: str) -> str:
    return (c * n)[:n]


def test_length_rules_and_the_band_holder():
    # the key (100 chars) is neither longest nor shortest, and its +-25% band holds every other option
    lengths = [100, 76, 80, 90, 95, 105, 110, 120, 125]
    case = speech_case(_item([_filler(n, "abcdefgh"[i % 8]) for i, n in enumerate(lengths)]), None, _shown(), builtin_catalogue())
    assert _pick(case, "band-holder") == {0}
    assert case.rules["band-holder"][0] == 8
    assert _pick(case, "longest") == {8} and _pick(case, "shortest") == {1} and _pick(case, "median-length") == {0}
    assert credit(case, case.rules["band-holder"]) == 1.0 and credit(case, case.rules["longest"]) == 0.0
    assert len(case.rows[0]) == len(FEATURES) and case.rows[0][FEATURES.index("band")] == 8
    assert relational_columns([0], 3) == [0, 3, 6, 9, 12, 15]


def test_binding_follows_how_the_table_talks_about_a_seat():
    turns = ("I think seat 3 is a werewolf, clearly.", "Seat 3 is the wolf here.", "Seat 5 is good, seat 3 is a wolf.")
    texts = ["Seat 3 is a werewolf.", "Seat 3 is the seer."] + [f"We should wait and listen {i}." for i in range(7)]
    case = speech_case(_item(texts), None, _shown(turns), builtin_catalogue())
    assert _pick(case, "binding") == {0}
    assert case.rules["binding"][1] == 0.0
    assert _pick(case, "binding-count") == {0} and case.rules["binding-count"][0] == 3.0


def test_similarity_seat_and_punctuation_rules():
    turns = ("alpha beta gamma", "delta epsilon", "zeta eta theta iota kappa")
    own = ("seat 4 lies, seat 4 lies again",)
    texts = ["zeta eta theta iota kappa!", "Seat 4, seat 6, seat 7: all three?", "plain words here.", "more plain words.",
             "other plain words.", "some plain words.", "few plain words.", "many plain words.", "odd plain words."]
    case = speech_case(_item(texts, question="Who is lying, seat 4 or seat 6?"), None, _shown(turns, own), builtin_catalogue())
    assert _pick(case, "last3-most") == {0}
    assert _pick(case, "seats-most") == {1} and case.rules["seats-most"][1] == 3
    assert _pick(case, "own-seat-talk") == {1}
    assert _pick(case, "punct-most") == {1}
    assert _pick(case, "odd-ending") == {1}  # the one question mark; "!" ends a sentence like the seven full stops
    assert case.rules["own-most"] is not None and _speech_none_without_own()


def _speech_none_without_own() -> bool:
    case = speech_case(_item([f"text {i}." for i in range(9)]), None, _shown(("a b",)), builtin_catalogue())
    return case.rules["own-most"] is None  # nothing to compare with: the rule scores chance


def test_centroid_picks_the_option_like_the_others():
    texts = ["the wolves are seats two and five", "the wolves are seats two and nine", "the wolves are seats four and five",
             "the wolves are seats two and six", "the wolves are seats one and five", "zzzz qqqq xxxx", "the wolves are seats three and five",
             "the wolves are seats two and seven", "the wolves are seats eight and five"]
    case = speech_case(_item(texts), None, _shown(), builtin_catalogue())
    assert 5 not in _pick(case, "centroid-most") and _pick(case, "centroid-least") == {5}


def _ctx(turns, events=(), phases=(("day-1", "day", 1),), own_role="villager"):
    return SimpleNamespace(
        phases=tuple(SimpleNamespace(id=i, kind=k, day=d) for i, k, d in phases),
        utterances=tuple(SimpleNamespace(speaker=s, phase=p, text=t, is_self=False) for s, p, t in turns),
        public_events=tuple(SimpleNamespace(kind=k, target=t, actor=a, result=None) for k, t, a in events),
        own_role=own_role, own_faction="good")


def _decision(cands, seat=1, about=None, none=False, phase="day-1"):
    return SimpleNamespace(viewpoint_seat=seat, candidates=cands, about=about, phase=phase, none_allowed=none)


def test_vote_call_seer_and_sheriff_rules():
    turns = [(2, "day-1", "我是预言家，昨晚查杀7号。"), (3, "day-1", "我觉得5号很像狼，5号就是狼。"),
             (4, "day-1", "我是警长，归票6号。"), (5, "day-1", "5号是好人，投8号吧。")]
    item = _decision([2, 3, 4, 5, 6, 7, 8], none=True)
    options = [*item.candidates, NONE]
    rules, _ = seat_rules(item, _ctx(turns, events=[("sheriff_election", 4, None), ("vote", 3, 7), ("vote", 3, 8)]), options, None)
    one = lambda name: options[rules[name].index(1.0)]  # noqa: E731
    assert one("last-call") == 6  # the strict call: 归票, not 投
    assert one("last-call-loose") == 8
    assert one("seer-claimant") == 2 and one("seer-kill") == 7
    assert one("sheriff-pick") == 6
    assert options[rules["most-voted"].index(2.0)] == 3
    assert one("always-none") == NONE and rules["always-self"] is None  # seat 1 is not a candidate
    assert options[max(range(len(options)), key=lambda i: rules["most-accused"][i])] == 5


def test_night_one_save_never_later():
    for night, want in ((1, 9), (2, NONE)):
        item = _decision([9], about=9, none=True, phase=f"night-{night}")
        rules, _ = seat_rules(item, _ctx([], phases=((f"night-{night}", "night", night),)), [9, NONE], night)
        assert [9, NONE][rules["night1-save"].index(1.0)] == want


def test_claim_rules():
    turns = [(2, "day-1", "我是预言家，3号金水。"), (1, "day-1", "我是一个好人，我认为3号不是狼。")]
    item = SimpleNamespace(viewpoint_seat=1, candidates=["villager", "seer", "witch", "werewolf"], phase="day-1")
    rules, rows = claim_rules(item, _ctx(turns, own_role="witch"), builtin_catalogue())
    options = [NONE, *item.candidates]
    assert options[rules["own-role"].index(1.0)] == "witch"
    assert options[rules["counter-seer"].index(1.0)] == "seer"
    assert options[rules["last-claimed-role"].index(1.0)] == "seer"
    assert len(rows) == len(options)


def test_readers():
    assert seats("7号、十二号位和 seat 3，还有 3 号") == [7, 12, 3, 3]
    assert bound_seats("我们归票 5 号，别投2号", CALL_STRICT) == [5]
    assert bound_seats("9号查杀，我验的", CHECK_WOLF) == [9]


def test_scoring_ties_intervals_and_jaccard():
    case = Case("x", "g", list("abc"), {0})
    assert credit(case, [1, 1, 0]) == 0.5 and credit(case, None) == pytest.approx(1 / 3) and credit(case, [2, 2, 2]) == pytest.approx(1 / 3)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert random_jaccard(4, 2) == pytest.approx((4 / 6) * (1 / 3) + (1 / 6) * 1.0)
    s = Case("y", "g", [1, 2, 3, 4], {0, 1}, set_answer=True)
    assert credit(s, [3, 2, 1, 0]) == 1.0 and credit(s, [0, 1, 2, 3]) == 0.0


def test_learners_never_see_the_game_they_answer():
    cases = [Case(f"i{g}-{k}", f"g{g}", list(range(4)), {k}, rows=[[float(i == k), float(g)] for i in range(4)]) for g in range(7) for k in range(2)]
    folds, held = group_folds(cases, seed=3)
    assert held == "games" and all(len({f for c, f in zip(cases, folds) if c.group == g}) == 1 for g in {c.group for c in cases})

    def fitter(train, test, seed):
        assert not {c.group for c in train} & {c.group for c in test}
        return row_learner(redteam._model("lr"))(train, test, seed)

    preds = cross_fit(cases, fitter, seed=3)
    assert all(credit(c, p) == 1.0 for c, p in zip(cases, preds))  # the planted signal is learned from other games
    res = redteam.attack([Case(c.item_id, c.group, c.options, c.key, {"right": [r[0] for r in c.rows], "wrong": [0, 0, 0, 1]},
                               c.rows) for c in cases], ("wrong", "right"), {}, seed=0)
    assert res["right"]["accuracy"] == 1.0 and res["best-rule-cv"]["accuracy"] == 1.0


def test_seeded_learners_are_deterministic():
    cases = [Case(f"i{g}-{k}", f"g{g}", list(range(4)), {k}, {"r": [0, 1, 2, 3]}, rows=[[float(i == k) + 0.1 * g, float(i)] for i in range(4)])
             for g in range(6) for k in range(3)]
    learners = {"hgb": row_learner(redteam._model("hgb"))}
    assert redteam.attack(cases, ("r",), learners, seed=5) == redteam.attack(cases, ("r",), learners, seed=5)


def test_cli_on_the_bundled_sample(tmp_path, capsys):
    from werealign.dataset import bundled_sample_path

    assert redteam.main([f"sample={bundled_sample_path()}", "--json", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["sets"]["sample"]
    assert {"speech", "vote", "opponent"} <= set(report["kinds"])
    assert "band-holder" in report["kinds"]["speech"]["attacks"] and "| band-holder |" in capsys.readouterr().out
    assert redteam.main(["nonsense"]) == 2


def test_banked_vectorizers_are_sklearns_own_to_the_last_bit():
    """bench.redteam_speech.banked_vectorizer counts each text's n-grams once for every fit sharing a cache: the
    vocabulary and every matrix (fitted, transformed, pruned by min_df and max_features) are sklearn's, bit for bit,
    on invented texts mixing words and CJK characters, reused across fits as the cross-fitted learners reuse them."""
    import random

    import numpy as np
    from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer

    from bench.redteam_speech import banked_vectorizer

    rng = random.Random(5)
    alphabet = list("abcdefg hij,.!") + list("山水云风雨雪花草")

    def text() -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 50)))

    def same(a, b) -> bool:
        a, b = a.tocsr(), b.tocsr()
        return (a.dtype == b.dtype and a.shape == b.shape and a.indices.dtype == b.indices.dtype
                and all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("indptr", "indices", "data")))

    cache: dict = {}
    pool = [text() for _ in range(120)]
    for trial in range(24):
        train, test = rng.sample(pool, rng.randint(8, 60)), rng.sample(pool, 8) + [text() for _ in range(4)]
        limit = (None, 30, 100_000)[trial % 3]
        for base, params in ((TfidfVectorizer, {"sublinear_tf": True, "min_df": 2}), (CountVectorizer, {"min_df": 2, "binary": True})):
            grams = ((1, 3), (2, 3), (1, 4))[trial % 3]
            theirs = base(analyzer="char", ngram_range=grams, max_features=limit, **params)
            ours = banked_vectorizer(base, grams, cache, max_features=limit, **params)
            assert same(theirs.fit_transform(train), ours.fit_transform(train)), (trial, base)
            assert theirs.vocabulary_ == ours.vocabulary_
            assert same(theirs.transform(test), ours.transform(test)) and same(theirs.transform(train), ours.transform(train))
    assert len(cache) > len(pool)  # the texts were analysed into the shared cache, not apart
