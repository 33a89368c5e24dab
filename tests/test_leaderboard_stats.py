"""The cluster bootstrap against cases computed by hand; seeded; paired comparisons."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from werealign.stats import bootstrap as stats
from werealign.stats.observation import Observation


def obs(game: str, value: float, decode: int = 0, item: str | None = None, dimension: str | None = None) -> Observation:
    return Observation("vote", "base", item or f"{game}-{value}-{decode}", game, dimension, "villager", decode, value)


def distribution(values: np.ndarray) -> dict[float, float]:
    return {round(float(k), 6): n / len(values) for k, n in Counter(np.round(values, 6)).items()}


def test_games_are_resampled_as_clusters_by_hand():
    # Game A: 3 items, all right; game B: 1 item, wrong. Drawing 2 games with replacement:
    # AA (1/4) -> 3/3 = 1;  AB or BA (1/2) -> 3/4 = 0.75 (items pooled, so A weighs 3);  BB (1/4) -> 0.
    data = [obs("A", 1.0, item=f"a{i}") for i in range(3)] + [obs("B", 0.0, item="b")]
    reps = stats.replicates(data, seed=7, resamples=20000)
    dist = distribution(reps)
    assert set(dist) == {0.0, 0.75, 1.0}
    assert dist[1.0] == pytest.approx(0.25, abs=0.015)
    assert dist[0.75] == pytest.approx(0.5, abs=0.015)
    assert dist[0.0] == pytest.approx(0.25, abs=0.015)
    est = stats.estimate(data, seed=7, resamples=20000)
    # P(0) = 1/4 > 2.5% and P(1) = 1/4 > 2.5%: the 95% percentile interval is [0, 1], around 0.75.
    assert (est.value, est.low, est.high) == (0.75, 0.0, 1.0)


def test_decodes_are_resampled_too_by_hand():
    # One game, decode 0 right on both items and decode 1 wrong on both: items alone would give a zero-width
    # interval; drawing the 2 decodes gives 1 (1/4), 0.5 (1/2), 0 (1/4).
    data = [obs("A", 1.0, 0, "x"), obs("A", 1.0, 0, "y"), obs("A", 0.0, 1, "x"), obs("A", 0.0, 1, "y")]
    dist = distribution(stats.replicates(data, seed=3, resamples=20000))
    assert dist[0.5] == pytest.approx(0.5, abs=0.015) and dist[1.0] == pytest.approx(0.25, abs=0.015)


def test_macro_average_is_over_dimensions_present_by_hand():
    # Dimension X: 1 of 1 right; Y: 1 of 3 right. Macro = (1 + 1/3) / 2 = 2/3 (a pooled mean would be 1/2).
    data = [obs("A", 1.0, item="x", dimension="X")] + [obs("A", v, item=f"y{i}", dimension="Y") for i, v in enumerate((1.0, 0.0, 0.0))]
    assert stats.point(data, lambda o: o.dimension) == pytest.approx(2 / 3)
    assert stats.point(data) == pytest.approx(0.5)
    # With both in every replicate (one game, one decode) the macro statistic never moves.
    assert set(np.round(stats.replicates(data, seed=1, resamples=50, group_of=lambda o: o.dimension), 9)) == {round(2 / 3, 9)}


def test_same_seed_same_replicates():
    data = [obs(f"g{i % 5}", float(i % 3 == 0), i % 2, f"i{i}") for i in range(40)]
    assert np.array_equal(stats.replicates(data, seed=11, resamples=300), stats.replicates(data, seed=11, resamples=300))
    assert not np.array_equal(stats.replicates(data, seed=11, resamples=300), stats.replicates(data, seed=12, resamples=300))
    assert stats.derived_seed(0, "a", "b") == stats.derived_seed(0, "a", "b") != stats.derived_seed(0, "b", "a")


def test_paired_comparison():
    items = [(f"g{i % 6}", f"i{i}") for i in range(30)]
    a = [obs(g, 1.0, item=i) for g, i in items]
    same = stats.compare(a, list(a), seed=1, resamples=500)
    assert same.difference == 0 and (same.low, same.high) == (0.0, 0.0) and not same.significant and same.p_value == 1.0
    b = [obs(g, float(n % 3 == 0), item=i) for n, (g, i) in enumerate(items)]
    better = stats.compare(a, b, seed=1, resamples=500)
    assert better.significant and better.difference == pytest.approx(1 - 10 / 30) and better.p_value < 0.01
    assert better.items == 30
    # Only common items are compared: extra items of one model do not move the difference.
    extra = stats.compare(a + [obs("g9", 0.0, item="only-a")], b, seed=1, resamples=500)
    assert extra.difference == better.difference and extra.items == 30
    assert stats.compare(a, [obs("g1", 1.0, item="other")], seed=1) is None


def test_pairing_removes_game_to_game_variation():
    # Games differ a lot in difficulty, and model a is ahead by exactly one item in every game: unpaired
    # intervals overlap, yet the paired difference is always positive.
    a, b = [], []
    for g in range(8):
        right = 1 + 3 * (g % 3)  # 1, 4 or 7 of 10 items right for b
        for k in range(10):
            b.append(obs(f"g{g}", float(k < right), item=f"{g}-{k}"))
            a.append(obs(f"g{g}", float(k < right + 1), item=f"{g}-{k}"))
    ea, eb = stats.estimate(a, seed=1, resamples=1000), stats.estimate(b, seed=1, resamples=1000)
    assert ea.low < eb.high  # the separate intervals overlap
    c = stats.compare(a, b, seed=1, resamples=1000)
    assert c.significant and c.low == pytest.approx(0.1) and c.high == pytest.approx(0.1)
