"""What the night readers found, kept as events: each reading checked against the game (a night it has, a seat it has,
the role it names), and the conflicts between readings (both potions on one night, two targets for one action)
refused. The clause readers (nights.night_clauses) and the walk over the text (nights.nights) write here."""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.annotate.config import phase_id
from werealign.importers.toolkit.nights import night_words as w
from werealign.importers.toolkit.nights.claims import seen_by_seer
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.schema import Event, SeatInfo
from werealign.schema.models import ACTOR, EVERYONE, Audience
from werealign.schema.roles import RoleCatalogue

WOLVES = Audience(kind="team", team="wolf")
DERIVED_NOTE = "read from the sources' account of a night they do not name (after a self-destruct or a nightfall), borne out by the host's dawn"
TOLD_DEATH_NOTE = "a death in the night, as the annotator log or the recap tells it (the host never tells that dawn)"
# A seat's clause has it killed by the wolves or poisoned and names no night ("最终被狼人刀死", "夜间被女巫毒死"): placed
# by the host's dawns (nights.night_facts); its phase until then is the game's last night.
UNPLACED_NOTE = "read from a seat's clause that has it killed by the wolves or poisoned on a night it does not name, placed by the host's dawn"


@dataclass(frozen=True)
class Reading:
    """One night action read from the log, or why a reading was dropped (event None)."""

    seat: int
    text: str  # the sub-clause read (for the import report only; never put in the game)
    event: Event | None
    why: str


def check_result(m: re.Match[str], target: SeatInfo, zh: bool, catalogue: RoleCatalogue) -> tuple[str | None, str | None]:
    """(result, None) or (None, why the reading is dropped). What the check can show is the catalogue's rule
    (`seen_by_seer`: a wolf-side role shows wolf unless `seer_sees_good`), not the id "werewolf": a stated result it
    cannot show is refused; an unstated one is the one result it can show, else none."""
    said = m.group("said") or ("查杀" if m.groupdict().get("verb") == "查杀" else None)
    seen = seen_by_seer(target, catalogue)
    truth = next(iter(seen)) if len(seen) == 1 else None
    stated = "wolf" if said in w.WOLF_WORDS else ("good" if said in w.GOOD_WORDS else None)
    if stated is not None and stated not in seen:
        return None, f"the stated result ({said}) contradicts seat {target.seat}'s true role ({target.role})"
    result = stated or truth
    if result is None:
        return None, None
    return ({"wolf": "狼人", "good": "好人"} if zh else {"wolf": "wolf", "good": "good"})[result], None



