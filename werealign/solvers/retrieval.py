"""TF-IDF retrieval for the agent solvers (scikit-learn): prompt lines for `xu`'s questions, experience pools
for `xu` and `mg`.

Xu et al. and MetaGPT retrieve with sentence embeddings (Sentence-BERT); no such model ships inside a pinned
package here, so retrieval is TF-IDF over character n-grams within words (`char_wb`, 2-4): it needs no word
segmentation, so Chinese and English work alike. Similarities are cosines in [0, 1] and lower than an
embedding model's for the same pair: thresholds are on this scale, not the papers'.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

# Indexes fitted in this process, by their documents: a sample's decodes, the rerun that replays its stored steps and
# the arena's seats that see the same talk retrieve from the same lines, and a fit costs far more than a query
# (a game's transcript: tenths of a second). Bounded (least recently used out); an Index is never changed after its fit.
_FITTED: OrderedDict[tuple[str, ...], Index] = OrderedDict()
_MAX_FITTED = 32
_FITTED_LOCK = threading.Lock()  # the arena's games run in threads side by side


def fitted(docs: Sequence[str]) -> Index:
    """The Index of `docs`, fitted once per process for the same documents (the same fit: the same cosines)."""
    key = tuple(docs)
    with _FITTED_LOCK:
        if key in _FITTED:
            _FITTED.move_to_end(key)
            return _FITTED[key]
    index = Index(key)
    with _FITTED_LOCK:
        _FITTED[key] = index
        while len(_FITTED) > _MAX_FITTED:
            _FITTED.popitem(last=False)
    return index


class Index:
    """Documents fitted once, queried many times; the cosine of a query with each document."""

    def __init__(self, docs: Sequence[str]) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer  # ~0.5 s: only when an agent solver retrieves

        self.size = len(docs)
        self._vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=True, lowercase=True)
        try:
            self._matrix = self._vectorizer.fit_transform(list(docs)) if docs else None
        except ValueError:  # nothing but whitespace: an empty vocabulary
            self._matrix = None

    def cosines(self, query: str) -> list[float]:
        if self._matrix is None:
            return [0.0] * self.size
        q = self._vectorizer.transform([query])
        return [float(x) for x in (self._matrix @ q.T).toarray().ravel()]


def top(query: str, docs: Sequence[str], k: int, *, index: Index | None = None) -> list[int]:
    """Indices of the k documents most similar to `query` (similarity > 0), in document order."""
    if not docs or k < 1:
        return []
    scores = (index or fitted(docs)).cosines(query)
    best = sorted(range(len(docs)), key=lambda i: (-scores[i], i))[:k]
    return sorted(i for i in best if scores[i] > 0)
