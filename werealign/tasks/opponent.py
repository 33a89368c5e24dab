"""Opponent items (OI): the seats of the opposing faction. Answer: a set of seats.

Two modes (`werealign eval --oi-mode`), the same prompt, a different headline:
- `set` (default), metric `mean_jaccard`: per sample |P ∩ G| / |P ∪ G| between the predicted set P and the
  true opposing faction G (0 for a parse failure or a failed request), averaged over ALL samples;
- `set-accuracy`, metric `exact_match`: P == G, the paper's "set-level accuracy".
The prompt states the candidate rule (every other seat, in or out of the game; or only the seats still in
it, when an item's candidates are those). Reported beside the headline: `exact_match`,
`precision`/`recall`/`f1` macro-averaged over samples (precision of an empty prediction = 0), and
`micro_precision`/`micro_recall`/`micro_f1` from summed counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from statistics import fmean
from typing import Any

from werealign.render.lines import seat_list
from werealign.schema import GameLog, OpponentItem
from werealign.tasks.answers import read_seat, seat_value, short
from werealign.tasks.base import Parsed, Sample, Task
from werealign.tasks.common import by_role, counts, decode_std, mean_value, rounded

_SEAT_WORDS = re.compile(r"\b(?:seats?|players?)\b|no\.|#", re.I)
_SEP = re.compile(r"\s*(?:[,;、/]|\band\b|和|与)\s*|\s+", re.I)


MODES: tuple[str, ...] = ("set", "set-accuracy")


def candidate_rule(game: GameLog, item: OpponentItem) -> str | None:
    """Which seats an item lets the model name: 'all' (every other seat, out of the game or not), 'alive'
    (every other seat still in the game at the cut-off), or None (an item's own list)."""
    others = {s.seat for s in game.seats} - {item.viewpoint_seat}
    out = {e.target for e in game.events if e.kind == "elimination" and e.segment_id is not None and e.segment_id <= item.cutoff_segment}
    if set(item.candidates) == others:
        return "all"
    if set(item.candidates) == others - out:
        return "alive"
    return None


def question_vars(game: GameLog, item: OpponentItem, lang: str, option_order: list[int] | None) -> dict[str, Any]:
    return {"candidates": seat_list(sorted(item.candidates)), "candidate_rule": candidate_rule(game, item)}


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
    # A failed request is an empty prediction, like an unparsable reply: the headline covers every sample.
    per = [set_scores(None if s["request_error"] else s["answer"], s["gold"]) for s in samples]
    answered = [p for p, s in zip(per, samples) if not s["request_error"]]
    tp = sum(p["tp"] for p in per)
    n_pred = sum(p["n_pred"] for p in per)
    n_gold = sum(p["n_gold"] for p in per)
    micro_p = tp / n_pred if n_pred else 0.0
    micro_r = tp / n_gold if n_gold else 0.0
    per_decode, std = decode_std(samples, partial(mean_value, value=jaccard))

    def avg(field: str, rows: list[dict[str, float]] = per) -> float | None:
        return rounded(fmean(p[field] for p in rows)) if rows else None

    return {
        "metric": "mean_jaccard",
        "mean_jaccard": avg("jaccard"),
        "mean_jaccard_std": std,
        "per_decode_mean_jaccard": per_decode,
        "exact_match": avg("exact"),
        "mean_jaccard_answered": avg("jaccard", answered),
        "exact_match_answered": avg("exact", answered),
        "precision": avg("precision"),
        "recall": avg("recall"),
        "f1": avg("f1"),
        "micro_precision": rounded(micro_p) if per else None,
        "micro_recall": rounded(micro_r) if per else None,
        "micro_f1": rounded(2 * micro_p * micro_r / (micro_p + micro_r) if micro_p + micro_r else 0.0) if per else None,
        "by_viewpoint_role": by_role(samples, jaccard),
        **counts(samples),
    }


# --------------------------------------------------------------------------- validation (werealign.validate)
# The checks import werealign.validate when they run: it reads the registry, so not at import time.


def looks_like(row: dict[str, Any]) -> bool:
    return isinstance(row.get("answer"), list)


def check(item: OpponentItem, out) -> None:
    from werealign.validate.item_checks import check_distinct_seats

    check_distinct_seats(item.candidates, "candidates", out)
    check_distinct_seats(item.answer, "answer", out)
    outside = [s for s in item.answer if s not in item.candidates]
    if outside:
        out.error("answer-not-candidate", "answer", f"answer seat(s) {outside} are not among the candidates {item.candidates}")
    if item.viewpoint_seat in item.answer:
        out.error("viewpoint-in-answer", "answer", f"the viewpoint seat {item.viewpoint_seat} cannot be its own opponent")
    if list(item.answer) != sorted(item.answer):
        out.warning("answer-not-sorted", "answer", f"answer seats should be ascending: {sorted(item.answer)}")


def check_refs(item: OpponentItem, idx, out) -> None:
    from werealign.validate.item_checks import check_seats_exist

    check_seats_exist(item.candidates, "candidates", idx, out)
    check_seats_exist(item.answer, "answer", idx, out)
    if item.viewpoint_seat in idx.seats:
        _check_factions(item, idx, out)


def _check_factions(item: OpponentItem, idx, out) -> None:
    """The answer should be exactly the opposing faction; only decidable between good and wolf."""
    mine = idx.seats[item.viewpoint_seat]
    other = {"good": "wolf", "wolf": "good"}.get(mine)
    if other is None:
        return
    expected = {s for s, f in idx.seats.items() if f == other}
    allies = sorted(s for s in item.answer if idx.seats.get(s) == mine)
    missing = sorted(expected - set(item.answer))
    if allies:
        out.warning("answer-faction-mismatch", "answer", f"answer names seat(s) {allies} of the viewpoint's own faction ({mine})")
    if missing:
        out.warning("answer-faction-mismatch", "answer", f"answer leaves out {other} seat(s) {missing}")


TASK = Task(
    name="opponent",
    item_model=OpponentItem,
    variants=("base", "osr"),
    metric="mean_jaccard",
    question_vars=question_vars,
    parse=parse,
    score=score,
    answer_shape="seats",
    answer_forms=("<seat>, <seat>, ...", "<座位号>, <座位号>, ..."),
    shortcuts=("all-candidates", "longest"),
    gold=lambda item: sorted(item.answer),
    is_correct=lambda answer, gold: sorted(answer) == sorted(gold),
    modes=MODES,
    mode_metrics={"set-accuracy": "exact_match"},
    looks_like=looks_like,
    check=check,
    check_refs=check_refs,
)
