"""Seat mentions in every form a transcript writes them, found and renumbered in one place.

Forms: digits with 号 or 号位 ("7号", "7 号", "7号位"), Chinese numerals with 号 or 号位 ("七号",
"十二号位"), "seat 7" / "player 7", and, given a game's names (issue 45: players who call each other
"Ben" or "Benny"), a seat's name or nickname (werealign.text.seat_names). A renumbered mention keeps its form: digits stay digits (with
the same spacing), numerals stay numerals, a name becomes the new seat's name, so the form says nothing about whether a seat was changed.
The audit reads seats named by options with it (dead or absent seats), and human-voiced generation
renumbers distractors with it (werealign.generation.human_text).
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
    form: str  # "digit", "digit-space", "numeral", "word"


Names = Mapping[int, Sequence[str]]  # seat -> its name and nicknames (werealign.text.seat_names.names_of_seats)


def _name_mentions(text: str, names: Names | None) -> list[Mention]:
    if not names:
        return []
    from werealign.text.seat_names import SeatReader

    found = SeatReader({s: tuple(n) for s, n in names.items()}).name_spans(text)
    return [Mention(a, b, seat, "name") for a, b, seat in found]


def mentions(text: str, names: Names | None = None) -> list[Mention]:
    """Every seat mention of `text`, in order (numerals that are not a number up to 99 are skipped); with `names`, by name too."""
    by_name = _name_mentions(text, names)
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


def renumber(text: str, table: Mapping[int, int], names: Names | None = None, to_names: Names | None = None) -> str:
    """Every seat mention whose seat is in `table` renumbered, in one pass, each in its own form; with `names` (the
    text's game) a name too: the new seat's name in `to_names` (its game), else "seat N"."""
    by_name = [m for m in _name_mentions(text, names) if m.seat in table]
    if by_name:
        out, at = [], 0
        for m in by_name:  # names first (numbers inside a name are none), then the numbers of the pieces between
            new = table[m.seat]
            name = (to_names or {}).get(new)
            out += [renumber(text[at:m.start], table), name[0] if name else f"seat {new}"]
            at = m.end
        return "".join(out) + renumber(text[at:], table)

    def sub(m: re.Match[str]) -> str:
        if m.group("num") is not None:
            seat = chinese_number(m.group("num"))
            if seat is None or seat not in table:
                return m.group(0)
            new = table[seat]
            num = str(new) if m.group("num").isdigit() else numeral(new)
            return f"{num}{m.group('gap')}{m.group('hao')}"
        seat = int(m.group("wnum"))
        return f"{m.group('word')}{m.group('wgap')}{table[seat]}" if seat in table else m.group(0)
    return SEAT_FORM.sub(sub, text)
