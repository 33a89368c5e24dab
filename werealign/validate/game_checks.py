"""Semantic checks of one game log (cross-field rules the JSON Schema cannot express).

Severities: error = the game cannot be used for evaluation as it stands (a cut-off that points
nowhere, a speaker that is no seat, a composition that contradicts the seats); warning = suspicious
but usable (a turn a few seconds outside its phase, a winner the events do not explain).
"""

from __future__ import annotations

from collections import Counter

from werealign.schema import GameLog
from werealign.schema.models import VOTE_PHASE_KINDS
from werealign.schema.roles import CATALOGUE, RoleCatalogue, catalogue_for
from werealign.validate.evidence_checks import check_evidence
from werealign.validate.findings import Sink, path
from werealign.validate.index import GameIndex
from werealign.validate.night_checks import check_night_chat
from werealign.validate.replay_checks import check_replay

# Phase timestamps are annotated by hand, to the second at best: a turn that starts or ends
# this close to its phase boundary is not worth a warning.
TIME_TOLERANCE = 5.0


def check_game(game: GameLog, out: Sink) -> GameIndex:
    """Run every game check, reporting into `out`; return the index for cross-reference checks."""
    idx = GameIndex.build(game)
    catalogue = game_catalogue(game, out)
    check_seats(game, catalogue, out)
    check_composition(game, catalogue, out)
    check_variant(game, catalogue, out)
    if game.rules.has_sheriff is None:
        inferred = game.sheriff_in_play()
        out.warning("has-sheriff-inferred", "rules.has_sheriff",
                    f"not given; inferred {str(inferred).lower()} ({'a' if inferred else 'no'} sheriff election phase or event); write it to be sure")
    check_phases(game, out)
    check_utterances(game, idx, out)
    check_events(game, idx, out)
    check_evidence(game, idx, out)
    check_mvp(game, idx, out)
    check_highlights(game, idx, out)
    check_winner(game, idx, out)
    check_replay(game, out)
    check_night_chat(game, out)
    return idx


# --------------------------------------------------------------------------- seats and roles


def game_catalogue(game: GameLog, out: Sink) -> RoleCatalogue:
    """The role catalogue with the game's own declarations; a declaration it cannot apply is an error."""
    usable = []
    for i, d in enumerate(game.rules.declared_roles):
        if d.id not in CATALOGUE and d.faction is None:
            out.error("declared-role-without-faction", path("rules", "declared_roles", i, "faction"),
                      f"role {d.id!r} is not in the role catalogue, so its faction is needed")
        else:
            usable.append(d)
    return catalogue_for(usable)


def check_seats(game: GameLog, catalogue: RoleCatalogue, out: Sink) -> None:
    counts = Counter(s.seat for s in game.seats)
    for i, s in enumerate(game.seats):
        if counts[s.seat] > 1:
            out.error("seat-duplicate", path("seats", i, "seat"), f"seat {s.seat} is listed {counts[s.seat]} times; each seat once")
        _check_role(s.role, s.faction, path("seats", i), catalogue, out)
    numbers = sorted(counts)
    if numbers != list(range(1, len(numbers) + 1)):
        out.error("seat-gap", "seats", f"seats must be numbered 1..{len(numbers)} without gaps; found {', '.join(map(str, numbers))}")

    owners: dict[str, list[int]] = {}
    for s in game.seats:
        for label in dict.fromkeys(s.speaker_labels):
            owners.setdefault(label, []).append(s.seat)
    host = set(game.host_labels)
    for i, s in enumerate(game.seats):
        for j, label in enumerate(s.speaker_labels):
            where = path("seats", i, "speaker_labels", j)
            if len(owners[label]) > 1 and owners[label][0] == s.seat:
                seats = ", ".join(map(str, owners[label]))
                out.error("speaker-label-ambiguous", where, f"speaker label {label!r} maps to seats {seats}; a label must map to one seat")
            if label in host:
                out.error("speaker-label-ambiguous", where, f"speaker label {label!r} of seat {s.seat} is also a host label")


