"""Options-only attacks: classifiers that see only an item's nine options (never the question or the
game), cross-fitted so every item is scored by a model trained only on OTHER games.

Feature families (`FAMILIES`), so that a filter built with some can be tested with another:
- `words`: word (CJK: character) 1-2-grams plus length, length rank and punctuation; the audit's
  `options-only` check and the independent attack on a filtered split;
- `chars`: character 2-4-grams of the raw text, nothing else;
- `lengths`: length, length rank, longest/shortest flags only.

Learners (`LEARNERS`): `lr`, a logistic regression on all the family's features; `nb`, a complement
naive Bayes on the family's n-gram counts alone (a different model of the same text).
"""

from __future__ import annotations

import re
from functools import lru_cache
from collections.abc import Sequence
from typing import Any

from werealign.shortcuts.verdicts import CHANCE, MIN_ITEMS, Check, rate_verdict, skip
from werealign.shortcuts.text import normalise, text_length, tokens
from werealign.schema import SpeechItem

FAMILIES = ("words", "chars", "lengths")
LEARNERS = ("lr", "nb")
FOLDS = 5
_PUNCT = re.compile(r"[,，;；:：、]")


def _length_rows(item: SpeechItem) -> list[list[float]]:
    return [list(row) for row in _length_rows_of(tuple(o.text for o in item.options))]


@lru_cache(maxsize=8192)  # the audit and its filter build an item's rows ~50 times (each attack, each filter round)
def _length_rows_of(texts: tuple[str, ...]) -> tuple[tuple[float, ...], ...]:
    lengths = [text_length(t) for t in texts]
    mean = sum(lengths) / len(lengths)
    spread = (sum((x - mean) ** 2 for x in lengths) / len(lengths)) ** 0.5 or 1.0
    ranks = sorted(range(len(lengths)), key=lambda i: lengths[i])
    return tuple(((lengths[i] - mean) / spread, ranks.index(i) / (len(lengths) - 1), float(lengths[i] == max(lengths)),
                  float(lengths[i] == min(lengths))) for i in range(len(lengths)))


@lru_cache(maxsize=16384)  # per option text: the filter builds every option's row ~50 times (each attack and round)
def _punct(text: str) -> float:
    return len(_PUNCT.findall(text)) / 3


@lru_cache(maxsize=16384)
def _read(text: str, words: bool) -> str:
    """An option as its family's vectoriser reads it: its tokens (words), or its normalised text (chars)."""
    return " ".join(tokens(text)) if words else normalise(text)


def option_features(items: Sequence[SpeechItem], family: str = "words", *, counts_only: bool = False) -> tuple[Any, list[int], list[int]]:
    """One row per option in `family`'s features; labels 1 for the key; groups = the item's index.
    `counts_only`: the n-gram counts alone, unnormalised (for naive Bayes)."""
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction.text import HashingVectorizer

    if family not in FAMILIES:
        raise ValueError(f"unknown attack family {family!r}")
    numeric, labels, groups, texts = [], [], [], []
    words = family == "words"
    for g, it in enumerate(items):
        for o, row in zip(it.options, _length_rows(it)):
            numeric.append(row + [_punct(o.text)] if words else row)
            texts.append(_read(o.text, words))
            labels.append(int(o.key == it.answer))
            groups.append(g)
    norm = None if counts_only else "l2"
    parts = [csr_matrix(numeric)] if family != "chars" and not counts_only else []
    if family == "words":
        parts.append(_hashed(texts, family, norm, lambda: HashingVectorizer(n_features=2**14, ngram_range=(1, 2), alternate_sign=False, norm=norm,
                                                                             token_pattern=r"\S+")))
    elif family == "chars":
        parts.append(_hashed(texts, family, norm, lambda: HashingVectorizer(n_features=2**16, analyzer="char", ngram_range=(2, 4),
                                                                             alternate_sign=False, norm=norm)))
    return hstack(parts).tocsr(), labels, groups


# (family, norm) -> text -> its hashed row (indices, data). A HashingVectorizer's rows are each its own text's alone, so a
# row hashed once is reused: the audit and its filter hash the same few thousand options ~50 times (19 s of a 60 s
# audit of the release). Bounded: cleared when it holds more than _HASHED_MAX texts.
_HASHED: dict[tuple[str, str | None], dict[str, tuple[Any, Any]]] = {}
_HASHED_MAX = 50_000  # a chars row is ~2 kB: at most ~100 MB; the release fills under 25,000 (4,833 options, 5 family-norm pairs: the ensemble's chars among them)


def _hashed(texts: list[str], family: str, norm: str | None, vectorizer) -> Any:
    """The vectorizer's transform of `texts`, the same matrix, from rows hashed once per text."""
    import numpy as np
    from scipy.sparse import csr_matrix

    if sum(map(len, _HASHED.values())) > _HASHED_MAX:
        _HASHED.clear()
    rows = _HASHED.setdefault((family, norm), {})
    new = list(dict.fromkeys(t for t in texts if t not in rows))
    if new:
        m = vectorizer().transform(new)
        for i, t in enumerate(new):
            lo, hi = m.indptr[i], m.indptr[i + 1]
            rows[t] = (m.indices[lo:hi].copy(), m.data[lo:hi].copy())
        n_features = m.shape[1]
    else:
        n_features = vectorizer().n_features
    got = [rows[t] for t in texts]
    indptr = np.zeros(len(got) + 1, dtype=np.int32)
    np.cumsum([len(ix) for ix, _ in got], out=indptr[1:])
    indices = np.concatenate([ix for ix, _ in got]) if got else np.zeros(0, dtype=np.int32)
    data = np.concatenate([d for _, d in got]) if got else np.zeros(0)
    return csr_matrix((data, indices, indptr), shape=(len(texts), n_features))


