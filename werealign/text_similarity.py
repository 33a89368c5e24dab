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


def char_wb_ngrams(text: str, low: int = 2, high: int = 4) -> list[str]:
    """scikit-learn's `char_wb` analyzer: n-grams inside each whitespace-separated word padded with one
    space; a word shorter than an n-gram length counts once, whole."""
    grams: list[str] = []
    for word in text.lower().split():
        w = f" {word} "
        for n in range(low, high + 1):
            offset = 0
            grams.append(w[:n])
            while offset + n < len(w):
                offset += 1
                grams.append(w[offset:offset + n])
            if offset == 0:
                break
    return grams


def tfidf_cosines(query: str, others: Sequence[str], *, sublinear_tf: bool = False) -> list[float]:
    """Cosine between `query` and each of `others`, with idf fitted on all of them together."""
    counts = [Counter(char_wb_ngrams(t)) for t in [query, *others]]
    docs = len(counts)
    df = Counter(g for c in counts for g in c)
    idf = {g: math.log((1 + docs) / (1 + d)) + 1.0 for g, d in df.items()}
    vectors = []
    for c in counts:
        v = {g: ((1.0 + math.log(tf)) if sublinear_tf else float(tf)) * idf[g] for g, tf in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values()))
        vectors.append({g: x / norm for g, x in v.items()} if norm else v)
    q = vectors[0]
    return [sum(x * q[g] for g, x in v.items() if g in q) for v in vectors[1:]]