def _check_role(role: str, faction: str, where: str, catalogue: RoleCatalogue, out: Sink) -> None:
    if role not in catalogue:
        hint = catalogue.canonical(role)
        if hint:  # a name of a known role where its id belongs
            out.error("unknown-role", path(where, "role"), f"{role!r} is not a canonical role id; write {hint!r}")
        else:  # open world: the game stays usable; only what needs this seat's side is skipped
            out.warning("unknown-role", path(where, "role"),
                        f"role {role!r} is in neither the role catalogue nor rules.declared_roles; faction {faction!r} cannot be checked (declare the role)")
        return
    expected = catalogue.faction(role)
    if expected != "variable" and faction != expected:
        out.error("faction-mismatch", path(where, "faction"), f"role {role} belongs to faction {expected!r}, not {faction!r}")


def check_composition(game: GameLog, catalogue: RoleCatalogue, out: Sink) -> None:
    declared: Counter[str] = Counter()
    first: dict[str, int] = {}
    for i, rc in enumerate(game.rules.composition):
        where = path("rules", "composition", i)
        if rc.role in first:
            out.error("composition-duplicate-role", path(where, "role"),
                      f"role {rc.role} is listed again (first at rules.composition[{first[rc.role]}]); merge the counts")
        first.setdefault(rc.role, i)
        declared[rc.role] += rc.count
        _check_role(rc.role, rc.faction, where, catalogue, out)
    seated = Counter(s.role for s in game.seats)
    if declared == seated:
        return
    diffs = [f"{role}: composition {declared[role]}, seats {seated[role]}"
             for role in sorted(set(declared) | set(seated)) if declared[role] != seated[role]]
    message = "role composition does not match the seats' roles (" + "; ".join(diffs) + ")"
    # A thief game deals two spare cards, so the deck legitimately holds more cards than seats.
    if "thief" in declared:
        out.warning("composition-mismatch", "rules.composition", message + "; expected with a thief's spare cards?")
    else:
        out.error("composition-mismatch", "rules.composition", message)


def _variant_mentions(variant: str, catalogue: RoleCatalogue) -> set[str]:
    """Special roles named in a variant id such as 'seer-witch-hunter-guard' (either - or _ spelling)."""
    # Tokens between '-' are role ids as variant_id writes them ('silencer_elder'); a token that is
    # no id is joined with the next ones ('silencer-elder', 'nine-tailed-fox'), shortest match first.
    tokens = [t for t in variant.lower().split("-") if t]
    found, i = set(), 0
    while i < len(tokens):
        for j in range(i + 1, len(tokens) + 1):
            role = catalogue.get("_".join(tokens[i:j]))
            if role is not None:
                if role.is_god:
                    found.add(role.id)
                i = j
                break
        else:
            i += 1
    return found


def check_variant(game: GameLog, catalogue: RoleCatalogue, out: Sink) -> None:
    mentioned = _variant_mentions(game.rules.variant, catalogue)
    if not mentioned:  # a named variant ("standard-12") says nothing we can check
        return
    special = {rc.role for rc in game.rules.composition if rc.role in catalogue and catalogue.roles[rc.role].is_god}
    missing = sorted(mentioned - special)
    unlisted = sorted(special - mentioned)
    if missing:
        out.warning("variant-mismatch", "rules.variant",
                    f"variant {game.rules.variant!r} names {', '.join(missing)}, which the composition does not contain")
    if unlisted:
        out.warning("variant-mismatch", "rules.variant",
                    f"variant {game.rules.variant!r} does not name the special role(s) {', '.join(unlisted)} of the composition")


# --------------------------------------------------------------------------- timeline


