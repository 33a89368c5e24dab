"""`werealign audit`: artifact checks of a dataset's speech items, per dimension, each with a verdict.

A nine-way item measures strategy only if the key cannot be found without the game. Each check
below looks for one way it can be found anyway, or one way the item is broken, and gives a verdict:

| check | what it measures | pass / warn / fail |
| --- | --- | --- |
| `key-position` | chi-square of the answer letters against uniform | p >= .05 / p < .05 / p < .01 |
| `key-longest`, `key-shortest` | share of items whose key is the longest (shortest) option, ties shared, vs 1/9 | see `_rate_verdict` |
| `options-only` | a logistic-regression classifier that sees only the nine options (length, style, words), cross-validated with whole games held out | see `_rate_verdict` |
| `duplicate-options` | items with two options the same after normalisation, or near-identical | none / near-duplicates / exact duplicates |
| `explanation-key` | items whose explanation overlaps another option clearly more than the key | < 25% / >= 25% / >= 50% of items with an explanation |
| `stem-leak` | questions that name a seat's true role the viewpoint cannot know, or copy hidden text | none / any / >= 5% of items |

`_rate_verdict` (a rate that should be at chance 1/9): fail when the rate is at least twice chance
and a one-sided binomial test gives p < .01; warn when it is at least 1.5 x chance with p < .05;
else pass. A check with too few items to say anything (fewer than `MIN_ITEMS`) is `skip`.

The audit never calls a model and is deterministic: the same dataset gives the same report.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from werealign.game.visibility import build_context
from werealign.dataset import Dataset
from werealign.schema import GameLog, Option, SpeechItem
from werealign.schema.models import DIMENSIONS, OPTION_KEYS
from werealign.schema.roles import ROLE_LABELS, ROLES
from werealign.text_similarity import tfidf_cosines

# Option text as a reader compares it (width, case, spacing, invisible characters, end punctuation):
# the validator's definition of "the same option", so audit and validate agree on duplicates.
from werealign.validate.item_checks import norm_text as normalise  # noqa: E402

CHANCE = 1 / len(OPTION_KEYS)
MIN_ITEMS = 18  # two expected answers per letter: below this a rate or a distribution says nothing
NEAR_DUPLICATE = 0.9  # SequenceMatcher ratio of two normalised options
EXPLANATION_MARGIN = 0.05  # cosine by which another option must beat the key to count as disagreement
LEAK_NGRAM = 8  # words a question may not share with hidden text; a CJK character counts as half a word
VERDICTS = ("pass", "warn", "fail", "skip")
_SEVERITY = {"skip": 0, "pass": 1, "warn": 2, "fail": 3}


@dataclass
class Check:
    name: str
    scope: str  # a dimension, or "all"
    verdict: str
    value: float | None  # the headline number the verdict is about (a rate or a p-value)
    n: int
    detail: str
    examples: list[str] = field(default_factory=list)  # item ids that triggered the check

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AuditReport:
    dataset: str
    items: int
    checks: list[Check]

    @property
    def verdict(self) -> str:
        return max((c.verdict for c in self.checks), key=_SEVERITY.__getitem__, default="skip")

    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.verdict == "fail"]

    def find(self, name: str, scope: str = "all") -> Check:
        return next(c for c in self.checks if c.name == name and c.scope == scope)

    def to_dict(self) -> dict[str, Any]:
        counts = Counter(c.verdict for c in self.checks)
        return {
            "dataset": self.dataset,
            "items": self.items,
            "verdict": self.verdict,
            "summary": {v: counts.get(v, 0) for v in VERDICTS},
            "checks": [c.to_dict() for c in self.checks],
        }


# --------------------------------------------------------------------------- text helpers


def text_length(text: str) -> int:
    """Visible characters: language-neutral (a Chinese option has no words to count)."""
    return len(re.sub(r"\s+", "", normalise(text)))


_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
_TOKEN = re.compile(rf"{_CJK}|[^\W_]+")
_CJK_RE = re.compile(_CJK)


def tokens(text: str) -> list[str]:
    """Words, with every CJK character its own token (those scripts do not separate words)."""
    return _TOKEN.findall(normalise(text))


# --------------------------------------------------------------------------- verdict rules


def _binom_p(successes: float, n: int, p: float) -> float:
    from scipy.stats import binomtest

    return float(binomtest(round(successes), n, p, alternative="greater").pvalue)


def _rate_verdict(rate: float, n: int, successes: float) -> tuple[str, float]:
    p = _binom_p(successes, n, CHANCE)
    if rate >= 2 * CHANCE and p < 0.01:
        return "fail", p
    if rate >= 1.5 * CHANCE and p < 0.05:
        return "warn", p
    return "pass", p


def _skip(name: str, scope: str, n: int, why: str = "") -> Check:
    return Check(name, scope, "skip", None, n, why or f"{n} items; at least {MIN_ITEMS} needed")


# --------------------------------------------------------------------------- the checks


def check_key_position(items: Sequence[SpeechItem], scope: str) -> Check:
    n = len(items)
    if n < MIN_ITEMS:
        return _skip("key-position", scope, n)
    from scipy.stats import chisquare

    counts = Counter(it.answer for it in items)
    observed = [counts.get(k, 0) for k in OPTION_KEYS]
    p = float(chisquare(observed).pvalue)
    verdict = "fail" if p < 0.01 else "warn" if p < 0.05 else "pass"
    dist = " ".join(f"{k}:{c}" for k, c in zip(OPTION_KEYS, observed))
    return Check("key-position", scope, verdict, round(p, 4), n, f"chi-square p={p:.3g}; {dist}")


def _extreme_share(item: SpeechItem, pick: Callable[[list[int]], int]) -> float:
    """1 when the key alone is the extreme, 1/k when it shares the extreme with k-1 others, else 0."""
    lengths = [text_length(o.text) for o in item.options]
    extreme = pick(lengths)
    holders = [o.key for o, n in zip(item.options, lengths) if n == extreme]
    return 1 / len(holders) if item.answer in holders else 0.0


def check_key_extreme(items: Sequence[SpeechItem], scope: str, which: str) -> Check:
    name = f"key-{which}"
    n = len(items)
    if n < MIN_ITEMS:
        return _skip(name, scope, n)
    pick = max if which == "longest" else min
    hits = [it.item_id for it in items if _extreme_share(it, pick) == 1.0]
    share = sum(_extreme_share(it, pick) for it in items)
    rate = share / n
    verdict, p = _rate_verdict(rate, n, share)
    return Check(name, scope, verdict, round(rate, 4), n, f"key is the {which} option in {rate:.1%} of items (chance {CHANCE:.1%}, binomial p={p:.3g})", hits[:5])


def option_features(items: Sequence[SpeechItem]) -> tuple[Any, list[int], list[int]]:
    """One row per option: its length relative to its item's options, and its words. Labels 1 for the key."""
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction.text import HashingVectorizer

    texts, numeric, labels, groups = [], [], [], []
    for g, it in enumerate(items):
        lengths = [text_length(o.text) for o in it.options]
        mean = sum(lengths) / len(lengths)
        spread = (sum((x - mean) ** 2 for x in lengths) / len(lengths)) ** 0.5 or 1.0
        ranks = sorted(range(len(lengths)), key=lambda i: lengths[i])
        for i, o in enumerate(it.options):
            texts.append(" ".join(tokens(o.text)))
            numeric.append([(lengths[i] - mean) / spread, ranks.index(i) / (len(lengths) - 1), float(lengths[i] == max(lengths)), float(lengths[i] == min(lengths)), len(re.findall(r"[,，;；:：、]", o.text)) / 3])
            labels.append(int(o.key == it.answer))
            groups.append(g)
    words = HashingVectorizer(n_features=2**14, ngram_range=(1, 2), alternate_sign=False, norm="l2", token_pattern=r"\S+").transform(texts)
    return hstack([csr_matrix(numeric), words]).tocsr(), labels, groups


