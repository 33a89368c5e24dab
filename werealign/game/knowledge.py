"""What the rules say a seat knew at a cut-off, and which of it the game log holds (DESIGN.md invariant 7).

Each role of the catalogue may list what its holder learns every night it is alive (`knows_each_night`,
data, not code): a seer her check ('seer_check'), a guard his protection ('guard_protect': a stated empty guard
is an event with no target), every wolf of the pack the team's kill ('wolf_kill'), the witch the night's victim
until she has used her antidote ('wolf_kill until witch_save'). A night is owed when it ended before the cut-off's
phase (a fact of the night in progress may not have happened yet) and the seat had not been announced out before
it began (a seat killed that night still acted in it). An owed fact is held when an event of that skill and night
is one the seat perceived (`audience.perceives`, the same rule the prompt uses).

A fact the log lacks is never filled in: the item names it (`knowledge_missing`) and its prompt says plainly that
this result of the player's own is not recorded, instead of claiming the player knew nothing else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from werealign.game.audience import cutoff_phase, perceives
from werealign.schema import GameLog
from werealign.schema.models import MissingFact
from werealign.schema.roles import RoleCatalogue, catalogue_for, night_duty


@dataclass(frozen=True)
class Duty:
    """One thing a role learns each night: events of `skill`, owed until the seat has used `until` (if given)."""

    skill: str
    until: str | None = None

    @classmethod
    def parse(cls, text: str) -> Duty:
        return cls(*night_duty(text))


def duties(role_id: str, catalogue: RoleCatalogue) -> tuple[Duty, ...]:
    role = catalogue.get(role_id)
    return tuple(Duty.parse(d) for d in role.knows_each_night) if role is not None else ()


def owed_and_missing(game: GameLog, seat: int, cutoff: int | None = None,
                     catalogue: RoleCatalogue | None = None) -> tuple[list[MissingFact], list[MissingFact]]:
    """(every fact the rules say `seat` held at the cut-off, those the log lacks), night by night.
    `cutoff` None: the whole game (every night the seat lived through)."""
    catalogue = catalogue or catalogue_for(game.rules.declared_roles)
    me = next((s for s in game.seats if s.seat == seat), None)
    if me is None:
        return [], []
    owed_duties = duties(me.role, catalogue)
    if not owed_duties:
        return [], []
    order = {p.id: i for i, p in enumerate(game.phases)}
    if cutoff is None:
        now = len(game.phases)
    else:
        phase = cutoff_phase(game, cutoff)
        now = order.get(phase, -1) if phase is not None else -1
    out_at = _out_at(game, seat, order)
    owed: list[MissingFact] = []
    missing: list[MissingFact] = []
    for night in (p for p in game.phases if p.kind == "night"):
        at = order[night.id]
        if at >= now or out_at < at:
            continue
        for duty in owed_duties:
            if duty.until is not None and _used_before(game, seat, duty.until, at, order):
                continue
            fact = MissingFact(night=night.id, fact=duty.skill)
            owed.append(fact)
            if not any(e.kind == "skill_use" and e.skill == duty.skill and e.phase == night.id
                       and perceives(e.audience, e.actor, me, catalogue) for e in game.events):
                missing.append(fact)
    return owed, missing


def dawn_window(night: str, nights: list[str], order: dict[str, int], n_phases: int) -> tuple[int, int]:
    """Phase positions after the night up to the next night (inclusive: an announcement labelled with the next
    night is its dawn's, read from a turn that runs on into nightfall): where its deaths are announced."""
    i = nights.index(night)
    return order[night] + 1, order[nights[i + 1]] if i + 1 < len(nights) else n_phases


def _out_at(game: GameLog, seat: int, order: dict[str, int]) -> int:
    """The phase position the seat left at: a night after it is not owed. A death announced in a turn labelled with a
    night (an announcement that runs on into nightfall) is that night's dawn or an earlier one's: when the log has the
    seat killed or poisoned on an earlier night whose dawn reaches that phase (up to the next night, the same window the
    importer reads dawn deaths in), the seat died in that night and did not live through the later one."""
    exits = [e for e in game.events if e.kind == "elimination" and e.target == seat]
    if not exits:
        return len(game.phases)
    first = min(exits, key=lambda e: order.get(e.phase, len(game.phases)))
    at = order.get(first.phase, len(game.phases))
    nights = [p.id for p in game.phases if p.kind == "night"]
    if first.phase not in nights or first.result not in _NIGHT_DEATHS:
        return at
    i = nights.index(first.phase)
    if i == 0:
        return at

    def on(night: str, skills: frozenset[str]) -> bool:
        return any(e.kind == "skill_use" and e.skill in skills and e.target == seat and e.phase == night for e in game.events)

    before = nights[i - 1]
    catalogue = catalogue_for(game.rules.declared_roles)
    # a strike the seat's role survives (catalogue `survives`: a poison on the demon) killed nobody
    role = catalogue.get(next((s.role for s in game.seats if s.seat == seat), ""))
    kills = night_kills(game, catalogue) - set(role.survives if role is not None else ())
    # struck the night before, not saved from it, and not struck again in the night of the label: that night's dawn
    if on(before, kills) and not on(before, _SAVES) and not on(first.phase, kills):
        return order[before]
    return at


# Deaths of a night (a wolves' kill the witch saved is no death: such a seat is announced dead only when nothing saved
# it, which the elimination itself says), and the skills that stop the wolves' kill. The catalogue has no field for a
# protection (the witch's antidote, the guard's): a declared role's own save under another skill id is not counted.
_NIGHT_DEATHS = frozenset({"night_death", "poisoned"})
_SAVES = frozenset({"witch_save", "guard_protect"})


def night_kills(game: GameLog, catalogue: RoleCatalogue) -> frozenset[str]:
    """The night skills that kill on this board: the wolves' kill, and every seat's own kill the catalogue states
    (`night_kill`: the witch's poison, the stalker's assassination, a declared role's), whatever its role's id."""
    return frozenset({"wolf_kill", *own_kill_skills(catalogue, (s.role for s in game.seats))})


def own_kill_skills(catalogue: RoleCatalogue, roles: Iterable[str] | None = None) -> frozenset[str]:
    """The skill ids of the roles' own night kills (role catalogue `night_kill`: the witch's poison, the stalker's
    assassination), of `roles` (None: every role of the catalogue): a stated one is a cause of a death at its night's dawn."""
    of = catalogue.roles.values() if roles is None else (r for r in map(catalogue.get, roles) if r is not None)
    return frozenset(r.night_kill.skill for r in of if r.night_kill is not None)


def missing_knowledge(game: GameLog, seat: int | None, cutoff: int) -> list[MissingFact]:
    """The facts the rules say `seat` held at `cutoff` that the game log lacks (empty: complete; observer: empty)."""
    return [] if seat is None else owed_and_missing(game, seat, cutoff)[1]


def _used_before(game: GameLog, seat: int, skill: str, at: int, order: dict[str, int]) -> bool:
    return any(e.kind == "skill_use" and e.skill == skill and e.actor == seat and order.get(e.phase, at) < at for e in game.events)


def coverage(game: GameLog) -> Counter[tuple[str, str, str]]:
    """Over the whole game, per (role, fact, 'owed'|'read'): how many night facts the rules require of the seats
    holding each role, and how many of them the log holds. A team's fact (the pack's kill) counts once per night."""
    catalogue = catalogue_for(game.rules.declared_roles)
    counts: Counter[tuple[str, str, str]] = Counter()
    team_nights: set[tuple[str, str]] = set()
    for s in game.seats:
        owed, missing = owed_and_missing(game, s.seat, None, catalogue)
        held = [f for f in owed if f not in missing]
        for status, facts in (("owed", owed), ("read", held)):
            for f in facts:
                if f.fact == "wolf_kill" and s.faction == "wolf":
                    key = (status, f.night)
                    if key in team_nights:
                        continue
                    team_nights.add(key)
                    counts[("wolves", f.fact, status)] += 1
                else:
                    counts[(s.role, f.fact, status)] += 1
    return counts
