"""The night actions read from the annotator log (nights.nights), settled against each other and against the
host's announcements, and given to the seats that knew them.

- The wolves' kill of a night is known to every wolf (audience: the wolf team), whether or not the witch saved
  the target. A witch's save names the night's victim (the antidote saves only the wolves' target), so a save
  gives the kill when the log states no other; an antidote whose target the log leaves implicit gets the
  night's kill, and is dropped when that is not known.
- The witch is told the night's victim while she still holds her antidote (no save on an earlier night),
  as the game tells her before she decides; the event's audience is her seat. The catalogue says who is told
  (`knows_each_night`: 'wolf_kill until witch_save'): a declared role with that rule is told the same way, and on a
  board with two such seats neither is (which one was told is not known). An antidote stated without its
  target ("女巫…开药") on a night whose kill is not known is kept with no target: it says she spent it there.
- Never shown (dropped, reported with the reason): an action of a seat the host had already announced out
  before that night, or on such a seat; a kill the witch's save contradicts (another seat); a guard's
  protection or a witch's save of a seat announced dead at that night's dawn without the other's protection
  (either alone would have kept it alive); a poison (any seat's own kill: `night_kill`, the stalker's
  assassination too) whose target is not announced dead at that dawn (unless a
  stated magician's swap moved it to the seat that died, or the recording never tells that dawn and the seat is
  announced out nowhere: `untold_dawn`), unless the role catalogue says the seat's role survives a poison (the
  demon: `survives`). Where the catalogue does not know the seat's role, whether the poison should have killed it
  is not known: the poison is neither kept nor called false (`NotKnown`; nights.night_facts reports it disputed).

What each role's night kill allows is the catalogue's (`night_kill`: the skill, once a game, only a seat voted for
by day), and so are the moves that come back on their maker (`reflects`: a seer who checks the nightmare knight,
a witch who poisons him, dies at that dawn; a lone dawn death of a seat that may have done so is not the wolves'
known kill), so a role a game declares with the same rule is settled the same way with no code of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.game.knowledge import Duty, dawn_window, duties, own_kill_skills
from werealign.schema import Event, Phase, SeatInfo
from werealign.schema.models import Audience
from werealign.schema.roles import RoleCatalogue

# How the host announces a death of the night (werealign.importers.toolkit.exits.host_exits): "昨天晚上死亡的是…",
# or only "N 号请离场" at dawn.
_NIGHT_DEATHS = frozenset({"night_death", "poisoned", "left_table"})
# The note on the witch's knowledge of the night's victim (the games' wording since issue 41; a plug-in role's says its skill).
_WITCH_TOLD = "the night's victim, as the game tells the witch while she holds her antidote"


def settle_night_actions(actions: Sequence[Event], exits: Sequence[Event], seats: Sequence[SeatInfo], phases: Sequence[Phase],
                         antidote_stated: Sequence[Event] = (), swaps: set[frozenset[int]] = frozenset(), told_deaths: Sequence[Event] = (),
                         knifed=lambda seat, night: [], voted=lambda seat, night: None, *, catalogue: RoleCatalogue
                         ) -> tuple[list[Event], list[tuple[Event, str]]]:
    """(the events to keep, with the wolves' kills and the witch's knowledge added; the dropped actions with why).
    `antidote_stated`: saves some source states that are not among `actions` (in dispute, or their night unknown and
    given as the earliest it can be): the witch is told no victim after them either. `swaps`: pairs of seats a
    magician is stated to have swapped (nights.swaps): a kill and a save naming the two seats of one pair on a night
    are both kept (the knife landed on the other seat: the witch is told that night's victim by neither), and a
    poison whose seat lived while the other seat of its pair died at that dawn is kept. `told_deaths`: seats the log or
    the recap has die in a night (elimination events on that night): they stand for a dawn the host never tells.
    `voted`: (seat, night) -> the seats it voted for by day before that night (None: not known; toolkit.tallies).
    `catalogue`: the game's role catalogue (its declared roles). A drop whose reason is a
    `NotKnown` is no contradiction: the sources may be right, and the rules as the catalogue gives them cannot tell."""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p.id for p in phases if p.kind == "night"]
    exit_of = {e.target: e for e in exits if e.kind == "elimination" and e.target is not None}
    dropped: list[tuple[Event, str]] = []

    def dawn(night: str) -> tuple[int, int]:
        return _dawn(night, nights, order, len(phases))

    def out_before(seat: object, night: str) -> Event | None:
        e = exit_of.get(seat) if isinstance(seat, int) else None
        return e if e is not None and order.get(e.phase, len(phases)) < order[night] else None

    def died_at_dawn(seat: int | None, night: str) -> bool:
        e = exit_of.get(seat)
        lo, hi = dawn(night)
        return e is not None and e.result in _NIGHT_DEATHS and lo <= order.get(e.phase, -1) <= hi

    def kill_borne_out(seat: int | None, night: str) -> bool:
        """A seat's own kill (a poison) is borne out: its seat died at the night's dawn; or its swap partner did (the
        kill landed there); or the recording never tells that dawn and the seat is announced out nowhere."""
        return (died_at_dawn(seat, night) or any(seat in pair and died_at_dawn(next(iter(pair - {seat})), night) for pair in swaps)
                or (untold_dawn(night, phases, exits) and seat is not None and seat not in exit_of))

    kills = {e.phase: e for e in actions if e.skill == "wolf_kill"}
    saves = {e.phase: e for e in actions if e.skill == "witch_save"}
    swapped: set[str] = set()  # nights whose knife landed on the seat swapped with its target
    for night, save in saves.items():
        kill = kills.get(night)
        if save.target is not None and kill is not None and kill.target != save.target and frozenset((kill.target, save.target)) in swaps:
            swapped.add(night)
        elif save.target is not None and kill is not None and kill.target != save.target:
            dropped += [(kill, f"the witch's save names seat {save.target} as {night}'s victim"),
                        (save, f"the wolves' kill of {night} is stated as seat {kill.target}")]
            kills.pop(night)
        elif save.target is not None and kill is None:
            kills[night] = Event(kind="skill_use", phase=night, segment_id=None, audience=Audience(kind="team", team="wolf"), target=save.target,
                                 skill="wolf_kill", note="the night's victim, from the witch's save of it (the antidote saves only the wolves' target)",
                                 evidence=save.evidence)
    for night, kill in list(kills.items()):
        if (why := _a_night_off(kill, nights, actions, exits, order, dawn, died_at_dawn, lambda n: _explained(n, actions, seats, catalogue))) is not None:
            dropped.append((kill, why))
            kills.pop(night)
    for night in nights:
        told = [e for e in told_deaths if e.phase == night] if untold_dawn(night, phases, exits) else []
        victim, said = (None, []) if night in kills else _lone_dawn_death(night, actions, exits, seats, order, dawn, out_before, told, knifed, voted,
                                                                          catalogue, swaps, nights[:nights.index(night)][-1:])
        if victim is not None and any(k.target == victim and not _lived_through(k, actions) for k in kills.values()):
            continue  # another source has the wolves kill that seat on another night: which night is not known
        if victim is not None:
            kills[night] = Event(kind="skill_use", phase=night, segment_id=None, audience=Audience(kind="team", team="wolf"), target=victim,
                                 skill="wolf_kill", note="the night's victim, from the host's dawn announcement of the night's only death (no poison that night)"
                                 + (", which a written source says met the knife" if said else ""),
                                 evidence=[*(exit_of[victim].evidence if victim in exit_of else [ev for e in told if e.target == victim for ev in e.evidence]), *said])
    protected = {(a.phase, a.target) for a in actions if a.skill == "guard_protect"}
    saved = {(n, s.target if s.target is not None else kills[n].target) for n, s in saves.items() if s.target is not None or n in kills}
    kept: list[Event] = []
    for e in [*(a for a in actions if a.skill not in ("wolf_kill",)), *kills.values()]:
        if any(e is d for d, _ in dropped):
            continue
        if e.skill == "witch_save" and e.target is None:
            kill = kills.get(e.phase)
            if kill is not None and kill.target is None:
                dropped.append((e, f"the wolves knifed nobody on {e.phase}: an antidote there names nobody"))
                continue
            if kill is not None:
                e = e.model_copy(update={"target": kill.target, "evidence": [*e.evidence, *kill.evidence]})
            # else kept with no target: the antidote is spent that night (so she learns no later victim), on a victim
            # no source names (issue 41)
        why = _contradiction(e, out_before, died_at_dawn, protected, saved, kill_borne_out, _survivor(seats, catalogue), own_kill_skills(catalogue))
        if why:
            dropped.append((e, why))
            continue
        kept.append(e)
    # a save some source states, kept or not (a night or a target in dispute), says the antidote was spent by then: the
    # witch is told no victim after the earliest one (told too little is a missing fact; too much, a false one)
    kept += _witch_told([e for e in kept if e.phase not in swapped], [*actions, *antidote_stated],
                        seats, nights, out_before, catalogue)
    return kept, dropped


def untold_dawn(night: str, phases: Sequence[Phase], exits: Sequence[Event]) -> bool:
    """The recording never tells the dawn after `night`: it is the last night, and no seat is announced out after it
    (the game ended in it, or the recording stops)."""
    order = {p.id: i for i, p in enumerate(phases)}
    last = max((p.id for p in phases if p.kind == "night"), key=lambda pid: order[pid], default=None)
    return night == last and not any(e.kind == "elimination" and order.get(e.phase, -1) > order[night] for e in exits)


class NotKnown(str):
    """The reason a fact is not kept when no source is shown false: the rules cannot tell (a poison on a seat whose role
    the catalogue does not know, which lived). A str, so every reader of a drop's reason reads it as one."""


def _survivor(seats: Sequence[SeatInfo], catalogue: RoleCatalogue):
    """(seat, skill) -> True when the seat's role survives the skill used on it at night (catalogue `survives`), False
    when its role is known and does not, None when the catalogue does not know the role (nor whether it survives)."""
    role_of = {s.seat: s.role for s in seats}

    def survives(seat: int | None, skill: str) -> bool | None:
        role = catalogue.get(role_of.get(seat, "")) if seat is not None else None
        return None if role is None else skill in role.survives
    return survives


# Where a night's deaths are announced (werealign.game.knowledge.dawn_window: the knowledge count reads the same window).
_dawn = dawn_window


def unexplained_dawns(kept: Sequence[Event], exits: Sequence[Event], phases: Sequence[Phase], catalogue: RoleCatalogue,
                      seats: Sequence[SeatInfo] = ()) -> list[str]:
    """Nights whose dawn the known actions do not explain (for the import report; nothing is changed): a death
    announced at dawn that is neither the night's known kill nor a death a stated act of that night explains
    (`_explained`, the rule the night's settling uses: a seat's own kill, catalogue `night_kill`; the user of a skill on
    a seat whose role reflects it, catalogue `reflects`, given the `seats`). It is a misread or a role effect the sources
    leave unsaid (a charm, lovers). Reported on nights with such an act stated. A kill whose victim lived is not
    reported: a guard's protection is rarely stated, so it explains most of them."""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p.id for p in phases if p.kind == "night"]
    kill_skills = own_kill_skills(catalogue)
    out = []
    for night in nights:
        lo, hi = _dawn(night, nights, order, len(phases))
        died = {e.target for e in exits if e.kind == "elimination" and e.result == "night_death" and lo <= order.get(e.phase, -1) <= hi}
        kill = next((e.target for e in kept if e.skill == "wolf_kill" and e.phase == night and e.audience.kind == "team"), None)
        explained = _explained(night, kept, seats, catalogue)
        poisons = {e.target for e in kept if e.skill in kill_skills and e.phase == night}
        if kill is not None and (extra := sorted(died - {kill} - explained)) and explained:
            reflected = f" nor a reflected skill's user ({sorted(explained - poisons)})" if explained - poisons else ""
            out.append(f"{night}: seat(s) {extra} announced dead at dawn, neither the wolves' kill (seat {kill}) nor the poison ({sorted(poisons)})"
                       + reflected)
    return out


