"""A magician's swaps, as the annotator log and the recap state them (issue 41: magician games).

A magician swaps two seats' numbers for one night: the wolves' knife, the witch's potions and the other skills
aimed at one land on the other. The sources say so in passing: "魔术师 2 号交换了自己和 9 号的号码", "5 号交换 1 号和
4 号号码", "2 号当晚交换了村民 1 号和自己的号码牌", "交换了猎人、8 号和村民 7 号的号码牌". Read are the pairs a magician
seat (its true role; or the word 魔术师 with the board's one magician) is said to have swapped, never one denied ("没有
选择交换"), planned ("想交换") or told in talk ("表示自己和 6 号交换了号码": a claim, which a wolf bluffing a magician makes). The night is
not read: a pair explains only what it exactly fits (nights.night_truth: the wolves' kill and the witch's save naming
the two seats of a pair on one night; a poison whose seat lived while the other seat of its pair died at that dawn).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from werealign.importers.toolkit.nights import night_words as w
from werealign.schema import SeatInfo


# A swap denied, planned or supposed ("没有选择交换", "想交换", "如果交换"): not done.
_NOT_DONE = re.compile(r"未|没|不|想|要|准备|打算|会|如果|若|可能|应该")


def _one(k: int) -> str:
    """One seat of the pair: "自己" (the magician) or a seat, maybe after its role ("村民 1 号", "猎人、8 号", "2 和")."""
    return r"(?:(?P<self" + str(k) + r">自己)|" + w.ANY_ROLE + r"\s*、?\s*(?P<s" + str(k) + r">\d{1,2})\s*号?)"


_SWAP = re.compile(r"(?:(?P<role>魔术师)\s*)?(?:(?<!\d)(?P<actor>\d{1,2})\s*号\s*(?:魔术师)?)?\s*(?:[^\d，。；,;]{0,4}?)交换了?\s*"
                   + _one(1) + r"\s*(?:和|与|跟)\s*" + _one(2))


def stated_swaps(texts: Sequence[str | None], seats: Sequence[SeatInfo]) -> set[frozenset[int]]:
    """Every pair of seats a magician of the game is said to have swapped (module doc)."""
    by_seat = {s.seat: s for s in seats}
    magicians = [s.seat for s in seats if s.role == "magician"]
    out: set[frozenset[int]] = set()
    for text in texts:
        for m in _SWAP.finditer(text or ""):
            actor = int(m.group("actor")) if m.group("actor") else (magicians[0] if m.group("role") and len(magicians) == 1 else None)
            if actor is None or actor not in magicians:
                continue
            before = text[max(0, m.start() - 8):m.start("s1") if m.group("s1") else m.end()]
            if _NOT_DONE.search(m.group(0)) or w.SPEECH.search(before) or w.SPEECH.search(m.group(0)):
                continue
            pair = {actor if m.group(f"self{k}") else int(m.group(f"s{k}")) for k in (1, 2)}
            if len(pair) == 2 and pair <= set(by_seat):
                out.add(frozenset(pair))
    return out
