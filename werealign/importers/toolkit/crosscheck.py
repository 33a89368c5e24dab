"""Public exits checked against what the table heard afterwards: a seat that is out never speaks again, except
its last words.

After an exit the host announced, the seat's turns are its last words until a seat still in the game speaks (a
few characters of interjection do not count), and talk after the host declares the winner is post-game chatter.
Any other table turn under the seat's speaker label contradicts the exit. The reading that agrees with another
source wins:
- the annotator log or the recap states the seat's exit of the same kind ("8 号自爆", "投票 4 号出局", "毒 1 号",
  "11、12 号死亡"): the exit stands and the later turns cannot be the seat's (a speaker-label slip of the
  transcript, or a player out chatting off the table). Each is settled by toolkit.dead_speech: re-attributed
  to the seat the host's call, the turn itself or the turn order establishes, else kept off the table;
- only a few characters under the label ("爆了"): a label slip, the same;
- no source has the seat leave the game at all, and it plays on: the announcement was misread ("10 2 号玩家请离场"
  read as seat 2): the exit is dropped (`exit_misread`);
- otherwise the record is unresolved (`exit_contradicted`, a warning): the exit is kept as announced, and the
  items whose cut-off comes at or after it are withheld (`item_after_unresolved_exit`), as the public record
  they would show is in doubt.
A turn two or more phases after its seat's exit (`late_turns`, what `werealign validate` rejects) is settled the
same way, whichever case the exit falls in: no last words come that late.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from werealign.importers.report import ImportReport
from werealign.importers.toolkit.dead_speech import FRAGMENT, settle_dead_turns
from werealign.importers.toolkit.dead_speech import heard_at_table as _visible
from werealign.importers.toolkit.dead_speech import size as _size
from werealign.importers.toolkit.phases import day_phase
from werealign.text.zh_numbers import chinese_number
from werealign.schema import Event, Evidence, GameLog, Utterance
from werealign.schema.models import EVERYONE
from werealign.validate.replay_checks import LAST_WORDS_PHASES

# The host declaring the result: what follows is post-game talk.
_GAME_OVER = re.compile(r"阵营(?:胜利|获胜)|游戏结束")
_CLAUSE = re.compile(r"[，,；;。！!？?\n]")
# Words after a seat that say it left the game, by the kind of exit; a kill word right before the seat says the same.
_AFTER = {
    "self_destruct": r"自爆|爆了",
    "voted_out": r"出局|放逐|票出|投出|淘汰|离场",
    "night_death": r"死|被.{0,6}?(?:刀|毒|杀)|出局|离场",
    "poisoned": r"被.{0,6}?毒|死|出局",
    "shot": r"被.{0,8}?(?:枪|带走)|死|出局",
    "taken": r"被.{0,8}?(?:带走|枪)|死|出局",
    "died_with_partner": r"殉情|死|出局",
}
_ANY_EXIT = "|".join(sorted(set(_AFTER.values())))
_BEFORE = {
    "voted_out": r"(?:票出|投出|放逐|归票)\s*(?:了\s*)?$",
    "night_death": r"(?:刀|毒|杀死|杀)\s*(?:了\s*)?$",
    "poisoned": r"毒\s*(?:死\s*)?(?:了\s*)?$",
    "shot": r"(?:带走|枪杀|开枪打死)\s*(?:了\s*)?$",
    "taken": r"带走\s*(?:了\s*)?$",
}


@dataclass
class CrossCheck:
    game: GameLog
    unresolved: list[tuple[int, int, str]] = field(default_factory=list)  # (seat, exit anchor segment, how)


def _seat_mentions(clause: str, seat: int) -> list[re.Match]:
    """'12 号', '12号玩家', and 12 in a list '11、12 号' / '3、5、11 号'."""
    return list(re.finditer(rf"(?<!\d){seat}(?=(?:\s*[、和及与]\s*\d{{1,2}})*\s*号)", clause))


# In a log's entry about one seat ("8 号是村民，参与警长竞选，被狼人刀死；"), how the entry's seat left the game.
_ENTRY = re.compile(r"[；;。\n]")
_ENTRY_EXIT = {
    "self_destruct": r"自爆",
    "voted_out": r"被.{0,8}?(?:票出|投出|放逐|归票)|(?:放逐|投票)?出局",
    "night_death": r"被.{0,8}?(?:刀|毒|杀)|死亡|(?:刀|毒)死",
    "poisoned": r"被.{0,8}?毒|毒死",
    "shot": r"被.{0,8}?(?:枪|带走)",
    "taken": r"被.{0,8}?(?:带走|枪)",
    "died_with_partner": r"殉情",
}


def stated_exit(texts: list[str | None], seat: int, how: str) -> bool:
    """Whether any of `texts` (the annotator log, the recap) states that the seat left the game in the way `how`
    (a `left_table` exit has no way: any exit word counts): next to the seat ("8 号自爆", "毒 1 号"), or in the
    log's entry that opens with the seat."""
    after = re.compile(r"^\s*号?\s*(?:玩家)?\s*(?:[^，,；;。]{0,8}?)(?:" + _AFTER.get(how, _ANY_EXIT) + ")")
    before = re.compile(_BEFORE[how]) if how in _BEFORE else None
    in_entry = re.compile(_ENTRY_EXIT.get(how, "|".join(_ENTRY_EXIT.values())))
    for text in texts:
        for entry in _ENTRY.split(text or ""):
            if any(m.start() == len(entry) - len(entry.lstrip()) for m in _seat_mentions(entry, seat)) and in_entry.search(entry):
                return True
        for clause in _CLAUSE.split(text or ""):
            for m in _seat_mentions(clause, seat):
                tail = clause[m.end():]
                tail = tail[tail.index("号"):] if "号" in tail[:12] else tail
                if after.match(tail) or (before is not None and before.search(clause[: m.start()])):
                    return True
    return False


