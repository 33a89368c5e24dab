"""Rules a player would use at one kind of decision (issue 42: "every trivial rule tried, including rules not named
here"), each a floor reported for its own kind only (werealign.tasks.decision_floors reports every floor of
`KIND_RULES[kind]` beside the rules every kind has) and a feature of its kind's learned floors.

Each reads what the prompt shows through werealign.tasks.table_talk (accusations, clearings, claims, a seer
claimant's reported checks, badge orders) and names a legal move, "none" where not acting is legal, or nothing (the
item then counts at chance). Which of these beat the floors before them on the release, and which did not, is in
BENCHMARKS.md; a rule that loses still stays: it is a rule somebody would try, and the learned floors read it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from werealign.game.visibility import Context
from werealign.schema.decisions import DecisionItem
from werealign.tasks.table_talk import Talk

NONE = "none"
Rule = Callable[[Context, DecisionItem, Talk], int | str | None]


def _top(counts: Counter, item: DecisionItem) -> int | None:
    legal = {s: n for s, n in counts.items() if s in item.candidates and n > 0}
    if not legal:
        return None
    best = max(legal.values())
    return min(s for s, n in legal.items() if n == best)


def _least(counts: Counter, item: DecisionItem) -> int | None:
    """The legal seat with the fewest (the lowest seat of a tie); None when every candidate has as many."""
    seats = [s for s in item.candidates if isinstance(s, int)]
    if len({counts.get(s, 0) for s in seats}) < 2:
        return None
    return min(seats, key=lambda s: (counts.get(s, 0), s))


def _last(seats: list[int], item: DecisionItem) -> int | None:
    legal = [s for s in seats if s in item.candidates]
    return legal[-1] if legal else None


def _first(seats: list[int], item: DecisionItem) -> int | None:
    legal = [s for s in seats if s in item.candidates]
    return legal[0] if legal else None


def _checked(talk: Talk, result: str, by: int | None = None) -> list[int]:
    return [s for c, s, r in talk.checks if r == result and (by is None or c == by)]


def _yes_no(item: DecisionItem, act: bool | None) -> int | str | None:
    """A yes/no decision (one candidate, or none): act on the candidate, or not; None: no reading."""
    if act is None or len(item.candidates) != 1 or not item.none_allowed:
        return None
    return item.candidates[0] if act else NONE


def _net(talk: Talk, item: DecisionItem) -> int | None:
    """The seat accused most beyond its clearings (accusations minus clearings), if any is above zero."""
    net = talk.accused_in()
    net.subtract(talk.cleared_all())
    return _top(net, item)


def _neighbour(item: DecisionItem, step: int) -> int | None:
    """The next legal seat from the viewpoint's, going `step` (+1: the next seat number, wrapping round the table)."""
    seats = sorted(set(item.candidates) | {item.viewpoint_seat})
    at = seats.index(item.viewpoint_seat)
    for k in range(1, len(seats)):
        s = seats[(at + step * k) % len(seats)]
        if s in item.candidates:
            return s
    return None


