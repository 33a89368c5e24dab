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


@lru_cache(maxsize=256)
def _cosines(query: str, others: tuple[str, ...], sublinear_tf: bool) -> tuple[float, ...]:
    return tuple(_tfidf_cosines(query, others, sublinear_tf=sublinear_tf))


def _tfidf_cosines(query: str, others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    # The plain formula, without its per-gram cost on the query (the long text): a gram only the query has has
    # document frequency 1, so its weight depends only on its count, and the query's norm sums those by count; the
    # query's vector is needed only where an option shares a gram. (The same cosines up to the last bits of a float;
    # the query's norm divides every option's alike, so their order is the plain formula's.)
    q_counts = Counter(char_wb_ngrams(query))
    o_counts = [Counter(char_wb_ngrams(t)) for t in others]
    docs = 1 + len(o_counts)
    df_others = Counter(g for c in o_counts for g in c)
    idf_cache: dict[int, float] = {}
    weight_cache: dict[int, float] = {}

    def idf(d: int) -> float:
        if d not in idf_cache:
            idf_cache[d] = math.log((1 + docs) / (1 + d)) + 1.0
        return idf_cache[d]

    def weight(tf: int) -> float:
        if tf not in weight_cache:
            weight_cache[tf] = (1.0 + math.log(tf)) if sublinear_tf else float(tf)
        return weight_cache[tf]

    shared = {g: q_counts[g] for g in df_others if g in q_counts}
    q = {g: weight(tf) * idf(df_others[g] + 1) for g, tf in shared.items()}
    only_query = Counter(q_counts.values())
    only_query.subtract(Counter(shared.values()))
    q_norm = math.sqrt(sum(n * (weight(tf) * idf(1)) ** 2 for tf, n in only_query.items() if n)
                       + sum(x * x for x in q.values()))
    cosines = []
    for c in o_counts:
        v = {g: weight(tf) * idf(df_others[g] + (g in q_counts)) for g, tf in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values()))
        dot = sum(x * q[g] for g, x in v.items() if g in q)
        cosines.append(dot / (norm * q_norm) if norm and q_norm else 0.0)
    return cosines