def contradicting_turns(game: GameLog) -> list[tuple[int, int, str, list[Utterance]]]:
    """(seat, exit anchor, how, later turns) for every exit the seat's own later table turns contradict: turns
    after its last words and before the host declares the result."""
    over = next((u.segment_ids[0] for u in game.utterances if u.speaker == "host" and _GAME_OVER.search(u.text)), None)
    exits = [e for e in game.events if e.kind == "elimination" and isinstance(e.target, int) and e.segment_id is not None]
    out = []
    for e in exits:
        out_by = lambda seg: {x.target for x in exits if x.segment_id <= seg}  # noqa: E731 - the seats out at a segment
        after = [u for u in game.utterances if u.segment_ids[0] > e.segment_id and (over is None or u.segment_ids[0] < over) and _visible(u)]
        # The last words: until a seat still in the game speaks more than a fragment; the host calling for the
        # seat's last words ("8 号玩家请留遗言") opens them again.
        calls = re.compile(rf"(?<!\d){e.target}\s*号[^，,。；;]{{0,6}}遗言")
        open_, later = True, []
        for u in after:
            if u.speaker == "host":
                open_ = open_ or bool(calls.search(u.text))
            elif u.speaker == e.target:
                if not open_:
                    later.append(u)
            elif u.speaker not in out_by(u.segment_ids[0]) and _size(u.text) > FRAGMENT:
                open_ = False
        if later:
            out.append((e.target, e.segment_id, e.result or "left_table", later))
    return out


