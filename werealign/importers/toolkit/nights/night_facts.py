"""Every night fact of a WereBench game, from every reader, settled: what the importer keeps and why it kept no more.

One pipeline for the import (werebench.game) and for the account of what is missing (scripts/knowledge_coverage.py
--gaps), so a gap is classified by the very readers that would have filled it (issue 41):
1. the annotator log and the host's recap, read as written facts (nights.nights), and a seer's last check the
   table's badge convention states (nights.badge_checks); where two of them put different targets on one seat's
   action of a night, neither is kept (disputed);
2. the true role holders' own reports at the table and the log's account of them (nights.claims; a seer's check
   done with its result unsaid: nights.own_checks), the recap's account of the true seer's checks
   (nights.recap_checks; it settles no dispute the recap's written readings are party to), placed on
   their nights (a seer's recount of her checks in one turn, in the order told: nights.recounts); one check list per seer
   (a check placed after the day she first reported the seat is dropped there: nights.report_days), checked against the written facts (disputed when they disagree);
3. all of it settled against the host's dawns and exits, and given to the seats that knew it (nights.night_truth).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from werealign.importers.corrections import apply_corrections
from werealign.importers.toolkit.nights.badge_checks import badge_checks
from werealign.importers.toolkit.nights.claims import Statement, read_log_claims, read_statements, statement_events
from werealign.importers.toolkit.nights.knife_said import knife_evidence
from werealign.importers.toolkit.nights.night_truth import NotKnown, settle_night_actions, untold_dawn
from werealign.game.knowledge import dawn_window, own_kill_skills
from werealign.importers.toolkit.nights.night_record import DERIVED_NOTE, TOLD_DEATH_NOTE, UNPLACED_NOTE
from werealign.importers.toolkit.nights.nights import Reading, read_night_actions
from werealign.importers.toolkit.nights.own_checks import own_checks
from werealign.importers.toolkit.nights.recap_checks import recap_checks
from werealign.importers.toolkit.nights.recounts import place_recounts
from werealign.importers.toolkit.nights.report_days import drop_checks_after_their_report
from werealign.importers.toolkit.nights.swaps import stated_swaps
from werealign.schema import Event, Phase, SeatInfo, Utterance
from werealign.schema.corrections import Correction
from werealign.schema.models import ACTOR, EVERYONE
from werealign.schema.roles import RoleCatalogue


@dataclass
class NightFacts:
    kept: list[Event]
    unread: list[Reading] = field(default_factory=list)  # written sub-clauses a reader matched and refused
    refused: list[tuple[Statement, str]] = field(default_factory=list)  # reports at the table not placed, with why
    disputed: dict[tuple, str] = field(default_factory=dict)  # (actor, skill, night) -> why no source is taken there
    dropped: list[tuple[Event, str]] = field(default_factory=list)  # facts the dawns or the exits contradict
    corrected: list[str] = field(default_factory=list)  # what the corrections file changed


def read_night_facts(logs: str | None, recap: str | None, utterances: Sequence[Utterance], seats: Sequence[SeatInfo],
                     phases: Sequence[Phase], language: str, exits: Sequence[Event], corrections: Sequence[Correction] = (),
                     voted=lambda seat, night: None, *, catalogue: RoleCatalogue) -> NightFacts:
    """`corrections`: the game's corrections file (werealign.importers.corrections), applied before the settling.
    `voted`: (seat, night) -> the seats it voted for by day before that night, None when not known (toolkit.tallies.day_ballots).
    `catalogue`: the game's role catalogue (`catalogue_for(game.rules.declared_roles)`), required: a built-in default
    would read a game's declared roles as unknown and hide the caller that forgot it."""
    read = (read_night_actions(logs, seats, phases, language, catalogue=catalogue)
            + read_night_actions(recap, seats, phases, language, transcribed=True, exits=exits, catalogue=catalogue))
    readings, undawned = _dawn_bears_out(read, exits, phases, own_kill_skills(catalogue))
    badge = badge_checks(utterances, seats, phases, exits, language == "zh", catalogue)
    told_deaths = [r.event for r in readings if r.event is not None and r.event.kind == "elimination"]
    readings = [r for r in readings if r.event is None or r.event.kind != "elimination"]
    said = read_statements(utterances, seats, phases, catalogue) + own_checks(utterances, seats, phases, catalogue)
    # a check placed after the day the seer first reported the seat is wrong there (nights.report_days)
    found, said, late_written, late_said = drop_checks_after_their_report([*(r.event for r in readings if r.event is not None), *badge],
                                                                           said, seats, phases, catalogue)
    written, disputed = one_per_action(found)
    statements = place_recounts(said, written, phases) + read_log_claims(logs, seats, phases, catalogue) + recap_checks(recap, seats, phases, catalogue)
    stated, refused, disputed_talk = statement_events(statements, seats, phases, written, catalogue, language == "zh")
    refused = [*late_said, *refused]
    # the recap's account of a check (nights.recap_checks) settles no dispute the written readings of the recap are party to
    stated = [e for e in stated if (e.actor, e.skill, e.phase) not in disputed or e.evidence[0].source != "recap"]
    disputed.update(disputed_talk)
    written = [e for e in written if (e.actor, e.skill, e.phase) not in disputed]
    # a witch's own word naming the target of a save the written sources left implicit is the same save: one fact
    facts, _ = one_per_action([*written, *stated])
    facts, corrected = apply_corrections(facts, corrections)
    knives = [(e.target, e.phase) for e in [*(r.event for r in readings if r.event is not None), *(e for e, _ in undawned)] if e.skill == "wolf_kill"]
    kept, dropped = settle_night_actions(facts, exits, seats, phases, _antidotes_stated(readings, refused, phases), stated_swaps([logs, recap], seats),
                                         told_deaths, knife_evidence(logs, recap, seats, knives), voted, catalogue=catalogue)
    # what the rules cannot settle is no contradiction: named missing, like two sources that disagree
    disputed.update({(e.actor, e.skill, e.phase): why for e, why in dropped if isinstance(why, NotKnown)})
    dropped = [*late_written, *(d for d in dropped if not isinstance(d[1], NotKnown))]
    removed = {(c.actor, c.skill, c.night) for c in corrections if c.action == "remove"}
    kept = [e for e in kept if (e.actor, e.skill, e.phase) not in removed]  # nor derived again from the dawn
    for c in corrections:
        disputed.pop((c.actor, c.skill, c.night), None)  # settled by hand
    return NightFacts(kept, [r for r in readings if r.event is None], refused, disputed, [*undawned, *dropped], corrected)


