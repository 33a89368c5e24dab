"""The true seer's checks as the host's recap tells them, read by the recap's structure rather than by phrasings (issue 41).

A recap tells the game in order: its opening lists the board, then each night ("第一晚", "首夜", "第二夜") and each
day ("警上竞选环节" is day 1, "第一天白天", "白天", "天亮", "次日") follow. A check is read where four parts stand in
one sub-clause (no comma or stop between them), in either order:
- the actor: the role word with her seat or nickname ("预言家 2 号", "真预言家木木", "预言家小仓"), the role word alone
  (the board's one seer) or her seat or nickname alone; a seat named must TRULY be the seer, and the role word alone
  is refused after a bluff word ("悍跳预言家": a wolf's fake check is no seer check);
- a verb or the table's idiom: 验 / 首验 / 验出 / 查验 / 查到 / 查杀 ("预言家 7 号查杀了 5 号"), or giving a result word
  (发 / 爆出 / 给 … 金水 / 查杀), or her result by possession ("预言家 4 号的金水 3 号");
- the target: a seat or a nickname the recap's opening maps to one seat (nights.nicknames), maybe after a role word
  the seat must hold and a short description ending in 的;
- the result, when said ("是狼人身份", "金水", "查杀"); not said, the target's side as the seer sees it when it is one.
Also the passive: "3 号被预言家（2 号）查杀 / 验出是狼人".
Refused: words of a plan, a condition, a guess or a negation between the actor and the verb ("准备验", "如果",
"没有爆出"); a gap that holds another seat (the verb is that seat's); anything in the opening (the board, no night yet).
Night: in a night's part of the recap, that night (the recap tells the check where it happened); "首验" is night 1,
"第N验" night N, "当晚" the night of its part; in a day's part, none (the day's report: nights.claims places it on
the one free night before the day, or not at all). Each check is a `Statement` of the seer (source "recap", the words
read as its evidence), so one truth check (the true roles), one check list and one dispute rule hold for every source.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.toolkit.nights.claims import Statement, seen_by_seer
from werealign.importers.toolkit.nights.nicknames import recap_nicknames
from werealign.importers.toolkit.role_words import ROLE_WORDS
from werealign.schema import Phase, SeatInfo
from werealign.schema.roles import RoleCatalogue
from werealign.text.zh_numbers import chinese_number

_CN = r"[一二三四五六七八九十]{1,3}"
_ORD = r"(?:\d{1,2}|" + _CN + r")"
_NUM_SEAT = r"(?<![\d一二三四五六七八九十])(?:\d{1,2}|" + _CN + r")(?!\d)\s*号"
# Where the recap is: a night ("第二晚", "首夜", "首页" a transcript's 首夜; not "第一晚的", a reference), a day.
_NIGHT_MARK = re.compile(r"第(?P<n>" + _ORD + r")\s*(?:个)?(?:晚|夜)(?!\s*的)|(?P<first>首)(?:晚|夜|页)(?!\s*的)")
# ("白天" alone is no mark: "刀白天发言像神的 8 号" describes a seat; a day is "第N天白天".)
_DAY_MARK = re.compile(r"第(?P<n>" + _ORD + r")\s*(?:天|日)|竞选|天亮|次日|翌日")
_BREAK = r"，,。；;！!？?：:"
_RESULT_WORDS = r"金水|查杀|清水|好人|好身份|神牌|神|狼人|狼"
_WOLF_RESULTS = {"查杀", "狼人", "狼"}
# Between the actor and the verb: a plan, a condition, a guess, a negation, or another seat: not her check.
_NOT_HERS = re.compile(r"准备|打算|计划|要|想|会|警徽流|如果|假如|若|万一|认为|觉得|怀疑|猜|可能|应该|没|未|不|并非|\d|号")
# Right before the role word alone: a claim ("悍跳预言家", "发言跳预言家") or a fake one: a seat's bluff, not the seer.
_BLUFF = re.compile(r"跳\s*$|[假冒]\s*$|狼人?\s*$")
_ROLE_WORDS = sorted({n for r in ROLE_WORDS.roles.values() for n in r.names.get("zh", ())}, key=len, reverse=True)


def recap_checks(recap: str | None, seats: Sequence[SeatInfo], phases: Sequence[Phase], catalogue: RoleCatalogue) -> list[Statement]:
    """The true seer's checks the recap tells (module docstring), in recap order, as statements of the seer."""
    seers = [s for s in seats if catalogue.holds(s.role, skill="seer_check")]  # the catalogue's checker, whatever its id
    if not recap or len(seers) != 1:
        return []  # no seer, or two (whose check is whose the role word cannot say)
    seer = seers[0]
    by_seat = {s.seat: s for s in seats}
    nicks = recap_nicknames(recap, seats)
    grammar = _Grammar(seer, nicks, by_seat)
    last_day = max((p.day for p in phases), default=1)
    out: list[Statement] = []
    for part, where in _parts(recap):
        if where is None:
            continue  # the opening: the board, no night yet
        kind, n = where
        for m, verb_night, target_seat, said in grammar.checks(part):
            target = by_seat.get(target_seat)
            if target is None or target.seat == seer.seat:
                continue
            seen = seen_by_seer(target, catalogue)
            side = ("wolf" if said in _WOLF_RESULTS else "good") if said else (next(iter(seen)) if len(seen) == 1 else None)
            if side is None:
                continue
            word = said or ("查杀" if side == "wolf" else "金水")
            night = verb_night if verb_night is not None else (n if kind == "night" else None)
            day = max(n, night or 0) if kind == "day" else min(n, last_day)
            out.append(Statement(seer.seat, skill="seer_check", target=target.seat, result=word, day=day, night=night, text=m.group(0).strip(), source="recap",
                                 placed="the recap's account of the seer's check"))
    return out


