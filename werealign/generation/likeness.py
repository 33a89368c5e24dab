"""The likeness of a human-voiced key and its candidate distractors to the viewpoint's own words
(werealign.generation.human, Picker._like_key): `tfidf_cosines(ref, [key, *spans])` of werealign.text.similarity,
float for float, for a few hundred spans of one fixed pool at each of a run's moments.

tfidf_cosines counts and weighs every gram of every text in Python on each call: with ~400 spans per moment and six
draws per moment it was half of a generation run's time (and of the generation tests'). Here each span's grams are
counted once, as ids into the pool's vocabulary, and per call the document frequencies, weights and products are numpy
arrays. Sums are not numpy's: each text's norm and dot product are Python's `sum` over the same floats in the same order
as tfidf_cosines adds them (numpy's pairwise sum changes the last bits, and the caller rounds gaps to two decimals to
order candidates: a last bit can move one). The query's norm is tfidf_cosines' own expression, its grams in the same
order. tests/test_generate_human.py checks the equality, to the bit, on invented texts.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Sequence

import numpy as np

from werealign.text.similarity import char_wb_ngrams

CACHED = 256
Row = tuple[np.ndarray, np.ndarray]  # a text's gram ids (in its Counter's order) and their counts


class PoolCosines:
    """Cosines of one query with a key and some of `texts` (the pool), idf fitted on those texts together."""

    def __init__(self, texts: Sequence[str], *, sublinear_tf: bool = False):
        self.texts = texts
        self.sublinear_tf = sublinear_tf
        self._vocab: dict[str, int] = {}
        self._rows: dict[int, Row] = {}  # pool index -> its row, counted when first asked for
        self._extra: dict[str, Row] = {}  # the keys' rows (a key is asked about in every draw of its moment)
        self._query: tuple[str, Counter[str]] | None = None  # the last query's counts (the same for a moment's draws)
        self._table = np.zeros(1)  # tf -> weight (_weights)
        self._answers: dict[tuple[str, str, tuple[int, ...]], tuple[float, ...]] = {}

    def _row(self, text: str) -> Row:
        counts = Counter(char_wb_ngrams(text))
        vocab = self._vocab
        ids = np.fromiter((vocab.setdefault(g, len(vocab)) for g in counts), dtype=np.int64, count=len(counts))
        return ids, np.fromiter(counts.values(), dtype=np.int64, count=len(counts))

    def _pool_row(self, i: int) -> Row:
        if i not in self._rows:
            self._rows[i] = self._row(self.texts[i])
        return self._rows[i]

    def _key_row(self, text: str) -> Row:
        if text not in self._extra:
            if len(self._extra) >= 64:
                del self._extra[next(iter(self._extra))]
            self._extra[text] = self._row(text)
        return self._extra[text]

    def _weight(self, tf: int) -> float:
        return (1.0 + math.log(tf)) if self.sublinear_tf else float(tf)

    def _weights(self, top: int) -> np.ndarray:
        """tf -> its weight, for tf up to `top` (the same floats as _weight: a table, not a numpy log)."""
        if len(self._table) <= top:
            self._table = np.asarray([0.0, *(self._weight(tf) for tf in range(1, 2 * top + 1))])
        return self._table

    def cosines(self, query: str, key: str, idx: Sequence[int]) -> list[float]:
        """tfidf_cosines(query, [key, *(texts[i] for i in idx)], sublinear_tf=...), in that order. The last CACHED
        answers are kept (as tfidf_cosines keeps its own): a run that picks again for the same moments (other seat
        weights, the same candidates) reads them."""
        asked = (query, key, tuple(idx))
        if asked not in self._answers:
            if len(self._answers) >= CACHED:
                del self._answers[next(iter(self._answers))]
            self._answers[asked] = tuple(self._cosines(query, key, idx))
        return list(self._answers[asked])

    def _cosines(self, query: str, key: str, idx: Sequence[int]) -> list[float]:
        texts = [key, *(self.texts[i] for i in idx)]
        rows = [self._key_row(key), *(self._pool_row(i) for i in idx)]
        if self._query is None or self._query[0] != query:
            self._query = (query, Counter(char_wb_ngrams(query)))
        q_counts = self._query[1]
        # tfidf_cosines reads the texts sorted: the order in which the query's shared grams are first met, which is the
        # order its norm adds them in
        order = sorted(range(len(texts)), key=texts.__getitem__)
        ids = np.concatenate([rows[n][0] for n in order])
        tfs = np.concatenate([rows[n][1] for n in order])
        lengths = np.asarray([len(rows[n][0]) for n in order])
        docs = 1 + len(texts)
        idf_list = [math.log((1 + docs) / (1 + d)) + 1.0 for d in range(docs + 1)]
        idf = np.asarray(idf_list)
        vocab = self._vocab
        q_tf = np.zeros(len(vocab), dtype=np.int64)
        for g, tf in q_counts.items():
            j = vocab.get(g)
            if j is not None:
                q_tf[j] = tf
        df_all = np.bincount(ids, minlength=len(vocab))
        df = df_all[ids]
        tq = q_tf[ids]
        in_q = tq > 0
        weights = self._weights(int(max(tfs.max(initial=0), tq.max(initial=0))))
        w = weights[tfs]
        idf_in = idf[df + 1]  # a gram the query has too is in one document more
        x_in = w * idf_in
        x_out = w * idf[df]
        squares = x_out * x_out
        squares[in_q] = (x_in * x_in)[in_q]
        dots = np.where(in_q, x_in * (weights[tq] * idf_in), 0.0)  # the query's grams only; a 0.0 adds nothing
        norms, products = _row_sums(np.stack([squares, dots]), lengths)
        # the query's norm, as tfidf_cosines works it out: its shared grams in the order the sorted texts first have them
        where = np.flatnonzero(in_q)
        first = np.full(len(vocab), len(ids))
        np.minimum.at(first, ids[where], where)
        shared = np.flatnonzero(first < len(ids))
        shared = shared[np.argsort(first[shared])]
        shared_tf = q_tf[shared].tolist()
        q_vals = [self._weight(tf) * idf_list[d + 1] for tf, d in zip(shared_tf, df_all[shared].tolist())]
        only_query = Counter(q_counts.values())
        only_query.subtract(Counter(shared_tf))
        q_norm = math.sqrt(sum(n * (self._weight(tf) * idf_list[1]) ** 2 for tf, n in only_query.items() if n)
                           + sum(x * x for x in q_vals))
        out = [0.0] * len(texts)
        for n, square, dot in zip(order, norms, products):
            norm = math.sqrt(square)
            out[n] = dot / (norm * q_norm) if norm and q_norm else 0.0
        return out


# Python adds floats left to right up to 3.11; from 3.12 its sum() compensates (Neumaier), which numpy does not do
SEQUENTIAL_SUM = sys.version_info < (3, 12)


def _row_sums(values: np.ndarray, lengths: np.ndarray, sequential: bool | None = None) -> list[list[float]]:
    """Per line of `values` (an array of them), per row of it (`lengths` consecutive values each), what Python's sum()
    of the row's values gives. Where sum() adds left to right, a row padded with zeros (x + 0.0 is x) and accumulated
    along its length is the same additions in the same order."""
    ends = np.cumsum(lengths)
    starts = ends - lengths
    if not (SEQUENTIAL_SUM if sequential is None else sequential):
        out = []
        for line in values.tolist():
            out.append([float(sum(line[a:b])) for a, b in zip(starts.tolist(), ends.tolist())])
        return out
    grid = np.zeros((len(values), len(lengths), int(lengths.max(initial=0)) + 1))
    grid[:, np.repeat(np.arange(len(lengths)), lengths), np.arange(values.shape[1]) - np.repeat(starts, lengths)] = values
    return np.cumsum(grid, axis=2)[:, :, -1].tolist()
