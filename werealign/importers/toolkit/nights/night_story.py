"""Where a run of the annotator log or the recap is in the game, when it does not name the night (issue 41).

Both sources tell the game in order, and name a night only now and then: "第三天白天，…，狼人 3 号果断选择自爆进入黑夜，
刀死 2 号", "夜间第三晚狼人杀死 1 号和 10 号 3 号自爆，接着狼人杀死 2 号 11 号自爆，最后狼人杀死 4 号". The clock follows
the days and nights they name, and the events that end a day:
- a night named ("第二晚", "首夜"): that night, and the day after it has its number; "第二天黑夜" (the show mostly
  counts the night after day 1 as the second, not always): that night, derived;
- a day named ("第三天白天", "第三天"): that day, no night;
- a self-destruct said as done ("3 号自爆", "选择自爆", "直接自爆"; not "自爆身份", not denied) ends its day at once: the
  night after it is the next one;
- a nightfall said of the day ("当天晚上", "进入黑夜", "天黑", "夜间行动"): the night after the day named (or after
  the night told, when a day word comes between); said while a night is told ("当晚"), that night, derived.
A night the clock derives (not named) is marked `derived`: what is read under it is only the wolves' kill, and
nights.night_facts keeps it only when the host's dawn bears it out (the seat announced dead at that night's dawn,
or the night ends the recording and the seat is announced out nowhere).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from werealign.importers.toolkit.nights import night_words as w
from werealign.text.zh_numbers import chinese_number

NIGHT_OF_DAY = re.compile(r"第(?P<n>" + w.ORDINAL + r")天\s*(?:的)?\s*(?:黑夜|晚上|夜里|夜晚|夜间|天黑|入夜)")
_DAY_NAMED = re.compile(r"第(?P<n>" + w.ORDINAL + r")(?:天|日)")
SELF_DESTRUCT = re.compile(r"(?:(?<!\d)\d{1,2}\s*号|选择|决定|直接|果断|随即|当即|立即|立刻|只能|接着|又|也)\s*(?:选择|决定)?\s*自爆(?!身份)")
_NIGHTFALL = re.compile(r"当天晚上|当天夜里|当晚|当夜|进入黑夜|进入夜晚|天黑|入夜|夜间行动|夜晚行动|夜间阶段")
# Words that make what follows someone's report or guess: a self-destruct after one is not told as done.
_REPORTED = re.compile(r"说|称|报|表示|认为|觉得|猜|建议|号召|如果|若|可能|应该|假如|要是")
# A night told (a knife, a potion, a check, a protection, a silence, a quiet night, a death...): what a night holds.
_NIGHT_DEED = re.compile(r"刀|杀|咬|毒|救|解药|守|验|查|禁|魅惑|交换|平安|死|出局")
_DENIED = re.compile(r"未|没|不|想|要|准备|打算|如果|若")


@dataclass
class Clock:
    day: int | None = None  # the last day the run named (the day after night N is day N)
    night: int | None = None  # the night the run is telling, if any
    derived: bool = False  # the night was not named: a self-destruct or a nightfall led into it

    def reset(self) -> None:
        self.day, self.night, self.derived = None, None, False

    def named_night(self, n: int) -> None:
        self.day, self.night, self.derived = n, n, False

    def other(self, part: str) -> None:
        """A sub-clause that names no night at its start: a day, a night of a day, or a nightfall (module doc). Every
        night it leads into is `derived` ("第三天晚上" may count the night after day 2 or after day 3, "当晚" may be the
        night told or the next): what is read under it must be borne out by the dawn."""
        if (m := NIGHT_OF_DAY.search(part)) and (n := chinese_number(m.group("n"))):
            self.day, self.night, self.derived = n, n, True
            return
        if (m := _DAY_NAMED.search(part)) and (n := chinese_number(m.group("n"))):
            self.day, self.night, self.derived = n, None, False
        fall = _NIGHTFALL.search(part)
        # "选择自爆进入黑夜": one way into the night, which the self-destruct moves the clock by (pieces)
        if fall is None or self.self_destructs(part[:fall.start()]):
            self.night, self.derived = None, False
            return
        if self.night is not None and not w.DAY.search(part[:fall.start()]):
            self.derived = True  # "当晚": the night told, most likely; the dawn decides
            return
        base = self.night if self.night is not None else self.day  # a day passed (the day after night N is day N)
        if base is None:
            self.night, self.derived = None, False
            return
        self.day = self.night = base + 1
        self.derived = True

    def talk(self, part: str) -> None:
        """Talk at the table: nothing in it is read and the night it told is over, but a day it names or a
        self-destruct it tells still moves the clock."""
        if not NIGHT_OF_DAY.search(part) and (m := _DAY_NAMED.search(part)) and (n := chinese_number(m.group("n"))):
            self.day = n
        self.night, self.derived = None, False
        sd = SELF_DESTRUCT.search(part)
        if sd is not None and not _REPORTED.search(part[:sd.start()]):  # "5 号说 4 号自爆了" reports; "被怀疑…自爆" does not
            self.pieces(part)

    def pieces(self, part: str, named: bool = False) -> list[tuple[str, int | None, bool]]:
        """(piece, its night, derived) for `part` cut after each self-destruct: what follows one is the next night.
        `named`: `part` is what follows a night named at its start; a self-destruct told first, with no night action
        before it ("第三晚狼 4 号自爆，剩下的狼 8 号刀 6 号"), is the day's end that led into that night (a self-destruct
        is a day's deed): what follows is that night, derived (the dawn decides)."""
        out = []
        for i, piece in enumerate(re.split(r"(?<=自爆)", part)):
            if piece:
                out.append((piece, self.night, self.derived))
            if i == 0 and named and self.night is not None and self.self_destructs(piece) and not _NIGHT_DEED.search(piece):
                self.derived = True
                continue
            if self.self_destructs(piece):
                base = self.night if self.night is not None else self.day
                if base is not None:
                    self.day = self.night = base + 1
                    self.derived = True
        return out

    @staticmethod
    def self_destructs(text: str) -> bool:
        m = SELF_DESTRUCT.search(text)
        return m is not None and not _DENIED.search(text[max(0, m.start() - 3):m.end()])
