"""The learned ensemble: strong attacks that read an item's options and what its prompt shows of the game,
trained on other games' items only. Generation keeps, of several candidate distractor sets per moment, the one
it finds least predictable (werealign.generation.choose); the audit and the filtered split report it.

Per option, the statistics an attack can compare (`STATS`; `option_stats`): length, clauses, the length
without the last clause, punctuation, seats and roles named, the first person, the share of other options
within LENGTH_BAND of its length (the band that holds all others), character TF-IDF likeness to the
transcript, its last turns, the viewpoint's own words and the other eight options, a seat named that is out,
how often the transcript names its seats, and how often the transcript binds its seats to its role words
(one turn naming both), and its likeness to the item's question. Each enters relative to its item (`relational`): raw, z-score, rank, and distance
from the item's median, so an attack learns "the one whose length is the median", not a length.

Members (`MEMBERS`): `gbm`, gradient boosting over the relational statistics; `chars-nb`, complement naive
Bayes over character 2-4-gram counts of the raw text. An item's predictability is the highest probability a
member gives its key (a softmax over its nine options); the ensemble's pick is the top of the members' mean.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from werealign.shortcuts.context import Shown
from werealign.shortcuts.seats import mentions
from werealign.shortcuts.text import roles_named, text_length
from werealign.schema import SpeechItem
from werealign.text.similarity import char_wb_ngrams, mean_cosines, tfidf_cosines, tfidf_cosines_counted

STATS = ("length", "clauses", "prefix", "punctuation", "seats", "roles", "first-person", "band-share", "transcript", "last-turns",
         "own-words", "centroid", "dead-seat", "seat-talk", "binding", "question")
MEMBERS = ("gbm", "chars-nb")
LENGTH_BAND = 1.25
_CLAUSE = re.compile(r"[,，.。;；!！?？:：、…]+")
_PUNCT = re.compile(r"[,，.。;；!！?？:：、…'\"“”‘’()（）-]")
_FIRST = re.compile(r"我|(?i:\b(?:i|me|my)\b)")


@lru_cache(maxsize=65536)
def _seats_roles(text: str) -> tuple[frozenset[int], frozenset[str]]:
    # cached: every item of a game reads the same transcript turns again
    return frozenset(m.seat for m in mentions(text)), roles_named(text)


@lru_cache(maxsize=4)  # a transcript's counts are large: the last few (a moment's candidates are consecutive)
def _counts(text: str) -> Counter[str]:
    # the candidates of a moment, and the items of a cut-off, read one transcript: counted once
    return Counter(char_wb_ngrams(text))


REFS = ("transcript", "last-turns", "own-words")


def option_stats(item: SpeechItem, shown: Shown, refs: dict[str, list[float]] | None = None) -> list[list[float]]:
    """One row of STATS per option (raw values). `refs`: see text_stats."""
    return text_stats([o.text for o in item.options], shown, item.question, refs)


def text_stats(texts: Sequence[str], shown: Shown, question: str = "", refs: dict[str, list[float]] | None = None) -> list[list[float]]:
    """One row of STATS per text, the texts read as one item's options (minimal pairs weigh candidate sets by them;
    without a question, its statistic is 0 for every text: a tie). `refs`: each of REFS -> the texts' cosines with it,
    when already computed (werealign.shortcuts.context.item_features computes the same numbers: the audit reads
    them from there instead of counting every transcript again)."""
    lengths = [text_length(t) for t in texts]
    if refs is None:
        refs = {name: (tfidf_cosines_counted(_counts(ref), texts, sublinear_tf=True) if ref.strip() else [0.0] * len(texts))
                for name, ref in zip(REFS, (shown.transcript, shown.last_turns, shown.own))}
    turns = [_seats_roles(t) for t in shown.turns]
    # cosines to 12 places: options equal but for float rounding (a minimal pair's seats) tie, and a tie ranks at random
    refs = {name: [round(x, 12) for x in v] for name, v in refs.items()}
    centroids = [round(x, 12) for x in mean_cosines(texts)]
    bands = band_shares(lengths)
    # a key answers its own question: an item whose distractors answer other questions (werealign.generation.keyswap)
    # would give it away by echoing the question's words
    asked = [round(x, 12) for x in tfidf_cosines(question, texts)] if question.strip() else [0.0] * len(texts)
    rows = []
    for i, t in enumerate(texts):
        seats, roles = _seats_roles(t)
        clauses = [c for c in _CLAUSE.split(t) if c.strip()]
        talk = sum(s in ts for ts, _ in turns for s in seats)
        binding = sum(s in ts and r in rs for ts, rs in turns for s in seats for r in roles)
        rows.append([float(lengths[i]), float(len(clauses)), float(text_length("".join(clauses[:-1]))), float(len(_PUNCT.findall(t))),
                     float(len(seats)), float(len(roles)), float(_FIRST.search(t) is not None), bands[i], refs["transcript"][i],
                     refs["last-turns"][i], refs["own-words"][i], centroids[i], float(any(s in shown.dead for s in seats)), float(talk),
                     float(binding), asked[i]])
    return rows


def band_shares(lengths: Sequence[float]) -> list[float]:
    """Per option, the share of the other options within LENGTH_BAND of its length."""
    out = []
    for i, n in enumerate(lengths):
        others = [x for j, x in enumerate(lengths) if j != i]
        out.append(sum(n / LENGTH_BAND <= x <= n * LENGTH_BAND for x in others) / max(1, len(others)))
    return out


def relational(rows: list[list[float]]):
    """Each statistic raw, as a z-score within the item, as a rank among the nine (0..1), and as its distance
    from the item's median (in the item's spread)."""
    import numpy as np

    a = np.asarray(rows, dtype=float)
    sd = a.std(axis=0)
    spread = np.where(sd > 0, sd, 1.0)
    z = (a - a.mean(axis=0)) / spread
    ranks = a.argsort(axis=0, kind="stable").argsort(axis=0) / max(1, len(rows) - 1)
    median = np.abs(a - np.median(a, axis=0)) / spread
    return np.hstack([a, z, ranks, median])


def _char_counts(texts: Sequence[str]):
    """Hashed character 2-4-gram counts, one row per text. Through the attacks' per-text memo of hashed rows (a row is
    its own text's alone): each fold's fit and prediction read rows hashed once, not again for every fold."""
    from sklearn.feature_extraction.text import HashingVectorizer

    from werealign.shortcuts.attacks import _hashed
    from werealign.shortcuts.text import normalise

    return _hashed([normalise(t) for t in texts], "ensemble-chars", None, lambda: HashingVectorizer(
        n_features=2**16, analyzer="char", ngram_range=(2, 4), alternate_sign=False, norm=None))


@dataclass
class Ensemble:
    """The members fitted on some items (never on the items they judge)."""
    models: dict[str, Any]

    def probs(self, items: Sequence[SpeechItem], stats: Sequence[list[list[float]]]) -> dict[str, list[list[float]]]:
        """Member -> per item, the probability of each option (a softmax of the member's scores over its options)."""
        import numpy as np

        out: dict[str, list[list[float]]] = {}
        if not items:
            return {m: [] for m in self.models}
        sizes = [len(it.options) for it in items]
        from threadpoolctl import threadpool_limits

        for name, model in self.models.items():
            if model is None:
                out[name] = [[1 / n] * n for n in sizes]
                continue
            if name == "gbm":
                X = np.vstack([relational(s) for s in stats])
                with threadpool_limits(1):
                    scores = model.decision_function(X)
            else:
                log = model.predict_log_proba(_char_counts([o.text for it in items for o in it.options]))
                scores = log[:, 1] - log[:, 0]
            out[name], at = [], 0
            for n in sizes:
                s = scores[at:at + n]
                e = np.exp(s - s.max())
                out[name].append((e / e.sum()).tolist())
                at += n
        return out


def fit(items: Sequence[SpeechItem], stats: Sequence[list[list[float]]], seed: int = 0) -> Ensemble:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.naive_bayes import ComplementNB
    from threadpoolctl import threadpool_limits

    y = np.asarray([int(o.key == it.answer) for it in items for o in it.options])
    if len(set(y.tolist())) < 2:
        return Ensemble(dict.fromkeys(MEMBERS))
    X = np.vstack([relational(s) for s in stats])
    # One thread: on a shared machine the boosting's OpenMP threads spun on busy cores (a fit of a few
    # thousand rows took 50 s instead of 1 s). Shallow trees, few rounds: a few thousand options.
    with threadpool_limits(1):
        gbm = HistGradientBoostingClassifier(max_iter=100, learning_rate=0.1, max_leaf_nodes=8, min_samples_leaf=20, l2_regularization=1.0,
                                             early_stopping=False, random_state=seed).fit(X, y)
    nb = ComplementNB().fit(_char_counts([o.text for it in items for o in it.options]), y)
    return Ensemble({"gbm": gbm, "chars-nb": nb})


def key_probability(item: SpeechItem, probs: dict[str, list[float]]) -> float:
    """The highest probability a member gives the key."""
    k = [o.key for o in item.options].index(item.answer)
    return max(p[k] for p in probs.values())


def picks_key(item: SpeechItem, probs: dict[str, list[float]]) -> bool:
    """Whether the members' mean probability is highest at the key (the first of tied options)."""
    n = len(item.options)
    mean = [sum(p[i] for p in probs.values()) / len(probs) for i in range(n)]
    return item.options[max(range(n), key=lambda i: (mean[i], -i))].key == item.answer


def fold_models(items: Sequence[SpeechItem], stats: Sequence[list[list[float]]], *, folds: int = 5, seed: int = 0) -> tuple[dict[str, int], dict[int, Ensemble]]:
    """Games dealt to folds (werealign.shortcuts.attacks), and per fold an ensemble fitted on the other folds' items."""
    from werealign.shortcuts.attacks import _fold_of

    fold, k = _fold_of(items, folds, seed) if len(items) >= 2 else ([0] * len(items), 1)
    game_fold = {it.game_id: f for it, f in zip(items, fold)}
    models = {}
    for f in range(k):
        train = [i for i in range(len(items)) if fold[i] != f]
        if train:
            models[f] = fit([items[i] for i in train], [stats[i] for i in train], seed)
    return game_fold, models


def cross_fitted(items: Sequence[SpeechItem], stats: Sequence[list[list[float]]], *, folds: int = 5, seed: int = 0) -> list[dict[str, list[float]]]:
    """Per item, each member's option probabilities from an ensemble fitted on the other folds' games only."""
    game_fold, models = fold_models(items, stats, folds=folds, seed=seed)
    out: list[dict[str, list[float]]] = [{m: [1 / len(it.options)] * len(it.options) for m in MEMBERS} for it in items]
    for f, model in models.items():
        test = [i for i, it in enumerate(items) if game_fold[it.game_id] == f]
        probs = model.probs([items[i] for i in test], [stats[i] for i in test])
        for n, i in enumerate(test):
            out[i] = {m: p[n] for m, p in probs.items()}
    return out
