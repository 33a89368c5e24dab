"""Attacks on 9-way speech items that neither the item builders nor the earlier red team (bench/redteam_speech.py) used
(issue 43): fixed rules nothing is fitted for, and learners fitted with whole games held out.

    python bench/redteam_unseen.py NAME=DATASET_DIR [NAME=DIR ...] [--seed 0] [--json OUT.json]

from the checkout's root. Written from the item format and the README only, never from the filters' or generators'
code: an attack tuned against a filter proves little. Scoring, folds and intervals are bench/redteam_core's (ties split,
a rule that reads nothing scores chance, learners fitted on the other folds' games only), the table is bench/redteam.py's.

Fixed rules (per option a score; the top one is the pick):
- on the options alone: `edit-prototype` / `edit-outlier` (mean normalised edit similarity to the other eight, highest /
  lowest), `shingle-prototype` / `shingle-outlier` (mean Jaccard of character 4-gram sets), `shared-seats` /
  `unshared-seats` (seat numbers shared with the other options, summed over them), `rare-first` / `rare-last` (the
  option whose first / last character the fewest options share), `rare-opening` (first two characters),
  `question-roles` (role words shared with the question), `sentences-most` / `sentences-fewest`, `digits-most` /
  `digits-fewest` (digits and numerals), `own-seat` (mentions of the viewpoint's own seat), `order-anchor` (the option
  from which the others, in letter order, are best sorted by closeness of their likeness to the viewpoint's words: the
  README says distractors are ordered that way);
- on shallow context: `viewpoint-last` (character-bigram Jaccard with the viewpoint's last shown turn), `own-turn-max`
  (the best such Jaccard over the viewpoint's turns, one by one), `sheriff-last` (with the sheriff's last turn),
  `accused-top` (names the seat most accused so far), `accused-sum` (accusations of the option's seats so far),
  `last-turn-seats` (seats shared with the last shown turn), `speaker-seats` (seats the last speaker named),
  `spoke-seats` (share of the option's seats that took a shown turn), `game-names` (the game's player names it holds);
  and on the options, `shared-roles` (role words shared with the other options, summed over them).
Learners: `hgb-ranked` / `lr-ranked` (the features above as within-item ranks only, no raw value), `pair-ranker`
(logistic regression on key-minus-distractor differences of raw and ranked features: a pairwise ranker),
`oddone-char` (logistic regression on an option's character 1-3-gram TF-IDF minus the mean of its item's other
eight: which n-grams make an option the odd one), `ctx-ngram` (logistic regression on the option's character 2-3-grams
that the last three shown turns also hold), `position-prior` (the letter keys most often sit at on the other games),
`seen-key` (an option whose text, seats aside, is another game's key is taken for a distractor; the rest tie), and
`oddone-char-signed` / `char-lr-signed` (oddone-char, or the earlier red team's lr-char, or their negation when an
inner split of the training games finds the key ranked last more often than first).
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field

sys.path.insert(0, os.getcwd())
os.environ.setdefault("OMP_NUM_THREADS", "1")

from bench.redteam_core import ACCUSE, CLAUSE, Case, missing_games_notes, role_words, seats  # noqa: E402
from bench.redteam_speech import banked_vectorizer, char_lr, char_vectorizer  # noqa: E402

RULES = ("edit-prototype", "edit-outlier", "shingle-prototype", "shingle-outlier", "shared-seats", "unshared-seats",
         "rare-first", "rare-last", "rare-opening", "question-roles", "sentences-most", "sentences-fewest", "digits-most",
         "digits-fewest", "own-seat", "order-anchor", "viewpoint-last", "own-turn-max", "sheriff-last", "accused-top",
         "accused-sum", "last-turn-seats", "speaker-seats", "shared-roles", "spoke-seats", "game-names")
# Learner features: the rules' raw scores (each rule's direction is the learner's to find; a pair of opposite rules is one column).
FEATURES = ("edit", "shingle", "shared-seats", "first-count", "last-count", "opening-count", "question-roles", "sentences",
            "digits", "own-seat", "order-anchor", "viewpoint-last", "own-turn-max", "sheriff-last", "accused-top",
            "accused-sum", "last-turn-seats", "speaker-seats", "shared-roles", "spoke-seats", "game-names", "position")
SENTENCE = re.compile(r"[。！？!?…]+|\.(?:\s|$)")
NUMERAL = re.compile(r"[0-9一二两三四五六七八九十]")


@dataclass
class View:
    """What an attacker reads of an item's game at its cut-off (invented in tests, read from a game log otherwise)."""
    turns: list[tuple[object, str]] = field(default_factory=list)  # (speaker, text) of the shown seat turns, in order
    viewpoint: int | None = None
    sheriff: int | None = None
    role_words: dict = field(default_factory=dict)  # role id -> compiled pattern
    names: tuple[str, ...] = ()  # the game's player names and nicknames (public at the table)