def options_only_accuracy(items: Sequence[SpeechItem], folds: int = 5) -> float:
    """Cross-validated accuracy of picking, per item, the option a classifier trained on other items' options
    scores highest. The classifier never sees the question or the game."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    X, y, groups = option_features(items)
    y, groups = np.asarray(y), np.asarray(groups)
    # Folds hold out whole games when there are enough, so game-specific wording cannot carry over.
    games = sorted({it.game_id for it in items})
    by_game = np.asarray([games.index(items[g].game_id) for g in groups])
    folds_by = by_game if len(games) >= folds else groups
    correct = 0
    for train, test in GroupKFold(n_splits=min(folds, len(set(folds_by.tolist())))).split(X, y, folds_by):
        model = LogisticRegression(C=1.0, max_iter=1000, solver="liblinear").fit(X[train], y[train])
        scores = model.decision_function(X[test])
        for g in np.unique(groups[test]):
            rows = np.flatnonzero(groups[test] == g)
            correct += int(y[test][rows[int(np.argmax(scores[rows]))]] == 1)
    return correct / len(items)


def check_options_only(items: Sequence[SpeechItem], scope: str) -> Check:
    n = len(items)
    if n < MIN_ITEMS:
        return _skip("options-only", scope, n)
    acc = options_only_accuracy(items)
    verdict, p = _rate_verdict(acc, n, acc * n)
    return Check("options-only", scope, verdict, round(acc, 4), n, f"options-only classifier (5-fold, games held out) picks the key in {acc:.1%} (chance {CHANCE:.1%}, binomial p={p:.3g})")


def duplicate_pairs(item: SpeechItem) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(exact, near) pairs of option keys: the same text after normalisation, or a ratio >= NEAR_DUPLICATE."""
    return duplicate_option_pairs(item.options)


