"""Seat mentions in every form a transcript or a model writes them: one reader for the audit, human-voiced
generation and the game metrics (werealign.analysis.metrics), so a seat counts the same everywhere.

Forms: digits with 号 or 号位 ("7号", "7 号", "7号位"), full-width digits ("７号": NFKC digits, which `\\d`
matches and int() reads), Chinese numerals with 号 or 号位 ("七号", "十二号位"), and "seat 7" / "player 7"
(any case, with or without the space). The narrow digits-only reader of the own-call floors
(werealign.text.seat_numbers) stays as those floors were defined.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from werealign.text.zh_numbers import chinese_number

_NUMERAL = "[一二两三四五六七八九十]{1,3}"
# A numeral run is taken whole ("十二号" is 12, not "二号"); digits never follow another digit.
SEAT_FORM = re.compile(
    rf"(?<![\d一二两三四五六七八九十])(?P<num>\d{{1,2}}|{_NUMERAL})(?P<gap>\s*)(?P<hao>号位|号)"
    r"|(?i:\b(?P<word>seat|player)(?P<wgap>\s*))(?P<wnum>\d{1,2})\b"
)
_DIGITS = "零一二三四五六七八九"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    seat: int
    form: str  # "digit", "digit-space", "numeral", "word", "name"


Names = Mapping[int, Sequence[str]]  # seat -> its name and nicknames (werealign.text.seat_names.names_of_seats)


def name_mentions(text: str, names: Names | None) -> list[Mention]:
    if not names:
        return []
    from werealign.text.seat_names import SeatReader  # seat_names reads digits through seat_numbers, not this module

    found = SeatReader({s: tuple(n) for s, n in names.items()}).name_spans(text)
    return [Mention(a, b, seat, "name") for a, b, seat in found]


def mentions(text: str, names: Names | None = None) -> list[Mention]:
    """Every seat mention of `text`, in order (numerals that are not a number up to 99, and "0号", are skipped);
    with `names` (a game's seat names and nicknames), by name too."""
    by_name = name_mentions(text, names)
    if by_name:
        return sorted(_number_mentions(text) + by_name, key=lambda m: m.start)
    return _number_mentions(text)


def _number_mentions(text: str) -> list[Mention]:
    out = []
    for m in SEAT_FORM.finditer(text):
        if m.group("num") is not None:
            seat = chinese_number(m.group("num"))
            if seat is None or seat == 0:
                continue
            form = "digit" if m.group("num").isdigit() else "numeral"
            if form == "digit" and m.group("gap"):
                form = "digit-space"
            out.append(Mention(m.start(), m.end(), seat, form))
        else:
            out.append(Mention(m.start(), m.end(), int(m.group("wnum")), "word"))
    return out


def seats_named(text: str, names: Names | None = None) -> list[int]:
    return [m.seat for m in mentions(text, names)]


def numeral(n: int) -> str:
    """12 -> '十二', 7 -> '七', 20 -> '二十' (1..99)."""
    if n < 10:
        return _DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _DIGITS[tens]) + "十" + (_DIGITS[ones] if ones else "")
