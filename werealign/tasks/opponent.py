"""Opponent items (OI): the seats of the opposing faction. Answer: a set of seats.

Three modes (`werealign eval --mode opponent=...`, alias `--oi-mode`). Two ask the same prompt with a different headline:
- `set` (default), metric `mean_jaccard`: per sample |P ∩ G| / |P ∪ G| between the predicted set P and the
  true opposing faction G (0 for a parse failure or a failed request), averaged over ALL samples;
- `set-accuracy`, metric `exact_match`: P == G, the paper's "set-level accuracy".
The third asks a different question of the same items (same cut-off and viewpoint):
- `roles`, metric `role_accuracy` (the WereBench release authors' protocol): the role card of every other
  seat, one "seat: role" pair each on the answer line; gold = the seats' true roles; accuracy
  micro-averaged over seats of ALL samples (a parse failure or failed request: every seat wrong; a seat
  left out or an unknown role label: that seat wrong). Labels are read through the role catalogue (the
  game's declared roles included), in any language it names, so "预言家", "seer" and "预言家/seer" agree.
The prompt states the candidate rule (every other seat, in or out of the game; or only the seats still in
it, when an item's candidates are those). Reported beside the headline: `exact_match`,
`precision`/`recall`/`f1` macro-averaged over samples (precision of an empty prediction = 0), and
`micro_precision`/`micro_recall`/`micro_f1` from summed counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from math import comb
from statistics import fmean
from typing import Any

from werealign.game.derivation import Deriving, Made, notes_about
from werealign.game.derive import SHARED_CODES, mvp_votes
from werealign.render.lines import seat_list
from werealign.render.phrases import role_name
from werealign.schema import GameLog, OpponentItem
from werealign.schema.roles import catalogue_for, normalise_label
from werealign.tasks.answers import read_seat, seat_value, short
from dataclasses import replace

from werealign.schema.runs import OpponentRoleScores, OpponentScores
from werealign.tasks.base import ItemChecks, Parsed, Sample, Scorer, Task
from werealign.tasks.checks import check_distinct_seats, check_seats_exist
from werealign.tasks.common import by_role, counts, decode_std, mean_value, rounded

_SEAT_WORDS = re.compile(r"\b(?:seats?|players?)\b|no\.|#", re.I)
_SEP = re.compile(r"\s*(?:[,;、/]|\band\b|和|与)\s*|\s+", re.I)


MODES: tuple[str, ...] = ("set", "set-accuracy", "roles")


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
    seats = sorted(item.candidates)
    return {"candidates": seat_list(seats), "candidate_seats": seats, "candidate_rule": candidate_rule(game, item)}


def parse(value: str, item: OpponentItem, option_order: list[int] | None, game: GameLog | None = None) -> Parsed:
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


# --------------------------------------------------------------------------- mode `roles`: every seat's role card


def role_cards(game: GameLog) -> list[tuple[str, int | None]]:
    """The public card list: (role, count) most common first (catalogue order among equals); counts are None
    when only the list of cards is public (`rules.public_cards`: spare cards, so the seats are not the deck)."""
    cat = catalogue_for(game.rules.declared_roles)
    if game.rules.public_cards is not None:
        return [(r, None) for r in sorted(dict.fromkeys(game.rules.public_cards), key=cat.order)]
    return [(rc.role, rc.count) for rc in sorted(game.rules.composition, key=lambda rc: (-rc.count, cat.order(rc.role)))]


def seats_asked(game: GameLog, item: OpponentItem) -> list[int]:
    """Every seat but the viewpoint's, in the game or out of it (the release authors ask of every player)."""
    return sorted(s.seat for s in game.seats if s.seat != item.viewpoint_seat)


def roles_question_vars(game: GameLog, item: OpponentItem, lang: str, option_order: list[int] | None = None) -> dict[str, Any]:
    cat = catalogue_for(game.rules.declared_roles)
    cards = role_cards(game)
    sep = "、" if lang == "zh" else ", "
    shown = sep.join(role_name(r, lang, cat) + (f" ×{n}" if n is not None else "") for r, n in cards)
    seats = seats_asked(game, item)
    return {"candidates": seat_list(seats), "candidate_seats": seats, "role_cards": shown,
            "role_card_names": [role_name(r, lang, cat) for r, _ in cards], "counts_public": all(n is not None for _, n in cards)}


def roles_gold(item: OpponentItem, game: GameLog) -> dict[str, str]:
    asked = set(seats_asked(game, item))
    return {str(s.seat): s.role for s in sorted(game.seats, key=lambda s: s.seat) if s.seat in asked}