class NightRecord:
    """Where the clause readers (nights.night_clauses) put what they read: each reading is checked against the game
    (its night, its seats, the roles named) and becomes an event, or a refusal with why."""

    def __init__(self, by_seat: dict[int, SeatInfo], nights: set[str], zh: bool, catalogue: RoleCatalogue):
        self.by_seat, self.nights, self.zh = by_seat, nights, zh
        self.catalogue = catalogue  # who holds a skill is the catalogue's rule, not a role id
        self.readings: list[Reading] = []
        self.derived = False  # reading under a night the text does not name (nights.night_story)
        self.nicks: dict[str, int] = {}
        self.nick_patterns: list[tuple[str, re.Pattern]] = []


    def holds(self, seat: SeatInfo | None, skill: str) -> bool:
        """The seat's TRUE role holds `skill` by the catalogue (`Role.night_skills`): a declared role with the witch's
        potions is read as the witch is."""
        return seat is not None and self.catalogue.holds(seat.role, skill=skill)

    def one_of(self, skill: str, seat: str | None) -> SeatInfo | None:
        """The seat named (its true role must hold `skill`), else the board's one holder of `skill`."""
        if seat:
            named = self.by_seat.get(int(seat))
            return named if self.holds(named, skill=skill) else None
        holders = [s for s in self.by_seat.values() if self.holds(s, skill=skill)]
        return holders[0] if len(holders) == 1 else None

    def role_agrees(self, m: re.Match[str]) -> bool:
        """A target named with a role ("守卫 5 号") is read only when the seat truly holds it."""
        seat = self.by_seat.get(int(m.group("seat")))
        if m.group("trole") is None:
            return True
        role = ROLE_WORDS.canonical(m.group("trole"))
        # a plain wolf's name ("狼人 3 号") fits any wolf-side seat
        return seat is not None and (role == seat.role or (role == "werewolf" and seat.faction == "wolf"))

    def actor(self, skill: str, m: re.Match[str]) -> SeatInfo | None:
        """The seat named (its true role must hold the skill, and agree with a role word given), or the board's one
        holder of the skill."""
        _, word, _ = w.SKILLS[skill]
        words = {x for x in (m.group("role_a"), m.group("role_b")) if x}
        if words - {word}:
            return None
        return self.one_of(skill=skill, seat=m.group("actor"))

    def kill(self, night: int, target: int | None, text: str) -> None:
        """The wolves' kill of `night` (seen by the whole pack; the witch's share is added later); target None: the
        pack stated to have knifed nobody (a board that allows it), a fact like a stated empty guard. Read while
        `derived` (a night the text does not name, nights.night_story), it carries DERIVED_NOTE: kept only where
        the host's dawn bears it out (nights.night_facts)."""
        phase = phase_id("night", night)
        if phase not in self.nights or (target is not None and target not in self.by_seat):
            self.readings.append(Reading(target or 0, text, None, f"the game has no {phase} or no seat {target}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=WOLVES, actor=None, target=target, skill="wolf_kill",
                      note=DERIVED_NOTE if self.derived else "read from the annotator log's statement of the wolves' kill")
        self.readings.append(Reading(target or 0, text, event, "read"))

    def deaths(self, night: int, seats: list[int], text: str) -> None:
        """Seats the text has die in `night` (TOLD_DEATH_NOTE): an account of its dawn, not a night action."""
        phase = phase_id("night", night)
        for seat in seats:
            if phase in self.nights and seat in self.by_seat:
                event = Event(kind="elimination", phase=phase, segment_id=None, audience=EVERYONE, target=seat, result="night_death",
                              note=TOLD_DEATH_NOTE)
                self.readings.append(Reading(seat, text, event, "read"))

    def kill_unplaced(self, seat: SeatInfo, text: str, killer: SeatInfo | None = None, skill: str | None = None) -> None:
        """The wolves killed `seat` (or `killer` did by its own `skill`: the witch's poison, the stalker's
        assassination) on a night the text does not name (UNPLACED_NOTE)."""
        nights = sorted(self.nights, key=lambda pid: int(pid.rsplit("-", 1)[-1]) if pid.rsplit("-", 1)[-1].isdigit() else 0)
        if not nights:
            return
        if killer is None or skill is None:
            event = Event(kind="skill_use", phase=nights[-1], segment_id=None, audience=WOLVES, target=seat.seat, skill="wolf_kill", note=UNPLACED_NOTE)
        else:
            event = Event(kind="skill_use", phase=nights[-1], segment_id=None, audience=ACTOR, actor=killer.seat, target=seat.seat, skill=skill,
                          note=UNPLACED_NOTE)
        self.readings.append(Reading(seat.seat, text, event, "read"))

    def implicit_save(self, witch: SeatInfo, night: int, itself: bool, text: str) -> None:
        """An antidote with no target named: herself ("自救"), else the night's victim (filled in later; None until then)."""
        phase = phase_id("night", night)
        if phase not in self.nights:
            self.readings.append(Reading(witch.seat, text, None, f"the game has no {phase}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=witch.seat, target=witch.seat if itself else None,
                      skill="witch_save", note="read from the annotator log's statement of the witch's antidote (target: the night's victim)")
        self.readings.append(Reading(witch.seat, text, event, "read"))

    def act(self, seat: SeatInfo, night: int, skill: str, target: int | None, text: str, result: str | None = None) -> None:
        """A potion or a protection whose target is known (None: a stated empty guard)."""
        phase = phase_id("night", night)
        if phase not in self.nights:
            self.readings.append(Reading(seat.seat, text, None, f"the game has no {phase}"))
            return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=seat.seat, target=target, skill=skill,
                      result=result, note="read from the annotator log's statement of the seat's night action")
        self.readings.append(Reading(seat.seat, text, event, "read"))

    def found(self, seat: SeatInfo, night: int, skill: str, m: re.Match[str], text: str) -> None:
        phase = phase_id("night", night)
        target = self.by_seat.get(int(m.group("seat")))
        if phase not in self.nights:
            self.readings.append(Reading(seat.seat, text, None, f"the game has no {phase}"))
            return
        if target is None:
            self.readings.append(Reading(seat.seat, text, None, f"seat {m.group('seat')} is not a seat of the game"))
            return
        result = None
        if skill == "seer_check":
            result, why = check_result(m, target, self.zh, self.catalogue)
            if why:
                self.readings.append(Reading(seat.seat, text, None, why))
                return
        event = Event(kind="skill_use", phase=phase, segment_id=None, audience=ACTOR, actor=seat.seat, target=target.seat,
                      skill=skill, result=result, note="read from the annotator log's statement of the seat's night action")
        self.readings.append(Reading(seat.seat, text, event, "read"))


def drop_conflicts(readings: list[Reading]) -> list[Reading]:
    """Against the rules or ambiguous: both potions of a witch on one night, two targets for one skill on one night.
    (A kill whose night is not yet placed, UNPLACED_NOTE, is on no night yet: nights.night_facts settles it.)"""
    events = [r.event for r in readings if r.event is not None and r.event.note != UNPLACED_NOTE and r.event.kind == "skill_use"]
    bad: set[tuple[object, str]] = set()
    for e in events:
        same = {o.target for o in events if o.actor == e.actor and o.phase == e.phase and o.skill == e.skill} - {None}
        potions = {o.skill for o in events if o.actor == e.actor and o.phase == e.phase and o.skill in ("witch_save", "witch_poison")}
        if len(same) > 1 or len(potions) > 1:
            bad.add((e.actor, e.phase))
    out: list[Reading] = []
    seen: set[tuple] = set()
    for r in readings:
        e = r.event
        if e is None:
            out.append(r)
        elif (e.actor, e.phase) in bad and e.note != UNPLACED_NOTE and e.kind == "skill_use":
            who = f"seat {e.actor}" if e.actor is not None else "the wolves"
            out.append(Reading(r.seat, r.text, None, f"conflicting night actions of {who} on {e.phase}"))
        elif (e.actor, e.phase, e.skill, e.target) not in seen:  # the same action stated twice is one action
            seen.add((e.actor, e.phase, e.skill, e.target))
            out.append(r)
    return out