def cross_check_exits(game: GameLog, report: ImportReport, source_file: str) -> CrossCheck:
    """The game with the turns that contradict a confirmed exit settled (toolkit.dead_speech: re-attributed or
    kept off the table); the exits no source settles (module docstring)."""
    game = self_destructs_from_sources(exile_by_tally(game, report, source_file), report, source_file)
    settle: dict[int, str] = {}  # utterance index -> why it cannot be the labelled seat's
    misread: set[tuple[int, int]] = set()
    unresolved = []
    for seat, anchor, how, later in contradicting_turns(game):
        segs = [u.segment_ids[0] for u in later]
        where = f"seat {seat} is out ({how}) at segment {anchor}, but a table turn under its label follows at segment(s) {segs[:6]}"
        if stated_exit([game.annotator_log, game.recap], seat, how):
            why = "the annotator log or the recap states the exit too"
        elif all(_size(u.text) <= FRAGMENT for u in later):
            why = f"only a fragment of at most {FRAGMENT} characters follows under the label"
        elif not stated_exit([game.annotator_log, game.recap], seat, "left_table"):
            # Nothing but this one reading has the seat leave, and it goes on playing: the reading was wrong.
            misread.add((seat, anchor))
            report.add("repaired", "exit_misread", source_file=source_file, game=game.game_id, field="utterances[].text",
                       what=where + "; neither the annotator log nor the recap has the seat leave the game",
                       why="the exit dropped: the seat plays on, as its speech shows and no source denies")
            continue
        else:
            unresolved.append((seat, anchor, how))
            report.add("warning", "exit_contradicted", source_file=source_file, game=game.game_id, field="utterances[].speaker_id",
                       what=where + "; neither the annotator log nor the recap states the exit",
                       why="unresolved: the exit kept as announced; items whose cut-off comes at or after it are withheld")
            continue
        for u in later:
            settle.setdefault(u.index, f"after its last words (out: {how} at segment {anchor}; {why})")
    if misread:
        events = [e for e in game.events if not (e.kind in ("elimination", "self_destruct") and e.segment_id is not None
                                                 and (e.target if e.kind == "elimination" else e.actor, e.segment_id) in misread)]
        game = game.model_copy(update={"events": events})
    for i, why in late_turns(game).items():
        settle.setdefault(i, why)
    return CrossCheck(settle_dead_turns(game, settle, report, source_file), unresolved)


def late_turns(game: GameLog) -> dict[int, str]:
    """The table turns of a seat two or more phases after its exit's (what `werealign validate` rejects in a
    transcribed game): no last words come that late, whatever the sources say of the exit."""
    order = {p.id: i for i, p in enumerate(game.phases)}
    exits: dict[int, tuple[int, str, str]] = {}
    for e in game.events:  # a self-destruct is an exit too, whether or not an elimination follows it (as validate reads it)
        seat = e.target if e.kind == "elimination" else e.actor if e.kind == "self_destruct" else None
        if isinstance(seat, int) and e.segment_id is not None:
            exits.setdefault(seat, (e.segment_id, e.phase, "self_destruct" if e.kind == "self_destruct" else e.result or "left_table"))
    out = {}
    for u in game.utterances:
        if isinstance(u.speaker, int) and u.speaker in exits and _visible(u):
            anchor, phase, how = exits[u.speaker]
            if u.segment_ids[0] > anchor and order.get(u.phase, -1) > order.get(phase, -1) + LAST_WORDS_PHASES:
                out[u.index] = f"in {u.phase}, two phases or more after its exit ({how} at segment {anchor} in {phase})"
    return out


# The host's tally naming the day's majority: "其余(所有)玩家投给 4 号". A tie ("平票") names no exile.
_MAJORITY = re.compile(r"其余(?:所有)?玩家(?:都)?投给\s*(\d{1,2})\s*号")
_TIE = re.compile(r"平票|无效")  # a tie, or an exile made void ("本轮放逐无效")