_PAIR = re.compile(r"^(?:seat|player|no\.?|#)?\s*(\d{1,2})\s*(?:号|號)?\s*[:=]\s*(.*)$", re.I)
_PAIR_SEP = re.compile(r"\s*[;,、|]\s*")
_LABEL_PARTS = re.compile(r"\s*[/()（）\[\]]\s*")
# The answer value of a role label nobody knows: never equal to a role, so the seat counts as wrong.
UNKNOWN_ROLE = "unknown:"


def read_role(label: str, game: GameLog) -> str:
    """A role label of a reply -> the role id (catalogue and the game's declared roles, any language; a role
    the game holds under a raw label matches that label); UNKNOWN_ROLE + label otherwise."""
    cat = catalogue_for(game.rules.declared_roles)
    raw = {normalise_label(s.role): s.role for s in game.seats}
    label = label.strip().strip("。.\"'“”「」*")
    for candidate in [label, *(p for p in _LABEL_PARTS.split(label) if p)]:
        role = cat.canonical(candidate) or raw.get(normalise_label(candidate))
        if role is not None:
            return role
    return UNKNOWN_ROLE + label


def roles_parse(value: str, item: OpponentItem, option_order: list[int] | None, game: GameLog) -> Parsed:
    value = value.strip().rstrip("。.").strip()
    if not value:
        return Parsed(None, "answer line is empty")
    asked = set(seats_asked(game, item))
    answer: dict[str, str] = {}
    for token in (t for t in _PAIR_SEP.split(value) if t):
        m = _PAIR.match(token)
        if m is None:
            return Parsed(None, f"answer '{short(value)}' is not a list of 'seat: role' pairs ('{short(token)}')")
        seat, label = int(m.group(1)), m.group(2)
        if seat not in asked:
            return Parsed(None, f"seat {seat} is not one of the seats asked about")
        role = read_role(label, game)
        if answer.get(str(seat), role) != role:
            return Parsed(None, f"seat {seat} is given two different roles")
        answer[str(seat)] = role
    if not answer:
        return Parsed(None, "answer names no seat")
    return Parsed(dict(sorted(answer.items(), key=lambda kv: int(kv[0]))), None)


def _role_hits(sample: Sample) -> tuple[int, int]:
    """(seats labelled right, seats asked); a failed request or parse failure labels none right."""
    gold = sample["gold"]
    answer = None if sample["request_error"] else sample["answer"]
    return (sum(1 for seat, role in gold.items() if (answer or {}).get(seat) == role), len(gold))


def role_value(sample: Sample) -> float:
    """One sample's share of seats labelled right (its per-item statistic; the headline sums seats)."""
    hits, n = _role_hits(sample)
    return hits / n if n else 0.0


def _micro(samples: Sequence[Sample]) -> float | None:
    hits = [_role_hits(s) for s in samples]
    seats = sum(n for _, n in hits)
    return sum(h for h, _ in hits) / seats if seats else None


def roles_score(samples: Sequence[Sample]) -> dict[str, Any]:
    per_decode, std = decode_std(samples, _micro)
    answered = [s for s in samples if not s["request_error"]]
    exact = [float(not s["request_error"] and s["answer"] == s["gold"]) for s in samples]
    return {
        "metric": "role_accuracy",
        "role_accuracy": rounded(_micro(samples)),
        "role_accuracy_std": std,
        "per_decode_role_accuracy": per_decode,
        "role_accuracy_answered": rounded(_micro(answered)),
        "mean_item_role_accuracy": rounded(mean_value(samples, role_value)),
        "exact_match": rounded(fmean(exact)) if exact else None,
        "seats": sum(len(s["gold"]) for s in samples),
        "by_viewpoint_role": by_role(samples, role_value),
        **counts(samples),
    }


def roles_chance(item: OpponentItem, metric: str, game: GameLog) -> tuple[float, int]:
    """werealign/random's policy: a uniform card of the list per seat; a seat whose role is not listed is never right."""
    cards = {r for r, _ in role_cards(game)}
    gold = roles_gold(item, game)
    return sum(1 / len(cards) for role in gold.values() if role in cards), len(gold)


# --------------------------------------------------------------------------- floors (werealign.eval.floors)


def random_set_score(candidates: Sequence[int], gold: Sequence[int], metric: str) -> float:
    """Exact expected Jaccard (or exact match) of werealign/random's OI policy."""
    n, g = len(candidates), len(set(gold))
    g_in = len(set(gold) & set(candidates))
    total = 0.0
    for k in range(g_in + 1):  # gold seats named
        for j in range(n - g_in + 1):  # other seats named
            if k == 0 and j == 0:
                continue
            weight = comb(g_in, k) * comb(n - g_in, j) / 2**n
            total += weight * (k / (g + j) if metric != "exact_match" else float(k == g and j == 0))
    # Naming nobody is replaced by one uniform candidate.
    one = (g_in / n) * (1 / g if metric != "exact_match" else float(g == 1)) if n else 0.0
    return total + one / 2**n


