"""A seer's check, as she reports it at the table (or the annotator log says she reported it): the strict forms.

Issue 41: a loose reading (a result word within a few characters of a seat, a first person somewhere near) took a
vote ("他也是帮好人投票的"), a plan ("先验六，后验十"), a judgment ("我判断出 11 号是狼"), a rival's check ("3 号是
6 号的查杀") and a quote ("他跟我说 9 号是个好人") for her night's result. A report is read only in the forms that
say "I checked X, result R", nothing else:
- the check verb, then the seat, then its result in the same clause: "(我)(昨晚)验了 5 号，5 号是张金水",
  "验的 8 号好身份", "我查验的是 3 号，一张查杀", "我昨晚验人就是 4 号，是我的查杀";
- the table's idiom owned: "9 号是我的金水", "10 号我查杀", "我的金水是 8 号", "我给 7 号发金水", "我查杀 12 号";
- the bare idiom of a seer's jump, the seat then 金水 / 查杀 right after it ("12 查杀", "11 号金水"), or with its
  copula and a classifier ("9 是一张查杀牌"), not owned by anyone else ("6 号的查杀", "你怎么 9 查杀", "被 12 号查杀",
  "4 号是一张查杀，12 号发的" are not it);
- the seat before the verb, done ("把 7 验了，7 是个查杀"); a seat said again may be in the other numeral ("3 三").
A statement is refused when the words just before it make it a plan, a hypothesis, a vote, another game or someone
else's ("先验", "如果", "投票", "上一局", "他说", "你的", "他验了", "12 号验的"; a judgment only right before it, a
condition or an example over its whole sentence; her own seat and the audience she tells are not someone else). Its night is the one it names ("昨晚", "第二晚", "首验"),
or none (nights.claims places it). What is read is the seat's claim; the importer still checks it against the
true roles, the other sources and the seer's other checks (one a night, a living seat, not herself, none twice).
"""

from __future__ import annotations

import re

from werealign.text.zh_numbers import chinese_number

# A seat: digits, or a Chinese numeral; without 号, "一" / "两" are "a" / "two" ("验了一个查杀": a wolf, not seat 1).
_NUM = r"(?:(?<!\d)\d{1,2}(?!\d)|[一二两三四五六七八九十]{1,3})"
_SEAT = r"(?:(?P<seat>(?<!\d)\d{1,2}(?!\d)|(?![一两][^一二三四五六七八九十号])[一二三四五六七八九十]{1,3})\s*号?|(?P<seatn>[一二两三四五六七八九十]{1,3})\s*号)\s*(?:玩家|这张牌|牌)?"
_SEAT_NAMED = r"(?P<seat>" + _NUM + r")\s*号\s*(?:玩家|这张牌|牌)?"
_GOOD = r"金水|好人|好身份|良民|清水"
_WOLF = r"查杀|狼人|狼|坏人"
_CARD = r"(?:[他她这]\s*)?(?:是|为|给了?|发了?)?\s*(?:我的)?\s*(?:一|1)?\s*(?:张|个|匹|只)?\s*(?:的)?\s*"  # "，是我的查杀"
_NIGHT = r"(?:昨晚|昨天晚上|昨天夜里|昨天|今天|第[一二三四五六七八九十\d]{1,2}(?:个)?(?:天)?(?:晚上?|夜)|第[一二三四五六七八九十\d]{1,2}天|首夜|首晚)?"
# "验了 5 号，5 号是张金水", "验了 3 三是个好人": the seat may be said again (in either numeral) before its result;
# the code requires it to be the same seat.
_AGAIN = r"(?:\s*[，,]?\s*(?P<again>(?<!\d)\d{1,2}(?!\d)|[一二三四五六七八九十]{1,3})\s*号?)?"
# A result word with a seat right after it is a verb with its object ("警下验 5 号查杀 8 号": 查杀 8 号 is the check,
# 验 5 号 a plan), not the result of the seat before it.
_NO_OBJECT = r"(?!\s*(?:了)?\s*(?:(?<!\d)\d{1,2}(?!\d)|[一二两三四五六七八九十]{1,3})\s*号)"
_FORMS = [
    # the verb, then the seat, then the result (a clause of at most a few characters between)
    re.compile(r"(?:我|自己)?\s*" + _NIGHT + r"\s*(?:选择)?\s*(?:查验|验|摸|查(?!杀))\s*(?:人)?\s*(?:确实|就)?\s*(?:了|的是|的|过|是)?\s*(?:一下)?\s*(?:这个|那个)?\s*" + _SEAT
               + _AGAIN + r"\s*[，,]?\s*" + _CARD + r"(?P<result>" + _GOOD + "|" + _WOLF + r")" + _NO_OBJECT),
    # the idiom owned: "9 号是我的金水", "10 号我查杀", "3 我金水"
    re.compile(_SEAT + r"\s*(?:是|就是|为)?\s*(?:我的|我(?:验出来的|查验的|验的|查的|摸的)?)\s*(?:一张|的)?\s*(?P<result>金水|查杀)"),
    # the seat, its night, then the check: "7 号玩家第一天晚上验的金水", "5 号昨晚我验的是查杀"
    re.compile(_SEAT_NAMED + r"\s*" + _NIGHT + r"\s*我?\s*(?:验|查验|摸)的\s*(?:是)?\s*(?:一张|一个)?\s*(?P<result>金水|查杀)"),
    # "我的金水是 8 号", "我的查杀就是 12 号"
    re.compile(r"我的\s*(?P<result>金水|查杀)\s*(?:牌)?\s*(?:是|就是|给了?|给的是)\s*" + _SEAT),
    # "我给 7 号发金水", "我给了 12 号一张查杀"
    re.compile(r"我\s*" + _NIGHT + r"\s*给\s*(?:了)?\s*" + _SEAT + r"\s*(?:发)?\s*(?:了)?\s*(?:一张|一个|的)?\s*(?P<result>金水|查杀)"),
    # the seat before the verb, done: "把 7 验了，7 是个查杀", "我把五号查验了，是张金水"
    re.compile(r"把\s*" + _SEAT + r"\s*(?:给)?\s*(?:查验|验|摸)\s*了" + _AGAIN + r"\s*[，,]?\s*" + _CARD + r"(?P<result>" + _GOOD + "|" + _WOLF + r")"),
    # "我查杀 12 号", "我昨晚查杀了 5 号"
    re.compile(r"我\s*" + _NIGHT + r"\s*(?:直接)?\s*(?P<result>查杀)\s*(?:了)?\s*" + _SEAT_NAMED),
]
# The bare idiom: the seat, then 金水 / 查杀 at once, not another seat's ("6 号的查杀"), nor a count ("三个金水"), nor
# a verb with its object ("6 号查杀 4 号", "6 查杀的 3 号": 6 claims a check of the other).
# A transcript may write 金水 by its homophone 斤水 ("三斤水").
_BARE = re.compile(r"(?<![\d的])" + _SEAT + r"\s*(?P<result>金水|斤水|查杀)(?!牌都|们|\s*(?:了|过|的)|\s*(?:\d|[一二两三四五六七八九十]+)\s*号)")
# The idiom with its copula and a classifier, in her own turn: "9 是一张查杀牌", "6 号就是个金水" (a bare "X 号是金水"
# is what anyone calls another's 金水 too); not a question, nor a check another
# seat gave (a seat or he / she / you then a verb of giving right after: "4 号是一张查杀，12 号发的").
_CLASSED = re.compile(r"(?<![\d的])" + _SEAT + r"\s*(?:是|就是)\s*(?:一张|一个|个|张)\s*(?P<result>金水|查杀)\s*(?:牌)?"
                      r"(?![们的吗么呢]|\s*[，,]?\s*(?:是)?\s*(?:(?<!\d)\d{1,2}(?!\d)|[他她你])\s*号?\s*(?:发|给|验|报|查))")
