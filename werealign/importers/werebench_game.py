"""Convert one WereBench game log into our GameLog, repairing what is sound and reporting the rest.

Rules (each repair or drop goes into the import report with file, game and field):
- seats come from `user_aliases` (speaker label -> "N号" or "host"); true roles from `real_role`,
  keyed by the same speaker label; role labels go through the canonical role table;
- the timeline comes from `game_status`: keys that are not phase names are dropped; a phase
  whose timestamp is empty or out of game order is re-derived (day-1 starts at the first turn
  that carries the elected sheriff) or dropped; when the timeline was repaired, every turn's
  phase is recomputed from its start time (the release computed `status` the same way);
- eliminations are read from the host's formulaic announcements (see `host_exits`) and
  anchored to the last segment of the announcing turn, so they are known from then on;
- sheriff events come from the per-turn `sheriff` field: the first seat seen is the election,
  every later change a badge transfer, anchored to the first segment of the turn showing it;
- MVP vote cut-offs that fall after the game are clamped to its last segment, and a cut-off on
  the host's vote-result announcement (which names the answer) is moved to the last segment
  before that turn.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pydantic import ValidationError

from werealign.files import describe_validation_error
from werealign.importers.report import ImportReport
from werealign.importers.werebench_nights import read_night_actions
from werealign.importers.werebench_segments import Transcripts, attach_segments
from werealign.importers.werebench_source import RawMetadata, RawUtterance, SourceGame, unknown_fields
from werealign.importers.werebench_text import (
    END_KEY,
    RELEASE_ROLES,
    host_exits,
    parse_time,
    phase_key,
    phase_sort_key,
    seat_of_label,
)
from werealign.schema import (
    Event,
    GameLog,
    Mvp,
    MvpVote,
    Phase,
    Provenance,
    RoleCount,
    Rules,
    SeatInfo,
    Utterance,
    is_host_label,
)
from werealign.schema.models import EVERYONE
from werealign.schema.roles import Faction, variant_id

SHOW = "Pandakill"
_EPISODE = re.compile(r"Season\s+(\d+),\s*Episode\s+(\d+)", re.I)
# The annotator log describes the seats one by one: "...；N 号是<role>，<what they did>；..."
_LOG_CLAIM = re.compile(r"(?:^|[；;。]\s*)(\d{1,2})\s*号是([^，,；;。]{1,14})")


# Report codes of MVP votes dropped while converting the game (before any VA item is derived).
VOTE_DROP_CODES = frozenset({"vote_of_bad_mvp", "bad_vote_key", "vote_target_not_a_seat", "cutoff_before_game", "cutoff_leaks_vote"})


class GameDropped(Exception):
    """The game cannot be converted; the message is the reason for the report."""


@dataclass
class Ctx:
    """Where we are, for report entries."""

    report: ImportReport
    rel: str
    game_id: str

    def add(self, kind: str, code: str, field: str | None, what: str, why: str, item: str | None = None) -> None:
        self.report.add(kind, code, source_file=self.rel, game=self.game_id, item=item, field=field, what=what, why=why)  # type: ignore[arg-type]


def convert_game(sg: SourceGame, report: ImportReport, transcripts: Transcripts | None = None) -> GameLog | None:
    """The converted game, or None when it had to be dropped (the reason is in the report).

    `transcripts`: the release's `clean_process/` transcripts, where per-segment text comes from.
    """
    ctx = Ctx(report, sg.rel, sg.game_id)
    try:
        game = _convert(sg, ctx, transcripts)
    except GameDropped as e:
        ctx.add("dropped", "game_unusable", None, f"game {sg.raw.metadata.game_id}", str(e))
        return None
    except ValidationError as e:  # a value our schema cannot hold that no rule above anticipated
        ctx.add("dropped", "game_unusable", None, f"game {sg.raw.metadata.game_id}", f"does not fit the game schema: {describe_validation_error(e)}")
        return None
    ctx.add("converted", "game", None, f"game {sg.raw.metadata.game_id} ({len(game.utterances)} turns, {len(game.events)} events)", f"games/{sg.game_id}.json")
    return game


def _convert(sg: SourceGame, ctx: Ctx, transcripts: Transcripts | None) -> GameLog:
    meta = sg.raw.metadata
    ctx.report.add_unknown_fields(unknown_fields(sg.raw), source_file=sg.rel, game=sg.game_id)
    seats, host_labels, label_to_speaker = _seats(meta, ctx)
    n_seats = max(s.seat for s in seats)
    utterances_raw = sg.raw.utterances
    phases, recompute = _timeline(meta.game_status, utterances_raw, ctx)
    utterances = _utterances(utterances_raw, label_to_speaker, phases, recompute, seats, ctx)
    if not utterances:
        raise GameDropped("no usable utterances")
    _check_segments(meta.total_utterances, utterances, ctx)
    if transcripts is not None:
        utterances = attach_segments(transcripts, sg.rel, sg.game_id, utterances, ctx.report)
    events = _sheriff_events(utterances_raw, utterances, n_seats, ctx) + _eliminations(utterances, n_seats)
    language = _language(meta.language, ctx)
    events += _night_actions(meta.logs, seats, phases, language, ctx)
    events.sort(key=lambda e: (e.segment_id if e.segment_id is not None else -1, _EVENT_ORDER[e.kind], e.target or 0, e.actor if isinstance(e.actor, int) else 0))
    _check_speech_after_exit(utterances, events, phases, ctx)
    mvp = _mvp(meta, utterances, phases, n_seats, ctx)
    season, episode = _provenance_numbers(sg, meta.source, ctx)
    _check_log_claims(meta.logs, seats, ctx)
    return GameLog(
        game_id=sg.game_id,
        language=language,
        provenance=Provenance(
            source=meta.source,
            show=SHOW,
            season=season,
            episode=episode,
            original_file=sg.rel,
            original_game_id=str(meta.game_id),
        ),
        rules=_rules(meta, seats, phases, ctx),
        seats=seats,
        host_labels=host_labels,
        phases=phases,
        utterances=utterances,
        events=events,
        mvp=mvp,
        recap=(meta.summary or None),
        annotator_log=(meta.logs or None),
        winner=_winner(meta.summary, meta.logs, ctx),
    )


_EVENT_ORDER = {"sheriff_election": 0, "badge_transfer": 1, "self_destruct": 2, "elimination": 3, "vote": 4, "night_outcome": 5, "skill_use": 6}


# --------------------------------------------------------------------------- seats


def _seats(meta: RawMetadata, ctx: Ctx) -> tuple[list[SeatInfo], list[str], dict[str, int | str]]:
    """Seats with true roles, host labels, and speaker label -> seat/"host"."""
    label_to_speaker: dict[str, int | str] = {}
    host_labels: list[str] = []
    seat_labels: dict[int, list[str]] = {}
    seat_roles: dict[int, set[str]] = {}
    for label in sorted(meta.user_aliases, key=_label_order):
        targets = meta.user_aliases[label]
        field = f"metadata.user_aliases.{label}"
        if len(targets) != 1:
            raise GameDropped(f"{field}: expected exactly one seat or 'host', got {targets}")
        target = targets[0]
        role_label = meta.real_role.get(label)
        if is_host_label(target):
            host_labels.append(label)
            label_to_speaker[label] = "host"
            if role_label is not None and not is_host_label(role_label):
                ctx.add("warning", "host_with_role", f"metadata.real_role.{label}", f"host label has role '{role_label}'", "kept as host; the role is ignored")
            elif role_label is not None and role_label.strip().lower() != "host":
                ctx.add("repaired", "host_label_typo", f"metadata.real_role.{label}", f"'{role_label}'", "read as 'host' (typo)")
            continue
        seat = seat_of_label(target)
        if seat is None or not 1 <= seat <= 30:
            raise GameDropped(f"{field}: '{target}' is neither a seat like '12号' nor 'host'")
        if role_label is None:
            raise GameDropped(f"metadata.real_role: no true role for speaker label '{label}' (seat {seat})")
        if is_host_label(role_label):
            raise GameDropped(f"metadata.real_role.{label}: role '{role_label}' is the host but user_aliases maps the label to seat {seat}")
        label_to_speaker[label] = seat
        seat_labels.setdefault(seat, []).append(label)
        seat_roles.setdefault(seat, set()).add(role_label)
    for label in sorted(set(meta.real_role) - set(meta.user_aliases), key=_label_order):
        ctx.add("warning", "role_without_alias", f"metadata.real_role.{label}", f"true role '{meta.real_role[label]}' for a label user_aliases does not map", "ignored: no seat to give it to")
    if not seat_labels:
        raise GameDropped("metadata.user_aliases maps no label to a seat")
    seats = []
    for seat in sorted(seat_labels):
        labels = seat_labels[seat]
        roles = sorted(seat_roles[seat])
        if len(roles) > 1:
            raise GameDropped(f"seat {seat}: speaker labels {labels} have different true roles {roles}")
        original = roles[0]
        role, faction = _seat_role(original, seat, f"metadata.real_role.{labels[0]}", ctx)
        if original.strip() in _TYPOS:
            ctx.add("repaired", "role_label_typo", f"metadata.real_role.{labels[0]}", f"'{original}' (seat {seat})", f"read as '{role}': {_TYPOS[original.strip()]}")
        if len(labels) > 1:
            ctx.add("warning", "seat_has_several_labels", "metadata.user_aliases", f"seat {seat} is spoken by labels {labels} (same true role '{original}')", "kept: all labels map to the seat")
        seats.append(SeatInfo(seat=seat, role=role, faction=faction, original_role_label=original, speaker_labels=labels))
    missing = sorted(set(range(1, max(seat_labels) + 1)) - set(seat_labels))
    if missing:
        ctx.add("warning", "missing_seats", "metadata.user_aliases", f"no speaker label maps to seats {missing}", "those seats have no role and no turns")
    return seats, host_labels, label_to_speaker


# Labels the role table reads, but which are typos rather than synonyms: reported as repairs.
_TYPOS = {"阔人": "typo of 猎人 (hunter)"}


def _seat_role(label: str, seat: int, field: str, ctx: Ctx) -> tuple[str, Faction]:
    """(role, faction) for a true-role label. An unknown label keeps its game: the label itself is
    the role; the faction comes from the roles the label names ('狼人（白狼王）'), else `unknown`."""
    role = RELEASE_ROLES.canonical(label)
    if role is not None:
        return role, RELEASE_ROLES.faction(role)
    named = {RELEASE_ROLES.faction(r) for r in _roles_named(label)} - {"variable"}
    if len(named) == 1:
        faction = named.pop()
        ctx.add("warning", "unknown_role_label", field, f"'{label}' (seat {seat}) is not in the role catalogue",
                f"kept as the role; faction '{faction}' from the role names inside the label")
        return label.strip(), faction
    ctx.add("warning", "unknown_role_label", field, f"'{label}' (seat {seat}) is not in the role catalogue",
            "kept as the role with faction 'unknown': items that need this seat's side are skipped")
    return label.strip(), "unknown"


def _label_order(label: str) -> tuple[int, str]:
    m = re.search(r"(\d+)\s*$", label)
    return (int(m.group(1)) if m else 10**6, label)


# --------------------------------------------------------------------------- timeline


def _timeline(status: dict[str, str], utts: list[RawUtterance], ctx: Ctx) -> tuple[list[Phase], bool]:
    """Phases in game order, and whether turn phases must be recomputed from times."""
    starts: dict[str, float | None] = {}
    labels: dict[str, str] = {}
    end: float | None = None
    for key, value in status.items():
        field = f"metadata.game_status.{key}"
        t, note = parse_time(value)
        if note:
            ctx.add("repaired", "timestamp_format", field, f"'{value}'", note)
        if key == END_KEY:
            end = t
            if t is None:
                ctx.add("repaired", "timestamp_missing", field, f"'{value}'", "end of the game taken as the end of the last turn")
            continue
        parsed = phase_key(key)
        if parsed is None:
            ctx.add("dropped", "stray_phase_key", field, f"key '{key}' (value '{value}') is not a phase name", "ignored")
            continue
        pid = parsed[0]
        if pid in starts:
            ctx.add("dropped", "duplicate_phase_key", field, f"second key for phase {pid}", "ignored")
            continue
        starts[pid] = t
        labels[pid] = key
    order = sorted(starts, key=phase_sort_key)
    recompute = False
    # A phase starting later than a later phase breaks game order: its timestamp is wrong.
    for i, pid in enumerate(order):
        t = starts[pid]
        later = [starts[p] for p in order[i + 1 :] if starts[p] is not None]
        field = f"metadata.game_status.{labels[pid]}"
        bad = None
        if t is None:
            bad = f"empty or unreadable timestamp '{status[labels[pid]]}'"
        elif later and t > min(later):
            bad = f"starts at {status[labels[pid]].strip()}, after a later phase starts ({_fmt(min(later))})"
        if bad is None:
            continue
        recompute = True
        fixed = _rederive_start(pid, order, starts, utts)
        if fixed is not None:
            starts[pid] = fixed
            ctx.add("repaired", "phase_start_rederived", field, bad, f"start re-derived as {_fmt(fixed)}: the first turn that carries the elected sheriff")
        else:
            # Marked unusable rather than deleted: the phases still to check look their neighbours up in `starts`.
            starts[pid] = None
            ctx.add("dropped", "phase_unusable", field, bad, "phase dropped; its turns are assigned to the phase containing their start time")
    order = [p for p in order if starts[p] is not None]
    if not order:
        raise GameDropped("metadata.game_status has no usable phase")
    last_turn_end = max((parse_time(u.end_time)[0] or 0.0) for u in utts) if utts else 0.0
    if end is None:
        end = max(last_turn_end, starts[order[-1]] or 0.0)
    elif end < starts[order[-1]]:
        ctx.add("repaired", "end_before_last_phase", f"metadata.game_status.{END_KEY}", f"ends at {_fmt(end)} before the last phase starts", "end taken as the end of the last turn")
        end = max(last_turn_end, starts[order[-1]])
    phases = []
    for i, pid in enumerate(order):
        start = starts[pid]
        stop = starts[order[i + 1]] if i + 1 < len(order) else end
        kind = "sheriff_election" if pid == "sheriff-election" else pid.split("-")[0]
        day = 1 if pid == "sheriff-election" else int(pid.split("-")[1])
        phases.append(Phase(id=pid, kind=kind, day=day, start=start, end=stop, original_label=labels[pid]))
        if stop == start:
            has_turns = any(u.status == labels[pid] for u in utts)
            ctx.add("warning", "empty_phase", f"metadata.game_status.{labels[pid]}", f"phase {pid} has zero length ({_fmt(start)})" + (" but turns are labelled with it" if has_turns else ""), "kept: the phase happened but is not in the recording")
    return phases, recompute


def _rederive_start(pid: str, order: list[str], starts: dict[str, float | None], utts: list[RawUtterance]) -> float | None:
    """Day 1 begins once the sheriff is elected: the first turn carrying a sheriff, if it fits."""
    if pid != "day-1":
        return None
    i = order.index(pid)
    lo = max((starts[p] for p in order[:i] if starts[p] is not None), default=0.0)
    hi = min((starts[p] for p in order[i + 1 :] if starts[p] is not None), default=float("inf"))
    for u in utts:
        if u.sheriff:
            t = parse_time(u.start_time)[0]
            if t is not None and lo <= t <= hi:
                return t
            return None
    return None


def _phase_at(phases: list[Phase], t: float) -> str:
    """Latest phase starting at or before t (ties go to the later phase, as in the release)."""
    current = phases[0].id
    for p in phases:
        if p.start <= t + 1e-6:
            current = p.id
    return current


def _fmt(t: float) -> str:
    ms = round(t * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


# --------------------------------------------------------------------------- utterances


def _utterances(utts: list[RawUtterance], label_to_speaker: dict[str, int | str], phases: list[Phase], recompute: bool, seats: list[SeatInfo], ctx: Ctx) -> list[Utterance]:
    by_label = {p.original_label: p.id for p in phases}
    seat_numbers = {s.seat for s in seats}
    role_of = {s.seat: s.original_role_label for s in seats}
    out: list[Utterance] = []
    relabelled: list[int] = []
    last_seg = -1
    for i, u in enumerate(utts):
        field = f"utterances[{i}]"
        segs = u.utterance_id
        item = f"segments {segs[0]}-{segs[-1]}"
        speaker = _speaker(u.speaker_id, label_to_speaker, seat_numbers)
        if speaker is None:
            ctx.add("dropped", "unknown_speaker", f"{field}.speaker_id", f"speaker '{u.speaker_id}' is neither a seat, the host, nor a label in user_aliases ({len(u.text)} chars of text)", "turn dropped: no seat to attribute it to", item=item)
            continue
        start, n1 = parse_time(u.start_time)
        stop, n2 = parse_time(u.end_time)
        if start is None or stop is None:
            ctx.add("dropped", "bad_turn_time", f"{field}.start_time", f"unreadable times '{u.start_time}'/'{u.end_time}'", "turn dropped", item=item)
            continue
        for note, f in ((n1, "start_time"), (n2, "end_time")):
            if note:
                ctx.add("repaired", "timestamp_format", f"{field}.{f}", f"'{getattr(u, f)}'", note, item=item)
        if stop < start:
            ctx.add("repaired", "turn_ends_before_start", f"{field}.end_time", f"ends {u.end_time} before it starts {u.start_time}", "end set to start", item=item)
            stop = start
        if sorted(set(segs)) != segs or segs[0] <= last_seg:
            ctx.add("dropped", "segment_order", f"{field}.utterance_id", f"segment ids {segs[:3]}... not ascending after {last_seg}", "turn dropped: cut-offs need ascending segment ids", item=item)
            continue
        last_seg = segs[-1]
        phase = by_label.get(u.status)
        if recompute or phase is None:
            new = _phase_at(phases, start)
            if phase is None and not recompute:
                ctx.add("repaired", "unknown_status", f"{field}.status", f"status '{u.status}' is not a phase of this game", f"phase {new} from the start time", item=item)
            elif new != phase:
                relabelled.append(segs[0])
            phase = new
        if u.speaker_id == "host" and u.is_host is False:
            ctx.add("warning", "is_host_flag", f"{field}.is_host", "speaker is the host but is_host is false", "speaker kept as host", item=item)
        if isinstance(speaker, int) and u.role is not None and u.role != role_of.get(speaker):
            ctx.add("warning", "turn_role_disagrees", f"{field}.role", f"turn says role '{u.role}', real_role gives seat {speaker} '{role_of.get(speaker)}'", "real_role kept", item=item)
        out.append(Utterance(index=len(out), segment_ids=segs, start=start, end=stop, phase=phase, speaker=speaker, text=u.text))
    if relabelled:
        ctx.add("repaired", "turn_phase_recomputed", "utterances[].status", f"{len(relabelled)} turns carried a status computed from the broken timeline (first segments {relabelled[:8]}{'...' if len(relabelled) > 8 else ''})", "phase recomputed from each turn's start time on the repaired timeline")
    return out


def _speaker(speaker_id: str, label_to_speaker: dict[str, int | str], seat_numbers: set[int]) -> int | str | None:
    if is_host_label(speaker_id):
        return "host"
    seat = seat_of_label(speaker_id)
    if seat is not None:
        return seat if seat in seat_numbers else None
    return label_to_speaker.get(speaker_id)


def _segment_holes(segs: list[int], limit: int = 10) -> tuple[list[int], int]:
    """The first `limit` missing ids between the lowest and highest segment, and how many are missing.

    Walks the gaps instead of materialising the whole id range: a single absurd id (a typo like
    10**12) must cost a report line, not all the memory of the machine.
    """
    ordered = sorted(set(segs))
    holes: list[int] = []
    n = 0
    for a, b in zip(ordered, ordered[1:]):
        n += b - a - 1
        holes += range(a + 1, min(b, a + 1 + limit - len(holes)))
    return holes, n


def _check_segments(total: int | None, utterances: list[Utterance], ctx: Ctx) -> None:
    segs = [s for u in utterances for s in u.segment_ids]
    holes, n_holes = _segment_holes(segs)
    if holes:
        more = f" ({n_holes} in all)" if n_holes > len(holes) else ""
        ctx.add("warning", "segment_gap", "utterances[].utterance_id", f"segment ids {holes}{more} missing between {min(segs)} and {max(segs)}", "kept: no turn covers them")
    if total is not None and total != len(segs):
        ctx.add("warning", "total_utterances_mismatch", "metadata.total_utterances", f"says {total}, the converted turns cover {len(segs)} segments", "kept as information only")


# --------------------------------------------------------------------------- events


def _sheriff_events(utts: list[RawUtterance], utterances: list[Utterance], n_seats: int, ctx: Ctx) -> list[Event]:
    """Election and badge transfers from the per-turn `sheriff` field (it never reverts in the release)."""
    by_first_seg = {u.segment_ids[0]: u for u in utterances}
    events: list[Event] = []
    current: int | None = None
    for i, raw in enumerate(utts):
        u = by_first_seg.get(raw.utterance_id[0])
        if u is None or raw.sheriff is None:
            continue
        seat = seat_of_label(raw.sheriff)
        if seat is None or not 1 <= seat <= n_seats:
            ctx.add("warning", "bad_sheriff", f"utterances[{i}].sheriff", f"'{raw.sheriff}' is not a seat", "no sheriff event derived from this turn")
            continue
        if seat == current:
            continue
        kind = "sheriff_election" if current is None else "badge_transfer"
        events.append(Event(kind=kind, phase=u.phase, segment_id=u.segment_ids[0], audience=EVERYONE, actor=current, target=seat, note="derived from the turn's sheriff field"))
        current = seat
    return events


def _eliminations(utterances: list[Utterance], n_seats: int) -> list[Event]:
    events: list[Event] = []
    gone: set[int] = set()
    for u in utterances:
        if u.speaker != "host":
            continue
        for seat, how in host_exits(u.text, n_seats):
            if seat in gone:
                continue
            gone.add(seat)
            anchor = u.segment_ids[-1]
            if how == "self_destruct":
                events.append(Event(kind="self_destruct", phase=u.phase, segment_id=anchor, audience=EVERYONE, actor=seat, note="host announcement"))
            events.append(Event(kind="elimination", phase=u.phase, segment_id=anchor, audience=EVERYONE, target=seat, result=how, note="read from the host's announcement"))
    return events


def _check_speech_after_exit(utterances: list[Utterance], events: list[Event], phases: list[Phase], ctx: Ctx) -> None:
    """A seat speaking two or more phases after the host announced it out: a speaker-label or announcement problem."""
    order = {p.id: i for i, p in enumerate(phases)}
    for e in events:
        if e.kind != "elimination":
            continue
        later = [u for u in utterances if u.speaker == e.target and u.segment_ids[0] > e.segment_id and order[u.phase] > order[e.phase] + 1]
        if later:
            segs = [u.segment_ids[0] for u in later]
            ctx.add("warning", "speaks_after_exit", "utterances[].speaker_id", f"seat {e.target} was announced out ({e.result}) at segment {e.segment_id} in {e.phase} but speaks later at segments {segs[:5]}", "kept: a diarization error or post-game talk; eliminations follow the host's announcement")


# --------------------------------------------------------------------------- MVP


def _mvp(meta: RawMetadata, utterances: list[Utterance], phases: list[Phase], n_seats: int, ctx: Ctx) -> Mvp | None:
    if meta.MVP is None:
        ctx.add("warning", "no_mvp", "metadata.MVP", "no MVP", "no VA/OI items for this game")
        return None
    raw_id = meta.MVP.id
    seat = seat_of_label(raw_id)
    if seat is None or not 1 <= seat <= n_seats:
        ctx.add("warning", "bad_mvp", "metadata.MVP.id", f"'{raw_id}' is not a seat of this game", "no MVP")
        for key in sorted(meta.MVP.votes):
            ctx.add("dropped", "vote_of_bad_mvp", f"metadata.MVP.votes.{key}", f"vote of MVP '{raw_id}'", "vote dropped: the voter is not a seat", item=key)
        return None
    if not (isinstance(raw_id, str) and raw_id.strip().endswith("号")):
        ctx.add("repaired", "mvp_id_format", "metadata.MVP.id", f"'{raw_id}'", f"read as seat {seat}")
    seg_to_utt = {s: u for u in utterances for s in u.segment_ids}
    last_seg = utterances[-1].segment_ids[-1]
    phase_ids = {p.id for p in phases}
    votes = []
    if not meta.MVP.votes:
        ctx.add("warning", "no_mvp_votes", "metadata.MVP.votes", f"MVP seat {seat} has no recorded votes", "no VA/OI items for this game")
    for key in sorted(meta.MVP.votes, key=lambda k: phase_sort_key(phase_key(k.removesuffix("_votes"))[0]) if phase_key(k.removesuffix("_votes")) else (99, 0)):
        v = meta.MVP.votes[key]
        field = f"metadata.MVP.votes.{key}"
        parsed = phase_key(key.removesuffix("_votes"))
        if parsed is None or parsed[1] != "day":
            ctx.add("dropped", "bad_vote_key", field, f"key '{key}' names no day", "vote dropped", item=key)
            continue
        target = seat_of_label(v.vote_to) if v.vote_to is not None else None
        if v.vote_to is not None and (target is None or not 1 <= target <= n_seats):
            ctx.add("dropped", "vote_target_not_a_seat", f"{field}.vote_to", f"'{v.vote_to}' is not a seat of this game", "vote dropped", item=key)
            continue
        cut = v.cut_off_time
        if cut > last_seg:
            ctx.add("repaired", "cutoff_after_game", f"{field}.cut_off_time", f"segment {cut} is after the game's last segment {last_seg}", f"clamped to {last_seg}", item=key)
            cut = last_seg
        utt = seg_to_utt.get(cut)
        if utt is None:
            earlier = [s for s in seg_to_utt if s <= cut]
            if not earlier:
                ctx.add("dropped", "cutoff_before_game", f"{field}.cut_off_time", f"segment {cut} is before the game's first segment", "vote dropped", item=key)
                continue
            ctx.add("repaired", "cutoff_not_a_segment", f"{field}.cut_off_time", f"segment {cut} is in no turn", f"moved to the previous segment {max(earlier)}", item=key)
            cut = max(earlier)
            utt = seg_to_utt[cut]
        if utt.speaker == "host" and "投给" in utt.text:
            if utt.index == 0:
                ctx.add("dropped", "cutoff_leaks_vote", f"{field}.cut_off_time", f"segment {cut} is in the host's vote-result announcement, the game's first turn", "vote dropped", item=key)
                continue
            before = utterances[utt.index - 1].segment_ids[-1]
            ctx.add("repaired", "cutoff_leaks_vote", f"{field}.cut_off_time", f"segment {cut} is in the host's vote-result announcement (segments {utt.segment_ids[0]}-{utt.segment_ids[-1]}), which names the answer", f"moved to {before}, the last segment before that turn", item=key)
            cut = before
            utt = seg_to_utt[cut]
        if cut != utt.segment_ids[-1] and utt.segments is None:
            # With per-segment text the turn is simply cut at the cut-off: nothing to report.
            ctx.add("warning", "cutoff_inside_turn", f"{field}.cut_off_time", f"segment {cut} is inside the merged turn {utt.segment_ids[0]}-{utt.segment_ids[-1]}, whose per-segment text is unknown", "kept: the turn is left out of the context at the cut-off", item=key)
        phase = parsed[0]
        if utt.phase != phase and utt.phase.startswith("day-"):
            ctx.add("repaired", "vote_phase_mismatch", field, f"key says {phase} but the cut-off segment {cut} lies in {utt.phase}", f"phase set to {utt.phase} (where the vote was cast); original key kept", item=key)
            phase = utt.phase
        elif phase not in phase_ids:
            ctx.add("warning", "vote_phase_missing", field, f"{phase} is not a phase of this game's timeline", "kept", item=key)
        if target == seat:
            ctx.add("warning", "mvp_votes_self", f"{field}.vote_to", f"MVP seat {seat} is recorded voting for itself", "kept in the game log; no VA item", item=key)
        votes.append(MvpVote(phase=phase, target=target, cutoff_segment=cut, original_label=key))
    return Mvp(seat=seat, votes=votes, original_label=str(raw_id))


# --------------------------------------------------------------------------- rules, provenance, winner


def _rules(meta: RawMetadata, seats: list[SeatInfo], phases: list[Phase], ctx: Ctx) -> Rules:
    counts = Counter((s.role, s.original_role_label) for s in seats)
    by_role: dict[str, list[str]] = {}
    for (role, label), _ in sorted(counts.items()):
        by_role.setdefault(role, []).append(label or "")
    faction = {s.role: s.faction for s in seats}
    composition = [
        RoleCount(role=role, faction=faction[role], count=sum(1 for s in seats if s.role == role), original_label="/".join(sorted(by_role[role])))
        for role in sorted(by_role, key=RELEASE_ROLES.order)
    ]
    listed = list(dict.fromkeys(RELEASE_ROLES.canonical(r) or r for r in meta.game_roles))
    unseated = sorted(r for r in listed if r not in by_role)
    public_cards = None
    if unseated:
        # Spare cards (a thief's) or roles handed out during play: the seats are not the whole deck, so
        # the rules summary must list the announced cards, not the seats' (it would tell which are buried).
        public_cards = listed + [r for r in by_role if r not in listed]
        ctx.add("warning", "listed_role_unseated", "metadata.game_roles", f"roles listed but held by no seat: {unseated}",
                "composition taken from the true roles of the seats (hidden); rules summaries use the listed cards (rules.public_cards)")
    variant = variant_id(by_role, RELEASE_ROLES)
    text = (meta.game_rules or "").strip() or None
    if text is None:
        ctx.add("repaired", "rules_text_missing", "metadata.game_rules", "empty rulebook text", "rules.text null; win condition assumed side_elimination (the show's standard rule)")
        win = "side_elimination"
    elif "屠边" in text:
        win = "side_elimination"
    elif "屠城" in text:
        win = "all_elimination"
    else:
        ctx.add("warning", "win_condition_unstated", "metadata.game_rules", "the rules text names no win condition", "win condition set to 'other'")
        win = "other"
    has_sheriff = any(p.kind == "sheriff_election" for p in phases)
    return Rules(text=text, variant=variant, composition=composition, win_condition=win, has_sheriff=has_sheriff, public_cards=public_cards)


def _provenance_numbers(sg: SourceGame, source: str, ctx: Ctx) -> tuple[int, int | None]:
    m = _EPISODE.search(source)
    if not m:
        ctx.add("warning", "source_unparsed", "metadata.source", f"'{source}' names no season/episode", "episode unknown")
        return sg.season, None
    if int(m.group(1)) != sg.season:
        ctx.add("warning", "season_mismatch", "metadata.source", f"'{source}' but the file is under Season_{sg.season}", "season taken from the folder")
    return sg.season, int(m.group(2))


def _language(lang: str | None, ctx: Ctx) -> str:
    if lang not in (None, "chinese", "zh", "Chinese"):
        ctx.add("warning", "language", "metadata.language", f"'{lang}'", "imported as zh (the release is Chinese)")
    return "zh"


def _night_actions(logs: str | None, seats: list[SeatInfo], phases: list[Phase], language: str, ctx: Ctx) -> list[Event]:
    """The seats' own night actions the annotator log states recognisably (werealign.importers.werebench_nights)."""
    readings = read_night_actions(logs, seats, phases, language)
    for r in readings:
        if r.event is None:
            ctx.add("warning", "night_action_unread", "metadata.logs", f"seat {r.seat}: '{r.text}'", f"not imported: {r.why}")
    read = [r.event for r in readings if r.event is not None]
    if read:
        ctx.add("converted", "night_actions", "metadata.logs",
                f"{len(read)} own night action(s) stated in the annotator log: "
                + "; ".join(f"seat {e.actor} {e.phase} {e.skill} {e.target}" + (f" ({e.result})" if e.result else "") for e in read),
                "skill_use events seen by the actor alone (the log's words are not kept)")
    return read


