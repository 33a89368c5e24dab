"""A true seer's report of her check in the forms nights.check_talk leaves out: the result unsaid, or the idiom first.

check_talk reads "I checked X, result R" and the idiom owned; a seer also says, on the day after her night:
- the check done, with no result in the words ("我昨晚验的 5 号", "昨天晚上我查验了八号", "我验了 3 号"): the verb
  done (了 / 的 / 过 / 出), the seat right after it, and her night named or the first person before the verb. The result
  is then the seat's side as a seer sees it, taken only when that side is one (a plain role);
- the idiom before the seat, owned by her night ("昨晚的金水 6 号", "昨天查杀的是 4 号", "第二晚我的金水是 2 号"):
  "昨晚" / "第N晚" / "首夜" right before 金水 / 查杀, then the seat. Without her night ("我的金水 6 号") it is not read
  here: on the held-out games that form gave a seat no source states she checked (check_talk reads "我的金水是 2 号").
Refused as in check_talk (its own refusal words: a plan, a condition, a judgment, another's words or check), and a
negation or a question right around it ("没验", "验了 5 号吗"). Only her day turns are read (nights.claims); each
report is a `Statement` of hers, so the truth, her one check list, the day she first reported the seat and every
other source settle it (nights.night_facts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.toolkit.evidence import segment_of_quote
from werealign.importers.toolkit.nights.check_talk import anothers_subject, clause_before, not_a_report, seat_of
from werealign.importers.toolkit.nights.claims import Statement, night_named, seen_by_seer
from werealign.schema import Phase, SeatInfo, Utterance
from werealign.schema.roles import RoleCatalogue

_NIGHT = r"(?:昨晚|昨天晚上|昨天夜里|昨天|第[一二三四五六七八九十\d]{1,2}(?:个)?(?:天)?(?:晚上?|夜)|首夜|首晚)"
_SEAT = (r"(?P<seat>(?<!\d)\d{1,2}(?!\d)|[一二三四五六七八九十]{1,3})\s*(?P<hao>号)?\s*(?:玩家|这张牌|牌)?")
# The check done, the seat right after it: "(我)(昨晚)验的 5 号", "昨天晚上我查验了八号", "我验的人是 2 号"; her night or
# "我" before the verb, and the verb done; a description of the seat may stand before it ("验了后置位的 5 号") (了 / 过 / 出 / 到 / 的 right after it: "我验 5 号" alone may be a plan).
_DONE = re.compile(r"(?P<who>我|" + _NIGHT + r")\s*(?:" + _NIGHT + r")?\s*(?:我)?\s*(?:[呢啊呀吧嘛]\s*)?(?:我)?\s*(?:选择)?\s*(?:查验|验|摸)\s*(?:了|过|出来?|到|的)\s*(?:的)?\s*(?:人|牌)?\s*(?:确实|其实|真的)?\s*(?:是|就是)?\s*(?:一下)?\s*(?:[^\d号他她你谁，。,；;？?！!]{0,8}?的)?\s*(?:这个|那个|这张|那张)?\s*"
                   + _SEAT)
# The idiom after her night, a few words between ("昨晚我发的金水是 6 号", "昨天查杀的是 4 号"; not "你的金水", "3 号的查杀").
_IDIOM_FIRST = re.compile(r"(?P<who>" + _NIGHT + r"\s*(?:我)?[^\d号他她你谁，。,；;？?！!]{0,4}?\s*的?)\s*(?P<said>金水|查杀)\s*(?:的)?\s*(?:是|就是|给了?|发给了?)?\s*" + _SEAT)
_AROUND = re.compile(r"没|不|未|别")
_QUESTION = re.compile(r"\s*(?:号)?\s*(?:吗|么|呢|吧|？|\?)")
# A seat in Chinese numerals without 号 is often no seat ("验了一个", "验的三张"): a bare numeral needs its 号 or its
# result right after it; a classifier after any bare number makes it a count.
_RESULT_NEXT = re.compile(r"\s*[，,]?\s*(?:他|她)?\s*(?:是|就是)?\s*(?:个|一个|一张|张)?\s*(?:金水|查杀|好人|狼)")
_CLASSIFIER = re.compile(r"\s*(?:个|张|只|匹|位|轮|晚|天)")


def own_checks(utterances: Sequence[Utterance], seats: Sequence[SeatInfo], phases: Sequence[Phase], catalogue: RoleCatalogue) -> list[Statement]:
    """The true seers' reports in the two forms above, in their day turns, in order."""
    day_of = {p.id: p.day for p in phases if p.kind != "night"}
    by_seat = {s.seat: s for s in seats}
    out: list[Statement] = []
    for u in utterances:
        seer = by_seat.get(u.speaker) if isinstance(u.speaker, int) else None
        if seer is None or not catalogue.holds(seer.role, skill="seer_check") or u.phase not in day_of or u.audience is not None:
            continue
        for pattern in (_DONE, _IDIOM_FIRST):
            for m in pattern.finditer(u.text):
                seat = seat_of(m.group("seat"))
                target = by_seat.get(seat) if seat is not None else None
                if target is None or target.seat == seer.seat or not _hers(u.text, m, seer.seat):
                    continue
                if not m.group("hao") and (_CLASSIFIER.match(u.text, m.end()) or not (m.group("seat").isdigit() or _RESULT_NEXT.match(u.text, m.end()))):
                    continue  # a bare numeral is a seat only with its result right after it ("验了一，是查杀")
                said = m.groupdict().get("said")
                seen = seen_by_seer(target, catalogue)
                if said is None:
                    if len(seen) != 1:
                        continue
                    said = "查杀" if seen == {"wolf"} else "金水"
                quote = u.text[m.start():m.end()].strip()
                out.append(Statement(seer.seat, skill="seer_check", target=target.seat, result=said, day=day_of[u.phase],
                                     night=night_named(m.group(0), day_of[u.phase]), text=quote, segment_id=segment_of_quote(u, quote),
                                     placed="her report of the check, its result " + ("said" if m.groupdict().get("said") else "the seat's true side")))
    return out


def _hers(text: str, m: re.Match[str], speaker: int) -> bool:
    """check_talk's refusals (a plan, a condition, a judgment, another's words or check), a negation right before the
    verb, a question right after the seat."""
    window = clause_before(text, m.start())
    if not_a_report(text, m.start(), m.group(0)):
        return False
    if _AROUND.search(m.group(0)) or _AROUND.search(window[-2:]) or _QUESTION.match(text, m.end()):
        return False
    return m.group("who").startswith("我") or not anothers_subject(window, speaker)