# What the annotator log says a seer said: third person ("7 号跳预言家查杀 12 号", "称验 1 号为金水", "给 7 号金水").
_LOG_FORMS = [
    re.compile(r"(?:查验|验|摸)\s*(?:出|到)?\s*(?:了)?\s*" + _SEAT_NAMED + r"\s*" + _CARD + r"(?P<result>" + _GOOD + "|" + _WOLF + r")" + _NO_OBJECT),
    re.compile(r"(?:给|发|报)\s*(?:了)?\s*" + _SEAT_NAMED + r"\s*(?:发)?\s*(?:一张|一个|的|为|是)?\s*(?P<result>金水|查杀)"),
    re.compile(r"(?P<result>查杀)\s*(?:了)?\s*" + _SEAT_NAMED),
]
_BEFORE = 10  # characters before a report searched for words that make it something else
# A plan or hypothesis, a vote, another game, another player's words or check (not the audience she tells: "跟你们说").
_NOT_HERS = re.compile(
    r"警徽流|先验(?![了过出的到])|后验|再验|要验|会验|去验|想验|准备验|打算验|验谁|明天|今晚|今天晚上|下一?晚|下一轮|如果|假如|要是|万一|假设|"
    r"投票|投了|投给|票|上一?局|上一?把|上一?场|那一?局|别的局|"
    r"(?<![跟给和对诉])[他她你].{0,3}(?:说|讲|报|发|给|爆|跳)|号\s*(?:说|讲|报|发|给|爆|跳)|就说|会说|要说|他的|她的|你的|谁的|(?:\d|号|[他她你谁])\s*的\s*(?:查杀|金水)")