def _dawn_bears_out(readings: list[Reading], exits: Sequence[Event], phases: Sequence[Phase], kill_skills: frozenset[str]
                    ) -> tuple[list[Reading], list[tuple[Event, str]]]:
    """A kill read under a night the text does not name (nights.night_story) stands only where the host bears it
    out: the seat announced dead at that night's dawn, or the recording never tells that dawn (night_truth.untold_dawn),
    the seat is announced out nowhere and the log and the recap both tell that kill on that night. Else it is dropped (the dawn contradicts it) and reported. A kill or a
    poison whose night no word names is placed by the dawns (_place_by_dawns). (the readings kept, the events dropped
    with why)"""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p.id for p in phases if p.kind == "night"]
    out, dropped = _place_by_dawns([r for r in readings if r.event is not None and r.event.note == UNPLACED_NOTE], exits, phases, kill_skills)
    for r in readings:
        e = r.event
        if e is not None and e.note == UNPLACED_NOTE:
            continue
        if e is None or e.note != DERIVED_NOTE:
            out.append(r)
            continue
        lo, hi = dawn_window(e.phase, nights, order, len(phases))
        gone = [x for x in exits if x.kind == "elimination" and x.target == e.target]
        at_dawn = any(x.result in ("night_death", "left_table") and lo <= order.get(x.phase, -1) <= hi for x in gone)
        # no dawn to check it (the recording ends in that night): a seat out nowhere may also be one the witch saved, so
        # the log and the recap must both tell that kill on that night
        both = {ev.source for x in readings if x.event is not None and x.event.note == DERIVED_NOTE and (x.event.phase, x.event.target) == (e.phase, e.target)
                for ev in x.event.evidence} >= {"annotator_log", "recap"}
        if e.target is not None and (at_dawn or (untold_dawn(e.phase, phases, exits) and not gone and both)):
            out.append(r)
        else:
            dropped.append((e, f"a kill of {e.phase}, a night the words do not name: the host's dawn does not bear out seat {e.target}"))
    return out, dropped


