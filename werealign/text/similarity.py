"""Character n-gram TF-IDF cosine between one text and a few others, in plain Python.

The same numbers as scikit-learn's `TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4))` followed by
`cosine_similarity` (lower-cased; smooth idf; optional sublinear tf), for the handful of short texts the
lexical built-in, the options-only shortcut floor and the audit's explanation check compare per item.
Fitting a vectorizer per item cost ~20 ms of scikit-learn overhead each: the floors of one eval over the
imported release spent 10 s there. Character n-grams within words work for Chinese (no word boundaries)
and English alike.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache


def char_wb_ngrams(text: str, low: int = 2, high: int = 4) -> list[str]:
    """scikit-learn's `char_wb` analyzer: n-grams inside each whitespace-separated word padded with one
    space; a word shorter than an n-gram length counts once, whole."""
    grams: list[str] = []
    for word in text.lower().split():
        w = f" {word} "
        size = len(w)
        for n in range(low, high + 1):
            if size <= n:
                grams.append(w)
                break
            grams.extend([w[i:i + n] for i in range(size - n + 1)])
    return grams


def tfidf_cosines(query: str, others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    """Cosine between `query` and each of `others`, with idf fitted on all of them together.

    A text's cosine does not depend on the order of `others`, so the decodes of one item (the same options
    shuffled, the same context) are computed once: the last few results are kept, by the options' sorted texts."""
    ordered = tuple(sorted(others))
    by_text = dict(zip(ordered, _cosines(query, ordered, sublinear_tf), strict=True))
    return [by_text[t] for t in others]