def check_phases(game: GameLog, out: Sink) -> None:
    seen: dict[str, int] = {}
    prev = None
    for i, p in enumerate(game.phases):
        where = path("phases", i)
        if p.id in seen:
            out.error("phase-duplicate-id", path(where, "id"), f"phase id {p.id!r} is already used by phases[{seen[p.id]}]")
        seen.setdefault(p.id, i)
        if p.end < p.start:
            out.error("phase-end-before-start", path(where, "end"), f"phase {p.id} ends ({p.end:g}s) before it starts ({p.start:g}s)")
        if prev is not None:
            if p.start < prev.start:
                out.error("phase-order", path(where, "start"),
                          f"phase {p.id} starts at {p.start:g}s, before the previous phase {prev.id} ({prev.start:g}s); list phases in time order")
            elif p.day < prev.day:
                out.warning("phase-day-order", path(where, "day"), f"phase {p.id} is on day {p.day}, after phase {prev.id} of day {prev.day}")
            elif p.start < prev.end - TIME_TOLERANCE:
                out.warning("phase-overlap", path(where, "start"),
                            f"phase {p.id} starts at {p.start:g}s, before the previous phase {prev.id} ends ({prev.end:g}s)")
        if p.kind == "sheriff_election" and game.rules.has_sheriff is False:
            out.warning("sheriff-phase-without-sheriff", path(where, "kind"), f"phase {p.id} is a sheriff election but rules.has_sheriff is false")
        prev = p


def check_utterances(game: GameLog, idx: GameIndex, out: Sink) -> None:
    first_use: dict[int, int] = {}
    prev_start = None
    prev_last: tuple[int, int] | None = None  # (position, last segment id) of the previous turn
    for i, u in enumerate(game.utterances):
        where = path("utterances", i)
        # The context builder cuts the transcript at a segment id, taking every turn whose ids lie
        # at or before it: a turn numbered out of timeline order would leak a later day into the cut.
        if u.segment_ids:  # the schema requires one, but a GameLog built in code may lack it
            if prev_last is not None and u.segment_ids[0] <= prev_last[1]:
                out.error("segment-timeline-order", path(where, "segment_ids"),
                          f"turn starts at segment {u.segment_ids[0]}, not after segment {prev_last[1]} that ends utterances[{prev_last[0]}]; "
                          "segment ids must rise from turn to turn in timeline order")
            prev_last = (i, u.segment_ids[-1])
        if u.index != i:
            out.error("utterance-index", path(where, "index"), f"index is {u.index} but this is turn {i}; number turns 0, 1, 2, ... in order")
        if u.end < u.start:
            out.error("utterance-end-before-start", path(where, "end"), f"turn ends ({u.end:g}s) before it starts ({u.start:g}s)")
        if prev_start is not None and u.start < prev_start:
            out.warning("utterance-order", path(where, "start"), f"turn starts at {u.start:g}s, before the previous turn ({prev_start:g}s)")
        prev_start = u.start
        phase = idx.phases.get(u.phase)
        if phase is None:
            out.error("utterance-unknown-phase", path(where, "phase"), f"phase {u.phase!r} is not among the game's phases ({_phase_list(idx)})")
        elif u.start < phase.start - TIME_TOLERANCE or u.end > phase.end + TIME_TOLERANCE:
            out.warning("utterance-outside-phase", path(where, "start"),
                        f"turn {u.start:g}-{u.end:g}s lies outside its phase {phase.id} ({phase.start:g}-{phase.end:g}s)")
        if isinstance(u.speaker, int) and u.speaker not in idx.seats:
            out.error("speaker-not-seat", path(where, "speaker"), f"speaker {u.speaker} is not a seat (seats {idx.seat_range()})")
        for j, sid in enumerate(u.segment_ids):
            if sid in first_use:
                other = first_use[sid]
                detail = "twice in this turn" if other == i else f"also in utterances[{other}]"
                out.error("segment-duplicate", path(where, "segment_ids", j), f"segment {sid} appears {detail}; segment ids must be unique")
            first_use.setdefault(sid, i)
            if j and sid <= u.segment_ids[j - 1]:
                out.error("segment-order", path(where, "segment_ids", j),
                          f"segment {sid} follows {u.segment_ids[j - 1]}; segment ids must ascend within a turn")
        if u.segments is not None and [s.id for s in u.segments] != u.segment_ids:
            out.error("segments-mismatch", path(where, "segments"), "the ids of `segments` differ from `segment_ids`; they must list the same segments in order")


