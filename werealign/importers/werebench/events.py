"""Public events of one WereBench game (sheriff, eliminations read from the host's announcements) and the MVP's votes."""

from __future__ import annotations

import re

from werealign.importers.toolkit.phases import day_phase
from werealign.importers.toolkit.ctx import Ctx
from werealign.importers.werebench.source import RawMetadata, RawUtterance
from werealign.importers.werebench.timeline import phase_at
from werealign.importers.toolkit.exits import host_exit_quotes
from werealign.importers.werebench.text import phase_key, phase_sort_key, seat_of_label
from werealign.schema import Event, Evidence, Mvp, MvpVote, Phase, Utterance
from werealign.schema.models import EVERYONE


# Acts that end a day: the host announces them before night falls ("N 号玩家自爆，游戏继续，天黑请闭眼"), so
# one found in a night (a turn running on past the night's start, a timestamp set a little early) belongs
# to the day it ended. Exits that may also follow a dawn announcement (a shot, a death) keep their phase.
_DAY_ACTS = frozenset({"self_destruct", "voted_out"})


def sheriff_events(utts: list[RawUtterance], utterances: list[Utterance], phases: list[Phase], n_seats: int, ctx: Ctx) -> list[Event]:
    """Election and badge transfers from the per-turn `sheriff` field (it never reverts in the release).

    A badge changes hands by day (an election, a sheriff's exile or dawn death), so a change first seen on
    a night turn is placed in the day before it."""
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
        events.append(Event(kind=kind, phase=day_phase(phases, u.phase), segment_id=u.segment_ids[0], audience=EVERYONE, actor=current, target=seat,
                            note="derived from the turn's sheriff field",
                            evidence=[Evidence(source="release_field", segment_id=u.segment_ids[0], quote=f"utterances[{i}].sheriff = {raw.sheriff}")]))
        current = seat
    return events


def _announcements(u: Utterance, phases: list[Phase], n_seats: int) -> list[tuple[int, str, int, str, Evidence]]:
    """(seat, how, anchor segment, phase, evidence) for each exit a host turn announces.

    With per-segment text each exit is anchored at the segment that says it, in the phase of that segment's
    time (a turn can run from a day's last exile across nightfall into the next dawn); an exit whose words
    span two segments falls back to the turn's last segment and phase."""
    out: list[tuple[int, str, int, str, Evidence]] = []
    for seg in u.segments or []:
        for seat, how, quote in host_exit_quotes(seg.text, n_seats):
            out.append((seat, how, seg.id, phase_at(phases, seg.start), Evidence(source="utterance", segment_id=seg.id, quote=quote)))
    for seat, how, quote in host_exit_quotes(u.text, n_seats):
        if all(seat != o[0] for o in out):
            out.append((seat, how, u.segment_ids[-1], u.phase, Evidence(source="utterance", segment_id=u.segment_ids[-1], quote=quote)))
    out = [(seat, how, seg, day_phase(phases, phase) if how in _DAY_ACTS else phase, ev) for seat, how, seg, phase, ev in out]
    return _across_nightfall(u, phases, out)


_NIGHTFALL = NIGHTFALL = re.compile(r"天黑请闭眼")
_DAY_DEATHS = frozenset({"shot", "taken"})
_DAWN = DAWN = re.compile(r"天亮了?")
_DAWN_NEWS = DAWN_NEWS = re.compile(r"昨天晚上|昨晚|平安夜|死亡的是")


def _night_opened(u: Utterance, phases: list[Phase], text: str, fall: re.Match) -> tuple[Phase | None, bool]:
    """(the night a nightfall inside host turn `u` opens, whether it is a zero-length night at the turn's start that no
    dawn precedes in the turn: then everything said before the nightfall is the previous day's). None: the timeline
    has no such night."""
    order = {p.id: i for i, p in enumerate(phases)}
    here = phases[order[u.phase]] if u.phase in order else None
    if here is None:
        return None, False
    if here.kind == "night":
        return here, False
    if not _DAWN.search(text[:fall.start()]):
        zero = next((p for p in reversed(phases[:order[here.id]]) if p.kind == "night" and abs(p.start - u.start) <= 1.0), None)
        if zero is not None:
            return zero, True
    return next((p for p in phases[order[here.id] + 1:] if p.kind == "night" and u.start - 1.0 <= p.start <= u.end + 1.0), None), False


def host_turn_text(u: Utterance) -> str:
    """A turn's words as the announcement readers see them (per-segment text joined where there is some)."""
    return "".join(x.text for x in u.segments) if u.segments else u.text


def nightfall_opens(u: Utterance, phases: list[Phase], text: str, fall: re.Match) -> Phase | None:
    """The night of the timeline a nightfall inside host turn `u` opens, or None (werebench.hidden_nights)."""
    return _night_opened(u, phases, text, fall)[0]


