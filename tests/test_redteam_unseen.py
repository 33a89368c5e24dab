"""bench/redteam_unseen.py: the unseen attacks find a shortcut planted in invented items and stay near chance on items
without one (issue 43)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench import redteam  # noqa: E402
from bench.redteam_unseen import FEATURES, RULES, View, learners, ranked, seen_key, signed_by_inner_folds, unseen_case  # noqa: E402

WORDS = ("we", "should", "listen", "to", "the", "table", "today", "and", "vote", "carefully", "I", "think", "nobody",
         "knows", "yet", "maybe", "tomorrow", "watch", "who", "talks", "more", "quietly", "than", "before")
ROLES = {"seer": re.compile("seer", re.I), "werewolf": re.compile("wolf|werewolf", re.I)}


def _sentence(rng: random.Random, seats: bool = True) -> str:
    words = rng.sample(WORDS, rng.randint(5, 10))
    if seats and rng.random() < 0.6:
        words.insert(rng.randrange(len(words)), f"seat {rng.randint(1, 12)}")
    return " ".join(words).capitalize() + "."


def _view(rng: random.Random, viewpoint: int) -> View:
    speakers = [rng.randint(1, 12) for _ in range(6)] + [viewpoint]
    turns = [(s, " ".join(_sentence(rng) for _ in range(2))) for s in speakers]
    return View(turns=turns, viewpoint=viewpoint, sheriff=speakers[0], role_words=ROLES)


def _cases(plant: str | None, n_items: int = 90, games: int = 15, seed: int = 7):
    rng = random.Random(seed)
    cases, contexts = [], {}
    for i in range(n_items):
        texts = [" ".join(_sentence(rng) for _ in range(rng.randint(1, 3))) for _ in range(9)]
        k = rng.randrange(9)
        if plant == "ending":  # the key alone ends on "!": a rare last character
            texts[k] = texts[k][:-1] + "!"
        elif plant == "digits":  # the key names more seats than any distractor does (digits, a learner must find it)
            texts = [re.sub(r"seat \d+", "seat", t) for t in texts]
            texts[k] += f" Seat {rng.randint(1, 12)} and seat {rng.randint(1, 12)} and seat {rng.randint(1, 12)}."
        view = _view(rng, rng.randint(1, 12))
        item_id = f"t-{i}"
        cases.append(unseen_case(item_id, f"g{i % games}", texts, {k}, "What do you say now?", view))
        contexts[item_id] = " ".join(t for _, t in view.turns[-3:])
    return cases, contexts


def test_rules_read_what_they_say():
    texts = ["Seat 3 is the wolf, vote seat 3!", "Seat 3 is good.", "Seat 5 is good.", "Seat 7 is good.", "Seat 8 is good.",
             "Seat 9 is good.", "Seat 1 is good.", "Seat 2 is good.", "Seat 4 is good."]
    view = View(turns=[(4, "I suspect seat 3 is a wolf, vote seat 3 out."), (2, "Seat 3 is a wolf."), (6, "I am the seer.")],
                viewpoint=6, sheriff=2, role_words=ROLES)
    case = unseen_case("x", "g", texts, {0}, "As the seer, what do you say?", view)
    top = {r: {i for i, s in enumerate(case.rules[r]) if s == max(case.rules[r])} for r in RULES if case.rules[r] is not None}
    assert top["rare-last"] == {0} and top["digits-most"] == {0}
    assert top["accused-top"] == {0, 1} and case.rules["accused-sum"][0] == 3  # seat 3 accused in three clauses
    assert top["shared-seats"] == {0, 1}  # the only options sharing a seat (3) with another option
    assert top["sheriff-last"] == {0}  # the sheriff (2) said "Seat 3 is a wolf."
    assert case.rules["question-roles"] is not None and case.rules["order-anchor"] is not None
    assert len(case.rows) == 9 and len(case.rows[0]) == len(FEATURES)
    r = ranked(case.rows)
    assert all(0.0 <= x <= 1.0 for row in r for x in row)
    assert top["spoke-seats"] == {7, 8}  # seats 2 and 4 took a turn; seat 3 did not
    named = unseen_case("z", "g", ["Ben is right."] + texts[1:], {0}, "q", View(turns=view.turns, names=("Ben", "X")))
    assert named.rules["game-names"] == [1.0] + [0.0] * 8  # a one-letter name is too short to read
    bare = unseen_case("y", "g", texts, {0}, "q", View())  # no context: context rules read nothing (chance)
    assert bare.rules["sheriff-last"] is None and bare.rules["viewpoint-last"] is None and bare.rules["own-seat"] is None
    assert bare.rules["game-names"] is None and bare.rules["spoke-seats"] is None


def test_a_planted_rare_ending_is_found_by_the_rule_and_the_learners():
    cases, contexts = _cases("ending")
    res = redteam.attack(cases, ("rare-last", "digits-most"), {"hgb-ranked": learners(contexts)["hgb-ranked"]}, 0)
    assert res["rare-last"]["accuracy"] > 0.95
    assert res["best-rule-cv"]["accuracy"] > 0.95  # the rule that wins on the other games is chosen
    assert res["hgb-ranked"]["accuracy"] > 0.8


def test_a_planted_seat_count_is_found_by_ranked_and_pairwise_learners():
    cases, contexts = _cases("digits")
    found = learners(contexts)
    res = redteam.attack(cases, ("digits-most",), {k: found[k] for k in ("hgb-ranked", "pair-ranker", "lr-ranked")}, 0)
    for name in ("hgb-ranked", "pair-ranker", "lr-ranked"):
        assert res[name]["accuracy"] > 0.8, name


def test_every_attack_is_near_chance_without_a_shortcut():
    cases, contexts = _cases(None, n_items=162, games=27)  # enough items that chance's interval sits under 20%
    res = redteam.attack(cases, RULES, learners(contexts), 0)
    assert set(res) == set(RULES) | {"best-rule-cv"} | set(learners(contexts))
    for name, r in res.items():
        lo, hi = r["ci95"]
        assert r["accuracy"] < 0.2 and lo < 1 / 9, (name, r)


def test_a_learner_that_ranks_the_key_last_is_turned_round_on_the_training_games():
    cases, _ = _cases("digits")
    col = FEATURES.index("digits")

    def backwards(train, test, seed):  # the planted shortcut read the wrong way round
        return [[-r[col] for r in c.rows] for c in test]

    res = redteam.attack(cases, ("digits-most",), {"backwards": backwards, "signed": signed_by_inner_folds(backwards)}, 0)
    assert res["backwards"]["accuracy"] < 0.05 and res["signed"]["accuracy"] > 0.8


def test_seen_key_eliminates_other_games_keys_and_reads_nothing_without_reuse():
    rng = random.Random(3)
    keys = [f"Seat {rng.randint(1, 12)} " + _sentence(rng, seats=False) for _ in range(60)]
    cases = []
    for i, k in enumerate(keys):  # distractors: keys of items of other games, renumbered
        others = rng.sample([j for j in range(60) if j % 12 != i % 12], 8)
        texts = [re.sub(r"\d+", str(rng.randint(1, 12)), keys[j]) for j in others]
        texts.insert(i % 9, k)
        cases.append(unseen_case(f"t{i}", f"g{i % 12}", texts, {i % 9}, "q", View()))
    res = redteam.attack(cases, ("rare-last",), {"seen-key": seen_key}, 0)
    assert res["seen-key"]["accuracy"] > 0.5
    plain, _ = _cases(None)
    assert redteam.attack(plain, ("rare-last",), {"seen-key": seen_key}, 0)["seen-key"]["read"] == 0


def test_odd_rows_are_the_per_item_expression_to_the_last_bit():
    """bench.redteam_unseen.odd_rows computes every item's "row minus the mean of its siblings" at once; it must be the
    per-item sparse expression oddone-char was written with, bit for bit: items of one row, columns one row alone
    holds, rows equal to their siblings' mean (exact zeros, dropped), empty rows."""
    import numpy as np
    import scipy.sparse as sp

    from bench.redteam_unseen import odd_rows

    rng = np.random.default_rng(11)
    sizes = [9, 1, 4, 3, 7, 2, 9]  # n - 1 of 3 and 6 too: a division by it is not a product by its inverse
    dense = rng.random((sum(sizes), 40)) * (rng.random((sum(sizes), 40)) < 0.2)
    dense[1:4] = dense[0]  # equal rows: some differences are exact zeros
    dense[9] = 0.0  # an empty row (an item of one)
    dense[24:26] = 0.25  # an item (two rows) whose rows are all the same: each row is its siblings' mean, nothing kept
    m = sp.csr_matrix(dense)
    got = odd_rows(m, sizes)
    starts = np.cumsum([0] + sizes)
    for i, n in enumerate(sizes):
        part = m[starts[i]:starts[i + 1]]
        mean_others = (sp.csr_matrix(np.ones((n, 1))) @ sp.csr_matrix(part.sum(axis=0)) - part) / max(1, n - 1)
        want = sp.csr_matrix(part - mean_others)
        mine = got[starts[i]:starts[i + 1]]
        for field in ("indptr", "indices", "data"):
            assert np.array_equal(getattr(mine, field), getattr(want, field)), (i, field)
    assert got[24:26].nnz == 0 and got.shape == m.shape


def test_rank_fit_is_scipys_spearman_to_the_last_bit():
    """order-anchor's Spearman correlation (bench.redteam_unseen._rank_fit) skips scipy's per-call checks: it must give
    spearmanr's very floats, ties (shared mean ranks) and constant or NaN inputs (0) included."""
    import warnings

    from scipy.stats import spearmanr

    from bench.redteam_unseen import _rank_fit

    rng = random.Random(5)
    for _ in range(2000):
        size = rng.choice([3, 4, 8, 8, 9, 12])
        ys = rng.choice([[round(rng.random(), 1) for _ in range(size)], [abs(rng.random() - rng.random()) for _ in range(size)],
                         [float(rng.randint(0, 3)) for _ in range(size)]])
        xs = list(range(size)) if rng.random() < 0.7 else [float(rng.randint(0, 4)) for _ in range(size)]
        if len(set(xs)) < 2 or len(set(ys)) < 2:
            want = 0.0
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = float(spearmanr(xs, ys).statistic)
        assert _rank_fit(xs, ys) == want, (xs, ys)
    assert _rank_fit([0, 1, 2], [0.1, float("nan"), 0.3]) == 0.0 and _rank_fit([0, 1, 2], [1.0, 1.0, 1.0]) == 0.0