def _phase_list(idx: GameIndex) -> str:
    ids = list(idx.phases)
    return ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")


def check_events(game: GameLog, idx: GameIndex, out: Sink) -> None:
    for i, e in enumerate(game.events):
        where = path("events", i)
        phase = idx.phases.get(e.phase)
        if phase is None:
            out.error("event-unknown-phase", path(where, "phase"), f"phase {e.phase!r} is not among the game's phases ({_phase_list(idx)})")
        elif e.kind == "vote" and phase.kind not in VOTE_PHASE_KINDS and not (phase.kind == "night" and e.audience.kind == "team"):
            # A team's own night vote (the mafia's kill vote, heard by the team) is a vote too; any other night vote is misplaced.
            out.error("vote-outside-day", path(where, "phase"), f"a vote in {phase.kind} phase {phase.id}; votes happen by day or in the sheriff election"
                      + ("; a team's night vote is heard by the team only: give it that audience (phase_audiences in the annotator config)" if phase.kind == "night" else ""))
        if isinstance(e.actor, int) and e.actor not in idx.seats:
            out.error("event-actor-not-seat", path(where, "actor"), f"actor {e.actor} is not a seat (seats {idx.seat_range()})")
        if e.target is not None and e.target not in idx.seats:
            out.error("event-target-not-seat", path(where, "target"), f"target {e.target} is not a seat (seats {idx.seat_range()})")
        if e.segment_id is not None and e.segment_id not in idx.segment_utterance:
            out.warning("event-unknown-segment", path(where, "segment_id"),
                        f"anchor segment {e.segment_id} is not in the transcript (segments {idx.segment_range()})")
        if e.kind == "skill_use" and not e.skill:
            out.warning("skill-missing", path(where, "skill"), "a skill_use event should name the skill (e.g. seer_check)")
        check_audience(e.audience, path(where, "audience"), idx, game, out, has_actor=isinstance(e.actor, int))
    for i, u in enumerate(game.utterances):
        if u.audience is not None:
            check_audience(u.audience, path("utterances", i, "audience"), idx, game, out, has_actor=isinstance(u.speaker, int))


def check_audience(audience, where: str, idx: GameIndex, game: GameLog, out: Sink, has_actor: bool) -> None:
    """An audience must name someone who exists: listed seats are seats, a team is someone's faction or team."""
    if audience is None:
        return
    if audience.kind == "seats":
        for j, seat in enumerate(audience.seats):
            if seat not in idx.seats:
                out.error("audience-not-seat", path(where, "seats", j), f"seat {seat} is not a seat (seats {idx.seat_range()})")
    elif audience.kind == "actor" and not has_actor:
        out.error("audience-without-actor", path(where, "kind"), "audience 'actor' but no seat acts: nobody would perceive it")
    elif audience.kind == "team":
        catalogue = catalogue_for(d for d in game.rules.declared_roles if d.id in CATALOGUE or d.faction is not None)
        teams = {s.faction for s in game.seats} | {r.team for s in game.seats if (r := catalogue.get(s.role)) is not None}
        if audience.team not in teams:
            out.warning("audience-team-empty", path(where, "team"),
                        f"no seat belongs to team {audience.team!r} (factions and teams here: {', '.join(sorted(t for t in teams if t))}): nobody perceives it")


# --------------------------------------------------------------------------- MVP, highlights, winner