# "好人阵营胜利", "狼人获胜", "好人阵营……，获得了最终的胜利": the nearest side named before the
# result word within the sentence. A negated or doubtful phrase ("不想让好人赢", "无法获得胜利",
# "很难获得胜利", "让第三方赢") is not a result.
_WIN = re.compile(r"(好人|狼人|第三方)(阵营)?((?:(?!好人|狼人|第三方)[^。；;！!]){0,40}?)(胜利|获胜|赢)")


_WIN_SIDE: dict[str, Faction] = {"好人": "good", "狼人": "wolf", "第三方": "third"}
_NEGATION = re.compile(r"[不没未难让想]|无法")


def _stated_winner(text: str | None) -> Faction | None:
    """The last result statement of a text (recaps end with the result)."""
    hits = [m for m in _WIN.finditer(text or "") if not _NEGATION.search(text[max(0, m.start() - 3) : m.start()] + m.group(3))]
    return _WIN_SIDE[hits[-1].group(1)] if hits else None


def _winner(summary: str | None, logs: str | None, ctx: Ctx) -> Faction | None:
    recap, log = _stated_winner(summary), _stated_winner(logs)
    if recap and log and recap != log:
        ctx.add("warning", "winner_sources_disagree", "metadata.summary", f"the recap says {recap} won, the annotator log says {log}", f"winner {recap} (the recap)")
    if recap or log:
        return recap or log
    ctx.add("warning", "winner_unknown", "metadata.summary", "neither the recap nor the annotator log states which side won", "winner null")
    return None


