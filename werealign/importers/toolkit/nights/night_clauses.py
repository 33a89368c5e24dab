"""The clause readers of the annotator log and the recap (nights.nights says what each reads and refuses): a seat's
own clause, actions whose actor is named under a night, a seer's check or the wolves' kill named by its night
anywhere, targets named by a nickname the recap maps to a seat. Each writes what it read to a NightRecord."""

from __future__ import annotations

import re

from werealign.importers.toolkit.nights import night_words as w
from werealign.importers.toolkit.nights.night_record import NightRecord, Reading, check_result
from werealign.importers.toolkit.nights.night_story import Clock
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.text.zh_numbers import chinese_number
from werealign.schema import SeatInfo


def own(rec: NightRecord, seat: SeatInfo, night: int, rest: str, text: str) -> None:
    """The seat's own clause: a verb right after the night ("第一晚救 4 号"), the seat killed by the
    wolves ("第二晚被狼人刀死", a wolf's "首晚自刀"), a witch's antidote with its target implicit."""
    for skill, pattern in w.OWN.items():
        m = pattern.match(rest)
        if m and rec.holds(seat, skill=skill):
            rec.found(seat, night, skill, m, text)
            return
    if (m := w.POISON_OWN.match(rest)) is not None:
        witch = rec.one_of(skill="witch_poison", seat=m.group("by"))
        if witch is not None:
            rec.act(witch, night, target=seat.seat, text=text, skill="witch_poison")
        return
    m = w.KILL_OWN.match(rest)
    by = rec.by_seat.get(int(m.group("by"))) if m and m.group("by") else None
    if m and (m.group(0) != "自刀" or seat.faction == "wolf") and (not m.group("by") or (by is not None and by.faction == "wolf")):
        rec.kill(night, seat.seat, text)
    elif seat.faction == "wolf" and (m := w.KILL_BY_OWN_WOLF.match(rest)) and rec.role_agrees(m):
        rec.kill(night, int(m.group("seat")), text)
    elif rec.holds(seat, skill="witch_save") and (m := w.SAVE_OWN.match(rest)):
        rec.implicit_save(seat, night, bool(m.group("self")), text)



def named_kills(rec: NightRecord, night: int, text: str, whole: str) -> None:
    """The wolves' kill under `night`: the pack or a wolf and a verb of killing ("狼人刀 8 号", "狼兄 4 号落刀 7 号"), a
    wolf named by its seat alone ("让 9 号刀死 4 号": the seat must truly be a wolf), the victim first ("8 号遭遇首刀"),
    the victim by its role alone, a stated empty knife, a wolf knifing itself."""
    for m in [*w.KILL_NAMED.finditer(text), *w.KILL_PASSIVE.finditer(text)]:
        if rec.role_agrees(m) and not w.NEGATED.search(text[m.start():m.start("seat")]):
            rec.kill(night, int(m.group("seat")), whole)
    for m in w.KILL_ROLE.finditer(text):
        role = ROLE_WORDS.canonical(m.group("role"))
        holders = [s.seat for s in rec.by_seat.values() if s.role == role]
        if len(holders) == 1:
            rec.kill(night, holders[0], whole)
    if w.EMPTY_KILL.search(text):
        rec.kill(night, None, whole)
    for m in w.KILL_SELF.finditer(text):
        wolf = rec.by_seat.get(int(m.group("seat")))
        if wolf is not None and wolf.faction == "wolf":
            rec.kill(night, wolf.seat, whole)
    for m in w.KILL_BY_WOLF_SEAT.finditer(text):
        wolf = rec.by_seat.get(int(m.group("actor")))
        if wolf is not None and wolf.faction == "wolf" and rec.role_agrees(m) and not w.NEGATED.search(m.group(0)):
            rec.kill(night, int(m.group("seat")), whole)


