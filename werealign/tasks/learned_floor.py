"""The learned shallow floors of a multiple-choice decision (issue 42): classifiers over shallow features of each
option, as the prompt shows the decision, cross-fitted with whole games held out.

A floor built from the rules somebody thought of misses the rules nobody listed; a learner over the features those
rules read (who named which option how often, the last call, claims so far, the night, the option's position, ...)
finds their best mix. Two learners, because each misses what the other finds:
- `learned`: a logistic regression (standardised features): any weighted vote of the rules;
- `learned-hgb`: shallow gradient-boosted trees (scikit-learn's HistGradientBoosting) over each feature raw and
  beside its place among the item's options (z-score, rank, distance from the median: werealign.shortcuts.ensemble's
  `relational`), so interactions ("the own role, but only in the election, only when nobody claimed yet") and
  comparisons between options count. The red team's boosted learner beat the logistic floor on `claim` (67.5 against
  65.3 on the release): a floor that is not at least every trivial learner overstates skill.
Each item is one group of rows (one per option, the key marked); a model fitted on the other games' items scores
every option, and the floor answers the best-scored one. Its score is the share of items it answers right.

With fewer than `MIN_GAMES` games, or no game with a key the model could learn from, there is nothing to hold out:
the floor is None (not computed), never a score fitted on the items it answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

MIN_GAMES = 3
FOLDS = 5
LEARNERS = ("learned", "learned-hgb")


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
    # games than the red team's 15-leaf trees: claim 67.5 against 65.9); no early stopping: one fit per seed
    return HistGradientBoostingClassifier(max_iter=60, learning_rate=0.1, max_leaf_nodes=8, min_samples_leaf=20, l2_regularization=1.0,
                                          early_stopping=False, random_state=seed)


_MODELS: dict[str, tuple[Callable[[int], object], bool]] = {"learned": (_logistic, False), "learned-hgb": (_boosted, True)}


def learned_floors(items: Sequence[OptionRows], seed: int = 0) -> dict[str, float | None]:
    """Each learner's share of items whose key its cross-fitted option scorer ranks first (ties: the first option)."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from werealign.shortcuts.ensemble import relational

    games = sorted({it.game_id for it in items})
    if len(games) < MIN_GAMES or not items:
        return dict.fromkeys(LEARNERS)
    folds = {g: i % min(FOLDS, len(games)) for i, g in enumerate(games)}
    wide = {id(it): relational(it.features) for it in items}
    right = dict.fromkeys(LEARNERS, 0)
    for fold in sorted(set(folds.values())):
        train = [it for it in items if folds[it.game_id] != fold]
        test = [it for it in items if folds[it.game_id] == fold]
        y = np.array([int(i == it.key) for it in train for i in range(len(it.features))])
        if len(set(y.tolist())) < 2:
            continue  # nothing to learn: these items count as missed (the floor is not flattered)
        for name, (make, relative) in _MODELS.items():
            rows = (lambda it: wide[id(it)]) if relative else (lambda it: np.array(it.features, dtype=float))
            # one thread: on a shared machine the boosting's OpenMP threads spin on busy cores (10x slower)
            with threadpool_limits(1):
                model = make(seed).fit(np.vstack([rows(it) for it in train]), y)
                p = model.predict_proba(np.vstack([rows(it) for it in test]))[:, 1]  # one call per fold: the items' rows stacked
            at = 0
            for it in test:
                n = len(it.features)
                right[name] += int(int(np.argmax(p[at:at + n])) == it.key)
                at += n
    return {name: round(n / len(items), 4) for name, n in right.items()}


def learned_floor(items: Sequence[OptionRows], seed: int = 0) -> float | None:
    """The logistic learner's floor alone (`learned`)."""
    return learned_floors(items, seed)["learned"]
