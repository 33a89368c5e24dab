"""Night results a role's TRUE holder states at the table, read as that night's facts when the truth bears them out.

The release's logs state few night actions, but the true seer reports her checks at the table ("昨晚验了 5 号，是
金水", "12 号是我的查杀"), the witch her save or poison ("我昨晚毒了 9 号", "银水是 8 号"), the guard his
protection ("我守了 10 号", "第二天晚上守的 11 号", "第一晚空守"). Only the turns of the seat whose TRUE role has
the skill are read (a bluffing wolf's report is never its own night), only by day, and only as that seat's own
first-person report (issue 41): a seer's check in the strict forms of nights.check_talk, never a plan, a
hypothesis, a vote, another game, a quote or a rival's check; at the table "the guard / the witch did" is about a
role, not the speaker's night. A statement is kept only when the truth bears it out: a check whose stated result
agrees with the target's true side as the seer sees it (`seen_by_seer`), not of herself; a save, poison or
protection settled like every night fact (nights.night_truth).
Night: the one the statement names ("第一晚", "首夜", "昨晚" = the night before this day); a check or a protection
without one takes the night before its day only when every earlier night is known (a seer naming an old check
again, or a reader that missed one, would put it a night off); an antidote without one only on day 1 (on a later
day it may be any night's), or on the one night the log or the recap has her spend it without naming whom (her one
antidote: her word names its target); a poison without one, the night before the day (the dawn settles it).
A speaker who corrects himself ("我记错了") is read as corrected: a statement followed by a correction and then by
another of the same skill and night gives way to it.
A seer's checks form one list: one target a night, none on two nights, agreeing with the written sources; where
two disagree, neither is taken and the night is reported disputed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from werealign.importers.toolkit.evidence import segment_of_quote
from werealign.importers.toolkit.nights.check_talk import check_report_spans, result_side
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.schema import Event, Evidence, Phase, SeatInfo, Utterance
from werealign.schema.models import ACTOR
from werealign.schema.roles import RoleCatalogue
from werealign.text.zh_numbers import chinese_number

_NUM = r"(?:\d{1,2}|[一二两三四五六七八九十]{1,3})"
SEAT = r"(?P<seat>" + _NUM + r")\s*号(?:位|玩家|这张牌|牌)?"
# A seer's report: a result word ("金水", "查杀", "是个狼", "好人") with a seat next to it (nothing but a few
# characters between, no other seat or result word), and a check verb or the first person close by.
# A guard's night: "昨晚", "第二晚", "第二天晚上", "第一个晚上", "首夜" (said by day, "第二天" alone is the night before it).
# "昨天" alone said by day before his verb ("昨天我是守的 12 号") is last night too: a guard protects only at night.
_GUARD_NIGHT = r"(?:昨晚|昨天晚上|昨天(?=\s*(?:我)?\s*(?:是)?\s*守)|第.(?:个)?(?:天)?(?:晚上?|夜)|第.天|首夜|首晚)"
# Her own words, first person or her night first: "第一夜救的是 4 号", "我救的是 8 号", "我昨晚毒的是这张 9 号牌".
# ("晚上" alone names no night, but it is her report still: read, so that two reports that disagree are seen.)
_OWN_POTION = r"(?:我\s*(?:" + _GUARD_NIGHT + r"|晚上)?|(?:" + _GUARD_NIGHT + r"|晚上)\s*我?)\s*"
_SAVES = [re.compile(r"(?:我|女巫)\s*(?:昨晚|昨天晚上|第.[晚夜]|首夜|首晚)?\s*(?:用解药|开药)?\s*救了\s*" + SEAT),
          re.compile(_OWN_POTION + r"(?:用解药|开药)?\s*救的\s*(?:是|就是)?\s*(?:这张|那张)?\s*" + SEAT),
          re.compile(r"(?:我的|我)\s*银水\s*(?:是|就是)\s*" + SEAT), re.compile(SEAT + r"\s*是\s*(?:我的)\s*银水")]
_POISONS = [re.compile(r"(?:我|女巫)\s*(?:昨晚|昨天晚上|第.[晚夜]|首夜|首晚)?\s*(?:把)?\s*(?:撒毒|用毒|开毒|毒)了?\s*" + SEAT),
            re.compile(r"(?:我|女巫)\s*(?:昨晚|昨天晚上|第.[晚夜]|首夜|首晚)?\s*把\s*" + SEAT + r"\s*(?:给)?毒(?:了|死|掉)"),
            re.compile(_OWN_POTION + r"(?:撒毒|开毒)?\s*毒的\s*(?:是|就是)?\s*(?:这张|那张)?\s*" + SEAT)]
# "是" may stand before the verb done ("我是守的 4 号", "第一天晚上我是守的 4 号": the copula of a report, not a plan).
_GUARDS = [re.compile(r"(?:我|守卫)\s*" + _GUARD_NIGHT + r"?\s*(?:守了|(?:是)?\s*守的是|守护了|(?:是)?\s*守的|守)\s*" + SEAT),
           # the night first, the guard implied by whose words these are: "第二天晚上守的 11 号"
           re.compile(_GUARD_NIGHT + r"\s*我?\s*(?:守了|(?:是)?\s*守的是|守护了|(?:是)?\s*守的)\s*" + SEAT),
           # his night asked, then answered: "第二天晚上我守的是谁呢？我守的是 1 号" (the question names the night)
           re.compile(_GUARD_NIGHT + r"\s*我?\s*守的(?:是)?谁\s*(?:呢|啊|呀)?[\s，,？?]*(?:我)?\s*(?:守的是|守的|守了)\s*" + SEAT),
           # himself: "昨晚我守的还是我自己", "第一晚我守了自己" (no seat: the target is the speaker)
           re.compile(r"(?:我|" + _GUARD_NIGHT + r"\s*我)\s*" + _GUARD_NIGHT + r"?\s*(?:是)?\s*(?:选择)?\s*(?:守了|守的是|守的还是|守的|守护了|守护的是)\s*(?:我)?\s*自己")]
_EMPTY_GUARD = re.compile(r"(?:(?:我|守卫)\s*" + _GUARD_NIGHT + r"?|" + _GUARD_NIGHT + r"\s*我?)\s*(?:是)?\s*(?:空守|空手|没守|谁也没守)")
# A speaker correcting himself ("我记错了"): what he said before it about the same night is superseded by what follows.
_RETRACTED = re.compile(r"记错了|说错了|口误|搞错了|说反了")
# Words that make a nearby statement a plan, a hypothesis or someone else's: not a result of this seat.
_NOT_A_RESULT = re.compile(r"警徽流|先验|再验|要验|会验|去验|想验|准备验|打算验|验谁|明天|今晚|今天晚上|想|觉得|认为|感觉|像|可能|应该|下一?晚|下一轮|如果|假如|要是|万一|假设|的话|他说|她说|他报|她报|他发|她发|他的|她的|你的|你发|你报|发的|报的|报了?\s*" + _NUM + r"\s*号")
# "昨天验了 9" said by day: yesterday's check is last night's (a seer checks only at night).
_NIGHT_WORD = re.compile(r"(?P<yesterday>昨晚|昨天晚上|昨天(?=\s*(?:我\s*)?(?:是\s*)?(?:验|查|守))|上一轮|上一晚|上轮)|第(?P<n>[一二三四五六七八九十\d]{1,2})(?:个)?(?:[晚夜天]|轮)|(?P<first>首夜|首晚|首验)")
# A potion or a protection with its night first and no "我": a subject right before it makes it another's act; a
# question right after it asks, it does not report.
_ANOTHER_BEFORE = re.compile(r"(?:[你他她](?!们)|\d\s*号)\s*$")
_ASKED = re.compile(r"\s*(?:吗|么|？|\?)")
_WINDOW = 8  # characters before a statement searched for plan words and its night


@dataclass(frozen=True)
class Statement:
    """A night fact a true role holder stated, before it is placed on its night (night None: not named)."""

    seat: int
    skill: str
    target: int | None
    result: str | None
    day: int
    night: int | None
    text: str  # the words read, verbatim: the fact's evidence
    source: str = "utterance"  # or "annotator_log" (what the log says the seat stated)
    segment_id: int | None = None  # source utterance: the segment holding the words
    turn: int | None = None  # source utterance: the turn's index (a recount is one turn: nights.recounts)
    placed: str = ""  # how its night was found when the words do not name it
    span: tuple[int, int] | None = None  # where in the turn's text a seer's report was read (nights.recounts)


def seen_by_seer(target: SeatInfo, catalogue: RoleCatalogue) -> set[str]:
    """The results a seer's check of `target` can give ('wolf' / 'good'): a wolf-side role the catalogue marks
    `seer_sees_good` (a hidden wolf, a wolf's younger brother) may show good, and so may one the catalogue does not
    know (whether a check shows it good is not known: no result is filled in, none stated is refused)."""
    role = catalogue.get(target.role)
    if target.faction == "wolf":
        return {"wolf", "good"} if role is None or role.seer_sees_good else {"wolf"}
    return {"good"} if target.faction == "good" else {"good", "wolf"}


def read_statements(utterances: Sequence[Utterance], seats: Sequence[SeatInfo], phases: Sequence[Phase],
                    catalogue: RoleCatalogue) -> list[Statement]:
    """Every night result the holders of the seer's, witch's and guard's skills state in their day turns, in order
    (who holds a skill: the game's `catalogue`)."""
    day_of = {p.id: p.day for p in phases if p.kind != "night"}
    role_of = {s.seat: s.role for s in seats}
    out: list[Statement] = []
    for u in utterances:
        if isinstance(u.speaker, int) and u.phase in day_of and u.audience is None:
            out += [replace(st, segment_id=segment_of_quote(u, st.text), turn=u.index) for st in statements_in(u.text, u.speaker, role_of.get(u.speaker, ""), day_of[u.phase],
                                                                                                            catalogue=catalogue)]
    return out


def read_log_claims(log: str | None, seats: Sequence[SeatInfo], phases: Sequence[Phase], catalogue: RoleCatalogue) -> list[Statement]:
    """What the annotator log says a seat stated at the table ("12 号称验 1 号为金水", "7 号跳预言家查杀 12 号", a
    guard's last words "第一天空守，第二天守了 10 号"), read like the seat's own words when the seat truly holds the role.
    A sub-clause belongs to the seat it starts with ("N 号…"), else to the seat whose clause it is ("N 号是<role>，…");
    its day is the last one the log named before it ("警长竞选" day 1, "第二天" day 2), else the game's last."""
    if not log:
        return []
    role_of = {s.seat: s.role for s in seats}
    last_day = max((p.day for p in phases), default=1)
    out: list[Statement] = []
    owner: int | None = None
    day = last_day
    for sentence in re.split(r"[；;。\n]", log):
        clause_owner: int | None = None
        speaking = False  # a word of speech holds the parts after it in its sentence ("称自己是守卫，第一天空守，第二天守了 10 号")
        for part in re.split(r"[，,]", sentence):
            part = part.strip()
            lead = re.match(r"^" + SEAT, part)
            if lead is not None:
                speaking = False  # another seat's clause: what it says needs its own word of speech
            if lead is not None and (seat := chinese_number(lead.group("seat"))) in role_of:
                rest = part[lead.end():].lstrip()
                if re.match(r"(?:是|[（(])", rest) or any(rest.startswith(n) for n in _role_names(role_of[seat])):
                    owner = seat  # "N 号是<role>", "N 号<its role>": the clauses after it are the seat's own
                    day = last_day  # and a day another seat's clause named is not this one's
                clause_owner = seat
            if (d := _LOG_DAY.search(part)) is not None:
                day = 1 if d.group("election") else (chinese_number(d.group("n") or "") or day)
            who = clause_owner if clause_owner is not None else owner
            speaking = speaking or bool(_CLAIM.search(part))
            if who is not None and speaking:
                out += [replace(st, source="annotator_log") for st in statements_in(part, who, role_of.get(who, ""), day, log=True, catalogue=catalogue)]
    return out


def _role_names(role: str) -> tuple[str, ...]:
    known = ROLE_WORDS.get(role)
    return tuple(n for n in (known.names.get("zh", ()) if known else ()) if n)


# The acts a role repeats every night: an unnamed one could be any night's. (A witch's potion is used once, and a
# poisoning is settled against the dawn its night is placed on.)
_EVERY_NIGHT = frozenset({"seer_check", "guard_protect"})


def _once(fact: Statement | Event) -> bool:
    """A witch's potion: used once a game."""
    return fact.skill in ("witch_save", "witch_poison")


_LOG_DAY = re.compile(r"(?P<election>警长竞选|警上|上警|竞选警长)|第(?P<n>[一二三四五六七八九十\d]{1,2})(?:天|日)")
# A word of speech: the log reports what the seat said (its own report of a night), not what the annotator saw.
_CLAIM = re.compile(r"称|跳|报|说|表明|认下|遗言|自曝|自爆身份|验出|给.{0,6}(?:金水|查杀)|发.{0,3}(?:金水|查杀)|查杀")


def statements_in(text: str, seat: int, role: str, day: int, *, log: bool = False, catalogue: RoleCatalogue) -> list[Statement]:
    """The night results `seat` (holding `role`) states in `text`, said on `day`, in order. `log`: the text is the
    annotator's report of what the seat said, so the first person is not required of a seer's check. Which results
    a role states is the skills the game's `catalogue` says it holds, not its id: a declared role
    with the witch's potions states hers."""

    def holds(skill: str) -> bool:
        return catalogue.holds(role, skill=skill)
    patterns = [(name, p) for name, words in (("witch_save", _SAVES), ("witch_poison", _POISONS), ("guard_protect", _GUARDS))
                if holds(skill=name) for p in words]
    found: list[tuple[int, Statement]] = []
    for skill, pattern in patterns:
        for m in pattern.finditer(text):
            if not log and m.group(0).startswith(("守卫", "女巫")):
                continue  # at the table "the guard / the witch did" is about a role, not the speaker's own night
            if not m.group(0).startswith("我") and _ANOTHER_BEFORE.search(text[max(0, m.start() - 3):m.start()]) or _ASKED.match(text, m.end()):
                continue  # "你昨天守的 6 号" is another's act; "…6 号吗" a question
            target = chinese_number(m.group("seat")) if "seat" in m.groupdict() else seat  # "守了自己": himself
            before = text[max(0, m.start() - _WINDOW):m.start()] + m.group(0)
            if target is not None and not _NOT_A_RESULT.search(before):
                found.append((m.start(), Statement(seat, skill, target, None, day, night_named(before, day), before)))
    if holds(skill="seer_check"):
        found += [(pos, Statement(seat, skill="seer_check", target=target, result=result, day=day, night=night_named(said, day), text=said,
                                  span=(pos, end)))
                  for pos, target, result, said, end in check_report_spans(text, log=log, speaker=None if log else seat)]
    if holds(skill="guard_protect"):
        for m in _EMPTY_GUARD.finditer(text):
            before = text[max(0, m.start() - _WINDOW):m.end()]
            if not (log or not m.group(0).startswith("守卫")):
                continue
            if not _NOT_A_RESULT.search(before):
                found.append((m.start(), Statement(seat, skill="guard_protect", target=None, result=None, day=day, night=night_named(before, day), text=before)))
    found.sort(key=lambda f: f[0])
    fixes = [m.start() for m in _RETRACTED.finditer(text)]
    # a statement followed by a correction and then by another of the same skill and night is the one corrected
    return [st for pos, st in found
            if not any(pos < fix < later and (o.skill, o.night) == (st.skill, st.night) for fix in fixes for later, o in found)]


def night_named(text: str, day: int) -> int | None:
    named = list(_NIGHT_WORD.finditer(text))
    if not named:
        return None
    m = named[-1]  # the last night word before the statement is its own
    if m.group("yesterday"):
        return day
    return 1 if m.group("first") else chinese_number(m.group("n"))


def _is_check(*, skill: str) -> bool:
    """A seer's check: a seat is checked once (a guard may protect one again after a night)."""
    return skill == "seer_check"


def statement_events(statements: Sequence[Statement], seats: Sequence[SeatInfo], phases: Sequence[Phase],
                     known: Sequence[Event], catalogue: RoleCatalogue, zh: bool
                     ) -> tuple[list[Event], list[tuple[Statement, str]], dict[tuple, str]]:
    """(events for the statements the truth bears out, placed on their nights; the rest with why; the (actor, skill,
    night) keys in dispute, with why: neither the statement nor `known` is taken there). `known`: the night facts
    other sources hold. A seer's checks form one list: one target a night, none on two nights; sources that disagree
    on a night, or put one target on two nights, leave both out (issue 41)."""
    by_seat = {s.seat: s for s in seats}
    nights = {p.day: p.id for p in phases if p.kind == "night"}
    claimed: dict[tuple, dict] = {}  # (actor, skill, night) -> every target a source or a statement puts there, with its words
    for e in known:
        if e.kind == "skill_use" and e.skill in _EVERY_NIGHT:
            claimed.setdefault((e.actor, e.skill, e.phase), {}).setdefault(e.target, e.evidence[0].quote if e.evidence else e.note)
    filled = {(e.actor, e.skill, e.phase) for e in known if e.kind == "skill_use"}
    targets = {(e.actor, e.skill, e.target) for e in known if e.kind == "skill_use"}
    written_potion: dict[tuple, list[Event]] = {}  # (witch, potion) -> the written facts of it (used once a game)
    for e in known:
        if e.kind == "skill_use" and _once(e) and e.target is not None:
            written_potion.setdefault((e.actor, e.skill), []).append(e)
    # a save the written sources place on a night with its target left implicit ("女巫…开药"): her one antidote's night
    implicit_save: dict[int, list[int]] = {}
    for e in known:
        if e.kind == "skill_use" and e.skill == "witch_save" and e.target is None and isinstance(e.actor, int):
            implicit_save.setdefault(e.actor, []).extend(d for d, pid in nights.items() if pid == e.phase)
    outranked: dict[tuple, str] = {}  # written facts the witch's own words, naming their night, overrule
    events: list[Event] = []
    dropped: list[tuple[Statement, str]] = []
    # A potion is used once a game: a witch naming two targets for it (a slip, a mishearing) names none of them.
    potions: dict[tuple, set] = {}
    for st in statements:
        if _once(st) and st.target is not None:
            potions.setdefault((st.seat, st.skill), set()).add(st.target)
    # A statement that names its night is placed first: an unnamed one then takes a night still free.
    for st in sorted(statements, key=lambda st: st.night is None):
        if len(potions.get((st.seat, st.skill), ())) > 1:
            dropped.append((st, f"seat {st.seat} names several targets for its {st.skill}: {sorted(potions[(st.seat, st.skill)])}"))
            continue
        target = by_seat.get(st.target) if st.target is not None else None
        if st.target is not None and target is None:
            dropped.append((st, f"seat {st.target} is not a seat of the game"))
            continue
        result = None
        if st.skill == "seer_check":
            assert target is not None
            said = result_side(st.result or "")
            if target.seat == st.seat or said not in seen_by_seer(target, catalogue):
                dropped.append((st, f"the stated result ({st.result}) disagrees with seat {target.seat}'s true role ({target.role})"))
                continue
            result = ({"wolf": "狼人", "good": "好人"} if zh else {"wolf": "wolf", "good": "good"})[said]
        night = st.night
        if (st.seat, st.skill, st.target) in targets and night is None:
            continue  # already known (stated again, or by another source)
        if night is None and st.skill in _EVERY_NIGHT:
            # a nightly act whose night is not said is the last night's, and only when every earlier night is known: a
            # seer naming an old check again, or a reader that missed one, would put it a night off (issue 41)
            free = [n for n in sorted(nights) if n <= st.day and (st.seat, st.skill, nights[n]) not in filled]
            if free != [st.day]:
                dropped.append((st, f"its night is not said, and the nights free before day {st.day} are {free}, not night {st.day} alone"))
                continue
            night = st.day
        elif night is None and st.skill == "witch_save" and len(implicit_save.get(st.seat, ())) == 1 and implicit_save[st.seat][0] <= st.day:
            # "我救了 5 号" on a later day, while the log or the recap has her spend the antidote on one night without
            # naming whom: her one antidote, so that night's (the settling checks it against the dawn)
            night = implicit_save[st.seat][0]
            filled.discard((st.seat, st.skill, nights[night]))
        elif night is None and st.skill == "witch_save" and st.day > 1:
            # "X 是我的银水" said on day 3 may be night 1's save: only the dawn a poison kills settles an unnamed potion
            dropped.append((st, f"its night is not said and day {st.day} follows {st.day} nights: the antidote may be any one's"))
            continue
        elif night is None:
            night = st.day
        if night not in nights or night > st.day:
            dropped.append((st, f"the game has no night {night} before day {st.day}"))
            continue
        key = (st.seat, st.skill, nights[night])
        if st.skill in _EVERY_NIGHT:
            claimed.setdefault(key, {}).setdefault(st.target, st.text)
        for w in written_potion.get((st.seat, st.skill), []) if st.night is not None else []:
            if (w.phase, w.target) == (nights[night], st.target):
                continue
            # The annotator log numbers nights its own way; the witch says which seat she used her one potion on, on
            # which night: her word is taken, the log's (and the kill it paired with her save) is not. The dawns
            # still settle hers (nights.night_truth).
            why = f"seat {st.seat} says '{st.text}' of {nights[night]}; the written source: seat {w.target} on {w.phase}"
            outranked[(w.actor, w.skill, w.phase)] = why
            if st.skill == "witch_save":
                outranked.update({(e.actor, e.skill, e.phase): why for e in known
                                  if e.skill == "wolf_kill" and e.phase == w.phase and e.target == w.target})
            filled.discard((w.actor, w.skill, w.phase))
            targets.discard((w.actor, w.skill, w.target))
        if key in filled or (st.seat, st.skill, st.target) in targets:
            continue  # placed already, by a source or an earlier statement: any disagreement is settled below
        filled.add(key)
        targets.add((st.seat, st.skill, st.target))
        events.append(Event(kind="skill_use", phase=nights[night], segment_id=None, audience=ACTOR, actor=st.seat,
                            target=st.target, skill=st.skill, result=result,
                            note="the seat's own statement at the table, borne out by the true roles" + (f"; {st.placed}" if st.placed else ""),
                            evidence=[Evidence(source=st.source, segment_id=st.segment_id, quote=st.text)]))
    disputed = {key: "sources disagree: " + "; ".join(f"seat {t} ('{q}')" for t, q in ts.items()) for key, ts in claimed.items() if len(ts) > 1}
    disputed.update({key: "outranked by the witch's own words: " + why for key, why in outranked.items()})
    on_nights: dict[tuple, dict] = {}
    for (actor, skill, phase), ts in claimed.items():
        for t, q in ts.items():
            if t is not None and _is_check(skill=skill):
                on_nights.setdefault((actor, skill, t), {})[phase] = q
    for (actor, skill, t), phases_of in on_nights.items():
        if len(phases_of) > 1:  # a seer checks a seat once: one of the nights is wrong, which is not known
            for phase in phases_of:
                disputed.setdefault((actor, skill, phase), f"seat {t} is put on several nights: " + "; ".join(f"{p} ('{q}')" for p, q in phases_of.items()))
    # (a night whose written potion her words outrank is in dispute for the written source only: her fact stands)
    events = [e for e in events if (e.actor, e.skill, e.phase) not in disputed or (e.actor, e.skill, e.phase) in outranked]
    return events, dropped, disputed