def _two_dawns_one_night(u: Utterance, phases: list[Phase]) -> bool:
    """A host turn with a dawn's news, a nightfall, a dawn and more news, and no night of the timeline the nightfall
    can open: a night the timeline lacks (issue 41: named, not recovered)."""
    if u.speaker != "host":
        return False
    text = host_turn_text(u)
    fall = _NIGHTFALL.search(text)
    dawn = _DAWN.search(text, fall.end()) if fall else None
    if fall is None or dawn is None or not _DAWN_NEWS.search(text[:fall.start()]) or not _DAWN_NEWS.search(text[dawn.end():]):
        return False
    return _night_opened(u, phases, text, fall)[0] is None


def _find(text: str, quote: str, start: int = 0) -> int:
    """Where `quote` stands in `text` from `start`, -1 if nowhere: a quote opening with a seat number is not found
    inside a longer number ("2 号玩家自爆" is not in "12 号玩家自爆")."""
    lead = r"(?<!\d)" if quote[:1].isdigit() else ""
    m = re.compile(lead + re.escape(quote)).search(text, start)
    return m.start() if m else -1


def _across_nightfall(u: Utterance, phases: list[Phase], out: list) -> list:
    """A host turn that runs on across a nightfall and the next dawn ("5 号玩家自爆，游戏继续，天黑请闭眼，天亮了，昨天
    晚上死亡的是 12 号") announces two moments (issue 41): what it says before the nightfall ends the day before the
    night it opens (a take or a hunter's shot there is that day's death, even in a turn labelled with the night), and
    the deaths after the dawn are that night's (`_night_opened`). None found: left as labelled (the timeline lacks the
    night: reported as `night_missing`)."""
    text = "".join(x.text for x in u.segments) if u.segments else u.text
    fall = _NIGHTFALL.search(text)
    if fall is not None:
        # a take or a shot said before the nightfall in a turn that runs on into the night, with no dawn before it in
        # the turn, is the day's (a death's news is left to the dawn windows: a turn may open with the dawn)
        kinds = {p.id: p.kind for p in phases}
        first_dawn = _DAWN.search(text)
        out = [(seat, how, seg, day_phase(phases, phase) if kinds.get(phase) == "night" and how in _DAY_DEATHS
                and 0 <= _find(text, ev.quote) < fall.start() and (first_dawn is None or first_dawn.start() > _find(text, ev.quote)) else phase, ev)
               for seat, how, seg, phase, ev in out]
    dawn = _DAWN.search(text, fall.end()) if fall else None
    if fall is None or dawn is None or not out:
        return out
    order = {p.id: i for i, p in enumerate(phases)}
    night, opened_here = _night_opened(u, phases, text, fall)
    if night is None:
        return out
    i = order[night.id]
    after = next((p.id for p in phases[i + 1:] if p.kind != "night"), None)
    before = next((p.id for p in reversed(phases[:i]) if p.kind != "night"), None)
    placed, cursor = [], 0
    for seat, how, seg, phase, ev in out:
        at = _find(text, ev.quote, cursor)
        at = _find(text, ev.quote) if at < 0 else at
        cursor = max(cursor, at)
        if at > dawn.start() and after is not None:
            phase = after  # the night's deaths, and a day act said after the dawn (the next day's self-destruct)
        elif 0 <= at < fall.start() and before is not None and (how in _DAY_ACTS or opened_here):
            phase = before  # the day's acts, and (a turn that opens the night) the previous dawn's news
        placed.append((seat, how, seg, phase, ev))
    return placed


def eliminations(utterances: list[Utterance], phases: list[Phase], n_seats: int, ctx: Ctx) -> list[Event]:
    """Exits read from the host's announcements; a seat leaves the game once.

    A seat announced out again in a later turn after it went on playing (it spoke in a phase later than the
    one after its first exit) was misread the first time: the later announcement replaces it (reported).
    Otherwise the later one is a repeat ("N 号玩家出局" ... "遗言结束，N 号请离场") and the first stands."""
    order = {p.id: i for i, p in enumerate(phases)}
    exits: dict[int, tuple[str, int, str, Evidence]] = {}  # seat -> (how, anchor segment, phase, evidence)
    for u in utterances:
        if u.speaker != "host":
            continue
        if _two_dawns_one_night(u, phases):
            ctx.add("warning", "night_missing", "metadata.game_status",
                    f"turn {u.index} ({u.phase}, segment {u.segment_ids[0]}) announces a dawn, a nightfall and another dawn, and the timeline has "
                    "no night between them", "kept as labelled: the second dawn's deaths count at the first; the night between is not owed")
        for seat, how, anchor, phase, ev in _announcements(u, phases, n_seats):
            if seat in exits:
                first_how, first_seg, first_phase, _ = exits[seat]
                played_on = [t.segment_ids[0] for t in utterances if t.speaker == seat and first_seg < t.segment_ids[0] < anchor
                             and order.get(t.phase, -1) > order.get(first_phase, -1) + 1]
                if not played_on:
                    continue
                ctx.add("repaired", "exit_reannounced", "utterances[].text",
                        f"seat {seat} read as out ({first_how}) at segment {first_seg} in {first_phase}, but it speaks at segments {played_on[:3]} "
                        f"and is announced out ({how}) at segment {anchor} in {phase}", "the first reading dropped: nobody leaves the game twice")
            exits[seat] = (how, anchor, phase, ev)
    events: list[Event] = []
    for seat, (how, anchor, phase, ev) in exits.items():
        if how == "self_destruct":
            events.append(Event(kind="self_destruct", phase=phase, segment_id=anchor, audience=EVERYONE, actor=seat, note="host announcement", evidence=[ev]))
        events.append(Event(kind="elimination", phase=phase, segment_id=anchor, audience=EVERYONE, target=seat, result=how,
                            note="read from the host's announcement", evidence=[ev]))
    return events


