"""The red team's shared machinery (bench/redteam.py): cases, scoring of rules and learners, folds by game, intervals,
and the few text readers every attack family uses (seats, role words, vote calls, seer claims).

A `Case` is one item as an attack sees it: its options, which of them are the key (one, or a set for OI), its game
(the group held out), a score per option from every fixed rule, and a feature row per option for the learners.
A rule's scores are read the same way everywhere: the top-scored options are its pick, a tie is split evenly (the
hit counts 1/|top| when the key is among them), and a rule that says nothing (None, or every option equal) scores
chance. Learners are fitted on the other folds' games only (`group_folds`); nothing is ever fitted on the items it
answers. Set answers (OI) are scored by Jaccard of the k top-scored seats, k = the answer's size (the board's number
of opponents, public at the table), ties broken by a seeded draw.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

FOLDS = 5
Z95 = 1.959964


@dataclass
class Case:
    item_id: str
    group: str  # the game: held out whole
    options: list[object]  # option keys (speech), seats / "none" / role ids (decisions)
    key: set[int]  # indices of the key option(s)
    rules: dict[str, list[float] | None] = field(default_factory=dict)
    rows: list[list[float]] = field(default_factory=list)  # learner features, one row per option
    texts: list[str] = field(default_factory=list)  # option texts (text learners)
    set_answer: bool = False


def missing_games_notes(items, games) -> list[str]:
    """The note for items whose game the dataset lacks (their context rules read nothing), or none."""
    missing = sorted({it.game_id for it in items if it.game_id not in games})
    return [f"speech: {len(missing)} game(s) not in the dataset ({', '.join(missing[:3])}): their context rules read nothing"] if missing else []


def wilson(hits: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson interval of a rate (hits may be fractional: ties split evenly)."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def random_jaccard(n: int, k: int) -> float:
    """Expected Jaccard of a uniform k-subset of n options against a fixed k-subset (hypergeometric overlap)."""
    if k <= 0 or n <= 0 or k > n:
        return 0.0
    total = math.comb(n, k)
    return sum(math.comb(k, i) * math.comb(n - k, k - i) / total * i / (2 * k - i) for i in range(k + 1))


def chance(case: Case) -> float:
    if case.set_answer:
        return random_jaccard(len(case.options), len(case.key))
    return 1.0 / len(case.options)


def credit(case: Case, scores: Sequence[float] | None, seed: int = 0) -> float:
    """The case's score under one attack's per-option scores (see the module doc)."""
    if scores is None or len(set(scores)) <= 1:
        return chance(case)
    if case.set_answer:
        rng = random.Random(f"{seed}:{case.item_id}")
        jitter = [rng.random() for _ in scores]
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], jitter[i]))
        picked = set(order[:len(case.key)])
        return len(picked & case.key) / len(picked | case.key)
    best = max(scores)
    top = [i for i, s in enumerate(scores) if s == best]
    return sum(i in case.key for i in top) / len(top)


def group_folds(cases: Sequence[Case], seed: int, folds: int = FOLDS) -> tuple[list[int], str]:
    """Fold of each case: whole games, shuffled with the seed and dealt round-robin. One game only: items held out."""
    games = sorted({c.group for c in cases})
    if len(games) >= 2:
        random.Random(seed).shuffle(games)
        k = min(folds, len(games))
        of = {g: i % k for i, g in enumerate(games)}
        return [of[c.group] for c in cases], "games"
    idx = list(range(len(cases)))
    random.Random(seed).shuffle(idx)
    fold = [0] * len(cases)
    for j, i in enumerate(idx):
        fold[i] = j % min(folds, max(1, len(cases)))
    return fold, "items"


Fitter = Callable[[list[Case], list[Case], int], list[list[float] | None]]


def cross_fit(cases: list[Case], fitter: Fitter, seed: int) -> list[list[float] | None]:
    """Per case, the scores of a learner fitted on the other folds (a fold whose training side has no key and no
    distractor leaves its cases at chance)."""
    fold, _ = group_folds(cases, seed)
    out: list[list[float] | None] = [None] * len(cases)
    for f in sorted(set(fold)):
        train = [c for c, g in zip(cases, fold) if g != f]
        test_idx = [i for i, g in enumerate(fold) if g == f]
        if not train:
            continue
        preds = fitter(train, [cases[i] for i in test_idx], seed)
        for i, p in zip(test_idx, preds):
            out[i] = p
    return out


def rule_selected_on_other_games(cases: list[Case], names: Sequence[str], seed: int) -> list[list[float] | None]:
    """The fixed rule that scores best on the other folds' games, applied to the held-out fold (a meta attack: the
    best rule a builder could have found without seeing these items)."""
    def fitter(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
        best = max(names, key=lambda n: (sum(credit(c, c.rules.get(n), seed) for c in train), -names.index(n)))
        return [c.rules.get(best) for c in test]

    return cross_fit(cases, fitter, seed)


def row_learner(make_model: Callable[[int], object], columns: Sequence[int] | None = None) -> Fitter:
    """A binary classifier over option rows (key or not), on `columns` of them (None: all); an item's scores are its
    options' key probabilities."""
    import numpy as np

    def rows(c: Case) -> list[list[float]]:
        return c.rows if columns is None else [[r[j] for j in columns] for r in c.rows]

    def fitter(train: list[Case], test: list[Case], seed: int) -> list[list[float] | None]:
        X = np.asarray([r for c in train for r in rows(c)], dtype=float)
        y = np.asarray([int(i in c.key) for c in train for i in range(len(c.rows))])
        if len(set(y.tolist())) < 2 or X.ndim != 2 or X.shape[1] == 0:
            return [None] * len(test)
        model = make_model(seed)
        model.fit(np.nan_to_num(X), y)
        return [model.predict_proba(np.nan_to_num(np.asarray(rows(c), dtype=float)))[:, 1].round(9).tolist() for c in test]

    return fitter


