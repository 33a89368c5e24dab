"""The floors of decision items (issue 31): simple policies over the player's view at the decision, as the base
prompt shows it (in every variant: a floor is what the game itself gives away without judgment).

- `most-accused`: the legal seat that drew the most public ballots so far;
- `last-named`: the legal seat the viewpoint named last in its own shown turns;
- `consensus`: the legal seat the other players named most in the current day's shown speech (the night's
  decision: the day before it);
  both read a seat named by number or by the names and nicknames the game gives its seats (werealign.text.seat_names);
- `same-as-last`: the viewpoint's own previous move of the same kind (last night's check, protection, kill;
  the previous ballot), when it is legal now;
- on a yes/no decision (one candidate, or "none": the witch's save, running for sheriff): `always` (act: save, run)
  and `never` (do not), reported only where every item asked is one.

Each is scored as the share of items it answers correctly; where a policy names no legal seat (no ballot yet,
nothing named), the item counts at chance (a uniform legal move), so every floor is at least comparable to chance.
The contexts are built with the item's own context rules (werealign.game.visibility), the answer withheld.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from statistics import fmean

from werealign.game.visibility import Context, build_context
from werealign.schema import GameLog
from werealign.schema.decisions import DecisionItem
from werealign.tasks.common import rounded

NONE = "none"  # a policy's pick of not acting (None: the policy names no move, scored at chance)
Policy = Callable[[Context, DecisionItem], int | str | None]

_SKILL = {"seer_check": ("seer_check",), "guard_protect": ("guard_protect", "doctor_protect"), "witch_poison": ("witch_poison",),
          "wolf_kill": ("wolf_kill",), "witch_save": ("witch_save",)}


def _top(counts: Counter, item: DecisionItem) -> int | None:
    legal = {s: n for s, n in counts.items() if s in item.candidates}
    if not legal:
        return None
    best = max(legal.values())
    return min(s for s, n in legal.items() if n == best)


def most_accused(ctx: Context, item: DecisionItem) -> int | None:
    return _top(Counter(e.target for e in ctx.public_events if e.kind == "vote" and e.target is not None), item)


def last_named(ctx: Context, item: DecisionItem) -> int | None:
    read = ctx.seat_reader()
    named = [s for u in ctx.utterances if u.is_self for s in read.seats(u.text) if s in item.candidates]
    return named[-1] if named else None


def consensus(ctx: Context, item: DecisionItem) -> int | None:
    days = [p for p in ctx.phases if p.kind != "night"]
    if not days:
        return None
    today = days[-1].day
    phase_day = {p.id: p.day for p in ctx.phases}
    read = ctx.seat_reader()
    said = [s for u in ctx.utterances if not u.is_self and u.speaker != "host" and phase_day.get(u.phase) == today for s in read.seats(u.text)]
    return _top(Counter(said), item)


def same_as_last(ctx: Context, item: DecisionItem) -> int | None:
    if item.decision == "ballot":
        mine = [e.target for e in ctx.public_events if e.kind == "vote" and e.actor == item.viewpoint_seat]
    else:
        skills = _SKILL.get(item.decision, ())
        mine = [e.target for e in ctx.private_events if e.kind == "skill_use" and e.skill in skills and e.phase != item.phase
                and (e.actor == item.viewpoint_seat or item.decision == "wolf_kill")]
    last = mine[-1] if mine else None
    return last if last in item.candidates else None


FLOORS: dict[str, Policy] = {"most-accused": most_accused, "last-named": last_named, "consensus": consensus, "same-as-last": same_as_last}


def is_yes_no(item: DecisionItem) -> bool:
    return len(item.candidates) == 1 and item.none_allowed


YES_NO_FLOORS: dict[str, Policy] = {"always": lambda ctx, item: item.candidates[0] if is_yes_no(item) else None,
                                    "never": lambda ctx, item: NONE if is_yes_no(item) else None}


def floor_scores(asked: Sequence[tuple[GameLog, DecisionItem]], context_kwargs: Callable[..., dict]) -> dict[str, float | None]:
    """Each floor's mean score; `context_kwargs` is the decision task's (the view its prompts are built from)."""
    if not asked:
        return {name: None for name in FLOORS}
    floors = {**FLOORS, **(YES_NO_FLOORS if all(is_yes_no(item) for _, item in asked) else {})}
    values: dict[str, list[float]] = {name: [] for name in floors}
    for game, item in asked:
        kw = context_kwargs(game, item, None)
        ctx = build_context(game, item.viewpoint_seat, item.cutoff_segment, **kw)
        chance = 1 / (len(item.candidates) + item.none_allowed)
        for name, policy in floors.items():
            pick = policy(ctx, item)
            key = NONE if item.answer is None else item.answer
            values[name].append(chance if pick is None else float(pick == key))
    return {name: rounded(fmean(v)) for name, v in values.items()}
