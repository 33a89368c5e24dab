"""The checks that need no model: where the key sits, whether it is the longest or shortest option,
duplicate options, and explanations that argue for another option."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from difflib import SequenceMatcher

from werealign.shortcuts.verdicts import CHANCE, MIN_ITEMS, Check, rate_verdict, skip
from werealign.shortcuts.text import normalise, text_length
from werealign.schema import Option, SpeechItem
from werealign.schema.models import OPTION_KEYS
from werealign.text.similarity import tfidf_cosines

NEAR_DUPLICATE = 0.9  # SequenceMatcher ratio of two normalised options
EXPLANATION_MARGIN = 0.05  # cosine by which another option must beat the key to count as disagreement


def check_key_position(items: Sequence[SpeechItem], scope: str) -> Check:
    n = len(items)
    if n < MIN_ITEMS:
        return skip("key-position", scope, n)
    from scipy.stats import chisquare

    counts = Counter(it.answer for it in items)
    observed = [counts.get(k, 0) for k in OPTION_KEYS]
    p = float(chisquare(observed).pvalue)
    verdict = "fail" if p < 0.01 else "warn" if p < 0.05 else "pass"
    dist = " ".join(f"{k}:{c}" for k, c in zip(OPTION_KEYS, observed))
    return Check("key-position", scope, verdict, round(p, 4), n, f"chi-square p={p:.3g}; {dist}")


def extreme_share(item: SpeechItem, pick: Callable[[list[int]], int]) -> float:
    """1 when the key alone is the extreme, 1/k when it shares the extreme with k-1 others, else 0."""
    lengths = [text_length(o.text) for o in item.options]
    extreme = pick(lengths)
    holders = [o.key for o, n in zip(item.options, lengths) if n == extreme]
    return 1 / len(holders) if item.answer in holders else 0.0


def key_longest_rate(items: Sequence[SpeechItem]) -> float:
    """Share of items whose key is the longest option, ties shared (chance: 1/9)."""
    return sum(extreme_share(it, max) for it in items) / len(items) if items else 0.0


def check_key_extreme(items: Sequence[SpeechItem], scope: str, which: str) -> Check:
    name = f"key-{which}"
    n = len(items)
    if n < MIN_ITEMS:
        return skip(name, scope, n)
    pick = max if which == "longest" else min
    hits = [it.item_id for it in items if extreme_share(it, pick) == 1.0]
    share = sum(extreme_share(it, pick) for it in items)
    rate = share / n
    verdict, p = rate_verdict(rate, n, share)
    return Check(name, scope, verdict, round(rate, 4), n, f"key is the {which} option in {rate:.1%} of items (chance {CHANCE:.1%}, binomial p={p:.3g})", hits[:5])


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
    # real_quick_ratio's bound from the lengths alone, before SequenceMatcher indexes b (most pairs stop here)
    if (a or b) and 2.0 * min(len(a), len(b)) / (len(a) + len(b)) < NEAR_DUPLICATE:  # difflib's own formula
        return False
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
