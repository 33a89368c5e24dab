"""Red-team attacks on 9-way speech items (bench/redteam.py): fixed rules with nothing fitted, and learners fitted on
other games only.

Fixed rules (per option a score; the top one is the pick, ties split):
- `longest`, `shortest`, `median-length` (closest to the item's median length);
- `band-holder`: how many other options lie within the option's own ±25% length band (the option whose band holds all
  eight scores 8): a filter that draws distractors inside the key's band makes the key this option;
- `centroid-most` / `centroid-least`: mean character TF-IDF cosine to the other eight options;
- `seats-most` / `seats-fewest`: seat mentions;
- `binding`: for each (seat, role word) the option binds in one clause, the share of the transcript's clauses naming
  that seat with a role word that use this role word (how the table talks about the seat); the option's mean;
  `binding-count`: the sum of how often the table binds each of the option's (seat, role word) pairs;
- `last3-most` / `last3-least`, `own-most` / `own-least`, `question-most`: character TF-IDF cosine to the last three
  shown turns, to the viewpoint's own shown turns, to the question;
- `own-seat-talk`: how often the viewpoint's own turns name the option's seats;
- `punct-most` / `punct-least`: punctuation marks; `odd-ending`: the option whose last character's class (full stop,
  comma, question mark, other) the fewest options share.
Learners (games held out): `lr-char` (logistic regression on character 1-4-gram TF-IDF of the options alone),
`hgb-relational`, `rf-relational`, `lr-relational` (per-option statistics and the context overlaps above, each beside
its within-item z-score, rank, distance from the median and is-max/is-min: bench.redteam_core.relational), and
`hgb-length` (the same learner on the length and band-count columns alone).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from statistics import median

from bench.redteam_core import ACCUSE, CLAUSE, GOOD, Case, missing_games_notes, role_words, seats

PUNCT = re.compile(r"[,，.。;；!！?？:：、…“”\"'‘’()（）—-]")
RULES = ("longest", "shortest", "median-length", "band-holder", "centroid-most", "centroid-least", "seats-most", "seats-fewest",
         "binding", "binding-count", "last3-most", "last3-least", "own-most", "own-least", "question-most", "own-seat-talk", "punct-most",
         "punct-least", "odd-ending")
FEATURES = ("length", "seats", "distinct-seats", "punct", "clauses", "digits", "role-words", "good-words", "accuse-words",
            "centroid", "sim-transcript", "sim-last3", "sim-own", "sim-question", "band", "own-seat-talk", "table-seat-talk",
            "binding", "dead-seat", "terminal-end", "question-marks", "latin")


def visible_length(text: str) -> int:
    return len(re.sub(r"\s+", "", text))


def band_counts(lengths: list[int]) -> list[float]:
    return [float(sum(1 for j, m in enumerate(lengths) if j != i and 0.75 * n <= m <= 1.25 * n)) for i, n in enumerate(lengths)]


def _ending(text: str) -> str:
    t = text.rstrip()
    last = t[-1:] if t else ""
    for name, chars in (("stop", "。.!！…"), ("comma", ",，、;；:："), ("question", "?？")):
        if last and last in chars:
            return name
    return "other"


def _cosines(against: list[str], texts: list[str]) -> list[list[float]]:
    """Character 1-3-gram TF-IDF cosine of each text to each of `against` (fitted on these strings only)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    docs = [a if a.strip() else " " for a in against] + texts
    try:
        m = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True).fit_transform(docs)
    except ValueError:  # nothing but blanks
        return [[0.0] * len(against) for _ in texts]
    sims = cosine_similarity(m[len(against):], m[:len(against)])
    return [[float(x) if against[j].strip() else 0.0 for j, x in enumerate(row)] for row in sims]


def _centroid(texts: list[str]) -> list[float]:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    m = TfidfVectorizer(analyzer="char", ngram_range=(1, 3), sublinear_tf=True).fit_transform(texts)
    s = cosine_similarity(m)
    n = len(texts)
    return [float((s[i].sum() - s[i, i]) / max(1, n - 1)) for i in range(n)]


