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
from collections.abc import Mapping

# The reader itself is shared with the game metrics (werealign.text.seat_mentions); renumbering is the audit's.
from werealign.text.seat_mentions import SEAT_FORM, Mention, Names, mentions, numeral, seats_named  # noqa: F401 - re-exported
from werealign.text.seat_mentions import name_mentions as _name_mentions
from werealign.text.zh_numbers import chinese_number


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