def _fold_of(items: Sequence[SpeechItem], folds: int, seed: int | None) -> tuple[list[int], int]:
    """A fold per item: whole games held out (games dealt to folds in order, or shuffled by `seed`);
    with fewer games than two folds, single items (stated by the caller as not cross-game)."""
    import random

    games = sorted({it.game_id for it in items})
    if len(games) >= 2:
        if seed is not None:
            random.Random(seed).shuffle(games)
        k = min(folds, len(games))
        fold = {g: i % k for i, g in enumerate(games)}
        return [fold[it.game_id] for it in items], k
    k = min(folds, len(items))
    return [i % k for i in range(len(items))], k


def _fit_scores(learner: str, X, y, X_test):
    if learner == "nb":
        from sklearn.naive_bayes import ComplementNB

        log = ComplementNB().fit(X, y).predict_log_proba(X_test)
        return log[:, 1] - log[:, 0]
    from sklearn.linear_model import LogisticRegression

    # The dual problem reaches the same optimum, dozens of times faster when features outnumber rows
    # (hashed n-grams: 2 s -> 0.06 s per fit of a few thousand options).
    dual = X.shape[1] > X.shape[0]
    # random_state: liblinear's dual solver visits the rows in a random order; unseeded it drew from numpy's global
    # state, so the same audit gave artifact scores differing in the 4th decimal from one process to the next.
    return LogisticRegression(C=1.0, max_iter=1000, solver="liblinear", dual=dual, random_state=0).fit(X, y).decision_function(X_test)


def cross_fitted_probs(items: Sequence[SpeechItem], family: str = "words", *, folds: int = FOLDS, seed: int | None = None,
                       learner: str = "lr") -> list[list[float]]:
    """Per item, the probability the attack gives each option (a softmax of the learner's scores over
    the nine), from a model fitted on the other folds' games only."""
    # What the probabilities depend on, by content: the audit's words attack is asked again by the split's verify.
    key = (family, folds, seed, learner, tuple((it.item_id, it.game_id, it.answer, tuple((o.key, o.text) for o in it.options)) for it in items))
    if key not in _FITTED:
        _FITTED[key] = _cross_fitted_probs(items, family, folds=folds, seed=seed, learner=learner)
        while len(_FITTED) > 4:
            del _FITTED[next(iter(_FITTED))]
    return [list(p) for p in _FITTED[key]]


_FITTED: dict[tuple, list[list[float]]] = {}  # the last few cross_fitted_probs, by their inputs' content


def _cross_fitted_probs(items: Sequence[SpeechItem], family: str, *, folds: int, seed: int | None, learner: str) -> list[list[float]]:
    import numpy as np

    if learner not in LEARNERS:
        raise ValueError(f"unknown learner {learner!r}")
    if family == "lengths" and learner == "nb":
        raise ValueError("the nb learner reads n-gram counts; the lengths family has none")
    if len(items) < 2:
        return [[CHANCE] * len(it.options) for it in items]
    X, y, groups = option_features(items, family, counts_only=learner == "nb")
    y, groups = np.asarray(y), np.asarray(groups)
    item_fold, k = _fold_of(items, folds, seed)
    row_fold = np.asarray([item_fold[g] for g in groups])
    out: list[list[float]] = [[] for _ in items]
    for f in range(k):
        train, test = np.flatnonzero(row_fold != f), np.flatnonzero(row_fold == f)
        if len(set(y[train].tolist())) < 2:
            scores = np.zeros(len(test))
        else:
            scores = _fit_scores(learner, X[train], y[train], X[test])
        for g in np.unique(groups[test]):
            s = scores[groups[test] == g]
            e = np.exp(s - s.max())
            out[int(g)] = (e / e.sum()).round(6).tolist()
    return out


def key_probs(items: Sequence[SpeechItem], probs: list[list[float]]) -> list[float]:
    return [p[[o.key for o in it.options].index(it.answer)] for it, p in zip(items, probs)]


def top1_hits(items: Sequence[SpeechItem], probs: list[list[float]]) -> list[bool]:
    """Whether the attack's top option is the key (the first of tied options, as a picker would)."""
    return [[o.key for o in it.options][max(range(len(p)), key=lambda i: (p[i], -i))] == it.answer for it, p in zip(items, probs)]


def options_only_accuracy(items: Sequence[SpeechItem], folds: int = FOLDS, family: str = "words") -> float:
    """Cross-validated accuracy of picking, per item, the option a classifier trained on other games'
    options scores highest. The classifier never sees the question or the game."""
    return sum(top1_hits(items, cross_fitted_probs(items, family, folds=folds))) / len(items) if items else 0.0


def check_options_only(items: Sequence[SpeechItem], scope: str, hits: dict[str, bool] | None = None) -> Check:
    """`hits`: item id -> top-1 hit of the cross-fitted words attack over the whole dataset (else fitted here)."""
    n = len(items)
    if n < MIN_ITEMS:
        return skip("options-only", scope, n)
    if hits is None:
        acc = options_only_accuracy(items)
    else:
        acc = sum(hits[it.item_id] for it in items) / n
    verdict, p = rate_verdict(acc, n, acc * n)
    # With a single game there are no other games to train on: items are held out instead, and the check says so.
    held = "games held out" if len({it.game_id for it in items}) >= 2 else "items held out: one game"
    return Check("options-only", scope, verdict, round(acc, 4), n, f"options-only classifier ({FOLDS}-fold, {held}) picks the key in {acc:.1%} (chance {CHANCE:.1%}, binomial p={p:.3g})")
