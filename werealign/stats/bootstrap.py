"""95% intervals and paired comparisons by a cluster bootstrap over games and decodes.

Items cut from one game share its transcript, so they are not independent: resampling items would
make intervals too narrow. Each bootstrap replicate draws the games with replacement and, crossed
with them, the decode indices with replacement; a sample's weight is (times its game was drawn) x
(times its decode was drawn). The statistic is recomputed on the weighted samples exactly as
results.json computes it: a mean of per-sample scores, or (speech Avg) the unweighted mean over the
dimensions present of each dimension's mean. The interval is the 2.5 and 97.5 percentiles.

A paired comparison draws the games once for both models (the same items, so the game-to-game
variation cancels) and the decodes separately (each model's decodes are its own independent draws),
on the items both answered. The difference is significant when its 95% interval excludes 0; the
two-sided p-value is twice the smaller tail of the replicates around 0.

Everything is seeded from (seed, what is being estimated), so a table is byte-identical on rerun and
does not change when another model is added.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from werealign.stats.observation import Observation

DEFAULT_RESAMPLES = 2000
ALPHA = 0.05
# Below this many games a bootstrap has too few distinct resamples to mean anything (2 games: 3
# resamples, 4: 35, 5: 126): its interval is shown with a warning and never backs a significance mark.
MIN_GAMES = 5


@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    games: int  # clusters behind the interval


@dataclass(frozen=True)
class Comparison:
    difference: float  # a - b on the common items
    low: float
    high: float
    p_value: float
    significant: bool  # the interval excludes 0, over at least MIN_GAMES games
    items: int  # items both answered
    games: int = 0  # games those items come from


def derived_seed(seed: int, *parts: object) -> int:
    text = "\x1f".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


GroupOf = Callable[[Observation], object]


def _single(o: Observation) -> object:
    return None


def _tensors(obs: Sequence[Observation], games: list[str], group_of: GroupOf) -> tuple[np.ndarray, np.ndarray]:
    """Score sums and counts by (game, decode, group): every replicate is a reweighting of these."""
    decodes = sorted({o.decode for o in obs})
    groups = sorted({group_of(o) for o in obs}, key=repr)
    g_at = {g: i for i, g in enumerate(games)}
    d_at = {d: i for i, d in enumerate(decodes)}
    k_at = {k: i for i, k in enumerate(groups)}
    sums = np.zeros((len(games), len(decodes), len(groups)))
    counts = np.zeros_like(sums)
    for o in obs:
        at = (g_at[o.game_id], d_at[o.decode], k_at[group_of(o)])
        sums[at] += o.value
        counts[at] += 1
    return sums, counts


def _draws(rng: np.random.Generator, n: int, resamples: int) -> np.ndarray:
    return rng.multinomial(n, np.full(n, 1.0 / n), size=resamples).astype(float)


def _statistic(game_w: np.ndarray, decode_w: np.ndarray, sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Mean over groups present of each group's weighted mean, one value per replicate (row of weights)."""
    num = np.einsum("bg,bd,gdk->bk", game_w, decode_w, sums)
    den = np.einsum("bg,bd,gdk->bk", game_w, decode_w, counts)
    present = den > 0
    means = np.divide(num, den, out=np.zeros_like(num), where=present)
    return means.sum(axis=1) / present.sum(axis=1)


def point(obs: Sequence[Observation], group_of: GroupOf = _single) -> float:
    games = sorted({o.game_id for o in obs})
    sums, counts = _tensors(obs, games, group_of)
    return float(_statistic(np.ones((1, sums.shape[0])), np.ones((1, sums.shape[1])), sums, counts)[0])


def replicates(obs: Sequence[Observation], *, seed: int, resamples: int = DEFAULT_RESAMPLES,
               group_of: GroupOf = _single) -> np.ndarray:
    games = sorted({o.game_id for o in obs})
    sums, counts = _tensors(obs, games, group_of)
    rng = np.random.default_rng(seed)
    return _statistic(_draws(rng, sums.shape[0], resamples), _draws(rng, sums.shape[1], resamples), sums, counts)


def _percentiles(values: np.ndarray) -> tuple[float, float]:
    low, high = np.quantile(values, [ALPHA / 2, 1 - ALPHA / 2])
    return float(low), float(high)


def estimate(obs: Sequence[Observation], *, seed: int, resamples: int = DEFAULT_RESAMPLES,
             group_of: GroupOf = _single) -> Estimate | None:
    """The statistic with its 95% cluster-bootstrap interval; None without observations."""
    if not obs:
        return None
    low, high = _percentiles(replicates(obs, seed=seed, resamples=resamples, group_of=group_of))
    return Estimate(point(obs, group_of), low, high, len({o.game_id for o in obs}))


def compare(a: Sequence[Observation], b: Sequence[Observation], *, seed: int, resamples: int = DEFAULT_RESAMPLES,
            group_of: GroupOf = _single, common_items: bool = True) -> Comparison | None:
    """Paired cluster bootstrap of statistic(a) - statistic(b) on the items both answered; None if none.

    common_items=False: every item of each side (no item is on both, e.g. one variant per item drawn at
    random), the games still drawn once for both sides; `items` then counts the items of both."""
    common = {o.item_id for o in a} & {o.item_id for o in b}
    if common_items:
        a = [o for o in a if o.item_id in common]
        b = [o for o in b if o.item_id in common]
    else:
        common = {o.item_id for o in a} | {o.item_id for o in b}
    if not common or not a or not b:
        return None
    games = sorted({o.game_id for o in a} | {o.game_id for o in b})
    sums_a, counts_a = _tensors(a, games, group_of)
    sums_b, counts_b = _tensors(b, games, group_of)
    rng = np.random.default_rng(seed)
    game_w = _draws(rng, len(games), resamples)
    with np.errstate(invalid="ignore", divide="ignore"):  # see the NaN note below
        diff = (_statistic(game_w, _draws(rng, sums_a.shape[1], resamples), sums_a, counts_a)
                - _statistic(game_w, _draws(rng, sums_b.shape[1], resamples), sums_b, counts_b))
    if not common_items:  # a replicate that drew no game holding one side's items has no difference
        diff = diff[~np.isnan(diff)]
    low, high = _percentiles(diff)
    p = min(1.0, 2 * min(float(np.mean(diff <= 0)), float(np.mean(diff >= 0))))
    enough = len(games) >= MIN_GAMES
    return Comparison(point(a, group_of) - point(b, group_of), low, high, p, enough and (low > 0 or high < 0), len(common), len(games))