def _bigrams(text: str) -> set[str]:
    t = re.sub(r"\s+", "", text)
    return {t[i:i + 2] for i in range(len(t) - 1)}


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _shingles(text: str, n: int = 4) -> set[str]:
    t = re.sub(r"\s+", "", text)
    return {t[i:i + n] for i in range(max(1, len(t) - n + 1))} if t else set()


def _mean_others(m: list[list[float]]) -> list[float]:
    n = len(m)
    return [sum(m[i][j] for j in range(n) if j != i) / max(1, n - 1) for i in range(n)]


def _rank_fit(xs: list[float], ys: list[float]) -> float:
    """Spearman correlation of two equal-length lists (0 when either is constant or holds a NaN): scipy's spearmanr to
    the last bit, without its ~1 ms of checks per call (every option of every item): the same average ranks (halves and
    whole numbers, exact) in the same C-ordered two-row array that spearmanr hands to np.corrcoef (it transposes its
    column-stacked ranks back to that), whose [1, 0] it returns (tests/test_redteam_unseen.py compares them)."""
    import numpy as np

    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2 or any(v != v for v in (*xs, *ys)):
        return 0.0
    r = np.corrcoef(np.array([_average_ranks(xs), _average_ranks(ys)], dtype=float))[1, 0]
    return 0.0 if r != r else float(r)


