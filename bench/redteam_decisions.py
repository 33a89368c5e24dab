"""Red-team attacks on decision items (bench/redteam.py): rules a player would use, read from what the item's prompt
shows (werealign.game.visibility.build_context with the kind's own context rules, the answer withheld), and shallow
learners fitted on other games only.

Options are the candidates, then "none" where not acting (no save, no poison, abstaining, tearing the badge) is legal;
claim items: "none" then the roles; OI items: the candidates, scored as a set. Seat rules (each names a legal option, or
says nothing and scores chance):
- `always-none`, `always-self` (the decider's own seat), `always-about` (the seat the decision is about: the witch's
  victim), `first-option`, `last-option`;
- `most-named`, `most-named-today`, `least-named`, `last-named`: seat mentions in the shown players' turns;
- `most-accused`, `most-accused-today`: seats named in a clause with an accusing word (狼, 查杀, 踩, 出, vote, wolf...);
  `most-trusted`: with a clearing word (金水, 好人, good);
- `most-voted`: the public ballots shown so far;
- `last-call`: the seat named in the last 归票 (a vote call, "vote for/out"); `last-call-loose`: any call verb (投, 出N号, 放逐);
- `seer-claimant`: the seat that last claimed seer; `seer-kill` / `seer-gold`: the last 查杀 / 金水 a seer claimant named;
- `sheriff-pick`: the sheriff's last call (else the last seat the sheriff named today);
- `own-most-named`, `own-last-named`: the decider's own shown turns;
- `night1-save`: on night 1 act on the seat the decision is about (or the sole candidate), later never.
Claim rules: `always-none`, `last-option`, `own-role`, `counter-seer` (seer after someone else claimed seer),
`last-claimed-role`, `own-role-words`, `run-and-claim` (own role in the sheriff election when the decider ran).
Learners: `hgb-shallow`, `lr-shallow` over per-option features (the rules' readings, position, night number, kind of
phase), each beside its within-item rank (bench.redteam_core.relational).
"""

from __future__ import annotations

import re
from collections import Counter

from bench.redteam_core import (ACCUSE, CALL_LOOSE, CALL_STRICT, CHECK_GOOD, CHECK_WOLF, GOOD, SEER_CLAIM, Case, bound_seats,
                                clause_seats_with, relational, role_words, seats)

NONE = "none"
SEAT_RULES = ("always-none", "always-self", "always-about", "first-option", "last-option", "most-named", "most-named-today",
              "least-named", "last-named", "most-accused", "most-accused-today", "most-trusted", "most-voted", "last-call",
              "last-call-loose", "seer-claimant", "seer-kill", "seer-gold", "sheriff-pick", "own-most-named", "own-last-named",
              "night1-save")
CLAIM_RULES = ("always-none", "last-option", "own-role", "counter-seer", "last-claimed-role", "own-role-words", "run-and-claim")
CONSTANT_RULES = ("always-none", "always-self", "always-about", "first-option", "last-option")


def _one(options: list, pick) -> list[float] | None:
    return [float(o == pick) for o in options] if pick is not None and pick in options else None


def _counts(options: list, counts: Counter) -> list[float] | None:
    scores = [float(counts.get(o, 0)) for o in options]
    return scores if any(scores) else None


def _last(options: list, picks: list) -> list[float] | None:
    legal = [p for p in picks if p in options]
    return _one(options, legal[-1]) if legal else None


