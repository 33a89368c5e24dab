"""Seats the host's recap names by nickname, as the recap itself maps them (issue 41).

A recap opens with the board ("4 号阿花、7 号lucky 和十号大宝是三张狼人牌，2 号小五是预言家…") and later names players
by nickname only ("狼人落刀小五", "女巫毒死了悍跳狼阿花", "第二晚他已验出大宝是狼人"). Only the opening (before its
first night) is read for the map; so is a day's exile the recap tells by role and nickname ("第三天白天…扛推了村民小五"),
which the host's one exile of that day ties to a seat whose true role is that role. Only a nickname that one seat
alone carries is kept: a name the recap never ties to a seat stays unread. The acts read with a nickname for the target:
- the wolves' kill under a night: the pack (or a wolf) and a verb of killing, then the nickname, maybe after its role
  (which the seat must hold);
- the witch's poison under a night: the witch (her seat or her nickname may follow), then a verb of poisoning, a few
  words of description, the nickname;
- a seer's check named by its night: "第二晚…验出<nickname>是狼人 / 金水 / 好人", "第二晚的金水<nickname>";
- the guard's empty night or his own protection under a night, the guard named by nickname ("小五选择空手", "阿强自守").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.schema import Event, SeatInfo
from werealign.text.zh_numbers import chinese_number

_ROLE_WORDS = {n for r in ROLE_WORDS.roles.values() for n in r.names.get("zh", ())}
# "7 号lucky、", "十号大宝是", "5 号 JY 是", "4 号宋君和": a seat, then a name, then a list mark or 是.
_INTRO = re.compile(r"(?<![\d一二三四五六七八九十])(?P<seat>\d{1,2}|[一二三四五六七八九十]{1,3})\s*号\s*"
                    r"(?P<nick>[A-Za-z][A-Za-z ]{0,12}[A-Za-z]|[^\x00-\x7f\d\s，。、,；;和是号的]{2,4}?)\s*(?=[、，,和]|是)")
# The opening ends at the first night.
_FIRST_NIGHT = re.compile(r"第一[晚夜]|首[晚夜页]")


def recap_nicknames(recap: str | None, seats: Sequence[SeatInfo], exits: Sequence[Event] = ()) -> dict[str, int]:
    """Nickname -> seat, from the recap's opening and its days' exiles (`exits`: the host's eliminations); a name given
    to two seats, a role word or a seat of no seat: left out."""
    if not recap:
        return {}
    opening = recap[:m.start()] if (m := _FIRST_NIGHT.search(recap)) else ""
    found: dict[str, set[int]] = {}
    for m in _INTRO.finditer(opening):
        nick, seat = m.group("nick").strip(), chinese_number(m.group("seat"))
        if seat is not None and nick not in _ROLE_WORDS and not any(w in nick for w in ("玩家", "牌")):
            found.setdefault(nick, set()).add(seat)
    for nick, seat in _exiled_nicknames(recap, seats, exits):
        found.setdefault(nick, set()).add(seat)
    valid = {s.seat for s in seats}
    return {n: next(iter(s)) for n, s in found.items() if len(s) == 1 and s <= valid}


# A day's exile told with the player's role and nickname ("第三天白天，…成功扛推了村民小五", "狼人阿花被投票出局"): the
# host's one exile of that day is the seat. The role word is required (it is checked against the seat's true role),
# and the nickname stands last in its clause (a transcript's space, a stop or 出局 ends it).
_NICK = r"(?P<nick>[A-Za-z][A-Za-z ]{0,12}[A-Za-z]|[^\x00-\x7f\d\s，。、,；;和是号的了被]{2,3})"
_ROLE = "(?P<trole>" + "|".join(map(re.escape, sorted(_ROLE_WORDS, key=len, reverse=True))) + r")\s*"
_EXILED = (re.compile(r"(?:扛推|抗推|票出|推出|归出|放逐)了?\s*" + _ROLE + _NICK + r"\s*(?:出局)?(?=[，。；,;\s]|$)"),
           re.compile(_ROLE + _NICK + r"\s*被\s*(?:投票|票|扛推|抗推|放逐|归票)\s*出局"))
# Not a name: words of the game's time and events that can stand where a name does.
_NOT_A_NAME = re.compile(r"晚|夜|天|局|票|刀|毒|警|狼|神|民|牌|玩家|发言|最终|之后|后")
_DAY = re.compile(r"第(?P<n>[一二三四五六七八九十\d]{1,2})(?:天|日)")
_NIGHT = re.compile(r"晚|夜")


def _exiled_nicknames(recap: str, seats: Sequence[SeatInfo], exits: Sequence[Event]) -> list[tuple[str, int]]:
    """(nickname, seat) for each exile the recap tells by nickname under a day it names ("第N天", no night named
    between): the host exiled exactly one seat that day (the phase day-N), and the role word before the nickname is
    that seat's true role (a wolf's "狼人" any wolf-side role)."""
    by_seat = {s.seat: s for s in seats}
    out = []
    for pattern in _EXILED:
        for m in pattern.finditer(recap):
            day = None
            for d in _DAY.finditer(recap, 0, m.start()):
                day = d
            if day is None or _NIGHT.search(recap, day.end(), m.start()) or (n := chinese_number(day.group("n"))) is None:
                continue
            exiled = {e.target for e in exits if e.kind == "elimination" and e.result == "voted_out" and e.phase == f"day-{n}"}
            seat = by_seat.get(next(iter(exiled))) if len(exiled) == 1 else None
            nick, role = m.group("nick").strip(), m.group("trole")
            if seat is None or nick in _ROLE_WORDS or _NOT_A_NAME.search(nick):
                continue
            if ROLE_WORDS.canonical(role) not in (seat.role, "werewolf" if seat.faction == "wolf" else None):
                continue
            out.append((nick, seat.seat))
    return out


def nickname_patterns(nicks: dict[str, int], killer: str, kill_verb: str, ordinal: str) -> list[tuple[str, re.Pattern]]:
    """(what, pattern) for the acts above; every pattern has a `nick` group (the longest name tried first)."""
    if not nicks:
        return []
    alt = "(?P<nick>" + "|".join(map(re.escape, sorted(nicks, key=len, reverse=True))) + ")"
    role = "(?:(?P<trole>" + "|".join(map(re.escape, sorted(_ROLE_WORDS, key=len, reverse=True))) + r")\s*)?"
    return [
        # a short description of the target may stand between ("刀了发言像女巫的小五"): it ends in 的
        ("kill", re.compile(killer + r"[^\d，。；,;]{0,6}?" + kill_verb + r"\s*、?\s*(?:[^\d，。；,;、]{1,12}?的)?\s*" + role + alt)),
        ("poison", re.compile(r"女巫\s*(?:(?P<actor>\d{1,2})\s*号)?\s*[^\d\s，。；,;]{0,4}?\s*(?:选择|决定)?\s*(?:盲)?(?:毒死|毒杀|毒)了?"
                                    r"\s*[^\d，。；,;]{0,6}?" + alt)),
        ("check", re.compile(r"第(?P<n>" + ordinal + r")(?:晚|夜)[^\d，。；,;]{0,8}?(?:验出|验到)了?\s*" + alt
                                  + r"\s*(?:是|为)\s*(?:一张|一个|个)?\s*(?P<said>金水|查杀|好人|狼人|狼)")),
        # the guard named by his nickname, guarding nobody or himself: "小五选择空手", "阿强自守" (the seat must be the guard)
        ("guard_empty", re.compile(alt + r"\s*(?:选择了?|决定)?\s*(?:空手|空守)")),
        ("guard_self", re.compile(alt + r"\s*(?:选择了?|决定)?\s*(?:(?:守护|守)了?\s*(?:自己|自身)|自守)")),
        # "第二晚的金水小葵", "将警徽给了第一晚的查杀狼人阿花"
        ("check", re.compile(r"第(?P<n>" + ordinal + r")(?:晚|夜)\s*的\s*(?P<said>金水|查杀)\s*(?:是)?\s*" + role + alt)),
    ]
