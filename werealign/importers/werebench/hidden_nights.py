"""Nights the recording skips: a self-destruct ends the day at once and the table goes to night.

Two shapes (issue 41, must-have 3). (1) `split_turn_nights`: one host turn of a day runs from a nightfall
through the whole night to the next dawn ("N 号玩家自爆，游戏继续，天黑请闭眼 ... 天亮了，昨天晚上死亡的是 M 号"),
and no night of `game_status` begins inside it: the release's config has fewer nights than the game played.
The night is added inside the turn (zero length, at the dawn: the segment that says it, or the turn's end
without per-segment text), the day is split there (the rest is the next day, with no release label) and
later phases are renumbered; the host's exits after the dawn then fall in the new day
(werebench.events reads them against this timeline). A nightfall the recording never follows with a
dawn is named in the report (`night_unplaced`): nothing says when, or whether, that night ended.
The same split is made where a day that already had its dawn's news and then ended (a call to vote, a
ballot, a self-destruct, a nightfall) hears a second dawn's news with no nightfall between: the recording cut the night
out ("警长请归票 ... 天亮了，昨天晚上死亡的是 M 号"). (2) `add_final_night`: the recording ends with the host's
nightfall after a day. (3) `add_hidden_nights`, below.

Where the timeline goes from the phase of a self-destruct straight to a day of the same number (a
sheriff election with a self-destruct, then "day 1", whose host announces the night's deaths), the
night between is missing from `game_status`. The annotator log
counts it ("the second night" is the night after the self-destruct), so without it every later
night fact of the log lands one night early, where the announcements contradict it, and is
withheld. The missing night is added (zero length, at the next day's start; nobody speaks in it)
and every later phase is renumbered, so the timeline counts nights as the game did. Each phase
keeps the release's own label (`original_label`), which is how MVP vote keys find their day.
"""

from __future__ import annotations

from werealign.importers.toolkit.ctx import Ctx
import re

from werealign.importers.werebench.events import DAWN, DAWN_NEWS, NIGHTFALL, host_turn_text, nightfall_opens
from werealign.schema import Event, Phase, Utterance


def split_turn_nights(phases: list[Phase], utterances: list[Utterance], ctx: Ctx) -> tuple[list[Phase], list[Utterance]]:
    """Recover the nights that lie inside one host turn of a day (module doc, shape 1)."""
    done: set[int] = set()
    while True:
        found = _night_in_turn(phases, utterances, done) or _dawn_without_night(phases, utterances, done)
        if found is None:
            return phases, utterances
        u, at, why = found
        done.add(u.index)
        order = {p.id: i for i, p in enumerate(phases)}
        i = order[u.phase]
        day = phases[i]
        night = Phase(id=f"night-{day.day + 1}", kind="night", day=day.day + 1, start=at, end=at)
        rest = Phase(id=f"day-{day.day + 1}", kind="day", day=day.day + 1, start=at, end=max(at, day.end))
        later = [_moved(p, 1) for p in phases[i + 1:]]
        new = [*phases[:i], day.model_copy(update={"end": at}), night, rest, *later]
        if len({p.id for p in new}) != len(new) or day.id != f"day-{day.day}":
            ctx.add("warning", "night_unplaced", "metadata.game_status", f"turn {u.index} ({u.phase}, segment {u.segment_ids[0]}) {why}",
                    "not added: the phase ids would collide; the dawn's news counts at the turn's day")
            continue
        renamed = {p.id: q.id for p, q in zip(phases[i + 1:], later)}
        ctx.add("repaired", "hidden_night", "metadata.game_status",
                f"turn {u.index} ({u.phase}, segment {u.segment_ids[0]}) {why}",
                f"the night added as {night.id} (zero length, at the dawn); the rest of {day.id} is {rest.id}; later phases renumbered")
        phases = new
        utterances = [v.model_copy(update={"phase": rest.id}) if v.phase == day.id and v.index > u.index
                      else v.model_copy(update={"phase": renamed.get(v.phase, v.phase)}) for v in utterances]