def _check_log_claims(logs: str | None, seats: list[SeatInfo], ctx: Ctx) -> None:
    """The annotator log states 'N 号是<role>' for each seat; compare with the true-role table.

    A claim agrees when any role it names is the seat's true role ('盗贼（选女巫）' for a witch),
    or it says plain werewolf for a wolf-faction special role ('狼人（白狼王）').
    """
    if not logs:
        return
    true = {s.seat: s for s in seats}
    seen: set[int] = set()
    for m in _LOG_CLAIM.finditer(logs):
        seat = int(m.group(1))
        if seat in seen or seat not in true:
            continue
        claimed = _roles_named(m.group(2))
        if not claimed:
            continue
        seen.add(seat)
        info = true[seat]
        if info.role in claimed or ("werewolf" in claimed and info.faction == "wolf"):
            continue
        ctx.add("warning", "log_role_disagrees", "metadata.logs", f"the annotator log says seat {seat} is '{m.group(2).strip()}' ({'/'.join(claimed)}), real_role says '{info.original_role_label}' ({info.role})", "real_role kept")


def _roles_named(text: str) -> list[str]:
    """Role labels in a short phrase, longest label first at each position."""
    found: list[str] = []
    i = 0
    while i < len(text):
        for n in range(min(5, len(text) - i), 0, -1):
            role = RELEASE_ROLES.canonical(text[i : i + n]) if not text[i : i + n].isascii() else None
            if role:
                if role not in found:
                    found.append(role)
                i += n
                break
        else:
            i += 1
    return found