def _lone_dawn_death(night: str, actions: Sequence[Event], exits: Sequence[Event], seats: Sequence[SeatInfo], order: dict[str, int],
                     dawn, out_before, told: Sequence[Event], knifed, voted, catalogue: RoleCatalogue,
                     swaps: set[frozenset[int]] = frozenset(), before: Sequence[str] = ()) -> tuple[int | None, list]:
    """The wolves' victim of `night` when the host announces exactly one death at its dawn and no other seat can have
    caused it (issue 41: the role catalogue decides, `alters_night_deaths` or a `night_kill`): every seat whose role can
    kill or redirect a kill at night (a witch's poison, a stalker's knife, a magician's swap), and every seat whose role
    the catalogue does not know, is out before the night, or its act that night is stated (a poisoning takes its seat
    out of the count), or its once-a-game kill (`night_kill.once`) is stated on another night. Otherwise None: not
    known. `told`: the deaths the log or the recap gives for a night whose dawn the host never tells (they stand for
    it). A seat whose role changes the night's deaths only by a kill of its own (`night_kill`: the witch's poison, the
    stalker's knife) cannot explain a death a written source says met the wolves' knife (`knifed`: nights.knife_said);
    a role that moves or blocks a kill (a magician, a dreamweaver) still can. A role whose kill falls only on a seat it
    voted for by day (`night_kill.voted_targets_only`: the stalker) cannot explain a death of a seat it never voted
    for, when the host's tallies give all its day ballots before the night (`voted`). A seat that may have used a skill
    that night, or the night `before` it, on a seat whose role reflects it (`reflects`: a seer's check or a witch's poison
    on the nightmare knight) may have died of it: its lone death is not known to be the wolves' (`_may_be_reflected`;
    a stated use that night on that seat explains the death as a poisoning does). (the victim or None, the knife's
    evidence used)"""
    lo, hi = dawn(night)
    died = [e.target for e in exits if e.kind == "elimination" and e.result == "night_death" and e.target is not None
            and lo <= order.get(e.phase, -1) <= hi] or [e.target for e in told]
    died = [s for s in dict.fromkeys(died) if s not in _explained(night, actions, seats, catalogue)]
    if len(died) != 1 or any(_may_be_reflected(died[0], n, actions, seats, out_before, catalogue, swaps) for n in [night, *before]):
        return None, []
    said = knifed(died[0], int(night.split("-")[1])) if night.split("-")[-1].isdigit() else []
    used = []
    for s in seats:
        role = catalogue.get(s.role)
        kill = role.night_kill if role is not None else None
        if role is not None and not role.alters_night_deaths and kill is None:
            continue
        if out_before(s.seat, night) is not None or any(a.actor == s.seat and a.phase == night for a in actions):
            continue
        if kill is not None and kill.once and any(a.actor == s.seat and a.skill == kill.skill and a.phase != night for a in actions):
            continue  # its once-a-game kill is stated on another night
        if kill is not None and kill.voted_targets_only and (targets := voted(s.seat, night)) is not None and died[0] not in targets:
            continue  # it may kill only a seat it voted for by day, and it never voted for this one
        if said and kill is not None:
            used = said
            continue  # a killer by its own skill, but the sources say the knife killed the seat
        return None, []  # the one death may be this seat's doing, with the wolves' kill saved, guarded or moved
    return died[0], used


