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
    # The same arithmetic in the same order as the plain formula (so the same floats), without its per-gram cost:
    # an idf depends only on a gram's document frequency and a tf weight only on its count, so each distinct value
    # gets one logarithm; the query (the long text) is normalised only where an option shares a gram.
    counts = [Counter(char_wb_ngrams(t)) for t in [query, *others]]
    docs = len(counts)
    df = Counter(g for c in counts for g in c)
    idf_of = {d: math.log((1 + docs) / (1 + d)) + 1.0 for d in set(df.values())}
    vectors = []
    for c in counts:
        weight = {tf: (1.0 + math.log(tf)) if sublinear_tf else float(tf) for tf in set(c.values())}
        v = {g: weight[tf] * idf_of[df[g]] for g, tf in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values()))
        vectors.append((v, norm))
    q, q_norm = vectors[0]
    cosines = []
    for v, norm in vectors[1:]:
        unit = {g: x / norm for g, x in v.items()} if norm else v
        cosines.append(sum(x * (q[g] / q_norm if q_norm else q[g]) for g, x in unit.items() if g in q))
    return cosines

