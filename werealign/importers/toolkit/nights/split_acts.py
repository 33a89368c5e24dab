"""A night act split across two sub-clauses of the log or the recap (issue 41): the actor ends one, the act opens the
next. Recaps are transcripts whose spaces become sentence breaks (nights.nights), and writers put commas where a
reader does not: "而守卫 9 号，当晚选择守自己", "女巫 7 号 选择撒毒狼人 4 号", "1 号盲毒了，村民 10 号".

Read only under a night the text names (not one derived from the host's dawns), only with the actor's seat or role
word right at the end of the first sub-clause, and only with the act at the very start of the next (its night "当晚" at
most): "前一晚选择守自己" tells another night and is not read. The seat named must hold the role; the role word
alone is the board's one holder. The quote is both pieces as the source writes them (its separator kept), so
`validate` finds it."""

from __future__ import annotations

import re

from werealign.importers.toolkit.nights import night_words as w
from werealign.importers.toolkit.nights.night_clauses import named_actions
from werealign.importers.toolkit.nights.night_record import NightRecord

_SEPARATORS = ("", "，", ",", "。", "；", ";", "、")


def quote_across(source: str, first: str, second: str) -> str:
    """`first` and `second` as the source writes them one after the other: the separator between them found in
    `source` (whitespace aside), else none."""
    flat = re.sub(r"\s+", "", source)
    for sep in _SEPARATORS:
        if re.sub(r"\s+", "", first + sep + second) in flat:
            return first + sep + second
    return first + second


def split_acts(reader: NightRecord, night: int, before: str, part: str, source: str) -> None:
    """The guard's own night and the witch's poison split across `before` and `part` (module docstring)."""
    if (ga := w.GUARD_ACT_FIRST.match(part)) and (gm := w.GUARD_LAST.search(before)):
        guard = reader.one_of(skill="guard_protect", seat=gm.group("actor"))
        if guard is not None:
            reader.act(guard, night, target=guard.seat if ga.group("self") else None, text=quote_across(source, before[gm.start():], ga.group(0)),
                       skill="guard_protect")
    if (pm := w.POISON_FIRST.match(part)) and (wm := w.WITCH_LAST.search(before)):
        joined = before[wm.start():] + pm.group(0)
        named_actions(reader, night, joined, quote_across(source, before[wm.start():], pm.group(0)), w.POISONING)
    if (tm := w.TARGET_ALONE.match(part)) and (vm := w.POISONER_VERB_LAST.search(before)):
        joined = before[vm.start():] + tm.group(0)
        named_actions(reader, night, joined, quote_across(source, before[vm.start():], tm.group(0)), w.POISONING)