def _parts(recap: str) -> list[tuple[str, tuple[str, int] | None]]:
    """The recap cut at every night or day mark, each part with where the recap is: ("night", N), ("day", N), or None
    before the first night. A day with no number follows the last night told."""
    marks = sorted([*(m for m in _NIGHT_MARK.finditer(recap) if not _names_her_night(recap, m)), *_DAY_MARK.finditer(recap)],
                   key=lambda m: m.start())
    out: list[tuple[str, tuple[str, int] | None]] = []
    where: tuple[str, int] | None = None
    pos = 0
    for m in marks:
        out.append((recap[pos:m.start()], where))
        pos = m.start()
        if m.re is _NIGHT_MARK:
            where = ("night", 1 if m.group("first") else (chinese_number(m.group("n")) or 0))
        elif where is not None:
            n = chinese_number(m.group("n")) if m.groupdict().get("n") else where[1]
            where = ("day", n or where[1])
    out.append((recap[pos:], where))
    return out


# The seer's role word (and a name) right before a night mark, her check verb right after it: the clause says which
# night she checked ("真预言家阿满第一晚验了大毛是狼人"), inside a part telling another moment; the mark is no boundary.
_ACTOR_BEFORE = re.compile(r"(?:真)?预言家[^\d" + _BREAK + r"]{0,6}$")
_VERB_AFTER = re.compile(r"\s*(?:就|便|则|先)?\s*(?:首验|查验|验|查到|查出)")


def _names_her_night(recap: str, m: re.Match[str]) -> bool:
    return bool(_ACTOR_BEFORE.search(recap[max(0, m.start() - 12):m.start()]) and _VERB_AFTER.match(recap, m.end()))