def _night_in_turn(phases: list[Phase], utterances: list[Utterance], done: set[int]) -> tuple[Utterance, float, str] | None:
    """(the first host turn of a day holding a nightfall, then a dawn, whose nightfall opens no night of the timeline;
    the time of its dawn), or None."""
    kinds = {p.id: p.kind for p in phases}
    for u in utterances:
        if u.speaker != "host" or u.index in done or kinds.get(u.phase) != "day":
            continue
        text = host_turn_text(u)
        fall = NIGHTFALL.search(text)
        dawn = DAWN.search(text, fall.end()) if fall else None
        if fall is None or dawn is None or nightfall_opens(u, phases, text, fall) is not None:
            continue
        return u, _time_at(u, dawn.start()), "runs from a nightfall to a dawn, and no night of the timeline begins in it"
    return None


# The day is over: the host calls or reads the ballot, a seat blows up, or night falls (a nightfall in a day turn
# that no dawn follows in the turn; had the timeline a night after it, the next dawn would lie in another day).
_DAY_ENDS = re.compile(r"归票|请投票|投给|自爆|天黑请闭眼")


def _dawn_without_night(phases: list[Phase], utterances: list[Utterance], done: set[int]) -> tuple[Utterance, float, str] | None:
    """(the first host turn of a day announcing a dawn's news after that day's own dawn news and its end, with no
    nightfall between; the time of that dawn), or None."""
    kinds = {p.id: p.kind for p in phases}
    order = {p.id: i for i, p in enumerate(phases)}
    state: dict[str, str] = {}  # day -> "dawn" (its news heard), "ended" (then its end)
    for u in utterances:
        if u.speaker != "host" or kinds.get(u.phase) != "day":
            continue
        text = host_turn_text(u)
        falls = list(NIGHTFALL.finditer(text))
        if falls and DAWN.search(text, falls[0].end()):
            state[u.phase] = "night"  # a nightfall then a dawn: the other shape, or a night of the timeline
            continue
        if not phases[order[u.phase]].start <= u.start <= phases[order[u.phase]].end:
            continue  # a turn whose label the clock does not bear out: no telling which day's dawn it tells
        pos = 0
        for dawn in DAWN.finditer(text):
            news = DAWN_NEWS.search(text, dawn.end(), dawn.end() + 40)
            if news is None:
                continue
            _advance(state, u.phase, text, pos, dawn.start())
            if state.get(u.phase) == "ended" and u.index not in done:
                return u, _time_at(u, dawn.start()), "announces a second dawn's news in a day that had its own and ended, with no night of the timeline between"
            state.setdefault(u.phase, "dawn")
            pos = news.end()
        _advance(state, u.phase, text, pos, len(text))
    return None


def _advance(state: dict[str, str], day: str, text: str, lo: int, hi: int) -> None:
    """Follow a day through `text[lo:hi]`: its dawn's news (said with or without "天亮"), then its end."""
    news = DAWN_NEWS.search(text, lo, hi)
    if day not in state and news is not None:
        state[day], lo = "dawn", news.end()
    if state.get(day) == "dawn" and _DAY_ENDS.search(text, lo, hi):
        state[day] = "ended"


def _time_at(u: Utterance, pos: int) -> float:
    """The start of the segment holding character `pos` of the turn's joined text (the turn's end without segments)."""
    if not u.segments:
        return u.end
    seen = 0
    for seg in u.segments:
        seen += len(seg.text)
        if pos < seen:
            return max(seg.start, u.start)
    return u.end


# The host's call to the night: "天黑请闭眼", or, after a self-destruct, straight to the wolves ("游戏继续，狼人请睁眼，
# 狼人请杀人"): only a night opens with the wolves called to kill.
_NIGHT_CALL = re.compile(NIGHTFALL.pattern + r"|狼人请睁眼|狼人请杀人")