class Shown:
    """The readings every seat rule shares, from one built context."""

    def __init__(self, ctx, seat: int):
        day_of = {p.id: p.day for p in ctx.phases}
        talk_days = [p for p in ctx.phases if p.kind != "night"]
        self.today = talk_days[-1].id if talk_days else None
        self.turns = [(u.speaker, u.phase, u.text) for u in ctx.utterances if isinstance(u.speaker, int)]
        today = [t for t in self.turns if self.today is not None and day_of.get(t[1]) == day_of.get(self.today)]
        own = [t for s, _, t in self.turns if s == seat]
        self.named = Counter(s for _, _, t in self.turns for s in seats(t))
        self.named_today = Counter(s for _, _, t in today for s in seats(t))
        self.order = [s for _, _, t in self.turns for s in seats(t)]
        self.accused = Counter(s for _, _, t in self.turns for s in clause_seats_with(t, ACCUSE))
        self.accused_today = Counter(s for _, _, t in today for s in clause_seats_with(t, ACCUSE))
        self.trusted = Counter(s for _, _, t in self.turns for s in clause_seats_with(t, GOOD))
        self.voted = Counter(e.target for e in ctx.public_events if e.kind == "vote" and e.target is not None)
        self.calls = [s for _, _, t in self.turns for s in bound_seats(t, CALL_STRICT)]
        self.calls_loose = [s for _, _, t in self.turns for s in bound_seats(t, CALL_LOOSE)]
        claimants = [s for s, _, t in self.turns if SEER_CLAIM.search(t)]
        self.claimants = claimants
        self.seer_kills = [x for s, _, t in self.turns if s in claimants for x in bound_seats(t, CHECK_WOLF)]
        self.seer_golds = [x for s, _, t in self.turns if s in claimants for x in bound_seats(t, CHECK_GOOD)]
        holders = [e.target for e in ctx.public_events if e.kind in ("sheriff_election", "badge_transfer") and e.target is not None]
        self.sheriff = holders[-1] if holders else None
        sheriff_turns = [t for s, _, t in self.turns if s == self.sheriff]
        sheriff_today = [t for s, _, t in today if s == self.sheriff]
        picks = [x for t in sheriff_turns for x in bound_seats(t, CALL_LOOSE)]
        self.sheriff_pick = picks[-1] if picks else ([x for t in sheriff_today for x in seats(t)] or [None])[-1]
        self.own_named = Counter(s for t in own for s in seats(t))
        self.own_order = [s for t in own for s in seats(t)]


def seat_rules(item, ctx, options: list, night: int | None) -> tuple[dict[str, list[float] | None], Shown]:
    seat = item.viewpoint_seat
    r = Shown(ctx, seat)
    about = getattr(item, "about", None)
    sole = about if about is not None else (item.candidates[0] if len(item.candidates) == 1 else None)
    out = {
        "always-none": _one(options, NONE), "always-self": _one(options, seat), "always-about": _one(options, about),
        "first-option": _one(options, options[0]), "last-option": _one(options, options[-1]),
        "most-named": _counts(options, r.named), "most-named-today": _counts(options, r.named_today),
        "least-named": [-1e9 if o == NONE else -float(r.named.get(o, 0)) for o in options],
        "last-named": _last(options, r.order), "most-accused": _counts(options, r.accused),
        "most-accused-today": _counts(options, r.accused_today), "most-trusted": _counts(options, r.trusted),
        "most-voted": _counts(options, r.voted), "last-call": _last(options, r.calls), "last-call-loose": _last(options, r.calls_loose),
        "seer-claimant": _last(options, r.claimants), "seer-kill": _last(options, r.seer_kills), "seer-gold": _last(options, r.seer_golds),
        "sheriff-pick": _one(options, r.sheriff_pick), "own-most-named": _counts(options, r.own_named),
        "own-last-named": _last(options, r.own_order),
        "night1-save": (_one(options, sole if night == 1 else NONE) if night is not None and sole is not None and NONE in options else None),
    }
    return out, r


def seat_rows(item, options: list, r: Shown, night: int | None, phase_kind: str) -> list[list[float]]:
    seat = item.viewpoint_seat
    about = getattr(item, "about", None)
    last = lambda picks, o: float(bool(picks) and picks[-1] == o)  # noqa: E731
    rows = []
    for i, o in enumerate(options):
        rows.append([
            float(o == NONE), float(o == seat), float(o == about), i / max(1, len(options) - 1), float(r.named.get(o, 0)),
            float(r.named_today.get(o, 0)), float(r.accused.get(o, 0)), float(r.accused_today.get(o, 0)), float(r.trusted.get(o, 0)),
            float(r.voted.get(o, 0)), last(r.calls, o), last(r.calls_loose, o), float(o in r.claimants), last(r.seer_kills, o),
            last(r.seer_golds, o), float(o == r.sheriff), float(o == r.sheriff_pick), last(r.order, o), float(r.own_named.get(o, 0)),
            last(r.own_order, o), float(night or 0), float(phase_kind == "night"), float(len(options)),
        ])
    return relational(rows)


_CLAIMED = "我(?:是|就是|才是|这张|是一张|是个)(?:{words})|(?i:i(?:'m| am) (?:the |a )?(?:{words}))"