def bindings(text: str, words: dict[str, re.Pattern[str]]) -> list[tuple[int, str]]:
    """(seat, role) for every seat named in a clause that names a role word (the clause's first role word)."""
    out = []
    for clause in CLAUSE.split(text):
        named = seats(clause)
        if not named:
            continue
        found = sorted((m.start(), rid) for rid, pat in words.items() if (m := pat.search(clause)))
        if found:
            out += [(s, found[0][1]) for s in named]
    return out


def binding_scores(texts: list[str], turns: list[str], words: dict[str, re.Pattern[str]]) -> tuple[list[float], list[float]]:
    """Per option: the mean share of its (seat, role) pairs among the table's bindings of that seat, and the sum of the
    table's counts of its pairs (the share misses a seat the table binds to several words; the count favours loud seats)."""
    table = Counter(b for t in turns for b in bindings(t, words))
    per_seat = Counter()
    for (s, _), n in table.items():
        per_seat[s] += n
    share, count = [], []
    for t in texts:
        pairs = bindings(t, words)
        share.append(sum(table[p] / per_seat[p[0]] for p in pairs if per_seat[p[0]]) / len(pairs) if pairs else 0.0)
        count.append(float(sum(table[p] for p in set(pairs))))
    return share, count


def speech_case(item, game, shown, catalogue) -> Case:
    """A Case of one speech item: every rule's scores and a raw feature row per option (the learners add relational
    columns). `shown` is what the prompt shows (werealign.shortcuts.context.shown_at); `game` may be None."""
    texts = [o.text for o in item.options]
    key = {i for i, o in enumerate(item.options) if o.key == item.answer}
    lengths = [visible_length(t) for t in texts]
    med = median(lengths)
    band = band_counts(lengths)
    centroid = _centroid(texts)
    last3 = " ".join(shown.turns[-3:]) if shown.turns else shown.last_turns
    sims = _cosines([shown.transcript, last3, shown.own, item.question], texts)
    words = role_words(catalogue)
    binding, binding_count = binding_scores(texts, list(shown.turns) or [shown.transcript], words)
    own_talk = Counter(seats(shown.own))
    table_talk = Counter(seats(shown.transcript))
    viewpoint = {item.viewpoint_seat}
    named = [seats(t) for t in texts]
    own_seat = [float(sum(own_talk[s] for s in set(n) - viewpoint)) for n in named]
    table_seat = [float(sum(table_talk[s] for s in set(n) - viewpoint)) for n in named]
    punct = [float(len(PUNCT.findall(t))) for t in texts]
    endings = [_ending(t) for t in texts]
    ending_count = Counter(endings)
    rules = {
        "longest": [float(n) for n in lengths], "shortest": [-float(n) for n in lengths],
        "median-length": [-abs(n - med) for n in lengths], "band-holder": band,
        "centroid-most": centroid, "centroid-least": [-c for c in centroid],
        "seats-most": [float(len(n)) for n in named], "seats-fewest": [-float(len(n)) for n in named],
        "binding": binding, "binding-count": binding_count,
        "last3-most": [s[1] for s in sims], "last3-least": [-s[1] for s in sims],
        "own-most": [s[2] for s in sims] if shown.own.strip() else None,
        "own-least": [-s[2] for s in sims] if shown.own.strip() else None,
        "question-most": [s[3] for s in sims],
        "own-seat-talk": own_seat, "punct-most": punct, "punct-least": [-p for p in punct],
        "odd-ending": [-float(ending_count[e]) for e in endings],
    }
    rows = []
    for i, t in enumerate(texts):
        rows.append([
            float(lengths[i]), float(len(named[i])), float(len(set(named[i]))), punct[i], float(len([c for c in CLAUSE.split(t) if c.strip()])),
            float(sum(ch.isdigit() for ch in t)), float(sum(len(p.findall(t)) for p in words.values())), float(len(GOOD.findall(t))),
            float(len(ACCUSE.findall(t))), centroid[i], sims[i][0], sims[i][1], sims[i][2], sims[i][3], band[i], own_seat[i], table_seat[i],
            binding[i], float(any(s in shown.dead for s in named[i])), float(endings[i] == "stop"), float(t.count("?") + t.count("？")),
            sum(ch.isascii() and ch.isalpha() for ch in t) / max(1, len(t)),
        ])
    return Case(item.item_id, item.game_id, [o.key for o in item.options], key, rules, rows, texts)