def check_cutoff(idx: GameIndex, segment: int, phase_id: str | None, where: str, out: Sink, what: str = "cut-off") -> None:
    """A cut-off segment must be in the game and, when a phase is claimed, in that phase.

    A cut-off inside a merged turn whose per-segment text is unknown cannot be honoured exactly:
    the context builder has to leave the whole turn out, so the model sees less than the human did.
    """
    utt = idx.utterance_of(segment)
    if utt is None:
        known = idx.segment_utterance
        if not known or segment > max(known) or segment < min(known):
            out.error("cutoff-outside-game", where, f"{what} segment {segment} is outside the game's transcript (segments {idx.segment_range()})")
            return
        out.warning("cutoff-unknown-segment", where, f"{what} segment {segment} is not in any turn; the model sees the turns before it")
        # A gap between two turns belongs to either neighbour's phase.
        before = idx.utterance_of(max(s for s in known if s < segment))
        after = idx.utterance_of(min(s for s in known if s > segment))
        if phase_id is not None and phase_id in idx.phases and phase_id not in (before.phase, after.phase):
            out.error("cutoff-outside-phase", where,
                      f"{what} segment {segment} lies between turns {before.index} ({before.phase}) and {after.index} ({after.phase}), "
                      f"but the vote is in phase {phase_id}")
        return
    if phase_id is not None and utt.phase != phase_id and phase_id in idx.phases:
        out.error("cutoff-outside-phase", where,
                  f"{what} segment {segment} is in phase {utt.phase} (turn {utt.index}), but the vote is in phase {phase_id}")
    if utt.segments is None and segment != utt.segment_ids[-1]:
        out.warning("cutoff-inside-turn", where,
                    f"{what} segment {segment} falls inside merged turn {utt.index} (segments {utt.segment_ids[0]}..{utt.segment_ids[-1]}) "
                    "whose per-segment text is unknown; that turn will be left out of the context")


def _switched_to(game: GameLog, seat: int, side: str) -> bool:
    """Whether the log records the seat moving to `side` during play (a `side_switch` event: the arena's lovers and witness)."""
    return any(e.skill == "side_switch" and e.target == seat and e.result == side for e in game.events)


def check_mvp(game: GameLog, idx: GameIndex, out: Sink) -> None:
    mvp = game.mvp
    if mvp is None:
        return
    if mvp.seat not in idx.seats:
        out.error("mvp-not-seat", "mvp.seat", f"MVP seat {mvp.seat} is not a seat (seats {idx.seat_range()})")
    elif game.winner is not None and idx.seats[mvp.seat] not in (game.winner, "variable") and not _switched_to(game, mvp.seat, game.winner):
        out.warning("mvp-not-on-winning-side", "mvp.seat",
                    f"MVP seat {mvp.seat} is on the {idx.seats[mvp.seat]} side but the winner is {game.winner}; check `winner` and `mvp.seat`")
    for i, v in enumerate(mvp.votes):
        where = path("mvp", "votes", i)
        phase = idx.phases.get(v.phase)
        if phase is None:
            out.error("mvp-vote-unknown-phase", path(where, "phase"), f"phase {v.phase!r} is not among the game's phases ({_phase_list(idx)})")
        elif phase.kind not in VOTE_PHASE_KINDS:
            out.error("vote-outside-day", path(where, "phase"), f"a vote in {phase.kind} phase {phase.id}; votes happen by day or in the sheriff election")
        if v.target is not None and v.target not in idx.seats:
            out.error("vote-target-not-seat", path(where, "target"), f"vote target {v.target} is not a seat (seats {idx.seat_range()})")
        elif v.target == mvp.seat:
            out.warning("mvp-votes-self", path(where, "target"), f"the MVP (seat {mvp.seat}) votes for itself; check the target")
        check_cutoff(idx, v.cutoff_segment, v.phase, path(where, "cutoff_segment"), out)


def check_highlights(game: GameLog, idx: GameIndex, out: Sink) -> None:
    for i, h in enumerate(game.highlights):
        if h.segment_id not in idx.segment_utterance:
            out.warning("highlight-unknown-segment", path("highlights", i, "segment_id"),
                        f"highlight segment {h.segment_id} is not in the transcript (segments {idx.segment_range()})")


def check_winner(game: GameLog, idx: GameIndex, out: Sink) -> None:
    if game.winner is None:
        return
    factions = set(idx.seats.values())
    if game.winner not in factions and "variable" not in factions:
        out.warning("winner-inconsistent", "winner", f"winner is {game.winner} but no seat belongs to that faction")
    # A wolf win after every wolf left is the replay's check (replay_checks: end-contradicts-winner).
