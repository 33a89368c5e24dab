"""The learned shallow floors of a multiple-choice decision (issue 42): classifiers over shallow features of each
option, as the prompt shows the decision, cross-fitted with whole games held out.

A floor built from the rules somebody thought of misses the rules nobody listed; a learner over the features those
rules read (who named which option how often, the last call, claims so far, the night, the option's position, ...)
finds their best mix. Two learners, because each misses what the other finds, and their mix:
- `learned`: a logistic regression (standardised features): any weighted vote of the rules;
- `learned-hgb`: shallow gradient-boosted trees (scikit-learn's HistGradientBoosting) over each feature raw and
  beside its place among the item's options (z-score, rank, distance from the median: werealign.shortcuts.ensemble's
  `relational`), so interactions ("the own role, but only in the election, only when nobody claimed yet") and
  comparisons between options count;
- `learned-mix`: the mean of the two learners' option scores.
Each item is one group of rows (one per option, the key marked); a model fitted on the other games' items scores
every option, and the floor answers the best-scored one. Its score is the share of items it answers right.

Robust, not lucky (issue 42): which games share a fold moved a single cross-fit by about 1 point on `claim` and up to
25 points on `badge` (20 items). So each learner is fitted on `SEEDS` draws of the folds (games shuffled by the seed,
dealt to `FOLDS` folds) and an item's option scores are the mean over the draws: every score still comes from a model
that never saw the item's game (bagging over fold draws). `learned_report` also gives each single draw's score, the spread
a report prints beside the floor.

With fewer than `MIN_GAMES` games, or no game with a key the model could learn from, there is nothing to hold out:
the floor is None (not computed), never a score fitted on the items it answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

MIN_GAMES = 3
FOLDS = 5
# fold draws averaged: on the release's claim items three draws still moved the bagged floor by 0.8 points between
# seed triples (67.7-68.5), five by less (BENCHMARKS.md); each draw costs one more fit per fold
SEEDS = (0, 1, 2, 3, 4)
LEARNERS = ("learned", "learned-hgb", "learned-mix")
_FITTED = LEARNERS[:2]


@dataclass(frozen=True)
class OptionRows:
    """One item: its game (the fold unit), each option's features, the key's option index."""

    game_id: str
    features: list[list[float]]
    key: int


def _logistic(seed: int):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, C=1.0, random_state=seed))


def _boosted(seed: int):
    from sklearn.ensemble import HistGradientBoostingClassifier

    # small trees, few rounds: a few thousand option rows (on the release, leaves of 20 rows generalised better across
    # games than the red team's 15-leaf trees: claim 67.5 against 65.9); no early stopping: one fit per fold
    return HistGradientBoostingClassifier(max_iter=60, learning_rate=0.1, max_leaf_nodes=8, min_samples_leaf=20, l2_regularization=1.0,
                                          early_stopping=False, random_state=seed)


_MODELS: dict[str, tuple[Callable[[int], object], bool]] = {"learned": (_logistic, False), "learned-hgb": (_boosted, True)}


def fold_of(games: Sequence[str], seed: int, folds: int = FOLDS) -> dict[str, int]:
    """Each game's fold in one draw: the games (sorted) shuffled by the seed, dealt round-robin."""
    order = sorted(games)
    random.Random(seed).shuffle(order)
    return {g: i % min(folds, len(order)) for i, g in enumerate(order)}


def _draw(items: Sequence[OptionRows], wide: dict, seed: int) -> dict[str, list]:
    """One fold draw: per fitted learner, each item's option scores (None where its fold had nothing to learn)."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    folds = fold_of({it.game_id for it in items}, seed)
    out: dict[str, list] = {name: [None] * len(items) for name in _FITTED}
    for fold in sorted(set(folds.values())):
        train = [it for it in items if folds[it.game_id] != fold]
        test = [i for i, it in enumerate(items) if folds[it.game_id] == fold]
        y = np.array([int(i == it.key) for it in train for i in range(len(it.features))])
        if len(set(y.tolist())) < 2 or not test:
            continue  # nothing to learn: these items count as missed (the floor is not flattered)
        for name, (make, relative) in _MODELS.items():
            rows = (lambda it: wide[id(it)]) if relative else (lambda it: np.array(it.features, dtype=float))
            # one thread: on a shared machine the boosting's OpenMP threads spin on busy cores (10x slower)
            with threadpool_limits(1):
                model = make(0).fit(np.vstack([rows(it) for it in train]), y)
                p = model.predict_proba(np.vstack([rows(items[i]) for i in test]))[:, 1]  # one call per fold: rows stacked
            at = 0
            for i in test:
                n = len(items[i].features)
                out[name][i] = p[at:at + n]
                at += n
    return out


def _right(scores, it: OptionRows) -> int:
    import numpy as np

    return 0 if scores is None else int(int(np.argmax(scores)) == it.key)  # ties: the first option


def _draws(items: Sequence[OptionRows], seeds: Sequence[int]) -> list[dict[str, list]] | None:
    from werealign.shortcuts.ensemble import relational

    if len({it.game_id for it in items}) < MIN_GAMES or not items:
        return None
    wide = {id(it): relational(it.features) for it in items}
    # a draw's models depend on its partition of the games only (the learners are deterministic): with no more games
    # than folds every draw is the same partition (a game per fold), fitted once
    done: dict[tuple, dict[str, list]] = {}
    draws = []
    games = {it.game_id for it in items}
    for seed in seeds:
        folds = fold_of(games, seed)
        key = tuple(sorted(tuple(sorted(g for g in folds if folds[g] == f)) for f in set(folds.values())))
        draws.append(done[key] if key in done else done.setdefault(key, _draw(items, wide, seed)))
    for d in draws:  # the mix: the two learners' scores of an item averaged (None where either had nothing to learn)
        d["learned-mix"] = [None if a is None or b is None else (a + b) / 2 for a, b in zip(d["learned"], d["learned-hgb"])]
    return draws


def learned_report(items: Sequence[OptionRows], seeds: Sequence[int] = SEEDS) -> tuple[dict[str, float | None], dict[str, list[float] | None]]:
    """Each learner's floor (the share of items whose key its option scores, averaged over the fold draws, rank first)
    and its spread: its score on each single draw, no averaging (how much a floor of one draw moves with the draw)."""
    draws = _draws(items, seeds)
    if draws is None:
        return dict.fromkeys(LEARNERS), dict.fromkeys(LEARNERS)
    floors, spread = {}, {}
    for name in LEARNERS:
        right = 0
        for i, it in enumerate(items):
            got = [d[name][i] for d in draws if d[name][i] is not None]
            right += _right(sum(got) / len(got) if got else None, it)
        floors[name] = round(right / len(items), 4)
        spread[name] = [round(sum(_right(d[name][i], it) for i, it in enumerate(items)) / len(items), 4) for d in draws]
    return floors, spread


def learned_floors(items: Sequence[OptionRows], seeds: Sequence[int] = SEEDS) -> dict[str, float | None]:
    """Each learner's floor (see learned_report)."""
    return learned_report(items, seeds)[0]


def learned_floor(items: Sequence[OptionRows], seed: int = 0) -> float | None:
    """The logistic learner's floor alone (`learned`) on one fold draw."""
    return learned_floors(items, (seed,))["learned"]
