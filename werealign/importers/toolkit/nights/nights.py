"""Night actions stated in a recognisable form in the annotator log (`metadata.logs`) and the host's recap.

The release records no night action in a structured field. The log describes each seat in a clause ("N 号是<role>，…",
"N 号（<role>）…") and often the nights in a run ("夜间行动：第一晚狼人刀 8 号，女巫 12 号救 8 号；第二晚…"). Read only as
structured facts (actor, night, skill, target, result), each with the words it was read from as its evidence:
- Own clause: in the clause of a seat whose stated role is its TRUE role, a phrase that starts with its night and a
  verb of that role ("第一晚救 4 号", "第二晚守 3 号", a seer's "首验 11 号是狼"); a poison or a kill the seat met
  ("第二晚被女巫毒死", "第二晚被狼人刀死", "被 9 号刀死" when 9 is a wolf); a wolf's own knife ("第二晚刀死 8 号").
- Named actor under a night (after "第N晚 / 首晚 / 次晚", until the day or an unnumbered night): "女巫 8 号毒 1 号",
  "预言家验 8 号金水", "守卫 4 号守护了女巫 5 号" (a seat named must hold the role; a role alone, one seat only).
- The wolves' kill (seen by every wolf) under a night: the pack or a wolf, a verb of killing, the target, maybe
  described ("狼队落刀到女巫 8 号", "刀了白天发言像神的 8 号"); the victim first ("8 号遭遇首刀"); a wolf knifing itself
  ("9 号狼人自刀"); a stated empty knife (no target); anywhere, the night after the killer ("狼队在第三晚杀死了 1 号").
Issue 41 adds: a seer's check named by its night anywhere ("11 号第一晚的金水9 号"), a witch's antidote by nickname
or seat alone ("女巫风情云选择使用解药"), a protection told from the protected seat ("6 号被守卫5 号成功守护"), the
guard's own night in the recap ("4 号选择守自己", "守卫 3 号空手"), a knife ending a sub-clause and its victim opening
the next ("狼队选择落刀，村民1 号"), targets by the nicknames the recap maps to seats (nights.nicknames).
Never read: a sub-clause with a word of speech ("称", "跳", "说", "认", "遗言", …: a claim is what a bluffing wolf
makes; a "悍跳狼" description is none), a passive protection ("被 5 号守护"), an action without a seat or a night.
Refused, and reported: a night the game does not have, a target that is no seat, a seer result that contradicts
the true roles, both potions on one night, two targets for one skill on one night. A seer check takes the result
stated ("是狼", "金水", "查杀"), else the target's true side for the plain roles.

The wording lives in nights.night_words, the clause readers in nights.night_clauses, the checks of each reading
against the game in nights.night_record; this module walks the text clause by clause.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.toolkit.nights import night_words as w
from werealign.importers.toolkit.nights.night_clauses import named, named_actions, named_kills, nicknamed, nth_night_checks, nth_night_kills, own, unsaid_killer
from werealign.importers.toolkit.nights.night_record import NightRecord, Reading, drop_conflicts
from werealign.importers.toolkit.nights.night_story import Clock
from werealign.importers.toolkit.nights.nicknames import nickname_patterns, recap_nicknames
from werealign.importers.toolkit.nights.split_acts import split_acts
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.text.zh_numbers import chinese_number
from werealign.schema import Event, Evidence, Phase, SeatInfo
from werealign.schema.roles import RoleCatalogue


# A sub-clause that goes on about the night its seat's clause named ("第二晚死亡，同时毒了 11 号").
_GOES_ON = re.compile(r"(?:同时|并且|并|还|也|又)\s*")
_DAWN_CHECKED = frozenset({"witch_poison"})  # skills read under a derived night besides the kill


def _states_role(label: str, seat: SeatInfo) -> bool:
    role = ROLE_WORDS.get(seat.role)
    names = [*(role.names.get("zh", ()) if role else ()), seat.original_role_label or ""]
    return any(name and name in label for name in names)


def _night_of(m: re.Match[str]) -> int:
    groups = m.groupdict()
    if groups.get("first"):
        return 1
    # An ordinal no number reading accepts (e.g. "1二") is night 0, which no game has: reported, not read.
    return 2 if groups.get("second") else (chinese_number(groups.get("n") or groups["k"]) or 0)




def _sentence_break(m: re.Match[str]) -> str:
    """A transcript's space between two words: a stop, unless a knife's victim follows it by role."""
    knifed = m.string[max(0, m.start() - 1):m.start()] in ("刀", "杀") or m.string[max(0, m.start() - 2):m.start()] in ("刀死", "杀死")
    return m.group(0) if knifed and w.ROLE_AHEAD.match(m.string, m.end()) else "。"



def _subclauses(text: str) -> list[str]:
    """The sub-clauses (night_words.SUBCLAUSE), except that a role word alone before "、" labels the seat after it
    ("狼人首刀，村民、7 号女巫 1 号…": the victim is "村民、7 号"), and is not split from it."""
    out, pos, held = [], 0, ""
    for m in w.SUBCLAUSE.finditer(text):
        piece, pos = held + text[pos:m.start()], m.end()
        if m.group(0) == "、" and w.ROLE_AHEAD.fullmatch(piece.strip()):
            held = piece + "、"
            continue
        held = ""
        out.append(piece.strip())
    out.append((held + text[pos:]).strip())
    return out


def read_night_actions(logs: str | None, seats: Sequence[SeatInfo], phases: Sequence[Phase], language: str, *,
                       transcribed: bool = False, exits: Sequence[Event] = (), catalogue: RoleCatalogue) -> list[Reading]:
    """Every recognisable night action of the log (module docstring), in log order. `transcribed`: the text is a
    transcript of speech (the host's recap), whose sentences run on with a space between them instead of a stop.
    `exits`: the host's eliminations (a day's exile the recap tells by nickname maps it: nights.nicknames). `catalogue`:
    the game's (`catalogue_for(game.rules.declared_roles)`): who may act by a skill is its rule (`NightRecord.holds`), not a role id."""
    if not logs:
        return []
    by_seat = {s.seat: s for s in seats}
    reader = NightRecord(by_seat, {p.id for p in phases if p.kind == "night"}, language == "zh", catalogue)
    nth_night_checks(reader, logs)  # on the words as written: it needs no sentence, and its quote is verbatim
    nth_night_kills(reader, logs)
    if transcribed:  # the recap's nicknames, as its opening maps them to seats (nights.nicknames)
        reader.nicks = recap_nicknames(logs, seats, exits)
        reader.nick_patterns = nickname_patterns(reader.nicks, w.KILLER, w.KILL_VERB, w.ORDINAL)
        nicknamed(reader, None, logs)
    source_text = logs
    if transcribed:  # a space between two words (not beside a number: "女巫 7 号") ends a sentence
        logs = re.sub(r"(?<=[^\d\s])\s+(?!" + w.KNIFE_MET + r")(?=[^\d\s号])", _sentence_break, logs)
    current: SeatInfo | None = None  # the seat whose clause this is
    clock = Clock()  # the night a run of sub-clauses describes ("第一晚狼人刀 8 号，3 号救 8 号"), named or derived
    prev = ""
    for part in _subclauses(logs):
        before, prev = prev, part
        night = clock.night
        if (night is not None and (k := w.KILL_LAST.search(before)) and "被" not in before and (t := w.VICTIM_FIRST.match(part))
                and t.group("trole") and reader.role_agrees(t)):
            # "第一晚狼人首刀，村民、7 号…": the knife ends one sub-clause and its victim opens the next
            reader.derived = clock.derived
            reader.kill(night, int(t.group("seat")), k.group(0) + "，" + t.group(0))
            reader.derived = False
        if night is not None and not clock.derived and w.ANTIDOTE_FIRST.match(part) and (wm := w.WITCH_LAST.search(before)):
            if (witch := reader.one_of(skill="witch_save", seat=wm.group("actor"))) is not None:
                reader.implicit_save(witch, night, False, before[wm.start():] + part[:w.ANTIDOTE_FIRST.match(part).end()])
        if night is not None and not clock.derived:
            split_acts(reader, night, before, part, source_text)  # "而守卫 9 号，当晚选择守自己" (nights.split_acts)
        clause = w.SEAT_CLAUSE.match(part)
        if clause:
            # A seat's clause starts when the role it states is the seat's true one (else it is no clause of the
            # seat's own, e.g. a list of what someone claimed: nothing is read as its own until the next one).
            seat = by_seat.get(int(clause.group("seat")))
            label = clause.group("label") if clause.group("label") is not None else clause.group("plabel")
            current = seat if seat is not None and _states_role(label, seat) else None
            clock.reset()
            part = part[clause.end():].strip()
        if not part:
            continue
        if w.SPEECH.search(w.DESCRIPTORS.sub("", w.DESCRIBED_TARGET.sub("", part))):
            # talk at the table: nothing in it is read (nights.night_story: the clock still moves)
            clock.talk(part)
            continue
        start = w.NIGHT_START.match(part)
        if start:
            clock.named_night(_night_of(start))
            rest = part[start.end():].strip()
            if current is not None:
                own(reader, current, clock.night, rest, part)
        elif reader.holds(current, skill="seer_check") and (m := w.NTH_CHECK.match(part)):
            reader.found(current, _night_of(m), "seer_check", m, part)
        elif current is not None and clock.night is None and (k := w.KILLED_NIGHT_UNSAID.match(part)) and (
                k.group("by") is None or getattr(by_seat.get(int(k.group("by"))), "faction", None) == "wolf"):
            reader.kill_unplaced(current, part)  # "最终被狼人刀死": the host's dawn places it (nights.night_facts)
        elif current is not None and clock.night is None and (k := w.POISONED_NIGHT_UNSAID.match(part)) and (
                witch := reader.one_of(skill="witch_poison", seat=k.group("by"))) is not None:
            reader.kill_unplaced(current, part, witch, skill="witch_poison")  # "夜间被女巫毒死": likewise
        elif current is not None and clock.night is None and (k := w.ASSASSINATED_NIGHT_UNSAID.match(part)) and (
                stalker := reader.one_of(skill="stalker_assassinate", seat=k.group("by"))) is not None:
            reader.kill_unplaced(current, part, stalker, skill="stalker_assassinate")  # "后夜间被潜行者暗杀": likewise
        elif w.DAY.search(part) or w.OTHER_NIGHT.search(part.replace("平安夜", "")):
            clock.other(part)  # day again, a night of a day, a nightfall, or a night the log does not number
        elif current is not None and clock.night is not None and not clock.derived and (c := _GOES_ON.match(part)):
            # the seat's own clause goes on about the night it named: "第二晚死亡，同时毒了 11 号"
            own(reader, current, clock.night, part[c.end():], part)
        piece_before = before
        for piece, n, derived in clock.pieces(part[start.end():] if start else part, named=start is not None):
            if n is not None:
                for d in w.DEATHS.finditer(piece):
                    if not w.NEGATED.search(piece[max(0, d.start() - 2):d.end()]):
                        reader.deaths(n, [int(x) for x in re.findall(r"\d{1,2}", d.group("seats"))], part)
            if n is not None and not derived:
                named(reader, n, piece, part)
            elif n is not None:
                # a night the text does not name: only what the host's dawn can bear out, the wolves' kill (checked in
                # nights.night_facts) and a poison (its seat must die at that dawn: nights.night_truth)
                reader.derived = True
                named_kills(reader, n, piece, part)
                unsaid_killer(reader, n, piece, piece_before, part)
                named_actions(reader, n, piece, part, _DAWN_CHECKED)
                reader.derived = False
            piece_before = piece
    source = "recap" if transcribed else "annotator_log"
    # the sub-clause read is the fact's evidence (a recap's inserted stops split sub-clauses, so none is inside one)
    return [Reading(r.seat, r.text, r.event.model_copy(update={"evidence": [Evidence(source=source, quote=r.text)]}), r.why) if r.event else r
            for r in drop_conflicts(reader.readings)]
