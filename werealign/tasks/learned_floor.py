"""The learned shallow floor of a multiple-choice decision (issue 42): a classifier over shallow features of each
option, as the prompt shows the decision, cross-fitted with whole games held out.

A floor built from the rules somebody thought of misses the rules nobody listed; a linear model over the features
those rules read (who named which option how often, the last call, claims so far, the night, the option's position,
...) finds their best mix, and any other that is a weighted vote of them. Each item is one group of rows (one per
option, the key marked); a logistic regression fitted on the other games' items scores every option, and the floor
answers the best-scored one. Its score is the share of items it answers right, like every other floor's.

With fewer than `MIN_GAMES` games, or no game with a key the model could learn from, there is nothing to hold out:
the floor is None (not computed), never a score fitted on the items it answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MIN_GAMES = 3
FOLDS = 5


@dataclass(frozen=True)
class OptionRows:
    """One item: its game (the fold unit), each option's features, the key's option index."""

    game_id: str
    features: list[list[float]]
    key: int


def learned_floor(items: Sequence[OptionRows], seed: int = 0) -> float | None:
    """The share of items whose key the cross-fitted option scorer ranks first (ties: the first option)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    games = sorted({it.game_id for it in items})
    if len(games) < MIN_GAMES or not items:
        return None
    folds = {g: i % min(FOLDS, len(games)) for i, g in enumerate(games)}
    right = 0
    for fold in sorted(set(folds.values())):
        train = [it for it in items if folds[it.game_id] != fold]
        test = [it for it in items if folds[it.game_id] == fold]
        x = np.array([f for it in train for f in it.features], dtype=float)
        y = np.array([int(i == it.key) for it in train for i in range(len(it.features))])
        if len(set(y.tolist())) < 2:
            continue  # nothing to learn: these items count as missed (the floor is not flattered)
        scaler = StandardScaler().fit(x)
        model = LogisticRegression(max_iter=2000, C=1.0, random_state=seed).fit(scaler.transform(x), y)
        for it in test:
            p = model.predict_proba(scaler.transform(np.array(it.features, dtype=float)))[:, 1]
            right += int(int(np.argmax(p)) == it.key)
    return round(right / len(items), 4)