RELATIONAL_BLOCKS = 6  # raw, z, rank, distance from the median, is-max, is-min


def relational_columns(raw: Sequence[int], width: int) -> list[int]:
    """The columns of relational() that derive from the raw columns `raw` of a row `width` wide."""
    return [j + b * width for b in range(RELATIONAL_BLOCKS) for j in raw]


def relational(rows: list[list[float]]) -> list[list[float]]:
    """Each raw column beside its within-item z-score, rank (0..1), distance from the item's median, and is-max /
    is-min flags: an item's options are compared with each other, never with other items' options."""
    import numpy as np

    a = np.nan_to_num(np.asarray(rows, dtype=float))
    if a.size == 0:
        return [list() for _ in rows]
    sd = a.std(axis=0)
    z = (a - a.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    rank = a.argsort(axis=0, kind="stable").argsort(axis=0, kind="stable") / max(1, len(rows) - 1)
    med = np.median(a, axis=0)
    spread = np.where(sd > 0, sd, 1.0)
    dist = np.abs(a - med) / spread
    is_max = (a == a.max(axis=0)).astype(float)
    is_min = (a == a.min(axis=0)).astype(float)
    return np.hstack([a, z, rank, dist, is_max, is_min]).tolist()


# --------------------------------------------------------------------------- text readers

SEAT = re.compile(
    r"(?<![\d一二两三四五六七八九十])(?P<num>\d{1,2}|[一二两三四五六七八九十]{1,3})\s*(?:号位|号)"
    r"|(?i:\b(?:seat|player)\s*(?P<wnum>\d{1,2})\b)")
_ZH = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def _zh_number(s: str) -> int | None:
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        if len(tens) > 1 or len(ones) > 1:
            return None
        return (_ZH.get(tens, 0) if tens else 1) * 10 + (_ZH.get(ones, 0) if ones else 0)
    return _ZH.get(s) if len(s) == 1 else None


def seat_spans(text: str) -> list[tuple[int, int, int]]:
    """(start, end, seat) of every seat mention: "7号", "7 号位", "七号", "seat 7" (written here, not borrowed from the
    project, so a blind spot of its reader is not shared)."""
    out = []
    for m in SEAT.finditer(text):
        n = _zh_number(m.group("num")) if m.group("num") else int(m.group("wnum"))
        if n:
            out.append((m.start(), m.end(), n))
    return out


def seats(text: str) -> list[int]:
    return [s for _, _, s in seat_spans(text)]


CLAUSE = re.compile(r"[,，.。;；!！?？:：、…\n]+")
# Words that accuse a seat, as a player hears them (Chinese table talk and English).
ACCUSE = re.compile(r"狼|查杀|悍跳|踩|怀疑|出局|放逐|归票|投|出|扛推|(?i:wolf|werewolf|suspic|vote|exile|lying|liar)")
GOOD = re.compile(r"金水|银水|好人|铁好|发好|(?i:\bgood\b|\bclear(?:ed)?\b|innocent|trust)")
# A vote call: the seat right after 归票/归/投/票给/放逐/出, or "vote (for|out) seat N".
CALL_STRICT = re.compile(r"归票|归(?=\s*\d|\s*[一二三四五六七八九十])|(?i:vote\s+(?:for|out)|vote)")
CALL_LOOSE = re.compile(r"归票|归|投给|票给|投|放逐|出(?=\s*\d|\s*[一二三四五六七八九十])|扛推|(?i:vote\s+(?:for|out)|vote|exile|eliminate)")
SEER_CLAIM = re.compile(r"我(?:是|就是|才是|这张)?(?:一张|个)?预言家|预言家(?:是我|起跳)|(?i:i(?:'m| am) (?:the |a )?seer)")
CHECK_WOLF = re.compile(r"查杀|(?i:is (?:a )?(?:wolf|werewolf)|checked .{0,12}wolf)")
CHECK_GOOD = re.compile(r"金水|(?i:is good|checked .{0,12}good)")


def bound_seats(text: str, word: re.Pattern[str], before: int = 6, after: int = 8) -> list[int]:
    """Seats named right after (or just before) a word of `word`, in order: "查杀 7 号", "7号查杀", "归票5号"."""
    spans = seat_spans(text)
    out = []
    for m in word.finditer(text):
        nxt = [s for s in spans if 0 <= s[0] - m.end() <= after]
        if nxt:
            out.append(nxt[0][2])
            continue
        prev = [s for s in spans if 0 <= m.start() - s[1] <= before]
        if prev:
            out.append(prev[-1][2])
    return out


def clause_seats_with(text: str, word: re.Pattern[str]) -> list[int]:
    """Seats named in a clause that also holds a word of `word` (a seat talked about as a wolf, as good...)."""
    return [s for clause in CLAUSE.split(text) if word.search(clause) for s in seats(clause)]


def role_words(catalogue) -> dict[str, re.Pattern[str]]:
    """Per role id, every name the catalogue gives it in any language, plus the table's short words for the common
    roles (狼 wolf, 预 seer, 民 villager, 枪 hunter, 守 guard, 巫 witch)."""
    extra = {"werewolf": ["狼", "wolf"], "seer": ["预"], "villager": ["民"], "hunter": ["枪"], "guard": ["守"], "witch": ["巫"]}
    out = {}
    for rid, role in catalogue.roles.items():
        words = {w for names in role.names.values() for w in names} | set(extra.get(rid, [])) | {rid.replace("_", " ")}
        words = sorted((w for w in words if w), key=len, reverse=True)
        out[rid] = re.compile("|".join(re.escape(w) for w in words), re.I)
    return out