def add_final_night(phases: list[Phase], utterances: list[Utterance], ctx: Ctx) -> list[Phase]:
    """The recording's last turn is the host's and ends with a nightfall after its last dawn ("... 游戏继续，天黑请闭眼"),
    and the timeline ends with a day: the game went on into that night (its actions are told by the log and the
    recap). It is added at the end (zero length; no dawn closes it, so nothing checks its deaths). A last phase that
    is itself a night is the timeline's own; so is the night the turn lies in, when no dawn in the turn comes before
    its nightfall and every phase after it has zero length (the release closes its timeline with an empty day at the
    recording's end: that day never began)."""
    if not utterances or utterances[-1].speaker != "host" or not phases or phases[-1].kind == "night":
        return phases
    u = utterances[-1]
    text = host_turn_text(u)
    falls = list(_NIGHT_CALL.finditer(text))
    if not falls or DAWN.search(text, falls[-1].end()) is not None:
        return phases
    at = next((i for i, p in enumerate(phases) if p.id == u.phase), None)
    if (at is not None and phases[at].kind == "night" and DAWN.search(text, 0, falls[-1].start()) is None
            and all(p.end <= p.start for p in phases[at + 1:])):
        return phases
    last = phases[-1]
    night = Phase(id=f"night-{last.day + 1}", kind="night", day=last.day + 1, start=last.end, end=last.end)
    if night.id in {p.id for p in phases}:
        ctx.add("warning", "night_unplaced", "metadata.game_status",
                f"turn {u.index} ({u.phase}, segment {u.segment_ids[-1]}) ends the recording with a nightfall, and the timeline ends with a day",
                "not added: the phase id would collide; that night's facts count nowhere")
        return phases
    ctx.add("repaired", "hidden_night", "metadata.game_status",
            f"turn {u.index} ({u.phase}, segment {u.segment_ids[-1]}) ends the recording with a nightfall, and the timeline ends with a day",
            f"the night added as {night.id} (zero length, at the end; no dawn closes it)")
    return [*phases, night]


def add_hidden_nights(phases: list[Phase], utterances: list[Utterance], events: list[Event], ctx: Ctx
                      ) -> tuple[list[Phase], list[Utterance], list[Event]]:
    blown = {e.phase: e for e in events if e.kind == "self_destruct"}
    out: list[Phase] = []
    renamed: dict[str, str] = {}
    shift = 0
    for i, p in enumerate(phases):
        if shift:
            p = _moved(p, shift)
            renamed[phases[i].id] = p.id
        out.append(p)
        nxt = phases[i + 1] if i + 1 < len(phases) else None
        # The next day counts as the same day: the recording has no night between (a dropped night phase
        # leaves the count going on, and is not a hidden night).
        if phases[i].id in blown and p.kind != "night" and nxt is not None and nxt.kind == "day" and nxt.day == phases[i].day:
            shift += 1
            night = Phase(id=f"night-{nxt.day + shift}", kind="night", day=nxt.day + shift, start=nxt.start, end=nxt.start)
            out.append(night)
            e = blown[phases[i].id]
            ctx.add("repaired", "hidden_night", f"metadata.game_status.{nxt.original_label}",
                    f"seat {e.actor} self-destructed in {p.id} and the recording goes on with a day ({nxt.original_label})",
                    f"the night between added as {night.id} (zero length); later phases renumbered")
    if not shift:
        return phases, utterances, events
    if len({p.id for p in out}) != len(out):  # a timeline whose ids do not count days: left as it was
        ctx.add("warning", "hidden_night", "metadata.game_status", "a night the recording skips", "not added: the phase ids would collide")
        return phases, utterances, events
    return (out, [u.model_copy(update={"phase": renamed.get(u.phase, u.phase)}) for u in utterances],
            [e.model_copy(update={"phase": renamed.get(e.phase, e.phase)}) for e in events])


def _moved(p: Phase, shift: int) -> Phase:
    """The phase `shift` days later: day-1 -> day-2 (an id that does not name its day keeps it)."""
    day = p.day + shift
    pid = f"{p.kind}-{day}" if p.id == f"{p.kind}-{p.day}" else p.id
    return p.model_copy(update={"id": pid, "day": day})