def tfidf_cosines_counted(query_counts: Counter[str], others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    """tfidf_cosines(query, others) given `Counter(char_wb_ngrams(query))` instead of the query (the same floats to
    the last bit, when the counter is that Counter, keys in the same order): for a query whose counts were built
    from parts another query shares (JoinedCounts)."""
    ordered = tuple(sorted(others))
    by_text = dict(zip(ordered, _tfidf_from_counts(query_counts, ordered, sublinear_tf=sublinear_tf), strict=True))
    return [by_text[t] for t in others]


def mean_cosines(texts: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    """Per text, its mean cosine with the other texts, idf fitted on all of them: the numbers of
    `sum(tfidf_cosines(t, others)) / len(others)` per text (up to the last bits of a float), from one matrix instead
    of one fit per text."""
    import numpy as np

    counts = [Counter(char_wb_ngrams(t)) for t in texts]
    n = len(texts)
    if n < 2:
        return [0.0] * n
    df = Counter(g for c in counts for g in c)
    column = {g: j for j, g in enumerate(df)}
    idf = np.asarray([math.log((1 + n) / (1 + d)) + 1.0 for d in df.values()])
    weight = _Weights(sublinear_tf)
    m = np.zeros((n, len(column)))
    for i, c in enumerate(counts):
        for g, tf in c.items():
            m[i, column[g]] = weight[tf]
    m *= idf
    norms = np.linalg.norm(m, axis=1)
    m = m / np.where(norms > 0, norms, 1.0)[:, None]
    cos = m @ m.T
    return ((cos.sum(axis=1) - np.diag(cos)) / (n - 1)).tolist()


class JoinedCounts:
    """`Counter(char_wb_ngrams(" ".join(parts)))` for lists of parts that extend one another.

    A game's transcript at a later cut-off starts with its transcript at an earlier one, and the n-grams of
    joined parts are each part's n-grams in turn (a gram never crosses whitespace, and lower-casing stops at
    it), so a list's counts are a kept prefix's counts plus its further parts': the same keys, counts and key
    order as counting the joined text. The last `keep` lists are kept (each counter is as big as its text); a counter
    handed out is one of them, so it is read, never changed."""

    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self._kept: list[tuple[tuple[str, ...], Counter[str]]] = []

    def counts(self, parts: Sequence[str]) -> Counter[str]:
        parts = tuple(parts)
        base: tuple[tuple[str, ...], Counter[str]] = ((), Counter())
        for kept in self._kept:
            if len(base[0]) < len(kept[0]) <= len(parts) and parts[:len(kept[0])] == kept[0]:
                base = kept
        if parts and base[0] == parts:  # the same list again (the items of one moment): its kept counter
            return base[1]
        counts = Counter(base[1])  # a copy: a kept counter stays its own parts'
        for part in parts[len(base[0]):]:
            counts.update(char_wb_ngrams(part))
        self._kept = [*self._kept[-(self.keep - 1):], (parts, counts)] if self.keep > 0 else []
        return counts


@lru_cache(maxsize=256)
def _cosines(query: str, others: tuple[str, ...], sublinear_tf: bool) -> tuple[float, ...]:
    return tuple(_tfidf_cosines(query, others, sublinear_tf=sublinear_tf))


def _tfidf_cosines(query: str, others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    counts = _short_counts(query) if len(query) <= SHORT else Counter(char_wb_ngrams(query))
    return _tfidf_from_counts(counts, others, sublinear_tf=sublinear_tf)


SHORT = 2000  # characters: an option or a turn, counted once and kept; a transcript is counted each time (it is large)


@lru_cache(maxsize=8192)  # the release's 537 items have 4,833 options; a counter of a short text is a few kB
def _short_counts(text: str) -> Counter[str]:
    # An item's options are compared with each other leave-one-out (the audit's centroid: nine sets of eight), and
    # again by every decode and floor: each text's grams are counted once. Read only: the counter is shared.
    return Counter(char_wb_ngrams(text))


def _tfidf_from_counts(q_counts: Counter[str], others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    # The plain formula, without its per-gram cost on the query (the long text): a gram only the query has has
    # document frequency 1, so its weight depends only on its count, and the query's norm sums those by count; the
    # query's vector is needed only where an option shares a gram. (The same cosines up to the last bits of a float;
    # the query's norm divides every option's alike, so their order is the plain formula's.)
    # a long list (minimal pairs read a few hundred candidate texts at once) is not kept: 256 of them held a gigabyte
    o = _options(tuple(others), sublinear_tf) if len(others) <= CACHED_OPTIONS else _options.__wrapped__(tuple(others), sublinear_tf)
    shared = {g: q_counts[g] for g in o.df if g in q_counts}
    q = {g: o.weight[tf] * o.idf[o.df[g] + 1] for g, tf in shared.items()}
    only_query = Counter(q_counts.values())
    only_query.subtract(Counter(shared.values()))
    q_norm = math.sqrt(sum(n * (o.weight[tf] * o.idf[1]) ** 2 for tf, n in only_query.items() if n)
                       + sum(x * x for x in q.values()))
    cosines = []
    for terms in o.terms:
        # an option's gram weighs idf(df + 1) when the query has it too (one document more), idf(df) when not
        # lists, not generators: the same additions in the same order, with less of Python's per-item overhead
        norm = math.sqrt(sum([sq_in if g in q_counts else sq_out for g, _, sq_out, sq_in in terms]))
        dot = sum([x_in * q[g] for g, x_in, _, _ in terms if g in q])
        cosines.append(dot / (norm * q_norm) if norm and q_norm else 0.0)
    return cosines


class _Weights(dict):
    """tf -> its weight, filled as counts are met."""

    def __init__(self, sublinear_tf: bool) -> None:
        super().__init__()
        self.sublinear_tf = sublinear_tf

    def __missing__(self, tf: int) -> float:
        self[tf] = w = (1.0 + math.log(tf)) if self.sublinear_tf else float(tf)
        return w


@dataclass(frozen=True)
class _Options:
    """What of the TF-IDF depends on the options alone, worked out once for the several texts an item's options are
    compared with (an item's transcript, last turns and own words)."""
    df: Counter[str]  # gram -> how many options have it
    idf: list[float]  # document frequency -> idf, over the options and the query
    weight: _Weights
    terms: list[list[tuple[str, float, float, float]]]  # per option, per gram: (gram, weight with the query having it,
    # squared weight without, squared weight with)


CACHED_OPTIONS = 32


@lru_cache(maxsize=256)  # a run's floors read each item's options three times (two shortcut models, the context attack)
def _options(others: tuple[str, ...], sublinear_tf: bool) -> _Options:
    o_counts = [_short_counts(t) if len(t) <= SHORT else Counter(char_wb_ngrams(t)) for t in others]
    docs = 1 + len(o_counts)
    df = Counter(g for c in o_counts for g in c)
    idf = [math.log((1 + docs) / (1 + d)) + 1.0 for d in range(docs + 1)]
    weight = _Weights(sublinear_tf)
    terms = []
    for c in o_counts:
        row = []
        for g, tf in c.items():
            x_out, x_in = weight[tf] * idf[df[g]], weight[tf] * idf[df[g] + 1]
            row.append((g, x_in, x_out * x_out, x_in * x_in))
        terms.append(row)
    return _Options(df, idf, weight, terms)