def _average_ranks(values: list[float]) -> list[float]:
    """Ranks 1..n, ties sharing their mean rank (scipy.stats.rankdata's default)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _order_anchor(likeness: list[float]) -> list[float]:
    """Per option i: how well the other options, in letter order, are sorted by |likeness - likeness of i| (ascending)."""
    out = []
    for i, li in enumerate(likeness):
        others = [j for j in range(len(likeness)) if j != i]
        out.append(_rank_fit(list(range(len(others))), [abs(likeness[j] - li) for j in others]))
    return out


def unseen_case(item_id: str, group: str, texts: list[str], key: set[int], question: str, view: View) -> Case:
    """A Case of one item: every rule's per-option scores and a raw feature row per option."""
    from rapidfuzz.distance import Levenshtein  # installed with jiwer (pinned)

    n = len(texts)
    edit = _mean_others([[Levenshtein.normalized_similarity(a, b) for b in texts] for a in texts])
    sh = [_shingles(t) for t in texts]
    shingle = _mean_others([[_jaccard(a, b) for b in sh] for a in sh])
    named = [seats(t) for t in texts]
    shared = [float(sum(len(set(named[i]) & set(named[j])) for j in range(n) if j != i)) for i in range(n)]
    stripped = [re.sub(r"\s+", "", t) for t in texts]
    firsts, lasts, openings = Counter(s[:1] for s in stripped), Counter(s[-1:] for s in stripped), Counter(s[:2] for s in stripped)
    first_count = [float(firsts[s[:1]]) for s in stripped]
    last_count = [float(lasts[s[-1:]]) for s in stripped]
    opening_count = [float(openings[s[:2]]) for s in stripped]
    q_roles = {rid for rid, pat in view.role_words.items() if pat.search(question)}
    question_roles = [float(sum(1 for rid in q_roles if view.role_words[rid].search(t))) for t in texts]
    sentences = [float(len([p for p in SENTENCE.split(t) if p.strip()])) for t in texts]
    digits = [float(len(NUMERAL.findall(t))) for t in texts]
    own_seat = [float(ns.count(view.viewpoint)) if view.viewpoint is not None else 0.0 for ns in named]
    own_turns = [t for s, t in view.turns if s == view.viewpoint and view.viewpoint is not None]
    grams = [_bigrams(t) for t in texts]
    own_all = _bigrams(" ".join(own_turns))
    likeness = [_jaccard(g, own_all) for g in grams]
    anchor = _order_anchor(likeness) if own_turns else [0.0] * n
    vp_last = [_jaccard(g, _bigrams(own_turns[-1])) for g in grams] if own_turns else [0.0] * n
    own_max = [max((_jaccard(g, _bigrams(t)) for t in own_turns), default=0.0) for g in grams]
    sheriff_turns = [t for s, t in view.turns if view.sheriff is not None and s == view.sheriff]
    sheriff_last = [_jaccard(g, _bigrams(sheriff_turns[-1])) for g in grams] if sheriff_turns else [0.0] * n
    accused = Counter(s for _, t in view.turns for clause in CLAUSE.split(t) if ACCUSE.search(clause) for s in set(seats(clause)))
    top = {s for s, c in accused.items() if c == max(accused.values())} if accused else set()
    accused_top = [float(bool(set(ns) & top)) for ns in named]
    accused_sum = [float(sum(accused[s] for s in set(ns))) for ns in named]
    last_seats = set(seats(view.turns[-1][1])) if view.turns else set()
    last_turn = [float(len(set(ns) & last_seats)) for ns in named]
    speaker = view.turns[-1][0] if view.turns else None
    spoken = Counter(s for sp, t in view.turns if sp == speaker for s in seats(t)) if speaker is not None else Counter()
    speaker_seats = [float(sum(spoken[s] for s in set(ns))) for ns in named]
    roles_in = [{rid for rid, pat in view.role_words.items() if pat.search(t)} for t in texts]
    shared_roles = [float(sum(len(roles_in[i] & roles_in[j]) for j in range(n) if j != i)) for i in range(n)]
    speakers = {sp for sp, _ in view.turns}
    spoke = [sum(s in speakers for s in set(ns)) / len(set(ns)) if ns else 0.0 for ns in named]
    names = [nm for nm in view.names if len(nm) >= 2]
    game_names = [float(sum(t.count(nm) for nm in names)) for t in texts]
    has_own = bool(own_turns)
    rules = {
        "edit-prototype": edit, "edit-outlier": [-x for x in edit],
        "shingle-prototype": shingle, "shingle-outlier": [-x for x in shingle],
        "shared-seats": shared, "unshared-seats": [-x for x in shared],
        "rare-first": [-x for x in first_count], "rare-last": [-x for x in last_count], "rare-opening": [-x for x in opening_count],
        "question-roles": question_roles if q_roles else None,
        "sentences-most": sentences, "sentences-fewest": [-x for x in sentences],
        "digits-most": digits, "digits-fewest": [-x for x in digits],
        "own-seat": own_seat if view.viewpoint is not None else None,
        "order-anchor": anchor if has_own else None,
        "viewpoint-last": vp_last if has_own else None, "own-turn-max": own_max if has_own else None,
        "sheriff-last": sheriff_last if sheriff_turns else None,
        "accused-top": accused_top if top else None, "accused-sum": accused_sum if accused else None,
        "last-turn-seats": last_turn if last_seats else None, "speaker-seats": speaker_seats if spoken else None,
        "shared-roles": shared_roles, "spoke-seats": spoke if speakers else None, "game-names": game_names if names else None,
    }
    cols = (edit, shingle, shared, first_count, last_count, opening_count, question_roles, sentences, digits, own_seat, anchor,
            vp_last, own_max, sheriff_last, accused_top, accused_sum, last_turn, speaker_seats, shared_roles, spoke, game_names,
            [float(i) for i in range(n)])
    rows = [[float(c[i]) for c in cols] for i in range(n)]
    return Case(item_id, group, list(range(n)), set(key), rules, rows, list(texts))


