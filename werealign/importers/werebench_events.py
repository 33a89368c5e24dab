"""Public events of one WereBench game (sheriff, eliminations read from the host's announcements) and the MVP's votes."""

from __future__ import annotations

from werealign.importers.werebench_ctx import Ctx
from werealign.importers.werebench_source import RawMetadata, RawUtterance
from werealign.importers.werebench_text import host_exits, phase_key, phase_sort_key, seat_of_label
from werealign.schema import Event, Mvp, MvpVote, Phase, Utterance
from werealign.schema.models import EVERYONE


def sheriff_events(utts: list[RawUtterance], utterances: list[Utterance], n_seats: int, ctx: Ctx) -> list[Event]:
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


def eliminations(utterances: list[Utterance], n_seats: int) -> list[Event]:
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


def check_speech_after_exit(utterances: list[Utterance], events: list[Event], phases: list[Phase], ctx: Ctx) -> None:
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


def read_mvp(meta: RawMetadata, utterances: list[Utterance], phases: list[Phase], n_seats: int, ctx: Ctx) -> Mvp | None:
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
