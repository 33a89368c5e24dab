"""A group's metrics: the per-game metrics of its games pooled over the seats it played."""

from __future__ import annotations

from collections import Counter, defaultdict
from statistics import mean
from typing import Any

from werealign.analysis.corpus import Group

SIDES = ("good", "wolf")


def wilson(k: int, n: int) -> list[float] | None:
    if not n:
        return None
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(method="wilson")
    return [round(ci.low, 3), round(ci.high, 3)]


def _rate(k: int, n: int) -> dict[str, Any]:
    return {"value": round(k / n, 3) if n else None, "k": k, "n": n, "ci95": wilson(k, n)}


def _mean(xs: list[float]) -> float | None:
    return round(mean(xs), 3) if xs else None


def aggregate(group: Group) -> dict[str, Any]:
    wins: dict[str, list[int]] = {s: [0, 0] for s in SIDES}
    roles: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    days, reveals, first, consensus, entropy = [], [], [], [], []
    seer = Counter()
    changes: list[bool] = []
    exiles: list[bool] = []
    turns = [0, 0, 0]
    bids: list[int] = []
    bids_named: list[int] = []
    top_share: list[float] = []
    est: dict[int, list[bool]] = defaultdict(list)
    est_of: dict[str, dict[int, list[float]]] = {side: defaultdict(list) for side in SIDES}
    polls: dict[tuple[int, int], list[float]] = defaultdict(list)
    missing: Counter = Counter()
    for gm, seats in group.games:
        days.append(gm.days)
        for why in gm.missing.items():
            missing[why] += 1
        if gm.winner is not None:
            for side in SIDES:
                if any(gm.seats[s] == side for s in seats):
                    wins[side][0] += gm.winner == side
                    wins[side][1] += 1
            for s in seats:
                if gm.seats[s] in SIDES:
                    roles[gm.roles[s]][0] += gm.winner == gm.seats[s]
                    roles[gm.roles[s]][1] += 1
        if gm.seer and any(s in gm.seer_seats for s in seats):  # the group holds a seat whose role holds the seer's check
            reveals.append(gm.seer["reveals"])
            if gm.seer["first_reveal_day"] is not None:
                first.append(gm.seer["first_reveal_day"])
            if "seer_checks" not in gm.missing:
                seer.update({k: gm.seer[k] for k in ("target_reveals", "wolf_reveals", "believed", "backfired")})
        consensus += [r["consensus"] for r in gm.rounds]
        entropy += [r["entropy"] for r in gm.rounds]
        changes += [c for v, c in gm.vote_changes if v in seats]
        exiles += [w for _, w in gm.exiles]
        for s in seats:
            for i in range(3):
                turns[i] += gm.turns.get(s, [0, 0, 0])[i]
            bids += gm.bids.get(s, [])
            bids_named += gm.bids_mentioned.get(s, [])
            for day, rights in gm.estimates.get(s, {}).items():
                est[day] += rights
            if gm.seats[s] in SIDES:
                for day, value in gm.est.get(s, {}).items():
                    est_of[gm.seats[s]][day].append(value)
        top_share += gm.top_share
        for day, turns_h in gm.poll_entropy.items():
            for turn, h in turns_h.items():
                polls[day, turn].append(h)
    return {
        "games": len(group.games),
        "win_rate": {side: _rate(*wins[side]) for side in SIDES},
        "win_rate_by_role": {r: _rate(k, n) for r, (k, n) in sorted(roles.items())},
        "days": _mean(days),
        "seer": {"games": len(reveals), "reveals_per_game": _mean(reveals), "first_reveal_day": _mean(first),
                 "unmasked_wolf": _rate(seer["wolf_reveals"], seer["target_reveals"]),
                 "believed": _rate(seer["believed"], seer["wolf_reveals"]),
                 "backfired": _rate(seer["backfired"], seer["wolf_reveals"])},
        "votes": {"rounds": len(consensus), "consensus": _mean(consensus), "entropy": _mean(entropy),
                  "vote_change": _rate(sum(changes), len(changes)), "exiled_was_wolf": _rate(sum(exiles), len(exiles))},
        "participation": {"turns_per_player_day": round(turns[0] / turns[2], 3) if turns[2] else None,
                          "chars_per_player_day": round(turns[1] / turns[2], 1) if turns[2] else None,
                          "top_talker_share": _mean(top_share),
                          "mean_bid": _mean(bids + bids_named),
                          "mean_bid_not_named": _mean(bids), "mean_bid_named": _mean(bids_named),
                          "named_bid_4": _rate(sum(b == 4 for b in bids_named), len(bids_named))},
        "languages": sorted(group.languages),
        "estimation_accuracy_by_day": {str(d): _mean([float(x) for x in v]) for d, v in sorted(est.items())},
        # Strategy Adaptation's Est of the group's seats by side and day: how well the other players read them.
        "est_by_day": {side: {str(d): _mean(v) for d, v in sorted(days.items())} for side, days in est_of.items()},
        # Werewolf Arena's H(r, i): the polled votes' entropy at debate turn i of day r, averaged over the games reaching it.
        "voting_entropy_by_turn": {str(d): {str(t): _mean(polls[d, t]) for t in sorted(t for dd, t in polls if dd == d)}
                                   for d in sorted({d for d, _ in polls})},
        "unreadable_moves": _rate(*group.moves) if group.moves is not None else None,
        "flagged_games": group.flagged_games if group.moves is not None else None,
        "not_measured": [{"metric": m, "why": why, "games": n} for (m, why), n in sorted(missing.items())],
    }