class _Grammar:
    """The check patterns for one game's seer and nicknames."""

    def __init__(self, seer: SeatInfo, nicks: dict[str, int], by_seat: dict[int, SeatInfo]):
        self.seer, self.nicks, self.by_seat = seer, nicks, by_seat
        own_nicks = [re.escape(k) for k, v in nicks.items() if v == seer.seat]
        target = r"(?P<seat>" + _NUM_SEAT + ("|" + "|".join(map(re.escape, sorted(nicks, key=len, reverse=True))) if nicks else "") + r")"
        role = r"(?:(?P<trole>" + "|".join(map(re.escape, _ROLE_WORDS)) + r")\s*)?"
        # a description of the target: ending in 的 ("与自己对跳的 8 号"), or a few words of where it sits ("警上后置位村民 5 号")
        desc = r"(?:[^\d" + _BREAK + r"]{0,16}?的|[^\d号" + _BREAK + r"]{0,6}?)\s*"
        result_after = r"(?:\s*(?:的)?\s*(?:身份)?\s*(?:是|为)?\s*(?:一张|一个|个|其)?\s*(?P<said>" + _RESULT_WORDS + r"))?"
        actor = (r"(?P<role>(?:真)?预言家)?\s*(?P<actor>" + _NUM_SEAT + ("|" + "|".join(own_nicks) if own_nicks else "") + r")?")
        gap = r"(?P<gap>[^\d号" + _BREAK + r"]{0,12}?)"
        verbs = (r"(?P<verb>首验|第(?P<k>" + _ORD + r")验|查验出?|验出|验到|验了|验|查到|查出|查杀了?|查杀到|查了|验证了?"
                 r"|(?P<give>发(?![言现起动])了?|爆出了?|给了?|报(?!名)了?)\s*(?P<said0>金水|查杀)?|(?P<of>的)\s*(?P<said1>金水|查杀))")
        self.active = re.compile(actor + gap + verbs + r"[，,]?\s*" + desc + role + target + result_after)
        self.passive = re.compile(role + target + r"\s*被\s*(?P<role>(?:真)?预言家)?\s*(?P<actor>" + _NUM_SEAT
                                  + ("|" + "|".join(own_nicks) if own_nicks else "") + r")?\s*"
                                  + r"(?:(?P<said0>查杀)|验出\s*(?:是|为)?\s*(?P<said1>" + _RESULT_WORDS + r")|发了?\s*(?P<said2>金水|查杀))")
        # where an actor may start: the role word, a seat, her nickname (every one is tried: a match is not greedy
        # over another actor before it)
        self.starts = re.compile(r"真?预言家|" + _NUM_SEAT + ("|" + "|".join(own_nicks) if own_nicks else ""))
        seer_named = (r"\s*(?P<role>(?:真)?预言家)?\s*(?P<actor>" + _NUM_SEAT + ("|" + "|".join(own_nicks) if own_nicks else "") + r")?\s*")
        # the target first, then hers: "3 号是预言家 2 号的金水", "小五成为了预言家的查杀", "8 号拿到了预言家的金水"
        self.owned = re.compile(role + target + r"\s*(?:是|成为了?|作为|为|拿到了?|获得了?|吃到了?|得到了?)" + seer_named
                                + r"(?:给|发)?\s*的\s*(?P<said0>金水|查杀)")
        # her check by the night it was made: "当晚的金水 5 号", "首夜的查杀狼人 9 号" (the named nights "第N晚的金水" are
        # nights.nights'; read here too, one statement list takes each once)
        self.that_night = re.compile(r"(?:当晚|首夜|首晚|第(?P<n>" + _ORD + r")(?:晚|夜))\s*(?:验)?\s*的\s*(?P<said>金水|查杀)\s*" + role + target)

    def _is_seer(self, m: re.Match[str], before: str) -> bool:
        actor = m.group("actor")
        if actor:
            seat = self.nicks.get(actor.strip()) if actor.strip() in self.nicks else chinese_number(re.sub(r"\s*号$", "", actor.strip()))
            return seat == self.seer.seat
        return bool(m.group("role")) and not _BLUFF.search(before)

    def _target(self, m: re.Match[str]) -> int | None:
        raw = m.group("seat").strip()
        return self.nicks[raw] if raw in self.nicks else chinese_number(re.sub(r"\s*号$", "", raw))

    def checks(self, part: str) -> list[tuple[re.Match[str], int | None, int, str | None]]:
        """(match, the night the verb names or None, target seat, result word or None) of every check in `part`."""
        out, ends = [], set()
        for m in (m for a in self.starts.finditer(part) if (m := self.active.match(part, a.start())) is not None):
            if not (m.group("role") or m.group("actor")) or _NOT_HERS.search(m.group("gap")) or not self._is_seer(m, part[max(0, m.start() - 4):m.start()]):
                continue
            said = m.group("said0") or m.group("said1") or m.group("said")
            if (m.group("give") or m.group("of")) and not said:
                continue  # "发 / 给 X" gives a result word, or it is no report of a check
            if m.group("verb").startswith("查杀") and said and said not in _WOLF_RESULTS:
                continue
            said = said or ("查杀" if m.group("verb").startswith("查杀") else None)
            if not self._role_agrees(m):
                continue
            night = 1 if m.group("verb") == "首验" else (chinese_number(m.group("k")) if m.group("k") else _gap_night(m.group("gap")))
            if (t := self._target(m)) is not None and m.end() not in ends:  # "预言家 2 号…" is tried at 2 too
                ends.add(m.end())
                out.append((m, night, t, said))
        for m in self.passive.finditer(part):
            if (m.group("role") or m.group("actor")) and self._is_seer(m, part[max(0, m.start("role") if m.group("role") else m.start()) - 4:m.start()]) \
                    and self._role_agrees(m) and (t := self._target(m)) is not None:
                out.append((m, None, t, m.group("said0") or m.group("said1") or m.group("said2")))
        for m in self.owned.finditer(part):
            if (m.group("role") or m.group("actor")) and self._is_seer(m, part[max(0, m.start("role") if m.group("role") else m.start()) - 4:m.start()]) \
                    and self._role_agrees(m) and (t := self._target(m)) is not None:
                out.append((m, None, t, m.group("said0")))
        for m in self.that_night.finditer(part):
            if not _BLUFF.search(part[max(0, m.start() - 4):m.start()]) and self._role_agrees(m) and (t := self._target(m)) is not None:
                named = 1 if m.group(0).startswith("首") else (chinese_number(m.group("n")) if m.group("n") else None)
                out.append((m, named, t, m.group("said")))
        return out

    def _role_agrees(self, m: re.Match[str]) -> bool:
        """A role word before the target: the seat must hold it (a plain wolf's name fits any wolf-side seat)."""
        if m.group("trole") is None:
            return True
        role, holder = ROLE_WORDS.canonical(m.group("trole")), self.by_seat.get(self._target(m) or 0)
        return holder is not None and (role == holder.role or (role == "werewolf" and holder.faction == "wolf"))


def _gap_night(gap: str) -> int | None:
    """The night named between the actor and her verb ("预言家阿满第二晚验了…": 2), or None."""
    m = _NIGHT_MARK.search(gap)
    return None if m is None else 1 if m.group("first") else chinese_number(m.group("n"))
