"""The plain-Python TF-IDF cosine gives scikit-learn's numbers (it replaced a vectorizer fitted per item)."""

from __future__ import annotations

import pytest

from werealign.text.similarity import char_wb_ngrams, tfidf_cosines

TEXTS = [
    "Seat 3 claimed seer yesterday and checked seat 5 as a werewolf.",
    "I think seat 5 is a werewolf because seat 3 checked them.",
    "Vote seat 7, a quiet villager.",
    "3号昨天跳预言家，查杀5号。",
    "我认为5号是狼人，因为3号查杀了他。",
    "a b  c\tdd",
    "",
]


@pytest.mark.parametrize("sublinear", [False, True])
def test_cosines_equal_sklearn(sublinear: bool) -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    for query in TEXTS[:5]:
        docs = [query, *TEXTS]
        matrix = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), sublinear_tf=sublinear).fit_transform(docs)
        expected = cosine_similarity(matrix[1:], matrix[0]).ravel()
        assert tfidf_cosines(query, TEXTS, sublinear_tf=sublinear) == pytest.approx(list(expected), abs=1e-12)


def test_ngrams_equal_sklearns_analyzer() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    analyze = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4)).build_analyzer()
    for text in TEXTS:
        assert char_wb_ngrams(text) == analyze(text)