def duplicate_option_pairs(options: Sequence[Option]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    exact, near = [], []
    texts = [(o.key, normalise(o.text)) for o in options]
    for i, (ka, a) in enumerate(texts):
        for kb, b in texts[i + 1 :]:
            if a == b:
                exact.append((ka, kb))
            elif _similar(a, b):
                near.append((ka, kb))
    return exact, near


def _similar(a: str, b: str) -> bool:
    m = SequenceMatcher(None, a, b, autojunk=False)
    return m.real_quick_ratio() >= NEAR_DUPLICATE and m.quick_ratio() >= NEAR_DUPLICATE and m.ratio() >= NEAR_DUPLICATE


def check_duplicates(items: Sequence[SpeechItem], scope: str, pairs: dict[str, tuple[list, list]]) -> Check:
    exact_ids, near_ids = [], []
    for it in items:
        exact, near = pairs[it.item_id]
        if exact:
            exact_ids.append(it.item_id)
        elif near:
            near_ids.append(it.item_id)
    verdict = "fail" if exact_ids else "warn" if near_ids else "pass"
    rate = (len(exact_ids) + len(near_ids)) / len(items) if items else 0.0
    return Check("duplicate-options", scope, verdict, round(rate, 4), len(items), f"{len(exact_ids)} items with identical options, {len(near_ids)} with near-identical ones (ratio >= {NEAR_DUPLICATE})", (exact_ids + near_ids)[:5])


def explanation_favours(item: SpeechItem) -> str | None:
    """The option the explanation overlaps most (character n-gram TF-IDF cosine), when it beats the key by
    EXPLANATION_MARGIN; None when the explanation agrees with the key or there is none."""
    if not item.explanation or not item.explanation.strip():
        return None
    sims = tfidf_cosines(normalise(item.explanation), [normalise(o.text) for o in item.options])
    keys = [o.key for o in item.options]
    key_sim = sims[keys.index(item.answer)]
    best = max(range(len(keys)), key=lambda i: (sims[i], -i))
    return keys[best] if keys[best] != item.answer and sims[best] > key_sim + EXPLANATION_MARGIN else None


def check_explanations(items: Sequence[SpeechItem], scope: str, favours: dict[str, str | None]) -> Check:
    explained = [it for it in items if it.explanation and it.explanation.strip()]
    if not explained:
        return Check("explanation-key", scope, "skip", None, 0, "no item has an explanation")
    off = [it.item_id for it in explained if favours[it.item_id] is not None]
    rate = len(off) / len(explained)
    verdict = "fail" if rate >= 0.5 else "warn" if rate >= 0.25 else "pass"
    return Check("explanation-key", scope, verdict, round(rate, 4), len(explained), f"{len(off)} of {len(explained)} explanations overlap another option more than the key", off[:5])


# --------------------------------------------------------------------------- leaks


def _role_words() -> dict[str, list[str]]:
    """Canonical role -> the labels a question may use for it (any language's: a label is just text)."""
    words: dict[str, list[str]] = {r: [r.replace("_", " ")] for r in ROLES}
    for label, role in ROLE_LABELS.items():
        if len(label) > 1 or not label.isascii():  # one-letter labels would match anywhere
            words.setdefault(role, []).append(label.casefold())
    return words


_SEAT_REF = re.compile(r"\b(?:seat|player|p)\s*(\d{1,2})\b|(\d{1,2})\s*号", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,，.。;；!！?？:：、]")


def _seat_role_claims(question: str, seats: set[int]) -> list[tuple[int, str]]:
    """(seat, role) pairs a question states: a role word in the same clause right after a seat reference."""
    text = normalise(question)
    words = _role_words()
    pairs = []
    for m in _SEAT_REF.finditer(text):
        seat = int(m.group(1) or m.group(2))
        if seat not in seats:
            continue
        rest = text[m.end() :]
        clause = rest[: _CLAUSE_END.search(rest).start()] if _CLAUSE_END.search(rest) else rest
        # ... or right before it, in the same clause ("the witch, seat 11", "女巫 11号")
        before = text[: m.start()]
        ends = list(_CLAUSE_END.finditer(before))
        lead = before[ends[-1].end() :] if ends else before
        clause = lead[-8:] + " " + clause[:40]
        for role, labels in words.items():
            if any(label in clause for label in labels):
                pairs.append((seat, role))
    return pairs


def _is_cjk(token: str) -> bool:
    return _CJK_RE.fullmatch(token) is not None


def leak_grams(text: str) -> set[tuple[str, ...]]:
    """Every shortest run of tokens worth LEAK_NGRAM words (a CJK character is worth half: a run of
    eight characters is a common phrase, not a quotation)."""
    toks = tokens(text)
    weights = [0.5 if _is_cjk(t) else 1.0 for t in toks]
    grams, j, total = set(), 0, 0.0
    for i in range(len(toks)):
        while j < len(toks) and total < LEAK_NGRAM:
            total += weights[j]
            j += 1
        if total < LEAK_NGRAM:
            break
        grams.add(tuple(toks[i:j]))
        total -= weights[i]
    return grams


@lru_cache(maxsize=16384)
def _text_grams(text: str) -> frozenset[tuple[str, ...]]:
    return frozenset(leak_grams(text))


def _show(gram: tuple[str, ...]) -> str:
    return "".join(gram) if all(map(_is_cjk, gram)) else " ".join(gram)


def hidden_text_index(game: GameLog) -> dict[tuple[str, ...], float]:
    """Every LEAK_NGRAM-gram of the game's turns -> the latest first segment of a turn saying it (the recap
    and the annotator log count as never visible). A gram is hidden text at cut-off c when its value > c."""
    index: dict[tuple[str, ...], float] = {}
    for u in game.utterances:
        for gram in _text_grams(u.text):
            index[gram] = max(index.get(gram, -1), min(u.segment_ids))
    for text in (game.recap, game.annotator_log):
        for gram in leak_grams(text or ""):
            index[gram] = float("inf")
    return index


def stem_leaks(game: GameLog, item: SpeechItem, hidden: dict[tuple[str, ...], float] | None = None, *, stem: str | None = None) -> list[str]:
    """Reasons the question tells more than the viewpoint knew at the cut-off (empty: no leak found).

    - it states a seat's TRUE role that the viewpoint does not know and that no visible speech or
      event so much as names (a role someone claimed at the table is public talk, not a leak);
    - it copies LEAK_NGRAM tokens of hidden text (turns after the cut-off, the recap, the annotator
      log) that appear nowhere in what the viewpoint saw.

    `stem`: the text to check instead of `item.question` (validate checks the stem a prompt shows).
    """
    question = item.question if stem is None else stem
    hidden = hidden_text_index(game) if hidden is None else hidden
    truth = {s.seat: s.role for s in game.seats}
    claims = _seat_role_claims(question, set(truth))
    copied = {g for g in leak_grams(question) if hidden.get(g, -1) > item.cutoff_segment}
    if not claims and not copied:
        return []  # the common case: no need to build what the viewpoint saw
    ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment)
    # A role is "named at the table" only by what was said or happened, not by the rules, which list every card.
    seen_norm = normalise(" ".join([*(u.text for u in ctx.utterances), *(e.result or "" for e in ctx.public_events + ctx.private_events)]))
    known = set(ctx.allies) | ({item.viewpoint_seat} if item.viewpoint_seat is not None else set())
    words = _role_words()
    reasons = []
    for seat, role in claims:
        if seat in known or truth.get(seat) != role:
            continue
        if not any(label in seen_norm for label in words.get(role, [])):
            reasons.append(f"names seat {seat}'s hidden role ({role}), which nothing visible at the cut-off mentions")
    # Per shown text, cached: the same turns are seen from many cut-offs (one pass over the whole
    # transcript per item made `werealign validate` of the release several times slower).
    for text in [ctx.rules_text, *(u.text for u in ctx.utterances), *(e.result or "" for e in ctx.public_events + ctx.private_events)]:
        if not copied:
            break
        copied -= _text_grams(text)
    if copied:
        reasons.append(f"copies hidden text (after the cut-off, recap or annotator log): '{_show(min(copied))}'")
    return reasons