REVEALED = "revealed-wolves"


def revealed_wolves(game: GameLog, cutoff: int) -> list[int]:
    """Seats everyone saw shown to be wolves at or before the cut-off segment: a self-destruct (a wolf's public act),
    or a role announced to the table (a `role_reveal` event, e.g. at elimination in online Mafia) whose role is on
    the wolf side."""
    from werealign.schema.roles import catalogue_for

    catalogue = catalogue_for(game.rules.declared_roles)

    def shown(e) -> bool:
        return e.audience.kind == "everyone" and e.segment_id is not None and e.segment_id <= cutoff

    destructs = {int(e.actor) for e in game.events if e.kind == "self_destruct" and isinstance(e.actor, int) and shown(e)}
    reveals = {e.target for e in game.events if e.kind == "role_reveal" and e.target is not None and shown(e)
               and catalogue.faction(catalogue.canonical(e.result or "") or "") == "wolf"}
    return sorted(destructs | reveals)


def truth_floors(asked: Sequence[tuple[GameLog, OpponentItem]], metric: str) -> dict[str, float | None]:
    """Mean score of naming only the publicly revealed wolves (nobody, when none is: score 0)."""
    per = []
    for game, item in asked:
        named = set(revealed_wolves(game, item.cutoff_segment)) & set(item.candidates)
        gold = set(item.answer)
        if metric == "exact_match":
            per.append(float(named == gold))
        else:
            per.append(len(named & gold) / len(named | gold) if named | gold else 1.0)
    return {REVEALED: rounded(fmean(per)) if per else None}


# --------------------------------------------------------------------------- validation (werealign.validate)
# The checks import werealign.validate when they run: it reads the registry, so not at import time.


def looks_like(row: dict[str, Any]) -> bool:
    return isinstance(row.get("answer"), list)


def check(item: OpponentItem, out) -> None:

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


def sample_value(sample: Sample) -> float:
    """One sample's share of its headline: mode `roles` records a seat -> role gold (the share of seats labelled
    right), the set modes a list of seats (Jaccard)."""
    return role_value(sample) if isinstance(sample["gold"], dict) else jaccard(sample)


def derive(at: Deriving) -> Made:
    """OI items of one game: one per distinct cut-off of the MVP's votes (or the deciders'), read with VA's in one pass
    (werealign.game.derive); each vote dropped is listed."""
    made = at.shared(mvp_votes)
    return Made(made.opponent, notes_about(made.notes, "oi_", "opponent_item", *SHARED_CODES), listed=True)


SET_TASK = Task(
    name="opponent",
    description="OI: the seats of the opposing faction",
    item_model=OpponentItem,
    variants=("base", "osr", "no-context", "options-only"),
    question_vars=question_vars,
    parse=parse,
    scorer=Scorer(
        metric="mean_jaccard",
        score=score,
        is_correct=lambda answer, gold: sorted(answer) == sorted(gold),
        mode_metrics={"set-accuracy": "exact_match"},
        sample_value=sample_value,
        results_models=(OpponentScores, OpponentRoleScores),
        shortcuts=("all-candidates", "longest"),
        chance=lambda item, metric, game: (random_set_score(item.candidates, item.answer, metric), 1),
        truth_floors=truth_floors,
        label="OI",
        board_metrics=("mean_jaccard", "role_accuracy"),
        titles={"mean_jaccard": "OI mean Jaccard"},
        always_shown=True,
        board_group="va-oi",
        card_text="OI: the seats of the opposing faction, as seen from the viewpoint seat",
    ),
    answer_shape="seats",
    answer_forms=("<seat>, <seat>, ...", "<座位号>, <座位号>, ..."),
    gold=lambda item, game=None: sorted(item.answer),
    modes=MODES,
    modes_about={"set": "mean Jaccard with the opposing faction", "set-accuracy": "the exact set (the paper's)",
                 "roles": "every other seat's role card (release authors)"},
    mode_alias="oi",
    derive=derive,
    checks=ItemChecks(looks_like=looks_like, check=check, check_refs=check_refs),
)

# Mode `roles` asks its own question of the same items: the same kind with its own template, answer and scores.
ROLES = replace(
    SET_TASK,
    template="opponent_roles",
    question_vars=roles_question_vars,
    answer_shape="roles",
    answer_forms=("<seat>: <role>; <seat>: <role>; ...", "<座位号>: <身份>; <座位号>: <身份>; ..."),
    gold=roles_gold,
    parse=roles_parse,
    scorer=replace(SET_TASK.scorer, metric="role_accuracy", score=roles_score, is_correct=lambda answer, gold: answer == gold,
                   mode_metrics={}, shortcuts=("majority-role", "longest"), chance=roles_chance,
                   truth_floors=lambda asked, metric: {}),
)

TASK = replace(SET_TASK, asks={"roles": ROLES})