_SEER = frozenset({"seer"})
SEAT_PICKS: dict[str, Rule] = {
    "accused-last-5": lambda ctx, item, t: _top(t.accused_in(last=5), item),
    "accused-today": lambda ctx, item, t: _top(t.accused_in(today=True), item),
    "net-accused": lambda ctx, item, t: _net(t, item),
    "most-cleared": lambda ctx, item, t: _top(t.cleared_all(), item),
    "checked-wolf": lambda ctx, item, t: _last(_checked(t, "wolf"), item),
    "checked-good": lambda ctx, item, t: _last(_checked(t, "good"), item),
    "last-seer-claimant": lambda ctx, item, t: _last(t.claimed(_SEER), item),
    "claimed-god": lambda ctx, item, t: _last(t.claimed(t.gods), item),
    "first-claimed-god": lambda ctx, item, t: _first(t.claimed(t.gods), item),
    "sheriff": lambda ctx, item, t: t.sheriff if t.sheriff in item.candidates else None,
}
KIND_RULES: dict[str, dict[str, Rule]] = {
    "ballot": {name: SEAT_PICKS[name] for name in ("accused-last-5", "accused-today", "net-accused", "checked-wolf")} | {
        "sheriff-checked-wolf": lambda ctx, item, t: _last(_checked(t, "wolf", t.sheriff), item) if t.sheriff is not None else None,
        "not-my-gold": lambda ctx, item, t: _top(Counter({s: n for s, n in t.accused_in(today=True).items()
                                                          if s not in _checked(t, "good")}), item),
    },
    "sheriff_ballot": {
        "last-seer-claimant": SEAT_PICKS["last-seer-claimant"],
        "badge-order-most": lambda ctx, item, t: _top(t.badge_order, item),
        "gave-me-gold": lambda ctx, item, t: _last([c for c, s, r in t.checks if s == item.viewpoint_seat and r == "good"], item),
        "not-my-checker": lambda ctx, item, t: _first([s for s in t.claimed(_SEER) if (s, item.viewpoint_seat, "wolf") not in t.checks], item),
        "most-cleared": SEAT_PICKS["most-cleared"],
        "least-accused": lambda ctx, item, t: _least(t.accused_in(), item),
    },
    "witch_save": {
        "save-claimed-god": lambda ctx, item, t: _yes_no(item, t.role_claimed(item.candidates[0]) in t.gods) if item.candidates else None,
        "save-claimed": lambda ctx, item, t: _yes_no(item, t.role_claimed(item.candidates[0]) is not None) if item.candidates else None,
        "save-unless-accused": lambda ctx, item, t: (_yes_no(item, t.accused_in().get(item.candidates[0], 0) == 0)
                                                     if item.candidates else None),
    },
    "wolf_kill": {name: SEAT_PICKS[name] for name in ("last-seer-claimant", "claimed-god", "first-claimed-god", "most-cleared", "sheriff",
                                                       "checked-good")} | {
        "my-accuser": lambda ctx, item, t: _top(Counter(sp for sp, _, named in t.turns for s in named if s == item.viewpoint_seat
                                                        or s in ctx.allies), item),
    },
    "witch_poison": {name: SEAT_PICKS[name] for name in ("checked-wolf", "accused-today", "net-accused")} | {
        "counter-seer": lambda ctx, item, t: _last(t.claimed(_SEER)[1:], item),
    },
    "seer_check": {name: SEAT_PICKS[name] for name in ("accused-today", "net-accused")} | {
        "next-seat": lambda ctx, item, t: _neighbour(item, 1), "previous-seat": lambda ctx, item, t: _neighbour(item, -1),
        "least-named": lambda ctx, item, t: _least(Counter(s for _, _, named in t.turns for s in named), item),
    },
    "guard_protect": {name: SEAT_PICKS[name] for name in ("last-seer-claimant", "claimed-god", "sheriff", "most-cleared")} | {
        "self": lambda ctx, item, t: item.viewpoint_seat if item.viewpoint_seat in item.candidates else None,
    },
    "badge": {name: SEAT_PICKS[name] for name in ("most-cleared", "net-accused")} | {
        "last-gold": lambda ctx, item, t: _last(_checked(t, "good", item.viewpoint_seat), item),
        "badge-order-first": lambda ctx, item, t: _first([s for sp, s in t.badge_named if sp == item.viewpoint_seat], item),
        "badge-order-last": lambda ctx, item, t: _last([s for sp, s in t.badge_named if sp == item.viewpoint_seat], item),
        "claimed-god": SEAT_PICKS["claimed-god"],
    },
    "sheriff_run": {
        "run-if-god": lambda ctx, item, t: _yes_no(item, ctx.own_role in t.gods),
        "run-if-seer": lambda ctx, item, t: _yes_no(item, ctx.own_role == "seer"),
        "run-unless-villager": lambda ctx, item, t: _yes_no(item, ctx.own_role != "villager"),
    },
}


def rule_names(kinds: set[str]) -> list[str]:
    """The rules reported for items of these kinds, in registry order."""
    return list(dict.fromkeys(name for kind in KIND_RULES if kind in kinds for name in KIND_RULES[kind]))