def view_of(game, item) -> View:
    """The item's game as its prompt shows it, through the project's one context builder (build_context)."""
    from werealign.game.visibility import build_context
    from werealign.schema.roles import catalogue_for

    words = role_words(catalogue_for(game.rules.declared_roles if game is not None else ()))
    if game is None:
        return View(role_words=words, viewpoint=item.viewpoint_seat)
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
    sheriff = None
    for e in ctx.public_events:  # in game order: the last election or badge move before the cut-off names the holder
        if e.kind in ("sheriff_election", "badge_transfer") and e.target is not None:
            sheriff = e.target
    turns = [(u.speaker, u.text) for u in ctx.utterances if isinstance(u.speaker, int)]
    names = tuple(sorted({nm for s in game.seats for nm in (s.name, *s.aliases) if nm}))
    return View(turns=turns, viewpoint=item.viewpoint_seat, sheriff=sheriff, role_words=words, names=names)


def dataset_cases(items, games) -> tuple[list[Case], dict[str, str], list[str]]:
    """Cases of every item, each item's last three shown turns (by item id), and notes on what could not be read."""
    notes = missing_games_notes(items, games)
    cases, contexts = [], {}
    for it in items:
        texts = [o.text for o in it.options]
        key = {i for i, o in enumerate(it.options) if o.key == it.answer}
        view = view_of(games.get(it.game_id), it)
        cases.append(unseen_case(it.item_id, it.game_id, texts, key, it.question, view))
        contexts[it.item_id] = " ".join(t for _, t in view.turns[-3:])
    return cases, contexts, notes


# --------------------------------------------------------------------------- learners


def ranked(rows: list[list[float]]) -> list[list[float]]:
    """Each column as its within-item rank (0..1, ties averaged): only how an option compares with its siblings."""
    from scipy.stats import rankdata

    import numpy as np

    a = np.nan_to_num(np.asarray(rows, dtype=float))
    return ((np.apply_along_axis(rankdata, 0, a) - 1) / max(1, len(rows) - 1)).tolist()


def _ranked_cases(cache: dict):
    """Each case as a copy whose rows are its ranked rows, computed once per case (the folds reuse them)."""
    def swap(cs: list[Case]) -> list[Case]:
        for c in cs:
            if id(c) not in cache:
                cache[id(c)] = (c, Case(c.item_id, c.group, c.options, c.key, {}, ranked(c.rows), c.texts))
        return [cache[id(c)][1] for c in cs]
    return swap


def _ranked_learner(make, swap):
    from bench.redteam_core import row_learner

    inner = row_learner(make)
    return lambda train, test, seed: inner(swap(train), swap(test), seed)


def _hgb(seed: int):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=150, learning_rate=0.05, max_leaf_nodes=15, max_bins=64,
                                          l2_regularization=1.0, random_state=seed)


def _lr(seed: int):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=3000))