def _explained(night: str, actions: Sequence[Event], seats: Sequence[SeatInfo], catalogue: RoleCatalogue) -> set[int]:
    """The seats whose death at the dawn after `night` a stated act of that night explains: the target of a seat's own
    kill (catalogue `night_kill`: a poison, an assassination), and the user of a skill on a seat whose role reflects it
    (catalogue `reflects`: the seer who checked the nightmare knight dies instead)."""
    kill_skills = own_kill_skills(catalogue)
    role_of = {s.seat: catalogue.get(s.role) for s in seats}
    out = set()
    for a in actions:
        if a.phase != night:
            continue
        if a.skill in kill_skills and a.target is not None:
            out.add(a.target)
        if isinstance(a.actor, int) and (holder := role_of.get(a.target)) is not None and a.skill in holder.reflects:
            out.add(a.actor)
    return out


def _may_be_reflected(seat: int, night: str, actions: Sequence[Event], seats: Sequence[SeatInfo], out_before, catalogue: RoleCatalogue,
                      swaps: set[frozenset[int]]) -> bool:
    """Whether `seat`'s death at the dawn after `night` may be a reflection (catalogue `reflects`): a seat whose role
    reflects a skill is in that night, and `seat` used that skill on it (or on a seat a magician is stated to have
    swapped with it), or its use of that skill that night is not stated while its role holds the skill (`Role.night_skills`)
    or is not known. A use stated on another seat rules the reflection out (one use of a skill a night), and so does a
    once-a-game kill (`night_kill.once`) stated on another night. The lone death
    rule asks it of the night before too: boards word the knight's rule "次日…出局" (the next day, or the next night),
    so a reflection may land a dawn late; the catalogue's own rule (and the arena) say that night's dawn."""
    role_of = {s.seat: s.role for s in seats}
    mine = catalogue.get(role_of.get(seat, ""))
    for holder in seats:
        role = catalogue.get(holder.role)
        if holder.seat == seat or role is None or not role.reflects or out_before(holder.seat, night) is not None:
            continue
        lands = {holder.seat, *(x for pair in swaps if holder.seat in pair for x in pair)}
        for skill in role.reflects:
            used = [a for a in actions if a.actor == seat and a.phase == night and a.skill == skill]
            if any(a.target in lands for a in used):
                return True
            once = mine is not None and mine.night_kill is not None and mine.night_kill.once and mine.night_kill.skill == skill
            if not used and (mine is None or skill in mine.night_skills) and not (once and any(a.actor == seat and a.skill == skill for a in actions)):
                return True  # not stated that night, and not spent on another (a once-a-game kill: the witch's poison)
    return False