# A judgment or a condition holds only the words right after it ("我觉得 9 号金水", "他是狼的话 7 号查杀"): "我有可能
# 会吃刀，那我验了 3 号是个好人" and "你们想听的话我报给你们：7 号玩家第一天晚上验的金水" are her reports.
_NEAR = 3
_JUDGED = re.compile(r"想|觉得|认为|感觉|判断|像|可能|应该|的话")
# A condition holds its whole sentence: "如果说我验出来 10 号，我认定他是明女巫，验出来 10 号是查杀，…". A transcript
# marks a sentence's end with a stop or a space between two words (not the spaces around a seat's digits).
_CONDITION = re.compile(r"如果|假如|要是|万一|假设|若是|倘若|比如|比方|例如|举个例子")
# The bare idiom and the copula form name no owner: words right before them can give it to another ("你怎么 9 查杀",
# "转身发给这个 1 号金水", "你是被 12 号查杀": 12 did it); the audience she tells it to is no owner ("我告诉你们 5 号金水").
_OWNED_BY_ANOTHER = re.compile(r"(?<!告诉)(?<![跟给和对])[他她你](?!们)[^，,。]{0,5}$|(?<!我)(?:发给|给了|发了)[^，,。]{0,4}$|被\s*$")
_SENTENCE_END = re.compile(r"[。？?！!；;]|(?<=[^\d\s])\s+(?=[^\d\s号])")
# Another seat, or he / she / you, doing the check: "他验了 3 号是金水", "12 号验的 5 号查杀".
_ANOTHERS = re.compile(r"(?:[他她你]|[他她你]们|\d{1,2}\s*号|\d{1,2})\s*(?:昨晚|昨天晚上|昨天)?\s*$")


def check_reports(text: str, *, log: bool = False, speaker: int | None = None) -> list[tuple[int, int, str, str]]:
    """(position, seat, result word, the words read with what precedes them) of each check report in `text`, in order.
    `log`: the text is the annotator's account of what the seat said (third person); `speaker`: the seat speaking (she
    may name herself by her seat: "我 12 号验了…", "12 号验的…")."""
    return [r[:4] for r in check_report_spans(text, log=log, speaker=speaker)]


def clause_before(text: str, start: int) -> str:
    """The words before a report read at `start` that may make it something else: at most _BEFORE characters, and a
    stop ends their hold (only the clause the report is in counts)."""
    return re.split(r"[。？?！!；;]", text[max(0, start - _BEFORE):start])[-1]


def not_a_report(text: str, start: int, words: str) -> bool:
    """The words before a report read at `start` (`words`: what was read) make it a plan, a hypothesis, a vote, another
    game or someone else's (over its clause), a judgment (right before it) or an example or condition (over its
    sentence). Every reader of a seer's own reports refuses these (nights.own_checks too)."""
    window = clause_before(text, start)
    near = window[-_NEAR:] if len(window) > _NEAR else window
    sentence = _SENTENCE_END.split(text[:start])[-1]
    return bool(_NOT_HERS.search(window + words) or _JUDGED.search(near + words) or _CONDITION.search(sentence))


def anothers_subject(window: str, speaker: int | None) -> bool:
    """The words before a report opening with its verb name another as its subject (not "我 12 号", not her own seat)."""
    m = _ANOTHERS.search(window)
    if m is None or re.search(r"我\s*(?:是)?\s*$", window[:m.start()]):
        return False
    seat = re.match(r"(\d{1,2})", m.group(0))
    return not (seat and speaker is not None and int(seat.group(1)) == speaker)


def check_report_spans(text: str, *, log: bool = False, speaker: int | None = None) -> list[tuple[int, int, str, str, int]]:
    """check_reports, each with the end of the words read (a list of reports told in a run: nights.recounts)."""
    found: list[tuple[int, int, str, str, int]] = []
    spans: list[tuple[int, int]] = []
    for form in _LOG_FORMS if log else [*_FORMS, _BARE, _CLASSED]:  # the stricter forms first: a span read once
        for m in form.finditer(text):
            seat = seat_of(m.group("seat") or m.groupdict().get("seatn") or "")
            again = m.groupdict().get("again")
            if seat is None or (again and seat_of(again) != seat) or any(a < m.end() and m.start() < b for a, b in spans):
                continue
            window = clause_before(text, m.start())
            if not_a_report(text, m.start(), m.group(0)):
                continue
            if form in (_BARE, _CLASSED) and _OWNED_BY_ANOTHER.search(window):
                continue
            # a report opening with its verb ("验了…", "把 7 验了"): the words before are its subject, which must be hers
            opens_with_seat = m.start() in {m.start(g) for g in ("seat", "seatn") if g in m.re.groupindex and m.group(g)}
            if not log and not opens_with_seat and not m.group(0).startswith(("我", "自己")) and anothers_subject(window, speaker):
                spans.append((m.start(), m.end()))  # another's check: no weaker form reads its words again ("12 号验的 5 号查杀")
                continue
            spans.append((m.start(), m.end()))
            found.append((m.start(), seat, m.group("result"), window + m.group(0), m.end()))
    return sorted(found)


def seat_of(word: str) -> int | None:
    """A seat said in digits or a numeral; a numeral said twice over ("五五": a transcript's stammer) is that seat."""
    n = chinese_number(word)
    if n is None and len(word) == 2 and word[0] == word[1]:
        n = chinese_number(word[0])
    return n


def result_side(word: str) -> str:
    """'wolf' or 'good' for a result word."""
    return "wolf" if re.fullmatch(_WOLF, word) else "good"