def unsaid_killer(rec: NightRecord, night: int, text: str, before: str, whole: str) -> None:
    """A sub-clause that opens with a knife ("刀死 2 号", "转头刀民成功刀死村民 6 号") right after one whose subject is a
    wolf ("狼人 3 号果断选择自爆进入黑夜，刀死 2 号"): only wolves knife, so the pack's kill of `night`. Only 刀 reads
    so (a hunter's shot also 杀s); a victim of the wolf side is not read (a wolf's knife on itself says so)."""
    m = w.KILL_UNSAID.match(text)
    if m is None or not rec.role_agrees(m) or w.NEGATED.search(m.group(0)) or not _wolf_named(rec, before):
        return
    target = rec.by_seat.get(int(m.group("seat")))
    if target is not None and target.faction != "wolf":
        rec.kill(night, target.seat, whole)


def _wolf_named(rec: NightRecord, text: str) -> bool:
    """`text` has a wolf for its subject: the pack or a wolf-side role named, a self-destruct told as done (a wolf's
    deed, whoever is named: "4 号直接选择自爆", "小仓选择自爆"), or a seat that truly is a wolf told to knife ("让 9 号"):
    a seat merely mentioned ("4 号出局") is no subject of the knife after it."""
    if re.search(w.KILLER, text):
        return True
    if Clock.self_destructs(text):
        return True  # "小仓选择自爆，随后刀 9 号": only a wolf blows itself up, so the knife told next is the pack's
    # "让 9 号 | 刀死 4 号" (a transcript's space split them): the wolf the sub-clause ends on is told to knife
    m = re.search(r"(?:让|由|安排)\s*(?<!\d)(\d{1,2})\s*号\s*$", text) or re.search(r"(?<!\d)(\d{1,2})\s*号[^\d，。；,;]{0,8}?自爆", text)
    seat = rec.by_seat.get(int(m.group(1))) if m else None
    return seat is not None and seat.faction == "wolf"


def named(rec: NightRecord, night: int, text: str, whole: str) -> None:
    """Actions whose actor is named ("女巫 8 号毒 1 号", "3 号救 8 号", "预言家验 8 号金水"), the wolves' kill
    (named_kills) and a named witch's implicit antidote ("女巫 12 号用解药"), under `night`."""
    named_kills(rec, night, text, whole)
    for m in w.PROTECTED.finditer(text):
        guard = rec.by_seat.get(int(m.group("actor")))
        if rec.holds(guard, skill="guard_protect") and not w.NEGATED.search(m.group(0)):
            rec.found(guard, night, m=m, text=whole, skill="guard_protect")
    nicknamed(rec, night, text)
    for m in w.GUARD_SELF.finditer(text):
        if (m.group("role") or m.group("actor")) and not w.NEGATED.search(text[max(0, m.start() - 2):m.end()]) and not w.GUARD_MODAL.search(m.group(0)):
            guard = rec.one_of(skill="guard_protect", seat=m.group("actor"))
            if guard is not None:
                rec.act(guard, night, target=guard.seat, text=whole, skill="guard_protect")
    for m in w.GUARD_EMPTY.finditer(text):
        if (m.group("role") or m.group("actor")) and not w.NEGATED.search(text[max(0, m.start() - 2):m.end()]) and not w.GUARD_MODAL.search(m.group(0)):
            guard = rec.one_of(skill="guard_protect", seat=m.group("actor"))
            if guard is not None:
                rec.act(guard, night, target=None, text=whole, skill="guard_protect")
    for m in w.SAVE_IMPLICIT.finditer(text):
        if m.group("role_a") or m.group("role_b"):
            actor = rec.actor("witch_save", m)
            if actor is not None:
                rec.implicit_save(actor, night, bool(m.group("self")), whole)
    for m in [*w.SAVE_BY_NICKNAME.finditer(text), *w.SAVE_BY_SEAT.finditer(text)]:
        witch = rec.one_of(skill="witch_save", seat=m.group("actor"))
        if witch is not None and not w.NEGATED.search(m.group(0)):
            rec.implicit_save(witch, night, False, whole)
    named_actions(rec, night, text, whole)