def _lived_through(kill: Event, actions: Sequence[Event]) -> bool:
    """A stated save or protection of the kill's seat on the kill's night: the seat lived through that knife, so the
    wolves may knife it again (a lone dawn death of the seat on a later night is theirs too)."""
    return any(a.phase == kill.phase and a.target == kill.target and a.skill in ("witch_save", "guard_protect") for a in actions)


def _a_night_off(kill: Event, nights: list[str], actions: Sequence[Event], exits: Sequence[Event], order: dict[str, int], dawn,
                 died_at_dawn, explained) -> str | None:
    """Why a stated kill is one night off the host's dawns, or None. The annotator log counts nights its own way (a
    night after a self-destruct goes uncounted): its "night 4" kill of a seat the host announces dead at the dawn
    after night 5, while night 4's dawn has a death no stated act explains (`explained(night)`: a poison, an
    assassination, a reflected check) and nothing stated saved or guarded the seat, is the next night's kill (issue 41).
    The host's dawn wins: the kill is dropped, and the dawns decide."""
    target, night = kill.target, kill.phase
    i = nights.index(night)
    if target is None or i + 1 >= len(nights) or died_at_dawn(target, night) or not died_at_dawn(target, nights[i + 1]):
        return None
    if any(a.phase == night and a.skill in ("witch_save", "guard_protect") and a.target in (target, None) for a in actions):
        return None
    if any(re.search(r"守|救|解药", ev.quote) for ev in kill.evidence):
        return None  # the words that state the kill state a protection too ("刀 6 号被 5 号守护"), which no reader took
    lo, hi = dawn(night)
    died = {e.target for e in exits if e.kind == "elimination" and e.result in _NIGHT_DEATHS and lo <= order.get(e.phase, -1) <= hi} - explained(night)
    if not died:
        return None
    return (f"seat {target} is announced dead at the dawn after {nights[i + 1]}, not after {night}, whose dawn announces seat(s) "
            f"{sorted(died)} dead: the kill is a night off the host's count")


