"""The timeline of one WereBench game (phases from `game_status`, repaired where out of order) and its turns."""

from __future__ import annotations

from werealign.importers.toolkit.ctx import Ctx, GameDropped
from werealign.importers.werebench.source import RawUtterance
from werealign.importers.werebench.text import END_KEY, parse_time, phase_key, phase_sort_key, seat_of_label
from werealign.schema import Phase, SeatInfo, Utterance, is_host_label


def read_timeline(status: dict[str, str], utts: list[RawUtterance], ctx: Ctx) -> tuple[list[Phase], bool]:
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
            bad = f"starts at {status[labels[pid]].strip()}, after a later phase starts ({fmt_time(min(later))})"
        if bad is None:
            continue
        recompute = True
        fixed = _rederive_start(pid, order, starts, utts)
        if fixed is not None:
            starts[pid] = fixed
            ctx.add("repaired", "phase_start_rederived", field, bad, f"start re-derived as {fmt_time(fixed)}: the first turn that carries the elected sheriff")
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
        ctx.add("repaired", "end_before_last_phase", f"metadata.game_status.{END_KEY}", f"ends at {fmt_time(end)} before the last phase starts", "end taken as the end of the last turn")
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
            ctx.add("warning", "empty_phase", f"metadata.game_status.{labels[pid]}", f"phase {pid} has zero length ({fmt_time(start)})" + (" but turns are labelled with it" if has_turns else ""), "kept: the phase happened but is not in the recording")
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


def phase_at(phases: list[Phase], t: float) -> str:
    """Latest phase starting at or before t (ties go to the later phase, as in the release)."""
    current = phases[0].id
    for p in phases:
        if p.start <= t + 1e-6:
            current = p.id
    return current


def fmt_time(t: float) -> str:
    ms = round(t * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


# --------------------------------------------------------------------------- utterances


def read_utterances(utts: list[RawUtterance], label_to_speaker: dict[str, int | str], phases: list[Phase], recompute: bool, seats: list[SeatInfo], ctx: Ctx) -> list[Utterance]:
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
            new = phase_at(phases, start)
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


def check_segments(total: int | None, utterances: list[Utterance], ctx: Ctx) -> None:
    segs = [s for u in utterances for s in u.segment_ids]
    holes, n_holes = _segment_holes(segs)
    if holes:
        more = f" ({n_holes} in all)" if n_holes > len(holes) else ""
        ctx.add("warning", "segment_gap", "utterances[].utterance_id", f"segment ids {holes}{more} missing between {min(segs)} and {max(segs)}", "kept: no turn covers them")
    if total is not None and total != len(segs):
        ctx.add("warning", "total_utterances_mismatch", "metadata.total_utterances", f"says {total}, the converted turns cover {len(segs)} segments", "kept as information only")
