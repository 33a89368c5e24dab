"""Adversarial filtering of speech items, in the manner of AFLite (Sakaguchi et al., WinoGrande) and
Le Bras et al. 2020: keep only the items an ensemble of options-only attacks cannot answer.

Each round, every attack in `attacks` (a feature family and a learner, werealign.shortcuts.attacks) is
cross-fitted `partitions` times (games dealt to folds differently by the seed each time), so every
item is scored `len(attacks) x partitions` times by models that never saw its game, once with the
attacks trained on the whole dataset and once refitted on the current pool. An item's
predictability is the highest probability any of those scorings gives its key (not the share of
top-1 hits: a key an attack ranks a close second is answerable too). The most predictable items (at
most `slice_share` of the pool per round, and only those at or above `threshold`) are removed and
the pool's attacks are refitted on the rest, until no item reaches the threshold. Items that leak
(werealign.shortcuts.leaks) are removed first: a filter cannot make them fair. Attacks that read the game
count too (werealign.shortcuts.context): an item whose key the learned context attack, cross-fitted over the
whole dataset with games held out, gives at least the threshold is as answerable. The split is then
measured with attacks the filter did not use (`verify`), and with every context attack, the single
ones the filter never read among them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from werealign.shortcuts.attacks import cross_fitted_probs, key_probs, top1_hits
from werealign.shortcuts.checks import key_longest_rate
from werealign.schema import SpeechItem

METHOD = "aflite"
# The filter's attacks, (feature family, learner); `verify` uses the "words" family, which none of them reads.
ATTACKS = (("chars", "lr"), ("chars", "nb"), ("lengths", "lr"))
PARTITIONS = 2
# Predictability (the best attack's probability of the key) at which an item counts as answerable:
# 1.35 x chance. On the WereBench release a looser 0.2 kept items that word-feature attacks trained on
# the other games still answered 37-39% of the time (see BENCHMARKS.md).
THRESHOLD = 0.15
SLICE_SHARE = 0.2  # at most this share of the pool removed per round: later rounds refit on the rest
# Below this many items a refit on the pool overfits: on the release, refits on 14-37 items still gave
# keys 0.15-0.29 and cut the split to 13 items. The dataset-wide scorings alone decide there.
MIN_REFIT = 100


@dataclass
class FilterResult:
    kept: list[SpeechItem]
    removed: dict[str, str]  # item id -> why
    rounds: list[dict[str, Any]] = field(default_factory=list)
    # of the items that do not leak, how many each release-wide attack alone reaches the threshold on
    # (an item can fall to several): which filter makes the split small
    reached_by: dict[str, int] = field(default_factory=dict)


def predictability(items: Sequence[SpeechItem], attacks: Sequence[tuple[str, str]], partitions: int, seed: int) -> list[float]:
    """Per item, the highest probability any of `len(attacks) x partitions` cross-fitted scorings gives
    its key: an item is as answerable as its best attack makes it (chance: 1/9)."""
    best = [0.0] * len(items)
    for family, learner in attacks:
        for r in range(partitions):
            for i, p in enumerate(key_probs(items, cross_fitted_probs(items, family, seed=seed * 1000 + r, learner=learner))):
                best[i] = max(best[i], p)
    return best


def adversarial_filter(items: Sequence[SpeechItem], leaks: dict[str, list[str] | None], *, seed: int = 0,
                       attacks: Sequence[tuple[str, str]] = ATTACKS, partitions: int = PARTITIONS, threshold: float = THRESHOLD,
                       slice_share: float = SLICE_SHARE, context: dict[str, float] | None = None,
                       learned: dict[str, float] | None = None) -> FilterResult:
    """`items`: every speech item of the dataset (all of them train the release-wide attacks);
    `leaks`: item id -> leak reasons (the audit's: leaks and hidden roles alike), None when the item could
    not be checked; `context`: item id -> the learned context attack's probability of its key; `learned`:
    item id -> the learned ensemble's (werealign.shortcuts.ensemble, the highest of its members')."""
    removed: dict[str, str] = {}
    pool = []
    for it in items:
        why = leaks.get(it.item_id)
        if why is None:
            removed[it.item_id] = "its game is not in the dataset: leaks not checkable"
        elif why:
            removed[it.item_id] = "leak: " + "; ".join(why)
        else:
            pool.append(it)
    # An attacker may train on the whole release (every item of the other games, removed ones too):
    # those scorings do not change as the pool shrinks, so they are made once. The pool-trained ones
    # are refitted each round, as in AFLite, to find what the remaining items still share.
    each = {f"{family}-{learner}": predictability(items, [(family, learner)], partitions, seed) for family, learner in attacks}
    release = {it.item_id: max(p[i] for p in each.values()) for i, it in enumerate(items)}
    clean = {it.item_id for it in pool}
    reached = {name: sum(p[i] >= threshold for i, it in enumerate(items) if it.item_id in clean) for name, p in each.items()}
    for name, scores in (("context-learned", context), ("ensemble", learned)):
        if scores is None:
            continue
        for item_id, p in scores.items():
            if item_id in release:
                release[item_id] = max(release[item_id], p)
        reached[name] = sum(p >= threshold for item_id, p in scores.items() if item_id in clean)
    rounds = []
    while pool:
        # Too small a pool to refit on: the release-wide scorings alone decide.
        own = predictability(pool, attacks, partitions, seed + len(rounds) + 1) if len(pool) >= MIN_REFIT else [0.0] * len(pool)
        scores = [max(release[it.item_id], s) for it, s in zip(pool, own)]
        ranked = sorted(((s, it.item_id, i) for i, (s, it) in enumerate(zip(scores, pool)) if s >= threshold), key=lambda t: (-t[0], t[1]))
        cut = ranked[: max(1, math.ceil(slice_share * len(pool)))]
        if not cut:
            break
        for s, item_id, _ in cut:
            removed[item_id] = f"answerable without the game: predictability {s:.2f} in round {len(rounds) + 1}"
        drop = {i for _, _, i in cut}
        rounds.append({"round": len(rounds) + 1, "pool": len(pool), "removed": len(drop), "max_predictability": round(cut[0][0], 4)})
        pool = [it for i, it in enumerate(pool) if i not in drop]
    return FilterResult(kept=pool, removed=removed, rounds=rounds, reached_by=reached)


# The split is tested with attacks the filter did not use: word (CJK: character) 1-2-grams with
# length and punctuation features, by a logistic regression and by a naive Bayes model, each trained
# on every item of the other games (the removed ones too: an attacker may hold the whole release).
INDEPENDENT = (("words", "lr"), ("words", "nb"))


def verify(kept: Sequence[SpeechItem], items: Sequence[SpeechItem], games: dict | None = None, context: Any = None) -> dict[str, Any]:
    """Top-1 accuracy on the kept items of each independent attack (the headline `top1` is the
    strongest), the kept items' key-longest rate, the kept items per dimension, and (with `games`)
    every context attack's accuracy on them (`context_top1` the strongest). `context`: the context attacks
    already fitted on `items` with `games` (the audit's, werealign.audit.AuditReport.context), else fitted here."""
    if not kept:
        return {"items": 0, "top1": None, "key_longest": None, "attacks": {}, "by_dimension": {}}
    ids = {it.item_id for it in kept}
    attacks = {}
    for family, learner in INDEPENDENT:
        on_release = top1_hits(items, cross_fitted_probs(items, family, learner=learner))
        attacks[f"{family}-{learner}"] = round(sum(h for h, it in zip(on_release, items) if it.item_id in ids) / len(kept), 4)
    dims: dict[str, int] = {}
    for it in kept:
        dims[it.dimension] = dims.get(it.dimension, 0) + 1
    out = {"items": len(kept), "top1": max(attacks.values()), "key_longest": round(key_longest_rate(kept), 4), "attacks": attacks,
           "by_dimension": dict(sorted(dims.items()))}
    if games is not None:
        from werealign.shortcuts.context import context_attacks

        ctx = context_attacks(items, games) if context is None else context
        keep = [i for i, it in enumerate(items) if it.item_id in ids]
        accs = {a: round(sum(ctx.hits(items, a)[i] for i in keep) / len(keep), 4) for a in ctx.probs}
        out["context"] = accs
        out["context_top1"] = max(accs.values())
    return out


def filter_note(result: FilterResult, *, seed: int, attacks: Sequence[tuple[str, str]], partitions: int, threshold: float, slice_share: float,
                total: int, independent: dict[str, Any]) -> dict[str, Any]:
    """How the split was made, for its dataset.json: enough to make it again."""
    leaked = sum(why.startswith("leak") for why in result.removed.values())
    return {
        "method": METHOD,
        "seed": seed,
        "attacks": [f"{family}-{learner}" for family, learner in attacks],
        "partitions": partitions,
        "threshold": threshold,
        "slice_share": slice_share,
        "counts": {"speech_in": total, "speech_kept": len(result.kept), "removed_leak": leaked,
                   "removed_answerable": len(result.removed) - leaked, "rounds": len(result.rounds),
                   "answerable_by": dict(result.reached_by)},
        "independent_attack": independent,
    }