def _contradiction(e: Event, out_before, died_at_dawn, protected: set, saved: set, kill_borne_out, survives, kill_skills: frozenset[str]) -> str | None:
    """Why the sources' act `e` cannot be true, or None. A seat's own kill (catalogue `night_kill`, `kill_skills`: the
    witch's poison, the stalker's assassination, a declared role's kill) needs its seat dead at that dawn, unless the
    catalogue says the seat's role survives it (`survives`); where the catalogue does not know the role, `NotKnown`."""
    for who, what in ((e.actor, "acting"), (e.target, "its target")):
        gone = out_before(who, e.phase)
        if gone is not None:
            return f"seat {who} ({what}) was announced out ({gone.result}) in {gone.phase}, before {e.phase}"
    if e.skill == "guard_protect" and died_at_dawn(e.target, e.phase) and (e.phase, e.target) not in saved:
        return f"seat {e.target} is announced dead at the dawn after {e.phase}, which the protection would have prevented"
    if e.skill == "witch_save" and died_at_dawn(e.target, e.phase) and (e.phase, e.target) not in protected:
        return f"seat {e.target} is announced dead at the dawn after {e.phase}, which the save would have prevented"
    if e.skill in kill_skills and not kill_borne_out(e.target, e.phase):
        lives = survives(e.target, e.skill)
        if lives is None:
            return NotKnown(f"seat {e.target} is not announced dead at the dawn after {e.phase}, and the role catalogue does not know "
                            f"its role: whether {e.skill} kills it is not known")
        if not lives:
            return f"seat {e.target} is not announced dead at the dawn after {e.phase}"
    return None