def pair_ranker(train: list[Case], test: list[Case], seed: int, swap=None) -> list[list[float] | None]:
    """Pairwise ranker: logistic regression without intercept on (key - distractor) and (distractor - key) differences
    of raw and ranked rows; an option's score is w . x (higher: more key-like)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    def full(c: Case):
        r = swap([c])[0].rows if swap is not None else ranked(c.rows)
        return np.hstack([np.asarray(c.rows, dtype=float), np.asarray(r)])

    diffs, y = [], []
    for c in train:
        if len(c.key) != 1:
            continue
        x = full(c)
        k = next(iter(c.key))
        for j in range(len(x)):
            if j != k:
                diffs += [x[k] - x[j], x[j] - x[k]]
                y += [1, 0]
    if not diffs:
        return [None] * len(test)
    scaler = StandardScaler(with_mean=False).fit(np.nan_to_num(np.asarray(diffs)))
    model = LogisticRegression(C=0.5, fit_intercept=False, max_iter=3000).fit(scaler.transform(np.nan_to_num(np.asarray(diffs))), y)
    return [(scaler.transform(np.nan_to_num(full(c))) @ model.coef_[0]).round(9).tolist() for c in test]


def oddone_char(train: list[Case], test: list[Case], seed: int, grams: dict | None = None) -> list[list[float] | None]:
    """Which n-grams make an option the odd one of its item: character 1-3-gram TF-IDF minus its siblings' mean
    (`grams` shares the texts' n-gram analysis across fits: same vectors)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    vec = char_vectorizer((1, 3), 100_000, grams)
    texts = [t for c in train for t in c.texts]
    vec.fit(texts)
    # one transform over every option, sliced per item: rows are transformed independently (same bits as one call
    # per item) and the per-call overhead of thousands of small transforms was most of this learner's time
    every = vec.transform(texts + [t for c in test for t in c.texts])
    y = [int(i in c.key) for c in train for i in range(len(c.texts))]
    if len(set(y)) < 2:
        return [None] * len(test)
    odd = odd_rows(every, [len(c.texts) for c in train + test])
    cut = len(texts)
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(odd[:cut], y)
    scores = model.decision_function(odd[cut:]).round(9).tolist()  # a row's score is its own row's alone
    at = np.cumsum([cut] + [len(c.texts) for c in test]).tolist()
    return [scores[a - cut:b - cut] for a, b in zip(at, at[1:])]


def odd_rows(m, sizes: list[int]):
    """Each row of `m` (csr, canonical) minus the mean of its item's other rows (items: consecutive runs of `sizes` rows),
    for every item at once: the per-item sparse expression m - (ones @ m.sum(axis=0) - m) / max(1, n - 1), bit for bit
    (the same float operations in the same order: column sums added row by row, the difference times 1 / (n - 1), exact
    zeros dropped), without a dozen small sparse matrices per item (tests/test_redteam_unseen.py checks it)."""
    import numpy as np
    import scipy.sparse as sp

    m = sp.csr_matrix(m)
    m.sort_indices()
    n_rows, width = m.shape
    sizes_a = np.asarray(sizes, dtype=np.int64)
    item_of_row = np.repeat(np.arange(len(sizes_a)), sizes_a)
    row_of = np.repeat(np.arange(n_rows), np.diff(m.indptr))
    item_of = item_of_row[row_of]
    uniq, inv = np.unique(item_of * np.int64(width) + m.indices, return_inverse=True)  # (item, column), sorted
    sums = np.zeros(len(uniq))
    np.add.at(sums, inv, m.data)  # in row order per (item, column): what m.sum(axis=0) adds
    key_item, key_col = uniq // width, uniq % width
    first = np.searchsorted(key_item, np.arange(len(sizes_a)))
    union = np.searchsorted(key_item, np.arange(len(sizes_a)), side="right") - first  # columns any row of the item holds
    row_len = union[item_of_row]
    row_start = np.concatenate([[0], np.cumsum(row_len)])
    slot = np.repeat(first[item_of_row], row_len) + (np.arange(row_start[-1]) - np.repeat(row_start[:-1], row_len))
    own = np.zeros(row_start[-1])
    own[row_start[row_of] + inv - first[item_of]] = m.data
    scale = np.repeat((1 / np.maximum(1, sizes_a - 1))[item_of_row], row_len)
    values = own - (sums[slot] - own) * scale
    keep = values != 0
    counts = np.bincount(np.repeat(np.arange(n_rows), row_len)[keep], minlength=n_rows)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    return sp.csr_matrix((values[keep], key_col[slot][keep], indptr), shape=(n_rows, width))


def ctx_ngram(train: list[Case], test: list[Case], seed: int, ctx: dict[str, str], grams: dict | None = None) -> list[list[float] | None]:
    """Logistic regression on the option's character 2-3-grams that the item's context (item id -> its last three shown
    turns) also holds (`grams` shares the texts' n-gram counts across fits: same vectors)."""
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.linear_model import LogisticRegression

    params = {"ngram_range": (2, 3), "min_df": 2, "max_features": 100_000, "binary": True}
    vec = (CountVectorizer(analyzer="char", **params) if grams is None else
           banked_vectorizer(CountVectorizer, params.pop("ngram_range"), grams, **params))
    vec.fit([t for c in train for t in c.texts])

    def shared(c: Case):
        m = vec.transform(c.texts)
        present = vec.transform([ctx.get(c.item_id, "")])
        return sp.csr_matrix(m.multiply(present))

    y = [int(i in c.key) for c in train for i in range(len(c.texts))]
    if len(set(y)) < 2:
        return [None] * len(test)
    model = LogisticRegression(C=0.5, max_iter=2000, class_weight="balanced").fit(sp.vstack([shared(c) for c in train]), y)
    return [model.decision_function(shared(c)).round(9).tolist() for c in test]


SEAT_FORM = re.compile(r"\d+|[一二两三四五六七八九十]+(?=号)|号位|号|seat|player|\s+", re.I)


def _skeleton(text: str) -> str:
    """A text without its seat numbers and spaces: a key renumbered into another game reads the same."""
    return SEAT_FORM.sub("", text)


def seen_key(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
    """Elimination by labels of other games: an option whose text (seats aside) is the key of an item of the other games
    is taken for a distractor here (a text reused across items keeps its role nowhere); the rest tie."""
    keys = {_skeleton(c.texts[k]) for c in train for k in c.key}
    return [[-float(_skeleton(t) in keys) for t in c.texts] for c in test]


def signed_by_inner_folds(fitter):
    """A learner whose direction (its scores, or their negation) is chosen on the training games by an inner split by
    game: a learner that reliably ranks the key last is as informative as one that ranks it first."""
    from bench.redteam_core import credit, cross_fit

    def fit(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
        inner = cross_fit(train, fitter, seed + 1)
        plus = sum(credit(c, s, seed) for c, s in zip(train, inner))
        minus = sum(credit(c, [-x for x in s] if s is not None else None, seed) for c, s in zip(train, inner))
        out = fitter(train, test, seed)
        return out if plus >= minus else [[-x for x in s] if s is not None else None for s in out]
    return fit


def position_prior(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
    counts = Counter(k for c in train for k in c.key)
    return [[float(counts[i]) for i in range(len(c.options))] for c in test]


def learners(contexts: dict[str, str]) -> dict:
    """Every learner; `contexts` maps an item id to its last three shown turns (ctx-ngram reads it)."""
    swap = _ranked_cases({})  # keyed by id(case), holding the case so its id stays its own
    grams: dict = {}  # each text's character n-grams, analysed and counted once for every fit of this attack
    fits: dict = {}  # oddone-char's fits by (train, test, seed): its signed twin refits each outer fold it already fitted

    def odd(tr, te, seed):
        key = (tuple(map(id, tr)), tuple(map(id, te)), seed)
        if key not in fits:  # the cases are held with their scores, so their ids stay their own
            fits[key] = (tr, te, oddone_char(tr, te, seed, grams))
        return fits[key][2]

    def lr(tr, te, seed):
        return char_lr(tr, te, seed, grams)
    return {"hgb-ranked": _ranked_learner(_hgb, swap), "lr-ranked": _ranked_learner(_lr, swap),
            "pair-ranker": lambda tr, te, seed: pair_ranker(tr, te, seed, swap),
            "oddone-char": odd, "ctx-ngram": lambda tr, te, seed: ctx_ngram(tr, te, seed, contexts, grams),
            "position-prior": position_prior, "seen-key": seen_key, "oddone-char-signed": signed_by_inner_folds(odd),
            "char-lr-signed": signed_by_inner_folds(lr)}


def attack_items(items, games, seed: int) -> tuple[dict | None, list[str]]:
    """Every unseen attack on a list of speech items: bench/redteam.py's summary (n, games, chance, attacks, best)."""
    from bench.redteam import attack, summary

    cases, contexts, notes = dataset_cases(items, games)
    if not cases:
        return None, notes
    return summary(cases, attack(cases, RULES, learners(contexts), seed)), notes


def main(argv: list[str] | None = None) -> int:
    from bench.redteam import speech_sets_main

    return speech_sets_main(argv, __doc__.split("\n\n")[0], attack_items)


if __name__ == "__main__":
    sys.exit(main())