def item_leaks(ds: Dataset, items: Sequence[SpeechItem]) -> dict[str, list[str] | None]:
    """Leak reasons per item id; None for an item whose game is not in the dataset."""
    indexes: dict[str, dict[tuple[str, ...], float]] = {}
    out: dict[str, list[str] | None] = {}
    for it in items:
        game = ds.games.get(it.game_id)
        if game is not None and it.game_id not in indexes:
            indexes[it.game_id] = hidden_text_index(game)
        out[it.item_id] = None if game is None else stem_leaks(game, it, indexes[it.game_id])
    return out


def check_leaks(items: Sequence[SpeechItem], scope: str, leaks: dict[str, list[str] | None]) -> Check:
    leaking = [it.item_id for it in items if leaks[it.item_id]]
    unchecked = sum(leaks[it.item_id] is None for it in items)
    n = len(items) - unchecked
    if n == 0:
        return Check("stem-leak", scope, "skip", None, 0, "no item's game is in the dataset")
    rate = len(leaking) / n
    verdict = "fail" if rate >= 0.05 else "warn" if leaking else "pass"
    note = f"; {unchecked} items without their game not checked" if unchecked else ""
    return Check("stem-leak", scope, verdict, round(rate, 4), n, f"{len(leaking)} questions tell more than the viewpoint knew at the cut-off{note}", leaking[:5])