def _witch_told(events: list[Event], stated: Sequence[Event], seats: Sequence[SeatInfo], nights: list[str], out_before,
                catalogue: RoleCatalogue) -> list[Event]:
    """The night's victim, shown to a seat whose role learns it without holding it (a `knows_each_night` skill not in `Role.night_skills`):
    with 'wolf_kill until OWN_SKILL' (the witch until her antidote), each night it still holds that skill (before every
    use kept or `stated`, in dispute or not); with a plain 'wolf_kill' on a role off the wolf side, every night it is in.
    The two rules are read apart; two seats under one of them: which one was told is not known."""
    learners = [(s.seat, d) for s in seats for d in duties(s.role, catalogue) if d.skill == "wolf_kill" and not catalogue.holds(s.role, skill="wolf_kill")]
    told: list[Event] = []
    for group in ([x for x in learners if x[1].until], [x for x in learners if not x[1].until]):
        if len(group) == 1:  # none, or which seat was told is not known
            told += _told_to(*group[0], events, stated, nights, out_before)
    return told


def _told_to(seat: int, duty: Duty, events: list[Event], stated: Sequence[Event], nights: list[str], out_before) -> list[Event]:
    until = duty.until
    note = (_WITCH_TOLD if duty == Duty.parse("wolf_kill until witch_save") else f"the night's victim, as the game tells the seat until it uses {until}"
            if until is not None else "the night's victim, as the game tells the seat every night")
    kills = {e.phase: e for e in events if e.skill == "wolf_kill"}
    saved_on = [e.phase for e in [*events, *stated] if until is not None and e.skill == until and e.actor == seat and e.phase in nights]
    told = []
    for night in nights:
        if any(nights.index(n) < nights.index(night) for n in saved_on) or out_before(seat, night) is not None:
            break
        if night in kills:
            told.append(kills[night].model_copy(update={"audience": Audience(kind="seats", seats=[seat]), "note": note}))
    return told