def exile_by_tally(game: GameLog, report: ImportReport, source_file: str) -> GameLog:
    """A day's exile agrees with the host's tally. Where the tally gives the majority to a seat the announcement
    does not send out (the words garbled: "投给 11 号玩家出翻箱倒柜"), no other seat is read voted out there, and
    that seat's exit is later recorded only as leaving ("11 号请离场"), the seat was exiled at the tally
    (`exile_from_tally`)."""
    events = list(game.events)
    # Latest first: of two tallies before one exit (a vote made void, then voted again), the later one exiled.
    for u in reversed(game.utterances):
        if u.speaker != "host":
            continue
        for seg_id, text in reversed([(x.id, x.text) for x in u.segments] if u.segments else [(u.segment_ids[-1], u.text)]):
            m = _MAJORITY.search(text)
            if m is None or _TIE.search(text):
                continue
            seat = int(m.group(1))
            here = [e for e in events if e.kind == "elimination" and e.segment_id == seg_id]
            if any(e.result == "voted_out" or e.target == seat for e in here):
                continue
            exits = [e for e in events if e.kind == "elimination" and e.target == seat]
            if len(exits) != 1 or exits[0].result != "left_table" or (exits[0].segment_id or -1) < seg_id:
                continue
            old = exits[0]
            gone = {e.target for e in events if e.kind == "elimination" and e.segment_id is not None and e.segment_id <= old.segment_id}
            between = [t for t in game.utterances if seg_id < t.segment_ids[0] < old.segment_id and t.speaker != "host"
                       and t.speaker not in gone and _visible(t) and _size(t.text) > FRAGMENT]
            if between:
                continue  # the table played on between the tally and the exit: not that exile
            events[events.index(old)] = old.model_copy(update={"result": "voted_out", "segment_id": seg_id, "phase": u.phase,
                                                               "note": "the host's tally: the day's majority",
                                                               "evidence": [Evidence(source="utterance", segment_id=seg_id, quote=m.group(0)), *old.evidence]})
            report.add("repaired", "exile_from_tally", source_file=source_file, game=game.game_id, field="utterances[].text",
                       what=f"segment {seg_id}: the tally gives the majority to seat {seat}, whose exit was read only as leaving at segment {old.segment_id}",
                       why=f"seat {seat} exiled (voted_out) at the tally: the exile agrees with the host's count")
    if events == game.events:
        return game
    # Stable: events of one segment keep the importer's order.
    return game.model_copy(update={"events": sorted(events, key=lambda e: e.segment_id if e.segment_id is not None else -1)})


_TAKES = r"(?<!\d){seat}\s*号[^，,；;。]{{0,12}}自爆[^，,；;。]{{0,10}}带走\s*(?:了\s*)?(\d{{1,2}})\s*号"


_DAY = re.compile(r"第\s*(\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:个)?\s*(?:天|日|白天)")


def _stated_days(text: str | None, seat: int) -> set[int]:
    """The days a source's statements of the seat's self-destruct fall in: the last "第N天" before each one in its
    entry (empty when none says)."""
    days = set()
    for entry in _ENTRY.split(text or ""):
        for m in re.finditer(rf"(?<!\d){seat}\s*号[^，,；;。]{{0,10}}自爆", entry):
            marks = list(_DAY.finditer(entry[: m.start()]))
            if marks and (n := chinese_number(marks[-1].group(1))) is not None:
                days.add(n)
    return days


def _self_destruct_evidence(game: GameLog, seat: int) -> list[Evidence]:
    """The words of the log and the recap that state the seat's self-destruct (near the seat, or the entry it opens)."""
    out = []
    for source, text in (("annotator_log", game.annotator_log), ("recap", game.recap)):
        m = re.search(rf"(?<!\d){seat}\s*号[^，,；;。]{{0,10}}自爆", text or "")
        entry = next((e for e in _ENTRY.split(text or "") if re.match(rf"\s*{seat}\s*号", e) and "自爆" in e), None)
        quote = m.group(0) if m else (entry.strip() if entry else None)
        if quote:
            out.append(Evidence(source=source, quote=quote))
    return out