# --------------------------------------------------------------------------- the report


def audit_items(ds: Dataset, items: Sequence[SpeechItem] | None = None, name: str | None = None) -> AuditReport:
    """Every check over all items and per dimension (dimensions the schema does not list are audited too)."""
    items = list(ds.speech if items is None else items)
    scopes: list[tuple[str, list[SpeechItem]]] = [("all", items)]
    present = sorted({it.dimension for it in items}, key=lambda d: (DIMENSIONS.index(d) if d in DIMENSIONS else len(DIMENSIONS), d))
    scopes += [(d, [it for it in items if it.dimension == d]) for d in present]
    pairs = {it.item_id: duplicate_pairs(it) for it in items}
    favours = {it.item_id: explanation_favours(it) for it in items}
    leaks = item_leaks(ds, items)
    checks: list[Check] = []
    for scope, group in scopes:
        checks += [
            check_key_position(group, scope),
            check_key_extreme(group, scope, "longest"),
            check_key_extreme(group, scope, "shortest"),
            check_options_only(group, scope),
            check_duplicates(group, scope, pairs),
            check_explanations(group, scope, favours),
            check_leaks(group, scope, leaks),
        ]
    return AuditReport(dataset=name or (ds.manifest.name if ds.manifest else ""), items=len(items), checks=checks)


def render_text(report: AuditReport) -> str:
    lines = [f"audit of {report.dataset}: {report.items} speech items, verdict {report.verdict.upper()}"]
    for c in report.checks:
        ex = f" e.g. {', '.join(c.examples)}" if c.examples and c.verdict in ("warn", "fail") else ""
        lines.append(f"{c.verdict.upper():4}  {c.scope:3}  {c.name:17}  n={c.n:<4} {c.detail}{ex}")
    counts = Counter(c.verdict for c in report.checks)
    lines.append(", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS))
    return "\n".join(lines)