def named_actions(rec: NightRecord, night: int, text: str, whole: str, skills: frozenset[str] | None = None) -> None:
    """Actions whose actor is named by seat and/or role, then the verb and the target ("女巫 8 号毒 1 号", "3 号救 8 号",
    "预言家验 8 号金水"), of `skills` (None: every skill)."""
    pos = 0
    while pos < len(text):
        for skill, pattern in w.NAMED.items():
            m = pattern.match(text, pos) if skills is None or skill in skills else None
            if m is None or not (m.group("role_a") or m.group("actor") or m.group("role_b")):
                continue
            actor = rec.actor(skill, m)
            if actor is not None and not rec.role_agrees(m):  # "守护了女巫 2 号": seat 2 must be the witch
                rec.readings.append(Reading(actor.seat, whole, None, f"seat {m.group('seat')} does not hold the role named ({m.group('trole')})"))
                pos = m.end() - 1
                break
            if actor is not None:
                rec.found(actor, 1 if m.groupdict().get("verb") == "首验" else night, skill, m, whole)
                pos = m.end() - 1
                break
        pos += 1


def nth_night_checks(rec: NightRecord, text: str) -> None:
    """A seer's check named by its night anywhere in the text: "11 号第一晚的金水9 号", "第二晚的金水村民1 号",
    "第二晚验出 5 号是金水". The seer is the seat named right before, which must truly be the seer, else the
    game's one seer when the words before name no one (a wolf's bluff is said with its seat or a word of it)."""
    for pattern in w.NTH_NIGHT_CHECKS:
        for m in pattern.finditer(text):
            before = text[max(0, m.start() - 12):m.start()]
            named = re.search(r"(\d{1,2})\s*号\s*(?:在)?\s*$", before)
            actor = m.groupdict().get("actor") or (named.group(1) if named else None)
            seer = rec.one_of(skill="seer_check", seat=actor)
            if seer is None or (actor is None and w.BLUFF.search(before)):
                continue
            rec.found(seer, chinese_number(m.group("n")) or 0, m=m, text=(named.group(0) if named else "") + m.group(0), skill="seer_check")



def nicknamed(rec: NightRecord, night: int | None, text: str) -> None:
    """Acts whose target the recap names by a nickname it maps to a seat: under `night`, the kill and the poison (and
    the guard named by his, guarding nobody or himself); with `night` None, a check named by its night (nights.nicknames)."""
    for what, pattern in rec.nick_patterns:
        for m in pattern.finditer(text) if (what == "check") == (night is None) else ():
            target = rec.by_seat[rec.nicks[m.group("nick")]]
            role = m.groupdict().get("trole")
            if role and ROLE_WORDS.canonical(role) not in (target.role, "werewolf" if target.faction == "wolf" else None):
                continue
            if what == "kill" and night is not None and not w.NEGATED.search(m.group(0)):
                rec.kill(night, target.seat, m.group(0))
            elif what == "poison" and night is not None and (witch := rec.one_of(skill="witch_poison", seat=m.group("actor"))) is not None:
                rec.act(witch, night, target=target.seat, text=m.group(0), skill="witch_poison")
            elif what in ("guard_empty", "guard_self") and night is not None and rec.holds(target, skill="guard_protect") \
                    and not w.NEGATED.search(text[max(0, m.start() - 2):m.end()]):
                rec.act(target, night, target=target.seat if what == "guard_self" else None, text=m.group(0), skill="guard_protect")
            elif what == "check" and (seer := rec.one_of(skill="seer_check", seat=None)) is not None and not w.BLUFF.search(text[max(0, m.start() - 12):m.start()]):
                result, why = check_result(m, target, rec.zh, rec.catalogue)
                if result is not None:
                    rec.act(seer, chinese_number(m.group("n")) or 0, target=target.seat, text=m.group(0), skill="seer_check", result=result)



def nth_night_kills(rec: NightRecord, text: str) -> None:
    """The wolves' kill with its night after the killer, anywhere: "狼队在第三晚杀死了 1 号"."""
    for m in w.KILL_NIGHT_AFTER.finditer(text):
        if rec.role_agrees(m) and not w.NEGATED.search(m.group(0)[:m.start("seat") - m.start()]):
            rec.kill(chinese_number(m.group("n")) or 0, int(m.group("seat")), m.group(0))
