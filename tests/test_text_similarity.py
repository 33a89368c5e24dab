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


# Invented turns: a word repeated across turns, final sigma (lower-casing reads its neighbours), a dotted capital I
# (lowers to two code points), an empty and a whitespace-only turn, Chinese without spaces, a tab inside a turn.
TURNS = ["ΟΔΥΣΣΕΥΣ said seat 4", "", "ΣΑΣ ΣΑΣ", "  ", "İstanbul\tvote 4", "我认为4号是狼人。", "seat 4 seat 4 again", "ὈΔΥΣΣΕΎΣ"]


def _bits(xs: list[float]) -> list[str]:
    return [x.hex() for x in xs]


def test_joined_counts_are_the_joined_texts_counts_keys_in_order() -> None:
    from collections import Counter

    from werealign.text.similarity import JoinedCounts

    joined = JoinedCounts(keep=3)
    lists = [TURNS[:k] for k in (1, 3, 5, 2, 8, 8, 0)] + [TURNS[2:6], TURNS[::-1], TURNS[:4] + ["a different turn"]]
    for parts in lists:
        expected = Counter(char_wb_ngrams(" ".join(parts)))
        got = joined.counts(parts)
        assert got == expected and list(got) == list(expected), parts  # the same keys, counts and order
    assert joined.counts(TURNS[:4]) is joined.counts(TURNS[:4])  # the same list again: the kept counter, not a copy


@pytest.mark.parametrize("sublinear", [False, True])
def test_cosines_from_counts_are_the_cosines_to_the_last_bit(sublinear: bool) -> None:
    from werealign.text.similarity import JoinedCounts, tfidf_cosines_counted

    joined = JoinedCounts()
    options = [*TEXTS, "ΣΑΣ seat 4", "vote 4 istanbul"]
    for k in range(1, len(TURNS) + 1):
        query = " ".join(TURNS[:k])
        if not query.strip():
            continue
        plain = tfidf_cosines(query, options, sublinear_tf=sublinear)
        assert _bits(tfidf_cosines_counted(joined.counts(TURNS[:k]), options, sublinear_tf=sublinear)) == _bits(plain)
        # the options' order changes nothing either
        assert _bits(tfidf_cosines_counted(joined.counts(TURNS[:k]), options[::-1], sublinear_tf=sublinear)) == _bits(plain[::-1])


def _per_call_formula(query: str, others: list[str], sublinear_tf: bool) -> list[float]:
    """The cosines as computed before an item's option terms were kept across calls: every weight worked out anew,
    in the same order (the floors in results.json are pinned to these floats)."""
    import math
    from collections import Counter

    q_counts = Counter(char_wb_ngrams(query))
    o_counts = [Counter(char_wb_ngrams(t)) for t in others]
    docs = 1 + len(o_counts)
    df = Counter(g for c in o_counts for g in c)

    def idf(d: int) -> float:
        return math.log((1 + docs) / (1 + d)) + 1.0

    def weight(tf: int) -> float:
        return (1.0 + math.log(tf)) if sublinear_tf else float(tf)

    shared = {g: q_counts[g] for g in df if g in q_counts}
    q = {g: weight(tf) * idf(df[g] + 1) for g, tf in shared.items()}
    only_query = Counter(q_counts.values())
    only_query.subtract(Counter(shared.values()))
    q_norm = math.sqrt(sum(n * (weight(tf) * idf(1)) ** 2 for tf, n in only_query.items() if n) + sum(x * x for x in q.values()))
    out = []
    for c in o_counts:
        v = {g: weight(tf) * idf(df[g] + (g in q_counts)) for g, tf in c.items()}
        norm = math.sqrt(sum(x * x for x in v.values()))
        dot = sum(x * q[g] for g, x in v.items() if g in q)
        out.append(dot / (norm * q_norm) if norm and q_norm else 0.0)
    return out


@pytest.mark.parametrize("sublinear", [False, True])
def test_kept_option_terms_give_the_per_call_formulas_floats(sublinear: bool) -> None:
    options = sorted([*TEXTS, "ΣΑΣ seat 4", "vote 4 istanbul", "seat 4 seat 4"])  # sorted: the order tfidf_cosines computes in
    for query in [" ".join(TURNS), *TURNS, *TEXTS[:5]]:  # every query after the first reads the options' kept terms
        if query.strip():
            assert _bits(tfidf_cosines(query, options, sublinear_tf=sublinear)) == _bits(_per_call_formula(query, options, sublinear))
