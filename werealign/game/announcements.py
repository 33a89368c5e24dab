"""Where a decision's result is announced (issue 42), so a decision's prompt ends before it.

A transcript segment is the context builder's unit, but one segment may hold both a decision's call and its result
("游戏继续，天黑请闭眼，天亮了，昨天晚上死亡的是 11 号"; "2 号、11 号请离场，3 号玩家成为警长"). The prompt must show the
call and not the result, so a cut-off is a segment and, optionally, how many characters of it are shown
(`Cut.chars`; None: the whole segment).

What announces a result is a table's wording, kept as data per language (`LEXICONS`):
- a night's result: the dawn ("天亮了", "昨天晚上死亡的是…", "平安夜") after the night's call ("天黑请闭眼");
- the badge's new holder: "N 号玩家成为/当选警长", "警徽给 N 号" (the outgoing sheriff's own words count: they are the
  move), or the badge torn up;
- a ballot's result: the tally after the call to vote ("请投票"): who voted for whom, abstentions, the elected sheriff,
  the exiled seat.

`cut_before_*` give the derive step's cut-off; `shown_announcement` reads what a prompt shows (with the item's
cut-off) and says which announcement of the decision's result it holds, for `validate` and `audit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from werealign.schema import GameLog

_ZH_SEAT = r"(?P<seat>\d{1,2})\s*号"


@dataclass(frozen=True)
class Lexicon:
    night_call: re.Pattern  # the host calls the night
    dawn: re.Pattern  # the host opens the day: the night's result follows
    new_sheriff: re.Pattern  # group "seat": the badge's new holder named
    badge_torn: re.Pattern
    vote_call: re.Pattern  # the host calls a ballot: its tally follows (toolkit.tallies reads the tally after this same call)
    tally: re.Pattern  # a tally or an outcome of a ballot
    run_call: re.Pattern  # the host calls for sheriff candidates: the list of those who stand follows
    run_list: re.Pattern  # the host's list of candidates


LEXICONS: dict[str, Lexicon] = {
    "zh": Lexicon(
        night_call=re.compile(r"天黑请闭眼|天黑了|入夜"),
        dawn=re.compile(r"天亮了|天亮请睁眼|昨(?:天)?晚(?:上)?(?:死亡|倒牌|出局|是平安夜|平安夜)|平安夜"),
        new_sheriff=re.compile(r"(?<![\d.])" + _ZH_SEAT + r"(?:玩家)?[，,\s]*(?:成为|当选|成了)(?:了)?[，,\s]*警长|警徽(?:移交|交|给|传)(?:给)?(?:了)?\s*(?<![\d.])(?P<seat2>\d{1,2})\s*号"),
        badge_torn=re.compile(r"撕(?:掉|毁|了)?(?:了)?警徽|警徽(?:被)?撕(?:掉|毁)"),
        vote_call=re.compile(r"请(?:开始)?投票|开始投票"),
        tally=re.compile(r"投给|投了|弃票|弃权|当选警长|成为警长|出局|平票|票数最多"),
        run_call=re.compile(r"(?:竞选|上警)[^，。,.]{0,8}?(?:请举手|举手|请举起[^，。,.]{0,10})"),
        run_list=re.compile(r"(?:参与|参加)(?:了)?(?:警长)?竞选|上警的(?:玩家|人)(?:有|是)"),
    ),
    "en": Lexicon(
        night_call=re.compile(r"(?i)night falls|close your eyes"),
        dawn=re.compile(r"(?i)day breaks|(?:it is|it's) morning|last night(?:,)? (?:seat|player|nobody|no one)|peaceful night"),
        new_sheriff=re.compile(r"(?i)(?:seat|player)\s*(?P<seat>\d{1,2}) (?:is|becomes) (?:the )?(?:new )?sheriff|badge (?:goes |passes )?to (?:seat |player )?(?P<seat2>\d{1,2})"),
        badge_torn=re.compile(r"(?i)tears? up the badge|badge is torn"),
        vote_call=re.compile(r"(?i)\b(?:please vote|start voting|cast your votes?|vote now|time to vote)\b(?: now)?[.!]?"),
        tally=re.compile(r"(?i)votes? for|abstain|is elected|is exiled|is out|a tie"),
        run_call=re.compile(r"(?i)raise your hands? if you (?:want to )?(?:run|stand)(?: for sheriff)?[.!]?"),
        run_list=re.compile(r"(?i)(?:running|standing|candidates?) for sheriff"),
    ),
}


@dataclass(frozen=True)
class Cut:
    segment: int
    chars: int | None = None  # characters of `segment` shown; None: all of it


class _Seg(NamedTuple):  # a tuple, not a frozen dataclass: a game's stream is rebuilt per item asked (2.7x faster)
    id: int
    speaker: object
    text: str


def _stream(game: GameLog) -> list[_Seg]:
    """Every segment in telling order; a turn without per-segment text is one piece at its first segment (its
    announcements then count as said there: the earliest place they could be)."""
    out = [_Seg(s.id, u.speaker, s.text) for u in game.utterances for s in (u.segments or [])]
    out += [_Seg(u.segment_ids[0], u.speaker, u.text) for u in game.utterances if not u.segments]
    return sorted(out, key=lambda s: s.id)


def shown(game: GameLog, cut: Cut) -> list[_Seg]:
    """The segments a cut-off shows, the last one truncated to `cut.chars`."""
    out = []
    for s in _stream(game):
        if s.id < cut.segment:
            out.append(s)
        elif s.id == cut.segment:
            out.append(_Seg(s.id, s.speaker, s.text if cut.chars is None else s.text[:cut.chars]))
        else:
            break  # the stream is in segment order: nothing later is shown
    return out


def _cut_at(seg: _Seg, offset: int, earlier: list[_Seg]) -> Cut | None:
    """The cut that shows `seg` up to `offset` (None when nothing is left to show before the game's first segment)."""
    if seg.text[:offset].strip(" ，,。.、：:"):
        return Cut(seg.id, offset)
    before = [s.id for s in earlier if s.id < seg.id]
    return Cut(max(before)) if before else None


def _first(pattern: re.Pattern, segs: list[_Seg], *, host_only: bool, start: tuple[int, int] = (-1, -1),
           accept=lambda m: True) -> tuple[_Seg, re.Match] | None:
    for s in segs:
        if host_only and s.speaker != "host":
            continue
        for m in pattern.finditer(s.text):
            if (s.id, m.start()) > start and accept(m):
                return s, m
    return None


def _last(pattern: re.Pattern, segs: list[_Seg], *, host_only: bool) -> tuple[int, int] | None:
    found = None
    for s in segs:
        if host_only and s.speaker != "host":
            continue
        for m in pattern.finditer(s.text):
            found = (s.id, m.end())
    return found


def _seat(m: re.Match) -> int | None:
    got = next((v for k, v in m.groupdict().items() if k.startswith("seat") and v), None)
    return int(got) if got else None


def night_dawn(game: GameLog, cut: Cut, since: int) -> tuple[_Seg, re.Match] | None:
    """The dawn a cut-off shows after the last night call said at or after segment `since` (None: no dawn shown)."""
    lex = LEXICONS.get(game.language)
    if lex is None:
        return None
    segs = shown(game, cut)
    call = _last(lex.night_call, [s for s in segs if s.id >= since], host_only=True)
    if call is None:
        return None
    return _first(lex.dawn, segs, host_only=True, start=(call[0], call[1] - 1))


def cut_before_dawn(game: GameLog, cut: Cut, since: int) -> Cut | None:
    """`cut`, moved back before the night's dawn where it shows it (None: nothing of the night is left to show)."""
    hit = night_dawn(game, cut, since)
    return cut if hit is None else _cut_at(hit[0], hit[1].start(), _stream(game))


def new_holder(game: GameLog, cut: Cut, since: int, outgoing: int) -> tuple[_Seg, re.Match] | None:
    """The first naming of the badge's new holder (a seat but `outgoing`), or its tearing up, a cut-off shows at or
    after segment `since`."""
    lex = LEXICONS.get(game.language)
    if lex is None:
        return None
    segs = [s for s in shown(game, cut) if s.id >= since]
    named = _first(lex.new_sheriff, segs, host_only=False, accept=lambda m: _seat(m) not in (None, outgoing))
    torn = _first(lex.badge_torn, segs, host_only=False)
    hits = [h for h in (named, torn) if h is not None]
    return min(hits, key=lambda h: (h[0].id, h[1].start())) if hits else None


def holder_since(game: GameLog, outgoing: int, before: int, phase: str) -> int:
    """Where the badge's new holder may first be named: the outgoing sheriff's exit (said before segment `before`),
    else the first segment of the badge's phase."""
    exits = [e.segment_id for e in game.events if e.segment_id is not None and e.segment_id < before and (
        (e.kind == "elimination" and e.target == outgoing) or (e.kind == "self_destruct" and e.actor == outgoing))]
    if exits:
        return min(exits)
    return min((sid for u in game.utterances if u.phase == phase for sid in u.segment_ids), default=before)


def night_since(game: GameLog, night: str) -> int:
    """Where a night's call may be said: the first segment of the phase before it that has any (else the game's first)."""
    order = [p.id for p in game.phases]
    firsts = {p: min((sid for u in game.utterances if u.phase == p for sid in u.segment_ids), default=None) for p in order}
    earlier = [firsts[p] for p in order[:order.index(night)] if firsts[p] is not None] if night in order else []
    return earlier[-1] if earlier else min((sid for u in game.utterances for sid in u.segment_ids), default=0)


def cut_before_holder(game: GameLog, cut: Cut, since: int, outgoing: int) -> Cut | None:
    hit = new_holder(game, cut, since, outgoing)
    return cut if hit is None else _cut_at(hit[0], hit[1].start(), _stream(game))


def _cut_with_call(game: GameLog, segment: int, call_of, result_of) -> Cut:
    """The segment before `segment` (where a result is read), or `segment` up to the end of the host's call where
    the call opens it and nothing of the result precedes the call there."""
    lex = LEXICONS.get(game.language)
    seg = next((s for s in _stream(game) if s.id == segment and s.speaker == "host"), None)
    if lex is not None and seg is not None:
        call = call_of(lex).search(seg.text)
        if call is not None and not result_of(lex).search(seg.text[:call.start()]):
            return Cut(segment, call.end())  # the rest of the segment may read the result out
    return Cut(segment - 1)


def cut_with_vote_call(game: GameLog, first_ballot: int) -> Cut:
    """The cut-off of a ballot read at segment `first_ballot`, the host's call to vote shown where it opens it."""
    return _cut_with_call(game, first_ballot, lambda lex: lex.vote_call, lambda lex: lex.tally)


def cut_with_run_call(game: GameLog, list_segment: int) -> Cut:
    """The cut-off of running for sheriff, the host's list of candidates read at `list_segment`: the call for
    candidates shown where that segment opens on it ("…想要竞选警长的玩家请举手，1 号、5 号…参与竞选")."""
    return _cut_with_call(game, list_segment, lambda lex: lex.run_call, lambda lex: lex.run_list)


def candidate_list(game: GameLog, cut: Cut, phase_start: int) -> tuple[_Seg, re.Match] | None:
    """The host's list of sheriff candidates a cut-off shows after the phase's call for candidates (None: not shown)."""
    lex = LEXICONS.get(game.language)
    if lex is None:
        return None
    segs = [s for s in shown(game, cut) if s.id >= phase_start]
    calls = [(s.id, m.end()) for s in segs if s.speaker == "host" for m in lex.run_call.finditer(s.text)]
    start = calls[0] if calls else (phase_start, 0)
    return _first(lex.run_list, segs, host_only=True, start=(start[0], start[1] - 1))


def ballot_tally(game: GameLog, cut: Cut, phase_start: int, rnd: int = 1) -> tuple[_Seg, re.Match] | None:
    """A tally a cut-off shows after the phase's `rnd`-th call to vote (None: the ballot's result is not shown; the
    tally of an earlier round, read before this round's call, is what the table heard)."""
    lex = LEXICONS.get(game.language)
    if lex is None:
        return None
    segs = [s for s in shown(game, cut) if s.id >= phase_start]
    calls = [(s.id, m.end()) for s in segs if s.speaker == "host" for m in lex.vote_call.finditer(s.text)]
    if len(calls) < rnd:
        return None
    call = calls[rnd - 1]
    return _first(lex.tally, segs, host_only=True, start=(call[0], call[1] - 1))


def cut_before_tally(game: GameLog, cut: Cut, phase_start: int, rnd: int = 1) -> Cut | None:
    """`cut`, moved back before a tally of round `rnd` it shows (ballots anchored after their tally is read)."""
    hit = ballot_tally(game, cut, phase_start, rnd)
    return cut if hit is None else _cut_at(hit[0], hit[1].start(), _stream(game))


def result_shown(game: GameLog, item) -> str | None:
    """Where the text a decision item's prompt shows (its cut-off and `cutoff_chars`) announces the decision's result:
    the night's dawn, the badge's new holder, the ballot's tally; None where it does not (or the kind has no
    announced result, or the game's language no lexicon)."""
    cut = Cut(item.cutoff_segment, getattr(item, "cutoff_chars", None))
    if item.decision in ("seer_check", "guard_protect", "witch_save", "witch_poison", "wolf_kill"):
        hit = night_dawn(game, cut, night_since(game, item.phase))
    elif item.decision == "badge":
        hit = new_holder(game, cut, holder_since(game, item.viewpoint_seat, item.cutoff_segment + 1, item.phase), item.viewpoint_seat)
    elif item.decision in ("ballot", "sheriff_ballot", "sheriff_run"):
        start = min((s for u in game.utterances if u.phase == item.phase for s in u.segment_ids), default=0)
        hit = (candidate_list(game, cut, start) if item.decision == "sheriff_run"
               else ballot_tally(game, cut, start, getattr(item, "round", None) or 1))
    else:
        return None
    return None if hit is None else f"segment {hit[0].id} at character {hit[1].start()} ({hit[1].group(0)!r})"