def speech_cases(items, games) -> tuple[list[Case], list[str]]:
    """Cases of every speech item (in file order) and notes on what could not be read (an item without its game is
    attacked on its options alone)."""
    from werealign.shortcuts.context import shown_at
    from werealign.schema.roles import catalogue_for

    notes = missing_games_notes(items, games)
    cases = []
    for it in items:
        game = games.get(it.game_id)
        cat = catalogue_for(game.rules.declared_roles if game is not None else ())
        cases.append(speech_case(it, game, shown_at(game, it), cat))
    return cases, notes


def char_grams(ngram_range: tuple[int, int], cache: dict):
    """The `analyzer` argument of a character n-gram vectoriser: sklearn's own "char" analysis (lowercased, whitespace
    folded), remembered per text in `cache`. The cross-fitted learners refit on every fold (and inner fold) and
    re-analyse the same texts each time; that analysis was most of their time."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    plain = TfidfVectorizer(analyzer="char", ngram_range=ngram_range).build_analyzer()

    def analyze(text: str) -> list[str]:
        key = (ngram_range, text)
        if key not in cache:
            cache[key] = plain(text)
        return cache[key]
    return analyze


class _GramBank:
    """Each text's n-grams counted once, over one vocabulary that grows as texts come (global ids): a fold's
    document-term matrix is then a relabelling of stacked rows, not a Python loop over every n-gram of every text."""

    def __init__(self, analyze):
        self.analyze, self.ids, self.names, self.rows = analyze, {}, [], {}

    def row(self, text: str):
        import numpy as np

        got = self.rows.get(text)
        if got is None:
            counts: dict[str, int] = {}
            for g in self.analyze(text):  # insertion order: the order sklearn's count first meets each n-gram
                counts[g] = counts.get(g, 0) + 1
            ids = []
            for g in counts:
                j = self.ids.get(g)
                if j is None:
                    j = self.ids[g] = len(self.names)
                    self.names.append(g)
                ids.append(j)
            got = self.rows[text] = (np.asarray(ids, dtype=np.int64), np.asarray(list(counts.values()), dtype=np.intc))
        return got


@functools.cache  # one class per base: the same class for every fit
def _banked(base):
    """`base` (CountVectorizer or TfidfVectorizer) whose `_count_vocab` reads a _GramBank: the same vocabulary (ids in
    the order sklearn's loop assigns them: first meeting over the documents in order) and the same matrix, bit for bit
    (checked against sklearn's own in tests/test_redteam.py); everything after it (sorting, min_df, max_features,
    TF-IDF) is sklearn's own code."""

    class Banked(base):
        def _count_vocab(self, raw_documents, fixed_vocab):
            import numpy as np
            import scipy.sparse as sp
            from sklearn.utils._sparse import _align_api_if_sparse

            bank = self._bank
            rows = [bank.row(doc) for doc in raw_documents]
            gids = np.concatenate([r[0] for r in rows]) if rows else np.zeros(0, dtype=np.int64)
            values = np.concatenate([r[1] for r in rows]) if rows else np.zeros(0, dtype=np.intc)
            doc_of = np.repeat(np.arange(len(rows)), [len(r[0]) for r in rows])
            if fixed_vocab:
                vocabulary = self.vocabulary_
                lookup = getattr(self, "_lookup", None)  # global id -> column, once per fit (ctx-ngram transforms per item)
                if lookup is None or lookup[1] is not vocabulary:
                    table = np.full(len(bank.names), -1, dtype=np.int64)
                    for term, j in vocabulary.items():
                        table[bank.ids[term]] = j  # every fitted term was banked when fitted
                    self._lookup = lookup = (table, vocabulary)
                table = lookup[0]
                if len(table) < len(bank.names):  # n-grams banked since: none is in the vocabulary
                    table = np.concatenate([table, np.full(len(bank.names) - len(table), -1, dtype=np.int64)])
                local = table[gids]
                keep = local >= 0
                local, values, doc_of = local[keep], values[keep], doc_of[keep]
            else:
                uniq, first = np.unique(gids, return_index=True)
                order = uniq[np.argsort(first, kind="stable")]  # global ids in the order the documents first use them
                lookup = np.empty(len(bank.names), dtype=np.int64)
                lookup[order] = np.arange(len(order))
                local = lookup[gids]
                vocabulary = {bank.names[g]: i for i, g in enumerate(order.tolist())}
                if not vocabulary:
                    raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
            indptr = np.zeros(len(rows) + 1, dtype=np.int64)
            np.cumsum(np.bincount(doc_of, minlength=len(rows)), out=indptr[1:])
            dtype = np.int64 if indptr[-1] > np.iinfo(np.int32).max else np.int32
            X = sp.csr_array((values, local.astype(dtype), indptr.astype(dtype)), shape=(len(rows), len(vocabulary)), dtype=self.dtype)
            X.sort_indices()
            return vocabulary, _align_api_if_sparse(X)

    Banked.__name__ = Banked.__qualname__ = f"Banked{base.__name__}"
    return Banked


def banked_vectorizer(base, ngram_range: tuple[int, int], cache: dict, **params):
    """A character n-gram `base` vectoriser (sklearn's "char" analysis) whose counting reads the texts' n-grams from
    `cache`, counted once per text for every fit that shares the cache."""
    bank = cache.get(("bank", ngram_range))
    if bank is None:
        bank = cache[("bank", ngram_range)] = _GramBank(char_grams(ngram_range, cache))
    vec = _banked(base)(analyzer=bank.analyze, **params)
    vec._bank = bank
    return vec


def char_vectorizer(ngram_range: tuple[int, int], max_features: int, cache: dict | None):
    """TF-IDF over character n-grams (sublinear, min_df 2), with the n-gram counts shared through `cache`."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    if cache is None:
        return TfidfVectorizer(analyzer="char", ngram_range=ngram_range, sublinear_tf=True, min_df=2, max_features=max_features)
    return banked_vectorizer(TfidfVectorizer, ngram_range, cache, sublinear_tf=True, min_df=2, max_features=max_features)


def char_lr(train: list[Case], test: list[Case], seed: int, grams: dict | None = None) -> list[list[float] | None]:
    """Logistic regression on character 1-4-gram TF-IDF of the options alone (vectoriser fitted on training options);
    `grams` shares the texts' n-gram analysis across fits (same vectors)."""
    from sklearn.linear_model import LogisticRegression

    texts = [t for c in train for t in c.texts]
    y = [int(i in c.key) for c in train for i in range(len(c.texts))]
    if len(set(y)) < 2:
        return [None] * len(test)
    vec = char_vectorizer((1, 4), 200_000, grams)
    model = LogisticRegression(C=2.0, max_iter=2000, class_weight="balanced").fit(vec.fit_transform(texts), y)
    # every test option in one transform, sliced per item (rows are independent: same bits, far less overhead)
    proba = model.predict_proba(vec.transform([t for c in test for t in c.texts]))[:, 1].round(9).tolist()
    starts = [0]
    for c in test:
        starts.append(starts[-1] + len(c.texts))
    return [proba[a:b] for a, b in zip(starts, starts[1:])]