def _place_by_dawns(unplaced: list[Reading], exits: Sequence[Event], phases: Sequence[Phase], kill_skills: frozenset[str]
                    ) -> tuple[list[Reading], list[tuple[Event, str]]]:
    """Seats' clauses that have a seat killed by the wolves or poisoned on a night they do not name (UNPLACED_NOTE),
    placed by the host's dawns. Annotators write "被狼人刀死" of a seat the witch poisoned too (DEV game s3-05's log),
    so a kill is placed only where the sources account for every death of a dawn with two or more, one cause each and
    one of them the wolves' ("6 号…夜间被女巫毒死", "7 号…夜间被狼刀死亡", "11 号…夜间被潜行者暗杀"); a poison or an
    assassination is placed on the dawn its seat died at. A seat announced out nowhere whose last night's dawn the recording never tells: a kill is a death in that
    night (TOLD_DEATH_NOTE: the host's lone-death rule and the role catalogue settle it), a poison that night's.
    (readings placed, the events not placed with why)"""
    order = {p.id: i for i, p in enumerate(phases)}
    nights = [p.id for p in phases if p.kind == "night"]
    by_seat: dict[int | None, list[Reading]] = {}
    for r in unplaced:
        by_seat.setdefault(r.event.target, []).append(r)
    out: list[Reading] = []
    dropped: list[tuple[Event, str]] = []
    placed: set[int | None] = set()
    for night in nights:
        lo, hi = dawn_window(night, nights, order, len(phases))
        died = {x.target for x in exits if x.kind == "elimination" and x.result in ("night_death", "left_table", "poisoned")
                and lo <= order.get(x.phase, -1) <= hi}
        # seat -> the one event standing for its cause (None: no cause given, or two that differ)
        cause = {seat: rs[0].event if rs and len({r.event.skill for r in rs}) == 1 else None for seat in died for rs in [by_seat.get(seat, [])]}
        kills = [seat for seat, e in cause.items() if e is not None and e.skill == "wolf_kill"]
        complete = len(died) >= 2 and None not in cause.values() and len(kills) == 1
        for seat in sorted(died & set(by_seat)):
            placed.add(seat)
            e = cause[seat]
            # a seat's own kill (a poison, an assassination: catalogue `night_kill`) is placed on its target's dawn; the
            # wolves' needs the dawn complete
            if e is not None and (e.skill in kill_skills or (e.skill == "wolf_kill" and complete)):
                out += [Reading(r.seat, r.text, r.event.model_copy(update={"phase": night}), r.why) for r in by_seat[seat]]
            else:
                dropped += [(r.event, f"seat {seat} dies at the dawn after {night} with {sorted(died)}: the sources' accounts of that dawn, "
                             "which name no night, do not give each death one cause (annotators write '被狼人刀死' of poisoned seats too)")
                            for r in by_seat[seat]]
    last = nights[-1] if nights else None
    for seat, rs in by_seat.items():
        if seat in placed:
            continue
        gone = any(x.kind == "elimination" and x.target == seat for x in exits)
        for r in rs:
            e = r.event
            if gone or last is None or not untold_dawn(last, phases, exits):
                dropped.append((e, f"seat {seat} killed or poisoned on a night the words do not name: no dawn of the host places it"))
            elif e.skill == "wolf_kill":
                out.append(Reading(r.seat, r.text, Event(kind="elimination", phase=last, segment_id=None, audience=EVERYONE, target=seat,
                                                         result="night_death", note=TOLD_DEATH_NOTE, evidence=e.evidence), r.why))
            else:
                out.append(Reading(r.seat, r.text, e.model_copy(update={"phase": last}), r.why))
    return out, dropped


def _antidotes_stated(readings: Sequence[Reading], refused: Sequence[tuple[Statement, str]], phases: Sequence[Phase]) -> list[Event]:
    """Every save a source states, kept or not: a written one on its night; a witch's own word whose night is not said,
    on night 1 (the earliest it can be: she is told no victim after it). The witch learns no victim after any."""
    nights = {p.day: p.id for p in phases if p.kind == "night"}
    out = [r.event for r in readings if r.event is not None and r.event.skill == "witch_save"]
    for st, _ in refused:
        if st.skill == "witch_save" and (st.night or 1) in nights:
            out.append(Event(kind="skill_use", phase=nights[st.night or 1], segment_id=None, audience=ACTOR, actor=st.seat, target=st.target,
                             skill="witch_save", note="a save the witch states; its night unsure"))
    return out


def one_per_action(events: list[Event]) -> tuple[list[Event], dict[tuple, str]]:
    """The log and the recap often state the same action: once each, with the evidence of both. Two that name
    different targets for one seat's action of a night (or the pack's kill) leave both out: which is true is not known."""
    by_key: dict[tuple, list[Event]] = {}
    for e in events:
        by_key.setdefault((e.actor, e.skill, e.phase), []).append(e)
    kept, disputed = [], {}
    for key, group in by_key.items():
        if len({e.target for e in group} - {None}) > 1:
            disputed[key] = "the written sources disagree: " + "; ".join(f"seat {e.target} ('{e.evidence[0].quote if e.evidence else ''}')" for e in group)
            continue
        # A target left implicit (a witch's "用解药": the night's victim) agrees with any; the one that names it is kept.
        kept.append(next((e for e in group if e.target is not None), group[0]).model_copy(update={"evidence": [ev for e in group for ev in e.evidence]}))
    return kept, disputed


def findings(nf: NightFacts, phases: Sequence[Phase]) -> dict[tuple[str, str, object], list[str]]:
    """(night, skill, actor: a seat, or None for the pack's kill) -> what the readers found there and did not keep."""
    nights = {p.day: p.id for p in phases if p.kind == "night"}
    out: dict[tuple[str, str, object], list[str]] = {}
    for (actor, skill, night), why in nf.disputed.items():
        out.setdefault((night, skill, actor), []).append(f"disputed: {why}")
    for e, why in nf.dropped:
        out.setdefault((e.phase, e.skill or "", e.actor), []).append(f"contradicted: {why}")
    for st, why in nf.refused:
        for n in ([st.night] if st.night is not None else [n for n in nights if n <= st.day]):
            if n in nights:
                out.setdefault((nights[n], st.skill, st.seat), []).append(f"refused: '{st.text}' ({st.source}, day {st.day}): {why}")
    return out
