"""Opponent items (OI): the seats of the opposing faction. Answer: a set of seats.

Primary metric `mean_jaccard`: per sample |P ∩ G| / |P ∪ G| between the predicted set P and the true
opposing faction G (0 for a parse failure), averaged over samples. Reported beside it: `exact_match`,
`precision`/`recall`/`f1` macro-averaged over samples (precision of an empty prediction = 0), and
`micro_precision`/`micro_recall`/`micro_f1` from summed counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from statistics import fmean
from typing import Any

from werealign.schema import GameLog, OpponentItem
from werealign.tasks.answers import read_seat, seat_value, short
from werealign.tasks.base import Parsed, Sample, Task
from werealign.tasks.common import by_role, counts, decode_std, mean_value, rounded, seat_list

_SEAT_WORDS = re.compile(r"\b(?:seats?|players?)\b|no\.|#", re.I)
_SEP = re.compile(r"\s*(?:[,;、/]|\band\b|和|与)\s*|\s+", re.I)


def question_vars(game: GameLog, item: OpponentItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    return {"candidates": seat_list(sorted(item.candidates))}


def parse(value: str, item: OpponentItem, option_order: list[int] | None) -> Parsed:
    value = seat_value(value)
    if not value:
        return Parsed(None, "answer line is empty")
    tokens = [t for t in _SEP.split(_SEAT_WORDS.sub(" ", value).strip()) if t]
    seats = []
    for t in tokens:
        s = read_seat(t)
        if s is None:
            return Parsed(None, f"answer '{short(value)}' is not a list of seat numbers ('{short(t)}')")
        seats.append(s)
    if not seats:
        return Parsed(None, "answer names no seat")
    bad = sorted({s for s in seats if s not in item.candidates})
    if bad:
        return Parsed(None, f"seat(s) {', '.join(map(str, bad))} not among the candidates")
    return Parsed(tuple(sorted(set(seats))), None)


def set_scores(pred: Sequence[int] | None, gold: Sequence[int]) -> dict[str, float]:
    """Per-sample set agreement; a parse failure (None) is an empty prediction."""
    p, g = set(pred or ()), set(gold)
    inter = len(p & g)
    union = len(p | g)
    precision = inter / len(p) if p else 0.0
    recall = inter / len(g) if g else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "jaccard": inter / union if union else 1.0,
        "exact": float(p == g),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "tp": inter,
        "n_pred": len(p),
        "n_gold": len(g),
    }


def jaccard(sample: Sample) -> float:
    return set_scores(sample["answer"], sample["gold"])["jaccard"]


def score(samples: Sequence[Sample]) -> dict[str, Any]:
    answered = [s for s in samples if not s["request_error"]]
    per = [set_scores(s["answer"], s["gold"]) for s in answered]
    tp = sum(p["tp"] for p in per)
    n_pred = sum(p["n_pred"] for p in per)
    n_gold = sum(p["n_gold"] for p in per)
    micro_p = tp / n_pred if n_pred else 0.0
    micro_r = tp / n_gold if n_gold else 0.0
    per_decode, std = decode_std(samples, partial(mean_value, value=jaccard))

    def avg(field: str) -> float | None:
        return rounded(fmean(p[field] for p in per)) if per else None

    return {
        "metric": "mean_jaccard",
        "mean_jaccard": avg("jaccard"),
        "mean_jaccard_std": std,
        "per_decode_mean_jaccard": per_decode,
        "exact_match": avg("exact"),
        "precision": avg("precision"),
        "recall": avg("recall"),
        "f1": avg("f1"),
        "micro_precision": rounded(micro_p) if per else None,
        "micro_recall": rounded(micro_r) if per else None,
        "micro_f1": rounded(2 * micro_p * micro_r / (micro_p + micro_r) if micro_p + micro_r else 0.0) if per else None,
        "by_viewpoint_role": by_role(samples, jaccard),
        **counts(samples),
    }


TASK = Task(
    name="opponent",
    item_model=OpponentItem,
    variants=("base", "osr"),
    metric="mean_jaccard",
    question_vars=question_vars,
    parse=parse,
    score=score,
    gold=lambda item: sorted(item.answer),
    is_correct=lambda answer, gold: sorted(answer) == sorted(gold),
)