# --------------------------------------------------------------------------- MVP


# The host opens the ballot ("所有玩家请投票") or reads it out ("N 号投给 M 号"); a sheriff's final call: "归票".
_VOTE_CALL = re.compile(r"请投票|投给")


_FINAL = re.compile(r"归票|请归")


def _until_call(segments: list) -> list:
    out = []
    for seg in segments:
        if _VOTE_CALL.search(seg.text):
            break
        out.append(seg)
    return out


def _final_call_end(utterances: list[Utterance], at: Utterance, cut: int, events: list[Event]) -> int | None:
    """The last segment before the host's call to vote, when the cut-off stops short of it only by the final
    call the voter still heard: the host's request for it and the sheriff's call ("归票": by the sheriff's
    seat, or any turn making the call, as diarization may give it to a neighbour). None: no change."""
    if cut != at.segment_ids[-1]:
        return None
    sheriff = None
    for e in events:
        if e.kind in ("sheriff_election", "badge_transfer") and e.segment_id is not None and e.segment_id <= cut:
            sheriff = e.target
    end, called = None, False
    for u in utterances[at.index + 1 :]:
        if u.phase != at.phase:
            return None
        if u.speaker == "host" and _VOTE_CALL.search(u.text):
            # With per-segment text, what the host's turn says before the call ("警长请归票，6 号，") was heard too.
            before = _until_call(u.segments or [])
            if before and _FINAL.search(" ".join(seg.text for seg in before)):
                return before[-1].id
            return end if called else None
        if u.speaker == "host" or u.speaker == sheriff or _FINAL.search(u.text):
            end, called = u.segment_ids[-1], called or bool(_FINAL.search(u.text))
            continue
        return None  # someone else still speaks: the cut-off is not about the final call
    return None


def read_mvp(meta: RawMetadata, utterances: list[Utterance], phases: list[Phase], n_seats: int, ctx: Ctx, events: list[Event]) -> Mvp | None:
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
        heard = _final_call_end(utterances, utt, cut, events)
        if heard is not None:
            ctx.add("repaired", "cutoff_before_final_call", f"{field}.cut_off_time",
                    f"segment {cut} comes before the last words the voter heard before the call to vote (the sheriff's final call)",
                    f"moved to {heard}, the last segment before the host calls the vote", item=key)
            cut = heard
            utt = seg_to_utt[cut]
        if cut != utt.segment_ids[-1] and utt.segments is None:
            # With per-segment text the turn is simply cut at the cut-off: nothing to report.
            ctx.add("warning", "cutoff_inside_turn", f"{field}.cut_off_time", f"segment {cut} is inside the merged turn {utt.segment_ids[0]}-{utt.segment_ids[-1]}, whose per-segment text is unknown", "kept: the turn is left out of the context at the cut-off", item=key)
        # The phase the release's label names (it keeps that label when a hidden night renumbers it).
        phase = next((p.id for p in phases if p.original_label == key.removesuffix("_votes")), parsed[0])
        if utt.phase != phase and utt.phase.startswith("day-"):
            ctx.add("repaired", "vote_phase_mismatch", field, f"key says {phase} but the cut-off segment {cut} lies in {utt.phase}", f"phase set to {utt.phase} (where the vote was cast); original key kept", item=key)
            phase = utt.phase
        elif phase not in phase_ids:
            # A vote must lie in a day of the game: with that day gone from the timeline there is none to place it in.
            ctx.add("dropped", "vote_phase_missing", field, f"{phase} is not a phase of this game's timeline", "vote dropped: it belongs to no phase of the game", item=key)
            continue
        elif utt.phase != phase:
            # Where the host calls the vote in the same breath as the dawn ("天亮了，所有玩家请投票") the day's first turn
            # is the vote's result, so the last segment before the result lies in the night (or the election) before it:
            # no cut-off inside the vote's phase leaves the answer out.
            ctx.add("dropped", "cutoff_outside_vote_phase", f"{field}.cut_off_time",
                    f"the cut-off segment {cut} lies in {utt.phase}, but the vote is in {phase}" + (f" (the release's segment {v.cut_off_time} moved before the vote result)" if cut != v.cut_off_time else ""),
                    "vote dropped: no segment of the vote's phase comes before its result", item=key)
            continue
        if target == seat:
            ctx.add("warning", "mvp_votes_self", f"{field}.vote_to", f"MVP seat {seat} is recorded voting for itself", "kept in the game log; no VA item", item=key)
        votes.append(MvpVote(phase=phase, target=target, cutoff_segment=cut, original_label=key))
    return Mvp(seat=seat, votes=votes, original_label=str(raw_id))
