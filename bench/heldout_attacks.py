"""Attacks the generator and the filter were NOT built from, on released speech sets (issue 43).

    python bench/heldout_attacks.py DATASET_DIR [DATASET_DIR ...]     # from the checkout's root; prints JSON

Fixed rules (nothing fitted; ties count fractionally, as a random pick among the tied options would):
- `band-holds-all`: the option whose +-25% length band holds the most other options;
- `longest`, `shortest`, `median-length` (the option whose length is the middle of the nine);
- `binding-options`: the option whose (seat, role word) pairs the other options repeat most;
- `binding-transcript`: the option whose (seat, role word) pairs the shown transcript's turns hold most
  (one turn naming both);
- `seat-talk`: the option whose seats the shown transcript names most;
- `tfidf-last3`: the highest character 1-3-gram TF-IDF cosine with the last three shown turns.
Learners, 5 folds of whole games (GroupKFold), a family the filter does not use:
- `char-lr`: logistic regression (balanced classes) on character 1-3-gram TF-IDF of the option, fitted per fold;
- `rf-relational`: a random forest on relational statistics computed here (length, z-score, rank, distance
  from the median, band share, seats, roles, punctuation, TF-IDF likeness to the last three turns, the
  transcript and the viewpoint's own turns, each raw and z-scored within the item).
Each accuracy has a 95% interval from a bootstrap over games (items of a game share its transcript).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the checkout run from, not an installed werealign

BAND = 1.25
FOLDS = 5
_PUNCT = re.compile(r"[,，.。;；!！?？:：、…]")


def _credit(values: list[float], key: int, best=max) -> float:
    top = best(values)
    tied = [i for i, v in enumerate(values) if v == top]
    return 1 / len(tied) if key in tied else 0.0


def _cosines(ref: str, texts: list[str]) -> list[float]:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    if not ref.strip():
        return [0.0] * len(texts)
    vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True).fit([ref, *texts])
    return cosine_similarity(vec.transform([ref]), vec.transform(texts))[0].tolist()


def _pairs(text: str) -> set[tuple[int, str]]:
    from werealign.audit.seats import seats_named
    from werealign.audit.text import roles_named

    return {(s, r) for s in seats_named(text) for r in roles_named(text)}


def item_view(item, game):
    """What the rules and the relational statistics read of one item."""
    from werealign.audit.context import shown_at
    from werealign.audit.seats import seats_named
    from werealign.audit.text import roles_named, text_length

    shown = shown_at(game, item)
    texts = [o.text for o in item.options]
    key = [o.key for o in item.options].index(item.answer)
    lengths = [text_length(t) for t in texts]
    last3 = " ".join(shown.turns[-3:])
    turn_pairs = [_pairs(t) for t in shown.turns]
    turn_seats = [set(seats_named(t)) for t in shown.turns]
    pairs = [_pairs(t) for t in texts]
    stats = {
        "length": lengths,
        "band": [sum(L / BAND <= x <= L * BAND for j, x in enumerate(lengths) if j != i) for i, L in enumerate(lengths)],
        "seats": [len(set(seats_named(t))) for t in texts],
        "roles": [len(roles_named(t)) for t in texts],
        "punct": [len(_PUNCT.findall(t)) for t in texts],
        "last3": _cosines(last3, texts),
        "transcript": _cosines(shown.transcript, texts),
        "own": _cosines(shown.own, texts),
        "binding-options": [sum(len(p & q) for j, q in enumerate(pairs) if j != i) for i, p in enumerate(pairs)],
        "binding-transcript": [sum(len(p & tp) for tp in turn_pairs) for p in pairs],
        "seat-talk": [sum(s in ts for ts in turn_seats for s in set(seats_named(t))) for t in texts],
    }
    return texts, key, stats


def rules(key: int, stats: dict[str, list[float]]) -> dict[str, float]:
    lengths = stats["length"]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    median = lengths[order[len(order) // 2]]
    return {
        "band-holds-all": _credit(stats["band"], key),
        "longest": _credit(lengths, key),
        "shortest": _credit(lengths, key, min),
        "median-length": _credit([-abs(x - median) for x in lengths], key),
        "binding-options": _credit(stats["binding-options"], key),
        "binding-transcript": _credit(stats["binding-transcript"], key),
        "seat-talk": _credit(stats["seat-talk"], key),
        "tfidf-last3": _credit(stats["last3"], key),
    }


def relational(stats: dict[str, list[float]]):
    import numpy as np

    cols = ["length", "band", "seats", "roles", "punct", "last3", "transcript", "own"]
    a = np.asarray([stats[c] for c in cols], dtype=float).T
    sd = a.std(axis=0)
    z = (a - a.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    ranks = a.argsort(axis=0).argsort(axis=0) / 8
    med = np.abs(a - np.median(a, axis=0))
    return np.hstack([a, z, ranks, med])


def learners(items, views) -> dict[str, list[float]]:
    import numpy as np
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    texts = [t for texts, _, _ in views for t in texts]
    y = np.asarray([int(i == key) for texts, key, _ in views for i in range(len(texts))])
    item_of = np.asarray([n for n, (texts, _, _) in enumerate(views) for _ in texts])
    games = sorted({it.game_id for it in items})
    group = np.asarray([games.index(items[n].game_id) for n in item_of])
    X_rel = np.vstack([relational(stats) for _, _, stats in views])
    out = {"char-lr": [0.0] * len(items), "rf-relational": [0.0] * len(items)}
    for train, test in GroupKFold(n_splits=min(FOLDS, len(games))).split(X_rel, y, group):
        vec = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True).fit([texts[i] for i in train])
        lr = LogisticRegression(max_iter=2000, class_weight="balanced").fit(vec.transform([texts[i] for i in train]), y[train])
        rf = RandomForestClassifier(n_estimators=300, min_samples_leaf=5, random_state=0, n_jobs=1).fit(X_rel[train], y[train])
        scores = {"char-lr": lr.decision_function(vec.transform([texts[i] for i in test])), "rf-relational": rf.predict_proba(X_rel[test])[:, 1]}
        for name, s in scores.items():
            for n in np.unique(item_of[test]):
                rows = np.flatnonzero(item_of[test] == n)
                vals = s[rows].tolist()
                out[name][int(n)] = _credit(vals, int(np.flatnonzero(y[test][rows] == 1)[0]))
    return out


def interval(hits: list[float], games: list[str], resamples: int = 2000) -> tuple[float, float]:
    import numpy as np

    by = sorted(set(games))
    sums = np.asarray([sum(h for h, g in zip(hits, games) if g == x) for x in by])
    counts = np.asarray([sum(g == x for g in games) for x in by])
    rng = np.random.default_rng(43)
    w = rng.multinomial(len(by), np.full(len(by), 1 / len(by)), size=resamples)
    acc = (w @ sums) / np.maximum(w @ counts, 1)
    low, high = np.quantile(acc, [0.025, 0.975])
    return float(low), float(high)


def measure(root: Path) -> dict[str, object]:
    from werealign.dataset import load_dataset

    ds = load_dataset(root)
    items = [it for it in ds.speech if len(it.options) == 9]
    views = [item_view(it, ds.games.get(it.game_id)) for it in items]
    hits: dict[str, list[float]] = {}
    for _, key, stats in views:
        for name, h in rules(key, stats).items():
            hits.setdefault(name, []).append(h)
    hits |= learners(items, views)
    games = [it.game_id for it in items]
    attacks = {}
    for name, h in hits.items():
        low, high = interval(h, games)
        attacks[name] = {"accuracy": round(sum(h) / len(h), 4), "ci95": [round(low, 4), round(high, 4)]}
    worst = max(attacks, key=lambda a: attacks[a]["accuracy"])
    return {"dataset": str(root), "items": len(items), "games": len(set(games)), "dimensions": dict(sorted(Counter(it.dimension for it in items).items())),
            "strongest": worst, "strongest_accuracy": attacks[worst]["accuracy"], "attacks": attacks}


if __name__ == "__main__":
    print(json.dumps([measure(Path(p)) for p in sys.argv[1:]], ensure_ascii=False, indent=1))