def self_destructs_from_sources(game: GameLog, report: ImportReport, source_file: str) -> GameLog:
    """A self-destruct the host's words miss (the line cut from the recording, garbled) that the annotator log and
    the recap both state ("6 号自爆带走 11 号"): added where the seat last spoke at the table (a self-destruct ends
    its day at once), with the seat it takes when a source names one that has no exit of its own and is not heard
    at the table afterwards (`self_destruct_from_sources`)."""
    out = {e.target for e in game.events if e.kind == "elimination"} | {e.actor for e in game.events if e.kind == "self_destruct"}
    added = []
    for seat in sorted(s.seat for s in game.seats if s.seat not in out):
        if not (stated_exit([game.annotator_log], seat, "self_destruct") and stated_exit([game.recap], seat, "self_destruct")):
            continue
        turns = [u for u in game.utterances if u.speaker == seat and _visible(u)]
        if not turns:
            continue
        last = turns[-1]
        anchor, phase = last.segment_ids[-1], day_phase(game.phases, last.phase)
        day = next((p.day for p in game.phases if p.id == phase), None)
        stated_days = {d for text in (game.annotator_log, game.recap) for d in _stated_days(text, seat)}
        last_day = max((p.day for p in game.phases if p.kind != "night"), default=None)
        if (stated_days and day not in stated_days) or (not stated_days and day != last_day):
            continue  # the seat's last turn is not where the sources (or the game's end) put the self-destruct
        evidence = _self_destruct_evidence(game, seat)
        new = [Event(kind="self_destruct", phase=phase, segment_id=anchor, audience=EVERYONE, actor=seat, note="annotator log and recap", evidence=evidence),
               Event(kind="elimination", phase=phase, segment_id=anchor, audience=EVERYONE, target=seat, result="self_destruct", note="annotator log and recap",
                     evidence=evidence)]
        what = f"seat {seat} self-destructs"
        for text in (game.annotator_log, game.recap):
            m = re.search(_TAKES.format(seat=seat), text or "")
            taken = int(m.group(1)) if m else None
            if taken is not None and taken != seat and taken not in out and any(s.seat == taken for s in game.seats) \
                    and not any(u.speaker == taken and u.segment_ids[0] > anchor and _visible(u) for u in game.utterances):
                new.append(Event(kind="elimination", phase=phase, segment_id=anchor, audience=EVERYONE, actor=seat, target=taken, result="taken",
                                 note="annotator log and recap", evidence=[Evidence(source="annotator_log" if text is game.annotator_log else "recap", quote=m.group(0))]))
                out.add(taken)
                what += f" and takes seat {taken}"
                break
        added += new
        out.add(seat)
        report.add("repaired", "self_destruct_from_sources", source_file=source_file, game=game.game_id, field="metadata.logs",
                   what=f"{what}, as the annotator log and the recap both say; no host announcement of it was read",
                   why=f"added at segment {anchor} in {phase}, the end of the seat's last turn at the table")
    if not added:
        return game
    return game.model_copy(update={"events": sorted([*game.events, *added], key=lambda e: e.segment_id if e.segment_id is not None else -1)})


def withhold_after_unresolved(items: list, unresolved: dict[str, list[tuple[int, int, str]]], report: ImportReport,
                              source_file_of) -> list:
    """The items whose cut-off comes before every unresolved exit of their game; each other one reported."""
    kept = []
    for it in items:
        doubt = [(seat, anchor, how) for seat, anchor, how in unresolved.get(it.game_id, []) if it.cutoff_segment >= anchor]
        if doubt:
            seat, anchor, how = doubt[0]
            report.add("dropped", "item_after_unresolved_exit", source_file=source_file_of(it), game=it.game_id, item=it.item_id, field=None,
                       what=f"cut-off {it.cutoff_segment} at or after seat {seat}'s exit ({how}) at segment {anchor}, which later speech contradicts",
                       why="withheld: the public record its prompt would show is in doubt")
            continue
        kept.append(it)
    return kept