def claim_rules(item, ctx, catalogue) -> tuple[dict[str, list[float] | None], list[list[float]]]:
    options = [NONE, *item.candidates]
    words = role_words(catalogue)
    turns = [(u.speaker, u.phase, u.text) for u in ctx.utterances if isinstance(u.speaker, int)]
    own = " ".join(t for s, _, t in turns if s == item.viewpoint_seat)
    claimed = []  # (seat, role) in order: "我是<role>"
    for s, _, t in turns:
        for rid in item.candidates:
            pat = words.get(rid)
            if pat is not None and re.search(_CLAIMED.format(words=pat.pattern), t):
                claimed.append((s, rid))
    others_seer = any(s != item.viewpoint_seat and rid == "seer" for s, rid in claimed)
    own_words = Counter({rid: len(words[rid].findall(own)) for rid in item.candidates if rid in words})
    ran = any(e.kind == "sheriff_run" and e.actor == item.viewpoint_seat and e.result != "withdrew" for e in ctx.public_events)
    phase = next((p for p in ctx.phases if p.id == item.phase), None)
    election = phase is not None and phase.kind == "sheriff_election"
    role = ctx.own_role
    rules = {
        "always-none": _one(options, NONE), "last-option": _one(options, options[-1]), "own-role": _one(options, role),
        "counter-seer": _one(options, "seer" if others_seer else NONE),
        "last-claimed-role": _one(options, claimed[-1][1] if claimed else NONE),
        "own-role-words": _counts(options, own_words),
        "run-and-claim": _one(options, role if (ran and election) else NONE),
    }
    all_text = " ".join(t for _, _, t in turns)
    last3 = " ".join(t for _, _, t in turns[-3:])
    in_phase = sum(1 for _, p, _ in turns if p == item.phase)
    rows = []
    for o in options:
        pat = words.get(o) if o != NONE else None
        rows.append([float(o == NONE), float(o == role), float(own_words.get(o, 0)), float(len(pat.findall(all_text)) if pat else 0),
                     float(len(pat.findall(last3)) if pat else 0), float(sum(1 for s, rid in claimed if rid == o and s != item.viewpoint_seat)),
                     float(phase.day if phase else 0), float(election), float(in_phase), float(ran), float(ctx.own_faction == "wolf"),
                     float(o == "seer"), float(len(claimed))])
    return rules, relational(rows)


def decision_cases(kind: str, items, games, task) -> tuple[list[Case], list[str], tuple[str, ...]]:
    """Cases of one kind's items, notes on what could not be attacked, and the rule names used. A kind whose items
    have no candidates and answer is named in the notes and gives no case."""
    from werealign.game.visibility import build_context
    from werealign.schema.roles import catalogue_for

    notes: list[str] = []
    cases: list[Case] = []
    first = items[0] if items else None
    if first is None or not hasattr(first, "candidates") or not hasattr(first, "answer") or not hasattr(first, "viewpoint_seat"):
        return [], [f"{kind}: items have no candidates/answer/viewpoint_seat: not attacked"], ()
    claim_like = any(isinstance(c, str) for it in items for c in it.candidates)
    skipped = Counter()
    for it in items:
        game = games.get(it.game_id)
        if game is None:
            skipped["game missing"] += 1
            continue
        try:
            ctx = build_context(game, it.viewpoint_seat, it.cutoff_segment, **(task.context_kwargs(game, it, None) if task else {}))
        except Exception as exc:  # one item the context builder refuses is named, not fatal
            skipped[f"context: {type(exc).__name__}"] += 1
            continue
        phase = next((p for p in game.phases if p.id == getattr(it, "phase", None)), None)
        if claim_like:
            rules, rows = claim_rules(it, ctx, catalogue_for(game.rules.declared_roles))
            options = [NONE, *it.candidates]
            key = {options.index(it.answer if it.answer is not None else NONE)}
            cases.append(Case(it.item_id, it.game_id, options, key, rules, rows))
            continue
        none_ok = bool(getattr(it, "none_allowed", False) or getattr(it, "abstention_allowed", False))
        options = [*it.candidates, *([NONE] if none_ok else [])]
        set_answer = isinstance(it.answer, list)
        answer = set(it.answer) if set_answer else {it.answer if it.answer is not None else NONE}
        if not answer <= set(options):
            skipped["answer not an option"] += 1
            continue
        night = phase.day if phase is not None and phase.kind == "night" else None
        rules, shown = seat_rules(it, ctx, options, night)
        rows = seat_rows(it, options, shown, night, phase.kind if phase else "")
        cases.append(Case(it.item_id, it.game_id, options, {options.index(a) for a in answer}, rules, rows, set_answer=set_answer))
    for why, n in sorted(skipped.items()):
        notes.append(f"{kind}: {n} item(s) not attacked ({why})")
    return cases, notes, CLAIM_RULES if claim_like else SEAT_RULES
