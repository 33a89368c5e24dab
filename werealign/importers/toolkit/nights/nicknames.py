"""Seats the host's recap names by nickname, as the recap itself maps them (issue 41).

A recap opens with the board ("4 号阿花、7 号lucky 和十号大宝是三张狼人牌，2 号小五是预言家…") and later names players
by nickname only ("狼人落刀小五", "女巫毒死了悍跳狼阿花", "第二晚他已验出大宝是狼人"). Only the opening (before its
first night) is read for the map, and only a nickname that one seat alone carries there is kept: a name the recap
never ties to a seat (the villagers it does not list) stays unread. The acts read with a nickname for the target:
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
from werealign.schema import SeatInfo
from werealign.text.zh_numbers import chinese_number

_ROLE_WORDS = {n for r in ROLE_WORDS.roles.values() for n in r.names.get("zh", ())}
# "7 号lucky、", "十号大宝是", "5 号 JY 是", "4 号宋君和": a seat, then a name, then a list mark or 是.
_INTRO = re.compile(r"(?<![\d一二三四五六七八九十])(?P<seat>\d{1,2}|[一二三四五六七八九十]{1,3})\s*号\s*"
                    r"(?P<nick>[A-Za-z][A-Za-z ]{0,12}[A-Za-z]|[^\x00-\x7f\d\s，。、,；;和是号的]{2,4}?)\s*(?=[、，,和]|是)")
# The opening ends at the first night.
_FIRST_NIGHT = re.compile(r"第一[晚夜]|首[晚夜页]")


def recap_nicknames(recap: str | None, seats: Sequence[SeatInfo]) -> dict[str, int]:
    """Nickname -> seat, from the recap's opening; a name given to two seats, a role word or a seat of no seat: left out."""
    if not recap:
        return {}
    opening = recap[:m.start()] if (m := _FIRST_NIGHT.search(recap)) else ""
    found: dict[str, set[int]] = {}
    for m in _INTRO.finditer(opening):
        nick, seat = m.group("nick").strip(), chinese_number(m.group("seat"))
        if seat is not None and nick not in _ROLE_WORDS and not any(w in nick for w in ("玩家", "牌")):
            found.setdefault(nick, set()).add(seat)
    valid = {s.seat for s in seats}
    return {n: next(iter(s)) for n, s in found.items() if len(s) == 1 and s <= valid}


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
